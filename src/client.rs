//! The command line's side of a running daemon's status endpoint: `trawl
//! status` and `trawl export` ask the daemon that has the store open (sled
//! lets one process open it) instead of opening it themselves.

use std::io::Write;
use std::time::Duration;

use anyhow::{bail, Context, Result};

/// A daemon's endpoint, if one answers there.
pub struct Daemon {
    base: String,
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
}

impl Daemon {
    /// A client for `addr` (`host:port`); `None` when the address is empty
    /// (the endpoint is off) or no client can be made. `token`: sent as a
    /// bearer token to an address off loopback (where every route needs it).
    pub fn at(addr: &str, token: &str) -> Option<Daemon> {
        if addr.is_empty() {
            return None;
        }
        // Without it, building the client panics in a build whose reqwest
        // has no default TLS provider (every `cargo build`; the test build
        // gets one from a dev-dependency, which hid this).
        if !trawl_crawl::install_tls_provider() {
            return None;
        }
        let off_loopback = addr
            .parse::<std::net::SocketAddr>()
            .is_ok_and(|a| !a.ip().is_loopback());
        let mut headers = reqwest::header::HeaderMap::new();
        if off_loopback && !token.is_empty() {
            let mut value =
                reqwest::header::HeaderValue::from_str(&format!("Bearer {token}")).ok()?;
            value.set_sensitive(true);
            headers.insert(reqwest::header::AUTHORIZATION, value);
        }
        let client = reqwest::Client::builder()
            .default_headers(headers)
            .connect_timeout(Duration::from_millis(500))
            // Between two reads: a big export keeps the stream busy.
            .read_timeout(Duration::from_secs(300))
            .no_proxy()
            .build()
            .ok()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .ok()?;
        Some(Daemon {
            base: format!("http://{addr}"),
            client,
            runtime,
        })
    }

    /// Whether the daemon answering here crawls into the store at `dir`
    /// (a daemon serving another store is not asked for its records).
    pub fn owns(&self, dir: &std::path::Path) -> bool {
        #[derive(serde::Deserialize)]
        struct Owner {
            data_dir: std::path::PathBuf,
        }
        let theirs = self
            .get("/status")
            .and_then(|body| serde_json::from_slice::<Owner>(&body).ok());
        match (theirs, std::fs::canonicalize(dir)) {
            (Some(t), Ok(ours)) => t.data_dir == ours,
            _ => false,
        }
    }

    /// The body of a 200 answer to `GET path`; `None` when nothing answers
    /// or the answer is not 200.
    pub fn get(&self, path: &str) -> Option<Vec<u8>> {
        self.runtime.block_on(async {
            let resp = self
                .client
                .get(format!("{}{path}", self.base))
                .send()
                .await
                .ok()?;
            if resp.status() != reqwest::StatusCode::OK {
                return None;
            }
            resp.bytes().await.ok().map(|b| b.to_vec())
        })
    }

    /// Streams the JSON lines of `GET path` (an `/export`) to `out`;
    /// returns (lines written, the largest `seq` seen, or `since`). `None`
    /// when the daemon does not answer 200 (the caller reads the store
    /// itself); an error when the transfer breaks off after it began.
    pub fn export(
        &self,
        path: &str,
        since: u64,
        out: &mut dyn Write,
    ) -> Result<Option<(usize, u64)>> {
        self.runtime.block_on(async {
            let Ok(mut resp) = self.client.get(format!("{}{path}", self.base)).send().await else {
                return Ok(None);
            };
            if resp.status() != reqwest::StatusCode::OK {
                return Ok(None);
            }
            let mut lines = Lines {
                partial: Vec::new(),
                count: 0,
                cursor: since,
            };
            loop {
                match resp.chunk().await {
                    Ok(Some(chunk)) => {
                        out.write_all(&chunk)?;
                        lines.feed(&chunk);
                    }
                    Ok(None) => break,
                    Err(e) => {
                        out.flush()?;
                        return Err(e).with_context(|| {
                            format!(
                                "the daemon's export broke off after {} complete records \
                                 (cursor {}); run the export again from there",
                                lines.count, lines.cursor
                            )
                        });
                    }
                }
            }
            if !lines.partial.is_empty() {
                bail!("the daemon's export ended inside a record");
            }
            Ok(Some((lines.count, lines.cursor)))
        })
    }
}

/// Counts complete lines across chunks and keeps the largest `seq`.
struct Lines {
    partial: Vec<u8>,
    count: usize,
    cursor: u64,
}

#[derive(serde::Deserialize)]
struct Seq {
    seq: Option<u64>,
}

impl Lines {
    fn feed(&mut self, chunk: &[u8]) {
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.partial.extend_from_slice(&rest[..end]);
            rest = &rest[end + 1..];
            let line = std::mem::take(&mut self.partial);
            if line.is_empty() {
                continue;
            }
            self.count += 1;
            if let Some(seq) = serde_json::from_slice::<Seq>(&line)
                .ok()
                .and_then(|s| s.seq)
            {
                self.cursor = self.cursor.max(seq);
            }
        }
        self.partial.extend_from_slice(rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_of_the_daemon_installs_its_tls_provider_first() {
        // Regression: `trawl status` and `trawl export` panicked while a
        // daemon ran ("No rustls crypto provider is configured") in a plain
        // `cargo build`; only the daemon's fetcher installed the provider.
        // Nothing else in this test binary builds a fetcher.
        assert!(Daemon::at("127.0.0.1:9", "").is_some());
        assert!(trawl_crawl::has_tls_provider());
    }

    #[test]
    fn lines_split_across_chunks_are_counted_once() {
        let mut l = Lines {
            partial: Vec::new(),
            count: 0,
            cursor: 3,
        };
        l.feed(b"{\"seq\":4,\"text\":\"a\"}\n{\"se");
        l.feed(b"q\":5}\n");
        l.feed(b"{\"url\":\"x\"}\n");
        assert_eq!((l.count, l.cursor), (3, 5));
        assert!(l.partial.is_empty());
    }
}
