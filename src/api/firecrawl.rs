//! Firecrawl's scrape endpoints (`POST /v1/scrape`, `POST /v2/scrape`),
//! so tools that call Firecrawl by base URL (its Python and JavaScript
//! clients, RAG frameworks, agents) use the daemon as it is: the same wait
//! as `/scrape` (`scrape.rs`), answered as `{success, data: {markdown,
//! html, links, metadata: {title, description, language, sourceURL, url,
//! statusCode, …}}}` or `{success: false, code, error}`.
//!
//! What differs, and is said in the answer's `warning`: trawl always
//! answers the main content (`onlyMainContent: false` is not honoured);
//! `rawHtml` is not kept (the WARC has the response); `html` is the main
//! content's clean HTML only when `extract.html` is on; `links` only when
//! `crawl.record_links` is on. Formats that need a model or a screen
//! (`json`, `summary`, `screenshot`, `changeTracking`, …) are refused. A
//! deadline answers 408 `SCRAPE_TIMEOUT` with `processing_continues`, which
//! Firecrawl's client answers by asking again after `retryAfterSeconds`.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Map, Value};
use trawl_crawl::Outcome;

use super::scrape::{render_of, scrape, Ask, Found, Scraped};
use super::state::Api;

/// Seconds Firecrawl's client is told to wait before asking again.
const RETRY_AFTER_SECS: u64 = 5;

fn failure(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    let body = json!({"success": false, "code": code, "error": message.into()});
    (status, Json(body)).into_response()
}

/// The formats asked: names, or objects with a `type` (v2).
fn formats(body: &Value) -> Vec<String> {
    match body.get("formats") {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|f| match f {
                Value::String(s) => Some(s.clone()),
                Value::Object(o) => o.get("type").and_then(Value::as_str).map(String::from),
                _ => None,
            })
            .collect(),
        _ => vec!["markdown".into()],
    }
}

/// `POST /v1/scrape` and `POST /v2/scrape`.
pub(super) async fn scrape_endpoint(State(api): State<Api>, body: Bytes) -> Response {
    let body: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", format!("JSON: {e}")),
    };
    let Some(url) = body.get("url").and_then(Value::as_str) else {
        return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", "url is required");
    };
    let formats = formats(&body);
    let served = ["markdown", "html", "rawHtml", "links"];
    if let Some(f) = formats.iter().find(|f| !served.contains(&f.as_str())) {
        let why = format!("format {f:?} is not served by trawl (it serves markdown, html, links)");
        return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", why);
    }
    let render = match render_of(body.get("render")) {
        Ok(r) => r,
        Err(why) => return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", why),
    };
    let ask = Ask {
        url: url.to_string(),
        render,
        timeout_ms: body.get("timeout").and_then(Value::as_u64),
    };
    let mut warnings = Vec::new();
    if body.get("onlyMainContent") == Some(&Value::Bool(false)) {
        warnings
            .push("trawl answers the main content only (onlyMainContent: false is not honoured)");
    }
    match scrape(&api, &ask).await {
        Err(r) => r,
        Ok(Scraped::Pending { url, waited }) => {
            let body = json!({
                "success": false,
                "code": "SCRAPE_TIMEOUT",
                "error": format!("{url} was not fetched within {} s; it will be", waited.as_secs()),
                "details": {"state": "processing_continues", "retryAfterSeconds": RETRY_AFTER_SECS},
            });
            let retry = RETRY_AFTER_SECS.to_string();
            (
                StatusCode::REQUEST_TIMEOUT,
                [(header::RETRY_AFTER, retry)],
                Json(body),
            )
                .into_response()
        }
        Ok(Scraped::Done { found, cached }) => {
            document(&ask.url, *found, cached, &formats, warnings)
        }
    }
}

/// The outcomes answered as a refusal rather than a document.
fn refused(o: Outcome) -> Option<(StatusCode, &'static str)> {
    match o {
        Outcome::BlockedAddress => Some((StatusCode::FORBIDDEN, "BLOCKED_ADDRESS")),
        Outcome::RobotsDenied | Outcome::RobotsUnavailable => {
            Some((StatusCode::FORBIDDEN, "ROBOTS_DISALLOWED"))
        }
        Outcome::BlockedBySite => Some((StatusCode::FORBIDDEN, "BLOCKED_BY_SITE")),
        Outcome::NotHtml | Outcome::TooLarge => {
            Some((StatusCode::UNPROCESSABLE_ENTITY, "UNSUPPORTED_CONTENT"))
        }
        Outcome::TransportError | Outcome::RedirectError => {
            Some((StatusCode::BAD_GATEWAY, "FETCH_FAILED"))
        }
        _ => None,
    }
}

/// `{success: true, data}` for a page (an HTTP error page included, with
/// its `statusCode` and empty Markdown), or the refusal for its outcome.
fn document(
    asked: &str,
    found: Found,
    cached: bool,
    formats: &[String],
    mut warnings: Vec<&'static str>,
) -> Response {
    let o = &found.outcome;
    let why = o
        .error
        .clone()
        .unwrap_or_else(|| format!("{:?}", o.outcome));
    if let (None, Some((status, code))) = (&found.record, refused(o.outcome)) {
        return failure(status, code, why);
    }
    let mut meta = Map::new();
    let mut put = |k: &str, v: Value| {
        if !v.is_null() {
            meta.insert(k.into(), v);
        }
    };
    put("sourceURL", json!(asked));
    put("url", json!(o.final_url.as_deref().unwrap_or(&o.url)));
    put("statusCode", json!(o.status));
    put("contentType", json!(o.content_type));
    put("cacheState", json!(if cached { "hit" } else { "miss" }));
    let mut data = Map::new();
    if let Some(rec) = &found.record {
        put("title", json!(rec.title));
        put("description", json!(rec.description));
        put("language", json!(rec.language));
        put("author", json!(rec.author));
        put(
            "publishedTime",
            json!(rec.date_published.as_ref().or(rec.date.as_ref())),
        );
        put("modifiedTime", json!(rec.date_modified));
        put("siteName", json!(rec.site_name));
        put("pageType", json!(rec.page_type));
        data.insert("markdown".into(), json!(rec.markdown));
    } else {
        put("error", json!(why));
        data.insert("markdown".into(), json!(""));
    }
    let rec = found.record.as_ref();
    for f in formats {
        match f.as_str() {
            "html" => match rec.and_then(|r| r.html.clone()) {
                Some(h) => {
                    data.insert("html".into(), json!(h));
                }
                None => warnings.push("html is answered when extract.html is on"),
            },
            "links" => match rec.and_then(|r| r.links.clone()) {
                Some(l) => {
                    data.insert("links".into(), json!(l));
                }
                None => warnings.push("links are answered when crawl.record_links is on"),
            },
            "rawHtml" => warnings.push("rawHtml is not kept (the WARC archive has the response)"),
            _ => {}
        }
    }
    data.insert("metadata".into(), Value::Object(meta));
    if !warnings.is_empty() {
        data.insert("warning".into(), json!(warnings.join("; ")));
    }
    Json(json!({"success": true, "data": data})).into_response()
}
