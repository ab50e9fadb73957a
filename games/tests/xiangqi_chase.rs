//! Perpetual chase (长捉, 4.1.7; `rules/xiangqi.md`, "Perpetual chase") against
//! Fairy-Stockfish: `data/xiangqi_chase.txt`, written by `data/gen_chase.py` with `pyffish`,
//! holds repetition cycles with Fairy-Stockfish's outcome; each is replayed through
//! [`History`] and must end the same way, or as the case's own column says with its reason
//! (where our rule differs from Fairy-Stockfish's on purpose). Plus hand-made golden cases.

use qipai_games::xiangqi::{EndReason, EndRules, History, Move, Outcome, Position, Side};

const GOLDEN: &str = include_str!("data/xiangqi_chase.txt");

fn outcome_name(o: Option<Outcome>) -> String {
    match o {
        None => "none".into(),
        Some(Outcome {
            winner: Some(Side::Red),
            ..
        }) => "red".into(),
        Some(Outcome {
            winner: Some(Side::Black),
            ..
        }) => "black".into(),
        Some(Outcome { winner: None, .. }) => "draw".into(),
    }
}

fn play(fen: &str, moves: &str) -> Option<Outcome> {
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut game = History::new(start, EndRules::default());
    let mut last = None;
    for m in moves.split_whitespace() {
        let mv = Move::from_iccs(m).unwrap();
        assert!(last.is_none(), "{fen} | {moves}: ended before {m}");
        last = game
            .play(mv)
            .unwrap_or_else(|e| panic!("{fen} | {moves}: {m}: {e}"));
    }
    last
}

/// Every case of the golden file agrees with Fairy-Stockfish, or differs as its line says.
#[test]
fn golden_file_agrees_with_fairy_stockfish() {
    let mut cases = 0;
    let mut decisive = 0;
    let mut differs = 0;
    let mut wrong = Vec::new();
    for line in GOLDEN
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let [fen, moves, fsf, ours, tags, why] = f[..] else {
            panic!("bad line: {line}");
        };
        let expected = if ours == "-" { fsf } else { ours };
        if ours != "-" {
            assert!(!why.is_empty(), "a difference needs its reason: {line}");
            differs += 1;
        }
        let outcome = play(fen, moves);
        let got = outcome_name(outcome);
        if got != expected {
            wrong.push(format!("{fen} | {moves} | {fsf} | ours: {got}"));
        }
        // 4.1.7: a side checking with every move loses for perpetual check (check outranks
        // chase); otherwise a decisive cycle is a perpetual chase.
        if let Some(Outcome {
            winner: Some(_),
            reason,
        }) = outcome
        {
            let want = if tags.contains("checks") {
                EndReason::PerpetualCheck
            } else {
                EndReason::PerpetualChase
            };
            assert_eq!(reason, want, "{line}");
        }
        cases += 1;
        decisive += usize::from(expected != "draw");
    }
    assert!(
        wrong.is_empty(),
        "{} of {cases} disagree:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(cases >= 200, "only {cases} cases");
    assert!(decisive > 0);
    eprintln!("{cases} cases, {decisive} decisive, {differs} differing on purpose");
}
