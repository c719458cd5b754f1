//! Turns a selection of a [`Doc`] into readable plain text: paragraphs
//! separated by a blank line, headings, list items and table rows on their
//! own lines, table cells joined by " | ", whitespace normalised.

use super::dom::{Doc, Kind, NodeId};
use super::tag::Tag;

/// Which nodes an extractor keeps: a flag per node. A text node is rendered
/// when its flag is set; element flags only matter to the helpers here.
#[derive(Clone, Debug)]
pub struct Selection {
    keep: Vec<bool>,
    /// Elements rendered on a line of their own whatever their tag (records
    /// of a list that are inline elements).
    lines: Vec<NodeId>,
}

impl Selection {
    /// Nothing selected.
    pub fn none(doc: &Doc) -> Selection {
        Selection {
            keep: vec![false; doc.len()],
            lines: Vec::new(),
        }
    }

    /// One subtree selected.
    pub fn subtree(doc: &Doc, root: NodeId) -> Selection {
        let mut s = Selection::none(doc);
        s.include(doc, root);
        s
    }

    /// Adds a whole subtree.
    pub fn include(&mut self, doc: &Doc, root: NodeId) {
        let end = doc.nodes[root as usize].end as usize;
        self.keep[root as usize..end].fill(true);
    }

    /// Removes a whole subtree.
    pub fn exclude(&mut self, doc: &Doc, root: NodeId) {
        let end = doc.nodes[root as usize].end as usize;
        self.keep[root as usize..end].fill(false);
    }

    /// Adds a single node.
    pub fn set(&mut self, id: NodeId, keep: bool) {
        self.keep[id as usize] = keep;
    }

    /// Renders `id` on a line of its own.
    pub fn line_break_around(&mut self, id: NodeId) {
        if let Err(at) = self.lines.binary_search(&id) {
            self.lines.insert(at, id);
        }
    }

    /// Whether a node is selected.
    pub fn get(&self, id: NodeId) -> bool {
        self.keep[id as usize]
    }

    /// The characters of the selected text nodes.
    pub(crate) fn chars(&self, doc: &Doc) -> u32 {
        self.chars_in(doc, 0..doc.len() as NodeId)
    }

