//! Cluster mode against a real PostgreSQL (a throwaway cluster on a
//! loopback port, see `support/pg.rs`): the shared frontier's guarantees
//! first, then workers crawling loopback hosts together.

mod support;

use std::process::Child;
use std::time::{Duration, Instant};

use support::cluster::*;
use support::pg::Pg;
use support::{html, page, status, trawl, Host};
use trawl_crawl::cluster::{Conn, Finish, FinishEnd, Written};
use trawl_crawl::store::{NewUrl, QueuedUrl, UrlKind};
use trawl_crawl::PageOutcome;

fn new_url(host: &str, path: &str) -> NewUrl {
    NewUrl {
        host: host.to_string(),
        item: QueuedUrl {
            url: format!("http://{host}{path}"),
            depth: 0,
            seed: 1,
            attempt: 0,
            kind: UrlKind::Page,
            priority: 1.0,
            features: None,
            revisit: None,
        },
    }
}

fn done(host_id: i64, epoch: i64, url: &str) -> Finish {
    Finish {
        host_id,
        epoch,
        hash: trawl_crawl::cluster::url_hash(url),
        end: FinishEnd::Done {
            outcome: PageOutcome {
                url: url.to_string(),
                status: 200,
                ..PageOutcome::default()
            },
            record: None,
            counted: true,
            simhash: None,
            again: None,
            changed: Vec::new(),
        },
        links: vec![],
        delay_ms: 0,
    }
}

#[test]
fn a_stale_epoch_cannot_write_after_a_takeover() {
    let Some(pg) = Pg::start("fencing") else {
        return;
    };
    rt().block_on(async {
        let mut a = Conn::connect(&pg.url()).await.expect("connect a");
        let mut b = Conn::connect(&pg.url()).await.expect("connect b");
        assert_eq!(
            a.enqueue(&[new_url("h1.test", "/"), new_url("h1.test", "/x")])
                .await
                .expect("enqueue"),
            2
        );
        let lease = Duration::from_millis(800);
        let ca = a.claim("a", 10, lease).await.expect("claim a");
        assert_eq!(ca.len(), 1);
        // While a's lease lives, b gets nothing.
        assert!(b.claim("b", 10, lease).await.expect("claim b").is_empty());
        // a stalls past its lease; b takes the host over.
        tokio::time::sleep(Duration::from_millis(1200)).await;
        let cb = b.claim("b", 10, lease).await.expect("claim b again");
        assert_eq!(cb.len(), 1);
        assert!(cb[0].epoch > ca[0].epoch);
        // a's late write and renewal are refused; b's go through.
        let late = a
            .finish("a", &done(ca[0].id, ca[0].epoch, "http://h1.test/"))
            .await
            .expect("finish a");
        assert_eq!(late, Written::Refused);
        assert!(a
            .renew("a", &[(ca[0].id, ca[0].epoch)], lease)
            .await
            .expect("renew")
            .is_empty());
        let ok = b
            .finish("b", &done(cb[0].id, cb[0].epoch, "http://h1.test/"))
            .await
            .expect("finish b");
        assert!(matches!(ok, Written::Applied { record: false, .. }));
        assert_eq!(
            pg.psql("SELECT done_by FROM trawl_urls WHERE status = 1"),
            "b"
        );
        assert_eq!(pg.psql("SELECT queued FROM trawl_hosts"), "1");
    });
}

