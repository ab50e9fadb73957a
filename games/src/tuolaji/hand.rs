//! One hand (盘) as a state machine the room drives: the deal card by card with bidding
//! during it, the close of bidding, the trump named when nobody bid, the bottom exchange,
//! then tricks until every card is played (第八条–第十二条).
//!
//! The room calls [`Hand::deal_next`] at the deal's pace and [`Hand::close_bidding`] when
//! the bid window ends, and passes each seat's [`HandAction`] to [`Hand::apply`]. Every
//! accepted step returns the [`HandEvent`]s to publish; every refused one returns a
//! [`TuolajiError`] and changes nothing. Time comes in as arguments.

mod event;
mod play;

pub use event::{HandAction, HandEvent, HandResult, Phase};
pub use play::TrickRecord;

use serde::{Deserialize, Serialize};

use crate::cards::{Card, CardCounts, Rank, Suit, DECKS};
use crate::{Millis, Seat};

use super::bid::{Bid, BidKind, Bidding};
use super::bottom::check_put_back;
use super::deal::{Deal, BOTTOM_SIZE, DRAWN, HOLDING_SIZE};
use super::error::TuolajiError;
use super::level::Team;
use super::options::TuolajiRules;
use super::order::Order;
use play::Play;

/// A moment of play to start a hand from ([`Hand::from_position`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// What each seat holds, by seat.
    pub holdings: [Vec<Card>; 4],
    /// The six cards the dealer put back.
    pub bottom: Vec<Card>,
    pub dealer: Seat,
    pub trump: Suit,
    pub level: Rank,
    /// Who leads the next trick.
    pub leader: Seat,
}

/// 第八条1: every team starts at 2, so the first hand of a game is played at level 2.
pub const FIRST_HAND_LEVEL: Rank = Rank::Two;

/// One hand from the first drawn card to the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    options: TuolajiRules,
    deal: Deal,
    /// The dealer fixed before the deal (later hands); `None` in a game's first hand, where
    /// bidding chooses the dealer (第八条2).
    fixed_dealer: Option<Seat>,
    level: Rank,
    /// How many cards have been drawn.
    dealt: usize,
    holdings: [CardCounts; 4],
    bidding: Bidding,
    dealer: Option<Seat>,
    trump: Option<Suit>,
    order: Option<Order>,
    phase: Phase,
    /// When the current phase or turn began (deadlines count from here).
    since: Millis,
    /// The six bottom cards: as dealt, then as put back.
    bottom: Vec<Card>,
    play: Play,
    result: Option<HandResult>,
    /// 第十三条: points taken from each team (by [`Team::index`]) for lateness, counted
    /// when the hand is scored (the dealer's team is known only then in a first hand).
    late_penalty: [u32; 2],
}

impl Hand {
    /// The first hand of a game (第八条2): the seed chooses who draws first (第九条1) and
    /// bidding chooses the dealer; the level rank is 2.
    ///
    /// # Errors
    /// [`TuolajiError::UnsupportedOption`] for options this server does not play.
    pub fn first(options: &TuolajiRules, seed: u64, now: Millis) -> Result<Hand, TuolajiError> {
        let first_drawer = Deal::random_first_drawer(seed);
        Hand::build(options, seed, first_drawer, None, FIRST_HAND_LEVEL, now)
    }

    /// A later hand (第九条1): `dealer` draws first and deals it at level rank `level`;
    /// bidding chooses only the trump suit.
    ///
    /// # Errors
    /// [`TuolajiError::NoSuchSeat`] for a dealer outside 0–3;
    /// [`TuolajiError::UnsupportedOption`] for options this server does not play.
    pub fn later(
        options: &TuolajiRules,
        seed: u64,
        dealer: Seat,
        level: Rank,
        now: Millis,
    ) -> Result<Hand, TuolajiError> {
        check_seat(dealer)?;
        Hand::build(options, seed, dealer, Some(dealer), level, now)
    }

