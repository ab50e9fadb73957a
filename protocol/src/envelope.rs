//! The envelope: every message a client sends ([`ClientMsg`]) and the server sends
//! ([`ServerMsg`]), with the lobby and room types they carry. Per-game actions, views and
//! events live in their game's module.
//!
//! # Format
//! Each message is a MessagePack map with a `type` field:
//! ```text
//! {"type": "hello", "protocol_version": 2, "name": "Wu", "resume_token": null}
//! {"type": "xiangqi", "seq": 7, "action": {"type": "move", "iccs": "h2e2"}}
//! ```

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::draughts::{DraughtsAction, DraughtsEvent, DraughtsOptions, DraughtsView};
use crate::error::ErrorCode;
use crate::tuolaji::{TuolajiAction, TuolajiEvent, TuolajiOptions, TuolajiView};
use crate::xiangqi::{XiangqiAction, XiangqiEvent, XiangqiOptions, XiangqiView};

/// The protocol version this build speaks; `hello` must name it. Version 2: Tuolaji events
/// are enough to follow a table (`turn`, `trick_won.captured`, bottom `count`,
/// `hand_started.round_ends_at`). Version 3: a server frame may be a batch, an array of
/// messages (every event one step says to a connection, in one frame: a Tuolaji play is
/// one frame to each seat, not two or three).
pub const PROTOCOL_VERSION: u32 = 3;

/// A room's id, unique for the server's lifetime.
pub type RoomId = u64;
/// A player's id, unique for the server's lifetime; stable across reconnections.
pub type PlayerId = u64;
/// A client request's sequence number, chosen by the client and echoed in the answer.
pub type Seq = u64;

