//! Text nodes' whitespace as a reader sees it: runs of white space collapse
//! to one space. Every character of every page passes here, so it reads
//! printable ASCII in a tight loop and copies runs whole.

/// Appends `raw` to `buf` with whitespace runs collapsed to one space
/// (Unicode's white space, U+200B and U+FEFF). Returns the number of
/// non-whitespace characters. Runs between spaces are copied whole (every
/// page's text passes here: a push per character cost more).
pub(super) fn push_collapsed(buf: &mut String, raw: &str) -> u32 {
    let bytes = raw.as_bytes();
    let mut chars = 0;
    let mut space = false;
    // Start of the run of non-space characters being read.
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Printable ASCII other than the space, most of a page's text, in
        // a tight loop.
        let from = i;
        while i < bytes.len() && bytes[i].wrapping_sub(0x21) < 0x5e {
            i += 1;
        }
        chars += (i - from) as u32;
        if i == bytes.len() {
            break;
        }
        let b = bytes[i];
        let (len, is_space) = if b.is_ascii() {
            (1, matches!(b, b' ' | b'\t'..=b'\r'))
        } else if !matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3 | 0xEF) {
            // Every space this reads (Unicode's White_Space, U+200B,
            // U+FEFF) opens with one of those bytes: a letter of another
            // script is stepped over by its first byte, not decoded.
            (utf8_len(b), false)
        } else {
            match raw[i..].chars().next() {
                Some(c) => (
                    c.len_utf8(),
                    c.is_whitespace() || c == '\u{200b}' || c == '\u{feff}',
                ),
                None => break,
            }
        };
        if is_space {
            // One plain space between two words stays in the run: it is
            // what collapsing writes there, and a sentence is copied in
            // one go rather than word by word.
            let word_next = || {
                bytes
                    .get(i + 1)
                    .is_some_and(|n| n.wrapping_sub(0x21) < 0x5e)
            };
            if b == b' ' && i > run && word_next() {
                i += 1;
                continue;
            }
            if i > run {
                push_run(buf, &raw[run..i], &mut space);
            }
            space = true;
            run = i + len;
        } else {
            chars += 1;
        }
        i += len;
    }
    if run < raw.len() {
        push_run(buf, &raw[run..], &mut space);
    }
    if space {
        buf.push(' ');
    }
    chars
}

/// The length of the UTF-8 sequence a (non-ASCII) first byte opens.
fn utf8_len(first: u8) -> usize {
    match first {
        0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// A run of non-space characters, after the pending space if any.
fn push_run(buf: &mut String, run: &str, space: &mut bool) {
    if *space {
        buf.push(' ');
        *space = false;
    }
    buf.push_str(run);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_space_beyond_ascii_opens_with_a_byte_the_fast_path_decodes() {
        for c in ('\u{80}'..=char::MAX)
            .filter(|&c| c.is_whitespace() || c == '\u{200b}' || c == '\u{feff}')
        {
            let mut b = [0; 4];
            let first = c.encode_utf8(&mut b).as_bytes()[0];
            assert!(matches!(first, 0xC2 | 0xE1 | 0xE2 | 0xE3 | 0xEF), "{c:?}");
            assert_eq!(utf8_len(first), c.len_utf8());
        }
        for c in ['\u{e9}', '\u{416}', '\u{65e5}', '\u{1f600}'] {
            let mut b = [0; 4];
            assert_eq!(utf8_len(c.encode_utf8(&mut b).as_bytes()[0]), c.len_utf8());
        }
    }

    #[test]
    fn collapsing_runs_matches_a_push_per_character() {
        // The character-by-character reading it replaced.
        fn by_chars(buf: &mut String, raw: &str) -> u32 {
            let (mut chars, mut space) = (0, false);
            for c in raw.chars() {
                if c.is_whitespace() || c == '\u{200b}' || c == '\u{feff}' {
                    space = true;
                } else {
                    if space {
                        buf.push(' ');
                        space = false;
                    }
                    buf.push(c);
                    chars += 1;
                }
            }
            if space {
                buf.push(' ');
            }
            chars
        }
        for raw in [
            "",
            " ",
            "word",
            "  two  words  ",
            "\u{b}tab\tline\nfeed\x0creturn\r",
            "caf\u{e9}\u{a0}cr\u{e8}me\u{3000}\u{65e5}\u{672c}",
            "zero\u{200b}width\u{feff}bom\u{2028}sep\u{85}next",
            "\u{1c}\u{1f} control \u{1f600}",
            "~tilde\x7fdel!bang \x21\x7e\x20end",
            "Eight+by+eight_words_run_past_the_word boundary\x7fand\u{e9}t\u{e9} long_ascii_tail!",
            "abcdefgh\x20ijklmnop\tqrstuvwx\x1fyz012345\x7e\x7f\u{a0}ABCDEFGHIJ",
            "one space between words, then  two, then a\tb c\u{a0}d e",
        ] {
            let (mut a, mut b) = ("x".to_string(), "x".to_string());
            assert_eq!(
                push_collapsed(&mut a, raw),
                by_chars(&mut b, raw),
                "{raw:?}"
            );
            assert_eq!(a, b, "{raw:?}");
        }
        // Every string of up to five characters over words, spaces and
        // non-ASCII letters and spaces.
        let alphabet = ['a', ' ', '\t', '\u{e9}', '\u{a0}', '!'];
        let mut raws = vec![String::new()];
        let mut last = raws.clone();
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|r| alphabet.iter().map(move |c| format!("{r}{c}")))
                .collect();
            raws.extend(last.iter().cloned());
        }
        assert_eq!(raws.len(), 1 + 6 + 36 + 216 + 1296 + 7776);
        for raw in &raws {
            let (mut a, mut b) = (String::new(), String::new());
            assert_eq!(
                push_collapsed(&mut a, raw),
                by_chars(&mut b, raw),
                "{raw:?}"
            );
            assert_eq!(a, b, "{raw:?}");
        }
    }
}
