//! The records over HTTP (JSON, read-only):
//! - `GET /api/games/{id}`: a finished game's record;
//! - `GET /api/games/{id}.pgn`: a xiangqi game as PGN (`[Format "ICCS"]`);
//! - `GET /api/games/{id}.pdn`: a draughts game as PDN 3.0;
//! - `GET /api/players/{name}/games?page=N` (or `?before=CURSOR`, the `next` of the previous
//!   page): the finished games a name sat in, newest
//!   first, [`PAGE`] a page, from page 0, each with its players and result by seat;
//! - `GET /api/account/games?page=N` (or `?before=CURSOR`): the same for the signed-in
//!   account, found by the account whatever name it played under, each game with whether it
//!   was rated and the account's rating after it.
//!
//! A record's `players` are read from the store's seats of the game, which a deleted
//! account's name no longer shows (docs/accounts.md), not from the body written at the end.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, RawPathParams, RawQuery, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::Response;
use qipai_protocol::ErrorCode;
use qipai_store::GamesFrom;

use crate::app::App;
use crate::gateway::refusal::Refusal;
use crate::persist::Persist;
use crate::room::record;

/// Games per page of a player's list.
pub const PAGE: u64 = 20;

const JSON: &str = "application/json";
const PGN: &str = "application/x-chess-pgn; charset=utf-8";
const PDN: &str = "application/x-draughts-pdn; charset=utf-8";

/// What every handler answers: a body of a content type, or a refusal.
type Answered = Result<Response<Body>, Refusal>;

/// A `200` with `body` of `content_type`.
fn answer(content_type: &'static str, body: impl Into<Body>) -> Response<Body> {
    let mut r = Response::new(body.into());
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

/// Which form of a record a `/api/games/{id}…` asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Json,
    Pgn,
    Pdn,
}

/// The store, or `not_found` on a server that keeps no records.
fn persist(shared: &App) -> Result<&Persist, Refusal> {
    shared
        .persist
        .as_ref()
        .ok_or_else(|| Refusal::not_found("this server keeps no records (no [store] configured)"))
}

/// `GET /api/nodes`: the nodes of the cluster.
pub async fn nodes(State(shared): State<Arc<App>>) -> Answered {
    persist(&shared)?;
    match shared.topology.nodes().await {
        Some((node, nodes)) => {
            let nodes: Vec<serde_json::Value> = nodes
                .into_iter()
                .map(|n| {
                    serde_json::json!({
                        "id": n.id, "addr": n.addr, "rooms": n.rooms,
                        "connections": n.connections, "heartbeat_ms": n.heartbeat_ms,
                        "draining": n.draining,
                    })
                })
                .collect();
            let body = serde_json::json!({ "node": node, "nodes": nodes });
            Ok(answer(JSON, body.to_string()))
        }
        None => Err(Refusal::not_found("this server runs alone (no [cluster])")),
    }
}

/// `GET /api/games/{id}` (and `.pgn`, `.pdn`).
pub async fn game(State(shared): State<Arc<App>>, Path(id): Path<String>) -> Answered {
    let persist = persist(&shared)?;
    let (id, form) = if let Some(id) = id.strip_suffix(".pgn") {
        (id, Form::Pgn)
    } else if let Some(id) = id.strip_suffix(".pdn") {
        (id, Form::Pdn)
    } else {
        (id.as_str(), Form::Json)
    };
    let Ok(id) = id.parse::<u64>() else {
        return Err(Refusal::not_found("no such game"));
    };
    match persist.store.record(id).await {
        Ok(Some(r)) if form == Form::Pgn => match r.pgn {
            Some(text) => Ok(answer(PGN, text)),
            None => Err(Refusal::not_found("PGN is for xiangqi games")),
        },
        Ok(Some(r)) if form == Form::Pdn => match record::pdn_of_body(id, &record::body_now(r)) {
            Some(text) => Ok(answer(PDN, text)),
            None => Err(Refusal::not_found("PDN is for draughts games")),
        },
        Ok(Some(r)) => Ok(answer(JSON, record::body_now(r))),
        Ok(None) => Err(Refusal::not_found("no finished game with that id")),
        Err(error) => Err(failed(&error)),
    }
}

/// `GET /api/players/{name}/games?page=N`. The name is read as sent and decoded here
/// (`+` is a space, as forms send it).
pub async fn player_games(
    State(shared): State<Arc<App>>,
    params: RawPathParams,
    RawQuery(query): RawQuery,
) -> Answered {
    let persist = persist(&shared)?;
    let name = params
        .iter()
        .find_map(|(k, v)| (k == "name").then(|| percent_decode(v)))
        .unwrap_or_default();
    let (page, from) = page_of(query.as_deref())?;
    let games = persist
        .store
        .player_games(name.clone(), from, PAGE)
        .await
        .map_err(|error| failed(&error))?;
    let rows: Vec<_> = games
        .iter()
        .map(|g| row(g.room, &g.game, g.finished_ms, g.seat, &g.summary))
        .collect();
    let next = next_page(games.iter().map(|g| (g.finished_ms, g.room)));
    let body = serde_json::json!({
        "name": name, "page": page, "per_page": PAGE, "games": rows, "next": next,
    });
    Ok(answer(JSON, body.to_string()))
}

