//! The generated web the crawl benchmarks share: HOSTS hosts on
//! `PREFIX.1`, `PREFIX.2`, …, PAGES pages each (~7 KB of generated HTML:
//! navigation, article text, related links), no robots.txt.

use super::{html, status, Host};

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

pub fn page(host: usize, i: usize, pages: usize) -> String {
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
