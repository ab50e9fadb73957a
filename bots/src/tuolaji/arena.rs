//! Whole Tuolaji games in memory, for tests and benchmarks: a [`TuolajiGame`] and four
//! strategies, each given only its seat's view (`game.view(Viewer::Seat(s))`) and the
//! events addressed to it (its own side of [`Emit::Split`]), exactly what a client gets.

use qipai_games::tuolaji::{TuolajiGame, TuolajiRules, TuolajiSettings};
use qipai_games::{Emit, Game, Millis, Received, Seat, Viewer};
use qipai_protocol::tuolaji::{HandResult, Outcome, Phase, TuolajiAction, TuolajiEvent};

use super::read;
use super::table::{SeatView, TuolajiTable};
use crate::strategy::Strategy;
use crate::table::Table;

/// A seat's player.
pub type Player = Box<dyn Strategy<View = SeatView, Event = TuolajiEvent, Action = TuolajiAction>>;

/// How one game went.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// The game's end, `None` when it was stopped after `max_hands`.
    pub outcome: Option<Outcome>,
    /// Both teams' levels at the end.
    pub levels: [u8; 2],
    /// Every finished hand's result.
    pub hands: Vec<HandResult>,
    /// Every action the table refused: `(seat, action, reason)`. Empty for sound players.
    pub rejected: Vec<(u8, TuolajiAction, String)>,
    /// Throws (leads of several units) each seat made that stood.
    pub throws: [u32; 4],
    /// Throws each seat made that failed (第十六条).
    pub failed_throws: [u32; 4],
}

/// The settings arena games use: no pause anywhere, a short bid window.
pub fn fast_settings() -> TuolajiSettings {
    TuolajiSettings {
        rules: TuolajiRules {
            deal_interval_ms: 0,
            bid_window_ms: 100,
            ..TuolajiRules::default()
        },
        between_hands_ms: 0,
        trick_pause_ms: 0,
    }
}

fn deliver(players: &mut [Player; 4], emits: &[Emit<TuolajiEvent>]) {
    for emit in emits {
        for (i, player) in players.iter_mut().enumerate() {
            let event = match emit {
                Emit::All(e) => e,
                Emit::Split { seat, own, others } => {
                    if seat.index() == i {
                        own
                    } else {
                        others
                    }
                }
            };
            player.observe(event);
        }
    }
}

/// Takes note of results and throws.
fn record_events(emits: &[Emit<TuolajiEvent>], record: &mut GameRecord) {
    let mut failed = false;
    for emit in emits {
        match emit {
            Emit::All(TuolajiEvent::HandOver { result, .. }) => record.hands.push(result.clone()),
            Emit::All(TuolajiEvent::ThrowFailed { seat, .. }) => {
                failed = true;
                if let Some(n) = record.failed_throws.get_mut(usize::from(*seat)) {
                    *n += 1;
                }
            }
            Emit::All(TuolajiEvent::Led { seat, units, .. }) if units.len() > 1 && !failed => {
                if let Some(n) = record.throws.get_mut(usize::from(*seat)) {
                    *n += 1;
                }
            }
            _ => {}
        }
    }
}

/// Plays the game of table seed `seed` with `players` (seat order) until it ends or
/// `max_hands` hands are done.
pub fn play_game(
    settings: &TuolajiSettings,
    seed: u64,
    players: &mut [Player; 4],
    max_hands: u32,
) -> GameRecord {
    let mut game = TuolajiGame::new(settings, seed);
    let mut now = Millis(1);
    let mut record = GameRecord::default();
    let events = game.start(now);
    deliver(players, &events);
    // A game has at most a few dozen hands of 200-odd steps; this only guards a bug.
    for _ in 0..100_000 {
        let public = game.view(Viewer::Spectator, now);
        record.levels = public.levels;
        if game.is_over() || public.hand_number > max_hands {
            record.outcome = public.outcome;
            break;
        }
        let mut events = None;
        let bidding = matches!(public.phase, Phase::Dealing | Phase::Bidding { .. });
        let seats: Vec<u8> = if bidding {
            vec![0, 1, 2, 3]
        } else {
            read::to_act(&public.phase).into_iter().collect()
        };
        for s in seats {
            let view = SeatView::new(Some(s), game.view(Viewer::Seat(Seat(s)), now));
            if !TuolajiTable::must_act(&view, s) {
                continue;
            }
            let Some((i, player)) = players.iter_mut().enumerate().nth(usize::from(s)) else {
                continue;
            };
            let Some(action) = player.decide(s, &view) else {
                continue;
            };
            match game.apply(Seat(i as u8), action.clone(), Received::at(now)) {
                Ok(e) => {
                    events = Some(e);
                    break;
                }
                Err(e) => record.rejected.push((s, action, e.to_string())),
            }
        }
        let events = events.unwrap_or_else(|| {
            // Nobody acted: time runs to the next deadline.
            if let Some(at) = game.deadline() {
                now = Millis(now.0.max(at.0));
            }
            game.on_deadline(now)
        });
        record_events(&events, &mut record);
        deliver(players, &events);
    }
    record
}
