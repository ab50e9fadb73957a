//! The Tuolaji judge: reads one JSON situation per line on stdin and prints one JSON verdict
//! per line on stdout, using the same rules code as the server.
//!
//! ```text
//! cargo run -p qipai-games --example tuolaji_judge
//! {"level":"5","trump":"h","lead":["9s","9s"],"hand":["Ks","Ks","Ks","3s"],"play":["Ks","3s"]}
//! {"legal":false,"reason":"第十一条2: a pair of spades is required: you hold Ks Ks","code":"must_match_structure"}
//! ```
//!
//! Fields: `level` (rank: "2"…"10" or "T", "J", "Q", "K", "A"), `trump` (suit letter `s h c d`),
//! `lead` (cards), optional `decomposition` (the leader's declared units, a list of card
//! lists: no two or more of them may together form one unit, `declaration_splits_unit`; a
//! lead with more than one valid split must have one, else `declare_structure` with
//! `"splits"` listing them, 第十一条1), then either or both of:
//! - `hand` and `play`: is `play` a legal follow of the lead from `hand`? (第十一条2)
//! - `others`: the other three holdings in play order from the leader (the second is the
//!   leader's partner): does the lead, as a throw, stand? (第六条5, 第十六条)
//!
//! Output: `{"legal":true}` or `{"legal":false,"reason":…,"code":…}`; with `others`, also
//! `"units"` (the lead's decomposition), `"throw_fails"`, and when it fails `"forced"` (the
//! unit the leader must play instead), `"beaten_by"` (index into `others` of the first
//! holding beating it) and `"beaters"` (every such index). A line that cannot be read gives
//! `{"error":…}`.

use std::io::{BufRead, Write};

use qipai_games::cards::{Card, CardCounts, Rank, Suit};
use qipai_games::tuolaji::{
    check_follow, check_throw, declare::undeclared_units, throw::beaters, validate_decomposition,
    Order, ThrowCheck, TuolajiError,
};
use qipai_games::Coded;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// One input line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Situation {
    level: Value,
    trump: String,
    lead: Vec<Card>,
    #[serde(default)]
    decomposition: Option<Vec<Vec<Card>>>,
    #[serde(default)]
    hand: Option<Vec<Card>>,
    #[serde(default)]
    play: Option<Vec<Card>>,
    #[serde(default)]
    others: Option<Vec<Vec<Card>>>,
}

/// One output line, fields in this order; absent ones are left out.
#[derive(Serialize, Default)]
struct Verdict {
    legal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    units: Option<Vec<Vec<Card>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    throw_fails: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    forced: Option<Vec<Card>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    beaten_by: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    beaters: Option<Vec<usize>>,
    /// With `declare_structure`: the valid splits to declare one of.
    #[serde(skip_serializing_if = "Option::is_none")]
    splits: Option<Vec<Vec<Vec<Card>>>>,
}

fn parse_level(v: &Value) -> Result<Rank, String> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return Err("\"level\" must be a rank such as \"5\", \"10\" or \"A\"".into()),
    };
    let letter = match text.as_str() {
        "10" => 'T',
        s if s.chars().count() == 1 => s.chars().next().unwrap_or('?'),
        _ => '?',
    };
    Rank::from_letter(letter.to_ascii_uppercase())
        .ok_or_else(|| format!("\"level\" {text:?} is not a rank (2–10, J, Q, K, A)"))
}

fn parse_trump(s: &str) -> Result<Suit, String> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Suit::from_letter(c.to_ascii_lowercase()),
        _ => Suit::ALL.into_iter().find(|suit| suit.name() == s),
    }
    .ok_or_else(|| format!("\"trump\" {s:?} is not a suit (s, h, c, d)"))
}

fn refuse(verdict: &mut Verdict, e: &TuolajiError) {
    verdict.legal = false;
    verdict.reason = Some(e.to_string());
    verdict.code = Some(e.code().as_str());
    if let TuolajiError::DeclareStructure { splits } = e {
        verdict.splits = Some(splits.clone());
    }
}

fn error(message: impl Into<String>) -> String {
    json!({"error": message.into()}).to_string()
}

/// The verdict as one JSON line, its fields in declaration order.
fn line_of(verdict: &Verdict) -> String {
    serde_json::to_string(verdict).unwrap_or_else(|e| error(e.to_string()))
}

/// Judges one line.
fn judge(line: &str) -> String {
    let s: Situation = match serde_json::from_str(line) {
        Ok(s) => s,
        Err(e) => return error(format!("cannot read the line: {e}")),
    };
    let order = match (parse_level(&s.level), parse_trump(&s.trump)) {
        (Ok(level), Ok(trump)) => Order::new(trump, level),
        (Err(e), _) | (_, Err(e)) => return error(e),
    };
    if s.play.is_some() != s.hand.is_some() {
        return error("a follow needs both \"hand\" and \"play\"");
    }
    if s.play.is_none() && s.others.is_none() {
        return error("give \"hand\" and \"play\" (a follow) or \"others\" (a throw)");
    }
    if s.others.as_ref().is_some_and(|o| o.len() != 3) {
        return error("\"others\" must list the other three holdings");
    }
    let mut verdict = Verdict {
        legal: true,
        ..Verdict::default()
    };
    let units = match &s.decomposition {
        Some(declared) => validate_decomposition(&order, &s.lead, declared),
        None => undeclared_units(&order, &s.lead),
    };
    let units = match units {
        Ok(units) => units,
        Err(e) => {
            refuse(&mut verdict, &e);
            return line_of(&verdict);
        }
    };
    if let (Some(hand), Some(play)) = (&s.hand, &s.play) {
        let holding: CardCounts = hand.iter().copied().collect();
        if let Err(e) = check_follow(&order, &units, &holding, play) {
            refuse(&mut verdict, &e);
        }
    }
    if let Some(others) = &s.others {
        let holdings: Vec<CardCounts> =
            others.iter().map(|h| h.iter().copied().collect()).collect();
        let refs: Vec<&CardCounts> = holdings.iter().collect();
        verdict.units = Some(units.iter().map(|u| u.cards().to_vec()).collect());
        match check_throw(&order, &units, &refs) {
            ThrowCheck::Unbeatable => verdict.throw_fails = Some(false),
            ThrowCheck::Fails { forced, beaten_by } => {
                verdict.throw_fails = Some(true);
                verdict.forced = Some(forced.cards().to_vec());
                verdict.beaten_by = Some(beaten_by);
                verdict.beaters = Some(beaters(&order, &forced, &refs));
            }
        }
    }
    line_of(&verdict)
}

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match writeln!(stdout, "{}", judge(&line)).and_then(|()| stdout.flush()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            other => other?,
        }
    }
    Ok(())
}
