//! A finished xiangqi game as PGN other xiangqi software reads: `[Format "ICCS"]` movetext
//! (`H2-E2`, files A–I from Red's left, ranks 0–9 from Red's side), as the xqbase and
//! ChessDB PGN files write it, with the Chinese notation (第7条 记录) as comments. A game
//! from another position than the usual start names it in the `FEN` tag. (Fairy-Stockfish
//! and pyffish number xiangqi ranks 1–10, so `h2e2` is their `h3e3`; `scripts/check_pgn.py`
//! converts when it reads ours back.)

use qipai_protocol::xiangqi::XiangqiView;
use qipai_protocol::HasOutcome;

use super::START_FEN;
use crate::movetext::{finish, result_tag, RecordHead};

/// The PGN of the game whose final view is `view`, started from `start_fen` (the usual
/// start when `None`).
pub fn write(head: &RecordHead<'_>, view: &XiangqiView, start_fen: Option<&str>) -> String {
    let result = result_tag(view.outcome().as_ref(), ["1-0", "0-1", "1/2-1/2"]);
    let mut out = format!(
        "[Game \"Chinese Chess\"]\n[Event \"qipai room {}\"]\n[Site \"qipai\"]\n[Date \"{}\"]\n[Red \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n[Format \"ICCS\"]\n",
        head.room,
        head.date(),
        head.name(0),
        head.name(1),
    );
    // A game from a position with Black to move starts `1... `.
    let black_first = start_fen.is_some_and(|f| f.split(' ').nth(1) == Some("b"));
    let moves = view
        .moves
        .iter()
        .map(|m| format!("{} {{{}}}", iccs_dashed(m.iccs.as_str()), m.chinese));
    finish(
        &mut out,
        start_fen.filter(|f| *f != START_FEN),
        moves,
        black_first,
        result,
    );
    out
}

/// `h2e2` as `H2-E2`.
fn iccs_dashed(iccs: &str) -> String {
    let up = iccs.to_ascii_uppercase();
    match (up.get(..2), up.get(2..)) {
        (Some(from), Some(to)) => format!("{from}-{to}"),
        _ => up,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_dashed() {
        assert_eq!(iccs_dashed("h2e2"), "H2-E2");
    }
}
