//! `trawl fetch URL…`: one page now, as the crawl would fetch it. Each URL
//! is a seed of depth 0 in a crawl of its own over a scratch store that is
//! removed afterwards, so the page goes through everything a crawled page
//! does (robots.txt, the configured user agent and `[[site]]` settings,
//! redirects, the private-network guard, the charset from the headers,
//! rendering as `render.mode` says, challenge pages) and comes out as the
//! record `trawl export` would give. Redirects are followed to any host (a
//! seed of scope `any`): no link is, at depth 0.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};

use trawl_crawl::sink::{RecordSink, SinkError};
use trawl_crawl::Config;
use trawl_crawl::{Outcome, PageOutcome, Record};

#[derive(Debug, Args)]
pub struct FetchArgs {
    /// What to print: `json` (the record, one JSON object a line, as `trawl
    /// export`), `markdown` (the main content as Markdown) or `text` (a
    /// header and the plain text).
    #[arg(long, value_enum, default_value = "json")]
    pub format: FetchFormat,
    /// Also write every exchange (robots.txt, redirects, the page) to this
    /// WARC file (gzipped records).
    #[arg(long, value_name = "FILE")]
    pub warc: Option<PathBuf>,
    /// The URLs, fetched in turn per host (each host's delay holds).
    #[arg(required = true, value_name = "URL")]
    pub urls: Vec<String>,
}

/// How `trawl fetch` prints a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FetchFormat {
    Json,
    Markdown,
    Text,
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0); // best effort: it is in the temp dir
    }
}

/// Keeps what a store holds after the run: records and outcomes.
#[derive(Default)]
struct Collect {
    records: Vec<Record>,
    outcomes: Vec<PageOutcome>,
}

impl Collect {
    /// The outcome of `url`, through redirects to other hosts (each queued
    /// as a URL of its own).
    fn outcome_of(&self, url: &str) -> Option<&PageOutcome> {
        let mut url = url.to_string();
        for _ in 0..=20 {
            let o = self.outcomes.iter().rev().find(|o| o.url == url)?;
            match &o.final_url {
                Some(next) if o.outcome == Outcome::Redirected && *next != url => {
                    if !self.outcomes.iter().any(|x| x.url == *next) {
                        return Some(o);
                    }
                    url = next.clone();
                }
                _ => return Some(o),
            }
        }
        None
    }
}

impl RecordSink for Collect {
    fn record(&mut self, r: &Record) -> Result<(), SinkError> {
        self.records.push(r.clone());
        Ok(())
    }

    fn outcome(&mut self, o: &PageOutcome) -> Result<(), SinkError> {
        self.outcomes.push(o.clone());
        Ok(())
    }

    fn flush(&mut self) -> Result<(), SinkError> {
        Ok(())
    }
}

pub(super) fn fetch(args: FetchArgs, mut config: Config) -> Result<i32> {
    let lines: String = args
        .urls
        .iter()
        .map(|u| format!("{u} depth=0 scope=any sitemaps=false\n"))
        .collect();
    let (seeds, errors) = trawl_crawl::parse_seed_lines(&config, &lines, "URL");
    if let Some(e) = errors.first() {
        bail!(
            "{}: {}",
            args.urls.get(e.line - 1).map_or("", |u| u),
            e.message
        );
    }
    let scratch = Scratch(std::env::temp_dir().join(format!(
        "trawl-fetch-{}-{}",
        std::process::id(),
        trawl_crawl::now_secs()
    )));
    let seeds_file = scratch.0.join("seeds.txt");
    std::fs::create_dir_all(scratch.0.join("seeds"))
        .and_then(|()| std::fs::write(&seeds_file, &lines))
        .with_context(|| format!("scratch directory {}", scratch.0.display()))?;
    config.crawl.data_dir = scratch.0.join("store");
    config.crawl.seeds_dir = scratch.0.join("seeds");
    config.crawl.status_addr = String::new();
    config.warc.enabled = args.warc.is_some();
    let opts = trawl_crawl::RunOptions {
        extra_seeds: vec![seeds_file],
        exit_when_idle: true,
        strategy: Some(trawl_crawl::Strategy::Bfs),
        shutdown: Some(trawl_crawl::Shutdown::new(crate::process::shutdown_signal())),
        ..Default::default()
    };
    let data = config.crawl.data_dir.clone();
    super::resources::runtime()?.block_on(trawl_crawl::run(config, opts))?;
    let store = trawl_crawl::store::Store::open(&data, 16 << 20)?;
    let mut got = Collect::default();
    let all = trawl_crawl::store::export::ExportQuery::default();
    trawl_crawl::store::export::export_outcomes(&store, &all, &mut got)?;
    trawl_crawl::store::export::export_records(&store, &all, &mut got)?;
    drop(store);
    if let Some(file) = &args.warc {
        copy_warc(&data.join("warc"), file)?;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    for (raw, seed) in args.urls.iter().zip(&seeds) {
        let outcome = got.outcome_of(&seed.url);
        let record = outcome
            .and_then(|o| o.record)
            .and_then(|seq| got.records.iter().find(|r| r.seq == seq));
        match (outcome, record) {
            (_, Some(rec)) => print(&mut out, rec, args.format, args.urls.len() > 1)?,
            (Some(o), None) => {
                failed = true;
                eprintln!("trawl: {}", why_not(raw, o));
            }
            (None, None) => {
                failed = true;
                eprintln!("trawl: {raw}: not fetched (the run was stopped)");
            }
        }
    }
    out.flush()?;
    Ok(i32::from(failed))
}

/// Why a fetched URL gave no record, for stderr.
fn why_not(url: &str, o: &PageOutcome) -> String {
    let name = serde_json::to_value(o.outcome)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let mut s = format!("{url}: {name}");
    if o.status > 0 {
        s.push_str(&format!(" (HTTP {})", o.status));
    }
    if let Some(e) = &o.error {
        s.push_str(&format!(": {e}"));
    } else if o.outcome == Outcome::Fetched {
        s.push_str(": fetched, but no record was made");
    }
    crate::terminal::printable(&s, false).into_owned()
}

fn print(out: &mut dyn Write, rec: &Record, format: FetchFormat, many: bool) -> Result<()> {
    use crate::terminal::printable;
    match format {
        FetchFormat::Json => writeln!(out, "{}", serde_json::to_string(rec)?)?,
        FetchFormat::Markdown => {
            if many {
                writeln!(out, "<!-- {} -->", printable(&rec.url, false))?;
            }
            writeln!(out, "{}", printable(&rec.markdown, true))?;
        }
        FetchFormat::Text => {
            let page = super::extract::Human {
                title: rec.title.as_deref(),
                author: rec.author.as_deref(),
                date: rec.date.as_deref(),
                language: rec.language.as_deref(),
                page_type: rec.page_type,
                text: &rec.text,
            };
            page.write(out, Some(rec.url.as_str()).filter(|_| many))?;
        }
    }
    Ok(())
}

/// The run's WARC files, in order, as one file (gzip members concatenate).
fn copy_warc(dir: &Path, to: &Path) -> Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("WARC directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".warc.gz"))
        .collect();
    files.sort();
    let mut w = std::io::BufWriter::new(
        std::fs::File::create(to).with_context(|| format!("--warc {}", to.display()))?,
    );
    for f in files {
        let mut r = std::fs::File::open(&f).with_context(|| format!("{}", f.display()))?;
        std::io::copy(&mut r, &mut w).with_context(|| format!("--warc {}", to.display()))?;
    }
    w.flush()
        .and_then(|()| w.get_ref().sync_all())
        .with_context(|| format!("--warc {}", to.display()))
}
