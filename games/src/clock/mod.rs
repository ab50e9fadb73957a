//! Game clocks as pure arithmetic on milliseconds (第6条 计时; 五(二)2).
//!
//! - [`control`]: [`TimeControl`] — Fischer, periods, sudden death — its presets and checks.
//! - [`text`]: the short text form (`30+10`, `40/90,10/15`, `sd:30`).
//! - [`error`]: [`ClockError`] (a control refused) and [`TurnError`] (a clock misused).
//! - this file: [`Clock`], two sides' time under one control, driven by the room's `now`.
//!
//! The room owns the only clock (xiangqi rules, "Clocks"). The game calls [`Clock::start`]
//! when it plays the move that hands a side the position, [`Clock::sent`] when the room has
//! stored that move and sent the position (so the store's commit is charged to nobody),
//! [`Clock::press`] when that side's move arrives, and [`Clock::check_flag`] when its timer
//! reaches [`Clock::flag_deadline`]. Nothing here reads a clock: every instant is an
//! argument, on the room's monotonic time line.

pub mod control;
pub mod error;
pub mod text;

pub use control::{
    Period, TimeControl, MAX_PERIODS, MAX_PERIOD_MOVES, MAX_TIME_MS, MINUTE_MS, PRESET_NAMES,
};
pub use error::{ClockError, Part, TurnError};

/// What a press did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Press {
    /// The move was in time: `charged_ms` was taken, the move counted, any increment or
    /// period time added, leaving `remaining_ms`; the clock is stopped.
    Ok { charged_ms: u64, remaining_ms: u64 },
    /// The time ran out before the move (超时): remaining is zero and the side has lost on
    /// time; the move does not count.
    Flagged,
}

/// One side's account.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Side {
    /// Time left when the side's time last stopped.
    remaining_ms: u64,
    /// Every move counted, free ones included.
    moves: u32,
    /// Index of the current period (period controls only).
    period: usize,
    /// Moves made in the current period (period controls only).
    period_moves: u32,
    /// The flag has fallen; the side's time never runs again.
    flagged: bool,
}

/// Whose time is running, and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Running {
    side: usize,
    since_ms: u64,
    /// Whether the position has been sent since this side's time started ([`Clock::sent`]):
    /// its start moves at most once, to the moment the position left the server.
    sent: bool,
}

/// Two sides' time under one [`TimeControl`]: side 0 is red (the first player), side 1 the
/// second. At most one side's time runs at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The control both sides play under.
    control: TimeControl,
    /// The most travel time forgiven per move, whatever the connection's estimate.
    max_lag_ms: u64,
    /// Red's and black's accounts.
    sides: [Side; 2],
    /// The side whose time is running, if any.
    running: Option<Running>,
}

impl Clock {
    /// Both sides at the control's starting time, neither running. `max_lag_ms` caps the lag
    /// allowance of each press. Validate `control` first: one without periods gives no time.
    pub fn new(control: &TimeControl, max_lag_ms: u64) -> Clock {
        let side = Side {
            remaining_ms: control.initial_ms(),
            ..Side::default()
        };
        Clock {
            control: control.clone(),
            max_lag_ms,
            sides: [side.clone(), side],
            running: None,
        }
    }

    /// The control this clock plays under.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// `side`'s time starts running at `now_ms`, when its position is made; [`Clock::sent`]
    /// moves the start to the moment the position leaves the server.
    ///
    /// # Errors
    /// [`TurnError::NoSuchSide`], [`TurnError::Flagged`], or [`TurnError::AlreadyRunning`]
    /// (naming the running side) when either side's time is already running.
    pub fn start(&mut self, side: usize, now_ms: u64) -> Result<(), TurnError> {
        usable(&mut self.sides, side)?;
        if let Some(r) = self.running {
            return Err(TurnError::AlreadyRunning { side: r.side });
        }
        self.running = Some(Running {
            side,
            since_ms: now_ms,
            sent: false,
        });
        Ok(())
    }