    fn build(
        options: &TuolajiRules,
        seed: u64,
        first_drawer: Seat,
        fixed_dealer: Option<Seat>,
        level: Rank,
        now: Millis,
    ) -> Result<Hand, TuolajiError> {
        if options.joker_bids {
            return Err(TuolajiError::UnsupportedOption {
                name: "joker_bids",
                why: "第十条: jokers cannot bid in these rules",
            });
        }
        let deal = Deal::new(seed, first_drawer);
        Ok(Hand {
            options: options.clone(),
            bottom: deal.bottom().to_vec(),
            deal,
            fixed_dealer,
            level,
            dealt: 0,
            holdings: Default::default(),
            bidding: Bidding::new(level),
            dealer: fixed_dealer,
            trump: None,
            order: None,
            phase: Phase::Dealing,
            since: now,
            play: Play::default(),
            result: None,
            late_penalty: [0; 2],
        })
    }

    /// A hand started in the middle of play from `position` (golden tests, puzzles,
    /// analysis): bidding and the bottom exchange are over and `position.leader` leads.
    ///
    /// # Errors
    /// [`TuolajiError::NoSuchSeat`] for a dealer or leader outside 0–3;
    /// [`TuolajiError::BadPosition`] unless every seat holds the same number of cards
    /// (1 to 39), the bottom has six, and no card appears more than three times;
    /// [`TuolajiError::UnsupportedOption`] as for [`Hand::first`].
    pub fn from_position(
        options: &TuolajiRules,
        position: &Position,
        now: Millis,
    ) -> Result<Hand, TuolajiError> {
        let bad = |why| Err(TuolajiError::BadPosition { why });
        let size = position.holdings[0].len();
        if size == 0 || size > HOLDING_SIZE || position.holdings.iter().any(|h| h.len() != size) {
            return bad("every seat holds the same number of cards, 1 to 39");
        }
        if position.bottom.len() != BOTTOM_SIZE {
            return bad("the bottom holds six cards");
        }
        let all: CardCounts = position
            .holdings
            .iter()
            .flatten()
            .chain(&position.bottom)
            .copied()
            .collect();
        if all.iter().any(|(_, n)| usize::from(n) > DECKS) {
            return bad("three decks hold no card more than three times");
        }
        let (dealer, leader) = (position.dealer, position.leader);
        check_seat(dealer)?;
        check_seat(leader)?;
        let mut hand = Hand::build(options, 0, dealer, Some(dealer), position.level, now)?;
        hand.holdings = position
            .holdings
            .clone()
            .map(|cards| cards.into_iter().collect());
        hand.dealt = DRAWN;
        hand.bottom = position.bottom.clone();
        hand.trump = Some(position.trump);
        hand.order = Some(Order::new(position.trump, position.level));
        hand.phase = Phase::Leading { seat: leader };
        Ok(hand)
    }

    /// 第十三条: `team` came 6–15 minutes late: `points` are taken from its side in this
    /// hand **\[D\]** (from the defenders' score when it defends, added to it when it deals),
    /// as a failed throw's penalty is (第十六条). Refused once the hand is over.
    ///
    /// # Errors
    /// [`TuolajiError::WrongPhase`] after the hand's result.
    pub fn penalise_late(&mut self, team: Team, points: u32) -> Result<(), TuolajiError> {
        if self.result.is_some() {
            return Err(self.wrong_phase("take a lateness penalty"));
        }
        if let Some(p) = self.late_penalty.get_mut(team.index()) {
            *p = p.saturating_add(points);
        }
        Ok(())
    }

    // --- what the table may see (a view picks from these per seat) ---

    /// Where the hand is and who must act.
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// The options the hand is played with.
    pub const fn options(&self) -> &TuolajiRules {
        &self.options
    }

    /// The level rank (级牌) of the hand.
    pub const fn level(&self) -> Rank {
        self.level
    }

    /// The trump suit, once bidding closed or the dealer named it.
    pub const fn trump(&self) -> Option<Suit> {
        self.trump
    }

