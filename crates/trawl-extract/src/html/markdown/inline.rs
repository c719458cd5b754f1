//! The inline run of one Markdown block: words with whitespace collapsed
//! as a browser shows them, Markdown's own characters escaped so the text
//! renders as itself, and the spans around them (emphasis, links, code,
//! images). Alongside the Markdown it keeps the block's *key*: its letters
//! and digits, lower-cased, which lines it up with the plain text the
//! extractor rendered from the same nodes.

/// What a run may hold: a heading's and a table cell's are plainer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mode {
    /// A paragraph: every span.
    Flow,
    /// A heading: words and code only (links and emphasis dropped, their
    /// text kept).
    Plain,
    /// A table cell: spans, but no line breaks and `|` escaped.
    Cell,
}

/// One open span: where its opening marker starts and what closes it.
struct Open {
    at: usize,
    marker: &'static str,
}

/// The Markdown and key of the block being written.
pub(crate) struct Inline {
    pub(crate) md: String,
    pub(crate) key: String,
    pub(crate) mode: Mode,
    /// Whitespace seen since the last word: one space before the next.
    space: bool,
    /// Nothing written since the last line start (paragraph start or hard
    /// break): block markers in text (`#`, `-`, `1.`) are escaped there.
    line_start: bool,
    spans: Vec<Open>,
    /// A closing emphasis marker just written after punctuation: a letter
    /// glued to it would keep it from closing, so then the span goes.
    closed_after_punct: Option<(usize, usize, usize)>,
    /// The last image written in this block (a lazy image and its
    /// `<noscript>` twin are one image).
    last_image: Option<String>,
}

impl Inline {
    pub(crate) fn new(mode: Mode) -> Inline {
        Inline {
            md: String::new(),
            key: String::new(),
            mode,
            space: false,
            line_start: true,
            spans: Vec::new(),
            closed_after_punct: None,
            last_image: None,
        }
    }

    /// Whether a span is open (a line break inside one is a space: the
    /// span cannot cross into the next unit).
    pub(crate) fn has_open(&self) -> bool {
        !self.spans.is_empty()
    }

    /// Whether nothing but markers has been written.
    pub(crate) fn is_blank(&self) -> bool {
        self.md.trim_matches(is_html_space).is_empty()
    }

    /// Takes the block written so far, leaving an empty run.
    pub(crate) fn take(&mut self) -> (String, String) {
        self.space = false;
        self.line_start = true;
        self.spans.clear();
        self.closed_after_punct = None;
        self.last_image = None;
        // Copied out at their size; the run keeps its buffers' capacity
        // for the next block (no regrowth from empty for every block).
        let md = self.md.trim_end().to_string();
        let key = self.key.clone();
        self.md.clear();
        self.key.clear();
        (md, key)
    }

    /// Whitespace between words (collapsed; dropped at the block's edges).
    pub(crate) fn space(&mut self) {
        if !self.md.is_empty() {
            self.space = true;
        }
    }

    /// The pending space, written before a word or an opening marker.
    fn flush_space(&mut self) {
        if !self.space {
            return;
        }
        self.space = false;
        // Just after an opening marker, the space goes before it: emphasis
        // must not open on a space.
        if let Some(open) = self.spans.last() {
            if open.at + open.marker.len() == self.md.len() {
                let before = &self.md[..open.at];
                if !before.is_empty() && !before.ends_with(' ') {
                    self.md.insert(open.at, ' ');
                    if let Some(o) = self.spans.last_mut() {
                        o.at += 1;
                    }
                }
                return;
            }
        }
        if !self.md.is_empty() && !self.md.ends_with(' ') {
            self.md.push(' ');
        }
    }

    /// Markup written as it is (a task list's `[x] `).
    pub(crate) fn raw(&mut self, md: &str) {
        self.flush_space();
        self.md.push_str(md);
        self.line_start = false;
    }

