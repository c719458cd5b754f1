//! Cluster mode's records: e-commerce templates learned once per site,
//! near-duplicates across workers, and re-extraction from each worker's
//! archive.

mod support;

use std::process::Child;
use std::time::{Duration, Instant};

use support::cluster::*;
use support::pg::Pg;
use support::{html, page, scratch, status, trawl, Host};
use trawl_crawl::cluster::Conn;

/// A one-host shop: a listing of products `from..to` at `/list/{from}`,
/// product pages at `/product/{id}` in one layout.
fn shop_host(ip: &str) -> Host {
    let product = |id: usize| {
        format!(
            "<html><head><title>Lamp {id} | Lights</title></head><body><nav><a href=/list/0>Lights</a></nav>\
             <div class=item><h1 class=name>Lamp {id}</h1><span class=cost>${id}.50</span>\
             <table><tr><th>Ref:</th><td>L-{:04}</td></tr><tr><th>Finish:</th><td>{}</td></tr></table></div>\
             <footer>Lights Ltd</footer></body></html>",
            id * 7,
            ["brass", "chrome", "matt black"][id % 3]
        )
    };
    Host::start(ip, move |path, _| {
        if let Some(id) = path.strip_prefix("/product/").and_then(|p| p.parse().ok()) {
            return html(&product(id));
        }
        let Some(from) = path
            .strip_prefix("/list/")
            .and_then(|p| p.parse::<usize>().ok())
        else {
            return status(404);
        };
        let links: Vec<String> = (from..from + 10).map(|i| format!("/product/{i}")).collect();
        html(&page("Lights", &links))
    })
}

#[test]
fn a_template_is_learned_once_per_site_for_the_cluster() {
    let Some(pg) = Pg::start("templates") else {
        return;
    };
    let shop = shop_host("127.0.0.60");
    let dir = scratch("cluster-templates");
    let cfg = support::config(&dir, "min_delay_ms = 0\nsitemaps = false");
    let run = |worker: &str, list: usize| {
        let seeds = dir.join(format!("seeds-{worker}.txt"));
        std::fs::write(
            &seeds,
            format!(
                "{} mode=ecommerce depth=1\n",
                shop.url(&format!("/list/{list}"))
            ),
        )
        .expect("seeds");
        let out = trawl()
            .args(["--config", &cfg.to_string_lossy(), "crawl", "--once"])
            .args(["--cluster", &pg.url(), "--worker", worker])
            .args(["--data", &dir.join(worker).to_string_lossy()])
            .args(["--seeds", &seeds.to_string_lossy()])
            .env("RUST_LOG", "info")
            .output()
            .expect("run worker");
        let log = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{worker} failed: {log}");
        log
    };
    // w1 learns the shop's template from its first products.
    let log1 = run("w1", 0);
    assert!(log1.contains("template learned"), "w1 learned: {log1}");
    assert_eq!(
        pg.psql("SELECT learned_by || ' v' || version FROM trawl_templates"),
        "w1 v1"
    );
    // w2, with a store of its own, crawls ten new products of the site:
    // every one is read with w1's template, none is a learning sample.
    let log2 = run("w2", 10);
    assert!(
        !log2.contains("template learned"),
        "w2 learned again: {log2}"
    );
    let export = support::export_lines(&cfg, &["--cluster", &pg.url()]);
    let new: Vec<&serde_json::Value> = export
        .iter()
        .filter(|r| {
            r["url"]
                .as_str()
                .and_then(|u| u.rsplit('/').next())
                .and_then(|id| id.parse::<usize>().ok())
                .is_some_and(|id| {
                    (10..20).contains(&id)
                        && r["url"].as_str().is_some_and(|u| u.contains("/product/"))
                })
        })
        .collect();
    assert_eq!(new.len(), 10, "w2's products exported");
    for r in new {
        let id = r["url"]
            .as_str()
            .and_then(|u| u.rsplit('/').next())
            .unwrap_or("");
        assert_eq!(r["fields"]["name"][0], format!("Lamp {id}"), "{r}");
    }
}

#[test]
fn a_template_version_is_published_once() {
    let Some(pg) = Pg::start("publish") else {
        return;
    };
    rt().block_on(async {
        let mut a = Conn::connect(&pg.url()).await.expect("connect a");
        let mut b = Conn::connect(&pg.url()).await.expect("connect b");
        let t = |version: u32, by: &str| trawl_extract::Template {
            site: "shop.test".into(),
            cluster: 0,
            version,
            samples: 4,
            fields: vec![],
            signature: vec![by.to_string()],
            pruning: trawl_extract::Pruning::default(),
            learned_at: 0,
            check: None,
        };
        assert!(a.publish_template("a", &t(1, "a")).await.expect("a v1"));
        // b learned v1 at the same time: the first stays.
        assert!(!b.publish_template("b", &t(1, "b")).await.expect("b v1"));
        let got = b.templates(&["shop.test".into()]).await.expect("read");
        assert_eq!(got, [t(1, "a")]);
        // A relearned v2 replaces it; an older version never does.
        assert!(b.publish_template("b", &t(2, "b")).await.expect("b v2"));
        assert!(!a
            .publish_template("a", &t(1, "a"))
            .await
            .expect("a v1 again"));
        assert_eq!(
            pg.psql("SELECT learned_by || ' v' || version FROM trawl_templates"),
            "b v2"
        );
    });
}

