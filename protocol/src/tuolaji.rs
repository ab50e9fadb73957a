//! Tuolaji (三副牌拖拉机) on the wire: room options, actions, the per-seat view and events.
//!
//! Cards travel as their notation ([`Card`]): rank then suit letter, ranks `2`–`9`, `T`, `J`,
//! `Q`, `K`, `A`, suits `s h c d`, the jokers `SJ` (small) and `BJ` (big): `"Ts"`, `"Kh"`.
//! A suit alone is its letter (`"h"`, [`Suit`]), a level rank its rank letter (`"2"`, `"T"`,
//! `"A"`, [`Rank`]), seats are the numbers 0–3 in play order (0+2 and 1+3 are partners), and a team's level is
//! a number: 2–14 for 2…A, 15 and above once past A. Times are milliseconds on the server's
//! clock (the one every `server_time` uses).

use serde::{Deserialize, Serialize};

pub use crate::card::{Card, Rank, Suit};

/// A Tuolaji room's options. Every field may be left out for the server's default
/// (`config/default.toml`, section `[tuolaji]`).
///
/// # Format
/// ```text
/// {"game": "tuolaji", "turn_ms": 20000, "round_minutes": 90}
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TuolajiOptions {
    /// 第十六条: points a failed throw costs the thrower's side.
    #[serde(default)]
    pub throw_penalty: Option<u32>,
    /// 第九条1: pause between two dealt cards.
    #[serde(default)]
    pub deal_interval_ms: Option<u64>,
    /// 第十条2: how long bidding stays open after the last card.
    #[serde(default)]
    pub bid_window_ms: Option<u64>,
    /// 第九条2: time the dealer has to put back the bottom.
    #[serde(default)]
    pub bottom_ms: Option<u64>,
    /// Time per lead, follow or trump naming before the server plays for the seat.
    #[serde(default)]
    pub turn_ms: Option<u64>,
    /// How long a disconnected player's seat waits before the server plays it for good.
    #[serde(default)]
    pub seat_grace_ms: Option<u64>,
    /// 五(一)3: the round's time limit in minutes; 0 for none.
    #[serde(default)]
    pub round_minutes: Option<u32>,
    /// 五(一)3: minutes before the round's end when the hand in progress becomes the last.
    #[serde(default)]
    pub last_call_minutes: Option<u32>,
    /// Whether jokers may bid; reserved, only `false` is accepted.
    #[serde(default)]
    pub joker_bids: Option<bool>,
    /// The pause between a hand's result and the next deal.
    #[serde(default)]
    pub between_hands_ms: Option<u64>,
    /// How long a finished trick stays on the table, its winner marked, before the winner
    /// may lead (0: no pause).
    #[serde(default)]
    pub trick_pause_ms: Option<u64>,
    /// The server's bots' level at this table: `"beginner"`, `"casual"` or `"expert"`
    /// (README "Bot levels"); left out, `"expert"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<String>,
    /// A rated table: only signed-in accounts sit here (and the server's bots, at a level
    /// with a fixed rating), and its result moves their ratings (docs/ratings.md).
    #[serde(default)]
    pub rated: bool,
    /// A named preset whose values fill every option not given: `"competition"` (五(一)3:
    /// a 90-minute round, the last hand called at 75 minutes). Echoed in the lobby.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
}

/// What a seated Tuolaji player may do.
///
/// # Format
/// ```text
/// {"type": "bid", "cards": ["2h", "2h"]}
/// {"type": "name_trump", "suit": "s"}
/// {"type": "put_back", "cards": ["3c", "4c", "6d", "7d", "8d", "9d"]}
/// {"type": "lead", "cards": ["As", "Ks", "Ks"], "declared": [["As"], ["Ks", "Ks"]]}
/// {"type": "follow", "cards": ["9h", "9h", "3h"]}
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TuolajiAction {
    /// 第十条: show identical level-rank cards of one suit to bid, strengthen one's own bid
    /// or counter-bid (反揭); during the deal and the bid window after it.
    Bid { cards: Vec<Card> },
    /// 第八条2: nobody bid; the dealer names the trump suit.
    NameTrump { suit: Suit },
    /// 第九条2: the dealer puts back six cards as the bottom.
    PutBack { cards: Vec<Card> },
    /// 第十一条1: lead one unit or a throw. `declared` optionally splits a throw into units
    /// (拐拖/俘虏); without it the canonical decomposition is used.
    Lead {
        cards: Vec<Card>,
        #[serde(default)]
        declared: Option<Vec<Vec<Card>>>,
    },
    /// 第十一条2: follow the current trick with as many cards as were led.
    Follow { cards: Vec<Card> },
}

