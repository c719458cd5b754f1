//! Class, id and role names read for a word at a word's start: "nav" is
//! in "site-nav" and "navbar" but not in "canvas". Every element's names
//! are read against the vocabularies, so the reading is a byte loop, not a
//! substring search built per call.

/// `pat` occurs in `names` at a word boundary (start of a class token or after
/// `-`/`_`), so "nav" matches "site-nav" and "navbar" but not "canvas".
pub(crate) fn matches_token(names: &str, pat: &str) -> bool {
    // Checked at each word start rather than with `str::find`, which builds
    // a substring searcher per call (this runs for every element and every
    // vocabulary word: 6% of extraction time).
    // The first byte is compared before the rest (a call to memcmp).
    let (bytes, pat) = (names.as_bytes(), pat.as_bytes());
    let Some(&first) = pat.first() else {
        return !bytes.is_empty();
    };
    let mut word_start = true;
    for (at, &b) in bytes.iter().enumerate() {
        if word_start && b == first && bytes[at..].starts_with(pat) {
            return true;
        }
        word_start = matches!(b, b' ' | b'-' | b'_');
    }
    false
}

/// One of `pats` occurs in `names` at a word boundary, as [`matches_token`]
/// reads one; the names are read once, not once per pattern.
pub(crate) fn matches_any_token(names: &str, pats: &[&str]) -> bool {
    let bytes = names.as_bytes();
    if !bytes.is_empty() && pats.iter().any(|p| p.is_empty()) {
        return true;
    }
    let mut word_start = true;
    for (at, &b) in bytes.iter().enumerate() {
        if word_start
            && pats
                .iter()
                .any(|p| p.as_bytes().first() == Some(&b) && bytes[at..].starts_with(p.as_bytes()))
        {
            return true;
        }
        word_start = matches!(b, b' ' | b'-' | b'_');
    }
    false
}
