//! Per-site request settings (issue 38): a `[[site]]` table's user agent,
//! headers, cookie file (Netscape format) and basic auth from the
//! environment reach every request to its host, robots.txt included; a
//! seed line's `user_agent=` and `header=` reach its host's; credentials
//! and cookie values never reach the store, the archive, the exports or
//! the logs. On one machine and with a cluster worker.

mod support;

use std::io::Read;
use std::path::Path;
use std::process::Stdio;

use support::{config, export, html, page, scratch, status, trawl, Host};

const PASSWORD: &str = "s3cret-pass";
const COOKIE: &str = "sid-7f3a9c";

fn site(ip: &str) -> Host {
    let h = Host::start(ip, move |path, _| match path {
        "/" => html(&page("Home", &["/a".into(), "/account/orders".into()])),
        "/a" | "/account/orders" => html(&page(path, &[])),
        _ => status(404),
    });
    h.keep_headers();
    h
}

/// The config: a `[[site]]` table for `shop`, nothing for `other`.
fn settings(dir: &Path, shop: &Host) -> std::path::PathBuf {
    let cookies = dir.join("cookies.txt");
    std::fs::write(
        &cookies,
        format!(
            "# Netscape HTTP Cookie File\n{ip}\tFALSE\t/\tFALSE\t0\tsid\t{COOKIE}\n\
             {ip}\tFALSE\t/account\tFALSE\t0\tcart\tc42\n",
            ip = shop.addr.ip()
        ),
    )
    .expect("cookie file");
    config(
        dir,
        &format!(
            "[[site]]\nhost = \"{host}\"\nuser_agent = \"shopbot/2.0 (+mailto:crawl@example.org)\"\n\
             headers = {{ \"Accept-Language\" = \"de-DE\" }}\ncookies = \"{cookies}\"\n\
             auth_env = \"TRAWL_TEST_SHOP_AUTH\"\n",
            host = shop.addr,
            cookies = cookies.display()
        ),
    )
}

