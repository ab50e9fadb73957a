//! Alpha-beta search for draughts: iterative deepening, a transposition table, move ordering
//! (table move, bigger captures, history), forced moves not counted as depth, and a
//! quiescence search that plays out pending captures. Limited by nodes (deterministic) or
//! time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use qipai_games::draughts::{Move, Position, Side};

use super::eval::evaluate;

/// A won position's score, less the plies to the win.
pub const MATE: i32 = 1_000_000;
/// The deepest the search goes (plies), extensions and captures included.
const MAX_PLY: usize = 96;

/// When to stop thinking.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub depth: Option<u32>,
}

/// What a search found.
#[derive(Clone, Copy, Debug)]
pub struct Report {
    pub best: Option<Move>,
    /// The last depth searched to the end.
    pub depth: u32,
    pub nodes: u64,
    /// For the side to move, in hundredths of a man.
    pub score: i32,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    depth: i16,
    score: i32,
    bound: Bound,
    /// The best move's (from, to, captured bits).
    best: Option<(u8, u8, u64)>,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// A searcher with its table and history, kept between the moves of one game.
pub struct Searcher {
    table: Vec<Entry>,
    history: Box<[[u32; 51]; 51]>,
    nodes: u64,
    stop: bool,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Raised by the owner to stop a search at once (its game ended, its seat was taken);
    /// read with the clock, every 1024 nodes.
    cancel: Option<Arc<AtomicBool>>,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn key(position: &Position) -> u64 {
    let b = position.board();
    let side = u64::from(position.side_to_move() == Side::Black);
    mix(b.white ^ mix(b.black ^ mix(b.kings ^ mix(side))))
}

fn move_key(mv: &Move) -> (u8, u8, u64) {
    (mv.from().number(), mv.to().number(), mv.captured_bits())
}

impl Searcher {
    /// A searcher with a table of about `megabytes` MiB.
    pub fn new(megabytes: usize) -> Searcher {
        let entries = (megabytes.max(1) << 20) / std::mem::size_of::<Entry>();
        Searcher {
            table: vec![Entry::default(); entries.next_power_of_two() / 2],
            history: Box::new([[0; 51]; 51]),
            nodes: 0,
            stop: false,
            node_limit: u64::MAX,
            deadline: None,
            cancel: None,
        }
    }

    /// Makes every later search stop as soon as `flag` is raised.
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// Forgets everything learned (before a new game).
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.history.iter_mut().for_each(|row| row.fill(0));
    }

    /// The best move in `position` within `limits`.
    pub fn search(&mut self, position: &Position, limits: Limits) -> Report {
        self.nodes = 0;
        self.stop = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| Instant::now() + t);
        let mut moves = position.legal_moves();
        let mut report = Report {
            best: moves.first().copied(),
            depth: 0,
            nodes: 0,
            score: 0,
        };
        if moves.len() <= 1 {
            return report;
        }
        let max_depth = limits.depth.unwrap_or(64).min(64);
        for depth in 1..=max_depth {
            let mut alpha = -MATE - 1;
            let mut best = None;
            for (i, mv) in moves.iter().enumerate() {
                let score =
                    -self.negamax(&position.after(mv), depth as i32 - 1, -MATE - 1, -alpha, 1);
                if self.stop {
                    break;
                }
                if score > alpha || i == 0 {
                    alpha = score;
                    best = Some(i);
                }
            }
            if self.stop {
                break;
            }
            if let Some(i) = best {
                // The best move first in the next iteration.
                moves[..=i].rotate_right(1);
                report.best = moves.first().copied();
                report.score = alpha;
                report.depth = depth;
            }
            if alpha.abs() >= MATE - MAX_PLY as i32 {
                break;
            }
        }
        report.nodes = self.nodes;
        report
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.stop = true;
        } else if self.nodes.is_multiple_of(1024) {
            let time_out = self.deadline.is_some_and(|d| Instant::now() >= d);
            let cancelled = self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed));
            self.stop = time_out || cancelled;
        }
        self.stop
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let mut moves = position.legal_moves();
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        let capturing = moves[0].is_capture();
        if ply >= MAX_PLY {
            return evaluate(position);
        }
        // Quiescence: at the horizon only pending captures are played out.
        if depth <= 0 && !capturing {
            return evaluate(position);
        }
        // A forced move costs no depth.
        let depth = if moves.len() == 1 { depth } else { depth - 1 };
        let key = key(position);
        let slot = (key as usize) & (self.table.len() - 1);
        let entry = self.table[slot];
        let mut hint = None;
        if entry.key == key {
            hint = entry.best;
            if i32::from(entry.depth) >= depth {
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.score >= beta,
                    Bound::Upper => entry.score <= alpha,
                };
                if usable {
                    return entry.score;
                }
            }
        }
        let history = &self.history;
        moves.sort_by_cached_key(|m| {
            let first = hint == Some(move_key(m));
            let from = usize::from(m.from().number());
            let to = usize::from(m.to().number());
            (
                std::cmp::Reverse(first),
                std::cmp::Reverse(m.capture_count()),
                std::cmp::Reverse(history[from][to]),
            )
        });
        let original_alpha = alpha;
        let mut best_score = -MATE - 1;
        let mut best_move = None;
        for mv in &moves {
            let score = -self.negamax(&position.after(mv), depth, -beta, -alpha, ply + 1);
            if self.stop {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(move_key(mv));
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !mv.is_capture() {
                    let (from, to) = (
                        usize::from(mv.from().number()),
                        usize::from(mv.to().number()),
                    );
                    let bonus = (depth.max(1) * depth.max(1)) as u32;
                    self.history[from][to] = self.history[from][to].saturating_add(bonus);
                }
                break;
            }
        }
        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if depth >= 0 {
            self.table[slot] = Entry {
                key,
                depth: depth as i16,
                score: best_score,
                bound,
                best: best_move,
            };
        }
        best_score
    }
}
