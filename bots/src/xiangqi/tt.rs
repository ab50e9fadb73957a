//! Zobrist keys for positions and the transposition table the search shares between
//! iterations and moves.
//!
//! `Position` carries no hash, so the bot keeps its own: a key per (piece, point) and one for
//! the side to move, XORed in and out as moves are made ([`Zobrist::toggle`]).

use qipai_games::xiangqi::{Move, Piece, Position, Side, Square};

/// Fourteen pieces (seven kinds, two sides) on ninety points.
const PIECE_KEYS: usize = 14 * 90;

/// SplitMix64: a fixed, well-mixed sequence; the keys are the same in every build.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> [u64; PIECE_KEYS + 1] {
    let mut keys = [0u64; PIECE_KEYS + 1];
    let mut state = 0x5158_4951_u64; // "QXQI"
    let mut i = 0;
    while i < keys.len() {
        let (next, key) = splitmix(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
}

static KEYS: [u64; PIECE_KEYS + 1] = make_keys();

/// Zobrist hashing of xiangqi positions.
pub struct Zobrist;

impl Zobrist {
    /// The key of `piece` standing on `square`.
    #[inline]
    pub fn piece(piece: Piece, square: Square) -> u64 {
        let index = (piece.side.index() * 7 + piece.kind as usize) * 90 + square.index();
        KEYS.get(index).copied().unwrap_or(0)
    }

    /// The key XORed in when Black is to move.
    #[inline]
    pub fn black_to_move() -> u64 {
        KEYS.get(PIECE_KEYS).copied().unwrap_or(0)
    }

    /// The key of a whole position, computed from scratch.
    pub fn position(position: &Position) -> u64 {
        let side = match position.side_to_move() {
            Side::Red => 0,
            Side::Black => Zobrist::black_to_move(),
        };
        position
            .board()
            .pieces()
            .fold(side, |key, (sq, piece)| key ^ Zobrist::piece(piece, sq))
    }

    /// What to XOR into the key when `moving` goes from `from` to `to`, capturing `captured`
    /// (the side to move changes too).
    #[inline]
    pub fn toggle(moving: Piece, from: Square, to: Square, captured: Option<Piece>) -> u64 {
        let mut k = Zobrist::piece(moving, from) ^ Zobrist::piece(moving, to);
        if let Some(c) = captured {
            k ^= Zobrist::piece(c, to);
        }
        k ^ Zobrist::black_to_move()
    }
}

/// What a stored score says about the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (the search failed high: a cut).
    Lower,
    /// The true score is at most this (every move failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub best: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// A fixed-size, always-replace-when-deeper-or-newer hash table of search results.
pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MiB (rounded down to a power of two of entries, at
    /// least 1024 entries).
    pub fn new(megabytes: usize) -> Table {
        Table::with_bytes(megabytes.saturating_mul(1 << 20))
    }

    /// A table of at most `bytes` (rounded down to a power of two of entries), but at least
    /// 1024 entries.
    pub fn with_bytes(bytes: usize) -> Table {
        let want = bytes / std::mem::size_of::<Option<Entry>>();
        let want = want.max(1024);
        // The largest power of two not above `want`.
        let size = 1usize << (usize::BITS - 1 - want.leading_zeros());
        Table {
            slots: vec![None; size],
            mask: size - 1,
        }
    }

    fn slot(&self, key: u64) -> usize {
        // The low bits index; the whole key is compared on probe.
        (key as usize) & self.mask
    }

    /// The entry stored for `key`, if the slot holds that position.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots
            .get(self.slot(key))
            .copied()
            .flatten()
            .filter(|e| e.key == key)
    }

    /// Stores `entry`, replacing another position's entry, or this position's when at
    /// least as deep or exact.
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        let i = self.slot(entry.key);
        if let Some(slot) = self.slots.get_mut(i) {
            let replace = match slot {
                Some(old) => {
                    old.key != entry.key || entry.depth >= old.depth || entry.bound == Bound::Exact
                }
                None => true,
            };
            if replace {
                *slot = Some(entry);
            }
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qipai_games::xiangqi::START_FEN;

    /// Incremental keys equal keys computed from scratch, captures included.
    #[test]
    fn incremental_keys_match() {
        let mut pos = Position::from_fen(START_FEN).unwrap();
        let mut key = Zobrist::position(&pos);
        for text in ["h2e2", "h9g7", "e2e6", "g7e6"] {
            let mv = Move::from_iccs(text).unwrap();
            let moving = pos.piece_at(mv.from).unwrap();
            key ^= Zobrist::toggle(moving, mv.from, mv.to, pos.piece_at(mv.to));
            pos.play(mv).unwrap();
            assert_eq!(key, Zobrist::position(&pos));
        }
    }

    /// A stored entry comes back; another key in the same slot does not match it.
    #[test]
    fn store_and_probe() {
        let mut table = Table::new(1);
        let entry = Entry {
            key: 42,
            best: None,
            score: 7,
            depth: 3,
            bound: Bound::Exact,
        };
        table.store(entry);
        assert_eq!(table.probe(42).map(|e| e.score), Some(7));
        assert!(table.probe(42 + (table.mask as u64 + 1)).is_none());
    }

    /// Sizes round down to a power of two of entries, never below 1024.
    #[test]
    fn sizes() {
        let entry = std::mem::size_of::<Option<Entry>>();
        let table = Table::new(8);
        assert!(table.slots.len().is_power_of_two());
        assert!(table.slots.len() * entry <= 8 << 20);
        assert!(table.slots.len() * entry * 2 > 8 << 20);
        assert_eq!(Table::new(0).slots.len(), 1024);
    }
}
