//! Markdown scored by what it means, not by its bytes: both sides are read
//! with a CommonMark + GFM parser (pulldown-cmark) into their elements —
//! headings (text, level by rank within the page), list items (own text,
//! nesting), table cells (text, row, column), code (lines), links (text and
//! URL), images (URL) — and matched as multisets, per element type; the
//! text the Markdown renders to is scored by words beside them.

use std::collections::HashMap;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The element types scored, in report order.
pub const KINDS: [&str; 6] = ["heading", "item", "cell", "code", "link", "image"];

/// The kinds the overall structure score averages (images are too few in
/// the truths to weigh in).
pub const SCORED: [&str; 5] = ["heading", "item", "cell", "code", "link"];

/// A Markdown document's elements, as comparable keys by kind.
#[derive(Debug, Default, Clone)]
pub struct Structure {
    pub elements: HashMap<&'static str, Vec<String>>,
    /// The text it renders to, blocks separated by newlines.
    pub text: String,
}

/// Whether levels and nesting count (CleanEval's markers have neither).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Levels {
    Kept,
    Ignored,
}

/// Words of `s`, lower-cased, joined by one space.
fn norm(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A URL compared by what it names: parsed and written back as the URL
/// standard writes it (host lower-cased, an empty path as `/`, percent
/// escapes as needed: `https://IRS.gov` and `https://irs.gov/` are one
/// link), then without a trailing slash. A relative one (`/wiki/Rose`, as
/// some truths and peers write them) is resolved against the page's URL
/// when there is one, as a browser would; one that still does not parse is
/// compared as written.
fn norm_url(u: &str, base: Option<&url::Url>) -> String {
    let u = u.trim();
    let parsed = url::Url::parse(u)
        .or_else(|e| base.map_or(Err(e), |b| b.join(u)))
        .map_or_else(|_| u.to_string(), String::from);
    parsed.trim_end_matches('/').to_string()
}

#[derive(Default)]
struct Reader {
    headings: Vec<(String, u8)>,
    heading: Option<(String, u8)>,
    /// Open items' own text, innermost last.
    items: Vec<String>,
    done_items: Vec<(String, usize)>,
    cell: Option<String>,
    row: usize,
    col: usize,
    cells: Vec<(String, usize, usize)>,
    code: Option<String>,
    code_lines: Vec<String>,
    links: Vec<(String, String)>,
    done_links: Vec<(String, String)>,
    images: Vec<String>,
    /// Inside an image: its alt text is an attribute, not text.
    in_image: usize,
    text: String,
}

impl Reader {
    fn words(&mut self, t: &str) {
        if self.in_image > 0 {
            return;
        }
        if let Some(c) = self.code.as_mut() {
            c.push_str(t);
        }
        if let Some(h) = self.heading.as_mut() {
            h.0.push_str(t);
        }
        if let Some(i) = self.items.last_mut() {
            i.push_str(t);
        }
        if let Some(c) = self.cell.as_mut() {
            c.push_str(t);
        }
        for l in &mut self.links {
            l.0.push_str(t);
        }
        self.text.push_str(t);
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Heading { level, .. } => self.heading = Some((String::new(), level as u8)),
            Tag::Item => self.items.push(String::new()),
            Tag::TableHead => {
                self.row = 0;
                self.col = 0;
            }
            Tag::TableRow => {
                self.row += 1;
                self.col = 0;
            }
            Tag::TableCell => self.cell = Some(String::new()),
            Tag::CodeBlock(_) => self.code = Some(String::new()),
            Tag::Link { dest_url, .. } => self.links.push((String::new(), dest_url.to_string())),
            Tag::Image { dest_url, .. } => {
                self.images.push(dest_url.to_string());
                self.in_image += 1;
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(_) => {
                if let Some(h) = self.heading.take() {
                    self.headings.push(h);
                }
            }
            TagEnd::Item => {
                let depth = self.items.len();
                if let Some(t) = self.items.pop() {
                    self.done_items.push((t, depth));
                }
            }
            TagEnd::TableCell => {
                if let Some(c) = self.cell.take() {
                    self.cells.push((c, self.row, self.col));
                }
                self.col += 1;
            }
            TagEnd::CodeBlock => {
                if let Some(c) = self.code.take() {
                    self.code_lines.extend(
                        c.lines()
                            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")),
                    );
                }
            }
            TagEnd::Link => {
                if let Some(l) = self.links.pop() {
                    self.done_links.push(l);
                }
            }
            TagEnd::Image => self.in_image = self.in_image.saturating_sub(1),
            _ => {}
        }
        // Blocks end with a break in the text.
        if matches!(
            tag,
            TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::CodeBlock
                | TagEnd::TableCell
                | TagEnd::TableRow
                | TagEnd::TableHead
        ) {
            self.words("\n");
        }
    }
}

/// Reads `md` into its elements; `base` is the page's URL, against which
/// relative link and image URLs are resolved.
pub fn read(md: &str, levels: Levels, base: Option<&url::Url>) -> Structure {
    let mut r = Reader::default();
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    for ev in Parser::new_ext(md, opts) {
        match ev {
            Event::Start(t) => r.start(t),
            Event::End(t) => r.end(t),
            Event::Text(t) | Event::Code(t) => r.words(&t),
            Event::SoftBreak | Event::HardBreak => r.words(" "),
            _ => {}
        }
    }
    // Heading levels by rank among the levels the document uses.
    let mut used: Vec<u8> = r.headings.iter().map(|h| h.1).collect();
    used.sort_unstable();
    used.dedup();
    let rank = |l: u8| used.iter().position(|&u| u == l).unwrap_or(0) + 1;
    let mut el: HashMap<&'static str, Vec<String>> = HashMap::new();
    let keep = |s: &String| !s.is_empty();
    let lv = levels == Levels::Kept;
    el.insert(
        "heading",
        r.headings
            .iter()
            .map(|(t, l)| (norm(t), *l))
            .filter(|(t, _)| keep(t))
            .map(|(t, l)| if lv { format!("{}|{t}", rank(l)) } else { t })
            .collect(),
    );
    el.insert(
        "item",
        r.done_items
            .iter()
            .map(|(t, d)| (norm(t), *d))
            .filter(|(t, _)| keep(t))
            .map(|(t, d)| if lv { format!("{d}|{t}") } else { t })
            .collect(),
    );
    el.insert(
        "cell",
        r.cells
            .iter()
            .map(|(t, row, col)| (norm(t), row, col))
            .filter(|(t, _, _)| keep(t))
            .map(|(t, row, col)| format!("{row}|{col}|{t}"))
            .collect(),
    );
    el.insert(
        "code",
        r.code_lines.into_iter().filter(|l| !l.is_empty()).collect(),
    );
    el.insert(
        "link",
        r.done_links
            .iter()
            .map(|(t, u)| (norm(t), norm_url(u, base)))
            .filter(|(t, _)| keep(t))
            .map(|(t, u)| format!("{t}|{u}"))
            .collect(),
    );
    el.insert(
        "image",
        r.images.iter().map(|u| norm_url(u, base)).collect(),
    );
    Structure {
        elements: el,
        text: r.text,
    }
}

/// Matched, predicted and true counts of one element type.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub tp: u64,
    pub pred: u64,
    pub truth: u64,
}