/// The registry of games: one line per game. `Name => module { options, action, view,
/// event }` generates the game's variant in [`GameKind`] (+ `ALL`, `name`), [`RoomOptions`],
/// [`ClientMsg`] (+ `TYPES`), [`GameAction`], [`View`] and [`Event`], and the conversions
/// the server and the bots use to stay generic (`From<options> for RoomOptions`, [`GameOptions`],
/// `TryFrom<GameAction>` for the action, `From` the view and the event). The wire is the
/// serde of these enums, exactly as if each were written out by hand.
macro_rules! games {
    ($($(#[$doc:meta])* $Game:ident => $module:ident {
        $Options:ty, $Action:ty, $View:ty, $ViewField:ty, $Event:ty $(,)?
    }),+ $(,)?) => {
        /// Which game a room plays.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum GameKind {
            $($(#[$doc])* $Game,)+
        }

        impl GameKind {
            /// Every game.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$Game),+];

            /// The game's name on the wire.
            pub const fn name(self) -> &'static str {
                match self {
                    $(GameKind::$Game => stringify!($module),)+
                }
            }
        }

        /// A room's options, chosen when it is created; tagged by `game`.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum RoomOptions {
            $($Game($Options),)+
        }

        impl RoomOptions {
            /// The game these options are for.
            pub fn game(&self) -> GameKind {
                match self {
                    $(RoomOptions::$Game(_) => GameKind::$Game,)+
                }
            }

            /// Whether the table is rated (every game's options have `rated`).
            pub fn rated(&self) -> bool {
                match self {
                    $(RoomOptions::$Game(o) => o.rated,)+
                }
            }
        }

        $(
            impl From<$Options> for RoomOptions {
                fn from(options: $Options) -> RoomOptions {
                    RoomOptions::$Game(options)
                }
            }

            impl GameOptions for $Options {
                const KIND: GameKind = GameKind::$Game;

                fn of(options: &RoomOptions) -> Option<&$Options> {
                    match options {
                        RoomOptions::$Game(o) => Some(o),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }

            impl TryFrom<GameAction> for $Action {
                type Error = GameAction;

                /// The action when it is this game's, else the action back.
                fn try_from(action: GameAction) -> Result<$Action, GameAction> {
                    match action {
                        GameAction::$Game(a) => Ok(a),
                        #[allow(unreachable_patterns)]
                        other => Err(other),
                    }
                }
            }

            impl From<$View> for View {
                fn from(view: $View) -> View {
                    View::$Game(<$ViewField>::from(view))
                }
            }

            impl From<$Event> for Event {
                fn from(event: $Event) -> Event {
                    Event::$Game(event)
                }
            }
        )+

        /// Everything a client may send.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        pub enum ClientMsg {
            /// The first message on every connection.
            Hello {
                protocol_version: u32,
                name: String,
                #[serde(default)]
                resume_token: Option<String>,
                /// A signed-in account's session token (`POST /api/account/signin`): the
                /// player plays as that account, under its name (`name` is then ignored).
                /// A browser's page need not send it: its `qipai_account` cookie does.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                account_token: Option<String>,
            },
            /// Asks for `pong` with the server's time (for clock sync).
            Ping {
                seq: Seq,
                /// Echoed in `pong` (0 when left out or null).
                #[serde(default)]
                client_time: Option<u64>,
            },
            /// Asks for one page of the open rooms by id, optionally of one game.
            ListRooms {
                seq: Seq,
                #[serde(default)]
                game: Option<GameKind>,
                /// The most rooms to list (the server caps it at its page size).
                #[serde(default)]
                limit: Option<u32>,
                /// List rooms with ids above this one (the `next` of the previous page).
                #[serde(default)]
                after: Option<RoomId>,
            },
            /// Creates a room and sits down in it (`seat`, or the first free one).
            CreateRoom {
                seq: Seq,
                options: RoomOptions,
                #[serde(default)]
                seat: Option<u8>,
                /// Fill every other seat with a bot at once ("play the bot").
                #[serde(default)]
                bots: bool,
            },
            /// Sits down in a room: `seat`, or any free seat. At a competition's table the
            /// seat is the one reserved for the entrant whose `entry_code` this is (PROTOCOL
            /// §17.3); elsewhere the code is ignored.
            Join {
                seq: Seq,
                room_id: RoomId,
                #[serde(default)]
                seat: Option<u8>,
                #[serde(default, skip_serializing_if = "Option::is_none")]
                entry_code: Option<String>,
            },
            /// Watches a room without a seat.
            Spectate { seq: Seq, room_id: RoomId },
            /// Sits down at any waiting table with these options, or opens one.
            QuickPlay { seq: Seq, options: RoomOptions },
            /// Leaves the current room. During a xiangqi game this ends it: `abandoned` (a loss), or
            /// `aborted` before one's own first move (at a competition's table nothing is aborted:
            /// the seat waits for its player until the lateness limit, §17.3); at a Tuolaji table
            /// the server plays the seat until somebody takes it. The last person to leave
            /// (nobody watching) closes the room at once, ending a game only bots still play.
            Leave { seq: Seq },
            /// Asks for a fresh snapshot of the current room.
            Snapshot { seq: Seq },
            /// Watches a competition (PROTOCOL §17): `ok`, then `competition_changed` after each
            /// change to it. One watch per connection: a second one replaces the first.
            WatchCompetition { seq: Seq, competition_id: u64 },
            /// Stops watching the competition.
            UnwatchCompetition { seq: Seq },
            $(
                #[doc = concat!("A ", stringify!($module), " action in the current room.")]
                $Game { seq: Seq, action: $Action },
            )+
        }

        impl ClientMsg {
            /// Every `type` a client may send.
            pub const TYPES: &'static [&'static str] = &[
                "hello",
                "ping",
                "list_rooms",
                "create_room",
                "join",
                "spectate",
                "quick_play",
                "leave",
                "snapshot",
                "watch_competition",
                "unwatch_competition",
                $(stringify!($module),)+
            ];

            /// The request's sequence number (`hello` has none).
            pub fn seq(&self) -> Option<Seq> {
                match self {
                    ClientMsg::Hello { .. } => None,
                    ClientMsg::Ping { seq, .. }
                    | ClientMsg::ListRooms { seq, .. }
                    | ClientMsg::CreateRoom { seq, .. }
                    | ClientMsg::Join { seq, .. }
                    | ClientMsg::Spectate { seq, .. }
                    | ClientMsg::QuickPlay { seq, .. }
                    | ClientMsg::Leave { seq }
                    | ClientMsg::Snapshot { seq }
                    | ClientMsg::WatchCompetition { seq, .. }
                    | ClientMsg::UnwatchCompetition { seq } => Some(*seq),
                    $(ClientMsg::$Game { seq, .. } => Some(*seq),)+
                }
            }

            /// A game action with its sequence number; `None` when the message is not one.
            pub fn into_action(self) -> Option<(Seq, GameAction)> {
                match self {
                    $(ClientMsg::$Game { seq, action } => Some((seq, GameAction::$Game(action))),)+
                    _ => None,
                }
            }
        }

        /// A game action, as the room receives it.
        #[derive(Clone, Debug, PartialEq)]
        pub enum GameAction {
            $($Game($Action),)+
        }

        impl GameAction {
            /// The game the action belongs to.
            pub fn game(&self) -> GameKind {
                match self {
                    $(GameAction::$Game(_) => GameKind::$Game,)+
                }
            }
        }

        /// What one viewer sees of a game; tagged by `game`.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum View {
            $($Game($ViewField),)+
        }

        impl View {
            /// How the game ended, in the one shape every game tells it; `None` while it
            /// is not over.
            pub fn outcome(&self) -> Option<crate::Outcome> {
                match self {
                    $(View::$Game(v) => crate::HasOutcome::outcome(v),)+
                }
            }
        }

        /// Something that happened in a room; tagged by `game` (`room` for seat changes).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game", rename_all = "snake_case")]
        pub enum Event {
            Room(RoomEvent),
            $($Game($Event),)+
        }
    };
}

