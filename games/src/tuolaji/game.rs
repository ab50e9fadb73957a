//! A Tuolaji table as the room drives it: the [`Game`] trait over [`Match`], with the
//! deal's pace, the bid window, turn timers, the pause between hands and the round's time
//! limit all as deadlines (rules page, "Time online" **[D]**).
//!
//! - The deal: one card per `deal_interval_ms` (with 0, the whole deal in one burst, a
//!   `dealt_cards` per seat: [`gather_dealt`]). Each card reaches only its receiver; the
//!   others learn that a card was dealt ([`Emit::Split`]).
//! - A seat whose time runs out gets the engine's suggestion played for it and is marked
//!   auto-played ([`AutoReason::TimedOut`]) until it acts again; its later turns still wait
//!   the full time, so the player can take over by acting **[D]**.
//! - A seat left by its player ([`Game::forfeit`]) is played by the server at once
//!   ([`AutoReason::Vacant`]) until somebody sits there again ([`Game::reseat`], allowed at
//!   any moment: the newcomer sees exactly what the seat sees). When every seat is vacant,
//!   the game ends with no result.
//! - A finished trick stays on the table, its winner marked, for `trick_pause_ms` **[D]**:
//!   nobody may lead meanwhile, and the winner's turn (and its time) starts after it, so
//!   people, bots and auto-played seats all keep the same pace.
//! - After a hand, the result stays on the table for `between_hands_ms`; then the next hand
//!   is dealt from a seed derived from the table's ([`hand_seed`]).

use qipai_protocol::tuolaji::{
    AutoReason, EndReason, Outcome, Phase as WirePhase, TuolajiAction, TuolajiEvent,
};
use qipai_protocol::ErrorCode;

use crate::cards::Card;

use super::error::TuolajiError;
use super::hand::HandEvent;
use super::level::Team;
use super::matchplay::Match;
use super::options::TuolajiRules;
use super::ruling::TuolajiRuling;
use super::suggest::suggest;
use super::view::{event_out, levels_out, outcome_out, result_out, turn};
use crate::competition::lateness::{started_units, tuolaji_lateness, TuolajiLateness};
use crate::{Coded, Emit, Game, Millis, Received, Seat, Viewer};

/// The most steps one call of [`Game::on_deadline`] takes, so that a table playing itself
/// (zero timings, vacant seats) still hands control back to the room now and then.
const MAX_STEPS_PER_CALL: usize = 64;

/// A Tuolaji table's settings: the rules page's options and the table's own timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuolajiSettings {
    /// Every timing and rule option of the rules page.
    pub rules: TuolajiRules,
    /// The pause between a hand's result and the next deal **[D]**. Default 8000 ms.
    pub between_hands_ms: u64,
    /// How long a finished trick stays on the table, its winner marked, before the winner
    /// may lead **[D]** (0: none). Default 1200 ms.
    pub trick_pause_ms: u64,
}

impl Default for TuolajiSettings {
    fn default() -> TuolajiSettings {
        TuolajiSettings {
            rules: TuolajiRules::default(),
            between_hands_ms: 8000,
            trick_pause_ms: 1200,
        }
    }
}

/// Why a Tuolaji action was refused. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TuolajiGameError {
    /// The rules refuse it (the message names the article).
    #[error(transparent)]
    Rule(#[from] TuolajiError),
    /// Seats are still empty.
    #[error("the game has not started: seats are still empty")]
    NotStarted,
    /// The finished trick is still on the table: nobody leads before `leads_at`.
    #[error("the last trick is still on the table: the next lead opens at {leads_at} ms")]
    TrickOnTable { leads_at: u64 },
}

impl Coded for TuolajiGameError {
    fn code(&self) -> ErrorCode {
        match self {
            TuolajiGameError::Rule(e) => e.code(),
            TuolajiGameError::NotStarted => ErrorCode::NotStarted,
            TuolajiGameError::TrickOnTable { .. } => ErrorCode::TrickOnTable,
        }
    }

    fn splits(&self) -> Option<Vec<Vec<Vec<Card>>>> {
        match self {
            TuolajiGameError::Rule(TuolajiError::DeclareStructure { splits }) => {
                Some(splits.clone())
            }
            _ => None,
        }
    }

