//! Text a page carries only as data: an app shell (an empty body and
//! scripts) often embeds the content it will draw, as a framework's state
//! (`<script id="__NEXT_DATA__" type="application/json">`, any
//! `application/json` script, `window.__INITIAL_STATE__ = {…}`) or as
//! JSON-LD (`articleBody`). Reading it costs nothing; rendering the page in
//! a browser costs a second or more. The extractor takes this text only
//! when the page's own markup gave next to nothing.
//!
//! The rule is general: the state's strings that read as prose (markup in
//! them rendered to text) are grouped by where they sit in the JSON (the
//! key path, array positions left out, so a list of paragraphs is one
//! group); the group with the most text is the page's.

use serde_json::Value;

use crate::html::Doc;

/// An extraction shorter than this (characters) gave next to nothing: the
/// embedded state is read.
pub(crate) const THIN_TEXT_CHARS: usize = 300;
/// A string shorter than this (characters) is not prose.
const MIN_PROSE_CHARS: usize = 80;
/// The state's text must reach this many characters to be taken.
const MIN_TEXT_CHARS: usize = 200;
/// JSON nested deeper than this is not walked.
const MAX_DEPTH: usize = 64;

/// The page's text from its embedded state, and the state's name
/// (`__NEXT_DATA__`, `json-ld`, …), when it holds prose.
pub(crate) fn state_text(doc: &Doc) -> Option<(String, String)> {
    let consider = |best: &mut Option<(String, String)>, name: &str, text: String| {
        if text.chars().count() >= MIN_TEXT_CHARS
            && best.as_ref().is_none_or(|(_, t)| t.len() < text.len())
        {
            *best = Some((name.to_string(), text));
        }
    };
    let mut best = None;
    for (name, json) in &doc.meta.scripts.states {
        if let Ok(v) = serde_json::from_str::<Value>(json) {
            consider(&mut best, name, prose_of(&v));
        }
    }
    if best.is_none() {
        for json in &doc.meta.json_ld {
            if let Some(v) = crate::extract::json_ld::value(json) {
                if let Some(body) = article_body(&v, 0) {
                    consider(&mut best, "json-ld", body);
                }
            }
        }
    }
    best
}

/// JSON-LD's `articleBody` (or `text`) of an article-like item.
fn article_body(v: &Value, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    match v {
        Value::Array(items) => items.iter().find_map(|i| article_body(i, depth + 1)),
        Value::Object(map) => {
            let direct = ["articleBody", "text"]
                .iter()
                .filter_map(|k| map.get(*k)?.as_str())
                .map(as_text)
                .find(|t| t.chars().count() >= MIN_TEXT_CHARS);
            direct.or_else(|| {
                map.get("@graph")
                    .or_else(|| map.get("mainEntity"))
                    .and_then(|g| article_body(g, depth + 1))
            })
        }
        _ => None,
    }
}

/// The largest group of prose strings of `v`, in order, a blank line
/// between them.
fn prose_of(v: &Value) -> String {
    let mut groups: Vec<(String, Vec<String>, usize)> = Vec::new();
    let mut path = String::new();
    walk(v, &mut path, 0, &mut groups);
    groups
        .into_iter()
        .max_by_key(|g| g.2)
        .map(|(_, texts, _)| texts.join("\n\n"))
        .unwrap_or_default()
}

fn walk(
    v: &Value,
    path: &mut String,
    depth: usize,
    groups: &mut Vec<(String, Vec<String>, usize)>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::String(s) => {
            let text = as_text(s);
            if is_prose(&text) {
                let len = text.chars().count();
                match groups.iter_mut().find(|g| g.0 == *path) {
                    Some(g) => {
                        if !g.1.contains(&text) {
                            g.2 += len;
                            g.1.push(text);
                        }
                    }
                    None => groups.push((path.clone(), vec![text], len)),
                }
            }
        }
        Value::Array(items) => {
            let at = path.len();
            path.push_str("[]");
            for i in items {
                walk(i, path, depth + 1, groups);
            }
            path.truncate(at);
        }
        Value::Object(map) => {
            for (k, item) in map {
                let at = path.len();
                path.push('.');
                path.push_str(k);
                walk(item, path, depth + 1, groups);
                path.truncate(at);
            }
        }
        _ => {}
    }
}

