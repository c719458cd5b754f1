//! Fetching one URL. [`Fetcher`] is the seam: the daemon and tests depend on
//! it, [`HttpFetcher`] implements it on a reqwest client we build (honest
//! User-Agent, timeouts, compression, no automatic redirects and no retries
//! of its own).
//!
//! One call is one request. Everything that makes a second request —
//! redirect hops, retries, robots.txt, sitemaps — lives in the daemon, where
//! each request first waits its turn in the host's schedule
//! (`crate::politeness::clock`). That is why this layer is not spider's
//! fetch helper (`spider::utils::fetch_page_html_raw`), which the crawler
//! used before: it re-fetches a response cut off mid-body by itself, retries
//! a failed TLS handshake with the scheme flipped or `www.` stripped, reads
//! its body cap from a process environment variable, and hands back a body
//! that stopped dripping at the time limit as an ordinary (truncated) 200.
//! Here the limits are fields of [`FetchConfig`], a body that times out or
//! breaks off is a transport error (the daemon retries it, on schedule), and
//! only the size cap truncates.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use url::Url;

pub mod challenge;
pub mod cookies;
pub mod guard;
mod request;

pub use request::{Conditional, RequestOptions};

pub use guard::AddressGuard;

/// What a GET returned.
#[derive(Debug, Clone, Default)]
pub struct Response {
    /// HTTP status (0 on a transport error).
    pub status: u16,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The `Location` header (redirects).
    pub location: Option<String>,
    /// `Retry-After` in seconds (delta form; HTTP dates are read as 60 s).
    pub retry_after: Option<u64>,
    /// The body, decompressed, up to the size limit.
    pub body: Vec<u8>,
    /// The body hit the size limit and was cut.
    pub truncated: bool,
    /// `Content-Length` when the body was not read because it exceeds the limit.
    pub oversize: Option<u64>,
    /// A transport error (no complete HTTP answer): timeout, refused, reset,
    /// TLS, or a body that timed out or broke off before its end.
    pub error: Option<String>,
    /// The request as sent: request line and header fields, for the archive
    /// (empty from fetchers that do not say).
    pub request_head: Vec<u8>,
    /// The response's status line and header fields as received, for the
    /// archive: the body is kept decoded, so `Content-Encoding`,
    /// `Transfer-Encoding` and `Content-Length` are replaced by the stored
    /// body's length (empty from fetchers that do not say).
    pub head: Vec<u8>,
    /// The server's address.
    pub remote_ip: Option<std::net::IpAddr>,
    /// The exchange's number in the run's WARC archive, once archived.
    pub archived: Option<u64>,
    /// The WARC-Record-ID of its response record, once archived.
    pub archived_id: Option<String>,
    /// The archived `conversion` record of the DOM a browser rendered from
    /// it (its number in the run's archive), once archived.
    pub archived_dom: Option<u64>,
    /// `Content-Length`, as declared.
    pub content_length: Option<u64>,
    /// `Last-Modified`.
    pub last_modified: Option<String>,
    /// `ETag`.
    pub etag: Option<String>,
    /// Refused by the private-network guard (`error` says why): no request
    /// was sent.
    pub blocked: bool,
}

impl Response {
    /// Whether there was no complete HTTP answer.
    pub fn is_transport_error(&self) -> bool {
        self.error.is_some()
    }

    /// The values of header field `name` (any case) in the response's head.
    pub fn header_values(&self, name: &str) -> Vec<String> {
        String::from_utf8_lossy(&self.head)
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once(':'))
            .filter(|(k, _)| k.trim().eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_string())
            .collect()
    }

    /// With its head and a `Content-Length` of the body as kept.
    fn with_head(mut self, mut head: Vec<u8>) -> Response {
        head.extend_from_slice(format!("content-length: {}\r\n\r\n", self.body.len()).as_bytes());
        self.head = head;
        self
    }

    fn blocked(why: String) -> Response {
        Response {
            blocked: true,
            ..Response::failed(why)
        }
    }

    fn failed(error: String) -> Response {
        Response {
            error: Some(error),
            ..Response::default()
        }
    }
}

/// Fetches single URLs: one call, one request. Implementations must not
/// follow redirects or retry.
pub trait Fetcher: Send + Sync {
    /// GET a page (HTML expected: a body of another Content-Type is not read).
    fn get<'a>(&'a self, url: &'a str) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>>;
    /// GET any resource (robots.txt, sitemaps).
    fn get_any<'a>(&'a self, url: &'a str) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>>;
    /// A GET with per-request options (a site's headers, cookies, proxy; a
    /// revisit's validators): a page (`any` false) or any resource. A
    /// fetcher without options sends a plain GET.
    fn get_with<'a>(
        &'a self,
        url: &'a str,
        any: bool,
        _opts: &'a RequestOptions,
    ) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>> {
        if any {
            self.get_any(url)
        } else {
            self.get(url)
        }
    }
    /// The private-network guard this fetcher applies, if any (the crawl
    /// tells it which hosts its seeds name).
    fn guard(&self) -> Option<Arc<AddressGuard>> {
        None
    }
}

