//! Command-line interface: argument definitions and the commands' glue.
//! Logic lives in the library modules; this file wires arguments to them and
//! formats their results.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};

use trawl_crawl::config::Config;

use crate::client::Daemon;
use trawl_extract::{read_input, Options, Page};

mod crawl;
mod eval;
mod export;
mod extract;
mod fetch;
mod reextract;
mod status;
mod store;
mod summary;
mod templates;

pub use crawl::CrawlArgs;
pub use eval::EvalArgs;
pub use export::ExportArgs;
pub use extract::ExtractArgs;
pub use fetch::FetchArgs;
pub use reextract::ReextractArgs;
pub use status::StatusArgs;
pub use store::StoreCommand;
pub use templates::TemplatesCommand;

/// trawl: a focused web crawler with built-in content extraction.
///
/// `trawl crawl` runs the crawl daemon (seeds from seeds/*.txt, store in storage/);
/// `trawl export` writes the extracted records as JSONL; `trawl status` shows progress;
/// `trawl fetch URL` fetches and extracts one page now; `trawl extract` pulls text and
/// metadata out of saved pages; `trawl eval` scores it.
#[derive(Debug, Parser)]
#[command(name = "trawl", version, about, long_about)]
pub struct Cli {
    /// Configuration file (every setting is documented in the shipped config.toml).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Change one setting for this run, as in the file's `[section]` and key
    /// (repeatable; checked like the file). Example: -s crawl.min_delay_ms=200
    /// -s focus.threshold=0.6 -s 'crawl.strip_params=["sid"]'
    #[arg(
        long = "set",
        short = 's',
        global = true,
        value_name = "SECTION.KEY=VALUE"
    )]
    pub set: Vec<String>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the crawl daemon in the foreground (SIGINT/SIGTERM stop it cleanly; it resumes on restart).
    ///
    /// Seeds come from every *.txt in the seeds directory (re-read while running) and from
    /// --seeds files: one URL per line, optional `depth=N max_pages=N scope=host|domain|any
    /// mode=article|ecommerce sitemaps=true|false`.
    /// Example: trawl crawl --seeds my-sites.txt --data /var/lib/trawl
    Crawl(CrawlArgs),
    /// Export extracted records as JSONL (works while the daemon runs, through its endpoint).
    ///
    /// Prints the cursor for the next call on stderr: `trawl export --since CURSOR` continues
    /// after the last record without repeating any.
    Export(ExportArgs),
    /// Show the daemon's progress (or, when it is stopped, what the store holds).
    Status(StatusArgs),
    /// Fetch URLs now and print their records, as the crawl would fetch them.
    ///
    /// robots.txt, the configured user agent and [[site]] settings, redirects, the
    /// private-network guard, the charset from the headers and rendering (render.mode)
    /// all apply; no store is needed. Exit 0: every URL gave a record; 1: some did not
    /// (a 404, robots.txt, not HTML, …: said on stderr); 2: usage.
    ///
    /// Examples:
    ///   trawl fetch https://example.org/story
    ///   trawl fetch --format markdown https://example.org/story > story.md
    ///   trawl fetch --warc pages.warc.gz URL1 URL2
    Fetch(FetchArgs),
    /// Extract main content and metadata from saved pages (.html, .html.gz or - for stdin).
    ///
    /// Examples:
    ///   trawl extract page.html
    ///   trawl extract --jsonl --threads 4 pages/*.html.gz > out.jsonl
    ///   curl -s URL | trawl extract --url URL -
    #[command(verbatim_doc_comment)]
    Extract(ExtractArgs),
    /// Extract again, without the network: today's extractor over the store's WARC archive.
    ///
    /// A record that comes out different gets a newer version (a new record naming the
    /// one it replaces); `trawl export` then gives the latest. The daemon must be stopped;
    /// an interrupted pass continues where it stopped.
    /// Example: trawl reextract --data /var/lib/trawl
    Reextract(ReextractArgs),
    /// Score extraction against a dataset with ground truth (wcxb-dev or cleaneval layout).
    ///
    /// Prints word-level P/R/F1 overall and per page type, and pages/s and MB/s per core.
    /// Example: trawl eval --dataset ../shared/datasets/wcxb-dev --algorithm all
    /// With swde-book it measures template learning instead (fields P/R/F1 for n = 2..8).
    Eval(EvalArgs),
    /// Per-site extraction templates (e-commerce mode), learned by diffing product pages.
    ///
    /// Examples:
    ///   trawl templates learn --site shop.example pages/p1.html pages/p2.html pages/p3.html pages/p4.html
    ///   trawl templates list
    ///   trawl templates show shop.example
    ///   trawl extract --template shop.example pages/p9.html
    #[command(subcommand, verbatim_doc_comment)]
    Templates(TemplatesCommand),
    /// Check a stopped daemon's store, or save what is intact from a damaged one.
    ///
    /// Examples:
    ///   trawl store check                       # reads every record back; exit 1 on damage
    ///   trawl store salvage --out saved.jsonl   # every intact record, then move the store away
    #[command(subcommand, verbatim_doc_comment)]
    Store(StoreCommand),
}

/// Runs the parsed command. Returns the process exit code.
pub fn run(cli: Cli) -> Result<i32> {
    let config = match &cli.config {
        Some(p) => Config::load_with(p, &cli.set)?,
        None => {
            let default = PathBuf::from("config.toml");
            if default.is_file() {
                Config::load_with(&default, &cli.set)?
            } else {
                Config::parse_with("", std::path::Path::new("defaults"), &cli.set)?
            }
        }
    };
    match cli.command {
        Command::Crawl(args) => crawl::crawl(args, config),
        Command::Export(args) => export::export(args, &config),
        Command::Status(args) => status::status(args, &config),
        Command::Extract(args) => extract::extract(args, &config),
        Command::Fetch(args) => fetch::fetch(args, config),
        Command::Reextract(args) => reextract::reextract(args, &config),
        Command::Eval(args) => eval::eval(args),
        Command::Templates(cmd) => templates::run(cmd, &config),
        Command::Store(cmd) => store::store_cmd(cmd, &config),
    }
}

/// Parses saved pages for template learning or applying.
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
