use super::*;
use robotstxt::DefaultMatcher;

const BODY: &str = "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nUser-agent: trawl\nDisallow: /no-trawl/\nCrawl-delay: 0.5\n\nSitemap: http://x.test/sitemap.xml\n";

#[test]
fn matches_our_group_and_reads_directives() {
    let r = Robots::from_response(200, BODY.as_bytes(), "trawl");
    assert!(!r.allowed("http://x.test/no-trawl/a"));
    assert!(r.allowed("http://x.test/private/a"), "our group replaces *");
    let other = Robots::from_response(200, BODY.as_bytes(), "otherbot");
    assert!(!other.allowed("http://x.test/private/a"));
    assert!(other.allowed("http://x.test/no-trawl/a"));
    assert_eq!(r.crawl_delay(), Some(0.5));
    assert_eq!(r.sitemaps(), ["http://x.test/sitemap.xml".to_string()]);
    assert_eq!(other.crawl_delay(), Some(2.0));
}

#[test]
fn status_rules() {
    assert!(Robots::from_response(404, b"", "trawl").allowed("http://x.test/a"));
    assert!(!Robots::from_response(503, b"", "trawl").allowed("http://x.test/a"));
    assert!(!Robots::from_response(0, b"", "trawl").allowed("http://x.test/a"));
}

#[test]
fn garbage_does_not_panic() {
    let junk: Vec<u8> = (0..5000u32).map(|i| (i * 31 % 251) as u8).collect();
    let r = Robots::from_response(200, &junk, "trawl");
    let _ = r.allowed("http://x.test/\u{1F600}/%%%"); // must not panic
    let r = Robots::from_response(
        200,
        "User-agent: *\nDisallow: /\u{0}\u{FFFF}*$$\n".as_bytes(),
        "trawl",
    );
    let _ = r.allowed("http://x.test/");
}

#[test]
fn wildcards_dollar_and_longest_match() {
    let body = "User-agent: *\nAllow: /shop/*.html$\nDisallow: /shop/\nDisallow: /*sort=\nAllow: /a$b\nDisallow: /a\nAllow: /dir/index.html\nDisallow: /dir/\n";
    let r = Robots::from_response(200, body.as_bytes(), "trawl");
    assert!(r.allowed("http://x.test/shop/p/1.html"));
    assert!(!r.allowed("http://x.test/shop/p/1.html?x=1"));
    assert!(!r.allowed("http://x.test/shop/p/1"));
    assert!(!r.allowed("http://x.test/list?page=2&sort=asc"));
    assert!(r.allowed("http://x.test/a$b"), "a '$' inside is literal");
    assert!(!r.allowed("http://x.test/ab"));
    assert!(r.allowed("http://x.test/dir/"), "index.html allows its dir");
    assert!(!r.allowed("http://x.test/dir/x"));
}

/// The hostile file of issue 52: one Disallow line of 811 bytes full of
/// `*`, one URL of 1,000 characters. The robotstxt crate's matcher took
/// 48.8 s of CPU for this; ours does a bounded number of word operations.
#[test]
fn a_rule_full_of_wildcards_costs_bounded_work() {
    for rule in [format!("/{}b", "*".repeat(809)), "/*a".repeat(270) + "b"] {
        bounded(&rule);
    }
}

fn bounded(rule: &str) {
    assert!(rule.len() >= 811);
    let body = format!("User-agent: *\nDisallow: {rule}\n");
    let Robots::Rules { rules, .. } = Robots::from_response(200, body.as_bytes(), "trawl") else {
        panic!("parsed")
    };
    let url = format!("http://x.test/{}", "a".repeat(1000));
    let path = get_path_params_query(&url);
    let mut m = PathMatcher::new(path.as_bytes());
    let started = std::time::Instant::now();
    assert!(!m.matches(&rules.star[0]));
    let words = path.len() as u64 / 64 + 1;
    assert!(m.work <= rule.len() as u64 * words, "work {}", m.work);
    assert!(rules.allowed(&url));
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
}