/// Client settings and limits.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// The `User-Agent` sent with every request.
    pub user_agent: String,
    /// Time limit on connecting.
    pub connect_timeout: Duration,
    /// Time limit of one request, headers and body together.
    pub timeout: Duration,
    /// Bodies are cut at this many bytes (after decompression); a declared
    /// `Content-Length` above it is not read at all.
    pub max_body_bytes: u64,
    /// Private and local addresses may be fetched whatever the seeds name
    /// (`crawl.allow_private`).
    pub allow_private: bool,
    /// Every request through this proxy (`crawl.proxy`); `None`: the
    /// environment's (`HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`).
    pub proxy: Option<String>,
}

/// The reqwest-backed fetcher.
pub struct HttpFetcher {
    client: reqwest::Client,
    max_body: u64,
    guard: Arc<AddressGuard>,
    cfg: FetchConfig,
    /// Clients of the sites' own proxies, built on first use.
    proxied: std::sync::Mutex<std::collections::HashMap<String, reqwest::Client>>,
}

/// Why the HTTP client could not be built.
#[derive(Debug, thiserror::Error)]
#[error("cannot build the HTTP client: {0}")]
pub struct ClientError(String);

/// The guard's refusal among an error's causes, in words.
fn blocked_in(e: &reqwest::Error) -> Option<String> {
    let mut src = std::error::Error::source(e);
    while let Some(c) = src {
        if let Some(b) = c.downcast_ref::<guard::Blocked>() {
            return Some(b.to_string());
        }
        src = c.source();
    }
    None
}

/// An error and its causes on one line (reqwest's own message is terse).
fn describe(e: &reqwest::Error) -> String {
    let mut s = if e.is_timeout() {
        "timed out".to_string()
    } else {
        e.to_string()
    };
    let mut src = std::error::Error::source(e);
    while let Some(c) = src {
        let t = c.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        src = c.source();
    }
    s
}

/// A client with these settings, through `proxy` if given.
fn client(
    cfg: &FetchConfig,
    guard: &Arc<AddressGuard>,
    proxy: Option<&str>,
) -> Result<reqwest::Client, ClientError> {
    let mut builder =
        reqwest::Client::builder().dns_resolver(Arc::new(guard::GuardedResolver(guard.clone())));
    if let Some(p) = proxy {
        // The user's own proxy may be a local address; the target's name is
        // then resolved by the proxy (the guard checks addresses written in URLs).
        if let Some(host) = Url::parse(p)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
        {
            guard.allow(&host);
        }
        let proxy = reqwest::Proxy::all(p)
            .map_err(|e| ClientError(format!("proxy {p:?}: {e}")))?
            .no_proxy(reqwest::NoProxy::from_env());
        builder = builder.proxy(proxy);
    }
    builder
        .user_agent(cfg.user_agent.clone())
        .connect_timeout(cfg.connect_timeout)
        .timeout(cfg.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .retry(reqwest::retry::never())
        .pool_max_idle_per_host(2)
        .build()
        .map_err(|e| ClientError(e.to_string()))
}

/// Whether a Content-Type is a page trawl reads (HTML, plain text, or none given).
pub fn is_html_type(ct: Option<&str>) -> bool {
    ct.is_none_or(|ct| {
        let ct = ct.to_ascii_lowercase();
        ct.contains("html") || ct.contains("text/plain") || ct.trim().is_empty()
    })
}

/// Header fields trawl sets itself or takes from other keys.
const RESERVED: &[&str] = &[
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "cookie",
    "authorization",
    "if-none-match",
    "if-modified-since",
];

/// Whether `p` is a proxy URL trawl can use.
pub fn is_proxy_url(p: &str) -> bool {
    url::Url::parse(p).is_ok_and(|u| {
        matches!(u.scheme(), "http" | "https" | "socks5" | "socks5h") && u.host().is_some()
    })
}

/// Checks a header field's name and value; why not, in words.
pub fn check_header(name: &str, value: &str) -> Result<(), String> {
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        return Err(format!("{name:?} is not a header name"));
    }
    if RESERVED.contains(&name.to_ascii_lowercase().as_str()) {
        return Err(format!(
            "{name} is set by trawl (use `cookies` for cookies, `auth_env` for credentials)"
        ));
    }
    if value.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f) {
        return Err(format!("the value of {name} has control characters"));
    }
    Ok(())
}

