//! Golden tests: 第十三条 (lateness) applied at the table, through [`Match::lateness`] and the
//! table's [`Game::rule`]: "6~10分钟，首盘扣20分；11~15分钟，首盘扣30分；16~20分钟，首盘自动放弃，
//! 对手自动升级；21分钟以上判全队该轮弃权".

use qipai_games::cards::Rank;
use qipai_games::competition::lateness::{tuolaji_lateness, TuolajiLateness};
use qipai_games::tuolaji::hand::Phase;
use qipai_games::tuolaji::level::Team;
use qipai_games::tuolaji::matchplay::{Match, MatchEnd};
use qipai_games::tuolaji::suggest::suggest;
use qipai_games::tuolaji::TuolajiRuling as Ruling;
use qipai_games::tuolaji::{HandResult, TuolajiError, TuolajiGame, TuolajiRules, TuolajiSettings};
use qipai_games::{Game, Millis, Seat};

const SEED: u64 = 13;

/// Plays the current hand to its end with the suggested actions.
fn play_hand(game: &mut Match) -> HandResult {
    let at = Millis(0);
    while game.hand().phase() == Phase::Dealing {
        game.deal_next(at).unwrap();
    }
    if let Phase::Bidding { closes_at } = game.hand().phase() {
        game.close_bidding(closes_at).unwrap();
    }
    while let Some((seat, action)) = suggest(game.hand()) {
        game.apply(seat, action, at).unwrap();
    }
    game.history().last().cloned().expect("the hand is scored")
}

fn fresh() -> Match {
    Match::new(&TuolajiRules::for_tests(), SEED, Millis(0)).unwrap()
}

/// 第十三条 "6~10分钟，首盘扣20分", "11~15分钟，首盘扣30分": the same first hand played twice,
/// once with a late pair: the late pair's side loses exactly the points, whichever side it
/// is on (taken from the defenders' score when it defends, added to it when it deals).
#[test]
fn six_to_fifteen_minutes_take_points_in_the_first_hand() {
    let plain = play_hand(&mut fresh());
    for minutes in [6, 10, 11, 15] {
        let TuolajiLateness::FirstHandPenalty { points } = tuolaji_lateness(minutes) else {
            panic!("{minutes} minutes is a first-hand penalty");
        };
        for late in Team::ALL {
            let mut game = fresh();
            assert_eq!(
                game.lateness(late, tuolaji_lateness(minutes), 99, Millis(0)),
                Ok(false)
            );
            let result = play_hand(&mut game);
            assert_eq!(result.dealer, plain.dealer, "the same hand was played");
            assert_eq!(result.score.trick_points, plain.score.trick_points);
            let points = i32::try_from(points).unwrap();
            let defends = Team::of(result.dealer) != late;
            let want = if defends { -points } else { points };
            assert_eq!(
                result.defenders_points - plain.defenders_points,
                want,
                "{minutes} min, {late:?} late, defending: {defends}"
            );
            assert_eq!(
                result.score.penalty_points - plain.score.penalty_points,
                want
            );
        }
    }
}

/// 第十三条 "16~20分钟，首盘自动放弃，对手自动升级": the opponents go up one level (2 → 3)
/// and the hand played is dealt by them at their level **[D]** (the lower seat of their team).
#[test]
fn sixteen_to_twenty_minutes_forfeit_the_first_hand() {
    for (late, winners, dealer) in [
        (Team::NorthSouth, Team::EastWest, Seat(1)),
        (Team::EastWest, Team::NorthSouth, Seat(0)),
    ] {
        let mut game = fresh();
        assert_eq!(
            game.lateness(late, tuolaji_lateness(18), 99, Millis(0)),
            Ok(true)
        );
        assert_eq!(game.levels().get(winners).rank(), Some(Rank::Three));
        assert_eq!(game.levels().get(late).rank(), Some(Rank::Two));
        assert_eq!(game.hand().dealer(), Some(dealer));
        assert_eq!(game.hand().level(), Rank::Three);
        assert!(game.history().is_empty(), "no hand was scored");
        assert!(game.outcome().is_none());
        let result = play_hand(&mut game);
        assert_eq!(result.dealer, dealer);
    }
}

/// 第十三条 "21分钟以上判全队该轮弃权": the round is forfeited; the opponents win it.
#[test]
fn over_twenty_minutes_forfeit_the_round() {
    let mut game = fresh();
    assert_eq!(
        game.lateness(Team::EastWest, tuolaji_lateness(21), 99, Millis(0)),
        Ok(false)
    );
    let outcome = game.outcome().expect("the round is over");
    assert_eq!(outcome.winner, Some(Team::NorthSouth));
    assert_eq!(outcome.end, MatchEnd::Forfeit);
    assert_eq!(outcome.round_points, [2, 0]);
}

/// 第十三条 "5分钟之内警告": a warning changes nothing at the table.
#[test]
fn a_warning_changes_nothing() {
    let mut game = fresh();
    let before = game.clone();
    assert_eq!(
        game.lateness(Team::NorthSouth, tuolaji_lateness(5), 99, Millis(0)),
        Ok(false)
    );
    assert_eq!(game, before);
}

