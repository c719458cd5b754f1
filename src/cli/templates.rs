//! `trawl templates`: learning a shop's template from saved pages, and
//! listing, showing, exporting and forgetting the stored ones. Learning
//! from more pages than `--samples` checks the template on the others
//! (the crawl's self-check) and says what it found.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Subcommand;

use trawl_crawl::Config;
use trawl_crawl::Templates;
use trawl_extract::{Page, Template};

use super::resources::{open_store, parse_pages, FailedInputs};

#[derive(Debug, Subcommand)]
pub enum TemplatesCommand {
    /// Learn a site's template from saved product pages of one layout (4 or more is best).
    Learn {
        /// Site name the template is stored under (e.g. the shop's host).
        #[arg(long)]
        site: String,
        /// Data directory [default: crawl.data_dir].
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
        /// Learn from the first N pages and check the template on the others,
        /// taking more samples while a field is missing or wrong, as the
        /// crawl does [default: learn from every page given, no check].
        #[arg(long, value_name = "N")]
        samples: Option<usize>,
        /// Saved pages (.html or .html.gz).
        #[arg(required = true, num_args = 2.., value_name = "PATH")]
        paths: Vec<String>,
    },
    /// One line per stored template: site, cluster, version, fields.
    List {
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// A site's templates as JSON.
    Show {
        site: String,
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Every template as JSONL.
    Export {
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Delete a site's templates (the crawl learns them again).
    Forget {
        site: String,
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
}

/// Runs `trawl templates …`.
pub(super) fn run(cmd: TemplatesCommand, config: &Config) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    match cmd {
        TemplatesCommand::Learn {
            site,
            data,
            samples,
            paths,
        } => {
            let (read, failed) = parse_pages(&paths, config);
            let names: Vec<&str> = read.iter().map(|(p, _)| *p).collect();
            let pages: Vec<Page> = read.into_iter().map(|(_, page)| page).collect();
            if pages.len() < 2 {
                return Err(FailedInputs(format!(
                    "cannot learn {site}: {} of {} pages could be read, at least 2 are needed",
                    pages.len(),
                    paths.len()
                ))
                .into());
            }
            let learned = match samples {
                Some(n) => Template::learn_checked(&site, &pages, n),
                None => Template::learn(&site, &pages),
            };
            let t = learned.map_err(|e| {
                FailedInputs(format!(
                    "cannot learn {site} from {}: {e}",
                    names.join(", ")
                ))
            })?;
            let dir = data.unwrap_or_else(|| config.crawl.data_dir.clone());
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            let store = trawl_crawl::store::Store::open(&dir, 16 << 20)?;
            let version = Templates::of(&store).put(&t)?;
            store.flush_blocking()?;
            writeln!(
                out,
                "learned {site} v{version} from {} pages: {} fields ({}); pruned {:.0}% of {} leaves",
                t.samples,
                t.fields.len(),
                t.fields.iter().map(|f| f.field.as_str()).collect::<Vec<_>>().join(", "),
                100.0 * t.pruning.rate(),
                t.pruning.total
            )?;
            if let Some(c) = &t.check {
                writeln!(out, "{}", check_line(c))?;
            }
            if failed > 0 {
                return Ok(1);
            }
        }
        TemplatesCommand::List { data } => {
            let store = open_store(config, data)?;
            for t in Templates::of(&store).list(None)? {
                writeln!(
                    out,
                    "{}\tcluster {}\tv{}\t{} fields: {}",
                    t.site,
                    t.cluster,
                    t.version,
                    t.fields.len(),
                    t.fields
                        .iter()
                        .map(|f| f.field.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )?;
            }
        }
        TemplatesCommand::Show { site, data } => {
            let store = open_store(config, data)?;
            let ts = Templates::of(&store).list(Some(&site))?;
            if ts.is_empty() {
                bail!("no template for {site} (see `trawl templates list`)");
            }
            writeln!(out, "{}", serde_json::to_string_pretty(&ts)?)?;
        }
        TemplatesCommand::Export { data } => {
            let store = open_store(config, data)?;
            for t in Templates::of(&store).list(None)? {
                writeln!(out, "{}", serde_json::to_string(&t)?)?;
            }
        }
        TemplatesCommand::Forget { site, data } => {
            let store = open_store(config, data)?;
            let n = Templates::of(&store).forget_site(&site)?;
            store.flush_blocking()?;
            writeln!(out, "forgot {n} template(s) of {site}")?;
        }
    }
    Ok(0)
}

/// One line on a template's self-check: per field, the checked pages it
/// read in agreement with their own evidence, and the verdict.
fn check_line(c: &trawl_extract::Check) -> String {
    // Specification rows are listed when they count: weak, or read on half
    // the checked pages (not every row a page or two show, nor a row with one
    // text everywhere, which is the fixed part).
    let half = c.pages.div_ceil(2).max(1);
    let fields: Vec<String> = c
        .fields
        .iter()
        .filter(|(f, x)| {
            !f.starts_with("spec:") || c.weak.contains(f) || (x.evidence >= half && x.template > 0)
        })
        .map(|(f, x)| format!("{f} {}/{}", x.template, x.evidence))
        .collect();
    let verdict = if !c.template_is_used() {
        "not used: the single-page product record reads these pages better"
    } else if c.passed() {
        "passed"
    } else {
        "weak fields remain"
    };
    format!(
        "checked on {} pages: {}; template {:.2} vs single-page record {:.2}; {verdict}{}",
        c.pages,
        if fields.is_empty() {
            "no structured data or labelled rows to check against".to_string()
        } else {
            fields.join(", ")
        },
        c.template_score,
        c.record_score,
        if c.weak.is_empty() {
            String::new()
        } else {
            format!(" ({})", c.weak.join(", "))
        }
    )
}