impl Counts {
    pub fn add(&mut self, o: Counts) {
        self.tp += o.tp;
        self.pred += o.pred;
        self.truth += o.truth;
    }

    /// F1, or `None` when neither side has any.
    pub fn f1(&self) -> Option<f64> {
        if self.pred + self.truth == 0 {
            return None;
        }
        Some(2.0 * self.tp as f64 / (self.pred + self.truth) as f64)
    }
}

/// Multiset match of one kind's elements.
pub fn compare(pred: &Structure, truth: &Structure, kind: &str) -> Counts {
    let empty = Vec::new();
    let p = pred.elements.get(kind).unwrap_or(&empty);
    let t = truth.elements.get(kind).unwrap_or(&empty);
    let mut left: HashMap<&str, i64> = HashMap::new();
    for k in t {
        *left.entry(k).or_insert(0) += 1;
    }
    let mut tp = 0;
    for k in p {
        if let Some(c) = left.get_mut(k.as_str()) {
            if *c > 0 {
                *c -= 1;
                tp += 1;
            }
        }
    }
    Counts {
        tp,
        pred: p.len() as u64,
        truth: t.len() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_links_name_what_the_page_resolves_them_to() {
        let base = url::Url::parse("https://en.example.test/wiki/Page").ok();
        let truth = read("[Rose](/wiki/Irwin_Rose)", Levels::Kept, base.as_ref());
        let ours = read(
            "[Rose](https://en.example.test/wiki/Irwin_Rose)",
            Levels::Kept,
            base.as_ref(),
        );
        assert_eq!(compare(&ours, &truth, "link").tp, 1);
        // Without the page's URL the two are different links.
        let truth = read("[Rose](/wiki/Irwin_Rose)", Levels::Kept, None);
        assert_eq!(compare(&ours, &truth, "link").tp, 0);
    }

    #[test]
    fn elements_are_read_by_meaning() {
        let a = read(
            "Title\n=====\n\n## Part\n\n* one\n    * two\n\n| a | b |\n|---|---|\n| c | d |\n\n```\nx  y\n```\n\n[Go](http://e.test/) ![i](http://e.test/i.png)",
            Levels::Kept,
            None,
        );
        let b = read(
            "# Title\n\n### Part\n\n- one\n  - two\n\n|a|b|\n|-|-|\n|c|d|\n\n    x y\n\n[go](http://e.test) ![](http://e.test/i.png)",
            Levels::Kept,
            None,
        );
        for kind in KINDS {
            let c = compare(&a, &b, kind);
            assert_eq!(
                c.f1(),
                Some(1.0),
                "{kind}: {c:?} {:?} {:?}",
                a.elements[kind],
                b.elements[kind]
            );
        }
        assert_eq!(a.elements["item"], vec!["2|two", "1|one"]);
        assert_eq!(a.elements["cell"][3], "1|1|d");
    }

    #[test]
    fn levels_by_rank_and_misses_count() {
        let a = read("# A\n\n## B", Levels::Kept, None);
        let b = read("# A\n\n# B", Levels::Kept, None);
        let c = compare(&a, &b, "heading");
        assert_eq!((c.tp, c.pred, c.truth), (1, 2, 2));
        let c = compare(
            &read("# A\n\n## B", Levels::Ignored, None),
            &read("# A\n\n# B", Levels::Ignored, None),
            "heading",
        );
        assert_eq!(c.tp, 2);
    }

    #[test]
    fn links_are_compared_by_the_url_they_name() {
        let a = read(
            "[tax](https://IRS.gov/get) [shop](https://s.test?ref=1) [x](/rel) [y](https://a.test/p)",
            Levels::Kept,
            None,
        );
        let b = read(
            "[tax](https://irs.gov/get) [shop](https://s.test/?ref=1) [x](/rel/) [y](https://a.test/P)",
            Levels::Kept,
            None,
        );
        let c = compare(&a, &b, "link");
        assert_eq!(
            (c.tp, c.pred, c.truth),
            (3, 4, 4),
            "a path keeps its case: {:?}",
            a.elements["link"]
        );
    }
}
