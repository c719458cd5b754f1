//! What every write endpoint shares (the token, the config, the crawl's
//! observer, the API's seed file, the slots that bound work at once) and
//! how they refuse a request, kept apart from the endpoints so each of
//! them depends on this and none on another.

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use axum::body::Bytes;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use trawl_crawl::cluster::Conn;
use trawl_crawl::seeds::API_FILE;
use trawl_crawl::Config;
use trawl_crawl::Observer;

/// What the endpoints share.
#[derive(Clone)]
pub struct Api {
    pub(super) token: Arc<[u8]>,
    pub(super) config: Arc<Config>,
    pub(super) observer: Observer,
    /// The API's seed file; the lock keeps its writers one at a time.
    pub(super) file: Arc<tokio::sync::Mutex<PathBuf>>,
    /// Extractions at once (`api.max_concurrent`).
    pub(super) slots: Arc<tokio::sync::Semaphore>,
    /// Extractions waiting for a slot.
    pub(super) waiting: Arc<AtomicUsize>,
    /// Scrapes waiting for their page at once (`api.max_scrapes`).
    pub(super) scrapes: Arc<tokio::sync::Semaphore>,
    /// In a cluster, the one connection every endpoint reads the shared
    /// database through (made at first use): waiting scrapes take turns on
    /// it instead of holding a connection each.
    db: Arc<tokio::sync::Mutex<Option<Conn>>>,
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
            scrapes: Arc::new(tokio::sync::Semaphore::new(config.api.max_scrapes as usize)),
            db: Arc::new(tokio::sync::Mutex::new(None)),
            config: Arc::new(config.clone()),
            observer,
        })
    }

    /// The cluster's database URL, when the daemon is a cluster worker.
    pub(super) fn cluster(&self) -> Option<&str> {
        Some(self.config.cluster.url.as_str()).filter(|u| !u.is_empty())
    }

    /// The shared database's connection, held until the guard is dropped
    /// (one query); 503 when the daemon is not a cluster worker or the
    /// database cannot be reached.
    pub(super) async fn db(&self) -> Result<tokio::sync::MappedMutexGuard<'_, Conn>, Refusal> {
        let mut held = self.db.lock().await;
        if held.is_none() {
            let url = self
                .cluster()
                .ok_or_else(|| unavailable("not a cluster worker"))?;
            *held = Some(Conn::connect(url).await.map_err(unavailable)?);
        }
        tokio::sync::MutexGuard::try_map(held, Option::as_mut)
            .map_err(|_| unavailable("no database connection"))
    }
}

/// 503 saying why.
pub(super) fn unavailable(e: impl std::fmt::Display) -> Refusal {
    Refusal(StatusCode::SERVICE_UNAVAILABLE, e.to_string())
}

/// `{"error": message}` with `status`.
pub(super) fn error(status: StatusCode, message: impl Into<String>) -> Response {
    Refusal(status, message.into()).into_response()
}

/// 429 with Retry-After: `what` is at its bound.
pub(super) fn busy(what: &str) -> Response {
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, "1")],
        Json(json!({"error": format!("too many {what} at once")})),
    )
        .into_response()
}

/// A request refused: its status and why, answered as `{"error": why}`.
pub(super) struct Refusal(pub StatusCode, pub String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.0, Json(json!({"error": self.1}))).into_response()
    }
}

/// The body as text.
pub(super) fn body_text(body: &Bytes) -> Result<&str, Refusal> {
    std::str::from_utf8(body)
        .map_err(|_| Refusal(StatusCode::BAD_REQUEST, "the body is not UTF-8 text".into()))
}

/// `raw` as one URL for a seed line: without white space or quotes, which
/// would add options to the line (a `cookies=` file, a header) that a
/// request may not set.
pub(super) fn one_url(raw: &str) -> Result<&str, Refusal> {
    let url = raw.trim();
    if url.is_empty() || url.contains(|c: char| c.is_whitespace() || c == '"') {
        return Err(Refusal(
            StatusCode::BAD_REQUEST,
            format!(
                "not one URL (no spaces or quotes): {:?}",
                url.chars().take(200).collect::<String>()
            ),
        ));
    }
    Ok(url)
}

/// Whether the request says its body is JSON.
pub(super) fn says_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}
