//! The competition API over HTTP (PROTOCOL.md, "Competitions over HTTP").
//!
//! Directors (every request needs a session: `Authorization: Bearer <token>` or the
//! `qipai_director` cookie; without one, `401` and `director_required`):
//! - `POST /api/director/login` `{"name","password"}` → `{"token","expires_ms"}` and the cookie;
//! - `POST /api/director/logout`;
//! - `GET  /api/director/session` → `{"director": name or null}` (no session needed);
//! - `POST /api/director/competitions` (settings JSON) → `{"id"}`;
//! - `POST /api/director/competitions/{id}/entries` (the registration form, CSV) → the
//!   counts and every player's new entry code (`codes`, and `codes_csv` to print): the only
//!   time they are shown, as the store keeps only their SHA-256;
//! - `GET  /api/director/competitions/{id}/entries` (with contacts; no codes);
//! - `POST /api/director/competitions/{id}/entries/{entry}/players/{player}/code` → a new
//!   entry code for that player (`code`, `codes_csv`); the old one stops working at once,
//!   at the entry's open tables too;
//! - `GET  /api/director/qr.svg?text=…` → the QR code of `text` (an entry link), SVG;
//! - `POST /api/director/competitions/{id}/rounds` `{"start"?, "start_at_ms"?}` → the round
//!   paired and published (tables open, players may sit); it starts at once, at the time
//!   given, or with `POST …/rounds/{n}/start` `{"at_ms"?}`;
//! - `POST /api/director/competitions/{id}/rounds/{n}/undo` → the latest round undone while
//!   none of its tables has a result;
//! - `POST /api/director/competitions/{id}/entries/{entry}/withdraw` → the entry paired no
//!   more;
//! - `POST /api/director/competitions/{id}/results` `{"round","table","result","note"}`;
//! - `POST /api/director/competitions/{id}/corrections` `{"round","table","result","reason"}`.
//!
//! Public, read-only (`GET`): `/api/competitions/changes?after=N` (long poll: answers the
//! version of every competition's state once it passes N, or after 25 s), `/api/competitions`, `/api/competitions/{id}`, `…/entries`
//! (never contacts), `…/rounds/{n}` (and `.csv`), `…/standings` (and `.csv`), `…/teams`,
//! `…/awards` (and `.csv`).
//!
//! A player (no credential): `POST /api/entry` `{"code"}` → where the holder of that entry
//! code plays next (`view::next_table`); a wrong code is `bad_entry_code`, and repeated
//! wrong codes from one address `too_many_attempts`, like joining with codes.
//!
//! Errors are `{"error":{"code","message"}}` with the stable codes of `ErrorCode`.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Response, StatusCode};
use axum::response::IntoResponse;
use axum::Extension;
use http_body_util::{BodyExt, Limited};
use qipai_protocol::{ErrorCode, WireError};
use qipai_store::Store;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::App;
use crate::competition::{auth, parse_result, view, CreateRequest};
use crate::gateway::client::Client;
use crate::gateway::refusal::Refusal;

/// The largest request body read (a registration form of a few thousand lines).
pub const MAX_BODY: usize = 1 << 20;

/// An answer: status, content type, body, and extra headers.
pub struct Answer {
    pub status: StatusCode,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// `Set-Cookie`, when a login or logout sets one.
    pub cookie: Option<String>,
}

const JSON: &str = "application/json";
const CSV: &str = "text/csv; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// The longest text a QR code is drawn for (an entry link is far shorter).
const MAX_QR_TEXT: usize = 512;

pub(crate) fn ok(v: &Value) -> Answer {
    Answer {
        status: StatusCode::OK,
        content_type: JSON,
        body: v.to_string().into_bytes(),
        cookie: None,
    }
}

