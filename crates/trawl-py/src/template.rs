//! The e-commerce templates from Python: `Template.learn(pages)` diffs a
//! few product pages of one shop (paper 003, with trawl's self-check on the
//! pages beyond the samples, as the crawl does) and `apply(html)` reads the
//! fields of any other page of that shop. A template is plain data:
//! `to_json` / `from_json` keep and ship it.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use trawl_extract::{Options, Page};

use crate::page::{job, ExtractError, Job, TemplateError};
use crate::records::item_job;

/// Parses a page for learning or applying (a `Page` stays on the thread
/// that parsed it: call with the GIL released, inside one closure).
fn parse(job: &Job) -> Result<Page, String> {
    Page::parse(&job.bytes, &job.options(&Options::default())).map_err(|e| e.to_string())
}

/// Why a template was not learned.
enum Failed {
    Page(String),
    Template(String),
}

/// The host of the first sample's URL: the site a template is named by.
fn site_of(jobs: &[Job]) -> String {
    jobs.iter()
        .filter_map(|j| j.url.as_deref())
        .find_map(|u| url::Url::parse(u).ok()?.host_str().map(str::to_string))
        .unwrap_or_else(|| "site".into())
}

/// A shop's product template: where each field sits on its pages.
#[pyclass(module = "trawl")]
pub(crate) struct Template {
    inner: trawl_extract::Template,
}

#[pymethods]
impl Template {
    /// Template.learn(pages, *, site=None, samples=4) -> Template
    ///
    /// Learns from product pages of one shop and layout: `pages` is a list of
    /// html, (html, url) or {"html", "url"} (at least 2; 4 samples is best).
    /// Pages beyond the first `samples` check the template, and more samples
    /// are taken while a field reads wrong. `site` defaults to the first
    /// URL's host. Raises TemplateError when nothing can be learned.
    #[staticmethod]
    #[pyo3(signature = (pages, *, site=None, samples=4))]
    fn learn(
        py: Python<'_>,
        pages: &Bound<'_, PyAny>,
        site: Option<String>,
        samples: usize,
    ) -> PyResult<Template> {
        let mut jobs = Vec::new();
        for item in pages.try_iter()? {
            jobs.push(item_job(&item?)?);
        }
        let site = site.unwrap_or_else(|| site_of(&jobs));
        let learned = py.detach(|| {
            let parsed = jobs
                .iter()
                .map(parse)
                .collect::<Result<Vec<Page>, String>>()
                .map_err(Failed::Page)?;
            trawl_extract::Template::learn_checked(&site, &parsed, samples.max(2))
                .map_err(|e| Failed::Template(e.to_string()))
        });
        match learned {
            Ok(inner) => Ok(Template { inner }),
            Err(Failed::Page(e)) => Err(ExtractError::new_err(e)),
            Err(Failed::Template(e)) => Err(TemplateError::new_err(e)),
        }
    }

    /// apply(html, url=None) -> dict
    ///
    /// The fields read from a page of the shop: {"values": {field: [str]},
    /// "matched": float} (`matched`: how well the page fits the template,
    /// 0 to 1; a page of another layout scores low).
    #[pyo3(signature = (html, url=None))]
    fn apply<'py>(
        &self,
        py: Python<'py>,
        html: &Bound<'py, PyAny>,
        url: Option<String>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let job = job(html, url, None)?;
        let applied = py
            .detach(|| parse(&job).map(|page| self.inner.apply(&page)))
            .map_err(ExtractError::new_err)?;
        let values = PyDict::new(py);
        for (field, v) in &applied.values {
            values.set_item(field, PyList::new(py, v)?)?;
        }
        let out = PyDict::new(py);
        out.set_item("values", values)?;
        out.set_item("matched", applied.matched)?;
        Ok(out)
    }

    /// The fields it reads, in order ("name", "price", "spec:Weight", ...).
    #[getter]
    fn fields(&self) -> Vec<String> {
        self.inner.fields.iter().map(|f| f.field.clone()).collect()
    }

    /// The site it was learned for.
    #[getter]
    fn site(&self) -> String {
        self.inner.site.clone()
    }

    /// Whether its fields should be used: unchecked, or it read the checked
    /// pages at least as well as the single-page product record.
    #[getter]
    fn is_used(&self) -> bool {
        self.inner.is_used()
    }

    /// to_json() -> str: the template as JSON (the crawl's stored form).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner).map_err(|e| TemplateError::new_err(e.to_string()))
    }

    /// Template.from_json(text) -> Template: a template kept by `to_json`.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Template> {
        serde_json::from_str(text)
            .map(|inner| Template { inner })
            .map_err(|e| TemplateError::new_err(format!("not a trawl template: {e}")))
    }

    fn __eq__(&self, other: &Template) -> bool {
        self.inner == other.inner
    }

    fn __repr__(&self) -> String {
        format!(
            "Template(site={:?}, fields={:?}, samples={})",
            self.inner.site,
            self.fields(),
            self.inner.samples
        )
    }
}
