//! URL normalisation and the cheap per-URL checks of the frontier: scope,
//! length, non-HTML extensions and crawler traps. Normalising before the
//! seen-set is what keeps `HTTP://Example.com:80/a/./b#x` and
//! `http://example.com/a/b` from being crawled twice.

use url::Url;

/// Why a URL is not crawled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum Rejected {
    #[error("not a valid URL: {0}")]
    /// Not a URL.
    Invalid(String),
    #[error("scheme {0} is not http(s)")]
    /// Not http or https.
    Scheme(String),
    #[error("longer than {0} bytes")]
    /// Longer than `crawl.max_url_len`.
    TooLong(usize),
    #[error("not HTML by its extension ({0})")]
    /// A file type that is not a page.
    NotHtml(String),
    #[error("crawler trap: {0}")]
    /// A URL pattern that never ends (calendars, repeated path segments).
    Trap(&'static str),
}

/// Normalisation settings.
#[derive(Debug, Clone)]
pub struct UrlRules {
    /// Query parameters removed: exact names, or prefixes ending in `*`.
    pub strip_params: Vec<String>,
    /// Sort query parameters (so permutations are one URL).
    pub sort_query: bool,
    /// URLs longer than this are rejected.
    pub max_len: usize,
}

impl Default for UrlRules {
    fn default() -> Self {
        UrlRules {
            strip_params: [
                "utm_*", "gclid", "fbclid", "msclkid", "mc_cid", "mc_eid", "_ga", "yclid",
                "srsltid",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            sort_query: true,
            max_len: 2048,
        }
    }
}

impl UrlRules {
    fn strips(&self, name: &str) -> bool {
        self.strip_params.iter().any(|p| match p.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => name == p,
        })
    }
}

/// Extensions that are never HTML pages.
const NON_HTML: &[&str] = &[
    "jpg", "jpeg", "png", "gif", "webp", "svg", "ico", "bmp", "tif", "tiff", "avif", "pdf", "zip",
    "gz", "tgz", "bz2", "xz", "7z", "rar", "tar", "exe", "dmg", "msi", "apk", "iso", "bin", "mp3",
    "mp4", "m4a", "m4v", "avi", "mov", "wmv", "flv", "webm", "ogg", "wav", "flac", "css", "js",
    "mjs", "json", "woff", "woff2", "ttf", "otf", "eot", "doc", "docx", "xls", "xlsx", "ppt",
    "pptx", "csv", "rss", "atom", "xml",
];

/// Parses `raw` (relative to `base` if given) and normalises it: lower-case
/// scheme and host (the url crate), no default port, no fragment, dot
/// segments resolved, tracking parameters removed, query sorted.
pub(crate) fn normalize(raw: &str, base: Option<&Url>, rules: &UrlRules) -> Result<Url, Rejected> {
    let raw = raw.trim();
    let parsed = match base {
        Some(b) => b.join(raw),
        None => Url::parse(raw),
    }
    .map_err(|e| Rejected::Invalid(format!("{raw}: {e}")))?;
    let mut url = parsed;
    match url.scheme() {
        "http" | "https" => {}
        other => return Err(Rejected::Scheme(other.to_string())),
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(Rejected::Invalid(format!("{raw}: no host")));
    }
    url.set_fragment(None);
    if url.query().is_some() {
        let mut pairs: Vec<(String, String)> = url
            .query_pairs()
            .filter(|(k, _)| !rules.strips(k))
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        if rules.sort_query {
            pairs.sort();
        }
        if pairs.is_empty() {
            url.set_query(None);
        } else {
            url.query_pairs_mut().clear().extend_pairs(pairs);
        }
    }
    let len = url.as_str().len();
    if len > rules.max_len {
        return Err(Rejected::TooLong(rules.max_len));
    }
    Ok(url)
}

/// Rejects URLs that are not pages (by extension) or look like traps.
pub(crate) fn check_page_url(url: &Url) -> Result<(), Rejected> {
    let path = url.path();
    if let Some(ext) = path
        .rsplit('/')
        .next()
        .and_then(|last| last.rsplit_once('.'))
        .map(|(_, e)| e)
    {
        let ext = ext.to_ascii_lowercase();
        if NON_HTML.contains(&ext.as_str()) {
            return Err(Rejected::NotHtml(ext));
        }
    }
    check_trap(url)
}