fn csv(text: String) -> Answer {
    Answer {
        status: StatusCode::OK,
        content_type: CSV,
        body: text.into_bytes(),
        cookie: None,
    }
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response<Body> {
        let mut r = Response::new(Body::from(self.body));
        *r.status_mut() = self.status;
        let h = r.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(self.content_type),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if let Some(cookie) = self.cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
            h.insert(header::SET_COOKIE, cookie);
        }
        r
    }
}

/// What every handler answers: the answer, or a refusal in the one shape.
type Answered = Result<Answer, Refusal>;

fn body_error(m: impl Into<String>) -> WireError {
    WireError {
        code: ErrorCode::BadRequestBody,
        message: m.into(),
    }
}

fn not_found(what: &str) -> WireError {
    WireError {
        code: ErrorCode::UnknownCompetition,
        message: format!("not found: {what}"),
    }
}

/// The director's token: the bearer token, else the cookie.
fn token(headers: &HeaderMap) -> Option<String> {
    crate::gateway::client::bearer_or_cookie(headers, auth::COOKIE)
}

/// The request's body, refused when it is over [`MAX_BODY`] or later than its deadline
/// ([`crate::gateway::timed_body`]).
pub(crate) async fn read_body(req: Request) -> Result<Vec<u8>, WireError> {
    Limited::new(req.into_body(), MAX_BODY)
        .collect()
        .await
        .map(|b| b.to_bytes().to_vec())
        .map_err(|e| body_error(format!("the body: {e} (at most {MAX_BODY} bytes)")))
}

pub(crate) fn parse_json<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, WireError> {
    serde_json::from_slice(body).map_err(|e| body_error(format!("JSON: {e}")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Login {
    name: String,
    password: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultBody {
    round: u32,
    table: u32,
    result: String,
    #[serde(default)]
    note: String,
    #[serde(default)]
    reason: String,
    /// A director's result over a game still being played (with `reason`).
    #[serde(default, rename = "override")]
    overrule: bool,
}

/// `POST …/rounds`: empty, or an override (with a reason) of the tables still open, and
/// when the round starts: at once (`start`), at a time (`start_at_ms`), or (neither) when
/// a director starts it.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundBody {
    #[serde(default, rename = "override")]
    overrule: bool,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    start: bool,
    start_at_ms: Option<i64>,
}

/// `POST …/rounds/{n}/start`: now, or at a time to come.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StartBody {
    at_ms: Option<i64>,
}

/// A body that may be empty: then `T::default()`.
fn optional_json<T: Default + for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, WireError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        Ok(T::default())
    } else {
        parse_json(body)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryCode {
    code: String,
}

/// `POST /api/entry`: where the holder of an entry code plays next. Only a wrong code
/// counts against the address (`base::limiter::Limiter`, shared with joining by code).
async fn next_table(
    req: Request,
    shared: &Arc<App>,
    peer: Option<std::net::IpAddr>,
) -> Result<Answer, WireError> {
    // Counted from the request's head: bodies sent later cannot get more codes checked.
    let limiter = &shared.competitions.entry_codes;
    let attempt = match peer {
        Some(addr) => Some(limiter.begin(addr, qipai_store::unix_ms())?),
        None => None,
    };
    let body: EntryCode = parse_json(&read_body(req).await?)?;
    let room_open = |room: u64| room_status(shared, room);
    let found = shared
        .competitions
        .next_table(&crate::competition::code_hash(&body.code), &room_open)
        .await;
    // A right code neither counts nor clears the count: the page asks every few seconds,
    // which must not reset the wait of an address that guesses between its questions.
    if let Some(v) = found {
        return Ok(ok(&v));
    }
    if let Some(attempt) = attempt {
        attempt.failed(qipai_store::unix_ms());
    }
    Err(WireError {
        code: ErrorCode::BadEntryCode,
        message: "no entry has that code".into(),
    })
}

/// The QR code of `text`, as SVG.
fn qr_svg(text: &str) -> Result<Answer, WireError> {
    if text.is_empty() || text.len() > MAX_QR_TEXT {
        return Err(body_error(format!("text: 1 to {MAX_QR_TEXT} bytes")));
    }
    let code = qrcode::QrCode::new(text.as_bytes()).map_err(|e| body_error(e.to_string()))?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(160, 160)
        .build();
    Ok(Answer {
        status: StatusCode::OK,
        content_type: SVG,
        body: svg.into_bytes(),
        cookie: None,
    })
}

pub(crate) fn store(shared: &App) -> Option<&dyn Store> {
    shared.persist.as_ref().map(|p| p.store.as_ref())
}

/// How long `GET /api/competitions/changes` waits for a change before answering anyway.
pub const LONG_POLL: std::time::Duration = std::time::Duration::from_secs(25);

/// The version of the competitions once it is past `after` (at once without `after`), or
/// after [`LONG_POLL`], or when the server shuts down.
async fn changes(shared: &App, after: Option<u64>) -> u64 {
    let mut rx = shared.competitions.watch();
    let Some(after) = after else {
        return *rx.borrow();
    };
    let mut shutdown = shared.shutdown.clone();
    let wait = async {
        let _ = rx.wait_for(|v| *v > after).await;
    };
    tokio::select! {
        _ = tokio::time::timeout(LONG_POLL, wait) => {}
        () = shutdown.wait() => {}
    }
    let v = *rx.borrow();
    v
}

/// The status of an open room, for the live table status.
pub(crate) fn room_status(shared: &App, room: u64) -> Option<&'static str> {
    use qipai_protocol::RoomStatus;
    shared
        .lobby
        .get(room)
        .map(|h| match h.info.borrow().status {
            RoomStatus::Waiting => "waiting",
            RoomStatus::Playing => "playing",
            RoomStatus::Over => "over",
        })
}

/// The value of `key` in the request's query (as sent, not decoded).
fn query<'a>(req: &'a Request, key: &str) -> Option<&'a str> {
    req.uri().query()?.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == key).then_some(v)
    })
}

