//! The xiangqi bot: rebuilds the game from its seat's view, searches within a budget taken
//! from its strength and its own clock, and never plays a move that loses by perpetual check.
//!
//! - [`level`]: the levels, from a beginner's opponent to full strength.
//! - [`matchup`]: the match tool's engine, openings and statistics.
//! - [`eval`]: material and piece-square tables.
//! - [`tt`]: Zobrist keys and the transposition table.
//! - `order` (private): move ordering (TT move, MVV-LVA, killers, history).
//! - [`search`]: iterative-deepening PVS with quiescence, limited by nodes or time.
//! - [`repetition`]: the positions since the last capture and the judgement of a cycle.
//! - [`replay`]: the game's history from the view's FEN and move list.
//! - [`table`]: the wire glue the WebSocket client needs for xiangqi.
//! - [`weak`]: a weak scripted player (the lowest level's test opponent).

pub mod eval;
pub mod level;
pub mod matchup;
mod order;
pub mod repetition;
pub mod replay;
pub mod search;
pub mod table;
pub mod tt;
pub mod weak;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use qipai_games::clock::TimeControl;
use qipai_games::xiangqi::{EndReason, EndRules, History, Move, Side};
use qipai_protocol::xiangqi::{self as wire, Status, XiangqiAction, XiangqiEvent, XiangqiView};

use crate::strategy::{ClockState, Strategy, Strength};
use level::Level;
use search::{Limits, Report, RootMove, Searcher, MATE};

/// The transposition table's default size.
pub const DEFAULT_TT_MEGABYTES: usize = 8;

pub use crate::strategy::UNBOUNDED_THINK;

/// A xiangqi player: a [`Searcher`] and how hard it may think.
pub struct XiangqiBot {
    strength: Strength,
    searcher: Searcher,
    /// The end rules the bot replays the view's moves under. The view does not carry the
    /// room's natural move limit (4.2.4), so the bot assumes none: a limit it guessed too
    /// low would end its copy of the game early and cost it the history.
    rules: EndRules,
    last: Option<Report>,
    /// The level's depth cap and softmax temperature (`None`: full strength).
    level: Option<Level>,
    /// Draws a randomized level's moves.
    rng: ChaCha8Rng,
}

impl XiangqiBot {
    /// A bot of `strength` with the default table size.
    pub fn new(strength: Strength) -> XiangqiBot {
        XiangqiBot::with_table(strength, DEFAULT_TT_MEGABYTES)
    }

    /// A bot of `strength` with a transposition table of about `megabytes` MiB.
    pub fn with_table(strength: Strength, megabytes: usize) -> XiangqiBot {
        XiangqiBot::with_searcher(strength, Searcher::new(megabytes))
    }

