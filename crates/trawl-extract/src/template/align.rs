//! Aligning pages of one site node by node, and finding what varies.
//!
//! Paper 003 compares n product pages of a site with the first one and
//! prunes every leaf whose text and attributes are the same in the others;
//! what is left is the page-specific part. Here a node is known across pages
//! by its *key*: the path of (tag, stable id and classes, ordinal among
//! same-looking siblings) from the root. Ids and classes containing digits
//! are left out of keys (generated ids, `item-4711`), so they do not break
//! the alignment. A leaf is *static* when one text is shared by a majority
//! of the pages that have it (one odd page does not spoil that), and
//! *variable* otherwise; only leaves present in a majority of pages count.
//!
//! The paper then prunes by link and text relevance (after Wang et al.'s
//! STU-DOM: a block's links against its text). Its exact formulas are not in
//! the paper, so here: a leaf's *local* relevance is the text length of its
//! block (nearest non-inline ancestor) per link in that block plus one, and
//! its *context* relevance the same over the block's parent. A variable leaf
//! is kept if local ≥ 2 and context ≥ 10 (the paper's thresholds) or its
//! text is at least [`LONG_TEXT`] characters.

use std::collections::HashMap;

use crate::html::{Doc, Tag};

/// A text leaf of a page.
#[derive(Debug, Clone)]
pub struct Leaf {
    pub key: String,
    /// Key of its block (nearest non-inline ancestor).
    pub block: String,
    pub text: String,
    /// The text just before it inside its block (a row label), if short.
    pub label: Option<String>,
    /// Tag of its parent element.
    pub parent_tag: String,
    /// Class and id tokens of its ancestors, lower-cased.
    pub hints: Vec<String>,
    pub local: f32,
    pub context: f32,
}

/// Texts at least this long are kept whatever their relevance.
pub const LONG_TEXT: usize = 200;
pub const LOCAL_MIN: f32 = 2.0;
pub const CONTEXT_MIN: f32 = 10.0;

fn stable(token: &str) -> bool {
    !token.is_empty() && !token.chars().any(|c| c.is_ascii_digit())
}

/// Elements that do not start a block of their own: inline ones, and table
/// and definition cells (a row, `<tr>` or `<dl>`, is the block, so a cell's
/// label is the cell before it).
fn is_inline(name: &str) -> bool {
    matches!(
        name,
        "a" | "span"
            | "strong"
            | "b"
            | "em"
            | "i"
            | "font"
            | "small"
            | "u"
            | "sup"
            | "sub"
            | "abbr"
            | "label"
            | "td"
            | "th"
            | "dt"
            | "dd"
            | "img"
    )
}

struct Open {
    id: u32,
    key: String,
    counters: HashMap<String, u32>,
    block: usize,
    name: String,
}

