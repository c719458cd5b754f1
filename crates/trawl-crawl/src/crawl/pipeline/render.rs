//! The render stage, between the CPU stage and the writer, for pages that
//! need a browser (`render`): the CPU stage decides
//! ([`super::render_policy::RenderPolicy`]),
//! this stage renders the page in the pool's browser, extracts the
//! rendered DOM on the blocking pool and sends the completion to the
//! writer. A render that fails ends the page with the outcome
//! `render_failed`.
//!
//! Every request the page's scripts make goes through [`PageGate`]: the
//! host's robots.txt, the private-network guard and the host's schedule,
//! as the crawl's own requests do; the exchange is archived.

use std::sync::Arc;

use tokio::sync::mpsc;
use url::Url;

use super::process::{process_guarded, Processed};
use super::shared::{ended, outcome, CpuJob, Fetching, Processing, RenderJob, Visit};
use crate::frontier::url::host_key;
use crate::politeness::robots::Robots;
use crate::record::{Outcome, RenderNote};
use crate::render::{Answer, Gate, GateFuture, Job, RenderError};
use crate::seeds::Seed;

/// Renders the pages sent on `rx` until every sender is gone and the
/// renders in flight are done; completions go to `write_tx`.
pub(super) async fn run(
    shared: Arc<Fetching>,
    cpu: Arc<Processing>,
    mut rx: mpsc::Receiver<RenderJob>,
    write_tx: mpsc::Sender<Visit>,
) {
    // A page is taken off the channel only when a tab is free for it, so
    // the pages waiting for the browser stay within the channel's bound.
    let tabs = shared
        .render
        .renderer
        .as_ref()
        .map_or(1, |r| r.settings().tabs.max(1));
    let free = Arc::new(tokio::sync::Semaphore::new(tabs));
    let mut running = tokio::task::JoinSet::new();
    loop {
        let Ok(permit) = free.clone().acquire_owned().await else {
            break;
        };
        let Some(job) = rx.recv().await else { break };
        let (shared, cpu, tx) = (shared.clone(), cpu.clone(), write_tx.clone());
        running.spawn(async move {
            let msg = render_page(shared, cpu, job).await;
            let _ = tx.send(msg).await;
            drop(permit);
        });
        // Finished renders are reaped as new ones come.
        while running.try_join_next().is_some() {}
    }
    while running.join_next().await.is_some() {}
    if let Some(r) = &shared.render.renderer {
        r.close().await;
    }
}

/// One page: rendered (its requests sent as the fetch side sends them),
/// then extracted like any page by the CPU stage's code (on the blocking
/// pool).
async fn render_page(shared: Arc<Fetching>, cpu: Arc<Processing>, rj: RenderJob) -> Visit {
    let RenderJob { mut job, reason } = rj;
    let rendered = match &shared.render.renderer {
        Some(r) => {
            let gate: Arc<dyn Gate> = Arc::new(PageGate {
                shared: shared.clone(),
                seed: job.seed.clone(),
            });
            let page = Job {
                url: &job.final_url,
                status: job.response.status,
                headers: header_fields(&job.response.head, job.response.content_type.as_deref()),
                body: &job.response.body,
            };
            r.render(page, gate).await
        }
        None => Err(RenderError::NoBrowser(
            shared.render.missing.clone().unwrap_or_default(),
        )),
    };
    let rendered = match rendered {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(url = %job.final_url, error = %e, "render failed");
            return failed(&job, &e);
        }
    };
    if let Some(a) = &shared.archive {
        job.response.archived_dom = Some(a.conversion(
            &job.final_url,
            job.response.archived_id.as_deref(),
            &rendered.html,
        ));
    }
    job.rendered = Some(RenderNote {
        reason,
        requests: rendered.requests,
        refused: rendered.refused,
        scrolls: rendered.scrolls,
        ms: rendered.took.as_millis() as u64,
        warc: None,
    });
    job.response.body = rendered.html.into_bytes();
    job.response.content_type = Some("text/html; charset=utf-8".into());
    job.response.truncated = false;
    let s = cpu;
    let (lease, delay, status) = (job.lease.clone(), job.delay, job.response.status);
    match tokio::task::spawn_blocking(move || process_guarded(&s, job)).await {
        Ok(Processed::Done(msg)) => msg,
        // Never: a rendered page is not sent to the browser again.
        Ok(Processed::Render(rj)) => failed(
            &rj.job,
            &RenderError::Navigation("the rendered page asked for a second render".into()),
        ),
        Err(e) => {
            let out = outcome(
                &lease.item.url,
                status,
                Outcome::InternalError,
                Some(format!("extracting the rendered page: {e}")),
            );
            ended(lease, out, Vec::new(), true, delay)
        }
    }
}