/// What the table is waiting for.
///
/// # Format
/// ```text
/// {"type": "following", "seat": 2, "deadline": 1712}
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Phase {
    /// Seats are still empty.
    Waiting,
    /// Cards are being dealt; anyone may bid.
    Dealing,
    /// Every card is drawn; bids are accepted until `closes_at`.
    Bidding { closes_at: u64 },
    /// Nobody bid: `dealer` must name the trump suit by `deadline`.
    NamingTrump { dealer: u8, deadline: u64 },
    /// `dealer` holds the bottom and must put back six cards by `deadline`.
    Bottom { dealer: u8, deadline: u64 },
    /// A trick is finished and stays on the table with its `winner` marked until
    /// `leads_at` (the table's `trick_pause_ms`): nobody may act; then `winner` leads.
    TrickPause { winner: u8, leads_at: u64 },
    /// `seat` must lead by `deadline`.
    Leading { seat: u8, deadline: u64 },
    /// `seat` must follow by `deadline`.
    Following { seat: u8, deadline: u64 },
    /// The hand is over; the next one is dealt at `next_hand_at`.
    BetweenHands { next_hand_at: u64 },
    /// The game is over.
    Over,
}

/// An accepted bid, strengthening or counter-bid, with the cards shown (public).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidShown {
    pub seat: u8,
    /// The suit bid for trump.
    pub suit: Suit,
    /// `bid`, `strengthen` or `counter_bid`.
    pub kind: BidKind,
    /// The cards shown (they stay in the bidder's hand).
    pub cards: Vec<Card>,
}

/// What an accepted bid did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BidKind {
    /// 揭牌: the first bid of the hand.
    Bid,
    /// 加固: the standing bidder shows more cards of the same suit.
    Strengthen,
    /// 反揭: another player shows strictly more identical level cards.
    CounterBid,
}

/// One play of a trick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    pub seat: u8,
    pub cards: Vec<Card>,
}

/// A trick as everybody sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrickView {
    pub leader: u8,
    /// The lead split into units (what followers must answer).
    pub units: Vec<Vec<Card>>,
    /// Every play so far, the lead first.
    pub plays: Vec<Play>,
    /// Who won it, once all four have played.
    pub winner: Option<u8>,
}

/// Who goes up after a hand (表2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelChange {
    /// The team going up: 0 (seats 0+2) or 1 (seats 1+3).
    pub team: u8,
    /// By how many levels.
    pub steps: u8,
}

/// How a hand ended (第十二条3, 第二十条): the bottom shown to all, the points, the levels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    pub dealer: u8,
    /// Point cards in tricks the defenders won.
    pub trick_points: u32,
    /// Failed-throw penalties in the defenders' favour (negative against them).
    pub penalty_points: i32,
    /// The bottom's points × its multiplier, when the defenders won the last trick.
    pub bottom_points: u32,
    /// All of the above: P of 表2.
    pub defenders_points: i32,
    /// The bottom the dealer put back, now shown to everybody.
    pub bottom: Vec<Card>,
    /// 表1: the last trick's multiplier.
    pub bottom_multiplier: u32,
    pub last_trick_winner: u8,
    pub change: LevelChange,
    /// Both teams' levels after the change.
    pub levels: [u8; 2],
    /// 第八条3: who deals next.
    pub next_dealer: u8,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// 第二条: a team went past A.
    PastAce,
    /// 五(一)3: the round's time ran out and its last hand was played.
    RoundTime,
    /// 五(一)4: a team gave up.
    Forfeit,
    /// Every player left; the table was closed with no result.
    Abandoned,
}

impl EndReason {
    /// The wire name (what serde writes).
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::PastAce => "past_ace",
            EndReason::RoundTime => "round_time",
            EndReason::Forfeit => "forfeit",
            EndReason::Abandoned => "abandoned",
        }
    }
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning team (0: seats 0+2, 1: seats 1+3); `None` for a draw or no result.
    pub winner: Option<u8>,
    pub reason: EndReason,
    /// 五(一)4: round points per team (win 2, draw 1, loss 0).
    pub round_points: [u8; 2],
    pub levels: [u8; 2],
}

impl Outcome {
    /// The outcome in the shape every game tells ([`crate::Outcome`]): the winning team's
    /// two seats (a team is seats `t` and `t + 2`); a table everybody left has no result.
    pub fn told(&self) -> crate::Outcome {
        crate::Outcome {
            winners: self.winner.map(|t| vec![t, t + 2]).unwrap_or_default(),
            reason: self.reason.name().to_owned(),
            no_result: self.reason == EndReason::Abandoned,
        }
    }
}