#[test]
fn a_mirror_crawled_by_another_worker_is_marked_a_near_duplicate() {
    let Some(pg) = Pg::start("neardup") else {
        return;
    };
    let article = "The river rose through the night and by morning the lower town was under water. \
                   Volunteers filled sandbags along the quay while the ferry carried families to the \
                   school on the hill, where the bakers had set up ovens in the gymnasium. The mayor \
                   said the old dyke held better than the engineers had feared, and that the new pumps \
                   bought last spring kept the hospital dry through the worst of the flood.";
    // Pages answer once both workers hold a host: a worker started late
    // (a busy machine) would otherwise find the first host done and take
    // the second too.
    let gate = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let serve = |text: String, wait: Duration| {
        let gate = gate.clone();
        move |path: &str, _: usize| {
            if path != "/" {
                return status(404);
            }
            let deadline = Instant::now() + Duration::from_secs(30);
            while !gate.load(std::sync::atomic::Ordering::SeqCst) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            std::thread::sleep(wait);
            html(&format!(
                "<html><head><title>Flood</title></head><body><article><h1>Flood</h1><p>{text}</p></article></body></html>"
            ))
        }
    };
    // The mirror answers later: the original is committed first.
    let hosts = vec![
        Host::start("127.0.0.70", serve(article.to_string(), Duration::ZERO)),
        Host::start(
            "127.0.0.71",
            serve(
                article.replace("last spring", "last  spring"),
                Duration::from_millis(1500),
            ),
        ),
    ];
    let c = Cluster::new("cluster-neardup", &pg, &hosts, 5, 1);
    let mut workers = vec![c.worker("w1"), c.worker("w2")];
    wait_for(
        &pg,
        "SELECT count(DISTINCT lease_owner) FROM trawl_hosts WHERE lease_owner IS NOT NULL",
        2,
        Duration::from_secs(60),
    );
    gate.store(true, std::sync::atomic::Ordering::SeqCst);
    wait_all(&mut workers, Duration::from_secs(60));
    let records = c.export();
    assert_eq!(records.len(), 2);
    let shares = pg.psql("SELECT count(DISTINCT done_by) FROM trawl_urls WHERE status = 1");
    assert_eq!(shares, "2", "each worker crawled one host");
    let (first, mirror) = (hosts[0].url("/"), hosts[1].url("/"));
    let of = |u: &str| {
        records
            .iter()
            .find(|r| r["url"] == u)
            .map(|r| r["duplicate_of"].clone())
    };
    assert_eq!(of(&first), Some(serde_json::Value::Null));
    assert_eq!(of(&mirror), Some(serde_json::json!(first)));
}

