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
mod page;
mod records;
mod template;

use pyo3::prelude::*;
use trawl_extract::Options;

use page::{job, options, record, run, ArchiveError, ExtractError, TemplateError};

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
    let job = job(html, url, page::charset(charset)?)?;
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
    let opts = job.options(&Options::default().with_images(images));
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