    fn details(&self) -> Option<qipai_protocol::ErrorDetails> {
        match self {
            TuolajiGameError::Rule(e) => e.details(),
            _ => None,
        }
    }
}

/// The seed of hand `number` (1 for the first) of a table seeded with `seed`: a replay
/// through [`Match`] alone deals the same cards with these.
pub fn hand_seed(seed: u64, number: u32) -> u64 {
    // splitmix64: neighbouring hands get unrelated deals.
    let mut z = seed.wrapping_add(u64::from(number).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The announcement of hand `number` of `game`, just dealt.
fn hand_started(number: u32, game: &Match) -> Emit<TuolajiEvent> {
    let hand = game.hand();
    Emit::All(TuolajiEvent::HandStarted {
        hand_number: number,
        first_drawer: hand.first_drawer().0,
        dealer: hand.dealer().map(|s| s.0),
        level_rank: hand.level(),
        levels: levels_out(game.levels()),
        round_ends_at: game.round_ends_at().map(|m| m.0),
    })
}

/// A step the table takes by itself when its time comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// 五(一)3: announce that the hand in progress is the last one.
    LastCall,
    /// Deal the next hand.
    NextHand,
    /// The finished trick's time on the table is over: its winner's turn to lead begins.
    PauseOver,
    /// Play the suggestion for a vacant seat.
    Vacant(Seat),
    /// The hand's own deadline: a card, the bid window, a time-out.
    Hand,
}

/// One table of four.
#[derive(Clone, Debug)]
pub struct TuolajiGame {
    settings: TuolajiSettings,
    seed: u64,
    /// The game, once every seat is filled.
    pub(super) game: Option<Match>,
    /// The number of the hand on the table (1 for the first).
    pub(super) hand_number: u32,
    /// When the last step of the hand happened: a vacant seat acts from then.
    step_at: Millis,
    /// When the next hand is dealt, while a finished hand is on the table.
    pub(super) next_hand_at: Option<Millis>,
    /// When the winner of the trick on the table may lead, while it is on show
    /// (`trick_pause_ms`).
    pub(super) trick_pause: Option<Millis>,
    /// Seats the server plays, and why.
    pub(super) auto: [Option<AutoReason>; 4],
    /// Whether the last hand has been called (五(一)3).
    pub(super) last_call_made: bool,
    /// Set when the game ended outside the rules (every seat vacant, or an engine fault).
    pub(super) abandoned: Option<Outcome>,
    /// The last `turn` announced: the phase, and the seat to act with its hint.
    last_turn: Option<(WirePhase, Option<(Seat, TuolajiAction)>)>,
    /// Each seat's legal bids as last sent (the `legal_bids` event).
    last_bids: [Vec<Vec<Card>>; 4],
    /// A competition's table: when its round started and how long a lateness "minute" is
    /// ([`TuolajiRuling::RoundStarted`]).
    round_started: Option<(Millis, u64)>,
    /// A competition's table: each pair's lateness as ruled before the start (第十三条).
    late: [Option<TuolajiLateness>; 2],
}

impl TuolajiGame {
    /// The game across hands, once started.
    pub fn game(&self) -> Option<&Match> {
        self.game.as_ref()
    }

    /// The table's seed (each hand's deal comes from [`hand_seed`]).
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// The outcome as the table's view shows it, once over.
    pub fn table_outcome(&self) -> Option<Outcome> {
        self.abandoned
            .or_else(|| self.game.as_ref()?.outcome().map(outcome_out))
    }

    /// No hand is being dealt or played: before the first deal, or a finished hand on the
    /// table waiting for the next.
    fn between_hands(&self) -> bool {
        self.game.as_ref().is_none_or(|g| g.hand().is_done())
    }

    fn is_vacant(&self, seat: Seat) -> bool {
        self.auto.get(seat.index()) == Some(&Some(AutoReason::Vacant))
    }

    /// The deadline of the seat that must act: at once for a vacant seat, else the hand's;
    /// none while a finished trick is on show.
    pub(super) fn turn_deadline(&self) -> Option<Millis> {
        let game = self.game.as_ref()?;
        if self.trick_pause.is_some() {
            return None;
        }
        match game.hand().phase().to_act() {
            Some(seat) if self.is_vacant(seat) => Some(self.step_at),
            _ => game.deadline(),
        }
    }

    /// What is due at `now`, if anything.
    fn due(&self, now: Millis) -> Option<Step> {
        let game = self.game.as_ref()?;
        if self.is_over() {
            return None;
        }
        if !self.last_call_made && game.last_call_at().is_some_and(|at| at <= now) {
            return Some(Step::LastCall);
        }
        if game.hand().is_done() {
            return self
                .next_hand_at
                .is_some_and(|at| at <= now)
                .then_some(Step::NextHand);
        }
        if let Some(at) = self.trick_pause {
            return (at <= now).then_some(Step::PauseOver);
        }
        match game.hand().phase().to_act() {
            Some(seat) if self.is_vacant(seat) => {
                return (self.step_at <= now).then_some(Step::Vacant(seat))
            }
            _ => {}
        }
        game.deadline()
            .is_some_and(|at| at <= now)
            .then_some(Step::Hand)
    }

    fn take(&mut self, step: Step, now: Millis) -> Vec<Emit<TuolajiEvent>> {
        let Some(game) = self.game.as_mut() else {
            return Vec::new();
        };
        let result = match step {
            Step::LastCall => {
                self.last_call_made = true;
                let mut out: Vec<_> = game
                    .round_ends_at()
                    .map(|at| {
                        Emit::All(TuolajiEvent::LastHand {
                            round_ends_at: at.0,
                        })
                    })
                    .into_iter()
                    .collect();
                // 五(一)3: called between hands, the next hand does not start.
                if let Some(outcome) = game.call_last_hand() {
                    self.next_hand_at = None;
                    out.push(Emit::All(TuolajiEvent::GameOver {
                        outcome: outcome_out(outcome),
                    }));
                }
                return out;
            }
            Step::NextHand => {
                let number = self.hand_number + 1;
                match game.next_hand(hand_seed(self.seed, number), now) {
                    Ok(()) => {
                        let started = hand_started(number, game);
                        self.hand_number = number;
                        self.next_hand_at = None;
                        self.step_at = now;
                        return vec![started];
                    }
                    Err(e) => Err(e),
                }
            }
            Step::PauseOver => {
                self.trick_pause = None;
                self.step_at = now;
                return Vec::new();
            }
            Step::Vacant(seat) => match suggest(game.hand()) {
                Some((s, action)) if s == seat => game.apply(seat, action, now),
                _ => Err(TuolajiError::NotYourTurn {
                    expected: seat.0,
                    action: "act",
                }),
            },
            Step::Hand => game.on_deadline(now),
        };
        match result {
            Ok(events) => self.publish(events, now),
            // Every step the table takes by itself is one the engine accepts (its property
            // tests play whole games by time-outs); should one ever be refused, the table
            // ends rather than retry the same step for ever.
            Err(_) => self.abandon(),
        }
    }

    /// 第十三条 for `team` ([`Match::lateness`]): a first hand forfeited deals the next hand
    /// at once; a round forfeited ends the game; a ruling that comes too late (the first
    /// hand over) changes nothing. The events, without the turn that follows.
    fn apply_late(
        &mut self,
        team: Team,
        band: TuolajiLateness,
        now: Millis,
    ) -> Vec<Emit<TuolajiEvent>> {
        let Some(game) = self.game.as_mut() else {
            return Vec::new();
        };
        let number = self.hand_number + 1;
        match game.lateness(team, band, hand_seed(self.seed, number), now) {
            Ok(true) => {
                let started = hand_started(number, game);
                self.hand_number = number;
                self.next_hand_at = None;
                self.step_at = now;
                vec![started]
            }
            Ok(false) => match game.outcome() {
                Some(outcome) => vec![Emit::All(TuolajiEvent::GameOver {
                    outcome: outcome_out(outcome),
                })],
                None => Vec::new(),
            },
            Err(_) => Vec::new(),
        }
    }

    /// Ends a step: each seat whose legal bids changed gets a `legal_bids` event (the list
    /// to that seat only); when what the table waits for changed, `out` gets a `turn` event
    /// last, with the hint to the seat that must act only.
    fn with_turn(&mut self, mut out: Vec<Emit<TuolajiEvent>>) -> Vec<Emit<TuolajiEvent>> {
        let Some(game) = self.game.as_ref() else {
            return out;
        };
        // 第十条: each seat whose legal bids changed learns them, privately.
        for (seat, sent) in (0u8..).zip(self.last_bids.iter_mut()) {
            let bids = game.hand().legal_bids(Seat(seat));
            if *sent != bids {
                *sent = bids.clone();
                out.push(Emit::Split {
                    seat: Seat(seat),
                    own: TuolajiEvent::LegalBids { seat, bids },
                    others: TuolajiEvent::LegalBids {
                        seat,
                        bids: Vec::new(),
                    },
                });
            }
        }
        let now = turn(self);
        if self.last_turn.as_ref() == Some(&now) {
            return out;
        }
        let (phase, to_act) = now.clone();
        self.last_turn = Some(now);
        out.push(match to_act {
            Some((seat, hint)) => Emit::Split {
                seat,
                own: TuolajiEvent::Turn {
                    phase,
                    hint: Some(hint),
                },
                others: TuolajiEvent::Turn { phase, hint: None },
            },
            None => Emit::All(TuolajiEvent::Turn { phase, hint: None }),
        });
        out
    }

    /// Ends the game with no result.
    fn abandon(&mut self) -> Vec<Emit<TuolajiEvent>> {
        let levels = self
            .game
            .as_ref()
            .map_or([2, 2], |g| levels_out(g.levels()));
        let outcome = Outcome {
            winner: None,
            reason: EndReason::Abandoned,
            round_points: [0, 0],
            levels,
        };
        self.abandoned = Some(outcome);
        vec![Emit::All(TuolajiEvent::GameOver { outcome })]
    }

    /// A trick was just won: while the hand goes on, the trick stays on show for
    /// `trick_pause_ms` and the winner's time to lead counts from its end.
    fn hold_trick(&mut self, now: Millis) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if self.settings.trick_pause_ms == 0 || game.hand().is_done() {
            return;
        }
        let at = now + Millis(self.settings.trick_pause_ms);
        game.hold_lead_until(at);
        self.trick_pause = Some(at);
    }

    fn set_auto(&mut self, seat: Seat, reason: Option<AutoReason>) -> Option<Emit<TuolajiEvent>> {
        let slot = self.auto.get_mut(seat.index())?;
        if *slot == reason {
            return None;
        }
        *slot = reason;
        Some(Emit::All(TuolajiEvent::Auto {
            seat: seat.0,
            reason,
        }))
    }

    /// Turns the engine's events into the table's: private ones split, time-outs marked,
    /// the hand's end announced with the levels and the next deal, the game's end.
    fn publish(&mut self, events: Vec<HandEvent>, now: Millis) -> Vec<Emit<TuolajiEvent>> {
        self.step_at = now;
        self.trick_pause = None;
        let trick_won = events
            .iter()
            .any(|e| matches!(e, HandEvent::TrickWon { .. }));
        let mut out = Vec::new();
        for event in events {
            match &event {
                HandEvent::TimedOut { seat } => {
                    if !self.is_vacant(*seat) {
                        out.extend(self.set_auto(*seat, Some(AutoReason::TimedOut)));
                    }
                }
                HandEvent::HandOver { result } => {
                    let Some(game) = self.game.as_ref() else {
                        continue;
                    };
                    let over = game.outcome().is_some();
                    let next = (!over).then(|| now + Millis(self.settings.between_hands_ms));
                    self.next_hand_at = next;
                    out.push(Emit::All(TuolajiEvent::HandOver {
                        result: result_out(result, game.levels()),
                        next_hand_at: next.map(|m| m.0),
                    }));
                    if let Some(outcome) = game.outcome() {
                        out.push(Emit::All(TuolajiEvent::GameOver {
                            outcome: outcome_out(outcome),
                        }));
                    }
                }
                _ => {
                    let Some(own) = event_out(&event) else {
                        continue;
                    };
                    match event.private_to() {
                        Some(seat) => {
                            // The redacted form always converts; without it nothing is sent
                            // rather than the hidden cards.
                            if let Some(others) = event_out(&event.redacted()) {
                                out.push(Emit::Split { seat, own, others });
                            }
                        }
                        None => out.push(Emit::All(own)),
                    }
                }
            }
        }
        if trick_won {
            self.hold_trick(now);
        }
        out
    }
}

