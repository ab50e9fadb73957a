//! A rated game's rating update, computed inside the transaction that writes it.
//!
//! One account may end two rated games within one commit of each other (two tables, or two
//! nodes). Were each room to read the ratings when its game ends and queue the new values,
//! the second write would overwrite the first: its values were computed from a rating the
//! first game had already changed. So the write carries the rule, not the values: the store
//! reads each seat's rating *inside* the transaction that writes the game's last step —
//! after every earlier write of the same batch, and (PostgreSQL) with the accounts' rows
//! locked, in the order of their ids, until the commit — and applies the rule to what it
//! read. Two updates of one account then apply one after the other, whatever the timing.
//!
//! The store knows no rating model: the server's [`RatingRule`] turns the stored states
//! (its own JSON) into the new ones.

use std::sync::Arc;

use super::{AccountWrite, RatingRow};

/// A rating after a game: its rounded value and the model's state (JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRating {
    pub rating: i64,
    pub state: String,
}

/// How a finished game moves its seats' ratings: the server's rating model.
pub trait RatingRule: Send + Sync + 'static {
    /// Given each seat's stored rating state at the game (`None`: no account there, or
    /// never rated at the game), the new rating of each seat whose account is rated; all
    /// `None` when the game does not count (why is the rule's to log).
    fn rate(&self, current: &[Option<String>]) -> Vec<Option<NewRating>>;
}

/// Each seat's stored rating state at the game, read in the transaction, for either backend
/// (`sql::postgres` for `$N`).
pub(crate) const RATING_STATE: &str = "SELECT state FROM ratings WHERE account = ?1 AND game = ?2";

/// A rated game's ratings, to be computed in the transaction of its last step.
#[derive(Clone)]
pub struct RatingUpdate {
    /// The protocol's game name.
    pub game: String,
    /// The game's room (its rating history's key, with the account and the game).
    pub room: u64,
    pub at_ms: i64,
    /// The account at each seat (`None`: a bot of a fixed rating).
    pub accounts: Vec<Option<u64>>,
    pub rule: Arc<dyn RatingRule>,
}

impl std::fmt::Debug for RatingUpdate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RatingUpdate")
            .field("game", &self.game)
            .field("room", &self.room)
            .field("at_ms", &self.at_ms)
            .field("accounts", &self.accounts)
            .finish_non_exhaustive()
    }
}

/// Two updates are equal when they rate the same seats of the same game by the same rule
/// (the one value, not an equal one: a rule is code).
impl PartialEq for RatingUpdate {
    fn eq(&self, other: &RatingUpdate) -> bool {
        self.game == other.game
            && self.room == other.room
            && self.at_ms == other.at_ms
            && self.accounts == other.accounts
            && Arc::ptr_eq(&self.rule, &other.rule)
    }
}

impl Eq for RatingUpdate {}

impl RatingUpdate {
    /// The accounts whose ratings this update reads and writes, by id, each once.
    pub(crate) fn accounts(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = self.accounts.iter().flatten().copied().collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The writes that apply the rule to `current` (each seat's stored state, as read in
    /// the transaction): each rated account's new rating and its history point.
    pub(crate) fn writes(&self, current: &[Option<String>]) -> Vec<AccountWrite> {
        let after = self.rule.rate(current);
        self.accounts
            .iter()
            .zip(after)
            .filter_map(|(account, new)| Some(((*account)?, new?)))
            .map(|(account, new)| AccountWrite::Rated {
                rating: RatingRow {
                    account,
                    game: self.game.clone(),
                    rating: new.rating,
                    state: new.state,
                    updated_ms: self.at_ms,
                },
                room: self.room,
            })
            .collect()
    }
}
