//! A line of an article that is its date ("Dienstag, 4. Juni 2019",
//! "Aktualisiert: 05:28 Uhr"): the record carries the date in its own field
//! and the article's text does not hold it. Found by structure, not by
//! wording: a short block whose text is mostly a `<time>` element that
//! gives a date (not a duration such as a recipe's "15 Min", `PT15M`), or,
//! at the article's head on a page whose markup records its date, a short
//! block that is mostly a date written out.

use crate::html::{Doc, NodeId, Selection, Tag};

/// Most characters a date line holds.
const MAX_CHARS: u32 = 80;

/// Deselects the short blocks of `region` that are mostly a dated `<time>`.
/// Measured on all four content sets: at 80 or 120 characters the same
/// (trafilatura-eval fp −2, wcxb-dev +0.00005, multilingual-dev zh +0.0001);
/// a third instead of half the block cost multilingual-dev de 0.003.
/// `owner` is [`crate::extract::algorithms::cc::owners`] of the page: the block holding each node.
pub(crate) fn drop(doc: &Doc, owner: &[NodeId], sel: &mut Selection, region: NodeId) {
    let end = doc.nodes[region as usize].end;
    let mut lines = Vec::new();
    for t in region..end {
        if doc.tag(t) != Tag::Time || doc.agg[t as usize].chars == 0 || !dated(doc, t) {
            continue;
        }
        let block = owner[t as usize];
        if block == u32::MAX {
            continue;
        }
        let (chars, time) = (doc.agg[block as usize].chars, doc.agg[t as usize].chars);
        if chars <= MAX_CHARS && 2 * time >= chars {
            lines.push(block);
        }
    }
    for block in lines {
        sel.exclude(doc, block);
    }
}

/// How far into an article's selected text (characters) a written date
/// line is looked for: its header (kicker, headline, byline, date), not the
/// story, where a dated line is part of what it tells.
const LEAD_CHARS: u32 = 400;

/// Characters besides the date that a written date line may hold beyond
/// the date's own (a label, "Stand:", "Autor: Ivana Petrić"): the date must
/// make up half the block, less this.
const LABEL_SLACK: u32 = 10;

/// Deselects written date lines at the head of an article: short blocks
/// (not headings, not table cells) in its first [`LEAD_CHARS`] whose text is
/// mostly a date or a time written out ("06.08.2020", "2020-08-06", "4. Juni
/// 2019", "June 4, 2019", "17:37") rather than a `<time>` element. Only on
/// pages whose markup records the date for machines
/// ([`crate::extract::page_date::records_date`]): the record keeps the date there.
/// Runs last, after the title heading is settled, so removing a date above
/// it does not make the heading the text's first line. `owner` is
/// [`crate::extract::algorithms::cc::owners`] of the page, as for [`drop`].
///
/// Measured on all four content sets (page by page): trafilatura-eval fp −1
/// (0.92622 → 0.92637), wcxb-dev 0.87718 → 0.87724 (article 0.95384 →
/// 0.95394), multilingual-dev de 0.87496 → 0.87656, hr 0.96867 → 0.96937,
/// zh word 0.87361 → 0.87384; cleaneval identical. Without the metadata
/// condition trafilatura-eval gained more (0.92712) but cleaneval, whose
/// truths keep the dates of old pages, fell 0.00004; table cells are dates
/// as data (a cleaneval press release's "FOR RELEASE:" cell went).
pub(crate) fn drop_written(doc: &Doc, owner: &[NodeId], sel: &mut Selection, region: NodeId) {
    if !crate::extract::page_date::records_date(doc) {
        return;
    }
    let end = doc.nodes[region as usize].end;
    let mut seen = Vec::new();
    let mut read = 0u32;
    for t in region..end {
        if doc.is_element(t) || !sel.get(t) {
            continue;
        }
        if read > LEAD_CHARS {
            break;
        }
        read += doc.nodes[t as usize].chars;
        let block = owner[t as usize];
        if block == region || block == u32::MAX || seen.contains(&block) {
            continue;
        }
        seen.push(block);
        let chars = doc.agg[block as usize].chars;
        let tag = doc.tag(block);
        if chars > MAX_CHARS || tag.is_heading() || matches!(tag, Tag::Td | Tag::Th) {
            continue;
        }
        let dated = date_chars(&doc.plain_text(block));
        if dated > 0 && 2 * dated + LABEL_SLACK >= chars {
            sel.exclude(doc, block);
        }
    }
}