pub(crate) fn competition_id(s: &str) -> Result<u64, WireError> {
    s.parse().map_err(|_| not_found(s))
}

/// The director of the request's session (`director_required` without one).
pub(crate) async fn director(shared: &App, headers: &HeaderMap) -> Result<String, WireError> {
    let token = token(headers);
    shared
        .competitions
        .directors
        .check(token.as_deref(), store(shared))
        .await
}

/// An unknown path under `/api/director/`: a director's session first, so that the paths
/// directors have are not told to others.
pub async fn director_unknown(State(shared): State<Arc<App>>, headers: HeaderMap) -> Answered {
    director(&shared, &headers).await?;
    Err(Refusal::not_found("no such director action"))
}

/// `POST /api/entry`.
pub async fn entry(
    State(shared): State<Arc<App>>,
    Extension(Client(peer)): Extension<Client>,
    req: Request,
) -> Answered {
    Ok(next_table(req, &shared, Some(peer)).await?)
}

/// `POST /api/director/login`.
pub async fn login(
    State(shared): State<Arc<App>>,
    Extension(Client(peer)): Extension<Client>,
    req: Request,
) -> Answered {
    let comps = &shared.competitions;
    let login: Login = parse_json(&read_body(req).await?)?;
    let (token, expires) = comps
        .directors
        .login(
            &login.name,
            &login.password,
            Some(peer),
            &shared.hashing,
            store(&shared),
        )
        .await?;
    let mut a = ok(&json!({ "token": token, "expires_ms": expires }));
    a.cookie = Some(format!(
        "{}={token}; Path=/api/; HttpOnly; SameSite=Strict",
        auth::COOKIE
    ));
    Ok(a)
}

/// `GET /api/director/session`: whether the page's cookie is a session still (read-only;
/// never a refusal, so the director's page can ask on load).
pub async fn session(State(shared): State<Arc<App>>, headers: HeaderMap) -> Answered {
    let director = director(&shared, &headers).await.ok();
    Ok(ok(&json!({ "director": director })))
}

