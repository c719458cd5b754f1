//! One page from Python: the keyword arguments made into the extractor's
//! [`Options`], the page's bytes copied out of a `str` or `bytes`
//! ([`Job`]), its extraction, and the record or the error handed back as
//! Python objects. Every entry point of the package goes through here.

use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use serde_json::Value;
use trawl_extract::{Algorithm, Charset, Options};

use crate::convert;

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
pub(crate) fn options(
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
pub(crate) struct Job {
    pub(crate) bytes: Vec<u8>,
    pub(crate) url: Option<String>,
    pub(crate) charset: Option<Charset>,
    /// Where an archived page came from: its WARC-Record-ID and offset.
    pub(crate) origin: Option<(Option<String>, u64)>,
}

/// A charset label given by the caller.
pub(crate) fn charset(label: Option<&str>) -> PyResult<Option<Charset>> {
    label
        .map(|l| Charset::from_label(l).map_err(|e| PyValueError::new_err(e.to_string())))
        .transpose()
}

/// The page's bytes: a `str` as UTF-8 (taken as decoded: its charset is
/// UTF-8 whatever its `<meta>` says), `bytes` as given (decoded as trawl
/// decodes fetched pages).
pub(crate) fn job(
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    given: Option<Charset>,
) -> PyResult<Job> {
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

impl Job {
    /// `base` for this page: its URL, and its charset ahead of `base`'s.
    pub(crate) fn options(&self, base: &Options) -> Options {
        base.clone()
            .with_url_opt(self.url.clone())
            .with_charset(self.charset.or(base.charset))
    }
}

/// Extracts one page: its record as JSON, or the error's message.
pub(crate) fn run(job: &Job, options: &Options) -> Result<Value, String> {
    let rec =
        trawl_extract::extract(&job.bytes, &job.options(options)).map_err(|e| e.to_string())?;
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
pub(crate) fn record<'py>(
    py: Python<'py>,
    result: Result<Value, String>,
) -> PyResult<Bound<'py, PyAny>> {
    match result {
        Ok(v) => convert::to_python(py, &v),
        Err(e) => Err(ExtractError::new_err(e)),
    }
}
