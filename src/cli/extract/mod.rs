//! `trawl extract`: saved pages in, text and metadata (or template
//! fields) out, on all cores, in input order. Archives (WARC, JSONL) give
//! many pages each ([`archive`]).

mod archive;
mod output;
mod window;

pub(super) use output::Human;
use output::{write_chunks, write_content, write_human, Format};

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;

use trawl_crawl::Config;
use trawl_crawl::Templates;
use trawl_extract::{read_input, Algorithm, Charset, Extracted, Options};

use super::resources::{open_store, parse_page};

#[derive(Debug, Clone, Args)]
pub struct ExtractArgs {
    /// Algorithm: auto, cetd-tpc, cc, article-std, list-rank, segment [default: from config, auto]
    #[arg(long, short, value_parser = algorithm_name)]
    pub algorithm: Option<Algorithm>,
    /// One JSON object per input, in input order (the same as --format json).
    #[arg(long)]
    pub jsonl: bool,
    /// What to print: `text` (a header and the plain text, for reading),
    /// `json` (one JSON object per input: every field, `markdown`
    /// included), `markdown` (the main content as Markdown) or `html` (as
    /// clean HTML).
    /// Example: trawl extract --format markdown page.html > page.md
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Leave images out of the Markdown (and HTML).
    #[arg(long)]
    pub no_images: bool,
    /// Print chunks of each page's Markdown instead, one JSON line per
    /// chunk (source, url, chunk, headings, markdown, start, end, tokens),
    /// each at most TOKENS words (as `trawl export --chunks`).
    /// Example: trawl extract --chunks 300 page.html
    #[arg(long, value_name = "TOKENS", conflicts_with_all = ["format", "jsonl", "template"], value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub chunks: Option<u32>,
    /// The page's URL (helps page typing and charset detection).
    #[arg(long)]
    pub url: Option<String>,
    /// Charset to use instead of the page's own declaration (a BOM still wins);
    /// any WHATWG encoding label (utf-8, windows-1252, shift_jis, gbk, ...).
    #[arg(long, value_parser = charset_label)]
    pub charset: Option<Charset>,
    /// Worker threads [default: from config, all cores].
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Apply this site's stored template instead of the extractor (product fields).
    #[arg(long, value_name = "SITE")]
    pub template: Option<String>,
    /// Data directory holding the templates [default: crawl.data_dir].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Input files; `-` reads standard input. `.warc` / `.warc.gz` files
    /// (Common Crawl's too) give each HTML response with its own URL and
    /// charset; `.jsonl` files give one page per `{"url": …, "html": …}` line.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

/// Why `bytes` are not a web page, if they are plainly not: JSON or a TOML
/// table at the start, or no markup at all in the first 64 KiB. (Binary
/// bodies are refused by the extractor itself.)
fn not_html(bytes: &[u8]) -> Option<&'static str> {
    // UTF-16 (a BOM) is decoded by the extractor; its markup has NULs between.
    if bytes.starts_with(&[0xFE, 0xFF]) || bytes.starts_with(&[0xFF, 0xFE]) {
        return None;
    }
    let head = &bytes[..bytes.len().min(64 << 10)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    match head[start] {
        b'{' => return Some("it starts like JSON"),
        b'[' => return Some("it starts like JSON or a TOML table"),
        _ => {}
    }
    let tag = head.windows(2).any(|w| {
        w[0] == b'<' && (w[1].is_ascii_alphabetic() || matches!(w[1], b'!' | b'/' | b'?'))
    });
    (!tag).then_some("no markup found")
}

/// `--algorithm` checked by clap, so a bad name is a usage error (exit 2).
fn algorithm_name(s: &str) -> Result<Algorithm, String> {
    Algorithm::parse(s).map_err(|e| e.to_string())
}

/// `--charset` checked by clap, so a bad label is a usage error (exit 2).
fn charset_label(s: &str) -> Result<Charset, String> {
    Charset::from_label(s).map_err(|e| e.to_string())
}

impl ExtractArgs {
    /// `--format`, or `json` under `--jsonl`, or `text`.
    fn output(&self) -> Result<Format> {
        match (self.format, self.jsonl) {
            (Some(f), true) if f != Format::Json => {
                bail!(
                    "--jsonl is --format json; it cannot be combined with --format {}",
                    format!("{f:?}").to_lowercase()
                )
            }
            (Some(f), _) => Ok(f),
            (None, true) => Ok(Format::Json),
            (None, false) => Ok(Format::Text),
        }
    }
}

#[derive(Serialize)]
struct JsonRecord<'a> {
    source: &'a str,
    #[serde(flatten)]
    record: &'a Extracted,
}

