//! The one shape of every refusal over HTTP: a status and `{"error":{"code","message"}}`
//! with the stable [`ErrorCode`] (PROTOCOL.md §11), the same codes the WebSocket sends, and
//! `details` when the refusal has them (a refused registration form: its line and field),
//! for a page to say it in its reader's language.
//!
//! Handlers answer `Err(Refusal)`; what the router itself refuses (a wrong method, an
//! unknown path, a request its extractors cannot read) is put in this shape by
//! [`uniform`], so no refusal leaves the server as bare text or an empty body.

use axum::body::Body;
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{Response, StatusCode};
use axum::response::IntoResponse;
use qipai_protocol::{ErrorCode, ErrorDetails, WireError};

/// A refused request: its code and message, the status they are sent with, and one extra
/// header when the refusal needs one (`Allow` for a wrong method, `Retry-After` for too
/// many).
#[derive(Debug)]
pub struct Refusal {
    pub status: StatusCode,
    pub error: WireError,
    pub header: Option<(HeaderName, HeaderValue)>,
    /// Boxed: nearly every refusal has none, and it is large.
    pub details: Option<Box<ErrorDetails>>,
}

/// Marks a response as rendered by [`Refusal`] (or as a probe's own answer, [`as_is`]), so
/// [`uniform`] leaves it as it is.
#[derive(Clone, Copy)]
struct Rendered;

/// Leaves `response` out of [`uniform`]: `/healthz` answers `503` with its reason as text,
/// for load balancers and people, which is a state and not a refused request.
pub fn as_is(mut response: Response<Body>) -> Response<Body> {
    response.extensions_mut().insert(Rendered);
    response
}

impl Refusal {
    /// A refusal with `code`'s usual status ([`status_of`]).
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            status: status_of(code),
            error: WireError {
                code,
                message: message.into(),
            },
            header: None,
            details: None,
        }
    }

    /// `404 not_found`.
    pub fn not_found(message: impl Into<String>) -> Refusal {
        Refusal::new(ErrorCode::NotFound, message)
    }

    /// `405 method_not_allowed`, with the methods the path takes in `Allow`.
    pub fn method_not_allowed(allow: HeaderValue) -> Refusal {
        let methods = allow.to_str().unwrap_or_default().to_owned();
        Refusal::new(
            ErrorCode::MethodNotAllowed,
            format!("this path takes {methods}"),
        )
        .with(header::ALLOW, allow)
    }

    /// The same refusal with the details a page says it from.
    pub fn with_details(mut self, details: ErrorDetails) -> Refusal {
        self.details = Some(Box::new(details));
        self
    }

    /// The same refusal with one more header.
    pub fn with(mut self, name: HeaderName, value: HeaderValue) -> Refusal {
        self.header = Some((name, value));
        self
    }
}

impl From<WireError> for Refusal {
    /// With `Retry-After: 1` when the password-hashing pool was full, which frees in a
    /// moment.
    fn from(error: WireError) -> Refusal {
        let header = (error.code == ErrorCode::PasswordChecksBusy)
            .then(|| (header::RETRY_AFTER, HeaderValue::from_static("1")));
        Refusal {
            status: status_of(error.code),
            error,
            header,
            details: None,
        }
    }
}

/// The HTTP status a refusal with `code` is answered with.
pub fn status_of(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::DirectorRequired | ErrorCode::BadCredentials | ErrorCode::AccountRequired => {
            StatusCode::UNAUTHORIZED
        }
        ErrorCode::UnknownCompetition | ErrorCode::UnknownTable | ErrorCode::NotFound => {
            StatusCode::NOT_FOUND
        }
        ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::StoreUnavailable | ErrorCode::Busy => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::TooManyAttempts
        | ErrorCode::TooManyConnections
        | ErrorCode::PasswordChecksBusy => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::EntriesClosed
        | ErrorCode::NoRoundLeft
        | ErrorCode::RoundUnfinished
        | ErrorCode::TableLive
        | ErrorCode::RoundStarted
        | ErrorCode::RoundRecorded
        | ErrorCode::AlreadyEntered
        | ErrorCode::DuplicatePlayer
        | ErrorCode::NameTaken
        | ErrorCode::EntryLinked
        | ErrorCode::AccountHasEntry => StatusCode::CONFLICT,
        ErrorCode::BadEntryCode | ErrorCode::CrossOrigin => StatusCode::FORBIDDEN,
        _ => StatusCode::BAD_REQUEST,
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response<Body> {
        let mut error = serde_json::json!({
            "code": self.error.code.as_str(), "message": self.error.message
        });
        if let Some(details) = &self.details {
            error["details"] = serde_json::to_value(details).unwrap_or_default();
        }
        let body = serde_json::json!({ "error": error });
        let mut r = Response::new(Body::from(body.to_string()));
        *r.status_mut() = self.status;
        let h = r.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if let Some((name, value)) = self.header {
            h.insert(name, value);
        }
        r.extensions_mut().insert(Rendered);
        r
    }
}

/// Puts a refusal the router or an extractor made (an empty `405`, a `404` from no route,
/// an extractor's text `400`) in the one shape; every other response passes unchanged.
pub fn uniform(response: Response<Body>) -> Response<Body> {
    let status = response.status();
    if response.extensions().get::<Rendered>().is_some()
        || !(status.is_client_error() || status.is_server_error())
    {
        return response;
    }
    let refusal = match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            // The router lists methods as `GET,HEAD`; the page and the docs say `GET, HEAD`.
            let allow = response
                .headers()
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok())
                .map(|v| v.split(',').map(str::trim).collect::<Vec<_>>().join(", "))
                .and_then(|v| HeaderValue::from_str(&v).ok())
                .unwrap_or_else(|| HeaderValue::from_static("GET, HEAD"));
            Refusal::method_not_allowed(allow)
        }
        StatusCode::NOT_FOUND => Refusal::not_found("no such path"),
        StatusCode::PAYLOAD_TOO_LARGE => Refusal {
            status,
            ..Refusal::new(ErrorCode::BadRequestBody, "the body is too large")
        },
        other => Refusal {
            status: other,
            ..Refusal::new(
                ErrorCode::BadRequest,
                other.canonical_reason().unwrap_or("refused"),
            )
        },
    };
    refusal.into_response()
}
