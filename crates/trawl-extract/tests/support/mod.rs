//! What the extractor crate's integration tests share.

/// `text` holds each of `wanted` and none of `unwanted`.
pub fn assert_has(text: &str, wanted: &[&str], unwanted: &[&str]) {
    for w in wanted {
        assert!(text.contains(w), "missing {w:?} in:\n{text}");
    }
    for u in unwanted {
        assert!(!text.contains(u), "unexpected {u:?} in:\n{text}");
    }
}
