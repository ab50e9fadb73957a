//! The records over HTTP (JSON, read-only):
//! - `GET /api/games/{id}`: a finished game's record;
//! - `GET /api/games/{id}.pgn`: a xiangqi game as PGN (`[Format "ICCS"]`);
//! - `GET /api/games/{id}.pdn`: a draughts game as PDN 3.0;
//! - `GET /api/players/{name}/games?page=N`: the finished games a name sat in, newest
//!   first, [`PAGE`] a page, from page 0, each with its players and result by seat.

use hyper::StatusCode;

use crate::app::App;
use crate::room::record;

/// Games per page of a player's list.
pub const PAGE: u64 = 20;

/// An answer: status, content type, body.
pub type Answer = (StatusCode, &'static str, Vec<u8>);

const JSON: &str = "application/json";
const TEXT: &str = "text/plain; charset=utf-8";
const PGN: &str = "application/x-chess-pgn; charset=utf-8";
const PDN: &str = "application/x-draughts-pdn; charset=utf-8";

/// Which form of a record a `/api/games/{id}…` asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Json,
    Pgn,
    Pdn,
}

fn not_found(why: &str) -> Answer {
    (StatusCode::NOT_FOUND, TEXT, format!("{why}\n").into_bytes())
}

/// Answers a `GET` of `target` (path and query) under `/api/`.
pub async fn get(target: &str, shared: &App) -> Answer {
    let Some(persist) = &shared.persist else {
        return not_found("this server keeps no records (no [store] configured)");
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let parts: Vec<&str> = path.trim_start_matches("/api/").split('/').collect();
    match parts.as_slice() {
        ["nodes"] => match shared.topology.nodes().await {
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
                (StatusCode::OK, JSON, body.to_string().into_bytes())
            }
            None => not_found("this server runs alone (no [cluster])"),
        },
        ["games", id] => {
            let (id, form) = if let Some(id) = id.strip_suffix(".pgn") {
                (id, Form::Pgn)
            } else if let Some(id) = id.strip_suffix(".pdn") {
                (id, Form::Pdn)
            } else {
                (*id, Form::Json)
            };
            let Ok(id) = id.parse::<u64>() else {
                return not_found("no such game");
            };
            match persist.store.record(id).await {
                Ok(Some(r)) if form == Form::Pgn => match r.pgn {
                    Some(text) => (StatusCode::OK, PGN, text.into_bytes()),
                    None => not_found("PGN is for xiangqi games"),
                },
                Ok(Some(r)) if form == Form::Pdn => match record::pdn_of_body(id, &r.body) {
                    Some(text) => (StatusCode::OK, PDN, text.into_bytes()),
                    None => not_found("PDN is for draughts games"),
                },
                Ok(Some(r)) => (StatusCode::OK, JSON, r.body.into_bytes()),
                Ok(None) => not_found("no finished game with that id"),
                Err(error) => failed(&error),
            }
        }
        ["players", name, "games"] => {
            let name = percent_decode(name);
            let page = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("page="))
                .and_then(|p| p.parse::<u64>().ok())
                .unwrap_or(0)
                .min(1_000_000);
            match persist
                .store
                .player_games(name.clone(), page * PAGE, PAGE)
                .await
            {
                Ok(games) => {
                    let mut rows = Vec::with_capacity(games.len());
                    for g in &games {
                        // The players and the result come from the record itself.
                        let fields = match persist.store.record(g.room).await {
                            Ok(Some(r)) => record::list_fields(&r.body),
                            Ok(None) => Default::default(),
                            Err(error) => return failed(&error),
                        };
                        let record::ListFields {
                            players,
                            result,
                            number,
                        } = fields;
                        rows.push(serde_json::json!({
                            "room_id": g.room,
                            "number": number,
                            "game": g.game,
                            "finished_ms": g.finished_ms,
                            "seat": g.seat,
                            "players": players,
                            "result": result,
                        }));
                    }
                    let games = rows;
                    let body = serde_json::json!({ "name": name, "page": page, "per_page": PAGE, "games": games });
                    (StatusCode::OK, JSON, body.to_string().into_bytes())
                }
                Err(error) => failed(&error),
            }
        }
        _ => {
            not_found("the API has /api/games/{id}, /api/games/{id}.pgn, /api/games/{id}.pdn, /api/players/{name}/games")
        }
    }
}

fn failed(error: &qipai_store::StoreError) -> Answer {
    tracing::error!(%error, "reading a record");
    (
        StatusCode::SERVICE_UNAVAILABLE,
        TEXT,
        b"the store could not be read\n".to_vec(),
    )
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
}
