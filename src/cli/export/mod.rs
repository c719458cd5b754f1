//! `trawl export`: records or page outcomes as JSONL, from a running
//! daemon's endpoint, a stopped store or a cluster's database; records also
//! as Markdown files or as chunks ([`formats`]).

pub(super) mod formats;

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use trawl_crawl::config::Config;

use super::{cluster_url, daemon_for, data_dir, open_store_read_only};

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// `jsonl`: one JSON record per line (every field, `markdown` included).
    /// `markdown`: one `.md` file per record into the directory --out names,
    /// named from its URL, with a YAML front matter (url, title, author,
    /// date, page_type, seq); a later version of a page overwrites its file.
    /// Example: trawl export --format markdown --out pages/
    #[arg(long, default_value = "jsonl", value_parser = ["jsonl", "markdown"])]
    pub format: String,
    /// Write to this file instead of stdout (with --format markdown: this
    /// directory, required).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Instead of records, chunks of each record's Markdown for retrieval:
    /// one JSON line per chunk (url, seq, chunk, headings, markdown, start,
    /// end, tokens) of at most TOKENS words, cut at headings first, then
    /// blocks, then sentences; tables and code cut only when alone over.
    /// Example: trawl export --chunks 300 > chunks.jsonl
    #[arg(long, value_name = "TOKENS", conflicts_with = "outcomes", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub chunks: Option<u32>,
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
    /// Export page outcomes instead (seq, url, final_url, status, outcome, error, ...):
    /// one per URL, numbered as written; --since and --limit work on their own cursor.
    #[arg(long, conflicts_with = "page_type")]
    pub outcomes: bool,
    /// Add each record's outgoing links (`links`: every http(s) link of the
    /// page, resolved; kept while `crawl.record_links` is on).
    #[arg(long, conflicts_with = "outcomes")]
    pub links: bool,
    /// Also the records a newer version replaced (a revisit found the page
    /// changed, or `trawl reextract`); by default only each page's latest.
    #[arg(long, conflicts_with = "outcomes")]
    pub all_versions: bool,
    /// Data directory [default: crawl.data_dir].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Export the records of a cluster from its database (postgres://…; overrides cluster.url).
    #[arg(long, value_name = "URL", conflicts_with_all = ["outcomes", "page_type"])]
    pub cluster: Option<String>,
}

pub(super) fn export(args: ExportArgs, config: &Config) -> Result<i32> {
    let markdown = args.format == "markdown";
    if markdown && (args.outcomes || args.chunks.is_some()) {
        anyhow::bail!(
            "--format markdown writes records as files; it takes neither --outcomes nor --chunks"
        );
    }
    // Where the JSONL goes: a file or stdout, or a sink that turns each
    // line into Markdown files or chunks.
    let mut files = match (markdown, &args.out) {
        (true, Some(dir)) => Some(
            formats::MarkdownFiles::new(dir)
                .with_context(|| format!("cannot write into {}", dir.display()))?,
        ),
        (true, None) => anyhow::bail!("--format markdown needs --out DIR (one file per record)"),
        _ => None,
    };
    let mut target: Box<dyn Write> = match (&args.out, markdown) {
        (Some(p), false) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
        _ => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let mut chunks = 0usize;
    let code = {
        let mut out: Box<dyn Write + '_> = match (&mut files, args.chunks) {
            (Some(f), _) => Box::new(formats::LineSink::new(|l: &str| f.record(l))),
            (None, Some(budget)) => {
                let target = &mut target;
                let n = &mut chunks;
                Box::new(formats::LineSink::new(move |l: &str| {
                    *n += formats::chunk_lines(l, budget as usize, target)?;
                    Ok(())
                }))
            }
            (None, None) => Box::new(&mut target),
        };
        let code = records(&args, config, &mut *out)?;
        out.flush()?;
        code
    };
    target.flush()?;
    if let Some(f) = &files {
        if let Some(dir) = &args.out {
            eprintln!("trawl: {} Markdown files in {}", f.count(), dir.display());
        }
    }
    if args.chunks.is_some() {
        eprintln!("trawl: {chunks} chunks");
    }
    Ok(code)
}

/// The records (or outcomes) as JSONL into `out`, from a cluster, a
/// running daemon or the stopped store.
fn records(args: &ExportArgs, config: &Config, out: &mut dyn Write) -> Result<i32> {
    if let Some(url) = args.cluster.as_deref().or(cluster_url(config)) {
        return crate::cluster::export(
            url,
            &args.since,
            args.limit,
            args.links,
            args.all_versions,
            out,
        );
    }
    let since: u64 = args.since.parse().with_context(|| {
        format!(
            "bad cursor {:?}: expected the number the last export printed",
            args.since
        )
    })?;
    let dir = data_dir(config, args.data.clone());
    let mut path = format!(
        "/export?since={}&limit={}&outcomes={}",
        since,
        args.limit,
        u8::from(args.outcomes)
    );
    if let Some(t) = &args.page_type {
        path.push_str(&format!("&type={t}"));
    }
    if args.links {
        path.push_str("&links=1");
    }
    if args.all_versions {
        path.push_str("&all_versions=1");
    }
    let streamed = match daemon_for(config, &dir) {
        Some(daemon) => daemon.export(&path, since, out)?,
        None => None,
    };
    let (written, cursor) = if let Some(done) = streamed {
        done
    } else {
        let store = open_store_read_only(config, Some(dir))?;
        store.verify_checkpoint()?;
        let q = trawl_crawl::store::export::ExportQuery {
            since,
            page_type: args
                .page_type
                .as_deref()
                .and_then(trawl_extract::PageType::parse),
            limit: args.limit,
            links: args.links,
            all_versions: args.all_versions,
        };
        if args.outcomes {
            trawl_crawl::store::export::write_outcomes(&store, &q, &mut &mut *out)?
        } else {
            trawl_crawl::store::export::write_jsonl(&store, &q, &mut &mut *out)?
        }
    };
    out.flush()?;
    let (what, flag) = if args.outcomes {
        ("outcomes", " --outcomes")
    } else {
        ("records", "")
    };
    eprintln!("trawl: exported {written} {what}; next: trawl export{flag} --since {cursor}");
    Ok(0)
}
