//! robots.txt: fetching rules, matching, Crawl-delay and Sitemap lines.
//!
//! RFC 9309 status rules: 2xx → parse; 4xx → everything allowed; 5xx or no
//! answer → nothing allowed for now, retried later. At most 500 KiB is parsed.
//! Cached per host for at most 24 h.
//!
//! The file is parsed once per host (the robotstxt crate's parser, Google's
//! grammar) into the rules of our group and of `*`; a URL is then matched
//! against those rules with Google's semantics (longest match wins, Allow on
//! a tie, a group naming us replaces `*`), but in bounded time: a wildcard
//! pattern runs over the path as a bit set of reachable positions, so one
//! rule costs its length × (path length / 64) word operations whatever its
//! `*`s (the crate's own matcher reparsed the file per URL and took 48 s of
//! CPU for one 811-byte rule of `*`s against a 1,000-character URL). A
//! match whose bound is long runs on the blocking pool
//! ([`Robots::allowed_off_thread`]), never on the async threads.

use robotstxt::{get_path_params_query, parse_robotstxt, RobotsParseHandler};

/// Largest robots.txt body parsed (RFC 9309 asks for at least 500 KiB).
pub(crate) const MAX_ROBOTS_BYTES: usize = 512 * 1024;

/// Longest path matched, in bytes: a longer path is matched on its first
/// this many bytes (a pattern longer than that cannot match it anyway).
const MAX_MATCH_PATH: usize = 16 * 1024;

/// The rules of one host.
#[derive(Debug, Clone)]
pub(crate) enum Robots {
    /// 4xx: no robots.txt, everything allowed.
    AllowAll,
    /// 5xx or unreachable: nothing allowed until retried.
    Unavailable,
    /// A parsed file.
    Rules {
        rules: Box<Rules>,
        crawl_delay: Option<f64>,
        sitemaps: Vec<String>,
    },
}

/// One Allow or Disallow line, its pattern %-escaped as the parser left it.
#[derive(Debug, Clone)]
struct Rule {
    allow: bool,
    pattern: Box<[u8]>,
    /// No `*` and no `$`: a plain prefix test.
    literal: bool,
}

/// The rules that can apply to our agent, compiled once per file.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rules {
    /// Lines of groups that name our agent.
    ours: Vec<Rule>,
    /// Lines of `*` groups.
    star: Vec<Rule>,
    /// Some group names our agent (even with no lines): `*` no longer applies.
    named: bool,
    /// The group that applies, weighed once: its literal rules, and the
    /// bytes of its wildcard rules (see [`Rules::work_bound`]).
    literals: u64,
    wildcard_bytes: u64,
}

impl Robots {
    /// Rules from a fetch result for `agent` (the product token). `status` 0
    /// means no HTTP answer.
    pub(crate) fn from_response(status: u16, body: &[u8], agent: &str) -> Robots {
        match status {
            200..=299 => {
                let cut = &body[..body.len().min(MAX_ROBOTS_BYTES)];
                let body = String::from_utf8_lossy(cut);
                let mut d = Directives::new(agent);
                // The parser is a port of C++ code with internal unwraps; a
                // malformed file must not take the crawler down. On a panic
                // we allow everything, as for an unparseable file.
                let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    parse_robotstxt(&body, &mut d)
                }));
                if parsed.is_err() {
                    return Robots::AllowAll;
                }
                Robots::Rules {
                    crawl_delay: d.ours.or(d.star),
                    sitemaps: d.sitemaps,
                    rules: Box::new(d.rules.weighed()),
                }
            }
            400..=499 => Robots::AllowAll,
            _ => Robots::Unavailable,
        }
    }

    /// Whether the agent these rules were read for may fetch `url`.
    pub(crate) fn allowed(&self, url: &str) -> bool {
        match self {
            Robots::AllowAll => true,
            Robots::Unavailable => false,
            Robots::Rules { rules, .. } => rules.allowed(url),
        }
    }

    /// [`Robots::allowed`], with a match whose worst case is long (wildcard
    /// rules × a long path: more than [`INLINE_WORK`] word operations) run
    /// on the blocking pool, off the async threads that fetch and answer
    /// `/status`. Most matches are a few prefix tests and run in place.
    pub(crate) async fn allowed_off_thread(self: &std::sync::Arc<Self>, url: &str) -> bool {
        let heavy = match &**self {
            Robots::Rules { rules, .. } => rules.work_bound(url) > INLINE_WORK,
            _ => false,
        };
        if !heavy {
            return self.allowed(url);
        }
        let (robots, url) = (self.clone(), url.to_string());
        tokio::task::spawn_blocking(move || robots.allowed(&url))
            .await
            .unwrap_or(false)
    }

    pub(crate) fn crawl_delay(&self) -> Option<f64> {
        match self {
            Robots::Rules { crawl_delay, .. } => *crawl_delay,
            _ => None,
        }
    }

    pub(crate) fn sitemaps(&self) -> &[String] {
        match self {
            Robots::Rules { sitemaps, .. } => sitemaps,
            _ => &[],
        }
    }
}

