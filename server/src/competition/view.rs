//! What the competition API shows: JSON for pages and programs, CSV for spreadsheets and
//! printing. Public views never contain contacts: only [`entries`] with `contacts = true`
//! (the directors' endpoint) reads them.

use qipai_games::competition::standings::{
    individual_awards, is_complete, team_awards, Award, Standing,
};
use qipai_games::competition::{Competition, EntryId, Event, Round};
use serde_json::{json, Value};

use super::{event_name, format_name, result_name, Held};

fn award_name(a: Option<Award>) -> Option<&'static str> {
    a.map(|a| match a {
        Award::First => "first",
        Award::Second => "second",
        Award::Third => "third",
    })
}

/// The award's name as the notice gives it (六2): 一等奖, 二等奖, 三等奖.
fn award_name_zh(a: Option<Award>) -> Option<&'static str> {
    a.map(|a| match a {
        Award::First => "一等奖",
        Award::Second => "二等奖",
        Award::Third => "三等奖",
    })
}

fn names(c: &Competition, e: EntryId) -> Vec<&str> {
    c.entries
        .get(e.index())
        .map(|e| e.players.iter().map(|p| p.name.as_str()).collect())
        .unwrap_or_default()
}

fn team(c: &Competition, e: EntryId) -> &str {
    c.entries.get(e.index()).map_or("", |e| e.team.0.as_str())
}

/// An entry as a public page names it.
fn entry_ref(c: &Competition, e: EntryId) -> Value {
    json!({ "entry": e.0, "team": team(c, e), "players": names(c, e) })
}

/// The competition: settings, rounds paired, corrections (with reason and author).
pub fn summary(h: &Held) -> Value {
    let s = &h.core.settings;
    let corrections: Vec<Value> = h
        .core
        .corrections
        .iter()
        .zip(&h.correction_meta)
        .map(|(c, m)| {
            json!({
                "round": c.round, "table": c.table,
                "before": c.before.map(result_name), "after": result_name(c.after),
                "reason": c.reason, "author": m.author, "at_ms": m.at_ms,
            })
        })
        .collect();
    json!({
        "id": h.id,
        "name": h.name,
        "created_ms": h.created_ms,
        "event": event_name(s.event),
        "format": format_name(s.format),
        "rounds": s.rounds,
        "rounds_paired": h.core.rounds.len(),
        "best_of_three": s.best_of_three,
        "one_event_only": s.one_event_only,
        "xiangqi_lateness_limit_min": s.xiangqi_lateness_limit_min,
        "seed": s.seed.to_string(),
        "partner": h.partner,
        "entries": h.core.entries.len(),
        "withdrawn": h.core.withdrawn.iter().map(|e| e.0).collect::<Vec<u32>>(),
        "corrections": corrections,
    })
}

/// The entries; contacts only when `contacts` (directors). Entry codes are kept hashed:
/// nobody sees them again after they are issued.
pub fn entries(h: &Held, contacts: bool) -> Value {
    let list: Vec<Value> = h
        .core
        .entries
        .iter()
        .map(|e| {
            let players: Vec<Value> = e
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let mut v = match (&p.contact, contacts) {
                        (Some(c), true) => json!({ "name": p.name, "player": i, "phone": c.0.phone, "joined_group": c.0.joined_group }),
                        (None, true) => json!({ "name": p.name, "player": i }),
                        _ => return json!({ "name": p.name }),
                    };
                    // Directors see which players are linked to an account (its id and
                    // name, nothing else of it).
                    v["account"] = json!(h
                        .links
                        .get(&(e.id.0, i))
                        .map(|l| json!({ "id": l.account, "name": l.name })));
                    v
                })
                .collect();
            json!({ "entry": e.id.0, "team": e.team.0, "pair_number": e.pair_number, "players": players })
        })
        .collect();
    json!({ "competition": h.id, "entries": list })
}

/// A table's live status: `finished` with a result, else its room's (`waiting` for its
/// players, `playing`, `over` until the result is recorded), `waiting` before it opens.
fn status(h: &Held, round: u32, table: u32, has_result: bool, room: &RoomStatusOf) -> &'static str {
    let open = h
        .tables
        .get(&(round, table))
        .and_then(|t| t.room)
        .and_then(room);
    match (has_result, open) {
        (true, _) => "finished",
        (false, Some(s)) => s,
        (false, None) => "waiting",
    }
}