#[test]
fn the_same_url_found_twice_at_once_is_one_row() {
    let Some(pg) = Pg::start("dedup") else { return };
    rt().block_on(async {
        let urls: Vec<NewUrl> = (0..500)
            .map(|i| new_url(&format!("h{}.test", i % 7), &format!("/p{i}")))
            .collect();
        let mut tasks = Vec::new();
        for _ in 0..4 {
            let (u, urls) = (pg.url(), urls.clone());
            tasks.push(tokio::spawn(async move {
                let mut c = Conn::connect(&u).await.expect("connect");
                let mut n = 0;
                for chunk in urls.chunks(50) {
                    n += c.enqueue(chunk).await.expect("enqueue");
                }
                n
            }));
        }
        let mut total = 0;
        for t in tasks {
            total += t.await.expect("task");
        }
        assert_eq!(total, 500, "each URL counted new exactly once");
        assert_eq!(pg.psql("SELECT count(*) FROM trawl_urls"), "500");
        assert_eq!(pg.psql("SELECT sum(queued) FROM trawl_hosts"), "500");
    });
}

/// Regression: workers starting at once on a fresh database. The first
/// made the tables; the others, once they had the schema lock, still saw
/// none (the name lookup read a stale catalog cache), ran the whole schema
/// again and deadlocked against the first one's inserts: one worker waited
/// out a retry (in CI long enough that the others crawled everything).
#[test]
fn workers_starting_at_once_make_the_schema_once() {
    const ROUNDS: usize = 10;
    let Some(pg) = Pg::start("schema-race") else {
        return;
    };
    let base = pg.url();
    rt().block_on(async {
        for round in 0..ROUNDS {
            pg.psql(&format!("CREATE DATABASE race{round}"));
            let url = base.replace("/postgres?", &format!("/race{round}?"));
            let mut tasks = Vec::new();
            for w in 0..6 {
                let url = url.clone();
                tasks.push(tokio::spawn(async move {
                    let mut c = Conn::connect(&url).await?;
                    let urls: Vec<NewUrl> = (0..50)
                        .map(|i| new_url(&format!("h{w}.test"), &format!("/p{i}")))
                        .collect();
                    c.enqueue(&urls).await
                }));
            }
            for (w, t) in tasks.into_iter().enumerate() {
                let r = t.await.expect("task");
                assert!(r.is_ok(), "round {round}, worker {w}: {r:?}");
            }
        }
    });
    // Each migration writes the version row: one write per database when
    // one worker made the schema (a backend's counters arrive as it ends).
    for round in 0..ROUNDS {
        let sql = "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'trawl_schema'";
        let mut ins = String::new();
        for _ in 0..50 {
            ins = pg
                .try_psql_in(&format!("race{round}"), sql)
                .unwrap_or_default();
            if ins != "0" && !ins.is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        assert_eq!(
            ins, "1",
            "round {round}: schema version written {ins} times"
        );
    }
}

// ---- workers crawling a generated loopback web together ----

#[test]
fn three_workers_fetch_every_page_once_politely() {
    let Some(pg) = Pg::start("three") else { return };
    let (n_hosts, pages) = (12, 12);
    let hosts = web(n_hosts, pages, |_| Duration::ZERO);
    let c = Cluster::new("cluster-three", &pg, &hosts, 5, 4);
    let mut workers: Vec<Child> = (1..=3).map(|i| c.worker(&format!("w{i}"))).collect();
    wait_all(&mut workers, Duration::from_secs(120));
    let records = assert_complete(&c, &hosts, pages);
    // Each worker archives what it fetched, in files named for it, and
    // each record names the file and offset of its response.
    for r in &records {
        let file = r["warc"]["file"].as_str().unwrap_or_default();
        let worker = (1..=3)
            .map(|i| format!("w{i}"))
            .find(|w| file.ends_with(&format!("-{w}.warc.gz")))
            .unwrap_or_else(|| panic!("WARC file {file:?} names no worker: {r}"));
        let path = c.dir.join(&worker).join("warc").join(file);
        let mut f =
            std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let offset = r["warc"]["offset"].as_u64().unwrap_or_default();
        std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(offset)).expect("seek");
        let rec = trawl_crawl::warc::Reader::new(f)
            .next()
            .expect("record")
            .expect("readable");
        assert_eq!(rec.target(), r["final_url"].as_str());
    }
    let reqs = page_requests(&hosts);
    let twice: Vec<_> = reqs.iter().filter(|(_, &n)| n > 1).collect();
    assert!(twice.is_empty(), "pages fetched twice: {twice:?}");
    // Each worker took a share (each holds at most 4 of the 12 hosts).
    let shares = pg.psql("SELECT string_agg(done_by || '=' || n, ',' ORDER BY done_by) FROM (SELECT done_by, count(*) n FROM trawl_urls WHERE status = 1 GROUP BY done_by) s");
    assert_eq!(
        shares.split(',').count(),
        3,
        "every worker fetched: {shares}"
    );
    let status = trawl()
        .args(["status", "--cluster", &c.url])
        .output()
        .expect("status");
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(
        text.contains("w1") && text.contains("w3") && text.contains("0 URLs queued"),
        "{text}"
    );
}

