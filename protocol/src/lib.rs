//! Every message on qipai's wire.
//!
//! Binary WebSocket frames, each one MessagePack value; structs are maps with field names,
//! enums are tagged with a `type` field. `PROTOCOL.md` documents each message with an
//! example.
//!
//! - [`error`]: [`ErrorCode`], the stable error codes, and [`WireError`].

pub mod error;

pub use error::{ErrorCode, WireError};
