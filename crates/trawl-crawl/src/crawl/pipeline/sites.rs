//! How requests are sent to each host: the `[[site]]` table matching it
//! (by host, else by the longest matching domain) under the options of
//! the URL's seed line. Cookie files are read once; credentials are read
//! from the environment when a request is made, sent as basic auth, and
//! never written anywhere (the archive's copy of a request leaves them out).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use base64::Engine;

use crate::config::SiteConfig;
use crate::fetch::cookies::CookieJar;
use crate::fetch::{Conditional, RequestOptions};
use crate::record::now_secs;
use crate::seeds::{RequestSettings, Seed};

/// One `[[site]]` table, ready to match.
#[derive(Debug)]
struct Rule {
    host: Option<String>,
    domain: Option<String>,
    delay_ms: Option<u64>,
    concurrency: Option<usize>,
    settings: RequestSettings,
}

/// The crawl's request settings per site.
#[derive(Debug, Default)]
pub(crate) struct Sites {
    rules: Vec<Rule>,
    /// Cookie files read so far (a seed's may come while running).
    jars: Mutex<HashMap<PathBuf, Option<Arc<CookieJar>>>>,
    /// Requests in flight per host when nothing else says (`crawl.max_per_host`).
    default_concurrency: usize,
    /// Seed hosts with their own `concurrency=`.
    seed_concurrency: RwLock<HashMap<String, usize>>,
}

impl Sites {
    /// From the `[[site]]` tables and `crawl.max_per_host`; a cookie file
    /// that cannot be read or an environment variable that is not set is an
    /// error naming it.
    pub(crate) fn new(tables: &[SiteConfig], max_per_host: usize) -> Result<Sites, String> {
        let mut jars = HashMap::new();
        let mut rules = Vec::new();
        for (i, t) in tables.iter().enumerate() {
            if let Some(p) = &t.cookies {
                let jar = CookieJar::load(p).map_err(|e| format!("site[{i}].cookies: {e}"))?;
                jars.insert(p.clone(), Some(Arc::new(jar)));
            }
            if let Some(v) = &t.auth_env {
                if std::env::var_os(v).is_none() {
                    return Err(format!(
                        "site[{i}].auth_env: the environment variable {v} is not set \
                         (it should hold user:password)"
                    ));
                }
            }
            for (name, v) in &t.headers_env {
                if std::env::var_os(v).is_none() {
                    return Err(format!(
                        "site[{i}].headers_env: the environment variable {v} is not set \
                         (it should hold the value of {name})"
                    ));
                }
            }
            rules.push(Rule {
                host: t.host.as_ref().map(|h| h.trim().to_ascii_lowercase()),
                domain: t
                    .domain
                    .as_ref()
                    .map(|d| d.trim().trim_start_matches('.').to_ascii_lowercase()),
                delay_ms: t.delay_ms,
                concurrency: t.concurrency,
                settings: RequestSettings {
                    user_agent: t.user_agent.clone(),
                    headers: t.headers.clone().into_iter().collect(),
                    cookies: t.cookies.clone(),
                    auth_env: t.auth_env.clone(),
                    header_env: t.headers_env.clone().into_iter().collect(),
                    proxy: t.proxy.clone(),
                },
            });
        }
        Ok(Sites {
            rules,
            jars: Mutex::new(jars),
            default_concurrency: max_per_host.max(1),
            seed_concurrency: RwLock::default(),
        })
    }

    /// The table for `host` (`name[:port]`): the one naming the host, else
    /// the one with the longest domain the host is in.
    fn rule(&self, host: &str) -> Option<&Rule> {
        if self.rules.is_empty() {
            return None; // every request asks: no work without tables
        }
        let host = host.to_ascii_lowercase();
        let name = host.split(':').next().unwrap_or(&host);
        let in_domain = |d: &str| {
            name.strip_suffix(d)
                .is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
        };
        self.rules
            .iter()
            .find(|r| r.host.as_deref().is_some_and(|h| h == host || h == name))
            .or_else(|| {
                self.rules
                    .iter()
                    .filter(|r| r.domain.as_deref().is_some_and(in_domain))
                    .max_by_key(|r| r.domain.as_ref().map_or(0, String::len))
            })
    }

    /// The host's least time between requests from its `[[site]]` table.
    pub(crate) fn delay_ms(&self, host: &str) -> Option<u64> {
        self.rule(host).and_then(|r| r.delay_ms)
    }

