//! Paper 002, list pages: rank same-depth, same-class elements.
//!
//! Every element is keyed by (depth, class name); per key count occurrences O
//! and total text length L; rank keys by `R(O, L)`; among the top n = 15 keys
//! take the one with the largest average text length `TL = L / O`; output the
//! text of all its elements.
//!
//! The paper's formula for R did not survive in our copy. We use `R = O · L`
//! (the total text weight of the key), and consider only keys that repeat
//! (O ≥ [`MIN_REPEAT`]); classless elements are keyed by their tag name so
//! bare `<li>` lists count too. Both choices measured on wcxb-dev.

use rustc_hash::FxHashMap;

use crate::extract::noise;
use crate::extract::Extractor;
use crate::html::{Doc, NodeId, Selection};

pub const TOP_N: usize = 15;
pub const MIN_REPEAT: u32 = 3;

pub struct ListRank;

/// The elements of the winning key, in document order.
pub fn records(doc: &Doc, noise: &[bool]) -> Vec<NodeId> {
    // (depth, element name, class) -> (occurrences O, text length L, elements)
    type Key<'a> = (u32, u16, &'a str);
    // Every element with text is hashed: a fast hash (the key is the
    // page's own, small), and ties broken by document order below, not by
    // the map's order.
    let mut keys: FxHashMap<Key, (u32, u64, Vec<NodeId>)> = FxHashMap::default();
    let body = doc.body();
    let end = doc.nodes[body as usize].end;
    for id in body + 1..end {
        if !doc.is_element(id) || noise[id as usize] {
            continue;
        }
        let chars = doc.agg[id as usize].chars;
        if chars == 0 {
            continue;
        }
        let node = &doc.nodes[id as usize];
        let class = doc.class_id(id).0.unwrap_or("");
        let e = keys
            .entry((node.depth, node.name, class))
            .or_insert((0, 0, Vec::new()));
        e.0 += 1;
        e.1 += u64::from(chars);
        e.2.push(id);
    }
    let mut ranked: Vec<_> = keys
        .into_values()
        .filter(|(o, _, _)| *o >= MIN_REPEAT)
        .collect();
    ranked.sort_by(|a, b| {
        (u64::from(b.0) * b.1)
            .cmp(&(u64::from(a.0) * a.1))
            .then_with(|| a.2.first().cmp(&b.2.first()))
    });
    ranked.truncate(TOP_N);
    ranked
        .into_iter()
        .max_by(|a, b| {
            let ta = a.1 as f64 / f64::from(a.0);
            let tb = b.1 as f64 / f64::from(b.0);
            ta.total_cmp(&tb)
        })
        .map(|(_, _, ids)| ids)
        .unwrap_or_default()
}

impl Extractor for ListRank {
    fn name(&self) -> &'static str {
        "list-rank"
    }

    fn select(&self, doc: &Doc) -> Selection {
        let noise = noise::structural(doc);
        let ids = records(doc, &noise);
        if ids.is_empty() {
            return Selection::subtree(doc, doc.body());
        }
        let mut sel = Selection::none(doc);
        for id in ids {
            sel.include(doc, id);
            sel.line_break_around(id);
        }
        sel
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::render;

    #[test]
    fn outputs_every_record() {
        let cards: String = (0..6)
            .map(|i| format!("<div class=card><h3>Item {i}</h3><p>Description of item number {i} here.</p></div>"))
            .collect();
        let html = format!(
            "<body><ul class=nav>{}</ul><div class=grid>{cards}</div></body>",
            "<li class=m><a href=/x>Link</a></li>".repeat(4)
        );
        let doc = Doc::parse_str(&html);
        let text = render(&doc, &ListRank.select(&doc));
        for i in 0..6 {
            assert!(text.contains(&format!("item number {i}")), "{text}");
        }
        assert!(!text.contains("Link"));
    }
}