/// Word operations a match may take on the async threads.
const INLINE_WORK: u64 = 20_000;

impl Rules {
    /// The rules with the applying group weighed (once per file).
    fn weighed(mut self) -> Rules {
        let group = if self.named { &self.ours } else { &self.star };
        let (literals, wildcards): (Vec<&Rule>, Vec<&Rule>) = group.iter().partition(|r| r.literal);
        self.literals = literals.len() as u64;
        self.wildcard_bytes = wildcards.iter().map(|r| r.pattern.len() as u64).sum();
        self
    }

    /// The most word operations matching `url` can take: each wildcard
    /// rule's length × the path's words (a literal rule is one test).
    fn work_bound(&self, url: &str) -> u64 {
        let words = (url.len().min(MAX_MATCH_PATH) / 64 + 1) as u64;
        self.literals + self.wildcard_bytes * words
    }

    fn allowed(&self, url: &str) -> bool {
        let path = get_path_params_query(url);
        let path = path.as_bytes();
        let path = &path[..path.len().min(MAX_MATCH_PATH)];
        let mut matcher = PathMatcher::new(path);
        let group = if self.named { &self.ours } else { &self.star };
        let (mut allow, mut disallow) = (-1i64, -1i64);
        for rule in group {
            let best = if rule.allow {
                &mut allow
            } else {
                &mut disallow
            };
            if rule.pattern.len() as i64 <= *best {
                continue; // cannot beat the longest match so far
            }
            if matcher.matches(rule) {
                *best = rule.pattern.len() as i64;
            } else if rule.allow {
                // Google: an Allow of '/dir/index.htm(l)' also allows '/dir/'.
                if let Some(dir) = index_dir(&rule.pattern) {
                    if path == dir {
                        *best = (*best).max(dir.len() as i64 + 1);
                    }
                }
            }
        }
        // An empty Disallow (priority 0) allows; a tie goes to Allow.
        !(disallow > 0 && disallow > allow)
    }
}

/// `/dir/` for an Allow pattern ending in `/index.htm…`.
fn index_dir(pattern: &[u8]) -> Option<&[u8]> {
    let slash = pattern.iter().rposition(|&b| b == b'/')?;
    pattern[slash..]
        .starts_with(b"/index.htm")
        .then(|| &pattern[..=slash])
}

/// Matches patterns against one path, reusing its buffers.
struct PathMatcher<'p> {
    path: &'p [u8],
    /// Positions 0..=len of the path reachable so far, as bits.
    reach: Vec<u64>,
    next: Vec<u64>,
    /// Per byte value, the positions of the path holding it (built on use).
    masks: Vec<Option<Box<[u64]>>>,
    /// Word operations done (the test's measure of bounded work).
    work: u64,
}

impl<'p> PathMatcher<'p> {
    fn new(path: &'p [u8]) -> Self {
        let words = path.len() / 64 + 1;
        PathMatcher {
            path,
            reach: vec![0; words],
            next: vec![0; words],
            masks: Vec::new(),
            work: 0,
        }
    }

