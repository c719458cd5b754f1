//! The page's metadata as the parser meets it: `<title>`, `<meta>`,
//! `<link>` (canonical, feeds), JSON-LD scripts, `<html lang>` and
//! `<base href>`, gathered while flattening, before invisible parts of the
//! page are dropped (the head is invisible).

use html5ever::{Attribute, QualName};
use std::borrow::Cow;

use super::sink::{SData, SNode, NONE};

/// Metadata gathered while flattening, before invisible parts are dropped.
#[derive(Debug, Default)]
pub(crate) struct RawMeta {
    pub title: Option<String>,
    /// `<meta>` name/property (lower-cased) and content.
    pub metas: Vec<(String, String)>,
    /// `<link>` rel (lower-cased) and href.
    pub links: Vec<(String, String)>,
    /// Bodies of `<script type="application/ld+json">`.
    pub json_ld: Vec<String>,
    /// `lang` of the `<html>` element.
    pub lang: Option<String>,
    /// `href` of the first `<base>` element: how relative links resolve.
    pub base: Option<String>,
    /// `href`s of `<link rel="alternate">` feeds (RSS, Atom, JSON Feed).
    pub feeds: Vec<String>,
    /// What the page's other scripts are: whether it is an app that builds
    /// itself in the browser, and the state it embeds.
    pub scripts: Scripts,
}

/// The page's scripts, as a crawler that runs none sees them.
#[derive(Debug, Default)]
pub(crate) struct Scripts {
    /// `<script src>` elements.
    pub external: u32,
    /// Characters of inline script (JSON-LD not counted).
    pub inline_chars: usize,
    /// Inline scripts that can bring content however short they are: a
    /// module (`type=module`) or code that fetches (`fetch(`,
    /// `XMLHttpRequest`, `import(`), injects a script or writes markup.
    /// Looked for only while the inline total is under
    /// [`SHORT_INLINE_CHARS`]: past it the page has scripts enough.
    pub loaders: u32,
    /// Embedded state a framework hydrates from: its name (the script's id,
    /// or the `window.__NAME__` it is assigned to) and its JSON.
    pub states: Vec<(String, String)>,
}

/// Inline script up to this many characters in all is read for
/// [`Scripts::loaders`] (the shell test's threshold for inline script).
pub(crate) const SHORT_INLINE_CHARS: usize = 2_000;

/// What code that loads content calls. Looked for in short inline scripts
/// only; names of the web platform, not of any site.
const LOADER_CALLS: [&str; 8] = [
    "fetch(",
    "XMLHttpRequest",
    "import(",
    "import ",
    ".ajax(",
    "createElement(",
    "innerHTML",
    "document.write",
];

/// Embedded state larger than this is not kept (bytes).
const MAX_STATE_BYTES: usize = 8 << 20;

/// An attribute's value, from the parser's list.
fn attr<'a>(attrs: &'a [Attribute], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| &*a.value)
}

pub(super) fn collect_meta(
    meta: &mut RawMeta,
    name: &str,
    attrs: &[Attribute],
    nodes: &[SNode],
    id: u32,
) {
    let get = |k: &str| attr(attrs, k);
    match name {
        "meta" => {
            let key = get("property")
                .or_else(|| get("name"))
                .or_else(|| get("itemprop"))
                .or_else(|| get("http-equiv"));
            if let (Some(k), Some(v)) = (key, get("content")) {
                meta.metas.push((k.to_ascii_lowercase(), v.to_string()));
            }
        }
        "base" if meta.base.is_none() => {
            meta.base = get("href")
                .filter(|h| !h.trim().is_empty())
                .map(str::to_string);
        }
        "link" => {
            // Microdata's availability as schema.org writes it: `<link
            // itemprop="availability" href="https://schema.org/InStock">`,
            // a loose property as a `<meta itemprop>` is (links are not in
            // the tree the microdata reader walks).
            let availability = get("itemprop").is_some_and(|p| p.trim() == "availability");
            if let Some(href) = get("href").filter(|_| availability) {
                meta.metas
                    .push(("availability".to_string(), href.to_string()));
            }
            if let (Some(rel), Some(href)) = (get("rel"), get("href")) {
                let rel = rel.to_ascii_lowercase();
                if rel.split_whitespace().any(|r| r == "alternate") && is_feed(get("type")) {
                    meta.feeds.push(href.to_string());
                }
                meta.links.push((rel, href.to_string()));
            }
        }
        "title" if meta.title.is_none() => {
            meta.title = Some(child_text(nodes, id).into_owned());
        }
        "script"
            if get("type").is_some_and(|t| {
                // With or without parameters ("; charset=utf-8").
                let media = t.split(';').next().unwrap_or(t);
                media.trim().eq_ignore_ascii_case("application/ld+json")
            }) =>
        {
            meta.json_ld
                .push(unwrap_json_ld(&child_text(nodes, id)).to_string());
        }
        "script" if get("src").is_some_and(|s| !s.trim().is_empty()) => {
            meta.scripts.external += 1;
        }
        "script" => {
            let text = child_text(nodes, id);
            let kind = super::tokenize::lowered(get("type").unwrap_or_default().trim());
            count_inline(&mut meta.scripts, &kind, &text);
            if text.len() > MAX_STATE_BYTES {
                return;
            }
            if kind == "application/json" {
                let name = get("id").unwrap_or("application/json").to_string();
                meta.scripts.states.push((name, text.into_owned()));
            } else if let Some((name, json)) = assigned_state(&text) {
                meta.scripts
                    .states
                    .push((name.to_string(), json.to_string()));
            }
        }
        "html" if meta.lang.is_none() => {
            meta.lang = get("lang").or_else(|| get("xml:lang")).map(str::to_string);
        }
        _ => {}
    }
}