/// `trawl reextract --cluster` on each worker: the records whose responses
/// that worker archived get their newer version in the database (a plain
/// export still gives one record per page, the new ones after the old
/// cursor), and no request is sent.
#[test]
fn each_worker_reextracts_what_it_archived() {
    let Some(pg) = Pg::start("reextract") else {
        return;
    };
    let (n_hosts, pages) = (4, 5);
    let hosts = web(n_hosts, pages, |_| Duration::ZERO);
    let c = Cluster::new("cluster-reextract", &pg, &hosts, 5, 2);
    let mut workers: Vec<Child> = (1..=2).map(|i| c.worker(&format!("w{i}"))).collect();
    wait_all(&mut workers, Duration::from_secs(120));
    let before = assert_complete(&c, &hosts, pages);
    // A worker's records carry the Markdown of their text (issue 54).
    for r in &before {
        let (text, md) = (
            r["text"].as_str().unwrap_or(""),
            r["markdown"].as_str().unwrap_or(""),
        );
        assert!(text.is_empty() || !md.is_empty(), "no markdown: {r}");
    }
    // Records as stored before records had Markdown: reextract fills it.
    pg.psql("UPDATE trawl_records SET record = (record::jsonb - 'markdown')::text");
    let requests: usize = hosts.iter().map(|h| h.paths().len()).sum();
    let other = c.dir.join("other.toml");
    let text = std::fs::read_to_string(&c.cfg).expect("config");
    std::fs::write(
        &other,
        format!("{text}\n[extract]\nalgorithm = \"list-rank\"\n"),
    )
    .expect("config");
    for w in ["w1", "w2"] {
        let out = trawl()
            .args([
                "--config",
                &other.to_string_lossy(),
                "reextract",
                "--cluster",
                &c.url,
            ])
            .args(["--data", &c.dir.join(w).to_string_lossy()])
            .output()
            .expect("reextract");
        assert!(
            out.status.success(),
            "{w}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(
        hosts.iter().map(|h| h.paths().len()).sum::<usize>(),
        requests,
        "no request sent"
    );
    let after = c.export();
    assert_eq!(after.len(), before.len(), "one record per page");
    for r in &after {
        let (text, md) = (
            r["text"].as_str().unwrap_or(""),
            r["markdown"].as_str().unwrap_or(""),
        );
        assert!(
            text.is_empty() || !md.is_empty(),
            "reextract left no markdown: {r}"
        );
    }
    let newer: Vec<&serde_json::Value> = after.iter().filter(|r| r["previous"].is_u64()).collect();
    assert!(!newer.is_empty());
    for r in &newer {
        assert_eq!(r["algorithm"], "list-rank", "{r}");
        let (text, md) = (
            r["text"].as_str().unwrap_or(""),
            r["markdown"].as_str().unwrap_or(""),
        );
        assert!(
            text.is_empty() || !md.is_empty(),
            "reextract left no markdown: {r}"
        );
        let old = before
            .iter()
            .find(|o| o["url"] == r["url"])
            .expect("the page's old record");
        assert_eq!(old["seq"], r["previous"]);
        assert_eq!(old["warc"], r["warc"]);
    }
}

/// A cluster worker reads "Posted 2 days ago" against its own fetch time,
/// as a single crawl does (issue 41).
#[test]
fn a_relative_date_is_read_against_the_fetch_time_in_a_cluster() {
    let Some(pg) = Pg::start("relative_dates") else {
        return;
    };
    let story = support::relative_date_story();
    let host = Host::start("127.0.0.125", move |path, _| match path {
        "/story" => html(&story),
        _ => status(404),
    });
    let dir = scratch("cluster-relative-date");
    let cfg = support::config(&dir, "min_delay_ms = 0\nsitemaps = false");
    let seeds = dir.join("seeds.txt");
    std::fs::write(&seeds, format!("{}\n", host.url("/story"))).expect("seeds");
    run_once(&cfg, &pg, &dir, &seeds);
    let records = support::export_lines(&cfg, &["--cluster", &pg.url()]);
    let r = records
        .iter()
        .find(|r| r["url"].as_str().is_some_and(|u| u.ends_with("/story")))
        .unwrap_or_else(|| panic!("no record: {records:?}"));
    assert_eq!(
        r["date"].as_str(),
        support::days_before_fetch(r, 2).as_deref(),
        "{r}"
    );
}

/// A worker's `--feed` follows the cluster's records. Killed (`kill -9`)
/// after it has handed some over and started again, its feed holds every
/// record of the cluster at least once, and deduped by `seq` exactly the
/// export's.
#[test]
fn a_workers_feed_holds_the_clusters_records_across_a_kill_9() {
    let Some(pg) = Pg::start("feed") else { return };
    let (n_hosts, pages) = (3, 40);
    let hosts = web(n_hosts, pages, |_| Duration::from_millis(20));
    let c = Cluster::new("cluster-feed", &pg, &hosts, 3, 3);
    let feed = c.dir.join("feed.jsonl");
    let feed_arg = feed.to_string_lossy().to_string();
    let mut w1 = c.worker_with("w1", &["--feed", &feed_arg]);
    wait_for(
        &pg,
        "SELECT count(*) FROM trawl_records",
        8,
        Duration::from_secs(60),
    );
    // A second for the feed to save its cursor at least once.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        w1.try_wait().expect("wait").is_none(),
        "the worker is still crawling when it is killed"
    );
    w1.kill().expect("kill -9");
    let _ = w1.wait();
    let before = std::fs::read_to_string(&feed).unwrap_or_default();
    assert!(
        before.lines().count() >= 1,
        "the feed had records before the kill"
    );
    let mut again = vec![c.worker_with("w1", &["--feed", &feed_arg])];
    wait_all(&mut again, Duration::from_secs(120));
    let records = assert_complete(&c, &hosts, pages);
    let by_seq = |rs: &[serde_json::Value]| {
        let mut v: Vec<(u64, String)> = rs
            .iter()
            .map(|r| {
                let seq = r["seq"].as_u64().unwrap_or(0);
                (seq, r["url"].as_str().unwrap_or("").to_string())
            })
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let text = std::fs::read_to_string(&feed).expect("feed");
    let fed: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("feed line {l:?}: {e}")))
        .collect();
    assert!(fed.len() >= records.len(), "at least once");
    assert_eq!(
        by_seq(&fed),
        by_seq(&records),
        "the feed deduped by seq is the cluster's export"
    );
}
