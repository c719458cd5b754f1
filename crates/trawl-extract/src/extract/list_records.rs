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
    // (depth, element name, class) -> (occurrences O, text length L, first
    // element). Every element with text is hashed: a fast hash (the key is
    // the page's own, small), and ties broken by document order below, not
    // by the map's order. The winner's elements are gathered in a second
    // pass: most keys are met once or twice, and a list per key was an
    // allocation each.
    let mut keys: FxHashMap<Key, (u32, u64, NodeId)> = FxHashMap::default();
    for id in counted(doc, noise) {
        let chars = doc.agg[id as usize].chars;
        let e = keys.entry(key(doc, id)).or_insert((0, 0, id));
        e.0 += 1;
        e.1 += u64::from(chars);
    }
    let mut ranked: Vec<_> = keys
        .into_iter()
        .filter(|(_, (o, _, _))| *o >= MIN_REPEAT)
        .collect();
    ranked.sort_by(|(_, a), (_, b)| {
        (u64::from(b.0) * b.1)
            .cmp(&(u64::from(a.0) * a.1))
            .then_with(|| a.2.cmp(&b.2))
    });
    ranked.truncate(TOP_N);
    let Some((winner, _)) = ranked.into_iter().max_by(|(_, a), (_, b)| {
        let ta = a.1 as f64 / f64::from(a.0);
        let tb = b.1 as f64 / f64::from(b.0);
        ta.total_cmp(&tb)
    }) else {
        return Vec::new();
    };
    counted(doc, noise)
        .filter(|&id| key(doc, id) == winner)
        .collect()
}

/// (depth, element name, class): what records of one list share.
type Key<'a> = (u32, u16, &'a str);

fn key(doc: &Doc, id: NodeId) -> Key<'_> {
    let node = &doc.nodes[id as usize];
    (node.depth, node.name, doc.class_id(id).0.unwrap_or(""))
}

/// The body's elements with text that are not noise, in document order.
fn counted<'a>(doc: &'a Doc, noise: &'a [bool]) -> impl Iterator<Item = NodeId> + 'a {
    let body = doc.body();
    let end = doc.nodes[body as usize].end;
    (body + 1..end).filter(move |&id| {
        doc.is_element(id) && !noise[id as usize] && doc.agg[id as usize].chars > 0
    })
}
