//! Command-line interface: argument definitions and the commands' glue.
//! Logic lives in the library modules; this file wires arguments to them and
//! formats their results.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use rayon::prelude::*;
use serde::Serialize;

use crate::config::Config;
use crate::extract::{extract_bytes, Algorithm, Extracted, Options};
use crate::html::charset;
use crate::input::read_input;

/// trawl: a focused web crawler with built-in content extraction.
///
/// `trawl extract` pulls the main text and metadata out of saved pages;
/// `trawl eval` measures extraction quality and speed on a labelled dataset.
#[derive(Debug, Parser)]
#[command(name = "trawl", version, about, long_about)]
pub struct Cli {
    /// Configuration file (every setting is documented in the shipped config.toml).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Extract main content and metadata from saved pages (.html, .html.gz or - for stdin).
    ///
    /// Examples:
    ///   trawl extract page.html
    ///   trawl extract --jsonl --threads 4 pages/*.html.gz > out.jsonl
    ///   curl -s URL | trawl extract --url URL -
    Extract(ExtractArgs),
    /// Score extraction against a dataset with ground truth (wcxb-dev or cleaneval layout).
    ///
    /// Prints word-level P/R/F1 overall and per page type, and pages/s and MB/s per core.
    /// Example: trawl eval --dataset ../shared/datasets/wcxb-dev --algorithm all
    Eval(EvalArgs),
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Algorithm: auto, cetd-tpc, cc, article-std, list-rank, segment [default: from config, auto]
    #[arg(long, short)]
    pub algorithm: Option<String>,
    /// One JSON object per input, in input order.
    #[arg(long)]
    pub jsonl: bool,
    /// The page's URL (helps page typing and charset detection).
    #[arg(long)]
    pub url: Option<String>,
    /// Charset to use instead of the page's own declaration (a BOM still wins).
    #[arg(long)]
    pub charset: Option<String>,
    /// Worker threads [default: from config, all cores].
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Input files; `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Dataset directory, e.g. ../shared/datasets/wcxb-dev or ../shared/datasets/cleaneval.
    #[arg(long)]
    pub dataset: PathBuf,
    /// Algorithm name, or `all` for every algorithm.
    #[arg(long, short, default_value = "auto")]
    pub algorithm: String,
    /// Worker threads (speed is reported per core either way).
    #[arg(long, short = 'j', default_value_t = 1)]
    pub threads: usize,
    /// Evaluate only the first N pages.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Write predictions as JSONL (`source`, `text`) for ../shared/tools/score.py.
    #[arg(long, value_name = "FILE")]
    pub predictions: Option<PathBuf>,
    /// Give extractors the dataset's page types instead of classifying.
    #[arg(long)]
    pub oracle_types: bool,
    /// Print the N worst pages (by F1) after the table.
    #[arg(long, default_value_t = 0)]
    pub worst: usize,
}

/// Runs the parsed command. Returns the process exit code.
pub fn run(cli: Cli) -> Result<i32> {
    let config = match &cli.config {
        Some(p) => Config::load(p)?,
        None => {
            let default = PathBuf::from("config.toml");
            if default.is_file() {
                Config::load(&default)?
            } else {
                Config::default()
            }
        }
    };
    match cli.command {
        Command::Extract(args) => extract(args, &config),
        Command::Eval(args) => eval(args),
    }
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    source: &'a str,
    #[serde(flatten)]
    record: &'a Extracted,
}

fn extract(args: ExtractArgs, config: &Config) -> Result<i32> {
    let mut opts: Options = config.extract_options();
    if let Some(name) = &args.algorithm {
        opts.algorithm = Algorithm::parse(name)?;
    }
    if let Some(cs) = &args.charset {
        opts.charset = Some(charset::encoding_for_label(cs)?);
    }
    let threads = args.threads.unwrap_or(config.extract.threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")?;
    if args.paths.iter().filter(|p| *p == "-").count() > 1 {
        bail!("`-` (stdin) can be given only once");
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    // Chunks keep output in input order while bounding memory.
    for chunk in args.paths.chunks(256) {
        let results: Vec<_> = pool.install(|| {
            chunk
                .par_iter()
                .map(|path| {
                    let bytes =
                        read_input(path, opts.max_bytes as u64).map_err(|e| e.to_string())?;
                    extract_bytes(&bytes, args.url.as_deref(), &opts)
                        .map_err(|e| format!("{path}: {e}"))
                })
                .collect()
        });
        for (path, res) in chunk.iter().zip(results) {
            match res {
                Ok(rec) => {
                    if args.jsonl {
                        let line = serde_json::to_string(&JsonRecord {
                            source: path,
                            record: &rec,
                        })?;
                        writeln!(out, "{line}")?;
                    } else {
                        write_human(&mut out, path, &rec, args.paths.len() > 1)?;
                    }
                }
                Err(e) => {
                    failed += 1;
                    out.flush()?;
                    eprintln!("trawl: error: {e}");
                }
            }
        }
    }
    out.flush()?;
    Ok(if failed > 0 { 1 } else { 0 })
}

fn write_human(
    out: &mut impl Write,
    path: &str,
    rec: &Extracted,
    many: bool,
) -> std::io::Result<()> {
    if many {
        writeln!(out, "==> {path} <==")?;
    }
    let fields = [
        ("Title", &rec.title),
        ("Author", &rec.author),
        ("Date", &rec.date),
        ("Language", &rec.language),
    ];
    for (label, v) in fields {
        if let Some(v) = v {
            writeln!(out, "{label}: {v}")?;
        }
    }
    writeln!(out, "Type: {}", rec.page_type.name())?;
    writeln!(out)?;
    writeln!(out, "{}", rec.text)?;
    if many {
        writeln!(out)?;
    }
    Ok(())
}

fn eval(args: EvalArgs) -> Result<i32> {
    let algorithms: Vec<Algorithm> = if args.algorithm == "all" {
        Algorithm::ALL.to_vec()
    } else {
        vec![Algorithm::parse(&args.algorithm)?]
    };
    let name = args
        .dataset
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("dataset")
        .to_string();
    let pages = crate::eval::load(&args.dataset, args.limit)?;
    for algorithm in algorithms {
        let report = crate::eval::run(&pages, algorithm, args.threads, args.oracle_types);
        print!("{}", crate::eval::format(&report, &name));
        if args.worst > 0 {
            let mut worst: Vec<_> = report.pages.iter().collect();
            worst.sort_by(|a, b| a.score.f1.total_cmp(&b.score.f1));
            for p in worst.iter().take(args.worst) {
                println!(
                    "  {} {:<14} F1 {:.3} P {:.3} R {:.3} predicted {} {}",
                    p.id,
                    p.kind,
                    p.score.f1,
                    p.score.p,
                    p.score.r,
                    p.predicted_type.unwrap_or("-"),
                    p.error.as_deref().unwrap_or("")
                );
            }
        }
        println!();
        if let Some(path) = &args.predictions {
            let mut f = std::io::BufWriter::new(
                std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            );
            for (p, loaded) in report.pages.iter().zip(&pages) {
                let line = serde_json::json!({
                    "source": loaded.case.html.to_string_lossy(),
                    "text": p.text,
                    "page_type": p.predicted_type,
                });
                writeln!(f, "{line}")?;
            }
            f.flush()?;
        }
    }
    Ok(0)
}