/// Regression: the export sorted its cursor's transaction ids as text
/// ("1001" before "997"), so paging through more than a few hundred
/// records repeated some.
#[test]
fn export_pages_neither_repeat_nor_skip() {
    let Some(pg) = Pg::start("export") else {
        return;
    };
    rt().block_on(async {
        let mut c = Conn::connect(&pg.url()).await.expect("connect");
        let urls: Vec<NewUrl> = (0..400)
            .map(|i| new_url("h.test", &format!("/{i}")))
            .collect();
        c.enqueue(&urls).await.expect("enqueue");
        let claim = c
            .claim("a", 1, Duration::from_secs(60))
            .await
            .expect("claim")
            .remove(0);
        for u in &urls {
            let mut f = done(claim.id, claim.epoch, &u.item.url);
            if let FinishEnd::Done { record, .. } = &mut f.end {
                *record = Some(Box::new(trawl_crawl::Record {
                    url: u.item.url.clone(),
                    ..Default::default()
                }));
            }
            assert_eq!(
                c.finish("a", &f).await.expect("finish"),
                Written::Applied {
                    record: true,
                    counted: true
                }
            );
        }
        let mut seen = Vec::new();
        let mut cursor = trawl_crawl::cluster::Cursor::default();
        loop {
            let mut out = Vec::new();
            let (n, next) = trawl_crawl::cluster::write_jsonl(&mut c, cursor, 37, false, &mut out)
                .await
                .expect("export");
            if n == 0 {
                break;
            }
            cursor = next;
            for l in String::from_utf8_lossy(&out).lines() {
                let v: serde_json::Value = serde_json::from_str(l).expect("json");
                seen.push(v["url"].as_str().unwrap_or("").to_string());
            }
        }
        let total = seen.len();
        seen.sort();
        seen.dedup();
        assert_eq!(
            (total, seen.len()),
            (400, 400),
            "every record once across pages"
        );
    });
}

/// Waits until `sql` (a count) reaches `n`.
const DONE_BY_W1: &str = "SELECT count(*) FROM trawl_urls WHERE status = 1 AND done_by = 'w1'";

#[test]
fn a_killed_worker_loses_nothing_and_its_hosts_are_re_leased() {
    let Some(pg) = Pg::start("kill") else { return };
    let (n_hosts, pages) = (8, 10);
    let hosts = web(n_hosts, pages, |_| Duration::from_millis(100));
    let c = Cluster::new("cluster-kill", &pg, &hosts, 3, 3);
    let mut w1 = c.worker("w1");
    wait_for(&pg, DONE_BY_W1, 3, Duration::from_secs(30));
    let mut others: Vec<Child> = vec![c.worker("w2"), c.worker("w3")];
    std::thread::sleep(Duration::from_millis(300));
    w1.kill().expect("kill -9");
    let _ = w1.wait();
    wait_all(&mut others, Duration::from_secs(120));
    assert_complete(&c, &hosts, pages);
    // Pages fetched twice: at most the ones w1 had in flight, one per host
    // it held (max_hosts = 3).
    let twice: Vec<_> = page_requests(&hosts)
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .collect();
    assert!(twice.len() <= 3, "pages fetched twice: {twice:?}");
    assert!(twice.iter().all(|(_, n)| *n == 2), "{twice:?}");
}

