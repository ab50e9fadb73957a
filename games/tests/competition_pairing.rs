//! Swiss pairing (五(一)2, 五(二)2): the maximum-weight matching's choice against a brute force
//! over every pairing of small fields, and the properties every round must have.

use std::collections::BTreeSet;

use proptest::prelude::*;
use qipai_games::competition::pairing::pair_next_round;
use qipai_games::competition::{Competition, EntryId, Event, GameResult, Player, Round, Settings};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn competition(event: Event, entries: usize, rounds: u32, seed: u64) -> Competition {
    let mut settings = Settings::new(event, seed);
    settings.rounds = rounds;
    let mut c = Competition::new(settings);
    for i in 0..entries {
        let players = (0..event.entry_size())
            .map(|k| Player {
                name: format!("p{i}-{k}"),
                contact: None,
            })
            .collect();
        c.add_entry(&format!("dept{}", i % 5), None, players, &[])
            .unwrap();
    }
    c
}

fn random_result(rng: &mut ChaCha8Rng) -> GameResult {
    match rng.random_range(0..10) {
        0..=3 => GameResult::FirstWins,
        4..=7 => GameResult::SecondWins,
        8 => GameResult::Draw,
        _ => GameResult::FirstForfeits,
    }
}

/// Pairs and plays `played` rounds with random results.
fn play(c: &mut Competition, played: u32, rng: &mut ChaCha8Rng) {
    for _ in 0..played {
        let round = pair_next_round(c).unwrap();
        let number = round.number;
        let tables: Vec<u32> = round.pairings.iter().map(|p| p.table).collect();
        c.rounds.push(round);
        for t in tables {
            let r = random_result(rng);
            c.record(number, t, r).unwrap();
        }
    }
}

/// Points, opponents met and byes had, recomputed plainly from the rounds (tournaments.md:
/// win 2, draw 1, loss or forfeit 0, a bye 2).
fn history(c: &Competition) -> (Vec<u32>, Vec<BTreeSet<u32>>, Vec<u32>) {
    let n = c.entries.len();
    let (mut pts, mut met, mut byes) = (vec![0; n], vec![BTreeSet::new(); n], vec![0; n]);
    for r in &c.rounds {
        for p in &r.pairings {
            let (a, b) = (p.first.0 as usize, p.second.0 as usize);
            met[a].insert(p.second.0);
            met[b].insert(p.first.0);
            let (x, y) = match p.result.unwrap() {
                GameResult::FirstWins | GameResult::SecondForfeits => (2, 0),
                GameResult::SecondWins | GameResult::FirstForfeits => (0, 2),
                GameResult::Draw => (1, 1),
                GameResult::BothForfeit => (0, 0),
            };
            pts[a] += x;
            pts[b] += y;
        }
        if let Some(b) = r.bye {
            pts[b.entry.0 as usize] += 2;
            byes[b.entry.0 as usize] += 1;
        }
    }
    (pts, met, byes)
}

/// (rematches and repeated byes, sum of score differences with the bye counted from the lowest
/// score, sum of their squares) of a pairing given as pairs and an optional bye.
fn quality(c: &Competition, pairs: &[(u32, u32)], bye: Option<u32>) -> (u32, u32, u32) {
    let (pts, met, byes) = history(c);
    let lowest = pts.iter().copied().min().unwrap_or(0);
    let mut rematches = 0;
    let mut diff = 0;
    let mut squares = 0;
    for &(a, b) in pairs {
        rematches += u32::from(met[a as usize].contains(&b));
        let gap = pts[a as usize].abs_diff(pts[b as usize]);
        diff += gap;
        squares += gap * gap;
    }
    if let Some(b) = bye {
        rematches += u32::from(byes[b as usize] > 0);
        let gap = pts[b as usize] - lowest;
        diff += gap;
        squares += gap * gap;
    }
    (rematches, diff, squares)
}

