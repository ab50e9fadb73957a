//! The draughts bot: reads its seat's view (the FEN and the legal moves a client gets),
//! searches within a budget taken from its strength and its own clock, and answers with a
//! move in notation.
//!
//! - [`eval`]: material, advancement (tempo), centre, back row, trading down.
//! - [`table`]: [`table::DraughtsTable`], the glue for the bot client.
//! - [`search`]: iterative-deepening alpha-beta with a transposition table, move ordering
//!   and a capture quiescence, limited by nodes or time.
//!
//! The view carries no start position, so the bot does not see repetitions coming (a draw
//! by repetition is the room's to declare, not the bot's to avoid).

pub mod eval;
pub mod search;
pub mod table;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use qipai_games::clock::TimeControl;
use qipai_games::draughts::{DraughtsAction, DraughtsEvent, DraughtsView, Position, Side, Status};

use crate::strategy::{ClockState, Strategy, Strength};
use search::{Limits, Report, Searcher};

/// The transposition table's default size.
pub const DEFAULT_TT_MEGABYTES: usize = 8;

pub use crate::strategy::UNBOUNDED_THINK;

/// A draughts player: a [`Searcher`] and how hard it may think.
pub struct DraughtsBot {
    strength: Strength,
    searcher: Searcher,
    last: Option<Report>,
}

impl DraughtsBot {
    /// A bot of `strength` with the default table size.
    pub fn new(strength: Strength) -> DraughtsBot {
        DraughtsBot::with_table(strength, DEFAULT_TT_MEGABYTES)
    }

    /// A bot of `strength` with a transposition table of about `megabytes` MiB.
    pub fn with_table(strength: Strength, megabytes: usize) -> DraughtsBot {
        DraughtsBot {
            strength,
            searcher: Searcher::new(megabytes),
            last: None,
        }
    }

    /// A bot with a table of about `megabytes` MiB whose searches stop as soon as `cancel`
    /// is raised: how the server stops a bot's thinking when its game ends or a person
    /// takes its seat (as [`XiangqiBot::with_budget`](crate::XiangqiBot::with_budget)).
    pub fn with_cancel(
        strength: Strength,
        megabytes: usize,
        cancel: Arc<AtomicBool>,
    ) -> DraughtsBot {
        let mut bot = DraughtsBot::with_table(strength, megabytes);
        bot.searcher.set_cancel(cancel);
        bot
    }

    /// What the last search found (depth, nodes, score), for logs and benchmarks.
    pub fn last_report(&self) -> Option<Report> {
        self.last
    }

    /// Forgets what earlier searches learned (before a new game).
    pub fn new_game(&mut self) {
        self.searcher.clear();
    }

    /// The move to play in `position` (in notation), with the clock situation when there
    /// is one; `None` when there is no legal move.
    pub fn choose(&mut self, position: &Position, clock: Option<ClockState>) -> Option<String> {
        let limits = Limits {
            nodes: self.strength.max_nodes,
            time: self.strength.time_limit(clock),
            depth: None,
        };
        let report = self.searcher.search(position, limits);
        self.last = Some(report);
        report.best.map(|mv| mv.to_string())
    }
}

impl Strategy for DraughtsBot {
    type View = DraughtsView;
    type Event = DraughtsEvent;
    type Action = DraughtsAction;

    fn decide(&mut self, seat: u8, view: &DraughtsView) -> Option<DraughtsAction> {
        if let Some(answer) = self.answer_draw(seat, view) {
            return Some(answer);
        }
        let side = side_to_act(seat, view)?;
        if view.moves.len() < 2 {
            self.new_game();
        }
        let legal = &view.to_move.legal_moves;
        let notation = match legal.as_slice() {
            [] => return None,
            [only] => only.clone(),
            _ => {
                let position = Position::from_fen(&view.fen).ok()?;
                let chosen = self.choose(&position, clock_state(view, side))?;
                // The view's list is what the server accepts; the search uses the same rules.
                legal.iter().find(|m| **m == chosen)?.clone()
            }
        };
        Some(DraughtsAction::Move { notation })
    }
}

impl DraughtsBot {
    /// Accepts or declines a draw the opponent offered (`crate::draw_offer`); `None` when
    /// no offer from the opponent stands.
    fn answer_draw(&mut self, seat: u8, view: &DraughtsView) -> Option<DraughtsAction> {
        let me = match seat {
            0 => Side::White,
            1 => Side::Black,
            _ => return None,
        };
        if view.status != Status::Playing || view.draw_offer.is_none_or(|by| by == me) {
            return None;
        }
        let position = Position::from_fen(&view.fen).ok()?;
        let limits = Limits {
            nodes: Some(crate::draw_offer::ANSWER_NODES),
            time: None,
            depth: None,
        };
        let report = self.searcher.search(&position, limits);
        let own = if view.side_to_move == me {
            report.score
        } else {
            -report.score
        };
        Some(if crate::draw_offer::accepts(own, view.moves.len()) {
            DraughtsAction::AcceptDraw
        } else {
            DraughtsAction::DeclineDraw
        })
    }
}

