//! No leak (第十一条4, 第十五条): every message four players and a spectator receive over
//! more than fifty seeded hands is decoded and checked against the engine's own deal: no
//! client ever receives a card of another player's hand, or of the bottom before the rules
//! make it public (the dealer's own bottom excepted).

mod common;

use common::tuolaji::{fast_options, remove_cards, seeded_server, tl_event, Player, SEED};
use common::{Client, TestServer};
use qipai_games::cards::Card;
use qipai_games::tuolaji::deal::{Deal, DRAWN};
use qipai_games::tuolaji::hand_seed;
use qipai_games::Seat;
use qipai_protocol::tuolaji::{Phase, TuolajiEvent, TuolajiView};
use qipai_protocol::{ClientMsg, RoomId, ServerMsg, View};

/// What one client may know during a hand, rebuilt from its own messages only.
struct Knowledge {
    me: Option<u8>,
    seed: u64,
    deal: Option<Deal>,
    /// How many cards each seat drew so far.
    dealt: [usize; 4],
    dealer: Option<u8>,
    /// The client's own cards, by its own events.
    own: Vec<Card>,
    hands: u32,
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort();
    cards
}

impl Knowledge {
    fn new(me: Option<u8>, seed: u64) -> Knowledge {
        Knowledge {
            me,
            seed,
            deal: None,
            dealt: [0; 4],
            dealer: None,
            own: Vec::new(),
            hands: 0,
        }
    }

    fn is_me(&self, seat: u8) -> bool {
        self.me == Some(seat)
    }

    /// `seat` drew `count` cards, `shown` to this client: they must be the seat's next cards
    /// of the engine's deal, shown to their receiver only.
    fn drew(&mut self, seat: u8, shown: &[Card], count: usize) {
        let deal = self.deal.as_ref().expect("a hand started");
        let index = usize::from(seat);
        let truth: Vec<Card> = (0..DRAWN)
            .filter_map(|i| deal.draw(i))
            .filter(|(to, _)| to.0 == seat)
            .skip(self.dealt[index])
            .take(count)
            .map(|(_, card)| card)
            .collect();
        assert_eq!(truth.len(), count, "seat {seat} drew more than its cards");
        self.dealt[index] += count;
        if self.is_me(seat) {
            assert_eq!(shown, truth, "seat {seat}'s cards");
            self.own.extend(truth);
        } else {
            assert!(shown.is_empty(), "{:?} saw seat {seat}'s cards", self.me);
        }
    }

    fn event(&mut self, event: &TuolajiEvent) {
        match event {
            TuolajiEvent::HandStarted {
                hand_number,
                first_drawer,
                dealer,
                ..
            } => {
                self.deal = Some(Deal::new(
                    hand_seed(self.seed, *hand_number),
                    Seat(*first_drawer),
                ));
                self.dealt = [0; 4];
                self.dealer = *dealer;
                self.own.clear();
            }
            TuolajiEvent::Dealt { seat, card } => {
                let deal = self.deal.as_ref().expect("a hand started");
                let drawn = self.dealt.iter().sum();
                let (to, _) = deal.draw(drawn).expect("a card to deal");
                assert_eq!(*seat, to.0, "dealt to the wrong seat");
                let shown: Vec<Card> = card.iter().copied().collect();
                self.drew(*seat, &shown, 1);
            }
            TuolajiEvent::DealtCards { seat, cards, count } => {
                self.drew(*seat, cards, *count as usize);
            }
            TuolajiEvent::BiddingClosed { dealer, .. } => self.dealer = Some(*dealer),
            TuolajiEvent::BottomTaken { dealer, cards, .. } => {
                if self.is_me(*dealer) {
                    let bottom: Vec<Card> = self.deal.as_ref().expect("a deal").bottom().to_vec();
                    assert_eq!(sorted(cards.clone()), sorted(bottom.clone()));
                    self.own.extend(bottom);
                } else {
                    assert!(cards.is_empty(), "{:?} saw the bottom", self.me);
                }
            }
            TuolajiEvent::BottomPutBack { dealer, cards, .. } => {
                if self.is_me(*dealer) {
                    assert_eq!(cards.len(), 6);
                    remove_cards(&mut self.own, cards);
                } else {
                    assert!(cards.is_empty(), "{:?} saw the bottom put back", self.me);
                }
            }
            TuolajiEvent::Led { seat, cards, .. } | TuolajiEvent::Followed { seat, cards }
                if self.is_me(*seat) =>
            {
                remove_cards(&mut self.own, cards);
            }
            TuolajiEvent::HandOver { .. } => self.hands += 1,
            _ => {}
        }
    }

