//! `trawl reextract`: today's extractor (and today's templates, for product
//! pages a template read) over the responses a store's WARC archive kept,
//! without a single request. A record whose text or metadata comes out
//! different gets a newer version: a new record, numbered like any other
//! (so `export --since` picks it up), naming the record it replaces
//! (`previous`) and the extractor that made it (`extractor`); a plain
//! export then gives only the latest. Resumable: the pass's position is
//! kept in the store, so after a stop or a crash it goes on where it was.
//!
//! In cluster mode (`--cluster`) each worker runs it on its own machine,
//! over the records whose archived responses are in its own WARC files; a
//! record's row is rewritten with the newer version under a new export
//! cursor (the older version stays in the archive only).

use std::io::{Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use trawl_crawl::warc::{http_parts, Reader};
use trawl_crawl::Config;
use trawl_crawl::Templates;
use trawl_crawl::{Record, RecordKind};
use trawl_extract::{Charset, Options, Page};

use super::resources::{data_dir, open_store};

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
    /// The cluster's database (postgres://…; overrides cluster.url): this
    /// worker's archived records, rewritten there.
    #[arg(long, value_name = "URL")]
    pub cluster: Option<String>,
}

/// Records to re-extract, and the number of the last one read (`None`:
/// nothing after the position).
type Batch = (Vec<(u64, Record)>, Option<u64>);

/// Where the records are and how a newer version is stored.
trait Records {
    /// Up to `n` records after `after`, in order, without those a newer
    /// version replaced (or another worker archived), and the number of the
    /// last one read (`None`: nothing after `after`).
    fn after(&mut self, after: u64, n: usize) -> Result<Batch>;
    /// The last record's number now.
    fn last(&mut self) -> Result<u64>;
    /// Stores `rec` as the newer version of record `old`.
    fn replace(&mut self, old: u64, rec: &Record) -> Result<()>;
}

/// One machine: the sled store.
struct Local<'a>(&'a trawl_crawl::store::Store);

impl Records for Local<'_> {
    fn after(&mut self, after: u64, n: usize) -> Result<Batch> {
        let read = self.0.records_after(after, n)?;
        let last = read.last().map(|(seq, _)| *seq);
        let mut out = Vec::new();
        for (seq, rec) in read {
            if self.0.replaced_by(seq)?.is_none() {
                out.push((seq, rec));
            }
        }
        Ok((out, last))
    }

    fn last(&mut self) -> Result<u64> {
        Ok(self.0.last_record_seq()?)
    }

    fn replace(&mut self, old: u64, rec: &Record) -> Result<()> {
        self.0.add_version(old, rec)?;
        Ok(())
    }
}

/// A cluster: its database, the records this worker archived.
struct Cluster {
    conn: trawl_crawl::cluster::Conn,
    rt: tokio::runtime::Runtime,
    warc_dir: PathBuf,
}

impl Records for Cluster {
    fn after(&mut self, after: u64, n: usize) -> Result<Batch> {
        let rows = self.rt.block_on(self.conn.records_after(after as i64, n))?;
        let last = rows.last().map(|(id, _)| *id as u64);
        // Only the records whose responses this worker archived; the rest
        // is another worker's to do.
        let out = rows
            .into_iter()
            .filter(|(_, r)| {
                r.warc
                    .as_ref()
                    .is_some_and(|w| self.warc_dir.join(&w.file).is_file())
            })
            .map(|(id, r)| (id as u64, r))
            .collect();
        Ok((out, last))
    }

    fn last(&mut self) -> Result<u64> {
        Ok(self.rt.block_on(self.conn.last_record_id())?.max(0) as u64)
    }

    fn replace(&mut self, old: u64, rec: &Record) -> Result<()> {
        self.rt
            .block_on(self.conn.replace_record(old as i64, rec))?;
        Ok(())
    }
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
    match args
        .cluster
        .clone()
        .or_else(|| Some(config.cluster.url.clone()).filter(|u| !u.is_empty()))
    {
        Some(url) => {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .context("cannot start the async runtime")?;
            let conn = rt.block_on(trawl_crawl::cluster::Conn::connect(&url))?;
            let mut records = Cluster {
                conn,
                rt,
                warc_dir: warc_dir.clone(),
            };
            pass(
                &args,
                config,
                &store,
                "reextract_pass_cluster",
                &warc_dir,
                &mut records,
            )
        }
        None => pass(
            &args,
            config,
            &store,
            PASS_KEY,
            &warc_dir,
            &mut Local(&store),
        ),
    }
}