/// The side `seat` plays (0 White, 1 Black) when it is that side's move in a game on.
pub fn side_to_act(seat: u8, view: &DraughtsView) -> Option<Side> {
    let side = match seat {
        0 => Side::White,
        1 => Side::Black,
        _ => return None,
    };
    (view.status == Status::Playing && view.side_to_move == side).then_some(side)
}

/// The seat's clock as the view gives it. Period controls are planned as Fischer with no
/// increment (the clock budget then assumes the usual number of moves left).
fn clock_state(view: &DraughtsView, side: Side) -> Option<ClockState> {
    let remaining_ms = match side {
        Side::White => view.clocks.white_ms,
        Side::Black => view.clocks.black_ms,
    };
    let increment_ms = match TimeControl::parse(&view.time_control).ok()? {
        TimeControl::Fischer { increment_ms, .. } => increment_ms,
        _ => 0,
    };
    Some(ClockState {
        remaining_ms,
        increment_ms,
        moves_to_go: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qipai_games::draughts::{DraughtsGame, DraughtsSettings};
    use qipai_games::{Game, Millis, Received, Seat, Viewer};
    use std::sync::atomic::Ordering;

    /// The bot takes a free piece rather than leave it.
    #[test]
    fn takes_the_majority_capture_from_the_view() {
        let settings = DraughtsSettings {
            start: Position::from_fen("W:W32,34,45:B27,17,29,5").unwrap(),
            ..DraughtsSettings::default()
        };
        let mut game = DraughtsGame::new(&settings, 0);
        game.start(Millis(0));
        let view = game.view(Viewer::Seat(Seat(0)), Millis(0));
        let mut bot = DraughtsBot::new(Strength::nodes(2_000));
        let action = bot.decide(0, &view).unwrap();
        assert_eq!(
            action,
            DraughtsAction::Move {
                notation: "32x21x12".into()
            }
        );
        assert!(game.apply(Seat(0), action, Received::at(Millis(1))).is_ok());
        assert_eq!(
            bot.decide(0, &game.view(Viewer::Seat(Seat(0)), Millis(1))),
            None
        );
    }

    /// A raised cancel flag stops a search that would otherwise think for a minute: the
    /// server raises it when the bot's room ends or a person takes its seat.
    #[test]
    fn a_cancelled_search_stops_at_once() {
        let cancel = Arc::new(AtomicBool::new(false));
        let mut bot = DraughtsBot::with_cancel(Strength::think_ms(60_000), 1, Arc::clone(&cancel));
        let raise = std::thread::spawn({
            let cancel = Arc::clone(&cancel);
            move || {
                std::thread::sleep(std::time::Duration::from_millis(50));
                cancel.store(true, Ordering::Relaxed);
            }
        });
        let started = std::time::Instant::now();
        let notation = bot.choose(&Position::start(), None);
        raise.join().unwrap();
        assert!(
            started.elapsed() < std::time::Duration::from_secs(2),
            "searched {:?} after the cancel",
            started.elapsed()
        );
        // Stopped early, it still answers with a legal move.
        let legal: Vec<String> = Position::start()
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(legal.contains(&notation.unwrap()));
    }

    /// Under a node limit the bot is deterministic.
    #[test]
    fn node_limited_play_is_deterministic() {
        let play = || {
            let mut game = DraughtsGame::new(&DraughtsSettings::default(), 0);
            game.start(Millis(0));
            let mut bots = [
                DraughtsBot::new(Strength::nodes(3_000)),
                DraughtsBot::new(Strength::nodes(3_000)),
            ];
            let mut record = Vec::new();
            for ply in 0..30u64 {
                let view = game.view(Viewer::Spectator, Millis(ply));
                let seat = view.side_to_move.index();
                let Some(action) = bots[seat].decide(seat as u8, &view) else {
                    break;
                };
                record.push(action.clone());
                game.apply(Seat(seat as u8), action, Received::at(Millis(ply)))
                    .unwrap();
            }
            record
        };
        assert_eq!(play(), play());
    }

    /// The search does not hang a man: 28-22 would be taken by 17x28.
    #[test]
    fn does_not_hang_a_man() {
        let position = Position::from_fen("W:W28,50:B17,5").unwrap();
        let mut bot = DraughtsBot::new(Strength::nodes(20_000));
        let notation = bot.choose(&position, None).unwrap();
        assert_ne!(notation, "28-22");
        let report = bot.last_report().unwrap();
        assert!(report.depth >= 4, "{report:?}");
        assert!(report.score > -eval::MAN / 2, "{report:?}");
    }
}
