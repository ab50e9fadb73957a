//! [`TuolajiBot`]: the Tuolaji strategy that plays to win: bids on a hand evaluation,
//! buries points and keeps trumps and long suits in the bottom, remembers the cards
//! played, leads safe throws and sure winners, feeds points to the partner's tricks, ruffs
//! when it pays and keeps big trumps for the last trick. A pure function of the seat's view
//! and the events it saw.

use qipai_protocol::tuolaji::{Phase, TuolajiAction, TuolajiEvent};

use super::bidding::{choose_bid, name_trump};
use super::burying::choose_bottom;
use super::following::choose_follow;
use super::leading::choose_lead;
use super::memory::Memory;
use super::read;
use super::situation::Situation;
use super::table::SeatView;
use crate::strategy::Strategy;

/// The Tuolaji bot. Deterministic: the same view and events give the same action.
#[derive(Clone, Debug, Default)]
pub struct TuolajiBot {
    memory: Memory,
    /// The hand number and the card count of the last bid this bot sent: a bid whose event
    /// has not come back yet is not sent again (第十条1 would refuse it as too weak).
    bid_sent: Option<(u32, usize)>,
}

impl TuolajiBot {
    /// A bot that has seen nothing yet.
    pub fn new() -> TuolajiBot {
        TuolajiBot::default()
    }

    /// What the bot remembers of the hand in progress.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    fn play(&self, seat: u8, view: &SeatView) -> Option<TuolajiAction> {
        let v = &view.view;
        match v.phase {
            Phase::Dealing | Phase::Bidding { .. } => choose_bid(seat, v),
            Phase::NamingTrump { .. } => {
                let suit = name_trump(&read::holding(v)?, v.level_rank?);
                Some(TuolajiAction::NameTrump { suit })
            }
            Phase::Bottom { .. } => {
                let cards = choose_bottom(&read::order(v)?, &read::holding(v)?);
                Some(TuolajiAction::PutBack { cards })
            }
            Phase::Leading { .. } => {
                let s = Situation::new(seat, v, &self.memory)?;
                let lead = choose_lead(&s)?;
                Some(TuolajiAction::Lead {
                    cards: lead.cards,
                    declared: lead.declared,
                })
            }
            Phase::Following { .. } => {
                let s = Situation::new(seat, v, &self.memory)?;
                let lead = read::lead_units(&s.order, v)?;
                let cards = choose_follow(&s, &lead)?;
                Some(TuolajiAction::Follow { cards })
            }
            Phase::Waiting
            | Phase::TrickPause { .. }
            | Phase::BetweenHands { .. }
            | Phase::Over => None,
        }
    }
}

impl Strategy for TuolajiBot {
    type View = SeatView;
    type Event = TuolajiEvent;
    type Action = TuolajiAction;

    fn observe(&mut self, event: &TuolajiEvent) {
        self.memory.observe(event);
    }

    /// Its own choice; the view's hint when it finds none (an unreadable view).
    fn decide(&mut self, seat: u8, view: &SeatView) -> Option<TuolajiAction> {
        let bidding = matches!(view.view.phase, Phase::Dealing | Phase::Bidding { .. });
        if !bidding && read::to_act(&view.view.phase) != Some(seat) {
            return None;
        }
        if bidding {
            let action = self.play(seat, view)?;
            let hand = view.view.hand_number;
            if let TuolajiAction::Bid { cards } = &action {
                if self
                    .bid_sent
                    .is_some_and(|(h, n)| h == hand && n >= cards.len())
                {
                    return None;
                }
                self.bid_sent = Some((hand, cards.len()));
            }
            return Some(action);
        }
        self.play(seat, view).or_else(|| view.view.hint.clone())
    }
}
