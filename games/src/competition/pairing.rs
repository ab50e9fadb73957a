//! Pairing a round (五(一)2, 五(二)2, 2.9).
//!
//! Swiss: round 1 by lots (电脑抽签); from round 2 a weighted graph over the entries (and a
//! bye vertex when their number is odd) and a maximum-weight matching among the perfect
//! ones ([`super::matching`]). An edge's weight is a large constant less its [`EdgeCost`],
//! whose parts are weighted so that each outranks everything after it, summed over a whole
//! pairing:
//!
//! 1. rematches (赛过的对手不编排再赛), and a second bye to the same entry;
//! 2. the score difference between the two entries (同分或近分);
//! 3. its square: among pairings with the same sum of differences, gaps of one point rather
//!    than two (tournaments.md "The day itself" **[D]**: 3 against 1 only when no pairing
//!    with one-point gaps exists);
//! 4. for the bye: how far above the lowest-ranked entry its receiver stands;
//! 5. xiangqi colour balance: two entries due the same colour;
//! 6. lots: a small random part drawn from the round's seed (random within score groups).
//!
//! Every round's seed derives from the competition's recorded seed and the round number, so a
//! round re-paired from the same results is the same round.

use rand::Rng;

use super::matching::{max_weight_matching, Edge};
use super::standings::{lot_rng, lots, standings, Standing};
use super::{Bye, Competition, CompetitionError, EntryId, Event, Format, Pairing, Round};

/// Range of the random part of an edge's cost.
const JITTER: u64 = 16;

/// In fields larger than this, an entry is joined only to this many entries either side of
/// it in the ranking (and to the bye): keeps 1,000-entry rounds well under a second, while
/// a rematch-free same-score opponent is always among them in a Swiss of a few rounds.
pub const NEIGHBOURS: usize = 20;

/// What an edge costs, part by part (see the module doc for the order of priority).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct EdgeCost {
    /// 1 when the two have met (or the entry already had a bye, for a bye edge).
    pub rematch: u64,
    /// The difference of their round points (for the bye: points above the lowest score).
    pub score_diff: u64,
    /// `score_diff` squared: the sum over a pairing prefers two gaps of one point to one of
    /// two and one of none.
    pub score_gap_sq: u64,
    /// For a bye edge: the receiver's place counted from the bottom (0 = last).
    pub bye_rank: u64,
    /// Xiangqi: how many games both are owed the same colour.
    pub colour: u64,
    /// The lot.
    pub jitter: u64,
}

/// The round's view of one entry, in ranking order.
struct Seeded<'a> {
    row: &'a Standing,
    had_bye: bool,
}

/// The graph the matching runs on: vertices `0..entries` in ranking order, plus the bye
/// vertex last when the number is odd. Exposed for the brute-force tests.
pub struct Graph {
    /// Entries in ranking order.
    pub order: Vec<EntryId>,
    /// Whether the last vertex is the bye.
    pub has_bye: bool,
    /// Edges with their cost parts.
    pub edges: Vec<(usize, usize, EdgeCost)>,
}

impl Graph {
    /// Vertices, the bye included.
    pub fn vertices(&self) -> usize {
        self.order.len() + usize::from(self.has_bye)
    }

    /// Weights that make the matching minimise the cost parts in order of priority.
    pub fn weighted_edges(&self, rounds: u32) -> Vec<Edge> {
        let m = self.vertices().div_ceil(2) as i128 + 1;
        let n = self.order.len() as i128 + 1;
        let rounds = i128::from(rounds.max(1)) + 1;
        let l_colour = m * JITTER as i128;
        let l_bye = l_colour * (m * rounds + 1);
        let l_gap_sq = l_bye * (n + 1);
        // A gap is at most 2 × rounds points, its square 4 × rounds².
        let l_score = l_gap_sq * (m * 4 * rounds * rounds + 1);
        let l_rematch = l_score * (m * 2 * rounds + 1);
        let top = l_rematch * (m + 1);
        self.edges
            .iter()
            .map(|&(a, b, c)| Edge {
                a,
                b,
                weight: top
                    - (c.rematch as i128 * l_rematch
                        + c.score_diff as i128 * l_score
                        + c.score_gap_sq as i128 * l_gap_sq
                        + c.bye_rank as i128 * l_bye
                        + c.colour as i128 * l_colour
                        + c.jitter as i128),
            })
            .collect()
    }
}

/// The seed of round `number` of a competition seeded `seed`.
pub fn round_seed(seed: u64, number: u32) -> u64 {
    lot_rng(seed, 0x100 + u64::from(number)).random()
}

/// Builds the Swiss graph for the next round from the standings so far.
pub fn swiss_graph(c: &Competition, seed: u64) -> Graph {
    let rows = active_standings(c);
    let seeded: Vec<Seeded> = rows
        .iter()
        .map(|row| Seeded {
            row,
            had_bye: row.byes > 0,
        })
        .collect();
    let n = seeded.len();
    let mut rng = lot_rng(seed, 7);
    let xiangqi = c.settings.event == Event::XiangqiSingles;
    let mut edges = Vec::new();
    for i in 0..n {
        let reach = if n > 2 * NEIGHBOURS + 1 {
            (i + NEIGHBOURS + 1).min(n)
        } else {
            n
        };
        for j in i + 1..reach {
            let (a, b) = (seeded[i].row, seeded[j].row);
            let colour = if xiangqi && a.colour_balance.signum() == b.colour_balance.signum() {
                a.colour_balance
                    .unsigned_abs()
                    .min(b.colour_balance.unsigned_abs())
            } else {
                0
            };
            let gap = u64::from(a.points.abs_diff(b.points));
            let cost = EdgeCost {
                rematch: u64::from(a.opponents.contains(&b.entry)),
                score_diff: gap,
                score_gap_sq: gap * gap,
                bye_rank: 0,
                colour: u64::from(colour),
                jitter: rng.random_range(0..JITTER),
            };
            edges.push((i, j, cost));
        }
    }
    let has_bye = n % 2 == 1;
    if has_bye {
        let lowest = seeded.iter().map(|s| s.row.points).min().unwrap_or(0);
        for (i, s) in seeded.iter().enumerate() {
            let gap = u64::from(s.row.points - lowest);
            let cost = EdgeCost {
                rematch: u64::from(s.had_bye),
                score_diff: gap,
                score_gap_sq: gap * gap,
                bye_rank: (n - 1 - i) as u64,
                colour: 0,
                jitter: 0,
            };
            edges.push((i, n, cost));
        }
    }
    Graph {
        order: rows.iter().map(|r| r.entry).collect(),
        has_bye,
        edges,
    }
}