/// 第九条1 without a pause between cards (`deal_interval_ms` 0): the cards drawn in one call
/// go out as one `dealt_cards` per seat (its cards to that seat, how many to the others),
/// where the first of them was, instead of one event per card: nobody can act between
/// them, and a card each was four frames per card, 624 a hand. A single card stays `dealt`.
fn gather_dealt(out: Vec<Emit<TuolajiEvent>>) -> Vec<Emit<TuolajiEvent>> {
    let is_dealt = |e: &Emit<TuolajiEvent>| matches!(e.public(), TuolajiEvent::Dealt { .. });
    if out.iter().filter(|e| is_dealt(e)).nth(1).is_none() {
        return out;
    }
    let mut cards: [Vec<Card>; 4] = Default::default();
    let mut counts = [0u32; 4];
    let mut gathered = Vec::with_capacity(out.len());
    let mut at = None;
    for emit in out {
        match emit {
            Emit::Split {
                seat,
                own: TuolajiEvent::Dealt { card, .. },
                ..
            } if seat.index() < 4 => {
                at.get_or_insert(gathered.len());
                counts[seat.index()] += 1;
                cards[seat.index()].extend(card);
            }
            other => gathered.push(other),
        }
    }
    let groups = (0u8..)
        .zip(cards.into_iter().zip(counts))
        .filter(|(_, (_, count))| *count > 0)
        .map(|(seat, (cards, count))| Emit::Split {
            seat: Seat(seat),
            own: TuolajiEvent::DealtCards { seat, cards, count },
            others: TuolajiEvent::DealtCards {
                seat,
                cards: Vec::new(),
                count,
            },
        });
    let at = at.unwrap_or(gathered.len());
    gathered.splice(at..at, groups);
    gathered
}

