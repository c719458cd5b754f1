//! `trawl crawl`: the daemon in the foreground, on one machine or as a
//! cluster worker.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use trawl_crawl::Config;

use super::resources::{runtime, DAEMON_ADDR_FILE};

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
    /// first, needs a `[focus]` topic) or "bfs" (shallowest first, the baseline).
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
    /// Also append every record to FILE as JSONL as the store commits it (a
    /// live feed, like `trawl export` run continuously). Kept across restarts:
    /// the feed resumes after the last record it saved; after a crash the
    /// records of its last second may be written again (dedupe by `seq`).
    /// On a cluster worker the feed gets every worker's records (run it on
    /// one worker). Example: trawl crawl --feed records.jsonl
    #[arg(long, value_name = "FILE")]
    pub feed: Option<PathBuf>,
}

/// The feed's file: appended to; a flush reaches the disk (the feed's
/// cursor is saved only after it).
struct FeedFile(std::io::BufWriter<std::fs::File>);

impl std::io::Write for FeedFile {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.write(data)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()?;
        self.0.get_ref().sync_data()
    }
}

/// The `--feed` tap: named by the file, so the same file resumes. A line
/// a crash cut short is cut off (its record comes again: the feed's cursor
/// was not saved past it).
fn feed_tap(path: &std::path::Path) -> Result<trawl_crawl::Tap> {
    use std::io::{Read, Seek, SeekFrom};
    let what = || format!("--feed {}", path.display());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .with_context(what)?;
    let len = file.metadata().with_context(what)?.len();
    // Back from the end, 64 KiB at a time, to the last newline.
    let mut end = len;
    let mut block = vec![0u8; 64 << 10];
    while end > 0 {
        let start = end.saturating_sub(block.len() as u64);
        let part = &mut block[..(end - start) as usize];
        file.seek(SeekFrom::Start(start)).with_context(what)?;
        file.read_exact(part).with_context(what)?;
        match part.iter().rposition(|&b| b == b'\n') {
            Some(i) => {
                end = start + i as u64 + 1;
                break;
            }
            None => end = start,
        }
    }
    if end < len {
        tracing::warn!(feed = %path.display(), bytes = len - end, "cut off a line a crash left unfinished");
        file.set_len(end).with_context(what)?;
    }
    let name = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let sink = trawl_crawl::sink::JsonlSink::new(FeedFile(std::io::BufWriter::new(file)));
    Ok(trawl_crawl::Tap::new(
        format!("feed {}", name.display()),
        sink,
    ))
}

fn init_logging(json: bool) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sled=warn,reqwest=warn"));
    // Colour only on a terminal: a log file or pipe gets plain text.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(crate::process::LogWriter::new());
    // A second init (tests) keeps the first subscriber.
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

pub(super) fn crawl(args: CrawlArgs, mut config: Config) -> Result<i32> {
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
    // A seed file named on the command line must be there: a typo would
    // otherwise leave the daemon idle.
    for f in &args.seeds {
        match std::fs::metadata(f) {
            Ok(m) if m.is_file() => {}
            Ok(_) => anyhow::bail!("seed file {}: not a file", f.display()),
            Err(e) => anyhow::bail!("seed file {}: {e}", f.display()),
        }
    }
    init_logging(args.log_format == "json");
    if args.seeds.is_empty() && trawl_crawl::seeds::files(&config.crawl.seeds_dir, &[]).is_empty() {
        tracing::warn!(
            seeds_dir = %config.crawl.seeds_dir.display(),
            "no seed files: put *.txt files of URLs in the seeds directory \
             (crawl.seeds_dir) or pass --seeds FILE; {}",
            if args.once {
                "only URLs already queued in the store are crawled"
            } else {
                "waiting for seed files (checked every crawl.seed_poll_secs)"
            }
        );
    }
    let once = args.once;
    let observer = trawl_crawl::Observer::default();
    let opts = trawl_crawl::RunOptions {
        extra_seeds: args.seeds,
        exit_when_idle: args.once,
        strategy: args
            .strategy
            .as_deref()
            .and_then(trawl_crawl::Strategy::parse),
        observer: Some(observer.clone()),
        shutdown: None,
        taps: args
            .feed
            .as_deref()
            .map(feed_tap)
            .transpose()?
            .into_iter()
            .collect(),
        page_hook: None,
    };
    crate::process::prepare_daemon();
    let snap = runtime()?.block_on(async move {
        let opts = trawl_crawl::RunOptions {
            shutdown: Some(trawl_crawl::Shutdown::new(crate::process::shutdown_signal())),
            ..opts
        };
        // The progress line and the endpoint live as long as the crawl (the
        // runtime ends them).
        tokio::spawn(crate::process::progress(observer.stats_handle()));
        if !config.crawl.status_addr.is_empty() {
            let api = crate::api::Api::new(&config, observer.clone());
            crate::status::spawn(&config.crawl.status_addr, observer, api).await?;
            // `trawl status --data DIR` finds this daemon by it, whatever
            // address its config names (a second daemon with --status-addr).
            // Not essential: without it, status looks at crawl.status_addr.
            let note = config.crawl.data_dir.join(DAEMON_ADDR_FILE);
            let noted = std::fs::create_dir_all(&config.crawl.data_dir)
                .and_then(|()| std::fs::write(&note, &config.crawl.status_addr));
            if let Err(e) = noted {
                tracing::debug!(error = %e, "cannot note the status address in the data directory");
            }
        }
        if config.cluster.url.is_empty() {
            anyhow::Ok(trawl_crawl::run(config, opts).await?)
        } else {
            crate::cluster::crawl(config, opts).await
        }
    })?;
    tracing::info!(
        fetched = snap.fetched,
        records = snap.records,
        "crawl stopped"
    );
    let stopped_paying = snap.harvest.as_ref().is_some_and(|h| h.stopped.is_some());
    let why = if once && stopped_paying {
        "the focused crawl stopped paying (focus.stop_below)"
    } else if once {
        "the queue is empty or the run was stopped"
    } else {
        "stopped"
    };
    eprint!("{}", super::summary::summary(&snap, why));
    Ok(0)
}
