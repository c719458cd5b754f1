//! `trawl export`: records or page outcomes as JSONL, from a running
//! daemon's endpoint, a stopped store or a cluster's database; records also
//! as Markdown files or as chunks ([`formats`]).

pub(super) mod formats;

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use trawl_crawl::sink::columns::DEFAULT_RECORD_FIELDS;
use trawl_crawl::sink::{ChunkSink, CsvSink, Format, MarkdownFiles, ParquetSink, RecordSink, Rows};
use trawl_crawl::Config;

use super::resources::{cluster_url, daemon_for, data_dir, open_store_read_only};

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// `jsonl`: one JSON record per line (every field, `markdown` included).
    /// `csv`: a header row, then one row per record (the --fields; lists
    /// and objects as JSON text). `parquet`: one typed column per field
    /// (every field unless --fields), for pyarrow and pandas.
    /// `markdown`: one `.md` file per record into the directory --out names,
    /// named from its URL, with a YAML front matter (url, title, author,
    /// date, page_type, seq); a later version of a page overwrites its file.
    /// Every format reads from the stopped store, a running daemon and a
    /// cluster alike.
    /// Examples: trawl export --format csv --fields url,title,date > pages.csv;
    /// trawl export --format parquet --out pages.parquet;
    /// trawl export --format markdown --out pages/
    #[arg(long, default_value = "jsonl", value_parser = Format::NAMES)]
    pub format: String,
    /// The columns of --format csv or parquet, comma-separated, in order
    /// (e.g. url,title,author,date,text). Default for csv: seq, url,
    /// final_url, status, page_type, title, author, date, language,
    /// description, text; for parquet, and for --outcomes, every field.
    /// An unknown name is an error that lists the fields.
    #[arg(long, value_name = "LIST")]
    pub fields: Option<String>,
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

/// The combinations of flags that make no output, refused with a reason.
fn check(args: &ExportArgs, format: Format) -> Result<()> {
    use std::io::IsTerminal;
    let table = matches!(format, Format::Csv | Format::Parquet);
    if args.fields.is_some() && !table {
        anyhow::bail!("--fields picks the columns of --format csv or parquet");
    }
    if args.chunks.is_some() && format != Format::Jsonl {
        anyhow::bail!("--chunks writes JSONL (one line per chunk); it takes no --format");
    }
    if format == Format::Markdown && args.outcomes {
        anyhow::bail!("--format markdown writes records as files; outcomes have no Markdown");
    }
    if format == Format::Parquet && args.out.is_none() && std::io::stdout().is_terminal() {
        anyhow::bail!("--format parquet is binary: give --out FILE, or send stdout to a file");
    }
    Ok(())
}

pub(super) fn export(args: ExportArgs, config: &Config) -> Result<i32> {
    let format =
        Format::parse(&args.format).with_context(|| format!("unknown format {:?}", args.format))?;
    check(&args, format)?;
    let rows = if args.outcomes {
        Rows::Outcomes
    } else {
        Rows::Records
    };
    let fields = args.fields.as_deref().unwrap_or_default();
    let target = || -> Result<Box<dyn Write + Send>> {
        Ok(match (&args.out, format) {
            (Some(p), f) if f != Format::Markdown => Box::new(std::io::BufWriter::new(
                std::fs::File::create(p)
                    .with_context(|| format!("cannot write {}", p.display()))?,
            )),
            _ => Box::new(std::io::BufWriter::new(std::io::stdout())),
        })
    };
    // JSONL passes through as the source wrote it; every other format is
    // a sink fed with the typed records.
    let mut sink = match (format, args.chunks, &args.out) {
        (Format::Jsonl, None, _) => {
            let mut out = target()?;
            let code = records(&args, config, To::Lines(&mut out))?;
            out.flush()?;
            return Ok(code);
        }
        (Format::Jsonl, Some(budget), _) => {
            Exit::Chunks(ChunkSink::new(target()?, budget as usize))
        }
        (Format::Markdown, _, Some(dir)) => Exit::Files(
            MarkdownFiles::new(dir)
                .with_context(|| format!("cannot write into {}", dir.display()))?,
        ),
        (Format::Markdown, _, None) => {
            anyhow::bail!("--format markdown needs --out DIR (one file per record)")
        }
        (Format::Csv, _, _) => {
            let default = (rows == Rows::Records).then_some(DEFAULT_RECORD_FIELDS);
            let columns = rows.columns(fields, default)?;
            Exit::Table(Box::new(CsvSink::new(target()?, rows, columns)?))
        }
        (Format::Parquet, _, _) => {
            let columns = rows.columns(fields, None)?;
            Exit::Table(Box::new(ParquetSink::new(target()?, rows, columns)?))
        }
    };
    let code = records(&args, config, To::Sink(sink.as_sink()))?;
    sink.as_sink().close()?;
    match &sink {
        Exit::Files(f) => {
            eprintln!(
                "trawl: {} Markdown files in {}",
                f.count(),
                f.dir().display()
            )
        }
        Exit::Chunks(c) => eprintln!("trawl: {} chunks", c.count()),
        Exit::Table(_) => {}
    }
    Ok(code)
}

