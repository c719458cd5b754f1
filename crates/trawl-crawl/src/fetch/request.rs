//! What a single request carries beyond its URL: a revisit's validators
//! (a conditional request), a site's header fields, its cookies and
//! credentials (secret: sent, never archived or logged), its proxy.

/// The validators of a conditional request (RFC 9110 13.1): the last
/// response's `ETag` and `Last-Modified`, sent back as `If-None-Match` and
/// `If-Modified-Since`; a server with nothing new answers 304, no body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conditional {
    /// Sent as `If-None-Match`.
    pub etag: Option<String>,
    /// Sent as `If-Modified-Since`.
    pub last_modified: Option<String>,
}

impl Conditional {
    /// Whether there is anything to send.
    pub fn is_empty(&self) -> bool {
        self.etag.is_none() && self.last_modified.is_none()
    }

    /// The header fields, as (name, value); values a header cannot carry
    /// (control characters) are left out.
    fn fields(&self) -> Vec<(&'static str, &str)> {
        let ok = |v: &&String| v.bytes().all(|b| b >= 0x20 && b != 0x7f) && !v.is_empty();
        let mut f = Vec::new();
        if let Some(e) = self.etag.as_ref().filter(ok) {
            f.push(("if-none-match", e.as_str()));
        }
        if let Some(l) = self.last_modified.as_ref().filter(ok) {
            f.push(("if-modified-since", l.as_str()));
        }
        f
    }
}

/// Per-request options (see [`super::Fetcher::get_with`]).
#[derive(Clone, Default)]
pub struct RequestOptions {
    /// A revisit's validators.
    pub conditional: Option<Conditional>,
    /// Header fields added; a `User-Agent` here replaces the crawl's.
    pub headers: Vec<(String, String)>,
    /// Header fields that are secrets (`Cookie`, `Authorization`): sent,
    /// but kept out of the archived request, logs and errors.
    pub secret_headers: Vec<(String, String)>,
    /// A proxy for this request (`None`: the crawl's).
    pub proxy: Option<String>,
    /// The origin the request's seed names: a private address is reached
    /// only there (see [`super::guard`]); `None` for requests no seed makes.
    pub seed: Option<super::guard::Origin>,
}

impl std::fmt::Debug for RequestOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secret: Vec<&str> = self
            .secret_headers
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        f.debug_struct("RequestOptions")
            .field("conditional", &self.conditional)
            .field("headers", &self.headers)
            .field("secret_headers", &secret)
            .field("proxy", &self.proxy)
            .field("seed", &self.seed)
            .finish()
    }
}

impl RequestOptions {
    /// Whether the request is a plain GET.
    pub fn is_empty(&self) -> bool {
        self.conditional.as_ref().is_none_or(Conditional::is_empty)
            && self.headers.is_empty()
            && self.secret_headers.is_empty()
            && self.proxy.is_none()
            && self.seed.is_none()
    }

    /// The header fields that may be archived: the site's and the validators.
    pub(super) fn shown(&self) -> Vec<(&str, &str)> {
        let mut f: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        if let Some(c) = &self.conditional {
            f.extend(c.fields());
        }
        f
    }

    /// Every header field sent.
    pub(super) fn all(&self) -> Vec<(&str, &str)> {
        let mut f = self.shown();
        f.extend(
            self.secret_headers
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str())),
        );
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_sent_but_not_shown() {
        let o = RequestOptions {
            headers: vec![("X-Team".into(), "crawl".into())],
            secret_headers: vec![("Cookie".into(), "sid=hush".into())],
            conditional: Some(Conditional {
                etag: Some("\"e\"".into()),
                last_modified: None,
            }),
            proxy: None,
            seed: None,
        };
        assert_eq!(
            o.shown(),
            vec![("X-Team", "crawl"), ("if-none-match", "\"e\"")]
        );
        assert_eq!(o.all().len(), 3);
        assert!(!format!("{o:?}").contains("hush"));
    }
}
