//! PROTOCOL.md stays true to the types: every complete JSON example in it decodes into the
//! protocol's types without a field they do not know, and its table of error codes (§11)
//! is exactly the list in `error.rs`.
//!
//! An example is a fenced `json` block holding one or more whole JSON values ([`values_of`]
//! says how they are read). One abbreviated with `…` or `...` (a long list, a record's
//! shape) is not complete and is only counted. The HTTP sections' bodies (§16, §17, §19,
//! §20: every section "… over HTTP") are the server's JSON, not messages of the protocol:
//! they must parse, nothing more.

use qipai_protocol::{
    draughts::DraughtsAction, tuolaji::TuolajiAction, xiangqi, ClientMsg, ErrorCode, Event,
    RoomInfo, RoomOptions, ServerMsg, View,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

const PROTOCOL: &str = include_str!("../../PROTOCOL.md");

/// One fenced `json` block: the heading it sits under, its first line's number, its text.
struct Example {
    heading: String,
    line: usize,
    text: String,
}

fn examples() -> Vec<Example> {
    let mut out = Vec::new();
    let mut heading = String::new();
    let mut open: Option<Example> = None;
    for (n, line) in PROTOCOL.lines().enumerate() {
        match open.take() {
            Some(example) if line.trim() == "```" => out.push(example),
            Some(mut example) => {
                example.text.push_str(line);
                example.text.push('\n');
                open = Some(example);
            }
            None if line.trim() == "```json" => {
                open = Some(Example {
                    heading: heading.clone(),
                    line: n + 2,
                    text: String::new(),
                });
            }
            None if line.starts_with("## ") => heading = line.to_owned(),
            None => {}
        }
    }
    out
}

/// `value` decoded as `T`, then written back: the error, or a key of `text` that the
/// types dropped (an unknown or misspelt field), or nothing.
fn decodes_as<T: DeserializeOwned + Serialize>(value: &Value) -> Result<(), String> {
    let decoded: T = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
    let back = serde_json::to_value(&decoded).map_err(|e| e.to_string())?;
    match dropped(value, &back, "") {
        Some(path) => Err(format!("the field {path} is not in the types")),
        None => Ok(()),
    }
}

/// The first key of `example` missing from `back` (a `null` may be left out).
fn dropped(example: &Value, back: &Value, at: &str) -> Option<String> {
    match (example, back) {
        (Value::Object(e), Value::Object(b)) => e.iter().find_map(|(k, v)| match b.get(k) {
            Some(bv) => dropped(v, bv, &format!("{at}.{k}")),
            None if v.is_null() => None,
            None => Some(format!("{at}.{k}")),
        }),
        (Value::Array(e), Value::Array(b)) if e.len() == b.len() => e
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (ev, bv))| dropped(ev, bv, &format!("{at}[{i}]"))),
        _ => None,
    }
}

/// The protocol's types an example may be: messages both ways, and the parts the text shows
/// on their own (options, events, views, actions, clocks, a room's listing).
fn decode_any(value: &Value) -> Result<&'static str, Vec<String>> {
    type Check = fn(&Value) -> Result<(), String>;
    let candidates: [(&str, Check); 10] = [
        ("ClientMsg", decodes_as::<ClientMsg>),
        ("ServerMsg", decodes_as::<ServerMsg>),
        ("RoomOptions", decodes_as::<RoomOptions>),
        ("Event", decodes_as::<Event>),
        ("View", decodes_as::<View>),
        ("RoomInfo", decodes_as::<RoomInfo>),
        ("XiangqiAction", decodes_as::<xiangqi::XiangqiAction>),
        ("DraughtsAction", decodes_as::<DraughtsAction>),
        ("TuolajiAction", decodes_as::<TuolajiAction>),
        ("xiangqi::Clocks", decodes_as::<xiangqi::Clocks>),
    ];
    let mut why = Vec::new();
    for (name, check) in candidates {
        match check(value) {
            Ok(()) => return Ok(name),
            Err(e) => why.push(format!("{name}: {e}")),
        }
    }
    Err(why)
}

/// What a block holds: its whole values, and how many were abbreviated (`…`, `...`).
///
/// A block is a stream of JSON values; or, when that does not parse, one message a line
/// (a line may end with a note in brackets, `{…}   (to seat 2)`), where a line with an
/// ellipsis is abbreviated; or else, with an ellipsis somewhere, one abbreviated value.
fn values_of(text: &str) -> Result<(Vec<Value>, usize), String> {
    let stream: Result<Vec<Value>, _> = serde_json::Deserializer::from_str(text)
        .into_iter()
        .collect();
    if let Ok(values) = stream {
        return Ok((values, 0));
    }
    let abbreviated = |t: &str| t.contains('…') || t.contains("...");
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if !lines.iter().all(|l| l.starts_with('{')) {
        return if abbreviated(text) {
            Ok((Vec::new(), 1))
        } else {
            Err("not JSON".into())
        };
    }
    let mut values = Vec::new();
    let mut skipped = 0;
    for line in lines {
        if abbreviated(line) {
            skipped += 1;
            continue;
        }
        let message = match line.rsplit_once("   (") {
            Some((message, note)) if note.ends_with(')') => message,
            _ => line,
        };
        values.push(serde_json::from_str(message).map_err(|e| format!("{message}: {e}"))?);
    }
    Ok((values, skipped))
}

#[test]
fn every_complete_json_example_decodes_into_the_protocol_s_types() {
    let mut decoded = 0;
    let mut abbreviated = 0;
    let mut failures = Vec::new();
    for example in examples() {
        let values = match values_of(&example.text) {
            Ok((values, skipped)) => {
                abbreviated += skipped;
                values
            }
            Err(e) => {
                failures.push(format!("line {}: {e}", example.line));
                continue;
            }
        };
        // The HTTP API's bodies (the sections "… over HTTP") are the server's JSON, not the
        // protocol's messages; §17.4's are the WebSocket's and decode below.
        let http = example.heading.contains(" over HTTP");
        if http && values.iter().all(|v| v.get("type").is_none()) {
            continue;
        }
        for value in &values {
            match decode_any(value) {
                Ok(_) => decoded += 1,
                Err(why) => failures.push(format!(
                    "line {} ({}): {value}\n    {}",
                    example.line,
                    example.heading,
                    why.join("\n    ")
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The text has some 70 messages; far fewer means the blocks are no longer found.
    assert!(decoded >= 60, "only {decoded} examples found");
    println!("{decoded} examples decoded, {abbreviated} abbreviated ones skipped");
}

/// The codes in the first column of §11's table (the first table of the section), in order.
fn documented_codes() -> Vec<String> {
    let section = PROTOCOL
        .split("\n## 11. Errors")
        .nth(1)
        .expect("PROTOCOL.md has a section 11. Errors");
    section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`'))
        .map(|(code, _)| code.to_owned())
        .collect()
}

#[test]
fn the_error_table_lists_exactly_the_codes() {
    let documented = documented_codes();
    let codes: Vec<String> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect();
    let missing: Vec<_> = codes.iter().filter(|c| !documented.contains(c)).collect();
    let unknown: Vec<_> = documented.iter().filter(|c| !codes.contains(c)).collect();
    let mut seen = std::collections::HashSet::new();
    let twice: Vec<_> = documented.iter().filter(|c| !seen.insert(*c)).collect();
    assert!(
        missing.is_empty() && unknown.is_empty() && twice.is_empty(),
        "PROTOCOL.md §11 against error.rs: missing {missing:?}, not codes {unknown:?}, twice {twice:?}"
    );
}
