//! [`Iccs`]: a xiangqi move's name as the server writes it, held without a `String`.

use std::fmt;
use std::str::FromStr;

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

#[cfg(doc)]
use super::XiangqiAction;

/// A move as the server writes it in ICCS, `h2e2` (files `a`–`i`, ranks `0`–`9`, from then
/// to): the number of its name in a table of all 8,100, so it is `Copy`, two bytes, and a
/// list of legal moves is one allocation rather than one per move. On the wire it is the
/// same str a `String` holding the name would be; reading one checks it is exactly that
/// shape. (A client's own move, [`XiangqiAction::Move`], stays text: the server also
/// accepts `H2-E2` there.)
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Iccs(u16);

/// Points on the board: 9 files × 10 ranks.
const POINTS: usize = 90;

/// Every ICCS name, four bytes each, in the order of their number: from point × 90 + to
/// point, a point being rank × 9 + file. Built at compile time (32,400 bytes), so naming a
/// move is a slice, with no check of the bytes at run time.
static NAMES: &str = {
    static BYTES: [u8; 4 * POINTS * POINTS] = {
        let mut bytes = [0u8; 4 * POINTS * POINTS];
        let mut i = 0;
        while i < POINTS * POINTS {
            let (from, to) = (i / POINTS, i % POINTS);
            bytes[4 * i] = b'a' + (from % 9) as u8;
            bytes[4 * i + 1] = b'0' + (from / 9) as u8;
            bytes[4 * i + 2] = b'a' + (to % 9) as u8;
            bytes[4 * i + 3] = b'0' + (to / 9) as u8;
            i += 1;
        }
        bytes
    };
    match std::str::from_utf8(&BYTES) {
        Ok(names) => names,
        Err(_) => panic!("ICCS names are ASCII"),
    }
};

/// Text that is not a move in the server's ICCS (`h2e2`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an ICCS move like h2e2: {0:?}")]
pub struct NotIccs(pub String);

impl Iccs {
    /// The move from point (`file`, `rank`) to point (`file`, `rank`), files 0–8 from
    /// Red's left, ranks 0–9 from Red's side. A number past the board's edge is taken as
    /// the edge (the games' points never are), so every `Iccs` names two points.
    pub const fn new(from: (u8, u8), to: (u8, u8)) -> Iccs {
        const fn point((file, rank): (u8, u8)) -> u16 {
            let file = if file > 8 { 8 } else { file };
            let rank = if rank > 9 { 9 } else { rank };
            rank as u16 * 9 + file as u16
        }
        Iccs(point(from) * POINTS as u16 + point(to))
    }

    /// The name, `h2e2`.
    pub fn as_str(&self) -> &str {
        let at = usize::from(self.0) * 4;
        // Every number `new` and `from_str` make is below 8,100: the slice is always there.
        NAMES.get(at..at + 4).unwrap_or_default()
    }
}

impl FromStr for Iccs {
    type Err = NotIccs;

    /// Exactly the server's form: lower-case file, rank digit, twice.
    fn from_str(text: &str) -> Result<Iccs, NotIccs> {
        let file = |b: u8| (b'a'..=b'i').contains(&b);
        let rank = |b: u8| b.is_ascii_digit();
        match *text.as_bytes() {
            [f0, r0, f1, r1] if file(f0) && rank(r0) && file(f1) && rank(r1) => {
                Ok(Iccs::new((f0 - b'a', r0 - b'0'), (f1 - b'a', r1 - b'0')))
            }
            _ => Err(NotIccs(text.chars().take(16).collect())),
        }
    }
}

impl fmt::Display for Iccs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// As the name's string would print, so test failures read the same.
impl fmt::Debug for Iccs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl AsRef<str> for Iccs {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for Iccs {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Iccs {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Iccs> for &str {
    fn eq(&self, other: &Iccs) -> bool {
        *self == other.as_str()
    }
}

impl From<Iccs> for String {
    fn from(iccs: Iccs) -> String {
        iccs.as_str().to_owned()
    }
}

impl Serialize for Iccs {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Iccs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Iccs, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Iccs;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an ICCS move like h2e2")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Iccs, E> {
                text.parse()
                    .map_err(|_| E::invalid_value(de::Unexpected::Str(text), &self))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{decode, encode};
    use crate::envelope::{Event, ServerMsg};
    use crate::xiangqi::{Clocks, Side, XiangqiEvent};

