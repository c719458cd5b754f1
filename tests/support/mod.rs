//! A small scripted HTTP server for crawl tests: binds 127.0.0.x on an
//! ephemeral port, answers from a route function, and logs every request
//! with its arrival time so politeness can be measured on the server side.
#![allow(dead_code)] // each test binary uses part of this module

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a route answers.
pub enum Reply {
    Html(String),
    Status(u16, Vec<(String, String)>, Vec<u8>),
    /// Accept the connection and never answer.
    Hang,
    /// Stream this many bytes of HTML-looking filler.
    Huge(u64),
    /// A 200 whose body arrives one byte a second (declared in full).
    Drip(usize),
    /// A 200 that declares more body than it sends, then closes.
    CutOff,
}

pub fn html(body: &str) -> Reply {
    Reply::Html(body.to_string())
}

pub fn redirect(to: &str) -> Reply {
    Reply::Status(301, vec![("Location".into(), to.into())], Vec::new())
}

pub fn status(code: u16) -> Reply {
    Reply::Status(code, vec![], Vec::new())
}

type Route = dyn Fn(&str, usize) -> Reply + Send + Sync;

/// Each request's path and header fields.
type Heads = Mutex<Vec<(String, Vec<(String, String)>)>>;

/// One simulated host.
pub struct Host {
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<(String, Instant)>>>,
    /// Each request's path and header fields (names lower-cased), in
    /// order, once [`Host::keep_headers`] was called (benches serve tens of
    /// thousands of requests: kept always, they would weigh on the
    /// process's peak RSS the crawl benchmark reports).
    heads: Arc<Heads>,
    keep_heads: Arc<std::sync::atomic::AtomicBool>,
}

impl Host {
    /// Serves `route(path, n)` on `ip` (n = how often this path was asked before).
    pub fn start(ip: &str, route: impl Fn(&str, usize) -> Reply + Send + Sync + 'static) -> Host {
        let listener =
            TcpListener::bind(format!("{ip}:0")).unwrap_or_else(|e| panic!("bind {ip}: {e}"));
        let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
        let log = Arc::new(Mutex::new(Vec::new()));
        let heads = Arc::new(Mutex::new(Vec::new()));
        let route: Arc<Route> = Arc::new(route);
        let counts = Arc::new(Mutex::new(HashMap::<String, usize>::new()));
        let keep_heads = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (log2, heads2, keep2) = (log.clone(), heads.clone(), keep_heads.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let (route, log, counts) = (route.clone(), log2.clone(), counts.clone());
                let heads = Some(heads2.clone()).filter(|_| keep2.load(Ordering::Relaxed));
                std::thread::spawn(move || serve(conn, &*route, &log, heads.as_deref(), &counts));
            }
        });
        Host {
            addr,
            log,
            heads,
            keep_heads,
        }
    }

    /// Keeps each request's header fields from now on (see [`Host::heads`]).
    pub fn keep_headers(&self) {
        self.keep_heads.store(true, Ordering::Relaxed);
    }

    /// Every request's path and header fields (names lower-cased).
    pub fn heads(&self) -> Vec<(String, Vec<(String, String)>)> {
        self.heads.lock().map(|h| h.clone()).unwrap_or_default()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Requests seen so far: (path, arrival).
    pub fn requests(&self) -> Vec<(String, Instant)> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    pub fn paths(&self) -> Vec<String> {
        self.requests().into_iter().map(|(p, _)| p).collect()
    }

    /// Smallest gap between consecutive page requests (robots.txt excluded).
    pub fn min_gap(&self) -> Option<Duration> {
        let times: Vec<Instant> = self
            .requests()
            .into_iter()
            .filter(|(p, _)| p != "/robots.txt" && !p.starts_with("/sitemap"))
            .map(|(_, t)| t)
            .collect();
        times.windows(2).map(|w| w[1].duration_since(w[0])).min()
    }
}

