//! The CPU stage: decode, parse and extract a fetched page, judge it for
//! the focus, find its links, check for near-duplicates, and for a product
//! page of an e-commerce seed read its fields with the site's template.
//! Ends in a [`Visit`] with the page's [`Record`].

use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;

use url::Url;

use super::links;
use super::shared::{ended, outcome, CpuJob, Processing, Visit};
use crate::record::{Outcome, PageOutcome, Record, RecordKind};
use crate::store::{simhash, Completion};
use trawl_extract::{Charset, Page};

/// What the CPU stage made of a page.
// One value per page, moved once: see `FetchResult`.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Processed {
    /// Done: for the writer.
    Done(Visit),
    /// The page needs a browser first (`render`).
    Render(super::shared::RenderJob),
}

/// [`process`], with a panic (an extractor bug on a hostile page) caught
/// and turned into an error outcome for that page: the host is not stalled
/// and the crawl goes on.
pub(crate) fn process_guarded(shared: &Processing, job: CpuJob) -> Processed {
    let lease = job.lease.clone();
    let delay = job.delay;
    let links = job.extra_links.clone();
    let status = job.response.status;
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| process(shared, job))) {
        Ok(msg) => msg,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            shared.stats.panics.fetch_add(1, Relaxed);
            tracing::error!(url = %lease.item.url, panic = %what, "processing the page panicked; recorded as an error");
            let out = outcome(
                &lease.item.url,
                status,
                Outcome::InternalError,
                Some(format!("internal error while processing the page: {what}")),
            );
            Processed::Done(ended(lease, out, links, true, delay))
        }
    }
}

/// The outcome of a page fetched from `final_url` (queued as `url`) after
/// the redirect hops `chain`, before it is read.
fn fetched_outcome(
    url: &str,
    final_url: &str,
    chain: Vec<String>,
    response: &crate::fetch::Response,
) -> PageOutcome {
    let mut out = outcome(url, response.status, Outcome::Fetched, None);
    super::shared::headers_into(&mut out, response);
    out.final_url = Some(final_url.to_string()).filter(|f| f != url);
    out.redirects = chain;
    out.bytes = response.body.len() as u64;
    if response.truncated {
        out.outcome = Outcome::Truncated;
        out.error = Some(format!("body cut at {} bytes", response.body.len()));
    }
    out
}

/// How the page is read: the run's extraction settings with its URL, its
/// fetch time and the charset its `Content-Type` names.
fn page_options(
    shared: &Processing,
    final_url: &str,
    out: &PageOutcome,
    response: &crate::fetch::Response,
) -> trawl_extract::Options {
    shared
        .extract
        .clone()
        .with_url(final_url.to_string())
        .with_fetched_at(i64::try_from(out.fetched_at).ok())
        .with_charset(
            response
                .content_type
                .as_deref()
                .and_then(Charset::from_content_type),
        )
}

/// The URL of an earlier record whose text is a near-duplicate of this
/// page's (SimHash `hash`), if another page's.
fn duplicate_of(shared: &Processing, hash: Option<u64>, url: &str) -> Option<String> {
    hash.and_then(|h| shared.store.near_duplicate(h).ok().flatten())
        .and_then(|seq| shared.store.record_url(seq).ok().flatten())
        .filter(|u| u != url)
}

/// A changed page on a revisit: `rec` is the next version of the record
/// the revisit started from.
fn next_version(item: &crate::store::QueuedUrl, rec: &mut Record) {
    if let Some((old, version)) = item
        .revisit
        .as_deref()
        .and_then(|r| Some((r.record?, r.version)))
    {
        rec.previous = Some(old);
        rec.version = Some(version.max(1) + 1);
    }
}