    /// The card order, once the trump suit is known.
    pub const fn order(&self) -> Option<&Order> {
        self.order.as_ref()
    }

    /// The dealer: known from the start in later hands, after bidding in the first.
    pub const fn dealer(&self) -> Option<Seat> {
        self.dealer
    }

    /// Who drew the first card.
    pub const fn first_drawer(&self) -> Seat {
        self.deal.first_drawer()
    }

    /// How many cards have been drawn so far (156 when the deal is done).
    pub const fn dealt(&self) -> usize {
        self.dealt
    }

    /// The cards `seat` holds now (only that seat may see them). Empty for a seat that is
    /// not at the table.
    pub fn holding(&self, seat: Seat) -> &CardCounts {
        static NONE: CardCounts = CardCounts::new();
        self.holdings.get(seat.index()).unwrap_or(&NONE)
    }

    /// How many cards each seat holds (everybody may see this).
    pub fn card_counts(&self) -> [usize; 4] {
        [0, 1, 2, 3].map(|s| self.holding(Seat(s)).len())
    }

    /// Every accepted bid with what it did, oldest first (the shown cards are public).
    pub fn bids(&self) -> &[(Bid, BidKind)] {
        self.bidding.history()
    }

    /// 第十条: every bid `seat` could make now ([`Bidding::legal`]); none outside the deal
    /// and the bid window.
    pub fn legal_bids(&self, seat: Seat) -> Vec<Vec<Card>> {
        match self.phase {
            Phase::Dealing | Phase::Bidding { .. } => self.bidding.legal(seat, self.holding(seat)),
            _ => Vec::new(),
        }
    }

    /// The bottom: as dealt until the dealer takes it, then as put back. Secret: only the
    /// dealer between taking and putting back, and everybody once the hand is over.
    pub fn bottom(&self) -> &[Card] {
        &self.bottom
    }

    /// How the hand ended, once it has.
    pub const fn result(&self) -> Option<&HandResult> {
        self.result.as_ref()
    }

    /// Whether every card has been played.
    pub const fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    /// When the room must act by itself: the next card of the deal, the close of bidding,
    /// or the end of the acting seat's time (then it plays [`super::suggest`]'s choice).
    pub fn deadline(&self) -> Option<Millis> {
        let after = |ms: u64| Some(self.since + Millis(ms));
        match self.phase {
            Phase::Dealing => after(self.options.deal_interval_ms),
            Phase::Bidding { closes_at } => Some(closes_at),
            Phase::NamingTrump { .. } | Phase::Leading { .. } | Phase::Following { .. } => {
                after(self.options.turn_ms)
            }
            Phase::Bottom { .. } => after(self.options.bottom_ms),
            Phase::Done => None,
        }
    }

    /// The table keeps the trick just won on show until `at` (`trick_pause_ms`): the
    /// winner's time to lead counts from then. Only while a lead is awaited.
    pub fn hold_lead_until(&mut self, at: Millis) {
        if matches!(self.phase, Phase::Leading { .. }) {
            self.since = self.since.max(at);
        }
    }

    // --- the room's steps ---

    /// 第九条1: draws the next card to its receiver. After the last one, bidding stays open
    /// for `bid_window_ms` (第十条2).
    ///
    /// # Errors
    /// [`TuolajiError::WrongPhase`] once every card is drawn.
    pub fn deal_next(&mut self, now: Millis) -> Result<Vec<HandEvent>, TuolajiError> {
        if self.phase != Phase::Dealing {
            return Err(self.wrong_phase("deal a card"));
        }
        let (seat, card) = self
            .deal
            .draw(self.dealt)
            .ok_or_else(|| self.wrong_phase("deal a card"))?;
        let Some(holding) = self.holdings.get_mut(seat.index()) else {
            return Err(self.wrong_phase("deal a card"));
        };
        holding.add(card);
        self.dealt += 1;
        self.since = now;
        let mut events = vec![HandEvent::Dealt {
            seat,
            card: Some(card),
        }];
        if self.dealt == DRAWN {
            let closes_at = now + Millis(self.options.bid_window_ms);
            self.phase = Phase::Bidding { closes_at };
            events.push(HandEvent::DealDone { closes_at });
        }
        Ok(events)
    }

