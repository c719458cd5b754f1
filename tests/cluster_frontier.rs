//! The shared frontier's operations one by one, against a throwaway
//! PostgreSQL (issue 35: the cluster paths had no tests of their own): due
//! URLs in priority order and after their wait, a renewed lease that keeps
//! others off, a release whose delay holds the host, a URL set aside and
//! offered again, and `idle` as `--once` reads it.

mod support;

use std::time::Duration;

use support::pg::Pg;
use trawl_crawl::cluster::{Conn, Finish, FinishEnd, Written};
use trawl_crawl::store::{NewUrl, QueuedUrl, UrlKind};
use trawl_crawl::{Outcome, PageOutcome};

fn url(path: &str, priority: f32) -> NewUrl {
    NewUrl {
        host: "h.test".into(),
        item: QueuedUrl {
            url: format!("http://h.test{path}"),
            depth: 1,
            seed: 1,
            attempt: 0,
            kind: UrlKind::Page,
            priority,
            features: None,
            revisit: None,
        },
    }
}

fn finish(host_id: i64, epoch: i64, path: &str, end: FinishEnd) -> Finish {
    Finish {
        host_id,
        epoch,
        hash: trawl_crawl::cluster::url_hash(&format!("http://h.test{path}")),
        end,
        links: vec![],
        delay_ms: 0,
    }
}

#[test]
fn due_renew_release_set_aside_and_idle() {
    let Some(pg) = Pg::start("frontier-ops") else {
        return;
    };
    let rt = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(async {
        let mut a = Conn::connect(&pg.url()).await.expect("connect a");
        let mut b = Conn::connect(&pg.url()).await.expect("connect b");
        let urls = [url("/low", 0.2), url("/high", 0.9), url("/mid", 0.5)];
        assert_eq!(a.enqueue(&urls).await.expect("enqueue"), 3);
        assert!(!a.idle().await.expect("idle"), "work is queued");
        let lease = Duration::from_millis(900);
        let held = a.claim("a", 10, lease).await.expect("claim");
        assert_eq!(held.len(), 1);
        let (id, epoch) = (held[0].id, held[0].epoch);

        // Due URLs come best first.
        let due = a.due(id, 10).await.expect("due");
        let order: Vec<&str> = due.urls.iter().map(|(_, u)| u.url.as_str()).collect();
        assert_eq!(
            order,
            [
                "http://h.test/high",
                "http://h.test/mid",
                "http://h.test/low"
            ]
        );

        // A retry waits its turn; a URL set aside leaves the queue with its outcome.
        let retry = FinishEnd::Retry {
            attempt: 1,
            wait_ms: 60_000,
        };
        let w = a.finish("a", &finish(id, epoch, "/high", retry)).await;
        assert!(matches!(w, Ok(Written::Applied { .. })), "{w:?}");
        let outcome = PageOutcome {
            url: "http://h.test/mid".into(),
            outcome: Outcome::HostStopped,
            ..PageOutcome::default()
        };
        let park = FinishEnd::Park {
            outcome,
            wait_ms: None,
        };
        let w = a.finish("a", &finish(id, epoch, "/mid", park)).await;
        assert!(matches!(w, Ok(Written::Applied { .. })), "{w:?}");
        let due = a.due(id, 10).await.expect("due");
        let left: Vec<&str> = due.urls.iter().map(|(_, u)| u.url.as_str()).collect();
        assert_eq!(
            left,
            ["http://h.test/low"],
            "the retry waits, the set-aside URL is gone"
        );
        assert_eq!(pg.psql("SELECT queued FROM trawl_hosts"), "2");
        assert_eq!(
            pg.psql("SELECT outcome::json->>'outcome' FROM trawl_urls WHERE status = 3"),
            "host_stopped"
        );

        // A renewed lease keeps others off past its first end.
        let renewed = a.renew("a", &[(id, epoch)], Duration::from_secs(5)).await;
        assert_eq!(renewed.expect("renew"), vec![id]);
        tokio::time::sleep(lease + Duration::from_millis(300)).await;
        assert!(b.claim("b", 10, lease).await.expect("claim b").is_empty());

        // A release with a delay: nobody may fetch the host before it ends.
        assert!(a
            .release(&held[0], Duration::from_millis(1500))
            .await
            .expect("release"));
        assert!(b.claim("b", 10, lease).await.expect("claim b").is_empty());
        tokio::time::sleep(Duration::from_millis(1700)).await;
        let got = b.claim("b", 10, lease).await.expect("claim b later");
        assert_eq!(got.len(), 1);
        assert!(got[0].epoch > epoch, "a new epoch fences the old holder");
        let stale = finish(
            id,
            epoch,
            "/low",
            FinishEnd::Park {
                outcome: PageOutcome::default(),
                wait_ms: Some(1),
            },
        );
        let late = a.finish("a", &stale).await.expect("finish");
        assert_eq!(late, Written::Refused);

        // Set-aside URLs are offered again (a worker starting: all of them).
        assert_eq!(
            b.unpark(false).await.expect("unpark due"),
            0,
            "not due for years"
        );
        assert_eq!(b.unpark(true).await.expect("unpark all"), 1);
        assert_eq!(pg.psql("SELECT queued FROM trawl_hosts"), "3");
    });
}

/// Issue 52: the frontier room of a host is counted in the database, so two
/// workers queuing links of one host together stay within it.
#[test]
fn two_workers_share_a_hosts_frontier_room() {
    let Some(pg) = Pg::start("frontier-room") else {
        return;
    };
    let rt = tokio::runtime::Runtime::new().unwrap_or_else(|e| panic!("{e}"));
    rt.block_on(async {
        let cap = trawl_crawl::store::QueueCap {
            floor: 5,
            per_page: 0,
        };
        let mut a = Conn::connect(&pg.url()).await.expect("connect a");
        let mut b = Conn::connect(&pg.url()).await.expect("connect b");
        a.set_queue_cap(Some(cap));
        b.set_queue_cap(Some(cap));
        assert_eq!(a.enqueue(&[url("/seed", 1.0)]).await.expect("enqueue"), 1);
        let held = a
            .claim("a", 10, Duration::from_secs(30))
            .await
            .expect("claim");
        let (id, epoch) = (held[0].id, held[0].epoch);
        let links = |from: u32| -> Vec<(String, QueuedUrl)> {
            (from..from + 10)
                .map(|i| {
                    let mut u = url(&format!("/trap/{i}"), 0.5).item;
                    u.url = format!("http://trap.test/{i}");
                    ("trap.test".to_string(), u)
                })
                .collect()
        };
        let retry = || FinishEnd::Retry {
            attempt: 1,
            wait_ms: 0,
        };
        let mut fa = finish(id, epoch, "/seed", retry());
        fa.links = links(0);
        let mut fb = finish(id, epoch, "/seed", retry());
        fb.links = links(100);
        let (wa, wb) = tokio::join!(a.finish("a", &fa), b.finish("b", &fb));
        assert!(wa.is_ok() && wb.is_ok(), "{wa:?} {wb:?}");
        assert_eq!(a.capped() + b.capped(), 15, "20 new links, room for 5");
        let mut c = Conn::connect(&pg.url()).await.expect("connect c");
        let queued = c
            .claim("c", 10, Duration::from_secs(30))
            .await
            .expect("claim")
            .into_iter()
            .find(|h| h.name == "trap.test")
            .expect("trap.test has work");
        let due = c.due(queued.id, 100).await.expect("due");
        assert_eq!(due.urls.len(), 5, "{:?}", due.urls);
    });
}
