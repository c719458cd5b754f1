//! `POST /scrape`: one URL fetched now, as the crawl fetches, answered with
//! its record. The URL is given to the crawl as a seed of depth 0 (through
//! the API's seed file, like `/urls`), so it waits its turn in its host's
//! schedule (robots.txt, the delay, the private-network guard, rendering)
//! and is stored like any crawled page, once; the request waits for the
//! page's outcome in the store (the shared database in a cluster, where
//! whichever worker holds the host's lease fetches it). A URL the crawl
//! already has is answered from the store (`cached`), not fetched again.
//! Past the deadline: 504, and the fetch still completes into the store.
//!
//! `firecrawl.rs` answers the same wait in Firecrawl's shape.

use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use trawl_crawl::seeds::RenderMode;
use trawl_crawl::Store;
use trawl_crawl::{Outcome, PageOutcome, Record};

use super::file;
use super::state::{busy, error, one_url, unavailable, Api, Refusal};

/// Redirects to another host followed to their own URL's outcome at most.
const MAX_HOPS: usize = 5;

/// What the crawl made of a URL.
pub(super) struct Found {
    pub outcome: PageOutcome,
    pub record: Option<Record>,
}

/// How a scrape ended.
pub(super) enum Scraped {
    /// The page's outcome; `cached`: the crawl had it before the request.
    Done { found: Box<Found>, cached: bool },
    /// Not fetched by the deadline (still queued, or in flight).
    Pending { url: String, waited: Duration },
}

/// A scrape's request, in the native and Firecrawl shapes alike.
pub(super) struct Ask {
    pub url: String,
    pub render: Option<RenderMode>,
    /// How long to wait, in ms (capped at `api.max_scrape_wait_secs`).
    pub timeout_ms: Option<u64>,
}

/// Where the API reads outcomes: the daemon's store, or the cluster's.
enum Pages<'a> {
    Local(Store),
    Cluster(&'a Api),
}

impl Pages<'_> {
    /// The pages to read, waiting up to `wait` for the daemon's store: it
    /// is not open yet the moment the API answers at startup, nor between
    /// sessions while a failed store is reopened.
    async fn open(api: &Api, wait: Duration) -> Result<Pages<'_>, Refusal> {
        if api.cluster().is_some() {
            return Ok(Pages::Cluster(api));
        }
        let start = Instant::now();
        loop {
            if let Some(store) = api.observer.store() {
                return Ok(Pages::Local(store));
            }
            if start.elapsed() >= wait {
                return Err(Refusal(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the crawl's store is not open (starting, or reopening after a failure)".into(),
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Whether the crawl ever queued `url`.
    async fn known(&mut self, url: &str) -> Result<bool, Refusal> {
        match self {
            Pages::Local(s) => s.known(url).map_err(unavailable),
            Pages::Cluster(api) => api.db().await?.known(url).await.map_err(unavailable),
        }
    }

    /// `url`'s outcome and record, once it has an outcome.
    async fn page(&mut self, url: &str) -> Result<Option<Found>, Refusal> {
        match self {
            Pages::Local(s) => {
                let Some(outcome) = s.page(url).map_err(unavailable)? else {
                    return Ok(None);
                };
                let record = match outcome.record {
                    Some(seq) => s.record(seq).map_err(unavailable)?,
                    None => None,
                };
                Ok(Some(Found { outcome, record }))
            }
            Pages::Cluster(api) => Ok(api
                .db()
                .await?
                .page(url)
                .await
                .map_err(unavailable)?
                .map(|(outcome, record)| Found { outcome, record })),
        }
    }
}

/// Gives `ask.url` to the crawl (unless it has it) and waits for its
/// outcome, following redirects to other hosts.
pub(super) async fn scrape(api: &Api, ask: &Ask) -> Result<Scraped, Response> {
    let Ok(_permit) = api.scrapes.clone().try_acquire_owned() else {
        return Err(busy("scrapes (api.max_scrapes)"));
    };
    let url = one_url(&ask.url).map_err(IntoResponse::into_response)?;
    // Any scope: a redirect is followed wherever it leads (the guard and
    // robots.txt still apply), as `trawl fetch` does.
    let mut line = format!("{url} depth=0 sitemaps=false scope=any");
    if let Some(r) = ask.render {
        line.push_str(&format!(" render={}", format!("{r:?}").to_lowercase()));
    }
    let (seeds, errors) = trawl_crawl::parse_seed_lines(&api.config, &line, "request");
    let seed = match (seeds.into_iter().next(), errors.into_iter().next()) {
        (Some(s), None) => s,
        (_, e) => {
            let why = e.map_or_else(|| "not a URL".into(), |e| e.message);
            return Err(error(StatusCode::BAD_REQUEST, why));
        }
    };
    let max = Duration::from_secs(api.config.api.max_scrape_wait_secs);
    let wait = ask
        .timeout_ms
        .map_or(Duration::from_secs(60), Duration::from_millis)
        .min(max);
    let start = Instant::now();
    let mut pages = Pages::open(api, wait)
        .await
        .map_err(IntoResponse::into_response)?;
    let poll = match pages {
        Pages::Local(_) => Duration::from_millis(50),
        Pages::Cluster(_) => Duration::from_millis(250),
    };
    let refuse = |r: Refusal| r.into_response();
    let cached = pages.page(&seed.url).await.map_err(refuse)?.is_some();
    if !cached && !pages.known(&seed.url).await.map_err(refuse)? {
        file::append(api, &format!("{line}\n"))
            .await
            .map_err(refuse)?;
    }
    let mut url = seed.url;
    let mut hops = 0;
    loop {
        if let Some(found) = pages.page(&url).await.map_err(refuse)? {
            let next = found.outcome.final_url.clone();
            match next {
                Some(n) if found.outcome.outcome == Outcome::Redirected && hops < MAX_HOPS => {
                    url = n;
                    hops += 1;
                    continue;
                }
                _ => {
                    return Ok(Scraped::Done {
                        found: Box::new(found),
                        cached,
                    })
                }
            }
        }
        if start.elapsed() >= wait {
            return Ok(Scraped::Pending {
                url,
                waited: start.elapsed(),
            });
        }
        tokio::time::sleep(poll).await;
    }
}

/// A request's `render`: `true` (always), `false` (never), or a mode's name.
pub(super) fn render_of(v: Option<&Value>) -> Result<Option<RenderMode>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(true)) => Ok(Some(RenderMode::Always)),
        Some(Value::Bool(false)) => Ok(Some(RenderMode::Never)),
        Some(Value::String(s)) => RenderMode::parse(s)
            .map(Some)
            .ok_or_else(|| format!("render {s:?} is not true, false, never, auto or always")),
        Some(other) => Err(format!("render {other} is not true, false or a mode")),
    }
}