/// A game's options type, as [`games!`] registers it.
pub trait GameOptions: Into<RoomOptions> {
    /// The game the options are for.
    const KIND: GameKind;
    /// The options when `options` are this game's.
    fn of(options: &RoomOptions) -> Option<&Self>;
}

games! {
    /// Chinese chess (象棋), two seats.
    Xiangqi => xiangqi { XiangqiOptions, XiangqiAction, XiangqiView, XiangqiView, XiangqiEvent },
    /// Three-deck Tuolaji (拖拉机), four seats.
    Tuolaji => tuolaji {
        TuolajiOptions, TuolajiAction, TuolajiView, Box<TuolajiView>, TuolajiEvent
    },
    /// International draughts (国际跳棋), two seats.
    Draughts => draughts {
        DraughtsOptions, DraughtsAction, DraughtsView, DraughtsView, DraughtsEvent
    },
}

/// One seat as everybody sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub player_id: PlayerId,
    pub name: String,
    /// `false` while the player is disconnected (within the reconnection grace).
    pub connected: bool,
    /// A bot the server seated; a person may take its seat (xiangqi: before the game;
    /// Tuolaji: when a seat may be taken).
    #[serde(default)]
    pub bot: bool,
}

/// A room as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomInfo {
    pub room_id: RoomId,
    pub options: RoomOptions,
    /// One entry per seat, `None` when free.
    pub seats: Vec<Option<SeatInfo>>,
    pub spectators: u32,
    pub status: RoomStatus,
    /// The room's short number, what people read and say ("table 12"): counted by the
    /// server from 1, never given twice; absent with several nodes. For display only: every
    /// request names the room by `room_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u64>,
    /// What the table is called when its owner named it: a competition's table carries
    /// its competition, round and table (第2轮 第5桌), which people read instead of
    /// `number`. Absent for a casual room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<TableTitle>,
}

/// A table's name given by whoever opened it (a competition): the room only carries it.
/// The client says it in its language ("工会杯 · 第2轮 第5桌", "… · Round 2, table 5").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableTitle {
    /// The competition's name, as its director wrote it.
    pub competition: String,
    /// Its round, from 1.
    pub round: u32,
    /// Its table in that round, from 1 (the number on the pairing sheet).
    pub table: u32,
}

/// Where a room is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// Waiting for seats to fill.
    Waiting,
    /// The game is on.
    Playing,
    /// The game has ended; the room closes soon.
    Over,
}