fn serve(
    conn: TcpStream,
    route: &Route,
    log: &Mutex<Vec<(String, Instant)>>,
    heads: Option<&Heads>,
    counts: &Mutex<HashMap<String, usize>>,
) {
    // Small replies on keep-alive connections: without this, Nagle and delayed
    // ACKs add ~40 ms per request.
    let _ = conn.set_nodelay(true);
    let mut reader = BufReader::new(match conn.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    });
    loop {
        let Some((path, fields)) = read_request(&mut reader) else {
            return;
        };
        if let Some(Ok(mut h)) = heads.map(Mutex::lock) {
            h.push((path.clone(), fields));
        }
        let n = {
            let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
            let e = c.entry(path.clone()).or_insert(0);
            *e += 1;
            *e - 1
        };
        if let Ok(mut l) = log.lock() {
            l.push((path.clone(), Instant::now()));
        }
        let mut w = &conn;
        let ok = match route(&path, n) {
            Reply::Html(body) => write_reply(
                &mut w,
                200,
                &[("Content-Type".into(), "text/html; charset=utf-8".into())],
                body.as_bytes(),
            ),
            Reply::Status(code, headers, body) => write_reply(&mut w, code, &headers, &body),
            Reply::Hang => {
                std::thread::sleep(Duration::from_secs(60));
                return;
            }
            Reply::Drip(len) => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len}\r\n\r\n"
                );
                if w.write_all(head.as_bytes()).is_err() {
                    return;
                }
                for _ in 0..len {
                    if w.write_all(b"x").is_err() {
                        return;
                    }
                    std::thread::sleep(Duration::from_secs(1));
                }
                true
            }
            Reply::CutOff => {
                let body = page("Cut", &[]);
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
                    body.len() * 4
                );
                let _ = w.write_all(head.as_bytes());
                let _ = w.write_all(body.as_bytes());
                return; // closes the connection mid-body
            }
            Reply::Huge(len) => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len}\r\n\r\n"
                );
                if w.write_all(head.as_bytes()).is_err() {
                    return;
                }
                let chunk =
                    "<p>filler filler filler filler filler filler filler filler</p>\n".repeat(1024);
                let mut sent = 0u64;
                while sent < len {
                    let n = (len - sent).min(chunk.len() as u64) as usize;
                    if w.write_all(&chunk.as_bytes()[..n]).is_err() {
                        return; // the crawler stopped reading: what we want
                    }
                    sent += n as u64;
                }
                true
            }
        };
        if !ok {
            return;
        }
    }
}

/// Reads one request's line and header fields from a keep-alive
/// connection: (path, fields with lower-cased names); `None` at its end.
pub fn read_request(reader: &mut impl BufRead) -> Option<(String, Vec<(String, String)>)> {
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return None;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let mut fields = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" || h == "\n" {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            fields.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    Some((path, fields))
}

fn write_reply(w: &mut impl Write, code: u16, headers: &[(String, String)], body: &[u8]) -> bool {
    let mut head = format!("HTTP/1.1 {code} X\r\nContent-Length: {}\r\n", body.len());
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let mut msg = head.into_bytes();
    msg.extend_from_slice(body);
    w.write_all(&msg).is_ok()
}

/// A scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("trawl-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d); // leftovers of an earlier run
    std::fs::create_dir_all(d.join("seeds")).unwrap_or_else(|e| panic!("{e}"));
    d
}

/// Writes a config for a test crawl in `dir` (fast politeness unless overridden).
pub fn config(dir: &Path, extra: &str) -> PathBuf {
    let path = dir.join("config.toml");
    let defaults = format!(
        "data_dir = \"{data}\"\nseeds_dir = \"{seeds}\"\nstatus_addr = \"\"\nmin_delay_ms = 50\n\
         timeout_secs = 3\nconnect_timeout_secs = 2\nretry_base_ms = 100\nretry_max_secs = 2\nseed_poll_secs = 1\n\
         shutdown_grace_secs = 2",
        data = dir.join("storage").display(),
        seeds = dir.join("seeds").display(),
    );
    // A key set in `extra` replaces the default.
    let key = |l: &str| l.split('=').next().unwrap_or("").trim().to_string();
    let overridden: Vec<String> = extra.lines().map(key).collect();
    let kept: Vec<&str> = defaults
        .lines()
        .filter(|l| !overridden.contains(&key(l)))
        .collect();
    let text = format!("[crawl]\n{}\n{extra}\n", kept.join("\n"));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    path
}