    /// A text node's characters, whitespace collapsed. HTML's spaces are
    /// ASCII, so the bytes are scanned and never cut a character.
    pub(crate) fn text(&mut self, text: &str) {
        // Past the last byte that may need escaping inside a line, the rest
        // is plain (the first word written, no word starts a line).
        let plain_from = text
            .bytes()
            .rposition(|b| MID_LINE_SPECIAL[usize::from(b)])
            .map_or(0, |p| p + 1);
        let mut start = 0;
        for (i, b) in text.bytes().enumerate() {
            if is_html_space_byte(b) {
                if i > start {
                    self.word(&text[start..i]);
                    if i >= plain_from {
                        self.plain_rest(&text[i..]);
                        return;
                    }
                }
                self.space();
                start = i + 1;
            }
        }
        if start < text.len() {
            self.word(&text[start..]);
        }
    }

    /// Writes `rest`, what follows a word just written (from a space on)
    /// and holds no byte that needs escaping: each word after one space, the
    /// key in one go, as [`Inline::word`] would.
    fn plain_rest(&mut self, rest: &str) {
        // Text as the document holds it is collapsed already (single plain
        // spaces): then it is written as it is, in one go.
        let b = rest.as_bytes();
        let collapsed = !b.iter().any(|&c| is_html_space_byte(c) && c != b' ')
            && memchr::memmem::find(b, b"  ").is_none();
        if collapsed {
            match rest.strip_suffix(' ') {
                Some(body) => {
                    self.md.push_str(body);
                    self.space();
                }
                None => self.md.push_str(rest),
            }
            push_key(&mut self.key, rest);
            return;
        }
        // Space bytes are ASCII: a slice between them is whole characters.
        let mut start = 0;
        for (i, b) in rest.bytes().enumerate() {
            if is_html_space_byte(b) {
                if i > start {
                    self.md.push(' ');
                    self.md.push_str(&rest[start..i]);
                }
                start = i + 1;
            }
        }
        if start < rest.len() {
            self.md.push(' ');
            self.md.push_str(&rest[start..]);
        } else {
            // Ends with a space: pending, as after any word.
            self.space();
        }
        push_key(&mut self.key, rest);
    }

    /// A space where the plain text sets words apart across an element
    /// boundary (a lower-case letter meeting an upper-case one).
    pub(crate) fn seam(&mut self, next: &str) {
        let prev = self.md.chars().next_back();
        let first = next.trim_start().chars().next();
        if matches!((prev, first), (Some(a), Some(b)) if a.is_lowercase() && b.is_uppercase()) {
            self.space();
        }
    }

    fn word(&mut self, word: &str) {
        if let Some((open, close, len)) = self.closed_after_punct.take() {
            if !self.space && word.starts_with(char::is_alphanumeric) {
                self.md.replace_range(close..close + len, "");
                self.md.replace_range(open..open + len, "");
            }
        }
        self.flush_space();
        self.escape_into(word);
        self.line_start = false;
        push_key(&mut self.key, word);
    }

