//! Command-line interface: argument definitions and the commands' glue.
//! Logic lives in the library modules; this file wires arguments to them and
//! formats their results.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use rayon::prelude::*;
use serde::Serialize;

use trawl_crawl::config::Config;
use trawl_crawl::crawl::templates::Templates;

use crate::client::Daemon;
use trawl_extract::{read_input, Algorithm, Charset, Extracted, Learning, Options, Page};

/// trawl: a focused web crawler with built-in content extraction.
///
/// `trawl crawl` runs the crawl daemon (seeds from seeds/*.txt, store in storage/);
/// `trawl export` writes the extracted records as JSONL; `trawl status` shows progress;
/// `trawl extract` pulls text and metadata out of saved pages; `trawl eval` scores it.
#[derive(Debug, Parser)]
#[command(name = "trawl", version, about, long_about)]
pub struct Cli {
    /// Configuration file (every setting is documented in the shipped config.toml).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

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
    /// Extract main content and metadata from saved pages (.html, .html.gz or - for stdin).
    ///
    /// Examples:
    ///   trawl extract page.html
    ///   trawl extract --jsonl --threads 4 pages/*.html.gz > out.jsonl
    ///   curl -s URL | trawl extract --url URL -
    Extract(ExtractArgs),
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
    #[command(subcommand)]
    Templates(TemplatesCommand),
    /// Check a stopped daemon's store, or save what is intact from a damaged one.
    ///
    /// Examples:
    ///   trawl store check                       # reads every record back; exit 1 on damage
    ///   trawl store salvage --out saved.jsonl   # every intact record, then move the store away
    #[command(subcommand)]
    Store(StoreCommand),
}