    /// Draws every remaining card (tests and replays that do not stream the deal).
    ///
    /// # Errors
    /// [`TuolajiError::WrongPhase`] when the deal is already done.
    pub fn deal_all(&mut self, now: Millis) -> Result<Vec<HandEvent>, TuolajiError> {
        let mut events = self.deal_next(now)?;
        while self.phase == Phase::Dealing {
            events.extend(self.deal_next(now)?);
        }
        Ok(events)
    }

    /// 第十条2: the bid window is over: the last bid fixes the trump suit and (in the first
    /// hand) the dealer, who takes the bottom. With no bid, the first drawer (first hand) or
    /// the dealer (later hands, **\[D\]**) must name the trump suit (第八条2).
    ///
    /// # Errors
    /// [`TuolajiError::BiddingOpen`] before the window's end; [`TuolajiError::WrongPhase`]
    /// outside the window.
    pub fn close_bidding(&mut self, now: Millis) -> Result<Vec<HandEvent>, TuolajiError> {
        let Phase::Bidding { closes_at } = self.phase else {
            return Err(self.wrong_phase("close the bidding"));
        };
        if now < closes_at {
            return Err(TuolajiError::BiddingOpen {
                closes_at: closes_at.0,
            });
        }
        let standing = self.bidding.current();
        let dealer = self
            .fixed_dealer
            .or(standing.map(|b| b.seat))
            .unwrap_or(self.deal.first_drawer());
        self.dealer = Some(dealer);
        let trump = standing.map(|b| b.suit);
        let mut events = vec![HandEvent::BiddingClosed { dealer, trump }];
        self.since = now;
        match trump {
            Some(suit) => events.push(self.take_bottom(dealer, suit)),
            None => self.phase = Phase::NamingTrump { dealer },
        }
        Ok(events)
    }

    /// Time has reached [`Hand::deadline`]: the step the server takes by itself. The next
    /// card is dealt, the bid window closes, or the seat whose time ran out gets the
    /// suggested action ([`super::suggest::suggest`], **\[D\]**), announced by
    /// [`HandEvent::TimedOut`]. Before the deadline nothing happens.
    ///
    /// # Errors
    /// Only what the step itself returns; every step taken here is one the hand accepts
    /// (the property tests play whole hands by time-outs alone).
    pub fn on_deadline(&mut self, now: Millis) -> Result<Vec<HandEvent>, TuolajiError> {
        if self.deadline().is_none_or(|at| now < at) {
            return Ok(Vec::new());
        }
        match self.phase {
            Phase::Dealing => self.deal_next(now),
            Phase::Bidding { .. } => self.close_bidding(now),
            _ => {
                let Some((seat, action)) = super::suggest::suggest(self) else {
                    return Ok(Vec::new());
                };
                let mut events = vec![HandEvent::TimedOut { seat }];
                events.extend(self.apply(seat, action, now)?);
                Ok(events)
            }
        }
    }

    /// `seat` asks to do `action` at `now`.
    ///
    /// # Errors
    /// [`TuolajiError::WrongPhase`] when the hand waits for another kind of action,
    /// [`TuolajiError::NotYourTurn`] when another seat must act, and each action's own
    /// errors (bids: [`Bidding::check`]; the bottom: [`check_put_back`]; leads and
    /// follows: [`super::decompose`], [`super::validate_decomposition`] and [`super::check_follow`]). Nothing changes on an error.
    pub fn apply(
        &mut self,
        seat: Seat,
        action: HandAction,
        now: Millis,
    ) -> Result<Vec<HandEvent>, TuolajiError> {
        check_seat(seat)?;
        match action {
            HandAction::Bid { cards } => self.bid(seat, cards, now),
            HandAction::NameTrump { suit } => self.name_trump(seat, suit, now),
            HandAction::PutBack { cards } => self.put_back(seat, &cards, now),
            HandAction::Lead { cards, declared } => self.lead(seat, cards, declared, now),
            HandAction::Follow { cards } => self.follow(seat, cards, now),
        }
    }