    /// The characters of the selected text nodes among `ids` (a subtree is
    /// `id..doc.end(id)`).
    pub(crate) fn chars_in(&self, doc: &Doc, ids: std::ops::Range<NodeId>) -> u32 {
        ids.filter(|&i| !doc.is_element(i) && self.get(i))
            .map(|i| doc.nodes[i as usize].chars)
            .sum()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Break {
    None,
    Space,
    Cell,
    Line,
    Paragraph,
}

fn opening(tag: Tag) -> Break {
    if tag.is_paragraph_block() {
        Break::Paragraph
    } else if tag.is_line_block() {
        Break::Line
    } else if matches!(tag, Tag::Td | Tag::Th) {
        Break::Cell
    } else {
        Break::None
    }
}

/// Renders the selected text of `doc`.
pub fn render(doc: &Doc, sel: &Selection) -> String {
    let mut out = String::new();
    let mut pending = Break::None;
    // Ends of the open elements, innermost last, with their closing break.
    let mut open: Vec<(NodeId, Break)> = Vec::new();
    // The last text node written (`u32::MAX` before any).
    let mut last_text: NodeId = u32::MAX;
    for (i, node) in doc.nodes.iter().enumerate() {
        let i = i as NodeId;
        while let Some(&(end, brk)) = open.last() {
            if i < end {
                break;
            }
            open.pop();
            pending = pending.max(brk);
        }
        match node.kind {
            Kind::Element => {
                let mut brk = opening(node.tag);
                if brk < Break::Line && sel.lines.binary_search(&i).is_ok() {
                    brk = Break::Line;
                }
                if brk != Break::None {
                    pending = pending.max(brk);
                    // A cell's closing does not break; the next cell's opening does.
                    let close = if brk == Break::Cell { Break::None } else { brk };
                    open.push((node.end, close));
                } else if matches!(node.tag, Tag::Img | Tag::Input | Tag::Button | Tag::Label) {
                    // Controls and images stand apart from the words around them.
                    pending = pending.max(Break::Space);
                    open.push((node.end, Break::Space));
                }
            }
            Kind::Text => {
                if !sel.get(i) {
                    continue;
                }
                let text = doc.text(i);
                if node.pre {
                    // Keep the block's own line breaks; drop only the newline
                    // that follows the opening tag.
                    let text = if pending >= Break::Line || out.is_empty() {
                        text.trim_start_matches('\n')
                    } else {
                        text
                    };
                    push_break(&mut out, pending);
                    pending = Break::None;
                    last_text = i;
                    out.push_str(text);
                    continue;
                }
                let trimmed = if out.is_empty() || pending >= Break::Cell || out.ends_with(' ') {
                    text.trim_start()
                } else {
                    text
                };
                if trimmed.trim().is_empty() {
                    if !trimmed.is_empty() && pending == Break::None && !out.is_empty() {
                        pending = Break::Space;
                    }
                    continue;
                }
                // An element began or ended since the last text (it is not this
                // node's previous sibling): words glued across it may be set
                // apart by styling the markup does not show.
                let crossed = last_text != u32::MAX
                    && (last_text + 1 != i || doc.nodes[last_text as usize].parent != node.parent);
                if pending == Break::None && crossed && camel_seam(&out, trimmed) {
                    pending = Break::Space;
                }
                push_break(&mut out, pending);
                pending = Break::None;
                last_text = i;
                out.push_str(trimmed);
            }
        }
    }
    let len = out.trim_end().len();
    out.truncate(len);
    out
}

/// A lower-case letter meeting an upper-case one across an element boundary
/// ("Industry Competency</b>Our experts"): the elements are laid out apart.
fn camel_seam(out: &str, next: &str) -> bool {
    let prev = out.chars().next_back();
    let first = next.chars().next();
    matches!((prev, first), (Some(a), Some(b)) if a.is_lowercase() && b.is_uppercase())
}

fn push_break(out: &mut String, brk: Break) {
    if out.is_empty() {
        return;
    }
    match brk {
        Break::None => {}
        Break::Space => {
            if !out.ends_with(' ') {
                out.push(' ');
            }
        }
        Break::Cell => {
            trim_end(out);
            out.push_str(" | ");
        }
        Break::Line => {
            trim_end(out);
            out.push('\n');
        }
        Break::Paragraph => {
            trim_end(out);
            out.push_str("\n\n");
        }
    }
}

fn trim_end(out: &mut String) {
    let len = out.trim_end_matches([' ', '|', '\n']).len();
    out.truncate(len);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(html: &str) -> String {
        let doc = Doc::parse_str(html);
        render(&doc, &Selection::subtree(&doc, 0))
    }

    #[test]
    fn paragraphs_lines_and_cells() {
        let text = all(
            "<h1>Title</h1><p>One <b>bold</b>  word.</p><p>Two</p>\
             <ul><li>a</li><li>b</li></ul><table><tr><td>x</td><td>y</td></tr><tr><td>z</td></tr></table>",
        );
        assert_eq!(text, "Title\n\nOne bold word.\n\nTwo\n\na\nb\n\nx | y\nz");
    }

    #[test]
    fn br_and_inline_spacing() {
        assert_eq!(all("<p>a<br>b <i>c</i>d</p>"), "a\nb cd");
    }

    #[test]
    fn pre_lines_in_spans_keep_their_newlines() {
        // Regression: each text node's newlines were trimmed, gluing lines.
        assert_eq!(
            all("<pre><code><span>git init\n</span><span>git status\n</span></code></pre><p>after</p>"),
            "git init\ngit status\n\nafter"
        );
    }

    #[test]
    fn words_glued_across_elements_are_parted_at_a_case_change() {
        // A bold lead-in laid out as a block by the site's styles.
        assert_eq!(
            all("<li><b>Industry Competency</b>Our experts know it.</li>"),
            "Industry Competency Our experts know it."
        );
        // Inside a word, or with no element between, nothing changes.
        assert_eq!(
            all("<p>Face<b>book</b> and iPhone</p>"),
            "Facebook and iPhone"
        );
    }

    #[test]
    fn controls_are_separated_from_adjacent_text() {
        assert_eq!(
            all("<div><button>MORE</button><span>46m</span></div>"),
            "MORE 46m"
        );
    }

    #[test]
    fn pre_keeps_lines() {
        assert_eq!(
            all("<p>x</p><pre>fn main() {\n    go();\n}</pre>"),
            "x\n\nfn main() {\n    go();\n}"
        );
    }
}
