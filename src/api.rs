//! The daemon's write endpoints, beside the read-only ones of `status.rs`
//! on the same loopback address, so other programs can give a running
//! crawl work and use its extractor:
//! - `POST /seeds` seed lines (the seed-file syntax, options included),
//!   `GET /seeds` the seeds added so, `DELETE /seeds?url=U` no new links
//!   from one of them;
//! - `POST /urls` URLs to fetch (a JSON list, `{"urls": [...]}` or lines),
//!   each a seed of depth 0;
//! - `POST /extract` a page's HTML (or `{"url", "html"}`) in, its record out.
//!
//! Seeds and URLs are appended to the daemon's own seed file in its data
//! directory (`seeds::API_FILE`), which every run reads beside the others:
//! they are kept across restarts and `kill -9` (the file is synced before
//! the answer), and a cluster worker loads them into the shared frontier.
//! Their hosts are `guarded`: a private address is refused (outcome
//! `blocked_address`) as a link's would be, unless a seed file names that
//! host; only seed files may name one.
//!
//! Off until `api.token` (or `TRAWL_API_TOKEN`) is set; every request needs
//! `Authorization: Bearer TOKEN`, compared in constant time; the token is
//! never logged. Bodies are capped (`api.max_body_bytes`: 413), lines per
//! request too (`api.max_lines`: 413), extractions at once too
//! (`api.max_concurrent`, as many again wait: 429 with Retry-After).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use trawl_crawl::config::Config;
use trawl_crawl::crawl::Observer;
use trawl_crawl::seeds::{Registry, Seed, API_FILE};

/// What the endpoints share.
#[derive(Clone)]
pub struct Api {
    token: Arc<[u8]>,
    config: Arc<Config>,
    observer: Observer,
    /// The API's seed file; the lock keeps its writers one at a time.
    file: Arc<tokio::sync::Mutex<PathBuf>>,
    slots: Arc<tokio::sync::Semaphore>,
    waiting: Arc<AtomicUsize>,
}

impl Api {
    /// The endpoints for `config`'s daemon, or `None` when no token is set.
    pub fn new(config: &Config, observer: Observer) -> Option<Api> {
        let token = config.api.token();
        if token.is_empty() {
            return None;
        }
        Some(Api {
            token: token.into_bytes().into(),
            file: Arc::new(tokio::sync::Mutex::new(
                config.crawl.data_dir.join(API_FILE),
            )),
            slots: Arc::new(tokio::sync::Semaphore::new(
                config.api.max_concurrent as usize,
            )),
            waiting: Arc::new(AtomicUsize::new(0)),
            config: Arc::new(config.clone()),
            observer,
        })
    }

    /// The write endpoints, each behind the token.
    pub fn routes(self) -> Router {
        let limit = usize::try_from(self.config.api.max_body_bytes).unwrap_or(usize::MAX);
        Router::new()
            .route("/seeds", post(add_seeds).get(list_seeds).delete(stop_seed))
            .route("/urls", post(add_urls))
            .route("/extract", post(extract))
            .route_layer(axum::middleware::from_fn_with_state(
                self.clone(),
                authorized,
            ))
            .layer(DefaultBodyLimit::max(limit))
            .with_state(self)
    }
}

/// The answer to a write endpoint when no token is set.
pub async fn off() -> Response {
    (
        StatusCode::NOT_FOUND,
        "write endpoints are off: set api.token in config.toml or TRAWL_API_TOKEN\n",
    )
        .into_response()
}

/// Whether `a` and `b` are equal, in time that depends on their lengths
/// only.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn authorized(State(api): State<Api>, req: Request, next: Next) -> Response {
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.as_bytes().strip_prefix(b"Bearer "));
    match given {
        Some(t) if same(t, &api.token) => next.run(req).await,
        _ => (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "",
        )
            .into_response(),
    }
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    Refusal(status, message.into()).into_response()
}

/// A request refused: its status and why, answered as `{"error": why}`.
struct Refusal(StatusCode, String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.0, Json(json!({"error": self.1}))).into_response()
    }
}

/// One line of a request, as answered.
struct Line {
    number: usize,
    /// The line to write to the seed file, when it is taken.
    write: Option<String>,
    answer: Value,
}

