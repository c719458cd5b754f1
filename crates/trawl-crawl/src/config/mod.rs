//! `config.toml`: every setting with its default, in two steps: serde reads
//! the file strictly (an unknown key is an error that names it), then
//! `Config::validate` checks values and names the bad key.
//! Defaults live here once; the CLI and the shipped `config.toml` use them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

mod api;
mod overrides;
mod render;
mod revisit;
mod sites;

pub(crate) use api::ApiConfig;
pub(crate) use render::RenderConfig;
pub(crate) use revisit::RevisitConfig;
pub(crate) use sites::SiteConfig;

use crate::focus::{Budget, Strategy};
use crate::seeds::{Mode, Scope};
use trawl_extract::{Algorithm, Options};

/// The whole configuration file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `[extract]`: extraction algorithm and limits.
    pub extract: ExtractConfig,
    /// `[crawl]`: the daemon: store, politeness, limits, budgets.
    pub crawl: CrawlConfig,
    /// `[focus]`: topic-focused crawling.
    pub focus: FocusConfig,
    /// `[cluster]`: many workers sharing one PostgreSQL frontier.
    pub cluster: ClusterConfig,
    /// `[warc]`: the WARC archive of every exchange.
    pub warc: WarcConfig,
    /// `[revisit]`: fetching pages again (freshness).
    pub revisit: RevisitConfig,
    /// `[render]`: pages that need JavaScript, rendered in Chromium.
    pub render: RenderConfig,
    /// `[api]`: the daemon's write endpoints, behind a token.
    pub api: ApiConfig,
    /// `[[site]]` tables: request settings per host or domain.
    #[serde(rename = "site")]
    pub sites: Vec<SiteConfig>,
}

/// `[warc]`: every HTTP exchange of the crawl (pages, redirect hops,
/// robots.txt, sitemaps) kept as WARC 1.1 request and response records in
/// `<data_dir>/warc/*.warc.gz`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WarcConfig {
    /// Write the archive.
    pub enabled: bool,
    /// Start a new file when one reaches this many MB.
    pub max_file_mb: u64,
}

impl Default for WarcConfig {
    fn default() -> Self {
        WarcConfig {
            enabled: true,
            max_file_mb: 1000,
        }
    }
}

/// `[cluster]`: many workers sharing one frontier in PostgreSQL. Off
/// unless `url` is set (or `trawl crawl --cluster URL` is given).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClusterConfig {
    /// `postgres://user@host:port/database`; empty: single-machine mode.
    pub url: String,
    /// This worker's name in the cluster; empty: `HOSTNAME-PID`.
    pub worker: String,
    /// How long a host claim lasts without renewal (database clock). A
    /// worker that dies holds its hosts this long; a worker that cannot
    /// renew stops fetching them before it ends.
    pub lease_secs: u64,
    /// Hosts one worker holds at once.
    pub max_hosts: usize,
    /// URLs read from the database per held host at a time, and
    /// completions a worker commits per transaction.
    pub batch: usize,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            url: String::new(),
            worker: String::new(),
            lease_secs: 30,
            max_hosts: 256,
            batch: 32,
        }
    }
}

/// A named topic, `[focus.topics.NAME]`, for seeds with `topic=NAME`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TopicConfig {
    /// Keywords and phrases with their weights.
    pub keywords: std::collections::BTreeMap<String, f32>,
    /// Texts of relevant pages, inline.
    pub examples: Vec<String>,
    /// Files holding texts of relevant pages.
    pub example_files: Vec<PathBuf>,
    /// Relevant pages to fetch (once; kept in the store) as examples.
    pub example_urls: Vec<String>,
    /// Texts of pages to steer away from, inline.
    pub negative_examples: Vec<String>,
    /// Files holding texts of pages to steer away from.
    pub negative_files: Vec<PathBuf>,
}