    /// The position that started the running side's time left the server at `now_ms`
    /// (after the store committed the move that made it): that side's time runs from then,
    /// so the commit is charged to nobody (xiangqi rules, "Clocks" **\[D\]**: time is
    /// charged from the moment the server sends the position). Only the first call after
    /// [`Clock::start`] counts, and never moves the start earlier; a later send (the answer
    /// to a draw offer, say) does not give the side its thinking time back. Returns whether
    /// this call moved the start (a room logs only those, for its replay).
    pub fn sent(&mut self, now_ms: u64) -> bool {
        let Some(r) = self.running.as_mut().filter(|r| !r.sent) else {
            return false;
        };
        r.sent = true;
        let moved = now_ms > r.since_ms;
        r.since_ms = r.since_ms.max(now_ms);
        moved
    }

    /// `side`'s move arrived at `received_ms`, having spent about `lag_ms` on the way.
    ///
    /// The side is charged the time since [`Clock::start`] less the lag, the lag counted up
    /// to the clock's cap, never below zero. If that uses up all its time (reaching exactly
    /// zero included) the flag falls. Otherwise the move counts, a Fischer increment is
    /// added after the move, a period's time when the move completes the previous period
    /// (6.1–6.4), and the clock stops.
    ///
    /// # Errors
    /// [`TurnError::NotRunning`] when `side`'s time is not running; nothing changes then.
    pub fn press(
        &mut self,
        side: usize,
        received_ms: u64,
        lag_ms: u64,
    ) -> Result<Press, TurnError> {
        let since_ms = match self.running {
            Some(r) if r.side == side => r.since_ms,
            _ => return Err(TurnError::NotRunning { side }),
        };
        let charged_ms = received_ms
            .saturating_sub(since_ms)
            .saturating_sub(lag_ms.min(self.max_lag_ms));
        let account = self
            .sides
            .get_mut(side)
            .ok_or(TurnError::NoSuchSide { side })?;
        self.running = None;
        if account.remaining_ms <= charged_ms {
            account.remaining_ms = 0;
            account.flagged = true;
            return Ok(Press::Flagged);
        }
        account.remaining_ms -= charged_ms;
        let remaining_ms = count_move(&self.control, account, true);
        Ok(Press::Ok {
            charged_ms,
            remaining_ms,
        })
    }

    /// Counts a move of `side` that is not timed: online, the clock does not run before a
    /// side's first move (xiangqi rules, "Clocks" **\[D\]**). The move counts toward the
    /// period's moves, and completing a period adds the next one's time as usual; it earns
    /// its Fischer increment like every move (五(二)2: 每步加10秒, each move adds 10 s).
    ///
    /// # Errors
    /// [`TurnError::NoSuchSide`], [`TurnError::Flagged`], or [`TurnError::AlreadyRunning`]
    /// when `side`'s own time is running (its move must be pressed).
    pub fn free_move(&mut self, side: usize) -> Result<(), TurnError> {
        if self.running.is_some_and(|r| r.side == side) {
            return Err(TurnError::AlreadyRunning { side });
        }
        let account = usable(&mut self.sides, side)?;
        count_move(&self.control, account, true);
        Ok(())
    }

    /// The timer fired at `now_ms`: if the running side's time has reached zero its flag
    /// falls (超时), its time stops at zero, and it is returned; otherwise nothing changes.
    ///
    /// A room that wants a move already on its way to win the race may call this up to the
    /// lag cap after [`Clock::flag_deadline`]: a press that arrives first is still judged by
    /// its own lag allowance.
    pub fn check_flag(&mut self, now_ms: u64) -> Option<usize> {
        let r = self.running?;
        if self.remaining(r.side, now_ms) > 0 {
            return None;
        }
        let account = self.sides.get_mut(r.side)?;
        account.remaining_ms = 0;
        account.flagged = true;
        self.running = None;
        Some(r.side)
    }

