//! The search: iterative deepening over a principal-variation alpha-beta search with
//! quiescence on captures, a transposition table, killer and history ordering, check
//! extensions and late-move reductions; limited by nodes (deterministic) and/or time.
//!
//! Repetition (第4条4.1.7, 4.2.3): a position met again since the last capture ends that line
//! at once, judged as the rules judge a cycle: the side that checked with every one of its
//! moves in the cycle (while the other did not) loses, otherwise it is a draw (0). The
//! search thus never plans a perpetual check, and the root filter in
//! [`XiangqiBot`](super::XiangqiBot) checks the real rule with `History` besides (see
//! `repetition`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use qipai_games::xiangqi::{Kind, Move, Position, Side, Undo};

use super::eval;
use super::order::{Heuristics, Ordered, MAX_PLY};
use super::repetition::{self, Cycle, Trail};
use super::tt::{Bound, Entry, Table, Zobrist};

/// The score of mating now; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
const INFINITY: i32 = 32_000;
/// How often (in nodes, a power of two) the clock is read.
const CHECK_EVERY: u64 = 1024;
/// The deepest iteration.
pub const MAX_DEPTH: i32 = 64;

/// When the search must stop. With only `nodes` set, the search is deterministic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// The deepest iteration (at most [`MAX_DEPTH`]); `None` for no cap.
    pub depth: Option<i32>,
}

/// Search refinements that can be switched on or off, so the match tool can play a
/// search with one against the same search without it (README "Bot levels": each is kept
/// only if the match tool shows it gains). [`Features::PLAYED`] is what the bots play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Aspiration windows: from depth 4 each iteration first searches a narrow window
    /// around the previous score, widening it on a fail. Off: no gain measured.
    pub aspiration: bool,
    /// Late-move reductions of two plies (not one) for the quiet moves after the sixth, at
    /// depth 6 and more. Off: no gain measured.
    pub deep_reductions: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features::PLAYED
    }
}

impl Features {
    /// What the bots play with.
    pub const PLAYED: Features = Features {
        aspiration: false,
        deep_reductions: DEEP_REDUCTIONS_PLAYED,
    };

    /// `self` with the refinement called `name` (`aspiration`, `deep_reductions`) switched
    /// the other way, and whether it is now on; `None` for an unknown name.
    pub fn toggled(mut self, name: &str) -> Option<(Features, bool)> {
        let flag = match name {
            "aspiration" => &mut self.aspiration,
            "deep_reductions" => &mut self.deep_reductions,
            _ => return None,
        };
        *flag = !*flag;
        let on = *flag;
        Some((self, on))
    }
}

/// Whether the bots play with the deeper late-move reductions: no (README "Bot levels": the
/// A/B games at equal time showed no gain beyond their interval).
const DEEP_REDUCTIONS_PLAYED: bool = false;

/// The aspiration window's first half-width, in centipawns.
const ASPIRATION: i32 = 40;

/// A root move, with the score fixed in advance when the game ends with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    pub fixed: Option<i32>,
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    pub best: Option<Move>,
    /// For the side to move; mates are near [`MATE`].
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: i32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// A searcher: its transposition table and ordering lessons survive from move to move.
pub struct Searcher {
    tt: Table,
    heuristics: Heuristics,
    position: Position,
    key: u64,
    /// The evaluation for Red of `position`.
    eval: i32,
    /// The game's positions since its last capture, then the search path; the last entry
    /// is `position`.
    trail: Vec<Trail>,
    nodes: u64,
    limits: Limits,
    started: Instant,
    stopped: bool,
    /// The iteration's nominal depth, which bounds check extensions.
    root_depth: i32,
    /// Each side's rooks, horses and cannons: a side without any may be in zugzwang, so
    /// it is never given a null move.
    attackers: [u8; 2],
    /// Set just before searching the reply to a null move, so no two come in a row.
    after_null: bool,
    /// Raised by the owner to stop a search at once (its game ended, its seat was taken);
    /// read with the clock.
    cancel: Option<Arc<AtomicBool>>,
    /// With [`Searcher::score_root`]: every root move searched with the full window, so
    /// each gets its true score, not a bound.
    exact_root: bool,
    /// Each root move's score from the last completed iteration (exact with
    /// `exact_root`, else bounds below the best one's).
    root_scores: Vec<(Move, i32)>,
    features: Features,
}

/// What [`Searcher::make`] saves to take a move back.
struct Made {
    undo: Undo,
    key: u64,
    eval: i32,
    attackers: [u8; 2],
}

/// Whether a piece of `kind` can ever give mate on its own account.
fn is_attacker(kind: Kind) -> bool {
    matches!(kind, Kind::Rook | Kind::Horse | Kind::Cannon)
}

