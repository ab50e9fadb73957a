//! What a seat may ask a hand to do ([`HandAction`], the protocol's action), what a hand
//! tells the table ([`HandEvent`]), the moment it is at ([`Phase`]) and how it ended
//! ([`HandResult`]). All are serde-tagged so the protocol can carry them as they are.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Suit};
use crate::{Millis, Seat};

use super::super::bid::{Bid, BidKind};
use super::super::scoring::{DefendersScore, LevelChange};

/// An action of one seat in a hand: the protocol's action itself (its cards, suits and
/// ranks are the engine's), so what a client sends reaches the rules with nothing converted.
///
/// # Format
/// ```text
/// {"type":"bid","cards":["5h","5h"]}
/// {"type":"name_trump","suit":"h"}
/// {"type":"put_back","cards":["2c","3c","4c","6d","7d","8d"]}
/// {"type":"lead","cards":["As","Ks","Ks"],"declared":null}
/// {"type":"follow","cards":["9h","9h","3h"]}
/// ```
pub use qipai_protocol::tuolaji::TuolajiAction as HandAction;

/// Where a hand is, and who must do what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Phase {
    /// 第九条1: cards are being drawn; the room calls `deal_next`; anyone may bid.
    Dealing,
    /// 第十条2: every card is drawn; bids are accepted until `closes_at`, when the room
    /// calls `close_bidding`.
    Bidding { closes_at: Millis },
    /// 第八条2: nobody bid; `dealer` names the trump suit.
    NamingTrump { dealer: Seat },
    /// 第九条2: `dealer` holds the bottom and puts back six cards.
    Bottom { dealer: Seat },
    /// 第十一条1: `seat` leads the next trick.
    Leading { seat: Seat },
    /// 第十一条2: `seat` follows the current trick.
    Following { seat: Seat },
    /// Every card is played; the result is known.
    Done,
}

impl Phase {
    /// The seat that must act now, if one must.
    pub const fn to_act(self) -> Option<Seat> {
        match self {
            Phase::NamingTrump { dealer } | Phase::Bottom { dealer } => Some(dealer),
            Phase::Leading { seat } | Phase::Following { seat } => Some(seat),
            Phase::Dealing | Phase::Bidding { .. } | Phase::Done => None,
        }
    }

    /// What the hand is waiting for, for messages.
    pub const fn wanted(self) -> &'static str {
        match self {
            Phase::Dealing => "the cards are being dealt",
            Phase::Bidding { .. } => "bidding is open",
            Phase::NamingTrump { .. } => "the dealer must name the trump suit",
            Phase::Bottom { .. } => "the dealer must put back the bottom",
            Phase::Leading { .. } => "a lead is wanted",
            Phase::Following { .. } => "a follow is wanted",
            Phase::Done => "the hand is over",
        }
    }
}

/// Something that happened in a hand. Events marked *private* show hidden cards and go to
/// one seat only ([`HandEvent::private_to`]); the room tells the others what
/// [`HandEvent::redacted`] leaves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HandEvent {
    /// *Private*: `seat` drew `card` (the others learn only that a card was drawn).
    Dealt { seat: Seat, card: Option<Card> },
    /// The last card is drawn; bidding stays open until `closes_at`.
    DealDone { closes_at: Millis },
    /// `seat`'s time ran out; the server acts for it (the next event) **\[D\]**.
    TimedOut { seat: Seat },
    /// 第十条: an accepted bid, strengthening or counter-bid, with the cards shown.
    Bid {
        bid: Bid,
        kind: BidKind,
        cards: Vec<Card>,
    },
    /// 第十条2: bidding closed. `trump` is `None` when nobody bid and the dealer must name it.
    BiddingClosed { dealer: Seat, trump: Option<Suit> },
    /// 第八条2: the dealer named the trump suit.
    TrumpNamed { dealer: Seat, suit: Suit },
    /// *Private*: the dealer took the bottom (`cards` hidden from the others).
    BottomTaken { dealer: Seat, cards: Vec<Card> },
    /// *Private*: the dealer put back the bottom (`cards` hidden from the others); the dealer
    /// leads the first trick.
    BottomPutBack { dealer: Seat, cards: Vec<Card> },
    /// 第十六条: the throw `attempted` failed (a unit of it is beaten by `beaten_by`);
    /// `penalty` is the change to the defenders' points and `forced` the unit led instead.
    ThrowFailed {
        seat: Seat,
        attempted: Vec<Card>,
        forced: Vec<Card>,
        beaten_by: Seat,
        penalty: i32,
        defenders_points: i32,
    },
    /// 第十一条1: `seat` led `cards`, split into `units`.
    Led {
        seat: Seat,
        cards: Vec<Card>,
        units: Vec<Vec<Card>>,
    },
    /// 第十一条2: `seat` followed with `cards`.
    Followed { seat: Seat, cards: Vec<Card> },
    /// 第十二条: `winner` took the trick and its `points`; defenders' points now
    /// `defenders_points`.
    TrickWon {
        winner: Seat,
        points: u32,
        defenders_points: i32,
        /// 第十一条3: the trick's point cards the defenders took (empty when the dealer's
        /// side won it).
        captured: Vec<Card>,
    },
    /// Every card is played: the bottom is shown and the levels change.
    HandOver { result: HandResult },
}

