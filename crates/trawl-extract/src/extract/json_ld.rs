//! One JSON-LD block's JSON, as browsers' and search engines' readers take
//! it: shops and CMSs publish blocks that JSON forbids (raw line breaks in
//! strings, a comma before a closing bracket, the whole block HTML-escaped),
//! and a strict parse loses the page's product. Metadata reads its blocks
//! through [`value`], the product record through [`repaired`].

use std::borrow::Cow;

use serde_json::Value;

/// Largest block repaired after a strict parse fails (bytes): the repair
/// copies the block once.
const MAX_REPAIRED: usize = 1 << 20;

/// The block's JSON: parsed as it is, else with control characters read
/// as spaces.
pub(crate) fn value(block: &str) -> Option<Value> {
    parsed(block).ok()
}

/// [`value`], else, when the block is not too large, with trailing commas
/// dropped and, when it holds no quote but `&quot;`, its HTML entities
/// decoded. The product record reads its blocks so; page metadata does
/// not, as a site-wide block it then read (an `Organization` whose
/// `sameAs` list ends in a comma) moved an article's page type.
pub(crate) fn repaired(block: &str) -> Option<Value> {
    let cleaned = match parsed(block) {
        Ok(v) => return Some(v),
        Err(cleaned) => cleaned,
    };
    if cleaned.len() > MAX_REPAIRED {
        return None;
    }
    let text = if !cleaned.contains('"') && cleaned.contains("&quot;") {
        Cow::Owned(
            cleaned
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&"),
        )
    } else {
        cleaned
    };
    serde_json::from_str(&without_trailing_commas(&text)).ok()
}

/// The block parsed as it is or, when it holds control characters, with
/// them read as spaces; on failure, the text that was parsed (a block
/// without control characters is parsed once, not copied).
fn parsed(block: &str) -> Result<Value, Cow<'_, str>> {
    let block = block.trim();
    if !block.contains(char::is_control) {
        return serde_json::from_str(block).map_err(|_| Cow::Borrowed(block));
    }
    let cleaned = controls_to_spaces(block);
    serde_json::from_str(&cleaned).map_err(|_| Cow::Owned(cleaned))
}

/// `block` with every control character read as a space: byte by byte
/// when they are all ASCII (line breaks, tabs: a copy, not a string built
/// a character at a time), else character by character.
fn controls_to_spaces(block: &str) -> String {
    // C1 controls (U+0080 to U+009F) are two bytes, C2 80 to C2 9F.
    let c1 = block
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == 0xC2 && (0x80..=0x9F).contains(&w[1]));
    if !c1 {
        let mut bytes = block.as_bytes().to_vec();
        for b in &mut bytes {
            if b.is_ascii_control() {
                *b = b' ';
            }
        }
        // ASCII bytes replaced by ASCII bytes: still UTF-8.
        if let Ok(s) = String::from_utf8(bytes) {
            return s;
        }
    }
    block
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `text` with every comma outside strings that only whitespace separates
/// from a closing `}` or `]` left out.
fn without_trailing_commas(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    let mut kept = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b',' => {
                let next = bytes[i + 1..].iter().find(|c| !c.is_ascii_whitespace());
                if matches!(next, Some(b'}' | b']')) {
                    // Commas are ASCII: both cuts fall on char boundaries.
                    out.push_str(&text[kept..i]);
                    kept = i + 1;
                }
            }
            _ => {}
        }
    }
    out.push_str(&text[kept..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_json_forbids_are_read() {
        let v = |s: &str| repaired(s).map(|v| v.to_string());
        assert_eq!(v(r#"{"a":1}"#).as_deref(), Some(r#"{"a":1}"#));
        // A raw line break inside a string.
        assert_eq!(v("{\"a\":\"x\ny\"}").as_deref(), Some(r#"{"a":"x y"}"#));
        // Trailing commas, in objects and arrays; commas inside strings kept.
        assert_eq!(
            v(r#"{"a":[1,2,],"b":"x, }",}"#).as_deref(),
            Some(r#"{"a":[1,2],"b":"x, }"}"#)
        );
        assert_eq!(
            v(r#"{"a":"q\",", "b":1 , }"#).as_deref(),
            Some(r#"{"a":"q\",","b":1}"#)
        );
        // A block written HTML-escaped.
        assert_eq!(
            v("{&quot;name&quot;:&quot;Tom &amp; Jerry&quot;}").as_deref(),
            Some(r#"{"name":"Tom & Jerry"}"#)
        );
        assert_eq!(v("{not json"), None);
        // A block past the bound is not copied for repair.
        let big = format!(r#"{{"a":"{}",}}"#, "x".repeat(MAX_REPAIRED));
        assert!(repaired(&big).is_none());
        assert!(repaired(&big.replace(",}", "}")).is_some());
        // Page metadata keeps to JSON (and raw line breaks).
        assert!(value(r#"{"a":[1,2,]}"#).is_none());
        assert!(value("{\"a\":\"x\ny\"}").is_some());
        assert_eq!(v("[1,,]"), None);
    }

    #[test]
    fn controls_become_spaces_as_char_by_char_did() {
        let by_char = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect()
        };
        for block in [
            "{\"a\":\"x\ny\"}",
            "{\r\n\t\"a\": \"é\u{7f}ü\"}",
            "{\"a\": \"\u{85}next line\u{9f}\"}\n",
            "",
        ] {
            assert_eq!(controls_to_spaces(block), by_char(block), "{block:?}");
        }
    }
}