    /// Notes the seeds' own `concurrency=` (for their own hosts).
    pub(crate) fn note_seeds<'a>(&self, seeds: impl IntoIterator<Item = &'a Seed>) {
        let Ok(mut m) = self.seed_concurrency.write() else {
            return;
        };
        for s in seeds {
            if let Some(n) = s.concurrency {
                m.insert(s.host.to_ascii_lowercase(), n);
            }
        }
    }

    /// How many requests to `host` may be in flight at once: a seed's own
    /// `concurrency=` for its host, else the host's `[[site]]` table's,
    /// else `crawl.max_per_host`.
    pub(crate) fn concurrency(&self, host: &str) -> usize {
        let seed = self.seed_concurrency.read().ok().and_then(|m| {
            if m.is_empty() {
                None
            } else {
                m.get(host).copied()
            }
        });
        seed.or_else(|| self.rule(host).and_then(|r| r.concurrency))
            .unwrap_or(self.default_concurrency)
    }

    fn jar(&self, path: &Path) -> Option<Arc<CookieJar>> {
        let mut jars = self.jars.lock().unwrap_or_else(|e| e.into_inner());
        jars.entry(path.to_path_buf())
            .or_insert_with(|| match CookieJar::load(path) {
                Ok(j) => Some(Arc::new(j)),
                Err(e) => {
                    tracing::warn!("{e}; requests go without these cookies");
                    None
                }
            })
            .clone()
    }

    /// The options of a request to `url` of `host`, for a URL of `seed`
    /// (`None`: a request of the host's own), with a revisit's validators.
    /// The seed's own settings apply on the seed's host only.
    pub(crate) fn options(
        &self,
        host: &str,
        seed: Option<&Seed>,
        url: &url::Url,
        conditional: Option<Conditional>,
    ) -> RequestOptions {
        let base = self.rule(host).map(|r| &r.settings);
        // A seed's settings go to its own host only: a seed crawled with
        // scope=domain or any must not hand its credentials to every site
        // it links to.
        let own = seed.filter(|s| s.host.eq_ignore_ascii_case(host));
        let s = match (own.map(|s| &s.request), base) {
            (Some(own), Some(base)) => own.over(base),
            (Some(own), None) => own.clone(),
            (None, Some(base)) => base.clone(),
            (None, None) => RequestSettings::default(),
        };
        let mut headers = s.headers;
        if let Some(ua) = s.user_agent {
            headers.push(("User-Agent".into(), ua));
        }
        let mut secret_headers = Vec::new();
        if let Some(cookie) = s
            .cookies
            .as_deref()
            .and_then(|p| self.jar(p))
            .and_then(|j| j.header_for(url, now_secs()))
        {
            secret_headers.push(("Cookie".into(), cookie));
        }
        for (name, var) in &s.header_env {
            // Checked when read; a value a header cannot carry is not sent.
            if let Some(value) = std::env::var(var)
                .ok()
                .filter(|v| !v.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f))
            {
                secret_headers.push((name.clone(), value));
            }
        }
        if let Some(credentials) = s.auth_env.as_deref().and_then(|v| std::env::var(v).ok()) {
            let token = base64::engine::general_purpose::STANDARD.encode(credentials.trim());
            secret_headers.push(("Authorization".into(), format!("Basic {token}")));
        }
        RequestOptions {
            conditional,
            headers,
            secret_headers,
            proxy: s.proxy,
            seed: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(host: Option<&str>, domain: Option<&str>, ua: &str) -> SiteConfig {
        SiteConfig {
            host: host.map(str::to_string),
            domain: domain.map(str::to_string),
            user_agent: Some(ua.into()),
            ..SiteConfig::default()
        }
    }

    #[test]
    fn a_host_table_wins_then_the_longest_domain() {
        let sites = Sites::new(
            &[
                table(None, Some("example.org"), "org"),
                table(None, Some("news.example.org"), "news"),
                table(Some("shop.example.org:8080"), None, "shop"),
            ],
            1,
        )
        .expect("sites");
        let ua = |host: &str| {
            let url = url::Url::parse(&format!("http://{host}/")).expect("url");
            sites
                .options(host, None, &url, None)
                .headers
                .into_iter()
                .find(|(n, _)| n == "User-Agent")
                .map(|(_, v)| v)
        };
        assert_eq!(ua("a.news.example.org").as_deref(), Some("news"));
        assert_eq!(ua("example.org").as_deref(), Some("org"));
        assert_eq!(ua("shop.example.org:8080").as_deref(), Some("shop"));
        assert_eq!(ua("elsewhere.test"), None);
    }

    #[test]
    fn concurrency_comes_from_the_seed_then_the_table_then_the_crawl() {
        let t = SiteConfig {
            domain: Some("example.org".into()),
            concurrency: Some(4),
            ..SiteConfig::default()
        };
        let sites = Sites::new(&[t], 2).expect("sites");
        let mut seed = Seed::bare("a.example.org");
        seed.concurrency = Some(8);
        sites.note_seeds([&seed]);
        assert_eq!(sites.concurrency("a.example.org"), 8, "the seed's own host");
        assert_eq!(sites.concurrency("b.example.org"), 4, "the table's domain");
        assert_eq!(sites.concurrency("other.test"), 2, "crawl.max_per_host");
    }

    #[test]
    fn a_missing_credential_variable_is_an_error_naming_it() {
        let t = SiteConfig {
            host: Some("a.test".into()),
            auth_env: Some("TRAWL_TEST_SURELY_UNSET_VAR".into()),
            ..SiteConfig::default()
        };
        let e = Sites::new(&[t], 1).expect_err("unset");
        assert!(e.contains("TRAWL_TEST_SURELY_UNSET_VAR"), "{e}");
    }
}