impl Game for TuolajiGame {
    type Options = TuolajiSettings;
    type Action = TuolajiAction;
    type View = qipai_protocol::tuolaji::TuolajiView;
    type Event = TuolajiEvent;
    type Error = TuolajiGameError;
    type Ruling = TuolajiRuling;

    const SEATS: u8 = 4;

    fn new(options: &TuolajiSettings, seed: u64) -> TuolajiGame {
        TuolajiGame {
            settings: options.clone(),
            seed,
            game: None,
            hand_number: 0,
            step_at: Millis::ZERO,
            next_hand_at: None,
            trick_pause: None,
            auto: [None; 4],
            last_call_made: false,
            abandoned: None,
            last_turn: None,
            last_bids: Default::default(),
            round_started: None,
            late: [None; 2],
        }
    }

    /// 第八条1: both teams at 2; the first hand is dealt from [`hand_seed`]`(seed, 1)`. At a
    /// competition's table (rulings given before the start) the round clock runs from the
    /// round's start and each pair's lateness (第十三条) is applied now: as ruled, or as late
    /// as now for a pair not ruled.
    fn start(&mut self, now: Millis) -> Vec<Emit<TuolajiEvent>> {
        if self.game.is_some() || self.abandoned.is_some() {
            return Vec::new();
        }
        match Match::new(&self.settings.rules, hand_seed(self.seed, 1), now) {
            Ok(mut game) => {
                // A competition's round clock runs from the round's start.
                if let Some((at, _)) = self.round_started {
                    game.count_round_from(at);
                }
                let started = hand_started(1, &game);
                self.game = Some(game);
                self.hand_number = 1;
                self.step_at = now;
                let mut out = vec![started];
                // 第十三条, applied with the start itself (one step: nothing between the
                // start and the rulings to lose): each pair as ruled, or as late as now.
                for team in Team::ALL {
                    let band = self.late[team.index()].or_else(|| {
                        self.round_started.map(|(at, unit)| {
                            tuolaji_lateness(started_units(now.saturating_sub(at), unit))
                        })
                    });
                    if let Some(band) = band {
                        out.extend(self.apply_late(team, band, now));
                    }
                }
                if self.is_over() {
                    out
                } else {
                    self.with_turn(out)
                }
            }
            // Options the engine does not play are refused when the table is created; a
            // table built around that check closes at once.
            Err(_) => self.abandon(),
        }
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: TuolajiAction,
        received: Received,
    ) -> Result<Vec<Emit<TuolajiEvent>>, TuolajiGameError> {
        if self.abandoned.is_some() {
            return Err(TuolajiError::MatchOver.into());
        }
        let now = received.at;
        let game = self.game.as_mut().ok_or(TuolajiGameError::NotStarted)?;
        if let Some(at) = self.trick_pause.filter(|at| now < *at) {
            return Err(TuolajiGameError::TrickOnTable { leads_at: at.0 });
        }
        let events = game.apply(seat, action, now)?;
        let mut out: Vec<Emit<TuolajiEvent>> = self.set_auto(seat, None).into_iter().collect();
        out.extend(self.publish(events, now));
        Ok(self.with_turn(out))
    }

