//! The codec: the only place that calls rmp-serde. One MessagePack value per binary frame:
//! a client's frame is one message; a server's frame is one message or a **batch**, an array
//! of messages to be handled in order (what one step of a room says to one connection goes
//! in one frame, [`encode_batch`], [`decode_batch`]).
//!
//! Decoding sorts failures the way a client needs to hear about them: bytes that are not
//! MessagePack at all, or more than one value (`malformed`), a value with no or an unknown
//! `type` (`unknown_type`),
//! a known `type` with missing or mistyped fields (`bad_shape`), and a card, suit or rank
//! that is not in the notation (`bad_card`, [`NotationError`]). When the frame carries a
//! readable `seq`, the error echoes it.

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

use crate::card::NotationError;
use crate::error::ErrorCode;

/// Why a frame could not be decoded, with the request's `seq` when it could be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DecodeError {
    pub code: ErrorCode,
    pub seq: Option<u64>,
    pub message: String,
}

/// Encodes a message: structs as maps with field names, so clients read plain objects.
///
/// # Errors
/// Only if a value cannot be represented in MessagePack (a map with non-string keys would
/// still work; in practice our types always encode).
pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, rmp_serde::encode::Error> {
    rmp_serde::to_vec_named(value)
}

/// [`encode`] appended to `buf`: a caller that encodes many messages keeps one buffer
/// instead of growing a new one from nothing for each.
///
/// # Errors
/// As [`encode`]; `buf` may then hold part of the value.
pub fn encode_into<T: Serialize>(
    buf: &mut Vec<u8>,
    value: &T,
) -> Result<(), rmp_serde::encode::Error> {
    rmp_serde::encode::write_named(buf, value)
}

/// One frame holding every message of `parts` (each already encoded), to be handled in
/// order: the message itself when there is one, else a MessagePack array of them. The parts
/// are copied behind the array's header, not encoded again, so a message said to many
/// connections is still encoded once.
pub fn encode_batch(parts: &[&[u8]]) -> Vec<u8> {
    if let [one] = parts {
        return one.to_vec();
    }
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let mut frame = Vec::with_capacity(len + 5);
    let count = u32::try_from(parts.len()).unwrap_or(u32::MAX);
    // Writing to a vector cannot fail.
    let _ = rmp::encode::write_array_len(&mut frame, count);
    for part in parts {
        frame.extend_from_slice(part);
    }
    frame
}

/// A [`ServerMsg::Event`](crate::ServerMsg::Event) frame around an event already encoded
/// ([`encode`]), appended to `frame`: the same bytes as encoding the message, without
/// encoding the event again. A room encodes each event once and keeps those bytes for the
/// game's record too. The fields are written in the order the variant declares them, the
/// event last (a test compares the two encodings).
pub fn encode_event_frame(
    frame: &mut Vec<u8>,
    (room_id, event_seq, server_time): (crate::RoomId, u64, u64),
    event: &[u8],
) {
    // The type, the three numbers and their names take at most 75 bytes.
    frame.reserve(75 + event.len());
    // Writing to a vector cannot fail.
    let _ = rmp::encode::write_map_len(frame, 5);
    let _ = rmp::encode::write_str(frame, "type");
    let _ = rmp::encode::write_str(frame, "event");
    for (key, value) in [
        ("room_id", room_id),
        ("event_seq", event_seq),
        ("server_time", server_time),
    ] {
        let _ = rmp::encode::write_str(frame, key);
        let _ = rmp::encode::write_uint(frame, value);
    }
    let _ = rmp::encode::write_str(frame, "event");
    frame.extend_from_slice(event);
}

/// Decodes a frame that may be a batch ([`encode_batch`]): its messages in order, one for a
/// frame that holds a single message.
///
/// # Errors
/// As [`decode`], for the frame or for the first message of a batch that does not decode.
pub fn decode_batch<T: DeserializeOwned>(
    bytes: &[u8],
    known: &[&str],
) -> Result<Vec<T>, DecodeError> {
    let mut reader = bytes;
    let Ok(count) = rmp::decode::read_array_len(&mut reader) else {
        return decode(bytes, known).map(|one| vec![one]);
    };
    let mut de = rmp_serde::Deserializer::new(std::io::Cursor::new(reader));
    let mut messages = Vec::with_capacity(count.min(64) as usize);
    for _ in 0..count {
        let start = usize::try_from(de.position()).unwrap_or(reader.len());
        let message = T::deserialize(&mut de)
            .map_err(|e| classify(reader.get(start..).unwrap_or_default(), known, &e))?;
        messages.push(message);
    }
    if usize::try_from(de.position()).ok() != Some(reader.len()) {
        return Err(DecodeError {
            code: ErrorCode::Malformed,
            seq: None,
            message: "a batch must hold exactly its messages".into(),
        });
    }
    Ok(messages)
}

/// The few fields read before the full decode, to classify errors and echo `seq`.
#[derive(Deserialize)]
struct Peek {
    #[serde(rename = "type")]
    ty: Option<String>,
    seq: Option<u64>,
}

/// The `type` alone.
#[derive(Deserialize)]
struct PeekType {
    #[serde(rename = "type")]
    ty: Option<String>,
}

