//! `trawl extract` on archives: WARC files (`.warc`, `.warc.gz`, Common
//! Crawl's included) and JSONL files of `{"url": …, "html": …}` lines. Each
//! page is extracted with its own URL (and, from a WARC response, the
//! charset of its Content-Type), streamed: a few hundred pages in memory at
//! a time, whatever the archive's size, extracted on all cores, written in
//! archive order.

use std::io::{BufRead, BufReader, Write};

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::Serialize;

use trawl_extract::{warc_pages, Charset, Extracted, Options};

use super::output::{write_chunks, write_content, write_human, Format};

/// Pages extracted together (memory stays at about this many pages).
const CHUNK: usize = 256;

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
    // The file is read and decompressed on a thread of its own, a chunk
    // ahead of the extraction (three chunks in memory at most).
    let (tx, rx) = std::sync::mpsc::sync_channel::<Chunk>(1);
    std::thread::scope(|scope| -> Result<()> {
        scope.spawn(move || read_chunks(items, tx));
        emit_chunks(rx, path, is_warc, opts, pool, format, out, &mut counts)
    })?;
    out.flush()?;
    eprintln!(
        "trawl: {path}: {} pages extracted, {} records skipped (not HTML responses), {} failed",
        counts.extracted, counts.skipped, counts.failed
    );
    Ok(counts.failed == 0)
}

/// Pages read from an archive, with what was skipped or garbled among them.
struct Chunk {
    items: Vec<Item>,
    skipped: u64,
    errors: Vec<String>,
}

/// Reads the archive into chunks of [`CHUNK`] pages until its end (or the
/// receiver is gone).
fn read_chunks(
    mut items: Box<dyn Iterator<Item = Result<Option<Item>, String>> + Send>,
    tx: std::sync::mpsc::SyncSender<Chunk>,
) {
    loop {
        let mut c = Chunk {
            items: Vec::with_capacity(CHUNK),
            skipped: 0,
            errors: Vec::new(),
        };
        let mut end = true;
        for item in items.by_ref() {
            match item {
                Ok(Some(it)) => c.items.push(it),
                Ok(None) => c.skipped += 1,
                Err(e) => c.errors.push(e),
            }
            if c.items.len() == CHUNK {
                end = false;
                break;
            }
        }
        if tx.send(c).is_err() || end {
            return;
        }
    }
}

/// Extracts each chunk's pages on all cores and writes them in order.
#[allow(clippy::too_many_arguments)]
fn emit_chunks(
    rx: std::sync::mpsc::Receiver<Chunk>,
    path: &str,
    is_warc: bool,
    opts: &Options,
    pool: &rayon::ThreadPool,
    format: Format,
    out: &mut dyn Write,
    counts: &mut Counts,
) -> Result<()> {
    for Chunk {
        items: chunk,
        skipped,
        errors,
    } in rx
    {
        counts.skipped += skipped;
        for e in &errors {
            counts.failed += 1;
            out.flush()?;
            eprintln!("trawl: error: {path}: {e}");
        }
        if chunk.is_empty() {
            continue;
        }
        let results: Vec<_> = pool.install(|| {
            chunk
                .par_iter()
                .map(|it| {
                    let o = opts
                        .clone()
                        .with_url_opt(it.url.clone())
                        .with_charset(it.charset.or(opts.charset));
                    trawl_extract::extract(&it.body, &o)
                })
                .collect()
        });
        for (it, res) in chunk.iter().zip(results) {
            let rec = match res {
                Ok(rec) => rec,
                Err(e) => {
                    counts.failed += 1;
                    out.flush()?;
                    let at = if is_warc { "offset" } else { "line" };
                    eprintln!("trawl: error: {path}: {at} {}: {e}", it.at);
                    continue;
                }
            };
            counts.extracted += 1;
            if format == Format::Json {
                let line = Line {
                    source: path,
                    warc_record_id: it.id.as_deref(),
                    warc_offset: is_warc.then_some(it.at),
                    line: (!is_warc).then_some(it.at),
                    record: &rec,
                };
                writeln!(out, "{}", serde_json::to_string(&line)?)?;
            } else if format == Format::Text {
                let name = it.url.as_deref().unwrap_or(path);
                write_human(out, name, &rec, true)?;
            } else if let Format::Chunks(budget) = format {
                write_chunks(out, path, &rec, budget)?;
            } else {
                let name = it.url.as_deref().unwrap_or(path);
                write_content(out, name, &rec, format, true)?;
            }
        }
    }
    Ok(())
}