impl crate::HasOutcome for TuolajiView {
    fn outcome(&self) -> Option<crate::Outcome> {
        self.outcome.as_ref().map(Outcome::told)
    }
}

/// Why the server plays a seat by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoReason {
    /// The player's time ran out; the player takes over again by acting.
    TimedOut,
    /// The seat is empty or its player is gone: the server acts at once.
    Vacant,
}

/// Everything one viewer sees of a Tuolaji table (第十一条4, 第十五条). Spectators get no
/// `hand`, `played`, `bottom` or `hint`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuolajiView {
    pub phase: Phase,
    /// The hand's number in this game, from 1 (0 before the first deal).
    pub hand_number: u32,
    /// The viewer's own cards, sorted; `None` for spectators.
    pub hand: Option<Vec<Card>>,
    /// How many cards each seat holds.
    pub card_counts: [u32; 4],
    /// How many cards have been drawn in this hand's deal (156 when done).
    pub dealt: u32,
    /// Who drew (or draws) the first card of this hand.
    pub first_drawer: Option<u8>,
    /// The dealer; unknown during the first hand's bidding.
    pub dealer: Option<u8>,
    /// The level rank (级牌) of this hand.
    pub level_rank: Option<Rank>,
    /// The trump suit, once fixed.
    pub trump: Option<Suit>,
    /// Every accepted bid of this hand, oldest first.
    pub bids: Vec<BidShown>,
    pub current_trick: Option<TrickView>,
    /// The last finished trick, until the next lead.
    pub previous_trick: Option<TrickView>,
    /// The viewer's own played cards this hand, in order (empty for spectators).
    pub played: Vec<Card>,
    /// 第十一条3: the point cards the defenders have won.
    pub defenders_point_cards: Vec<Card>,
    /// The defenders' points so far (tricks and penalties).
    pub defenders_points: i32,
    /// Both teams' levels: index 0 for seats 0+2, 1 for seats 1+3.
    pub levels: [u8; 2],
    /// The bottom: to the dealer while it holds it (between taking and putting back), to
    /// the dealer afterwards as put back, and to everybody once the hand is over.
    pub bottom: Option<Vec<Card>>,
    /// Seats the server is playing, and why.
    pub auto: [Option<AutoReason>; 4],
    /// The last finished hand's result (shown until the next one ends).
    pub last_result: Option<HandResult>,
    /// 五(一)3: when the round ends, if it has a limit.
    pub round_ends_at: Option<u64>,
    /// 五(一)3: whether the hand in progress is the round's last one.
    pub last_hand: bool,
    /// The game's result, once over.
    pub outcome: Option<Outcome>,
    /// For the seat that must act: one legal action (what the server would play for it).
    pub hint: Option<TuolajiAction>,
    /// 第十条: to a seat during the deal and the bid window, every bid it could make now
    /// (the `cards` of a `bid` action), fewest cards first in suit order s h c d; empty
    /// otherwise and for spectators. Kept up to date by the `legal_bids` event.
    #[serde(default)]
    pub legal_bids: Vec<Vec<Card>>,
}

