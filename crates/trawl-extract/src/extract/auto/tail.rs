//! What an article's region holds after its last paragraph: a source line,
//! "More on this topic", a contact label, a "last changed" stamp, a lone
//! tag. A story ends with a paragraph; the short blocks that trail it are
//! the page's furniture around the story, unless they are rows of a list
//! or a table the story ends with (its facts, its steps, its credits), or
//! the page is not made of paragraphs at all (a listing or a service page
//! typed as an article).

use crate::html::{Doc, Kind, NodeId, Selection, Tag};

/// A block with at least this many selected characters (non-whitespace) is
/// a paragraph of the story: what trails the last one is the tail.
const PARAGRAPH_CHARS: u32 = 80;
/// A trailing block with fewer characters than this is furniture.
const SHORT_CHARS: u32 = 40;
/// Share of the selected text paragraphs must hold for the page to be read
/// as a story at all.
const MIN_PARAGRAPH_SHARE: f64 = 0.4;

/// A block inside one of these (under the region) is a row of a list or a
/// table.
const ROWS: &[Tag] = &[Tag::Li, Tag::Td, Tag::Th, Tag::Dd, Tag::Dt, Tag::Tr];

/// Drops the short blocks after the last paragraph of `region`, except the
/// rows of lists and tables. Swept on all four content sets (paragraph
/// 60/80/100/120/150, short 30/40/50, share 0/0.4/0.5/0.7/0.8): 80, 40 and
/// 0.4 lift each of them (trafilatura-eval 0.914 -> 0.920, wcxb-dev, cleaneval
/// and multilingual-dev a little) and keep every wcxb-dev type's score.
/// `owner` is [`crate::extract::algorithms::cc::owners`] of the page.
pub(crate) fn trim(doc: &Doc, owner: &[NodeId], sel: &mut Selection, region: NodeId) {
    let end = doc.nodes[region as usize].end;
    // Selected text per owning block, blocks in document order.
    let mut blocks: Vec<(NodeId, u32, Vec<NodeId>)> = Vec::new();
    for i in region..end {
        let n = &doc.nodes[i as usize];
        if n.kind != Kind::Text || n.chars == 0 || !sel.get(i) {
            continue;
        }
        let u = owner[i as usize];
        match blocks.last_mut() {
            Some((b, chars, texts)) if *b == u => {
                *chars += n.chars;
                texts.push(i);
            }
            _ => blocks.push((u, n.chars, vec![i])),
        }
    }
    let Some(last) = blocks.iter().rposition(|(_, c, _)| *c >= PARAGRAPH_CHARS) else {
        return;
    };
    let total: u32 = blocks.iter().map(|b| b.1).sum();
    let paragraphs: u32 = blocks
        .iter()
        .filter(|b| b.1 >= PARAGRAPH_CHARS)
        .map(|b| b.1)
        .sum();
    if f64::from(paragraphs) < MIN_PARAGRAPH_SHARE * f64::from(total) {
        return;
    }
    for (block, chars, texts) in &blocks[last + 1..] {
        if *chars < SHORT_CHARS && !doc.tagged_below(*block, region, ROWS) {
            for &t in texts {
                sel.set(t, false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(html: &str) -> String {
        let doc = Doc::parse_str(html);
        let region = doc.body();
        let mut sel = Selection::subtree(&doc, region);
        trim(
            &doc,
            &crate::extract::algorithms::cc::owners(&doc),
            &mut sel,
            region,
        );
        (0..doc.len() as NodeId)
            .filter(|&i| !doc.is_element(i) && sel.get(i) && doc.nodes[i as usize].chars > 0)
            .map(|i| doc.text(i).trim())
            .collect::<Vec<_>>()
            .join(" | ")
    }

    const STORY: &str = "<p>The harbour walls gave way in three places on Sunday night, and by \
        Monday morning the river had risen behind them to the level of the old quay.</p>\
        <p>Repairs will start next week, the council said, once the water is down and the \
        engineers have looked at what is left of the foundations under the road.</p>";

    #[test]
    fn short_blocks_after_the_last_paragraph_go() {
        let text = kept(&format!(
            "<body>{STORY}<div>Source: wire services</div><div>Last changed: 3 May</div></body>"
        ));
        assert!(text.contains("foundations under the road"), "{text}");
        assert!(
            !text.contains("Source") && !text.contains("Last changed"),
            "{text}"
        );
    }

    #[test]
    fn a_list_the_story_ends_with_stays() {
        let text = kept(&format!(
            "<body>{STORY}<ul><li>Sandbags</li><li>Pumps</li></ul></body>"
        ));
        assert!(
            text.contains("Sandbags") && text.contains("Pumps"),
            "{text}"
        );
    }

    #[test]
    fn a_page_of_short_blocks_is_not_trimmed() {
        // A service page typed as an article: one paragraph among cards.
        let cards = "<div>Add-on channels</div><div>View add-ons</div>".repeat(6);
        let text = kept(&format!(
            "<body><p>Choose the package that fits your household and add channels \
             whenever you like, without a contract or a fee.</p>{cards}</body>"
        ));
        assert!(text.contains("View add-ons"), "{text}");
    }
}
