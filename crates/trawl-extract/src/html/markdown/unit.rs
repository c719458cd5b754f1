//! What the walk writes and the document assembles: units (one per line of
//! the plain text), how each joins the one before, and the options.

/// How to write the Markdown.
#[derive(Clone, Debug)]
pub(crate) struct MarkdownOptions {
    /// Images that belong to the content as `![alt](url)`.
    pub images: bool,
    /// The page's URL, to make links and images absolute.
    pub url: Option<url::Url>,
}

/// How a unit joins the one before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Join {
    /// A blank line: a new block.
    Blank,
    /// A new line: the next item of a list, the next row of a table.
    Line,
    /// A hard line break inside a paragraph (`<br>`).
    Hard,
}

/// One line of the plain text, as Markdown.
#[derive(Debug)]
pub(crate) struct Unit {
    /// Prefix of its first line: blockquote markers, list indentation and
    /// the list marker of an item's first line.
    pub(crate) first: String,
    /// Prefix of its other lines (a code block's).
    pub(crate) rest: String,
    pub(crate) md: String,
    pub(crate) key: String,
    pub(crate) join: Join,
    /// The paragraph it belongs to (a hard break joins only within one).
    pub(crate) para: u32,
    /// A table row: the table and its delimiter row (the first row kept is
    /// the header, the delimiter row follows it).
    pub(crate) table: Option<(u32, String)>,
    /// A fenced code block: its lines are dropped one by one.
    pub(crate) code: bool,
    /// All its words are set in large type (`<font size="+1">`): an old
    /// page's heading.
    pub(crate) large: bool,
    pub(crate) keep: bool,
}
