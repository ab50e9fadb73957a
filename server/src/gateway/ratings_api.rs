//! Ratings over HTTP (JSON, read-only; PROTOCOL.md "Profiles and leaderboards"): what the
//! profile and leaderboard pages read. The ratings themselves are written with each rated
//! game's last step (docs/ratings.md); this only reads what the store keeps.
//! - `GET /api/players/{name}/profile`: a registered player's id, name, and per game its
//!   rating, deviation, rated games and history (the last [`HISTORY`] points, oldest first);
//! - `GET /api/leaderboard/{game}?limit=N`: the best live accounts at a game, best first,
//!   [`DEFAULT_LIMIT`] unless `limit` (1 to [`MAX_LIMIT`]) says otherwise.

use std::sync::Arc;

use axum::extract::{Path, RawPathParams, RawQuery, State};
use qipai_games::rating::Rating;
use qipai_protocol::{ErrorCode, GameKind};
use qipai_store::accounts::RatingRow;
use qipai_store::Store;
use serde_json::{json, Value};

use crate::app::App;
use crate::base::names;
use crate::gateway::competition_api::{ok, store, Answer};
use crate::gateway::records_api::percent_decode;
use crate::gateway::refusal::Refusal;

type Answered = Result<Answer, Refusal>;

/// Leaders shown when a request names no `limit`.
pub const DEFAULT_LIMIT: u32 = 50;

/// The most leaders one request may ask for: a leaderboard is a page, not an export.
pub const MAX_LIMIT: u32 = 100;

/// The most history points a profile gives per game (the latest): enough for its chart.
pub const HISTORY: usize = 500;

/// The store, or `not_found` on a server that keeps none (and so no accounts).
fn accounts(shared: &App) -> Result<&dyn Store, Refusal> {
    store(shared).ok_or_else(|| Refusal::not_found("this server keeps no accounts (no [store])"))
}

fn failed(error: &qipai_store::StoreError) -> Refusal {
    tracing::error!(%error, "reading ratings");
    Refusal::new(ErrorCode::StoreUnavailable, "the store could not be read")
}

/// The rating model's state as stored ([`Rating`]): its deviation, rounded, and whether the
/// rating is still provisional (docs/ratings.md); both `null` for a state that is not one.
fn certainty(r: &RatingRow) -> (Value, Value) {
    match serde_json::from_str::<Rating>(&r.state) {
        Ok(rating) => (
            json!(rating.deviation.round() as i64),
            json!(rating.provisional()),
        ),
        Err(_) => (Value::Null, Value::Null),
    }
}

/// `GET /api/players/{name}/profile`. The name is read as sent and decoded here, as the
/// player's games are; a name that cannot be a player's is `bad_name`, one that is no live
/// account's `not_found`.
pub async fn profile(State(shared): State<Arc<App>>, params: RawPathParams) -> Answered {
    let store = accounts(&shared)?;
    let raw = params
        .iter()
        .find_map(|(k, v)| (k == "name").then(|| percent_decode(v)))
        .unwrap_or_default();
    let name = names::check(&raw).map_err(|why| Refusal::new(ErrorCode::BadName, why))?;
    let account = store
        .account_by_key(names::name_key(&name))
        .await
        .map_err(|e| failed(&e))?
        .ok_or_else(|| Refusal::not_found("no account has that name"))?;
    let ratings = store.ratings(account.id).await.map_err(|e| failed(&e))?;
    let mut games = Vec::with_capacity(ratings.len());
    for r in &ratings {
        let history = store
            .rating_history(account.id, r.game.clone())
            .await
            .map_err(|e| failed(&e))?;
        let points: Vec<Value> = history
            .iter()
            .skip(history.len().saturating_sub(HISTORY))
            .map(|p| json!({ "at_ms": p.at_ms, "rating": p.rating, "room": p.room }))
            .collect();
        let (deviation, provisional) = certainty(r);
        games.push(json!({
            "game": r.game,
            "rating": r.rating,
            "deviation": deviation,
            "provisional": provisional,
            "games": history.len(),
            "updated_ms": r.updated_ms,
            "history": points,
        }));
    }
    Ok(ok(&json!({
        "id": account.id,
        "name": account.name,
        "ratings": games,
    })))
}

/// `GET /api/leaderboard/{game}?limit=N`: an unknown game is `not_found`, a `limit` that is
/// not 1 to [`MAX_LIMIT`] `bad_request`; deleted accounts are not listed.
pub async fn leaderboard(
    State(shared): State<Arc<App>>,
    Path(game): Path<String>,
    RawQuery(query): RawQuery,
) -> Answered {
    let store = accounts(&shared)?;
    let Some(kind) = GameKind::ALL.iter().find(|g| g.name() == game) else {
        return Err(Refusal::not_found("no such game (see /api/games)"));
    };
    let limit = query
        .as_deref()
        .unwrap_or_default()
        .split('&')
        .find_map(|kv| kv.strip_prefix("limit=").map(str::to_owned));
    let limit = match limit {
        None => DEFAULT_LIMIT,
        Some(text) => text
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_LIMIT).contains(n))
            .ok_or_else(|| {
                Refusal::new(
                    ErrorCode::BadRequest,
                    format!("limit: a whole number from 1 to {MAX_LIMIT}"),
                )
            })?,
    };
    let leaders = store
        .leaderboard(kind.name().to_owned(), limit)
        .await
        .map_err(|e| failed(&e))?;
    let rows: Vec<Value> = leaders
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let (deviation, provisional) = certainty(&l.rating);
            json!({
                "rank": i + 1,
                "id": l.account,
                "name": l.name,
                "rating": l.rating.rating,
                "deviation": deviation,
                "provisional": provisional,
                "games": l.games,
            })
        })
        .collect();
    Ok(ok(&json!({ "game": kind.name(), "leaders": rows })))
}
