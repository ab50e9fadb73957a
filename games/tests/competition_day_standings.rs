//! Standings during a competition's day (tournaments.md "The day itself"): 对手分 counts only
//! opponents whose game with the entry has a result; the team award cap counts only the
//! departments with an entry that played (实际参赛); awards stay provisional until every
//! round is paired and recorded.

use qipai_games::competition::pairing::pair_next_round;
use qipai_games::competition::standings::{is_complete, standings, team_awards};
use qipai_games::competition::{Competition, Event, GameResult, Player, Settings};

fn player(name: &str) -> Player {
    Player {
        name: name.into(),
        contact: None,
    }
}

/// A xiangqi competition of `rounds` rounds with one player from each department named.
fn xiangqi(teams: &[&str], rounds: u32) -> Competition {
    let mut settings = Settings::new(Event::XiangqiSingles, 7);
    settings.rounds = rounds;
    let mut c = Competition::new(settings);
    for (i, team) in teams.iter().enumerate() {
        c.add_entry(team, None, vec![player(&format!("p{i}"))], &[])
            .unwrap();
    }
    c
}

/// Pairs the next round and records `result` at every table but the first `open` ones
/// (the top tables, where the points are).
fn play_round(c: &mut Competition, result: GameResult, open: usize) {
    let round = pair_next_round(c).unwrap();
    let number = round.number;
    let tables: Vec<u32> = round.pairings.iter().map(|p| p.table).collect();
    c.rounds.push(round);
    for table in tables.into_iter().skip(open) {
        c.record(number, table, result).unwrap();
    }
}

#[test]
fn opponents_points_count_only_games_with_a_result() {
    let mut c = xiangqi(&["A", "B", "C", "D"], 3);
    play_round(&mut c, GameResult::FirstWins, 0);
    // Round 2 paired; one table recorded, the other still being played.
    play_round(&mut c, GameResult::FirstWins, 1);
    let rows = standings(&c);
    let points = |e| rows.iter().find(|r| r.entry == e).unwrap().points;
    for row in &rows {
        // Written from the rule: the opponents met in a game that has a result.
        let expected: u32 = c
            .rounds
            .iter()
            .flat_map(|r| &r.pairings)
            .filter(|p| p.result.is_some())
            .filter_map(|p| match (p.first == row.entry, p.second == row.entry) {
                (true, _) => Some(points(p.second)),
                (_, true) => Some(points(p.first)),
                _ => None,
            })
            .sum();
        assert_eq!(row.opponents_points, expected, "{row:?}");
    }
    // The open table's two entries met in round 2, but that game adds nothing yet.
    let open = c.rounds[1]
        .pairings
        .iter()
        .find(|p| p.result.is_none())
        .unwrap();
    let row = rows.iter().find(|r| r.entry == open.first).unwrap();
    assert_eq!(row.opponents.len(), 2, "met twice");
    assert_eq!(points(open.second), 2, "the open table is a top one");
    assert!(!is_complete(&c), "a table of round 2 is still open");
}

#[test]
fn the_team_cap_counts_departments_that_played() {
    // Six departments, one entry each, one round: F forfeits its game. Five played, so at
    // most 5 × 2 / 3 = 3 awards (counting F would give 4), and F gets none.
    let mut c = xiangqi(&["A", "B", "C", "D", "E", "F"], 1);
    let round = pair_next_round(&c).unwrap();
    c.rounds.push(round.clone());
    let is_f = |e: qipai_games::competition::EntryId| c.entries[e.index()].team.0 == "F";
    let results: Vec<(u32, GameResult)> = round
        .pairings
        .iter()
        .map(|p| {
            let r = if is_f(p.first) {
                GameResult::FirstForfeits
            } else if is_f(p.second) {
                GameResult::SecondForfeits
            } else {
                GameResult::Draw
            };
            (p.table, r)
        })
        .collect();
    assert!(
        !is_complete(&c),
        "provisional until every table has a result"
    );
    for (table, r) in results {
        c.record(1, table, r).unwrap();
    }
    assert!(is_complete(&c));
    let awards = team_awards(&[&c], 1);
    assert_eq!(awards.iter().filter(|(_, a)| a.is_some()).count(), 3);
    let f = awards.iter().find(|(t, _)| t.team.0 == "F").unwrap();
    assert_eq!(f.1, None, "a department that never played gets no award");
}
