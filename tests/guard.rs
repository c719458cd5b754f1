//! Where requests go. The private-network guard (security): links written by strangers do not
//! reach loopback or private addresses that no seed names, by address or
//! by a name that resolves there, directly or through a redirect; with
//! `crawl.allow_private` they do.

mod support;

use support::*;

/// A seed site on 127.0.0.87 linking to a loopback host no seed names
/// (127.0.0.88), to `localhost` (a name resolving to loopback), and
/// redirecting to the unnamed host.
fn sites() -> (Host, Host, Host) {
    let hidden = Host::start("127.0.0.88", |_, _| html(&page("Secret", &[])));
    let local = Host::start("127.0.0.1", |_, _| html(&page("Local", &[])));
    let (h, l) = (
        hidden.url("/secret"),
        format!("http://localhost:{}/local", local.addr.port()),
    );
    let to = hidden.url("/redirected");
    let seed = Host::start("127.0.0.87", move |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Front", &[h.clone(), l.clone(), "/go".into()])),
        "/go" => redirect(&to),
        _ => status(404),
    });
    (seed, hidden, local)
}

fn crawl(extra: &str, name: &str) -> (Host, Host, Host, Vec<serde_json::Value>) {
    let (seed, hidden, local) = sites();
    let dir = scratch(name);
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(&seeds, format!("{} scope=any\n", seed.url("/"))).expect("seeds");
    let cfg = config(&dir, &format!("sitemaps = false\n{extra}"));
    let out = crawl_once(&cfg, &seeds);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let outs = outcomes(&cfg);
    let _ = std::fs::remove_dir_all(&dir);
    (seed, hidden, local, outs)
}

#[test]
fn private_addresses_no_seed_names_are_never_contacted() {
    let (seed, hidden, local, outs) = crawl("", "guard-on");
    assert!(hidden.paths().is_empty(), "{:?}", hidden.paths());
    assert!(local.paths().is_empty(), "{:?}", local.paths());
    assert!(seed.paths().iter().any(|p| p == "/go"));
    let blocked: Vec<&str> = outs
        .iter()
        .filter(|o| o["outcome"] == "blocked_address")
        .filter_map(|o| o["url"].as_str())
        .collect();
    assert!(blocked.iter().any(|u| u.ends_with("/secret")), "{outs:?}");
    assert!(blocked.iter().any(|u| u.contains("localhost")), "{outs:?}");
    assert!(
        blocked.iter().any(|u| u.ends_with("/redirected")),
        "{outs:?}"
    );
}

#[test]
fn allow_private_lets_them_through() {
    let (_seed, hidden, local, outs) = crawl("allow_private = true", "guard-off");
    assert!(
        hidden.paths().iter().any(|p| p == "/secret"),
        "{:?}",
        hidden.paths()
    );
    assert!(
        local.paths().iter().any(|p| p == "/local"),
        "{:?}",
        local.paths()
    );
    assert!(outs.iter().all(|o| o["outcome"] != "blocked_address"));
}

/// `crawl.proxy`: every request goes through the proxy (absolute-form
/// requests), the site itself is never contacted directly.
#[test]
fn every_request_goes_through_the_configured_proxy() {
    let site = Host::start("127.0.0.89", |_, _| html(&page("Direct", &[])));
    let target = site.url("/");
    let proxy = Host::start("127.0.0.90", move |path, _| {
        // A forward proxy sees the whole URL.
        if path.ends_with("/robots.txt") {
            return status(404);
        }
        if path.starts_with("http://") {
            html(&page("Through the proxy", &[]))
        } else {
            status(400)
        }
    });
    let dir = scratch("proxy");
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(&seeds, format!("{target}\n")).expect("seeds");
    let cfg = config(
        &dir,
        &format!("sitemaps = false\nproxy = \"http://{}\"", proxy.addr),
    );
    let out = crawl_once(&cfg, &seeds);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        site.paths().is_empty(),
        "contacted directly: {:?}",
        site.paths()
    );
    assert!(proxy.paths().contains(&target), "{:?}", proxy.paths());
    let records = export(&cfg);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["title"], "Through the proxy");
    // A bad proxy URL is a config error naming the key.
    let bad = config(&dir, "proxy = \"ftp://x\"");
    let out = trawl()
        .args(["--config", &bad.to_string_lossy(), "status"])
        .output()
        .expect("trawl");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("crawl.proxy"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Cluster mode: the guard, a seed's URL patterns and its `delay=` hold
/// for a cluster worker as on one machine.
#[test]
fn a_cluster_worker_keeps_the_guard_patterns_and_seed_delay() {
    let Some(pg) = support::pg::Pg::start("guard-cluster") else {
        return;
    };
    let hidden = Host::start("127.0.0.106", |_, _| html(&page("Secret", &[])));
    let (h, to) = (hidden.url("/secret"), hidden.url("/redirected"));
    let seed = Host::start("127.0.0.107", move |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page(
            "Front",
            &[
                h.clone(),
                "/go".into(),
                "/skip/1".into(),
                "/a".into(),
                "/b".into(),
            ],
        )),
        "/go" => redirect(&to),
        "/a" | "/b" | "/skip/1" => html(&page(path, &[])),
        _ => status(404),
    });
    let dir = scratch("guard-cluster");
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(
        &seeds,
        format!("{} scope=any exclude=/skip/ delay=300\n", seed.url("/")),
    )
    .expect("seeds");
    let cfg = config(&dir, "sitemaps = false");
    support::cluster::run_once(&cfg, &pg, &dir, &seeds);
    assert!(hidden.paths().is_empty(), "{:?}", hidden.paths());
    assert!(
        !seed.paths().iter().any(|p| p.starts_with("/skip")),
        "{:?}",
        seed.paths()
    );
    let blocked = pg.psql(
        "SELECT count(*) FROM trawl_urls WHERE outcome::jsonb ->> 'outcome' = 'blocked_address'",
    );
    assert_eq!(blocked.trim(), "2", "the link and the redirect target");
    let gap = seed.min_gap().expect("several requests");
    assert!(
        gap >= std::time::Duration::from_millis(280),
        "the seed's delay=300 is not kept: {gap:?}"
    );
}