/// The seed file: the shop plain, the other site with its own options.
fn two_seeds(dir: &Path, shop: &Host, other: &Host) -> std::path::PathBuf {
    let seeds = dir.join("seeds.txt");
    std::fs::write(
        &seeds,
        format!(
            "{}\n{} header=X-Seed:yes user_agent=seedbot/1.0\n",
            shop.url("/"),
            other.url("/")
        ),
    )
    .expect("seeds");
    seeds
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// What the two sites saw, and that no secret was written anywhere.
fn assert_settings_applied(shop: &Host, other: &Host, data: &Path, logs: &str) {
    let expected_auth = format!("Basic {}", base64_of(&format!("alice:{PASSWORD}")));
    let heads = shop.heads();
    assert!(heads.len() >= 4, "the shop saw {} requests", heads.len());
    for (path, f) in &heads {
        assert_eq!(
            field(f, "user-agent"),
            Some("shopbot/2.0 (+mailto:crawl@example.org)"),
            "{path}"
        );
        assert_eq!(field(f, "accept-language"), Some("de-DE"), "{path}");
        assert_eq!(
            field(f, "authorization"),
            Some(expected_auth.as_str()),
            "{path}"
        );
        let cookie = field(f, "cookie").unwrap_or("");
        assert!(
            cookie.contains(&format!("sid={COOKIE}")),
            "{path}: {cookie:?}"
        );
        assert_eq!(
            cookie.contains("cart=c42"),
            path.starts_with("/account"),
            "{path}: the cart cookie is for /account only: {cookie:?}"
        );
    }
    assert!(
        heads.iter().any(|(p, _)| p == "/robots.txt"),
        "robots.txt asked too"
    );
    for (path, f) in other.heads() {
        assert_eq!(field(&f, "x-seed"), Some("yes"), "{path}");
        assert_eq!(field(&f, "user-agent"), Some("seedbot/1.0"), "{path}");
        assert!(field(&f, "cookie").is_none() && field(&f, "authorization").is_none());
    }
    // No secret in any file of the store or the archive (gzip members read), or the logs.
    let secrets = [PASSWORD, COOKIE, &expected_auth[6..]];
    for entry in walk(data) {
        let mut bytes = std::fs::read(&entry).unwrap_or_default();
        if entry.extension().is_some_and(|e| e == "gz") {
            let mut plain = Vec::new();
            let _ = flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_end(&mut plain);
            bytes = plain;
        }
        for s in secrets {
            assert!(
                !bytes.windows(s.len()).any(|w| w == s.as_bytes()),
                "{} holds a secret",
                entry.display()
            );
        }
    }
    for s in secrets {
        assert!(!logs.contains(s), "the logs hold a secret");
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn base64_of(s: &str) -> String {
    const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let b = s.as_bytes();
    let mut out = String::new();
    for c in b.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn site_tables_and_seed_options_shape_every_request_and_keep_secrets() {
    let (shop, other) = (site("127.0.0.97"), site("127.0.0.98"));
    let dir = scratch("sites");
    let cfg = settings(&dir, &shop);
    let seeds = two_seeds(&dir, &shop, &other);
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "crawl", "--once"])
        .args(["--seeds", &seeds.to_string_lossy()])
        .env("TRAWL_TEST_SHOP_AUTH", format!("alice:{PASSWORD}"))
        .env("RUST_LOG", "debug")
        .output()
        .expect("run trawl");
    let logs = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{logs}");
    assert_eq!(export(&cfg).len(), 6, "three pages of each site");
    let outcomes = support::outcomes(&cfg);
    let exported = serde_json::to_string(&outcomes).unwrap_or_default();
    assert!(!exported.contains(PASSWORD) && !exported.contains(COOKIE));
    assert_settings_applied(&shop, &other, &dir.join("storage"), &logs);
}

#[test]
fn a_missing_credential_variable_stops_the_start_with_its_name() {
    let shop = site("127.0.0.99");
    let dir = scratch("sites-no-env");
    let cfg = settings(&dir, &shop);
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, shop.url("/") + "\n").expect("seeds");
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "crawl", "--once"])
        .args(["--seeds", &seeds.to_string_lossy()])
        .env_remove("TRAWL_TEST_SHOP_AUTH")
        .output()
        .expect("run trawl");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("TRAWL_TEST_SHOP_AUTH"), "{err}");
    assert!(shop.paths().is_empty(), "nothing is fetched");
    // A bad table is named by its key.
    let bad = config(
        &dir,
        "[[site]]\ndomain = \"a.test\"\nheaders = { \"Cookie\" = \"x=1\" }\n",
    );
    let out = trawl()
        .args(["--config", &bad.to_string_lossy(), "crawl", "--once"])
        .output()
        .expect("run trawl");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("site[0].headers") && err.contains("cookies"),
        "{err}"
    );
}

#[test]
fn a_cluster_worker_sends_the_same_settings() {
    let Some(pg) = support::pg::Pg::start("sites-cluster") else {
        return;
    };
    let (shop, other) = (site("127.0.0.100"), site("127.0.0.101"));
    let dir = scratch("sites-cluster");
    let cfg = settings(&dir, &shop);
    let seeds = two_seeds(&dir, &shop, &other);
    let child = trawl()
        .args(["--config", &cfg.to_string_lossy(), "crawl", "--once"])
        .args(["--cluster", &pg.url(), "--worker", "w1"])
        .args(["--data", &dir.join("w1").to_string_lossy()])
        .args(["--seeds", &seeds.to_string_lossy()])
        .env("TRAWL_TEST_SHOP_AUTH", format!("alice:{PASSWORD}"))
        .env("RUST_LOG", "debug")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("worker");
    let out = child.wait_with_output().expect("wait");
    let logs = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{logs}");
    let records = support::export_lines(&cfg, &["--cluster", &pg.url()]);
    assert_eq!(records.len(), 6, "three pages of each site");
    assert_settings_applied(&shop, &other, &dir.join("w1"), &logs);
    let dump = pg.psql("SELECT string_agg(coalesce(outcome, '') || record, '') FROM trawl_urls LEFT JOIN trawl_records ON url_hash = hash");
    assert!(
        !dump.contains(PASSWORD) && !dump.contains(COOKIE),
        "the database holds a secret"
    );
}

