//! The wire forms of a Tuolaji table: engine events, results and tricks into the protocol's
//! types, and the per-seat view that shows exactly what `rules/tuolaji.md` "What each seat
//! may see" allows (第十一条4, 第十五条). Actions, cards, suits and ranks are the
//! protocol's own values, so they cross as they are: the codec has already refused any card
//! that is not in the notation (`bad_card`).

use qipai_protocol::tuolaji::{
    self as wire, BidShown, Phase as WirePhase, Play, TrickView, TuolajiAction, TuolajiEvent,
    TuolajiView,
};

use crate::cards::Card;
use crate::{Game, Millis, Seat, Viewer};

pub use super::fold::fold;

use super::game::TuolajiGame;
use super::suggest::suggest;

use super::bid::BidKind;
use super::deal::BOTTOM_SIZE;
use super::hand::{HandEvent, HandResult, Phase, TrickRecord};
use super::level::{Levels, Team};
use super::matchplay::{MatchEnd, MatchOutcome};
use super::scoring::LevelChange;

/// Both levels as numbers, NorthSouth (seats 0+2) first.
pub fn levels_out(levels: Levels) -> [u8; 2] {
    Team::ALL.map(|t| levels.get(t).number())
}

fn bid_kind_out(kind: BidKind) -> wire::BidKind {
    match kind {
        BidKind::Bid => wire::BidKind::Bid,
        BidKind::Strengthen => wire::BidKind::Strengthen,
        BidKind::CounterBid => wire::BidKind::CounterBid,
    }
}

fn trick_out(trick: &TrickRecord) -> TrickView {
    TrickView {
        leader: trick.leader.0,
        units: trick.units.clone(),
        plays: trick
            .plays
            .iter()
            .map(|(seat, cards)| Play {
                seat: seat.0,
                cards: cards.to_vec(),
            })
            .collect(),
        winner: trick.winner.map(|s| s.0),
    }
}

/// A hand's result on the wire, with both levels after it.
pub fn result_out(result: &HandResult, levels: Levels) -> wire::HandResult {
    let dealer_team = Team::of(result.dealer);
    let team = match result.change {
        LevelChange::Dealer(_) => dealer_team,
        LevelChange::Defenders(_) => dealer_team.other(),
    };
    wire::HandResult {
        dealer: result.dealer.0,
        trick_points: result.score.trick_points,
        penalty_points: result.score.penalty_points,
        bottom_points: result.score.bottom_points,
        defenders_points: result.defenders_points,
        bottom: result.bottom.to_vec(),
        bottom_multiplier: result.bottom_multiplier,
        last_trick_winner: result.last_trick_winner.0,
        change: wire::LevelChange {
            team: team.index() as u8,
            steps: result.change.steps(),
        },
        levels: levels_out(levels),
        next_dealer: result.next_dealer.0,
    }
}

/// A game's outcome on the wire.
pub fn outcome_out(outcome: &MatchOutcome) -> wire::Outcome {
    wire::Outcome {
        winner: outcome.winner.map(|t| t.index() as u8),
        reason: match outcome.end {
            MatchEnd::PastAce => wire::EndReason::PastAce,
            MatchEnd::RoundTime => wire::EndReason::RoundTime,
            MatchEnd::Forfeit => wire::EndReason::Forfeit,
        },
        round_points: outcome.round_points,
        levels: levels_out(outcome.levels),
    }
}

/// The wire form of one engine event, except [`HandEvent::TimedOut`] and
/// [`HandEvent::HandOver`], which the table announces with what only it knows (`None`).
pub fn event_out(event: &HandEvent) -> Option<TuolajiEvent> {
    Some(match event {
        HandEvent::Dealt { seat, card } => TuolajiEvent::Dealt {
            seat: seat.0,
            card: *card,
        },
        HandEvent::DealDone { closes_at } => TuolajiEvent::DealDone {
            closes_at: closes_at.0,
        },
        HandEvent::Bid { bid, kind, cards } => TuolajiEvent::Bid(BidShown {
            seat: bid.seat.0,
            suit: bid.suit,
            kind: bid_kind_out(*kind),
            cards: cards.to_vec(),
        }),
        HandEvent::BiddingClosed { dealer, trump } => TuolajiEvent::BiddingClosed {
            dealer: dealer.0,
            trump: *trump,
        },
        HandEvent::TrumpNamed { dealer, suit } => TuolajiEvent::TrumpNamed {
            dealer: dealer.0,
            suit: *suit,
        },
        HandEvent::BottomTaken { dealer, cards } => TuolajiEvent::BottomTaken {
            dealer: dealer.0,
            cards: cards.to_vec(),
            count: BOTTOM_SIZE as u32,
        },
        HandEvent::BottomPutBack { dealer, cards } => TuolajiEvent::BottomPutBack {
            dealer: dealer.0,
            cards: cards.to_vec(),
            count: BOTTOM_SIZE as u32,
        },
        HandEvent::ThrowFailed {
            seat,
            attempted,
            forced,
            beaten_by,
            penalty,
            defenders_points,
        } => TuolajiEvent::ThrowFailed {
            seat: seat.0,
            attempted: attempted.to_vec(),
            forced: forced.to_vec(),
            beaten_by: beaten_by.0,
            penalty: *penalty,
            defenders_points: *defenders_points,
        },
        HandEvent::Led { seat, cards, units } => TuolajiEvent::Led {
            seat: seat.0,
            cards: cards.to_vec(),
            units: units.clone(),
        },
        HandEvent::Followed { seat, cards } => TuolajiEvent::Followed {
            seat: seat.0,
            cards: cards.to_vec(),
        },
        HandEvent::TrickWon {
            winner,
            points,
            defenders_points,
            captured,
        } => TuolajiEvent::TrickWon {
            winner: winner.0,
            points: *points,
            defenders_points: *defenders_points,
            captured: captured.to_vec(),
        },
        HandEvent::TimedOut { .. } | HandEvent::HandOver { .. } => return None,
    })
}