#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Read every record and page outcome back and compare with the store's
    /// counters and its checkpoint file; names what is missing or damaged.
    Check {
        /// Data directory [default: crawl.data_dir].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Write every intact record as JSONL (what `export` gives, minus the damage).
    Salvage {
        /// Where to write the records.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Data directory [default: crawl.data_dir].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum TemplatesCommand {
    /// Learn a site's template from saved product pages of one layout (4 or more is best).
    Learn {
        /// Site name the template is stored under (e.g. the shop's host).
        #[arg(long)]
        site: String,
        /// Data directory [default: crawl.data_dir].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
        /// Learn from the first N pages and check the template on the others,
        /// taking more samples while a field is missing or wrong, as the
        /// crawl does [default: learn from every page given, no check].
        #[arg(long, value_name = "N")]
        samples: Option<usize>,
        /// Saved pages (.html or .html.gz).
        #[arg(required = true, num_args = 2.., value_name = "PATH")]
        paths: Vec<String>,
    },
    /// One line per stored template: site, cluster, version, fields.
    List {
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// A site's templates as JSON.
    Show {
        site: String,
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Every template as JSONL.
    Export {
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Delete a site's templates (the crawl learns them again).
    Forget {
        site: String,
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct CrawlArgs {
    /// Seed files to crawl instead of the *.txt files of crawl.seeds_dir (repeatable).
    #[arg(long, value_name = "FILE")]
    pub seeds: Vec<PathBuf>,
    /// Status endpoint address, overriding crawl.status_addr ("" turns it off);
    /// give each of two crawls running side by side its own.
    #[arg(long, value_name = "ADDR")]
    pub status_addr: Option<String>,
    /// Data directory [default: crawl.data_dir, "storage"].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Exit when nothing is left to fetch instead of waiting for new seeds.
    #[arg(long)]
    pub once: bool,
    /// Log format on stderr.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub log_format: String,
    /// Crawl order, overriding focus.strategy: "focused" (most promising links
    /// first, needs a [focus] topic) or "bfs" (shallowest first, the baseline).
    #[arg(long, value_parser = ["focused", "bfs"])]
    pub strategy: Option<String>,
    /// Join a cluster: share the frontier in this PostgreSQL database with other
    /// workers (postgres://user@host:port/db; overrides cluster.url). Each worker
    /// keeps its own --data directory (robots cache, outbox).
    /// Example: trawl crawl --cluster postgres://trawl@db:5432/trawl --worker w1
    #[arg(long, value_name = "URL")]
    pub cluster: Option<String>,
    /// This worker's name in the cluster [default: cluster.worker, else HOSTNAME-PID].
    #[arg(long, value_name = "NAME", requires = "cluster")]
    pub worker: Option<String>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Output format (only jsonl today).
    #[arg(long, default_value = "jsonl", value_parser = ["jsonl"])]
    pub format: String,
    /// Write to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Only records after this cursor: the one the last export printed (the `seq` of
    /// the last record you have; XID.ID with --cluster).
    #[arg(long, default_value = "0", value_name = "CURSOR")]
    pub since: String,
    /// Only records of this page type.
    #[arg(long = "type", value_name = "TYPE", value_parser = crate::eval::types::CLASSES)]
    pub page_type: Option<String>,
    /// At most this many records.
    #[arg(long, default_value_t = 0)]
    pub limit: usize,
    /// Export page outcomes instead (url, final_url, status, fetched_at, bytes, error, redirects).
    #[arg(long)]
    pub outcomes: bool,
    /// Data directory [default: crawl.data_dir].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Export the records of a cluster from its database (postgres://…; overrides cluster.url).
    #[arg(long, value_name = "URL", conflicts_with_all = ["outcomes", "page_type"])]
    pub cluster: Option<String>,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Data directory [default: crawl.data_dir].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Print Prometheus metrics instead of the summary.
    #[arg(long)]
    pub metrics: bool,
    /// Show a cluster: every worker, the hosts it holds, its rate (postgres://…).
    #[arg(long, value_name = "URL", conflicts_with = "metrics")]
    pub cluster: Option<String>,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Algorithm: auto, cetd-tpc, cc, article-std, list-rank, segment [default: from config, auto]
    #[arg(long, short)]
    pub algorithm: Option<String>,
    /// One JSON object per input, in input order.
    #[arg(long)]
    pub jsonl: bool,
    /// The page's URL (helps page typing and charset detection).
    #[arg(long)]
    pub url: Option<String>,
    /// Charset to use instead of the page's own declaration (a BOM still wins).
    #[arg(long)]
    pub charset: Option<String>,
    /// Worker threads [default: from config, all cores].
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Apply this site's stored template instead of the extractor (product fields).
    #[arg(long, value_name = "SITE")]
    pub template: Option<String>,
    /// Data directory holding the templates [default: crawl.data_dir].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Input files; `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Dataset directory, e.g. ../shared/datasets/wcxb-dev or ../shared/datasets/cleaneval.
    #[arg(long)]
    pub dataset: PathBuf,
    /// Algorithm name, or `all` for every algorithm.
    #[arg(long, short, default_value = "auto")]
    pub algorithm: String,
    /// Worker threads (speed is reported per core either way).
    #[arg(long, short = 'j', default_value_t = 1)]
    pub threads: usize,
    /// Evaluate only the first N pages.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Write predictions as JSONL (`source`, `text`) for ../shared/tools/score.py.
    #[arg(long, value_name = "FILE")]
    pub predictions: Option<PathBuf>,
    /// Give extractors the dataset's page types instead of classifying.
    #[arg(long)]
    pub oracle_types: bool,
    /// Train the page-type model on the dataset (cross-validated report, then a
    /// fit on all pages) and write it to FILE, e.g. crates/trawl-extract/models/page_type.json.
    #[arg(long, value_name = "FILE")]
    pub train_types: Option<PathBuf>,
    /// Print the N worst pages (by F1) after the table.
    #[arg(long, default_value_t = 0)]
    pub worst: usize,
    /// swde-book: learn the template from the first N pages (default: the
    /// curve for N = 2..8).
    #[arg(long, value_name = "N")]
    pub learn: Option<usize>,
    /// swde-book: learn from K seeded random draws of N pages (--learn N,
    /// default 4) instead of the first N, and report each draw and the
    /// minimum per field. Example: trawl eval --dataset ../shared/datasets/swde-book --draws 20
    #[arg(long, value_name = "K")]
    pub draws: Option<usize>,
    /// With --draws: each draw takes C more pages on which the template
    /// checks itself and takes more samples while a field is missing or
    /// wrong (as the crawl does; crawl.template_checks).
    #[arg(long, value_name = "C", default_value_t = 0)]
    pub check: usize,
    /// "Where we lose": score two prediction files (JSONL with `source` and
    /// `text`, as --predictions writes them; a peer's in the same form) on the
    /// dataset, page by page, and list the pages the second wins by most
    /// (--worst of them, default 25). No extraction runs.
    /// Example: trawl eval --dataset ../shared/datasets/trafilatura-eval
    ///          --losses ours.jsonl trafilatura.jsonl --worst 40
    #[arg(long, num_args = 2, value_names = ["OURS", "PEER"])]
    pub losses: Option<Vec<PathBuf>>,
    /// Score single-page product records against a product truth file
    /// (JSONL: `id` or `file`, then `name`, `price`, `currency`, `sku`, `gtin`,
    /// `brand` as a value or a list of accepted values; `[]` = the page has
    /// none; format in src/eval/products.rs). Pages are read from
    /// DATASET/html/ID.html.gz (or DATASET/ID.html). Prints per-field P/R/F1
    /// overall and per fold (sites kept together); --worst N lists misses.
    /// Example: trawl eval --dataset ../shared/datasets/wcxb-dev
    ///          --products tests/data/products/wcxb-dev.jsonl
    #[arg(long, value_name = "TRUTH")]
    pub products: Option<PathBuf>,
}

/// Runs the parsed command. Returns the process exit code.
pub fn run(cli: Cli) -> Result<i32> {
    let config = match &cli.config {
        Some(p) => Config::load(p)?,
        None => {
            let default = PathBuf::from("config.toml");
            if default.is_file() {
                Config::load(&default)?
            } else {
                Config::default()
            }
        }
    };
    match cli.command {
        Command::Crawl(args) => crawl(args, config),
        Command::Export(args) => export(args, &config),
        Command::Status(args) => status(args, &config),
        Command::Extract(args) => extract(args, &config),
        Command::Eval(args) => eval(args),
        Command::Templates(cmd) => crate::templates::run(cmd, &config),
        Command::Store(cmd) => store_cmd(cmd, &config),
    }
}

/// Parses saved pages for template learning or applying.
/// Some inputs could not be read or used: exit code 1 (usage errors are 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct FailedInputs(pub String);

/// Reads and parses one saved page.
fn parse_page(path: &str, opts: &Options) -> Result<Page, String> {
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

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("trawl-net")
        .build()
        .context("cannot start the async runtime")
}

fn init_logging(json: bool) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sled=warn,reqwest=warn"));
    // Colour only on a terminal: a log file or pipe gets plain text.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    // A second init (tests) keeps the first subscriber.
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

fn crawl(args: CrawlArgs, mut config: Config) -> Result<i32> {
    if let Some(url) = &args.cluster {
        config.cluster.url = url.clone();
    }
    if let Some(w) = &args.worker {
        config.cluster.worker = w.clone();
    }
    if let Some(d) = args.data {
        config.crawl.data_dir = d;
    }
    if let Some(addr) = args.status_addr {
        config.crawl.status_addr = addr;
        config.validate_status_addr()?;
    }
    init_logging(args.log_format == "json");
    let observer = trawl_crawl::crawl::Observer::default();
    let opts = trawl_crawl::crawl::RunOptions {
        extra_seeds: args.seeds,
        exit_when_idle: args.once,
        strategy: args
            .strategy
            .as_deref()
            .and_then(trawl_crawl::focus::Strategy::parse),
        observer: Some(observer.clone()),
        page_hook: None,
    };
    let snap = runtime()?.block_on(async move {
        // The endpoint lives as long as the crawl (the runtime ends both).
        if !config.crawl.status_addr.is_empty() {
            crate::status::spawn(&config.crawl.status_addr, observer).await?;
        }
        if config.cluster.url.is_empty() {
            anyhow::Ok(trawl_crawl::crawl::run(config, opts).await?)
        } else {
            crate::cluster::crawl(config, opts).await
        }
    })?;
    tracing::info!(
        fetched = snap.fetched,
        records = snap.records,
        "crawl stopped"
    );
    Ok(0)
}

/// `cluster.url` when set.
fn cluster_url(config: &Config) -> Option<&str> {
    Some(config.cluster.url.as_str()).filter(|u| !u.is_empty())
}

fn data_dir(config: &Config, data: Option<PathBuf>) -> PathBuf {
    data.unwrap_or_else(|| config.crawl.data_dir.clone())
}

pub(crate) fn open_store(
    config: &Config,
    data: Option<PathBuf>,
) -> Result<trawl_crawl::store::Store> {
    let dir = data_dir(config, data);
    if !dir.exists() {
        bail!(
            "no store at {} (run `trawl crawl` first, or pass --data)",
            dir.display()
        );
    }
    Ok(trawl_crawl::store::Store::open(&dir, 16 << 20)?)
}

/// The status address of the daemon that owns `dir`, if one is running:
/// a daemon answering on `crawl.status_addr` that serves another store
/// is not asked (its records are not the ones wanted).
fn daemon_for(config: &Config, dir: &std::path::Path) -> Option<Daemon> {
    let daemon = Daemon::at(&config.crawl.status_addr)?;
    daemon.owns(dir).then_some(daemon)
}

fn export(args: ExportArgs, config: &Config) -> Result<i32> {
    if let Some(url) = args.cluster.as_deref().or(cluster_url(config)) {
        return crate::cluster::export(url, &args.since, args.limit, args.out.as_deref());
    }
    let since: u64 = args.since.parse().with_context(|| {
        format!(
            "bad cursor {:?}: expected the number the last export printed",
            args.since
        )
    })?;
    let dir = data_dir(config, args.data.clone());
    let mut out: Box<dyn Write> = match &args.out {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let mut path = format!(
        "/export?since={}&limit={}&outcomes={}",
        since,
        args.limit,
        u8::from(args.outcomes)
    );
    if let Some(t) = &args.page_type {
        path.push_str(&format!("&type={t}"));
    }
    let streamed = match daemon_for(config, &dir) {
        Some(daemon) => daemon.export(&path, since, &mut out)?,
        None => None,
    };
    let (written, cursor) = if let Some(done) = streamed {
        done
    } else {
        let store = open_store(config, Some(dir))?;
        store.verify_checkpoint()?;
        if args.outcomes {
            (
                trawl_crawl::store::export::write_outcomes(&store, &mut out)?,
                0,
            )
        } else {
            let q = trawl_crawl::store::export::ExportQuery {
                since,
                page_type: args
                    .page_type
                    .as_deref()
                    .and_then(trawl_extract::PageType::parse),
                limit: args.limit,
            };
            trawl_crawl::store::export::write_jsonl(&store, &q, &mut out)?
        }
    };
    out.flush()?;
    eprintln!("trawl: exported {written} records; next: trawl export --since {cursor}");
    Ok(0)
}

fn status(args: StatusArgs, config: &Config) -> Result<i32> {
    if let Some(url) = args.cluster.as_deref() {
        return crate::cluster::status(url);
    }
    let dir = data_dir(config, args.data);
    let path = if args.metrics { "/metrics" } else { "/status" };
    if let Some(daemon) = daemon_for(config, &dir) {
        if let Some(body) = daemon.get(path) {
            if args.metrics {
                std::io::stdout().write_all(&body)?;
            } else {
                let snap: serde_json::Value = serde_json::from_slice(&body)?;
                println!("daemon running at {}", config.crawl.status_addr);
                println!("{}", serde_json::to_string_pretty(&snap)?);
            }
            return Ok(0);
        }
    }
    let store = open_store(config, Some(dir.clone()))?;
    store.verify_checkpoint()?;
    println!("daemon not running; store {}:", dir.display());
    println!("  queued URLs   {}", store.queue_len_hint());
    println!(
        "  pages fetched {}",
        store.count(trawl_crawl::store::Counter::Total)?
    );
    println!(
        "  records       {} (the last cursor)",
        store.last_record_seq()?
    );
    let judged = store.count(trawl_crawl::store::Counter::Judged)?;
    if judged > 0 {
        let relevant = store.count(trawl_crawl::store::Counter::Relevant)?;
        println!(
            "  harvest rate  {:.3} ({relevant} relevant of {judged} judged; series in harvest.jsonl there)",
            relevant as f64 / judged as f64,
        );
    }
    if let Some(m) = store
        .meta_get(trawl_crawl::focus::MODEL_KEY)?
        .and_then(|b| trawl_crawl::focus::LinkModel::from_json(&b, 0.05))
    {
        println!("  link model    {} updates", m.updates);
    }
    Ok(0)
}

fn store_cmd(cmd: StoreCommand, config: &Config) -> Result<i32> {
    let (data, out) = match cmd {
        StoreCommand::Check { data } => (data, None),
        StoreCommand::Salvage { out, data } => (data, Some(out)),
    };
    let store = open_store(config, data)?;
    let mut sink = match &out {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
        None => None,
    };
    let mut write_error = None;
    let report = store.check(|_, rec| {
        if let (Some(w), None) = (sink.as_mut(), &write_error) {
            if let Err(e) = serde_json::to_writer(&mut *w, rec)
                .map_err(std::io::Error::from)
                .and_then(|_| w.write_all(b"\n"))
            {
                write_error = Some(e);
            }
        }
    });
    if let Some(e) = write_error {
        bail!("writing the salvaged records: {e}");
    }
    if let Some(mut w) = sink {
        w.flush()?;
    }
    let file = store.db_file();
    println!("store {file}:");
    println!(
        "  records       {} intact of {} expected{}",
        report.intact,
        report.expected,
        report
            .checkpoint
            .map_or(String::new(), |c| format!(" (checkpoint: {c})"))
    );
    println!(
        "  page outcomes {} read, {} undecodable",
        report.outcomes, report.bad_outcomes
    );
    if !report.damaged.is_empty() {
        let shown: Vec<String> = report.damaged.iter().take(20).map(u64::to_string).collect();
        println!(
            "  damaged or missing records: {} ({}{})",
            report.damaged.len(),
            shown.join(", "),
            if report.damaged.len() > 20 {
                ", …"
            } else {
                ""
            }
        );
    }
    if let Some(e) = &report.stopped_by {
        println!("  reading stopped at an error: {e}");
    }
    if let Some(p) = &out {
        println!(
            "  {} intact records written to {}",
            report.intact,
            p.display()
        );
    }
    if report.is_clean() {
        println!("  no damage found");
        Ok(0)
    } else {
        eprintln!(
            "trawl: error: the store's database {file} is damaged{}; move the store away and start a new one{}",
            if out.is_some() { "" } else { "; `trawl store salvage --out FILE` saves what is intact" },
            if out.is_some() { " (its intact records are saved)" } else { "" }
        );
        Ok(1)
    }
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    source: &'a str,
    #[serde(flatten)]
    record: &'a Extracted,
}

fn extract(args: ExtractArgs, config: &Config) -> Result<i32> {
    if let Some(site) = &args.template {
        return extract_with_template(&args, site, config);
    }
    let mut opts: Options = config.extract_options();
    if let Some(name) = &args.algorithm {
        opts.algorithm = Algorithm::parse(name)?;
    }
    if let Some(cs) = &args.charset {
        opts.charset = Some(Charset::from_label(cs)?);
    }
    if args.paths.iter().filter(|p| *p == "-").count() > 1 {
        bail!("`-` (stdin) can be given only once");
    }
    let threads = args.threads.unwrap_or(config.extract.threads);
    let many = args.paths.len() > 1;
    for_each_input(
        &args.paths,
        threads,
        |path| {
            let bytes = read_input(path, opts.max_bytes as u64).map_err(|e| e.to_string())?;
            let opts = Options {
                url: args.url.clone(),
                ..opts.clone()
            };
            trawl_extract::extract(&bytes, &opts).map_err(|e| format!("{path}: {e}"))
        },
        |out, path, rec| {
            if args.jsonl {
                let line = serde_json::to_string(&JsonRecord {
                    source: path,
                    record: &rec,
                })?;
                writeln!(out, "{line}")
            } else {
                write_human(out, path, &rec, many)
            }
        },
    )
}

/// Runs `work` on every input on `threads` cores, 256 inputs at a time (so
/// memory stays bounded), and hands the results to `emit` in input order on
/// stdout. An input that fails is one `trawl: error:` line on stderr and the
/// others go on. Returns the exit code: 1 if any input failed.
fn for_each_input<T: Send>(
    paths: &[String],
    threads: usize,
    work: impl Fn(&str) -> Result<T, String> + Sync,
    mut emit: impl FnMut(&mut dyn Write, &str, T) -> std::io::Result<()>,
) -> Result<i32> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = 0usize;
    for chunk in paths.chunks(256) {
        let results: Vec<Result<T, String>> =
            pool.install(|| chunk.par_iter().map(|p| work(p)).collect());
        for (path, res) in chunk.iter().zip(results) {
            match res {
                Ok(v) => emit(&mut out, path, v)?,
                Err(e) => {
                    failed += 1;
                    out.flush()?;
                    eprintln!("trawl: error: {e}");
                }
            }
        }
    }
    out.flush()?;
    Ok(if failed > 0 { 1 } else { 0 })
}

/// `extract --template`: each page read, parsed and matched against the
/// site's templates on all cores, one JSON line per page in input order; a
/// page that cannot be read is one error line and the others go on.
fn extract_with_template(args: &ExtractArgs, site: &str, config: &Config) -> Result<i32> {
    let store = open_store(config, args.data.clone())?;
    let ts = Templates::of(&store).list(Some(site))?;
    if ts.is_empty() {
        bail!("no template for {site} (learn one with `trawl templates learn`)");
    }
    let opts = config.extract_options();
    let threads = args.threads.unwrap_or(config.extract.threads);
    for_each_input(
        &args.paths,
        threads,
        |path| {
            let page = parse_page(path, &opts)?;
            // The template the page matches best.
            let (t, got) = ts
                .iter()
                .map(|t| (t, t.apply(&page)))
                .max_by(|a, b| a.1.matched.total_cmp(&b.1.matched))
                .ok_or_else(|| format!("{path}: no template"))?;
            Ok(serde_json::json!({
                "source": path,
                "type": "product",
                "template": format!("{}#{}", t.site, t.cluster),
                "template_version": t.version,
                "matched": got.matched,
                "fields": got.values,
            }))
        },
        |out, _, rec| writeln!(out, "{rec}"),
    )
}

fn write_human(
    out: &mut dyn Write,
    path: &str,
    rec: &Extracted,
    many: bool,
) -> std::io::Result<()> {
    if many {
        writeln!(out, "==> {path} <==")?;
    }
    let fields = [
        ("Title", &rec.title),
        ("Author", &rec.author),
        ("Date", &rec.date),
        ("Language", &rec.language),
    ];
    for (label, v) in fields {
        if let Some(v) = v {
            writeln!(out, "{label}: {v}")?;
        }
    }
    writeln!(out, "Type: {}", rec.page_type.name())?;
    writeln!(out)?;
    writeln!(out, "{}", rec.text)?;
    if many {
        writeln!(out)?;
    }
    Ok(())
}

fn eval(args: EvalArgs) -> Result<i32> {
    if let Some([ours, peer]) = args.losses.as_deref() {
        let top = if args.worst > 0 { args.worst } else { 25 };
        print!(
            "{}",
            crate::eval::losses::report(&args.dataset, ours, peer, top)?
        );
        return Ok(0);
    }
    if let Some(truth) = &args.products {
        let cases = crate::eval::products::load(truth, &args.dataset)?;
        let report = crate::eval::products::run(&cases)?;
        let name = truth
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("products");
        print!(
            "{}",
            crate::eval::products::format(&report, name, args.worst)
        );
        return Ok(0);
    }
    if crate::eval::swde::detect(&args.dataset).is_some() {
        let mut d = crate::eval::swde::load(&args.dataset, args.limit)?;
        if let Some(k) = args.draws {
            let n = args.learn.unwrap_or(4);
            let runs: Vec<_> = crate::eval::swde::draws(d.pages.len(), n + args.check, k, 1)
                .into_iter()
                .map(|s| {
                    let r = crate::eval::swde::run_sample(&mut d, &s, n, Learning::Trawl);
                    (s, r)
                })
                .collect();
            let what = match args.check {
                0 => "trawl (majority, labelled rows)".to_string(),
                c => format!("trawl, checked on {c} more pages"),
            };
            println!("{}", crate::eval::swde::format_draws(&runs, &d, &what));
            return Ok(0);
        }
        let ns: Vec<usize> = match args.learn {
            Some(n) => vec![n],
            None => (2..=8).collect(),
        };
        for (how, what) in [
            (Learning::Paper, "paper 003 (same on every sample)"),
            (Learning::Trawl, "trawl (majority, labelled rows)"),
        ] {
            let runs: Vec<_> = ns
                .iter()
                .map(|&n| crate::eval::swde::run(&d, n, n, how))
                .collect();
            println!("{}", crate::eval::swde::format(&runs, &d, what));
        }
        return Ok(0);
    }
    let algorithms: Vec<Algorithm> = if args.algorithm == "all" {
        Algorithm::ALL.to_vec()
    } else {
        vec![Algorithm::parse(&args.algorithm)?]
    };
    let name = args
        .dataset
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("dataset")
        .to_string();
    let pages = crate::eval::load(&args.dataset, args.limit)?;
    // Written through a handle, so a closed pipe is an error (exit quietly), not a panic.
    let mut out = std::io::stdout().lock();
    if let Some(model_path) = &args.train_types {
        let report = crate::eval::types::train(&pages);
        write!(out, "{}", crate::eval::types::format(&report))?;
        // Extraction with each page typed by a model that never saw it.
        let held_out = |c: &crate::eval::Case| report.held_out.get(&c.id).copied();
        let ex = crate::eval::run_typed(&pages, Algorithm::Auto, args.threads, &held_out);
        write!(
            out,
            "{}",
            crate::eval::format(&ex, &format!("{name}, held-out types"))
        )?;
        std::fs::write(model_path, report.model_json())
            .with_context(|| format!("cannot write {}", model_path.display()))?;
        writeln!(out, "model written to {}", model_path.display())?;
        return Ok(0);
    }
    for algorithm in algorithms {
        let report = crate::eval::run(&pages, algorithm, args.threads, args.oracle_types);
        write!(out, "{}", crate::eval::format(&report, &name))?;
        if args.worst > 0 {
            let mut worst: Vec<_> = report.pages.iter().collect();
            worst.sort_by(|a, b| a.score.f1.total_cmp(&b.score.f1));
            for p in worst.iter().take(args.worst) {
                writeln!(
                    out,
                    "  {} {:<14} F1 {:.3} P {:.3} R {:.3} predicted {} {}",
                    p.id,
                    p.kind,
                    p.score.f1,
                    p.score.p,
                    p.score.r,
                    p.predicted_type.unwrap_or("-"),
                    p.error.as_deref().unwrap_or("")
                )?;
            }
        }
        writeln!(out)?;
        if let Some(path) = &args.predictions {
            let mut f = std::io::BufWriter::new(
                std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            );
            for (p, loaded) in report.pages.iter().zip(&pages) {
                let line = serde_json::json!({
                    "source": loaded.case.html.to_string_lossy(),
                    "text": p.text,
                    "page_type": p.predicted_type,
                });
                writeln!(f, "{line}")?;
            }
            f.flush()?;
        }
    }
    Ok(0)
}
