//! `trawl eval`: extraction, templates and product fields scored
//! against a dataset's ground truth.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use trawl_extract::{Algorithm, Learning, Options};

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
    /// Train the page-type model on the dataset (cross-validated report, then a
    /// fit on all pages) and write it to FILE, e.g. crates/trawl-extract/models/page_type.json.
    #[arg(long, value_name = "FILE")]
    pub train_types: Option<PathBuf>,
    /// Print the N worst pages (by F1) after the table.
    #[arg(long, default_value_t = 0)]
    pub worst: usize,
    /// swde-book: learn the template from the first N pages (default: the
    /// curve for N = 2..8).
    #[arg(long, value_name = "N")]
    pub learn: Option<usize>,
    /// swde-book: learn from K seeded random draws of N pages (--learn N,
    /// default 4) instead of the first N, and report each draw and the
    /// minimum per field. Example: trawl eval --dataset ../shared/datasets/swde-book --draws 20
    #[arg(long, value_name = "K")]
    pub draws: Option<usize>,
    /// With --draws: each draw takes C more pages on which the template
    /// checks itself and takes more samples while a field is missing or
    /// wrong (as the crawl does; crawl.template_checks).
    #[arg(long, value_name = "C", default_value_t = 0)]
    pub check: usize,
    /// "Where we lose": score two prediction files (JSONL with `source` and
    /// `text`, as --predictions writes them; a peer's in the same form) on the
    /// dataset, page by page, and list the pages the second wins by most
    /// (--worst of them, default 25). No extraction runs.
    /// Example: trawl eval --dataset ../shared/datasets/trafilatura-eval
    ///          --losses ours.jsonl trafilatura.jsonl --worst 40
    #[arg(long, num_args = 2, value_names = ["OURS", "PEER"])]
    pub losses: Option<Vec<PathBuf>>,
    /// Score single-page product records against a product truth file
    /// (JSONL: `id` or `file`, then `name`, `price`, `currency`, `sku`, `gtin`,
    /// `brand` as a value or a list of accepted values; `[]` = the page has
    /// none; format in src/eval/products.rs). Pages are read from
    /// DATASET/html/ID.html.gz (or DATASET/ID.html). Prints per-field P/R/F1
    /// overall and per fold (sites kept together); --worst N lists misses.
    /// Example: trawl eval --dataset ../shared/datasets/wcxb-dev
    ///          --products tests/data/products/wcxb-dev.jsonl
    #[arg(long, value_name = "TRUTH")]
    pub products: Option<PathBuf>,
    /// Self-labelled product set: on every page whose JSON-LD or microdata
    /// states a price the page also shows, the markup is the label; the
    /// product record is read with the markup ignored (as for a shop without
    /// any) and scored per field (name, price, currency, availability, sku,
    /// gtin, mpn, brand) and per fold, sites kept together, at most 10 pages
    /// per site. Works on every dataset, swde-book included.
    /// Example: trawl eval --dataset ../shared/datasets/trafilatura-eval --products-shown
    #[arg(long, conflicts_with = "products")]
    pub products_shown: bool,
    /// Score the records' title, author and publish date against the
    /// dataset's truth (wcxb-dev), per page type, each page with its URL;
    /// --worst N lists N misses per field.
    /// Example: trawl eval --dataset ../shared/datasets/wcxb-dev --metadata --worst 20
    #[arg(long)]
    pub metadata: bool,
    /// With --metadata: a peer's title, author and date per page (JSONL:
    /// `source`, `title`, `author`, `date`; scripts/peer_trafilatura.py
    /// --metadata writes trafilatura's), scored beside ours per page type;
    /// --worst N lists N pages per field the peer gets right and we miss.
    /// Example: trawl eval --dataset ../shared/datasets/wcxb-dev --metadata
    ///          --peer trafilatura-meta.jsonl --worst 20
    #[arg(long, value_name = "FILE", requires = "metadata")]
    pub peer: Option<PathBuf>,
    /// Score the records' Markdown against the dataset's structure truth
    /// (wcxb-dev's `main_content_markdown`, CleanEval's `<h>`/`<l>`
    /// markers): F1 of headings, list items, table cells, code lines,
    /// links and images, per page type. On markdown-cases, `trawl eval`
    /// runs the conversion cases (--worst 1 prints each failure's sides).
    /// Example: trawl eval --dataset ../shared/datasets/wcxb-dev --structure
    ///          --structure-peer trafilatura=peers/trafilatura-md.jsonl
    #[arg(long)]
    pub structure: bool,
    /// With --structure: a peer's Markdown per page (JSONL: `source`,
    /// `markdown`; scripts/peer_markdown.py writes them), as NAME=FILE,
    /// scored beside trawl's in the same run (repeatable).
    #[arg(long, value_name = "NAME=FILE", requires = "structure")]
    pub structure_peer: Vec<String>,
    /// Leave the records' Markdown unwritten (to time what it costs).
    #[arg(long)]
    pub no_markdown: bool,
}

