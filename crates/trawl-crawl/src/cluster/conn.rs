//! One connection to the shared database that reconnects by itself: a
//! worker's scheduler and writer each own one, so a restarted PostgreSQL
//! costs a failed call and a backoff, never a dead worker.

use tokio_postgres::{Client, NoTls};

use super::error::ClusterError;

/// A lazily (re)connected client.
pub struct Conn {
    url: String,
    client: Option<Client>,
    /// Session limits set at each connect (see [`Conn::limit_transactions`]).
    tx_limit: Option<std::time::Duration>,
    /// The frontier room each host may use through finished pages' links.
    pub(super) queue_cap: Option<crate::store::QueueCap>,
    /// Links left out by `queue_cap` through this connection.
    pub(super) capped: u64,
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conn")
            .field("connected", &self.client.is_some())
            .finish()
    }
}

impl Conn {
    /// A connection to `url` (`postgres://user@host:port/db`); nothing is
    /// sent until the first call. The URL is checked here.
    pub fn new(url: &str) -> Result<Conn, ClusterError> {
        url.parse::<tokio_postgres::Config>()
            .map_err(|e| ClusterError::Db(format!("bad cluster URL {url:?}: {e}")))?;
        Ok(Conn {
            url: url.to_string(),
            client: None,
            tx_limit: None,
            queue_cap: None,
            capped: 0,
        })
    }

    /// Connects now and brings the schema to this build's version (a
    /// worker's first step, so a wrong URL, an unreachable database or one
    /// made by a newer trawl is reported at start).
    pub async fn connect(url: &str) -> Result<Conn, ClusterError> {
        let mut c = Conn::new(url)?;
        c.client().await?;
        Ok(c)
    }

    /// Bounds the URLs each host may have had queued through finished
    /// pages' links (seeds are queued without it).
    pub fn set_queue_cap(&mut self, cap: Option<crate::store::QueueCap>) {
        self.queue_cap = cap;
    }

    /// Links left out through this connection because their host had used
    /// its frontier room.
    pub fn capped(&self) -> u64 {
        self.capped
    }

    /// Bounds how long this connection may sit idle inside a transaction
    /// (`idle_in_transaction_session_timeout`) or wait for a row lock
    /// (`lock_timeout`). A worker paused mid-transaction (SIGSTOP, a long
    /// GC-like stall, a frozen VM) would otherwise hold its row locks, and
    /// so its hosts, for as long as it is paused: PostgreSQL ends its
    /// session after `limit` instead, and the others go on. Workers set it
    /// below their lease.
    pub fn limit_transactions(&mut self, limit: std::time::Duration) {
        self.tx_limit = Some(limit);
        self.client = None;
    }

    /// The client, connecting first if there is none or the last one broke.
    pub async fn client(&mut self) -> Result<&mut Client, ClusterError> {
        if self.client.as_ref().is_none_or(|c| c.is_closed()) {
            self.client = None;
            let (mut client, connection) = tokio_postgres::connect(&self.url, NoTls)
                .await
                .map_err(ClusterError::from)?;
            tokio::spawn(async move {
                // Ends when the server goes away; the next call reconnects.
                if let Err(e) = connection.await {
                    tracing::debug!(error = %e, "cluster database connection ended");
                }
            });
            if let Some(limit) = self.tx_limit {
                let ms = limit.as_millis().max(1);
                client
                    .batch_execute(&format!(
                        "SET idle_in_transaction_session_timeout = {ms}; SET lock_timeout = {ms}"
                    ))
                    .await?;
            }
            // The schema at this build's version (made or migrated), or
            // an error for a database a newer trawl made.
            super::schema::ensure(&mut client).await?;
            self.client = Some(client);
        }
        match self.client.as_mut() {
            Some(c) => Ok(c),
            None => Err(ClusterError::Unreachable("no connection".into())),
        }
    }

    /// Drops the client after an error that may have broken it.
    pub fn reset(&mut self) {
        self.client = None;
    }
}