/// The formats a native `/scrape` answers.
const FORMATS: [&str; 4] = ["markdown", "text", "html", "json"];

/// `POST /scrape` with `{url, formats, render, timeout}`.
pub(super) async fn native(State(api): State<Api>, body: Bytes) -> Response {
    let body: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("a JSON object: {e}")),
    };
    let Some(url) = body.get("url").and_then(Value::as_str) else {
        return error(StatusCode::BAD_REQUEST, "{\"url\": ...} is missing");
    };
    let formats: Vec<String> = match body.get("formats") {
        None => vec!["markdown".into()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect(),
        Some(_) => return error(StatusCode::BAD_REQUEST, "formats is a list of names"),
    };
    if let Some(f) = formats.iter().find(|f| !FORMATS.contains(&f.as_str())) {
        let known = FORMATS.join(", ");
        return error(
            StatusCode::BAD_REQUEST,
            format!("format {f:?}: known are {known}"),
        );
    }
    let render = match render_of(body.get("render")) {
        Ok(r) => r,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    let ask = Ask {
        url: url.to_string(),
        render,
        timeout_ms: body.get("timeout").and_then(Value::as_u64),
    };
    match scrape(&api, &ask).await {
        Err(r) => r,
        Ok(Scraped::Pending { url, waited }) => (
            StatusCode::GATEWAY_TIMEOUT,
            [(header::RETRY_AFTER, "5")],
            Json(json!({
                "error": format!(
                    "not fetched within {} s: it waits its turn in its host's schedule \
                     and will be stored; ask again",
                    waited.as_secs()
                ),
                "url": url,
            })),
        )
            .into_response(),
        Ok(Scraped::Done { found, cached }) => answer(&ask.url, *found, cached, &formats),
    }
}

/// A finished scrape: the record in the asked formats, or the outcome that
/// made none (422).
fn answer(asked: &str, found: Found, cached: bool, formats: &[String]) -> Response {
    let o = &found.outcome;
    let outcome = serde_json::to_value(o.outcome).unwrap_or(Value::Null);
    let Some(rec) = found.record else {
        let why = o
            .error
            .clone()
            .unwrap_or_else(|| format!("{outcome}: no record"));
        let body = json!({
            "error": why, "url": asked, "outcome": outcome, "status": o.status,
            "final_url": o.final_url, "cached": cached,
        });
        return (StatusCode::UNPROCESSABLE_ENTITY, Json(body)).into_response();
    };
    let mut out = json!({
        "url": asked,
        "final_url": rec.final_url,
        "status": rec.status,
        "outcome": outcome,
        "cached": cached,
        "fetched_at": rec.fetched_at,
        "metadata": {
            "title": rec.title, "description": rec.description, "author": rec.author,
            "date": rec.date, "language": rec.language, "site_name": rec.site_name,
            "page_type": rec.page_type,
        },
    });
    for f in formats {
        let v = match f.as_str() {
            "markdown" => json!(rec.markdown),
            "text" => json!(rec.text),
            "html" => json!(rec.html),
            _ => serde_json::to_value(&rec).unwrap_or(Value::Null),
        };
        out[f.as_str()] = v;
    }
    Json(out).into_response()
}
