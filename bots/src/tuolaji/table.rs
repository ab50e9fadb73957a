//! Tuolaji's glue for the bot client: the seat's view follows every [`TuolajiEvent`] so
//! that it equals what a new snapshot would show, hint included.
//!
//! What events cannot rebuild exactly (documented gaps, none of which a strategy needs):
//! - the `deadline` of the naming, bottom, leading and following phases: events carry no
//!   time and the view not the room's `turn_ms`, so a followed phase shows `deadline: 0`;
//! - `round_ends_at` before the `last_hand` event, when the last snapshot came before the
//!   game started (a snapshot taken later carries it, and it never changes);
//! - `next_hand_at` is 0 while the game's last hand result is shown (the server sends
//!   `over` right after it).
//!
//! Events that concern one's own cards (`led`, `followed` by oneself) need the seat: the
//! client gives it with [`Table::seat`]; it is also learnt from one's own dealt cards, the
//! bottom taken, or the seat a snapshot's hint is for.

use qipai_games::cards::Card;
use qipai_protocol::tuolaji::{Phase, Play, TrickView, TuolajiAction, TuolajiEvent, TuolajiView};
use qipai_protocol::{ClientMsg, Event, RoomOptions, Seq, View};

use super::hint::hint_for;
use super::read;
use crate::table::{Ending, Table, Verdict};

/// One seat's view of a Tuolaji table, and which seat that is (when known).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    /// The seat the view belongs to; `None` for a spectator, or until it is known.
    pub seat: Option<u8>,
    /// What the server shows that seat.
    pub view: TuolajiView,
    /// Another event of the same step is due (a trump named before the bottom is taken, a
    /// failed throw before its forced lead, a trick's last play before its winner, the
    /// last trick before the hand's end): nobody acts on such an in-between view.
    pub settling: bool,
}

impl SeatView {
    /// The view of `seat` (or of an unknown seat, or a spectator, with `None`).
    pub fn new(seat: Option<u8>, view: TuolajiView) -> SeatView {
        let seat = seat.or_else(|| view.hint.as_ref().and(read::to_act(&view.phase)));
        SeatView {
            seat,
            view,
            settling: false,
        }
    }

    /// Folds `event` into the view: afterwards it shows what a snapshot would (see the
    /// module's gaps).
    pub fn follow(&mut self, event: &TuolajiEvent) {
        fold(self, event);
        self.settling = settles(&self.view, event);
        self.view.hint = self.seat.and_then(|s| hint_for(s, &self.view));
    }
}

/// 第九条2: the bottom's six cards.
const BOTTOM_SIZE: u32 = 6;

/// The Tuolaji [`Table`].
pub struct TuolajiTable;

fn count_mut(view: &mut TuolajiView, seat: u8) -> Option<&mut u32> {
    view.card_counts.get_mut(usize::from(seat))
}

fn add_cards(view: &mut TuolajiView, cards: &[String]) {
    let (Some(hand), Some(more)) = (view.hand.as_ref(), read::cards(cards)) else {
        return;
    };
    let Some(mut held) = read::counts(hand) else {
        return;
    };
    for card in more {
        held.add(card);
    }
    view.hand = Some(read::sorted_text(&held));
}

fn remove_cards(view: &mut TuolajiView, cards: &[String]) {
    let (Some(hand), Some(gone)) = (view.hand.as_ref(), read::counts(cards)) else {
        return;
    };
    let Some(mut held) = read::counts(hand) else {
        return;
    };
    held.remove_all(&gone);
    view.hand = Some(read::sorted_text(&held));
}

/// Takes `cards` played by `seat` out of the counts and, for one's own seat, out of the
/// hand and into `played`.
fn played(sv: &mut SeatView, seat: u8, cards: &[String]) {
    let n = u32::try_from(cards.len()).unwrap_or(u32::MAX);
    if let Some(c) = count_mut(&mut sv.view, seat) {
        *c = c.saturating_sub(n);
    }
    if sv.seat == Some(seat) && sv.view.hand.is_some() {
        remove_cards(&mut sv.view, cards);
        sv.view.played.extend_from_slice(cards);
    }
}

/// 第十一条3: the point cards of a trick the defenders (not the dealer's team) won.
fn defenders_take(view: &mut TuolajiView, trick: &TrickView, winner: u8) {
    let defends = view
        .dealer
        .is_some_and(|d| read::team(d) != read::team(winner));
    if !defends {
        return;
    }
    let points = trick
        .plays
        .iter()
        .flat_map(|p| p.cards.iter())
        .filter(|c| c.parse::<Card>().is_ok_and(|c| c.points() > 0))
        .cloned();
    view.defenders_point_cards.extend(points);
}

