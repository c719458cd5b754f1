//! How `trawl extract` writes what it extracted: the `--format` choices,
//! a page for people (a metadata header, then the text), the main content
//! alone as Markdown or HTML, and `--chunks`.

use std::io::Write;

use trawl_extract::Extracted;

/// `trawl extract --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Markdown,
    Html,
    /// `--chunks TOKENS` (not a `--format` value).
    #[value(skip)]
    Chunks(u32),
}

pub(super) fn write_human(
    out: &mut dyn Write,
    path: &str,
    rec: &Extracted,
    many: bool,
) -> std::io::Result<()> {
    let page = Human {
        title: rec.title.as_deref(),
        author: rec.author.as_deref(),
        date: rec.date.as_deref(),
        language: rec.language.as_deref(),
        page_type: rec.page_type,
        text: &rec.text,
    };
    page.write(out, Some(path).filter(|_| many))
}

/// What `--format text` prints of a page: a header of its metadata, then
/// its text (`trawl extract`, `trawl fetch`).
pub(in crate::cli) struct Human<'a> {
    pub title: Option<&'a str>,
    pub author: Option<&'a str>,
    pub date: Option<&'a str>,
    pub language: Option<&'a str>,
    pub page_type: trawl_extract::PageType,
    pub text: &'a str,
}

impl Human<'_> {
    /// Writes the page; `source`: named above it (one of many inputs) and
    /// a blank line after.
    pub(in crate::cli) fn write(
        &self,
        out: &mut dyn Write,
        source: Option<&str>,
    ) -> std::io::Result<()> {
        use crate::terminal::printable;
        if let Some(s) = source {
            writeln!(out, "==> {} <==", printable(s, false))?;
        }
        let fields = [
            ("Title", self.title),
            ("Author", self.author),
            ("Date", self.date),
            ("Language", self.language),
        ];
        for (label, v) in fields {
            if let Some(v) = v {
                writeln!(out, "{label}: {}", printable(v, false))?;
            }
        }
        writeln!(out, "Type: {}", self.page_type.name())?;
        writeln!(out)?;
        writeln!(out, "{}", printable(self.text, true))?;
        if source.is_some() {
            writeln!(out)?;
        }
        Ok(())
    }
}

/// `--chunks`: one JSON line per chunk of the page's Markdown.
pub(super) fn write_chunks(
    out: &mut dyn Write,
    source: &str,
    rec: &Extracted,
    budget: u32,
) -> std::io::Result<()> {
    let head = serde_json::json!({"source": source, "url": rec.url});
    trawl_crawl::sink::chunks::write_chunks(out, head, &rec.markdown, budget as usize)?;
    Ok(())
}

/// `--format markdown|html`: the main content alone; with several inputs,
/// each after a comment naming it.
pub(super) fn write_content(
    out: &mut dyn Write,
    path: &str,
    rec: &Extracted,
    format: Format,
    many: bool,
) -> std::io::Result<()> {
    let body = match format {
        Format::Html => rec.html.as_deref().unwrap_or(""),
        _ => &rec.markdown,
    };
    if many {
        // A path cannot end the comment early.
        writeln!(out, "<!-- {} -->\n", path.replace("--", "- -"))?;
    }
    writeln!(out, "{}", body.trim_end())?;
    if many {
        writeln!(out)?;
    }
    Ok(())
}
