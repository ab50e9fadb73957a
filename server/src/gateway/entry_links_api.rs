//! Competition entries linked to accounts over HTTP (PROTOCOL.md §17.2b;
//! [`crate::competition::links`]):
//! - `POST /api/entry/link` `{"code"}` with the account's session → the player's next table
//!   (as `POST /api/entry`); the account's session then takes the player's seat without
//!   the code;
//! - `POST /api/entry/unlink` `{"competition"}` with the account's session → the account's
//!   link in that competition undone;
//! - `GET  /api/account/entries` → the account's linked entries, each with its next table;
//! - `POST /api/director/competitions/{id}/entries/{entry}/players/{player}/unlink` → a
//!   director undoes a player's link.
//!
//! The account's writes are cookie-authenticated, so they are refused from another site's
//! page (`cross_origin`) exactly as the other account writes; a wrong code counts against
//! the address in the limiter of `POST /api/entry` and of joins with a code.

use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::HeaderMap;
use axum::Extension;
use qipai_protocol::{ErrorCode, WireError};
use serde::Deserialize;
use serde_json::json;

use crate::accounts::{Account, COOKIE};
use crate::app::App;
use crate::competition::tables::entrants_changed;
use crate::gateway::account_api::from_this_site;
use crate::gateway::client::{bearer_or_cookie, Client};
use crate::gateway::competition_api::{
    competition_id, director, ok, parse_json, read_body, room_status, store, Answer,
};
use crate::gateway::refusal::Refusal;

type Answered = Result<Answer, Refusal>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkBody {
    code: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnlinkBody {
    competition: u64,
}

/// The account of the request's session (`account_required` without one).
async fn account(shared: &App, headers: &HeaderMap) -> Result<Account, WireError> {
    let token = bearer_or_cookie(headers, COOKIE);
    shared
        .accounts
        .session(token.as_deref(), store(shared))
        .await
}

/// `POST /api/entry/link`.
pub async fn link(
    State(shared): State<Arc<App>>,
    Extension(Client(peer)): Extension<Client>,
    req: Request,
) -> Answered {
    from_this_site(req.headers())?;
    let account = account(&shared, req.headers()).await?;
    // Counted from the request's head, as `POST /api/entry` counts.
    let codes = &shared.competitions.entry_codes;
    let attempt = codes.begin(peer, qipai_store::unix_ms())?;
    let body: LinkBody = parse_json(&read_body(req).await?)?;
    let hash = crate::competition::code_hash(&body.code);
    let linked = shared
        .competitions
        .link(&hash, account.id, &account.name)
        .await;
    let (id, entry) = match linked {
        Ok(at) => at,
        Err(e) => {
            if e.code == ErrorCode::BadEntryCode {
                attempt.failed(qipai_store::unix_ms());
            }
            return Err(e.into());
        }
    };
    drop(attempt);
    entrants_changed(shared.as_ref(), id, entry).await?;
    let room_open = |room: u64| room_status(&shared, room);
    let next = shared
        .competitions
        .entries_of(account.id, &room_open)
        .into_iter()
        .find(|v| v["competition"] == json!(id))
        .unwrap_or_default();
    Ok(ok(&next))
}

/// `POST /api/entry/unlink`.
pub async fn unlink(State(shared): State<Arc<App>>, req: Request) -> Answered {
    from_this_site(req.headers())?;
    let account = account(&shared, req.headers()).await?;
    let body: UnlinkBody = parse_json(&read_body(req).await?)?;
    let (id, entry) = shared
        .competitions
        .unlink_account(body.competition, account.id)
        .await?;
    entrants_changed(shared.as_ref(), id, entry).await?;
    Ok(ok(
        &json!({ "competition": id, "entry": entry, "unlinked": true }),
    ))
}

/// `GET /api/account/entries`.
pub async fn account_entries(State(shared): State<Arc<App>>, headers: HeaderMap) -> Answered {
    let account = account(&shared, &headers).await?;
    let room_open = |room: u64| room_status(&shared, room);
    let entries = shared.competitions.entries_of(account.id, &room_open);
    Ok(ok(&json!({
        "account": { "id": account.id, "name": account.name },
        "entries": entries,
    })))
}

/// `POST /api/director/competitions/{id}/entries/{entry}/players/{player}/unlink`.
pub async fn director_unlink(
    State(shared): State<Arc<App>>,
    Path((id, entry, player)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Answered {
    director(&shared, &headers).await?;
    let number = |s: &str, what: &str| {
        s.parse::<u32>().map_err(|_| WireError {
            code: ErrorCode::BadRequestBody,
            message: format!("{what}: a number"),
        })
    };
    let id = competition_id(&id)?;
    let (entry, player) = (number(&entry, "entry")?, number(&player, "player")?);
    let unlinked = shared
        .competitions
        .unlink_player(id, entry, player as usize)
        .await?;
    entrants_changed(shared.as_ref(), id, entry).await?;
    Ok(ok(&json!({
        "competition": id, "entry": entry, "player": player, "unlinked": unlinked,
    })))
}

/// Deleting the account undid its links in the store: the competitions and their open
/// tables learn it.
pub async fn account_deleted(shared: &App, account: u64) {
    for (id, entry) in shared.competitions.forget_account(account).await {
        if let Err(error) = entrants_changed(shared, id, entry).await {
            tracing::warn!(id, entry, error = %error.message, "a deleted account's table not told");
        }
    }
}