/// The best quality over every pairing (and every bye) of the field, by brute force.
fn brute_best(c: &Competition) -> (u32, u32, u32) {
    fn go(
        c: &Competition,
        left: &mut Vec<u32>,
        pairs: &mut Vec<(u32, u32)>,
        bye: Option<u32>,
        best: &mut (u32, u32, u32),
    ) {
        if left.is_empty() {
            *best = (*best).min(quality(c, pairs, bye));
            return;
        }
        let a = left.remove(0);
        for k in 0..left.len() {
            let b = left.remove(k);
            pairs.push((a, b));
            go(c, left, pairs, bye, best);
            pairs.pop();
            left.insert(k, b);
        }
        left.insert(0, a);
    }
    let all: Vec<u32> = (0..c.entries.len() as u32).collect();
    let mut best = (u32::MAX, u32::MAX, u32::MAX);
    if all.len() % 2 == 1 {
        for &b in &all {
            let mut left: Vec<u32> = all.iter().copied().filter(|&x| x != b).collect();
            go(c, &mut left, &mut Vec::new(), Some(b), &mut best);
        }
    } else {
        go(c, &mut all.clone(), &mut Vec::new(), None, &mut best);
    }
    best
}

fn check_round(c: &Competition, round: &Round) {
    let mut seen = BTreeSet::new();
    for p in &round.pairings {
        assert_ne!(p.first, p.second);
        assert!(seen.insert(p.first), "{:?} paired twice", p.first);
        assert!(seen.insert(p.second), "{:?} paired twice", p.second);
    }
    if let Some(b) = round.bye {
        assert!(seen.insert(b.entry), "the bye is also paired");
    }
    assert_eq!(
        round.bye.is_some(),
        c.entries.len() % 2 == 1,
        "one bye exactly when odd"
    );
    assert_eq!(seen, (0..c.entries.len() as u32).map(EntryId).collect());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// 五(一)2: no pairing found by brute force over every pairing of a field of ≤ 10 has fewer
    /// rematches, or as few rematches and a smaller sum of score differences, or those and
    /// a smaller sum of their squares (one-point gaps before two-point ones).
    #[test]
    fn matching_is_as_good_as_brute_force(
        entries in 3usize..=10,
        played in 1u32..6,
        xiangqi in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let event = if xiangqi { Event::XiangqiSingles } else { Event::TuolajiPairs };
        let mut c = competition(event, entries, played + 1, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        play(&mut c, played, &mut rng);
        let round = pair_next_round(&c).unwrap();
        check_round(&c, &round);
        let pairs: Vec<(u32, u32)> = round.pairings.iter().map(|p| (p.first.0, p.second.0)).collect();
        let chosen = quality(&c, &pairs, round.bye.map(|b| b.entry.0));
        prop_assert_eq!(chosen, brute_best(&c));
    }

    /// Every round pairs each entry once, gives at most one bye, and is the same when paired
    /// again from the same results (the lots come from the recorded seed).
    #[test]
    fn rounds_are_sound_and_reproducible(
        entries in 2usize..40,
        seed in any::<u64>(),
        xiangqi in any::<bool>(),
    ) {
        let event = if xiangqi { Event::XiangqiSingles } else { Event::TuolajiPairs };
        let mut c = competition(event, entries, 4, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 1);
        for _ in 0..4 {
            let round = pair_next_round(&c).unwrap();
            check_round(&c, &round);
            prop_assert_eq!(&round, &pair_next_round(&c.clone()).unwrap());
            let number = round.number;
            let tables: Vec<u32> = round.pairings.iter().map(|p| p.table).collect();
            c.rounds.push(round);
            for t in tables {
                c.record(number, t, random_result(&mut rng)).unwrap();
            }
        }
        // Byes never go twice to one entry in a field of 9 or more. (In 5 or 7 a second bye can
        // be the price of avoiding a rematch, which comes first; the brute-force test covers it.)
        let (_, _, byes) = history(&c);
        if entries >= 9 {
            prop_assert!(byes.iter().all(|&b| b <= 1));
        }
        // Rematch-free while the field allows: four rounds of ≥ 8 entries never repeat a pairing.
        if entries >= 8 {
            let mut met = BTreeSet::new();
            for r in &c.rounds {
                for p in &r.pairings {
                    prop_assert!(met.insert((p.first.min(p.second), p.first.max(p.second))));
                }
            }
        }
    }
}

/// 五(一)2: a round cannot be paired while the last one has a table without a result.
#[test]
fn next_round_waits_for_results() {
    let mut c = competition(Event::TuolajiPairs, 6, 4, 9);
    let round = pair_next_round(&c).unwrap();
    c.rounds.push(round);
    assert!(pair_next_round(&c).is_err());
}

/// Among pairings equally good by rematches and the sum of score differences, gaps of one
/// point come before gaps of two (tournaments.md "The day itself"). The organiser's run
/// (seed 11, 21 Tuolaji pairs, round 4 pairing 3 points against 1) had results we do not
/// have; with results drawn here, seed 11 with 21 pairs and the fields below paired a
/// two-point (or three-point) gap in round 4 before this rule, where one-point gaps were
/// possible.
#[test]
fn one_point_gaps_before_two() {
    for (seed, pairs) in [(11, 21), (0, 20), (2, 20), (3, 20), (5, 20), (0, 12)] {
        let mut c = competition(Event::TuolajiPairs, pairs, 4, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        play(&mut c, 3, &mut rng);
        let round = pair_next_round(&c).unwrap();
        check_round(&c, &round);
        let (pts, _, _) = history(&c);
        let gaps: Vec<u32> = round
            .pairings
            .iter()
            .map(|p| pts[p.first.index()].abs_diff(pts[p.second.index()]))
            .collect();
        assert!(
            gaps.iter().all(|g| *g <= 1),
            "seed {seed}, {pairs} pairs, round 4 gaps: {gaps:?}"
        );
    }
}

/// A withdrawn entry is paired no more and gets no bye; its past results stand.
#[test]
fn a_withdrawn_entry_is_paired_no_more() {
    let mut c = competition(Event::XiangqiSingles, 5, 4, 3);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    play(&mut c, 1, &mut rng);
    let before = history(&c).0;
    c.withdraw(EntryId(2)).unwrap();
    assert!(c.withdraw(EntryId(9)).is_err());
    for _ in 0..3 {
        let round = pair_next_round(&c).unwrap();
        assert!(round.bye.is_none(), "four entries left: no bye");
        assert_eq!(round.pairings.len(), 2);
        assert!(round
            .pairings
            .iter()
            .all(|p| p.first != EntryId(2) && p.second != EntryId(2)));
        let number = round.number;
        c.rounds.push(round);
        for t in 1..=2 {
            c.record(number, t, GameResult::Draw).unwrap();
        }
    }
    assert_eq!(history(&c).0[2], before[2], "its results stand");
}

/// The latest round is undone while none of its tables has a result, and paired again the
/// same from the recorded seed; with a result it stays.
#[test]
fn the_latest_round_is_undone_before_any_result() {
    let mut c = competition(Event::TuolajiPairs, 6, 4, 21);
    let round = pair_next_round(&c).unwrap();
    c.rounds.push(round.clone());
    assert_eq!(c.undo_latest_round(), Ok(round.clone()));
    assert!(c.rounds.is_empty());
    assert!(c.undo_latest_round().is_err());
    assert_eq!(pair_next_round(&c).unwrap(), round);
    c.rounds.push(round);
    c.record(1, 2, GameResult::Draw).unwrap();
    assert!(c.undo_latest_round().is_err());
    assert_eq!(c.rounds.len(), 1);
}

/// 2.9: a knockout draws pairs each round, an odd one out draws the bye and goes through,
/// until one is left; the draw replays from the seed.
#[test]
fn knockout_runs_to_a_final() {
    use qipai_games::competition::pairing::knockout_remaining;
    use qipai_games::competition::Format;
    let mut c = competition(Event::XiangqiSingles, 13, 10, 77);
    c.settings.format = Format::Knockout;
    let mut sizes = vec![];
    loop {
        let left = knockout_remaining(&c);
        sizes.push(left.len());
        if left.len() < 2 {
            break;
        }
        let round = pair_next_round(&c).unwrap();
        assert_eq!(round, pair_next_round(&c).unwrap());
        assert_eq!(round.bye.is_some(), left.len() % 2 == 1);
        let number = round.number;
        let tables: Vec<u32> = round.pairings.iter().map(|p| p.table).collect();
        c.rounds.push(round);
        for t in tables {
            c.record(number, t, GameResult::SecondWins).unwrap();
        }
    }
    assert_eq!(sizes, vec![13, 7, 4, 2, 1]);
}