pub fn trawl() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_trawl"));
    c.env("RUST_LOG", "warn");
    c
}

/// Runs `trawl crawl --once` to the end.
pub fn crawl_once(cfg: &Path, seeds: &Path) -> Output {
    let out = crawl_once_output(cfg, seeds);
    assert!(
        out.status.success(),
        "crawl failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `trawl crawl --once` with this config and seed file, not yet run.
pub fn crawl_once_command(cfg: &Path, seeds: &Path) -> Command {
    let mut c = trawl();
    c.args([
        "--config",
        &cfg.to_string_lossy(),
        "crawl",
        "--once",
        "--seeds",
        &seeds.to_string_lossy(),
    ]);
    c
}

/// Runs `trawl crawl --once` to the end, whether it succeeds or not.
pub fn crawl_once_output(cfg: &Path, seeds: &Path) -> Output {
    crawl_once_command(cfg, seeds)
        .output()
        .unwrap_or_else(|e| panic!("run trawl: {e}"))
}

pub fn spawn_crawl(cfg: &Path, seeds: &Path, once: bool) -> Child {
    let mut args = vec![
        "--config".to_string(),
        cfg.to_string_lossy().into_owned(),
        "crawl".into(),
    ];
    if once {
        args.push("--once".into());
    }
    args.extend(["--seeds".into(), seeds.to_string_lossy().into_owned()]);
    trawl()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn trawl: {e}"))
}

/// JSON lines printed by `trawl export` with extra arguments.
pub fn export_lines(cfg: &Path, extra: &[&str]) -> Vec<serde_json::Value> {
    let out = trawl()
        .args(["--config", &cfg.to_string_lossy(), "export"])
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "export: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// All records in the store, via `trawl export`.
pub fn export(cfg: &Path) -> Vec<serde_json::Value> {
    export_lines(cfg, &[])
}

/// All page outcomes, via `trawl export --outcomes`.
pub fn outcomes(cfg: &Path) -> Vec<serde_json::Value> {
    export_lines(cfg, &["--outcomes"])
}

/// Peak resident memory of this process (Linux), in MB.
pub fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<f64>().ok())
            })
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Reads everything a child wrote on stderr (after it exited).
pub fn stderr_of(child: &mut Child) -> String {
    let mut s = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut s);
    }
    s
}

/// A page with a title, some text and links.
pub fn page(title: &str, links: &[String]) -> String {
    let nav: String = links
        .iter()
        .map(|l| format!("<li><a href=\"{l}\">{l}</a></li>"))
        .collect();
    format!(
        "<html><head><title>{title}</title></head><body><ul>{nav}</ul><article><h1>{title}</h1>\
         <p>This is the page called {title}. It has a paragraph of text long enough to be the main content, \
         with several sentences about {title} so that the extractor finds it.</p></article></body></html>"
    )
}

/// Runs the daemon in-process with config text until nothing is left to
/// fetch (benchmarks). Returns its final counters and the seconds it took.
pub fn run_daemon(cfg_text: &str) -> (trawl_crawl::Snapshot, f64) {
    let cfg = trawl_crawl::Config::parse(cfg_text, Path::new("bench.toml"))
        .unwrap_or_else(|e| panic!("config: {e}"));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("runtime: {e}"));
    let start = Instant::now();
    let snap = rt
        .block_on(trawl_crawl::run(
            cfg,
            trawl_crawl::RunOptions {
                exit_when_idle: true,
                ..Default::default()
            },
        ))
        .unwrap_or_else(|e| panic!("crawl: {e}"));
    (snap, start.elapsed().as_secs_f64())
}