    fn matches(&mut self, rule: &Rule) -> bool {
        if rule.literal {
            self.work += 1;
            return self.path.starts_with(&rule.pattern);
        }
        let n = self.path.len();
        self.reach.iter_mut().for_each(|w| *w = 0);
        self.reach[0] = 1;
        let pattern = &rule.pattern;
        for (i, &c) in pattern.iter().enumerate() {
            self.work += self.reach.len() as u64;
            if c == b'$' && i + 1 == pattern.len() {
                return self.reach[n / 64] >> (n % 64) & 1 == 1;
            }
            if c == b'*' {
                // Every position from the first reachable one on.
                let Some(first) = self.reach.iter().position(|&w| w != 0) else {
                    return false;
                };
                let low = self.reach[first].trailing_zeros();
                self.reach[first] = u64::MAX << low;
                self.reach[first + 1..]
                    .iter_mut()
                    .for_each(|w| *w = u64::MAX);
                continue;
            }
            // Position p advances to p + 1 where path[p] == c. (The masks
            // are made only for paths a wildcard rule is matched against.)
            if self.masks.is_empty() {
                self.masks.resize(256, None);
            }
            let mask = self.masks[c as usize].get_or_insert_with(|| byte_mask(self.path, c));
            let mut carry = 0u64;
            let mut any = 0u64;
            for ((next, &reach), &m) in self.next.iter_mut().zip(&self.reach).zip(mask.iter()) {
                let hit = reach & m;
                *next = (hit << 1) | carry;
                carry = hit >> 63;
                any |= *next;
            }
            std::mem::swap(&mut self.reach, &mut self.next);
            if any == 0 {
                return false;
            }
        }
        true
    }
}

/// The positions of `path` that hold `c`, as bits (one word more than the
/// path needs, so a match at its end can shift into the last position).
fn byte_mask(path: &[u8], c: u8) -> Box<[u64]> {
    let mut mask = vec![0u64; path.len() / 64 + 1];
    for (p, _) in path.iter().enumerate().filter(|(_, &b)| b == c) {
        mask[p / 64] |= 1 << (p % 64);
    }
    mask.into_boxed_slice()
}

/// Collects our group's and `*`'s rules, Crawl-delay (ours, else `*`) and
/// Sitemap lines, as Google's matcher reads groups.
struct Directives<'a> {
    agent: &'a str,
    /// Whether the current group names us / names `*`.
    group_us: bool,
    group_star: bool,
    in_agents: bool,
    ours: Option<f64>,
    star: Option<f64>,
    sitemaps: Vec<String>,
    rules: Rules,
}

impl<'a> Directives<'a> {
    fn new(agent: &'a str) -> Self {
        Directives {
            agent,
            group_us: false,
            group_star: false,
            in_agents: false,
            ours: None,
            star: None,
            sitemaps: Vec::new(),
            rules: Rules::default(),
        }
    }

    fn rule(&mut self, allow: bool, value: &str) {
        self.in_agents = false;
        let rule = Rule {
            allow,
            literal: !value.contains(['*', '$']),
            pattern: value.as_bytes().into(),
        };
        if self.group_us {
            self.rules.ours.push(rule);
        } else if self.group_star {
            self.rules.star.push(rule);
        }
    }
}

/// The part of a User-agent line that is matched: up to the first character
/// outside `[A-Za-z_-]` ("Googlebot/2.1" is "Googlebot").
fn agent_token(ua: &str) -> &str {
    let end = ua
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '-' || c == '_'))
        .unwrap_or(ua.len());
    &ua[..end]
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
        // Google: '*' followed by a space and more is still the global group.
        if ua == "*" || ua.starts_with("* ") || ua.starts_with("*\t") {
            self.group_star = true;
        } else if agent_token(ua).eq_ignore_ascii_case(agent_token(self.agent)) {
            self.group_us = true;
            self.rules.named = true;
        }
    }
    fn handle_allow(&mut self, _line: u32, value: &str) {
        self.rule(true, value);
    }
    fn handle_disallow(&mut self, _line: u32, value: &str) {
        self.rule(false, value);
    }
    fn handle_sitemap(&mut self, _line: u32, value: &str) {
        self.in_agents = false;
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

#[cfg(test)]
mod tests;