/// Parses `lines` (numbered from 1) as seed lines; each good one is
/// answered `added` (a new seed), `known` (its options replace the seed's)
/// or, in a cluster, `accepted`; `skip_known`: a known URL is left as it is
/// (POST /urls).
fn judge(api: &Api, lines: &[String], skip_known: bool) -> Result<Vec<Line>, Refusal> {
    let max = api.config.api.max_lines as usize;
    let given = lines.iter().filter(|l| is_seed_line(l)).count();
    if given > max {
        return Err(Refusal(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{given} lines; at most {max} a request (api.max_lines)"),
        ));
    }
    let store = api.observer.store();
    let cluster = !api.config.cluster.url.is_empty();
    let mut out = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        let number = i + 1;
        let raw = raw.trim();
        if !is_seed_line(raw) {
            continue;
        }
        if raw.starts_with('*') {
            let why = "`*` lines are not taken here: give the options on each line";
            out.push(rejected(number, raw, why));
            continue;
        }
        let (seeds, errors) = trawl_crawl::crawl::parse_seed_lines(&api.config, raw, "request");
        let seed = match (seeds.into_iter().next(), errors.into_iter().next()) {
            (Some(s), None) => s,
            (_, e) => {
                let why = e.map_or_else(|| "not a seed line".to_string(), |e| e.message);
                out.push(rejected(number, raw, &why));
                continue;
            }
        };
        let known = match (&store, cluster) {
            (Some(s), false) => Registry::of(s).id_of(&seed.url).ok().flatten().is_some(),
            _ => false,
        };
        let result = match (cluster, known) {
            (true, _) => "accepted",
            (false, true) => "known",
            (false, false) => "added",
        };
        let write = (!(known && skip_known)).then(|| raw.to_string());
        out.push(Line {
            number,
            write,
            answer: json!({"line": number, "url": seed.url, "result": result}),
        });
    }
    Ok(out)
}

fn is_seed_line(l: &str) -> bool {
    let l = l.trim();
    !l.is_empty() && !l.starts_with('#')
}

fn rejected(number: usize, raw: &str, why: &str) -> Line {
    let shown: String = raw.chars().take(200).collect();
    Line {
        number,
        write: None,
        answer: json!({"line": number, "text": shown, "result": "error", "error": why}),
    }
}

/// Appends the taken lines to the API's seed file, synced, and tells the
/// run to read it; answers every line.
async fn take(api: &Api, lines: Vec<Line>) -> Response {
    let text: String = lines
        .iter()
        .filter_map(|l| l.write.as_deref())
        .map(|l| format!("{l}\n"))
        .collect();
    if !text.is_empty() {
        let file = api.file.lock().await;
        // The crawl reads a seed file up to this size: lines past it would
        // be taken and never read.
        let max = trawl_crawl::limits::MAX_SEED_FILE_BYTES;
        let size = std::fs::metadata(&*file).map_or(0, |m| m.len());
        if size + text.len() as u64 > max {
            return error(
                StatusCode::INSUFFICIENT_STORAGE,
                format!(
                    "{} would pass {max} bytes, the most of a seed file the crawl reads",
                    file.display()
                ),
            );
        }
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&*file)
            .and_then(|mut f| {
                f.write_all(text.as_bytes())?;
                f.sync_data()
            });
        if let Err(e) = written {
            tracing::warn!(file = %file.display(), error = %e, "the API's seed file");
            return error(
                StatusCode::INSUFFICIENT_STORAGE,
                format!("cannot write {}: {e}", file.display()),
            );
        }
        api.observer.seeds_changed();
    }
    let count = |r: &str| lines.iter().filter(|l| l.answer["result"] == r).count();
    let (added, known, accepted, errors) = (
        count("added"),
        count("known"),
        count("accepted"),
        count("error"),
    );
    let taken = lines.iter().filter(|l| l.write.is_some()).count();
    let status = if taken == 0 && errors > 0 {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let mut answers: Vec<(usize, Value)> =
        lines.into_iter().map(|l| (l.number, l.answer)).collect();
    answers.sort_by_key(|(n, _)| *n);
    let body = json!({
        "added": added,
        "known": known,
        "accepted": accepted,
        "errors": errors,
        "lines": answers.into_iter().map(|(_, a)| a).collect::<Vec<_>>(),
    });
    (status, Json(body)).into_response()
}

fn body_text(body: &Bytes) -> Result<&str, Refusal> {
    std::str::from_utf8(body)
        .map_err(|_| Refusal(StatusCode::BAD_REQUEST, "the body is not UTF-8 text".into()))
}

async fn add_seeds(State(api): State<Api>, body: Bytes) -> Response {
    let text = match body_text(&body) {
        Ok(t) => t,
        Err(r) => return r.into_response(),
    };
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    match judge(&api, &lines, false) {
        Ok(judged) => take(&api, judged).await,
        Err(r) => r.into_response(),
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum UrlsBody {
    List(Vec<String>),
    Object { urls: Vec<String> },
}

async fn add_urls(State(api): State<Api>, headers: HeaderMap, body: Bytes) -> Response {
    let text = match body_text(&body) {
        Ok(t) => t,
        Err(r) => return r.into_response(),
    };
    let json_body = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
        || text.trim_start().starts_with(['[', '{']);
    let urls: Vec<String> = if json_body {
        match serde_json::from_str::<UrlsBody>(text) {
            Ok(UrlsBody::List(u) | UrlsBody::Object { urls: u }) => u,
            Err(e) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!("a JSON list of URLs or {{\"urls\": [...]}}: {e}"),
                )
            }
        }
    } else {
        text.lines().map(str::to_string).collect()
    };
    // One URL a line, options not taken: each a seed of depth 0.
    let lines: Vec<String> = urls
        .iter()
        .map(|u| match u.split_whitespace().next() {
            Some(url) if !url.starts_with(['#', '*']) => format!("{url} depth=0 sitemaps=false"),
            _ => u.clone(),
        })
        .collect();
    match judge(&api, &lines, true) {
        Ok(judged) => take(&api, judged).await,
        Err(r) => r.into_response(),
    }
}

