//! Values read from markup (JSON-LD strings, `<meta>` contents, bylines):
//! white space collapsed and the HTML character references they often
//! carry decoded, so every reader of such values gets the same text.

use html5ever::data::NAMED_ENTITIES;

/// Collapses whitespace and decodes the HTML character references that
/// JSON-LD and `<meta>` values often carry (`&amp;`, `&#39;`, `&#x2019;`).
pub(crate) fn clean(s: &str) -> Option<String> {
    let t: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let t = if t.contains('&') {
        decode_entities(&t)
    } else {
        t
    };
    (!t.is_empty()).then_some(t)
}

/// `s`'s letters and digits, lower-cased, nothing else: how a site's name
/// is compared wherever it is written ("Bayrische Bembel", "bayrische-bembel").
pub(crate) fn compact(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The longest entity reference read, `&` to `;` (HTML's longest name,
/// "&CounterClockwiseContourIntegral;", is 33 bytes).
const LONGEST_REF: usize = 34;

/// `s` with its character references decoded: numeric ones and every name
/// HTML defines (`&oacute;` in a value its software escaped twice).
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail.find(';').filter(|&e| e <= LONGEST_REF);
        let decoded = end.and_then(|e| {
            let name = &tail[1..e];
            let numeric = name
                .strip_prefix("#x")
                .or_else(|| name.strip_prefix("#X"))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()));
            let (c1, c2) = match numeric {
                Some(n) => (n, 0),
                // A non-breaking space's name reads as a space in a value.
                None if name == "nbsp" => (u32::from(b' '), 0),
                None => *NAMED_ENTITIES.get(&tail[1..=e]).filter(|m| m.0 != 0)?,
            };
            let first = char::from_u32(c1)?;
            Some((first, char::from_u32(c2).filter(|_| c2 != 0), e + 1))
        });
        match decoded {
            Some((c, second, len)) => {
                out.push(c);
                out.extend(second);
                rest = &tail[len..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_reference_is_decoded() {
        assert_eq!(
            clean("Redacci&oacute;n Diario &Uuml;ber&nbsp;uns &NotEqualTilde; &bogus; a&b")
                .as_deref(),
            Some("Redacción Diario Über uns \u{2242}\u{338} &bogus; a&b")
        );
        // Numeric references, and a name too long to be one.
        assert_eq!(
            clean("&#xE9;&#233; &aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;").as_deref(),
            Some("éé &aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;")
        );
    }
}
