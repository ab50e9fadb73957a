//! The registration form over HTTP: the body read as text whatever Excel saved it as, and
//! a bad form refused with its line and field in `details` (PROTOCOL.md §17.1), which the
//! director's page says in its reader's language.

use qipai_games::Coded;
use qipai_protocol::{ErrorCode, ErrorDetails};

use super::refusal::Refusal;
use crate::app::App;
use crate::competition::entry_form;

/// The form of `body` for competition `id`, or its refusal (`bad_entry_form` with the line
/// and the field; a refused entry with the rules' own code and its line).
///
/// # Errors
/// As above; `unknown_competition`.
pub async fn read(shared: &App, id: u64, body: &[u8]) -> Result<String, Refusal> {
    let text = entry_form::decode(body).map_err(|e| {
        Refusal::new(ErrorCode::BadEntryForm, e.to_string()).with_details(ErrorDetails {
            reason: Some("not_text".into()),
            ..ErrorDetails::default()
        })
    })?;
    let refused = shared
        .competitions
        .read(id, |mine, partner| entry_form::check(&text, mine, partner))
        .await?;
    match refused {
        Some(e) => Err(Refusal::new(e.code(), e.to_string()).with_details(e.details())),
        None => Ok(text),
    }
}
