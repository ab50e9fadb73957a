//! Two rated games of one account ending in the same commit (docs/ratings.md "Written with
//! the last step"): each update is computed in the commit from the ratings it reads there,
//! so the second applies on top of the first instead of overwriting it.

mod common;

use common::competition::parse;
use common::{http, sign_up, store_file, Client, TestServer};
use qipai_games::rating::{rate, Rated, Rating};
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiOptions};
use qipai_protocol::{GameKind, Outcome, ServerMsg};

/// Wu, signed in twice, plays Red at two rated tables, against Li and against Zhou; both
/// resign at once, and the writer's group commit (200 ms) takes both ends in one batch.
/// Two games, four connections: about 0.5 s.
#[tokio::test]
async fn two_rated_games_ending_in_one_commit_both_count() {
    let file = store_file("rating_commits");
    let url = file.clone();
    let s = TestServer::start(move |c| {
        c.store.url = url;
        c.store.group_commit_ms = 200;
        c.passwords.memory_kib = 64;
        c.passwords.passes = 1;
        c.server.rate_per_sec = 10_000;
        c.server.rate_burst = 10_000;
    })
    .await;
    let wu = sign_up(&s, "Wu").await;
    let (li, zhou) = (sign_up(&s, "Li").await, sign_up(&s, "Zhou").await);
    let rated = XiangqiOptions {
        rated: true,
        ..XiangqiOptions::default()
    };
    let mut tables = Vec::new();
    for opponent in [&li, &zhou] {
        let mut red = Client::signed_in(&s, &wu).await;
        let mut black = Client::signed_in(&s, opponent).await;
        let room = red.create_xiangqi(rated.clone(), Some(0)).await;
        black.join(room, Some(1)).await;
        red.play("h2e2").await;
        black.play("h9g7").await;
        tables.push((red, black));
    }
    let mut asked = Vec::new();
    for (_, black) in &mut tables {
        asked.push(black.xq(XiangqiAction::Resign).await);
    }
    for ((_, black), seq) in tables.iter_mut().zip(asked) {
        assert!(matches!(black.answer(seq).await, ServerMsg::Ok { .. }));
    }

    // Wu won twice against newcomers: the second win moves the rating the first gave.
    let newcomer = Rating::newcomer(GameKind::Xiangqi);
    let red_wins = Outcome::duel(Some(0), "resignation", false);
    let win = |before: Rating| {
        rate(
            GameKind::Xiangqi,
            &[Rated::Player(before), Rated::Player(newcomer)],
            &red_wins,
        )
        .expect("rated")[0]
            .expect("Wu's rating")
    };
    let (first, second) = (win(newcomer), win(win(newcomer)));
    assert_ne!(first.rating.round(), second.rating.round());
    let store = qipai_store::open(&file).await.expect("store");
    let auth = format!("Authorization: Bearer {wu}");
    let (_, me) = parse(&http(&s, "GET", "/api/account", &[&auth], "").await);
    let wu_id = me["account"]["id"].as_u64().expect("id");
    let history = store
        .rating_history(wu_id, "xiangqi".into())
        .await
        .expect("history");
    let mut points: Vec<i64> = history.iter().map(|p| p.rating).collect();
    points.sort_unstable();
    let mut expected = vec![first.rating.round() as i64, second.rating.round() as i64];
    expected.sort_unstable();
    assert_eq!(points, expected, "both games count, one after the other");
    let now = store.ratings(wu_id).await.expect("ratings");
    let stored: Rating = serde_json::from_str(&now[0].state).expect("state");
    assert_eq!(stored.games, 2);
    assert!((stored.rating - second.rating).abs() < 1e-9, "{stored:?}");
}
