//! Cluster-mode test helpers: a web of loopback hosts, a cluster of
//! worker processes on a throwaway PostgreSQL, and what its tests check.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use super::pg::Pg;
use super::{html, page, scratch, status, trawl, Host, Reply};

/// Per-host delay the workers are configured with.
pub const DELAY_MS: u64 = 150;

/// A web of `hosts` hosts with `pages` pages each: page j links to j+1 and
/// j+2, a disallowed /private page, and the next host's front page.
/// `slow(n)` delays the answer of page n (keeps fetches in flight).
pub fn web(
    hosts: usize,
    pages: usize,
    slow: impl Fn(usize) -> Duration + Clone + Send + Sync + 'static,
) -> Vec<Host> {
    let mut started: Vec<Host> = Vec::new();
    // Ports are known only after binding: host i links to host i+1 through
    // a shared table filled after all have started.
    let table: std::sync::Arc<std::sync::RwLock<Vec<String>>> = Default::default();
    for i in 0..hosts {
        let (table, slow) = (table.clone(), slow.clone());
        let ip = format!("127.0.0.{}", 20 + i);
        started.push(Host::start(&ip, move |path, _| {
            if path == "/robots.txt" {
                return Reply::Status(
                    200,
                    vec![("Content-Type".into(), "text/plain".into())],
                    b"User-agent: *\nDisallow: /private\n".to_vec(),
                );
            }
            let n: Option<usize> = path.strip_prefix("/p").and_then(|n| n.parse().ok());
            let Some(n) = n.or((path == "/").then_some(0)) else {
                return status(404);
            };
            if n >= pages {
                return status(404);
            }
            std::thread::sleep(slow(n));
            let next_host = table
                .read()
                .map(|t| t[(i + 1) % t.len()].clone())
                .unwrap_or_default();
            let links = vec![
                format!("/p{}", n + 1),
                format!("/p{}", n + 2),
                format!("/private/{n}"),
                format!("{next_host}/p0"),
            ];
            html(&page(&format!("host {i} page {n}"), &links))
        }));
    }
    if let Ok(mut t) = table.write() {
        *t = started.iter().map(|h| h.url("")).collect();
    }
    started
}

pub struct Cluster {
    pub dir: PathBuf,
    pub cfg: PathBuf,
    pub seeds: PathBuf,
    pub url: String,
}

impl Cluster {
    pub fn new(name: &str, pg: &Pg, hosts: &[Host], lease_secs: u64, max_hosts: usize) -> Cluster {
        let cluster = format!("[cluster]\nlease_secs = {lease_secs}\nmax_hosts = {max_hosts}\n");
        Cluster::custom(name, pg, hosts, &cluster, |_| String::new())
    }

    /// `extra`: more of config.toml after `[crawl]` (keys, then tables);
    /// `options(i)`: more options of host i's seed line.
    pub fn custom(
        name: &str,
        pg: &Pg,
        hosts: &[Host],
        extra: &str,
        options: impl Fn(usize) -> String,
    ) -> Cluster {
        let dir = scratch(name);
        let cfg = super::config(&dir, &format!("min_delay_ms = {DELAY_MS}\n{extra}"));
        let seeds = dir.join("seeds.txt");
        let lines: Vec<String> = hosts
            .iter()
            .enumerate()
            .map(|(i, h)| format!("{} depth=50 {}", h.url("/"), options(i)))
            .collect();
        std::fs::write(&seeds, lines.join("\n")).expect("seeds");
        Cluster {
            dir,
            cfg,
            seeds,
            url: pg.url(),
        }
    }

    pub fn worker(&self, name: &str) -> Child {
        self.worker_with(name, &[])
    }