/// Where player `player` of `entry` plays next, for the page of the holder of its entry
/// code (never a public page): the competition, the entry, and in the latest round their
/// table (its room, their seat, its status) or their bye; `round` is null before round 1.
pub fn next_table(h: &Held, entry: EntryId, player: usize, room: &RoomStatusOf) -> Value {
    let c = &h.core;
    let e = c.entries.iter().find(|e| e.id == entry);
    let mut v = json!({
        "competition": h.id,
        "name": h.name,
        "event": event_name(c.settings.event),
        "entry": entry.0,
        "team": e.map_or("", |e| e.team.0.as_str()),
        "player": player,
        "player_name": e.and_then(|e| e.players.get(player)).map_or("", |p| p.name.as_str()),
        "rounds": c.settings.rounds,
        "round": null,
    });
    let Some(r) = c.rounds.last() else {
        return v;
    };
    v["round"] = json!(r.number);
    v["round_state"] = json!(round_state(h.round_started_ms.get(&r.number).copied()));
    v["bye"] = json!(r.bye.is_some_and(|b| b.entry == entry));
    if let Some(p) = r
        .pairings
        .iter()
        .find(|p| p.first == entry || p.second == entry)
    {
        let side = usize::from(p.second == entry);
        let extra = h.tables.get(&(r.number, p.table));
        v["table"] = json!(p.table);
        v["seat"] = json!(super::tables::seat_of(c.settings.event, side, player));
        v["room"] = json!(extra.and_then(|t| t.room));
        v["result"] = json!(p.result.map(result_name));
        v["status"] = json!(status(h, r.number, p.table, p.result.is_some(), room));
    }
    v
}

/// The status of an open room by id (`None` when it is not open).
pub type RoomStatusOf<'a> = dyn Fn(u64) -> Option<&'static str> + 'a;

/// One round's pairings, bye and the live status of each table.
pub fn round(h: &Held, r: &Round, room: &RoomStatusOf) -> Value {
    let c = &h.core;
    let tables: Vec<Value> = r
        .pairings
        .iter()
        .map(|p| {
            let extra = h.tables.get(&(r.number, p.table));
            json!({
                "table": p.table,
                "first": entry_ref(c, p.first),
                "second": entry_ref(c, p.second),
                "result": p.result.map(result_name),
                "note": extra.map_or("", |t| t.note.as_str()),
                "room": extra.and_then(|t| t.room),
                "status": status(h, r.number, p.table, p.result.is_some(), room),
            })
        })
        .collect();
    let started_ms = h.round_started_ms.get(&r.number).copied();
    json!({
        "competition": h.id,
        "round": r.number,
        "seed": r.seed.to_string(),
        "started_ms": started_ms,
        "state": round_state(started_ms),
        "bye": r.bye.map(|b| entry_ref(c, b.entry)),
        "tables": tables,
    })
}

/// A round's state (tournaments.md "The day itself"): `published` (pairings shown, tables
/// open, players may sit, the games wait), `scheduled` (a start time is set, still to
/// come), `started` (lateness and the round clock count from `started_ms`).
fn round_state(started_ms: Option<i64>) -> &'static str {
    match started_ms {
        None => "published",
        Some(at) if at > qipai_store::unix_ms() => "scheduled",
        Some(_) => "started",
    }
}

fn standing_json(c: &Competition, s: &Standing, award: Option<Award>) -> Value {
    json!({
        "rank": s.rank,
        "entry": s.entry.0,
        "team": team(c, s.entry),
        "players": names(c, s.entry),
        "points": s.points,
        "opponents_points": s.opponents_points,
        "level_diff": s.level_diff,
        "lot": s.lot,
        "played": s.played,
        "byes": s.byes,
        "withdrawn": c.withdrawn.contains(&s.entry),
        "award": award_name(award),
        "award_zh": award_name_zh(award),
    })
}

