//! The table a crawl prints when it ends (`--once` at an empty queue, or a
//! signal), as Scrapy prints its stats: pages, records by type, errors by
//! kind, bytes, revisits and time, so a run's result is on the terminal
//! without a second command.

use std::fmt::Write as _;

use trawl_crawl::Snapshot;

/// `1234567` as `1,234,567`.
fn n(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in the largest unit that keeps a number above 1.
fn bytes(v: u64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"];
    let mut x = v as f64;
    let mut u = 0;
    while x >= 1000.0 && u < units.len() - 1 {
        x /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{v} B")
    } else {
        format!("{x:.1} {}", units[u])
    }
}

/// The non-zero `(label, count)` pairs joined with ` · `, or "none".
fn parts(items: &[(&str, u64)]) -> String {
    let kept: Vec<String> = items
        .iter()
        .filter(|(_, v)| *v > 0)
        .map(|(k, v)| format!("{k} {}", n(*v)))
        .collect();
    if kept.is_empty() {
        "none".into()
    } else {
        kept.join(" · ")
    }
}

/// The end-of-crawl table.
pub fn summary(s: &Snapshot, why: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "trawl: crawl ended after {:.1} s ({why})",
        s.uptime_secs
    );
    let rows: Vec<(&str, String)> = vec![
        (
            "pages fetched",
            format!(
                "{} ({})",
                n(s.fetched),
                parts(&[
                    ("2xx", s.status_2xx),
                    ("3xx", s.status_3xx),
                    ("4xx", s.status_4xx),
                    ("5xx", s.status_5xx),
                    ("no answer", s.transport_errors),
                ])
            ),
        ),
        (
            "records",
            format!(
                "{} ({})",
                n(s.records_by_type.values().sum()),
                parts(
                    &s.records_by_type
                        .iter()
                        .map(|(k, v)| (k.as_str(), *v))
                        .collect::<Vec<_>>()
                )
            ),
        ),
        (
            "not stored",
            parts(&[
                ("robots.txt denied", s.robots_denied),
                ("extraction failed", s.extraction_errors),
                ("not HTML or too large", s.skipped),
                ("page budget spent", s.budget_spent),
                ("noindex", s.noindex),
                ("challenge or block pages", s.blocked_by_site),
                ("near-duplicates (stored, marked)", s.duplicates),
                ("host stopped", s.host_stopped_urls),
                ("panics", s.panics),
            ]),
        ),
        (
            "links left out",
            parts(&[
                ("by URL patterns", s.excluded),
                ("over the page's link cap", s.over_page_cap),
                ("over the host's queue room", s.over_host_cap),
                ("sitemap entries", s.sitemap_left_out),
            ]),
        ),
        ("retries", n(s.retries)),
        (
            "revisits",
            format!(
                "{} ({})",
                n(s.revisits),
                parts(&[
                    ("not modified", s.not_modified),
                    ("unchanged", s.unchanged),
                    ("new versions", s.versions),
                ])
            ),
        ),
        ("bytes received", bytes(s.bytes)),
        ("pages/s", format!("{:.1}", s.pages_per_sec)),
    ];
    for (k, v) in rows {
        let _ = writeln!(out, "  {k:<16} {v}");
    }
    if let Some(h) = &s.harvest {
        let _ = writeln!(
            out,
            "  {:<16} {:.2} ({} relevant of {} judged)",
            "harvest rate",
            h.rate,
            n(h.relevant),
            n(h.judged)
        );
        if let Some(why) = &h.stopped {
            let _ = writeln!(out, "  {:<16} {why}", "stopped");
        }
    }
    if let Some(e) = &s.last_error {
        let _ = writeln!(out, "  {:<16} {e}", "last error");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_what_happened() {
        let s = Snapshot {
            uptime_secs: 12.34,
            fetched: 1234,
            status_2xx: 1200,
            status_4xx: 34,
            bytes: 5_600_000,
            records_by_type: [("article".to_string(), 900), ("listing".to_string(), 280)]
                .into_iter()
                .collect(),
            ..Snapshot::default()
        };
        let t = summary(&s, "the queue is empty");
        assert!(t.contains("after 12.3 s (the queue is empty)"), "{t}");
        assert!(t.contains("1,234 (2xx 1,200 · 4xx 34)"), "{t}");
        assert!(t.contains("1,180 (article 900 · listing 280)"), "{t}");
        assert!(t.contains("5.6 MB"), "{t}");
        assert!(t.contains("links left out   none"), "{t}");
    }
}