    /// 第十条: a bid during the deal or the window after it, with cards held now.
    fn bid(
        &mut self,
        seat: Seat,
        cards: Vec<Card>,
        now: Millis,
    ) -> Result<Vec<HandEvent>, TuolajiError> {
        match self.phase {
            Phase::Dealing => {}
            Phase::Bidding { closes_at } if now < closes_at => {}
            _ => return Err(TuolajiError::BiddingClosed),
        }
        let holding = self
            .holdings
            .get(seat.index())
            .ok_or(TuolajiError::NoSuchSeat { seat: seat.0 })?;
        let (bid, kind) = self.bidding.bid(seat, &cards, holding)?;
        Ok(vec![HandEvent::Bid { bid, kind, cards }])
    }

    /// 第八条2: nobody bid; the dealer names the trump suit and takes the bottom.
    fn name_trump(
        &mut self,
        seat: Seat,
        suit: Suit,
        now: Millis,
    ) -> Result<Vec<HandEvent>, TuolajiError> {
        let Phase::NamingTrump { dealer } = self.phase else {
            return Err(self.wrong_phase("name the trump suit"));
        };
        expect_seat(seat, dealer, "name the trump suit")?;
        self.since = now;
        let taken = self.take_bottom(dealer, suit);
        Ok(vec![HandEvent::TrumpNamed { dealer, suit }, taken])
    }

    /// 第九条2: the trump is known; the dealer takes the six bottom cards.
    fn take_bottom(&mut self, dealer: Seat, trump: Suit) -> HandEvent {
        self.trump = Some(trump);
        self.order = Some(Order::new(trump, self.level));
        if let Some(holding) = self.holdings.get_mut(dealer.index()) {
            for &card in &self.bottom {
                holding.add(card);
            }
        }
        self.phase = Phase::Bottom { dealer };
        HandEvent::BottomTaken {
            dealer,
            cards: self.bottom.clone(),
        }
    }

    /// 第九条2: the dealer puts back six cards; the dealer leads the first trick
    /// (第十一条1).
    fn put_back(
        &mut self,
        seat: Seat,
        cards: &[Card],
        now: Millis,
    ) -> Result<Vec<HandEvent>, TuolajiError> {
        let Phase::Bottom { dealer } = self.phase else {
            return Err(self.wrong_phase("put back the bottom"));
        };
        expect_seat(seat, dealer, "put back the bottom")?;
        let put_back = check_put_back(self.holding(dealer), cards)?;
        if let Some(holding) = self.holdings.get_mut(dealer.index()) {
            holding.remove_all(&put_back);
        }
        self.bottom = put_back.to_vec();
        self.phase = Phase::Leading { seat: dealer };
        self.since = now;
        Ok(vec![HandEvent::BottomPutBack {
            dealer,
            cards: self.bottom.clone(),
        }])
    }

    fn wrong_phase(&self, action: &'static str) -> TuolajiError {
        TuolajiError::WrongPhase {
            action,
            wanted: self.phase.wanted(),
        }
    }
}

/// The acting seat must be `expected`.
fn expect_seat(seat: Seat, expected: Seat, action: &'static str) -> Result<(), TuolajiError> {
    if seat == expected {
        Ok(())
    } else {
        Err(TuolajiError::NotYourTurn {
            expected: expected.0,
            action,
        })
    }
}

/// Tuolaji seats are 0 to 3.
fn check_seat(seat: Seat) -> Result<(), TuolajiError> {
    if seat.index() < 4 {
        Ok(())
    } else {
        Err(TuolajiError::NoSuchSeat { seat: seat.0 })
    }
}