/// Class and id tokens of the open elements, lower-cased.
fn hints_of(doc: &Doc, stack: &[Open]) -> Vec<String> {
    stack
        .iter()
        .skip(1)
        .flat_map(|o| {
            let (c, id) = doc.class_id(o.id);
            c.unwrap_or_default()
                .split_whitespace()
                .chain(id)
                .map(str::to_ascii_lowercase)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The text leaves (and image addresses) of a page, in document order.
pub fn leaves(doc: &Doc) -> Vec<Leaf> {
    let n = doc.len() as u32;
    // Links and text per element subtree, for relevance.
    let mut stack: Vec<Open> = vec![Open {
        id: u32::MAX,
        key: String::new(),
        counters: HashMap::new(),
        block: 0,
        name: String::new(),
    }];
    let mut out: Vec<Leaf> = Vec::new();
    let mut links_in: HashMap<u32, (usize, usize)> = HashMap::new(); // element → (links, chars)
    let mut owners: Vec<Vec<u32>> = Vec::new(); // per leaf: its block and the block's parent block
    for i in 0..n {
        while stack.len() > 1 && stack.last().is_some_and(|o| doc.end(o.id) <= i) {
            stack.pop();
        }
        if doc.is_element(i) {
            let Some(parent) = stack.last_mut() else {
                break;
            };
            let name = doc.name(i).to_string();
            let (class, id) = doc.class_id(i);
            let mut sig = name.clone();
            if let Some(id) = id.filter(|t| stable(t)) {
                sig.push('#');
                sig.push_str(id);
            }
            let mut classes: Vec<&str> = class
                .unwrap_or_default()
                .split_whitespace()
                .filter(|t| stable(t))
                .collect();
            classes.sort_unstable();
            for c in classes {
                sig.push('.');
                sig.push_str(c);
            }
            let ord = parent.counters.entry(sig.clone()).or_default();
            let key = format!("{}/{}[{}]", parent.key, sig, ord);
            *ord += 1;
            let parent_block = parent.block;
            let depth = stack.len();
            stack.push(Open {
                id: i,
                key,
                counters: HashMap::new(),
                block: if is_inline(&name) {
                    parent_block
                } else {
                    depth
                },
                name,
            });
            if doc.tag(i) == Tag::A {
                for o in stack.iter().skip(1) {
                    links_in.entry(o.id).or_default().0 += 1;
                }
            }
            // An image is a leaf too: its address, under `@src`.
            if let Some(src) = (doc.name(i) == "img")
                .then(|| doc.attr(i, "src"))
                .flatten()
                .map(str::trim)
                .filter(|s| !s.is_empty() && !s.starts_with("data:"))
            {
                let top = stack.len() - 1;
                let block_at = stack[top].block.min(top);
                let outer = stack[..block_at]
                    .iter()
                    .rposition(|o| !is_inline(&o.name))
                    .unwrap_or(0);
                owners.push(vec![stack[block_at].id, stack[outer].id]);
                out.push(Leaf {
                    key: format!("{}/@src", stack[top].key),
                    block: stack[block_at].key.clone(),
                    text: src.to_string(),
                    label: None,
                    parent_tag: "img".into(),
                    hints: hints_of(doc, &stack),
                    local: 0.0,
                    context: 0.0,
                });
            }
            continue;
        }
        let text = doc.text(i).split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            continue;
        }
        for o in stack.iter().skip(1) {
            links_in.entry(o.id).or_default().1 += text.chars().count();
        }
        let Some(parent) = stack.last_mut() else {
            break;
        };
        let ord = parent.counters.entry("#text".into()).or_default();
        let key = format!("{}/#text[{}]", parent.key, ord);
        *ord += 1;
        let parent_block = parent.block;
        let block_at = parent_block.min(stack.len() - 1);
        let block = &stack[block_at];
        let outer = stack[..block_at]
            .iter()
            .rposition(|o| !is_inline(&o.name))
            .unwrap_or(0);
        let hints = hints_of(doc, &stack);
        // The label: the previous leaf if it lies in the same block and is short.
        let label = out
            .iter()
            .rev()
            .find(|l| l.parent_tag != "img")
            .filter(|l| l.block == block.key && l.text.chars().count() <= 40)
            .map(|l| l.text.clone());
        owners.push(vec![block.id, stack[outer].id]);
        out.push(Leaf {
            key,
            block: block.key.clone(),
            text,
            label,
            parent_tag: stack.last().map(|o| o.name.clone()).unwrap_or_default(),
            hints,
            local: 0.0,
            context: 0.0,
        });
    }
    let rel = |id: &u32| {
        let (links, chars) = links_in.get(id).copied().unwrap_or((0, 0));
        chars as f32 / (links as f32 + 1.0)
    };
    for (leaf, own) in out.iter_mut().zip(&owners) {
        leaf.local = rel(&own[0]);
        leaf.context = rel(&own[1]);
    }
    key_rows_by_label(&mut out);
    out
}

/// Block tags whose first short text, ending in a colon or set in a `th`
/// or `dt`, labels the rest of the block: a specification row.
fn is_row_tag(tag: &str) -> bool {
    matches!(tag, "li" | "tr" | "p" | "div")
}

/// Keys labelled rows by their label instead of their position.
///
/// Shops leave rows out when a product lacks them ("Series", "Edition"), so
/// the ISBN row is the fifth `<li>` on one page and the fourth on the next;
/// keyed by position, neither key reaches a majority of the samples and the
/// row is lost. A row's block key `…/li[5]` becomes `…/li{ISBN-13:}[0]`
/// (the ordinal counts earlier rows with that label under the same parent),
/// for the row's own leaves and everything inside it.
fn key_rows_by_label(leaves: &mut [Leaf]) {
    let mut renames: Vec<(String, String)> = Vec::new();
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut i = 0;
    while i < leaves.len() {
        let block = leaves[i].block.clone();
        let n = leaves[i..].iter().take_while(|l| l.block == block).count();
        let first = &leaves[i];
        let (parent, last) = block.rsplit_once('/').unwrap_or(("", block.as_str()));
        let tag = last.split(['[', '.', '#']).next().unwrap_or_default();
        let label = first.text.trim();
        let labelled = n >= 2
            && first.parent_tag != "img"
            && label.chars().count() <= 40
            && (label.ends_with(':') || matches!(first.parent_tag.as_str(), "th" | "dt"))
            && is_row_tag(tag)
            && renames
                .iter()
                .all(|(old, _)| !block.starts_with(old.as_str()));
        if labelled {
            let sig = last.split('[').next().unwrap_or_default();
            let clean: String = label
                .chars()
                .map(|c| if "/[]{}.#".contains(c) { '_' } else { c })
                .collect();
            let at = format!("{parent}/{sig}{{{clean}}}");
            let ord = seen.entry(at.clone()).or_default();
            renames.push((block.clone(), format!("{at}[{ord}]")));
            *ord += 1;
        }
        i += n;
    }
    if renames.is_empty() {
        return;
    }
    let rename = |k: &mut String| {
        for (old, new) in &renames {
            if k.starts_with(old.as_str())
                && matches!(k.as_bytes().get(old.len()), None | Some(b'/'))
            {
                k.replace_range(..old.len(), new);
                return;
            }
        }
    };
    for l in leaves.iter_mut() {
        rename(&mut l.key);
        rename(&mut l.block);
    }
}

/// Result of comparing sample pages.
#[derive(Debug, Clone, Default)]
pub struct Diff {
    /// Keys of variable leaves, in the first page's order.
    pub variable: Vec<String>,
    /// Of those, the keys kept by the relevance pruning.
    pub kept: Vec<String>,
    /// Leaves of the first page.
    pub total: usize,
    /// Keys of static leaves (the template's fixed part), for matching
    /// later pages against the template.
    pub fixed: Vec<String>,
}

/// How many sample pages must agree for a leaf to be static.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    /// Paper 003 as written: a leaf of the first page is static when every
    /// other page has it with the same text; leaves the first page lacks
    /// are ignored.
    All,
    /// A majority of the pages (one odd page does not spoil a leaf), over
    /// the leaves of every page.
    Majority,
}

/// Compares the leaves of several pages of one template (majority rule).
pub fn diff(pages: &[Vec<Leaf>]) -> Diff {
    diff_with(pages, Agreement::Majority)
}

/// Compares the leaves of several pages of one template.
pub fn diff_with(pages: &[Vec<Leaf>], agreement: Agreement) -> Diff {
    let n = pages.len();
    let majority = match agreement {
        Agreement::All => n,
        Agreement::Majority => n / 2 + 1,
    };
    let mut texts: HashMap<&str, Vec<&str>> = HashMap::new();
    for p in pages {
        for l in p {
            texts.entry(&l.key).or_default().push(&l.text);
        }
    }
    let Some(first) = pages.first() else {
        return Diff::default();
    };
    let mut d = Diff {
        total: first.len(),
        ..Diff::default()
    };
    // Keys in order: the first page's, then keys the first page lacks.
    let mut order: Vec<&Leaf> = first.iter().collect();
    for p in pages[1..]
        .iter()
        .filter(|_| agreement == Agreement::Majority)
    {
        for l in p {
            if !first.iter().any(|f| f.key == l.key) && !order.iter().any(|o| o.key == l.key) {
                order.push(l);
            }
        }
    }
    for leaf in order {
        let Some(values) = texts.get(leaf.key.as_str()) else {
            continue;
        };
        if agreement == Agreement::Majority && values.len() < majority.min(n).max(1) {
            continue;
        }
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for v in values {
            *counts.entry(v).or_default() += 1;
        }
        let top = counts.values().copied().max().unwrap_or(0);
        if n > 1 && top >= majority {
            d.fixed.push(leaf.key.clone());
            continue;
        }
        d.variable.push(leaf.key.clone());
        // Relevance over the pages that have it: kept if any keeps it.
        let keep = pages
            .iter()
            .flatten()
            .filter(|l| l.key == leaf.key)
            .any(|l| {
                l.text.chars().count() >= LONG_TEXT
                    || (l.local >= LOCAL_MIN && l.context >= CONTEXT_MIN)
            });
        if keep {
            d.kept.push(leaf.key.clone());
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(title: &str, isbn: &str, id: u32) -> Vec<Leaf> {
        let html = format!(
            "<html><body><div id=nav><a href=/>Home</a> <a href=/b>Books</a></div>\
             <div class=product id=p{id}><h1>{title}</h1><ul class=details>\
             <li><strong>ISBN-13</strong>: {isbn}</li><li><strong>Pages</strong>: 200</li></ul></div>\
             <footer>Copyright shop</footer></body></html>"
        );
        leaves(&Doc::parse_str(&html))
    }

    #[test]
    fn keys_ignore_generated_ids_and_labels_are_found() {
        let a = page("One", "978000000001", 17);
        let b = page("Two", "978000000002", 4711);
        let keys = |p: &[Leaf]| p.iter().map(|l| l.key.clone()).collect::<Vec<_>>();
        assert_eq!(keys(&a), keys(&b));
        let isbn = a
            .iter()
            .find(|l| l.text.contains("978"))
            .expect("isbn leaf");
        assert_eq!(isbn.label.as_deref(), Some("ISBN-13"));
    }

    #[test]
    fn labelled_rows_are_keyed_by_label_not_position() {
        let rows = |extra: &str| {
            let html = format!(
                "<html><body><ul class=info>{extra}<li><b>ISBN-13:</b> 978</li>\
                 <li><b>Note:</b> a</li><li><b>Note:</b> b</li><li>plain line</li></ul></body></html>"
            );
            leaves(&Doc::parse_str(&html))
        };
        let (a, b) = (rows(""), rows("<li><b>Series:</b> Dune</li>"));
        let key = |p: &[Leaf], text: &str| {
            p.iter()
                .find(|l| l.text == text)
                .map(|l| l.key.clone())
                .unwrap_or_default()
        };
        assert_eq!(key(&a, "978"), key(&b, "978"));
        assert!(
            key(&a, "978").contains("li{ISBN-13:}[0]"),
            "{}",
            key(&a, "978")
        );
        assert!(key(&a, "b").contains("li{Note:}[1]"), "{}", key(&a, "b"));
        // An unlabelled row keeps its position.
        assert!(
            key(&a, "plain line").contains("/li[3]/"),
            "{}",
            key(&a, "plain line")
        );
        let isbn = a.iter().find(|l| l.text == "978").map(|l| l.block.clone());
        assert!(isbn.is_some_and(|b| b.ends_with("li{ISBN-13:}[0]")));
    }

    #[test]
    fn the_diff_keeps_what_varies_by_majority() {
        let mut pages = vec![
            page("One", "9780000000011", 1),
            page("Two", "9780000000028", 2),
            page("Three", "9780000000035", 3),
            page("Four", "9780000000042", 4),
        ];
        // One odd page with a different page count does not make it variable.
        if let Some(l) = pages[3].iter_mut().find(|l| l.text == ": 200") {
            l.text = ": 300".into();
        }
        let d = diff(&pages);
        let texts: Vec<&str> = pages[0]
            .iter()
            .filter(|l| d.variable.contains(&l.key))
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(texts, ["One", ": 9780000000011"]);
        assert_eq!(d.total, 8);
    }
}
