//! The registration form as a director sends it (`POST …/entries`, PROTOCOL.md §17.1).
//!
//! Its bytes as text: organisers fill 附件1 报名表 in Excel and save it as CSV: a Chinese
//! Windows saves it in GBK (the code page 936 that GB18030 extends), a newer Excel in UTF-8
//! with a byte-order mark ("CSV UTF-8"), other tools in UTF-8 without one. All of them import
//! the same.
//!
//! Its refusal, named: [`check`] runs the import on copies of the competitions, so that a
//! bad form is refused with the rules' [`ImportError`] and its details (line, field, what it
//! held) for the page to say in its reader's language; the desk's own import then decides.

use qipai_games::competition::import::{import_form, ImportError};
use qipai_games::competition::{Competition, Event, Settings};

use super::Held;

/// Why the bytes are not a form's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the form is neither UTF-8 nor GBK/GB18030 text (byte {at} does not read)")]
pub struct NotText {
    /// The first byte offset that reads in neither encoding.
    pub at: usize,
}

/// The form as text: a byte-order mark decides (UTF-8, UTF-16); else UTF-8 when the bytes
/// are UTF-8, else GB18030 (which reads every GBK file).
///
/// # Errors
/// [`NotText`] when the bytes are none of these.
pub fn decode(bytes: &[u8]) -> Result<String, NotText> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let rest = bytes.get(bom..).unwrap_or_default();
        return encoding
            .decode_without_bom_handling_and_without_replacement(rest)
            .map(String::from)
            .ok_or(NotText { at: bom });
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_owned()),
        Err(utf8) => encoding_rs::GB18030
            .decode_without_bom_handling_and_without_replacement(bytes)
            .map(String::from)
            .ok_or(NotText {
                at: utf8.valid_up_to(),
            }),
    }
}

/// How the import of `text` into `mine` (and its `partner`, or a blank competition of the
/// other event when it has none) would be refused, if it would.
pub fn check(text: &str, mine: &Held, partner: Option<&Held>) -> Option<ImportError> {
    let mut own = mine.core.clone();
    let mut other = partner.map_or_else(
        || Competition::new(Settings::new(super::other_event(own.settings.event), 0)),
        |p| p.core.clone(),
    );
    let (t, x) = match own.settings.event {
        Event::TuolajiPairs => (&mut own, &mut other),
        Event::XiangqiSingles => (&mut other, &mut own),
    };
    import_form(text, t, x).err()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORM: &str =
        "单位,项目,组号,姓名,电话,是否入群\n计算机学院,拖拉机,1,张三,13800000000,是\n";

    #[test]
    fn utf8_with_and_without_a_bom() {
        assert_eq!(decode(FORM.as_bytes()).unwrap(), FORM);
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), FORM.as_bytes()].concat();
        assert_eq!(decode(&with_bom).unwrap(), FORM);
    }

    #[test]
    fn gbk_and_gb18030() {
        let (gbk, _, unmappable) = encoding_rs::GBK.encode(FORM);
        assert!(!unmappable);
        assert_ne!(&*gbk, FORM.as_bytes());
        assert_eq!(decode(&gbk).unwrap(), FORM);
        // A name GBK cannot write (𠀾, four bytes in GB18030).
        let rare = "数学系,象棋,,王\u{2003e},,\n";
        let (gb18030, _, unmappable) = encoding_rs::GB18030.encode(rare);
        assert!(!unmappable);
        assert_eq!(decode(&gb18030).unwrap(), rare);
    }

    #[test]
    fn utf16_with_its_bom() {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(FORM.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(decode(&bytes).unwrap(), FORM);
    }

    #[test]
    fn bytes_that_are_no_text_are_refused() {
        assert_eq!(decode(b"abc,\xFF\xFF\xFF"), Err(NotText { at: 4 }));
    }
}
