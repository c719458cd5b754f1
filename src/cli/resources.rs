//! What the commands open: the store a config names (to write, or only to
//! read), the async runtime, a daemon running on that store, and saved
//! pages from disk.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use trawl_crawl::Config;
use trawl_extract::{read_input, Options, Page};

use crate::client::Daemon;

/// Some inputs could not be read or used: exit code 1 (usage errors are 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct FailedInputs(pub String);

/// Reads and parses one saved page.
pub(crate) fn parse_page(path: &str, opts: &Options) -> Result<Page, String> {
    let bytes = read_input(path, opts.max_bytes as u64).map_err(|e| e.to_string())?;
    Page::parse(&bytes, opts).map_err(|e| format!("cannot parse {path}: {e}"))
}

/// Parses the pages that can be read; each one that cannot is one error
/// line on stderr. Returns the pages with their paths and the failure count.
pub(crate) fn parse_pages<'a>(
    paths: &'a [String],
    config: &Config,
) -> (Vec<(&'a str, Page)>, usize) {
    let opts = config.extract_options();
    let mut failed = 0;
    let pages = paths
        .iter()
        .filter_map(|p| match parse_page(p, &opts) {
            Ok(page) => Some((p.as_str(), page)),
            Err(e) => {
                failed += 1;
                eprintln!("trawl: error: {e}");
                None
            }
        })
        .collect();
    (pages, failed)
}

pub(crate) fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("trawl-net")
        .build()
        .context("cannot start the async runtime")
}

/// `cluster.url` when set.
pub(crate) fn cluster_url(config: &Config) -> Option<&str> {
    Some(config.cluster.url.as_str()).filter(|u| !u.is_empty())
}

pub(crate) fn data_dir(config: &Config, data: Option<PathBuf>) -> PathBuf {
    data.unwrap_or_else(|| config.crawl.data_dir.clone())
}

/// The store directory in `--data` (or `crawl.data_dir`), which must exist.
fn store_dir(config: &Config, data: Option<PathBuf>) -> Result<PathBuf> {
    let dir = data_dir(config, data);
    if !dir.exists() {
        bail!(
            "no store at {} (run `trawl crawl` first, or pass --data)",
            dir.display()
        );
    }
    Ok(dir)
}

pub(crate) fn open_store(
    config: &Config,
    data: Option<PathBuf>,
) -> Result<trawl_crawl::store::Store> {
    let dir = store_dir(config, data)?;
    Ok(trawl_crawl::store::Store::open(&dir, 16 << 20)?)
}

/// The store in `--data` (or `crawl.data_dir`) for a command that only
/// reads: nothing in it is written (it works on a read-only mount).
pub(crate) fn open_store_read_only(
    config: &Config,
    data: Option<PathBuf>,
) -> Result<trawl_crawl::store::Store> {
    let dir = store_dir(config, data)?;
    Ok(trawl_crawl::store::Store::open_read_only(&dir, 16 << 20)?)
}

/// The status address of the daemon that owns `dir`, if one is running:
/// a daemon answering on `crawl.status_addr` that serves another store
/// is not asked (its records are not the ones wanted).
pub(crate) fn daemon_for(config: &Config, dir: &std::path::Path) -> Option<Daemon> {
    // The address the daemon that last ran on `dir` noted there, then the
    // config's; either must say it owns `dir`.
    let noted = std::fs::read_to_string(dir.join(DAEMON_ADDR_FILE))
        .ok()
        .filter(|a| a.len() < 256);
    let token = config.api.token();
    noted
        .iter()
        .map(|a| a.trim())
        .chain(std::iter::once(config.crawl.status_addr.as_str()))
        .filter_map(|a| Daemon::at(a, &token))
        .find(|d| d.owns(dir))
}

/// The file in a data directory where a running daemon notes its status
/// address.
pub(crate) const DAEMON_ADDR_FILE: &str = "status.addr";
