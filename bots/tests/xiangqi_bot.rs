//! The xiangqi bot in memory: whole games through `XiangqiGame` (the server's own game)
//! without a single refused action, tactics it must find, and the perpetual-check rule.

use qipai_bots::random::RandomXiangqi;
use qipai_bots::{Strategy, Strength, XiangqiBot};
use qipai_games::clock::TimeControl;
use qipai_games::xiangqi::{
    EndReason, EndRules, History, Move, Position, Side, XiangqiGame, XiangqiSettings,
};
use qipai_games::{Game, Millis, Received, Seat, Viewer};
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiEvent, XiangqiView};

/// Plays one game between two strategies through the `Game` trait, failing on any refused
/// action; returns the finished game.
fn play_game(
    start: Position,
    red: &mut dyn Strategy<View = XiangqiView, Event = XiangqiEvent, Action = XiangqiAction>,
    black: &mut dyn Strategy<View = XiangqiView, Event = XiangqiEvent, Action = XiangqiAction>,
) -> XiangqiGame {
    let settings = XiangqiSettings {
        start,
        time_control: TimeControl::SuddenDeath {
            base_ms: 24 * 3_600_000,
        },
        ..XiangqiSettings::default()
    };
    let mut game = XiangqiGame::new(&settings, 0);
    let mut now = Millis(0);
    game.start(now);
    let mut plies = 0;
    while !game.is_over() {
        plies += 1;
        assert!(
            plies < 1000,
            "the game should have ended by the natural limit"
        );
        now = now + Millis(10);
        let mover = match game.history().position().side_to_move() {
            Side::Red => 0u8,
            Side::Black => 1u8,
        };
        let view = game.view(Viewer::Seat(Seat(mover)), now);
        let player: &mut dyn Strategy<
            View = XiangqiView,
            Event = XiangqiEvent,
            Action = XiangqiAction,
        > = if mover == 0 { &mut *red } else { &mut *black };
        let action = player
            .decide(mover, &view)
            .expect("a strategy must act on its turn");
        if let Err(e) = game.apply(Seat(mover), action.clone(), Received::at(now)) {
            panic!("{action:?} refused in {}: {e}", view.fen);
        }
    }
    game
}