/// A `[[site]]` proxy carries that site's requests only; a seed line's
/// `proxy=` carries its seed's.
#[test]
fn a_sites_own_proxy_carries_its_requests_only() {
    let (a, b, c) = (
        site("127.0.0.102"),
        site("127.0.0.103"),
        site("127.0.0.104"),
    );
    let proxy = Host::start("127.0.0.105", |path, _| {
        // A forward proxy sees the whole URL.
        if path.ends_with("/robots.txt") {
            status(404)
        } else if path.starts_with("http://") {
            html(&page("Through the proxy", &[]))
        } else {
            status(400)
        }
    });
    let dir = scratch("sites-proxy");
    let cfg = config(
        &dir,
        &format!(
            "[[site]]\nhost = \"{}\"\nproxy = \"http://{}\"\n",
            a.addr, proxy.addr
        ),
    );
    let seeds = dir.join("seeds.txt");
    std::fs::write(
        &seeds,
        format!(
            "{}\n{}\n{} proxy=http://{}\n",
            a.url("/"),
            b.url("/"),
            c.url("/"),
            proxy.addr
        ),
    )
    .expect("seeds");
    support::crawl_once(&cfg, &seeds);
    let through = proxy.paths();
    assert!(a.paths().is_empty(), "contacted directly: {:?}", a.paths());
    assert!(c.paths().is_empty(), "contacted directly: {:?}", c.paths());
    assert!(
        through.contains(&a.url("/")) && through.contains(&c.url("/")),
        "{through:?}"
    );
    assert!(b.paths().contains(&"/".to_string()), "{:?}", b.paths());
    assert!(
        through.iter().all(|p| !p.contains(&b.addr.to_string())),
        "the other site went through the proxy: {through:?}"
    );
}

/// A seed's own settings go to its host only: crawled with `scope=any`, it
/// does not hand its header or its credentials to the sites it links to.
#[test]
fn a_seeds_settings_stay_on_its_own_host() {
    let third = site("127.0.0.110");
    let link = third.url("/");
    let first = Host::start("127.0.0.109", move |path, _| match path {
        "/" => html(&page("Home", std::slice::from_ref(&link))),
        _ => status(404),
    });
    first.keep_headers();
    let dir = scratch("sites-own-host");
    let cfg = config(&dir, "allow_private = true");
    let seeds = dir.join("seeds.txt");
    std::fs::write(
        &seeds,
        format!(
            "{} scope=any header=X-Seed:yes auth_env=TRAWL_TEST_SHOP_AUTH\n",
            first.url("/")
        ),
    )
    .expect("seeds");
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "crawl", "--once"])
        .args(["--seeds", &seeds.to_string_lossy()])
        .env("TRAWL_TEST_SHOP_AUTH", format!("alice:{PASSWORD}"))
        .output()
        .expect("run trawl");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mine = first.heads();
    assert!(!mine.is_empty());
    for (path, f) in &mine {
        assert_eq!(field(f, "x-seed"), Some("yes"), "{path}");
        assert!(field(f, "authorization").is_some(), "{path}");
    }
    let theirs = third.heads();
    assert!(
        theirs.iter().any(|(p, _)| p == "/"),
        "the linked site was crawled"
    );
    for (path, f) in &theirs {
        assert!(
            field(f, "x-seed").is_none() && field(f, "authorization").is_none(),
            "{path}: the seed's settings reached another host: {f:?}"
        );
    }
}
