//! Repairs mojibake that pages carry in their own bytes: UTF-8 text that a
//! CMS once read as windows-1252 and saved as UTF-8 again, so "it’s" arrives
//! as "itâ€™s" (or "itâ\u{80}\u{99}s") whatever charset we decode with. The
//! reader of a repaired page sees the apostrophe, and so should the text.
//!
//! Only complete sequences are repaired: a lead character (Â…ô, the bytes
//! C2–F4 read as windows-1252) followed by exactly the continuation
//! characters its UTF-8 length needs, each mapping back to a byte 80–BF,
//! that decode to one character. Ordinary text ("âge", "Ãœber" in a name
//! list is rare enough) does not form such sequences.

use std::borrow::Cow;

/// windows-1252's characters for bytes 80–9F (undefined ones stay C1 controls).
const CP1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

/// The byte a character stands for when windows-1252 (or latin-1) text is
/// read back as bytes, for the continuation range 80–BF.
fn continuation_byte(c: char) -> Option<u8> {
    let u = u32::from(c);
    if (0x80..=0xBF).contains(&u) {
        // Latin-1 reading (C1 controls and A0–BF agree with windows-1252 there).
        return u8::try_from(u).ok();
    }
    CP1252_HIGH
        .iter()
        .position(|&h| h == c)
        .and_then(|i| u8::try_from(0x80 + i).ok())
}

/// UTF-8 length announced by a lead character read as a byte.
fn sequence_len(c: char) -> Option<usize> {
    match u32::from(c) {
        0xC2..=0xDF => Some(2),
        0xE0..=0xEF => Some(3),
        0xF0..=0xF4 => Some(4),
        _ => None,
    }
}

/// The text with mojibake sequences decoded; borrowed when there are none.
pub(crate) fn repair(text: &str) -> Cow<'_, str> {
    // Every lead character (U+00C2..U+00F4) is C3 82..C3 B4 in UTF-8: the
    // byte search finds the candidates far cheaper than a character walk
    // (a French or German page has C3 in every accented letter).
    let bytes = text.as_bytes();
    let candidate = memchr::memchr_iter(0xC3, bytes).any(|p| {
        bytes.get(p + 1).is_some_and(|b| (0x82..=0xB4).contains(b))
            && text
                .get(p + 2..)
                .and_then(|rest| rest.chars().next())
                .and_then(continuation_byte)
                .is_some()
    });
    if !candidate {
        return Cow::Borrowed(text);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if let Some(decoded) = sequence_len(c).and_then(|n| decode_at(&chars[i..], n)) {
            out.push(decoded.0);
            i += decoded.1;
            changed = true;
        } else {
            out.push(c);
            i += 1;
        }
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// Decodes `n` characters at the start of `chars` as one UTF-8 sequence.
fn decode_at(chars: &[char], n: usize) -> Option<(char, usize)> {
    let seq = chars.get(..n)?;
    let lead = u8::try_from(u32::from(seq[0])).ok()?;
    let mut bytes = [lead, 0, 0, 0];
    for (k, &c) in seq.iter().enumerate().skip(1) {
        bytes[k] = continuation_byte(c)?;
    }
    let s = std::str::from_utf8(&bytes[..n]).ok()?;
    let decoded = s.chars().next()?;
    // A sequence that decodes to a C1 control was not text.
    (u32::from(decoded) >= 0xA0).then_some((decoded, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repairs_double_encoded_punctuation_and_letters() {
        assert_eq!(repair("itâ€™s"), "it’s");
        assert_eq!(repair("itâ\u{80}\u{99}s"), "it’s");
        assert_eq!(repair("cafÃ© â€” Ã¼ber"), "café — über");
        assert_eq!(repair("Â£5"), "£5");
    }

    #[test]
    fn leaves_real_text_alone() {
        for t in ["âge", "naïve café", "Ärger", "日本語", "£5 ©", "plain"] {
            assert!(matches!(repair(t), Cow::Borrowed(_)), "{t}");
        }
    }
}
