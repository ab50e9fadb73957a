//! A competition's tables are named by their competition, round and table (第2轮 第5桌)
//! wherever a player sees them (PROTOCOL.md §5 `title`, §17.3): the lobby's list, `joined`
//! and the game's record, after a restart too. A table whose result the director recorded
//! closes.

mod common;

use std::time::Duration;

use common::competition::{
    create_competition, entry_codes, get, login, post, server_with_director, start_round,
    store_file, until,
};
use common::{http_get, Client, TestServer};
use qipai_protocol::xiangqi::XiangqiAction;
use qipai_protocol::{ClientMsg, ErrorCode, RoomInfo, ServerMsg, TableTitle};
use serde_json::{json, Value};

/// A server with the director, on the store file `url`.
async fn start(url: &str) -> TestServer {
    let url = url.to_owned();
    server_with_director(move |c| c.store.url = url).await
}

/// A xiangqi competition named 工会杯 象棋 of five players (two tables and a bye a round).
async fn set_up(s: &TestServer, token: &str) -> u64 {
    let settings = json!({"name":"工会杯 象棋","event":"xiangqi","rounds":3,"seed":7,
        "table_options":{"game":"xiangqi"},"lateness_unit_ms":60_000});
    let form = "A,象棋,,赵一\nB,象棋,,钱二\nC,象棋,,孙三\nD,象棋,,李四\nE,象棋,,周五\n";
    create_competition(s, token, &settings, form).await.0
}

/// The lobby's list of open rooms.
async fn rooms(c: &mut Client) -> Vec<RoomInfo> {
    let seq = c.seq();
    c.send(&ClientMsg::ListRooms {
        seq,
        game: None,
        limit: None,
        after: None,
    })
    .await;
    let rooms = c
        .until(|m| matches!(m, ServerMsg::Rooms { seq: s, .. } if *s == seq))
        .await;
    match rooms {
        ServerMsg::Rooms { rooms, .. } => rooms,
        other => unreachable!("{other:?}"),
    }
}

fn title(round: u32, table: u32) -> TableTitle {
    TableTitle {
        competition: "工会杯 象棋".into(),
        round,
        table,
    }
}

fn room_of(v: &Value, table: usize) -> u64 {
    v["tables"][table]["room"].as_u64().expect("an open table")
}

