//! A finished draughts game as PDN 3.0 (FMJD): the seven tags, `[GameType "20"]`
//! (international draughts, 10×10), `[FEN]` when the game did not start from the usual
//! position, and the movetext in numeric notation, captures with every landing square
//! (`28x19x8`), a game with Black to move first numbered `1... `. Results: `2-0`, `0-2`,
//! `1-1`, `*`.

use qipai_protocol::draughts::DraughtsView;
use qipai_protocol::HasOutcome;

use super::START_FEN;
use crate::movetext::{finish, result_tag, RecordHead};

/// The PDN of the game whose final view is `view`, started from `start_fen` (the usual
/// start when `None`).
pub fn write(head: &RecordHead<'_>, view: &DraughtsView, start_fen: Option<&str>) -> String {
    let result = result_tag(view.outcome().as_ref(), ["2-0", "0-2", "1-1"]);
    let mut out = format!(
        "[Event \"qipai room {}\"]\n[Site \"qipai\"]\n[Date \"{}\"]\n[Round \"-\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n[GameType \"20\"]\n",
        head.room,
        head.date(),
        head.name(0),
        head.name(1),
    );
    let black_first = start_fen.is_some_and(|f| f.starts_with('B'));
    let fen = start_fen.filter(|f| *f != START_FEN);
    finish(
        &mut out,
        fen,
        view.moves.iter().cloned(),
        black_first,
        result,
    );
    out
}