/// Adds an inline script (of `type` `kind`, lowercased) to `scripts`.
fn count_inline(scripts: &mut Scripts, kind: &str, text: &str) {
    let before = scripts.inline_chars;
    scripts.inline_chars += text.len();
    let code = kind.is_empty() || kind == "module" || kind.contains("javascript");
    if !code || before + text.len() >= SHORT_INLINE_CHARS || text.trim().is_empty() {
        return;
    }
    if kind == "module" || LOADER_CALLS.iter().any(|c| text.contains(c)) {
        scripts.loaders += 1;
    }
}

/// A JSON-LD script's JSON, without the wrappers pages put around it for
/// old XHTML parsers (`/*<![CDATA[*/ … /*]]>*/`, `//<![CDATA[`, `<!-- … -->`):
/// they made the whole block unreadable.
fn unwrap_json_ld(raw: &str) -> &str {
    const OPEN: [&str; 5] = [
        "/*<![CDATA[*/",
        "//<![CDATA[",
        "<![CDATA[",
        "<!--",
        "/*-->*/",
    ];
    const CLOSE: [&str; 5] = ["/*]]>*/", "//]]>", "]]>", "//-->", "-->"];
    let mut s = raw.trim();
    while let Some(rest) = OPEN.iter().find_map(|o| s.strip_prefix(o)) {
        s = rest.trim_start();
    }
    while let Some(rest) = CLOSE.iter().find_map(|c| s.strip_suffix(c)) {
        s = rest.trim_end();
    }
    s.strip_suffix(';').unwrap_or(s).trim_end()
}

/// A script that only assigns a JSON literal to a framework's global
/// (`window.__INITIAL_STATE__ = {…};`, `window["__APOLLO_STATE__"]=…`):
/// the global's name and the JSON.
fn assigned_state(script: &str) -> Option<(&str, &str)> {
    let s = script.trim_start();
    let s = s
        .strip_prefix("window.")
        .or_else(|| s.strip_prefix("self."))
        .or_else(|| s.strip_prefix("var "))
        .or_else(|| s.strip_prefix("window[\""))
        .or_else(|| s.strip_prefix("window['"))?;
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))?;
    let (name, rest) = s.split_at(end);
    if !(name.starts_with("__") && name.ends_with("__") && name.len() > 4) {
        return None;
    }
    let rest = rest.trim_start_matches(['"', '\'', ']']).trim_start();
    let json = rest.strip_prefix('=')?.trim();
    let json = json.strip_suffix(';').unwrap_or(json).trim_end();
    json.starts_with(['{', '[']).then_some((name, json))
}

/// Whether a `<link type>` is a feed's (RSS, Atom, JSON Feed).
fn is_feed(t: Option<&str>) -> bool {
    let t = t.unwrap_or_default().trim().as_bytes();
    [
        "application/rss+xml",
        "application/atom+xml",
        "application/feed+json",
    ]
    .iter()
    .any(|k| {
        t.get(..k.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(k.as_bytes()))
    })
}

/// A `<meta itemprop>` inside an element that is itself a property
/// (`scope`: a microdata brand item holding only `<meta itemprop="name"
/// content="Acme">`) is also collected as `brand.name`: its bare key no
/// longer says whose name it is.
pub(super) fn scoped_meta(meta: &mut RawMeta, scope: &str, attrs: &[Attribute]) {
    if let (Some(prop), Some(content)) = (attr(attrs, "itemprop"), attr(attrs, "content")) {
        let key = format!("{}.{}", scope.trim(), prop.trim()).to_ascii_lowercase();
        meta.metas.push((key, content.to_string()));
    }
}

/// Collects metadata from every element under `<head>` (iteratively).
pub(super) fn collect_head(meta: &mut RawMeta, nodes: &[SNode], names: &[QualName], head: u32) {
    let mut stack = vec![nodes[head as usize].first];
    while let Some(cur) = stack.pop() {
        if cur == NONE {
            continue;
        }
        stack.push(nodes[cur as usize].next);
        if let SData::Element { attrs } = &nodes[cur as usize].data {
            collect_meta(meta, &names[cur as usize].local, attrs, nodes, cur);
            stack.push(nodes[cur as usize].first);
        }
    }
}

fn child_text(nodes: &[SNode], id: u32) -> Cow<'_, str> {
    let mut out = Cow::Borrowed("");
    let mut c = nodes[id as usize].first;
    while c != NONE {
        if let SData::Text(t) = &nodes[c as usize].data {
            if out.is_empty() {
                out = Cow::Borrowed(&**t);
            } else {
                out.to_mut().push_str(t);
            }
        }
        c = nodes[c as usize].next;
    }
    out
}
