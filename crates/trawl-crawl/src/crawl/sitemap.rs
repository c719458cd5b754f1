//! Sitemaps (and sitemap indexes, gzip'd or not): their `<loc>` entries
//! become queued URLs of the seed that found them.

use std::io::Read;
use std::time::Duration;

use url::Url;

use super::fetch_task::done;
use super::pipeline::{outcome, FetchResult, Shared};
use super::seeds::Seed;
use crate::frontier::url::{check_page_url, host_key, normalize};
use crate::frontier::Lease;
use crate::store::{NewUrl, QueuedUrl, UrlKind};

/// Reads `<loc>` entries of a sitemap or sitemap index (gzip'd or not).
pub fn parse(body: &[u8]) -> (bool, Vec<String>) {
    let mut text = Vec::new();
    let bytes: &[u8] = if body.starts_with(&[0x1f, 0x8b]) {
        let mut dec = flate2::read::MultiGzDecoder::new(body).take(50 << 20);
        if dec.read_to_end(&mut text).is_err() {
            return (false, Vec::new());
        }
        &text
    } else {
        body
    };
    let s = String::from_utf8_lossy(bytes);
    let index = s.contains("<sitemapindex");
    let mut locs = Vec::new();
    let mut rest = &*s;
    while let Some(start) = rest.find("<loc>") {
        rest = &rest[start + 5..];
        let Some(end) = rest.find("</loc>") else {
            break;
        };
        let loc = rest[..end].trim().replace("&amp;", "&");
        if !loc.is_empty() {
            locs.push(loc);
        }
        rest = &rest[end + 6..];
        if locs.len() >= 50_000 {
            break;
        }
    }
    (index, locs)
}

pub(super) async fn fetch(
    shared: &Shared,
    lease: Lease,
    url: &Url,
    seed: &Seed,
    delay: Duration,
) -> FetchResult {
    let item = lease.item.clone();
    let r = shared.request(url, delay, false).await;
    let mut out = outcome(
        &item.url,
        if r.is_transport_error() { 0 } else { r.status },
        r.error.clone(),
    );
    out.bytes = r.body.len() as u64;
    let mut links = Vec::new();
    if (200..=299).contains(&r.status) && !r.is_transport_error() {
        let (index, locs) = parse(&r.body);
        for loc in locs {
            let Ok(u) = normalize(&loc, Some(url), &shared.rules) else {
                continue;
            };
            if !seed.in_scope(&u) || (!index && check_page_url(&u).is_err()) {
                continue;
            }
            links.push(NewUrl {
                host: host_key(&u),
                item: QueuedUrl {
                    url: u.to_string(),
                    depth: if index { 0 } else { 1 },
                    seed: item.seed,
                    attempt: 0,
                    kind: if index {
                        UrlKind::Sitemap
                    } else {
                        UrlKind::Page
                    },
                    priority: if index { 1.0 } else { 0.5 },
                    features: None,
                },
            });
        }
    }
    done(lease, out, links, false, delay)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitemap_parsing() {
        let xml = b"<?xml version=\"1.0\"?><urlset><url><loc> http://a.test/1?x=1&amp;y=2 </loc></url><url><loc>http://a.test/2</loc></url></urlset>";
        assert_eq!(
            parse(xml),
            (
                false,
                vec![
                    "http://a.test/1?x=1&y=2".to_string(),
                    "http://a.test/2".to_string()
                ]
            )
        );
        let idx =
            b"<sitemapindex><sitemap><loc>http://a.test/s1.xml.gz</loc></sitemap></sitemapindex>";
        assert!(parse(idx).0);
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, xml).unwrap_or_default();
        let gz = enc.finish().unwrap_or_default();
        assert_eq!(parse(&gz).1.len(), 2);
        assert_eq!(parse(b"\x1f\x8bgarbage"), (false, vec![]));
    }
}