/// Decodes one frame into `T`, whose variants' `type` names are `known`. The frame must be
/// exactly one value: bytes after it would be ignored by one reader and read by another.
///
/// # Errors
/// [`DecodeError`] with `malformed`, `unknown_type` or `bad_shape`.
pub fn decode<T: DeserializeOwned>(bytes: &[u8], known: &[&str]) -> Result<T, DecodeError> {
    // A good frame is read once; only a frame that fails is read again, to say why. (What
    // decodes as `T` is MessagePack with one of `T`'s types, so the answer is the same.)
    let mut de = rmp_serde::Deserializer::new(std::io::Cursor::new(bytes));
    let value = T::deserialize(&mut de).map_err(|e| classify(bytes, known, &e))?;
    if usize::try_from(de.position()).ok() != Some(bytes.len()) {
        return Err(DecodeError {
            code: ErrorCode::Malformed,
            seq: rmp_serde::from_slice::<Peek>(bytes)
                .ok()
                .and_then(|p| p.seq),
            message: "a frame must hold exactly one MessagePack value".into(),
        });
    }
    Ok(value)
}

/// Why `bytes`, which did not decode (`error`), is refused.
fn classify(bytes: &[u8], known: &[&str], error: &rmp_serde::decode::Error) -> DecodeError {
    if rmp_serde::from_slice::<IgnoredAny>(bytes).is_err() {
        return DecodeError {
            code: ErrorCode::Malformed,
            seq: None,
            message: "the frame is not a MessagePack value".into(),
        };
    }
    // A mistyped `seq` must not hide the `type`: peek at it alone then.
    let peek = rmp_serde::from_slice::<Peek>(bytes).unwrap_or_else(|_| Peek {
        ty: rmp_serde::from_slice::<PeekType>(bytes)
            .ok()
            .and_then(|p| p.ty),
        seq: None,
    });
    let seq = peek.seq;
    match peek.ty.as_deref() {
        None => DecodeError {
            code: ErrorCode::BadShape,
            seq,
            message: "a message must be a map with a string `type` field".into(),
        },
        Some(ty) if !known.contains(&ty) => DecodeError {
            code: ErrorCode::UnknownType,
            seq,
            message: format!("unknown message type `{}`", truncate(ty)),
        },
        Some(_) if is_notation(error) => DecodeError {
            code: ErrorCode::BadCard,
            seq,
            message: error.to_string(),
        },
        Some(ty) => DecodeError {
            code: ErrorCode::BadShape,
            seq,
            message: format!(
                "`{}` message has the wrong shape: {}",
                ty,
                truncate(&error.to_string())
            ),
        },
    }
}

/// Whether `error` is a card, suit or rank that is not in the notation: the frame has the
/// right shape, and its cards are refused as the rules would refuse them.
fn is_notation(error: &rmp_serde::decode::Error) -> bool {
    matches!(error, rmp_serde::decode::Error::Syntax(m) if NotationError::is_its_message(m))
}

