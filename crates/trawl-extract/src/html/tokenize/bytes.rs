//! Byte classes of HTML's syntax the tokenizer's states share: ASCII white
//! space, and the length of a UTF-8 sequence from its lead byte.

/// HTML's ASCII white space (tab, line feed, form feed, space).
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b' ')
}

/// The first position at or after `i` that is not a space.
pub(super) fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    i
}

/// The length of the UTF-8 sequence a lead byte opens.
pub(super) fn utf8_len(b: u8) -> usize {
    match b {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}
