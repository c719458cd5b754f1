//! A line of an article that is its date ("Dienstag, 4. Juni 2019",
//! "Aktualisiert: 05:28 Uhr"): the record carries the date in its own field
//! and the article's text does not hold it. Found by structure, not by
//! wording: a short block whose text is mostly a `<time>` element that
//! gives a date (not a duration such as a recipe's "15 Min", `PT15M`).

use crate::html::{Doc, NodeId, Selection, Tag};

/// Most characters a date line holds.
const MAX_CHARS: u32 = 80;

/// Deselects the short blocks of `region` that are mostly a dated `<time>`.
/// Measured on all four content sets: at 80 or 120 characters the same
/// (trafilatura-eval fp −2, wcxb-dev +0.00005, multilingual-dev zh +0.0001);
/// a third instead of half the block cost multilingual-dev de 0.003.
/// `owner` is [`super::cc::owners`] of the page: the block holding each node.
pub fn drop(doc: &Doc, owner: &[NodeId], sel: &mut Selection, region: NodeId) {
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

/// A `<time>` that gives a date: its `datetime` starts with a digit, or it
/// has none (an empty one, or a duration, "PT15M", is not a date).
fn dated(doc: &Doc, time: NodeId) -> bool {
    doc.attr(time, "datetime")
        .is_none_or(|d| d.trim_start().starts_with(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use crate::extract::auto::select_typed;
    use crate::extract::PageType;
    use crate::html::{render, Doc};

    fn text(inner: &str) -> String {
        let para = "<p>A paragraph of the story itself, long enough to read as the \
                    body of an article and not as a line of furniture.</p>";
        let html = format!(
            "<body><article><h1>Headline</h1>{inner}{}</article></body>",
            para.repeat(4)
        );
        let doc = Doc::parse_str(&html);
        render(&doc, &select_typed(&doc, PageType::Article, None))
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
}