/// Trap guards: a path segment repeated 3+ times (`/a/b/a/b/a/`), very deep
/// paths, calendar pages far from today, and query strings with many
/// parameters (faceted search permutations).
pub(crate) fn check_trap(url: &Url) -> Result<(), Rejected> {
    let segments: Vec<&str> = url.path().split('/').filter(|s| !s.is_empty()).collect();
    if segments.len() > 30 {
        return Err(Rejected::Trap("path deeper than 30 segments"));
    }
    for (i, s) in segments.iter().enumerate() {
        if segments[i..].iter().filter(|t| *t == s).count() >= 3 {
            return Err(Rejected::Trap("a path segment repeats 3 or more times"));
        }
    }
    if url.query_pairs().count() > 8 {
        return Err(Rejected::Trap("more than 8 query parameters"));
    }
    // Calendars: a 4-digit year in the path or query far outside 1990..2100.
    let years = segments
        .iter()
        .copied()
        .chain(url.query_pairs().map(|_| ""))
        .filter(|s| s.len() == 4 && s.bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|s| s.parse::<u32>().ok());
    for y in years {
        if !(1990..=2100).contains(&y)
            && (1000..=9999).contains(&y)
            && looks_like_calendar(&segments)
        {
            return Err(Rejected::Trap("calendar page far from today"));
        }
    }
    for (k, v) in url.query_pairs() {
        let k = k.to_ascii_lowercase();
        if matches!(k.as_str(), "year" | "yr" | "date" | "month") {
            if let Some(y) = v.get(..4).and_then(|y| y.parse::<u32>().ok()) {
                if !(1990..=2100).contains(&y) {
                    return Err(Rejected::Trap("calendar page far from today"));
                }
            }
        }
    }
    Ok(())
}

fn looks_like_calendar(segments: &[&str]) -> bool {
    segments.iter().any(|s| {
        let s = s.to_ascii_lowercase();
        s.contains("calendar")
            || s.contains("events")
            || s.contains("archive")
            || s.contains("date")
    })
}

/// The host with its port when not the default: the politeness unit.
pub(crate) fn host_key(url: &Url) -> String {
    match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_string(),
        _ => String::new(),
    }
}

/// The registrable-ish domain: the last two labels (three for common
/// second-level country domains like `co.uk`). Used for `scope = "domain"`.
pub(crate) fn site_of(host: &str) -> &str {
    let host = host.split(':').next().unwrap_or(host);
    if host.parse::<std::net::IpAddr>().is_ok() {
        return host;
    }
    let labels: Vec<&str> = host.split('.').collect();
    let n = labels.len();
    if n <= 2 {
        return host;
    }
    let second = labels[n - 2];
    let keep = if matches!(second, "co" | "com" | "org" | "net" | "ac" | "gov" | "edu")
        && labels[n - 1].len() == 2
    {
        3
    } else {
        2
    };
    let skip: usize = labels[..n - keep].iter().map(|l| l.len() + 1).sum();
    &host[skip..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        normalize(s, None, &UrlRules::default())
            .map(|u| u.to_string())
            .unwrap_or_else(|e| format!("ERR {e}"))
    }

    #[test]
    fn normalises() {
        assert_eq!(
            norm("HTTP://Example.COM:80/a/./b/../c#frag"),
            "http://example.com/a/c"
        );
        assert_eq!(norm("https://example.com:443/"), "https://example.com/");
        assert_eq!(
            norm("https://x.org/p?utm_source=a&b=2&a=1&gclid=z"),
            "https://x.org/p?a=1&b=2"
        );
        assert_eq!(norm("https://x.org/p?utm_medium=x"), "https://x.org/p");
        assert!(norm("mailto:a@b.c").starts_with("ERR"));
        assert!(norm("javascript:void(0)").starts_with("ERR"));
        let long = format!("https://x.org/{}", "a".repeat(3000));
        assert!(norm(&long).contains("longer than"));
    }

    #[test]
    fn joins_relative_links() {
        let base = Url::parse("http://127.0.0.2:8080/dir/page.html").ok();
        let u = normalize("../other?b=1&a=2", base.as_ref(), &UrlRules::default());
        assert_eq!(
            u.map(|u| u.to_string()).ok().as_deref(),
            Some("http://127.0.0.2:8080/other?a=2&b=1")
        );
    }

    #[test]
    fn traps_and_non_html() {
        let check = |s: &str| {
            Url::parse(s)
                .map_err(|e| Rejected::Invalid(e.to_string()))
                .and_then(|u| check_page_url(&u))
        };
        assert!(check("http://x.org/a/b/a/b/a/b").is_err());
        assert!(check("http://x.org/calendar/3024/01").is_err());
        assert!(check("http://x.org/events?year=2600").is_err());
        assert!(check("http://x.org/photo.JPG").is_err());
        assert!(check("http://x.org/blog/2024/05/post").is_ok());
        assert!(check("http://x.org/a/b/c").is_ok());
    }

    #[test]
    fn hosts_and_sites() {
        let u = Url::parse("http://127.0.0.2:8080/x").ok();
        assert_eq!(u.as_ref().map(host_key).as_deref(), Some("127.0.0.2:8080"));
        assert_eq!(site_of("www.news.example.co.uk"), "example.co.uk");
        assert_eq!(site_of("blog.example.com"), "example.com");
        assert_eq!(site_of("127.0.0.2:8080"), "127.0.0.2");
    }
}