    fn with_searcher(strength: Strength, searcher: Searcher) -> XiangqiBot {
        XiangqiBot {
            strength,
            searcher,
            rules: EndRules {
                natural_limit_moves: 0,
                ..EndRules::default()
            },
            last: None,
            level: None,
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }

    /// Plays at `level`: its node and depth limits, its chance of a worse move drawn from a
    /// generator seeded with `seed` (the same seed and moves, the same game), thinking at
    /// most `think` a move (and what the clock allows).
    pub fn at_level(mut self, level: Level, think: Duration, seed: u64) -> XiangqiBot {
        self.strength = Strength {
            think: Some(think),
            max_nodes: level.nodes,
            use_clock: true,
        };
        self.level = Some(level);
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self
    }

    /// Searches with `features` (the match tool's A/B games; the default is every one).
    pub fn with_features(mut self, features: search::Features) -> XiangqiBot {
        self.searcher.set_features(features);
        self
    }

    /// The level this bot plays at, if one was set.
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// A bot of `strength` with a table of at most `table_bytes` (at least 1024 entries),
    /// whose searches stop as soon as `cancel` is raised: how a server keeps many bots
    /// within one memory budget and stops their thinking when their game ends.
    pub fn with_budget(
        strength: Strength,
        table_bytes: usize,
        cancel: Arc<AtomicBool>,
    ) -> XiangqiBot {
        let mut searcher = Searcher::with_table(tt::Table::with_bytes(table_bytes));
        searcher.set_cancel(cancel);
        XiangqiBot::with_searcher(strength, searcher)
    }

    /// What the last search found (depth, nodes, score), for logs and benchmarks.
    pub fn last_report(&self) -> Option<Report> {
        self.last
    }

    /// Forgets what earlier searches learned (before a new game).
    pub fn new_game(&mut self) {
        self.searcher.clear();
    }

    /// The move to play in `history`'s current position, with the clock situation when
    /// there is one; `None` when the game is over or there is no legal move.
    ///
    /// A move after which `History` would declare the bot's loss by perpetual check
    /// (4.1.7) is never chosen while any other move exists; a move that ends the game is
    /// scored by its outcome instead of searched.
    pub fn choose(&mut self, history: &History, clock: Option<ClockState>) -> Option<Move> {
        if history.outcome().is_some() {
            return None;
        }
        let position = history.position();
        let me = position.side_to_move();
        let root_moves = root_moves(history, me);
        let limits = Limits {
            nodes: self.strength.max_nodes,
            time: self.strength.time_limit(clock),
            depth: self.level.and_then(|l| l.depth),
        };
        let trail = repetition::trail(history);
        let Some(level) = self.level.filter(Level::randomized) else {
            let report = self.searcher.search(position, &trail, &root_moves, limits);
            self.last = Some(report);
            return report.best;
        };
        let (report, scored) = self
            .searcher
            .score_root(position, &trail, &root_moves, limits);
        self.last = Some(report);
        level::draw(&scored, level.temperature, &mut self.rng).or(report.best)
    }
}

impl Strategy for XiangqiBot {
    type View = XiangqiView;
    type Event = XiangqiEvent;
    type Action = XiangqiAction;