/// A string as text: markup (`<p>…</p>` in a CMS field) rendered, spaces
/// folded.
fn as_text(s: &str) -> String {
    let fold = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let s = s.trim();
    let blocks = (s.contains('<') && s.contains('>'))
        .then(|| Doc::parse_fragment(s).ok())
        .flatten()
        .map(|doc| {
            let pieces = doc.plain_pieces(doc.body());
            pieces
                .iter()
                .map(|b| fold(b))
                .filter(|b| !b.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|blocks| !blocks.is_empty());
    blocks.map_or_else(|| fold(s), |b| b.join("\n\n"))
}

/// Prose: long enough, mostly letters and spaces, words (or CJK text), and
/// not a URL, a path or an encoded blob.
fn is_prose(s: &str) -> bool {
    let chars = s.chars().count();
    if chars < MIN_PROSE_CHARS || s.starts_with("http") || s.starts_with('/') {
        return false;
    }
    let letters = s.chars().filter(|c| c.is_alphabetic()).count();
    let spaces = s.chars().filter(|c| c.is_whitespace()).count();
    let cjk = s
        .chars()
        .filter(|c| ('\u{3040}'..='\u{9fff}').contains(c) || ('\u{ac00}'..='\u{d7af}').contains(c))
        .count();
    let wordy = spaces * 12 >= chars || cjk * 2 >= chars;
    wordy && (letters + spaces) * 10 >= chars * 7
}

/// The publication moment a page's embedded state records for the app to
/// show (`{"publishedDate":"2016-11-04T20:37:27Z"}`, `"published_at"`,
/// `"datePublished"`, `"publicationDate"`, …): the first such key's value
/// in the page's states, as written. A key of the family is a publication
/// in any framework; its value is only taken when it reads as a date.
pub(crate) fn published(doc: &Doc) -> Option<&str> {
    static P: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let p = P.get_or_init(|| {
        regex::Regex::new(
            r#"(?i)"(?:date_?published|published_?(?:at|date|on|time)|publish_?(?:date|time|at)|publication_?date|first_?published(?:_?(?:at|date))?)"\s*:\s*"([0-9][^"]{7,40})""#,
        )
        .unwrap_or_else(|e| unreachable!("state date pattern: {e}"))
    });
    doc.meta
        .scripts
        .states
        .iter()
        .find_map(|(_, json)| p.captures(json))
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(html: &str) -> Doc {
        Doc::parse_fragment(html).expect("parse")
    }

    const PARA: &str = "The harbour wall was rebuilt in granite after the storm of the winter before, and the fishing boats came back within the month.";

    #[test]
    fn next_data_paragraphs_are_read_as_one_group() {
        let state = serde_json::json!({"props": {"pageProps": {
            "article": {"title": "Harbour", "blocks": [{"text": PARA}, {"text": format!("{PARA} Again.")}]},
            "related": [{"summary": "short teaser"}]
        }}});
        let html = format!(
            "<html><body><div id=\"__next\"></div><script id=\"__NEXT_DATA__\" \
             type=\"application/json\">{state}</script></body></html>"
        );
        let (name, text) = state_text(&doc(&html)).expect("state text");
        assert_eq!(name, "__NEXT_DATA__");
        assert!(text.starts_with("The harbour wall"), "{text}");
        assert!(text.contains("Again."));
        assert!(!text.contains("teaser"));
    }

    #[test]
    fn an_assigned_global_and_markup_in_strings_are_read() {
        let html = format!(
            "<html><body><div id=app></div><script>window.__INITIAL_STATE__ = \
             {{\"post\":{{\"body\":\"<p>{PARA}</p><p>{PARA} Twice.</p>\"}}}};</script></body></html>"
        );
        let (name, text) = state_text(&doc(&html)).expect("state text");
        assert_eq!(name, "__INITIAL_STATE__");
        assert!(text.contains("\n\n") && !text.contains("<p>"), "{text}");
    }

    #[test]
    fn json_ld_article_body_is_the_fallback() {
        let ld =
            serde_json::json!({"@type": "NewsArticle", "articleBody": format!("{PARA} {PARA}")});
        let html = format!(
            "<html><head><script type=\"application/ld+json\">{ld}</script></head><body></body></html>"
        );
        assert_eq!(
            state_text(&doc(&html)).map(|s| s.0).as_deref(),
            Some("json-ld")
        );
    }

    #[test]
    fn ids_urls_and_short_strings_are_not_prose() {
        let state = serde_json::json!({"a": "https://cdn.example/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/0/1/2/3/4/5/6/7/8/9",
            "b": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9eyJhbGciOiJIUzI1NiIsInR5cCI6",
            "c": "Short."});
        let html = format!(
            "<html><body><script type=\"application/json\" id=s>{state}</script></body></html>"
        );
        assert!(state_text(&doc(&html)).is_none());
    }
}
