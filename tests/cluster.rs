//! Cluster mode against a real PostgreSQL (a throwaway cluster on a
//! loopback port, see `support/pg.rs`): the shared frontier's guarantees
//! first, then workers crawling loopback hosts together.

mod support;

use std::time::Duration;

use support::pg::Pg;
use trawl_crawl::cluster::{Conn, Finish, FinishEnd, Written};
use trawl_crawl::record::PageOutcome;
use trawl_crawl::store::{NewUrl, QueuedUrl, UrlKind};

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
        },
    }
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
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
        assert_eq!(ok, Written::Applied { record: false });
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
