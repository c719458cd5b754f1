//! The Python package `trawl`: trawl's extractor (crates/trawl-extract)
//! called from Python. This native module is `trawl._trawl`; the package's
//! `__init__.py` re-exports it beside the pure-Python adapters (datatrove,
//! Scrapy). `extract` is one page; `extract_many` and `extract_warc` stream
//! many pages through a pool of Rust threads with the GIL released
//! ([`records`]); `read_warc` reads archives ([`archive`]); `Template`
//! learns a shop's product template ([`template`]). Records are the dicts
//! `trawl extract --format json` prints (without `source`).

mod archive;
mod convert;
mod records;
mod template;

use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use serde_json::Value;
use trawl_extract::{Algorithm, Charset, Options};

create_exception!(
    trawl,
    ExtractError,
    PyException,
    "A page trawl cannot read (too large, too deep, binary, past its time limit)."
);

create_exception!(
    trawl,
    ArchiveError,
    PyException,
    "A WARC record or file trawl cannot read (garbled, truncated, not a WARC); the message names its offset."
);

create_exception!(
    trawl,
    TemplateError,
    PyException,
    "A template that cannot be learned from the pages given (too few, or nothing varies) or read back."
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

/// One page to extract, copied out of Python objects (or read from an
/// archive).
struct Job {
    bytes: Vec<u8>,
    url: Option<String>,
    charset: Option<Charset>,
    /// Where an archived page came from: its WARC-Record-ID and offset.
    origin: Option<(Option<String>, u64)>,
}

/// A charset label given by the caller.
fn charset(label: Option<&str>) -> PyResult<Option<Charset>> {
    label
        .map(|l| Charset::from_label(l).map_err(|e| PyValueError::new_err(e.to_string())))
        .transpose()
}

/// The page's bytes: a `str` as UTF-8 (taken as decoded: its charset is
/// UTF-8 whatever its `<meta>` says), `bytes` as given (decoded as trawl
/// decodes fetched pages).
fn job(html: &Bound<'_, PyAny>, url: Option<String>, given: Option<Charset>) -> PyResult<Job> {
    if let Ok(s) = html.cast::<PyString>() {
        return Ok(Job {
            bytes: s.to_cow()?.as_bytes().to_vec(),
            url,
            charset: Charset::from_label("utf-8").ok(),
            origin: None,
        });
    }
    if let Ok(b) = html.cast::<PyBytes>() {
        return Ok(Job {
            bytes: b.as_bytes().to_vec(),
            url,
            charset: given,
            origin: None,
        });
    }
    Err(PyTypeError::new_err(format!(
        "html must be str or bytes, not {}",
        html.get_type().name()?
    )))
}

/// Extracts one page: its record as JSON, or the error's message.
fn run(job: &Job, options: &Options) -> Result<Value, String> {
    let opts = options
        .clone()
        .with_url_opt(job.url.clone())
        .with_charset(job.charset.or(options.charset));
    let rec = trawl_extract::extract(&job.bytes, &opts).map_err(|e| e.to_string())?;
    let mut v = serde_json::to_value(&rec).map_err(|e| e.to_string())?;
    if let (Some((id, offset)), Value::Object(m)) = (&job.origin, &mut v) {
        if let Some(id) = id {
            m.insert("warc_record_id".into(), Value::from(id.as_str()));
        }
        m.insert("warc_offset".into(), Value::from(*offset));
    }
    Ok(v)
}

/// A record for Python, or the extraction's error as `ExtractError`.
fn record<'py>(py: Python<'py>, result: Result<Value, String>) -> PyResult<Bound<'py, PyAny>> {
    match result {
        Ok(v) => convert::to_python(py, &v),
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
    let job = job(html, url, self::charset(charset)?)?;
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

/// trawl's extractor: main text, Markdown and metadata of web pages.
#[pymodule]
fn _trawl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ExtractError", py.get_type::<ExtractError>())?;
    m.add("ArchiveError", py.get_type::<ArchiveError>())?;
    m.add("TemplateError", py.get_type::<TemplateError>())?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(html_to_markdown, m)?)?;
    m.add_function(wrap_pyfunction!(records::extract_many, m)?)?;
    m.add_function(wrap_pyfunction!(archive::read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(archive::extract_warc, m)?)?;
    m.add_class::<records::Records>()?;
    m.add_class::<archive::WarcPages>()?;
    m.add_class::<template::Template>()?;
    Ok(())
}