/// Keeps echoed client text short.
fn truncate(s: &str) -> &str {
    match s.char_indices().nth(80) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::ClientMsg;

    fn decode_client(bytes: &[u8]) -> Result<ClientMsg, DecodeError> {
        decode(bytes, ClientMsg::TYPES)
    }

    /// The event frame written around encoded event bytes is the message's own encoding,
    /// for numbers of every MessagePack width and for events of each kind.
    #[test]
    fn an_event_frame_around_encoded_bytes_is_the_messages_encoding() {
        use crate::envelope::{Event, RoomEvent, ServerMsg};
        let events = [
            Event::Room(RoomEvent::Left { seat: 3 }),
            Event::Xiangqi(crate::xiangqi::XiangqiEvent::DrawOffered {
                by: crate::xiangqi::Side::Black,
            }),
        ];
        let widths = [
            0,
            1,
            127,
            128,
            255,
            256,
            65_535,
            65_536,
            1 << 32,
            (1 << 53) - 1,
        ];
        for event in events {
            let bytes = encode(&event).unwrap();
            for (i, &n) in widths.iter().enumerate() {
                let place = (
                    n,
                    widths[(i + 3) % widths.len()],
                    widths[(i + 7) % widths.len()],
                );
                let message = ServerMsg::Event {
                    room_id: place.0,
                    event_seq: place.1,
                    server_time: place.2,
                    event: event.clone(),
                };
                let mut frame = vec![];
                encode_event_frame(&mut frame, place, &bytes);
                assert_eq!(frame, encode(&message).unwrap(), "{place:?}");
            }
        }
    }

    #[test]
    fn garbage_is_malformed() {
        let err = decode_client(&[0xc1, 0xff, 0x00]).unwrap_err();
        assert_eq!(err.code, ErrorCode::Malformed);
    }

    #[test]
    fn bytes_after_the_value_are_malformed() {
        let one = encode(&ClientMsg::Ping {
            seq: 7,
            client_time: None,
        })
        .unwrap();
        assert!(decode_client(&one).is_ok());
        let mut two = one.clone();
        two.extend_from_slice(&one);
        let err = decode_client(&two).unwrap_err();
        assert_eq!((err.code, err.seq), (ErrorCode::Malformed, Some(7)));
        let mut trailing = one;
        trailing.push(0xc0);
        assert_eq!(
            decode_client(&trailing).unwrap_err().code,
            ErrorCode::Malformed
        );
    }

    #[test]
    fn a_map_without_type_is_bad_shape() {
        #[derive(Serialize)]
        struct NoType {
            seq: u64,
        }
        let err = decode_client(&encode(&NoType { seq: 4 }).unwrap()).unwrap_err();
        assert_eq!((err.code, err.seq), (ErrorCode::BadShape, Some(4)));
    }

    #[test]
    fn an_unknown_type_is_named() {
        #[derive(Serialize)]
        struct Odd {
            #[serde(rename = "type")]
            ty: &'static str,
            seq: u64,
        }
        let bytes = encode(&Odd {
            ty: "teleport",
            seq: 9,
        })
        .unwrap();
        let err = decode_client(&bytes).unwrap_err();
        assert_eq!((err.code, err.seq), (ErrorCode::UnknownType, Some(9)));
        assert!(err.message.contains("teleport"));
    }

    #[test]
    fn a_known_type_with_wrong_fields_is_bad_shape() {
        #[derive(Serialize)]
        struct Ping {
            #[serde(rename = "type")]
            ty: &'static str,
            seq: &'static str,
        }
        let bytes = encode(&Ping {
            ty: "ping",
            seq: "x",
        })
        .unwrap();
        assert_eq!(decode_client(&bytes).unwrap_err().code, ErrorCode::BadShape);
    }

    /// A card, suit or rank outside the notation is `bad_card` with the request's `seq`,
    /// as the rules refused it when cards travelled as strings; a card of the wrong type
    /// (not text) is still `bad_shape`.
    #[test]
    fn a_card_not_in_the_notation_is_bad_card() {
        let frame = |action: serde_json::Value| {
            encode(&serde_json::json!({"type": "tuolaji", "seq": 5, "action": action})).unwrap()
        };
        for action in [
            serde_json::json!({"type": "bid", "cards": ["2x"]}),
            serde_json::json!({"type": "lead", "cards": ["As"], "declared": [["Zz"]]}),
            serde_json::json!({"type": "name_trump", "suit": "x"}),
            serde_json::json!({"type": "follow", "cards": ["9h", "10h"]}),
        ] {
            let err = decode_client(&frame(action.clone())).unwrap_err();
            assert_eq!(
                (err.code, err.seq),
                (ErrorCode::BadCard, Some(5)),
                "{action}"
            );
            assert!(err.message.starts_with('`'), "{}", err.message);
        }
        let err = decode_client(&frame(serde_json::json!({"type": "bid", "cards": [7]})));
        assert_eq!(err.unwrap_err().code, ErrorCode::BadShape);
        let good = frame(serde_json::json!({"type": "follow", "cards": ["9h", "SJ"]}));
        assert!(decode_client(&good).is_ok());
    }

    #[test]
    fn a_batch_decodes_to_its_messages_in_order() {
        use crate::envelope::ServerMsg;
        let ok = |seq| encode(&ServerMsg::Ok { seq }).unwrap();
        let (one, two, three) = (ok(1), ok(2), ok(3));
        let known = ServerMsg::TYPES;
        let single = encode_batch(&[&one]);
        assert_eq!(single, one, "a batch of one is the message itself");
        assert_eq!(
            decode_batch::<ServerMsg>(&single, known).unwrap(),
            vec![ServerMsg::Ok { seq: 1 }]
        );
        let batch = encode_batch(&[&one, &two, &three]);
        let back = decode_batch::<ServerMsg>(&batch, known).unwrap();
        let seqs: Vec<_> = back
            .iter()
            .map(|m| match m {
                ServerMsg::Ok { seq } => *seq,
                _ => 0,
            })
            .collect();
        assert_eq!(seqs, [1, 2, 3]);
        let many: Vec<Vec<u8>> = (0..20).map(ok).collect();
        let parts: Vec<&[u8]> = many.iter().map(Vec::as_slice).collect();
        assert_eq!(
            decode_batch::<ServerMsg>(&encode_batch(&parts), known)
                .unwrap()
                .len(),
            20,
            "past fifteen the array's header is three bytes"
        );
    }

    #[test]
    fn a_short_or_padded_batch_is_malformed() {
        use crate::envelope::ServerMsg;
        let one = encode(&ServerMsg::Ok { seq: 1 }).unwrap();
        let batch = encode_batch(&[&one, &one]);
        let short = &batch[..batch.len() - 1];
        assert!(decode_batch::<ServerMsg>(short, ServerMsg::TYPES).is_err());
        let mut padded = batch;
        padded.push(0xc0);
        assert_eq!(
            decode_batch::<ServerMsg>(&padded, ServerMsg::TYPES)
                .unwrap_err()
                .code,
            ErrorCode::Malformed
        );
    }

    #[test]
    fn long_unknown_types_are_truncated() {
        assert_eq!(truncate(&"é".repeat(200)).chars().count(), 80);
    }
}
