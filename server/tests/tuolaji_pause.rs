//! The finished trick on the table, over real sockets (`trick_pause_ms`, PROTOCOL.md §10
//! "Time"): the room holds the next lead for the pause, so a person's early lead is
//! refused, the winner's turn and its deadline start after it, and the server's bots lead
//! only then too.

mod common;

use std::time::Duration;

use common::tuolaji::{fast_options, seeded_server, tl_events, Player};
use common::Client;
use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiEvent, TuolajiOptions};
use qipai_protocol::{ErrorCode, ServerMsg};

/// The seat that must act in `phase`, if one must.
fn to_act(phase: Phase) -> Option<u8> {
    match phase {
        Phase::NamingTrump { dealer, .. } | Phase::Bottom { dealer, .. } => Some(dealer),
        Phase::Leading { seat, .. } | Phase::Following { seat, .. } => Some(seat),
        _ => None,
    }
}

/// Four people play the hints to the end of the first trick: it stays on the table with
/// its winner for the pause; the winner's lead meanwhile is refused (`trick_on_table`);
/// then the winner's turn comes with the whole `turn_ms` counted from the pause's end, and
/// nothing was led in between.
#[tokio::test]
async fn the_winner_leads_only_after_the_pause() {
    let server = seeded_server().await;
    let options = TuolajiOptions {
        trick_pause_ms: Some(2000),
        ..fast_options()
    };
    let turn_ms = options.turn_ms.unwrap_or_default();
    let mut first = Client::hello(&server, "S0").await;
    let room = first.create_tuolaji(options, Some(0)).await;
    let mut watcher = Client::hello(&server, "Watcher").await;
    watcher.spectate(room).await;
    let mut players = vec![Player::new(first, 0)];
    for seat in 1..4u8 {
        let mut c = Client::hello(&server, &format!("S{seat}")).await;
        c.join(room, Some(seat)).await;
        players.push(Player::new(c, seat));
    }
    // The watcher hears every step; whoever must act plays its hint.
    let (winner, leads_at) = loop {
        let msg = watcher.recv().await;
        let Some(TuolajiEvent::Turn { phase, .. }) = tl_events(std::slice::from_ref(&msg)).pop()
        else {
            continue;
        };
        if let Phase::TrickPause { winner, leads_at } = phase {
            break (winner, leads_at);
        }
        if let Some(seat) = to_act(phase) {
            let p = &mut players[usize::from(seat)];
            let hint = p.view().await.hint.expect("a hint for the seat to act");
            p.act(hint).await.expect("the hint is accepted");
        }
    };
    let p = &mut players[usize::from(winner)];
    let view = p.view().await;
    assert!(view.hint.is_none(), "nobody is asked to act in the pause");
    let trick = view.previous_trick.expect("the finished trick is on show");
    assert_eq!(trick.winner, Some(winner));
    assert_eq!(trick.plays.len(), 4);
    // A single is always a legal lead: refused for the pause alone.
    let card = view
        .hand
        .and_then(|h| h.first().cloned())
        .expect("cards left");
    let lead = TuolajiAction::Lead {
        cards: vec![card],
        declared: None,
    };
    let (code, _) = p.act(lead.clone()).await.unwrap_err();
    assert_eq!(code, ErrorCode::TrickOnTable);
    // The next thing the table says is the winner's turn, from the pause's end.
    let turn = loop {
        let msg = watcher.recv().await;
        if let Some(event) = tl_events(std::slice::from_ref(&msg)).pop() {
            break event;
        }
    };
    assert_eq!(
        turn,
        TuolajiEvent::Turn {
            phase: Phase::Leading {
                seat: winner,
                deadline: leads_at + turn_ms
            },
            hint: None
        }
    );
    players[usize::from(winner)]
        .act(lead)
        .await
        .expect("the lead is accepted after the pause");
}

/// At a table of one person and three of the server's bots, the person left to time out,
/// every trick won before the hand's end is followed by the pause, then the winner's
/// turn, and only then by its lead: the bots and the auto-played seat keep the pace.
#[tokio::test]
async fn bots_and_auto_play_keep_the_pause() {
    let server = seeded_server().await;
    let mut host = Client::hello(&server, "Host").await;
    host.create_tuolaji_with_bots(TuolajiOptions {
        trick_pause_ms: Some(150),
        turn_ms: Some(100),
        bottom_ms: Some(100),
        ..fast_options()
    })
    .await;
    let mut tricks = 0;
    let mut paused: Option<(u8, u64)> = None;
    let mut turned = false;
    let wait = Duration::from_secs(30);
    while tricks < 6 {
        let msg = tokio::time::timeout(wait, host.recv())
            .await
            .expect("the table goes on");
        if let ServerMsg::Error { code, .. } = &msg {
            panic!("unexpected error {code:?}");
        }
        let Some(event) = tl_events(std::slice::from_ref(&msg)).pop() else {
            continue;
        };
        match (event, paused) {
            (
                TuolajiEvent::Turn {
                    phase: Phase::TrickPause { winner, leads_at },
                    ..
                },
                None,
            ) => paused = Some((winner, leads_at)),
            (
                TuolajiEvent::Turn {
                    phase: Phase::Leading { seat, deadline },
                    ..
                },
                Some((winner, leads_at)),
            ) => {
                assert_eq!(seat, winner);
                assert_eq!(
                    deadline,
                    leads_at + 100,
                    "the turn counts from the pause's end"
                );
                turned = true;
            }
            (TuolajiEvent::Led { seat, .. }, Some((winner, _))) => {
                assert_eq!(seat, winner);
                assert!(turned, "the winner's turn was announced before its lead");
                paused = None;
                turned = false;
                tricks += 1;
            }
            (TuolajiEvent::Led { .. } | TuolajiEvent::Followed { .. }, None) => {}
            (other @ TuolajiEvent::Followed { .. }, Some(_)) => {
                panic!("{other:?} during the pause")
            }
            _ => {}
        }
    }
}
