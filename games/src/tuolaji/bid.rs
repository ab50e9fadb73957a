//! Bidding for the trump suit (第十条): bids (揭牌), strengthening (加固) and counter-bids
//! (反揭).

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardCounts, Rank, Suit};
use crate::Seat;

use super::error::TuolajiError;

/// 第十条: with three decks no bid shows more than three identical cards.
pub const MAX_BID: u8 = 3;

/// A standing bid: `count` identical level-rank cards of `suit` shown by `seat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bid {
    pub seat: Seat,
    pub suit: Suit,
    pub count: u8,
}

/// What an accepted bid did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BidKind {
    /// 第十条1 揭牌: the first bid of the hand.
    Bid,
    /// 第十条1 加固: the current bidder shows more cards of the same suit.
    Strengthen,
    /// 第十条2 反揭: another player shows strictly more identical level cards.
    CounterBid,
}

/// The bids of one hand, oldest first, and the standing one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bidding {
    level: Rank,
    history: Vec<(Bid, BidKind)>,
}

impl Bidding {
    /// No bid yet in a hand whose level rank is `level`.
    pub const fn new(level: Rank) -> Bidding {
        Bidding {
            level,
            history: Vec::new(),
        }
    }

    /// The bids of a hand whose level rank is `level`, as they were accepted (e.g. read
    /// back from a view's `bids`).
    pub fn from_history(level: Rank, history: Vec<(Bid, BidKind)>) -> Bidding {
        Bidding { level, history }
    }

    /// Every bid `seat`, holding `holding`, could make now: for each suit, each number of
    /// its identical level cards that [`Bidding::check`] accepts, fewest first.
    pub fn legal(&self, seat: Seat, holding: &CardCounts) -> Vec<Vec<Card>> {
        let mut out = Vec::new();
        for suit in Suit::ALL {
            let card = Card::new(self.level, suit);
            for n in 1..=holding.count(card) {
                let cards = vec![card; usize::from(n)];
                if self.check(seat, &cards, holding).is_ok() {
                    out.push(cards);
                }
            }
        }
        out
    }

    /// The standing bid (the last accepted one).
    pub fn current(&self) -> Option<Bid> {
        self.history.last().map(|(b, _)| *b)
    }

    /// Every accepted bid in order, with what it did (everybody sees the shown cards).
    pub fn history(&self) -> &[(Bid, BidKind)] {
        &self.history
    }

    /// What `cards` shown by `seat`, who holds `holding` at this moment of the deal, would
    /// be, without changing anything.
    ///
    /// # Errors
    /// - [`TuolajiError::BidNoCards`] when nothing is shown;
    /// - [`TuolajiError::BidNotLevelCards`] unless the cards are identical level-rank cards
    ///   of one suit (jokers cannot bid);
    /// - [`TuolajiError::NotHeld`] when the seat does not hold them now;
    /// - [`TuolajiError::BidCannotBeCountered`] against a bid of three;
    /// - [`TuolajiError::StrengthenOtherSuit`] or [`TuolajiError::StrengthenTooFew`] when
    ///   the current bidder shows another suit or no more cards than before;
    /// - [`TuolajiError::CounterBidTooFew`] when another player shows no more cards than
    ///   the standing bid.
    pub fn check(
        &self,
        seat: Seat,
        cards: &[Card],
        holding: &CardCounts,
    ) -> Result<(Bid, BidKind), TuolajiError> {
        let Some(&first) = cards.first() else {
            return Err(TuolajiError::BidNoCards);
        };
        let suit = match first {
            Card::Suited { rank, suit } if rank == self.level => suit,
            _ => return Err(self.not_level_cards(cards)),
        };
        if cards.iter().any(|&c| c != first) {
            return Err(self.not_level_cards(cards));
        }
        let shown: CardCounts = cards.iter().copied().collect();
        if !holding.contains(&shown) {
            return Err(TuolajiError::NotHeld {
                cards: cards.to_vec(),
            });
        }
        let count = u8::try_from(cards.len()).unwrap_or(u8::MAX);
        let bid = Bid { seat, suit, count };
        let Some(standing) = self.current() else {
            return Ok((bid, BidKind::Bid));
        };
        if standing.seat == seat {
            if suit != standing.suit {
                return Err(TuolajiError::StrengthenOtherSuit {
                    suit: standing.suit,
                });
            }
            if count <= standing.count {
                return Err(TuolajiError::StrengthenTooFew {
                    standing: standing.count,
                });
            }
            return Ok((bid, BidKind::Strengthen));
        }
        if standing.count >= MAX_BID {
            return Err(TuolajiError::BidCannotBeCountered);
        }
        if count <= standing.count {
            return Err(TuolajiError::CounterBidTooFew {
                standing: standing.count,
                needed: standing.count + 1,
            });
        }
        Ok((bid, BidKind::CounterBid))
    }

    /// Checks the bid as [`Bidding::check`] does and, if it is accepted, makes it the
    /// standing bid.
    ///
    /// # Errors
    /// As [`Bidding::check`]; nothing changes then.
    pub fn bid(
        &mut self,
        seat: Seat,
        cards: &[Card],
        holding: &CardCounts,
    ) -> Result<(Bid, BidKind), TuolajiError> {
        let accepted = self.check(seat, cards, holding)?;
        self.history.push(accepted);
        Ok(accepted)
    }

    fn not_level_cards(&self, cards: &[Card]) -> TuolajiError {
        TuolajiError::BidNotLevelCards {
            level: self.level,
            cards: cards.to_vec(),
        }
    }
}