/// Non-whitespace characters of `text` in dates and times written out.
fn date_chars(text: &str) -> u32 {
    static DATE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let date = DATE.get_or_init(|| {
        regex::Regex::new(concat!(
            r"\b\d{1,2}[./]\s?\d{1,2}[./]\s?\d{2,4}\b", // 06.08.2020, 6/8/20
            r"|\b\d{4}-\d{2}-\d{2}\b",                  // 2020-08-06
            r"|\b\d{1,2}\.\s?\p{L}{3,}\.?\s\d{4}\b",    // 4. Juni 2019
            r"|\b\p{L}{3,}\.?\s\d{1,2},\s\d{4}\b",      // June 4, 2019
            r"|\b\d{1,2}:\d{2}\b",                      // 17:37
        ))
        .unwrap_or_else(|e| unreachable!("date pattern: {e}"))
    });
    date.find_iter(text)
        .map(|m| m.as_str().chars().filter(|c| !c.is_whitespace()).count() as u32)
        .sum()
}

/// A `<time>` that gives a date: its `datetime` starts with a digit, or it
/// has none (an empty one, or a duration, "PT15M", is not a date).
fn dated(doc: &Doc, time: NodeId) -> bool {
    doc.attr(time, "datetime")
        .is_none_or(|d| d.trim_start().starts_with(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use crate::extract::auto::select_typed;
    use crate::extract::typing::PageType;
    use crate::html::{render, Doc};

    fn text(inner: &str) -> String {
        page("", inner)
    }

    #[test]
    fn a_line_that_is_a_date_goes() {
        let t = text("<div class=meta>Updated: <time datetime=2019-06-04>4 June 2019</time></div>");
        assert!(!t.contains("June"), "{t}");
        let t = text("<p><time>Tuesday, 4 June 2019</time></p>");
        assert!(!t.contains("June"), "{t}");
    }

    #[test]
    fn durations_and_sentences_with_a_date_stay() {
        let t = text("<div>Bake <time datetime=PT30M>30 to 40 min</time></div>");
        assert!(t.contains("30 to 40 min"), "{t}");
        let t = text(
            "<p>The council met on <time datetime=2019-06-04>4 June</time> and voted \
             to rebuild the harbour wall before winter.</p>",
        );
        assert!(t.contains("4 June"), "{t}");
    }

    fn page(head: &str, inner: &str) -> String {
        let para = "<p>A paragraph of the story itself, long enough to read as the \
                    body of an article and not as a line of furniture.</p>";
        let html = format!(
            "<html><head>{head}</head><body><article><h1>Headline</h1>{inner}{}</article></body></html>",
            para.repeat(4)
        );
        let doc = Doc::parse_str(&html);
        render(&doc, &select_typed(&doc, PageType::Article, None))
    }

    const RECORDED: &str =
        r#"<meta property="article:published_time" content="2020-08-06T15:37:33+00:00">"#;

    #[test]
    fn a_written_date_line_goes_when_the_markup_records_the_date() {
        // multilingual-dev hr: the metabox under the headline stayed.
        let box_ = "<div class=metabox><span>Autor: Ivana Petri\u{107}</span> <span>17:37 06.08.2020</span></div>";
        let t = page(RECORDED, box_);
        assert!(!t.contains("06.08.2020"), "{t}");
        assert!(t.contains("A paragraph of the story"), "{t}");
        let t = page(
            r#"<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2019-06-04"}</script>"#,
            "<p>Dienstag, 4. Juni 2019</p>",
        );
        assert!(!t.contains("Juni"), "{t}");
    }

    #[test]
    fn written_dates_stay_without_a_recorded_date_in_cells_and_in_the_story() {
        // CleanEval's truths keep the dates of old pages, which record none.
        let t = page("", "<p>Wednesday, January 11, 2006</p>");
        assert!(t.contains("January 11, 2006"), "{t}");
        let t = page(
            RECORDED,
            "<table><tr><td>FOR RELEASE: February 28, 2005</td><td>Speaker sometimes deviates from text.</td></tr></table>",
        );
        assert!(t.contains("February 28, 2005"), "{t}");
        // Past the article's head a dated line is part of the story.
        let story = "<p>A paragraph of the story itself, long enough to read as the \
                     body of an article and not as a line of furniture.</p>"
            .repeat(5);
        let t = page(RECORDED, &format!("{story}<p>Update 17:40 06.08.2020</p>"));
        assert!(t.contains("Update 17:40"), "{t}");
    }
}