pub(super) fn extract(args: ExtractArgs, config: &Config) -> Result<i32> {
    let format = args.output()?;
    if let Some(site) = &args.template {
        if !matches!(format, Format::Json | Format::Text) {
            bail!(
                "--template prints the template's fields as JSON; --format {} does not apply",
                format!("{format:?}").to_lowercase()
            );
        }
        return extract_with_template(&args, site, config);
    }
    let mut opts: Options = config.extract_options();
    if args.no_images {
        opts.images = false;
    }
    if format == Format::Html {
        opts.html = true;
    }
    let format = match args.chunks {
        Some(budget) => Format::Chunks(budget),
        None => format,
    };
    if let Some(a) = args.algorithm {
        opts.algorithm = a;
    }
    if args.charset.is_some() {
        opts.charset = args.charset;
    }
    if args.paths.iter().filter(|p| *p == "-").count() > 1 {
        bail!("`-` (stdin) can be given only once");
    }
    let threads = args.threads.unwrap_or(config.extract.threads);
    if args.paths.iter().any(|p| archive::is_archive(p)) {
        // Archives and single pages, in the order given.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .context("cannot start worker threads")?;
        let mut code = 0;
        let mut pages: Vec<String> = Vec::new();
        let one = |pages: &mut Vec<String>| -> Result<i32> {
            if pages.is_empty() {
                return Ok(0);
            }
            let run = ExtractArgs {
                paths: std::mem::take(pages),
                ..args.clone()
            };
            extract(run, config)
        };
        for path in &args.paths {
            if archive::is_archive(path) {
                code = code.max(one(&mut pages)?);
                let mut out = std::io::stdout().lock();
                if !archive::extract(path, &opts, &pool, format, &mut out)? {
                    code = 1;
                }
            } else {
                pages.push(path.clone());
            }
        }
        return Ok(code.max(one(&mut pages)?));
    }
    let many = args.paths.len() > 1;
    for_each_input(
        &args.paths,
        threads,
        |path| {
            let bytes = read_input(path, opts.max_bytes as u64).map_err(|e| e.to_string())?;
            if let Some(why) = not_html(&bytes) {
                return Err(format!(
                    "{path}: not HTML ({why}); trawl extract reads web pages"
                ));
            }
            let opts = opts.clone().with_url_opt(args.url.clone());
            trawl_extract::extract(&bytes, &opts).map_err(|e| format!("{path}: {e}"))
        },
        |out, path, rec| match format {
            Format::Json => {
                // Straight into the buffered output: a `String` per record,
                // grown by doubling, then copied out, cost a copy per growth.
                let line = JsonRecord {
                    source: path,
                    record: &rec,
                };
                serde_json::to_writer(&mut *out, &line)?;
                out.write_all(b"\n")
            }
            Format::Text => write_human(out, path, &rec, many),
            Format::Markdown | Format::Html => write_content(out, path, &rec, format, many),
            Format::Chunks(budget) => write_chunks(out, path, &rec, budget),
        },
    )
}

/// Runs `work` on every input on `threads` cores through the window
/// ([`window::in_order`]) and hands the results to `emit` in input order on
/// stdout. An input that fails is one `trawl: error:` line on stderr and
/// the others go on. Returns the exit code: 1 if any input failed.
fn for_each_input<T: Send>(
    paths: &[String],
    threads: usize,
    work: impl Fn(&str) -> Result<T, String> + Sync,
    mut emit: impl FnMut(&mut dyn Write, &str, T) -> std::io::Result<()>,
) -> Result<i32> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = 0usize;
    let items = paths.iter().map(|p| (p.as_str(), p.as_str()));
    window::in_order(items, &pool, work, |path, res| {
        match res.unwrap_or_else(|| Err(format!("{path}: the extractor panicked"))) {
            Ok(v) => emit(&mut out, path, v),
            Err(e) => {
                failed += 1;
                out.flush()?;
                eprintln!("trawl: error: {e}");
                Ok(())
            }
        }
    })?;
    out.flush()?;
    Ok(if failed > 0 { 1 } else { 0 })
}

/// `extract --template`: each page read, parsed and matched against the
/// site's templates on all cores, one JSON line per page in input order; a
/// page that cannot be read is one error line and the others go on.
fn extract_with_template(args: &ExtractArgs, site: &str, config: &Config) -> Result<i32> {
    let store = open_store(config, args.data.clone())?;
    let ts = Templates::of(&store).list(Some(site))?;
    if ts.is_empty() {
        bail!("no template for {site} (learn one with `trawl templates learn`)");
    }
    let opts = config.extract_options();
    let threads = args.threads.unwrap_or(config.extract.threads);
    for_each_input(
        &args.paths,
        threads,
        |path| {
            let page = parse_page(path, &opts)?;
            // The template the page matches best.
            let (t, got) = ts
                .iter()
                .map(|t| (t, t.apply(&page)))
                .max_by(|a, b| a.1.matched.total_cmp(&b.1.matched))
                .ok_or_else(|| format!("{path}: no template"))?;
            Ok(serde_json::json!({
                "source": path,
                "type": "product",
                "template": format!("{}#{}", t.site, t.cluster),
                "template_version": t.version,
                "matched": got.matched,
                "fields": got.values,
            }))
        },
        |out, _, rec| writeln!(out, "{rec}"),
    )
}

#[cfg(test)]
mod tests {
    use super::not_html;

    #[test]
    fn json_toml_and_plain_text_are_not_html() {
        assert!(not_html(b"{\"a\": \"<p>x</p>\"}").is_some());
        assert!(not_html(b"[crawl]\nmin_delay_ms = 5\n").is_some());
        assert!(not_html(b"key = \"value\"\n").is_some());
        assert!(not_html(b"\xEF\xBB\xBF  <!doctype html><p>x").is_none());
        assert!(not_html(b"Some text <b>bold</b>").is_none());
        assert!(not_html(b"").is_none(), "empty input has its own error");
    }
}