    /// Writes `word` with the characters Markdown would read as markup
    /// escaped (see [`MID_LINE_SPECIAL`]).
    fn escape_into(&mut self, word: &str) {
        // Most words hold no character Markdown reads inside a line.
        if !self.line_start && !word.bytes().any(|b| MID_LINE_SPECIAL[usize::from(b)]) {
            self.md.push_str(word);
            return;
        }
        // Opening markers may precede: they can be dropped at their close.
        let at_start = self.line_start;
        let mut prev: Option<char> = None;
        let mut chars = word.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let next = chars.peek().map(|&(_, n)| n);
            let escape = match c {
                '\\' | '*' | '`' | '[' | ']' | '<' | '~' => true,
                '_' => {
                    !(prev.is_some_and(char::is_alphanumeric)
                        && next.is_some_and(char::is_alphanumeric))
                }
                '|' => self.mode == Mode::Cell,
                '&' => next.is_some_and(|n| n.is_ascii_alphanumeric() || n == '#'),
                '#' | '>' | '+' | '-' | '=' => at_start && at == 0,
                // An ordered list's marker: one to nine digits before it
                // (digits are one byte each, so `at` counts them).
                '.' | ')' => {
                    at_start && at > 0 && at <= 9 && word[..at].bytes().all(|b| b.is_ascii_digit())
                }
                _ => false,
            };
            if escape {
                self.md.push('\\');
            }
            self.md.push(c);
            prev = Some(c);
        }
    }

    /// Opens an emphasis span (`*`, `**`, `~~`).
    pub(crate) fn open(&mut self, marker: &'static str) {
        if self.mode == Mode::Plain {
            return;
        }
        self.closed_after_punct = None;
        // The same emphasis inside itself adds nothing, and doubled markers
        // (`****`, `~~~~`) would not read as emphasis at all.
        if self.spans.iter().any(|o| o.marker == marker) {
            self.spans.push(Open {
                at: self.md.len(),
                marker: "",
            });
            return;
        }
        self.flush_space();
        self.spans.push(Open {
            at: self.md.len(),
            marker,
        });
        self.md.push_str(marker);
    }

    /// Closes the innermost span opened by [`Inline::open`]: dropped when it
    /// holds nothing or would not read as emphasis where it stands.
    pub(crate) fn close(&mut self) {
        if self.mode == Mode::Plain {
            return;
        }
        self.closed_after_punct = None;
        let Some(open) = self.spans.pop() else {
            return;
        };
        if open.marker.is_empty() {
            return;
        }
        let inner_at = open.at + open.marker.len();
        if self.md.get(open.at..inner_at) != Some(open.marker) {
            return; // written over since (never expected)
        }
        let inner = &self.md[inner_at..];
        let (first, last) = (inner.chars().next(), inner.chars().next_back());
        let before = self.md[..open.at].chars().next_back();
        let blank = inner.trim().is_empty();
        // An opening marker between a letter and punctuation opens nothing.
        let bad_open = before.is_some_and(char::is_alphanumeric)
            && first.is_some_and(|c| !c.is_alphanumeric() && !c.is_whitespace());
        if blank || bad_open || first.is_some_and(char::is_whitespace) {
            self.md.replace_range(open.at..inner_at, "");
            return;
        }
        let close_at = self.md.len();
        self.md.push_str(open.marker);
        if last.is_some_and(|c| !c.is_alphanumeric()) {
            self.closed_after_punct = Some((open.at, close_at, open.marker.len()));
        }
    }

    /// An inline code span holding `code` verbatim.
    pub(crate) fn code(&mut self, code: &str) {
        let code: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
        if code.is_empty() {
            return;
        }
        self.closed_after_punct = None;
        self.flush_space();
        let ticks = "`".repeat(longest_run(&code, '`') + 1);
        let pad = if code.starts_with('`') || code.ends_with('`') {
            " "
        } else {
            ""
        };
        let body = if self.mode == Mode::Cell {
            code.replace('|', "\\|")
        } else {
            code.clone()
        };
        self.md.push_str(&ticks);
        self.md.push_str(pad);
        self.md.push_str(&body);
        self.md.push_str(pad);
        self.md.push_str(&ticks);
        self.line_start = false;
        push_key(&mut self.key, &code);
    }

    /// Starts a link: returns where its text begins.
    pub(crate) fn link_start(&mut self) -> Option<usize> {
        if self.mode == Mode::Plain {
            return None;
        }
        self.closed_after_punct = None;
        self.flush_space();
        let at = self.md.len();
        self.md.push('[');
        Some(at)
    }

    /// Ends the link started at `at`: `[text](url)`, or the bare text when
    /// it has none.
    pub(crate) fn link_end(&mut self, at: usize, url: &str) {
        self.closed_after_punct = None;
        if self.md.as_bytes().get(at) != Some(&b'[') {
            return; // written over since (never expected)
        }
        let inner = &self.md[at + 1..];
        if inner.trim().is_empty() {
            self.md.truncate(at);
            return;
        }
        // A trailing space stays pending, outside the brackets.
        let trimmed = self.md.trim_end().len();
        self.md.truncate(trimmed);
        self.md.push_str("](");
        push_destination(&mut self.md, url);
        self.md.push(')');
        self.line_start = false;
    }

    /// An image: `![alt](url)`.
    pub(crate) fn image(&mut self, alt: &str, url: &str) {
        if self.mode == Mode::Plain || self.last_image.as_deref() == Some(url) {
            return;
        }
        self.last_image = Some(url.to_string());
        self.closed_after_punct = None;
        self.flush_space();
        self.md.push_str("![");
        for c in alt.split_whitespace().collect::<Vec<_>>().join(" ").chars() {
            if matches!(c, '\\' | '[' | ']' | '*' | '_' | '`' | '<')
                || (c == '|' && self.mode == Mode::Cell)
            {
                self.md.push('\\');
            }
            self.md.push(c);
        }
        self.md.push_str("](");
        push_destination(&mut self.md, url);
        self.md.push(')');
        self.line_start = false;
    }

    /// A hard line break (`<br>`) inside a table cell: a space.
    pub(crate) fn cell_break(&mut self) {
        self.space();
    }
}

