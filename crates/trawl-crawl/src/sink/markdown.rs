//! Markdown export: one `.md` file per record in a directory, a YAML front
//! matter (url, title, author, date, page type, seq) and then the record's
//! Markdown (its text when it has none). Records of one URL share a file:
//! they come in `seq` order, so the latest version is what stays.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::record_sink::{RecordSink, SinkError};
use crate::record::Record;

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

/// A YAML scalar: double-quoted, escaped (JSON's string syntax is YAML's).
fn yaml(v: &str) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "\"\"".into())
}

/// The page's URL: where redirects ended, else as queued.
pub(super) fn page_url(r: &Record) -> &str {
    if r.final_url.is_empty() {
        &r.url
    } else {
        &r.final_url
    }
}

/// The record's Markdown, or its text when it has none.
pub(super) fn page_markdown(r: &Record) -> &str {
    if r.markdown.is_empty() {
        &r.text
    } else {
        &r.markdown
    }
}

/// Writes one `.md` file per record into a directory.
pub struct MarkdownFiles {
    dir: PathBuf,
    written: HashSet<String>,
}

impl MarkdownFiles {
    /// Files go into `dir` (made if missing).
    pub fn new(dir: &Path) -> Result<MarkdownFiles, SinkError> {
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

    /// The directory the files go into.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// The file's text: front matter, a blank line, the Markdown.
fn document(r: &Record) -> String {
    let mut out = String::from("---\n");
    out.push_str(&format!("url: {}\n", yaml(page_url(r))));
    let page_type = r.page_type.name();
    let fields = [
        ("title", r.title.as_deref()),
        ("author", r.author.as_deref()),
        ("date", r.date.as_deref()),
        ("page_type", Some(page_type)),
    ];
    for (key, value) in fields {
        if let Some(v) = value {
            out.push_str(&format!("{key}: {}\n", yaml(v)));
        }
    }
    out.push_str(&format!("seq: {}\n", r.seq));
    out.push_str("---\n\n");
    out.push_str(page_markdown(r));
    out.push('\n');
    out
}

impl RecordSink for MarkdownFiles {
    fn record(&mut self, record: &Record) -> Result<(), SinkError> {
        let name = file_name(page_url(record));
        std::fs::write(self.dir.join(&name), document(record))?;
        self.written.insert(name);
        Ok(())
    }
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
    fn front_matter_then_the_markdown() {
        let r = Record {
            url: "http://a.test/x".into(),
            title: Some("A \"quoted\"\ntitle".into()),
            markdown: "# A\n\nBody".into(),
            seq: 4,
            ..Record::default()
        };
        let doc = document(&r);
        assert!(
            doc.starts_with("---\nurl: \"http://a.test/x\"\ntitle: \"A \\\"quoted\\\"\\ntitle\"\n"),
            "{doc}"
        );
        assert!(doc.contains("seq: 4\n---\n\n# A\n\nBody\n"), "{doc}");
    }
}
