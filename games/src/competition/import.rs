//! Entries from a CSV shaped like the registration form (附件1 报名表, one per department):
//!
//! ```text
//! department,event,pair,name,phone,joined_group
//! 计算机学院,tuolaji,1,张三,13800000000,是
//! 计算机学院,tuolaji,1,李四,,
//! 计算机学院,xiangqi,,王五,13900000000,否
//! ```
//!
//! `event` is `tuolaji` (or 扑克牌拖拉机/拖拉机) or `xiangqi` (or 中国象棋/象棋). A Tuolaji
//! entry is the two rows of one department with the same pair number (配对 1–4). Phone and
//! group are optional and kept as director-only contact details. A header row is optional
//! (the English names above, or the form's own: 单位,项目,组号,姓名,电话,是否入群, or 部门工会
//! first); a blank line is skipped. Fields may be quoted with `"` (a doubled `""` inside is a
//! quote).
//!
//! Every refusal names its line and, where one is at fault, the field
//! ([`ImportError::details`]), so that a page can say it in its reader's language.

use qipai_protocol::{ErrorCode, ErrorDetails};

use super::{Competition, CompetitionError, Contact, DirectorOnly, Event, Player};
use crate::Coded;

/// What is wrong with an import, and on which line (from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Fewer than the four required fields.
    #[error("line {line}: expected department,event,pair,name[,phone,joined_group], got {fields} field(s)")]
    MissingFields {
        /// Line number.
        line: usize,
        /// Fields found.
        fields: usize,
    },
    /// An unknown event name.
    #[error("line {line}: unknown event `{event}` (tuolaji or xiangqi)")]
    UnknownEvent {
        /// Line number.
        line: usize,
        /// What was written.
        event: String,
    },
    /// A pair number that is not a number from 1 to 99, or none for a Tuolaji row.
    #[error("line {line}: bad pair number `{pair}`")]
    BadPairNumber {
        /// Line number.
        line: usize,
        /// What was written.
        pair: String,
    },
    /// Empty department or name.
    #[error("line {line}: the {field} must not be empty")]
    EmptyField {
        /// Line number.
        line: usize,
        /// `department` or `name`.
        field: &'static str,
    },
    /// A quote left open.
    #[error("line {line}: unterminated quote")]
    UnterminatedQuote {
        /// Line number.
        line: usize,
    },
    /// A Tuolaji pair number with other than two players.
    #[error("line {line}: pair {pair} of {department} has {players} player(s), a pair has 2")]
    IncompletePair {
        /// Line of the pair's first row.
        line: usize,
        /// Its department.
        department: String,
        /// Its number.
        pair: u32,
        /// Players found.
        players: usize,
    },
    /// The competitions refused an entry (不得兼项, a duplicate).
    #[error("line {line}: {error}")]
    Refused {
        /// Line of the entry's first row.
        line: usize,
        /// Why.
        error: CompetitionError,
    },
}

/// One row of the form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormRow {
    /// Line number, from 1.
    pub line: usize,
    /// 部门工会.
    pub department: String,
    /// The event.
    pub event: Event,
    /// 配对, for Tuolaji.
    pub pair: Option<u32>,
    /// The player.
    pub player: Player,
}

/// What the first column of a header row says: the English names, or the registration
/// form's own headings (附件1 报名表, and the page's help text).
const HEADER_FIRST: &[&str] = &["department", "部门工会", "部门", "单位", "工会"];

/// Whether a row is the form's header (on the first non-blank line only).
fn is_header(first: &str) -> bool {
    HEADER_FIRST.iter().any(|h| first.eq_ignore_ascii_case(h))
}

/// Splits one CSV line into fields.
fn fields(text: &str, line: usize) -> Result<Vec<String>, ImportError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match (ch, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cur.push('"');
            }
            ('"', true) => quoted = false,
            ('"', false) if cur.trim().is_empty() => {
                cur.clear();
                quoted = true;
            }
            (',', false) => out.push(std::mem::take(&mut cur).trim().to_owned()),
            _ => cur.push(ch),
        }
    }
    if quoted {
        return Err(ImportError::UnterminatedQuote { line });
    }
    out.push(cur.trim().to_owned());
    Ok(out)
}

