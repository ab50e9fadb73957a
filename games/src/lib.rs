//! The rules of qipai's games, as pure state machines.
//!
//! Nothing here does IO, reads a clock or keeps global state: time comes in as arguments and
//! randomness from a seed, so every game replays exactly from (options, seed, timed actions).
//! The server and the bots call this crate; nothing else implements a rule.
//!
//! - [`game`]: the one [`Game`] trait the server's room actor drives, with [`Seat`],
//!   [`Millis`] and the event routing type [`Emit`].
//! - [`catalogue`]: [`catalogue::CATALOGUE`], every game's seats, presets, offered time
//!   controls and bot levels: the one list the page, the bots and the load test read.
//! - [`options`]: [`options::TableOptions`], each game's one options type checked and
//!   resolved into its settings.
//! - [`movetext`]: what the record files (PGN, PDN) share: tags, date, move numbers.
//! - [`clock`]: game clocks as arithmetic on milliseconds (Fischer, periods, sudden death).
//! - [`cards`]: cards, their notation, the three decks and a multiset of cards.
//! - [`tuolaji`]: three-deck Tuolaji (三副牌拖拉机).
//! - [`xiangqi`]: Chinese chess (象棋).
//! - [`draughts`]: international draughts (国际跳棋, 10×10).
//! - [`competition`]: competitions: entries, Swiss pairing, standings, awards, lateness (竞赛).
//! - [`rating`]: players' ratings per game (Glicko-2 for the duels, Weng-Lin for Tuolaji's
//!   pairs) and the server bots' fixed ratings.
//!
//! # Glossary
//! The rules' own words name the types. Where one English word would cover two rule terms,
//! two names are used (the page's "hand" is 盘; the cards a seat holds are its holding):
//!
//! | name | rule term | meaning |
//! |---|---|---|
//! | `tuolaji::Hand` | 盘 | one deal of Tuolaji played out (the rules page's "hand") |
//! | "holding" (`CardCounts`) | 手牌 | the cards one seat holds; never called a hand in code |
//! | `tuolaji::Match` | 局 | hands until a team passes A (the page's "game"; `Game` is the trait) |
//! | `tuolaji::Deal` | 抓牌 | the seeded order in which the cards are drawn, and the bottom |
//! | `tuolaji::Order`, `CardType`, slot | 牌色大小, 牌种 | trump order, the four types, adjacency |
//! | `tuolaji::Unit`, `UnitKind` | 牌种组合 | single, pair (对子), triple (刻子), tractors (对拖, 刻拖) |
//! | `tuolaji::Trick`, lead, follow, throw | 一圈, 引牌, 跟牌, 甩牌 | one lead and three follows |
//! | `tuolaji::Bid`, `BidKind` | 揭牌, 加固, 反揭 | bid, strengthen, counter-bid |
//! | bottom | 底牌 | the six cards the dealer exchanges |
//! | `tuolaji::Level`, `Levels` | 级, 升级 | a team's rank, 2 up to A, and its rise |
//! | dealer | 庄家 | |
//! | trump | 主牌 | |
//! | `xiangqi::Square`, `Position` | 交叉点, 局面 | a point of the board; board and side to move |
//! | `xiangqi::History` | 记录 (第7条) | the game's moves and how it ended |
//! | palace, river | 九宫, 河界 | |
//! | check, perpetual check | 将军, 长将 | |
//! | horse leg, elephant eye | 马腿, 象眼 | the points that block a horse or an elephant |
//! | natural limit | 自然限着 | moves without a capture before a draw |
//! | `clock::Clock`, flag, increment | 计时, 超时, 加秒 | |
//! | `draughts::Kind::Man`, `King` | 普通棋子, 王棋 | a draughts man; a king, which flies along diagonals |
//! | capture, majority capture | 吃子, 吃最多 (第六条12) | taking the most pieces is compulsory |
//! | promotion row | 升变线 (第六条14) | the far row where a man ending its move becomes a king |
//! | `competition::Competition` | 竞赛 | one event's competition: settings, entries, rounds |
//! | `competition::Entry`, `Team` | 参赛队/参赛人员, 部门工会 | a Tuolaji pair or a xiangqi player; a department |
//! | Swiss, `Round`, `Pairing`, `Bye` | 积分编排法, 轮, 对阵, 轮空 | rounds paired by score |
//! | `Standing::points` | 轮分 | round points: 2 win, 1 draw, 0 loss or forfeit |
//! | `Standing::opponents_points` | 对手分 | the points of every opponent met |
//! | `Standing::level_diff` | 级差 | level difference: +2, 0, −2 per round |
//! | lots | 抽签 | draws from a recorded seed |
//! | forfeit | 弃权 | |
//! | not entering both events | 不得兼项 | a player may enter one event only |
//! | arbiter, `Correction` | 仲裁 | a corrected result, kept with its reason |

pub mod cards;
pub mod catalogue;
pub mod clock;
pub mod competition;
pub mod draughts;
pub mod game;
pub mod movetext;
pub mod options;
pub mod rating;
pub mod tuolaji;
pub mod xiangqi;

pub use game::{Coded, Emit, Game, Millis, NoRuling, Received, Seat, Viewer};
