//! Every message on qipai's wire.
//!
//! Binary WebSocket frames, each one MessagePack value (a server's may be an array of
//! messages, a batch); structs are maps with field names,
//! enums are tagged with a `type` field (or `game` where a per-game type is wrapped).
//! `PROTOCOL.md` documents each message with an example.
//!
//! - [`envelope`]: [`ClientMsg`] and [`ServerMsg`], the lobby's and rooms' shared types.
//! - [`card`]: [`Card`], [`Suit`] and [`Rank`], small values written in the card notation.
//! - [`codec`]: the only caller of rmp-serde; classifies decoding errors.
//! - [`error`]: [`ErrorCode`], the stable error codes, and [`WireError`].
//! - [`outcome`]: [`Outcome`], how any game ended (winning seats and reason).
//! - [`draughts`]: international draughts options, actions, view and events.
//! - [`tuolaji`]: Tuolaji options, actions, the per-seat view and events.
//! - [`xiangqi`]: xiangqi options, actions, view and events.

pub mod card;
pub mod codec;
pub mod draughts;
pub mod envelope;
pub mod error;
pub mod outcome;
pub mod tuolaji;
pub mod xiangqi;

pub use card::{Card, NotationError, Rank, Suit};
pub use codec::{
    decode, decode_batch, encode, encode_batch, encode_event_frame, encode_into, DecodeError,
};
pub use envelope::{
    ClientMsg, Event, GameAction, GameKind, GameOptions, PlayerId, RoomEvent, RoomId, RoomInfo,
    RoomOptions, RoomStatus, SeatInfo, Seq, ServerMsg, TableTitle, View, PROTOCOL_VERSION,
};
pub use error::{ErrorCode, ErrorDetails, WireError};
pub use outcome::{HasOutcome, Outcome};
