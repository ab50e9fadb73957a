//! A competition entrant's table, from their entry code (PROTOCOL.md §17.2a): the server's
//! `POST /api/entry` answers the holder's latest round with its table's room and the seat
//! reserved for them. A bot given a code asks until the round that seats it is published,
//! then sits there with the code like the player's own page would ([`Entry::Join`]), so a
//! rehearsal can fill a competition's tables with bots.
//!
//! The lookup is one HTTP/1.1 request over the server's plain TCP (the bot speaks `ws://`
//! only), read to the end of the answer.

use std::time::Duration;

use qipai_protocol::{GameKind, RoomId};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::client::Entry;

/// The largest answer read: `POST /api/entry` answers a few hundred bytes.
const MAX_ANSWER: u64 = 64 * 1024;

/// Where an entry code's holder plays in the latest round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompetitionSeat {
    /// The competition's event as a game.
    pub game: GameKind,
    /// The latest round, from 1.
    pub round: u32,
    /// Its table, from 1.
    pub table: u32,
    pub room_id: RoomId,
    pub seat: u8,
}

impl CompetitionSeat {
    /// How the bot takes this seat: `join` with the code.
    pub fn entry(&self, code: &str) -> Entry {
        Entry::Join {
            room_id: self.room_id,
            seat: Some(self.seat),
            entry_code: Some(code.to_owned()),
        }
    }
}

/// Why no seat came of an entry code.
#[derive(Debug, thiserror::Error)]
pub enum EntryCodeError {
    #[error("{0}: only ws://host:port/… servers are reached for the entry lookup")]
    Url(String),
    #[error("could not ask {addr}: {source}")]
    Io {
        addr: String,
        source: std::io::Error,
    },
    #[error("the server refused the entry code ({status}): {body}")]
    Refused { status: u16, body: String },
    #[error("the server's answer does not read: {0}")]
    Answer(String),
    #[error("round {round} gives this entry a bye: no table to sit at")]
    Bye { round: u32 },
    #[error("round {round}, table {table} already has its result")]
    Finished { round: u32, table: u32 },
    #[error("no table for this entry within {0:?}")]
    NotPaired(Duration),
}

/// What `POST /api/entry` says of a code, as far as a bot needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The round that seats the holder is not published yet.
    Waiting,
    /// A seat at a table still to be played.
    Seat(CompetitionSeat),
}

/// The holder's seat in the latest round of their competition.
///
/// # Errors
/// A URL other than `ws://`; the connection; a refused code (`403 bad_entry_code`, `429
/// too_many_attempts`); a bye; a table that already has its result.
pub async fn look_up(url: &str, code: &str) -> Result<Lookup, EntryCodeError> {
    let addr = host_port(url)?;
    let body = serde_json::json!({ "code": code }).to_string();
    let (status, answer) =
        post(&addr, "/api/entry", &body)
            .await
            .map_err(|source| EntryCodeError::Io {
                addr: addr.clone(),
                source,
            })?;
    if status != 200 {
        return Err(EntryCodeError::Refused {
            status,
            body: answer,
        });
    }
    let v: serde_json::Value =
        serde_json::from_str(&answer).map_err(|e| EntryCodeError::Answer(e.to_string()))?;
    read_answer(&v).ok_or(EntryCodeError::Answer(answer))?
}

/// Asks every `every` until the holder's round is published (at most `give_up`).
///
/// # Errors
/// As [`look_up`]; [`EntryCodeError::NotPaired`] after `give_up`.
pub async fn wait_for_seat(
    url: &str,
    code: &str,
    every: Duration,
    give_up: Duration,
) -> Result<CompetitionSeat, EntryCodeError> {
    let until = tokio::time::Instant::now() + give_up;
    loop {
        if let Lookup::Seat(seat) = look_up(url, code).await? {
            return Ok(seat);
        }
        if tokio::time::Instant::now() + every > until {
            return Err(EntryCodeError::NotPaired(give_up));
        }
        tokio::time::sleep(every).await;
    }
}

/// The answer's meaning; `None` when it lacks what it should have.
fn read_answer(v: &serde_json::Value) -> Option<Result<Lookup, EntryCodeError>> {
    let game = match v["event"].as_str()? {
        "tuolaji" => GameKind::Tuolaji,
        "xiangqi" => GameKind::Xiangqi,
        _ => return None,
    };
    let Some(round) = v["round"].as_u64() else {
        return Some(Ok(Lookup::Waiting));
    };
    let round = u32::try_from(round).ok()?;
    if v["bye"].as_bool() == Some(true) {
        return Some(Err(EntryCodeError::Bye { round }));
    }
    let table = u32::try_from(v["table"].as_u64()?).ok()?;
    if !v["result"].is_null() {
        return Some(Err(EntryCodeError::Finished { round, table }));
    }
    Some(Ok(Lookup::Seat(CompetitionSeat {
        game,
        round,
        table,
        room_id: v["room"].as_u64()?,
        seat: u8::try_from(v["seat"].as_u64()?).ok()?,
    })))
}

/// `host:port` of a `ws://host:port/path` URL.
fn host_port(url: &str) -> Result<String, EntryCodeError> {
    let rest = url
        .strip_prefix("ws://")
        .ok_or_else(|| EntryCodeError::Url(url.to_owned()))?;
    let host = rest.split('/').next().unwrap_or_default();
    if host.is_empty() {
        return Err(EntryCodeError::Url(url.to_owned()));
    }
    Ok(if host.contains(':') && !host.ends_with(']') {
        host.to_owned()
    } else {
        format!("{host}:80")
    })
}

/// One `POST` with a JSON body; the answer's status and body.
async fn post(addr: &str, path: &str, body: &str) -> std::io::Result<(u16, String)> {
    let mut tcp = TcpStream::connect(addr).await?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    tcp.take(MAX_ANSWER).read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("an answer without headers"))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other("an answer without a status"))?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    Ok((status, body))
}

/// A chunked body's content.
fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(after.get(..size).unwrap_or(after));
        rest = after.get(size..).unwrap_or("").trim_start_matches("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_read() {
        let waiting = json!({"event": "tuolaji", "round": null});
        assert!(matches!(read_answer(&waiting), Some(Ok(Lookup::Waiting))));
        let seat = json!({"event": "tuolaji", "round": 2, "table": 5, "seat": 3,
            "room": 77, "status": "waiting", "result": null});
        let want = CompetitionSeat {
            game: GameKind::Tuolaji,
            round: 2,
            table: 5,
            room_id: 77,
            seat: 3,
        };
        assert!(matches!(read_answer(&seat), Some(Ok(Lookup::Seat(s))) if s == want));
        let bye = json!({"event": "xiangqi", "round": 1, "bye": true});
        assert!(matches!(
            read_answer(&bye),
            Some(Err(EntryCodeError::Bye { round: 1 }))
        ));
        let done = json!({"event": "xiangqi", "round": 1, "table": 2, "seat": 0, "room": 9,
            "result": "draw"});
        assert!(matches!(
            read_answer(&done),
            Some(Err(EntryCodeError::Finished { round: 1, table: 2 }))
        ));
        assert!(read_answer(&json!({"event": "go"})).is_none());
    }

    #[test]
    fn urls_and_chunks() {
        assert_eq!(
            host_port("ws://127.0.0.1:7878/ws").unwrap(),
            "127.0.0.1:7878"
        );
        assert_eq!(host_port("ws://example.org/ws").unwrap(), "example.org:80");
        assert!(host_port("wss://example.org/ws").is_err());
        assert_eq!(
            dechunk("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"),
            "hello world"
        );
    }
}
