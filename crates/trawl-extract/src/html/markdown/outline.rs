//! Bold or large lines that head a page without headings. Older pages, and
//! pages written in a rich-text box, mark their sections with a bold line and a
//! line break (`<p><b>The case for loyalty</b><br>Then they…`) rather than
//! an `<h2>`; CleanEval's annotators mark those lines as headings. On a page
//! whose main content has a heading element, bold lines stay emphasis: its
//! author gave the outline.
//!
//! Pages of that age set a heading's line in large type instead
//! (`<font size="+2">Introduction</font>`); a short line all in large type
//! is a heading too, unless large type is the page's body type.
//!
//! Measured: CleanEval heading F1 0.278 -> 0.304 (0.302 outside quotes),
//! 0.325 with large type; wcxb-dev's records unchanged by large type. A
//! bold line ending in a colon counts (without it, 0.300). A bold
//! paragraph of its own (`<p><strong>…</strong></p>`) was tried too:
//! CleanEval 0.372, but wcxb-dev's reviewed truths write those as bold
//! text, never as headings (heading F1 0.619 -> 0.616 over 36 pages), so
//! only the line that runs into its section by a `<br>` counts.

use super::unit::{Join, Unit};

/// Most words of a bold line read as a heading.
const MAX_WORDS: usize = 12;

/// For each of `units` (the kept ones, in order): is it a heading the
/// page marks without heading elements? A bold line that heads the text
/// after its line break, or a short line in large type when large type is
/// not the page's body type (less than half its letters). None is when
/// any unit is a heading. Written as `#`: the top rank, as the walk
/// writes a page's highest headings. Inside a quote (old pages indent
/// their body with `<blockquote>`) too, not inside a list item.
pub(super) fn implied_headings(units: &[&Unit]) -> Vec<bool> {
    let mut out = vec![false; units.len()];
    if units.iter().any(|u| u.md.starts_with('#')) {
        return out;
    }
    let letters: usize = units.iter().map(|u| u.key.len()).sum();
    let large: usize = units.iter().filter(|u| u.large).map(|u| u.key.len()).sum();
    let large_heads = 2 * large < letters;
    for (i, u) in units.iter().enumerate() {
        let starts_block = i == 0 || u.join == Join::Blank || units[i - 1].para != u.para;
        let runs_into_next = units
            .get(i + 1)
            .is_some_and(|n| n.join == Join::Hard && n.para == u.para);
        let marked = (u.large && large_heads) || (runs_into_next && all_bold(&u.md).is_some());
        out[i] = starts_block
            && marked
            && i + 1 < units.len()
            && u.first.split("> ").all(str::is_empty)
            && u.table.is_none()
            && !u.code
            && heading_text(&u.md).is_some();
    }
    out
}

/// The text inside a line that is all bold.
fn all_bold(md: &str) -> Option<&str> {
    let inner = md.strip_prefix("**")?.strip_suffix("**")?;
    (!inner.contains("**")).then_some(inner)
}

/// The text of a line that reads as a title (its bold taken off): a few
/// words, not a sentence (no closing full stop, comma or semicolon), not a
/// link or a picture (a forum's "Threaded mode", a logo beside a name).
pub(super) fn heading_text(md: &str) -> Option<&str> {
    let inner = all_bold(md).unwrap_or(md);
    if inner.contains("](") || inner.trim().is_empty() {
        return None;
    }
    let words = inner.split_whitespace().count();
    let sentence = inner.trim_end_matches('*').ends_with(['.', ',', ';']);
    (words <= MAX_WORDS && !sentence).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::super::tests::md;

    #[test]
    fn a_bold_line_before_a_break_heads_a_page_without_headings() {
        // Regression (CleanEval 755): the sections of an old article are
        // bold lines, each followed by a `<br>` and its text.
        let html = "<p><b>From mom and pop stores</b> <br>The relationship between \
                    customer and supplier is a complex one.</p>\
                    <p><b>... and back again</b><br>Then they were squeezed.</p>";
        assert_eq!(
            md(html),
            "# From mom and pop stores\n\nThe relationship between customer and \
             supplier is a complex one.\n\n# ... and back again\n\nThen they were squeezed."
        );
    }

    #[test]
    fn bold_stays_emphasis_elsewhere() {
        // A page with a heading element has its outline.
        let html = "<h2>Intro</h2><p><b>Note</b><br>Text of the note.</p>";
        assert_eq!(md(html), "# Intro\n\n**Note**\\\nText of the note.");
        // A bold paragraph of its own, a sentence, a link: emphasis.
        for html in [
            "<p><b>Step one</b></p><p>Text.</p>",
            "<p><b>This is a sentence.</b><br>Text.</p>",
            "<p><b><a href=\"/t\">Threaded</a></b><br>Text.</p>",
        ] {
            assert!(
                !md(html).lines().any(|l| l.starts_with('#')),
                "{html}: {}",
                md(html)
            );
        }
    }

    #[test]
    fn a_closing_hash_stays_text() {
        assert_eq!(md("<p><b>Issue #</b><br>Text.</p>"), "# Issue \\#\n\nText.");
    }

    #[test]
    fn a_quoted_layout_keeps_its_bold_headings() {
        // CleanEval 623: an old page indents its whole body with
        // `<blockquote>`.
        let html = "<blockquote><p><b>Introduction</b><br>Text of it.</p></blockquote>";
        assert_eq!(md(html), "> # Introduction\n>\n> Text of it.");
        // Not inside a list item: there a heading is the item's text.
        let html = "<ul><li><p>One</p><p><b>Note</b><br>Text.</p></li><li>Two</li></ul>";
        assert!(!md(html).contains('#'), "{}", md(html));
    }

    #[test]
    fn a_short_line_in_large_type_heads_its_section() {
        // Regression (CleanEval 623): an old page's sections are short
        // lines set with `<font size=+2>`, its body in the default size.
        let html = "<p><font size=\"+2\"><b>Introduction</b></font></p>\
                    <p>Penguins live in the southern hemisphere and we study them.</p>\
                    <p><font size=4>Resources</font></p><p>Books and films about them.</p>";
        assert_eq!(
            md(html),
            "# Introduction\n\nPenguins live in the southern hemisphere and we study \
             them.\n\n# Resources\n\nBooks and films about them."
        );
        // Large type as the page's body type marks nothing; nor does the
        // default size, or a long line.
        for html in [
            "<font size=+1><p>Intro</p><p>Penguins live in the south.</p></font>",
            "<p><font size=3>Intro</font></p><p>Penguins live in the south.</p>",
            "<p><font size=+1>One two three four five six seven eight nine ten eleven \
             twelve thirteen</font></p><p>Penguins live in the south, and more.</p>",
        ] {
            assert!(!md(html).contains('#'), "{html}: {}", md(html));
        }
    }
}