impl TopicConfig {
    /// The compiled topic, reading example files and taking the texts of
    /// example URLs from `fetched` (`None`: nothing to look for).
    fn compile(
        &self,
        key: &str,
        fetched: &std::collections::HashMap<String, String>,
    ) -> Result<Option<crate::focus::Topic>, ConfigError> {
        let read = |field: &str, files: &[PathBuf], inline: &[String]| {
            let mut texts = inline.to_vec();
            for f in files {
                let text = crate::limits::read_capped_text(f, crate::limits::MAX_EXAMPLE_BYTES)
                    .map_err(|e| ConfigError::Invalid {
                        path: PathBuf::from("config"),
                        key: format!("{key}.{field}"),
                        message: e.to_string(),
                    })?;
                texts.push(text);
            }
            Ok::<_, ConfigError>(texts)
        };
        let mut pos = read("example_files", &self.example_files, &self.examples)?;
        pos.extend(
            self.example_urls
                .iter()
                .filter_map(|u| fetched.get(u).cloned()),
        );
        let neg = read(
            "negative_files",
            &self.negative_files,
            &self.negative_examples,
        )?;
        let kw: Vec<(String, f32)> = self.keywords.iter().map(|(k, w)| (k.clone(), *w)).collect();
        let topic = crate::focus::Topic::new(&kw, &pos, &neg);
        Ok((!topic.is_empty()).then_some(topic))
    }

    fn validate(&self, key: &str) -> Result<(), (String, String)> {
        if let Some(u) = self
            .example_urls
            .iter()
            .find(|u| url::Url::parse(u).map_or(true, |u| !matches!(u.scheme(), "http" | "https")))
        {
            return Err((
                format!("{key}.example_urls"),
                format!("{u:?} is not an http(s) URL"),
            ));
        }
        if let Some((k, w)) = self
            .keywords
            .iter()
            .find(|(_, w)| !(w.is_finite() && **w > 0.0))
        {
            return Err((
                format!("{key}.keywords.{k}"),
                format!("weight {w} must be a positive number"),
            ));
        }
        for (field, files) in [
            ("example_files", &self.example_files),
            ("negative_files", &self.negative_files),
        ] {
            if let Some(missing) = files.iter().find(|p| !p.is_file()) {
                return Err((
                    format!("{key}.{field}"),
                    format!("{} is not a readable file", missing.display()),
                ));
            }
        }
        Ok(())
    }
}

/// `[focus]`: what the crawl looks for. Without keywords or examples the
/// crawl is unfocused.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FocusConfig {
    /// "focused" (highest expected relevance first) or "bfs" (shallowest first).
    pub strategy: Strategy,
    /// Keywords and phrases with their weights.
    pub keywords: std::collections::BTreeMap<String, f32>,
    /// Texts of relevant pages, inline, in files or at URLs.
    pub examples: Vec<String>,
    /// Files holding texts of relevant pages.
    pub example_files: Vec<PathBuf>,
    /// Relevant pages to fetch (once; kept in the store) as examples.
    pub example_urls: Vec<String>,
    /// Texts of pages to steer away from, inline or in files.
    pub negative_examples: Vec<String>,
    /// Files holding texts of pages to steer away from.
    pub negative_files: Vec<PathBuf>,
    /// A page with at least this relevance counts as relevant.
    pub threshold: f32,
    /// Step size of the online link model.
    pub learning_rate: f32,
    /// Fetch a URL only if its priority is at least this share of the best
    /// in flight (0 fills every free slot). Focused strategy only.
    pub patience: f32,
    /// "time" (default: patience compares with the fetches in flight) or
    /// "pages" (with the best URL queued anywhere). Focused strategy only.
    pub budget: Budget,
    /// Stop fetching new pages once the harvest over the last 200 judged
    /// pages of the run falls below this (0: never).
    pub stop_below: f32,
    /// A harvest-rate point is written every this many judged pages.
    pub series_every: u64,
    /// Named topics for seed files (`topic=NAME`).
    pub topics: std::collections::BTreeMap<String, TopicConfig>,
}

impl Default for FocusConfig {
    fn default() -> Self {
        FocusConfig {
            strategy: Strategy::Focused,
            keywords: Default::default(),
            examples: Vec::new(),
            example_files: Vec::new(),
            example_urls: Vec::new(),
            negative_examples: Vec::new(),
            negative_files: Vec::new(),
            threshold: 0.5,
            learning_rate: 0.05,
            patience: 0.5,
            budget: Budget::Time,
            stop_below: 0.0,
            series_every: 100,
            topics: Default::default(),
        }
    }
}