    /// A worker with more `crawl` arguments.
    pub fn worker_with(&self, name: &str, extra: &[&str]) -> Child {
        trawl()
            .args(["--config", &self.cfg.to_string_lossy(), "crawl", "--once"])
            .args(extra)
            .args(["--cluster", &self.url, "--worker", name])
            .args(["--data", &self.dir.join(name).to_string_lossy()])
            .args(["--seeds", &self.seeds.to_string_lossy()])
            .env(
                "RUST_LOG",
                std::env::var("TRAWL_TEST_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn worker")
    }

    pub fn export(&self) -> Vec<serde_json::Value> {
        super::export_lines(&self.cfg, &["--cluster", &self.url])
    }
}

/// Waits for every worker to exit (they run with --once); fails after `limit`.
pub fn wait_all(workers: &mut [Child], limit: Duration) {
    let deadline = Instant::now() + limit;
    for w in workers.iter_mut() {
        loop {
            if let Some(st) = w.try_wait().expect("wait") {
                let err = super::stderr_of(w);
                if std::env::var_os("TRAWL_SHOW_LOGS").is_some() {
                    eprintln!("---- worker log:\n{err}");
                }
                assert!(st.success(), "worker failed: {err}");
                break;
            }
            if Instant::now() > deadline {
                for w in workers.iter_mut() {
                    let _ = w.kill();
                }
                panic!("workers did not finish in {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Page paths each host was asked for, with counts; robots.txt excluded.
pub fn page_requests(hosts: &[Host]) -> HashMap<String, usize> {
    let mut n = HashMap::new();
    for h in hosts {
        for p in h.paths() {
            if p != "/robots.txt" {
                *n.entry(h.url(&p)).or_insert(0) += 1;
            }
        }
    }
    n
}

/// Smallest gap between two requests to one host, robots.txt included.
pub fn smallest_gap(hosts: &[Host]) -> Duration {
    hosts
        .iter()
        .filter_map(|h| {
            let t: Vec<Instant> = h.requests().into_iter().map(|(_, t)| t).collect();
            t.windows(2).map(|w| w[1].duration_since(w[0])).min()
        })
        .min()
        .unwrap_or(Duration::MAX)
}

pub fn assert_complete(c: &Cluster, hosts: &[Host], pages: usize) -> Vec<serde_json::Value> {
    let records = c.export();
    let mut urls: Vec<String> = records
        .iter()
        .map(|r| r["url"].as_str().unwrap_or("").to_string())
        .collect();
    let n = urls.len();
    urls.sort();
    urls.dedup();
    assert_eq!(n, urls.len(), "a URL twice in the export");
    // Every page of every host: "/" (the seed, page 0) and p1.. (links;
    // the links to other hosts are out of the seeds' host scope).
    assert_eq!(n, hosts.len() * pages, "every page exported once");
    for h in hosts {
        assert!(
            !h.paths().iter().any(|p| p.starts_with("/private")),
            "robots.txt disallows /private"
        );
    }
    let gap = smallest_gap(hosts);
    assert!(
        gap >= Duration::from_millis(DELAY_MS - 20),
        "per-host spacing across workers: smallest gap {gap:?}"
    );
    records
}

pub fn wait_for(pg: &Pg, sql: &str, n: i64, limit: Duration) {
    let deadline = Instant::now() + limit;
    // Before the first worker connects the tables do not exist: 0.
    while pg
        .try_psql(sql)
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .unwrap_or(0)
        < n
    {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {sql} >= {n}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Runs one worker named `w1` with `--once` on `cfg` and `seeds`, its store
/// in `dir/w1`, and checks that it ended well.
pub fn run_once(cfg: &std::path::Path, pg: &Pg, dir: &std::path::Path, seeds: &std::path::Path) {
    let out = run_once_output(cfg, pg, dir, seeds);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// [`run_once`]'s worker run to its end, whatever its exit.
pub fn run_once_output(
    cfg: &std::path::Path,
    pg: &Pg,
    dir: &std::path::Path,
    seeds: &std::path::Path,
) -> std::process::Output {
    trawl()
        .args(["--config", &cfg.to_string_lossy(), "crawl", "--once"])
        .args(["--cluster", &pg.url(), "--worker", "w1"])
        .args(["--data", &dir.join("w1").to_string_lossy()])
        .args(["--seeds", &seeds.to_string_lossy()])
        .output()
        .expect("worker")
}

/// A cluster worker `name` of the database `db_url` running `cfg` over
/// `seeds`, its own data under `dir/name`, its log kept for [`stop`].
pub fn spawn_worker(cfg: &Path, db_url: &str, name: &str, dir: &Path, seeds: &Path) -> Child {
    trawl()
        .args(["--config", &cfg.to_string_lossy(), "crawl"])
        .args(["--cluster", db_url, "--worker", name])
        .args(["--data", &dir.join(name).to_string_lossy()])
        .args(["--seeds", &seeds.to_string_lossy()])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn worker")
}

/// Stops a daemon with SIGTERM (it must end within 20 s); its log.
pub fn stop(mut child: Child) -> String {
    signal(&child, libc::SIGTERM);
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().ok().flatten().is_none() {
        assert!(Instant::now() < deadline, "the daemon did not stop");
        std::thread::sleep(Duration::from_millis(50));
    }
    super::stderr_of(&mut child)
}

pub fn signal(child: &Child, sig: i32) {
    // SAFETY: kill(2) on our own child's pid; no memory is touched.
    let r = unsafe { libc::kill(child.id() as i32, sig) };
    assert_eq!(r, 0, "signal {sig}");
}

pub fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}