/// Our group and precedence rules agree with Google's (the robotstxt
/// crate's port) on small generated files without `*` (the port's `*`
/// handling is both slow and wrong: it calls `/=/a/` allowed under
/// `Disallow: /*/$`; wildcards are checked against a plain recursive
/// matcher below).
#[test]
fn agrees_with_googles_matcher_on_generated_cases() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const PIECES: [&str; 8] = ["/", "a", "b", "$", "?", "=", "%2F", "/index.html"];
    const AGENTS: [&str; 4] = ["*", "trawl", "TRAWL/1.0", "other"];
    let mut piece = |n: u64| -> String {
        (0..n % 5 + 1)
            .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
            .collect()
    };
    let mut checked = 0;
    for case in 0..3000u64 {
        let mut body = String::new();
        for g in 0..(case % 3 + 1) {
            body.push_str(&format!(
                "User-agent: {}\n",
                AGENTS[((case + g) % 4) as usize]
            ));
            for r in 0..((case / 3 + g) % 4) {
                let verb = if (case + r) % 2 == 0 {
                    "Allow"
                } else {
                    "Disallow"
                };
                body.push_str(&format!("{verb}: /{}\n", piece(case + r)));
            }
        }
        let path = format!("/{}", piece(case * 7).replace('$', "x"));
        let url = format!("http://x.test{path}");
        let ours = Robots::from_response(200, body.as_bytes(), "trawl").allowed(&url);
        let google = DefaultMatcher::default().one_agent_allowed_by_robots(&body, "trawl", &url);
        assert_eq!(ours, google, "file:\n{body}\nurl: {url}");
        checked += 1;
    }
    assert_eq!(checked, 3000);
}

/// Google's definition of a match, by plain recursion (exponential, fine
/// on short inputs): `*` any run, `$` the end when last, else itself.
fn naive(path: &[u8], pattern: &[u8]) -> bool {
    match pattern.split_first() {
        None => true,
        Some((b'$', [])) => path.is_empty(),
        Some((b'*', rest)) => (0..=path.len()).any(|i| naive(&path[i..], rest)),
        Some((c, rest)) => path.first() == Some(c) && naive(&path[1..], rest),
    }
}

#[test]
fn wildcard_matching_agrees_with_the_definition() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet = b"/ab*$";
    for _ in 0..20_000 {
        let plen = (next() % 8) as usize;
        let pattern: Vec<u8> = (0..plen).map(|_| alphabet[(next() % 5) as usize]).collect();
        // Paths up to 140 bytes: positions cross the 64-bit word bounds.
        let n = (next() % 140) as usize;
        let path: Vec<u8> = (0..n).map(|_| b"/ab$"[(next() % 4) as usize]).collect();
        let rule = Rule {
            allow: false,
            literal: !pattern.iter().any(|&b| b == b'*' || b == b'$'),
            pattern: pattern.clone().into(),
        };
        let got = PathMatcher::new(&path).matches(&rule);
        assert_eq!(
            got,
            naive(&path, &pattern),
            "pattern {:?} path {:?}",
            String::from_utf8_lossy(&pattern),
            String::from_utf8_lossy(&path)
        );
    }
}

/// A match whose worst case is long runs on the blocking pool (issue 52:
/// off the async threads), with the same answer, also on the cluster's
/// current-thread runtime; a plain one runs in place.
#[test]
fn heavy_matches_run_off_the_async_threads_with_the_same_answer() {
    let star = "*".repeat(800);
    let body = format!("User-agent: *\nDisallow: /{star}b\nDisallow: /private/\n");
    let robots = std::sync::Arc::new(Robots::from_response(200, body.as_bytes(), "trawl"));
    let long = format!("http://a.test/{}", "a".repeat(3000));
    let Robots::Rules { rules, .. } = &*robots else {
        panic!("rules");
    };
    assert!(rules.work_bound(&long) > INLINE_WORK);
    assert!(rules.work_bound("http://a.test/x") <= INLINE_WORK);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    for url in [
        long.clone(),
        format!("{long}b"),
        "http://a.test/private/x".into(),
        "http://a.test/ok".into(),
    ] {
        let off = rt.block_on(robots.allowed_off_thread(&url));
        assert_eq!(off, robots.allowed(&url), "{url}");
    }
    assert!(!rt.block_on(robots.allowed_off_thread(&format!("{long}b"))));
}