#[test]
fn a_worker_paused_past_its_lease_cannot_write_when_it_wakes() {
    let Some(pg) = Pg::start("stop") else { return };
    // As many hosts as a worker holds: w1 holds them all, so w2 can only
    // get them by taking them over. Page 2 answers slowly: w1 is paused
    // while it waits for one, so a write of w1's is surely late.
    let (n_hosts, pages) = (3, 8);
    let hosts = web(n_hosts, pages, |n| {
        Duration::from_millis(if n == 2 { 1500 } else { 0 })
    });
    let c = Cluster::new("cluster-stop", &pg, &hosts, 2, 3);
    let w1 = c.worker("w1");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !hosts.iter().any(|h| h.paths().iter().any(|p| p == "/p2")) {
        assert!(Instant::now() < deadline, "w1 never asked for a page 2");
        std::thread::sleep(Duration::from_millis(10));
    }
    signal(&w1, libc::SIGSTOP);
    let w2 = c.worker("w2");
    // w2 takes w1's hosts once their leases (2 s) expire.
    std::thread::sleep(Duration::from_secs(6));
    signal(&w1, libc::SIGCONT);
    let mut workers = vec![w1, w2];
    wait_all(&mut workers, Duration::from_secs(120));
    assert_complete(&c, &hosts, pages);
    let refused: i64 = pg
        .psql("SELECT refused FROM trawl_workers WHERE name = 'w1'")
        .parse()
        .unwrap_or(0);
    assert!(
        refused >= 1,
        "w1's late writes were refused (refused = {refused})"
    );
}

#[test]
fn workers_ride_out_a_database_restart() {
    let Some(pg) = Pg::start("restart") else {
        return;
    };
    let (n_hosts, pages) = (6, 12);
    let hosts = web(n_hosts, pages, |_| Duration::from_millis(100));
    let c = Cluster::new("cluster-restart", &pg, &hosts, 20, 3);
    let mut workers: Vec<Child> = vec![c.worker("w1"), c.worker("w2")];
    wait_for(
        &pg,
        "SELECT count(*) FROM trawl_urls WHERE status = 1",
        8,
        Duration::from_secs(30),
    );
    pg.stop_server();
    std::thread::sleep(Duration::from_secs(3));
    pg.start_server();
    wait_all(&mut workers, Duration::from_secs(120));
    assert_complete(&c, &hosts, pages);
    let twice: Vec<_> = page_requests(&hosts)
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .collect();
    assert!(
        twice.is_empty(),
        "nothing fetched again after the outage: {twice:?}"
    );
    assert_eq!(pg.psql("SELECT sum(refused) FROM trawl_workers"), "0");
}

#[test]
fn a_joining_worker_takes_a_share_and_a_huge_host_starves_no_one() {
    let Some(pg) = Pg::start("join") else { return };
    // Host 0 has 60 pages (and a link to its own /p0: 61 records), the
    // nine others 4 each.
    let mut hosts = web(1, 60, |_| Duration::ZERO);
    hosts.extend(web_at(21, 9, 4));
    let c = Cluster::new("cluster-join", &pg, &hosts, 5, 2);
    let mut workers: Vec<Child> = vec![c.worker("w1")];
    std::thread::sleep(Duration::from_secs(1));
    workers.push(c.worker("w2"));
    wait_all(&mut workers, Duration::from_secs(120));
    let records = c.export();
    assert_eq!(records.len(), 61 + 9 * 4);
    let w2: i64 = pg
        .psql("SELECT count(*) FROM trawl_urls WHERE status = 1 AND done_by = 'w2'")
        .parse()
        .unwrap_or(0);
    assert!(w2 > 0, "the worker that joined fetched nothing");
    let huge = hosts[0].url("");
    let host_of = |u: &str| u.split('/').nth(2).unwrap_or("").to_string();
    let huge_host = host_of(&huge);
    let last_small: String = pg.psql(&format!(
        "SELECT max(done_at) FROM trawl_urls u JOIN trawl_hosts h ON h.id = u.host_id WHERE h.name <> '{huge_host}' AND u.status = 1"
    ));
    let last_huge: String = pg.psql(&format!(
        "SELECT max(done_at) FROM trawl_urls u JOIN trawl_hosts h ON h.id = u.host_id WHERE h.name = '{huge_host}' AND u.status = 1"
    ));
    assert!(
        last_small < last_huge,
        "small hosts done ({last_small}) before the huge one ({last_huge})"
    );
}