/// A ruling for the first hand once it is over is refused and changes nothing.
#[test]
fn too_late_for_the_first_hand() {
    let mut game = fresh();
    play_hand(&mut game);
    let before = game.clone();
    for minutes in [8, 13, 18] {
        assert!(matches!(
            game.lateness(Team::NorthSouth, tuolaji_lateness(minutes), 99, Millis(0)),
            Err(TuolajiError::WrongPhase { .. })
        ));
        assert_eq!(game, before);
    }
}

/// The table's [`Game::rule`]: a first hand forfeited deals hand 2 at once (the voided
/// hand 1 is not played); a round forfeited ends the game with the opponents winning.
#[test]
fn the_table_applies_rulings() {
    let settings = TuolajiSettings {
        rules: TuolajiRules::for_tests(),
        between_hands_ms: 0,
        trick_pause_ms: 0,
    };
    let mut table = TuolajiGame::new(&settings, SEED);
    table.start(Millis(0));
    let band = tuolaji_lateness(17);
    let emits = table.rule(
        Ruling::Late {
            seat: Seat(3),
            band,
        },
        Millis(5),
    );
    assert!(!emits.is_empty(), "the new hand is announced");
    let game = table.game().unwrap();
    assert_eq!(
        game.levels().get(Team::NorthSouth).rank(),
        Some(Rank::Three)
    );
    assert_eq!(game.hand().dealer(), Some(Seat(0)));
    let over = tuolaji_lateness(25);
    table.rule(
        Ruling::Late {
            seat: Seat(0),
            band: over,
        },
        Millis(6),
    );
    assert!(table.is_over());
    let outcome = table.table_outcome().unwrap();
    assert_eq!(outcome.winner, Some(1));
}

/// A ruling is logged with the room's steps (MessagePack, as actions are) and read back
/// for a replay after a restart: every band survives the round trip.
#[test]
fn rulings_survive_the_log() {
    for minutes in [0, 3, 8, 13, 18, 25] {
        let ruling = Ruling::Late {
            seat: Seat(1),
            band: tuolaji_lateness(minutes),
        };
        let bytes = qipai_protocol::encode(&ruling).unwrap();
        let back: Ruling = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(back, ruling, "{minutes} min");
    }
}

/// 五(一)3 with 第十三条: a competition's round clock runs from the round's start, not from
/// the table's game start, so a pair that comes late "eats into" the 90 minutes; and a
/// pair's lateness is applied with the start itself: as ruled before the start for the pair
/// complete first, as late as the start for the pair that completed the table.
#[test]
fn the_round_clock_and_lateness_count_from_the_round_start() {
    let rules = TuolajiRules {
        round_minutes: Some(90),
        ..TuolajiRules::for_tests()
    };
    let minute = rules.minute_ms;
    let settings = TuolajiSettings {
        rules,
        between_hands_ms: 0,
        trick_pause_ms: 0,
    };
    // Without a round start (a table outside a competition): 90 minutes from the start.
    let mut plain = TuolajiGame::new(&settings, SEED);
    plain.start(Millis(1_000));
    let end = plain.game().unwrap().round_ends_at().unwrap();
    assert_eq!(end, Millis(1_000 + 90 * minute));

    // The round started at 1000 (ruled at 1000 + 0 ago); seats 0+2 (North–South) were
    // there at minute 3 (a warning), ruled before the start; East–West completed the table
    // at 8 minutes (started: −20 in the first hand), never ruled.
    let unit = 1000; // a lateness "minute" of 1 s in this test
    let mut table = TuolajiGame::new(&settings, SEED);
    let before = table.rule(
        Ruling::RoundStarted {
            ago: Millis(0),
            lateness_unit_ms: unit,
        },
        Millis(1_000),
    );
    assert!(before.is_empty(), "nothing happens before the start");
    table.rule(
        Ruling::Late {
            seat: Seat(0),
            band: tuolaji_lateness(3),
        },
        Millis(3_500),
    );
    // A second ruling for the same pair changes nothing (a restart may send it again).
    table.rule(
        Ruling::Late {
            seat: Seat(2),
            band: tuolaji_lateness(18),
        },
        Millis(3_600),
    );
    table.start(Millis(1_000 + 7 * unit + 500));
    let game = table.game().unwrap();
    assert_eq!(
        game.round_ends_at(),
        Some(Millis(1_000 + 90 * minute)),
        "the round ends 90 minutes after the round's start"
    );
    // No hand was forfeited (the 18-minute ruling came second); East–West's −20 is on
    // the first hand: it shows in its result.
    assert_eq!(
        table.game().unwrap().levels().get(Team::NorthSouth).rank(),
        Some(Rank::Two)
    );
    let mut game = table.game().unwrap().clone();
    let plain_result = play_hand(&mut plain.game().unwrap().clone());
    let result = play_hand(&mut game);
    assert_eq!(result.dealer, plain_result.dealer, "the same first hand");
    let defends = Team::of(result.dealer) != Team::EastWest;
    assert_eq!(
        result.defenders_points - plain_result.defenders_points,
        if defends { -20 } else { 20 },
        "第十三条 6~10分钟，首盘扣20分 for the pair that completed the table 8 minutes late"
    );

    // A pair completing the table past 20 minutes forfeits the round at the start.
    let mut table = TuolajiGame::new(&settings, SEED);
    table.rule(
        Ruling::RoundStarted {
            ago: Millis(0),
            lateness_unit_ms: unit,
        },
        Millis(0),
    );
    table.start(Millis(21 * unit));
    assert!(table.is_over(), "21 minutes: the round forfeited");
}