impl FocusConfig {
    /// The topic fields of `[focus]` itself. They repeat [`TopicConfig`]'s
    /// rather than `#[serde(flatten)]` it: serde's flatten does not work with
    /// `deny_unknown_fields`, which names a mistyped key.
    fn global(&self) -> TopicConfig {
        TopicConfig {
            keywords: self.keywords.clone(),
            examples: self.examples.clone(),
            example_files: self.example_files.clone(),
            example_urls: self.example_urls.clone(),
            negative_examples: self.negative_examples.clone(),
            negative_files: self.negative_files.clone(),
        }
    }

    /// The `[focus]` topic (`None`: none set). `fetched`: texts of example
    /// URLs.
    pub fn topic(
        &self,
        fetched: &std::collections::HashMap<String, String>,
    ) -> Result<Option<crate::focus::Topic>, ConfigError> {
        self.global().compile("focus", fetched)
    }

    /// Every example URL, of `[focus]` and of the named topics.
    pub fn example_urls(&self) -> Vec<String> {
        let mut out = self.example_urls.clone();
        for t in self.topics.values() {
            out.extend(t.example_urls.iter().cloned());
        }
        out.sort();
        out.dedup();
        out
    }

    /// The named topics that have something to look for.
    pub fn named_topics(
        &self,
        fetched: &std::collections::HashMap<String, String>,
    ) -> Result<std::collections::HashMap<String, crate::focus::Topic>, ConfigError> {
        let mut out = std::collections::HashMap::new();
        for (name, t) in &self.topics {
            if let Some(topic) = t.compile(&format!("focus.topics.{name}"), fetched)? {
                out.insert(name.clone(), topic);
            }
        }
        Ok(out)
    }
}

/// `[crawl]`: the daemon.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CrawlConfig {
    /// Where the sled store lives.
    pub data_dir: PathBuf,
    /// Directory of seed files (`*.txt`), re-read while running.
    pub seeds_dir: PathBuf,
    /// How often seed files are checked for changes, in seconds.
    pub seed_poll_secs: u64,
    /// User-Agent sent with every request; its first word is the robots.txt product token.
    pub user_agent: String,
    /// Fetches in flight at once, over all hosts.
    pub max_concurrent: usize,
    /// Fetches in flight at once per host.
    pub max_per_host: usize,
    /// Minimum delay between two requests to one host, in milliseconds,
    /// from the end of one to the start of the next.
    pub min_delay_ms: u64,
    /// Crawl-delay from robots.txt is honoured up to this many seconds.
    pub max_crawl_delay_secs: u64,
    /// Global request rate limit per second (0 = none).
    pub requests_per_second: u32,
    /// Connection timeout in seconds.
    pub connect_timeout_secs: u64,
    /// Whole-request timeout in seconds (robots.txt and sitemaps too).
    pub timeout_secs: u64,
    /// Redirect hops followed per URL (each hop waits its turn).
    pub max_redirects: usize,
    /// Bodies are cut at this many bytes (the outcome records the cut).
    pub max_body_bytes: u64,
    /// Attempts after the first for timeouts, resets and 5xx.
    pub max_retries: u8,
    /// First retry backoff in milliseconds (doubles per attempt).
    pub retry_base_ms: u64,
    /// Longest retry backoff in seconds.
    pub retry_max_secs: u64,
    /// Default link depth from a seed (a seed line's `depth=` overrides it).
    pub max_depth: u16,
    /// Stop after this many pages in total (0 = no limit).
    pub max_pages: u64,
    /// At most this many pages per host (0 = no limit).
    pub max_pages_per_host: u64,
    /// Links of one page queued at most (the rest are counted as left out).
    pub max_links_per_page: usize,
    /// URLs of one host queued at most before it earns more by being
    /// fetched: a host may have had `max_queued_per_host + queued_per_page
    /// × its pages fetched` URLs queued in all; the rest are counted as
    /// left out.
    pub max_queued_per_host: u64,
    /// More URLs a host may have queued for each of its pages fetched.
    pub queued_per_page: u64,
    /// `crawl --once`: the longest it waits with nothing in flight and no URL
    /// ending (every host held: robots.txt unreachable, Retry-After, a
    /// stopped host) before it stops; what waits stays queued for the next run.
    pub once_wait_secs: u64,
    /// Default scope of a seed: "host", "domain" or "any".
    pub scope: Scope,
    /// Default crawl mode of a seed: "article" or "ecommerce".
    pub mode: Mode,
    /// E-commerce mode: product pages a template is learned from.
    pub template_samples: usize,
    /// E-commerce mode: more product pages a new template is checked on
    /// before it is used (0 = no check).
    pub template_checks: usize,
    /// Keep each record's outgoing links (`trawl export --links` shows them).
    pub record_links: bool,
    /// Read robots-declared sitemaps and /sitemap.xml.
    pub sitemaps: bool,
    /// Query parameters dropped from URLs ("utm_*" is a prefix).
    pub strip_params: Vec<String>,
    /// Fetch private, loopback and link-local addresses whatever the seeds
    /// name (off: only hosts a seed names may be such addresses).
    pub allow_private: bool,
    /// Send every request through this proxy (`http://`, `https://`,
    /// `socks5://`, `socks5h://`; empty: none, or `HTTP_PROXY` and friends).
    pub proxy: String,
    /// Links are queued only when they match one of these regular
    /// expressions (empty: every link); a seed's `include=` adds its own.
    pub include: Vec<String>,
    /// Links matching one of these are never queued (a seed's `exclude=` adds its own).
    pub exclude: Vec<String>,
    /// Sort query parameters so permutations are one URL.
    pub sort_query: bool,
    /// Longest URL kept, in bytes.
    pub max_url_len: usize,
    /// robots.txt is re-fetched after this many hours.
    pub robots_cache_hours: u64,
    /// Status endpoint address (loopback); "" turns it off.
    pub status_addr: String,
    /// sled page cache, in MiB.
    pub store_cache_mb: u64,
    /// In-memory filter in front of the seen-set, in MiB.
    pub seen_filter_mb: u64,
    /// Seconds in-flight work may take to finish on SIGINT/SIGTERM.
    pub shutdown_grace_secs: u64,
    /// A host is stopped after this many page fetches in a row failed
    /// (transport errors, timeouts, 5xx, 429; a 404 is an answer, not a
    /// failure); 0 turns the budget off.
    pub host_error_budget: u32,
    /// How long a stopped host stays stopped; its URLs (set aside with a
    /// `host_stopped` outcome) are offered again after it, or at the next start.
    pub host_stop_cooldown_secs: u64,
}

