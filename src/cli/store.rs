//! `trawl store check` and `trawl store salvage`: reading a stopped
//! store back and saving what is intact.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Subcommand;

use trawl_crawl::config::Config;

use super::open_store;

#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Read every record and page outcome back and compare with the store's
    /// counters and its checkpoint file; names what is missing or damaged.
    Check {
        /// Data directory [default: crawl.data_dir].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Write every intact record as JSONL (what `export` gives, minus the damage).
    Salvage {
        /// Where to write the records.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Data directory [default: crawl.data_dir].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
}

pub(super) fn store_cmd(cmd: StoreCommand, config: &Config) -> Result<i32> {
    let (data, out) = match cmd {
        StoreCommand::Check { data } => (data, None),
        StoreCommand::Salvage { out, data } => (data, Some(out)),
    };
    let store = open_store(config, data)?;
    let mut sink = match &out {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
        None => None,
    };
    let mut write_error = None;
    let report = store.check(|_, rec| {
        if let (Some(w), None) = (sink.as_mut(), &write_error) {
            if let Err(e) = serde_json::to_writer(&mut *w, rec)
                .map_err(std::io::Error::from)
                .and_then(|_| w.write_all(b"\n"))
            {
                write_error = Some(e);
            }
        }
    });
    if let Some(e) = write_error {
        bail!("writing the salvaged records: {e}");
    }
    if let Some(mut w) = sink {
        w.flush()?;
    }
    let file = store.db_file();
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "store {file}:")?;
    writeln!(
        stdout,
        "  records       {} intact of {} expected{}",
        report.intact,
        report.expected,
        report
            .checkpoint
            .map_or(String::new(), |c| format!(" (checkpoint: {c})"))
    )?;
    writeln!(
        stdout,
        "  page outcomes {} read, {} undecodable",
        report.outcomes, report.bad_outcomes
    )?;
    if !report.damaged.is_empty() {
        let shown: Vec<String> = report.damaged.iter().take(20).map(u64::to_string).collect();
        writeln!(
            stdout,
            "  damaged or missing records: {} ({}{})",
            report.damaged.len(),
            shown.join(", "),
            if report.damaged.len() > 20 {
                ", …"
            } else {
                ""
            }
        )?;
    }
    if let Some(e) = &report.stopped_by {
        writeln!(stdout, "  reading stopped at an error: {e}")?;
    }
    if let Some(p) = &out {
        writeln!(
            stdout,
            "  {} intact records written to {}",
            report.intact,
            p.display()
        )?;
    }
    if report.is_clean() {
        writeln!(stdout, "  no damage found")?;
        Ok(0)
    } else {
        eprintln!(
            "trawl: error: the store's database {file} is damaged{}; move the store away and start a new one{}",
            if out.is_some() { "" } else { "; `trawl store salvage --out FILE` saves what is intact" },
            if out.is_some() { " (its intact records are saved)" } else { "" }
        );
        Ok(1)
    }
}