/// `POST /api/director/logout`.
pub async fn logout(State(shared): State<Arc<App>>, headers: HeaderMap) -> Answered {
    director(&shared, &headers).await?;
    if let Some(t) = token(&headers) {
        shared
            .competitions
            .directors
            .logout(&t, store(&shared))
            .await;
    }
    let mut a = ok(&json!({ "ok": true }));
    a.cookie = Some(format!(
        "{}=; Path=/api/; HttpOnly; SameSite=Strict; Max-Age=0",
        auth::COOKIE
    ));
    Ok(a)
}

/// `POST /api/director/competitions`.
pub async fn create(State(shared): State<Arc<App>>, req: Request) -> Answered {
    director(&shared, req.headers()).await?;
    let comps = &shared.competitions;
    let create: CreateRequest = parse_json(&read_body(req).await?)?;
    let id = comps.create(create).await?;
    Ok(ok(&comps.read(id, |h, _| view::summary(h)).await?))
}

/// `GET /api/director/competitions/{id}/entries` (with contacts; no codes).
pub async fn private_entries(
    State(shared): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answered {
    director(&shared, &headers).await?;
    Ok(ok(&shared
        .competitions
        .read(competition_id(&id)?, |h, _| view::entries(h, true))
        .await?))
}

/// `GET /api/director/qr.svg?text=…`.
pub async fn qr(State(shared): State<Arc<App>>, req: Request) -> Answered {
    director(&shared, req.headers()).await?;
    let text = query(&req, "text")
        .map(crate::gateway::records_api::percent_decode)
        .unwrap_or_default();
    Ok(qr_svg(&text)?)
}

/// `POST /api/director/competitions/{id}/entries/{entry}/players/{player}/code`.
pub async fn reissue(
    State(shared): State<Arc<App>>,
    Path((id, entry, player)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Answered {
    director(&shared, &headers).await?;
    let comps = &shared.competitions;
    let id = competition_id(&id)?;
    let entry: u32 = entry.parse().map_err(|_| body_error("entry: a number"))?;
    let player: usize = player.parse().map_err(|_| body_error("player: a number"))?;
    let issued = comps.reissue(id, entry, player).await?;
    crate::competition::tables::entrants_changed(shared.as_ref(), id, entry).await?;
    let codes_csv = view::codes_csv(std::slice::from_ref(&issued));
    Ok(ok(&json!({ "code": issued, "codes_csv": codes_csv })))
}

/// `POST /api/director/competitions/{id}/entries`: the registration form.
pub async fn import(
    State(shared): State<Arc<App>>,
    Path(id): Path<String>,
    req: Request,
) -> Answered {
    director(&shared, req.headers()).await?;
    let comps = &shared.competitions;
    let id = competition_id(&id)?;
    let text = crate::gateway::entry_form::read(&shared, id, &read_body(req).await?).await?;
    let (mine, partner, codes) = comps.import(id, &text).await?;
    Ok(ok(&json!({
        "competition": id,
        "imported": mine,
        "imported_into_partner": partner,
        "codes_csv": view::codes_csv(&codes),
        "codes": codes,
    })))
}

/// `POST /api/director/competitions/{id}/rounds`: the next round paired and published.
pub async fn start_round(
    State(shared): State<Arc<App>>,
    Path(id): Path<String>,
    req: Request,
) -> Answered {
    director(&shared, req.headers()).await?;
    let comps = &shared.competitions;
    let id = competition_id(&id)?;
    let b: RoundBody = optional_json(&read_body(req).await?)?;
    let overrule = b.overrule.then_some(b.reason.as_str());
    let start_ms = match (b.start, b.start_at_ms) {
        (true, Some(_)) => return Err(body_error("start or start_at_ms, not both").into()),
        (true, None) => Some(qipai_store::unix_ms()),
        (false, at) => at.filter(|ms| *ms > 0),
    };
    let round = crate::competition::tables::next_round(&shared, id, overrule, start_ms).await?;
    let room_open = |room: u64| room_status(&shared, room);
    Ok(ok(&comps
        .read(id, |h, _| view::round(h, &round, &room_open))
        .await?))
}

/// A round number in a path.
fn round_number(n: &str) -> Result<u32, WireError> {
    n.parse().map_err(|_| not_found("no such round"))
}

/// `POST /api/director/competitions/{id}/rounds/{n}/start`: the round starts now (or at
/// `at_ms`); its tables' games begin, lateness and the round clock count from then.
pub async fn begin_round(
    State(shared): State<Arc<App>>,
    Path((id, n)): Path<(String, String)>,
    req: Request,
) -> Answered {
    director(&shared, req.headers()).await?;
    let (id, n) = (competition_id(&id)?, round_number(&n)?);
    let b: StartBody = optional_json(&read_body(req).await?)?;
    let at = b.at_ms.unwrap_or_else(qipai_store::unix_ms);
    let started_ms = shared.competitions.begin_round(id, n, at).await?;
    Ok(ok(
        &json!({ "competition": id, "round": n, "started_ms": started_ms }),
    ))
}

/// `POST /api/director/competitions/{id}/rounds/{n}/undo`: the latest round undone.
pub async fn undo_round(
    State(shared): State<Arc<App>>,
    Path((id, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answered {
    director(&shared, &headers).await?;
    let (id, n) = (competition_id(&id)?, round_number(&n)?);
    let round = crate::competition::tables::undo_round(shared.as_ref(), id, n).await?;
    Ok(ok(&json!({ "competition": id, "undone": round.number })))
}

/// `POST /api/director/competitions/{id}/entries/{entry}/withdraw`.
pub async fn withdraw(
    State(shared): State<Arc<App>>,
    Path((id, entry)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answered {
    director(&shared, &headers).await?;
    let id = competition_id(&id)?;
    let entry: u32 = entry.parse().map_err(|_| body_error("entry: a number"))?;
    shared.competitions.withdraw(id, entry).await?;
    Ok(ok(&json!({ "competition": id, "withdrawn": entry })))
}

/// `POST /api/director/competitions/{id}/results`.
pub async fn results(
    State(shared): State<Arc<App>>,
    Path(id): Path<String>,
    req: Request,
) -> Answered {
    result_or_correction(&shared, &id, req, false).await
}

/// `POST /api/director/competitions/{id}/corrections`.
pub async fn corrections(
    State(shared): State<Arc<App>>,
    Path(id): Path<String>,
    req: Request,
) -> Answered {
    result_or_correction(&shared, &id, req, true).await
}

async fn result_or_correction(shared: &App, id: &str, req: Request, correction: bool) -> Answered {
    let director = director(shared, req.headers()).await?;
    let comps = &shared.competitions;
    let id = competition_id(id)?;
    let b: ResultBody = parse_json(&read_body(req).await?)?;
    let result = parse_result(&b.result).ok_or_else(|| {
        body_error("result: first_wins, draw, second_wins, first_forfeits, second_forfeits or both_forfeit")
    })?;
    if correction {
        comps
            .correct(id, (b.round, b.table), result, &b.reason, &director)
            .await?;
    } else {
        let overrule = b.overrule.then_some(b.reason.as_str());
        crate::competition::tables::director_result(
            shared,
            id,
            (b.round, b.table),
            result,
            &b.note,
            overrule,
        )
        .await?;
    }
    Ok(ok(
        &json!({ "competition": id, "round": b.round, "table": b.table, "result": b.result }),
    ))
}

/// `GET /api/competitions/changes?after=N`: the long poll, within the long-poll budgets
/// (`[limits] max_long_polls`, `long_polls_per_addr`).
pub async fn changes_answer(
    State(shared): State<Arc<App>>,
    Extension(Client(peer)): Extension<Client>,
    req: Request,
) -> Answered {
    let after = query(&req, "after").and_then(|v| v.parse::<u64>().ok());
    let _place = match after {
        Some(_) => Some(shared.budget.long_poll(peer).map_err(|e| {
            Refusal::from(e).with(header::RETRY_AFTER, HeaderValue::from_static("1"))
        })?),
        None => None,
    };
    Ok(ok(&json!({ "version": changes(&shared, after).await })))
}

/// `GET /api/competitions`.
pub async fn list(State(shared): State<Arc<App>>) -> Answered {
    let list: Vec<Value> = shared
        .competitions
        .list()
        .await
        .into_iter()
        .map(|(id, name, event)| json!({ "id": id, "name": name, "event": event }))
        .collect();
    Ok(ok(&json!({ "competitions": list })))
}

/// `GET /api/competitions/{id}`.
pub async fn summary(State(shared): State<Arc<App>>, Path(id): Path<String>) -> Answered {
    Ok(ok(&shared
        .competitions
        .read(competition_id(&id)?, |h, _| view::summary(h))
        .await?))
}

/// `GET /api/competitions/{id}/entries` (never contacts).
pub async fn entries(State(shared): State<Arc<App>>, Path(id): Path<String>) -> Answered {
    Ok(ok(&shared
        .competitions
        .read(competition_id(&id)?, |h, _| view::entries(h, false))
        .await?))
}

/// `GET /api/competitions/{id}/rounds/{n}` (and `.csv`).
pub async fn round(
    State(shared): State<Arc<App>>,
    Path((id, n)): Path<(String, String)>,
) -> Answered {
    let room_open = |room: u64| room_status(&shared, room);
    let (n, as_csv) = match n.strip_suffix(".csv") {
        Some(n) => (n, true),
        None => (n.as_str(), false),
    };
    let n: u32 = n.parse().map_err(|_| not_found("no such round"))?;
    Ok(shared
        .competitions
        .read(competition_id(&id)?, |h, _| {
            let r = h.core.rounds.iter().find(|r| r.number == n)?;
            Some(if as_csv {
                csv(view::round_csv(h, r))
            } else {
                ok(&view::round(h, r, &room_open))
            })
        })
        .await?
        .ok_or_else(|| not_found("no such round"))?)
}

/// `GET /api/competitions/{id}/standings`.
pub async fn standings(State(shared): State<Arc<App>>, Path(id): Path<String>) -> Answered {
    Ok(ok(&shared
        .competitions
        .read(competition_id(&id)?, |h, _| view::standings_json(h))
        .await?))
}

/// `GET /api/competitions/{id}/standings.csv`.
pub async fn standings_csv(State(shared): State<Arc<App>>, Path(id): Path<String>) -> Answered {
    Ok(csv(shared
        .competitions
        .read(competition_id(&id)?, |h, _| view::standings_csv(h))
        .await?))
}

/// `GET /api/competitions/{id}/teams`.
pub async fn teams(State(shared): State<Arc<App>>, Path(id): Path<String>) -> Answered {
    Ok(ok(&shared
        .competitions
        .read(competition_id(&id)?, view::teams_json)
        .await?))
}

/// `GET /api/competitions/{id}/teams.csv`.
pub async fn teams_csv(State(shared): State<Arc<App>>, Path(id): Path<String>) -> Answered {
    Ok(csv(shared
        .competitions
        .read(competition_id(&id)?, view::teams_csv)
        .await?))
}

/// `GET /api/competitions/{id}/awards`.
pub async fn awards(State(shared): State<Arc<App>>, Path(id): Path<String>) -> Answered {
    Ok(ok(&shared
        .competitions
        .read(competition_id(&id)?, view::awards_json)
        .await?))
}

/// `GET /api/competitions/{id}/awards.csv`.
pub async fn awards_csv(State(shared): State<Arc<App>>, Path(id): Path<String>) -> Answered {
    Ok(csv(shared
        .competitions
        .read(competition_id(&id)?, view::awards_csv)
        .await?))
}