/// Checks a secret header field (`header_env`, `headers_env`): as
/// [`check_header`], but `Authorization` may be given (a bearer token is the
/// usual secret); its value is checked when read from the environment.
pub fn check_secret_header(name: &str) -> Result<(), String> {
    if name.eq_ignore_ascii_case("authorization") {
        return Ok(());
    }
    check_header(name, "-")
}

/// Whether a Content-Type is a feed's (RSS, Atom, JSON Feed, or XML that
/// may be one): its body is read, and a page URL that answers with one is
/// read as a feed.
pub fn is_feed_type(ct: Option<&str>) -> bool {
    ct.is_some_and(|ct| {
        let ct = ct.to_ascii_lowercase();
        ct.contains("rss") || ct.contains("atom") || ct.contains("xml") || ct.contains("feed+json")
    })
}

/// Installs the process-wide TLS provider every `reqwest::Client` of trawl
/// needs (reqwest is built with `rustls-no-provider`: building a client
/// without one panics). Call it before building any client, the daemon's
/// fetcher or the command line's client of a running daemon; a second call
/// keeps the first provider. Returns whether a provider is in place.
pub fn install_tls_provider() -> bool {
    // An Err only says a provider was installed before: the first one stays.
    let _ = rustls::crypto::ring::default_provider().install_default();
    has_tls_provider()
}

/// Whether a process-wide TLS provider is installed (without installing one).
pub fn has_tls_provider() -> bool {
    rustls::crypto::CryptoProvider::get_default().is_some()
}

impl HttpFetcher {
    /// A client with these settings.
    pub fn new(cfg: &FetchConfig) -> Result<HttpFetcher, ClientError> {
        install_tls_provider();
        let guard = Arc::new(AddressGuard::new(cfg.allow_private));
        let client = client(cfg, &guard, cfg.proxy.as_deref())?;
        Ok(HttpFetcher {
            client,
            max_body: cfg.max_body_bytes.max(1),
            guard,
            cfg: cfg.clone(),
            proxied: Default::default(),
        })
    }

    /// The client for requests through `proxy` (`None`: the crawl's).
    fn client_for(&self, proxy: Option<&str>) -> Result<reqwest::Client, ClientError> {
        let Some(p) = proxy else {
            return Ok(self.client.clone());
        };
        let mut map = self.proxied.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = map.get(p) {
            return Ok(c.clone());
        }
        let c = client(&self.cfg, &self.guard, Some(p))?;
        map.insert(p.to_string(), c.clone());
        Ok(c)
    }

    async fn fetch(&self, url: &str, html_only: bool, opts: Option<&RequestOptions>) -> Response {
        if let Ok(u) = Url::parse(url) {
            let seed = opts.and_then(|o| o.seed.as_ref());
            if let Err(b) = self.guard.check_request(&u, seed).await {
                return Response::blocked(b.to_string());
            }
        }
        let client = match self.client_for(opts.and_then(|o| o.proxy.as_deref())) {
            Ok(c) => c,
            Err(e) => return Response::failed(e.to_string()),
        };
        let shown = opts.map(RequestOptions::shown).unwrap_or_default();
        let mut req = client.get(url);
        for (name, value) in opts.map(RequestOptions::all).unwrap_or_default() {
            req = req.header(name, value);
        }
        let mut resp = match req.send().await {
            Ok(r) => r,
            Err(e) => {
                return match blocked_in(&e) {
                    Some(b) => Response::blocked(b),
                    None => Response::failed(describe(&e)),
                }
            }
        };
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let mut out = Response {
            status: resp.status().as_u16(),
            content_type: header("content-type"),
            location: header("location"),
            retry_after: header("retry-after").map(|v| v.trim().parse().unwrap_or(60)),
            request_head: request_head(url, &self.cfg.user_agent, &shown),
            remote_ip: resp.remote_addr().map(|a| a.ip()),
            content_length: header("content-length").and_then(|v| v.trim().parse().ok()),
            last_modified: header("last-modified"),
            etag: header("etag"),
            ..Response::default()
        };
        let head = response_head(&resp);
        let declared = out.content_length;
        if declared.is_some_and(|n| n > self.max_body) {
            out.oversize = declared;
            return out.with_head(head);
        }
        let success = (200..=299).contains(&out.status);
        let readable = |ct: Option<&str>| is_html_type(ct) || is_feed_type(ct);
        if html_only && success && !readable(out.content_type.as_deref()) {
            return out.with_head(head); // the daemon records the Content-Type and skips it
        }
        loop {
            match resp.chunk().await {
                Ok(Some(chunk)) => {
                    let room = (self.max_body as usize).saturating_sub(out.body.len());
                    if chunk.len() > room {
                        out.body.extend_from_slice(&chunk[..room]);
                        out.truncated = true;
                        return out.with_head(head);
                    }
                    out.body.extend_from_slice(&chunk);
                }
                Ok(None) => return out.with_head(head),
                Err(e) => {
                    out.error = Some(format!(
                        "body broke off after {} bytes: {}",
                        out.body.len(),
                        describe(&e)
                    ));
                    return out.with_head(head);
                }
            }
        }
    }
}

