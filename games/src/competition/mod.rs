//! A competition (竞赛) as the seed's notice runs it: department teams enter Tuolaji pairs and
//! xiangqi players, Swiss rounds (积分编排) are paired by computer, round points 2/1/0 ranked
//! by 对手分, then 级差, then lots, team totals from each department's two best entries, award
//! places capped at two thirds. Target: `docs/rules/tournaments.md`.
//!
//! Pure and deterministic like the rest of `games`: lots come from the competition's recorded
//! seed, so every round and every ranking replays.
//!
//! - [`matching`]: maximum-weight matching (Edmonds' blossoms), the pairing engine's core.
//! - [`pairing`]: Swiss pairing by a weighted graph; the knockout draw (2.9).
//! - [`standings`]: 轮分, 对手分, 级差, lots; team totals; award places.
//! - [`lateness`]: 第十三条 (Tuolaji) and 4.1.5 (xiangqi).
//! - [`table_match`]: what a table's games decide: one game, best of three (2.6), a
//!   knockout's extra game and lots (2.9).
//! - [`import`]: entries from a CSV shaped like the registration form (附件1 报名表).
//! - [`error`] holds what the rules refuse, [`CompetitionError`].

pub mod error;
pub mod import;
pub mod lateness;
pub mod matching;
pub mod pairing;
pub mod standings;
pub mod table_match;

pub use error::CompetitionError;

use std::collections::BTreeSet;
use std::fmt;

/// The event (一 竞赛形式): a Tuolaji entry is a pair (双人赛), a xiangqi entry one player
/// (单人赛).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// 扑克牌拖拉机, pairs.
    TuolajiPairs,
    /// 中国象棋, singles.
    XiangqiSingles,
}

impl Event {
    /// Players in one entry.
    pub const fn entry_size(self) -> usize {
        match self {
            Event::TuolajiPairs => 2,
            Event::XiangqiSingles => 1,
        }
    }

    /// The event's name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Event::TuolajiPairs => "Tuolaji pairs",
            Event::XiangqiSingles => "xiangqi singles",
        }
    }
}

/// How rounds are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 积分编排法 (五(一)2, 五(二)2): the default.
    Swiss,
    /// Knockout (2.9): drawn pairs each round, an odd one out draws the bye.
    Knockout,
}

/// A competition's settings (the director fixes them when creating it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The event.
    pub event: Event,
    /// Swiss (default) or knockout.
    pub format: Format,
    /// Rounds: Tuolaji 4 (五(一)2); xiangqi 3 or 4 by the number of entries (五(二)2).
    pub rounds: u32,
    /// 2.6: a xiangqi pairing is a best-of-three match. Default off.
    pub best_of_three: bool,
    /// 四1 不得兼项: a player may enter only one event. Default on **\[D\]**.
    pub one_event_only: bool,
    /// 4.1.5: minutes after which an absent xiangqi player loses. Default 15 **\[D\]**.
    pub xiangqi_lateness_limit_min: u32,
    /// The recorded seed every lot is drawn from.
    pub seed: u64,
}

impl Settings {
    /// The notice's settings for an event: Swiss, 4 rounds, 不得兼项 on, 15-minute xiangqi limit.
    pub fn new(event: Event, seed: u64) -> Settings {
        Settings {
            event,
            format: Format::Swiss,
            rounds: 4,
            best_of_three: false,
            one_event_only: true,
            xiangqi_lateness_limit_min: 15,
            seed,
        }
    }
}

/// An entry's number in its competition (its index, in order of entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntryId(pub u32);

impl EntryId {
    /// The index into [`Competition::entries`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Something only directors may see: contact details from the registration form. It has no
/// `Serialize` and its `Debug` hides it, so it cannot leak into a public page by accident.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct DirectorOnly<T>(pub T);

impl<T> fmt::Debug for DirectorOnly<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<director only>")
    }
}

/// Contact details from the registration form (联系电话, 是否已加入参赛群).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Contact {
    /// 联系电话.
    pub phone: String,
    /// 是否已加入参赛群, as written on the form.
    pub joined_group: String,
}

/// One player of an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// 姓名.
    pub name: String,
    /// Contact details, if the form gave them.
    pub contact: Option<DirectorOnly<Contact>>,
}

/// A team: a department's union branch (部门工会).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Team(pub String);

/// An entry: a fixed Tuolaji pair or one xiangqi player, with its team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its number.
    pub id: EntryId,
    /// Its department.
    pub team: Team,
    /// 配对 1–4 on the registration form (Tuolaji), if given.
    pub pair_number: Option<u32>,
    /// Two players (Tuolaji) or one (xiangqi).
    pub players: Vec<Player>,
}

