//! `GET /api/games`: the one catalogue of games ([`qipai_games::catalogue`]) as JSON, for
//! the page's lobby: each game's seats, presets, offered time controls and bot levels.
//! Served with or without a store.
//!
//! # Format
//! ```text
//! {"games": [{"game": "xiangqi", "seats": 2, "presets": ["competition"],
//!             "time_controls": ["30+10", …], "bot_levels": ["beginner", …]}, …]}
//! ```

use hyper::StatusCode;

use crate::gateway::records_api::Answer;

/// The catalogue's answer.
pub fn answer() -> Answer {
    let body = serde_json::json!({ "games": qipai_games::catalogue::CATALOGUE });
    (
        StatusCode::OK,
        "application/json",
        body.to_string().into_bytes(),
    )
}
