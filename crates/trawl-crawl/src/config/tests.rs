//! The configuration's unit tests.

use super::*;

#[test]
fn shipped_config_parses_and_matches_defaults() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config.toml");
    let cfg = Config::load(&path).expect("shipped config.toml is valid");
    let d = ExtractConfig::default();
    assert_eq!(cfg.extract.algorithm, d.algorithm);
    assert_eq!(cfg.extract.max_bytes, d.max_bytes);
    assert_eq!(cfg.extract.max_depth, d.max_depth);
    assert_eq!(cfg.extract.max_nodes, d.max_nodes);
    assert_eq!(cfg.extract.time_limit_ms, d.time_limit_ms);
    let f = FocusConfig::default();
    let g = &cfg.focus;
    assert_eq!(
        (
            &g.strategy,
            g.keywords.len(),
            g.examples.len() + g.example_files.len() + g.example_urls.len(),
            g.negative_examples.len() + g.negative_files.len(),
            g.threshold,
            g.learning_rate,
            g.series_every
        ),
        (
            &f.strategy,
            0,
            0,
            0,
            f.threshold,
            f.learning_rate,
            f.series_every
        )
    );
    let c = CrawlConfig::default();
    let s = &cfg.crawl;
    assert_eq!(
        (
            &s.data_dir,
            &s.seeds_dir,
            s.seed_poll_secs,
            s.max_concurrent,
            s.max_per_host,
            s.min_delay_ms
        ),
        (
            &c.data_dir,
            &c.seeds_dir,
            c.seed_poll_secs,
            c.max_concurrent,
            c.max_per_host,
            c.min_delay_ms
        )
    );
    assert_eq!(
        (
            s.max_crawl_delay_secs,
            s.requests_per_second,
            s.timeout_secs,
            s.max_redirects,
            s.max_body_bytes
        ),
        (
            c.max_crawl_delay_secs,
            c.requests_per_second,
            c.timeout_secs,
            c.max_redirects,
            c.max_body_bytes
        )
    );
    assert_eq!(
        (
            s.max_retries,
            s.retry_base_ms,
            s.retry_max_secs,
            s.max_depth,
            s.max_pages,
            s.max_pages_per_host
        ),
        (
            c.max_retries,
            c.retry_base_ms,
            c.retry_max_secs,
            c.max_depth,
            c.max_pages,
            c.max_pages_per_host
        )
    );
    assert_eq!(
        (
            &s.scope,
            s.sitemaps,
            &s.strip_params,
            s.sort_query,
            s.max_url_len,
            s.robots_cache_hours
        ),
        (
            &c.scope,
            c.sitemaps,
            &c.strip_params,
            c.sort_query,
            c.max_url_len,
            c.robots_cache_hours
        )
    );
    assert_eq!(
        (
            &s.status_addr,
            s.store_cache_mb,
            s.seen_filter_mb,
            s.shutdown_grace_secs,
            s.connect_timeout_secs
        ),
        (
            &c.status_addr,
            c.store_cache_mb,
            c.seen_filter_mb,
            c.shutdown_grace_secs,
            c.connect_timeout_secs
        )
    );
}

