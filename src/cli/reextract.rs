//! `trawl reextract`: today's extractor (and today's templates, for product
//! pages a template read) over the responses a store's WARC archive kept,
//! without a single request. A record whose text or metadata comes out
//! different gets a newer version: a new record, numbered like any other
//! (so `export --since` picks it up), naming the record it replaces
//! (`previous`) and the extractor that made it (`extractor`); a plain
//! export then gives only the latest. Resumable: the pass's position is
//! kept in the store, so after a stop or a crash it goes on where it was.

use std::io::{Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use trawl_crawl::config::Config;
use trawl_crawl::crawl::templates::Templates;
use trawl_crawl::record::{Record, RecordKind};
use trawl_crawl::warc::{http_parts, Reader};
use trawl_extract::{Charset, Options, Page};

use super::{data_dir, open_store};

#[derive(Debug, Args)]
pub struct ReextractArgs {
    /// Data directory [default: crawl.data_dir]. The daemon must be stopped.
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Worker threads [default: from config, all cores].
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Start a new pass over every record, even if one was interrupted.
    #[arg(long)]
    pub restart: bool,
}

/// Where the pass is, kept in the store's meta keyspace.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Pass {
    /// The last record of the store when the pass began (newer ones were
    /// made by this extractor).
    target: u64,
    /// Records up to this one are done.
    done: u64,
    finished: bool,
}

const PASS_KEY: &str = "reextract_pass";

/// Records handled together (written, then the position saved).
const CHUNK: usize = 256;

/// What re-extracting one record gave.
enum Outcome {
    Changed(Box<Record>),
    Same,
    NoArchive,
    Failed(String),
}

pub(super) fn reextract(args: ReextractArgs, config: &Config) -> Result<i32> {
    let store = open_store(config, args.data.clone())?;
    let warc_dir = data_dir(config, args.data.clone()).join("warc");
    let mut pass: Pass = store
        .meta_get(PASS_KEY)?
        .and_then(|v| serde_json::from_slice(&v).ok())
        .filter(|p: &Pass| !p.finished && !args.restart)
        .unwrap_or_default();
    if pass.target == 0 {
        pass.target = store.last_record_seq()?;
        eprintln!("trawl: re-extracting records 1 to {}", pass.target);
    } else {
        eprintln!(
            "trawl: continuing the interrupted pass after record {} (of {})",
            pass.done, pass.target
        );
    }
    let opts = config.extract_options();
    let templates = Templates::of(&store);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(config.extract.threads))
        .build()
        .context("cannot start worker threads")?;
    let (mut changed, mut same, mut no_archive, mut failed) = (0u64, 0u64, 0u64, 0u64);
    while pass.done < pass.target {
        let mut batch = store.records_after(pass.done, CHUNK)?;
        batch.retain(|(seq, _)| *seq <= pass.target);
        let Some(last) = batch.last().map(|(seq, _)| *seq) else {
            break;
        };
        // Records a newer version already replaced are left alone.
        let mut todo = Vec::with_capacity(batch.len());
        for (seq, rec) in batch {
            if store.replaced_by(seq)?.is_none() {
                todo.push((seq, rec));
            }
        }
        let results: Vec<(u64, Outcome)> = pool.install(|| {
            todo.par_iter()
                .map(|(seq, rec)| (*seq, again(rec, &warc_dir, &opts, &templates)))
                .collect()
        });
        for (seq, out) in results {
            match out {
                Outcome::Changed(rec) => {
                    store.add_version(seq, &rec)?;
                    changed += 1;
                }
                Outcome::Same => same += 1,
                Outcome::NoArchive => no_archive += 1,
                Outcome::Failed(e) => {
                    failed += 1;
                    eprintln!("trawl: error: record {seq}: {e}");
                }
            }
        }
        pass.done = last;
        store.meta_put(PASS_KEY, &serde_json::to_vec(&pass)?)?;
        store.checkpoint()?;
    }
    pass.finished = true;
    store.meta_put(PASS_KEY, &serde_json::to_vec(&pass)?)?;
    store.checkpoint()?;
    eprintln!(
        "trawl: {changed} records re-extracted into new versions, {same} unchanged, \
         {no_archive} without an archived response, {failed} failed"
    );
    Ok(if failed > 0 { 1 } else { 0 })
}

/// Today's extraction of the response `rec` was made from.
fn again(rec: &Record, warc_dir: &Path, opts: &Options, templates: &Templates) -> Outcome {
    let Some(at) = &rec.warc else {
        return Outcome::NoArchive;
    };
    let (body, charset) = match response(warc_dir, &at.file, at.offset) {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(format!("{} at {}: {e}", at.file, at.offset)),
    };
    let o = opts
        .clone()
        .with_url(rec.final_url.clone())
        .with_charset(charset);
    let page = match Page::parse(&body, &o) {
        Ok(p) => p,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let mut new = rec.clone();
    new.set_extracted(page.extract(&o));
    // A product page a template read: today's version of that template.
    if let Some((site, cluster)) = rec.template.as_deref().and_then(|t| t.rsplit_once('#')) {
        let best = templates
            .list(Some(site))
            .unwrap_or_default()
            .into_iter()
            .find(|t| t.cluster.to_string() == cluster);
        if let Some(t) = best {
            let applied = t.apply(&page);
            new.kind = Some(RecordKind::Product);
            new.template_version = Some(t.version);
            new.template_match = Some(f64::from(applied.matched));
            new.fields = Some(applied.values);
        }
    }
    let same = new.text == rec.text
        && new.title == rec.title
        && new.author == rec.author
        && new.date == rec.date
        && new.description == rec.description
        && new.page_type == rec.page_type
        && new.language == rec.language
        && new.product == rec.product
        && new.fields == rec.fields;
    if same {
        Outcome::Same
    } else {
        Outcome::Changed(Box::new(new))
    }
}

/// The body of the response record at `offset` in `file`, and the charset
/// its Content-Type names.
fn response(dir: &Path, file: &str, offset: u64) -> Result<(Vec<u8>, Option<Charset>), String> {
    if file.contains('/') || file.contains("..") {
        return Err("not a file name".into());
    }
    let mut f = std::fs::File::open(dir.join(file)).map_err(|e| e.to_string())?;
    f.seek(SeekFrom::Start(offset)).map_err(|e| e.to_string())?;
    let rec = Reader::new(f)
        .next()
        .ok_or("no record there")?
        .map_err(|e| e.to_string())?;
    if rec.kind() != "response" {
        return Err(format!("a {} record, not a response", rec.kind()));
    }
    let http = http_parts(&rec.block).ok_or("not an HTTP response")?;
    let charset = http
        .header("content-type")
        .and_then(Charset::from_content_type);
    Ok((rec.block[http.body_at..].to_vec(), charset))
}
