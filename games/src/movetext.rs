//! What the record files of the two-seat games share: PGN for xiangqi
//! ([`crate::xiangqi::pgn`]) and PDN for draughts ([`crate::draughts::pdn`]) both open with
//! tags (players by seat, the date, the result) and number their moves by full moves. Pure
//! functions of the finished game's record: no clock is read, the date comes in.

/// Who played a finished game, where and when: what every record file's tags say besides
/// the game's own.
#[derive(Clone, Copy, Debug)]
pub struct RecordHead<'a> {
    /// The room the game was played in (the `Event` tag).
    pub room: u64,
    /// The players' names by seat.
    pub players: &'a [String],
    /// When the game finished, in Unix milliseconds (the `Date` tag, UTC).
    pub finished_ms: i64,
}

impl RecordHead<'_> {
    /// Seat `seat`'s name as a tag's value (`?` when nobody is known).
    pub fn name(&self, seat: usize) -> String {
        self.players
            .get(seat)
            .map_or("?", String::as_str)
            .replace('"', "'")
    }

    /// The `Date` tag's value: `YYYY.MM.DD` of [`RecordHead::finished_ms`].
    pub fn date(&self) -> String {
        date(self.finished_ms)
    }
}

/// The `Result` tag of a game that ended with `outcome`: `texts` are seat 0's win, seat 1's
/// and a draw; `*` for a game without result or not over.
pub fn result_tag(
    outcome: Option<&qipai_protocol::Outcome>,
    texts: [&'static str; 3],
) -> &'static str {
    match outcome {
        Some(o) if o.no_result => "*",
        None => "*",
        Some(o) => match o.winners.first() {
            Some(seat) => texts[usize::from((*seat).min(1))],
            None => texts[2],
        },
    }
}

/// Ends a PGN or PDN after its other tags: the `FEN` tag if the game started elsewhere,
/// then the movetext numbered by full moves — `1. a b 2. c d`, or `1... a 2. b c` when the
/// second side moved first — and the result.
pub fn finish(
    out: &mut String,
    fen: Option<&str>,
    moves: impl Iterator<Item = String>,
    second_first: bool,
    result: &str,
) {
    if let Some(fen) = fen {
        out.push_str(&format!("[FEN \"{fen}\"]\n"));
    }
    out.push('\n');
    for (i, m) in moves.enumerate() {
        let ply = i + usize::from(second_first);
        if ply % 2 == 0 {
            out.push_str(&format!("{}. ", ply / 2 + 1));
        } else if i == 0 {
            out.push_str("1... ");
        }
        out.push_str(&m);
        out.push(' ');
    }
    out.push_str(result);
    out.push('\n');
}

/// `YYYY.MM.DD` of a Unix time in milliseconds (UTC; the civil-from-days algorithm).
fn date(ms: i64) -> String {
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(1_764_547_200_000), "2025.12.01");
    }
}