/// A free loopback port for a daemon's status endpoint.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// `GET path` from a daemon's status endpoint: (status line, body).
pub fn endpoint_get(port: u16, path: &str) -> Option<(String, Vec<u8>)> {
    let mut c = TcpStream::connect(("127.0.0.1", port)).ok()?;
    c.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    // HTTP/1.0: the body ends with the connection, no chunked framing.
    write!(c, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n").ok()?;
    let mut s = Vec::new();
    c.read_to_end(&mut s).ok()?;
    let split = s.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&s[..split]);
    Some((head.lines().next()?.to_string(), s[split + 4..].to_vec()))
}

/// The daemon's `/status` snapshot.
pub fn status_json(port: u16) -> Option<serde_json::Value> {
    let (line, body) = endpoint_get(port, "/status")?;
    line.contains(" 200 ")
        .then(|| serde_json::from_slice(&body).ok())
        .flatten()
}
/// warcio's command: `TRAWL_WARCIO`, else `warcio` on the PATH.
pub fn warcio() -> Option<PathBuf> {
    let cands = [
        std::env::var("TRAWL_WARCIO").ok().map(PathBuf::from),
        Some(PathBuf::from("warcio")),
    ];
    for c in cands.into_iter().flatten() {
        if Command::new(&c)
            .arg("--help")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Some(c);
        }
    }
    skip_or_fail("warcio not installed (python3 -m venv V && V/bin/pip install warcio; TRAWL_WARCIO=V/bin/warcio)");
    None
}

pub fn warc_files(data: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data.join("warc"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.to_string_lossy().ends_with(".warc.gz"));
    files.sort();
    files
}