/// The outcome of one pairing, from the first-named entry's side (for xiangqi the first is
/// Red). 五(一)4: win 2 points and 级差 +2, draw 1 and 0, loss or forfeit 0 and −2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The first entry won.
    FirstWins,
    /// A draw (Tuolaji: a round not ended by a won game with equal levels).
    Draw,
    /// The second entry won.
    SecondWins,
    /// The first entry forfeited (弃权): lateness over the limit, or absent.
    FirstForfeits,
    /// The second entry forfeited.
    SecondForfeits,
    /// Both forfeited: no points to either, both count the other as met.
    BothForfeit,
}

/// What one side of a pairing gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// 轮分: 2, 1 or 0.
    pub points: u32,
    /// 级差: +2, 0 or −2.
    pub level_diff: i32,
}

impl GameResult {
    /// 五(一)4: the first and second entries' round points and 级差.
    pub const fn scores(self) -> (Score, Score) {
        const WIN: Score = Score {
            points: 2,
            level_diff: 2,
        };
        const DRAW: Score = Score {
            points: 1,
            level_diff: 0,
        };
        const LOSS: Score = Score {
            points: 0,
            level_diff: -2,
        };
        match self {
            GameResult::FirstWins | GameResult::SecondForfeits => (WIN, LOSS),
            GameResult::Draw => (DRAW, DRAW),
            GameResult::SecondWins | GameResult::FirstForfeits => (LOSS, WIN),
            GameResult::BothForfeit => (LOSS, LOSS),
        }
    }
}

/// Where a best-of-three match (2.6) stands after its games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// More games are needed.
    Undecided,
    /// The match's result, from the first-named entry's side.
    Decided(GameResult),
    /// Three games and equal points: an extra game or lots decide (2.6).
    Tied,
}

/// 2.6: a best-of-three match, games scored 2/1/0 (a forfeit loses the game); decided as soon
/// as the remaining games cannot change the winner. Games past the third are ignored.
pub fn best_of_three(games: &[GameResult]) -> MatchState {
    let games = &games[..games.len().min(3)];
    let (mut a, mut b) = (0u32, 0u32);
    for g in games {
        let (x, y) = g.scores();
        a += x.points;
        b += y.points;
    }
    let left = 2 * (3 - games.len() as u32);
    if a > b + left {
        MatchState::Decided(GameResult::FirstWins)
    } else if b > a + left {
        MatchState::Decided(GameResult::SecondWins)
    } else if games.len() == 3 {
        MatchState::Tied
    } else {
        MatchState::Undecided
    }
}

/// **\[D\]** A bye scores as a win: 2 points, 级差 +2, and adds nothing to 对手分.
pub const BYE: Score = Score {
    points: 2,
    level_diff: 2,
};

/// Two entries at one table. For xiangqi `first` plays Red.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Table number, from 1.
    pub table: u32,
    /// First-named entry (Red in xiangqi).
    pub first: EntryId,
    /// Second-named entry (Black in xiangqi).
    pub second: EntryId,
    /// The result, once recorded.
    pub result: Option<GameResult>,
}

/// The one entry left out of a round with an odd number of entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bye {
    /// The entry that has it.
    pub entry: EntryId,
}

/// One round: its pairings, its bye and the seed its lots came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// Round number, from 1.
    pub number: u32,
    /// Tables.
    pub pairings: Vec<Pairing>,
    /// The bye, with an odd number of entries.
    pub bye: Option<Bye>,
    /// The seed this round's lots were drawn from (derived from the competition's seed).
    pub seed: u64,
}

/// An arbiter's (仲裁) correction of a recorded result; every one is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correction {
    /// The round.
    pub round: u32,
    /// The table.
    pub table: u32,
    /// The result before.
    pub before: Option<GameResult>,
    /// The result after.
    pub after: GameResult,
    /// Why.
    pub reason: String,
}

/// A competition in one event: settings, entries and the rounds so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Competition {
    /// Its settings.
    pub settings: Settings,
    /// Entries, `entries[i].id == EntryId(i)`.
    pub entries: Vec<Entry>,
    /// Rounds paired so far.
    pub rounds: Vec<Round>,
    /// Every correction, in order.
    pub corrections: Vec<Correction>,
    /// Entries a director withdrew (tournaments.md "The day itself"): paired no more (no
    /// bye either); their results stand, and they stay in the standings **\[D\]**.
    pub withdrawn: BTreeSet<EntryId>,
}

