//! The main content as Markdown (CommonMark with GFM tables), from the same
//! [`Selection`] as the plain text: headings keep their rank in the page,
//! lists their nesting, tables their cells, code its lines, links and images
//! their absolute URLs.
//!
//! The walk (`walk`) writes *units*, one per line of the plain text it
//! stands for (a paragraph line, a heading, a list item, a table row, a
//! code block), each with a key of its letters and digits. The extractor
//! drops lines from the plain text after rendering (repeated blocks,
//! interface labels); [`Markdown::drop_like`] drops the units that stand for
//! those lines, so the Markdown says what the text says, no more.

mod inline;
mod outline;
mod table;
mod unit;
mod walk;

use super::dom::Doc;
use super::render::Selection;
use inline::push_key;
pub(crate) use inline::{key_of, push_ascii_words};
pub(crate) use unit::MarkdownOptions;
use unit::{Join, Unit};

/// The Markdown of a selection, as units until [`Markdown::finish`].
#[derive(Debug, Default)]
pub(crate) struct Markdown {
    units: Vec<Unit>,
}

/// Renders the selected content of `doc` as Markdown units.
pub(crate) fn markdown(doc: &Doc, sel: &Selection, opts: &MarkdownOptions) -> Markdown {
    Markdown {
        units: walk::walk(doc, sel, opts),
    }
}

/// How far ahead (in key bytes) a unit's text is looked for among the
/// plain text's lines before it is kept as it is.
const ALIGN_WINDOW: usize = 4096;

impl Markdown {
    /// Markdown of plain text read from elsewhere (embedded state, a
    /// product description): each paragraph escaped.
    pub(crate) fn from_text(text: &str) -> Markdown {
        let mut md = Markdown::default();
        md.push_text(text);
        md
    }

    /// Appends plain text as paragraphs (blank-line separated), lines
    /// joined by hard breaks.
    pub(crate) fn push_text(&mut self, text: &str) {
        let first = self.units.last().map_or(0, |u| u.para + 1);
        for (para, block) in (first..).zip(text.split("\n\n")) {
            let mut join = Join::Blank;
            for line in block.lines().filter(|l| !l.trim().is_empty()) {
                let mut run = inline::Inline::new(inline::Mode::Flow);
                run.text(line);
                let (md, key) = run.take();
                self.units.push(Unit {
                    first: String::new(),
                    rest: String::new(),
                    md,
                    key,
                    join,
                    para,
                    table: None,
                    code: false,
                    large: false,
                    keep: true,
                });
                join = Join::Hard;
            }
        }
    }

    /// Drops the units that stand for the lines of `text` flagged in `drop`
    /// (one flag per `\n`-separated line of the text the selection rendered
    /// to). A unit stands for the lines its key spans; it goes when all of
    /// them went. A unit not found among the lines stays. Units dropped
    /// before are not looked for (the text has lost their lines too).
    pub(crate) fn drop_like(&mut self, text: &str, drop: &[bool]) {
        if !drop.contains(&true) {
            return;
        }
        // The lines' keys end to end, with where each line starts.
        let mut all = String::with_capacity(text.len());
        let mut starts = Vec::new();
        for line in text.split('\n') {
            starts.push(all.len());
            push_key(&mut all, line);
        }
        let line_at = |pos: usize| starts.partition_point(|&s| s <= pos).saturating_sub(1);
        let mut cursor = 0;
        for u in self
            .units
            .iter_mut()
            .filter(|u| u.keep && !u.key.is_empty())
        {
            let window_end =
                floor_boundary(&all, (cursor + ALIGN_WINDOW + u.key.len()).min(all.len()));
            // Most units follow the last one at once: only the others are
            // searched for (memchr's search builds a searcher per call).
            let window = &all.as_bytes()[cursor..window_end];
            let found = if window.starts_with(u.key.as_bytes()) {
                0
            } else if let Some(found) = memchr::memmem::find(window, u.key.as_bytes()) {
                found
            } else {
                continue;
            };
            let (from, to) = (cursor + found, cursor + found + u.key.len());
            let lines = line_at(from)..=line_at(to - 1);
            u.keep = !lines.clone().all(|l| drop.get(l).copied().unwrap_or(false));
            if u.keep && u.code {
                let dropped = |l: usize| drop.get(l).copied().unwrap_or(false);
                drop_code_lines(u, &all, &starts, lines, &dropped);
            }
            cursor = to;
        }
    }

    /// Whether no unit holds any text.
    pub(crate) fn is_empty(&self) -> bool {
        !self.units.iter().any(|u| u.keep && !u.md.is_empty())
    }

