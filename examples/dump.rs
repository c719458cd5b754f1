//! Debug helper: shows how `auto` sees a page — noise roots holding text,
//! the CETD-TPC best blocks, and the rendered output.
//! `cargo run --release --example dump PAGE [tree]`
use trawl::extract::{cetd_tpc, noise};
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let tree = std::env::args().nth(2).is_some();
    let bytes = trawl::input::read_input(&path, 1 << 26).expect("read");
    let dec = trawl::html::charset::decode(&bytes, None, None).expect("decode");
    let doc = trawl::html::Doc::parse_str(&dec.text);
    let label = |id: u32| {
        let (c, i) = doc.class_id(id);
        format!(
            "{}#{} .{}",
            doc.name(id),
            i.unwrap_or(""),
            c.unwrap_or("").chars().take(60).collect::<String>()
        )
    };
    if tree {
        for (i, n) in doc.nodes.iter().enumerate() {
            let id = i as u32;
            let l = if doc.is_element(id) {
                label(id)
            } else {
                format!("\"{}\"", doc.text(id).chars().take(60).collect::<String>())
            };
            println!(
                "{i:5} {}{} chars={}",
                "  ".repeat(n.depth as usize),
                l,
                doc.agg[i].chars
            );
        }
        return;
    }
    let nz = noise::full(&doc, noise::Profile::ARTICLE);
    let body = doc.body() as usize;
    println!("body chars {}", doc.agg[body].chars);
    let mut i = 0;
    while i < doc.len() {
        if nz[i] {
            if doc.agg[i].chars > 100 {
                println!(
                    "noise {i} {} chars={} ld={:.2}",
                    label(i as u32),
                    doc.agg[i].chars,
                    noise::link_density(&doc, i as u32)
                );
            }
            i = doc.nodes[i].end as usize;
        } else {
            i += 1;
        }
    }
    let agg = noise::clean_agg(&doc, &nz);
    let s = cetd_tpc::scores(&doc, &agg, Some(&nz), cetd_tpc::LAMBDA);
    let mut best: Vec<(f64, usize)> = s
        .tdtpc
        .iter()
        .copied()
        .enumerate()
        .map(|(i, v)| (v, i))
        .collect();
    best.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (v, i) in best.iter().take(5) {
        println!(
            "tdtpc {v:.1} {i} {} chars={}",
            label(*i as u32),
            agg[*i].chars
        );
    }
}
