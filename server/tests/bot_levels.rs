//! A table's `bot_level` through the real server and WebSocket: the seat bot
//! plays the moves the same level plays in memory (same seed, same table size); a level
//! that does not exist is refused with `bad_options`; and the lowest level, met by the
//! page's "play the bot" path (`create_room` with `bots: true`, `bot_level: beginner`),
//! loses games to a weak scripted player (`qipai_bots::xiangqi::weak`).

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use common::{Client, TestServer};
use qipai_bots::xiangqi::level::Level;
use qipai_bots::xiangqi::weak::weak_move;
use qipai_bots::{seat_seed, Strength, XiangqiBot};
use qipai_games::xiangqi::{EndRules, History, Move, Position};
use qipai_protocol::tuolaji::TuolajiOptions;
use qipai_protocol::xiangqi::{Side, XiangqiAction, XiangqiEvent, XiangqiOptions};
use qipai_protocol::{ClientMsg, ErrorCode, Event, RoomId, RoomOptions, ServerMsg};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Each bot's table: `bot_memory_mib` over `max_bots` (as the server's budget sizes it).
const MEMORY_MIB: usize = 4;
const MAX_BOTS: usize = 4;
const TABLE_BYTES: usize = (MEMORY_MIB << 20) / MAX_BOTS;
/// Long enough that only a level's node limit ends its searches.
const THINK_MS: u64 = 60_000;

/// A server whose rooms count from 1 (seeded), bots sized as above, and room for many
/// fast games from one address.
async fn server() -> TestServer {
    TestServer::start(|c| {
        c.xiangqi.seed = Some(1);
        c.limits.bot_memory_mib = MEMORY_MIB;
        c.limits.max_bots = MAX_BOTS;
        c.limits.bot_think_max_ms = THINK_MS;
        c.limits.rooms_per_addr = 1000;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
    })
    .await
}

/// Opens a xiangqi table against the server's bot at `level`, the client at `seat`;
/// returns the room id, or the refusal.
async fn play_the_bot(
    me: &mut Client,
    options: RoomOptions,
    seat: u8,
) -> Result<RoomId, (ErrorCode, String)> {
    let seq = me.seq();
    me.send(&ClientMsg::CreateRoom {
        seq,
        options,
        seat: Some(seat),
        bots: true,
    })
    .await;
    loop {
        match me.recv().await {
            ServerMsg::Joined { room_id, .. } => return Ok(room_id),
            ServerMsg::Error {
                seq: Some(s),
                code,
                message,
                ..
            } if s == seq => return Err((code, message)),
            _ => {}
        }
    }
}

fn xiangqi(level: &str) -> RoomOptions {
    RoomOptions::Xiangqi(XiangqiOptions {
        bot_level: Some(level.into()),
        bot_think_ms: Some(THINK_MS),
        ..XiangqiOptions::default()
    })
}

/// The next xiangqi event, waiting up to `wait` (a search in a debug build takes a while).
async fn next_xiangqi(me: &mut Client, wait: Duration) -> XiangqiEvent {
    loop {
        match me.try_recv(wait).await {
            Some(ServerMsg::Event {
                event: Event::Xiangqi(e),
                ..
            }) => return e,
            Some(_) => {}
            None => panic!("no xiangqi event within {wait:?}"),
        }
    }
}

/// The seat bot at `level` answers a weak player's first moves exactly as the same level
/// does in memory, seeded with its room and seat and with the same table: the level, its
/// seed and its node limit reach the bot the server seats.
async fn the_level_reaches_the_seat_bot(name: &str) -> Vec<String> {
    let server = server().await;
    let mut me = Client::hello(&server, "Me").await;
    let room = play_the_bot(&mut me, xiangqi(name), 0)
        .await
        .expect("the table opens");
    while !matches!(
        next_xiangqi(&mut me, Duration::from_secs(30)).await,
        XiangqiEvent::Started { .. }
    ) {}
    let level = Level::named(name).expect("a level");
    let cancel = Arc::new(AtomicBool::new(false));
    let mut twin = XiangqiBot::with_budget(Strength::think_ms(THINK_MS), TABLE_BYTES, cancel)
        .at_level(level, Duration::from_millis(THINK_MS), seat_seed(room, 1));
    let mut history = History::new(Position::start(), EndRules::default());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut replies = Vec::new();
    for _ in 0..3 {
        let mine = weak_move(history.position(), &mut rng).expect("a move");
        me.play(&mine.to_string()).await;
        history.play(mine).expect("legal");
        let expected = twin.choose(&history, None).expect("the twin moves");
        let iccs = loop {
            match next_xiangqi(&mut me, Duration::from_secs(120)).await {
                XiangqiEvent::Moved {
                    side: Side::Black,
                    iccs,
                    ..
                } => break iccs,
                XiangqiEvent::Over { result, .. } => panic!("over: {result:?}"),
                _ => {}
            }
        };
        assert_eq!(iccs, expected.iccs(), "{name}, after {replies:?}");
        history
            .play(Move::from_iccs(iccs).expect("iccs"))
            .expect("legal");
        replies.push(iccs.to_string());
    }
    me.xq(XiangqiAction::Resign).await;
    replies
}

