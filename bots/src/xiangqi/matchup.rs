//! What the xiangqi match tool (`examples/xiangqi_match.rs`) needs besides the server: a
//! UCI engine (Fairy-Stockfish) as a [`Strategy`] that plays one seat through the real
//! protocol, the fixed openings, and the statistics of a match (score with a 95 %
//! interval, Elo difference and estimate).
//!
//! Coordinates: ICCS (the wire) counts ranks 0–9 from Red's side, UCI xiangqi 1–10; files
//! are `a`–`i` in both. FENs are the same.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use qipai_games::xiangqi::{EndRules, History, Move, Position};
use qipai_protocol::xiangqi::{XiangqiAction, XiangqiEvent, XiangqiView};

use crate::strategy::Strategy;

/// Short opening lines (ICCS), played from both sides: 中炮对屏风马, 顺炮, 仙人指路对卒底炮,
/// 飞相局, 起马局, 过宫炮.
pub const OPENINGS: &[(&str, &[&str])] = &[
    (
        "central cannon v screen horses",
        &["h2e2", "h9g7", "h0g2", "i9h9"],
    ),
    ("same-direction cannons", &["h2e2", "h7e7", "h0g2", "h9g7"]),
    ("pawn opening v cannon", &["g3g4", "h7g7"]),
    ("elephant opening", &["c0e2", "h7e7"]),
    ("horse opening", &["b0c2", "h9g7"]),
    ("palace-corner cannon", &["h2f2", "b9c7"]),
];

/// The position after `opening` from the usual start, as a FEN; `None` if a move is not
/// legal.
pub fn opening_fen(opening: &[&str]) -> Option<String> {
    let mut history = History::new(Position::start(), EndRules::default());
    for text in opening {
        let mv = Move::from_iccs(text).ok()?;
        if !history
            .position()
            .legal_move_list()
            .as_slice()
            .contains(&mv)
        {
            return None;
        }
        history.play(mv).ok()?;
    }
    Some(history.position().to_fen())
}

/// Moves one coordinate's rank by `by`; `None` for text that is not `a0`–`i9`-like.
fn shift(text: &str, by: i32) -> Option<String> {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(file) = chars.next() {
        if !('a'..='i').contains(&file) {
            return None;
        }
        let mut digits = String::new();
        while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
            digits.push(d);
            chars.next();
        }
        let rank = digits.parse::<i32>().ok()? + by;
        if !(0..=10).contains(&rank) {
            return None;
        }
        out.push(file);
        out.push_str(&rank.to_string());
    }
    Some(out)
}

/// `h2e2` (ICCS) as UCI xiangqi (`h3e3`).
pub fn iccs_to_uci(iccs: &str) -> Option<String> {
    (iccs.len() == 4).then(|| shift(iccs, 1)).flatten()
}

/// `h3e3` or `a10a9` (UCI xiangqi) as ICCS (`h2e2`, `a9a8`).
pub fn uci_to_iccs(uci: &str) -> Option<String> {
    shift(uci, -1).filter(|s| s.len() == 4)
}

/// How the engine searches each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// `go nodes N`: the same whatever the machine's load.
    Nodes(u64),
    /// `go movetime MS`.
    Movetime(u64),
}

impl Go {
    fn command(self) -> String {
        match self {
            Go::Nodes(n) => format!("go nodes {n}"),
            Go::Movetime(ms) => format!("go movetime {ms}"),
        }
    }
}

/// A UCI engine playing xiangqi, limited to `UCI_Elo` when asked.
pub struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    /// Starts `path`, sets the xiangqi variant and, with `elo`, `UCI_LimitStrength` at that
    /// `UCI_Elo`.
    ///
    /// # Errors
    /// The program cannot be started or does not answer.
    pub fn start(path: &str, elo: Option<u32>) -> io::Result<Engine> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let broken = || io::Error::new(io::ErrorKind::BrokenPipe, "engine pipes");
        let input = child.stdin.take().ok_or_else(broken)?;
        let output = BufReader::new(child.stdout.take().ok_or_else(broken)?);
        let mut engine = Engine {
            child,
            input,
            output,
        };
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        engine.send("setoption name UCI_Variant value xiangqi")?;
        engine.send("setoption name Threads value 1")?;
        if let Some(elo) = elo {
            engine.send("setoption name UCI_LimitStrength value true")?;
            engine.send(&format!("setoption name UCI_Elo value {elo}"))?;
        }
        engine.send("isready")?;
        engine.wait_for("readyok")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.input, "{line}")?;
        self.input.flush()
    }

    /// Reads lines until one starting with `word`; returns it.
    fn wait_for(&mut self, word: &str) -> io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line)? == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the engine stopped",
                ));
            }
            if line.starts_with(word) {
                return Ok(line.trim().to_string());
            }
        }
    }

    /// Tells the engine a new game starts.
    ///
    /// # Errors
    /// The engine does not answer.
    pub fn new_game(&mut self) -> io::Result<()> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok").map(drop)
    }

    /// The engine's move (ICCS) after `moves` (ICCS) from `fen`; `None` when it has none.
    ///
    /// # Errors
    /// The engine does not answer.
    pub fn best_move(&mut self, fen: &str, moves: &[String], go: Go) -> io::Result<Option<String>> {
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(&iccs_to_uci(m).unwrap_or_default());
            }
        }
        self.send(&position)?;
        self.send(&go.command())?;
        let line = self.wait_for("bestmove")?;
        Ok(line.split_whitespace().nth(1).and_then(uci_to_iccs))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// An engine playing one seat of a xiangqi table from `start_fen`.
