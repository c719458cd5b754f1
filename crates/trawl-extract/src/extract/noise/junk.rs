//! Text no page means as content, whatever its place: template filler, the
//! errors a server script printed into the page, markup escaped into a
//! `<noscript>`, a `<noscript>` asking for JavaScript. Each is recognised by
//! its own shape, never by a site.

use crate::html::{Doc, Kind, NodeId, Tag};

/// Template filler ("Lorem ipsum dolor sit amet…") left in a page's markup
/// is not content: the element holding it is noise, unless the filler is
/// three quarters of the page or more (a mock-up, a theme's demo page:
/// then it is what the page says, and dropping it left the page empty).
pub(super) fn mark_placeholders(doc: &Doc, noise: &mut [bool], body_chars: u32) {
    let mut found: Vec<usize> = Vec::new();
    let mut filler_chars: u64 = 0;
    let mut i = 0;
    while i < doc.len() {
        let n = &doc.nodes[i];
        if n.kind != Kind::Text || noise[i] || n.chars < 11 || n.parent == u32::MAX {
            i += 1;
            continue;
        }
        let t = doc.text(i as NodeId).trim_start();
        let p = n.parent as usize;
        // The filler is its element's text, not a quote inside an article.
        if t.get(..11)
            .is_some_and(|h| h.eq_ignore_ascii_case("lorem ipsum"))
            && doc.agg[p].chars < 2 * n.chars
        {
            found.push(p);
            filler_chars += u64::from(doc.agg[p].chars);
            // The element's other text nodes are in it already.
            i = (doc.nodes[p].end as usize).max(i + 1);
            continue;
        }
        i += 1;
    }
    if found.is_empty() || 4 * filler_chars >= 3 * u64::from(body_chars) {
        return;
    }
    for p in found {
        let end = doc.nodes[p].end as usize;
        noise[p..end].fill(true);
    }
}

/// The labels PHP prints its errors under when `display_errors` is on.
const SERVER_ERROR_LABELS: &[&str] = &[
    "Warning",
    "Notice",
    "Deprecated",
    "Fatal error",
    "Parse error",
    "Strict Standards",
];

/// Error messages a server script printed into the page (PHP's
/// `<b>Warning</b>: message in <b>/path/file.php</b> on line <b>928</b>`)
/// are never content: the markup shape is PHP's own, whatever the message
/// says. A run of them in a sidebar out-weighed a short blog post.
pub(super) fn mark_server_errors(doc: &Doc, noise: &mut [bool]) {
    let bold = |id: NodeId| matches!(doc.tag(id), Tag::B | Tag::Strong);
    let text = |id: NodeId| (!doc.is_element(id)).then(|| doc.text(id));
    let next = |id: NodeId| {
        let e = doc.nodes[id as usize].end;
        ((e as usize) < doc.len() && doc.nodes[e as usize].parent == doc.nodes[id as usize].parent)
            .then_some(e)
    };
    for label in 0..doc.len() as NodeId {
        // Only short bold elements are read (no allocation for the rest).
        if !bold(label) || doc.agg[label as usize].chars > 16 {
            continue;
        }
        if !SERVER_ERROR_LABELS.contains(&doc.plain_text(label).trim()) {
            continue;
        }
        let Some(message) = next(label).filter(|&m| text(m).is_some_and(|t| t.starts_with(':')))
        else {
            continue;
        };
        let path =
            next(message).filter(|&p| bold(p) && doc.plain_text(p).trim_end().ends_with(".php"));
        let on_line = path
            .and_then(next)
            .filter(|&o| text(o).is_some_and(|t| t.trim() == "on line"));
        let line = on_line.and_then(next).filter(|&l| {
            let n = doc.plain_text(l);
            bold(l) && !n.trim().is_empty() && n.trim().bytes().all(|b| b.is_ascii_digit())
        });
        if let Some(line) = line {
            noise[label as usize..doc.nodes[line as usize].end as usize].fill(true);
        }
    }
}

/// A `<noscript>` whose text is escaped markup (`&lt;img src=…&gt;`, a
/// tracking pixel written for a page that re-parses it): a browser with
/// scripts shows nothing there, and the markup is never the page's words.
/// A `<noscript>` holding real markup stays parsed as markup (no scripts
/// run here, so it is what we see: Discourse serves whole threads there).
pub(super) fn mark_escaped_markup(doc: &Doc, noise: &mut [bool]) {
    for i in 0..doc.len() as NodeId {
        if doc.tag(i) != Tag::Other || noise[i as usize] || doc.name(i) != "noscript" {
            continue;
        }
        let end = doc.end(i);
        let markup = (i + 1..end).all(|c| {
            doc.is_element(c) || {
                let t = doc.text(c).trim();
                t.is_empty() || (t.starts_with('<') && t.ends_with('>'))
            }
        }) && (i + 1..end)
            .any(|c| !doc.is_element(c) && !doc.text(c).trim().is_empty());
        if markup {
            noise[i as usize..end as usize].fill(true);
        }
    }
}

/// A `<noscript>` asking for JavaScript ("You need to enable JavaScript to
/// run this app"): what a script-less client sees of an app shell, never
/// content. Other `<noscript>` blocks (whole threads, image fallbacks) stay.
pub(crate) fn scripts_warning(doc: &Doc, id: NodeId) -> bool {
    doc.tag(id) == Tag::Other
        && doc.agg[id as usize].chars < 400
        && doc.name(id) == "noscript"
        && doc
            .plain_text(id)
            .to_ascii_lowercase()
            .contains("javascript")
}
