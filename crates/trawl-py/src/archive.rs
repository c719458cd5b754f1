//! WARC files from Python: `read_warc` hands out the HTML responses of an
//! archive (trawl's own, wget's, Common Crawl's) as `(url, body, headers)`,
//! and `extract_warc` their records, as `trawl extract FILE.warc.gz` does.
//! Files are read with the GIL released, one record in memory at a time.

use std::fs::File;
use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use trawl_extract::WarcReader;

use crate::page::{options, ArchiveError};
use crate::records::{next_archived, Records, Source};

/// How a garbled record is met: `"raise"` (ArchiveError, naming its
/// offset; iteration may go on after it) or `"skip"`.
fn skip_errors(errors: &str) -> PyResult<bool> {
    match errors {
        "raise" => Ok(false),
        "skip" => Ok(true),
        other => Err(PyValueError::new_err(format!(
            "errors is {other:?}; it must be \"raise\" or \"skip\""
        ))),
    }
}

fn open(path: &PathBuf) -> PyResult<Box<WarcReader<File>>> {
    let f = File::open(path).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot open {}: {e}", path.display()))
    })?;
    Ok(Box::new(WarcReader::new(f)))
}

/// The HTML pages of a WARC file, as `(url, body, headers)`.
#[pyclass(module = "trawl")]
pub(crate) struct WarcPages {
    reader: Box<WarcReader<File>>,
    skip_errors: bool,
}

#[pymethods]
impl WarcPages {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let skip = self.skip_errors;
        let reader = &mut self.reader;
        let page = py
            .detach(|| next_archived(reader, skip))
            .map_err(ArchiveError::new_err)?;
        let Some(p) = page else { return Ok(None) };
        let headers = PyDict::new(py);
        for (k, v) in &p.headers {
            // A field given twice is one field, its values joined (RFC 9110).
            let joined = match headers.get_item(k)? {
                Some(old) => format!("{}, {v}", old.extract::<String>()?),
                None => v.clone(),
            };
            headers.set_item(k, joined)?;
        }
        let body = PyBytes::new(py, &p.body);
        Ok(Some(PyTuple::new(
            py,
            [
                p.url.into_pyobject(py)?.into_any(),
                body.into_any(),
                headers.into_any(),
            ],
        )?))
    }
}

/// read_warc(path, *, errors="raise") -> Iterator[tuple[str | None, bytes, dict]]
///
/// The HTML responses of a `.warc` or `.warc.gz` file (one gzip member per
/// record, as Common Crawl writes them, or one stream), in file order, as
/// `(url, body, headers)`: the target URI, the response body, the HTTP
/// header fields. Requests, robots.txt files, images and non-2xx responses
/// are passed over. A garbled record raises `trawl.ArchiveError` naming its
/// offset (iteration can go on after it), or is skipped with
/// `errors="skip"`.
#[pyfunction]
#[pyo3(signature = (path, *, errors="raise"))]
pub(crate) fn read_warc(path: PathBuf, errors: &str) -> PyResult<WarcPages> {
    Ok(WarcPages {
        skip_errors: skip_errors(errors)?,
        reader: open(&path)?,
    })
}

/// extract_warc(path, *, threads=None, errors="raise", algorithm="auto",
/// markdown=True, html_out=False, images=True, fetched_at=None,
/// max_bytes=16777216, time_limit_ms=10000) -> Iterator[dict]
///
/// The records of a WARC file's HTML responses, in file order, as `trawl
/// extract FILE.warc.gz` writes them: each page extracted with its target
/// URI and the charset its Content-Type names, on `threads` Rust threads,
/// each record with `warc_record_id` and `warc_offset` added.
#[pyfunction]
#[pyo3(signature = (path, *, threads=None, errors="raise", algorithm="auto", markdown=true,
    html_out=false, images=true, fetched_at=None, max_bytes=16777216, time_limit_ms=10000))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn extract_warc(
    path: PathBuf,
    threads: Option<usize>,
    errors: &str,
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
    let source = Source::Warc {
        skip_errors: skip_errors(errors)?,
        reader: open(&path)?,
    };
    Records::new(source, settings, threads)
}
