//! Rebuilding a game's history from what a client sees: the view's FEN and move list.
//!
//! The bot needs the positions since the last capture to respect the repetition rules
//! (第4条4.1.7, 4.2.3). A game from the usual start replays its move list from there; a game
//! from a custom start (`start_fen`) is walked back from the current FEN over the moves
//! since the last capture, which the FEN's half-move counter says are captureless (so each
//! one is undone by moving the piece back and leaving its target empty).

use qipai_games::xiangqi::{Board, EndRules, History, Move, Position, START_FEN};
use qipai_protocol::xiangqi::XiangqiView;

/// The game's history as far as the view lets it be known: from the start when the moves
/// replay from the usual start to the view's position, else from the last capture, else
/// (an unreadable move list) the current position alone. `None` if the FEN is unreadable.
pub fn history_from_view(view: &XiangqiView, rules: EndRules) -> Option<History> {
    let current = Position::from_fen(&view.fen).ok()?;
    let moves: Vec<Move> = view
        .moves
        .iter()
        .map(|m| Move::from_iccs(m.iccs.as_str()))
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    let same = |h: &History| same_position(h.position(), &current);
    if let Some(h) = Position::from_fen(START_FEN)
        .ok()
        .and_then(|start| replay(start, &moves, rules))
        .filter(same)
    {
        return Some(h);
    }
    let quiet = usize::try_from(current.halfmoves())
        .unwrap_or(usize::MAX)
        .min(moves.len());
    let tail = moves.get(moves.len() - quiet..).unwrap_or_default();
    if let Some(h) = walk_back(&current, tail)
        .and_then(|start| replay(start, tail, rules))
        .filter(same)
    {
        return Some(h);
    }
    Some(History::new(current, rules))
}

/// Plays `moves` from `start`; `None` if one is refused (the game over counts too: the
/// view's list then ends there).
fn replay(start: Position, moves: &[Move], rules: EndRules) -> Option<History> {
    let mut history = History::new(start, rules);
    for &mv in moves {
        history.play(mv).ok()?;
    }
    Some(history)
}

/// The position `captureless` moves before `current`.
fn walk_back(current: &Position, captureless: &[Move]) -> Option<Position> {
    let mut board: Board = current.board().clone();
    let mut side = current.side_to_move();
    for mv in captureless.iter().rev() {
        let piece = board.get(mv.to)?;
        if board.get(mv.from).is_some() {
            return None;
        }
        board.set(mv.from, Some(piece));
        board.set(mv.to, None);
        side = side.opponent();
    }
    Position::new(board, side, 0, 1).ok()
}

/// Same arrangement and side to move (the counters may differ).
fn same_position(a: &Position, b: &Position) -> bool {
    a.board() == b.board() && a.side_to_move() == b.side_to_move()
}

#[cfg(test)]
mod tests {
    use super::*;
    use qipai_protocol::xiangqi::{Clocks, MoveRecord, Side, Status};

    fn view(fen: &str, moves: &[&str]) -> XiangqiView {
        XiangqiView {
            status: Status::Playing,
            fen: fen.into(),
            side_to_move: Side::Red,
            legal_moves: Vec::new(),
            in_check: false,
            last_move: None,
            moves: moves
                .iter()
                .map(|m| MoveRecord {
                    iccs: m.parse().unwrap(),
                    chinese: String::new(),
                })
                .collect(),
            clocks: Clocks {
                red_ms: 0,
                black_ms: 0,
                running: None,
                server_time: 0,
            },
            time_control: "5+3".into(),
            first_move_deadline: None,
            draw_offer: None,
            result: None,
        }
    }

    /// From the usual start, the whole move list comes back.
    #[test]
    fn replays_from_the_start() {
        let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
        let mut pos = Position::start();
        for m in moves {
            pos.play(Move::from_iccs(m).unwrap()).unwrap();
        }
        let h = history_from_view(&view(&pos.to_fen(), &moves), EndRules::default()).unwrap();
        assert_eq!(h.moves().len(), 4);
        assert_eq!(h.start(), &Position::start());
    }

    /// From a custom start, the captureless tail is walked back and replayed.
    #[test]
    fn walks_back_from_a_custom_start() {
        let start = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        let moves = ["a0a1", "d9d8", "a1a0", "d8d9"];
        let mut pos = start.clone();
        for m in moves {
            pos.play(Move::from_iccs(m).unwrap()).unwrap();
        }
        let h = history_from_view(&view(&pos.to_fen(), &moves), EndRules::default()).unwrap();
        assert_eq!(h.moves().len(), 4);
        assert_eq!(h.start().board(), start.board());
    }
}
