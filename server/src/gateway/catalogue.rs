//! `GET /api/games`: the one catalogue of games ([`qipai_games::catalogue`]) as JSON, for
//! the page's lobby: each game's seats, presets, offered time controls and bot levels.
//! Served with or without a store.
//!
//! # Format
//! ```text
//! {"games": [{"game": "xiangqi", "seats": 2, "presets": ["competition"],
//!             "time_controls": ["30+10", …], "bot_levels": ["beginner", …]}, …]}
//! ```

use axum::body::Body;
use axum::http::header::{self, HeaderValue};
use axum::http::Response;

/// The catalogue's answer.
pub async fn answer() -> Response<Body> {
    let body = serde_json::json!({ "games": qipai_games::catalogue::CATALOGUE });
    let mut r = Response::new(Body::from(body.to_string()));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}
