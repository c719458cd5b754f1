//! Character classes for the extractor's patterns, bounded to the blocks
//! where pages put the characters a rule tells apart. Unicode's whole
//! categories (`[^\p{L}]`, `\d`) compile to tens of kilobytes of automata,
//! forward and reverse, in every pattern that holds one, for characters
//! no rule reads: in three date patterns, the price pattern and the code
//! labels they were a third of an extraction thread's heap peak.

/// The blocks the classes below are bounded to, one list for both.
macro_rules! blocks {
    () => {
        r"\x00-\x{6FF}\x{964}\x{965}\x{2000}-\x{2BFF}\x{3000}-\x{303F}\x{FEFF}\x{FF00}-\x{FF65}\x{1F000}-\x{1FAFF}"
    };
}

/// A character that is no letter, for a pattern's word edge: any non-letter
/// of Latin, Greek, Cyrillic, Armenian, Hebrew and Arabic (U+0000–U+06FF),
/// the danda, the general and CJK punctuation, symbols and arrows, the
/// byte-order mark, fullwidth forms and emoji. Kept out of `(?i)`: no
/// letter folds into it.
pub(crate) const NO_LETTER: &str = concat!("(?-i:[", blocks!(), r"&&[^\p{L}]])");

/// [`NO_LETTER`] without digits: a character that is neither a letter nor a
/// number.
pub(crate) const NO_LETTER_OR_DIGIT: &str = concat!("(?-i:[", blocks!(), r"&&[^\p{L}\p{N}]])");

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    /// Each class is its category within its blocks: never a letter (or a
    /// digit), and every punctuation mark and space of the scripts named.
    #[test]
    fn the_classes_are_their_categories_within_their_blocks() {
        for (class, category) in [
            (NO_LETTER, r"[^\p{L}]"),
            (NO_LETTER_OR_DIGIT, r"[^\p{L}\p{N}]"),
        ] {
            let ours = Regex::new(&format!("^{class}$")).expect("class");
            let whole = Regex::new(&format!("^{category}$")).expect("category");
            for c in (0..0x2_0000).filter_map(char::from_u32) {
                let s = c.to_string();
                if ours.is_match(&s) {
                    assert!(whole.is_match(&s), "{class}: {c:?}");
                }
            }
        }
        let edge = Regex::new(NO_LETTER).expect("class");
        for c in [
            " ", ":", "،", "।", "•", "：", "（", "\u{a0}", "\u{feff}", "📦", "٣", "״",
        ] {
            assert!(edge.is_match(c), "{c:?}");
        }
        for c in ["a", "é", "Ω", "ж", "ب", "语", "µ", "\u{212a}"] {
            assert!(!edge.is_match(c), "{c:?}");
        }
    }
}