    fn decide(&mut self, seat: u8, view: &XiangqiView) -> Option<XiangqiAction> {
        if let Some(answer) = self.answer_draw(seat, view) {
            return Some(answer);
        }
        let side = to_move(seat, view)?;
        if view.moves.is_empty() {
            self.new_game();
        }
        let history = replay::history_from_view(view, self.rules)?;
        let mv = self.choose(&history, clock_state(view, side))?;
        Some(XiangqiAction::Move {
            iccs: mv.to_string(),
        })
    }
}

impl XiangqiBot {
    /// Accepts or declines a draw the opponent offered (`crate::draw_offer`); `None` when
    /// no offer from the opponent stands.
    fn answer_draw(&mut self, seat: u8, view: &XiangqiView) -> Option<XiangqiAction> {
        let me = match seat {
            0 => wire::Side::Red,
            1 => wire::Side::Black,
            _ => return None,
        };
        if view.status != Status::Playing || view.draw_offer.is_none_or(|by| by == me) {
            return None;
        }
        let history = replay::history_from_view(view, self.rules)?;
        let position = history.position();
        let mover = position.side_to_move();
        let limits = Limits {
            nodes: Some(crate::draw_offer::ANSWER_NODES),
            time: None,
            depth: None,
        };
        let trail = repetition::trail(&history);
        let report = self
            .searcher
            .search(position, &trail, &root_moves(&history, mover), limits);
        let own = if view.side_to_move == me {
            report.score
        } else {
            -report.score
        };
        Some(if crate::draw_offer::accepts(own, view.moves.len()) {
            XiangqiAction::AcceptDraw
        } else {
            XiangqiAction::DeclineDraw
        })
    }
}

/// `seat`'s side when the view says it is to move in a game in progress.
pub fn to_move(seat: u8, view: &XiangqiView) -> Option<wire::Side> {
    let side = match seat {
        0 => wire::Side::Red,
        1 => wire::Side::Black,
        _ => return None,
    };
    (view.status == Status::Playing && view.side_to_move == side).then_some(side)
}

/// Every legal move, those that end the game scored by the outcome; moves that lose by
/// perpetual check are left out unless nothing else is legal.
fn root_moves(history: &History, me: Side) -> Vec<RootMove> {
    let all: Vec<(RootMove, bool)> = history
        .position()
        .legal_move_list()
        .as_slice()
        .iter()
        .map(|&mv| {
            let mut after = history.clone();
            let outcome = after.play(mv).ok().flatten();
            let perpetual_loss = outcome.is_some_and(|o| {
                o.reason == EndReason::PerpetualCheck && o.winner == Some(me.opponent())
            });
            let fixed = outcome.map(|o| match o.winner {
                Some(w) if w == me => MATE - 1,
                Some(_) => -(MATE - 1),
                None => 0,
            });
            (RootMove { mv, fixed }, perpetual_loss)
        })
        .collect();
    let allowed: Vec<RootMove> = all.iter().filter(|(_, p)| !p).map(|(r, _)| *r).collect();
    if allowed.is_empty() {
        all.into_iter().map(|(r, _)| r).collect()
    } else {
        allowed
    }
}

/// The seat's clock as the view shows it.
fn clock_state(view: &XiangqiView, side: wire::Side) -> Option<ClockState> {
    let remaining_ms = match side {
        wire::Side::Red => view.clocks.red_ms,
        wire::Side::Black => view.clocks.black_ms,
    };
    let control = TimeControl::parse(&view.time_control).ok()?;
    // The side to move made every other move before this one.
    let made = u32::try_from(view.moves.len() / 2).unwrap_or(u32::MAX);
    let (increment_ms, moves_to_go) = match &control {
        TimeControl::Fischer { increment_ms, .. } => (*increment_ms, None),
        TimeControl::SuddenDeath { .. } => (0, None),
        TimeControl::Periods { periods } => {
            let mut left = made;
            let mut to_go = None;
            for (i, period) in periods.iter().enumerate() {
                let last = i + 1 == periods.len();
                if period.moves == 0 {
                    break;
                }
                if last {
                    left %= period.moves;
                }
                if left < period.moves {
                    to_go = Some(period.moves - left);
                    break;
                }
                left -= period.moves;
            }
            (0, to_go)
        }
    };
    Some(ClockState {
        remaining_ms,
        increment_ms,
        moves_to_go,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qipai_games::xiangqi::Position;
    use qipai_protocol::xiangqi::{Clocks, MoveRecord};

    fn view_with(time_control: &str, moves: usize) -> XiangqiView {
        XiangqiView {
            status: Status::Playing,
            fen: Position::start().to_fen(),
            side_to_move: wire::Side::Red,
            legal_moves: Vec::new(),
            in_check: false,
            last_move: None,
            moves: vec![
                MoveRecord {
                    iccs: "h2e2".parse().unwrap(),
                    chinese: String::new(),
                };
                moves
            ],
            clocks: Clocks {
                red_ms: 60_000,
                black_ms: 1,
                running: Some(wire::Side::Red),
                server_time: 0,
            },
            time_control: time_control.into(),
            first_move_deadline: None,
            draw_offer: None,
            result: None,
        }
    }

    /// Periods: 40 moves, then 10 repeating; after 44 own moves, 6 remain in the period.
    #[test]
    fn moves_to_go_in_periods() {
        let c = clock_state(&view_with("40/90,10/15", 88), wire::Side::Red).unwrap();
        assert_eq!(c.moves_to_go, Some(6));
        let c = clock_state(&view_with("40/90,10/15", 10), wire::Side::Red).unwrap();
        assert_eq!(c.moves_to_go, Some(35));
        assert_eq!(c.remaining_ms, 60_000);
    }

    /// Fischer gives the increment and no move count.
    #[test]
    fn fischer_clock() {
        let c = clock_state(&view_with("5+3", 0), wire::Side::Red).unwrap();
        assert_eq!((c.increment_ms, c.moves_to_go), (3_000, None));
    }
}