/// What happened at a Tuolaji table. Events that show hidden cards reach only their owner;
/// the others get the same event with the cards left out (so `event_seq` has no holes).
///
/// # Format
/// ```text
/// {"game": "tuolaji", "type": "dealt", "seat": 2, "card": "5h"}   (to seat 2)
/// {"game": "tuolaji", "type": "dealt", "seat": 2, "card": null}   (to everybody else)
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TuolajiEvent {
    /// A new hand: the deal starts.
    HandStarted {
        hand_number: u32,
        first_drawer: u8,
        /// Known from the start in later hands; bidding chooses it in the first.
        dealer: Option<u8>,
        level_rank: Rank,
        levels: [u8; 2],
        /// 五(一)3: when the round ends, if it has a time limit.
        #[serde(default)]
        round_ends_at: Option<u64>,
    },
    /// `seat` drew a card: `card` to that seat only, `null` to the others.
    Dealt { seat: u8, card: Option<Card> },
    /// `seat` drew several cards at once (a deal without pauses, `deal_interval_ms` 0):
    /// `cards` to that seat only, `[]` to the others; `count` to everybody.
    DealtCards {
        seat: u8,
        cards: Vec<Card>,
        count: u32,
    },
    /// The last card is drawn; bidding stays open until `closes_at`.
    DealDone { closes_at: u64 },
    /// An accepted bid with the cards shown.
    Bid(BidShown),
    /// Bidding closed; `trump` is `null` when nobody bid and the dealer must name it.
    BiddingClosed { dealer: u8, trump: Option<Suit> },
    /// Nobody bid; the dealer named the trump suit.
    TrumpNamed { dealer: u8, suit: Suit },
    /// The dealer took the bottom: the cards to the dealer only, `[]` to the others;
    /// `count` (how many, 6) to everybody.
    BottomTaken {
        dealer: u8,
        cards: Vec<Card>,
        #[serde(default)]
        count: u32,
    },
    /// The dealer put back the bottom: the cards to the dealer only, `[]` to the others;
    /// `count` to everybody. The dealer leads.
    BottomPutBack {
        dealer: u8,
        cards: Vec<Card>,
        #[serde(default)]
        count: u32,
    },
    /// 第十六条: a throw failed: `attempted` was shown, `forced` is led instead, `beaten_by`
    /// holds a higher unit; `penalty` changes the defenders' points.
    ThrowFailed {
        seat: u8,
        attempted: Vec<Card>,
        forced: Vec<Card>,
        beaten_by: u8,
        penalty: i32,
        defenders_points: i32,
    },
    /// `seat` led `cards`, split into `units`.
    Led {
        seat: u8,
        cards: Vec<Card>,
        units: Vec<Vec<Card>>,
    },
    /// `seat` followed.
    Followed { seat: u8, cards: Vec<Card> },
    /// `winner` took the trick worth `points`; the defenders now have `defenders_points`.
    TrickWon {
        winner: u8,
        points: u32,
        defenders_points: i32,
        /// 第十一条3: the trick's point cards the defenders took with it, in play order
        /// (empty when the dealer's side won it).
        #[serde(default)]
        captured: Vec<Card>,
    },
    /// Every card is played: the result, and when the next hand is dealt (if the game goes on).
    HandOver {
        result: HandResult,
        next_hand_at: Option<u64>,
    },
    /// The server plays `seat` from now on (`reason`), or no longer (`reason` is `null`).
    Auto {
        seat: u8,
        reason: Option<AutoReason>,
    },
    /// 五(一)3: the hand in progress is the round's last one.
    LastHand { round_ends_at: u64 },
    /// The game is over.
    GameOver { outcome: Outcome },
    /// The last event of every step that changed what the table waits for: the new phase
    /// with its deadline, and `hint`, the server's suggested action, to the seat that must
    /// act only (`null` to everybody else). A client that folds events never needs a
    /// snapshot to learn whose turn it is.
    Turn {
        phase: Phase,
        #[serde(default)]
        hint: Option<TuolajiAction>,
    },
    /// 第十条: `seat`'s legal bids changed (a card it drew, a bid, the deal or the bid window
    /// over): to `seat` only, `bids` is every bid it could make now (as the view's
    /// `legal_bids`); everybody else gets `bids: []`. Sent before the step's `turn`.
    LegalBids { seat: u8, bids: Vec<Vec<Card>> },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{decode, encode};
    use crate::envelope::{ClientMsg, Event, RoomOptions, ServerMsg};

    fn cards(text: &str) -> Vec<Card> {
        text.split(' ').map(|c| c.parse().unwrap()).collect()
    }

    /// Actions, events (including the flattened `bid`) and sparse options survive
    /// MessagePack with their `type`/`game` tags.
    #[test]
    fn messages_round_trip() {
        let msg = ClientMsg::Tuolaji {
            seq: 4,
            action: TuolajiAction::Lead {
                cards: cards("As Ks Ks"),
                declared: Some(vec![cards("As"), cards("Ks Ks")]),
            },
        };
        let bytes = encode(&msg).unwrap();
        assert_eq!(decode::<ClientMsg>(&bytes, ClientMsg::TYPES).unwrap(), msg);

        let event = ServerMsg::Event {
            room_id: 1,
            event_seq: 2,
            server_time: 3,
            event: Event::Tuolaji(TuolajiEvent::Bid(BidShown {
                seat: 1,
                suit: Suit::Hearts,
                kind: BidKind::CounterBid,
                cards: cards("2h 2h"),
            })),
        };
        let back: ServerMsg = rmp_serde::from_slice(&encode(&event).unwrap()).unwrap();
        assert_eq!(back, event);

        #[derive(Serialize)]
        struct Sparse {
            game: &'static str,
            turn_ms: u64,
        }
        let bytes = encode(&Sparse {
            game: "tuolaji",
            turn_ms: 500,
        })
        .unwrap();
        let opts: RoomOptions = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(
            opts,
            RoomOptions::Tuolaji(TuolajiOptions {
                turn_ms: Some(500),
                ..TuolajiOptions::default()
            })
        );
    }
}