    /// A snapshot shows the own cards and nothing hidden besides.
    fn view(&self, view: &TuolajiView) {
        let public_bottom = matches!(view.phase, Phase::BetweenHands { .. } | Phase::Over);
        match self.me {
            None => {
                assert_eq!(view.hand, None);
                assert!(view.played.is_empty());
                assert_eq!(view.hint, None);
                assert!(
                    public_bottom || view.bottom.is_none(),
                    "the spectator saw the bottom"
                );
            }
            Some(me) => {
                let hand = view.hand.clone().expect("a seat sees its hand");
                assert_eq!(sorted(hand), sorted(self.own.clone()));
                let dealer_holds = self.dealer == Some(me)
                    && matches!(
                        view.phase,
                        Phase::Bottom { .. } | Phase::Leading { .. } | Phase::Following { .. }
                    );
                assert!(
                    public_bottom || dealer_holds || view.bottom.is_none(),
                    "seat {me} saw the bottom in {:?}",
                    view.phase
                );
            }
        }
    }

    /// Checks a whole log; returns the hands it saw end.
    fn check(mut self, log: &[ServerMsg]) -> u32 {
        for msg in log {
            if let Some((_, event)) = tl_event(msg) {
                self.event(event);
            } else if let ServerMsg::Snapshot {
                view: View::Tuolaji(view),
                ..
            } = msg
            {
                self.view(view);
            }
        }
        self.hands
    }
}

/// One seeded table played to its end by four players, watched from before the start by
/// a spectator who asks for snapshots at the moments the bottom changes hands.
async fn table(server: &TestServer) -> (RoomId, Vec<Player>, Client) {
    let mut first = Client::hello(server, "S0").await;
    let room = first.create_tuolaji(fast_options(), Some(0)).await;
    let mut players = vec![Player::new(first, 0)];
    let mut watcher = Client::hello(server, "Watcher").await;
    watcher.spectate(room).await;
    for seat in 1..4u8 {
        let mut c = Client::hello(server, &format!("S{seat}")).await;
        c.join(room, Some(seat)).await;
        players.push(Player::new(c, seat));
    }
    let tasks: Vec<_> = players
        .into_iter()
        .map(|mut p| {
            tokio::spawn(async move {
                p.play(u32::MAX, false).await;
                p
            })
        })
        .collect();
    loop {
        let msg = watcher.recv().await;
        match tl_event(&msg) {
            Some((_, TuolajiEvent::GameOver { .. })) => break,
            Some((
                _,
                TuolajiEvent::BottomTaken { .. }
                | TuolajiEvent::BottomPutBack { .. }
                | TuolajiEvent::HandOver { .. }
                | TuolajiEvent::TrickWon { .. },
            )) => {
                let seq = watcher.seq();
                watcher.send(&ClientMsg::Snapshot { seq }).await;
            }
            _ => {}
        }
    }
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.expect("a player"));
    }
    (room, players, watcher)
}

/// Over at least fifty seeded hands, every card each seat receives is its own (as the
/// engine dealt it) or public, and the spectator receives no hidden card at all.
#[tokio::test]
async fn no_client_ever_sees_a_hidden_card() {
    let server = seeded_server().await;
    let mut hands = 0;
    while hands < 50 {
        let (a, b, c) = tokio::join!(table(&server), table(&server), table(&server));
        for (room, players, watcher) in [a, b, c] {
            let seed = SEED + room;
            let seen = Knowledge::new(None, seed).check(&watcher.log);
            for p in &players {
                assert_eq!(
                    Knowledge::new(Some(p.seat), seed).check(&p.client.log),
                    seen
                );
            }
            hands += seen;
        }
    }
}
