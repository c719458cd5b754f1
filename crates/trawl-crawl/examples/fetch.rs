//! Debug helper: fetch one URL with trawl's fetcher and print the response head.
//! `cargo run --release --example fetch URL`
use trawl_crawl::fetch::{FetchConfig, Fetcher, HttpFetcher};
#[tokio::main]
async fn main() {
    let url = std::env::args().nth(1).unwrap_or_default();
    let f = HttpFetcher::new(&FetchConfig {
        user_agent: "trawl/debug".into(),
        connect_timeout: std::time::Duration::from_secs(5),
        timeout: std::time::Duration::from_secs(10),
        max_body_bytes: 10 << 20,
        // The URL is the user's own: any address.
        allow_private: true,
        proxy: None,
    })
    .expect("client");
    for r in [f.get_any(&url).await, f.get(&url).await] {
        println!(
            "status {} error {:?} ct {:?} len {} truncated {} oversize {:?}",
            r.status,
            r.error,
            r.content_type,
            r.body.len(),
            r.truncated,
            r.oversize
        );
    }
}
