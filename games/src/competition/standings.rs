//! Standings and awards (六): 轮分, 对手分, 级差, lots; team totals from each department's two
//! best entries; award places capped at two thirds.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Competition, EntryId, Event, GameResult, Team, BYE};

/// One entry's line in the standings, every tiebreak exposed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The entry.
    pub entry: EntryId,
    /// Its place, from 1 (lots make places distinct).
    pub rank: u32,
    /// 轮分: 2 a win or bye, 1 a draw, 0 a loss or forfeit.
    pub points: u32,
    /// 对手分: the sum of the current points of every opponent met in a game that has a
    /// result (a forfeited pairing counts as met; a game still being played does not, so
    /// the standings shown during a round are those after the last results, tournaments.md
    /// "The day itself"; a bye adds nothing).
    pub opponents_points: u32,
    /// 级差: +2 a win or bye, 0 a draw, −2 a loss or forfeit.
    pub level_diff: i32,
    /// The lot (抽签) for a tie on everything else; lower ranks first.
    pub lot: u32,
    /// Games actually played (a forfeit by this entry is not one): 实际参赛 means `played > 0`.
    pub played: u32,
    /// Byes received.
    pub byes: u32,
    /// Opponents met, in round order (each pairing counts, forfeited or not).
    pub opponents: Vec<EntryId>,
    /// Xiangqi colour balance: games as Red (first-named) minus games as Black.
    pub colour_balance: i32,
}

/// A stream of lots derived from a recorded seed and a purpose, so each draw is reproducible
/// and independent of the others.
pub fn lot_rng(seed: u64, purpose: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ purpose.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A random order of `0..n` drawn from the seed: `lots(..)[i]` is item i's lot.
pub fn lots(seed: u64, purpose: u64, n: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.shuffle(&mut lot_rng(seed, purpose));
    order
}

/// Purpose of the lots that break ties between entries.
const ENTRY_LOTS: u64 = 1;
/// Purpose of the lots that break ties between teams.
const TEAM_LOTS: u64 = 2;

/// The standings after every recorded result, best first.
pub fn standings(c: &Competition) -> Vec<Standing> {
    let n = c.entries.len();
    let entry_lots = lots(c.settings.seed, ENTRY_LOTS, n);
    let mut rows: Vec<Standing> = (0..n)
        .map(|i| Standing {
            entry: EntryId(i as u32),
            rank: 0,
            points: 0,
            opponents_points: 0,
            level_diff: 0,
            lot: entry_lots[i],
            played: 0,
            byes: 0,
            opponents: Vec::new(),
            colour_balance: 0,
        })
        .collect();
    // Per entry: the opponents met in a game that has a result (for 对手分).
    let mut scored: Vec<Vec<EntryId>> = vec![Vec::new(); n];
    for round in &c.rounds {
        for p in &round.pairings {
            let (a, b) = (p.first.index(), p.second.index());
            if a >= n || b >= n {
                continue;
            }
            rows[a].opponents.push(p.second);
            rows[b].opponents.push(p.first);
            rows[a].colour_balance += 1;
            rows[b].colour_balance -= 1;
            if let Some(result) = p.result {
                scored[a].push(p.second);
                scored[b].push(p.first);
                let (sa, sb) = result.scores();
                rows[a].points += sa.points;
                rows[a].level_diff += sa.level_diff;
                rows[b].points += sb.points;
                rows[b].level_diff += sb.level_diff;
                let (a_played, b_played) = match result {
                    GameResult::FirstForfeits => (false, true),
                    GameResult::SecondForfeits => (true, false),
                    GameResult::BothForfeit => (false, false),
                    _ => (true, true),
                };
                rows[a].played += u32::from(a_played);
                rows[b].played += u32::from(b_played);
            }
        }
        if let Some(row) = round.bye.and_then(|bye| rows.get_mut(bye.entry.index())) {
            row.points += BYE.points;
            row.level_diff += BYE.level_diff;
            row.byes += 1;
        }
    }
    let points: Vec<u32> = rows.iter().map(|r| r.points).collect();
    for (row, met) in rows.iter_mut().zip(&scored) {
        row.opponents_points = met.iter().map(|o| points[o.index()]).sum();
    }
    rank(
        &mut rows,
        |r| (r.points, r.opponents_points, r.level_diff, r.lot),
        |r| &mut r.rank,
    );
    rows
}

/// 六1: sorts best first by (points, 对手分, 级差) descending, then the lot ascending, and
/// numbers the places from 1.
fn rank<T>(
    rows: &mut [T],
    key: impl Fn(&T) -> (u32, u32, i32, u32),
    place: impl Fn(&mut T) -> &mut u32,
) {
    rows.sort_by_key(|r| {
        let (points, opponents, level, lot) = key(r);
        (std::cmp::Reverse((points, opponents, level)), lot)
    });
    for (i, row) in rows.iter_mut().enumerate() {
        *place(row) = i as u32 + 1;
    }
}

/// One department's team result (六1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamStanding {
    /// The department.
    pub team: Team,
    /// Its place, from 1.
    pub rank: u32,
    /// The (at most) two entries counted: two pairs, two players, or one of each.
    pub counted: Vec<(Event, EntryId)>,
    /// The sum of their points.
    pub total: u32,
    /// The sum of their 对手分.
    pub opponents_points: u32,
    /// The sum of their 级差.
    pub level_diff: i32,
    /// The team's lot; lower ranks first.
    pub lot: u32,
}