impl Default for CrawlConfig {
    fn default() -> Self {
        let rules = crate::frontier::url::UrlRules::default();
        CrawlConfig {
            data_dir: PathBuf::from("storage"),
            seeds_dir: PathBuf::from("seeds"),
            seed_poll_secs: 10,
            user_agent: format!(
                "trawl/{} (+https://crates.io/crates/trawl)",
                env!("CARGO_PKG_VERSION")
            ),
            max_concurrent: 64,
            max_per_host: 1,
            min_delay_ms: 1000,
            max_crawl_delay_secs: 30,
            requests_per_second: 0,
            connect_timeout_secs: 10,
            timeout_secs: 30,
            max_redirects: 5,
            max_body_bytes: 10 * 1024 * 1024,
            max_retries: 3,
            retry_base_ms: 2000,
            retry_max_secs: 3600,
            max_depth: 5,
            max_pages: 0,
            max_pages_per_host: 0,
            max_links_per_page: 10_000,
            max_queued_per_host: 10_000,
            queued_per_page: 100,
            once_wait_secs: 120,
            scope: Scope::Host,
            mode: Mode::Article,
            template_samples: 4,
            template_checks: 4,
            record_links: true,
            sitemaps: true,
            strip_params: rules.strip_params,
            allow_private: false,
            proxy: String::new(),
            include: Vec::new(),
            exclude: Vec::new(),
            sort_query: rules.sort_query,
            max_url_len: rules.max_len,
            robots_cache_hours: 24,
            status_addr: "127.0.0.1:7171".into(),
            store_cache_mb: 16,
            seen_filter_mb: 32,
            shutdown_grace_secs: 5,
            host_error_budget: 50,
            host_stop_cooldown_secs: 3600,
        }
    }
}

