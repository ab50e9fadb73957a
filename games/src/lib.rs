//! The rules of qipai's games, as pure state machines.
//!
//! Nothing here does IO, reads a clock or keeps global state: time comes in as arguments and
//! randomness from a seed, so every game replays exactly from (options, seed, timed actions).
//! The server and the bots call this crate; nothing else implements a rule.
//!
//! - [`game`]: the one [`Game`] trait the server's room actor drives, with [`Seat`],
//!   [`Millis`] and the event routing type [`Emit`].
//! - [`clock`]: game clocks as arithmetic on milliseconds (Fischer, periods, sudden death).
//! - [`cards`]: cards, their notation, the three decks and a multiset of cards.
//! - [`tuolaji`]: three-deck Tuolaji (三副牌拖拉机).
//! - [`xiangqi`]: Chinese chess (象棋).
//!
//! # Glossary
//! The rules' own words name the types. Where one English word would cover two rule terms,
//! two names are used:
//!
//! | type | rule term | meaning |
//! |---|---|---|
//! | `Hand` | 盘 | one deal of Tuolaji played out (the rules page's "hand") |
//! | `Holding` | 手牌 | the cards one seat holds |
//! | `Match` | 局 | a Tuolaji game: hands until a team passes A (the page's "game"; `Game` is the trait) |
//! | `Trick` | 一轮出牌 | one lead and three follows |
//! | `Lead`, `Follow`, `Throw` | 首攻, 跟牌, 甩牌 | the first play of a trick, the others, a multi-unit lead |
//! | `Tractor` | 拖拉机 (对拖, 刻拖) | consecutive pairs or triples |
//! | `Bid`, `CounterBid` | 揭牌, 反揭 | showing level cards to choose trump |
//! | `Bottom` | 底牌 | the six cards the dealer exchanges |
//! | `Level` | 级 | a team's rank, 2 up to A |
//! | `Dealer` | 庄家 | |
//! | `Trump` | 主牌 | |
//! | `Palace`, `River` | 九宫, 河界 | |
//! | `Check`, `Perpetual` | 将军, 长将 | |
//! | `Flag`, `Increment` | 超时, 加秒 | |

pub mod cards;
pub mod clock;
pub mod game;
pub mod tuolaji;
pub mod xiangqi;

pub use game::{Coded, Emit, Game, Millis, Received, Seat, Viewer};
