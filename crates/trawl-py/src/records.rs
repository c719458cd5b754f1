//! Many pages in, records out, in input order: a batch of pages is read
//! (from a Python iterable, or from a WARC file with the GIL released),
//! extracted on a pool of Rust threads with the GIL released, then handed
//! out one record at a time. Only a batch is ever in memory, however long
//! the input.

use std::collections::VecDeque;
use std::fs::File;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyTuple};
use serde_json::Value;
use trawl_extract::{Options, WarcReader};

use crate::page::{job, options, record, run, ArchiveError, Job};

/// Pages read per thread for one batch.
const BATCH_PER_THREAD: usize = 32;

/// Where the pages come from.
pub(crate) enum Source {
    /// Any Python iterable of pages.
    Python(Py<PyIterator>),
    /// The HTML responses of a WARC file; `skip_errors`: a garbled record
    /// is passed over rather than raised.
    Warc {
        reader: Box<WarcReader<File>>,
        skip_errors: bool,
    },
}

/// What one read from the source gave.
enum Read {
    Page(Job),
    End,
}

/// The records of `extract_many` or `extract_warc`, in input order,
/// extracted a batch at a time on `threads` Rust threads.
#[pyclass(module = "trawl")]
pub(crate) struct Records {
    source: Source,
    settings: Options,
    threads: usize,
    ready: VecDeque<Result<Value, String>>,
    /// An error met while reading a batch, raised after the records of the
    /// pages read before it.
    pending: Option<PyErr>,
    done: bool,
}

impl Records {
    pub(crate) fn new(source: Source, settings: Options, threads: Option<usize>) -> PyResult<Self> {
        Ok(Records {
            source,
            settings,
            threads: thread_count(threads)?,
            ready: VecDeque::new(),
            pending: None,
            done: false,
        })
    }
}

/// The threads asked for (`None`: every core).
pub(crate) fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => Ok(n.min(1024)),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// One item of `extract_many`'s input: html, (html, url) or a dict with
/// `html` and `url`.
pub(crate) fn item_job(item: &Bound<'_, PyAny>) -> PyResult<Job> {
    if let Ok(t) = item.cast::<PyTuple>() {
        if t.len() != 2 {
            return Err(PyTypeError::new_err("a page tuple is (html, url)"));
        }
        let url: Option<String> = t.get_item(1)?.extract()?;
        return job(&t.get_item(0)?, url, None);
    }
    if let Ok(d) = item.cast::<PyDict>() {
        let html = d
            .get_item("html")?
            .ok_or_else(|| PyTypeError::new_err("a page dict needs an \"html\" key"))?;
        let url: Option<String> = match d.get_item("url")? {
            Some(u) => u.extract()?,
            None => None,
        };
        return job(&html, url, None);
    }
    job(item, None, None)
}

/// The next page of a WARC file (run with the GIL released).
pub(crate) fn next_archived(
    reader: &mut WarcReader<File>,
    skip_errors: bool,
) -> Result<Option<trawl_extract::ArchivedPage>, String> {
    loop {
        match reader.next() {
            None => return Ok(None),
            Some(Ok(rec)) => {
                if let Some(page) = trawl_extract::archived_page(rec) {
                    return Ok(Some(page));
                }
            }
            Some(Err(e)) if skip_errors => drop(e),
            Some(Err(e)) => return Err(e.to_string()),
        }
    }
}

impl Source {
    fn read(&mut self, py: Python<'_>) -> PyResult<Read> {
        match self {
            Source::Python(pages) => {
                py.check_signals()?;
                let mut it = pages.bind(py).clone();
                match it.next() {
                    Some(item) => Ok(Read::Page(item_job(&item?)?)),
                    None => Ok(Read::End),
                }
            }
            Source::Warc {
                reader,
                skip_errors,
            } => {
                let skip = *skip_errors;
                let page = py.detach(|| next_archived(reader, skip));
                match page.map_err(ArchiveError::new_err)? {
                    Some(p) => Ok(Read::Page(Job {
                        bytes: p.body,
                        url: p.url,
                        charset: p.charset,
                        origin: Some((p.record_id, p.offset)),
                    })),
                    None => Ok(Read::End),
                }
            }
        }
    }
}

/// Runs `jobs` on `threads` threads; results in input order.
fn run_all(jobs: &[Job], settings: &Options, threads: usize) -> Vec<Result<Value, String>> {
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<Result<Value, String>>> = (0..jobs.len()).map(|_| None).collect();
    let slots = std::sync::Mutex::new(&mut out);
    std::thread::scope(|s| {
        for _ in 0..threads.min(jobs.len()).max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let r = run(job, settings);
                if let Ok(mut slots) = slots.lock() {
                    slots[i] = Some(r);
                }
            });
        }
    });
    out.into_iter()
        .map(|r| r.unwrap_or_else(|| Err("a worker thread stopped".into())))
        .collect()
}

#[pymethods]
impl Records {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.ready.is_empty() && self.pending.is_none() && !self.done {
            let mut jobs = Vec::new();
            while jobs.len() < self.threads * BATCH_PER_THREAD {
                match self.source.read(py) {
                    Ok(Read::Page(job)) => jobs.push(job),
                    Ok(Read::End) => {
                        self.done = true;
                        break;
                    }
                    Err(e) if jobs.is_empty() => return Err(e),
                    Err(e) => {
                        self.pending = Some(e);
                        break;
                    }
                }
            }
            let (settings, threads) = (&self.settings, self.threads);
            let results = py.detach(|| run_all(&jobs, settings, threads));
            self.ready.extend(results);
        }
        match self.ready.pop_front() {
            Some(r) => record(py, r).map(Some),
            None => match self.pending.take() {
                Some(e) => Err(e),
                None => Ok(None),
            },
        }
    }
}

/// extract_many(pages, *, threads=None, algorithm="auto", markdown=True,
/// html_out=False, images=True, fetched_at=None, max_bytes=16777216,
/// time_limit_ms=10000) -> Iterator[dict]
///
/// Records of many pages, in input order, extracted on `threads` Rust
/// threads (default: every core) with the GIL released. `pages` is any
/// iterable of html, (html, url) tuples or {"html": ..., "url": ...} dicts;
/// it is read a batch at a time, so memory stays bounded however long it
/// is. A page trawl cannot read raises `trawl.ExtractError` when its record
/// is reached.
#[pyfunction]
#[pyo3(signature = (pages, *, threads=None, algorithm="auto", markdown=true, html_out=false,
    images=true, fetched_at=None, max_bytes=16777216, time_limit_ms=10000))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn extract_many(
    pages: &Bound<'_, PyAny>,
    threads: Option<usize>,
    algorithm: &str,
    markdown: bool,
    html_out: bool,
    images: bool,
    fetched_at: Option<i64>,
    max_bytes: usize,
    time_limit_ms: u64,
) -> PyResult<Records> {
    let settings = options(
        algorithm,
        markdown,
        html_out,
        images,
        fetched_at,
        max_bytes,
        time_limit_ms,
    )?;
    Records::new(
        Source::Python(PyIterator::from_object(pages)?.unbind()),
        settings,
        threads,
    )
}