/// Whether the server always sends another event right after `event` (same step).
fn settles(view: &TuolajiView, event: &TuolajiEvent) -> bool {
    match event {
        TuolajiEvent::BiddingClosed { trump, .. } => trump.is_some(),
        TuolajiEvent::TrumpNamed { .. } | TuolajiEvent::ThrowFailed { .. } => true,
        TuolajiEvent::Followed { .. } => view
            .current_trick
            .as_ref()
            .is_some_and(|t| t.plays.len() >= 4),
        TuolajiEvent::TrickWon { .. } => view.card_counts.iter().all(|&n| n == 0),
        TuolajiEvent::HandOver { next_hand_at, .. } => next_hand_at.is_none(),
        _ => false,
    }
}

fn fold(sv: &mut SeatView, event: &TuolajiEvent) {
    let view = &mut sv.view;
    match event {
        TuolajiEvent::HandStarted {
            hand_number,
            first_drawer,
            dealer,
            level_rank,
            levels,
        } => {
            view.phase = Phase::Dealing;
            view.hand_number = *hand_number;
            view.hand = view.hand.as_ref().map(|_| Vec::new());
            view.card_counts = [0; 4];
            view.dealt = 0;
            view.first_drawer = Some(*first_drawer);
            view.dealer = *dealer;
            view.level_rank = Some(level_rank.clone());
            view.trump = None;
            view.bids.clear();
            view.current_trick = None;
            view.previous_trick = None;
            view.played.clear();
            view.defenders_point_cards.clear();
            view.defenders_points = 0;
            view.levels = *levels;
            view.bottom = None;
        }
        TuolajiEvent::Dealt { seat, card } => {
            if let Some(c) = count_mut(view, *seat) {
                *c += 1;
            }
            view.dealt += 1;
            if let Some(card) = card {
                sv.seat = Some(*seat);
                add_cards(&mut sv.view, std::slice::from_ref(card));
            }
        }
        TuolajiEvent::DealDone { closes_at } => {
            view.phase = Phase::Bidding {
                closes_at: *closes_at,
            };
        }
        TuolajiEvent::Bid(bid) => view.bids.push(bid.clone()),
        TuolajiEvent::BiddingClosed { dealer, trump } => {
            view.dealer = Some(*dealer);
            view.trump.clone_from(trump);
            if trump.is_none() {
                view.phase = Phase::NamingTrump {
                    dealer: *dealer,
                    deadline: 0,
                };
            }
        }
        TuolajiEvent::TrumpNamed { dealer, suit } => {
            view.dealer = Some(*dealer);
            view.trump = Some(suit.clone());
        }
        TuolajiEvent::BottomTaken { dealer, cards } => {
            if let Some(c) = count_mut(view, *dealer) {
                *c += BOTTOM_SIZE;
            }
            view.phase = Phase::Bottom {
                dealer: *dealer,
                deadline: 0,
            };
            if !cards.is_empty() {
                sv.seat = Some(*dealer);
                sv.view.bottom = Some(cards.clone());
                add_cards(&mut sv.view, cards);
            }
        }
        TuolajiEvent::BottomPutBack { dealer, cards } => {
            if let Some(c) = count_mut(view, *dealer) {
                *c = c.saturating_sub(BOTTOM_SIZE);
            }
            view.phase = Phase::Leading {
                seat: *dealer,
                deadline: 0,
            };
            if !cards.is_empty() {
                sv.seat = Some(*dealer);
                sv.view.bottom = Some(cards.clone());
                remove_cards(&mut sv.view, cards);
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
                plays: vec![Play {
                    seat: *seat,
                    cards: cards.clone(),
                }],
                winner: None,
            });
            view.phase = Phase::Following {
                seat: read::next_seat(*seat),
                deadline: 0,
            };
            played(sv, *seat, cards);
        }
        TuolajiEvent::Followed { seat, cards } => {
            let next = read::next_seat(*seat);
            if let Some(trick) = view.current_trick.as_mut() {
                trick.plays.push(Play {
                    seat: *seat,
                    cards: cards.clone(),
                });
                if trick.leader != next {
                    view.phase = Phase::Following {
                        seat: next,
                        deadline: 0,
                    };
                }
            }
            played(sv, *seat, cards);
        }
        TuolajiEvent::TrickWon {
            winner,
            defenders_points,
            ..
        } => {
            if let Some(mut trick) = view.current_trick.take() {
                trick.winner = Some(*winner);
                defenders_take(view, &trick, *winner);
                view.previous_trick = Some(trick);
            }
            view.defenders_points = *defenders_points;
            view.phase = Phase::Leading {
                seat: *winner,
                deadline: 0,
            };
        }
        TuolajiEvent::HandOver {
            result,
            next_hand_at,
        } => {
            view.phase = Phase::BetweenHands {
                next_hand_at: next_hand_at.unwrap_or(0),
            };
            view.bottom = Some(result.bottom.clone());
            view.levels = result.levels;
            view.defenders_points = result.defenders_points;
            view.last_result = Some(result.clone());
        }
        TuolajiEvent::Auto { seat, reason } => {
            if let Some(a) = view.auto.get_mut(usize::from(*seat)) {
                *a = *reason;
            }
        }
        TuolajiEvent::LastHand { round_ends_at } => {
            view.last_hand = true;
            view.round_ends_at = Some(*round_ends_at);
        }
        TuolajiEvent::GameOver { outcome } => {
            view.phase = Phase::Over;
            view.outcome = Some(*outcome);
        }
    }
}

