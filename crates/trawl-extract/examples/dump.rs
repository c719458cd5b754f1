//! Shows how each algorithm reads a page: its type, charset, and every
//! algorithm's text, one after another.
//! `cargo run --release -p trawl-extract --example dump PAGE [URL]`

use trawl_extract::{read_input, Algorithm, Options, Page};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: dump PAGE [URL]")?;
    let bytes = read_input(&path, 1 << 26)?;
    let mut opts = Options::default().with_url_opt(args.next());
    let page = Page::parse(&bytes, &opts)?;
    for algorithm in Algorithm::ALL {
        opts.algorithm = algorithm;
        let rec = page.extract(&opts);
        println!(
            "== {} ({:?}, {}) ==\n{}\n",
            algorithm.name(),
            rec.page_type,
            rec.encoding,
            rec.text
        );
    }
    Ok(())
}