    fn deadline(&self) -> Option<Millis> {
        let game = self.game.as_ref()?;
        if self.is_over() {
            return None;
        }
        let last_call = game.last_call_at().filter(|_| !self.last_call_made);
        let step = if game.hand().is_done() {
            self.next_hand_at
        } else {
            self.trick_pause.or_else(|| self.turn_deadline())
        };
        match (last_call, step) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn on_deadline(&mut self, now: Millis) -> Vec<Emit<TuolajiEvent>> {
        let mut out = Vec::new();
        for _ in 0..MAX_STEPS_PER_CALL {
            let Some(step) = self.due(now) else {
                break;
            };
            out.extend(self.take(step, now));
        }
        self.with_turn(gather_dealt(out))
    }

    /// The seat is played by the server at once from now on; with every seat vacant the
    /// table closes with no result.
    fn forfeit(&mut self, seat: Seat, _now: Millis) -> Vec<Emit<TuolajiEvent>> {
        if self.game.is_none() || self.is_over() {
            return Vec::new();
        }
        let mut out: Vec<_> = self
            .set_auto(seat, Some(AutoReason::Vacant))
            .into_iter()
            .collect();
        if self.auto.iter().all(|a| *a == Some(AutoReason::Vacant)) {
            out.extend(self.abandon());
        }
        self.with_turn(out)
    }

    /// A vacant seat may be taken between hands only: during a hand the newcomer would
    /// see the seat's cards, a channel for a player at the table to read another's hand.
    fn can_reseat(&self, seat: Seat) -> bool {
        self.is_vacant(seat) && self.between_hands()
    }

    /// A person may take a bot's seat between hands only, for the same reason (the seat's
    /// own player, coming back with their token, takes it back at any time: the room
    /// handles that).
    fn can_replace(&self, _seat: Seat) -> bool {
        self.between_hands()
    }

    fn reseat(&mut self, seat: Seat, _now: Millis) -> Vec<Emit<TuolajiEvent>> {
        let out = self.set_auto(seat, None).into_iter().collect();
        self.with_turn(out)
    }

    /// A competition's rulings. Before the start: the round's start ([`TuolajiRuling::RoundStarted`],
    /// the last one given stands) and each pair's lateness band (the first one given for a
    /// pair stands), both applied by [`Game::start`]. After it, 第十三条 at once
    /// ([`Match::lateness`]): a first hand forfeited deals the next hand at once; a round
    /// forfeited ends the game; a ruling that comes too late (the first hand over) changes
    /// nothing.
    fn rule(&mut self, ruling: TuolajiRuling, now: Millis) -> Vec<Emit<TuolajiEvent>> {
        if self.abandoned.is_some() {
            return Vec::new();
        }
        let started = self.game.is_some();
        match ruling {
            TuolajiRuling::RoundStarted {
                ago,
                lateness_unit_ms,
            } => {
                if !started {
                    self.round_started = Some((now.saturating_sub(ago), lateness_unit_ms));
                }
                Vec::new()
            }
            TuolajiRuling::Late { seat, band } if !started => {
                let slot = &mut self.late[Team::of(seat).index()];
                if slot.is_none() {
                    *slot = Some(band);
                }
                Vec::new()
            }
            TuolajiRuling::Late { seat, band } => {
                let out = self.apply_late(Team::of(seat), band, now);
                if self.is_over() || out.is_empty() {
                    out
                } else {
                    self.with_turn(out)
                }
            }
        }
    }

    fn view(&self, viewer: Viewer, now: Millis) -> qipai_protocol::tuolaji::TuolajiView {
        super::view::table_view(self, viewer, now)
    }

    fn is_over(&self) -> bool {
        self.abandoned.is_some() || self.game.as_ref().is_some_and(|g| g.outcome().is_some())
    }

    fn outcome(&self) -> Option<qipai_protocol::Outcome> {
        self.table_outcome().as_ref().map(Outcome::told)
    }
}
