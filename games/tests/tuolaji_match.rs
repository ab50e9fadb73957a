//! Golden tests for a game across hands (第二条, 第八条, 第二十条) and the round's time
//! limit with its last-hand call (五(一)3–4).

use qipai_games::cards::Rank;
use qipai_games::tuolaji::hand::Phase;
use qipai_games::tuolaji::level::{Level, Levels, Team};
use qipai_games::tuolaji::matchplay::{Match, MatchEnd};
use qipai_games::tuolaji::suggest::suggest;
use qipai_games::tuolaji::{TuolajiError, TuolajiRules};
use qipai_games::{Millis, Seat};

const MINUTE: u64 = 60_000;

/// Plays the current hand to its end with the suggested actions, every step at `at`.
fn play_hand(game: &mut Match, at: u64) {
    while game.hand().phase() == Phase::Dealing {
        game.deal_next(Millis(at)).unwrap();
    }
    if let Phase::Bidding { closes_at } = game.hand().phase() {
        game.close_bidding(closes_at.max(Millis(at))).unwrap();
    }
    while let Some((seat, action)) = suggest(game.hand()) {
        game.apply(seat, action, Millis(at)).unwrap();
    }
    assert!(game.hand().is_done());
}

/// 第二条: a team that goes past A wins the game; round points 2 and 0 (五(一)4).
#[test]
fn a_team_past_ace_wins() {
    let at_ace = Levels::new(Level::of(Rank::Ace), Level::of(Rank::Ace));
    let mut game =
        Match::resume(&TuolajiRules::for_tests(), at_ace, Seat(0), 4, Millis(0)).unwrap();
    assert_eq!(game.hand().level(), Rank::Ace);
    play_hand(&mut game, 1);
    let outcome = *game.outcome().expect("one team went up past A");
    let winner = outcome.winner.unwrap();
    assert_eq!(outcome.end, MatchEnd::PastAce);
    assert!(game.levels().get(winner).is_past_ace());
    assert!(!game.levels().get(winner.other()).is_past_ace());
    let mut points = [0; 2];
    points[winner.index()] = 2;
    assert_eq!(outcome.round_points, points);
    assert_eq!(
        game.next_hand(5, Millis(2)).unwrap_err(),
        TuolajiError::MatchOver
    );
}

/// 第八条3, 第九条1: the next hand is dealt by the result's next dealer at their team's level.
#[test]
fn next_hand_follows_the_rotation() {
    let mut game = Match::new(&TuolajiRules::for_tests(), 8, Millis(0)).unwrap();
    assert!(matches!(
        game.next_hand(9, Millis(0)),
        Err(TuolajiError::WrongPhase { .. })
    ));
    play_hand(&mut game, 1);
    let result = game.history()[0].clone();
    game.next_hand(9, Millis(2)).unwrap();
    let dealer = result.next_dealer;
    assert_eq!(game.hand().dealer(), Some(dealer));
    assert_eq!(game.hand().first_drawer(), dealer);
    assert_eq!(Some(game.hand().level()), game.levels().level_rank(dealer));
    let up = if result.change.dealer_went_up() {
        Team::of(result.dealer)
    } else {
        Team::of(result.dealer).other()
    };
    assert_eq!(game.levels().get(up).number(), 2 + result.change.steps());
}

/// 五(一)3: a hand that ends before the last call does not end the round; the hand in
/// progress at the call is the last, and then the higher level wins (equal: draw).
#[test]
fn round_time_limit_with_last_hand_call() {
    let options = TuolajiRules {
        round_minutes: Some(90),
        ..TuolajiRules::for_tests()
    };
    let mut game = Match::new(&options, 12, Millis(0)).unwrap();
    assert_eq!(game.last_call_at(), Some(Millis(75 * MINUTE)));
    assert!(!game.is_last_hand(Millis(75 * MINUTE - 1)));
    play_hand(&mut game, 10 * MINUTE);
    assert_eq!(game.outcome(), None);
    game.next_hand(13, Millis(11 * MINUTE)).unwrap();
    play_hand(&mut game, 80 * MINUTE);
    let outcome = *game.outcome().expect("the last hand ended the round");
    assert_eq!(outcome.end, MatchEnd::RoundTime);
    let (ns, ew) = (
        game.levels().get(Team::NorthSouth),
        game.levels().get(Team::EastWest),
    );
    let expected = match ns.cmp(&ew) {
        std::cmp::Ordering::Greater => (Some(Team::NorthSouth), [2, 0]),
        std::cmp::Ordering::Less => (Some(Team::EastWest), [0, 2]),
        std::cmp::Ordering::Equal => (None, [1, 1]),
    };
    assert_eq!((outcome.winner, outcome.round_points), expected);
    assert!(matches!(
        game.deal_next(Millis(81 * MINUTE)),
        Err(TuolajiError::MatchOver)
    ));
}

/// 五(一)4: a forfeit gives the other team the round, 2 to 0.
#[test]
fn forfeit_gives_the_other_team_the_round() {
    let mut game = Match::new(&TuolajiRules::for_tests(), 3, Millis(0)).unwrap();
    let outcome = game.forfeit(Seat(1)).unwrap();
    assert_eq!(outcome.winner, Some(Team::NorthSouth));
    assert_eq!(outcome.end, MatchEnd::Forfeit);
    assert_eq!(outcome.round_points, [2, 0]);
}

/// 第二条: a game cannot be resumed once a team is past A; jokers cannot bid (第十条).
#[test]
fn bad_starts_are_refused() {
    let past = Levels::new(Level::of(Rank::Ace).up(1), Level::START);
    assert_eq!(
        Match::resume(&TuolajiRules::for_tests(), past, Seat(1), 1, Millis(0)).unwrap_err(),
        TuolajiError::MatchOver
    );
    let jokers = TuolajiRules {
        joker_bids: true,
        ..TuolajiRules::for_tests()
    };
    assert!(matches!(
        Match::new(&jokers, 1, Millis(0)),
        Err(TuolajiError::UnsupportedOption { .. })
    ));
}

/// Time-outs alone finish a hand of the game, and its result moves the levels (第二十条).
#[test]
fn time_outs_finish_a_hand_and_move_the_levels() {
    let mut game = Match::new(&TuolajiRules::default(), 6, Millis(0)).unwrap();
    while let Some(at) = game.deadline() {
        game.on_deadline(at).unwrap();
        if game.hand().is_done() {
            break;
        }
    }
    assert_eq!(game.history().len(), 1);
    let change = game.history()[0].change;
    let total =
        game.levels().get(Team::NorthSouth).number() + game.levels().get(Team::EastWest).number();
    assert_eq!(total, 4 + change.steps());
}
