//! Notation, kept apart from the rules: positions as [`fen`], moves in Chinese notation
//! ([`chinese()`]); ICCS coordinates are [`Move::from_iccs`](super::Move::from_iccs) and
//! [`Move`](super::Move)'s `Display`.

pub mod chinese;
pub mod fen;

pub use chinese::chinese;

#[cfg(test)]
mod tests;
