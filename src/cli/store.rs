//! `trawl store check` and `trawl store salvage`: reading a stopped
//! store back and saving what is intact.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Subcommand;

use trawl_crawl::store::raw::SeqSet;
use trawl_crawl::store::CheckReport;
use trawl_crawl::Config;

use super::resources::{data_dir, open_store_read_only};

#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Read every record and page outcome back and compare with the store's
    /// counters and its checkpoint file; names what is missing or damaged.
    /// A damaged database is also scanned raw: records sled cannot give are
    /// counted from its files.
    Check {
        /// Data directory [default: crawl.data_dir].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Write every intact record as JSONL: what the database gives, then
    /// (when it is damaged, whatever sled says of it) each intact record a
    /// raw scan of its files finds that the database did not give.
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
    // Whatever sled says of the database, the records are also looked for
    // in its raw files: sled may fail to open it, stop reading at
    // "corrupted data", or open it and silently hold less.
    let store = match open_store_read_only(config, Some(dir.clone())) {
        Ok(store) => Some(store),
        Err(e) if dir.join("db").is_file() => {
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "store {}:", dir.join("db").display())?;
            writeln!(
                stdout,
                "  cannot be opened: {}",
                crate::terminal::error_message(&e)
            )?;
            None
        }
        Err(e) => return Err(e),
    };
    let mut sink = Sink::create(out.as_deref())?;
    let mut seen = SeqSet::default();
    let clean = match &store {
        Some(store) => {
            let report = store.check(|seq, rec| {
                seen.insert(seq);
                sink.write(rec);
            });
            print_report(store, &report)?;
            report.is_clean()
        }
        None => false,
    };
    if !clean {
        let scan = trawl_crawl::store::raw::scan(&dir, &mut seen, |rec| {
            sink.write(rec);
            Ok(())
        })
        .with_context(|| format!("reading {}", dir.join("db").display()))?;
        let mut stdout = std::io::stdout().lock();
        writeln!(
            stdout,
            "  raw scan of {} bytes: {} intact records {}{}",
            scan.bytes,
            scan.found,
            if store.is_some() {
                "more than the database gave"
            } else {
                "found"
            },
            if scan.found > 0 {
                format!(" (seq {} to {})", scan.first, scan.last)
            } else {
                String::new()
            }
        )?;
    }
    let written = sink.finish()?;
    let file = dir.join("db").display().to_string();
    let mut stdout = std::io::stdout().lock();
    if let Some(p) = &out {
        writeln!(
            stdout,
            "  {written} intact records written to {}",
            p.display()
        )?;
    }
    if clean {
        writeln!(stdout, "  no damage found")?;
        return Ok(0);
    }
    stdout.flush()?;
    eprintln!(
        "trawl: error: the store's database {file} is damaged; move the store away and start a new one{}",
        if out.is_some() {
            " (its intact records are saved)"
        } else {
            "; `trawl store salvage --out FILE` saves the intact records the database and the raw scan give"
        }
    );
    Ok(1)
}

/// Where salvaged records go (`None`: `check`, nothing written): each
/// record a JSON line, as `export` writes them.
struct Sink {
    out: Option<std::io::BufWriter<std::fs::File>>,
    written: u64,
    error: Option<std::io::Error>,
}

impl Sink {
    fn create(path: Option<&std::path::Path>) -> Result<Sink> {
        let out = match path {
            Some(p) => Some(std::io::BufWriter::new(
                std::fs::File::create(p)
                    .with_context(|| format!("cannot write {}", p.display()))?,
            )),
            None => None,
        };
        Ok(Sink {
            out,
            written: 0,
            error: None,
        })
    }

    /// Writes `rec`; the first error is kept for [`Sink::finish`].
    fn write(&mut self, rec: &trawl_crawl::Record) {
        let (Some(w), None) = (self.out.as_mut(), &self.error) else {
            return;
        };
        match serde_json::to_writer(&mut *w, rec)
            .map_err(std::io::Error::from)
            .and_then(|_| w.write_all(b"\n"))
        {
            Ok(()) => self.written += 1,
            Err(e) => self.error = Some(e),
        }
    }

    /// Flushes; the records written.
    fn finish(self) -> Result<u64> {
        if let Some(e) = self.error {
            bail!("writing the salvaged records: {e}");
        }
        if let Some(mut w) = self.out {
            w.flush().context("writing the salvaged records")?;
        }
        Ok(self.written)
    }
}

/// What reading the store through the database found.
fn print_report(store: &trawl_crawl::store::Store, report: &CheckReport) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "store {}:", store.db_file())?;
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
    Ok(())
}
