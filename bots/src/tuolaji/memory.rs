//! Card memory (记牌): what a seat has seen played this hand, and which seats showed they
//! are out of a card type. Built only from the events the seat receives; together with the
//! seat's own cards it gives the cards still unseen (others' hands and, for non-dealers,
//! the bottom).

use qipai_games::cards::{three_decks, CardCounts, Rank, Suit};
use qipai_games::tuolaji::{CardType, Order};
use qipai_protocol::tuolaji::TuolajiEvent;

/// The four card types, as indices into [`Memory::voids`].
fn type_index(ty: CardType) -> usize {
    match ty {
        CardType::Trump => 0,
        CardType::Suit(Suit::Spades) => 1,
        CardType::Suit(Suit::Hearts) => 2,
        CardType::Suit(Suit::Clubs) => 3,
        CardType::Suit(Suit::Diamonds) => 4,
    }
}

/// What one seat remembers of the hand in progress.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    level: Option<Rank>,
    trump: Option<Suit>,
    /// Every card played this hand, by anyone.
    played: CardCounts,
    /// `voids[seat][type]`: the seat did not follow a lead of that type with it (第十一条2:
    /// it holds none any more).
    voids: [[bool; 5]; 4],
    /// The type led in the trick being played.
    led: Option<CardType>,
    /// Tricks seen from their lead.
    pub tricks_seen: u32,
}

impl Memory {
    /// A memory that has seen nothing.
    pub fn new() -> Memory {
        Memory::default()
    }

    fn order(&self) -> Option<Order> {
        Some(Order::new(self.trump?, self.level?))
    }

    /// Takes note of `event`.
    pub fn observe(&mut self, event: &TuolajiEvent) {
        match event {
            TuolajiEvent::HandStarted { level_rank, .. } => {
                *self = Memory {
                    level: Some(*level_rank),
                    ..Memory::default()
                };
            }
            TuolajiEvent::BiddingClosed {
                trump: Some(suit), ..
            }
            | TuolajiEvent::TrumpNamed { suit, .. } => self.trump = Some(*suit),
            TuolajiEvent::Led { cards, .. } => {
                self.led = self.order().and_then(|o| o.type_of(cards));
                self.tricks_seen += 1;
                for &c in cards {
                    self.played.add(c);
                }
            }
            TuolajiEvent::Followed { seat, cards } => {
                if let (Some(order), Some(led)) = (self.order(), self.led) {
                    if cards.iter().any(|&c| order.card_type(c) != led) {
                        if let Some(v) = self.voids.get_mut(usize::from(*seat)) {
                            v[type_index(led)] = true;
                        }
                    }
                }
                for &c in cards {
                    self.played.add(c);
                }
            }
            _ => {}
        }
    }

    /// Whether `seat` has shown it holds no card of type `ty`.
    pub fn is_void(&self, seat: u8, ty: CardType) -> bool {
        self.voids
            .get(usize::from(seat))
            .is_some_and(|v| v[type_index(ty)])
    }

    /// Every card played this hand that this memory saw.
    pub fn played(&self) -> &CardCounts {
        &self.played
    }

    /// The cards `own` (one's hand) and `known` (one's bottom, if dealer) leave unseen:
    /// the others' hands and whatever of the bottom one does not know.
    pub fn unseen(&self, own: &CardCounts, known: &CardCounts) -> CardCounts {
        let mut all: CardCounts = three_decks().into_iter().collect();
        for gone in [&self.played, own, known] {
            for (card, n) in gone.iter() {
                for _ in 0..n {
                    all.remove(card);
                }
            }
        }
        all
    }
}