pub(super) fn eval(args: EvalArgs) -> Result<i32> {
    // Written through a handle, so a closed pipe is an error (exit quietly), not a panic.
    let mut out = std::io::stdout().lock();
    if let Some([ours, peer]) = args.losses.as_deref() {
        let top = if args.worst > 0 { args.worst } else { 25 };
        write!(
            out,
            "{}",
            crate::eval::losses::report(&args.dataset, ours, peer, top)?
        )?;
        return Ok(0);
    }
    if let Some(truth) = &args.products {
        let cases = crate::eval::products::load(truth, &args.dataset)?;
        let report = crate::eval::products::run(&cases)?;
        let name = truth
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("products");
        write!(
            out,
            "{}",
            crate::eval::products::format(&report, name, args.worst)
        )?;
        return Ok(0);
    }
    if args.products_shown {
        let s = crate::eval::shown::run(&args.dataset)?;
        let name = args
            .dataset
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("dataset");
        write!(out, "{}", crate::eval::shown::format(&s, name, args.worst))?;
        return Ok(0);
    }
    if crate::eval::markdown::is_cases(&args.dataset) {
        let cases = crate::eval::markdown::load_cases(&args.dataset)?;
        let results = crate::eval::markdown::run_cases(&cases);
        let text = crate::eval::markdown::format_cases(&results, args.worst > 0);
        write!(out, "{text}")?;
        return Ok(0);
    }
    if crate::eval::swde::detect(&args.dataset).is_some() {
        return eval_templates(&args, &mut out);
    }
    let algorithms: Vec<Algorithm> = if args.algorithm == "all" {
        Algorithm::ALL.to_vec()
    } else {
        vec![Algorithm::parse(&args.algorithm).map_err(|e| anyhow::anyhow!("--algorithm: {e}"))?]
    };
    let name = args
        .dataset
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("dataset")
        .to_string();
    let pages = crate::eval::load(&args.dataset, args.limit)?;
    if args.structure {
        let mut peers = Vec::new();
        for spec in &args.structure_peer {
            let (peer, file) = spec
                .split_once('=')
                .with_context(|| format!("--structure-peer {spec:?}: expected NAME=FILE"))?;
            let md = crate::eval::markdown::load_peer(std::path::Path::new(file))?;
            peers.push((peer.to_string(), md));
        }
        let sides = crate::eval::markdown::run(&pages, args.threads, &peers);
        write!(
            out,
            "{}",
            crate::eval::markdown::format(&sides, &name, args.worst)
        )?;
        return Ok(0);
    }
    if args.metadata {
        let scored = crate::eval::metadata::run(&args.dataset, &pages, args.threads)?;
        let report = match &args.peer {
            Some(path) => {
                let peer = crate::eval::metadata::read_peer(path)?;
                crate::eval::metadata::format_vs_peer(&scored, &peer, &name, args.worst)
            }
            None => crate::eval::metadata::format(&scored, &name, args.worst),
        };
        write!(out, "{report}")?;
        return Ok(0);
    }
    if let Some(model_path) = &args.train_types {
        return train_types(&args, model_path, &pages, &name, &mut out);
    }
    eval_algorithms(&args, algorithms, &pages, &name, &mut out)
}

