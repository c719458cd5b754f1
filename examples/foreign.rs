//! Debug helper: words an algorithm outputs that the rendered page lacks.
//! `cargo run --release --example foreign PAGE ALGORITHM`
use std::collections::HashSet;
use trawl::eval::score;
use trawl::html::{charset, render, Doc, Selection};
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_default();
    let algo =
        trawl::Algorithm::parse(&args.next().unwrap_or_else(|| "auto".into())).expect("algorithm");
    let bytes = trawl::input::read_input(&path, 1 << 26).expect("read");
    let dec = charset::decode(&bytes, None, None).expect("decode");
    let doc = Doc::parse_str(&dec.text);
    let visible: HashSet<String> = score::tokens(&render(&doc, &Selection::subtree(&doc, 0)))
        .into_iter()
        .collect();
    let rec = trawl::extract::extract_doc(&doc, None, algo, None);
    for t in score::tokens(&rec.text) {
        if !visible.contains(&t) {
            let at = rec.text.to_lowercase().find(&t).unwrap_or(0);
            let ctx: String = rec
                .text
                .chars()
                .skip(rec.text[..at].chars().count().saturating_sub(30))
                .take(70)
                .collect();
            println!("{t:?} in …{ctx:?}");
        }
    }
}
