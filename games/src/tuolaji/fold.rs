//! The one fold of a Tuolaji table: a viewer's [`TuolajiView`] and the next event give the
//! next view, exactly as the server's snapshot would show it (a property test,
//! `games/tests/tuolaji_fold.rs`, checks this at every step of random games, for every seat
//! and a spectator). The bots follow a table with it; `web/tuolaji.js` `applyEvent` is a
//! line-by-line port of it. A client needs a snapshot only to join, to reconnect or after a
//! gap in `event_seq`.
//!
//! It restates no rule: what an event changes is in the event (the cards captured, the
//! bottom's size, the next phase and deadline in `turn`, a seat's legal bids in
//! `legal_bids`). Sorting a seat's cards uses the
//! cards' own order ([`CardCounts`]), the one the snapshot uses.

use qipai_protocol::tuolaji::{Play, TrickView, TuolajiEvent, TuolajiView};

use crate::cards::{Card, CardCounts};
use crate::Viewer;

/// Applies `event` to `view`, the view of `viewer`. Events this view cannot have been sent
/// (a card dealt to another seat shown, say) change only what they can; nothing panics.
pub fn fold(view: &mut TuolajiView, viewer: Viewer, event: &TuolajiEvent) {
    let me = match viewer {
        Viewer::Seat(s) => Some(s.0),
        Viewer::Spectator => None,
    };
    match event {
        TuolajiEvent::HandStarted {
            hand_number,
            first_drawer,
            dealer,
            level_rank,
            levels,
            round_ends_at,
        } => {
            view.hand_number = *hand_number;
            view.hand = me.map(|_| Vec::new());
            view.card_counts = [0; 4];
            view.dealt = 0;
            view.first_drawer = Some(*first_drawer);
            view.dealer = *dealer;
            view.level_rank = Some(*level_rank);
            view.trump = None;
            view.bids.clear();
            view.current_trick = None;
            view.previous_trick = None;
            view.played.clear();
            view.defenders_point_cards.clear();
            view.defenders_points = 0;
            view.levels = *levels;
            view.bottom = None;
            view.round_ends_at = *round_ends_at;
        }
        TuolajiEvent::Dealt { seat, card } => {
            add_count(view, *seat, 1);
            view.dealt += 1;
            if me == Some(*seat) {
                if let Some(card) = card {
                    take_in(view, std::slice::from_ref(card));
                }
            }
        }
        TuolajiEvent::DealtCards { seat, cards, count } => {
            add_count(view, *seat, i64::from(*count));
            view.dealt = view.dealt.saturating_add(*count);
            if me == Some(*seat) {
                take_in(view, cards);
            }
        }
        // The bid window's end comes with the `turn` that follows.
        TuolajiEvent::DealDone { .. } => {}
        // The trump is fixed only when bidding closes.
        TuolajiEvent::Bid(shown) => view.bids.push(shown.clone()),
        TuolajiEvent::BiddingClosed { dealer, trump } => {
            view.dealer = Some(*dealer);
            view.trump = *trump;
        }
        TuolajiEvent::TrumpNamed { dealer, suit } => {
            view.dealer = Some(*dealer);
            view.trump = Some(*suit);
        }
        TuolajiEvent::BottomTaken {
            dealer,
            cards,
            count,
        } => {
            add_count(view, *dealer, i64::from(*count));
            if me == Some(*dealer) {
                take_in(view, cards);
                view.bottom = Some(cards.clone());
            }
        }
        TuolajiEvent::BottomPutBack {
            dealer,
            cards,
            count,
        } => {
            add_count(view, *dealer, -i64::from(*count));
            if me == Some(*dealer) {
                give_up(view, cards);
                view.bottom = Some(cards.clone());
            }
        }
        TuolajiEvent::ThrowFailed {
            defenders_points, ..
        } => view.defenders_points = *defenders_points,
        TuolajiEvent::Led { seat, cards, units } => {
            view.previous_trick = None;
            view.current_trick = Some(TrickView {
                leader: *seat,
                units: units.clone(),
                plays: Vec::new(),
                winner: None,
            });
            play(view, me, *seat, cards);
        }
        TuolajiEvent::Followed { seat, cards } => play(view, me, *seat, cards),
        TuolajiEvent::TrickWon {
            winner,
            defenders_points,
            captured,
            ..
        } => {
            if let Some(mut trick) = view.current_trick.take() {
                trick.winner = Some(*winner);
                view.previous_trick = Some(trick);
            }
            view.defenders_points = *defenders_points;
            view.defenders_point_cards.extend(captured.iter().cloned());
        }
        TuolajiEvent::HandOver { result, .. } => {
            view.defenders_points = result.defenders_points;
            view.levels = result.levels;
            view.bottom = Some(result.bottom.clone());
            view.last_result = Some(result.clone());
        }
        TuolajiEvent::Auto { seat, reason } => {
            if let Some(slot) = view.auto.get_mut(usize::from(*seat)) {
                *slot = *reason;
            }
        }
        TuolajiEvent::LastHand { round_ends_at } => {
            view.last_hand = true;
            view.round_ends_at = Some(*round_ends_at);
        }
        TuolajiEvent::GameOver { outcome } => view.outcome = Some(*outcome),
        TuolajiEvent::Turn { phase, hint } => {
            view.phase = *phase;
            view.hint = hint.clone();
        }
        TuolajiEvent::LegalBids { seat, bids } => {
            if me == Some(*seat) {
                view.legal_bids = bids.clone();
            }
        }
    }
}

/// `seat` played `cards` into the current trick.
fn play(view: &mut TuolajiView, me: Option<u8>, seat: u8, cards: &[Card]) {
    if let Some(trick) = view.current_trick.as_mut() {
        trick.plays.push(Play {
            seat,
            cards: cards.to_vec(),
        });
    }
    add_count(view, seat, -(cards.len() as i64));
    if me == Some(seat) {
        give_up(view, cards);
        view.played.extend_from_slice(cards);
    }
}

fn add_count(view: &mut TuolajiView, seat: u8, by: i64) {
    if let Some(n) = view.card_counts.get_mut(usize::from(seat)) {
        *n = u32::try_from((i64::from(*n) + by).max(0)).unwrap_or(u32::MAX);
    }
}

/// The viewer's own cards with `cards` added, in the cards' order.
fn take_in(view: &mut TuolajiView, cards: &[Card]) {
    let Some(hand) = view.hand.as_mut() else {
        return;
    };
    let counts: CardCounts = hand.iter().chain(cards).copied().collect();
    *hand = counts.to_vec();
}

/// The viewer's own cards with one of each of `cards` taken out.
fn give_up(view: &mut TuolajiView, cards: &[Card]) {
    let Some(hand) = view.hand.as_mut() else {
        return;
    };
    for card in cards {
        if let Some(i) = hand.iter().position(|c| c == card) {
            hand.remove(i);
        }
    }
}