/// `[extract]`: the extractor stage.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExtractConfig {
    /// Algorithm name: auto, cetd-tpc, cc, article-std, list-rank, segment.
    pub algorithm: Algorithm,
    /// Largest page accepted, in bytes.
    pub max_bytes: u64,
    /// Deepest element nesting kept; deeper elements are flattened.
    pub max_depth: usize,
    /// Most tokens (tags and text runs) parsed per page.
    pub max_nodes: usize,
    /// Wall-clock limit per page, in milliseconds (0 = none).
    pub time_limit_ms: u64,
    /// Worker threads for extraction (0 = all cores).
    pub threads: usize,
    /// Images that belong to the content in the records' Markdown.
    pub images: bool,
    /// Also keep the main content as clean HTML (`html` in each record).
    pub html: bool,
}

impl Default for ExtractConfig {
    fn default() -> Self {
        let o = Options::default();
        ExtractConfig {
            algorithm: o.algorithm,
            max_bytes: o.max_bytes as u64,
            max_depth: o.max_depth,
            max_nodes: o.max_nodes,
            time_limit_ms: o.time_limit.map_or(0, |d| d.as_millis() as u64),
            threads: 0,
            images: o.images,
            html: o.html,
        }
    }
}

/// The text of a config file, at most [`crate::limits::MAX_CONFIG_BYTES`].
fn read_config_file(path: &Path) -> Result<String, ConfigError> {
    use crate::limits::{read_capped_text, FileError, MAX_CONFIG_BYTES};
    read_capped_text(path, MAX_CONFIG_BYTES).map_err(|e| ConfigError::Read {
        path: path.to_path_buf(),
        source: match e {
            FileError::Io { source, .. } => source,
            FileError::TooLarge { max, .. } => std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("larger than {max} bytes, the most trawl reads for a config file"),
            ),
        },
    })
}