/// Standings with every tiebreak (轮分, 对手分, 级差, lots) and the award places (六).
pub fn standings_json(h: &Held) -> Value {
    let rows: Vec<Value> = individual_awards(&h.core)
        .iter()
        .map(|(s, a)| standing_json(&h.core, s, *a))
        .collect();
    json!({
        "competition": h.id,
        "rounds_paired": h.core.rounds.len(),
        "provisional": !is_complete(&h.core),
        "standings": rows,
    })
}

/// The competition and its partner, Tuolaji first.
fn events<'a>(h: &'a Held, partner: Option<&'a Held>) -> Vec<&'a Held> {
    let mut v: Vec<&Held> = std::iter::once(h).chain(partner).collect();
    v.sort_by_key(|x| x.core.settings.event != Event::TuolajiPairs);
    v
}

/// Team totals over the competition and its partner: each department's two best entries,
/// ranked by total, 对手分, 级差, lots; award places capped at two thirds of the teams with
/// an entry that played ([`team_awards`]); `provisional` until both events are complete.
pub fn teams_json(h: &Held, partner: Option<&Held>) -> Value {
    let evs = events(h, partner);
    let cores: Vec<&Competition> = evs.iter().map(|x| &x.core).collect();
    // The lots of teams come from the lower id's seed, whichever of the two is asked.
    let seed = evs
        .iter()
        .min_by_key(|x| x.id)
        .map_or(0, |x| x.core.settings.seed);
    let rows = team_awards(&cores, seed);
    let list: Vec<Value> = rows
        .iter()
        .map(|(t, a)| {
            let a = *a;
            let counted: Vec<Value> = t
                .counted
                .iter()
                .map(|(ev, e)| {
                    let c = cores.iter().find(|c| c.settings.event == *ev);
                    json!({
                        "event": event_name(*ev),
                        "entry": e.0,
                        "players": c.map(|c| names(c, *e)).unwrap_or_default(),
                    })
                })
                .collect();
            json!({
                "rank": t.rank, "team": t.team.0, "total": t.total,
                "opponents_points": t.opponents_points, "level_diff": t.level_diff,
                "lot": t.lot, "counted": counted, "award": award_name(a),
                "award_zh": award_name_zh(a),
            })
        })
        .collect();
    json!({
        "competitions": evs.iter().map(|x| x.id).collect::<Vec<_>>(),
        "provisional": !cores.iter().all(|c| is_complete(c)),
        "teams": list,
    })
}

/// Award places: the entries of this competition and the teams.
pub fn awards_json(h: &Held, partner: Option<&Held>) -> Value {
    let entries: Vec<Value> = individual_awards(&h.core)
        .iter()
        .filter(|(_, a)| a.is_some())
        .map(|(s, a)| standing_json(&h.core, s, *a))
        .collect();
    let team_json = teams_json(h, partner);
    let teams: Vec<Value> = team_json["teams"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter(|t| !t["award"].is_null())
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    json!({
        "competition": h.id,
        "provisional": !is_complete(&h.core),
        "teams_provisional": team_json["provisional"],
        "entries": entries,
        "teams": teams,
    })
}

/// A CSV field, quoted when it must be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn line(fields: &[String]) -> String {
    let l: Vec<String> = fields.iter().map(|f| field(f)).collect();
    l.join(",") + "\n"
}

/// Entry codes just issued as CSV, for directors to print and hand out
/// (`competition,team,pair_number,entry,name,code`): part of the answer that issued them,
/// the only time they exist in clear.
pub fn codes_csv(issued: &[super::IssuedCode]) -> String {
    let head = [
        "competition",
        "team",
        "pair_number",
        "entry",
        "name",
        "code",
    ];
    let mut out = line(&head.map(String::from));
    for c in issued {
        out += &line(&[
            c.competition.to_string(),
            c.team.clone(),
            c.pair_number.map(|n| n.to_string()).unwrap_or_default(),
            c.entry.to_string(),
            c.name.clone(),
            c.code.clone(),
        ]);
    }
    out
}

/// Where each side of a table sits, as the pairing sheet says it (PROTOCOL.md §17.3): a
/// xiangqi table's first-named entry plays Red (seat 0); a Tuolaji table's first-named pair
/// takes seats 1 and 3 (counted from 1 as the page counts them), the second 2 and 4.
pub fn sides(event: Event) -> [&'static str; 2] {
    match event {
        Event::XiangqiSingles => ["red", "black"],
        Event::TuolajiPairs => ["1+3", "2+4"],
    }
}

