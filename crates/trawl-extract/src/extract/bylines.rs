//! The record's author: who wrote the page, as its byline names them.
//! Sources, in order: the JSON-LD author when it is a person (an
//! organisation is the publisher, not a byline), the `author` `<meta>`
//! unless it is a user handle the byline spells out, the visible byline
//! (an element marked as the author's: `rel=author`, `itemprop=author`, a
//! class such as `author` or `byline`), and an organisation last. Several
//! authors are joined as a byline is written ("A, B and C"). A byline
//! element's name is its first link or its first line, not the badges,
//! post counts and dates a forum prints beside it. Without a marked
//! byline, a name after "By" / "Written by" under the headline, then a
//! small element whose class word holds "author" or "byline".
//! Measured in docs/BENCHMARKS.md (wcxb-dev author exact 0.606 → 0.790,
//! trafilatura-eval 0.489 → 0.657).

use serde_json::Value;

use crate::html::{Doc, NodeId, Tag};

/// Longest byline kept (characters).
const MAX_CHARS: usize = 80;

/// Prefixes bylines carry before the name.
const PREFIXES: &[&str] = &[
    // A link to the writer's page ("All posts by Jo Ray").
    "view all posts by",
    "all posts by",
    "more by",
    "zeige alle beiträge von",
    "alle beiträge von",
    "artikel von",
    "alle artikel von",
    "alles von",
    "mehr von",
    "erstellt von",
    "eingestellt von",
    "geschrieben von",
    "verfasst von",
    "veröffentlicht von",
    "écrit par",
    "publié par",
    "escrito por",
    "publicado por",
    "scritto da",
    "pubblicato da",
    "geschreven door",
    "written by:",
    "written by",
    "posted by:",
    "posted by",
    "author:",
    "authors:",
    // Role labels before the writer's name ("Interview: Jo Ray", "Text:").
    "interview:",
    "text:",
    "texte:",
    "words:",
    "autor:",
    "autorin:",
    "auteur:",
    "autore:",
    "reporting by",
    // Labels and words for "by" in more languages written with capitals.
    "автор:",
    "авторы:",
    "автор",
    "текст:",
    "autorka:",
    "napisał",
    "napisała",
    "napsal",
    "napsala",
    "piše:",
    "piše",
    "yazar:",
    "yazan:",
    "szerző:",
    "írta:",
    "συντάκτης:",
    "tác giả:",
    "przez",
    "oleh",
    "bởi",
    "by:",
    "by",
    "von",
    "par",
    "por",
    "di",
    "door",
];

/// Collapses white space and takes a byline's prefix ("By ", "Written
/// by:") and trailing separators off.
pub(crate) fn tidy(s: &str) -> Option<String> {
    let t = crate::extract::values::clean(s)?;
    let mut t = t
        .as_str()
        .trim_matches(|c: char| c == ',' || c == '|' || c == '·' || c.is_whitespace());
    let lower = t.to_lowercase();
    for p in PREFIXES {
        let rest = lower.strip_prefix(p).zip(t.get(p.len()..));
        if let Some((_, rest)) = rest.filter(|(l, _)| l.starts_with([' ', ':'])) {
            t = rest.trim_start_matches([' ', ':']).trim();
            break;
        }
    }
    t = without_date(t);
    // A social handle after the name ("Williams Perdomo @wperdomod").
    if let Some((name, last)) = t.rsplit_once(' ') {
        if last.starts_with('@') && name.contains(' ') {
            t = name.trim_end();
        }
    }
    (!t.is_empty() && t.chars().count() <= MAX_CHARS && t.chars().any(char::is_alphabetic))
        .then(|| t.to_string())
}

/// Marks that part a name from the date after it.
const DATE_SEPARATORS: &[char] = &[',', '|', '·', '•', '-', '–', '—', '/'];

/// `t` without the date that follows its name after a separator ("Janic
/// Cathomen, 01.12.2021", "Giovanni Gaggero | 12/10/2020"); a date the
/// text opens with, or one a label runs into ("Published August 7, 2023
/// by …"), is left for the caller to judge.
fn without_date(t: &str) -> &str {
    // Every written date has a digit: most names have none.
    if !t.bytes().any(|b| b.is_ascii_digit()) {
        return t;
    }
    let Some(f) = crate::extract::dates::find(t, crate::extract::dates::Order::MonthFirst)
        .into_iter()
        .next()
    else {
        return t;
    };
    let before = t[..f.start].trim_end();
    // A name of two words at least: "Sat, 20 Dec 2025" is a weekday's.
    match before.strip_suffix(DATE_SEPARATORS).map(str::trim) {
        Some(name) if name.contains(' ') => name,
        _ => t,
    }
}

