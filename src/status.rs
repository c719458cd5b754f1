//! The daemon's HTTP endpoint (loopback unless a token is set), on axum:
//! - `GET /` a page to watch the crawl in a browser (progress, rates, hosts,
//!   records by type, errors, the harvest curve), one file with its style
//!   and script inline: no build step, no CDN; it reads `/status` every two
//!   seconds and has no controls;
//! - `GET /status`  JSON snapshot of the counters;
//! - `GET /metrics` the same in Prometheus text format;
//! - `GET /export?since=N&limit=M&type=T` records after cursor N as JSONL
//!   (`&links=1` with their outgoing links, `&all_versions=1` with the
//!   records a re-extraction replaced),
//!   `&outcomes=1` page outcomes instead (how `trawl export` reads a store
//!   the running daemon has open); `&format=csv` or `&format=parquet`
//!   (with `&fields=url,title,…`) as a table instead of JSONL.
//!
//! With `api.token` set, the write endpoints of `api/` are served here too
//! (`/seeds`, `/urls`, `/scrape`, `/extract`, Firecrawl's `/v1/scrape` and
//! `/v2/scrape`); without it they answer 404 saying how to turn them on.
//!
//! On loopback, only a `Host` naming the endpoint itself (its address, or
//! `localhost`) is answered; any other gets 421, so a page in a local
//! browser whose name an attacker rebinds to this address cannot read
//! `/status` or `/export`. Off loopback (allowed only with `api.token`)
//! every route, the read-only ones included, needs the token.
//!
//! `/export` streams: a blocking task walks the store and hands the server
//! 64 KiB chunks through a channel of four, so an export of millions of
//! records holds a few chunks in memory, not the store. A store error in the
//! middle ends the response without its final chunk, which the client sees
//! as a broken transfer (the status line is long gone by then).

use std::io::Write;

use anyhow::{Context, Result};
use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use serde::Deserialize;
use tokio::sync::mpsc;
use trawl_crawl::sink::columns::DEFAULT_RECORD_FIELDS;
use trawl_crawl::sink::{CsvSink, Format, JsonlSink, ParquetSink, RecordSink, Rows};
use trawl_crawl::store::export::{export_outcomes, export_records, ExportQuery};
use trawl_crawl::Observer;
use trawl_extract::PageType;

/// Binds `addr` and serves the endpoint for `observer`'s crawl in the
/// background; returns once listening (a bad or busy address is an error
/// before the crawl starts).
pub async fn spawn(
    addr: &str,
    observer: Observer,
    api: Option<crate::api::Api>,
) -> Result<tokio::task::JoinHandle<()>> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("status endpoint {addr}"))?;
    tracing::info!(addr, "status endpoint listening");
    let own = listener
        .local_addr()
        .with_context(|| format!("status endpoint {addr}"))?;
    if api.is_some() {
        let paths = crate::api::PATHS.join(", ");
        tracing::info!(addr, "write endpoints on (api.token): {paths}");
    }
    let app = router(observer, api.clone());
    let app = if own.ip().is_loopback() {
        app.layer(axum::middleware::from_fn(
            move |req: axum::extract::Request, next: axum::middleware::Next| async move {
                let host = req.headers().get(header::HOST).map(|h| h.to_str());
                match host {
                    Some(Ok(h)) if !host_is_own(h, own) => {
                        (StatusCode::MISDIRECTED_REQUEST, "unknown Host\n").into_response()
                    }
                    Some(Err(_)) => (StatusCode::MISDIRECTED_REQUEST, "bad Host\n").into_response(),
                    _ => next.run(req).await,
                }
            },
        ))
    } else {
        // Off loopback (the config allows it only with a token): every
        // route needs the token, which a rebound page cannot send either.
        let Some(api) = api else {
            anyhow::bail!("status endpoint {addr}: off loopback it needs api.token");
        };
        tracing::info!(addr, "off loopback: every request needs the API token");
        crate::api::behind_token(app, api)
    };
    Ok(tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::warn!(error = %e, "status endpoint stopped");
        }
    }))
}

/// Whether a `Host` header names the endpoint bound at `own`: `localhost`
/// or its address (any address when bound to all), with its port if one is
/// written.
fn host_is_own(host: &str, own: std::net::SocketAddr) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        Some((n, p)) if !p.contains(']') => (n, Some(p)),
        _ => (host, None),
    };
    if port.is_some_and(|p| p.parse::<u16>().ok() != Some(own.port())) {
        return false;
    }
    let name = name.trim_start_matches('[').trim_end_matches(']');
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match name.parse::<std::net::IpAddr>() {
        Ok(ip) => ip == own.ip() || own.ip().is_unspecified(),
        Err(_) => false,
    }
}

fn router(observer: Observer, api: Option<crate::api::Api>) -> Router {
    let writes = match api {
        Some(api) => api.routes(),
        None => crate::api::PATHS
            .iter()
            .fold(Router::new(), |r, p| r.route(p, any(crate::api::off))),
    };
    Router::new()
        .route("/", get(page))
        .route("/status", get(status))
        .route("/metrics", get(metrics))
        .route("/export", get(export))
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                "try /, /status, /metrics or /export?since=N\n",
            )
        })
        .with_state(observer)
        .merge(writes)
}

/// The status page (`src/status_page.html`).
const PAGE: &str = include_str!("status_page.html");

async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            // Only its own inline script and style, and requests to this endpoint.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
                 connect-src 'self'",
            ),
        ],
        PAGE,
    )
        .into_response()
}