    /// The game ended otherwise (mate, resignation, agreement, abort) at `now_ms`: the
    /// running side, if any, is charged the time it used, without a lag allowance or a move,
    /// and the clock stops. Its flag falls if that used up its time.
    pub fn stop(&mut self, now_ms: u64) {
        let Some(r) = self.running.take() else {
            return;
        };
        if let Some(account) = self.sides.get_mut(r.side) {
            let used = now_ms.saturating_sub(r.since_ms);
            account.remaining_ms = account.remaining_ms.saturating_sub(used);
            account.flagged = account.remaining_ms == 0;
        }
    }

    /// `side`'s time left at `now_ms`: live for the running side, never below zero; zero
    /// for a side that does not exist.
    pub fn remaining(&self, side: usize, now_ms: u64) -> u64 {
        let Some(account) = self.sides.get(side) else {
            return 0;
        };
        match self.running {
            Some(r) if r.side == side => account
                .remaining_ms
                .saturating_sub(now_ms.saturating_sub(r.since_ms)),
            _ => account.remaining_ms,
        }
    }

    /// The side whose time is running.
    pub fn running(&self) -> Option<usize> {
        self.running.map(|r| r.side)
    }

    /// The instant the running side's time reaches zero: when it started plus what it had.
    pub fn flag_deadline(&self) -> Option<u64> {
        let r = self.running?;
        let account = self.sides.get(r.side)?;
        Some(r.since_ms.saturating_add(account.remaining_ms))
    }

    /// Whether `side`'s flag has fallen (false for a side that does not exist).
    pub fn is_flagged(&self, side: usize) -> bool {
        self.sides.get(side).is_some_and(|a| a.flagged)
    }

    /// How many moves `side` has made, free ones included (0 for a side that does not exist).
    pub fn moves(&self, side: usize) -> u32 {
        self.sides.get(side).map_or(0, |a| a.moves)
    }

    /// For period controls, the moves `side` must still make in its current period; `None`
    /// for other controls or a side that does not exist.
    pub fn period_moves_left(&self, side: usize) -> Option<u32> {
        let TimeControl::Periods { periods } = &self.control else {
            return None;
        };
        let account = self.sides.get(side)?;
        let period = periods.get(account.period)?;
        Some(period.moves.saturating_sub(account.period_moves))
    }
}

/// `side`'s account, if the side exists and its flag has not fallen.
fn usable(sides: &mut [Side; 2], side: usize) -> Result<&mut Side, TurnError> {
    let account = sides.get_mut(side).ok_or(TurnError::NoSuchSide { side })?;
    if account.flagged {
        return Err(TurnError::Flagged { side });
    }
    Ok(account)
}

/// Counts one move on `account` and returns its remaining time: a Fischer increment when the
/// move was `timed`, and, under periods, the next period's time when this move completes
/// the current one (the last period repeating).
fn count_move(control: &TimeControl, account: &mut Side, timed: bool) -> u64 {
    account.moves = account.moves.saturating_add(1);
    match control {
        TimeControl::Fischer { increment_ms, .. } if timed => {
            account.remaining_ms = account.remaining_ms.saturating_add(*increment_ms);
        }
        TimeControl::Periods { periods } => {
            account.period_moves = account.period_moves.saturating_add(1);
            let done = periods
                .get(account.period)
                .is_some_and(|p| account.period_moves >= p.moves);
            if done {
                account.period = (account.period + 1).min(periods.len().saturating_sub(1));
                account.period_moves = 0;
                let added = periods.get(account.period).map_or(0, |p| p.time_ms);
                account.remaining_ms = account.remaining_ms.saturating_add(added);
            }
        }
        TimeControl::Fischer { .. } | TimeControl::SuddenDeath { .. } => {}
    }
    account.remaining_ms
}
