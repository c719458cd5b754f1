//! `trawl extract` on archives: WARC files (`.warc`, `.warc.gz`, Common
//! Crawl's included) and JSONL files of `{"url": …, "html": …}` lines. Each
//! page is extracted with its own URL (and, from a WARC response, the
//! charset of its Content-Type), streamed through the window: a few pages
//! per thread in memory at a time, whatever the archive's size, extracted
//! on all cores, written in archive order.

use std::io::{BufRead, BufReader, Write};

use anyhow::{Context, Result};
use serde::Serialize;

use trawl_extract::{warc_pages, Charset, Extracted, Options};

use super::output::{write_chunks, write_content, write_human, Format};
use super::window;

/// Whether `path` is a WARC file (by its name).
fn is_warc(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    p.ends_with(".warc") || p.ends_with(".warc.gz")
}

/// Whether `path` is read as an archive of pages rather than one page.
pub(super) fn is_archive(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    is_warc(path) || p.ends_with(".jsonl") || p.ends_with(".jsonl.gz")
}

/// One page of an archive.
struct Item {
    url: Option<String>,
    body: Vec<u8>,
    charset: Option<Charset>,
    /// WARC-Record-ID.
    id: Option<String>,
    /// Where the record starts (WARC) or the line number (JSONL).
    at: u64,
}

/// What came out of one page.
#[derive(Serialize)]
struct Line<'a> {
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    warc_record_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warc_offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    #[serde(flatten)]
    record: &'a Extracted,
}

/// Counts of one archive.
#[derive(Default)]
struct Counts {
    extracted: u64,
    skipped: u64,
    failed: u64,
}

/// Opens a JSONL file, gunzipping `.jsonl.gz` (every member).
fn open(path: &str) -> Result<Box<dyn BufRead + Send>> {
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
    Ok(if path.to_ascii_lowercase().ends_with(".gz") {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(f)))
    } else {
        Box::new(BufReader::new(f))
    })
}

/// The HTML responses of a WARC file; other records are skipped (counted).
fn warc_items(path: &str) -> Result<impl Iterator<Item = Result<Option<Item>, String>>> {
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
    Ok(warc_pages(f).map(|r| {
        let page = r.map_err(|e| e.to_string())?;
        Ok(page.map(|p| Item {
            url: p.url,
            body: p.body,
            charset: p.charset,
            id: p.record_id,
            at: p.offset,
        }))
    }))
}

/// The pages of a JSONL file: `{"url": …, "html": …}` per line.
fn jsonl_items(path: &str) -> Result<impl Iterator<Item = Result<Option<Item>, String>>> {
    #[derive(serde::Deserialize)]
    struct In {
        url: Option<String>,
        html: String,
    }
    let r = open(path)?;
    Ok(r.lines().enumerate().map(|(i, line)| {
        let n = i as u64 + 1;
        let line = line.map_err(|e| format!("line {n}: {e}"))?;
        if line.trim().is_empty() {
            return Ok(None);
        }
        let v: In = serde_json::from_str(&line)
            .map_err(|e| format!("line {n}: not a {{\"url\", \"html\"}} object: {e}"))?;
        Ok(Some(Item {
            url: v.url,
            body: v.html.into_bytes(),
            charset: None,
            id: None,
            at: n,
        }))
    }))
}

/// Extracts every page of the archive at `path`; returns whether all went well.
pub(super) fn extract(
    path: &str,
    opts: &Options,
    pool: &rayon::ThreadPool,
    format: Format,
    out: &mut dyn Write,
) -> Result<bool> {
    let is_warc = is_warc(path);
    let mut counts = Counts::default();
    let items: Box<dyn Iterator<Item = Result<Option<Item>, String>> + Send> = if is_warc {
        Box::new(warc_items(path)?)
    } else {
        Box::new(jsonl_items(path)?)
    };
    // The archive is read as the window has room: a few pages per thread
    // in memory, whatever its size.
    let items = items.map(|item| match item {
        Ok(Some(it)) => {
            let job = Job {
                body: it.body,
                url: it.url.clone(),
                charset: it.charset,
            };
            let meta = Meta::Page {
                url: it.url,
                id: it.id,
                at: it.at,
            };
            (meta, Some(job))
        }
        Ok(None) => (Meta::Skipped, None),
        Err(e) => (Meta::Garbled(e), None),
    });
    let work = |job: Option<Job>| {
        job.map(|j| {
            let o = opts
                .clone()
                .with_url_opt(j.url)
                .with_charset(j.charset.or(opts.charset));
            trawl_extract::extract(&j.body, &o)
        })
    };
    window::in_order(items, pool, work, |meta, res| {
        let (url, id, at) = match meta {
            Meta::Skipped => {
                counts.skipped += 1;
                return Ok(());
            }
            Meta::Garbled(e) => {
                counts.failed += 1;
                out.flush()?;
                eprintln!("trawl: error: {path}: {e}");
                return Ok(());
            }
            Meta::Page { url, id, at } => (url, id, at),
        };
        let where_ = if is_warc { "offset" } else { "line" };
        let rec = match res.flatten() {
            Some(Ok(rec)) => rec,
            failed => {
                let e = match failed {
                    Some(Err(e)) => e.to_string(),
                    _ => "the extractor panicked".into(),
                };
                counts.failed += 1;
                out.flush()?;
                eprintln!("trawl: error: {path}: {where_} {at}: {e}");
                return Ok(());
            }
        };
        counts.extracted += 1;
        let name = url.as_deref().unwrap_or(path);
        match format {
            Format::Json => {
                let line = Line {
                    source: path,
                    warc_record_id: id.as_deref(),
                    warc_offset: is_warc.then_some(at),
                    line: (!is_warc).then_some(at),
                    record: &rec,
                };
                serde_json::to_writer(&mut *out, &line)?;
                out.write_all(b"\n")
            }
            Format::Text => write_human(out, name, &rec, true),
            Format::Chunks(budget) => write_chunks(out, path, &rec, budget),
            Format::Markdown | Format::Html => write_content(out, name, &rec, format, true),
        }
    })?;
    out.flush()?;
    eprintln!(
        "trawl: {path}: {} pages extracted, {} records skipped (not HTML responses), {} failed",
        counts.extracted, counts.skipped, counts.failed
    );
    Ok(counts.failed == 0)
}

/// An archive record's own part, kept on the writing thread in the window.
enum Meta {
    /// An HTML page: its URL, WARC-Record-ID and where it starts.
    Page {
        url: Option<String>,
        id: Option<String>,
        at: u64,
    },
    /// Not an HTML response.
    Skipped,
    /// A record or line that could not be read.
    Garbled(String),
}

/// What a worker needs to extract one page.
struct Job {
    body: Vec<u8>,
    url: Option<String>,
    charset: Option<Charset>,
}