/// "A, B and C" in the page's language.
fn join(names: &[String], lang: Option<&str>) -> String {
    let and = match lang
        .map(|l| l.get(..2).unwrap_or(l).to_ascii_lowercase())
        .as_deref()
    {
        Some("de") => "und",
        Some("fr") => "et",
        Some("es") => "y",
        Some("it") => "e",
        Some("pt") => "e",
        Some("nl") => "en",
        _ => "and",
    };
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {and} {last}", rest.join(", ")),
    }
}

/// Whether a JSON-LD author is an organisation.
fn is_organisation(v: &Value) -> bool {
    let t = |x: &Value| {
        x.get("@type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.eq_ignore_ascii_case("organization") || t.ends_with("Organization"))
    };
    match v {
        Value::Array(a) => !a.is_empty() && a.iter().all(t),
        v => t(v),
    }
}

/// The names of a JSON-LD author (a name, an object, a list of them).
fn ld_names(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => tidy(s).into_iter().collect(),
        Value::Object(m) => m.get("name").map(ld_names).unwrap_or_default(),
        Value::Array(a) => a.iter().flat_map(ld_names).collect(),
        _ => Vec::new(),
    }
}

/// A user handle rather than a name: one word with a dot, an underscore
/// or a digit ("andrew.keaveney", "kffnirmitap2"), or a social network's
/// handle ("@NatGeoUK").
fn handle(name: &str) -> bool {
    !name.contains(' ')
        && (name.starts_with('@')
            || name
                .chars()
                .any(|c| c == '.' || c == '_' || c.is_ascii_digit()))
}

/// The page's author (see the module's comment). `ld`: the main JSON-LD
/// object's `author` (or `creator`); `tag`: the `author` `<meta>`;
/// `site`: the site's name (an author of that name gives way to a byline
/// naming someone); `lang`: the page's language.
pub(crate) fn author(
    doc: &Doc,
    ld: Option<&Value>,
    tag: Option<&str>,
    site: Option<&str>,
    lang: Option<&str>,
) -> Option<String> {
    let name = found(doc, ld, tag, site, lang)?;
    Some(without_site(&name, site).unwrap_or(name))
}

/// `name` without the name of the site the page is on, after a comma or
/// before a dash or a bar ("Rob Picheta, CNN" on CNN, "unocero - Alberto
/// Ávila" on unocero): the writer, not the publisher.
fn without_site(name: &str, site: Option<&str>) -> Option<String> {
    let compact = crate::extract::values::compact;
    let site = compact(site?);
    let writer = |w: &str| {
        w.chars()
            .any(char::is_alphabetic)
            .then(|| w.trim().to_string())
    };
    if site.is_empty() {
        return None;
    }
    if let Some((w, tail)) = name.rsplit_once(", ") {
        if compact(tail) == site {
            return writer(w);
        }
    }
    [" - ", " – ", " | "].iter().find_map(|sep| {
        let (head, w) = name.split_once(sep)?;
        (compact(head) == site).then(|| writer(w)).flatten()
    })
}

/// The author before the site's name is taken off (see [`author`]).
fn found(
    doc: &Doc,
    ld: Option<&Value>,
    tag: Option<&str>,
    site: Option<&str>,
    lang: Option<&str>,
) -> Option<String> {
    let site = site.map(str::to_lowercase);
    let is_site = |n: &str| site.as_deref() == Some(n.to_lowercase().as_str());
    let (person, organisation) = match ld {
        Some(v) if is_organisation(v) => (Vec::new(), ld_names(v)),
        Some(v) => (ld_names(v), Vec::new()),
        None => (Vec::new(), Vec::new()),
    };
    // The byline is read only when it can decide (collect runs more than
    // once per page): a person named in the byline over a handle or the
    // site's own name.
    // A person: names of several words, or written in Han characters
    // (no spaces between a Chinese name's characters).
    let named_person = || {
        visible(doc).filter(|v| {
            (v.contains(' ') || v.chars().any(crate::extract::credits::han)) && !is_site(v)
        })
    };
    if !person.is_empty() {
        if person.len() == 1 && (handle(&person[0]) || is_site(&person[0])) {
            if let Some(v) = named_person() {
                return Some(v);
            }
        }
        return Some(join(&person, lang));
    }
    match tag.filter(|a| !a.starts_with("http")).and_then(tidy) {
        Some(t) if handle(&t) || is_site(&t) => Some(named_person().unwrap_or(t)),
        Some(t) => Some(t),
        None => {
            visible(doc).or_else(|| (!organisation.is_empty()).then(|| join(&organisation, lang)))
        }
    }
}

