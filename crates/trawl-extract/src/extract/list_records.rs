//! The repeated records of a list (paper 002): elements keyed by depth,
//! element name and class, ranked by their total text, the key with the
//! longest records among the top [`TOP_N`] winning. The list-rank
//! algorithm selects them, `auto` reads listings by them, and page typing
//! counts them.

use rustc_hash::FxHashMap;

use crate::html::{Doc, NodeId};

pub(super) const TOP_N: usize = 15;
pub(super) const MIN_REPEAT: u32 = 3;

/// The elements of the winning key, in document order.
pub(super) fn records(doc: &Doc, noise: &[bool]) -> Vec<NodeId> {
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
