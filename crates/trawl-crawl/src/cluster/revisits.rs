//! A cluster's side of "a hub says this page changed": the shared frontier
//! gives each known page a sitemap, a feed or a hub page says changed
//! after its last fetch a conditional revisit now (status 4, due), with
//! the validators and text hash of its last outcome, as the one-machine
//! store does (`store::revisits`).

use super::error::ClusterError;
use super::schema::url_hash;

/// Schedules the conditional revisits of `changed` (URL, when it changed,
/// in seconds since the epoch) under `tx`; `hub` (the URL that said so)
/// is left out.
pub(super) async fn refresh(
    tx: &tokio_postgres::Transaction<'_>,
    hub: &str,
    changed: &[(String, u64)],
) -> Result<(), ClusterError> {
    let (hashes, ats): (Vec<i64>, Vec<f64>) = changed
        .iter()
        .filter(|(u, _)| u != hub)
        .map(|(u, at)| (url_hash(u), *at as f64))
        .unzip();
    if hashes.is_empty() {
        return Ok(());
    }
    // Fetched for good: revisited now, conditionally on what it answered.
    tx.execute(
        "UPDATE trawl_urls u SET status = 4, not_before = now(), attempt = 0,
           revisit = json_build_object(
             'interval', 0, 'hub', false, 'visits', 1,
             'etag', u.outcome::json->>'etag',
             'last_modified', u.outcome::json->>'last_modified',
             'content_hash', u.outcome::json->>'content_hash',
             'version', coalesce((SELECT (r.record::json->>'version')::int
                                  FROM trawl_records r WHERE r.url_hash = u.hash), 1))::text
         FROM unnest($1::bigint[], $2::float8[]) AS c(hash, at)
         WHERE u.hash = c.hash AND u.status = 1 AND u.outcome IS NOT NULL
           AND EXISTS (SELECT 1 FROM trawl_records r WHERE r.url_hash = u.hash)
           AND (u.outcome::json->>'fetched_at')::float8 <= c.at",
        &[&hashes, &ats],
    )
    .await?;
    // Revisited later anyway: now.
    tx.execute(
        "UPDATE trawl_urls u SET not_before = now()
         FROM unnest($1::bigint[], $2::float8[]) AS c(hash, at)
         WHERE u.hash = c.hash AND u.status = 4 AND u.not_before > now()
           AND (u.outcome::json->>'fetched_at')::float8 <= c.at",
        &[&hashes, &ats],
    )
    .await?;
    // Queued or under way: the visit's end looks at `changed_at` (a fetch
    // made before the change is followed by another at once).
    tx.execute(
        "UPDATE trawl_urls u SET changed_at = c.at
         FROM unnest($1::bigint[], $2::float8[]) AS c(hash, at)
         WHERE u.hash = c.hash AND u.status = 0 AND u.outcome IS NOT NULL
           AND (u.outcome::json->>'fetched_at')::float8 <= c.at
           AND (u.changed_at IS NULL OR u.changed_at < c.at)",
        &[&hashes, &ats],
    )
    .await?;
    Ok(())
}
