//! Cookies from a Netscape cookie file, the format curl (`-c`, `-b`) and
//! wget (`--save-cookies`, `--load-cookies`) read and write: one cookie per
//! line, seven tab-separated fields (domain, include subdomains, path,
//! secure, expiry, name, value); `#` comments, and `#HttpOnly_` before the
//! domain of an HTTP-only cookie. A request gets the cookies whose domain,
//! path, scheme and expiry match it, as one `Cookie` header. The values
//! never reach logs, the store, the archive or exports.

use std::path::Path;

/// One cookie of the file.
#[derive(Clone, PartialEq, Eq)]
struct Cookie {
    domain: String,
    subdomains: bool,
    path: String,
    secure: bool,
    /// Seconds since the epoch; 0: a session cookie (never expires here).
    expires: u64,
    name: String,
    value: String,
}

/// The cookies of a file.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct CookieJar {
    cookies: Vec<Cookie>,
}

impl std::fmt::Debug for CookieJar {
    // Names only: values are secrets.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.cookies.iter().map(|c| c.name.as_str()).collect();
        write!(f, "CookieJar({names:?})")
    }
}

impl CookieJar {
    /// Reads a cookie file; a line that is not a cookie is an error naming
    /// its number (values are not repeated in the message).
    pub fn load(path: &Path) -> Result<CookieJar, String> {
        let text = crate::limits::read_capped_text(path, crate::limits::MAX_COOKIE_BYTES)
            .map_err(|e| format!("cookie file: {e}"))?;
        CookieJar::parse(&text).map_err(|line| {
            format!(
                "{}:{line}: not a cookie line (seven tab-separated fields: domain, \
                 subdomains TRUE/FALSE, path, secure TRUE/FALSE, expiry, name, value)",
                path.display()
            )
        })
    }

    /// Parses the file's text; `Err(line number)` for a bad line.
    pub fn parse(text: &str) -> Result<CookieJar, usize> {
        let mut cookies = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_end_matches('\r');
            let line = match line.strip_prefix("#HttpOnly_") {
                Some(rest) => rest,
                None if line.trim().is_empty() || line.starts_with('#') => continue,
                None => line,
            };
            let f: Vec<&str> = line.split('\t').collect();
            let flag = |s: &str| s.eq_ignore_ascii_case("TRUE");
            let (Some(expires), true) =
                (f.get(4).and_then(|e| e.trim().parse().ok()), f.len() == 7)
            else {
                return Err(i + 1);
            };
            cookies.push(Cookie {
                domain: f[0].trim_start_matches('.').to_ascii_lowercase(),
                subdomains: flag(f[1]) || f[0].starts_with('.'),
                path: if f[2].is_empty() {
                    "/".into()
                } else {
                    f[2].into()
                },
                secure: flag(f[3]),
                expires,
                name: f[5].to_string(),
                value: f[6].to_string(),
            });
        }
        Ok(CookieJar { cookies })
    }

    /// Cookies in the file.
    pub fn len(&self) -> usize {
        self.cookies.len()
    }

    /// Whether the file had none.
    pub fn is_empty(&self) -> bool {
        self.cookies.is_empty()
    }

    /// The `Cookie` header value for a request to `url` at `now` (seconds
    /// since the epoch), if any cookie matches.
    pub fn header_for(&self, url: &url::Url, now: u64) -> Option<String> {
        let host = url.host_str()?.to_ascii_lowercase();
        let path = url.path();
        let https = url.scheme() == "https";
        let pairs: Vec<String> = self
            .cookies
            .iter()
            .filter(|c| {
                let domain =
                    host == c.domain || (c.subdomains && host.ends_with(&format!(".{}", c.domain)));
                let path_ok = path == c.path
                    || (path.starts_with(&c.path)
                        && (c.path.ends_with('/') || path[c.path.len()..].starts_with('/')));
                domain && path_ok && (!c.secure || https) && (c.expires == 0 || c.expires > now)
            })
            .map(|c| format!("{}={}", c.name, c.value))
            .collect();
        (!pairs.is_empty()).then(|| pairs.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# Netscape HTTP Cookie File\n\
        .shop.test\tTRUE\t/\tFALSE\t0\tsession\tabc\n\
        #HttpOnly_shop.test\tFALSE\t/account\tFALSE\t4102444800\tlogin\tsecret\n\
        shop.test\tFALSE\t/\tTRUE\t0\tsecure_only\tx\n\
        shop.test\tFALSE\t/\tFALSE\t1000\texpired\ty\n\
        other.test\tFALSE\t/\tFALSE\t0\tforeign\tz\n";

    fn url(u: &str) -> url::Url {
        url::Url::parse(u).expect("url")
    }

    #[test]
    fn cookies_match_domain_path_scheme_and_expiry() {
        let jar = CookieJar::parse(FILE).expect("parse");
        assert_eq!(jar.len(), 5);
        let now = 2_000_000_000;
        assert_eq!(
            jar.header_for(&url("http://shop.test/account/orders"), now)
                .as_deref(),
            Some("session=abc; login=secret")
        );
        assert_eq!(
            jar.header_for(&url("http://www.shop.test/"), now)
                .as_deref(),
            Some("session=abc"),
            "subdomains only where the file says so"
        );
        assert_eq!(
            jar.header_for(&url("https://shop.test/accounts"), now)
                .as_deref(),
            Some("session=abc; secure_only=x"),
            "/accounts is not under /account"
        );
        assert_eq!(jar.header_for(&url("http://else.test/"), now), None);
        assert!(
            !format!("{jar:?}").contains("secret"),
            "values stay out of logs"
        );
    }

    #[test]
    fn a_bad_line_is_named_by_its_number() {
        assert_eq!(
            CookieJar::parse("# c\nshop.test\tFALSE\t/\n").err(),
            Some(2)
        );
        assert_eq!(
            CookieJar::parse("a\tFALSE\t/\tFALSE\tsoon\tn\tv\n").err(),
            Some(1)
        );
    }
}