/// Seat changes, the same for every game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomEvent {
    /// A player sat down.
    Joined { seat: u8, player: SeatInfo },
    /// A player's seat is free again: they left, or stayed away past the reconnection grace
    /// (a Tuolaji seat is then played by the server until somebody takes it).
    Left { seat: u8 },
    /// A player's connection dropped; the seat waits for the reconnection grace.
    Away { seat: u8 },
    /// The player came back.
    Back { seat: u8 },
}

/// Everything the server may send.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`. `resume_token` gives the seat back after a dropped
    /// connection; keep it secret.
    Welcome {
        protocol_version: u32,
        player_id: PlayerId,
        resume_token: String,
        /// Milliseconds on the server's clock (the one every `server_time` uses).
        server_time: u64,
        /// The room this player is in, when a resumed session was in one (a snapshot follows).
        room_id: Option<RoomId>,
    },
    /// A request was refused, or the frame could not be read. `seq` echoes the request's.
    Error {
        seq: Option<Seq>,
        code: ErrorCode,
        message: String,
        /// With `declare_structure` only: the throw's valid splits, each a list of units
        /// (card lists), for the player to declare one of (第十一条1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        splits: Option<Vec<Vec<Vec<Card>>>>,
        /// What the client needs to say the refusal in the player's language (
        /// PROTOCOL.md lists each code's fields). Left out when there is none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        details: Option<crate::ErrorDetails>,
    },
    /// A request was accepted; its effects follow as events.
    Ok { seq: Seq },
    /// The answer to `ping`.
    Pong {
        seq: Seq,
        client_time: u64,
        server_time: u64,
    },
    /// The answer to `list_rooms`: one page; `next`, when present, is the `after` that asks
    /// for the following page.
    Rooms {
        seq: Seq,
        rooms: Vec<RoomInfo>,
        #[serde(default)]
        next: Option<RoomId>,
    },
    /// Now in a room: seated at `seat`, or a spectator when `seat` is `None`. A snapshot follows.
    Joined {
        seq: Option<Seq>,
        room_id: RoomId,
        game: GameKind,
        seat: Option<u8>,
        /// The room's short number, for display ([`RoomInfo::number`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        number: Option<u64>,
        /// The table's name, when it has one ([`RoomInfo::title`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<TableTitle>,
    },
    /// Left the room.
    Left { seq: Option<Seq>, room_id: RoomId },
    /// The whole view of the room as of `event_seq`.
    Snapshot {
        room_id: RoomId,
        event_seq: u64,
        server_time: u64,
        /// The receiver's seat, `None` for a spectator.
        you: Option<u8>,
        seats: Vec<Option<SeatInfo>>,
        view: View,
    },
    /// One room event. `event_seq` rises by one with each; a gap means a missed event: ask
    /// for a snapshot.
    Event {
        room_id: RoomId,
        event_seq: u64,
        server_time: u64,
        event: Event,
    },
    /// The watched competition changed (`watch_competition`): a result, a round, a
    /// correction, an import… `version` is the competitions' change counter (the one
    /// `GET /api/competitions/changes` answers); reload what is shown.
    CompetitionChanged { competition_id: u64, version: u64 },
    /// The server is going down; the connection closes next.
    Shutdown { message: String },
}

