//! robots.txt: fetching rules, matching (Google's matcher, via the robotstxt
//! crate), Crawl-delay and Sitemap lines.
//!
//! RFC 9309 status rules: 2xx → parse; 4xx → everything allowed; 5xx or no
//! answer → nothing allowed for now, retried later. At most 500 KiB is parsed.
//! Cached per host for at most 24 h.

use robotstxt::{parse_robotstxt, DefaultMatcher, RobotsParseHandler};

/// Largest robots.txt body parsed (RFC 9309 asks for at least 500 KiB).
pub const MAX_ROBOTS_BYTES: usize = 512 * 1024;

/// The rules of one host.
#[derive(Debug, Clone)]
pub enum Robots {
    /// 4xx: no robots.txt, everything allowed.
    AllowAll,
    /// 5xx or unreachable: nothing allowed until retried.
    Unavailable,
    /// A parsed file.
    Rules {
        body: String,
        crawl_delay: Option<f64>,
        sitemaps: Vec<String>,
    },
}

impl Robots {
    /// Rules from a fetch result. `status` 0 means no HTTP answer.
    pub fn from_response(status: u16, body: &[u8], agent: &str) -> Robots {
        match status {
            200..=299 => {
                let cut = &body[..body.len().min(MAX_ROBOTS_BYTES)];
                let body = String::from_utf8_lossy(cut).into_owned();
                let (crawl_delay, sitemaps) = directives(&body, agent);
                Robots::Rules {
                    body,
                    crawl_delay,
                    sitemaps,
                }
            }
            400..=499 => Robots::AllowAll,
            _ => Robots::Unavailable,
        }
    }

    /// Whether `agent` may fetch `url`.
    pub fn allowed(&self, agent: &str, url: &str) -> bool {
        match self {
            Robots::AllowAll => true,
            Robots::Unavailable => false,
            Robots::Rules { body, .. } => {
                // The matcher is a port of C++ code with internal unwraps; a
                // malformed file must not take the crawler down. On a panic
                // we allow, as for an unparseable file.
                std::panic::catch_unwind(|| {
                    DefaultMatcher::default().one_agent_allowed_by_robots(body, agent, url)
                })
                .unwrap_or(true)
            }
        }
    }

    pub fn crawl_delay(&self) -> Option<f64> {
        match self {
            Robots::Rules { crawl_delay, .. } => *crawl_delay,
            _ => None,
        }
    }

    pub fn sitemaps(&self) -> &[String] {
        match self {
            Robots::Rules { sitemaps, .. } => sitemaps,
            _ => &[],
        }
    }
}

/// Collects Crawl-delay (for our agent's group, else `*`) and Sitemap lines.
struct Directives<'a> {
    agent: &'a str,
    /// Whether the current group names us / names `*`.
    group_us: bool,
    group_star: bool,
    in_agents: bool,
    ours: Option<f64>,
    star: Option<f64>,
    sitemaps: Vec<String>,
}

impl RobotsParseHandler for Directives<'_> {
    fn handle_robots_start(&mut self) {}
    fn handle_robots_end(&mut self) {}
    fn handle_user_agent(&mut self, _line: u32, ua: &str) {
        if !self.in_agents {
            self.group_us = false;
            self.group_star = false;
            self.in_agents = true;
        }
        let ua = ua.trim();
        if ua == "*" {
            self.group_star = true;
        } else if self
            .agent
            .to_ascii_lowercase()
            .starts_with(&ua.to_ascii_lowercase())
        {
            self.group_us = true;
        }
    }
    fn handle_allow(&mut self, _line: u32, _value: &str) {
        self.in_agents = false;
    }
    fn handle_disallow(&mut self, _line: u32, _value: &str) {
        self.in_agents = false;
    }
    fn handle_sitemap(&mut self, _line: u32, value: &str) {
        let v = value.trim();
        if !v.is_empty() {
            self.sitemaps.push(v.to_string());
        }
    }
    fn handle_unknown_action(&mut self, _line: u32, action: &str, value: &str) {
        self.in_agents = false;
        if action.eq_ignore_ascii_case("crawl-delay") {
            if let Ok(d) = value.trim().parse::<f64>() {
                if d.is_finite() && d >= 0.0 {
                    if self.group_us {
                        self.ours = Some(d);
                    } else if self.group_star {
                        self.star = Some(d);
                    }
                }
            }
        }
    }
}

fn directives(body: &str, agent: &str) -> (Option<f64>, Vec<String>) {
    let mut d = Directives {
        agent,
        group_us: false,
        group_star: false,
        in_agents: false,
        ours: None,
        star: None,
        sitemaps: Vec::new(),
    };
    // Same defence as in `allowed`.
    let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        parse_robotstxt(body, &mut d)
    }));
    if parsed.is_err() {
        return (None, Vec::new());
    }
    (d.ours.or(d.star), d.sitemaps)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nUser-agent: trawl\nDisallow: /no-trawl/\nCrawl-delay: 0.5\n\nSitemap: http://x.test/sitemap.xml\n";

    #[test]
    fn matches_our_group_and_reads_directives() {
        let r = Robots::from_response(200, BODY.as_bytes(), "trawl");
        assert!(!r.allowed("trawl", "http://x.test/no-trawl/a"));
        assert!(
            r.allowed("trawl", "http://x.test/private/a"),
            "our group replaces *"
        );
        assert!(!r.allowed("otherbot", "http://x.test/private/a"));
        assert_eq!(r.crawl_delay(), Some(0.5));
        assert_eq!(r.sitemaps(), ["http://x.test/sitemap.xml".to_string()]);
        let other = Robots::from_response(200, BODY.as_bytes(), "otherbot");
        assert_eq!(other.crawl_delay(), Some(2.0));
    }

    #[test]
    fn status_rules() {
        assert!(Robots::from_response(404, b"", "trawl").allowed("trawl", "http://x.test/a"));
        assert!(!Robots::from_response(503, b"", "trawl").allowed("trawl", "http://x.test/a"));
        assert!(!Robots::from_response(0, b"", "trawl").allowed("trawl", "http://x.test/a"));
    }

    #[test]
    fn garbage_does_not_panic() {
        let junk: Vec<u8> = (0..5000u32).map(|i| (i * 31 % 251) as u8).collect();
        let r = Robots::from_response(200, &junk, "trawl");
        let _ = r.allowed("trawl", "http://x.test/\u{1F600}/%%%"); // must not panic
        let r = Robots::from_response(
            200,
            "User-agent: *\nDisallow: /\u{0}\u{FFFF}*$$\n".as_bytes(),
            "trawl",
        );
        let _ = r.allowed("trawl", "http://x.test/");
    }
}