impl Config {
    /// Reads and validates a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        Config::parse(&read_config_file(path)?, path)
    }

    /// Parses and validates config text (`path` is for messages).
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let cfg: Config = toml::from_str(text).map_err(|e| match key_at(text, e.span()) {
            // A value of the wrong type or not one of the allowed names:
            // name the key, then what serde says is allowed.
            Some(key) => ConfigError::Invalid {
                path: path.to_path_buf(),
                key,
                message: e.message().trim().to_string(),
            },
            None => ConfigError::Parse {
                path: path.to_path_buf(),
                message: e.to_string(),
            },
        })?;
        cfg.validate(path)?;
        Ok(cfg)
    }

    fn validate(&self, path: &Path) -> Result<(), ConfigError> {
        let bad = |key: &str, message: String| ConfigError::Invalid {
            path: PathBuf::from(path),
            key: key.to_string(),
            message,
        };
        for (key, v, lo, hi) in self
            .ranges()
            .into_iter()
            .chain(self.render.ranges())
            .chain(self.api.ranges())
        {
            if !(lo..=hi).contains(&v) {
                return Err(bad(
                    key,
                    format!("{v} is out of range (allowed: {lo} to {hi})"),
                ));
            }
        }
        let f = &self.focus;
        if !(f.threshold > 0.0 && f.threshold <= 1.0) {
            return Err(bad("focus.threshold", "must be in (0, 1]".into()));
        }
        if !(f.learning_rate > 0.0 && f.learning_rate <= 1.0) {
            return Err(bad("focus.learning_rate", "must be in (0, 1]".into()));
        }
        if !(0.0..=1.0).contains(&f.patience) {
            return Err(bad("focus.patience", "must be in [0, 1]".into()));
        }
        if !(0.0..1.0).contains(&f.stop_below) {
            return Err(bad(
                "focus.stop_below",
                "must be in [0, 1) (0: never stop)".into(),
            ));
        }
        if f.series_every == 0 {
            return Err(bad("focus.series_every", "must be greater than 0".into()));
        }
        let named = f
            .topics
            .iter()
            .map(|(name, t)| (format!("focus.topics.{name}"), t.clone()));
        for (key, t) in std::iter::once(("focus".to_string(), f.global())).chain(named) {
            t.validate(&key).map_err(|(k, m)| bad(&k, m))?;
        }
        let c = &self.crawl;
        if c.user_agent
            .split_whitespace()
            .next()
            .is_none_or(|t| t.is_empty())
        {
            return Err(bad("crawl.user_agent", "must not be empty".into()));
        }
        if c.user_agent.bytes().any(|b| b < 0x20 || b == 0x7f) {
            return Err(bad(
                "crawl.user_agent",
                "must be one line without control characters (a header value)".into(),
            ));
        }
        check_status_addr(&c.status_addr, &self.api.token())
            .map_err(|m| bad("crawl.status_addr", m))?;
        if !c.proxy.is_empty() && !crate::fetch::is_proxy_url(&c.proxy) {
            return Err(bad(
                "crawl.proxy",
                format!(
                    "{:?} is not a proxy URL (http://, https://, socks5:// or socks5h://HOST:PORT)",
                    c.proxy
                ),
            ));
        }
        self.revisit.validate().map_err(|(k, m)| bad(k, m))?;
        for (i, site) in self.sites.iter().enumerate() {
            site.validate(i).map_err(|(k, m)| bad(&k, m))?;
        }
        for (key, list) in [("crawl.include", &c.include), ("crawl.exclude", &c.exclude)] {
            for re in list {
                regex::Regex::new(re)
                    .map_err(|e| bad(key, format!("{re:?} is not a regular expression: {e}")))?;
            }
        }
        Ok(())
    }

    /// Checks `crawl.status_addr` after a command-line override.
    pub fn validate_status_addr(&self) -> Result<(), ConfigError> {
        let token = self.api.token();
        check_status_addr(&self.crawl.status_addr, &token).map_err(|message| ConfigError::Invalid {
            path: PathBuf::from("command line"),
            key: "--status-addr".into(),
            message,
        })
    }

    /// Every number of the file with its allowed range: (key, value, min,
    /// max). Bounds keep durations, sizes and counts where the daemon can
    /// use them (no overflow, no allocation of the whole machine).
    fn ranges(&self) -> [(&'static str, u64, u64, u64); 37] {
        let (e, f, c, k) = (&self.extract, &self.focus, &self.crawl, &self.cluster);
        const DAY: u64 = 86_400;
        const GIB: u64 = 1 << 30;
        [
            ("extract.max_bytes", e.max_bytes, 1, GIB),
            ("extract.max_depth", e.max_depth as u64, 16, 100_000),
            ("extract.max_nodes", e.max_nodes as u64, 100, 1_000_000_000),
            ("extract.time_limit_ms", e.time_limit_ms, 0, 3_600_000),
            ("extract.threads", e.threads as u64, 0, 1024),
            ("focus.series_every", f.series_every, 1, 1_000_000_000),
            ("crawl.seed_poll_secs", c.seed_poll_secs, 1, DAY),
            ("crawl.max_concurrent", c.max_concurrent as u64, 1, 100_000),
            ("crawl.max_per_host", c.max_per_host as u64, 1, 64),
            ("crawl.min_delay_ms", c.min_delay_ms, 0, 3_600_000),
            ("crawl.max_crawl_delay_secs", c.max_crawl_delay_secs, 0, DAY),
            (
                "crawl.requests_per_second",
                u64::from(c.requests_per_second),
                0,
                1_000_000,
            ),
            (
                "crawl.connect_timeout_secs",
                c.connect_timeout_secs,
                1,
                3600,
            ),
            ("crawl.timeout_secs", c.timeout_secs, 1, 3600),
            ("crawl.max_redirects", c.max_redirects as u64, 0, 50),
            ("crawl.max_body_bytes", c.max_body_bytes, 1, GIB),
            ("crawl.max_retries", u64::from(c.max_retries), 0, 20),
            ("crawl.retry_base_ms", c.retry_base_ms, 1, 3_600_000),
            ("crawl.retry_max_secs", c.retry_max_secs, 1, 7 * DAY),
            ("crawl.template_samples", c.template_samples as u64, 2, 64),
            ("crawl.template_checks", c.template_checks as u64, 0, 64),
            ("cluster.lease_secs", k.lease_secs, 2, DAY),
            ("cluster.max_hosts", k.max_hosts as u64, 1, 100_000),
            ("cluster.batch", k.batch as u64, 1, 10_000),
            ("warc.max_file_mb", self.warc.max_file_mb, 1, 1_000_000),
            ("crawl.max_url_len", c.max_url_len as u64, 16, 65_536),
            ("crawl.robots_cache_hours", c.robots_cache_hours, 1, 24),
            ("crawl.store_cache_mb", c.store_cache_mb, 1, 65_536),
            ("crawl.seen_filter_mb", c.seen_filter_mb, 1, 4096),
            ("crawl.shutdown_grace_secs", c.shutdown_grace_secs, 0, 3600),
            (
                "crawl.host_error_budget",
                u64::from(c.host_error_budget),
                0,
                1_000_000,
            ),
            (
                "crawl.host_stop_cooldown_secs",
                c.host_stop_cooldown_secs,
                1,
                7 * 86_400,
            ),
            ("crawl.max_depth", u64::from(c.max_depth), 0, 1000),
            (
                "crawl.max_links_per_page",
                c.max_links_per_page as u64,
                1,
                1_000_000,
            ),
            (
                "crawl.max_queued_per_host",
                c.max_queued_per_host,
                1,
                1_000_000_000,
            ),
            ("crawl.queued_per_page", c.queued_per_page, 0, 1_000_000),
            ("crawl.once_wait_secs", c.once_wait_secs, 1, 7 * DAY),
        ]
    }

    /// The HTTP client's settings from `[crawl]`, the same for one machine
    /// and a cluster worker.
    pub fn fetch_config(&self) -> crate::fetch::FetchConfig {
        let c = &self.crawl;
        crate::fetch::FetchConfig {
            user_agent: c.user_agent.clone(),
            connect_timeout: std::time::Duration::from_secs(c.connect_timeout_secs),
            timeout: std::time::Duration::from_secs(c.timeout_secs),
            max_body_bytes: c.max_body_bytes,
            allow_private: c.allow_private,
            proxy: Some(c.proxy.clone()).filter(|p| !p.is_empty()),
        }
    }

    /// Extraction options from this config.
    pub fn extract_options(&self) -> Options {
        let e = &self.extract;
        Options::default()
            .with_algorithm(e.algorithm)
            .with_max_bytes(e.max_bytes as usize)
            .with_max_depth(e.max_depth)
            .with_max_nodes(e.max_nodes)
            .with_time_limit((e.time_limit_ms > 0).then(|| Duration::from_millis(e.time_limit_ms)))
            .with_images(e.images)
            .with_html(e.html)
    }
}