    /// The Markdown document.
    pub(crate) fn finish(&self) -> String {
        let mut out = String::new();
        let mut last_para = None;
        let mut last_table = None;
        let mut last: Option<&Unit> = None;
        let kept: Vec<&Unit> = self
            .units
            .iter()
            .filter(|u| u.keep && !u.md.is_empty())
            .collect();
        let headings = outline::implied_headings(&kept);
        for (i, &u) in kept.iter().enumerate() {
            let table = u.table.as_ref().map(|(t, _)| *t);
            let mut join = u.join;
            if join == Join::Hard && (last_para != Some(u.para) || i > 0 && headings[i - 1]) {
                join = Join::Blank;
            }
            // A table starts, and ends, with a blank line (a line after a
            // row would be read as one more row).
            if table != last_table {
                join = Join::Blank;
            }
            // The next item follows an item's line; after anything else a
            // list marker on the next line would continue a paragraph.
            if join == Join::Line && table.is_none() && !last.is_some_and(|l| item_may_follow(l, u))
            {
                join = Join::Blank;
            }
            if !out.is_empty() {
                match join {
                    Join::Hard => out.push_str("\\\n"),
                    Join::Line => out.push('\n'),
                    Join::Blank => {
                        // The blank line inside the containers both are in.
                        out.push('\n');
                        let common = common_prefix(last.map_or("", |l| &l.rest), &u.rest);
                        out.push_str(common.trim_end());
                        out.push('\n');
                    }
                }
            }
            let heading = headings[i].then(|| outline::heading_text(&u.md)).flatten();
            if let Some(text) = heading {
                // A closing `#` would be read as the heading's closing
                // sequence.
                out.push_str(&u.first);
                out.push_str("# ");
                match text.strip_suffix('#') {
                    Some(head) => out.extend([head, "\\#"]),
                    None => out.push_str(text),
                }
            }
            for (i, line) in u.md.split('\n').enumerate().filter(|_| heading.is_none()) {
                if i > 0 {
                    out.push('\n');
                }
                let prefix = if i == 0 { &u.first } else { &u.rest };
                if line.is_empty() {
                    out.push_str(prefix.trim_end());
                } else {
                    out.push_str(prefix);
                    out.push_str(line);
                }
            }
            if let Some((t, delimiter)) = &u.table {
                if last_table != Some(*t) {
                    out.push('\n');
                    out.push_str(&u.rest);
                    out.push_str(delimiter);
                }
            }
            last_para = Some(u.para);
            last_table = table;
            last = Some(u);
        }
        out
    }
}

/// Whether list item `cur` may start on the line after `prev`: as the next
/// item of a list `prev` is in, or opening a list inside `prev`'s block (a
/// bullet, or a number from 1: no other number starts a list there).
fn item_may_follow(prev: &Unit, cur: &Unit) -> bool {
    if prev.rest.len() >= cur.rest.len() {
        return true;
    }
    if !cur.rest.starts_with(&prev.rest) {
        return false;
    }
    let marker = cur.first.get(prev.rest.len()..).unwrap_or("").trim_start();
    marker.starts_with(['-', '*', '+']) || marker.starts_with("1. ") || marker.starts_with("1) ")
}

/// Drops the lines of code unit `u` whose text lines (among `lines`, keys
/// in `all` from `starts`) were dropped.
fn drop_code_lines(
    u: &mut Unit,
    all: &str,
    starts: &[usize],
    lines: std::ops::RangeInclusive<usize>,
    dropped: &dyn Fn(usize) -> bool,
) {
    let key_of_line = |l: usize| {
        let end = starts.get(l + 1).copied().unwrap_or(all.len());
        &all[starts[l]..end]
    };
    let mut md_lines: Vec<&str> = u.md.split('\n').collect();
    if md_lines.len() < 3 {
        return;
    }
    let (open, close) = (md_lines.remove(0), md_lines.pop().unwrap_or_default());
    let mut text_line = *lines.start();
    let mut kept = vec![open];
    for line in md_lines {
        let k = key_of(line);
        if k.is_empty() {
            kept.push(line);
            continue;
        }
        while text_line <= *lines.end() && key_of_line(text_line).is_empty() {
            text_line += 1;
        }
        let gone = text_line <= *lines.end() && key_of_line(text_line) == k && dropped(text_line);
        if key_of_line(text_line.min(*lines.end())) == k {
            text_line += 1;
        }
        if !gone {
            kept.push(line);
        }
    }
    kept.push(close);
    u.md = kept.join("\n");
}

/// Clean HTML of a Markdown document: its blocks and spans as structural
/// tags, links and images with `href`, `src` and `alt` only (what the
/// Markdown holds, so the same selection).
pub(crate) fn to_html(md: &str) -> String {
    use pulldown_cmark::{html, Options, Parser};
    let mut out = String::with_capacity(md.len() + md.len() / 4);
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    html::push_html(&mut out, Parser::new_ext(md, opts));
    out
}

/// The longest common prefix of two container prefixes, ending at a
/// container's end (prefixes are ASCII: `> ` and spaces).
fn common_prefix<'s>(a: &'s str, b: &str) -> &'s str {
    let n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    &a[..n]
}

/// The largest char boundary of `s` at or below `at`.
fn floor_boundary(s: &str, mut at: usize) -> usize {
    while at > 0 && !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests;