/// The completion of a page whose render failed.
fn failed(job: &CpuJob, e: &RenderError) -> Visit {
    let mut out = outcome(
        &job.lease.item.url,
        job.response.status,
        Outcome::RenderFailed,
        Some(e.to_string()),
    );
    out.final_url = Some(job.final_url.clone()).filter(|f| *f != job.lease.item.url);
    out.redirects = job.chain.clone();
    out.bytes = job.response.body.len() as u64;
    let mut msg = ended(
        job.lease.clone(),
        out,
        job.extra_links.clone(),
        true,
        job.delay,
    );
    msg.archived = job.response.archived;
    msg
}

/// The response's header fields for the browser: as received, but for
/// those that described the transfer (the body is kept decoded) and
/// cookies (the browser keeps none of the crawl's).
fn header_fields(head: &[u8], content_type: Option<&str>) -> Vec<(String, String)> {
    const DROP: [&str; 7] = [
        "content-encoding",
        "content-length",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "set-cookie",
        "set-cookie2",
    ];
    let text = String::from_utf8_lossy(head);
    let mut fields: Vec<(String, String)> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, _)| !k.is_empty() && !DROP.contains(&k.to_ascii_lowercase().as_str()))
        .collect();
    if let Some(ct) = content_type {
        if !fields
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            fields.push(("Content-Type".into(), ct.to_string()));
        }
    }
    fields
}

/// How the browser's requests for one page are sent: as the crawl's own,
/// with the settings of the page's seed for its own host.
struct PageGate {
    shared: Arc<Fetching>,
    seed: Arc<Seed>,
}

impl Gate for PageGate {
    fn request(self: Arc<Self>, url: String) -> GateFuture {
        Box::pin(async move { self.send(&url).await })
    }
}

impl PageGate {
    async fn send(&self, raw: &str) -> Answer {
        let Ok(url) = Url::parse(raw) else {
            return Answer::Refused("unparseable URL".into());
        };
        let host = host_key(&url);
        let shared = &self.shared;
        let (robots, _) = shared.robots_for(url.scheme(), &host, &self.seed).await;
        if matches!(*robots, Robots::Unavailable) {
            return Answer::Refused("robots.txt unavailable".into());
        }
        if !robots.allowed_off_thread(url.as_str()).await {
            return Answer::Refused("disallowed by robots.txt".into());
        }
        // The seed's own settings (`delay=`, headers) for its own host only.
        let own = Some(&*self.seed).filter(|s| s.host == host);
        let base = shared.seed_delay(own, &host);
        let delay = shared.delays.host_delay_from(base, robots.crawl_delay());
        let mut opts = shared.sites.options(&host, own, &url, None);
        opts.seed =
            crate::fetch::guard::Origin::parse(&self.seed.url).filter(|_| !self.seed.guarded);
        let r = shared.request(&url, delay, false, Some(&opts)).await;
        if r.blocked {
            return Answer::Refused(r.error.unwrap_or_else(|| "blocked address".into()));
        }
        if r.is_transport_error() {
            return Answer::Refused(r.error.unwrap_or_else(|| "no answer".into()));
        }
        let headers = header_fields(&r.head, r.content_type.as_deref());
        Answer::Response {
            status: r.status,
            headers,
            body: r.body,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::header_fields;

    #[test]
    fn transfer_fields_and_cookies_are_not_given_to_the_browser() {
        let head =
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\
            Set-Cookie: sid=secret\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 10\r\n\r\n";
        let f = header_fields(head, None);
        let names: Vec<&str> = f.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["Content-Type", "Access-Control-Allow-Origin"]);
        assert_eq!(
            header_fields(b"", Some("text/html")),
            [("Content-Type".to_string(), "text/html".to_string())]
        );
    }
}