/// `warcio check -v FILE` passes.
pub fn warcio_check(warcio: &Path, file: &Path) {
    let check = Command::new(warcio)
        .args(["check", "-v"])
        .arg(file)
        .output()
        .expect("warcio check");
    assert!(
        check.status.success(),
        "warcio check {}: {}{}",
        file.display(),
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
}

/// A [`redirect_site`] on `ip` crawled once into a scratch directory
/// `name` with config `extra`: (site, directory, config file).
pub fn crawl_redirect_site(ip: &str, name: &str, extra: &str) -> (Host, PathBuf, PathBuf) {
    let site = redirect_site(ip);
    let dir = scratch(name);
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(&seeds, site.url("/") + "\n").expect("seeds");
    let cfg = config(&dir, extra);
    let out = crawl_once(&cfg, &seeds);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (site, dir, cfg)
}

/// Every WARC file under `data` passes `warcio check`, and every record's
/// WARC location is the response of its final URL.
pub fn assert_warc_whole(warcio: &Path, data: &Path, records: &[serde_json::Value]) {
    for f in warc_files(data) {
        warcio_check(warcio, &f);
    }
    for r in records {
        let file = r["warc"]["file"]
            .as_str()
            .unwrap_or_else(|| panic!("no WARC location: {r}"));
        let offset = r["warc"]["offset"].as_u64().unwrap_or_default();
        let mut f = std::fs::File::open(data.join("warc").join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(offset)).expect("seek");
        let rec = trawl_crawl::warc::Reader::new(f)
            .next()
            .expect("a record")
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(rec.kind(), "response");
        assert_eq!(rec.target(), r["final_url"].as_str());
    }
}

pub mod api;
pub mod cdp;
pub mod cluster;
pub mod news;
pub mod pg;
#[allow(dead_code)] // the benches' generated web; tests do not use it
pub mod web;

/// A site for redirects to known pages (issue 34, finding 9): `/old-story`
/// redirects to `/story`, which the index links first; `/moved` redirects
/// to `/fresh`, which is linked only later (by itself and by `/later`).
pub fn redirect_site(ip: &str) -> Host {
    Host::start(ip, |path, _| match path {
        "/robots.txt" => status(404),
        "/" => html(&page("Index", &["/story".into(), "/old-story".into()])),
        "/old-story" => redirect("/story"),
        // Reached through a redirect first, linked later.
        "/story" => html(&page("Story", &["/moved".into()])),
        "/moved" => redirect("/fresh"),
        "/fresh" => html(&page("Fresh", &["/fresh".into(), "/later".into()])),
        "/later" => html(&page("Later", &["/fresh".into()])),
        _ => status(404),
    })
}

/// On a [`redirect_site`]: `/story` and `/fresh` were each requested once
/// and each is the final URL of one record.
pub fn assert_fetched_and_stored_once(host: &Host, records: &[serde_json::Value]) {
    let paths = host.paths();
    let finals: Vec<&str> = records
        .iter()
        .filter_map(|r| r["final_url"].as_str())
        .collect();
    for p in ["/story", "/fresh"] {
        assert_eq!(
            paths.iter().filter(|x| *x == p).count(),
            1,
            "{p} fetched once: {paths:?}"
        );
        assert_eq!(
            finals.iter().filter(|f| f.ends_with(p)).count(),
            1,
            "one record for {p}: {finals:?}"
        );
    }
}

/// A prerequisite of a test is missing: the test is skipped with a message,
/// or fails under `TRAWL_REQUIRE_ALL=1` (set by `.ci/run`), so CI never
/// passes a test it did not run.
pub fn skip_or_fail(why: &str) {
    if std::env::var("TRAWL_REQUIRE_ALL").is_ok_and(|v| v == "1") {
        panic!("TRAWL_REQUIRE_ALL=1 and a prerequisite is missing: {why}");
    }
    eprintln!("SKIP: {why}");
}

/// An article whose only date is "Posted 2 days ago" (issue 41).
pub fn relative_date_story() -> String {
    let story =
        "<p>The harbour wall was rebuilt over the winter, stone by stone, by the same crew.</p>"
            .repeat(4);
    format!(
        "<html><head><title>Harbour wall rebuilt</title></head><body>\
         <nav><a href=\"/\">Home</a></nav><article><h1>Harbour wall rebuilt</h1>\
         <div class=\"post-meta\"><span class=\"date\">Posted 2 days ago</span></div>{story}</article></body></html>"
    )
}

/// The day `days` days before a record's `fetched_at`, as `YYYY-MM-DD`
/// (computed by the system's `date`, not by trawl).
pub fn days_before_fetch(record: &serde_json::Value, days: i64) -> Option<String> {
    let fetched = record["fetched_at"].as_i64().unwrap_or_default();
    let day = (fetched - days * 86_400).div_euclid(86_400);
    let out = Command::new("date")
        .args(["-u", "-d", &format!("@{}", day * 86_400), "+%Y-%m-%d"])
        .output()
        .unwrap_or_else(|e| panic!("date: {e}"));
    trawl_extract::normalize_date(String::from_utf8_lossy(&out.stdout).trim())
}

/// A Python that imports every one of `modules`: `TRAWL_PYTHON`, the
/// python of warcio's venv (`TRAWL_WARCIO`'s directory), or `python3`.
pub fn python_with(modules: &[&str]) -> Option<PathBuf> {
    let venv = std::env::var("TRAWL_WARCIO")
        .ok()
        .and_then(|w| Some(Path::new(&w).parent()?.join("python")));
    let cands = [
        std::env::var("TRAWL_PYTHON").ok().map(PathBuf::from),
        venv,
        Some(PathBuf::from("python3")),
    ];
    let import = format!("import {}", modules.join(", "));
    for c in cands.into_iter().flatten() {
        if Command::new(&c)
            .args(["-c", &import])
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Some(c);
        }
    }
    skip_or_fail(&format!(
        "no python with {} (python3 -m venv V && V/bin/pip install pyarrow pyyaml; TRAWL_PYTHON=V/bin/python)",
        modules.join(", ")
    ));
    None
}

/// Runs `script` in `python` with `args`; its stdout as JSON.
pub fn python_json(python: &Path, script: &str, args: &[&Path]) -> serde_json::Value {
    let out = Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", python.display()));
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// A daemon that must not outlive a failed test (it would load the machine).
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill(); // already exited when the test passed
        let _ = self.0.wait();
    }
}