/// How many times the default number of seeded games to play: `QIPAI_BOT_GAMES=50` turns
/// the few dozen games of a normal run into thousands (use `--release` then).
fn scale() -> u64 {
    std::env::var("QIPAI_BOT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// Seeded games, bot against random and bot against bot at tiny node limits: every action
/// is accepted (a refusal panics in `play_game`), and the bot beats the random player.
#[test]
fn seeded_games_have_no_refused_action() {
    let games = 30 * scale();
    let mut won = 0;
    for seed in 0..games {
        let mut bot = XiangqiBot::with_table(Strength::nodes(400), 1);
        let mut random = RandomXiangqi::new(seed);
        let (game, bot_side) = if seed % 2 == 0 {
            (
                play_game(Position::start(), &mut bot, &mut random),
                Side::Red,
            )
        } else {
            (
                play_game(Position::start(), &mut random, &mut bot),
                Side::Black,
            )
        };
        let outcome = game.history().outcome().expect("over");
        if outcome.winner == Some(bot_side) {
            won += 1;
        } else {
            println!("seed {seed}: not won: {outcome:?}");
        }
    }
    println!("bot (400 nodes) vs random: {won}/{games} won");
    assert!(won * 100 >= games * 95, "{won}/{games} won");
    for seed in 0..10 * scale() {
        let mut red = XiangqiBot::with_table(Strength::nodes(60 + seed % 7 * 10), 1);
        let mut black = XiangqiBot::with_table(Strength::nodes(80 + seed % 5 * 10), 1);
        let game = play_game(Position::start(), &mut red, &mut black);
        assert!(game.history().outcome().is_some());
    }
}

/// Many random games through the same loop: the view's legal moves are all accepted.
#[test]
fn random_games_have_no_refused_action() {
    for seed in 0..200 * scale() {
        let mut red = RandomXiangqi::new(seed);
        let mut black = RandomXiangqi::new(seed + 1_000_000);
        let game = play_game(Position::start(), &mut red, &mut black);
        assert!(game.history().outcome().is_some());
    }
}

fn best(fen: &str, nodes: u64) -> Move {
    let position = Position::from_fen(fen).unwrap();
    let history = History::new(position, EndRules::default());
    XiangqiBot::with_table(Strength::nodes(nodes), 1)
        .choose(&history, None)
        .unwrap()
}

/// Whether the side to move in `position` can force mate (or 困毙, 4.1.3) within `moves`
/// of its own moves: an exhaustive check, independent of the bot's search.
fn forces_mate(position: &mut Position, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    for &mv in position.legal_move_list().as_slice() {
        let undo = position.make(mv);
        let replies = position.legal_move_list();
        let wins = replies.is_empty()
            || replies.as_slice().iter().all(|&reply| {
                let back = position.make(reply);
                let w = forces_mate(position, moves - 1);
                position.unmake(reply, back);
                w
            });
        position.unmake(mv, undo);
        if wins {
            return true;
        }
    }
    false
}

/// The position after `mv`, from the opponent's side: mated (no reply) or lost in `moves`.
fn move_forces_mate(fen: &str, mv: Move, moves: u32) -> bool {
    let mut position = Position::from_fen(fen).unwrap();
    position.play(mv).unwrap();
    let replies = position.legal_move_list();
    replies.is_empty()
        || replies.as_slice().iter().all(|&reply| {
            let back = position.make(reply);
            let w = forces_mate(&mut position, moves - 1);
            position.unmake(reply, back);
            w
        })
}

/// 4.1.1: a rook on rank 8 shuts the king in; the other rook mates on rank 9 (a black
/// pawn keeps 困毙 from ending the game sooner).
#[test]
fn finds_mate_in_one() {
    let fen = "3k5/1R7/9/9/9/9/9/8p/9/R3K4 w - - 0 1";
    let mv = best(fen, 5_000);
    assert_eq!(mv.to_string(), "a0a9");
    assert!(move_forces_mate(fen, mv, 1));
}

/// A mate in two that no single move gives: the bot's move forces mate next move.
#[test]
fn finds_mate_in_two() {
    let fen = MATE_IN_TWO;
    let mut position = Position::from_fen(fen).unwrap();
    assert!(!forces_mate(&mut position, 1), "no mate in one here");
    let mv = best(fen, 50_000);
    assert!(move_forces_mate(fen, mv, 2), "{mv} does not mate in two");
}

/// 4.1.1: the rook on b6 must first shut rank 8 (b6b8); the other rook then mates on
/// rank 9. The advisor on e1 blocks the flying general, so checks alone do not mate at once.
const MATE_IN_TWO: &str = "3k5/9/9/1R7/9/9/9/8p/4A4/R3K4 w - - 0 1";

/// Each search refinement, on or off (aspiration windows start at depth 4), still finds the mate in two and takes
/// the hanging rook.
#[test]
fn every_refinement_keeps_the_tactics() {
    use qipai_bots::xiangqi::search::Features;
    let played = Features::PLAYED;
    let flip = |f: Features, name: &str| f.toggled(name).unwrap().0;
    let variants = [
        played,
        flip(played, "aspiration"),
        flip(played, "deep_reductions"),
        flip(flip(played, "aspiration"), "deep_reductions"),
    ];
    assert_eq!(played.toggled("null_move"), None);
    assert_eq!(flip(flip(played, "aspiration"), "aspiration"), played);
    for features in variants {
        let best = |fen: &str| {
            let history = History::new(Position::from_fen(fen).unwrap(), EndRules::default());
            let mut bot =
                XiangqiBot::with_table(Strength::nodes(200_000), 1).with_features(features);
            let mv = bot.choose(&history, None).unwrap();
            (mv, bot.last_report().unwrap().depth)
        };
        let (mv, _) = best(MATE_IN_TWO);
        assert!(move_forces_mate(MATE_IN_TWO, mv, 2), "{features:?}: {mv}");
        let (mv, depth) = best("3ak4/4a4/9/9/9/2r6/9/3N5/9/4K4 w - - 0 1");
        assert_eq!(mv.to_string(), "d2c4", "{features:?}");
        assert!(depth >= 5, "{features:?}: depth {depth}");
    }
}

/// An undefended rook is taken.
#[test]
fn takes_a_hanging_rook() {
    let fen = "3ak4/4a4/9/9/9/2r6/9/3N5/9/4K4 w - - 0 1";
    assert_eq!(best(fen, 5_000).to_string(), "d2c4");
}

/// 4.1.7 长将: Red has checked with every move of a cycle that Black's king answered; the
/// next check would make the third repetition and lose. Black threatens to win otherwise,
/// so the check looks best; the bot must not play it.
#[test]
fn never_loses_by_perpetual_check() {
    // Black to move, its king on d9 checked along rank 9 by the rook on a9.
    let start = "R2k5/9/9/9/9/9/9/2r3r2/9/4K4 b - - 0 1";
    let cycle = ["d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9"];
    let settings = XiangqiSettings {
        start: Position::from_fen(start).unwrap(),
        ..XiangqiSettings::default()
    };
    let mut game = XiangqiGame::new(&settings, 0);
    game.start(Millis(0));
    for (i, iccs) in cycle.iter().enumerate() {
        let seat = Seat(if i % 2 == 0 { 1 } else { 0 });
        let action = XiangqiAction::Move {
            iccs: (*iccs).into(),
        };
        game.apply(seat, action, Received::at(Millis(i as u64)))
            .unwrap();
    }
    // The repeating check would lose at once under the History rules.
    let mut probe = game.history().clone();
    let outcome = probe.play(Move::from_iccs("a8a9").unwrap()).unwrap();
    assert_eq!(
        outcome.map(|o| (o.winner, o.reason)),
        Some((Some(Side::Black), EndReason::PerpetualCheck))
    );
    let view = game.view(Viewer::Seat(Seat(0)), Millis(100));
    for nodes in [200, 5_000, 50_000] {
        let mut bot = XiangqiBot::with_table(Strength::nodes(nodes), 1);
        let Some(XiangqiAction::Move { iccs }) = bot.decide(0, &view) else {
            panic!("the bot must move");
        };
        assert_ne!(iccs, "a8a9", "at {nodes} nodes");
        let mut after = game.history().clone();
        let outcome = after.play(Move::from_iccs(&iccs).unwrap()).unwrap();
        assert!(
            outcome.is_none_or(|o| o.reason != EndReason::PerpetualCheck),
            "{outcome:?}"
        );
    }
}

/// With a node limit and no time limit the search is deterministic: two fresh bots agree
/// on the move, the score and the node count.
#[test]
fn node_limited_search_is_deterministic() {
    let fen = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 5";
    let history = History::new(Position::from_fen(fen).unwrap(), EndRules::default());
    let run = || {
        let mut bot = XiangqiBot::with_table(Strength::nodes(20_000), 1);
        let mv = bot.choose(&history, None);
        let r = bot.last_report().unwrap();
        (mv, r.score, r.nodes, r.depth)
    };
    let first = run();
    assert!(first.0.is_some() && first.3 >= 2, "{first:?}");
    assert_eq!(first, run());
}

/// A room without a natural move limit (4.2.4 off), 130 quiet plies in: the bot still
/// rebuilds the whole game and searches. (Replaying under the usual 60-move limit would end
/// its copy of the game at ply 120, and every move would look like an immediate draw.)
#[test]
fn plays_on_past_sixty_quiet_moves() {
    let settings = XiangqiSettings {
        start: Position::from_fen("3k5/9/9/6r2/9/9/R8/9/9/4K4 w - - 0 1").unwrap(),
        end_rules: EndRules {
            natural_limit_moves: 0,
            ..EndRules::default()
        },
        ..XiangqiSettings::default()
    };
    // Two rook tours of 7 and 8 moves on ranks and files the other never uses: no capture,
    // no check, no position three times within 224 plies.
    let red = ["a3b3", "b3c3", "c3c2", "c2c1", "c1b1", "b1a1", "a1a3"];
    let black = [
        "g6h6", "h6i6", "i6i7", "i7i8", "i8h8", "h8g8", "g8g7", "g7g6",
    ];
    let mut game = XiangqiGame::new(&settings, 0);
    game.start(Millis(0));
    for i in 0..65 {
        for (seat, tour) in [(0u8, &red[..]), (1u8, &black[..])] {
            let iccs = tour[i % tour.len()].to_owned();
            let at = Received::at(Millis(i as u64 * 2 + u64::from(seat)));
            game.apply(Seat(seat), XiangqiAction::Move { iccs }, at)
                .unwrap();
        }
    }
    assert_eq!(game.history().quiet_plies(), 130);
    let view = game.view(Viewer::Seat(Seat(0)), Millis(1_000));
    let mut bot = XiangqiBot::with_table(Strength::nodes(5_000), 1);
    let action = bot.decide(0, &view).unwrap();
    assert!(
        bot.last_report().unwrap().nodes > 0,
        "the moves were searched"
    );
    game.apply(Seat(0), action, Received::at(Millis(1_001)))
        .unwrap();
}
