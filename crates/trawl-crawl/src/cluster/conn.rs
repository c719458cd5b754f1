//! One connection to the shared database that reconnects by itself: a
//! worker's scheduler and writer each own one, so a restarted PostgreSQL
//! costs a failed call and a backoff, never a dead worker.

use tokio_postgres::{Client, NoTls};

use super::ClusterError;

/// The schema, applied at every connect (idempotent).
const SCHEMA: &str = include_str!("schema.sql");

/// Serialises schema changes between workers starting at once.
const SCHEMA_LOCK: i64 = 0x7472_6177_6c00_0001;

/// A lazily (re)connected client.
pub struct Conn {
    url: String,
    client: Option<Client>,
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
        })
    }

    /// Connects now and applies the schema (a worker's first step, so a
    /// wrong URL or an unreachable database is reported at start).
    pub async fn connect(url: &str) -> Result<Conn, ClusterError> {
        let mut c = Conn::new(url)?;
        c.client().await?;
        Ok(c)
    }

    /// The client, connecting first if there is none or the last one broke.
    pub async fn client(&mut self) -> Result<&mut Client, ClusterError> {
        if self.client.as_ref().is_none_or(|c| c.is_closed()) {
            self.client = None;
            let (mut client, connection) = tokio_postgres::connect(&self.url, NoTls)
                .await
                .map_err(|e| ClusterError::Unreachable(super::full_message(&e)))?;
            tokio::spawn(async move {
                // Ends when the server goes away; the next call reconnects.
                if let Err(e) = connection.await {
                    tracing::debug!(error = %e, "cluster database connection ended");
                }
            });
            let tx = client.transaction().await?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
                .await?;
            tx.batch_execute(SCHEMA).await?;
            tx.commit().await?;
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