impl Competition {
    /// An empty competition.
    pub fn new(settings: Settings) -> Competition {
        Competition {
            settings,
            entries: Vec::new(),
            rounds: Vec::new(),
            corrections: Vec::new(),
            withdrawn: BTreeSet::new(),
        }
    }

    /// Adds an entry of `team` with these players. `others` are the competitions of the other
    /// event(s), checked for 不得兼项 when the setting is on.
    ///
    /// # Errors
    /// `WrongEntrySize`, `DuplicatePlayer`, `AlreadyEntered`; nothing changes then.
    pub fn add_entry(
        &mut self,
        team: &str,
        pair_number: Option<u32>,
        players: Vec<Player>,
        others: &[&Competition],
    ) -> Result<EntryId, CompetitionError> {
        let event = self.settings.event;
        if players.len() != event.entry_size() {
            return Err(CompetitionError::WrongEntrySize {
                event: event.name(),
                expected: event.entry_size(),
                got: players.len(),
            });
        }
        let team = Team(team.trim().to_owned());
        for (i, p) in players.iter().enumerate() {
            let twice_here =
                players[..i].iter().any(|q| q.name == p.name) || self.has_player(&team, &p.name);
            if twice_here {
                return Err(CompetitionError::DuplicatePlayer {
                    name: p.name.clone(),
                    team: team.0.clone(),
                });
            }
            if self.settings.one_event_only && others.iter().any(|c| c.has_player(&team, &p.name)) {
                return Err(CompetitionError::AlreadyEntered {
                    name: p.name.clone(),
                    team: team.0.clone(),
                });
            }
        }
        let id = EntryId(self.entries.len() as u32);
        self.entries.push(Entry {
            id,
            team,
            pair_number,
            players,
        });
        Ok(id)
    }

    /// Whether a player of this name in this team is entered here.
    pub fn has_player(&self, team: &Team, name: &str) -> bool {
        self.entries
            .iter()
            .any(|e| &e.team == team && e.players.iter().any(|p| p.name == name))
    }

    /// Records the result of a table of a round.
    ///
    /// # Errors
    /// `UnknownTable`.
    pub fn record(
        &mut self,
        round: u32,
        table: u32,
        result: GameResult,
    ) -> Result<(), CompetitionError> {
        let pairing = self.pairing_mut(round, table)?;
        pairing.result = Some(result);
        Ok(())
    }

    /// 仲裁: replaces a result, keeping the correction with its reason.
    ///
    /// # Errors
    /// `MissingReason`, `UnknownTable`; nothing changes then.
    pub fn correct(
        &mut self,
        round: u32,
        table: u32,
        after: GameResult,
        reason: &str,
    ) -> Result<(), CompetitionError> {
        if reason.trim().is_empty() {
            return Err(CompetitionError::MissingReason);
        }
        let pairing = self.pairing_mut(round, table)?;
        let before = pairing.result.replace(after);
        self.corrections.push(Correction {
            round,
            table,
            before,
            after,
            reason: reason.to_owned(),
        });
        Ok(())
    }

    /// Withdraws an entry: from the next round on it is not paired (its past games stand).
    /// Withdrawing it again changes nothing.
    ///
    /// # Errors
    /// `UnknownEntry`.
    pub fn withdraw(&mut self, entry: EntryId) -> Result<(), CompetitionError> {
        if entry.index() >= self.entries.len() {
            return Err(CompetitionError::UnknownEntry { entry: entry.0 });
        }
        self.withdrawn.insert(entry);
        Ok(())
    }

    /// Whether the entry is still paired (not withdrawn).
    pub fn is_active(&self, entry: EntryId) -> bool {
        !self.withdrawn.contains(&entry)
    }

    /// Undoes the latest round while none of its tables has a result (tournaments.md "The
    /// day itself"); returns it.
    ///
    /// # Errors
    /// `NoRoundPaired`, `RoundRecorded`; nothing changes then.
    pub fn undo_latest_round(&mut self) -> Result<Round, CompetitionError> {
        let last = self.rounds.last().ok_or(CompetitionError::NoRoundPaired)?;
        if let Some(p) = last.pairings.iter().find(|p| p.result.is_some()) {
            return Err(CompetitionError::RoundRecorded {
                round: last.number,
                table: p.table,
            });
        }
        self.rounds.pop().ok_or(CompetitionError::NoRoundPaired)
    }

    fn pairing_mut(&mut self, round: u32, table: u32) -> Result<&mut Pairing, CompetitionError> {
        self.rounds
            .iter_mut()
            .find(|r| r.number == round)
            .and_then(|r| r.pairings.iter_mut().find(|p| p.table == table))
            .ok_or(CompetitionError::UnknownTable { round, table })
    }
}