impl HandEvent {
    /// The seat that alone may see this event as it is, for private events.
    pub const fn private_to(&self) -> Option<Seat> {
        match self {
            HandEvent::Dealt { seat, .. } => Some(*seat),
            HandEvent::BottomTaken { dealer, .. } | HandEvent::BottomPutBack { dealer, .. } => {
                Some(*dealer)
            }
            _ => None,
        }
    }

    /// The event as the other seats may see it: hidden cards left out.
    pub fn redacted(&self) -> HandEvent {
        match self {
            HandEvent::Dealt { seat, .. } => HandEvent::Dealt {
                seat: *seat,
                card: None,
            },
            HandEvent::BottomTaken { dealer, .. } => HandEvent::BottomTaken {
                dealer: *dealer,
                cards: Vec::new(),
            },
            HandEvent::BottomPutBack { dealer, .. } => HandEvent::BottomPutBack {
                dealer: *dealer,
                cards: Vec::new(),
            },
            other => other.clone(),
        }
    }
}

/// How a hand ended (第十二条3, 第二十条).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    /// Who dealt the hand.
    pub dealer: Seat,
    /// The defenders' points, part by part.
    pub score: DefendersScore,
    /// P of 表2: the defenders' points in all.
    pub defenders_points: i32,
    /// The bottom, shown to everybody after the last trick.
    pub bottom: Vec<Card>,
    /// 表1: the last trick's multiplier (counted only if the defenders won that trick).
    pub bottom_multiplier: u32,
    /// Who won the last trick.
    pub last_trick_winner: Seat,
    /// 表2: who goes up and by how much.
    pub change: LevelChange,
    /// 第八条3: who deals the next hand.
    pub next_dealer: Seat,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    /// The documented wire shapes: `type`-tagged, cards as notation.
    #[test]
    fn actions_and_events_have_the_documented_shape() {
        let lead: HandAction =
            serde_json::from_str(r#"{"type":"lead","cards":["As","Ks","Ks"]}"#).unwrap();
        assert_eq!(
            lead,
            HandAction::Lead {
                cards: parse_cards("As Ks Ks").unwrap(),
                declared: None
            }
        );
        let name = serde_json::to_string(&HandAction::NameTrump { suit: Suit::Hearts }).unwrap();
        assert_eq!(name, r#"{"type":"name_trump","suit":"h"}"#);
        let dealt = HandEvent::Dealt {
            seat: Seat(2),
            card: parse_cards("5h").unwrap().first().copied(),
        };
        assert_eq!(
            serde_json::to_string(&dealt).unwrap(),
            r#"{"type":"dealt","seat":2,"card":"5h"}"#
        );
        assert_eq!(dealt.private_to(), Some(Seat(2)));
        assert_eq!(
            serde_json::to_string(&dealt.redacted()).unwrap(),
            r#"{"type":"dealt","seat":2,"card":null}"#
        );
        let phase = Phase::Bidding {
            closes_at: Millis(5000),
        };
        assert_eq!(
            serde_json::to_string(&phase).unwrap(),
            r#"{"type":"bidding","closes_at":5000}"#
        );
    }
}
