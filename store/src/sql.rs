//! A write batch as SQL, once for both backends: [`statements`] turns each [`Write`] into
//! the statements it runs and their values; SQLite takes the `?N` placeholders as written,
//! PostgreSQL the same text with `$N` ([`postgres`]). Each backend prepares every statement
//! once per connection: parsing the SQL again for every row cost more than the insert.
//!
//! [`postgres`]: fn@postgres

use crate::Write;

pub const ROOM: &str = "INSERT INTO rooms (id, game, options, seed, created_ms, status, number, \
    addr) VALUES (?1, ?2, ?3, ?4, ?5, 'open', ?6, ?7)";
pub const STEP: &str = "INSERT INTO steps (room, idx, kind, seat, at_ms, lag_ms, action, \
    event_seq, epoch, sent_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
pub const SEAT: &str = "INSERT INTO seat_changes (room, seat, player, name, bot, at_ms, \
    account) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
pub const RESULT: &str = "INSERT INTO results (room, result, finished_ms) VALUES (?1, ?2, ?3) \
    ON CONFLICT (room) DO UPDATE SET result = excluded.result, \
    finished_ms = excluded.finished_ms";
pub const FINISHED: &str = "UPDATE rooms SET status = 'finished' WHERE id = ?1";
pub const CLOSED: &str =
    "UPDATE rooms SET status = 'closed', reason = ?2 WHERE id = ?1 AND status = 'open'";
pub const SESSION: &str = "INSERT INTO sessions (token_hash, player, name, bot, created_ms, \
    account) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (token_hash) DO NOTHING";
pub const RECORD: &str = "INSERT INTO records (room, game, finished_ms, body, pgn, summary) \
    VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (room) DO UPDATE SET body = excluded.body, \
    pgn = excluded.pgn, finished_ms = excluded.finished_ms, summary = excluded.summary";
pub const ROOM_NUMBER: &str = "INSERT INTO counters (name, value) VALUES ('room_number', ?1) \
    ON CONFLICT (name) DO UPDATE SET value = CASE WHEN excluded.value > counters.value \
    THEN excluded.value ELSE counters.value END";
pub const RECORD_PLAYER: &str = "INSERT INTO record_players (room, seat, name, account, \
    finished_ms) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (room, seat) DO UPDATE SET \
    name = excluded.name, account = excluded.account, finished_ms = excluded.finished_ms";

/// Every statement of a batch, for backends that prepare them all up front.
pub const ALL: [&str; 10] = [
    ROOM,
    STEP,
    SEAT,
    RESULT,
    FINISHED,
    CLOSED,
    SESSION,
    RECORD,
    RECORD_PLAYER,
    ROOM_NUMBER,
];

/// `sql` with PostgreSQL's `$N` placeholders for SQLite's `?N`.
pub fn postgres(sql: &str) -> String {
    sql.replace('?', "$")
}

/// A value bound to a placeholder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    Int(i64),
    Text(&'a str),
    Bytes(&'a [u8]),
    Null,
}

/// One statement to run with its values, in placeholder order.
pub struct Statement<'a> {
    pub sql: &'static str,
    pub values: Vec<Value<'a>>,
}

fn int(n: u64) -> Value<'static> {
    Value::Int(n as i64)
}

fn bool(b: bool) -> Value<'static> {
    Value::Int(i64::from(b))
}

fn statement<'a>(sql: &'static str, values: Vec<Value<'a>>) -> Statement<'a> {
    Statement { sql, values }
}

/// The statements `write` runs, in order.
pub fn statements(write: &Write) -> Vec<Statement<'_>> {
    use Value::{Bytes, Int, Null, Text};
    match write {
        Write::Room(r) => vec![statement(
            ROOM,
            vec![
                int(r.id),
                Text(&r.game),
                Bytes(&r.options),
                int(r.seed),
                Int(r.created_ms),
                r.number.map_or(Null, int),
                r.addr.as_deref().map_or(Null, Text),
            ],
        )],
        Write::Step(s) => vec![statement(
            STEP,
            vec![
                int(s.room),
                int(s.index),
                Int(s.kind as i64),
                Int(i64::from(s.seat)),
                int(s.at_ms),
                int(s.lag_ms),
                s.action.as_deref().map_or(Null, Bytes),
                int(s.event_seq),
                int(s.epoch),
                s.sent_ms.map_or(Null, int),
            ],
        )],
        Write::Seat(s) => vec![statement(
            SEAT,
            vec![
                int(s.room),
                Int(i64::from(s.seat)),
                s.player.map_or(Null, int),
                Text(&s.name),
                bool(s.bot),
                int(s.at_ms),
                s.account.map_or(Null, int),
            ],
        )],
        Write::Result {
            room,
            result,
            finished_ms,
        } => vec![
            statement(RESULT, vec![int(*room), Text(result), Int(*finished_ms)]),
            statement(FINISHED, vec![int(*room)]),
        ],
        Write::Closed { room, reason } => vec![statement(CLOSED, vec![int(*room), Text(reason)])],
        Write::Session(s) => vec![statement(
            SESSION,
            vec![
                Bytes(&s.token_hash),
                int(s.player),
                Text(&s.name),
                bool(s.bot),
                Int(s.created_ms),
                s.account.map_or(Null, int),
            ],
        )],
        Write::Record(r) => {
            let mut out = vec![statement(
                RECORD,
                vec![
                    int(r.room),
                    Text(&r.game),
                    Int(r.finished_ms),
                    Text(&r.body),
                    r.pgn.as_deref().map_or(Null, Text),
                    r.summary.as_deref().map_or(Null, Text),
                ],
            )];
            out.extend(r.players.iter().enumerate().map(|(seat, name)| {
                let account = r.accounts.get(seat).copied().flatten();
                statement(
                    RECORD_PLAYER,
                    vec![
                        int(r.room),
                        Int(seat as i64),
                        Text(name),
                        account.map_or(Null, int),
                        Int(r.finished_ms),
                    ],
                )
            }));
            out
        }
        Write::RoomNumber(n) => vec![statement(ROOM_NUMBER, vec![int(*n)])],
        Write::Account(a) => a.statements(),
        // Read, then written: each backend runs it after the batch's other statements.
        Write::Rate(_) => Vec::new(),
    }
}