/// Like [`web`], on IPs starting at 127.0.0.`first`.
fn web_at(first: usize, hosts: usize, pages: usize) -> Vec<Host> {
    (0..hosts)
        .map(|i| {
            let ip = format!("127.0.0.{}", first + i);
            Host::start(&ip, move |path, _| {
                if path == "/robots.txt" {
                    return status(404);
                }
                let n: Option<usize> = path.strip_prefix("/p").and_then(|n| n.parse().ok());
                match n.or((path == "/").then_some(0)) {
                    Some(n) if n < pages => html(&page(
                        &format!("small {i} page {n}"),
                        &[format!("/p{}", n + 1)],
                    )),
                    _ => status(404),
                }
            })
        })
        .collect()
}

/// Records per host in an export, by the host's base URL.
fn records_per_host(records: &[serde_json::Value], hosts: &[Host]) -> Vec<usize> {
    hosts
        .iter()
        .map(|h| {
            let base = h.url("/");
            records
                .iter()
                .filter(|r| r["url"].as_str().is_some_and(|u| u.starts_with(&base)))
                .count()
        })
        .collect()
}

#[test]
fn page_budgets_hold_across_workers() {
    let Some(pg) = Pg::start("budgets") else {
        return;
    };
    let (n_hosts, pages) = (8, 12);
    let hosts = web(n_hosts, pages, |_| Duration::ZERO);
    // Hosts 0-3: their seed allows 4 pages; all hosts: 7 pages per host.
    // Short leases and few hosts per worker: hosts change hands mid-crawl.
    let c = Cluster::custom(
        "cluster-budgets",
        &pg,
        &hosts,
        "max_pages_per_host = 7\n[cluster]\nlease_secs = 2\nmax_hosts = 2\n",
        |i| {
            if i < 4 {
                "max_pages=4".into()
            } else {
                String::new()
            }
        },
    );
    let mut workers: Vec<Child> = (1..=3).map(|i| c.worker(&format!("w{i}"))).collect();
    wait_all(&mut workers, Duration::from_secs(120));
    let records = c.export();
    let per_host = records_per_host(&records, &hosts);
    assert_eq!(per_host, [4, 4, 4, 4, 7, 7, 7, 7], "records per host");
    let fetched: Vec<usize> = hosts
        .iter()
        .map(|h| {
            h.paths()
                .iter()
                .filter(|p| *p != "/robots.txt" && !p.starts_with("/sitemap"))
                .count()
        })
        .collect();
    assert_eq!(fetched, per_host, "pages requested per host");
    assert_eq!(
        pg.psql("SELECT sum(fetched) FROM trawl_counts"),
        (4 * 4 + 4 * 7).to_string()
    );
}