#[tokio::test]
async fn competition_tables_carry_their_competition_round_and_table() {
    let (file, url) = store_file("titles");
    let s = start(&url).await;
    let token = login(&s).await;
    let id = set_up(&s, &token).await;
    let r1 = start_round(&s, &token, id).await;
    let (room1, room2) = (room_of(&r1, 0), room_of(&r1, 1));

    // The lobby lists both tables with their names; a casual room has none.
    let mut casual = Client::hello(&s, "Casual").await;
    let own = casual.create_xiangqi(Default::default(), Some(0)).await;
    let mut lobby = Client::hello(&s, "Lobby").await;
    let listed = rooms(&mut lobby).await;
    let title_of = |room: u64| {
        listed
            .iter()
            .find(|r| r.room_id == room)
            .map(|r| r.title.clone())
    };
    assert_eq!(title_of(room1), Some(Some(title(1, 1))));
    assert_eq!(title_of(room2), Some(Some(title(1, 2))));
    assert_eq!(title_of(own), Some(None), "a casual room has no title");

    // `joined` names the table to its player and to a spectator.
    let codes = entry_codes(&s, &token, id).await;
    let first = r1["tables"][0]["first"]["players"][0].as_str().unwrap();
    let second = r1["tables"][0]["second"]["players"][0].as_str().unwrap();
    let mut red = Client::hello(&s, first).await;
    red.join_with(room1, None, Some(&codes[first])).await;
    let joined_title = |c: &Client| {
        c.log.iter().rev().find_map(|m| match m {
            ServerMsg::Joined { title, .. } => Some(title.clone()),
            _ => None,
        })
    };
    assert_eq!(joined_title(&red), Some(Some(title(1, 1))));
    let mut watcher = Client::hello(&s, "Watcher").await;
    watcher.spectate(room2).await;
    assert_eq!(joined_title(&watcher), Some(Some(title(1, 2))));

    // After a restart the reopened table keeps its name.
    s.stop();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let s = start(&url).await;
    let mut lobby = Client::hello(&s, "Lobby").await;
    let listed = rooms(&mut lobby).await;
    let again = listed.iter().find(|r| r.room_id == room1).map(|r| &r.title);
    assert_eq!(again, Some(&Some(title(1, 1))), "{listed:?}");

    // The game's record and the player's list of games name it too.
    let mut red = Client::resume(&s, &red.token).await;
    let mut black = Client::hello(&s, second).await;
    black.join_with(room1, None, Some(&codes[second])).await;
    red.xq(XiangqiAction::Resign).await;
    let mut record = Value::Null;
    for _ in 0..300 {
        let answer = http_get(&s, &format!("/api/games/{room1}")).await;
        if let Some((_, body)) = answer
            .split_once("\r\n\r\n")
            .filter(|_| answer.starts_with("HTTP/1.1 200"))
        {
            record = serde_json::from_str(body).unwrap();
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let expected = json!({"competition":"工会杯 象棋","round":1,"table":1});
    assert_eq!(record["title"], expected, "{record}");
    let games = get(&s, &format!("/api/players/{}/games", urlencode(second)))
        .await
        .1;
    assert_eq!(games["games"][0]["title"], expected, "{games}");
    s.stop();
    let _ = std::fs::remove_file(&file);
}

/// Percent-encodes a name for a path.
fn urlencode(name: &str) -> String {
    name.bytes().map(|b| format!("%{b:02X}")).collect()
}

/// A table whose result the director recorded (nobody playing there) closes: its room is
/// gone from the lobby and `join` answers `no_such_room`; a seated player is told why.
#[tokio::test]
async fn a_table_the_director_recorded_closes() {
    let (file, url) = store_file("recorded");
    let s = start(&url).await;
    let token = login(&s).await;
    let id = set_up(&s, &token).await;
    let r1 = start_round(&s, &token, id).await;
    let (room1, room2) = (room_of(&r1, 0), room_of(&r1, 1));
    let codes = entry_codes(&s, &token, id).await;
    // One player of table 2 sits and waits for an opponent who never comes.
    let first = r1["tables"][1]["first"]["players"][0].as_str().unwrap();
    let mut seated = Client::hello(&s, first).await;
    seated.join_with(room2, None, Some(&codes[first])).await;

    let results = format!("/api/director/competitions/{id}/results");
    for table in [1, 2] {
        let body = json!({"round":1,"table":table,"result":"second_forfeits","note":"乙方缺席"});
        let (status, v) = post(&s, Some(&token), &results, &body.to_string()).await;
        assert_eq!(status, 200, "{v}");
    }
    let v = until(&s, &format!("/api/competitions/{id}/rounds/1"), |v| {
        v["tables"][0]["status"] == "finished" && v["tables"][1]["status"] == "finished"
    })
    .await;
    assert_eq!(v["tables"][1]["result"], "second_forfeits");
    // The seated player is told the table closed, then leaves it.
    let told = seated
        .until(|m| matches!(m, ServerMsg::Error { seq: None, .. }))
        .await;
    assert!(
        matches!(
            told,
            ServerMsg::Error {
                code: ErrorCode::TableClosed,
                ..
            }
        ),
        "{told:?}"
    );
    seated
        .until(|m| matches!(m, ServerMsg::Left { room_id, .. } if *room_id == room2))
        .await;
    // Neither room is listed or can be joined.
    let mut lobby = Client::hello(&s, "Lobby").await;
    for _ in 0..300 {
        let listed = rooms(&mut lobby).await;
        if !listed
            .iter()
            .any(|r| r.room_id == room1 || r.room_id == room2)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let listed = rooms(&mut lobby).await;
    assert!(
        !listed
            .iter()
            .any(|r| r.room_id == room1 || r.room_id == room2),
        "{listed:?}"
    );
    for room in [room1, room2] {
        let seq = lobby.seq();
        lobby
            .send(&ClientMsg::Join {
                seq,
                room_id: room,
                seat: None,
                entry_code: None,
            })
            .await;
        assert_eq!(lobby.error_for(Some(seq)).await.0, ErrorCode::NoSuchRoom);
    }
    s.stop();
    let _ = std::fs::remove_file(&file);
}
