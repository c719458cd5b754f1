//! Bold lines that head a page without headings. Older pages, and pages
//! written in a rich-text box, mark their sections with a bold line and a
//! line break (`<p><b>The case for loyalty</b><br>Then they…`) rather than
//! an `<h2>`; CleanEval's annotators mark those lines as headings. On a page
//! whose main content has a heading element, bold lines stay emphasis: its
//! author gave the outline.
//!
//! Measured: CleanEval heading F1 0.278 -> 0.304 (0.302 outside quotes). A
//! bold line ending in a colon counts (without it, 0.300). A bold paragraph of its
//! own (`<p><strong>…</strong></p>`) was tried too: CleanEval 0.372, but
//! wcxb-dev's reviewed truths write those as bold text, never as headings
//! (heading F1 0.619 -> 0.616 over 36 pages), so only the line that runs
//! into its section by a `<br>` counts.

use super::unit::{Join, Unit};

/// Most words of a bold line read as a heading.
const MAX_WORDS: usize = 12;

/// For each of `units` (the kept ones, in order): is it a bold line that
/// heads the text after its line break? None is when any unit is a
/// heading. Written as `#`: the top rank, as the walk writes a page's
/// highest headings. Inside a quote (old pages indent their body with
/// `<blockquote>`) too, not inside a list item.
pub(super) fn bold_headings(units: &[&Unit]) -> Vec<bool> {
    let mut out = vec![false; units.len()];
    if units.iter().any(|u| u.md.starts_with('#')) {
        return out;
    }
    for (i, u) in units.iter().enumerate() {
        let starts_block = i == 0 || u.join == Join::Blank || units[i - 1].para != u.para;
        let runs_into_next = units
            .get(i + 1)
            .is_some_and(|n| n.join == Join::Hard && n.para == u.para);
        out[i] = starts_block
            && runs_into_next
            && u.first.split("> ").all(str::is_empty)
            && u.table.is_none()
            && !u.code
            && bold_line(&u.md).is_some();
    }
    out
}

/// The text of a line that is all bold and reads as a title: a few words,
/// not a sentence (no closing full stop, comma or semicolon), not a link
/// or a picture (a forum's "Threaded mode", a logo beside a name).
pub(super) fn bold_line(md: &str) -> Option<&str> {
    let inner = md.strip_prefix("**")?.strip_suffix("**")?;
    if inner.contains("**") || inner.contains("](") || inner.trim().is_empty() {
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
}