/// One pass over `records`, its position kept under `key` in `store`.
fn pass(
    args: &ReextractArgs,
    config: &Config,
    store: &trawl_crawl::store::Store,
    key: &str,
    warc_dir: &Path,
    records: &mut dyn Records,
) -> Result<i32> {
    let mut pass: Pass = store
        .meta_get(key)?
        .and_then(|v| serde_json::from_slice(&v).ok())
        .filter(|p: &Pass| !p.finished && !args.restart)
        .unwrap_or_default();
    if pass.target == 0 {
        pass.target = records.last()?;
        eprintln!("trawl: re-extracting records 1 to {}", pass.target);
    } else {
        eprintln!(
            "trawl: continuing the interrupted pass after record {} (of {})",
            pass.done, pass.target
        );
    }
    let opts = config.extract_options();
    let templates = Templates::of(store);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(config.extract.threads))
        .build()
        .context("cannot start worker threads")?;
    let (mut changed, mut same, mut no_archive, mut failed) = (0u64, 0u64, 0u64, 0u64);
    while pass.done < pass.target {
        let (mut todo, last) = records.after(pass.done, CHUNK)?;
        let Some(last) = last else {
            break;
        };
        todo.retain(|(seq, _)| *seq <= pass.target);
        let results: Vec<(u64, Outcome)> = pool.install(|| {
            todo.par_iter()
                .map(|(seq, rec)| (*seq, again(rec, warc_dir, &opts, &templates)))
                .collect()
        });
        for (seq, out) in results {
            match out {
                Outcome::Changed(rec) => {
                    records.replace(seq, &rec)?;
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
        pass.done = last.min(pass.target);
        store.meta_put(key, &serde_json::to_vec(&pass)?)?;
        store.checkpoint()?;
    }
    pass.finished = true;
    store.meta_put(key, &serde_json::to_vec(&pass)?)?;
    store.checkpoint()?;
    eprintln!(
        "trawl: {changed} records re-extracted into new versions, {same} unchanged, \
         {no_archive} without an archived response here, {failed} failed"
    );
    Ok(if failed > 0 { 1 } else { 0 })
}

/// Today's extraction of the response `rec` was made from.
fn again(rec: &Record, warc_dir: &Path, opts: &Options, templates: &Templates) -> Outcome {
    let Some(at) = &rec.warc else {
        return Outcome::NoArchive;
    };
    let read = match &rec.rendered {
        // A rendered page is extracted from the DOM the browser made, never
        // from the shell that was fetched.
        Some(note) => rendered_dom(warc_dir, at, note.warc.as_ref()),
        None => response(warc_dir, &at.file, at.offset),
    };
    let (body, charset) = match read {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(format!("{} at {}: {e}", at.file, at.offset)),
    };
    let o = opts
        .clone()
        .with_url(rec.final_url.clone())
        .with_fetched_at(i64::try_from(rec.fetched_at).ok())
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
    // A record stored before records had Markdown gets a version with it.
    let same = new.text == rec.text
        && new.markdown == rec.markdown
        && new.html == rec.html
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

/// A page's body to extract and the charset to read it in.
type Body = (Vec<u8>, Option<Charset>);

/// The archive's records from `offset` in `file` on.
fn records_at(dir: &Path, file: &str, offset: u64) -> Result<Reader<std::fs::File>, String> {
    if file.contains('/') || file.contains("..") {
        return Err("not a file name".into());
    }
    let mut f = std::fs::File::open(dir.join(file)).map_err(|e| e.to_string())?;
    f.seek(SeekFrom::Start(offset)).map_err(|e| e.to_string())?;
    Ok(Reader::new(f))
}

/// Records read past a rendered page's response for its `conversion`
/// record, in a store whose records do not say where it is (made before
/// they did). It is written moments after the response, in the same file.
const CONVERSION_SCAN: usize = 20_000;

/// The DOM a browser rendered from the response at `at`: the `conversion`
/// record at `dom`, or (`dom` unknown) the first one after the response
/// that refers to it. Not found is an error: the fetched shell is never
/// extracted in its place.
fn rendered_dom(
    dir: &Path,
    at: &trawl_crawl::WarcLocation,
    dom: Option<&trawl_crawl::WarcLocation>,
) -> Result<Body, String> {
    let utf8 = Charset::from_content_type("text/html; charset=utf-8");
    if let Some(dom) = dom {
        let rec = records_at(dir, &dom.file, dom.offset)?
            .next()
            .ok_or("no record where the rendered DOM was")?
            .map_err(|e| e.to_string())?;
        if rec.kind() != "conversion" {
            return Err(format!(
                "a {} record where the rendered DOM was",
                rec.kind()
            ));
        }
        return Ok((rec.block, utf8));
    }
    let mut reader = records_at(dir, &at.file, at.offset)?;
    let response = reader
        .next()
        .ok_or("no record there")?
        .map_err(|e| e.to_string())?;
    let id = response
        .header("WARC-Record-ID")
        .ok_or("the response has no WARC-Record-ID")?
        .to_string();
    for rec in reader.take(CONVERSION_SCAN) {
        let rec = rec.map_err(|e| e.to_string())?;
        if rec.kind() == "conversion" && rec.header("WARC-Refers-To") == Some(id.as_str()) {
            return Ok((rec.block, utf8));
        }
    }
    Err(
        "the page was rendered but its rendered DOM (a conversion record) is not in \
         the archive; the record is kept as it was"
            .into(),
    )
}

/// The body of the response record at `offset` in `file`, and the charset
/// its Content-Type names.
fn response(dir: &Path, file: &str, offset: u64) -> Result<Body, String> {
    let rec = records_at(dir, file, offset)?
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

#[cfg(test)]
mod tests {
    use super::*;
    use trawl_crawl::warc::record::{new_id, warc_date, Kind, Record as WarcRec};
    use trawl_crawl::WarcLocation;

    fn member(kind: Kind, id: &str, refers_to: Option<&str>, block: &[u8]) -> Vec<u8> {
        WarcRec {
            kind,
            id: id.to_string(),
            date: warc_date(0),
            target: Some("http://127.0.0.1/a"),
            ip: None,
            concurrent_to: None,
            refers_to,
            filename: None,
            content_type: "application/http; msgtype=response",
            truncated: false,
            payload_at: None,
            block,
        }
        .to_gzip()
    }

    /// Issue 53, item 2: a rendered page's record from a store that does
    /// not say where its DOM is: the conversion record that refers to its
    /// response is found after it (past another page's), and a missing one
    /// is an error, never the shell.
    #[test]
    fn a_rendered_page_is_read_from_its_conversion_record() {
        let dir = std::env::temp_dir().join(format!("trawl-reextract-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let (shell, other) = (new_id(), new_id());
        let head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
        let mut file = member(
            Kind::Response,
            &shell,
            None,
            &[&head[..], b"<div id=root></div>"].concat(),
        );
        file.extend(member(Kind::Response, &other, None, head));
        file.extend(member(
            Kind::Conversion,
            &new_id(),
            Some(&other),
            b"<p>not this one</p>",
        ));
        file.extend(member(
            Kind::Conversion,
            &new_id(),
            Some(&shell),
            b"<p>the rendered page</p>",
        ));
        std::fs::write(dir.join("a.warc.gz"), &file).expect("write");
        let at = WarcLocation {
            file: "a.warc.gz".into(),
            offset: 0,
        };
        let (body, _) = rendered_dom(&dir, &at, None).expect("found");
        assert_eq!(body, b"<p>the rendered page</p>");
        let alone = member(Kind::Response, &new_id(), None, head);
        std::fs::write(dir.join("b.warc.gz"), &alone).expect("write");
        let at = WarcLocation {
            file: "b.warc.gz".into(),
            offset: 0,
        };
        let err = rendered_dom(&dir, &at, None).expect_err("no conversion record");
        assert!(err.contains("kept as it was"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