#[test]
fn focus_values_name_their_key() {
    for (text, key) in [
        ("[focus]\nstrategy = \"dfs\"\n", "focus.strategy"),
        ("[focus]\nthreshold = 0.0\n", "focus.threshold"),
        (
            "[focus]\nkeywords = { solar = -1.0 }\n",
            "focus.keywords.solar",
        ),
        (
            "[focus]\nexample_files = [\"/nonexistent/x.txt\"]\n",
            "focus.example_files",
        ),
        ("[focus]\ntopic = \"x\"\n", "topic"),
        (
            "[focus]\nexample_urls = [\"ftp://x\"]\n",
            "focus.example_urls",
        ),
        (
            "[focus.topics.a]\nkeywords = { x = 0.0 }\n",
            "focus.topics.a.keywords.x",
        ),
        ("[crawl]\ntemplate_samples = 1\n", "crawl.template_samples"),
        ("[crawl]\ntemplate_checks = 65\n", "crawl.template_checks"),
        ("[crawl]\nmode = \"shop\"\n", "crawl.mode"),
        // Regression (issue 53): refused as "builder error" without a key.
        (
            "[crawl]\nuser_agent = \"bot/1\\r\\nX: y\"\n",
            "crawl.user_agent",
        ),
        (
            "[crawl]\nmax_links_per_page = 0\n",
            "crawl.max_links_per_page",
        ),
    ] {
        let err = Config::parse(text, Path::new("c.toml")).unwrap_err();
        assert!(err.to_string().contains(key), "{text}: {err}");
    }
    let cfg = Config::parse(
        "[focus]\nkeywords = { \"heat pump\" = 2.0 }\n",
        Path::new("c.toml"),
    )
    .expect("valid");
    let none = Default::default();
    assert!(cfg.focus.topic(&none).expect("topic").is_some());
    assert!(FocusConfig::default().topic(&none).expect("none").is_none());
}

#[test]
fn crawl_values_name_their_key() {
    let err = Config::parse("[crawl]\nscope = \"planet\"\n", Path::new("c.toml")).unwrap_err();
    assert!(err.to_string().contains("crawl.scope"), "{err}");
    let err = Config::parse(
        "[crawl]\nstatus_addr = \"0.0.0.0:80\"\n",
        Path::new("c.toml"),
    )
    .unwrap_err();
    assert!(err.to_string().contains("crawl.status_addr"), "{err}");
    assert!(err.to_string().contains("api.token"), "{err}");
    let off = "[crawl]\nstatus_addr = \"0.0.0.0:7171\"\n[api]\ntoken = \"s3cret\"\n";
    assert!(
        Config::parse(off, Path::new("c.toml")).is_ok(),
        "off loopback with a token"
    );
    let err = Config::parse("[crawl]\nmax_concurrent = 0\n", Path::new("c.toml")).unwrap_err();
    assert!(err.to_string().contains("crawl.max_concurrent"), "{err}");
}

#[test]
fn a_value_of_the_wrong_kind_names_its_key_and_what_is_allowed() {
    let err = Config::parse("[crawl]\nmode = \"shop\"\n", Path::new("c.toml")).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("key `crawl.mode`") && msg.contains("ecommerce"),
        "{msg}"
    );
    let err = Config::parse("[crawl]\nmax_pages = \"many\"\n", Path::new("c.toml")).unwrap_err();
    assert!(err.to_string().contains("key `crawl.max_pages`"), "{err}");
    let cfg = Config::parse(
        "[crawl]\nscope = \"domain\"\nmode = \"ecommerce\"\n[focus]\nstrategy = \"bfs\"\n[extract]\nalgorithm = \"cetd-tpc\"\n",
        Path::new("c.toml"),
    )
    .expect("valid");
    assert_eq!(
        (
            cfg.crawl.scope,
            cfg.crawl.mode,
            cfg.focus.strategy,
            cfg.extract.algorithm
        ),
        (
            Scope::Domain,
            Mode::Ecommerce,
            Strategy::Bfs,
            Algorithm::CetdTpc
        )
    );
}

#[test]
fn unknown_key_is_named() {
    let err = Config::parse("[extract]\nmax_byte = 3\n", Path::new("c.toml")).unwrap_err();
    assert!(err.to_string().contains("max_byte"), "{err}");
}

#[test]
fn bad_value_names_the_key() {
    let err = Config::parse("[extract]\nalgorithm = \"magic\"\n", Path::new("c.toml")).unwrap_err();
    assert!(err.to_string().contains("extract.algorithm"), "{err}");
    let err = Config::parse("[extract]\nmax_bytes = 0\n", Path::new("c.toml")).unwrap_err();
    assert!(err.to_string().contains("extract.max_bytes"), "{err}");
}