impl Searcher {
    /// A searcher with a transposition table of about `tt_megabytes` MiB.
    pub fn new(tt_megabytes: usize) -> Searcher {
        Searcher::with_table(Table::new(tt_megabytes))
    }

    /// A searcher using `tt`.
    pub fn with_table(tt: Table) -> Searcher {
        Searcher {
            cancel: None,
            tt,
            heuristics: Heuristics::default(),
            position: Position::start(),
            key: 0,
            eval: 0,
            trail: Vec::new(),
            nodes: 0,
            limits: Limits::default(),
            started: Instant::now(),
            stopped: false,
            root_depth: 0,
            attackers: [0; 2],
            after_null: false,
            exact_root: false,
            root_scores: Vec::new(),
            features: Features::default(),
        }
    }

    /// Searches with `features` from now on.
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// Stops every search, now and later, once `flag` is raised.
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    /// Forgets what earlier searches learned (for a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics = Heuristics::default();
    }

    /// Like [`Searcher::search`], but every root move is searched with the full window, so
    /// that each one's score is exact: what a level that may choose a worse move weighs.
    /// The scores (from the deepest completed iteration, best first) come with the report;
    /// empty when no iteration completed or there was a single move.
    pub fn score_root(
        &mut self,
        position: &Position,
        trail: &[Trail],
        root_moves: &[RootMove],
        limits: Limits,
    ) -> (Report, Vec<(Move, i32)>) {
        self.exact_root = true;
        let report = self.search(position, trail, root_moves, limits);
        self.exact_root = false;
        (report, std::mem::take(&mut self.root_scores))
    }

    /// Searches `position` among `root_moves`, `trail` being the game's positions since the
    /// last capture (the last one is `position`; an empty trail means no history).
    pub fn search(
        &mut self,
        position: &Position,
        trail: &[Trail],
        root_moves: &[RootMove],
        limits: Limits,
    ) -> Report {
        self.root_scores.clear();
        self.position = position.clone();
        self.key = Zobrist::position(position);
        self.eval = eval::evaluate(position);
        self.attackers = [0; 2];
        for (_, piece) in position.board().pieces() {
            if is_attacker(piece.kind) {
                self.attackers[piece.side.index()] += 1;
            }
        }
        self.after_null = false;
        self.trail.clear();
        self.trail.extend_from_slice(trail);
        if self.trail.last().map(|t| t.key) != Some(self.key) {
            self.trail.push(Trail {
                key: self.key,
                check: position.in_check(),
                capture: true,
            });
        }
        self.nodes = 0;
        self.limits = limits;
        self.started = Instant::now();
        self.stopped = false;
        self.heuristics.age();

        let mut report = Report {
            best: root_moves.first().map(|r| r.mv),
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if root_moves.len() > 1 {
            self.deepen(root_moves, &mut report);
        }
        report.nodes = self.nodes;
        report.elapsed = self.started.elapsed();
        report
    }

    /// Iterative deepening: each iteration searches the previous one's best move first,
    /// within an aspiration window around the previous score when that is on.
    fn deepen(&mut self, root_moves: &[RootMove], report: &mut Report) {
        let mut order: Vec<(i32, RootMove)> = root_moves.iter().map(|&r| (0, r)).collect();
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut previous: Option<i32> = None;
        for depth in 1..=max_depth {
            self.root_depth = depth;
            let mut delta = ASPIRATION;
            let (mut lo, mut hi) = match previous {
                Some(s)
                    if self.features.aspiration
                        && !self.exact_root
                        && depth >= 4
                        && s.abs() < MATE_BOUND =>
                {
                    (s - delta, s + delta)
                }
                _ => (-INFINITY, INFINITY),
            };
            let alpha = loop {
                let best = self.root_iteration(&mut order, depth, lo, hi);
                if let Some((mv, score)) = best {
                    // Within the window, or beyond its top: either way better than the
                    // previous best, which was searched first.
                    report.best = Some(mv);
                    report.score = score;
                }
                if self.stopped {
                    break None;
                }
                let score = best.map_or(lo, |(_, s)| s);
                delta *= 4;
                if score <= lo && lo > -INFINITY {
                    lo = if delta > 1_000 { -INFINITY } else { lo - delta };
                } else if score >= hi && hi < INFINITY {
                    hi = if delta > 1_000 { INFINITY } else { hi + delta };
                    // The move that failed high goes first in the wider search.
                    if let Some(i) =
                        best.and_then(|(mv, _)| order.iter().position(|e| e.1.mv == mv))
                    {
                        if let Some(head) = order.get_mut(..=i) {
                            head.rotate_right(1);
                        }
                    }
                } else {
                    break Some(score);
                }
            };
            let Some(alpha) = alpha else {
                break;
            };
            previous = Some(alpha);
            report.depth = depth;
            // Best first next time; the sort is stable, so ties keep their order.
            order.sort_by_key(|&(score, _)| -score);
            self.root_scores.clear();
            self.root_scores
                .extend(order.iter().map(|&(score, r)| (r.mv, score)));
            if alpha.abs() >= MATE_BOUND && MATE - alpha.abs() <= depth {
                break; // a forced mate shorter than the depth searched: nothing to improve
            }
            if self.out_of_time_for_next_iteration() {
                break;
            }
        }
    }

    /// One iteration over the root moves within (`lo`, `hi`): the best move that beat `lo`
    /// (`None` when none did, or none was searched before the search stopped); each
    /// searched move's score goes into `order`. Stops at the first move reaching `hi`.
    fn root_iteration(
        &mut self,
        order: &mut [(i32, RootMove)],
        depth: i32,
        lo: i32,
        hi: i32,
    ) -> Option<(Move, i32)> {
        let mut alpha = lo;
        let mut best: Option<(Move, i32)> = None;
        for (i, entry) in order.iter_mut().enumerate() {
            let mv = entry.1.mv;
            let window = if self.exact_root { -INFINITY } else { alpha };
            let first = i == 0 || self.exact_root;
            let score = match entry.1.fixed {
                Some(score) => score,
                None => self.search_move(mv, first, depth, window, hi, 0, 0),
            };
            if self.stopped {
                break;
            }
            entry.0 = score;
            if score > alpha {
                alpha = score;
                best = Some((mv, score));
                if score >= hi {
                    break;
                }
            }
        }
        best
    }

    /// Whether the time is spent. An iteration that does not finish still counts: it
    /// searches the previous best move first, and a move it finds better within the time
    /// is played (see `deepen`), so the whole budget goes into the move.
    fn out_of_time_for_next_iteration(&self) -> bool {
        self.limits
            .time
            .is_some_and(|t| self.started.elapsed() >= t)
    }

    /// Plays `mv`, searches the reply with principal-variation windows (the first move with
    /// the full window, later ones with a null window first, `reduction` plies shallower
    /// when late and quiet, unless `mv` checks)
    /// and takes `mv` back. The score is for the side that played `mv`.
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        mv: Move,
        first: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        reduction: i32,
    ) -> i32 {
        let Some(undo) = self.make(mv) else {
            return -INFINITY;
        };
        let gives_check = self.trail.last().is_some_and(|t| t.check);
        let extend = gives_check && (ply as i32) < 2 * self.root_depth;
        let depth = depth - 1 + i32::from(extend);
        let score = if first {
            -self.negamax(depth, -beta, -alpha, ply + 1, gives_check)
        } else {
            let reduce = if gives_check || depth < 2 {
                0
            } else {
                reduction.min(depth - 1)
            };
            let mut s = -self.negamax(depth - reduce, -alpha - 1, -alpha, ply + 1, gives_check);
            if s > alpha && reduce > 0 {
                s = -self.negamax(depth, -alpha - 1, -alpha, ply + 1, gives_check);
            }
            if s > alpha && s < beta {
                s = -self.negamax(depth, -beta, -alpha, ply + 1, gives_check);
            }
            s
        };
        self.unmake(mv, undo);
        score
    }

    fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let after_null = std::mem::take(&mut self.after_null);
        if let Some(score) = self.repetition(ply) {
            return score;
        }
        if depth <= 0 || ply + 1 >= MAX_PLY {
            return self.quiesce(alpha, beta, ply, in_check);
        }
        let tt = self.tt.probe(self.key);
        if let Some(e) = tt {
            if beta - alpha == 1 && e.depth >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let side = self.position.side_to_move().index();
        let null_worthy = beta - alpha == 1
            && !in_check
            && !after_null
            && depth >= 3
            && self.attackers.get(side).is_some_and(|&n| n > 0)
            && self.static_eval() >= beta;
        if null_worthy {
            if let Some(score) = self.null_move(depth, beta, ply) {
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    // A mate found after passing proves nothing about mates: report a bound.
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        let moves = self.position.legal_move_list();
        if moves.is_empty() {
            // 4.1.1, 4.1.3: mated or 困毙, a loss either way.
            return -(MATE - ply as i32);
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let ordered = Ordered::new(
            &self.position,
            moves,
            tt.and_then(|e| e.best),
            &self.heuristics,
            ply,
        );
        for (i, mv) in ordered.enumerate() {
            let capture = self.position.piece_at(mv.to).is_some();
            let reduction = match (capture || in_check, i) {
                (true, _) | (_, ..=2) => 0,
                (_, 6..) if self.features.deep_reductions && depth >= 6 => 2,
                _ => 1,
            };
            let score = self.search_move(mv, i == 0, depth, alpha, beta, ply, reduction);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if !capture {
                            self.heuristics.reward(mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(Entry {
            key: self.key,
            best: best_move,
            score: to_tt(best, ply),
            depth,
            bound,
        });
        best
    }

    /// Null-move pruning: if passing still leaves the opponent unable to reach `beta` in
    /// a reduced search, a real move will too and the node is cut. `None` when the passed
    /// position cannot be built.
    fn null_move(&mut self, depth: i32, beta: i32, ply: usize) -> Option<i32> {
        let here = &self.position;
        let passed = Position::new(
            here.board().clone(),
            here.side_to_move().opponent(),
            here.halfmoves(),
            here.fullmoves(),
        )
        .ok()?;
        let saved = std::mem::replace(&mut self.position, passed);
        let key = self.key;
        self.key ^= Zobrist::black_to_move();
        // A pass breaks every repetition cycle through it.
        self.trail.push(Trail {
            key: self.key,
            check: false,
            capture: true,
        });
        let reduction = if depth > 6 { 3 } else { 2 };
        self.after_null = true;
        let score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, false);
        self.after_null = false;
        self.trail.pop();
        self.key = key;
        self.position = saved;
        Some(score)
    }

    /// Quiescence: only captures (all moves when in check) until the position is quiet, so
    /// the evaluation never stops in the middle of an exchange.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        if self.tick() {
            return 0;
        }
        let stand = self.static_eval();
        if ply + 1 >= MAX_PLY {
            return stand;
        }
        let mut best = -INFINITY;
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let moves = self.position.legal_move_list();
        if in_check && moves.is_empty() {
            return -(MATE - ply as i32);
        }
        let ordered = Ordered::new(&self.position, moves, None, &self.heuristics, ply);
        for mv in ordered {
            if !in_check && self.position.piece_at(mv.to).is_none() {
                break; // captures come first; the rest are quiet
            }
            let Some(undo) = self.make(mv) else {
                continue;
            };
            let gives_check = self.trail.last().is_some_and(|t| t.check);
            let score = -self.quiesce(-beta, -alpha, ply + 1, gives_check);
            self.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The evaluation for the side to move.
    fn static_eval(&self) -> i32 {
        match self.position.side_to_move() {
            Side::Red => self.eval,
            Side::Black => -self.eval,
        }
    }

    /// Counts a node; reads the limits every [`CHECK_EVERY`] nodes. True once stopped.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            let nodes_out = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            let time_out = self
                .limits
                .time
                .is_some_and(|t| self.started.elapsed() >= t);
            let cancelled = self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed));
            if nodes_out || time_out || cancelled {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Whether the current position (at `ply` > 0) repeats one since the last capture, and
    /// if so its score for the side to move under 4.1.7/4.2.3 (see the module doc).
    fn repetition(&self, ply: usize) -> Option<i32> {
        if ply == 0 {
            return None;
        }
        let win = MATE - ply as i32;
        Some(match repetition::judge(&self.trail)? {
            Cycle::MoverWins => win,
            Cycle::MoverLoses => -win,
            Cycle::Draw => 0,
        })
    }

    /// Plays `mv` (one of the legal moves), keeping key, evaluation, attacker counts and
    /// trail in step.
    fn make(&mut self, mv: Move) -> Option<Made> {
        let moving = self.position.piece_at(mv.from)?;
        let captured = self.position.piece_at(mv.to);
        let (key, eval, attackers) = (self.key, self.eval, self.attackers);
        self.key ^= Zobrist::toggle(moving, mv.from, mv.to, captured);
        self.eval += eval::delta(moving, mv.from, mv.to, captured);
        if let Some(c) = captured.filter(|c| is_attacker(c.kind)) {
            if let Some(n) = self.attackers.get_mut(c.side.index()) {
                *n = n.saturating_sub(1);
            }
        }
        let undo = self.position.make(mv);
        self.trail.push(Trail {
            key: self.key,
            check: self.position.in_check(),
            capture: captured.is_some(),
        });
        Some(Made {
            undo,
            key,
            eval,
            attackers,
        })
    }

    fn unmake(&mut self, mv: Move, made: Made) {
        self.position.unmake(mv, made.undo);
        self.key = made.key;
        self.eval = made.eval;
        self.attackers = made.attackers;
        self.trail.pop();
    }
}

/// Mate scores are stored relative to the node, so a transposition at another ply reads
/// the right distance.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
