-- trawl's shared frontier (cluster mode). Plain SQL, no extensions.
-- Version 1 of the schema, as the first cluster-mode trawl made it: applied
-- to an empty database under an advisory lock. Changes since are numbered
-- migrations in schema.rs (the version is kept in trawl_schema); this file
-- does not change.

-- Seed lines, numbered once cluster-wide; queued URLs carry the number.
CREATE TABLE IF NOT EXISTS trawl_seeds (
    id      serial PRIMARY KEY,
    url     text NOT NULL UNIQUE,
    seed    text NOT NULL              -- the seed's options (JSON of trawl's Seed)
);

-- One row per host: politeness state, work counter and the lease.
CREATE TABLE IF NOT EXISTS trawl_hosts (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE,  -- host[:port], as trawl keys hosts
    queued      integer NOT NULL DEFAULT 0,   -- URLs with status 0
    best        real NOT NULL DEFAULT 0,      -- highest priority queued (focus)
    next_fetch  timestamptz NOT NULL DEFAULT now(), -- no request before this
    lease_owner text,
    lease_until timestamptz,
    epoch       bigint NOT NULL DEFAULT 0,    -- fencing token, +1 per claim
    fetched     bigint NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS trawl_hosts_ready ON trawl_hosts (next_fetch) WHERE queued > 0;

-- Every URL ever seen, keyed by the hash of its normalised form.
CREATE TABLE IF NOT EXISTS trawl_urls (
    hash       bigint PRIMARY KEY,           -- xxh3-64 of the normalised URL
    host_id    bigint NOT NULL,
    url        text NOT NULL,
    status     smallint NOT NULL DEFAULT 0,  -- 0 queued, 1 done, 2 dropped, 3 set aside until not_before
    priority   real NOT NULL,
    depth      smallint NOT NULL,
    seed       integer NOT NULL,
    attempt    smallint NOT NULL DEFAULT 0,
    kind       smallint NOT NULL,            -- 0 page, 1 sitemap
    features   bytea,                        -- focus link features
    not_before timestamptz NOT NULL DEFAULT now(),
    outcome    text,                         -- JSON of trawl's PageOutcome
    done_by    text,
    done_at    timestamptz
);
CREATE INDEX IF NOT EXISTS trawl_urls_queued ON trawl_urls (host_id, priority DESC) WHERE status = 0;

-- Exported records. `xid` orders them by commit safety: the export reads
-- only rows older than every transaction still running, so a resumable
-- cursor (xid, id) never skips a record that commits late.
CREATE TABLE IF NOT EXISTS trawl_records (
    url_hash bigint PRIMARY KEY,
    xid      xid8 NOT NULL DEFAULT pg_current_xact_id(),
    id       bigserial,
    record   text NOT NULL,                  -- JSON of trawl's Record
    simhash  bigint                          -- of its text, for near-duplicates
);
CREATE INDEX IF NOT EXISTS trawl_records_cursor ON trawl_records (xid, id);
-- The SimHash's four 16-bit bands: a near-duplicate shares one exactly.
CREATE INDEX IF NOT EXISTS trawl_records_b0 ON trawl_records (((simhash >> 48) & 65535));
CREATE INDEX IF NOT EXISTS trawl_records_b1 ON trawl_records (((simhash >> 32) & 65535));
CREATE INDEX IF NOT EXISTS trawl_records_b2 ON trawl_records (((simhash >> 16) & 65535));
CREATE INDEX IF NOT EXISTS trawl_records_b3 ON trawl_records ((simhash & 65535));

-- Workers and their counters, for `trawl status --cluster`.
CREATE TABLE IF NOT EXISTS trawl_workers (
    name      text PRIMARY KEY,
    started   timestamptz NOT NULL DEFAULT now(),
    seen      timestamptz NOT NULL DEFAULT now(),
    fetched   bigint NOT NULL DEFAULT 0,
    refused   bigint NOT NULL DEFAULT 0,
    hosts     integer NOT NULL DEFAULT 0,
    stopped   boolean NOT NULL DEFAULT false
);

-- Pages fetched per seed and worker, for the page budgets (`max_pages`,
-- a seed's `max_pages`): each worker adds to its own rows only, so the
-- counts never contend; a budget reads their sum.
CREATE TABLE IF NOT EXISTS trawl_counts (
    seed    integer NOT NULL,
    worker  text NOT NULL,
    fetched bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (seed, worker)
);

-- E-commerce templates, once per site and cluster: the highest version
-- learned by any worker wins; workers read them when they claim a host.
CREATE TABLE IF NOT EXISTS trawl_templates (
    site       text NOT NULL,
    cluster    integer NOT NULL,
    version    integer NOT NULL,
    template   text NOT NULL,              -- JSON of trawl's Template
    learned_by text NOT NULL,
    learned_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site, cluster)
);