/// The API's seed file as the crawl reads it (at most a seed file's
/// size); none yet: empty.
fn read_api_file(file: &std::path::Path) -> String {
    trawl_crawl::limits::read_capped(file, trawl_crawl::limits::MAX_SEED_FILE_BYTES)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// The API's seeds, as the crawl reads them (later lines for one URL win).
async fn list_seeds(State(api): State<Api>) -> Response {
    let file = api.file.lock().await;
    let text = read_api_file(&file);
    drop(file);
    let (seeds, _) = trawl_crawl::crawl::parse_seed_lines(&api.config, &text, API_FILE);
    let mut latest: Vec<Seed> = Vec::new();
    for s in seeds {
        latest.retain(|x| x.url != s.url);
        latest.push(s);
    }
    Json(json!({"seeds": latest})).into_response()
}

#[derive(Deserialize)]
struct SeedUrl {
    url: String,
}

/// No new links from one of the API's seeds: its lines are replaced by one
/// of depth 0 (its queued URLs are still fetched).
async fn stop_seed(State(api): State<Api>, q: Query<SeedUrl>) -> Response {
    let (seeds, _) = trawl_crawl::crawl::parse_seed_lines(&api.config, &q.url, "url");
    let Some(target) = seeds.into_iter().next() else {
        return error(StatusCode::BAD_REQUEST, format!("not a URL: {}", q.url));
    };
    let file = api.file.lock().await;
    let text = read_api_file(&file);
    let mut kept = String::new();
    let mut found = false;
    for line in text.lines() {
        let (s, _) = trawl_crawl::crawl::parse_seed_lines(&api.config, line, API_FILE);
        if s.first().is_some_and(|s| s.url == target.url) {
            found = true;
        } else {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    if !found {
        return error(
            StatusCode::NOT_FOUND,
            format!("{} is not a seed added through the API", target.url),
        );
    }
    kept.push_str(&format!("{} depth=0 sitemaps=false\n", target.url));
    let tmp = file.with_extension("txt.new");
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(kept.as_bytes())?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, &*file));
    if let Err(e) = written {
        return error(
            StatusCode::INSUFFICIENT_STORAGE,
            format!("cannot write {}: {e}", file.display()),
        );
    }
    api.observer.seeds_changed();
    Json(json!({"url": target.url, "result": "stopped"})).into_response()
}

#[derive(Deserialize)]
struct ExtractQuery {
    url: Option<String>,
}

#[derive(Deserialize)]
struct ExtractBody {
    url: Option<String>,
    html: String,
}

/// A page in, its record out: the HTML body (`?url=` helps page typing), or
/// `{"url", "html"}`. No network.
async fn extract(
    State(api): State<Api>,
    q: Query<ExtractQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let json_body = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let (url, html) = if json_body {
        match serde_json::from_slice::<ExtractBody>(&body) {
            Ok(b) => (b.url, Bytes::from(b.html)),
            Err(e) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!("{{\"url\", \"html\"}}: {e}"),
                )
            }
        }
    } else {
        (q.0.url, body)
    };
    // At most max_concurrent at once, as many again waiting.
    let permit = match api.slots.clone().try_acquire_owned() {
        Ok(p) => p,
        Err(_) => {
            if api.waiting.fetch_add(1, Relaxed) >= api.config.api.max_concurrent as usize {
                api.waiting.fetch_sub(1, Relaxed);
                return (
                    StatusCode::TOO_MANY_REQUESTS,
                    [(header::RETRY_AFTER, "1")],
                    Json(json!({"error": "too many extractions at once (api.max_concurrent)"})),
                )
                    .into_response();
            }
            let p = api.slots.clone().acquire_owned().await;
            api.waiting.fetch_sub(1, Relaxed);
            match p {
                Ok(p) => p,
                Err(_) => return error(StatusCode::SERVICE_UNAVAILABLE, "stopping"),
            }
        }
    };
    let opts = api.config.extract_options().with_url_opt(url.clone());
    let done = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        trawl_extract::extract(&html, &opts)
    })
    .await;
    match done {
        Ok(Ok(rec)) => {
            let mut v = serde_json::to_value(&rec).unwrap_or(Value::Null);
            if let (Some(o), Some(u)) = (v.as_object_mut(), url) {
                o.insert("url".into(), Value::String(u));
            }
            Json(v).into_response()
        }
        Ok(Err(e)) => error(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the extraction failed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_compare_whole() {
        assert!(same(b"s3cret", b"s3cret"));
        assert!(!same(b"s3cret", b"s3creT"));
        assert!(!same(b"s3cret", b"s3cre"));
        assert!(!same(b"", b"x"));
    }
}