/// Whether `seat` could show level cards now (第十条): during the deal or the bid window,
/// holding more identical level cards of one suit than the standing bid shows (or than
/// its own standing bid, to strengthen), while the standing bid is below three.
fn may_bid(view: &TuolajiView, seat: u8) -> bool {
    if !matches!(view.phase, Phase::Dealing | Phase::Bidding { .. }) {
        return false;
    }
    let standing = view.bids.last().map_or(0, |b| b.cards.len());
    if view.bids.last().is_some_and(|b| b.seat != seat) && standing >= 3 {
        return false;
    }
    most_level_cards(view) > standing
}

/// The most identical level cards of one suit in the seat's hand.
fn most_level_cards(view: &TuolajiView) -> usize {
    let (Some(level), Some(held)) = (
        view.level_rank.as_deref().and_then(read::rank),
        read::holding(view),
    ) else {
        return 0;
    };
    held.iter()
        .filter(|(c, _)| c.rank() == Some(level))
        .map(|(_, n)| usize::from(n))
        .max()
        .unwrap_or(0)
}

fn phase_code(phase: &Phase) -> u64 {
    match phase {
        Phase::Waiting => 0,
        Phase::Dealing => 1,
        Phase::Bidding { .. } => 2,
        Phase::NamingTrump { .. } => 3,
        Phase::Bottom { .. } => 4,
        Phase::Leading { .. } => 5,
        Phase::Following { .. } => 6,
        Phase::BetweenHands { .. } => 7,
        Phase::Over => 8,
    }
}

impl Table for TuolajiTable {
    type View = SeatView;
    type Event = TuolajiEvent;
    type Action = TuolajiAction;

    fn view(view: View) -> Option<SeatView> {
        match view {
            View::Tuolaji(v) => Some(SeatView::new(None, *v)),
            View::Xiangqi(_) => None,
        }
    }

    fn seat(view: &mut SeatView, seat: Option<u8>) {
        if seat.is_some() {
            view.seat = seat;
            view.view.hint = seat.and_then(|s| hint_for(s, &view.view));
        }
    }

    fn event(event: Event) -> Option<TuolajiEvent> {
        match event {
            Event::Tuolaji(e) => Some(e),
            Event::Room(_) | Event::Xiangqi(_) => None,
        }
    }

    fn follow(view: &mut SeatView, event: &TuolajiEvent) {
        view.follow(event);
    }

    fn started(view: &SeatView) -> bool {
        view.view.phase != Phase::Waiting
    }

    /// The seat must name the trump, put back the bottom, lead or follow; or it may bid
    /// (the strategy then answers `None` when it does not want to).
    fn must_act(view: &SeatView, seat: u8) -> bool {
        !view.settling
            && view.view.outcome.is_none()
            && (read::to_act(&view.view.phase) == Some(seat) || may_bid(&view.view, seat))
    }

    /// Changes with every card played, bid, phase and hand, and with the level cards the
    /// seat gets during the deal (a new chance to bid).
    fn turn(view: &SeatView) -> u64 {
        let v = &view.view;
        // During the deal only bids and one's level cards matter: a card dealt to
        // somebody else is no new decision.
        let cards_out: u64 = match v.phase {
            Phase::Dealing | Phase::Bidding { .. } => 0,
            _ => v.card_counts.iter().map(|&n| u64::from(n)).sum(),
        };
        let bids = u64::try_from(v.bids.len()).unwrap_or(0) & 0xff;
        let level_cards = u64::try_from(most_level_cards(v)).unwrap_or(0) & 0xf;
        (u64::from(v.hand_number) << 32)
            | (phase_code(&v.phase) << 24)
            | (bids << 16)
            | (level_cards << 12)
            | (cards_out & 0xfff)
    }

    /// `plies` counts the hands dealt.
    fn ending(view: &SeatView, seat: u8) -> Option<Ending> {
        let outcome = view.view.outcome?;
        let verdict = match outcome.winner {
            Some(team) if team == read::team(seat) => Verdict::Win,
            Some(_) => Verdict::Loss,
            None if outcome.reason == qipai_protocol::tuolaji::EndReason::Abandoned => {
                Verdict::NoResult
            }
            None => Verdict::Draw,
        };
        Some(Ending {
            verdict,
            reason: format!("{:?}", outcome.reason),
            plies: usize::try_from(view.view.hand_number).unwrap_or(usize::MAX),
        })
    }

    fn request(seq: Seq, action: TuolajiAction) -> ClientMsg {
        ClientMsg::Tuolaji { seq, action }
    }

    /// Tuolaji has no resignation: a seat left alone is played by the server.
    fn resignation(_seq: Seq) -> Option<ClientMsg> {
        None
    }

    fn accepts(options: &RoomOptions) -> bool {
        matches!(options, RoomOptions::Tuolaji(_))
    }
}