impl ServerMsg {
    /// Every server message's `type`, for [`crate::decode`] to tell an unknown one.
    pub const TYPES: &'static [&'static str] = &[
        "welcome",
        "error",
        "ok",
        "pong",
        "rooms",
        "joined",
        "left",
        "snapshot",
        "event",
        "competition_changed",
        "shutdown",
    ];

    /// An error answer.
    pub fn error(seq: Option<Seq>, code: ErrorCode, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            seq,
            code,
            message: message.into(),
            splits: None,
            details: None,
        }
    }

    /// An error answer with the details a client renders it from.
    pub fn error_with(
        seq: Option<Seq>,
        code: ErrorCode,
        message: impl Into<String>,
        details: crate::ErrorDetails,
    ) -> ServerMsg {
        ServerMsg::Error {
            seq,
            code,
            message: message.into(),
            splits: None,
            details: Some(details),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{decode, encode};
    use crate::xiangqi::{Clocks, Side};

    fn round_trip<T: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(v: T) {
        let bytes = encode(&v).unwrap();
        let back: T = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn client_messages_round_trip() {
        for msg in [
            ClientMsg::Hello {
                protocol_version: PROTOCOL_VERSION,
                name: "Wu".into(),
                resume_token: None,
                account_token: None,
            },
            ClientMsg::CreateRoom {
                seq: 1,
                options: RoomOptions::Xiangqi(XiangqiOptions {
                    time_control: Some("30+10".into()),
                    ..Default::default()
                }),
                seat: Some(1),
                bots: true,
            },
            ClientMsg::Xiangqi {
                seq: 2,
                action: XiangqiAction::Move {
                    iccs: "h2e2".into(),
                },
            },
            ClientMsg::Xiangqi {
                seq: 3,
                action: XiangqiAction::Resign,
            },
            ClientMsg::WatchCompetition {
                seq: 4,
                competition_id: 7,
            },
            ClientMsg::UnwatchCompetition { seq: 5 },
        ] {
            let bytes = encode(&msg).unwrap();
            assert_eq!(decode::<ClientMsg>(&bytes, ClientMsg::TYPES).unwrap(), msg);
        }
    }

    #[test]
    fn nested_tags_round_trip() {
        let clocks = Clocks {
            red_ms: 1,
            black_ms: 2,
            running: Some(Side::Black),
            server_time: 3,
        };
        round_trip(ServerMsg::Event {
            room_id: 1,
            event_seq: 2,
            server_time: 3,
            event: Event::Xiangqi(XiangqiEvent::DrawOffered { by: Side::Red }),
        });
        round_trip(ServerMsg::Event {
            room_id: 1,
            event_seq: 2,
            server_time: 3,
            event: Event::Room(RoomEvent::Away { seat: 1 }),
        });
        round_trip(ServerMsg::error(Some(3), ErrorCode::IllegalMove, "no"));
        round_trip(ServerMsg::CompetitionChanged {
            competition_id: 7,
            version: 9,
        });
        round_trip(clocks);
    }

    /// `ServerMsg::TYPES` names every variant: a message of each decodes through it.
    #[test]
    fn server_types_name_every_message() {
        let msgs = [
            ServerMsg::Ok { seq: 1 },
            ServerMsg::error(None, ErrorCode::Malformed, "x"),
            ServerMsg::Left {
                seq: None,
                room_id: 1,
            },
            ServerMsg::CompetitionChanged {
                competition_id: 1,
                version: 1,
            },
            ServerMsg::Shutdown {
                message: "bye".into(),
            },
            ServerMsg::Pong {
                seq: 1,
                client_time: 2,
                server_time: 3,
            },
        ];
        for msg in msgs {
            let bytes = encode(&msg).unwrap();
            assert_eq!(decode::<ServerMsg>(&bytes, ServerMsg::TYPES).unwrap(), msg);
        }
        assert_eq!(ServerMsg::TYPES.len(), 11, "one per ServerMsg variant");
    }

    /// Options may be sparse: a client names only what it wants to change.
    #[test]
    fn options_fields_are_optional() {
        #[derive(Serialize)]
        struct Sparse {
            game: &'static str,
        }
        let bytes = encode(&Sparse { game: "xiangqi" }).unwrap();
        let opts: RoomOptions = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(opts, RoomOptions::Xiangqi(XiangqiOptions::default()));
    }

    #[test]
    fn every_client_type_is_listed() {
        let hello = ClientMsg::Hello {
            protocol_version: 1,
            name: String::new(),
            resume_token: None,
            account_token: None,
        };
        let bytes = encode(&hello).unwrap();
        assert!(decode::<ClientMsg>(&bytes, ClientMsg::TYPES).is_ok());
        assert_eq!(ClientMsg::TYPES.len(), 14);
    }
}
