//! The shared database's schema and its version. `schema.sql` holds the
//! tables as the first cluster-mode trawl made them; later changes are
//! numbered migrations. `trawl_schema` keeps the version a database is at:
//! a worker finding an older one migrates it (under an advisory lock, in one
//! transaction, so workers starting at once do it once), and one finding a
//! newer one refuses to run against it instead of misreading it.

use tokio_postgres::{Client, GenericClient};

use super::error::ClusterError;

/// The tables as the first trawl with cluster mode made them (version 1).
const BASE: &str = include_str!("schema.sql");

/// The version this build reads and writes.
pub const VERSION: i32 = 5;

/// Migrations: the statements that take a database from version `n - 1`
/// to `n`, for n = 2, 3, …
const MIGRATIONS: &[(i32, &str)] = &[
    // URLs set aside (status 3: a stopped host's, a spent budget's) are
    // looked up by when they are due, every few seconds.
    (
        2,
        "CREATE INDEX IF NOT EXISTS trawl_urls_set_aside ON trawl_urls (not_before)
         WHERE status = 3",
    ),
    // Revisits: a URL fetched before waits in status 4 until `not_before`,
    // with what the next visit needs (`revisit`: JSON of trawl's
    // Revisit); the versions a changed page's new record replaced are kept.
    (
        3,
        "ALTER TABLE trawl_urls ADD COLUMN IF NOT EXISTS revisit text;
         CREATE INDEX IF NOT EXISTS trawl_urls_revisits ON trawl_urls (not_before)
         WHERE status = 4;
         CREATE TABLE IF NOT EXISTS trawl_record_versions (
             id          bigint PRIMARY KEY,   -- the replaced record's row number
             url_hash    bigint NOT NULL,
             record      text NOT NULL,
             replaced_by bigint NOT NULL
         );",
    ),
    // The frontier room a host has used: URLs ever queued for it, which
    // `crawl.max_queued_per_host` and `crawl.queued_per_page` bound.
    (
        4,
        "ALTER TABLE trawl_hosts ADD COLUMN IF NOT EXISTS admitted bigint NOT NULL DEFAULT 0;",
    ),
    // When a hub last said a page changed while its visit was queued or
    // under way (seconds since the epoch): a visit that fetched it before
    // then completes with another at once.
    (
        5,
        "ALTER TABLE trawl_urls ADD COLUMN IF NOT EXISTS changed_at float8;",
    ),
];

/// Serialises schema changes between workers starting at once.
const SCHEMA_LOCK: i64 = 0x7472_6177_6c00_0001;

/// The version of the database behind `client`: 0 when it has no trawl
/// tables, 1 when it has the tables but no version (made before versions).
async fn version(client: &impl GenericClient) -> Result<i32, ClusterError> {
    let has = |table: &'static str| async move {
        client
            .query_one("SELECT to_regclass($1) IS NOT NULL", &[&table])
            .await
            .map(|r| r.get::<_, bool>(0))
    };
    if has("trawl_schema").await? {
        let row = client
            .query_opt("SELECT max(version) FROM trawl_schema", &[])
            .await?;
        return Ok(row.and_then(|r| r.get::<_, Option<i32>>(0)).unwrap_or(1));
    }
    Ok(if has("trawl_urls").await? { 1 } else { 0 })
}

/// Brings the database to [`VERSION`], or refuses a newer one.
pub(super) async fn ensure(client: &mut Client) -> Result<(), ClusterError> {
    // Read first, without locks: a paused worker's open transaction may
    // hold the schema's, and a database at the version needs nothing.
    let found = version(client).await?;
    if found == VERSION {
        return Ok(());
    }
    if found > VERSION {
        return Err(newer(found));
    }
    // The lock is the session's, taken before the transaction begins: a
    // transaction that waited for it inside kept the catalog cache it began
    // with, missed the tables the holder had just made, ran the schema
    // again and deadlocked against that worker's first inserts.
    client
        .execute("SELECT pg_advisory_lock($1)", &[&SCHEMA_LOCK])
        .await?;
    let migrated = migrate(client).await;
    let unlocked = client
        .execute("SELECT pg_advisory_unlock($1)", &[&SCHEMA_LOCK])
        .await;
    let from = migrated?;
    unlocked?; // had it failed, the session is gone, and its lock with it
    if (1..VERSION).contains(&from) {
        tracing::info!(from, to = VERSION, "cluster database schema migrated");
    }
    Ok(())
}

/// Under the schema lock: migrates in one transaction; returns the version
/// found.
async fn migrate(client: &mut Client) -> Result<i32, ClusterError> {
    let tx = client.transaction().await?;
    // Another worker may have migrated while this one waited for the lock.
    let found = version(&tx).await?;
    if found > VERSION {
        return Err(newer(found));
    }
    if found == VERSION {
        return Ok(found);
    }
    if found < 1 {
        tx.batch_execute(BASE).await?;
    }
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS trawl_schema (version integer NOT NULL);
         DELETE FROM trawl_schema",
    )
    .await?;
    for (n, sql) in MIGRATIONS {
        if *n > found.max(1) {
            tx.batch_execute(sql).await?;
        }
    }
    tx.execute(
        "INSERT INTO trawl_schema (version) VALUES ($1)",
        &[&VERSION],
    )
    .await?;
    tx.commit().await?;
    Ok(found)
}

fn newer(found: i32) -> ClusterError {
    ClusterError::Db(format!(
        "the cluster database's schema is version {found}, newer than this trawl's \
         ({VERSION}): upgrade trawl on this worker (it would misread the database)"
    ))
}

/// The cluster key of a normalised URL: its xxh3-64 hash as a signed
/// 64-bit integer (PostgreSQL's `bigint`). Collisions are about one in
/// 10^6 at 10 M URLs (a colliding URL is taken as seen).
pub fn url_hash(url: &str) -> i64 {
    xxhash_rust::xxh3::xxh3_64(url.as_bytes()) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_numbered_in_order_up_to_the_version() {
        let numbers: Vec<i32> = MIGRATIONS.iter().map(|(n, _)| *n).collect();
        let expected: Vec<i32> = (2..=VERSION).collect();
        assert_eq!(numbers, expected);
    }

    #[test]
    fn url_hash_is_stable_and_signed() {
        assert_eq!(url_hash("http://a.test/"), url_hash("http://a.test/"));
        assert_ne!(url_hash("http://a.test/"), url_hash("http://a.test/b"));
    }
}
