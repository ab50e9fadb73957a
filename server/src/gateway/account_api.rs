//! Accounts over HTTP (PROTOCOL.md, "Accounts over HTTP"; [`crate::accounts`]). JSON in and
//! out; a session is sent back as `Authorization: Bearer <token>` or the `qipai_account`
//! cookie (HttpOnly, SameSite=Lax, the whole site, so the WebSocket upgrade carries it too):
//! - `POST /api/account/signup` `{"name","password"}` → `{"account":{"id","name"},"token","expires_ms"}`
//!   and the cookie;
//! - `POST /api/account/signin` `{"name","password"}` → the same;
//! - `POST /api/account/signout` → `{"ok":true}`, the cookie cleared;
//! - `GET  /api/account` → `{"account": {"id","name"} or null}` (never a refusal);
//! - `POST /api/account/password` `{"password","new_password"}` → a new session (every other
//!   one ends);
//! - `POST /api/account/delete` `{"password"}` → `{"ok":true}`, the cookie cleared.
//!
//! Every `POST` here is refused (`cross_origin`, 403) when a browser says it comes from
//! another site's page: an `Origin` that is not this server's, or `Sec-Fetch-Site:
//! cross-site` or `same-site`. A page's cookie is then never used for a write it did not
//! make (CSRF), nor is a visitor signed in to someone else's account by another site.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap};
use axum::Extension;
use qipai_protocol::{ErrorCode, WireError};
use serde::Deserialize;
use serde_json::json;

use crate::accounts::{Account, Signed, COOKIE};
use crate::app::App;
use crate::gateway::client::{bearer_or_cookie, Client};
use crate::gateway::competition_api::{ok, parse_json, read_body, store, Answer};
use crate::gateway::refusal::Refusal;

type Answered = Result<Answer, Refusal>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    password: String,
    new_password: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Password {
    password: String,
}

/// The account's session token.
fn token(headers: &HeaderMap) -> Option<String> {
    bearer_or_cookie(headers, COOKIE)
}

/// Whether a browser says the request comes from this server's own page: no `Origin`, or
/// one whose host is the request's `Host`; and no `Sec-Fetch-Site` naming another site.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let fetched_from_elsewhere = text(header::HeaderName::from_static("sec-fetch-site"))
        .is_some_and(|site| matches!(site, "cross-site" | "same-site"));
    let origin_ok = match text(header::ORIGIN) {
        None => true,
        Some(origin) => {
            let host = origin.split_once("://").map(|(_, host)| host);
            host.is_some_and(|host| text(header::HOST) == Some(host))
        }
    };
    origin_ok && !fetched_from_elsewhere
}

/// Refuses a write from another site's page.
pub(crate) fn from_this_site(headers: &HeaderMap) -> Result<(), Refusal> {
    if same_origin(headers) {
        return Ok(());
    }
    Err(Refusal::from(WireError {
        code: ErrorCode::CrossOrigin,
        message: "refused: this request comes from another site's page".into(),
    }))
}

fn account_json(a: &Account) -> serde_json::Value {
    json!({ "id": a.id, "name": a.name })
}

/// The session's answer, with its cookie.
fn signed(s: &Signed) -> Answer {
    let mut a = ok(&json!({
        "account": account_json(&s.account),
        "token": s.token,
        "expires_ms": s.expires_ms,
    }));
    let max_age = (s.expires_ms - qipai_store::unix_ms()).max(0) / 1000;
    a.cookie = Some(format!(
        "{COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}",
        s.token
    ));
    a
}

/// `{"ok":true}` and the cookie cleared.
fn signed_out() -> Answer {
    let mut a = ok(&json!({ "ok": true }));
    a.cookie = Some(format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"
    ));
    a
}

/// `POST /api/account/signup`.
pub async fn sign_up(State(shared): State<Arc<App>>, req: Request) -> Answered {
    from_this_site(req.headers())?;
    let c: Credentials = parse_json(&read_body(req).await?)?;
    let s = shared
        .accounts
        .sign_up(&c.name, &c.password, &shared.hashing, store(&shared))
        .await?;
    Ok(signed(&s))
}

/// `POST /api/account/signin`.
pub async fn sign_in(
    State(shared): State<Arc<App>>,
    Extension(Client(peer)): Extension<Client>,
    req: Request,
) -> Answered {
    from_this_site(req.headers())?;
    let c: Credentials = parse_json(&read_body(req).await?)?;
    let s = shared
        .accounts
        .sign_in(&c.name, &c.password, peer, &shared.hashing, store(&shared))
        .await?;
    Ok(signed(&s))
}

/// `POST /api/account/signout`.
pub async fn sign_out(State(shared): State<Arc<App>>, headers: HeaderMap) -> Answered {
    from_this_site(&headers)?;
    let token = token(&headers);
    shared
        .accounts
        .session(token.as_deref(), store(&shared))
        .await?;
    if let Some(token) = token {
        shared.accounts.sign_out(&token, store(&shared)).await?;
    }
    Ok(signed_out())
}

/// `GET /api/account`: who the page's session is (read-only; never a refusal, so the page
/// can ask on load).
pub async fn me(State(shared): State<Arc<App>>, headers: HeaderMap) -> Answered {
    let token = token(&headers);
    let account = shared
        .accounts
        .session(token.as_deref(), store(&shared))
        .await
        .ok();
    Ok(ok(
        &json!({ "account": account.as_ref().map(account_json) }),
    ))
}

/// `POST /api/account/password`.
pub async fn change_password(
    State(shared): State<Arc<App>>,
    Extension(Client(peer)): Extension<Client>,
    req: Request,
) -> Answered {
    from_this_site(req.headers())?;
    let token = token(req.headers());
    let p: NewPassword = parse_json(&read_body(req).await?)?;
    let s = shared
        .accounts
        .change_password(
            token.as_deref(),
            &p.password,
            &p.new_password,
            peer,
            &shared.hashing,
            store(&shared),
        )
        .await?;
    Ok(signed(&s))
}

/// `POST /api/account/delete`.
pub async fn delete(
    State(shared): State<Arc<App>>,
    Extension(Client(peer)): Extension<Client>,
    req: Request,
) -> Answered {
    from_this_site(req.headers())?;
    let token = token(req.headers());
    let p: Password = parse_json(&read_body(req).await?)?;
    let account = shared
        .accounts
        .delete(
            token.as_deref(),
            &p.password,
            peer,
            &shared.hashing,
            store(&shared),
        )
        .await?;
    crate::gateway::entry_links_api::account_deleted(&shared, account.id).await;
    Ok(signed_out())
}
