//! Rated tables (docs/ratings.md): who may sit at one, and the new ratings its result gives,
//! which go into the store in the same transaction as the game's last step (`durable`), so
//! a crash either keeps both or replays the step and rates the game then, never twice.

use qipai_games::rating::{self, Rated, Rating};
use qipai_protocol::{ErrorCode, Outcome, RoomOptions, WireError};
use qipai_store::accounts::{AccountWrite, RatingRow};
use qipai_store::Store;

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

/// The writes that rate a finished table: each account's new rating at the game, with its
/// history point. Empty when the table is casual or does not count (the game ended without
/// a result, a seat is neither an account nor a bot with a fixed rating, the ratings could
/// not be read); why is logged.
pub async fn after_game(
    store: &dyn Store,
    options: &RoomOptions,
    seats: &[RatedSeat],
    outcome: Option<&Outcome>,
    room: u64,
    at_ms: i64,
) -> Vec<AccountWrite> {
    if !options.rated() {
        return Vec::new();
    }
    let Some(outcome) = outcome else {
        return Vec::new();
    };
    let game = options.game();
    let bot = rating::table_bot_rating(game, bot_level(options));
    let mut rated = Vec::with_capacity(seats.len());
    for seat in seats {
        let one = match (seat.account, seat.bot, bot) {
            (Some(account), _, _) => match current(store, account, game.name()).await {
                Ok(r) => Rated::Player(r.unwrap_or_else(|| Rating::newcomer(game))),
                Err(error) => {
                    tracing::error!(room, account, %error, "rated table: ratings unreadable, not rated");
                    return Vec::new();
                }
            },
            (None, true, Some(bot)) => Rated::Bot(bot),
            _ => {
                tracing::info!(
                    room,
                    "rated table: a seat without an account or a rated bot, not rated"
                );
                return Vec::new();
            }
        };
        rated.push(one);
    }
    let after = match rating::rate(game, &rated, outcome) {
        Ok(after) => after,
        Err(why) => {
            tracing::info!(room, ?why, "rated table: not rated");
            return Vec::new();
        }
    };
    seats
        .iter()
        .zip(after)
        .filter_map(|(seat, new)| Some((seat.account?, new?)))
        .map(|(account, new)| AccountWrite::Rated {
            rating: RatingRow {
                account,
                game: game.name().to_owned(),
                rating: new.rating.round() as i64,
                state: serde_json::to_string(&new).unwrap_or_default(),
                updated_ms: at_ms,
            },
            room,
        })
        .collect()
}

/// The account's rating at `game` as stored (`None`: never rated there).
async fn current(store: &dyn Store, account: u64, game: &str) -> Result<Option<Rating>, String> {
    let rows = store.ratings(account).await.map_err(|e| e.to_string())?;
    rows.into_iter()
        .find(|r| r.game == game)
        .map(|r| serde_json::from_str::<Rating>(&r.state).map_err(|e| e.to_string()))
        .transpose()
}