/// The request line and header fields trawl sends (reqwest adds no others).
fn request_head(url: &str, user_agent: &str, extra: &[(&str, &str)]) -> Vec<u8> {
    let user_agent = extra
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("user-agent"))
        .map_or(user_agent, |(_, v)| *v);
    let Ok(u) = Url::parse(url) else {
        return Vec::new();
    };
    let mut target = u.path().to_string();
    if let Some(q) = u.query() {
        target.push('?');
        target.push_str(q);
    }
    let host = match u.port() {
        Some(p) => format!("{}:{p}", u.host_str().unwrap_or("")),
        None => u.host_str().unwrap_or("").to_string(),
    };
    let mut head = format!(
        "GET {target} HTTP/1.1\r\nhost: {host}\r\nuser-agent: {user_agent}\r\naccept: */*\r\naccept-encoding: gzip, br, deflate\r\n"
    );
    for (name, value) in extra
        .iter()
        .filter(|(n, _)| !n.eq_ignore_ascii_case("user-agent"))
    {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.into_bytes()
}

/// The status line and header fields of a response, without the fields
/// that describe the body's transfer (the archive keeps it decoded and
/// says its length).
fn response_head(resp: &reqwest::Response) -> Vec<u8> {
    let version = match resp.version() {
        reqwest::Version::HTTP_10 => "HTTP/1.0",
        // HTTP/2 and 3 are written as 1.1: WARC readers parse that line.
        _ => "HTTP/1.1",
    };
    let status = resp.status();
    let mut h = format!(
        "{version} {} {}\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or("")
    )
    .into_bytes();
    for (name, value) in resp.headers() {
        if matches!(
            name.as_str(),
            "content-encoding" | "transfer-encoding" | "content-length"
        ) {
            continue;
        }
        h.extend_from_slice(name.as_str().as_bytes());
        h.extend_from_slice(b": ");
        h.extend_from_slice(value.as_bytes());
        h.extend_from_slice(b"\r\n");
    }
    h
}

impl Fetcher for HttpFetcher {
    fn get<'a>(&'a self, url: &'a str) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>> {
        Box::pin(self.fetch(url, true, None))
    }

    fn get_any<'a>(&'a self, url: &'a str) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>> {
        Box::pin(self.fetch(url, false, None))
    }

    fn get_with<'a>(
        &'a self,
        url: &'a str,
        any: bool,
        opts: &'a RequestOptions,
    ) -> Pin<Box<dyn Future<Output = Response> + Send + 'a>> {
        Box::pin(self.fetch(url, !any, Some(opts)))
    }

    fn guard(&self) -> Option<Arc<AddressGuard>> {
        Some(self.guard.clone())
    }
}

/// Whether a response is a redirect, and where to (resolved against `from`,
/// without its fragment). `Err` carries why the Location is unusable.
pub fn redirect_target(from: &str, r: &Response) -> Option<Result<Url, String>> {
    if !matches!(r.status, 301 | 302 | 303 | 307 | 308) || r.is_transport_error() {
        return None;
    }
    let location = r.location.as_deref()?;
    Some(
        Url::parse(from)
            .and_then(|base| base.join(location))
            .map(|mut u| {
                u.set_fragment(None);
                u
            })
            .map_err(|e| format!("bad Location {location:?}: {e}")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_checked_and_secrets_have_their_own_keys() {
        assert!(check_header("Accept-Language", "de-DE, de;q=0.9").is_ok());
        assert!(check_header("X Bad", "v").is_err());
        assert!(check_header("Cookie", "a=b")
            .unwrap_err()
            .contains("cookies"));
        assert!(check_header("X-Ok", "line\nbreak").is_err());
    }

    #[test]
    fn redirect_targets_resolve_and_bad_ones_say_why() {
        let r = |status, loc: &str| Response {
            status,
            location: Some(loc.to_string()),
            ..Response::default()
        };
        let t = redirect_target("http://a.test/x/y", &r(301, "../z#frag"));
        assert_eq!(
            t.and_then(Result::ok).map(|u| u.to_string()),
            Some("http://a.test/z".to_string())
        );
        assert!(redirect_target("http://a.test/", &r(200, "/z")).is_none());
        assert!(matches!(
            redirect_target("http://a.test/", &r(302, "http://[::1")),
            Some(Err(_))
        ));
    }
}