/// A round's pairings as CSV (a printable list), with each side's colour or seats.
pub fn round_csv(h: &Held, r: &Round) -> String {
    let c = &h.core;
    let [first_side, second_side] = sides(c.settings.event);
    let mut out = line(
        &[
            "round",
            "table",
            "first_team",
            "first_players",
            "first_seats",
            "second_team",
            "second_players",
            "second_seats",
            "result",
        ]
        .map(String::from),
    );
    for p in &r.pairings {
        out += &line(&[
            r.number.to_string(),
            p.table.to_string(),
            team(c, p.first).into(),
            names(c, p.first).join(" / "),
            first_side.into(),
            team(c, p.second).into(),
            names(c, p.second).join(" / "),
            second_side.into(),
            p.result.map_or("", result_name).into(),
        ]);
    }
    if let Some(b) = r.bye {
        out += &line(&[
            r.number.to_string(),
            "bye".into(),
            team(c, b.entry).into(),
            names(c, b.entry).join(" / "),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            "bye".into(),
        ]);
    }
    out
}

/// Team totals as CSV (`teams_json`'s rows): each department's rank, total, tiebreaks, the
/// entries counted and its award.
pub fn teams_csv(h: &Held, partner: Option<&Held>) -> String {
    let v = teams_json(h, partner);
    let head = [
        "rank",
        "team",
        "total",
        "opponents_points",
        "level_diff",
        "lot",
        "counted",
        "award",
        "award_zh",
    ];
    let mut out = line(&head.map(String::from));
    for t in v["teams"].as_array().into_iter().flatten() {
        let counted: Vec<String> = t["counted"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| {
                let players: Vec<String> = e["players"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(text)
                    .collect();
                players.join(" / ")
            })
            .collect();
        out += &line(&[
            text(&t["rank"]),
            text(&t["team"]),
            text(&t["total"]),
            text(&t["opponents_points"]),
            text(&t["level_diff"]),
            text(&t["lot"]),
            counted.join("; "),
            text(&t["award"]),
            text(&t["award_zh"]),
        ]);
    }
    out
}

/// A JSON value as a CSV cell: a string as it is, null empty, anything else as JSON.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Standings as CSV.
pub fn standings_csv(h: &Held) -> String {
    let c = &h.core;
    let mut out = line(
        &[
            "rank",
            "entry",
            "team",
            "players",
            "points",
            "opponents_points",
            "level_diff",
            "lot",
            "played",
            "byes",
            "award",
            "award_zh",
        ]
        .map(String::from),
    );
    for (s, a) in individual_awards(c) {
        out += &line(&[
            s.rank.to_string(),
            s.entry.0.to_string(),
            team(c, s.entry).into(),
            names(c, s.entry).join(" / "),
            s.points.to_string(),
            s.opponents_points.to_string(),
            s.level_diff.to_string(),
            s.lot.to_string(),
            s.played.to_string(),
            s.byes.to_string(),
            award_name(a).unwrap_or("").into(),
            award_name_zh(a).unwrap_or("").into(),
        ]);
    }
    out
}

/// Award places (entries, then teams) as CSV.
pub fn awards_csv(h: &Held, partner: Option<&Held>) -> String {
    let a = awards_json(h, partner);
    let head = [
        "kind", "rank", "award", "award_zh", "team", "players", "points",
    ];
    let mut out = line(&head.map(String::from));
    let s = text;
    for e in a["entries"].as_array().into_iter().flatten() {
        let players: Vec<String> = e["players"]
            .as_array()
            .into_iter()
            .flatten()
            .map(s)
            .collect();
        out += &line(&[
            "entry".into(),
            s(&e["rank"]),
            s(&e["award"]),
            s(&e["award_zh"]),
            s(&e["team"]),
            players.join(" / "),
            s(&e["points"]),
        ]);
    }
    for t in a["teams"].as_array().into_iter().flatten() {
        out += &line(&[
            "team".into(),
            s(&t["rank"]),
            s(&t["award"]),
            s(&t["award_zh"]),
            s(&t["team"]),
            String::new(),
            s(&t["total"]),
        ]);
    }
    out
}