/// The CPU stage: turns a fetched page into a record and links, or sends
/// it to the browser first.
pub(crate) fn process(shared: &Processing, job: CpuJob) -> Processed {
    let CpuJob {
        lease,
        seed,
        final_url,
        chain,
        response,
        delay,
        extra_links,
        rendered,
    } = job;
    let item = lease.item.clone();
    let (archived, archived_dom) = (response.archived, response.archived_dom);
    if let Some(hook) = &shared.page_hook {
        (hook.0)(&item.url);
    }
    let mut out = fetched_outcome(&item.url, &final_url, chain, &response);
    let base = Url::parse(&final_url).ok();
    let opts = page_options(shared, &final_url, &out, &response);
    let page = match Page::parse(&response.body, &opts) {
        Ok(page) => page,
        Err(e) => {
            out.outcome = Outcome::ExtractionError;
            out.error = Some(format!("extraction: {e}"));
            return Processed::Done(ended(lease, out, extra_links, true, delay));
        }
    };
    let mut robots = page.robots(&shared.agent);
    for v in response.header_values("x-robots-tag") {
        robots.read_header(&v, &shared.agent);
    }
    // A focused crawl judges every page, indexed or not: its links need it.
    let focus = shared.focus.as_deref();
    let ex = (!robots.noindex || focus.is_some()).then(|| page.extract(&opts));
    if rendered.is_none() {
        if let Some(reason) = shared.render.reason(&seed, ex.as_ref(), robots.noindex) {
            return Processed::Render(super::shared::RenderJob {
                job: CpuJob {
                    lease,
                    seed,
                    final_url,
                    chain: out.redirects,
                    response,
                    delay,
                    extra_links,
                    rendered: None,
                },
                reason,
            });
        }
    }
    let topic = focus.and_then(|f| f.topic_for(seed.topic.as_deref()));
    let relevance = topic.zip(ex.as_ref()).map(|(t, ex)| t.relevance(&ex.text));
    if let (Some(f), Some(r)) = (focus, relevance) {
        out.relevance = Some(r);
        out.relevant = Some(r >= f.threshold);
    }
    let mut links = extra_links;
    let follow = !robots.nofollow && item.depth < seed.max_depth;
    let keep_links = shared.record_links && !robots.noindex;
    // Resolved once, for the links queued and the links the record keeps.
    let resolved = base
        .as_ref()
        .filter(|_| follow || keep_links)
        .map(|b| links::resolve(shared, &page, b));
    if follow {
        if let Some(resolved) = &resolved {
            let parent = focus.zip(topic).map(|(f, topic)| links::Parent {
                focus: f,
                topic,
                store: &shared.store,
                rates: HashMap::new(),
                relevance: relevance.unwrap_or(0.0),
                hub: ex
                    .as_ref()
                    .is_some_and(|e| crate::focus::is_hub(e.page_type)),
            });
            links.extend(links::page_links(
                shared, &page, resolved, &seed, &item, parent,
            ));
        }
    }
    let mut record = None;
    let mut hash = None;
    // A revisit whose text has not changed makes no record, nor the work of
    // one (near-duplicate lookup, outgoing links, template fields).
    let unchanged = item.revisit.as_deref().filter(|r| {
        ex.as_ref().is_some_and(|ex| {
            r.content_hash.as_deref() == Some(crate::record::text_hash(&ex.text).as_str())
        })
    });
    if let (false, Some(r)) = (robots.noindex, unchanged) {
        out.outcome = Outcome::Unchanged;
        out.record = r.record;
        out.content_hash = r.content_hash.clone();
    } else if let (false, Some(ex)) = (robots.noindex, ex) {
        hash = simhash::simhash(&ex.text);
        let duplicate_of = duplicate_of(shared, hash, &item.url);
        let page_type = ex.page_type;
        let mut rec = Record {
            depth: item.depth,
            duplicate_of,
            fetched_at: out.fetched_at,
            final_url: final_url.clone(),
            links: resolved
                .as_ref()
                .filter(|_| shared.record_links)
                .map(links::outgoing),
            relevance: relevance.map(f64::from),
            rendered,
            status: response.status,
            url: item.url.clone(),
            ..Record::default()
        };
        rec.set_extracted(ex);
        out.content_hash = Some(rec.content_hash.clone());
        next_version(&item, &mut rec);
        if seed.mode == crate::seeds::Mode::Ecommerce && page.is_product(&final_url, page_type) {
            template_fields(shared, &lease.host, &response.body, &page, &mut rec);
        }
        record = Some(Box::new(rec));
    } else if robots.noindex {
        noindex(&mut out, robots.nofollow);
    }
    Processed::Done(Visit {
        completion: Completion::Done {
            outcome: out,
            record,
            simhash: hash,
            links,
            counted: Some((lease.host.clone(), item.seed)),
            again: None,
            changed: Vec::new(),
            recheck: None,
        },
        lease,
        delay,
        hold: None,
        archived,
        archived_dom,
    })
}

/// A page that asked not to be indexed: its outcome says so, and whether
/// its links were followed.
fn noindex(out: &mut PageOutcome, nofollow: bool) {
    out.outcome = Outcome::Noindex;
    out.error = Some(if nofollow {
        "the page says noindex and nofollow (robots meta tag or X-Robots-Tag): no record, its links not followed".into()
    } else {
        "the page says noindex (robots meta tag or X-Robots-Tag): no record; its links were followed".into()
    });
}

/// Reads a product page's fields with its site's template (learning or
/// re-learning it as the template mode decides).
fn template_fields(shared: &Processing, host: &str, body: &[u8], page: &Page, rec: &mut Record) {
    let site = crate::frontier::url::site_of(host);
    let product = shared
        .template_mode
        .product(&shared.store, &shared.stats, site, body, page);
    if let crate::crawl::template::Product::Extracted {
        applied,
        template,
        version,
    } = product
    {
        rec.kind = Some(RecordKind::Product);
        rec.fields = Some(applied.values);
        rec.template = Some(template);
        rec.template_version = Some(version);
        rec.template_match = Some(f64::from(applied.matched));
    }
}