/// Parses the form into rows.
///
/// # Errors
/// The first bad line's [`ImportError`].
pub fn parse_form(text: &str) -> Result<Vec<FormRow>, ImportError> {
    let mut rows = Vec::new();
    let mut first = true;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim_start_matches('\u{feff}');
        if raw.trim().is_empty() {
            continue;
        }
        let f = fields(raw, line)?;
        if f.len() < 4 {
            return Err(ImportError::MissingFields {
                line,
                fields: f.len(),
            });
        }
        if std::mem::take(&mut first) && is_header(&f[0]) {
            continue;
        }
        let event = match f[1].to_lowercase().as_str() {
            "tuolaji" | "扑克牌拖拉机" | "拖拉机" => Event::TuolajiPairs,
            "xiangqi" | "中国象棋" | "象棋" => Event::XiangqiSingles,
            _ => {
                return Err(ImportError::UnknownEvent {
                    line,
                    event: f[1].clone(),
                })
            }
        };
        let pair = match (event, f[2].as_str()) {
            (Event::XiangqiSingles, "") => None,
            (_, p) => match p.parse::<u32>() {
                Ok(n @ 1..=99) => Some(n),
                _ => {
                    return Err(ImportError::BadPairNumber {
                        line,
                        pair: f[2].clone(),
                    })
                }
            },
        };
        for (at, field) in [(0, "department"), (3, "name")] {
            if f[at].is_empty() {
                return Err(ImportError::EmptyField { line, field });
            }
        }
        let phone = f.get(4).cloned().unwrap_or_default();
        let joined_group = f.get(5).cloned().unwrap_or_default();
        let contact =
            (!phone.is_empty() || !joined_group.is_empty()).then_some(DirectorOnly(Contact {
                phone,
                joined_group,
            }));
        rows.push(FormRow {
            line,
            department: f[0].clone(),
            event,
            pair,
            player: Player {
                name: f[3].clone(),
                contact,
            },
        });
    }
    Ok(rows)
}

/// Imports the form into the two events' competitions (either may be absent from the form).
/// All or nothing: on an error neither competition changes.
///
/// # Errors
/// [`ImportError`] naming the line.
pub fn import_form(
    text: &str,
    tuolaji: &mut Competition,
    xiangqi: &mut Competition,
) -> Result<(), ImportError> {
    let rows = parse_form(text)?;
    let (mut t, mut x) = (tuolaji.clone(), xiangqi.clone());
    // Tuolaji pairs: group rows by (department, pair) in order of first appearance.
    let mut groups: Vec<(usize, String, u32, Vec<Player>)> = Vec::new();
    for r in rows.iter().filter(|r| r.event == Event::TuolajiPairs) {
        let pair = r.pair.unwrap_or(0);
        match groups
            .iter_mut()
            .find(|g| g.1 == r.department && g.2 == pair)
        {
            Some(g) => g.3.push(r.player.clone()),
            None => groups.push((r.line, r.department.clone(), pair, vec![r.player.clone()])),
        }
    }
    for (line, department, pair, players) in groups {
        if players.len() != 2 {
            return Err(ImportError::IncompletePair {
                line,
                department,
                pair,
                players: players.len(),
            });
        }
        t.add_entry(&department, Some(pair), players, &[&x])
            .map_err(|error| ImportError::Refused { line, error })?;
    }
    for r in rows.iter().filter(|r| r.event == Event::XiangqiSingles) {
        x.add_entry(&r.department, None, vec![r.player.clone()], &[&t])
            .map_err(|error| ImportError::Refused {
                line: r.line,
                error,
            })?;
    }
    *tuolaji = t;
    *xiangqi = x;
    Ok(())
}

impl ImportError {
    /// The line (from 1).
    pub fn line(&self) -> usize {
        match self {
            ImportError::MissingFields { line, .. }
            | ImportError::UnknownEvent { line, .. }
            | ImportError::BadPairNumber { line, .. }
            | ImportError::EmptyField { line, .. }
            | ImportError::UnterminatedQuote { line }
            | ImportError::IncompletePair { line, .. }
            | ImportError::Refused { line, .. } => *line,
        }
    }

    /// What a page needs to say the refusal in its reader's language: a `reason` (the
    /// refused entry's own code for a refused entry), the `line`, the `field` at fault and
    /// what it held (`value`), counts where they matter.
    pub fn details(&self) -> ErrorDetails {
        let u32_of = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let (reason, field, value, count, required) = match self {
            ImportError::MissingFields { fields, .. } => {
                ("missing_fields", None, None, Some(*fields), Some(4))
            }
            ImportError::UnknownEvent { event, .. } => (
                "unknown_event",
                Some("event"),
                Some(event.clone()),
                None,
                None,
            ),
            ImportError::BadPairNumber { pair, .. } => (
                "bad_pair_number",
                Some("pair"),
                Some(pair.clone()),
                None,
                None,
            ),
            ImportError::EmptyField { field, .. } => {
                ("empty_field", Some(*field), None, None, None)
            }
            ImportError::UnterminatedQuote { .. } => ("unterminated_quote", None, None, None, None),
            ImportError::IncompletePair {
                department,
                pair,
                players,
                ..
            } => (
                "incomplete_pair",
                Some("pair"),
                Some(format!("{department} {pair}")),
                Some(*players),
                Some(2),
            ),
            ImportError::Refused { error, .. } => (error.code().as_str(), None, None, None, None),
        };
        ErrorDetails {
            reason: Some(reason.to_owned()),
            line: Some(u32_of(self.line())),
            field: field.map(str::to_owned),
            value,
            count: count.map(u32_of),
            required,
            ..ErrorDetails::default()
        }
    }
}

impl Coded for ImportError {
    /// A refused entry keeps the rules' own code; every other bad line is `bad_entry_form`.
    fn code(&self) -> ErrorCode {
        match self {
            ImportError::Refused { error, .. } => error.code(),
            _ => ErrorCode::BadEntryForm,
        }
    }
}
