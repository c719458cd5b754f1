//! What the daemon's API tests share: a daemon's files and start, a
//! request to its endpoint with or without the token, waiting for it.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use super::{config, free_port, scratch, status_json, trawl, Host, KillOnDrop};

pub const TOKEN: &str = "t0ken-for-tests";

/// `METHOD path` with `body` to the endpoint on `port` (HTTP/1.0); the
/// status code and the body. `token`: sent as a bearer token.
pub fn send(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    content_type: &str,
    body: &[u8],
) -> (u16, String) {
    let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(120)))
        .expect("timeout");
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n{auth}Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = c.write_all(head.as_bytes());
    let _ = c.write_all(body); // a refused body may be cut short
    let mut s = Vec::new();
    let _ = c.read_to_end(&mut s);
    let split = s
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(s.len());
    let head = String::from_utf8_lossy(&s[..split]).into_owned();
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = String::from_utf8_lossy(s.get(split + 4..).unwrap_or_default()).into_owned();
    (code, body)
}

pub fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

pub fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

pub fn story(title: &str, links: &[&str]) -> String {
    let a: String = links
        .iter()
        .map(|l| format!("<a href=\"{l}\">{l}</a> "))
        .collect();
    format!(
        "<html><head><title>{title}</title></head><body><article><h1>{title}</h1><p>{}</p>\
         <p>{a}</p></article></body></html>",
        "The lifeboat crew were called out twice in one night to the same stretch of coast. "
            .repeat(4)
    )
}

/// A daemon's files in the scratch directory `name`: a config whose
/// endpoint is on a free port (`extra`: more of it after the port) and a
/// seed file naming `host` at depth 0, which makes it a host a seed file
/// names (none: an empty file). Returns (dir, port, config, seeds).
pub fn daemon_files(
    name: &str,
    host: Option<&Host>,
    extra: &str,
) -> (
    std::path::PathBuf,
    u16,
    std::path::PathBuf,
    std::path::PathBuf,
) {
    let dir = scratch(name);
    let port = free_port();
    let cfg = config(
        &dir,
        &format!("status_addr = \"127.0.0.1:{port}\"\n{extra}"),
    );
    let seeds = dir.join("seeds/s.txt");
    let line = host.map_or(String::new(), |h| format!("{} depth=0\n", h.url("/")));
    std::fs::write(&seeds, line).expect("seeds");
    (dir, port, cfg, seeds)
}

pub fn wait_for_endpoint(port: u16) {
    wait_until("the endpoint", Duration::from_secs(20), || {
        status_json(port).is_some()
    });
}

pub fn start(cfg: &std::path::Path, seeds: &std::path::Path, token: Option<&str>) -> KillOnDrop {
    let mut cmd = trawl();
    cmd.args(["--config", &cfg.to_string_lossy(), "crawl"])
        .args(["--seeds", &seeds.to_string_lossy()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match token {
        Some(t) => cmd.env("TRAWL_API_TOKEN", t),
        None => cmd.env_remove("TRAWL_API_TOKEN"),
    };
    KillOnDrop(cmd.spawn().expect("spawn daemon"))
}

/// `POST path` with a JSON body and the token; the status and the JSON
/// answer (a body that is not JSON: as a string).
pub fn post_json(port: u16, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
    let (code, text) = send(
        port,
        "POST",
        path,
        Some(TOKEN),
        "application/json",
        body.to_string().as_bytes(),
    );
    let v = serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text));
    (code, v)
}
