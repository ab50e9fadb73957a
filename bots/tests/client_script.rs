//! The bot client against a scripted server: a refused move makes it ask for a snapshot and
//! try again, a gap in `event_seq` makes it ask for a snapshot, and a game that ends in a
//! snapshot is reported and left.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use qipai_bots::client::{self, ClientConfig, Entry};
use qipai_bots::{Strength, Verdict, XiangqiBot, XiangqiTable};
use qipai_games::xiangqi::{XiangqiGame, XiangqiSettings};
use qipai_games::{Game, Millis, Viewer};
use qipai_protocol::xiangqi::{
    EndReason, GameResult, Side, Status, XiangqiAction, XiangqiEvent, XiangqiOptions, XiangqiView,
};
use qipai_protocol::{
    decode, encode, ClientMsg, ErrorCode, Event, GameKind, RoomOptions, ServerMsg, View,
};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_tungstenite::WebSocketStream;

struct Script {
    ws: WebSocketStream<TcpStream>,
}

impl Script {
    async fn send(&mut self, msg: ServerMsg) {
        let bytes = encode(&msg).unwrap();
        self.ws
            .send(Message::Binary(Bytes::from(bytes)))
            .await
            .unwrap();
    }

    async fn recv(&mut self) -> ClientMsg {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(5), self.ws.next())
                .await
                .expect("the client sent nothing")
                .expect("the client closed")
                .unwrap();
            if let Message::Binary(bytes) = frame {
                return decode(&bytes, ClientMsg::TYPES).unwrap();
            }
        }
    }

    async fn snapshot(&mut self, event_seq: u64, view: &XiangqiView) {
        self.send(ServerMsg::Snapshot {
            room_id: 1,
            event_seq,
            server_time: 0,
            you: Some(0),
            seats: vec![None, None],
            view: View::Xiangqi(view.clone()),
        })
        .await;
    }
}

fn start_view() -> XiangqiView {
    let mut game = XiangqiGame::new(&XiangqiSettings::default(), 0);
    game.start(Millis(0));
    game.view(Viewer::Spectator, Millis(0))
}

#[tokio::test]
async fn refusals_and_gaps_bring_snapshots() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    let config = ClientConfig {
        url,
        name: "scripted".into(),
        options: RoomOptions::Xiangqi(XiangqiOptions::default()),
        entry: Entry::QuickPlay,
        games: 1,
        idle_timeout: Duration::from_secs(5),
        regroup_after: Duration::from_secs(60),
        source: None,
    };
    let bot = tokio::spawn(async move {
        let bot = XiangqiBot::with_table(Strength::nodes(500), 1);
        client::play::<XiangqiTable, _>(&config, bot, |_| {}).await
    });

    let (stream, _) = listener.accept().await.unwrap();
    let ws = tokio_tungstenite::accept_async(stream).await.unwrap();
    let mut server = Script { ws };
    assert!(matches!(server.recv().await, ClientMsg::Hello { .. }));
    server
        .send(ServerMsg::Welcome {
            protocol_version: 1,
            player_id: 9,
            resume_token: "t".into(),
            server_time: 0,
            room_id: None,
        })
        .await;
    let ClientMsg::QuickPlay { seq, .. } = server.recv().await else {
        panic!("expected quick play");
    };
    server
        .send(ServerMsg::Joined {
            seq: Some(seq),
            room_id: 1,
            game: GameKind::Xiangqi,
            seat: Some(0),
            number: None,
            title: None,
        })
        .await;
    let view = start_view();
    server.snapshot(1, &view).await;

    // The first move is refused: the client asks for a snapshot, then moves again.
    let ClientMsg::Xiangqi { seq, action } = server.recv().await else {
        panic!("expected a move");
    };
    assert!(matches!(action, XiangqiAction::Move { .. }));
    server
        .send(ServerMsg::error(Some(seq), ErrorCode::IllegalMove, "no"))
        .await;
    assert!(matches!(server.recv().await, ClientMsg::Snapshot { .. }));
    server.snapshot(1, &view).await;
    let ClientMsg::Xiangqi { seq, action } = server.recv().await else {
        panic!("expected the move again");
    };
    let XiangqiAction::Move { iccs } = action else {
        panic!("expected a move");
    };
    server.send(ServerMsg::Ok { seq }).await;

    // Event 3 arrives without event 2: the client asks for a snapshot.
    server
        .send(ServerMsg::Event {
            room_id: 1,
            event_seq: 3,
            server_time: 0,
            event: Event::Xiangqi(XiangqiEvent::DrawOffered { by: Side::Black }),
        })
        .await;
    assert!(matches!(server.recv().await, ClientMsg::Snapshot { .. }));
    let over = XiangqiView {
        status: Status::Over,
        last_move: Some(iccs.parse().unwrap()),
        legal_moves: Vec::new(),
        result: Some(GameResult {
            winner: Some(Side::Red),
            reason: EndReason::Resignation,
        }),
        ..view
    };
    server.snapshot(3, &over).await;

    // Over: the client leaves the room.
    let ClientMsg::Leave { seq } = server.recv().await else {
        panic!("expected leave");
    };
    server
        .send(ServerMsg::Left {
            seq: Some(seq),
            room_id: 1,
        })
        .await;
    let reports = bot.await.unwrap().unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0].ending.verdict, Verdict::Win);
    assert_eq!(reports[0].refused, 1);
}
