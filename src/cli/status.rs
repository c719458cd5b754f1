//! `trawl status`: a daemon's progress, or what a stopped store holds.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use trawl_crawl::config::Config;

use super::{daemon_for, data_dir, open_store};

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Data directory [default: crawl.data_dir].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Print Prometheus metrics instead of the summary.
    #[arg(long)]
    pub metrics: bool,
    /// Show a cluster: every worker, the hosts it holds, its rate (postgres://…).
    #[arg(long, value_name = "URL", conflicts_with = "metrics")]
    pub cluster: Option<String>,
}

pub(super) fn status(args: StatusArgs, config: &Config) -> Result<i32> {
    if let Some(url) = args.cluster.as_deref() {
        return crate::cluster::status(url);
    }
    let dir = data_dir(config, args.data);
    let path = if args.metrics { "/metrics" } else { "/status" };
    if let Some(daemon) = daemon_for(config, &dir) {
        if let Some(body) = daemon.get(path) {
            if args.metrics {
                std::io::stdout().write_all(&body)?;
            } else {
                let snap: serde_json::Value = serde_json::from_slice(&body)?;
                println!("daemon running at {}", config.crawl.status_addr);
                println!("{}", serde_json::to_string_pretty(&snap)?);
            }
            return Ok(0);
        }
    }
    let store = open_store(config, Some(dir.clone()))?;
    store.verify_checkpoint()?;
    println!("daemon not running; store {}:", dir.display());
    println!("  queued URLs   {}", store.queue_len_hint());
    println!(
        "  pages fetched {}",
        store.count(trawl_crawl::store::Counter::Total)?
    );
    println!(
        "  records       {} (the last cursor)",
        store.last_record_seq()?
    );
    let judged = store.count(trawl_crawl::store::Counter::Judged)?;
    if judged > 0 {
        let relevant = store.count(trawl_crawl::store::Counter::Relevant)?;
        println!(
            "  harvest rate  {:.3} ({relevant} relevant of {judged} judged; series in harvest.jsonl there)",
            relevant as f64 / judged as f64,
        );
    }
    if let Some(m) = store
        .meta_get(trawl_crawl::focus::MODEL_KEY)?
        .and_then(|b| trawl_crawl::focus::LinkModel::from_json(&b, 0.05))
    {
        println!("  link model    {} updates", m.updates);
    }
    Ok(0)
}
