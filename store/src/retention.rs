//! Retention: what a sweep deletes so that the store stays bounded (a client that opens
//! rooms and leaves them, or says hello and goes, must not grow it for ever).
//!
//! - **Abandoned rooms**: closed without a result (nobody played a game to its end) and
//!   created before the cut, with their steps and seat changes. A competition's table, a
//!   room with a record, and the room with the largest id (the next id is counted from it)
//!   are kept.
//! - **Game sessions** (resume tokens): created before the cut, unless their player sits in
//!   an open room, sat in a game that finished since the cut, or is live on the server now
//!   (the server names them): these are the sessions a restart could still restore.
//! - **Account and director sessions** past their expiry (they no longer sign anybody in).
//!
//! Finished games' raw logs are pruned apart ([`crate::Store::prune`]): their records stay.
//! The SQL is the same text for both backends (`sql::postgres` for `$N`).

/// What one sweep deletes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sweep {
    /// Rooms closed without a result and created before this (Unix ms) go.
    pub abandoned_before_ms: i64,
    /// Game sessions created before this (Unix ms) go, except those kept (see the module).
    pub sessions_before_ms: i64,
    /// The players with a live session on the server: their rows stay whatever their age.
    pub live_players: Vec<u64>,
    /// Account and director sessions that expired before this (Unix ms, now) go.
    pub now_ms: i64,
}

/// What a sweep deleted, in rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    /// Abandoned rooms.
    pub rooms: u64,
    /// Their steps and seat changes.
    pub room_rows: u64,
    /// Game sessions.
    pub sessions: u64,
    /// Account and director sessions.
    pub signed_in: u64,
}

/// The rooms a sweep deletes (`?1`: [`Sweep::abandoned_before_ms`]).
const ABANDONED: &str = "SELECT id FROM rooms WHERE status = 'closed' AND created_ms < ?1 \
    AND id < (SELECT MAX(id) FROM rooms) \
    AND id NOT IN (SELECT room FROM results) \
    AND id NOT IN (SELECT room FROM records) \
    AND id NOT IN (SELECT room FROM competition_pairings WHERE room IS NOT NULL)";

/// The statements deleting abandoned rooms, in order (their rows before them), each bound
/// to `?1`.
pub(crate) fn abandoned_rooms() -> [String; 3] {
    [
        format!("DELETE FROM steps WHERE room IN ({ABANDONED})"),
        format!("DELETE FROM seat_changes WHERE room IN ({ABANDONED})"),
        format!("DELETE FROM rooms WHERE id IN ({ABANDONED})"),
    ]
}

/// SQLite's statement deleting abandoned rooms' steps: its steps are one log in commit order
/// without an index by room (migration 4), so the log is read only from the oldest of those
/// rooms on (`rooms.log_from`, the log's end when it was made), not from its beginning.
pub(crate) fn abandoned_steps_sqlite() -> String {
    format!(
        "DELETE FROM steps WHERE seq > (SELECT MIN(log_from) FROM rooms WHERE id IN \
         ({ABANDONED})) AND room IN ({ABANDONED})"
    )
}

/// The statement deleting expired game sessions (`?1`: [`Sweep::sessions_before_ms`]). The
/// live players are written into the text: they are integers, and a list bound as one
/// parameter is not the same SQL on both backends.
pub(crate) fn expired_sessions(live_players: &[u64]) -> String {
    let live = if live_players.is_empty() {
        String::new()
    } else {
        let ids: Vec<String> = live_players
            .iter()
            .map(|p| (*p as i64).to_string())
            .collect();
        format!(" AND player NOT IN ({})", ids.join(","))
    };
    format!(
        "DELETE FROM sessions WHERE created_ms < ?1{live} AND player NOT IN \
         (SELECT s.player FROM seat_changes s JOIN rooms r ON r.id = s.room \
         WHERE s.player IS NOT NULL AND (r.status = 'open' \
         OR r.id IN (SELECT room FROM results WHERE finished_ms >= ?1)))"
    )
}

/// The statements deleting expired account and director sessions (`?1`: [`Sweep::now_ms`]).
pub(crate) const EXPIRED_SIGN_INS: [&str; 2] = [
    "DELETE FROM account_sessions WHERE expires_ms < ?1",
    "DELETE FROM director_sessions WHERE expires_ms < ?1",
];

#[cfg(test)]
mod tests {
    #[test]
    fn live_players_are_written_as_integers() {
        assert!(!super::expired_sessions(&[]).contains("NOT IN ()"));
        assert!(super::expired_sessions(&[7, u64::MAX]).contains("player NOT IN (7,-1)"));
    }
}