pub struct EngineStrategy {
    pub engine: Engine,
    pub start_fen: String,
    pub go: Go,
}

impl Strategy for EngineStrategy {
    type View = XiangqiView;
    type Event = XiangqiEvent;
    type Action = XiangqiAction;

    fn decide(&mut self, seat: u8, view: &XiangqiView) -> Option<XiangqiAction> {
        super::to_move(seat, view)?;
        if view.moves.is_empty() {
            let _ = self.engine.new_game();
        }
        let moves: Vec<String> = view.moves.iter().map(|m| m.iccs.to_string()).collect();
        match self.engine.best_move(&self.start_fen, &moves, self.go) {
            Ok(Some(iccs)) => Some(XiangqiAction::Move { iccs }),
            Ok(None) => Some(XiangqiAction::Resign),
            Err(e) => {
                eprintln!("the engine failed: {e}");
                Some(XiangqiAction::Resign)
            }
        }
    }
}

/// A match's results from one player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.96;

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game (a draw is half), 0.5 with no games.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n),
        }
    }

    /// The score's 95 % interval (Wilson's, which stays inside 0–1 and is not empty at a
    /// score of 0 or 1).
    pub fn interval(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let p = self.score();
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// The Elo difference the score means, with its 95 % interval; a score of 0 or 1 is
    /// taken as half a game from it (the estimate is then a bound, not a measure).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let edge = 0.5 / n;
        let s = self.score().clamp(edge, 1.0 - edge);
        let (lo, hi) = self.interval();
        (
            elo_difference(s),
            elo_difference(lo.max(edge / 2.0)),
            elo_difference(hi.min(1.0 - edge / 2.0)),
        )
    }
}

/// The Elo difference at which the stronger side's expected score is `score`.
pub fn elo_difference(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every opening is legal, and each leaves a position for the other side's turn.
    #[test]
    fn the_openings_are_legal() {
        for (name, line) in OPENINGS {
            let fen = opening_fen(line).unwrap_or_else(|| panic!("{name}"));
            let side = if line.len() % 2 == 0 { " w " } else { " b " };
            assert!(fen.contains(side), "{name}: {fen}");
        }
        assert_eq!(opening_fen(&["a0a5"]), None); // the pawn on a3 is in the way
    }

    /// ICCS ranks 0–9 are UCI's 1–10, both ways.
    #[test]
    fn coordinates_convert() {
        assert_eq!(iccs_to_uci("h2e2").as_deref(), Some("h3e3"));
        assert_eq!(iccs_to_uci("b9c7").as_deref(), Some("b10c8"));
        assert_eq!(uci_to_iccs("b10c8").as_deref(), Some("b9c7"));
        assert_eq!(uci_to_iccs("a1a2").as_deref(), Some("a0a1"));
        assert_eq!(uci_to_iccs("(none)"), None);
        assert_eq!(iccs_to_uci("z1a1"), None);
        for (_, line) in OPENINGS {
            for m in *line {
                assert_eq!(uci_to_iccs(&iccs_to_uci(m).unwrap()).as_deref(), Some(*m));
            }
        }
    }

    /// 15–5 is 75 %, about +191 Elo; the interval contains the score and an even score is 0.
    #[test]
    fn scores_and_elo() {
        let t = Tally {
            wins: 14,
            draws: 2,
            losses: 4,
        };
        assert_eq!(t.games(), 20);
        assert!((t.score() - 0.75).abs() < 1e-9);
        let (lo, hi) = t.interval();
        assert!(lo < 0.75 && 0.75 < hi && lo > 0.5 && hi < 0.9, "{lo} {hi}");
        let (d, dlo, dhi) = t.elo();
        assert!((d - 190.8).abs() < 0.5, "{d}");
        assert!(dlo < d && d < dhi);
        assert!(elo_difference(0.5).abs() < 1e-9);
        // A clean sweep is a bound: finite, positive.
        let sweep = Tally {
            wins: 10,
            ..Tally::default()
        };
        let (d, lo, hi) = sweep.elo();
        assert!(d.is_finite() && lo > 0.0 && hi >= d, "{d} {lo} {hi}");
    }
}