/// Where the typed records go, kept whole for what it counted.
enum Exit {
    Files(MarkdownFiles),
    Chunks(ChunkSink<Box<dyn Write + Send>>),
    Table(Box<dyn RecordSink>),
}

impl Exit {
    fn as_sink(&mut self) -> &mut dyn RecordSink {
        match self {
            Exit::Files(f) => f,
            Exit::Chunks(c) => c,
            Exit::Table(t) => t,
        }
    }
}

/// Where [`records`] sends what it reads.
enum To<'a> {
    /// JSON lines, as the source wrote them.
    Lines(&'a mut dyn Write),
    /// Typed records (or outcomes) for a format's sink.
    Sink(&'a mut dyn RecordSink),
}

/// Runs `f` with a writer of JSON lines into `to` (a sink gets each line
/// read back as a typed record or outcome).
fn as_lines<T>(
    to: &mut To<'_>,
    outcomes: bool,
    f: impl FnOnce(&mut dyn Write) -> Result<T>,
) -> Result<T> {
    match to {
        To::Lines(out) => {
            let r = f(&mut **out)?;
            out.flush()?;
            Ok(r)
        }
        To::Sink(sink) => {
            let mut typed = formats::Typed {
                sink: &mut **sink,
                outcomes,
            };
            let mut lines = formats::LineSink::new(|l: &str| typed.line(l));
            let r = f(&mut lines)?;
            lines.flush()?;
            Ok(r)
        }
    }
}

/// The records (or outcomes) into `to`, from a cluster, a running daemon
/// or the stopped store (which hands a sink typed records directly).
fn records(args: &ExportArgs, config: &Config, mut to: To<'_>) -> Result<i32> {
    if let Some(url) = args.cluster.as_deref().or(cluster_url(config)) {
        return as_lines(&mut to, false, |out| {
            crate::cluster::export(
                url,
                &args.since,
                args.limit,
                args.links,
                args.all_versions,
                out,
            )
        });
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
        Some(daemon) => as_lines(&mut to, args.outcomes, |out| {
            daemon.export(&path, since, out)
        })?,
        None => None,
    };
    let (written, cursor) = if let Some(done) = streamed {
        done
    } else {
        let store = open_store_read_only(config, Some(dir))?;
        store.guarded(|store| store.verify_checkpoint())?;
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
        use trawl_crawl::store::export as ex;
        match (&mut to, args.outcomes) {
            (To::Lines(out), true) => ex::write_outcomes(&store, &q, &mut &mut **out)?,
            (To::Lines(out), false) => ex::write_jsonl(&store, &q, &mut &mut **out)?,
            (To::Sink(sink), true) => ex::export_outcomes(&store, &q, &mut **sink)?,
            (To::Sink(sink), false) => ex::export_records(&store, &q, &mut **sink)?,
        }
    };
    if let To::Lines(out) = &mut to {
        out.flush()?;
    }
    let (what, flag) = if args.outcomes {
        ("outcomes", " --outcomes")
    } else {
        ("records", "")
    };
    eprintln!("trawl: exported {written} {what}; next: trawl export{flag} --since {cursor}");
    Ok(0)
}
