//! The Python package `trawl`: trawl's extractor (crates/trawl-extract)
//! called from Python. `extract` is one page; `extract_many` streams many
//! pages through a pool of Rust threads with the GIL released. Records are
//! the dicts `trawl extract --format json` prints (without `source`).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyIterator, PyList, PyString, PyTuple};
use serde_json::Value;
use trawl_extract::{Algorithm, Charset, Options};

create_exception!(
    trawl,
    ExtractError,
    PyException,
    "A page trawl cannot read (too large, too deep, binary, past its time limit)."
);

/// The extraction's options, as the keyword arguments give them.
#[allow(clippy::too_many_arguments)]
fn options(
    algorithm: &str,
    markdown: bool,
    html_out: bool,
    images: bool,
    fetched_at: Option<i64>,
    max_bytes: usize,
    time_limit_ms: u64,
) -> PyResult<Options> {
    let algorithm =
        Algorithm::parse(algorithm).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if !(1024..=1 << 30).contains(&max_bytes) {
        return Err(PyValueError::new_err(format!(
            "max_bytes is {max_bytes}; it must be between 1024 and 1073741824"
        )));
    }
    if time_limit_ms > 3_600_000 {
        return Err(PyValueError::new_err(format!(
            "time_limit_ms is {time_limit_ms}; it must be at most 3600000 (0: no limit)"
        )));
    }
    Ok(Options::default()
        .with_algorithm(algorithm)
        .with_markdown(markdown)
        .with_html(html_out)
        .with_images(images)
        .with_fetched_at(fetched_at)
        .with_max_bytes(max_bytes)
        .with_time_limit((time_limit_ms > 0).then(|| Duration::from_millis(time_limit_ms))))
}

/// One page to extract, copied out of Python objects.
struct Job {
    bytes: Vec<u8>,
    url: Option<String>,
    charset: Option<Charset>,
}

/// The page's bytes: a `str` as UTF-8 (taken as decoded: its charset is
/// UTF-8 whatever its `<meta>` says), `bytes` as given (decoded as trawl
/// decodes fetched pages).
fn job(html: &Bound<'_, PyAny>, url: Option<String>, charset: Option<&str>) -> PyResult<Job> {
    let given = match charset {
        Some(label) => {
            Some(Charset::from_label(label).map_err(|e| PyValueError::new_err(e.to_string()))?)
        }
        None => None,
    };
    if let Ok(s) = html.cast::<PyString>() {
        let utf8 = Charset::from_label("utf-8").ok();
        return Ok(Job {
            bytes: s.to_cow()?.as_bytes().to_vec(),
            url,
            charset: utf8,
        });
    }
    if let Ok(b) = html.cast::<PyBytes>() {
        return Ok(Job {
            bytes: b.as_bytes().to_vec(),
            url,
            charset: given,
        });
    }
    Err(PyTypeError::new_err(format!(
        "html must be str or bytes, not {}",
        html.get_type().name()?
    )))
}

fn run(job: &Job, options: &Options) -> Result<Value, String> {
    let opts = options
        .clone()
        .with_url_opt(job.url.clone())
        .with_charset(job.charset);
    let rec = trawl_extract::extract(&job.bytes, &opts).map_err(|e| e.to_string())?;
    serde_json::to_value(&rec).map_err(|e| e.to_string())
}

/// A JSON value as the Python object `json.loads` would make.
fn to_python<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(to_python(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(m) => {
            let dict = PyDict::new(py);
            for (k, x) in m {
                dict.set_item(k, to_python(py, x)?)?;
            }
            dict.into_any()
        }
    })
}

fn record<'py>(py: Python<'py>, result: Result<Value, String>) -> PyResult<Bound<'py, PyAny>> {
    match result {
        Ok(v) => to_python(py, &v),
        Err(e) => Err(ExtractError::new_err(e)),
    }
}

/// extract(html, url=None, *, algorithm="auto", markdown=True, html_out=False,
/// images=True, charset=None, fetched_at=None, max_bytes=16777216,
/// time_limit_ms=10000) -> dict
///
/// The page's main text, Markdown and metadata, as the dict `trawl extract
/// --format json` prints: text, markdown, title, author, date, page_type,
/// language, product, ... `html` is the page (str: taken as decoded;
/// bytes: decoded as trawl decodes fetched pages, `charset` first if given).
#[pyfunction]
#[pyo3(signature = (html, url=None, *, algorithm="auto", markdown=true, html_out=false,
    images=true, charset=None, fetched_at=None, max_bytes=16777216, time_limit_ms=10000))]
#[allow(clippy::too_many_arguments)]
fn extract<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<String>,
    algorithm: &str,
    markdown: bool,
    html_out: bool,
    images: bool,
    charset: Option<&str>,
    fetched_at: Option<i64>,
    max_bytes: usize,
    time_limit_ms: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let settings = options(
        algorithm,
        markdown,
        html_out,
        images,
        fetched_at,
        max_bytes,
        time_limit_ms,
    )?;
    let job = job(html, url, charset)?;
    let result = py.detach(|| run(&job, &settings));
    record(py, result)
}

/// html_to_markdown(html, url=None, *, images=True) -> str
///
/// The whole document as Markdown, with no main-content selection (as
/// markdownify or html2text do): headings ranked within the page, lists,
/// GFM tables, fenced code, links made absolute against `url`.
#[pyfunction]
#[pyo3(signature = (html, url=None, *, images=true))]
fn html_to_markdown(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    images: bool,
) -> PyResult<String> {
    let job = job(html, url, None)?;
    let opts = Options::default()
        .with_images(images)
        .with_url_opt(job.url.clone())
        .with_charset(job.charset);
    py.detach(|| trawl_extract::html_to_markdown(&job.bytes, &opts))
        .map_err(|e| ExtractError::new_err(e.to_string()))
}

/// The records of `extract_many`, in input order, extracted a batch at a
/// time on `threads` Rust threads.
#[pyclass(module = "trawl")]
struct Records {
    pages: Py<PyIterator>,
    settings: Options,
    threads: usize,
    ready: VecDeque<Result<Value, String>>,
    done: bool,
}

/// One item of `extract_many`'s input: html, (html, url) or a dict with
/// `html` and `url`.
fn item_job(item: &Bound<'_, PyAny>) -> PyResult<Job> {
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
        if self.ready.is_empty() && !self.done {
            let mut jobs = Vec::new();
            let mut it = self.pages.bind(py).clone();
            while jobs.len() < self.threads * 32 {
                py.check_signals()?;
                match it.next() {
                    Some(item) => jobs.push(item_job(&item?)?),
                    None => {
                        self.done = true;
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
            None => Ok(None),
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
fn extract_many(
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
    let threads = match threads {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => n.min(1024),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    Ok(Records {
        pages: PyIterator::from_object(pages)?.unbind(),
        settings,
        threads,
        ready: VecDeque::new(),
        done: false,
    })
}

/// trawl's extractor: main text, Markdown and metadata of web pages.
#[pymodule]
fn trawl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ExtractError", m.py().get_type::<ExtractError>())?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract_many, m)?)?;
    m.add_function(wrap_pyfunction!(html_to_markdown, m)?)?;
    m.add_class::<Records>()?;
    Ok(())
}
