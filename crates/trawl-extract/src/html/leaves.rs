//! The text leaves of a page, each with a key that names it across pages
//! of one site: the path of (tag, stable id and classes, ordinal among
//! same-looking siblings) from the root, ids and classes with digits left
//! out. A leaf also knows its block, its row label and the link density
//! around it. Computed once per page (`Page` caches them); templates
//! (`template::align`) diff them across pages.

use std::collections::HashMap;

use super::{Doc, Tag};

/// A text leaf of a page.
#[derive(Debug, Clone)]
pub(crate) struct Leaf {
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
pub(crate) fn leaves(doc: &Doc) -> Vec<Leaf> {
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