async fn status(State(o): State<Observer>) -> Response {
    match serde_json::to_vec(&o.stats().snapshot()) {
        Ok(body) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

async fn metrics(State(o): State<Observer>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        o.stats().snapshot().prometheus(),
    )
        .into_response()
}

/// `/export` query parameters; unknown ones are ignored.
#[derive(Debug, Deserialize)]
struct ExportParams {
    #[serde(default)]
    since: u64,
    #[serde(default)]
    limit: usize,
    #[serde(rename = "type")]
    page_type: Option<String>,
    #[serde(default)]
    outcomes: u8,
    #[serde(default)]
    links: u8,
    #[serde(default)]
    all_versions: u8,
    format: Option<String>,
    #[serde(default)]
    fields: String,
}

const CHUNK: usize = 64 << 10;

async fn export(
    State(o): State<Observer>,
    params: Result<Query<ExportParams>, QueryRejection>,
) -> Response {
    let Ok(Query(p)) = params else {
        return (
            StatusCode::BAD_REQUEST,
            "since and limit are numbers: /export?since=N&limit=M&type=T&outcomes=1\n",
        )
            .into_response();
    };
    let page_type = match p.page_type.as_deref().map(PageType::parse) {
        Some(None) => {
            return (StatusCode::BAD_REQUEST, "unknown page type\n").into_response();
        }
        Some(t) => t,
        None => None,
    };
    let Some(store) = o.store() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "the store cannot write and is being reopened; try again shortly\n",
        )
            .into_response();
    };
    // Records served must survive a crash: flush first.
    if let Err(e) = store.flush().await {
        return (StatusCode::INTERNAL_SERVER_ERROR, format!("{e}\n")).into_response();
    }
    let format = match p.format.as_deref().map(Format::parse) {
        None => Format::Jsonl,
        Some(Some(f)) if f != Format::Markdown => f,
        Some(_) => {
            return (
                StatusCode::BAD_REQUEST,
                "format is jsonl, csv or parquet (Markdown files: trawl export --format markdown --out DIR)\n",
            )
                .into_response();
        }
    };
    let rows = if p.outcomes == 1 {
        Rows::Outcomes
    } else {
        Rows::Records
    };
    let default = (format == Format::Csv && rows == Rows::Records).then_some(DEFAULT_RECORD_FIELDS);
    let columns = match rows.columns(&p.fields, default) {
        Ok(c) => c,
        Err(e) => return (StatusCode::BAD_REQUEST, format!("{e}\n")).into_response(),
    };
    let (tx, rx) = mpsc::channel::<std::io::Result<Bytes>>(4);
    tokio::task::spawn_blocking(move || {
        let mut out = Chunks {
            buf: Vec::with_capacity(CHUNK),
            tx,
        };
        let q = ExportQuery {
            since: p.since,
            limit: p.limit,
            page_type,
            links: p.links == 1,
            all_versions: p.all_versions == 1,
        };
        let result =
            stream_export(&store, &q, rows, format, columns, &mut out).and_then(|()| out.flush());
        if let Err(e) = result {
            tracing::warn!(error = %e, "export over the status endpoint stopped");
            // The client is told by a broken transfer (if it still listens).
            let _ = out.tx.blocking_send(Err(e));
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|chunk| (chunk, rx))
    });
    let content_type = match format {
        Format::Csv => "text/csv; charset=utf-8",
        Format::Parquet => "application/vnd.apache.parquet",
        _ => "application/x-ndjson",
    };
    (
        [(header::CONTENT_TYPE, content_type)],
        Body::from_stream(stream),
    )
        .into_response()
}

/// The records (or outcomes) of `q` into `out` as `format`.
fn stream_export(
    store: &trawl_crawl::Store,
    q: &ExportQuery,
    rows: Rows,
    format: Format,
    columns: Vec<trawl_crawl::sink::Column>,
    out: &mut Chunks,
) -> std::io::Result<()> {
    let mut sink: Box<dyn RecordSink + '_> = match format {
        Format::Csv => Box::new(CsvSink::new(out, rows, columns).map_err(std::io::Error::other)?),
        Format::Parquet => {
            Box::new(ParquetSink::new(out, rows, columns).map_err(std::io::Error::other)?)
        }
        _ => Box::new(JsonlSink::new(out)),
    };
    let written = match rows {
        Rows::Outcomes => export_outcomes(store, q, &mut *sink),
        Rows::Records => export_records(store, q, &mut *sink),
    };
    written.map_err(std::io::Error::other)?;
    sink.close().map_err(std::io::Error::other)
}

/// Buffers JSON lines into chunks for the response stream; a client that
/// hung up is a write error, which stops the export.
struct Chunks {
    buf: Vec<u8>,
    tx: mpsc::Sender<std::io::Result<Bytes>>,
}

impl Write for Chunks {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.flush()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK)));
        self.tx
            .blocking_send(Ok(chunk))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client hung up"))
    }
}

#[cfg(test)]
mod tests {
    use super::host_is_own;

    #[test]
    fn only_the_endpoints_own_host_is_answered() {
        let own: std::net::SocketAddr = "127.0.0.1:7171".parse().unwrap();
        for ok in ["127.0.0.1:7171", "127.0.0.1", "localhost:7171", "LOCALHOST"] {
            assert!(host_is_own(ok, own), "{ok}");
        }
        for bad in [
            "evil.example:7171",
            "127.0.0.1:80",
            "127.0.0.2:7171",
            "evil.example",
        ] {
            assert!(!host_is_own(bad, own), "{bad}");
        }
        let v6: std::net::SocketAddr = "[::1]:7171".parse().unwrap();
        assert!(host_is_own("[::1]:7171", v6));
        let all: std::net::SocketAddr = "0.0.0.0:7171".parse().unwrap();
        assert!(host_is_own("10.1.2.3:7171", all));
        assert!(!host_is_own("rebind.example:7171", all));
    }
}
