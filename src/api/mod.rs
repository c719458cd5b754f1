//! The daemon's write endpoints, beside the read-only ones of `status.rs`
//! on the same loopback address, so other programs can give a running
//! crawl work and use its extractor:
//! - `POST /seeds` seed lines (the seed-file syntax, options included),
//!   `GET /seeds` the seeds added so, `DELETE /seeds?url=U` no new links
//!   from one of them; `POST /urls` URLs to fetch, each a seed of depth 0
//!   (`seeds.rs`);
//! - `POST /scrape` one URL fetched in its host's turn and answered with its
//!   record (`scrape.rs`), and Firecrawl's `POST /v1/scrape` and
//!   `/v2/scrape` in its shape (`firecrawl.rs`);
//! - `POST /extract` a page's HTML (or `{"url", "html"}`) in, its record
//!   out (`extract.rs`).
//!
//! Seeds and URLs are appended to the daemon's own seed file in its data
//! directory (`seeds::API_FILE`, `file.rs`), which every run reads beside
//! the others: they are kept across restarts and `kill -9` (the file is
//! synced before the answer), and a cluster worker loads them into the
//! shared frontier. Their hosts are `guarded`: a private address is refused
//! (outcome `blocked_address`) as a link's would be, unless a seed file
//! names that host; only seed files may name one.
//!
//! Off until `api.token` (or `TRAWL_API_TOKEN`) is set; every request needs
//! `Authorization: Bearer TOKEN`, compared in constant time; the token is
//! never logged. Bodies are capped (`api.max_body_bytes`: 413), lines per
//! request too (`api.max_lines`: 413), extractions and scrapes at once too
//! (`api.max_concurrent`, `api.max_scrapes`: 429 with Retry-After).

mod extract;
mod file;
mod firecrawl;
mod scrape;
mod seeds;
mod state;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;

pub use state::Api;

/// The paths the write endpoints answer (the status page answers them
/// with [`off`] when no token is set).
pub const PATHS: [&str; 6] = [
    "/seeds",
    "/urls",
    "/scrape",
    "/extract",
    "/v1/scrape",
    "/v2/scrape",
];

impl Api {
    /// The write endpoints, each behind the token.
    pub fn routes(self) -> Router {
        let limit = usize::try_from(self.config.api.max_body_bytes).unwrap_or(usize::MAX);
        Router::new()
            .route(
                "/seeds",
                post(seeds::add_seeds)
                    .get(seeds::list_seeds)
                    .delete(seeds::stop_seed),
            )
            .route("/urls", post(seeds::add_urls))
            .route("/scrape", post(scrape::native))
            .route("/v1/scrape", post(firecrawl::scrape_endpoint))
            .route("/v2/scrape", post(firecrawl::scrape_endpoint))
            .route("/extract", post(extract::extract))
            .route_layer(axum::middleware::from_fn_with_state(
                self.clone(),
                authorized,
            ))
            .layer(DefaultBodyLimit::max(limit))
            .with_state(self)
    }
}

/// `router` with every route behind the token: the endpoint off loopback,
/// where the read-only routes (the status page, `/status`, `/export`) need
/// it too.
pub fn behind_token(router: Router, api: Api) -> Router {
    router.layer(axum::middleware::from_fn_with_state(api, authorized))
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