/// What the table waits for: the phase with its deadline, and the seat that must act with
/// the action the server suggests to it (the view's `hint`, and the `turn` event's).
pub(super) fn turn(table: &TuolajiGame) -> (WirePhase, Option<(Seat, TuolajiAction)>) {
    let Some(game) = table.game.as_ref() else {
        return (WirePhase::Waiting, None);
    };
    if table.is_over() {
        return (WirePhase::Over, None);
    }
    let hand = game.hand();
    let deadline = table.turn_deadline().map_or(0, |m| m.0);
    let phase = match hand.phase() {
        Phase::Dealing => WirePhase::Dealing,
        Phase::Bidding { closes_at } => WirePhase::Bidding {
            closes_at: closes_at.0,
        },
        Phase::NamingTrump { dealer } => WirePhase::NamingTrump {
            dealer: dealer.0,
            deadline,
        },
        Phase::Bottom { dealer } => WirePhase::Bottom {
            dealer: dealer.0,
            deadline,
        },
        Phase::Leading { seat } => match table.trick_pause {
            Some(at) => WirePhase::TrickPause {
                winner: seat.0,
                leads_at: at.0,
            },
            None => WirePhase::Leading {
                seat: seat.0,
                deadline,
            },
        },
        Phase::Following { seat } => WirePhase::Following {
            seat: seat.0,
            deadline,
        },
        Phase::Done => WirePhase::BetweenHands {
            next_hand_at: table.next_hand_at.map_or(0, |m| m.0),
        },
    };
    // Nobody acts while a finished trick is on show.
    let to_act = suggest(hand).filter(|_| table.trick_pause.is_none());
    (phase, to_act)
}

/// What `viewer` may see of the table at `now` (第十一条4, 第十五条): its own hand, played
/// cards and hint for a seat only; the bottom only to the dealer from taking it on, and to
/// everybody once the hand is over; everything else alike for all.
pub fn table_view(table: &TuolajiGame, viewer: Viewer, _now: Millis) -> TuolajiView {
    let seat = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let Some(game) = table.game.as_ref() else {
        return TuolajiView {
            phase: WirePhase::Waiting,
            hand_number: 0,
            hand: seat.map(|_| Vec::new()),
            card_counts: [0; 4],
            dealt: 0,
            first_drawer: None,
            dealer: None,
            level_rank: None,
            trump: None,
            bids: Vec::new(),
            current_trick: None,
            previous_trick: None,
            played: Vec::new(),
            defenders_point_cards: Vec::new(),
            defenders_points: 0,
            levels: [2, 2],
            bottom: None,
            auto: table.auto,
            last_result: None,
            round_ends_at: None,
            last_hand: false,
            outcome: table.table_outcome(),
            hint: None,
            legal_bids: Vec::new(),
        };
    };
    let hand = game.hand();
    let (phase, to_act) = turn(table);
    let hint = match (to_act, seat) {
        (Some((to_act, action)), Some(s)) if to_act == s => Some(action),
        _ => None,
    };
    let is_dealer = seat.is_some() && seat == hand.dealer();
    let bottom_shown = match hand.phase() {
        Phase::Done => true,
        Phase::Bottom { .. } | Phase::Leading { .. } | Phase::Following { .. } => is_dealer,
        Phase::Dealing | Phase::Bidding { .. } | Phase::NamingTrump { .. } => false,
    };
    let level = hand.level();
    TuolajiView {
        phase,
        hand_number: table.hand_number,
        hand: seat.map(|s| hand.holding(s).to_vec()),
        card_counts: hand.card_counts().map(|n| n as u32),
        dealt: hand.dealt() as u32,
        first_drawer: Some(hand.first_drawer().0),
        dealer: hand.dealer().map(|s| s.0),
        level_rank: Some(level),
        trump: hand.trump(),
        bids: hand
            .bids()
            .iter()
            .map(|(bid, kind)| BidShown {
                seat: bid.seat.0,
                suit: bid.suit,
                kind: bid_kind_out(*kind),
                cards: vec![Card::new(level, bid.suit); usize::from(bid.count)],
            })
            .collect(),
        current_trick: hand.current_trick().map(trick_out),
        previous_trick: hand.previous_trick().map(trick_out),
        played: seat.map_or_else(Vec::new, |s| hand.played(s).to_vec()),
        defenders_point_cards: hand.defenders_point_cards().to_vec(),
        defenders_points: hand.score().total(),
        levels: levels_out(game.levels()),
        bottom: bottom_shown.then(|| hand.bottom().to_vec()),
        auto: table.auto,
        // Levels move only when a hand ends, so today's are those after the last result.
        last_result: game.history().last().map(|r| result_out(r, game.levels())),
        round_ends_at: game.round_ends_at().map(|m| m.0),
        // Set by the `last_hand` event, which the table sends when the call is due.
        last_hand: table.last_call_made,
        outcome: table.table_outcome(),
        hint,
        legal_bids: seat.map_or_else(Vec::new, |s| hand.legal_bids(s)),
    }
}