/// SWDE's templates: learning curves by sample size (paper 003's and
/// trawl's learning), or `--draws` seeded samples.
fn eval_templates(args: &EvalArgs, out: &mut impl Write) -> Result<i32> {
    let mut d = crate::eval::swde::load(&args.dataset, args.limit)?;
    if let Some(k) = args.draws {
        let n = args.learn.unwrap_or(4);
        let runs: Vec<_> = crate::eval::swde::draws(d.pages.len(), n + args.check, k, 1)
            .into_iter()
            .map(|s| {
                let r = crate::eval::swde::run_sample(&mut d, &s, n, Learning::Trawl);
                (s, r)
            })
            .collect();
        let what = match args.check {
            0 => "trawl (majority, labelled rows)".to_string(),
            c => format!("trawl, checked on {c} more pages"),
        };
        writeln!(out, "{}", crate::eval::swde::format_draws(&runs, &d, &what))?;
        return Ok(0);
    }
    let ns: Vec<usize> = match args.learn {
        Some(n) => vec![n],
        None => (2..=8).collect(),
    };
    for (how, what) in [
        (Learning::Paper, "paper 003 (same on every sample)"),
        (Learning::Trawl, "trawl (majority, labelled rows)"),
    ] {
        let runs: Vec<_> = ns
            .iter()
            .map(|&n| crate::eval::swde::run(&d, n, n, how))
            .collect();
        writeln!(out, "{}", crate::eval::swde::format(&runs, &d, what))?;
    }
    Ok(0)
}

/// `--train-types`: the page-type model trained with folds by site, the
/// extraction with held-out types, and the model written to `model_path`.
fn train_types(
    args: &EvalArgs,
    model_path: &std::path::Path,
    pages: &[crate::eval::Loaded],
    name: &str,
    out: &mut impl Write,
) -> Result<i32> {
    let report = crate::eval::types::train(pages);
    write!(out, "{}", crate::eval::types::format(&report))?;
    // Extraction with each page typed by a model that never saw it.
    let held_out = |c: &crate::eval::Case| report.held_out.get(&c.id).copied();
    let ex = crate::eval::run_typed(pages, &Options::default(), args.threads, &held_out);
    write!(
        out,
        "{}",
        crate::eval::format(&ex, &format!("{name}, held-out types"))
    )?;
    std::fs::write(model_path, report.model_json())
        .with_context(|| format!("cannot write {}", model_path.display()))?;
    writeln!(out, "model written to {}", model_path.display())?;
    Ok(0)
}

/// The text scores of each algorithm (with `--worst` pages and
/// `--predictions`).
fn eval_algorithms(
    args: &EvalArgs,
    algorithms: Vec<Algorithm>,
    pages: &[crate::eval::Loaded],
    name: &str,
    out: &mut impl Write,
) -> Result<i32> {
    for algorithm in algorithms {
        let report = crate::eval::run(
            pages,
            algorithm,
            args.threads,
            args.oracle_types,
            !args.no_markdown,
        );
        write!(out, "{}", crate::eval::format(&report, name))?;
        if args.worst > 0 {
            let mut worst: Vec<_> = report.pages.iter().collect();
            worst.sort_by(|a, b| a.score.f1.total_cmp(&b.score.f1));
            for p in worst.iter().take(args.worst) {
                writeln!(
                    out,
                    "  {} {:<14} F1 {:.3} P {:.3} R {:.3} predicted {} {}",
                    p.id,
                    p.kind,
                    p.score.f1,
                    p.score.p,
                    p.score.r,
                    p.predicted_type.unwrap_or("-"),
                    p.error.as_deref().unwrap_or("")
                )?;
            }
        }
        writeln!(out)?;
        if let Some(path) = &args.predictions {
            let mut f = std::io::BufWriter::new(
                std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            );
            for (p, loaded) in report.pages.iter().zip(pages) {
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
