//! Player names: what `hello` may call a person.
//!
//! A name is normalised to NFC (so one name has one form), trimmed, 1 to [`MAX_NAME`]
//! characters, with no control or format character (zero-width spaces and joiners,
//! bidirectional overrides and isolates, the byte-order mark), not blank, and not in the
//! form the server gives its own bots ("Bot 2"), so nobody can pass for one.

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
    let name: String = raw.nfc().collect();
    let name = name.trim();
    if name.chars().any(hidden) {
        return Err("a name may not hold control or invisible formatting characters");
    }
    let chars = name.chars().count();
    if chars == 0 || name.chars().all(blank) {
        return Err("a name may not be blank");
    }
    if chars > MAX_NAME {
        return Err("a name has at most 32 characters");
    }
    if looks_like_bot(name) {
        return Err("names of the form \"Bot 1\" are kept for the server's bots");
    }
    Ok(name.to_owned())
}

/// Control characters (Cc), format characters (Cf: zero-width, bidi controls, BOM, tags),
/// line and paragraph separators.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c as u32,
            0x00AD | 0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2
            | 0x180E | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
            | 0xFEFF | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F)
}

/// White space, and the letters that render as nothing (Hangul fillers, braille blank).
fn blank(c: char) -> bool {
    c.is_whitespace() || matches!(c as u32, 0x115F | 0x1160 | 0x2800 | 0x3164 | 0xFFA0)
}

/// "Bot 3", "bot3", "BOT  12": what [`bot_name`] makes, in any case and spacing.
fn looks_like_bot(name: &str) -> bool {
    let lower = name.to_lowercase();
    let Some(rest) = lower.strip_prefix("bot") else {
        return false;
    };
    let digits = rest.trim_start();
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
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
        assert_eq!(check("Bottle").unwrap(), "Bottle");
        assert_eq!(check("Bot").unwrap(), "Bot");
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

    #[test]
    fn the_bot_names_are_what_the_check_keeps_for_bots() {
        assert_eq!(bot_name(0), "Bot 1");
        assert!(looks_like_bot(&bot_name(3)));
    }
}