#[tokio::test]
async fn beginner_and_expert_reach_the_seat_bot() {
    let beginner = the_level_reaches_the_seat_bot("beginner").await;
    let expert = the_level_reaches_the_seat_bot("expert").await;
    eprintln!("beginner {beginner:?}, expert {expert:?}");
}

/// A level that does not exist, or one of another game, is refused with `bad_options`, and
/// the client can open a table right after.
#[tokio::test]
async fn unknown_levels_are_refused() {
    let server = server().await;
    let mut me = Client::hello(&server, "Me").await;
    let tuolaji_master = RoomOptions::Tuolaji(TuolajiOptions {
        bot_level: Some("master".into()),
        ..TuolajiOptions::default()
    });
    for options in [xiangqi("grandmaster"), xiangqi(""), tuolaji_master] {
        let (code, message) = play_the_bot(&mut me, options, 0)
            .await
            .expect_err("refused");
        assert_eq!(code, ErrorCode::BadOptions, "{message}");
        assert!(message.contains("bot_level"), "{message}");
    }
    play_the_bot(&mut me, xiangqi("beginner"), 0)
        .await
        .expect("a real level opens");
}

/// The games the weak player plays through the server, colours alternating; past this many
/// plies it resigns (counted as its loss).
const GAMES: u64 = 20;
const MAX_PLIES: usize = 400;

/// One game of the weak player (seeded with `game`) against the server's `beginner`; its
/// points (1 a win, ½ a draw).
async fn weak_game(server: &TestServer, game: u64) -> f64 {
    let seat = (game % 2) as u8;
    let me_side = if seat == 0 { Side::Red } else { Side::Black };
    let mut me = Client::hello(server, "Newcomer").await;
    play_the_bot(&mut me, xiangqi("beginner"), seat)
        .await
        .expect("the table opens");
    let mut rng = ChaCha8Rng::seed_from_u64(game);
    let mut history = History::new(Position::start(), EndRules::default());
    loop {
        let my_turn = match next_xiangqi(&mut me, Duration::from_secs(30)).await {
            XiangqiEvent::Started { side_to_move, .. } => side_to_move == me_side,
            XiangqiEvent::Moved { side, iccs, .. } => {
                history
                    .play(Move::from_iccs(iccs).expect("iccs"))
                    .expect("legal");
                side != me_side
            }
            XiangqiEvent::Over { result, .. } => {
                return match result.winner {
                    Some(w) if w == me_side => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
            }
            _ => false,
        };
        if !my_turn {
            continue;
        }
        let action = match weak_move(history.position(), &mut rng) {
            Some(mv) if history.moves().len() < MAX_PLIES => XiangqiAction::Move {
                iccs: mv.to_string(),
            },
            _ => XiangqiAction::Resign,
        };
        me.xq(action).await;
    }
}

/// The lowest level is beatable by normal play through the page's path: the weak player
/// wins at least 3 of 20 seeded games against `beginner` and scores at least 20 %.
#[tokio::test]
async fn a_weak_player_beats_the_beginner_through_the_server() {
    let server = server().await;
    let mut points = Vec::new();
    for game in 0..GAMES {
        points.push(weak_game(&server, game).await);
    }
    let total: f64 = points.iter().sum();
    let wins = points.iter().filter(|&&p| p == 1.0).count();
    eprintln!("weak player v beginner (server): {total} / {GAMES} ({wins} wins): {points:?}");
    assert!(wins >= 3, "{points:?}");
    assert!(total / GAMES as f64 >= 0.2, "{points:?}");
}
