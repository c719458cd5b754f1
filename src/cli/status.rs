//! `trawl status`: one command with one meaning, whether a daemon runs or
//! not. Human-readable by default; `--json` prints exactly one JSON
//! document (the daemon's `/status` snapshot, or the same shape read from a
//! stopped store with `running: false`); `--metrics` prints Prometheus text
//! either way. Held and stopped hosts say why.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use trawl_crawl::store::{Counter, Store};
use trawl_crawl::Config;
use trawl_crawl::Snapshot;

use super::resources::{daemon_for, data_dir, open_store_read_only};

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Data directory [default: crawl.data_dir].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Print one JSON document (the same keys whether the daemon runs or not;
    /// `running` says which).
    #[arg(long, conflicts_with = "metrics")]
    pub json: bool,
    /// Print Prometheus metrics instead of the summary (works on a stopped store too).
    #[arg(long)]
    pub metrics: bool,
    /// Show a cluster: every worker, the hosts it holds, its rate (postgres://…).
    #[arg(long, value_name = "URL", conflicts_with_all = ["metrics", "json"])]
    pub cluster: Option<String>,
}

pub(super) fn status(args: StatusArgs, config: &Config) -> Result<i32> {
    if let Some(url) = args.cluster.as_deref() {
        return crate::cluster::status(url);
    }
    let dir = data_dir(config, args.data);
    let running = daemon_for(config, &dir).and_then(|d| d.get("/status"));
    let (snap, link_model) = match running {
        Some(body) => (
            serde_json::from_slice::<Snapshot>(&body)
                .context("the daemon's /status answer is not a status document")?,
            None,
        ),
        None => {
            let store = open_store_read_only(config, Some(dir.clone()))?;
            store.guarded(|store| {
                store.verify_checkpoint()?;
                from_store(store, &dir)
            })?
        }
    };
    let mut out = std::io::stdout().lock();
    if args.metrics {
        out.write_all(snap.prometheus().as_bytes())?;
    } else if args.json {
        // Into an io::Error, so a closed pipe is seen as one (exit 0).
        serde_json::to_writer_pretty(&mut out, &snap).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        write_human(&mut out, &snap, &config.crawl.status_addr, link_model)?;
    }
    out.flush()?;
    Ok(0)
}

/// What a stopped store can say, in the daemon's snapshot shape.
fn from_store(store: &Store, dir: &std::path::Path) -> Result<(Snapshot, Option<u64>)> {
    // Counters are not records: a store that lost records says so here.
    store.verify_records_present()?;
    let judged = store.count(Counter::Judged)?;
    let harvest = (judged > 0)
        .then(|| -> Result<_> {
            let relevant = store.count(Counter::Relevant)?;
            Ok(trawl_crawl::HarvestSnapshot {
                judged,
                relevant,
                rate: relevant as f64 / judged as f64,
                ..Default::default()
            })
        })
        .transpose()?;
    let link_model = store
        .meta_get(trawl_crawl::MODEL_KEY)?
        .and_then(|b| trawl_crawl::LinkModel::from_json(&b, 0.05))
        .map(|m| m.updates);
    // The counters the daemon left at its last checkpoint (status codes,
    // bytes, robots.txt denials, …); what the store itself counts wins.
    let saved: Snapshot = store
        .meta_get(trawl_crawl::COUNTERS_KEY)?
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let snap = Snapshot {
        running: false,
        uptime_secs: 0.0,
        pages_per_sec: 0.0,
        inflight: 0,
        held_hosts: Vec::new(),
        hosts: Vec::new(),
        fetched: store.count(Counter::Total)?,
        records: store.last_record_seq()?,
        queue: store.queue_len_hint(),
        data_dir: dir.display().to_string(),
        harvest,
        ..saved
    };
    Ok((snap, link_model))
}

fn write_human(
    out: &mut impl Write,
    s: &Snapshot,
    addr: &str,
    link_model: Option<u64>,
) -> std::io::Result<()> {
    if s.running {
        writeln!(out, "daemon running at {addr}; store {}", s.data_dir)?;
        writeln!(out, "  {}", s.line())?;
        writeln!(
            out,
            "  responses     2xx {} · 3xx {} · 4xx {} · 5xx {} · no answer {} · retries {}",
            s.status_2xx, s.status_3xx, s.status_4xx, s.status_5xx, s.transport_errors, s.retries
        )?;
    } else {
        writeln!(out, "daemon not running; store {}:", s.data_dir)?;
    }
    writeln!(out, "  queued URLs   {}", s.queue)?;
    writeln!(out, "  pages fetched {}", s.fetched)?;
    if s.running {
        writeln!(out, "  records       {} (the last cursor)", s.records)?;
    } else {
        writeln!(
            out,
            "  records       {} (all present; `trawl store check` reads each back)",
            s.records
        )?;
    }
    if s.revisits > 0 {
        writeln!(
            out,
            "  revisits      {} ({} not modified, {} unchanged, {} new versions)",
            s.revisits, s.not_modified, s.unchanged, s.versions
        )?;
    }
    if let Some(h) = &s.harvest {
        writeln!(
            out,
            "  harvest rate  {:.3} ({} relevant of {} judged; series in harvest.jsonl there)",
            h.rate, h.relevant, h.judged
        )?;
    }
    if let Some(n) = link_model {
        writeln!(out, "  link model    {n} updates")?;
    }
    if s.hosts_stopped > 0 {
        writeln!(
            out,
            "  hosts stopped {} by their error budget ({} URLs set aside, offered again later)",
            s.hosts_stopped, s.host_stopped_urls
        )?;
    }
    if !s.held_hosts.is_empty() {
        writeln!(out, "  held hosts    {}", s.held_hosts.len())?;
        for h in &s.held_hosts {
            writeln!(out, "    {}: {}", h.host, h.reason)?;
        }
    }
    if let Some(e) = &s.last_error {
        writeln!(out, "  last error    {e}")?;
    }
    Ok(())
}
