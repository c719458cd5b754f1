//! The daemon's loopback HTTP endpoint:
//! - `GET /status`  JSON snapshot of the counters;
//! - `GET /metrics` the same in Prometheus text format;
//! - `GET /export?since=N&limit=M&type=T` records after cursor N as JSONL
//!   (how `trawl export` reads a store the running daemon has open).
//!
//! A deliberately small HTTP/1.1 server: one request per connection, request
//! line and headers capped at 8 KiB, a 10 s read timeout.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::stats::Stats;
use crate::store::export::{write_jsonl, ExportQuery};
use crate::store::Store;

/// The store the endpoint exports from: `None` while the daemon reopens it.
pub type StoreSlot = Arc<RwLock<Option<Store>>>;

pub async fn serve(listener: TcpListener, stats: Arc<Stats>, slot: StoreSlot) {
    loop {
        let Ok((conn, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let stats = stats.clone();
        let store = slot.read().ok().and_then(|g| g.clone());
        tokio::spawn(async move {
            // A client that hangs up early is not our error.
            let _ = handle(conn, &stats, store.as_ref()).await;
        });
    }
}

fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

async fn handle(mut conn: TcpStream, stats: &Stats, store: Option<&Store>) -> std::io::Result<()> {
    let mut buf = vec![0u8; 8192];
    let mut len = 0;
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), conn.read(&mut buf[len..]))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "read timeout"))??;
        if n == 0 {
            break;
        }
        len += n;
        if buf[..len].windows(4).any(|w| w == b"\r\n\r\n") || len == buf.len() {
            break;
        }
    }
    let head = String::from_utf8_lossy(&buf[..len]);
    let target = head
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let (status, ctype, body) = match path {
        "/status" => (
            "200 OK",
            "application/json",
            serde_json::to_vec(&stats.snapshot()).unwrap_or_default(),
        ),
        "/metrics" => (
            "200 OK",
            "text/plain; version=0.0.4",
            stats.snapshot().prometheus().into_bytes(),
        ),
        "/export" if store.is_none() => (
            "503 Service Unavailable",
            "text/plain",
            b"the store cannot write and is being reopened; try again shortly\n".to_vec(),
        ),
        "/export" => {
            let store = store.ok_or_else(|| std::io::Error::other("no store"))?;
            let q = ExportQuery {
                since: query_param(query, "since")
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0),
                limit: query_param(query, "limit")
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0),
                page_type: query_param(query, "type").map(str::to_string),
            };
            // Records served must survive a crash: flush first.
            let mut out = Vec::new();
            let outcomes = query_param(query, "outcomes") == Some("1");
            match store
                .flush()
                .await
                .map_err(|e| e.to_string())
                .and_then(|_| {
                    if outcomes {
                        crate::store::export::write_outcomes(store, &mut out)
                            .map(|_| ())
                            .map_err(|e| e.to_string())
                    } else {
                        write_jsonl(store, &q, &mut out)
                            .map(|_| ())
                            .map_err(|e| e.to_string())
                    }
                }) {
                Ok(_) => ("200 OK", "application/x-ndjson", out),
                Err(e) => ("500 Internal Server Error", "text/plain", e.into_bytes()),
            }
        }
        _ => (
            "404 Not Found",
            "text/plain",
            b"try /status, /metrics or /export?since=N\n".to_vec(),
        ),
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    conn.write_all(header.as_bytes()).await?;
    conn.write_all(&body).await?;
    conn.shutdown().await
}