/// `GET /api/account/games?page=N` (or `?before=CURSOR`): the signed-in account's games;
/// `account_required` (401) without a live session.
pub async fn account_games(
    State(shared): State<Arc<App>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Answered {
    let persist = persist(&shared)?;
    let token = crate::gateway::client::bearer_or_cookie(&headers, crate::accounts::COOKIE);
    let account = shared
        .accounts
        .session(token.as_deref(), Some(persist.store.as_ref()))
        .await?;
    let (page, from) = page_of(query.as_deref())?;
    let games = persist
        .store
        .account_games(account.id, from, PAGE)
        .await
        .map_err(|error| failed(&error))?;
    let rows: Vec<_> = games
        .iter()
        .map(|g| {
            let mut row = row(g.room, &g.game, g.finished_ms, g.seat, &g.summary);
            row["rating_after"] = g.rating_after.into();
            row
        })
        .collect();
    let next = next_page(games.iter().map(|g| (g.finished_ms, g.room)));
    let body = serde_json::json!({
        "account": {"id": account.id, "name": account.name},
        "page": page, "per_page": PAGE, "games": rows, "next": next,
    });
    Ok(answer(JSON, body.to_string()))
}

/// Which page a list of games asks for: `?page=N` (from 0), or `?before=CURSOR`.
fn page_of(query: Option<&str>) -> Result<(u64, GamesFrom), Refusal> {
    let param = |key: &str| {
        query
            .unwrap_or_default()
            .split('&')
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('=').map(str::to_owned))
    };
    let page = param("page")
        .and_then(|p| p.parse::<u64>().ok())
        .unwrap_or(0)
        .min(1_000_000);
    let from = match param("before") {
        Some(cursor) => parse_cursor(&cursor).ok_or_else(|| {
            Refusal::new(
                ErrorCode::BadRequest,
                "before: the `next` of the previous page (finished_ms.room_id)",
            )
        })?,
        None => GamesFrom::Offset(page * PAGE),
    };
    Ok((page, from))
}

/// A full page may have more after it: where the next one starts, by the time games ended
/// (a game ending meanwhile shifts numbered pages, not this).
fn next_page(games: impl ExactSizeIterator<Item = (i64, u64)>) -> Option<String> {
    let full = games.len() as u64 == PAGE;
    games
        .last()
        .filter(|_| full)
        .map(|(finished_ms, room)| format!("{finished_ms}.{room}"))
}

/// One line of a list of games, from the page's own rows: the record's summary gives the
/// players, the result, number, title and whether it was rated (no record is read whole).
fn row(room: u64, game: &str, finished_ms: i64, seat: u8, summary: &str) -> serde_json::Value {
    let record::ListFields {
        players,
        result,
        number,
        title,
        rated,
    } = record::list_fields(summary);
    serde_json::json!({
        "room_id": room,
        "number": number,
        "title": title,
        "game": game,
        "finished_ms": finished_ms,
        "seat": seat,
        "players": players,
        "result": result,
        "rated": rated,
    })
}

/// `finished_ms.room_id`, as `next` writes it.
fn parse_cursor(text: &str) -> Option<GamesFrom> {
    let (ms, room) = text.split_once('.')?;
    Some(GamesFrom::Before {
        finished_ms: ms.parse().ok()?,
        room: room.parse().ok()?,
    })
}

fn failed(error: &qipai_store::StoreError) -> Refusal {
    tracing::error!(%error, "reading a record");
    Refusal::new(ErrorCode::StoreUnavailable, "the store could not be read")
}

/// `%E7%8E%8B` → `王`; a malformed escape stays as it is.
pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_percent_decoded() {
        assert_eq!(super::percent_decode("%E7%8E%8B%20a+b%zz"), "王 a b%zz");
    }

    /// The cursor reads back what `next` writes, and nothing else.
    #[test]
    fn cursors_read_back() {
        use qipai_store::GamesFrom;
        assert_eq!(
            super::parse_cursor("1700000000123.42"),
            Some(GamesFrom::Before {
                finished_ms: 1_700_000_000_123,
                room: 42
            })
        );
        for bad in ["", "1", "1.", ".2", "a.b", "1.-2", "1.2.3"] {
            assert_eq!(super::parse_cursor(bad), None, "{bad}");
        }
    }
}