    /// The event as it was before [`Iccs`]: the legal moves as text.
    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum TextEvent {
        Moved {
            side: Side,
            iccs: String,
            chinese: String,
            fen: String,
            in_check: bool,
            legal_moves: Vec<String>,
            clocks: Clocks,
            first_move_deadline: Option<u64>,
            draw_offer: Option<Side>,
        },
    }

    #[derive(Serialize)]
    #[serde(tag = "game", rename_all = "snake_case")]
    enum TextGameEvent {
        Xiangqi(TextEvent),
    }

    /// A server message carrying `event` (the frame a client reads).
    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum TextServerMsg {
        Event {
            room_id: u64,
            event_seq: u64,
            server_time: u64,
            event: TextGameEvent,
        },
    }

    const MOVES: [&str; 4] = ["a0a1", "h2e2", "i9i8", "b7e7"];

    fn clocks() -> Clocks {
        Clocks {
            red_ms: 1_800_000,
            black_ms: 1_799_000,
            running: Some(Side::Black),
            server_time: 12,
        }
    }

    fn text_moved(legal_moves: Vec<String>) -> TextServerMsg {
        TextServerMsg::Event {
            room_id: 7,
            event_seq: 3,
            server_time: 12,
            event: TextGameEvent::Xiangqi(TextEvent::Moved {
                side: Side::Red,
                iccs: "h2e2".into(),
                chinese: "炮二平五".into(),
                fen: "fen".into(),
                in_check: false,
                legal_moves,
                clocks: clocks(),
                first_move_deadline: None,
                draw_offer: None,
            }),
        }
    }

    /// The moves of `msg`'s move event: (the move, the legal moves).
    fn moves_of(msg: &ServerMsg) -> Option<(Iccs, &[Iccs])> {
        match msg {
            ServerMsg::Event {
                event:
                    Event::Xiangqi(XiangqiEvent::Moved {
                        iccs, legal_moves, ..
                    }),
                ..
            } => Some((*iccs, legal_moves)),
            _ => None,
        }
    }

    /// A move event as it was written with its legal moves as strings reads back with them
    /// as [`Iccs`], and is written again byte for byte the frame it was.
    #[test]
    fn iccs_list_encodes_as_the_strings_did() {
        let iccs: Vec<Iccs> = MOVES.iter().map(|m| m.parse().unwrap()).collect();
        for (text, want) in [(MOVES.to_vec(), iccs.as_slice()), (Vec::new(), &[])] {
            let text = text.into_iter().map(str::to_owned).collect();
            let bytes = encode(&text_moved(text)).unwrap();
            let msg = decode::<ServerMsg>(&bytes, &["event"]).unwrap();
            assert_eq!(moves_of(&msg), Some((Iccs::new((7, 2), (4, 2)), want)));
            assert_eq!(encode(&msg).unwrap(), bytes);
        }
    }

    /// A frame whose legal moves hold anything but `h2e2`-shaped ICCS is refused as
    /// `bad_shape`, without a panic.
    #[test]
    fn malformed_iccs_is_a_decode_error() {
        for bad in [
            "",
            "h2e",
            "h2e22",
            "j2e2",
            "h2-e2",
            "H2E2",
            "h2eX",
            "炮二平五",
            "h2e\u{e9}",
        ] {
            let bytes = encode(&text_moved(vec!["h2e2".into(), bad.into()])).unwrap();
            let err = decode::<ServerMsg>(&bytes, &["event"]).unwrap_err();
            assert_eq!(err.code, crate::ErrorCode::BadShape, "{bad:?}");
        }
    }

    /// Every name of two points reads back and prints the same; `new` takes the board's
    /// coordinates.
    #[test]
    fn iccs_reads_and_prints() {
        for from in 0..90u8 {
            for to in [0u8, 44, 89] {
                let (a, b) = ((from % 9, from / 9), (to % 9, to / 9));
                let iccs = Iccs::new(a, b);
                let text = format!(
                    "{}{}{}{}",
                    char::from(b'a' + a.0),
                    a.1,
                    char::from(b'a' + b.0),
                    b.1
                );
                assert_eq!(iccs, text.as_str());
                assert_eq!(iccs.to_string(), text);
                assert_eq!(text.parse::<Iccs>(), Ok(iccs));
                assert_eq!(format!("{iccs:?}"), format!("{text:?}"));
            }
        }
        assert_eq!(Iccs::new((9, 10), (200, 255)), "i9i9");
    }
}