/// Whitespace as HTML collapses it (a no-break space is a character).
fn is_html_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c')
}

fn is_html_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// A block's Markdown made a link to `url`: `[text](url)`, a heading's
/// hashes kept in front (`### [text](url)`).
pub(crate) fn linked(md: &str, url: &str) -> String {
    let hashes = md.len() - md.trim_start_matches('#').len();
    let (head, text) = match md.get(hashes..) {
        Some(rest) if hashes > 0 && rest.starts_with(' ') => md.split_at(hashes + 1),
        _ => ("", md),
    };
    let mut out = String::with_capacity(md.len() + url.len() + 4);
    out.push_str(head);
    out.push('[');
    out.push_str(text);
    out.push_str("](");
    push_destination(&mut out, url);
    out.push(')');
    out
}

/// A link destination, its parentheses, spaces and angle brackets escaped.
fn push_destination(md: &mut String, url: &str) {
    for c in url.chars() {
        match c {
            '(' | ')' | '\\' => {
                md.push('\\');
                md.push(c);
            }
            ' ' => md.push_str("%20"),
            '<' => md.push_str("%3C"),
            '>' => md.push_str("%3E"),
            '|' => md.push_str("%7C"),
            c if c.is_control() => {}
            c => md.push(c),
        }
    }
}