/// The dotted key (`crawl.scope`) whose value starts the byte span a TOML
/// error points at, when the span is a `key = value` line's value.
fn key_at(text: &str, span: Option<std::ops::Range<usize>>) -> Option<String> {
    let at = span?.start;
    let before = text.get(..at)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let (key, _) = text.get(line_start..at)?.split_once('=')?;
    let key = key.trim().trim_matches('"');
    if key.is_empty() || key.contains(['[', ']', '{', ',']) {
        return None;
    }
    let table = before[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && !l.starts_with("[["))
        .map(|l| l.trim_matches(['[', ']']).trim().to_string());
    Some(match table {
        Some(t) if !t.is_empty() => format!("{t}.{key}"),
        _ => key.to_string(),
    })
}

/// A socket address, or "" (no endpoint): a loopback one, or any when the
/// API token is set (every request off loopback then needs it).
fn check_status_addr(addr: &str, token: &str) -> Result<(), String> {
    if addr.is_empty() {
        return Ok(());
    }
    match addr.parse::<std::net::SocketAddr>() {
        Ok(a) if a.ip().is_loopback() || !token.is_empty() => Ok(()),
        Ok(_) => Err(
            "must be a loopback address unless api.token (or TRAWL_API_TOKEN) is set: \
             off loopback every request then needs the token"
                .into(),
        ),
        Err(e) => Err(format!("{addr:?}: {e}")),
    }
}

#[cfg(test)]
mod tests;

/// Why a configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        #[source]
        /// Why.
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    /// The file is not valid TOML or has a value of the wrong type.
    Parse {
        /// The file.
        path: PathBuf,
        /// What the parser said, with the line.
        message: String,
    },
    #[error("{path}: key `{key}`: {message}")]
    /// A key's value is out of its allowed range.
    Invalid {
        /// The file.
        path: PathBuf,
        /// The dotted key (`crawl.min_delay_ms`).
        key: String,
        /// The allowed range or values.
        message: String,
    },
}
