//! Fetching one URL. [`Fetcher`] is the seam: the daemon and tests depend on
//! it, [`SpiderFetcher`] implements it with spider's fetch helper over a
//! reqwest client we build (honest User-Agent, timeouts, compression, no
//! automatic redirects: [`get_following`] follows them itself so each hop is
//! recorded, loops are caught, and the chain is stored with the page).
//!
//! spider reports transport errors as synthetic statuses (connection refused
//! → 503, first-byte timeout → 524) with an error string; we keep the error
//! string so such outcomes are distinguishable from a real server 503.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use url::Url;

/// What a GET returned.
#[derive(Debug, Clone, Default)]
pub struct Response {
    pub status: u16,
    pub content_type: Option<String>,
    pub location: Option<String>,
    /// `Retry-After` in seconds (delta form; HTTP dates are read as 60 s).
    pub retry_after: Option<u64>,
    pub body: Vec<u8>,
    /// The body hit the size limit and was cut.
    pub truncated: bool,
    /// `Content-Length` when the body was not read because it exceeds the limit.
    pub oversize: Option<u64>,
    /// A transport error (no HTTP answer): timeout, refused, reset, TLS.
    pub error: Option<String>,
}

impl Response {
    pub fn is_transport_error(&self) -> bool {
        self.error.is_some()
    }
}

/// Fetches single URLs. Implementations must not follow redirects.
pub trait Fetcher: Send + Sync {
    /// GET a page (HTML expected: binary bodies may be dropped early).
    fn get<'a>(&'a self, url: &'a str) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>>;
    /// GET any resource (robots.txt, sitemaps).
    fn get_any<'a>(&'a self, url: &'a str) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>>;
}

/// Client settings.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    pub user_agent: String,
    pub connect_timeout: Duration,
    pub timeout: Duration,
}

/// spider-backed fetcher.
pub struct SpiderFetcher {
    client: spider::Client,
}

/// Why the HTTP client could not be built.
#[derive(Debug, thiserror::Error)]
#[error("cannot build the HTTP client: {0}")]
pub struct ClientError(String);

impl SpiderFetcher {
    pub fn new(cfg: &FetchConfig) -> Result<SpiderFetcher, ClientError> {
        // One process-wide TLS provider; a second install reports the first one.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = spider::reqwest::Client::builder()
            .user_agent(cfg.user_agent.clone())
            .connect_timeout(cfg.connect_timeout)
            .timeout(cfg.timeout)
            .redirect(spider::reqwest::redirect::Policy::none())
            .pool_max_idle_per_host(2)
            .build()
            .map_err(|e| ClientError(e.to_string()))?;
        Ok(SpiderFetcher { client })
    }

    fn convert(pr: spider::utils::PageResponse) -> Response {
        let header = |name: &str| {
            pr.headers
                .as_ref()
                .and_then(|h| h.get(name))
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let error = pr
            .error_for_status
            .as_ref()
            .map(|e| e.to_string())
            .filter(|_| {
                // A real HTTP answer carries headers; a synthetic status has none.
                pr.headers.as_ref().is_none_or(|h| h.is_empty())
            });
        let declared: Option<u64> = header("content-length").and_then(|v| v.trim().parse().ok());
        let oversize = declared.filter(|&n| n > 0 && pr.content.is_none());
        Response {
            oversize,
            status: pr.status_code.as_u16(),
            content_type: header("content-type"),
            location: header("location"),
            retry_after: header("retry-after").map(|v| v.trim().parse().unwrap_or(60)),
            body: pr.content.unwrap_or_default(),
            truncated: pr.content_truncated,
            error,
        }
    }
}

impl Fetcher for SpiderFetcher {
    fn get<'a>(&'a self, url: &'a str) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>> {
        Box::pin(async move {
            Self::convert(spider::utils::fetch_page_html_raw_only_html(url, &self.client).await)
        })
    }

    fn get_any<'a>(&'a self, url: &'a str) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>> {
        Box::pin(async move {
            Self::convert(spider::utils::fetch_page_html_raw(url, &self.client).await)
        })
    }
}

/// A fetch with its redirect chain.
#[derive(Debug, Clone)]
pub struct Followed {
    pub response: Response,
    pub final_url: String,
    /// Every URL before the final one, in order.
    pub chain: Vec<String>,
    /// Why following stopped early (loop, too many hops, bad Location).
    pub redirect_error: Option<String>,
}

/// GETs `url`, following up to `max_hops` redirects. `allow` is asked about
/// each new hop (scope, robots); a refused hop ends the chain there.
pub async fn get_following(
    fetcher: &dyn Fetcher,
    url: &str,
    max_hops: usize,
    allow: impl Fn(&Url) -> bool,
) -> Followed {
    let mut current = url.to_string();
    let mut chain = Vec::new();
    loop {
        let response = fetcher.get(&current).await;
        let is_redirect = matches!(response.status, 301 | 302 | 303 | 307 | 308);
        let Some(location) = response.location.clone().filter(|_| is_redirect) else {
            return Followed {
                response,
                final_url: current,
                chain,
                redirect_error: None,
            };
        };
        let stop =
            |response: Response, current: String, chain: Vec<String>, why: String| Followed {
                response,
                final_url: current,
                chain,
                redirect_error: Some(why),
            };
        let next = match Url::parse(&current).and_then(|base| base.join(&location)) {
            Ok(mut u) => {
                u.set_fragment(None);
                u
            }
            Err(e) => {
                return stop(
                    response,
                    current,
                    chain,
                    format!("bad Location {location:?}: {e}"),
                )
            }
        };
        if chain.len() >= max_hops {
            return stop(
                response,
                current,
                chain,
                format!("more than {max_hops} redirects"),
            );
        }
        if next.as_str() == current || chain.iter().any(|c| c == next.as_str()) {
            return stop(response, current, chain, format!("redirect loop at {next}"));
        }
        if !allow(&next) {
            return stop(
                response,
                current,
                chain,
                format!("redirect to {next} not allowed (scope or robots)"),
            );
        }
        chain.push(std::mem::replace(&mut current, next.to_string()));
    }
}