/// The longest run of `c` in `s`.
pub(crate) fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for x in s.chars() {
        if x == c {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// The key of a line of plain text: its letters and digits, lower-cased.
pub(crate) fn key_of(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    push_key(&mut key, text);
    key
}

/// Appends the runs of letters and digits of ASCII `text` to `key`, `sep`
/// between two, lower-cased: each run copied whole, then the appended part
/// lowered in place (a character pushed at a time cost more than the copy).
/// The keys of lines are built so: Markdown's (no separator) and the
/// repeated-lines pass's (words apart). Inlined into each: with `sep`
/// known there, the loop is the one each would write.
#[inline]
pub(crate) fn push_ascii_words(key: &mut String, text: &str, sep: &str) {
    let start = key.len();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && !b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let from = i;
        while i < b.len() && b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        // ASCII: every byte is a character boundary.
        if let Some(word) = text.get(from..i).filter(|w| !w.is_empty()) {
            if key.len() > start {
                key.push_str(sep);
            }
            key.push_str(word);
        }
    }
    if let Some(k) = key.get_mut(start..) {
        k.make_ascii_lowercase();
    }
}

/// Appends the letters and digits of `text`, lower-cased, to `key`.
pub(crate) fn push_key(key: &mut String, text: &str) {
    if text.is_ascii() {
        push_ascii_words(key, text, "");
        return;
    }
    for c in text.chars() {
        if c.is_ascii() {
            if c.is_ascii_alphanumeric() {
                key.push(c.to_ascii_lowercase());
            }
        } else if c.is_alphanumeric() {
            key.extend(c.to_lowercase());
        }
    }
}

/// The bytes Markdown may read as markup inside a line, as a table: a word
/// without any is written as it is (checked once per byte of every word).
/// The others only open a line (a heading's `#`, a list's `-` or `1.`):
/// [`Inline::escape_into`] reads a line's first word character by character.
const MID_LINE_SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"\\*`[]<~_|&";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(f: impl FnOnce(&mut Inline)) -> String {
        let mut i = Inline::new(Mode::Flow);
        f(&mut i);
        i.take().0
    }

    #[test]
    fn text_is_escaped_to_render_as_itself() {
        assert_eq!(flow(|i| i.text("# not a heading")), "\\# not a heading");
        assert_eq!(flow(|i| i.text("1. not a list")), "1\\. not a list");
        assert_eq!(flow(|i| i.text("- not an item")), "\\- not an item");
        assert_eq!(
            flow(|i| i.text("a *b* [c] snake_case _x_")),
            "a \\*b\\* \\[c\\] snake_case \\_x\\_"
        );
        assert_eq!(flow(|i| i.text("Tom & Jerry &amp;")), "Tom & Jerry \\&amp;");
        assert_eq!(
            flow(|i| i.text("in 2024. More - and + here")),
            "in 2024. More - and + here"
        );
    }

    #[test]
    fn a_plain_rest_reads_as_word_by_word() {
        // Each word its own text: the rest is never written in one go.
        let by_words = |mode: Mode, t: &str| {
            let mut i = Inline::new(mode);
            for piece in t.split_inclusive(is_html_space) {
                let word = piece.trim_end_matches(is_html_space);
                i.text(word);
                if word.len() < piece.len() {
                    i.text(" ");
                }
            }
            i.take()
        };
        for t in [
            "plain words. and more - here ",
            "  # a b_c d\tx|y 1. z  ",
            "a *b* then plain + - = . ) words",
            "caf\u{e9} cr\u{e8}me br\u{fb}l\u{e9}e &amp; tail",
            "one",
        ] {
            for mode in [Mode::Flow, Mode::Cell] {
                let mut i = Inline::new(mode);
                i.text(t);
                assert_eq!(i.take(), by_words(mode, t), "{t:?}");
            }
        }
    }

    #[test]
    fn whitespace_collapses_and_spans_keep_spaces_outside() {
        let md = flow(|i| {
            i.text("  a  ");
            i.open("**");
            i.text(" bold ");
            i.close();
            i.text("c");
        });
        assert_eq!(md, "a **bold** c");
    }

    #[test]
    fn emphasis_that_would_not_render_is_dropped() {
        let md = flow(|i| {
            i.open("**");
            i.text("Note:");
            i.close();
            i.text("Text");
        });
        assert_eq!(md, "Note:Text");
        let md = flow(|i| {
            i.open("**");
            i.text("Note:");
            i.close();
            i.text(" text");
        });
        assert_eq!(md, "**Note:** text");
        assert_eq!(
            flow(|i| {
                i.open("*");
                i.text("  ");
                i.close();
            }),
            ""
        );
    }

    #[test]
    fn code_spans_and_links() {
        assert_eq!(flow(|i| i.code("a `b` c")), "``a `b` c``");
        let md = flow(|i| {
            i.text("see ");
            let at = i.link_start().unwrap_or_default();
            i.text("the docs ");
            i.link_end(at, "https://x.test/a (b)");
            i.text("now");
        });
        assert_eq!(md, "see [the docs](https://x.test/a%20\\(b\\)) now");
    }
}
