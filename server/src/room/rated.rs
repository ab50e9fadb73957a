//! Rated tables (docs/ratings.md): who may sit at one, and the rule by which its result moves
//! its accounts' ratings. The rule goes into the store with the game's last step
//! (`durable`), which applies it in that transaction to the ratings it reads there: a crash
//! either keeps both or replays the step and rates the game then, never twice, and two
//! games of one account ending together apply one after the other.

use std::sync::Arc;

use qipai_games::rating::{self, Rated, Rating};
use qipai_protocol::{ErrorCode, GameKind, Outcome, RoomOptions, WireError};
use qipai_store::accounts::{NewRating, RatingRule, RatingUpdate};

/// The table's bots' level, for the games whose bots have levels.
fn bot_level(options: &RoomOptions) -> Option<&str> {
    match options {
        RoomOptions::Xiangqi(o) => o.bot_level.as_deref(),
        RoomOptions::Tuolaji(o) => o.bot_level.as_deref(),
        RoomOptions::Draughts(_) => None,
    }
}

/// Whether the server's bots may sit at the table: at every table but a rated one whose
/// bots have no fixed rating (`qipai_games::rating::table_bot_rating`), which waits for
/// people instead.
pub fn bots_may_sit(options: &RoomOptions) -> bool {
    !options.rated() || rating::table_bot_rating(options.game(), bot_level(options)).is_some()
}

/// Whether a player of `account` may sit at the table: a rated table seats signed-in
/// accounts (each once) and the server's bots only.
///
/// # Errors
/// `account_required` for a guest; `seat_taken` for an account already seated here.
pub fn may_sit(
    options: &RoomOptions,
    account: Option<u64>,
    bot: bool,
    seated: impl IntoIterator<Item = Option<u64>>,
) -> Result<(), WireError> {
    if !options.rated() || bot {
        return Ok(());
    }
    let Some(account) = account else {
        return Err(WireError {
            code: ErrorCode::AccountRequired,
            message:
                "a rated table seats signed-in players only: sign in, or choose a casual table"
                    .into(),
        });
    };
    if seated.into_iter().any(|a| a == Some(account)) {
        return Err(WireError {
            code: ErrorCode::SeatTaken,
            message: "your account already sits at this table".into(),
        });
    }
    Ok(())
}

/// Who played a seat of a finished table, for its rating.
pub struct RatedSeat {
    /// The account of the person the record names there (`None`: a guest, a bot, nobody).
    pub account: Option<u64>,
    /// One of the server's bots played the seat and no person is named there.
    pub bot: bool,
}

/// The update that rates a finished table, to be written with its last step: each account's
/// new rating at the game, with its history point, computed by the store in that commit
/// from the ratings it reads there ([`RatingUpdate`]), so that two games of one account
/// ending together never overwrite each other's update. `None` when the table is casual or
/// does not count (the game ended without a result, a seat is neither an account nor a bot
/// with a fixed rating); why is logged.
pub fn after_game(
    options: &RoomOptions,
    seats: &[RatedSeat],
    outcome: Option<&Outcome>,
    room: u64,
    at_ms: i64,
) -> Option<RatingUpdate> {
    if !options.rated() {
        return None;
    }
    let outcome = outcome?.clone();
    let game = options.game();
    let bot = rating::table_bot_rating(game, bot_level(options));
    let mut fixed = Vec::with_capacity(seats.len());
    for seat in seats {
        fixed.push(match (seat.account, seat.bot, bot) {
            (Some(_), _, _) => None,
            (None, true, Some(bot)) => Some(bot),
            _ => {
                tracing::info!(
                    room,
                    "rated table: a seat without an account or a rated bot, not rated"
                );
                return None;
            }
        });
    }
    Some(RatingUpdate {
        game: game.name().to_owned(),
        room,
        at_ms,
        accounts: seats.iter().map(|s| s.account).collect(),
        rule: Arc::new(TableRating {
            game,
            bots: fixed,
            outcome,
            room,
        }),
    })
}

/// The rating rule of one finished table: its game's model applied to its outcome.
struct TableRating {
    game: GameKind,
    /// Per seat: the fixed rating of the bot there, `None` for an account's seat.
    bots: Vec<Option<Rating>>,
    outcome: Outcome,
    room: u64,
}

impl RatingRule for TableRating {
    fn rate(&self, current: &[Option<String>]) -> Vec<Option<NewRating>> {
        let unrated = || vec![None; self.bots.len()];
        let mut rated = Vec::with_capacity(self.bots.len());
        for (bot, stored) in self.bots.iter().zip(current) {
            rated.push(match (bot, stored) {
                (Some(bot), _) => Rated::Bot(*bot),
                (None, None) => Rated::Player(Rating::newcomer(self.game)),
                (None, Some(state)) => match serde_json::from_str::<Rating>(state) {
                    Ok(r) => Rated::Player(r),
                    Err(error) => {
                        let room = self.room;
                        tracing::error!(room, %error, "rated table: a stored rating unreadable, not rated");
                        return unrated();
                    }
                },
            });
        }
        match rating::rate(self.game, &rated, &self.outcome) {
            Ok(after) => after
                .into_iter()
                .map(|new| {
                    new.map(|new| NewRating {
                        rating: new.rating.round() as i64,
                        state: serde_json::to_string(&new).unwrap_or_default(),
                    })
                })
                .collect(),
            Err(why) => {
                let room = self.room;
                tracing::info!(room, ?why, "rated table: not rated");
                unrated()
            }
        }
    }
}
