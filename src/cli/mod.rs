//! Command-line interface: argument definitions and the commands' glue.
//! Logic lives in the library modules; this file wires arguments to them and
//! formats their results.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Parser, Subcommand};

use trawl_crawl::Config;

mod crawl;
mod eval;
mod export;
mod extract;
mod fetch;
mod reextract;
mod resources;
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
pub use resources::FailedInputs;
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
