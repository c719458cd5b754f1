//! Shows a page's product record twice: as its markup states it, and as
//! trawl reads it with the markup ignored (what `trawl eval --products-shown`
//! scores). `cargo run --release -p trawl-extract --example shown PAGE [URL]`

use trawl_extract::{read_input, read_product, stated_product, Options, Page, ProductSources};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: shown PAGE [URL]")?;
    let url = args.next();
    let bytes = read_input(&path, 1 << 26)?;
    let opts = Options::default().with_url_opt(url.clone());
    let page = Page::parse(&bytes, &opts)?;
    let ex = page.extract(&opts);
    let title = ex.title.as_deref();
    let stated = stated_product(page.doc());
    let shown = read_product(
        page.doc(),
        true,
        title,
        url.as_deref(),
        ProductSources::Shown,
    );
    println!("type: {:?}", ex.page_type);
    println!("stated: {}", serde_json::to_string(&stated)?);
    println!("shown:  {}", serde_json::to_string(&shown)?);
    Ok(())
}
