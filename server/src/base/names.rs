//! Player names: what `hello` may call a person, and when two names are the same name.
//!
//! A name is normalised to NFKC (so "Bot １", full-width, is "Bot 1", and one name has one
//! form), trimmed, 1 to [`MAX_NAME`] characters, with no control, format or
//! default-ignorable character (zero-width spaces and joiners, bidirectional controls, the
//! byte-order mark, variation selectors, tags, the combining grapheme joiner, Hangul
//! fillers), and with at least one visible character (not only spaces and combining marks).
//!
//! Two names are one name when their [`name_key`]s are equal: the key folds case and maps
//! each character to its confusable prototype (the skeleton of Unicode TS #39, from the
//! `unicode-security` crate), so Cyrillic "Вot 1" is Latin "Bot 1", and drops combining
//! marks and spaces, so "Bot 1" with an accent on the 1 is "Bot 1" too. A name whose key is
//! that of a bot's name ("Bot 2") is kept for the server's bots; registered names are kept
//! by their key (the accounts' unique key).

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// The longest player name, in characters.
pub const MAX_NAME: usize = 32;

/// The name the server gives its bot in seat `seat` (0-based).
pub fn bot_name(seat: u8) -> String {
    format!("Bot {}", u32::from(seat) + 1)
}

/// The name as it will be shown, or why it is refused.
///
/// # Errors
/// A sentence saying what is wrong.
pub fn check(raw: &str) -> Result<String, &'static str> {
    let name: String = raw.nfkc().collect();
    let name = name.trim();
    if name.chars().any(hidden) {
        return Err("a name may not hold control or invisible formatting characters");
    }
    let chars = name.chars().count();
    if chars == 0 || !name.chars().any(visible) {
        return Err("a name needs a visible character");
    }
    if chars > MAX_NAME {
        return Err("a name has at most 32 characters");
    }
    if looks_like_bot(name) {
        return Err("names that look like \"Bot 1\" are kept for the server's bots");
    }
    Ok(name.to_owned())
}

/// What two names are compared by: NFKC in capitals (capitals have the richer prototypes:
/// Cyrillic "В" is "B", where "в" is nothing Latin), then the confusable skeleton, in small
/// letters, then the skeleton again, with combining marks and white space left out. Equal
/// keys: look-alike names.
pub fn name_key(name: &str) -> String {
    let upper: String = name.nfkc().flat_map(char::to_uppercase).collect();
    let folded: String = unicode_security::skeleton(&upper)
        .flat_map(char::to_lowercase)
        .collect();
    unicode_security::skeleton(&folded)
        .filter(|c| !is_combining_mark(*c) && !c.is_whitespace())
        .collect()
}

/// Control characters (Cc), format characters (Cf: zero-width, bidi controls, BOM, tags),
/// line and paragraph separators, and every Default_Ignorable_Code_Point of Unicode's
/// DerivedCoreProperties (variation selectors, the combining grapheme joiner, Hangul
/// fillers, Khmer inherent vowels): all of them show as nothing.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c as u32,
            0x00AD | 0x034F | 0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F | 0x0890..=0x0891
            | 0x08E2 | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180F | 0x200B..=0x200F
            | 0x2028..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0
            | 0xFFF0..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
}

/// A character that shows something by itself: not white space, not a combining mark
/// (which only decorates the character before it), not a blank (the braille blank).
fn visible(c: char) -> bool {
    !c.is_whitespace() && !is_combining_mark(c) && c != '\u{2800}'
}

/// "Bot 3", "bot3", "BOT  12", "Вot 1", "Bot 1́": a name whose key is "bot" and the keys of
/// digits, as [`bot_name`] makes them.
fn looks_like_bot(name: &str) -> bool {
    let key = name_key(name);
    let Some(rest) = key.strip_prefix(&name_key("Bot")) else {
        return false;
    };
    let digits = name_key("0123456789");
    !rest.is_empty() && rest.chars().all(|c| digits.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_names_pass_normalised_and_trimmed() {
        assert_eq!(check("  Ann ").unwrap(), "Ann");
        assert_eq!(check("张三").unwrap(), "张三");
        // "e" + combining acute becomes the one precomposed character.
        assert_eq!(check("Re\u{301}mi").unwrap(), "R\u{e9}mi");
        // Full-width letters become the ordinary ones.
        assert_eq!(check("Ａnn").unwrap(), "Ann");
        assert_eq!(check("Bottle").unwrap(), "Bottle");
        assert_eq!(check("Bot").unwrap(), "Bot");
        assert_eq!(check("Bot Ann").unwrap(), "Bot Ann");
    }

    #[test]
    fn invisible_blank_and_bot_names_are_refused() {
        for bad in [
            "",
            "   ",
            "\u{200B}",
            "\u{FEFF}",
            "a\u{202E}b",
            "\u{2066}x",
            "x\u{0007}",
            "\u{3164}",
            "\u{2800}",
            "Bot 1",
            "bot 12",
            "BOT3",
            "Bot\u{3000}2",
        ] {
            assert!(check(bad).is_err(), "{bad:?}");
        }
        assert!(check(&"a".repeat(33)).is_err());
        assert!(check(&"a".repeat(32)).is_ok());
    }

    /// The invisible names of the attack: a combining grapheme joiner, an emoji variation
    /// selector, a supplementary variation selector, a Khmer inherent vowel, marks alone.
    #[test]
    fn names_of_invisible_code_points_are_refused() {
        for bad in [
            "\u{034F}",
            "\u{FE0F}",
            "\u{E0100}",
            "\u{17B4}",
            "\u{0301}\u{0308}",
            " \u{0301} ",
            "Ann\u{FE0F}",
            "A\u{034F}nn",
        ] {
            assert!(check(bad).is_err(), "{bad:?}");
        }
    }

    /// Full-width digits, a Cyrillic В and a combining accent on the digit: each shows as
    /// "Bot 1", so each is kept for the bots.
    #[test]
    fn look_alikes_of_bot_names_are_refused() {
        for bad in [
            "Bot \u{FF11}",
            "\u{0412}ot 1",
            "Bot 1\u{0301}",
            "B\u{043E}t 1",
            "ＢＯＴ　１",
            "Bot l",
        ] {
            assert!(check(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn look_alikes_share_a_key_and_other_names_do_not() {
        let key = name_key("Alice");
        for same in [
            "alice",
            "ALICE",
            "\u{0410}lice",
            "Ａｌｉｃｅ",
            "Al\u{0456}ce",
            "A l i c e",
            "Ali\u{0301}ce",
        ] {
            assert_eq!(name_key(same), key, "{same:?}");
        }
        for other in ["Alicia", "Bob", "爱丽丝"] {
            assert_ne!(name_key(other), key, "{other:?}");
        }
        assert_eq!(name_key("张三"), name_key("张三 "));
    }

    #[test]
    fn the_bot_names_are_what_the_check_keeps_for_bots() {
        assert_eq!(bot_name(0), "Bot 1");
        assert!(looks_like_bot(&bot_name(3)));
    }
}
