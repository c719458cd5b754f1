//! The command line's cluster mode: `trawl crawl --cluster`, `trawl export
//! --cluster`, `trawl status --cluster`. The work is in
//! `trawl_crawl::cluster` (the shared database) and
//! `trawl_crawl::worker` (the worker daemon); this file wires
//! arguments to them and prints their results.

use std::io::Write;
use std::sync::Arc;

use anyhow::{Context, Result};

use trawl_crawl::cluster::{Conn, Cursor};
use trawl_crawl::worker::{self, ClusterOptions};
use trawl_crawl::Config;
use trawl_crawl::HttpFetcher;
use trawl_crawl::RunOptions;

/// Runs this process as a cluster worker until a signal (or `--once`: until
/// the cluster is out of work).
pub async fn crawl(config: Config, opts: RunOptions) -> Result<trawl_crawl::Snapshot> {
    let fetcher = Arc::new(HttpFetcher::new(&config.fetch_config())?);
    let cluster = ClusterOptions::from_config(&config);
    Ok(worker::run(config, opts, fetcher, cluster).await?)
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// `trawl export --cluster URL`: the cluster's records after `since`.
pub fn export(
    url: &str,
    since: &str,
    limit: usize,
    links: bool,
    all_versions: bool,
    mut sink: &mut dyn Write,
) -> Result<i32> {
    let since: Cursor = since.parse().map_err(anyhow::Error::msg)?;
    let (written, cursor) = runtime()?.block_on(async {
        let mut conn = Conn::connect(url).await?;
        // Older versions of changed pages, once, before the live records.
        let old = if all_versions && since == Cursor::default() {
            trawl_crawl::cluster::write_versions(&mut conn, links, &mut sink).await?
        } else {
            0
        };
        let (n, cursor) =
            trawl_crawl::cluster::write_jsonl(&mut conn, since, limit, links, &mut sink).await?;
        Ok::<_, trawl_crawl::cluster::ClusterError>((n + old, cursor))
    })?;
    sink.flush()?;
    eprintln!(
        "trawl: exported {written} records; next: trawl export --cluster {url} --since {cursor}"
    );
    Ok(0)
}

/// `trawl status --cluster URL`: every worker and the frontier's totals.
pub fn status(url: &str) -> Result<i32> {
    let st = runtime()?.block_on(async {
        let mut conn = Conn::connect(url).await?;
        conn.status().await
    })?;
    let mut out = std::io::stdout().lock();
    write!(out, "{st}")?;
    Ok(0)
}
