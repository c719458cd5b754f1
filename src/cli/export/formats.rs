//! Export formats other than the records' JSONL: one Markdown file per
//! record (YAML front matter, then its Markdown) into a directory, and
//! chunks for retrieval (one JSONL line per chunk). Every source (a stopped
//! store, a running daemon, a cluster) writes JSONL; [`LineSink`] reads it
//! back line by line, so each format works with all of them.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A `Write` that hands each complete line to `f`.
pub struct LineSink<F: FnMut(&str) -> std::io::Result<()>> {
    buf: Vec<u8>,
    f: F,
}

impl<F: FnMut(&str) -> std::io::Result<()>> LineSink<F> {
    pub fn new(f: F) -> Self {
        LineSink { buf: Vec::new(), f }
    }
}

impl<F: FnMut(&str) -> std::io::Result<()>> Write for LineSink<F> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        while let Some(nl) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=nl).collect();
            let text = String::from_utf8_lossy(&line[..nl]);
            if !text.trim().is_empty() {
                (self.f)(&text)?;
            }
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.buf.is_empty() {
            let line = std::mem::take(&mut self.buf);
            let text = String::from_utf8_lossy(&line).into_owned();
            if !text.trim().is_empty() {
                (self.f)(&text)?;
            }
        }
        Ok(())
    }
}

fn bad_line(e: serde_json::Error) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("a record that is not JSON: {e}"),
    )
}

/// A file name for a record: its URL's host and path, characters other
/// than letters, digits, `-` and `.` as `_`, at most 120 bytes, `.md`.
pub fn file_name(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest
        .split(['?', '#'])
        .next()
        .unwrap_or(rest)
        .trim_end_matches('/');
    let mut name: String = rest
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    while name.len() > 120 {
        name.pop();
    }
    let name = name.trim_matches(['.', '_']);
    if name.is_empty() {
        "page.md".into()
    } else {
        format!("{name}.md")
    }
}

/// A YAML scalar: double-quoted, escaped.
fn yaml(v: &str) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "\"\"".into())
}

/// Writes one `.md` file per record into `dir`: front matter (url, title,
/// author, date, page type, seq), then the Markdown. Records of one URL
/// share a file (the later version wins: records come in `seq` order).
pub struct MarkdownFiles {
    dir: PathBuf,
    written: HashSet<String>,
}

impl MarkdownFiles {
    pub fn new(dir: &Path) -> std::io::Result<MarkdownFiles> {
        std::fs::create_dir_all(dir)?;
        Ok(MarkdownFiles {
            dir: dir.to_path_buf(),
            written: HashSet::new(),
        })
    }

    /// Files written.
    pub fn count(&self) -> usize {
        self.written.len()
    }

    pub fn record(&mut self, line: &str) -> std::io::Result<()> {
        let v: Value = serde_json::from_str(line).map_err(bad_line)?;
        let s = |k: &str| v.get(k).and_then(Value::as_str);
        let url = s("final_url").or(s("url")).unwrap_or("");
        let mut out = String::from("---\n");
        out.push_str(&format!("url: {}\n", yaml(url)));
        for key in ["title", "author", "date", "page_type"] {
            if let Some(x) = s(key) {
                out.push_str(&format!("{key}: {}\n", yaml(x)));
            }
        }
        if let Some(seq) = v.get("seq").and_then(Value::as_u64) {
            out.push_str(&format!("seq: {seq}\n"));
        }
        out.push_str("---\n\n");
        let md = s("markdown")
            .filter(|m| !m.is_empty())
            .or(s("text"))
            .unwrap_or("");
        out.push_str(md);
        out.push('\n');
        let name = file_name(url);
        std::fs::write(self.dir.join(&name), out)?;
        self.written.insert(name);
        Ok(())
    }
}

/// One JSONL line per chunk of each record's Markdown: url, seq, chunk
/// index, heading path, Markdown, its character range, tokens.
pub fn chunk_lines(line: &str, budget: usize, out: &mut dyn Write) -> std::io::Result<usize> {
    let v: Value = serde_json::from_str(line).map_err(bad_line)?;
    let s = |k: &str| v.get(k).and_then(Value::as_str);
    let url = s("final_url").or(s("url")).unwrap_or("");
    let md = s("markdown")
        .filter(|m| !m.is_empty())
        .or(s("text"))
        .unwrap_or("");
    let seq = v.get("seq").cloned().unwrap_or(Value::Null);
    write_chunks(out, serde_json::json!({"url": url, "seq": seq}), md, budget)
}

/// One JSON line per chunk of `md`: the fields of `head` (what names the
/// page), then `chunk` (its index) and the chunk's own fields. Returns the
/// chunks written.
pub fn write_chunks(
    out: &mut dyn Write,
    head: Value,
    md: &str,
    budget: usize,
) -> std::io::Result<usize> {
    let chunks = trawl_extract::chunk_markdown(md, budget);
    for (i, c) in chunks.iter().enumerate() {
        let mut line = head.clone();
        if let (Some(fields), Ok(Value::Object(own))) =
            (line.as_object_mut(), serde_json::to_value(c))
        {
            fields.insert("chunk".into(), i.into());
            fields.extend(own);
        }
        writeln!(out, "{line}")?;
    }
    Ok(chunks.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_come_from_urls() {
        assert_eq!(
            file_name("https://ex.test/a/b.html?x=1"),
            "ex.test_a_b.html.md"
        );
        assert_eq!(file_name("https://ex.test/"), "ex.test.md");
        assert_eq!(
            file_name("https://ex.test/../../etc/passwd"),
            "ex.test_.._.._etc_passwd.md"
        );
        assert!(!file_name(&format!("https://ex.test/{}", "a".repeat(500))).contains('/'));
        assert!(file_name(&"a".repeat(500)).len() <= 123);
    }

    #[test]
    fn lines_reach_the_sink_whole() {
        let mut got = Vec::new();
        {
            let mut sink = LineSink::new(|l: &str| {
                got.push(l.to_string());
                Ok(())
            });
            sink.write_all(b"{\"a\":1}\n{\"b\"").unwrap_or_default();
            sink.write_all(b":2}\n{\"c\":3}").unwrap_or_default();
            sink.flush().unwrap_or_default();
        }
        assert_eq!(got, ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"]);
    }
}