#[test]
fn the_crawls_page_budget_holds_across_workers() {
    let Some(pg) = Pg::start("total") else { return };
    let (n_hosts, pages) = (8, 12);
    let hosts = web(n_hosts, pages, |_| Duration::from_millis(30));
    let c = Cluster::custom(
        "cluster-total",
        &pg,
        &hosts,
        "max_pages = 30\n[cluster]\nlease_secs = 5\nmax_hosts = 4\n",
        |_| String::new(),
    );
    let mut workers: Vec<Child> = (1..=3).map(|i| c.worker(&format!("w{i}"))).collect();
    wait_all(&mut workers, Duration::from_secs(120));
    let n = c.export().len();
    // Each worker sees the others' pages at most half a second late and
    // has at most one page per held host in flight.
    assert!((30..=45).contains(&n), "{n} pages under a budget of 30");
}

#[test]
fn a_batch_commits_the_ends_of_live_leases_and_refuses_the_rest() {
    let Some(pg) = Pg::start("batch") else { return };
    rt().block_on(async {
        let mut a = Conn::connect(&pg.url()).await.expect("connect a");
        let mut b = Conn::connect(&pg.url()).await.expect("connect b");
        a.enqueue(&[new_url("h1.test", "/"), new_url("h2.test", "/")])
            .await
            .expect("enqueue");
        let lease = Duration::from_millis(600);
        let held = a.claim("a", 10, lease).await.expect("claim a");
        assert_eq!(held.len(), 2);
        tokio::time::sleep(Duration::from_millis(900)).await;
        // Both of a's leases lapsed; b takes one host over. The other is
        // claimed by no one since, so a's epoch still holds it.
        let taken = b.claim("b", 1, lease).await.expect("claim b");
        assert_eq!(taken.len(), 1);
        let mut fs: Vec<Finish> = held
            .iter()
            .map(|h| done(h.id, h.epoch, &format!("http://{}/", h.name)))
            .collect();
        fs[0].links = vec![("h3.test".into(), new_url("h3.test", "/").item)];
        let written = a.finish_batch("a", &fs).await.expect("batch");
        let refused: Vec<bool> = held.iter().map(|h| h.name == taken[0].name).collect();
        for (w, refused) in written.iter().zip(&refused) {
            if *refused {
                assert_eq!(*w, Written::Refused);
            } else {
                assert!(matches!(w, Written::Applied { counted: true, .. }), "{w:?}");
            }
        }
        assert_eq!(
            pg.psql("SELECT count(*) FROM trawl_urls WHERE status = 1"),
            "1"
        );
        assert_eq!(pg.psql("SELECT sum(fetched) FROM trawl_counts"), "1");
        // The links of a refused end are queued all the same (idempotent).
        assert_eq!(
            pg.psql("SELECT count(*) FROM trawl_urls WHERE url = 'http://h3.test/'"),
            "1"
        );
    });
}

/// `focus.budget = "pages"` on a cluster: each worker serves the best URLs
/// its hosts hold and leaves a slot idle rather than fetch far worse ones;
/// the wait never starves a host, so a web with nothing better to wait for
/// is crawled whole, each page once.
#[test]
fn a_page_budget_focused_crawl_completes_across_workers() {
    let Some(pg) = Pg::start("pagebudget") else {
        return;
    };
    let (n_hosts, pages) = (6, 8);
    let hosts = web(n_hosts, pages, |_| Duration::ZERO);
    let c = Cluster::custom(
        "cluster-page-budget",
        &pg,
        &hosts,
        "[cluster]\nlease_secs = 5\nmax_hosts = 3\n[focus]\nbudget = \"pages\"\n\
         keywords = { page = 1.0, links = 1.0 }\n",
        |_| String::new(),
    );
    let mut workers: Vec<Child> = (1..=2).map(|i| c.worker(&format!("w{i}"))).collect();
    wait_all(&mut workers, Duration::from_secs(120));
    assert_complete(&c, &hosts, pages);
    let reqs = page_requests(&hosts);
    let twice: Vec<_> = reqs.iter().filter(|(_, &n)| n > 1).collect();
    assert!(twice.is_empty(), "pages fetched twice: {twice:?}");
}
