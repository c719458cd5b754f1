//! The webs the crawl benchmarks share: HOSTS hosts on `PREFIX.1`,
//! `PREFIX.2`, …, PAGES pages each, no robots.txt. Either generated (~7 KB
//! of HTML: navigation, article text, related links) or real pages (the
//! datasets' saved pages, their own links taken out and the generated
//! pages' links put in, so every crawler walks the same site).

use super::{html, status, Host, Reply};

const WORDS: &[&str] = &[
    "river", "market", "engine", "garden", "winter", "signal", "harbor", "village", "theory",
    "copper", "forest", "ticket", "mirror", "planet", "silver", "window", "bridge", "castle",
    "pepper", "rocket", "the", "of", "and", "a", "to", "in", "is", "that", "for", "with", "as",
    "on", "was", "by",
];

fn words(seed: u64, n: usize) -> String {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            WORDS[(x % WORDS.len() as u64) as usize]
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The links of page `i` on `host`: fifteen to sections, eight related.
fn links(host: usize, i: usize, pages: usize) -> (String, String) {
    let nav: String = (0..15)
        .map(|k| {
            format!(
                "<li><a href=\"/p{}\">Section {k}</a></li>",
                (k * 17) % pages
            )
        })
        .collect();
    let related: String = (1..=8)
        .map(|k| {
            format!(
                "<li><a href=\"/p{}\">{}</a></li>",
                (i + k * k) % pages,
                words((host * 1000 + i + k) as u64, 6)
            )
        })
        .collect();
    (nav, related)
}

pub fn page(host: usize, i: usize, pages: usize) -> String {
    let (nav, related) = links(host, i, pages);
    let paras: String = (0..9)
        .map(|k| {
            format!(
                "<p>{}.</p>",
                words((host * 100_000 + i * 10 + k) as u64, 110)
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>Page {i} of site {host}</title>\
         <meta name=description content=\"{}\"><style>body{{font:16px serif}}</style></head><body>\
         <header class=site-header><a href=/>Site {host}</a><nav><ul>{nav}</ul></nav></header>\
         <main><article><h1>Page {i} of site {host}</h1><p class=byline>By Writer {}</p>{paras}</article>\
         <aside class=related><h2>Related</h2><ul>{related}</ul></aside></main>\
         <footer class=site-footer><p>Copyright site {host}</p><a href=/privacy>Privacy</a></footer></body></html>",
        words(i as u64, 12),
        host % 7
    )
}

/// Starts the web: one loopback host per site, on `PREFIX.1` upwards.
pub fn generated_web(prefix: &str, hosts: usize, pages: usize) -> Vec<Host> {
    (0..hosts)
        .map(|h| {
            let ip = format!("{prefix}.{}", h + 1);
            Host::start(&ip, move |path, _| {
                if path == "/robots.txt" {
                    return status(404);
                }
                let i: usize = path.trim_start_matches("/p").parse().unwrap_or(0);
                if path != "/" && !path.starts_with("/p") || i >= pages {
                    return status(404);
                }
                html(&page(h, i, pages))
            })
        })
        .collect()
}

/// A saved page made part of the generated site: every `href=` and
/// `http-equiv=` of its own made inert (no crawler may leave loopback by
/// them, or lose time on their 404s), the page's generated links put in
/// at the start of its body.
pub fn real_page(saved: &[u8], host: usize, i: usize, pages: usize) -> Vec<u8> {
    InertPage::new(saved).with_links(host, i, pages)
}

/// A saved page with its own links made inert, and where its body opens:
/// made once when the web starts, so serving a page is one copy with the
/// site's links put in (the bench measures the crawler, not its server).
pub struct InertPage {
    bytes: Vec<u8>,
    body_at: usize,
}

impl InertPage {
    pub fn new(saved: &[u8]) -> InertPage {
        let mut out = Vec::with_capacity(saved.len() + 64);
        let mut at = 0;
        while at < saved.len() {
            let rest = &saved[at..];
            // The name, then `=` after any spaces.
            let inert = [&b"href"[..], b"http-equiv"].into_iter().find(|w| {
                rest.len() > w.len()
                    && rest[..w.len()].eq_ignore_ascii_case(w)
                    && rest[w.len()..]
                        .iter()
                        .find(|b| !b.is_ascii_whitespace())
                        .is_some_and(|&b| b == b'=')
            });
            match inert {
                Some(w) => {
                    out.extend_from_slice(b"data-x");
                    at += w.len();
                }
                None => {
                    out.push(saved[at]);
                    at += 1;
                }
            }
        }
        // Just inside `<body>`: a page's end may be inside an element left
        // open, hidden, or a script's string that says `</body>`.
        let body = out.windows(6).position(|w| {
            w.eq_ignore_ascii_case(b"<body>")
                || w[..5].eq_ignore_ascii_case(b"<body") && w[5].is_ascii_whitespace()
        });
        let body_at = body
            .and_then(|b| out[b..].iter().position(|&c| c == b'>').map(|e| b + e + 1))
            .unwrap_or(out.len());
        InertPage {
            bytes: out,
            body_at,
        }
    }

    /// Page `i` of site `host`: the saved bytes with the site's links at
    /// the start of the body.
    pub fn with_links(&self, host: usize, i: usize, pages: usize) -> Vec<u8> {
        let (nav, related) = links(host, i, pages);
        let block = format!("<nav><ul>{nav}</ul></nav><aside><ul>{related}</ul></aside>");
        let mut out = Vec::with_capacity(self.bytes.len() + block.len());
        out.extend_from_slice(&self.bytes[..self.body_at]);
        out.extend_from_slice(block.as_bytes());
        out.extend_from_slice(&self.bytes[self.body_at..]);
        out
    }
}

/// Starts a web of saved pages (`saved`, cycled): page `i` of host `h` is
/// `saved[(h * pages + i) % saved.len()]`, served as `text/html` with no
/// charset (the page's own declaration or its bytes tell it).
pub fn real_web(prefix: &str, hosts: usize, pages: usize, saved: Vec<Vec<u8>>) -> Vec<Host> {
    let saved: Vec<InertPage> = saved.into_iter().map(|p| InertPage::new(&p)).collect();
    let saved = std::sync::Arc::new(saved);
    (0..hosts)
        .map(|h| {
            let ip = format!("{prefix}.{}", h + 1);
            let saved = saved.clone();
            Host::start(&ip, move |path, _| {
                let i: usize = path.trim_start_matches("/p").parse().unwrap_or(0);
                if path == "/robots.txt" || path != "/" && !path.starts_with("/p") || i >= pages {
                    return status(404);
                }
                let Some(page) = saved.get((h * pages + i) % saved.len().max(1)) else {
                    return status(404);
                };
                Reply::Status(
                    200,
                    vec![("Content-Type".into(), "text/html".into())],
                    page.with_links(h, i, pages),
                )
            })
        })
        .collect()
}
