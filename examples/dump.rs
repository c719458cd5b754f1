//! Debug helper: prints the flat tree of a page (depth, tag, chars, text).
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let bytes = trawl::input::read_input(&path, 1 << 26).expect("read");
    let dec = trawl::html::charset::decode(&bytes, None, None).expect("decode");
    let doc = trawl::html::Doc::parse_str(&dec.text);
    for (i, n) in doc.nodes.iter().enumerate().take(400) {
        let id = i as u32;
        let label = if doc.is_element(id) {
            doc.name(id).to_string()
        } else {
            format!("\"{}\"", doc.text(id).chars().take(60).collect::<String>())
        };
        println!(
            "{i:5} {}{} chars={} end={}",
            "  ".repeat(n.depth as usize),
            label,
            doc.agg[i].chars,
            n.end
        );
    }
}