/// The standings of the entries still paired (a withdrawn entry is not).
fn active_standings(c: &Competition) -> Vec<Standing> {
    let mut rows = standings(c);
    rows.retain(|r| c.is_active(r.entry));
    rows
}

/// Pairs the next round of the competition (Swiss or knockout, per its settings).
///
/// # Errors
/// `NoRoundLeft`, `RoundUnfinished` (a table of the last round has no result),
/// `TooFewEntries`.
pub fn pair_next_round(c: &Competition) -> Result<Round, CompetitionError> {
    let number = c.rounds.len() as u32 + 1;
    if number > c.settings.rounds {
        return Err(CompetitionError::NoRoundLeft {
            rounds: c.settings.rounds,
        });
    }
    if let Some(last) = c.rounds.last() {
        if let Some(p) = last.pairings.iter().find(|p| p.result.is_none()) {
            return Err(CompetitionError::RoundUnfinished {
                round: last.number,
                table: p.table,
            });
        }
    }
    let seed = round_seed(c.settings.seed, number);
    let field: Vec<EntryId> = match c.settings.format {
        Format::Swiss => c.entries.iter().map(|e| e.id).collect(),
        Format::Knockout => knockout_remaining(c),
    };
    let field: Vec<EntryId> = field.into_iter().filter(|e| c.is_active(*e)).collect();
    if field.len() < 2 {
        return Err(CompetitionError::TooFewEntries);
    }
    if number == 1 || c.settings.format == Format::Knockout {
        return Ok(drawn_round(&field, number, seed));
    }
    let graph = swiss_graph(c, seed);
    let mate = max_weight_matching(graph.vertices(), &graph.weighted_edges(c.settings.rounds));
    let rows = active_standings(c);
    let n = graph.order.len();
    let mut pairings = Vec::new();
    let mut bye = None;
    for i in 0..n {
        match mate.get(i).copied().flatten() {
            Some(j) if j == n => {
                bye = Some(Bye {
                    entry: graph.order[i],
                })
            }
            Some(j) if j > i => {
                let (a, b) = (&rows[i], &rows[j]);
                // Xiangqi: the one owed Red plays Red; Tuolaji: the higher-ranked is named first.
                let swap = c.settings.event == Event::XiangqiSingles
                    && (b.colour_balance < a.colour_balance
                        || (b.colour_balance == a.colour_balance && (a.lot + b.lot) % 2 == 1));
                let (first, second) = if swap {
                    (b.entry, a.entry)
                } else {
                    (a.entry, b.entry)
                };
                pairings.push(Pairing {
                    table: pairings.len() as u32 + 1,
                    first,
                    second,
                    result: None,
                });
            }
            _ => {}
        }
    }
    Ok(Round {
        number,
        pairings,
        bye,
        seed,
    })
}

/// A round drawn wholly by lots: Swiss round 1, or a knockout round (2.9: the draw decides the
/// pairs, the colours — first drawn plays Red — and, with an odd number, the bye).
fn drawn_round(field: &[EntryId], number: u32, seed: u64) -> Round {
    let order = lots(seed, 3, field.len());
    let mut drawn: Vec<EntryId> = vec![EntryId(0); field.len()];
    for (i, &lot) in order.iter().enumerate() {
        drawn[lot as usize] = field[i];
    }
    let bye = (drawn.len() % 2 == 1).then(|| Bye {
        entry: drawn[drawn.len() - 1],
    });
    let pairings = drawn
        .chunks_exact(2)
        .enumerate()
        .map(|(t, pair)| Pairing {
            table: t as u32 + 1,
            first: pair[0],
            second: pair[1],
            result: None,
        })
        .collect();
    Round {
        number,
        pairings,
        bye,
        seed,
    }
}

/// Knockout (2.9): the entries not yet beaten. A draw or a double forfeit eliminates both
/// (a best-of-three tie is settled before its result is recorded, 2.6).
pub fn knockout_remaining(c: &Competition) -> Vec<EntryId> {
    use super::GameResult as R;
    let mut out: Vec<bool> = vec![false; c.entries.len()];
    for round in &c.rounds {
        for p in &round.pairings {
            let (first_out, second_out) = match p.result {
                Some(R::FirstWins | R::SecondForfeits) => (false, true),
                Some(R::SecondWins | R::FirstForfeits) => (true, false),
                Some(R::Draw | R::BothForfeit) => (true, true),
                None => (false, false),
            };
            if let Some(o) = out.get_mut(p.first.index()) {
                *o |= first_out;
            }
            if let Some(o) = out.get_mut(p.second.index()) {
                *o |= second_out;
            }
        }
    }
    c.entries
        .iter()
        .filter(|e| !out[e.id.index()])
        .map(|e| e.id)
        .collect()
}