/// The first byline element's name, else the writer a Chinese page's
/// credit line names, else a name after a byline's label.
fn visible(doc: &Doc) -> Option<String> {
    let candidates = byline_candidates(doc);
    marked(doc, &candidates, false)
        .or_else(|| crate::extract::credits::credited(doc))
        .or_else(|| labelled(doc))
        .or_else(|| marked(doc, &candidates, true))
        .or_else(|| linked_profile(doc, &candidates))
}

/// Path segments of a writer's page ("/author/jane-doe/", "/autor/frank_g").
const PROFILE_PATHS: &[&str] = &[
    "author", "authors", "autor", "autoren", "auteur", "auteurs", "autore", "autori", "writer",
];

/// The name of the first link to a writer's page (its path a
/// [`PROFILE_PATHS`] segment and then a name), outside forms, menus and
/// footers, whose text looks like a person's name.
fn linked_profile(doc: &Doc, candidates: &[NodeId]) -> Option<String> {
    candidates
        .iter()
        .filter(|&&id| doc.tag(id) == Tag::A)
        .filter(|&&id| {
            doc.attr(id, "href").is_some_and(|h| {
                let path = h
                    .split_once("://")
                    .map_or(h, |(_, r)| r.split_once('/').map_or("", |(_, p)| p));
                let mut segs = path.trim_start_matches('/').split('/');
                let first = segs.next().unwrap_or_default().to_ascii_lowercase();
                PROFILE_PATHS.contains(&first.as_str())
                    && segs.next().is_some_and(|s| !s.is_empty())
            })
        })
        .filter(|&&id| !in_furniture(doc, id))
        .find_map(|&id| tidy(&doc.plain_text(id)).filter(|n| name_like(n) && capitalised(n)))
}

/// Class words of elements around a byline that are not it (its picture,
/// its biography) or that are a reader's (a comment's, a review's, a
/// form's field).
const NOT_BYLINE: &[&str] = &[
    "avatar", "image", "img", "photo", "pic", "bio", "desc", "comment", "review", "form", "skip",
    "nav", "menu", "footer", "related", "widget",
];

/// Whether `id` sits in a form, a navigation bar or a footer.
fn in_furniture(doc: &Doc, id: NodeId) -> bool {
    let mut p = doc.nodes[id as usize].parent;
    while p != u32::MAX {
        if matches!(doc.tag(p), Tag::Form | Tag::Nav | Tag::Footer) {
            return true;
        }
        p = doc.nodes[p as usize].parent;
    }
    false
}

/// The name of the first element marked as the byline: `rel=author`,
/// `itemprop=author`, a class `author` or `byline` (`loose`: a class word
/// holding either, `authorName`, `post-meta-author`), among the elements
/// [`byline_candidates`] found.
fn marked(doc: &Doc, candidates: &[NodeId], loose: bool) -> Option<String> {
    for &id in candidates {
        let n = &doc.nodes[id as usize];
        let rel_author =
            n.tag == Tag::A && doc.attr(id, "rel").is_some_and(|r| r.contains("author"));
        let named = doc.attr(id, "itemprop") == Some("author")
            || doc.class_id(id).0.is_some_and(|c| {
                c.split_whitespace().any(|t| {
                    if loose {
                        (holds(t, "author") || holds(t, "byline"))
                            && !NOT_BYLINE.iter().any(|w| holds(t, w))
                    } else {
                        matches!(t, "author" | "byline" | "author-name" | "byline__name")
                    }
                })
            });
        // Loosely named, a byline is small (not a page whose class list
        // says "show-author-name") and not in a form, a menu or a footer.
        let small = doc.agg[id as usize].chars <= 200;
        if !(rel_author || named) || (loose && (!small || in_furniture(doc, id))) {
            continue;
        }
        if let Some(name) = name_in(doc, id).filter(|n| name_like(n)) {
            return Some(name);
        }
    }
    None
}