/// Team totals over the events' competitions (六1): each department's two best entries (best
/// by points, then 对手分, then 级差), ranked by total, then those entries' 对手分, then their
/// 级差, then lots drawn from `seed`. Every department with an entry is listed.
pub fn team_standings(events: &[&Competition], seed: u64) -> Vec<TeamStanding> {
    team_lines(events, seed).0
}

/// [`team_standings`], and which of its teams have an entry that actually played.
fn team_lines(events: &[&Competition], seed: u64) -> (Vec<TeamStanding>, Vec<Team>) {
    struct Line {
        team: Team,
        event: Event,
        entry: EntryId,
        points: u32,
        opp: u32,
        ld: i32,
        played: bool,
    }
    let mut lines = Vec::new();
    for c in events {
        for s in standings(c) {
            if let Some(e) = c.entries.get(s.entry.index()) {
                lines.push(Line {
                    team: e.team.clone(),
                    event: c.settings.event,
                    entry: s.entry,
                    points: s.points,
                    opp: s.opponents_points,
                    ld: s.level_diff,
                    played: s.played > 0,
                });
            }
        }
    }
    let mut teams: Vec<Team> = lines.iter().map(|l| l.team.clone()).collect();
    teams.sort();
    teams.dedup();
    let team_lots = lots(seed, TEAM_LOTS, teams.len());
    let mut out: Vec<TeamStanding> = teams
        .into_iter()
        .zip(team_lots)
        .map(|(team, lot)| {
            let mut mine: Vec<&Line> = lines.iter().filter(|l| l.team == team).collect();
            mine.sort_by_key(|l| std::cmp::Reverse((l.points, l.opp, l.ld)));
            mine.truncate(2);
            TeamStanding {
                rank: 0,
                counted: mine.iter().map(|l| (l.event, l.entry)).collect(),
                total: mine.iter().map(|l| l.points).sum(),
                opponents_points: mine.iter().map(|l| l.opp).sum(),
                level_diff: mine.iter().map(|l| l.ld).sum(),
                lot,
                team,
            }
        })
        .collect();
    rank(
        &mut out,
        |t| (t.total, t.opponents_points, t.level_diff, t.lot),
        |t| &mut t.rank,
    );
    let mut played: Vec<Team> = lines
        .iter()
        .filter(|l| l.played)
        .map(|l| l.team.clone())
        .collect();
    played.sort();
    played.dedup();
    (out, played)
}

/// The team awards (六2): team standings zipped with their award. The cap is two thirds of
/// the departments with at least one entry that actually played (实际参赛), as the
/// individual events count **\[D\]** (tournaments.md "The day itself"); a department none
/// of whose entries played gets none and takes no place.
pub fn team_awards(events: &[&Competition], seed: u64) -> Vec<(TeamStanding, Option<Award>)> {
    let (rows, played) = team_lines(events, seed);
    let mut places = awards(played.len(), played.len()).into_iter();
    rows.into_iter()
        .map(|t| {
            let a = if played.contains(&t.team) {
                places.next().flatten()
            } else {
                None
            };
            (t, a)
        })
        .collect()
}

/// Whether the competition is over: every round it will have is paired and every table
/// has a result. Until then its awards are provisional (tournaments.md "The day itself").
pub fn is_complete(c: &Competition) -> bool {
    let all_recorded = c
        .rounds
        .iter()
        .flat_map(|r| &r.pairings)
        .all(|p| p.result.is_some());
    let paired = c.rounds.len() >= c.settings.rounds as usize;
    let decided = c.settings.format == super::Format::Knockout
        && !c.rounds.is_empty()
        && super::pairing::knockout_remaining(c).len() < 2;
    all_recorded && (paired || decided)
}

/// An award place (六2, 六3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Award {
    /// 一等奖: the first two.
    First,
    /// 二等奖: the next four.
    Second,
    /// 三等奖: the rest, within the cap.
    Third,
}

/// The award of each place `1..=ranked`, given how many may receive one: at most two thirds,
/// rounded down, of `eligible` (the teams taking part, or the entries that actually played).
/// `awards(..)[i]` is place i + 1's award.
pub fn awards(ranked: usize, eligible: usize) -> Vec<Option<Award>> {
    let cap = eligible * 2 / 3;
    (0..ranked)
        .map(|i| {
            if i >= cap {
                None
            } else if i < 2 {
                Some(Award::First)
            } else if i < 6 {
                Some(Award::Second)
            } else {
                Some(Award::Third)
            }
        })
        .collect()
}

/// The individual awards of a competition: standings zipped with their award. 六3 caps the
/// awards at two thirds of the entries that actually played (实际参赛); an entry that never
/// played (forfeits and byes only) gets none and takes no place **\[D\]**: the places go
/// down the standings to the entries that played, in their order, so a non-player ranked
/// among them does not cost anyone an award.
pub fn individual_awards(c: &Competition) -> Vec<(Standing, Option<Award>)> {
    let rows = standings(c);
    let eligible = rows.iter().filter(|r| r.played > 0).count();
    let mut places = awards(eligible, eligible).into_iter();
    rows.into_iter()
        .map(|r| {
            let a = if r.played > 0 {
                places.next().flatten()
            } else {
                None
            };
            (r, a)
        })
        .collect()
}
