//! `trawl store check` and `trawl store salvage`: reading a stopped
//! store back and saving what is intact.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Subcommand;

use trawl_crawl::config::Config;

use trawl_crawl::store::StoreError;

use super::{data_dir, open_store_read_only};

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
    let dir = data_dir(config, data);
    let store = match open_store_read_only(config, Some(dir.clone())) {
        Ok(store) => store,
        Err(e)
            if matches!(
                e.downcast_ref::<StoreError>(),
                Some(StoreError::Damaged { .. })
            ) =>
        {
            return raw(&dir, out.as_deref(), &e);
        }
        Err(e) => return Err(e),
    };
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

/// A store sled cannot open: its records are looked for in the raw file.
fn raw(dir: &std::path::Path, out: Option<&std::path::Path>, why: &anyhow::Error) -> Result<i32> {
    let scan = trawl_crawl::store::raw::scan(dir)
        .with_context(|| format!("reading {}", dir.join("db").display()))?;
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "store {}:", dir.join("db").display())?;
    writeln!(stdout, "  cannot be opened: {}", crate::error_message(why))?;
    let (first, last) = (
        scan.records.keys().next().copied().unwrap_or(0),
        scan.records.keys().next_back().copied().unwrap_or(0),
    );
    writeln!(
        stdout,
        "  raw scan of {} bytes: {} intact records (seq {first} to {last})",
        scan.bytes,
        scan.records.len()
    )?;
    if let Some(p) = out {
        let mut w = std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        );
        for rec in scan.records.values() {
            serde_json::to_writer(&mut w, rec).map_err(std::io::Error::from)?;
            w.write_all(b"\n")?;
        }
        w.flush()?;
        writeln!(
            stdout,
            "  {} intact records written to {}",
            scan.records.len(),
            p.display()
        )?;
    }
    stdout.flush()?;
    eprintln!(
        "trawl: error: the store's database is damaged; move the store away and start a new one{}",
        if out.is_some() {
            " (its intact records are saved)"
        } else {
            "; `trawl store salvage --out FILE` saves the intact records the raw scan finds"
        }
    );
    Ok(1)
}
