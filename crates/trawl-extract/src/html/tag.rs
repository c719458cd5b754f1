//! The handful of HTML element kinds the extractors reason about, as a small
//! enum so hot loops compare bytes instead of strings.

/// An element kind. Everything the extractors do not single out is `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Tag {
    Html,
    Body,
    A,
    P,
    Div,
    Span,
    Br,
    Hr,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Ul,
    Ol,
    Li,
    Dl,
    Dt,
    Dd,
    Table,
    Thead,
    Tbody,
    Tfoot,
    Tr,
    Td,
    Th,
    Caption,
    Pre,
    Code,
    Blockquote,
    Article,
    Main,
    Section,
    Nav,
    Header,
    Footer,
    Aside,
    Form,
    Button,
    Input,
    Select,
    Textarea,
    Label,
    Img,
    Figure,
    Figcaption,
    Time,
    Address,
    Details,
    Summary,
    Menu,
    Dialog,
    Strong,
    Em,
    B,
    I,
    /// Other phrasing elements (sub, sup, small, abbr, cite, mark, …).
    Inline,
    Other,
}

impl Tag {
    /// Maps a lower-case local name to its kind.
    pub fn from_name(name: &str) -> Tag {
        match name {
            "html" => Tag::Html,
            "body" => Tag::Body,
            "a" => Tag::A,
            "p" => Tag::P,
            "div" => Tag::Div,
            "span" => Tag::Span,
            "br" => Tag::Br,
            "hr" => Tag::Hr,
            "h1" => Tag::H1,
            "h2" => Tag::H2,
            "h3" => Tag::H3,
            "h4" => Tag::H4,
            "h5" => Tag::H5,
            "h6" => Tag::H6,
            "ul" => Tag::Ul,
            "ol" => Tag::Ol,
            "li" => Tag::Li,
            "dl" => Tag::Dl,
            "dt" => Tag::Dt,
            "dd" => Tag::Dd,
            "table" => Tag::Table,
            "thead" => Tag::Thead,
            "tbody" => Tag::Tbody,
            "tfoot" => Tag::Tfoot,
            "tr" => Tag::Tr,
            "td" => Tag::Td,
            "th" => Tag::Th,
            "caption" => Tag::Caption,
            "pre" => Tag::Pre,
            "code" => Tag::Code,
            "blockquote" => Tag::Blockquote,
            "article" => Tag::Article,
            "main" => Tag::Main,
            "section" => Tag::Section,
            "nav" => Tag::Nav,
            "header" => Tag::Header,
            "footer" => Tag::Footer,
            "aside" => Tag::Aside,
            "form" => Tag::Form,
            "button" => Tag::Button,
            "input" => Tag::Input,
            "select" => Tag::Select,
            "textarea" => Tag::Textarea,
            "label" => Tag::Label,
            "img" => Tag::Img,
            "figure" => Tag::Figure,
            "figcaption" => Tag::Figcaption,
            "time" => Tag::Time,
            "address" => Tag::Address,
            "details" => Tag::Details,
            "summary" => Tag::Summary,
            "menu" => Tag::Menu,
            "dialog" => Tag::Dialog,
            "strong" => Tag::Strong,
            "em" => Tag::Em,
            "b" => Tag::B,
            "i" => Tag::I,
            "sub" | "sup" | "small" | "abbr" | "acronym" | "cite" | "mark" | "q" | "s" | "u"
            | "kbd" | "var" | "samp" | "font" | "big" | "tt" | "nobr" | "wbr" | "bdi" | "bdo"
            | "data" | "dfn" | "ins" | "del" | "strike" | "ruby" | "rt" | "rp" | "output"
            | "meter" | "progress" => Tag::Inline,
            _ => Tag::Other,
        }
    }

    pub fn is_heading(self) -> bool {
        matches!(
            self,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
        )
    }

    /// A heading's level, 1 for `<h1>` to 6 for `<h6>`.
    pub fn heading_level(self) -> Option<u8> {
        Some(match self {
            Tag::H1 => 1,
            Tag::H2 => 2,
            Tag::H3 => 3,
            Tag::H4 => 4,
            Tag::H5 => 5,
            Tag::H6 => 6,
            _ => return None,
        })
    }

    /// Elements that start a new paragraph (blank line) in rendered text.
    pub fn is_paragraph_block(self) -> bool {
        matches!(
            self,
            Tag::P
                | Tag::H1
                | Tag::H2
                | Tag::H3
                | Tag::H4
                | Tag::H5
                | Tag::H6
                | Tag::Pre
                | Tag::Blockquote
                | Tag::Table
                | Tag::Ul
                | Tag::Ol
                | Tag::Dl
                | Tag::Figure
                | Tag::Hr
                | Tag::Article
                | Tag::Section
                | Tag::Main
                | Tag::Header
                | Tag::Footer
                | Tag::Aside
                | Tag::Nav
                | Tag::Form
                | Tag::Details
                | Tag::Address
        )
    }

    /// Elements that start a new line (but not a new paragraph) in rendered text.
    pub fn is_line_block(self) -> bool {
        matches!(
            self,
            Tag::Div
                | Tag::Li
                | Tag::Dt
                | Tag::Dd
                | Tag::Tr
                | Tag::Br
                | Tag::Caption
                | Tag::Figcaption
                | Tag::Summary
                | Tag::Thead
                | Tag::Tbody
                | Tag::Tfoot
                | Tag::Menu
                | Tag::Dialog
        )
    }

    /// Inline-level elements: they never separate blocks of text.
    pub fn is_inline(self) -> bool {
        !(self.is_paragraph_block()
            || self.is_line_block()
            || matches!(self, Tag::Html | Tag::Body | Tag::Td | Tag::Th | Tag::Other))
    }
}