/// The elements [`marked`] can take (`candidates`), in order: links (`rel=author`),
/// elements with structured data (`itemprop=author`), and those whose
/// names hold "author" or "byline" (every class test asks for one of the
/// two). Found with one search of the document's names instead of a test
/// of every element's classes.
fn byline_candidates(doc: &Doc) -> Vec<NodeId> {
    let mut ids = doc.names_holding("author");
    ids.extend(doc.names_holding("byline"));
    ids.extend(doc.structured());
    ids.extend((0..doc.len() as NodeId).filter(|&i| doc.tag(i) == Tag::A && doc.is_element(i)));
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// Text characters after the first `<h1>` read for a byline's label.
const LABEL_ZONE: usize = 1_500;

/// A name after a byline's label near the headline: a text that is only
/// "By" / "Written by" followed by the name in the next text, or a text
/// "By Jane Doe".
fn labelled(doc: &Doc) -> Option<String> {
    let body = doc.body();
    let end = doc.end(body);
    let h1 = (body..end).find(|&id| doc.tag(id) == Tag::H1 && doc.is_element(id))?;
    let texts: Vec<NodeId> = (h1..end)
        .filter(|&id| !doc.is_element(id) && !doc.text(id).trim().is_empty())
        .scan(0usize, |read, id| {
            *read += doc.text(id).len();
            (*read <= LABEL_ZONE).then_some(id)
        })
        .collect();
    for (k, &id) in texts.iter().enumerate() {
        let t = doc.text(id).trim().to_lowercase();
        let t = t.trim_end_matches(':').trim();
        // "By", "Written by", and the labels written with a colon ("Autor:").
        if PREFIXES.contains(&t) || PREFIXES.iter().any(|p| p.strip_suffix(':') == Some(t)) {
            let next = texts.get(k + 1).and_then(|&n| tidy(doc.text(n)));
            if let Some(name) = next.filter(|n| name_like(n) && capitalised(n)) {
                return Some(name);
            }
            continue;
        }
        let raw = doc.text(id).trim();
        // A text opening with a byline's prefix: "By Jane Doe", "Von
        // Jana Roth", "Text: Jo Ray".
        let by = PREFIXES.iter().any(|p| {
            t.strip_prefix(p)
                .is_some_and(|rest| rest.starts_with([' ', ':']) || p.ends_with(':'))
        });
        if by {
            if let Some(name) = tidy(raw).filter(|n| name_like(n) && capitalised(n)) {
                return Some(name);
            }
        }
    }
    None
}

/// Words of buttons and form labels that sit where a name would.
const UI_WORDS: &[&str] = &[
    "comment",
    "comments",
    "reply",
    "share",
    "follow",
    "subscribe",
    "name",
    "home",
    "menu",
    "login",
    "log in",
    "more",
    "view",
    "edit",
];

/// Short, no label, no date, not a button: what a byline's name looks like.
fn name_like(s: &str) -> bool {
    let lower = s.to_lowercase();
    s.split_whitespace().count() <= 8
        && !s.contains(['©', '|', '@', '!', '?'])
        // A label ("Datum:", "Artikel von:", "… Editor: …"), not a name.
        && !s.contains(':')
        && !UI_WORDS.contains(&lower.as_str())
        && !lower.contains("author")
        && !lower.contains("about")
        && crate::extract::dates::find(s, crate::extract::dates::Order::MonthFirst).is_empty()
}

/// Two to five words, each starting with a capital but for the particles
/// of names ("van der", "de", "bin"): a person's name after a label.
fn capitalised(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    (2..=5).contains(&words.len())
        && words[0].starts_with(char::is_uppercase)
        && words.iter().all(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                || matches!(
                    *w,
                    "van" | "der" | "de" | "la" | "le" | "von" | "da" | "di" | "bin" | "and" | "&"
                )
        })
}

