//! How a game meets the server: [`OnWire`], implemented once per game in
//! [`super::games`], and the generic steps every room takes with it (settling its options
//! against the configuration, opening the room). Nothing here names a game.

use qipai_games::options::TableOptions;
use qipai_games::{Coded, Game, Millis};
use qipai_protocol::{
    ErrorCode, Event, GameAction, GameKind, GameOptions, RoomOptions, View, WireError,
};

use super::actor::{Room, RoomParts};
use super::games::{dispatch, Visit};
use super::RoomHandle;
use crate::base::config::{Config, GameConfig};
use crate::room::bot_kit::{BotGame, BotKit};

/// A [`Game`] as the server plays it: its actions, views and events travel in the
/// protocol's enums (the conversions `games!` generates), its one options type is checked
/// by `games` against its configuration section, and it has a bot for empty seats.
pub trait OnWire:
    Game<
    Action: serde::Serialize
                + serde::de::DeserializeOwned
                + TryFrom<GameAction, Error = GameAction>,
    View: Into<View>,
    Event: Into<Event>,
>
{
    /// The protocol's name for this game.
    const KIND: GameKind;
    /// The game's one options type (the wire's, the configuration's defaults).
    type Table: TableOptions<Settings = Self::Options> + GameOptions + Send + Sync + 'static;

    /// This game's section of the configuration.
    fn section(config: &Config) -> &GameConfig<Self::Table, <Self::Table as TableOptions>::House>;

    /// How long a seat waits for its absent player before the game plays it, when the game
    /// sets its own (Tuolaji's `seat_grace_ms`) instead of the server-wide grace.
    fn seat_grace(settings: &Self::Options) -> Option<Millis> {
        let _ = settings;
        None
    }

    /// Plays the server's bot at a table with these options.
    fn play_bot(options: &Self::Table, kit: BotKit) -> BotGame;

    /// This game's action, or the action back when it is for another game.
    fn wire_action(action: GameAction) -> Result<Self::Action, GameAction> {
        action.try_into()
    }

    /// The view as sent.
    fn wire_view(view: Self::View) -> View {
        view.into()
    }

    /// The event as sent.
    fn wire_event(event: Self::Event) -> Event {
        event.into()
    }
}

/// A room's options checked by `games` and completed from the game's configuration
/// section, and the game's settings.
fn settle<G: OnWire>(
    options: &RoomOptions,
    config: &Config,
) -> Result<(G::Table, G::Options), WireError> {
    let table = G::Table::of(options).ok_or_else(|| WireError {
        code: ErrorCode::BadOptions,
        message: format!("these options are not {}'s", G::KIND.name()),
    })?;
    let section = G::section(config);
    table
        .settle(&section.table, &section.house)
        .map_err(|e| WireError {
            code: e.code(),
            message: e.to_string(),
        })
}

/// Fills in a room's options from the configuration and checks them, so that two requests
/// for the same game compare equal in quick play.
///
/// # Errors
/// `bad_options` naming what is wrong.
pub fn normalize(options: &RoomOptions, config: &Config) -> Result<RoomOptions, WireError> {
    struct Normalize<'a>(&'a RoomOptions, &'a Config);
    impl Visit for Normalize<'_> {
        type Out = Result<RoomOptions, WireError>;
        fn visit<G: OnWire>(self) -> Self::Out {
            Ok(settle::<G>(self.0, self.1)?.0.into())
        }
    }
    dispatch(options.game(), Normalize(options, config))
}

/// Opens a room for `parts.options` with a new game from `seed`; empty seats get bots
/// after the game's `bot_fill_ms` unless `parts.bot_fill` is already set.
///
/// # Errors
/// `bad_options` naming what is wrong.
pub fn open(parts: RoomParts, config: &Config, seed: u64) -> Result<RoomHandle, WireError> {
    struct Open<'a>(RoomParts, &'a Config, u64);
    impl Visit for Open<'_> {
        type Out = Result<RoomHandle, WireError>;
        fn visit<G: OnWire>(self) -> Self::Out {
            let Open(mut parts, config, seed) = self;
            let (options, settings) = settle::<G>(&parts.options, config)?;
            parts.options = options.into();
            if let Some(grace) = G::seat_grace(&settings) {
                parts.timings.reconnect_grace = grace;
            }
            let section = G::section(config);
            if !crate::room::rated::bots_may_sit(&parts.options) {
                // A rated table whose bots have no fixed rating waits for people.
                if parts.bot_fill.is_some() {
                    return Err(WireError {
                        code: ErrorCode::BadOptions,
                        message: "rated: this table's bots have no fixed rating (name a \
                                  bot_level that has one, docs/ratings.md)"
                            .into(),
                    });
                }
            } else if parts.bot_fill.is_none() && section.bot_fill_ms > 0 {
                parts.bot_fill = Some(Millis(section.bot_fill_ms));
            }
            // With a configured seed (tests), room `id` plays from `seed + id`.
            let seed = section.seed.map_or(seed, |s| s.wrapping_add(parts.id));
            Ok(Room::spawn(move || G::new(&settings, seed), parts))
        }
    }
    dispatch(parts.options.game(), Open(parts, config, seed))
}

/// Whether any game is configured with a seed (tests): room ids are then counted from 1.
pub fn seeded(config: &Config) -> bool {
    struct Seeded<'a>(&'a Config);
    impl Visit for Seeded<'_> {
        type Out = bool;
        fn visit<G: OnWire>(self) -> bool {
            G::section(self.0).seed.is_some()
        }
    }
    GameKind::ALL.iter().any(|g| dispatch(*g, Seeded(config)))
}

/// The longest a seat waits for its absent player under the configured defaults, in ms.
pub fn longest_seat_grace(config: &Config) -> u64 {
    struct Grace<'a>(&'a Config);
    impl Visit for Grace<'_> {
        type Out = u64;
        fn visit<G: OnWire>(self) -> u64 {
            let section = G::section(self.0);
            G::Table::default()
                .settle(&section.table, &section.house)
                .ok()
                .and_then(|(_, settings)| G::seat_grace(&settings))
                .map_or(self.0.server.reconnect_grace_ms, |m| m.0)
        }
    }
    GameKind::ALL
        .iter()
        .map(|g| dispatch(*g, Grace(config)))
        .fold(config.server.reconnect_grace_ms, u64::max)
}

/// Plays the server's bot for the game of `options`.
pub fn play_bot(options: &RoomOptions, kit: BotKit) -> BotGame {
    struct Play<'a>(&'a RoomOptions, BotKit);
    impl Visit for Play<'_> {
        type Out = BotGame;
        fn visit<G: OnWire>(self) -> BotGame {
            match G::Table::of(self.0) {
                Some(table) => G::play_bot(table, self.1),
                None => Box::pin(async { Ok(Vec::new()) }),
            }
        }
    }
    dispatch(options.game(), Play(options, kit))
}
