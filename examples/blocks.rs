//! Study helper: every block of text `auto` selects (text grouped by its
//! nearest block element), with DOM features, as JSON lines — the input of
//! `scripts/block_study.py`, which measured that a learned block filter does
//! not generalise across sites (docs/BENCHMARKS.md, "Why 0.88 is not reached").
//! `cargo run --release --example blocks ../shared/datasets/wcxb-dev > blocks.jsonl`
use std::io::Write;

use serde_json::json;
use trawl::extract::{auto, classify, metadata, noise};
use trawl::html::{charset, Doc, Kind, NodeId, Tag};

/// A run of selected text under one block element.
struct Block {
    element: NodeId,
    text: String,
    chars: u32,
    link_chars: u32,
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_default();
    let cases = trawl::eval::dataset::load(std::path::Path::new(&dir)).expect("dataset");
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for case in cases {
        let path = case.html.to_string_lossy().into_owned();
        let Ok(bytes) = trawl::input::read_input(&path, 1 << 26) else {
            continue;
        };
        let Ok(decoded) = charset::decode(&bytes, None, None) else {
            continue;
        };
        let doc = Doc::parse_str(&decoded.text);
        let meta = metadata::collect(&doc);
        let page_type = classify::classify(&doc, case.url.as_deref(), &meta);
        let sel = auto::select_typed(&doc, page_type, meta.title.as_deref());
        let mut blocks: Vec<Block> = Vec::new();
        for i in 0..doc.len() as NodeId {
            if doc.is_element(i) || !sel.get(i) || doc.nodes[i as usize].chars == 0 {
                continue;
            }
            let mut element = doc.nodes[i as usize].parent;
            let mut in_link = false;
            while element != u32::MAX && doc.tag(element).is_inline() {
                in_link |= doc.tag(element) == Tag::A;
                element = doc.nodes[element as usize].parent;
            }
            let chars = doc.nodes[i as usize].chars;
            let link_chars = if in_link { chars } else { 0 };
            let words = doc.text(i).split_whitespace().collect::<Vec<_>>().join(" ");
            match blocks.last_mut() {
                Some(b) if b.element == element => {
                    b.text.push(' ');
                    b.text.push_str(&words);
                    b.chars += chars;
                    b.link_chars += link_chars;
                }
                _ => blocks.push(Block {
                    element,
                    text: words,
                    chars,
                    link_chars,
                }),
            }
        }
        let total: u32 = blocks.iter().map(|b| b.chars).sum();
        let mut before = 0u32;
        let mut rows = Vec::new();
        for b in &blocks {
            // The block element and up to five ancestors: "tag|class id role".
            let mut chain = Vec::new();
            let mut a = b.element;
            while a != u32::MAX && chain.len() < 6 && doc.nodes[a as usize].kind == Kind::Element {
                chain.push(format!("{}|{}", doc.name(a), noise::class_id_role(&doc, a)));
                a = doc.nodes[a as usize].parent;
            }
            let node = &doc.nodes[b.element as usize];
            let same_path = if node.parent == u32::MAX {
                0
            } else {
                doc.children(node.parent)
                    .filter(|&s| doc.nodes[s as usize].path == node.path)
                    .count()
            };
            rows.push(json!({
                "t": b.text,
                "c": b.chars,
                "lc": b.link_chars,
                "pos": f64::from(before) / f64::from(total.max(1)),
                "chain": chain,
                "same": same_path,
            }));
            before += b.chars;
        }
        let line = json!({"id": case.id, "kind": case.kind, "pt": page_type.name(),
                          "url": case.url, "blocks": rows});
        if writeln!(out, "{line}").is_err() {
            return;
        }
    }
}