/// The name a byline element shows: its `itemprop=name` or its first link
/// holding letters, else its first line of text.
fn name_in(doc: &Doc, el: NodeId) -> Option<String> {
    let end = doc.end(el);
    let inner = |tag_ok: &dyn Fn(NodeId) -> bool| {
        (el + 1..end)
            .filter(|&d| doc.is_element(d) && tag_ok(d))
            .find_map(|d| tidy(&doc.plain_text(d)))
    };
    if let Some(n) = inner(&|d| doc.attr(d, "itemprop") == Some("name")) {
        return Some(n);
    }
    if doc.tag(el) != Tag::A {
        let link = (el + 1..end)
            .filter(|&d| doc.is_element(d) && doc.tag(d) == Tag::A)
            .find_map(|d| first_line(doc, d));
        if link.is_some() {
            return link;
        }
    }
    // The first text that is more than a prefix ("By", "Author:").
    (el..end)
        .filter(|&d| !doc.is_element(d))
        .find_map(|d| tidy(doc.text(d)).filter(|t| !PREFIXES.contains(&t.to_lowercase().as_str())))
}

/// The first line of element `el`'s text that is more than a prefix: its
/// texts up to the first block boundary inside it. A link around an author
/// box holds the name and, in a block of its own, the writer's position
/// ("Meghan Neville" / "Content Marketing Coordinator"): the name.
fn first_line(doc: &Doc, el: NodeId) -> Option<String> {
    // The nearest block element around a text inside `el` (`el` itself
    // when none is).
    let block_of = |mut d: NodeId| {
        d = doc.nodes[d as usize].parent;
        while d != el && d != u32::MAX && doc.tag(d).is_inline() {
            d = doc.nodes[d as usize].parent;
        }
        d
    };
    let mut line = String::new();
    let mut block = None;
    for d in (el + 1..doc.end(el)).filter(|&d| !doc.is_element(d)) {
        let t = doc.text(d).trim();
        if t.is_empty() {
            continue;
        }
        let b = block_of(d);
        if block.is_some_and(|k| k != b) {
            match tidy(&line).filter(|n| !PREFIXES.contains(&n.to_lowercase().as_str())) {
                Some(n) => return Some(n),
                None => line.clear(),
            }
        }
        block = Some(b);
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    tidy(&line).filter(|n| !PREFIXES.contains(&n.to_lowercase().as_str()))
}

/// Whether `token` holds `word` (lower-case ASCII) in any ASCII case,
/// without lowering a copy of it.
fn holds(token: &str, word: &str) -> bool {
    token
        .as_bytes()
        .windows(word.len())
        .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(html: &str, ld: Option<Value>, tag: Option<&str>) -> Option<String> {
        let doc = Doc::parse_str(html);
        author(&doc, ld.as_ref(), tag, Some("Example News"), Some("en"))
    }

    #[test]
    fn bylines_as_people_write_them() {
        let ld = serde_json::json!([{"@type": "Person", "name": "Ann Lee"}, {"name": "Bo Chan"}, "Cy Diaz"]);
        assert_eq!(
            of("", Some(ld), None).as_deref(),
            Some("Ann Lee, Bo Chan and Cy Diaz")
        );
        assert_eq!(tidy("  By Jo Ray ").as_deref(), Some("Jo Ray"));
        assert_eq!(tidy("Written By: Tom May").as_deref(), Some("Tom May"));
        assert_eq!(tidy("Byron Ellis").as_deref(), Some("Byron Ellis"));
        // Regression (trafilatura-eval): "Created by", "Posted by" in the
        // languages of the prefixes above, not a name.
        assert_eq!(
            tidy("Erstellt von Andri Bryner").as_deref(),
            Some("Andri Bryner")
        );
        assert_eq!(tidy("Publié par Léa Roux").as_deref(), Some("Léa Roux"));
        // A role's label before the name.
        assert_eq!(
            tidy("Interview: Julia Lauter").as_deref(),
            Some("Julia Lauter")
        );
        assert_eq!(tidy("Text: Jo Ray").as_deref(), Some("Jo Ray"));
        // A date or a social handle after the name is not the name.
        for (line, name) in [
            ("Janic Cathomen, 01.12.2021", "Janic Cathomen"),
            ("By Giovanni Gaggero | 12/10/2020", "Giovanni Gaggero"),
            ("Williams Perdomo @wperdomod", "Williams Perdomo"),
            ("Sat, 20 Dec 2025", "Sat, 20 Dec 2025"),
            ("@wperdomod", "@wperdomod"),
        ] {
            assert_eq!(tidy(line).as_deref(), Some(name), "{line}");
        }
        assert_eq!(tidy("Textile Works").as_deref(), Some("Textile Works"));
        assert_eq!(
            tidy("Zeige alle Beiträge von Petra Ruland").as_deref(),
            Some("Petra Ruland")
        );
        // A label is not a name.
        assert!(!name_like("Datum:"));
        let html = r#"<body><h1>T</h1><div class="author">Datum:</div><p>Story.</p></body>"#;
        assert_eq!(of(html, None, None), None);
        let html = r#"<body><h1>T</h1><div class="post-author">Eingestellt von <span>der Michel</span></div></body>"#;
        assert_eq!(of(html, None, None).as_deref(), Some("der Michel"));
    }

    #[test]
    fn the_sites_name_after_the_writer_is_not_the_writers() {
        let ld = serde_json::json!({"@type": "Person", "name": "Rob Picheta, Example News"});
        assert_eq!(of("", Some(ld), None).as_deref(), Some("Rob Picheta"));
        // Another's name after a comma stays, and so does the site alone.
        let ld = serde_json::json!({"@type": "Person", "name": "Rob Picheta, Reuters"});
        assert_eq!(
            of("", Some(ld), None).as_deref(),
            Some("Rob Picheta, Reuters")
        );
        let ld = serde_json::json!({"@type": "Person", "name": "Example News - Alberto Ávila"});
        assert_eq!(of("", Some(ld), None).as_deref(), Some("Alberto Ávila"));
        assert_eq!(
            without_site("Example News", Some("Example News")),
            None,
            "no writer before it"
        );
    }

    /// A link to the writer's page, when nothing names the byline: its name
    /// (trafilatura-eval, wcxb-dev); not a menu's, not a word.
    #[test]
    fn a_link_to_the_writers_page_names_the_writer() {
        for (href, text) in [
            ("/autor/frank_g", "Gunter Frank"),
            (
                "https://news.test/author/jo-ray/",
                "View all posts by Gunter Frank",
            ),
        ] {
            let html = format!(
                r#"<body><h1>T</h1><p>Story.</p><p><a href="{href}">{text}</a> / 03.11.2021</p></body>"#
            );
            assert_eq!(
                of(&html, None, None).as_deref(),
                Some("Gunter Frank"),
                "{href}"
            );
        }
        for html in [
            r#"<body><h1>T</h1><nav><a href="/author/jo-ray/">Jo Ray</a></nav></body>"#,
            r#"<body><h1>T</h1><p><a href="/author/">Our Authors</a></p></body>"#,
            r#"<body><h1>T</h1><p><a href="/authors/jo">authors</a></p></body>"#,
        ] {
            assert_eq!(of(html, None, None), None, "{html}");
        }
    }

    /// A link around an author box: the name's line, not the position in
    /// the block under it (wcxb-dev, three pages).
    #[test]
    fn a_linked_author_box_gives_its_name_line() {
        for html in [
            r#"<body><h1>T</h1><div class="author-box"><a href="/a/mn"><img alt=""><div class="name">Written by <span>Meghan Neville</span></div><div class="position">Content Marketing Coordinator</div></a></div></body>"#,
            r#"<body><h1>T</h1><div class="byline"><a href="/a/mn"><p class="name">Meghan Neville</p><p class="job">Tech Reporter</p></a></div></body>"#,
        ] {
            assert_eq!(of(html, None, None).as_deref(), Some("Meghan Neville"));
        }
        // Inline parts of one name stay together.
        let html = r#"<body><h1>T</h1><div class="byline">By <a href="/a/mn">Meghan <b>Neville</b></a></div></body>"#;
        assert_eq!(of(html, None, None).as_deref(), Some("Meghan Neville"));
    }

    #[test]
    fn an_organisation_is_the_last_resort() {
        let org = serde_json::json!({"@type": "Organization", "name": "Clinic Health"});
        let html = r#"<body><h1>T</h1><div class="byline">By <a href="/a/holly">Holly Wilgus</a></div></body>"#;
        assert_eq!(
            of(html, Some(org.clone()), None).as_deref(),
            Some("Holly Wilgus")
        );
        assert_eq!(
            of("<body></body>", Some(org), None).as_deref(),
            Some("Clinic Health")
        );
        // The site's own name gives way to the byline's person, and stays
        // when there is none.
        assert_eq!(
            of(html, None, Some("Example News")).as_deref(),
            Some("Holly Wilgus")
        );
        assert_eq!(
            of("<body></body>", None, Some("Example News")).as_deref(),
            Some("Example News")
        );
    }

    #[test]
    fn a_handle_gives_way_to_the_name_the_byline_shows() {
        let html = r#"<body><span class="author">Denise Everheart</span></body>"#;
        assert_eq!(
            of(html, None, Some("andrew.keaveney")).as_deref(),
            Some("Denise Everheart")
        );
        let ld = serde_json::json!({"@type": "Person", "name": "kffnirmitap2"});
        assert_eq!(
            of(html, Some(ld), None).as_deref(),
            Some("Denise Everheart")
        );
        // Regression (trafilatura-eval): the site's social handle as
        // `article:author`.
        assert_eq!(
            of(html, None, Some("@NatGeoUK")).as_deref(),
            Some("Denise Everheart")
        );
    }

    #[test]
    fn a_label_then_the_name_under_the_headline() {
        let html = r#"<body><h1>Ten trends</h1><div><p>Written by</p><p>Edzel Tabing</p></div><p>Story.</p></body>"#;
        assert_eq!(of(html, None, None).as_deref(), Some("Edzel Tabing"));
        let html = r#"<body><h1>Ten trends</h1><div class="publish-meta"><span>Published August 7, 2023</span> <span>by Nicole Burke</span></div></body>"#;
        assert_eq!(of(html, None, None).as_deref(), Some("Nicole Burke"));
        // A text opening with a prefix in another language.
        let html = r#"<body><h1>Ten trends</h1><p class="meta">Von Andreas Kürten</p><p>Story.</p></body>"#;
        assert_eq!(of(html, None, None).as_deref(), Some("Andreas Kürten"));
        for (line, name) in [
            ("Автор: Иван Петров", "Иван Петров"),
            ("Przez Anna Kowalska", "Anna Kowalska"),
            ("Napsal Jan Novák", "Jan Novák"),
            ("Piše: Marin Dešković", "Marin Dešković"),
            ("Yazar: Ayşe Yılmaz", "Ayşe Yılmaz"),
            ("Írta: Kovács Péter", "Kovács Péter"),
            ("Oleh Budi Santoso", "Budi Santoso"),
        ] {
            let html =
                format!("<body><h1>Ten trends</h1><p class=meta>{line}</p><p>Story.</p></body>");
            assert_eq!(of(&html, None, None).as_deref(), Some(name), "{line}");
        }
        // Not names: a product opening with a prefix's word ("door", Dutch
        // for "by"), a clock's time, a heading with a colon.
        for t in [
            "Door & Window Sensor",
            "By 12:30 AM",
            "Von Serology: In The Blood",
        ] {
            let html = format!("<body><h1>Ten trends</h1><p>{t}</p><p>Story.</p></body>");
            assert_eq!(of(&html, None, None), None, "{t}");
        }
        // A label written with its colon, in its own element.
        let html = r#"<body><h1>Ten trends</h1><div><h5>Autor: </h5>Peter Maahn</div><p>Story.</p></body>"#;
        assert_eq!(of(html, None, None).as_deref(), Some("Peter Maahn"));
        // Not a name: one word after "By", code, a heading's "By Category".
        let html = r#"<body><h1>Courses</h1><h2>Explore Courses <span>By Category</span></h2><pre>GENERATED <span>BY</span> <span>DEFAULT</span></pre></body>"#;
        assert_eq!(of(html, None, None), None);
    }

    #[test]
    fn loosely_named_bylines_are_small_and_not_a_readers() {
        let html = r#"<body class="tweak-show-author-name"><a href="/top">Skip to Content</a><h1>Headline</h1>
            <div class="post-detail__meta-author">By Emily Norwood</div></body>"#;
        assert_eq!(of(html, None, None).as_deref(), Some("Emily Norwood"));
        let html = r#"<body><h1>Headline</h1><p>Story.</p><form><p class="comment-form-author"><label>Name</label><input></p></form>
            <div class="review-author">Justin</div></body>"#;
        assert_eq!(of(html, None, None), None);
    }

    #[test]
    fn a_forum_byline_is_the_name_not_its_badges() {
        let html = r#"<body><div class="author"><a href="/u/1">drat</a> <span>1,655</span> <span>1 gold badge</span></div></body>"#;
        assert_eq!(of(html, None, None).as_deref(), Some("drat"));
        let html =
            r#"<body><p class="author"><strong>galitsyn</strong> » 11. Sep 2024, 18:36</p></body>"#;
        assert_eq!(of(html, None, None).as_deref(), Some("galitsyn"));
    }
}
