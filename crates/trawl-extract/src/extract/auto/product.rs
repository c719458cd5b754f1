//! Product pages: where the product is (the block around its name), what
//! sits beside it and is not the product (shoppers' reviews and questions,
//! carousels of other products, disclaimers), and the seller's JSON-LD
//! description when the visible text is thin. The blocks beside the product
//! are marked apart from the noise model ([`crate::extract::noise::full`]): they take
//! part in finding the main region and are left out of the text afterwards.

use crate::extract::noise::{class_id_role, mark, matches_token};
use crate::extract::typing::PageType;
use crate::html::{Agg, Doc, NodeId, Tag};

/// Share (percent) of the page's clean text the product's block holds.
const TITLE_BLOCK_SHARE: u32 = 50;

/// The product's block: the smallest block around the page's first visible
/// `<h1>` (the product name) that holds at least half of the clean text. The
/// densest block alone is often one tab of the description, or the reviews.
/// Swept on wcxb-dev products: 20% 0.657, 40% 0.671, 50% 0.676, 60% 0.676,
/// 80% 0.671 (densest block alone: 0.666).
pub(crate) fn title_block(doc: &Doc, agg: &[Agg], noise: &[bool]) -> Option<NodeId> {
    let body = doc.body();
    let h1 = (body..doc.nodes[body as usize].end)
        .find(|&i| doc.tag(i) == Tag::H1 && !noise[i as usize] && agg[i as usize].chars > 0)?;
    let want = u64::from(agg[body as usize].chars) * u64::from(TITLE_BLOCK_SHARE);
    let mut block = h1;
    while block != body && u64::from(agg[block as usize].chars) * 100 < want {
        block = doc.nodes[block as usize].parent;
    }
    Some(block)
}

/// Blocks named for the product's description (`product-description`,
/// `#description`) outside its `region`: the description often sits in a tab
/// row apart from the block around the name. On wcxb-dev +0.46 page-F1 over
/// 5 pages (adding "specification", "details", "features": no more).
pub(crate) fn description_blocks(doc: &Doc, region: NodeId) -> Vec<bool> {
    mark(doc, |id| {
        doc.is_element(id)
            && !doc.contains(id, region)
            && !doc.contains(region, id)
            && matches_token(class_id_role(doc, id), "description")
    })
}

/// A product text with fewer words than this, or without a line of
/// [`PROSE_WORDS`], is thin: its description is drawn by scripts. (Prose line
/// swept 10 / 15 / 20 / 25 / 30 / 45 on wcxb-dev product: 0.709 / 0.715 /
/// 0.715 / 0.711 / 0.711 / 0.704.)
const THIN_WORDS: usize = 50;
const PROSE_WORDS: usize = 20;

/// Adds the seller's JSON-LD description to a thin product text (unless the
/// text already holds it).
pub(crate) fn add_description(text: &mut String, description: Option<&str>) {
    let Some(d) = description else {
        return;
    };
    let thin = text.split_whitespace().count() < THIN_WORDS
        || !text
            .lines()
            .any(|l| l.split_whitespace().count() >= PROSE_WORDS);
    if !thin || text.contains(d) {
        return;
    }
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(d);
}

/// Whether a page is a product page.
pub(crate) fn is_product_page(doc: &Doc, url: &str, page_type: PageType) -> bool {
    let declared = doc.meta.json_ld.iter().any(|j| {
        let l = j.to_ascii_lowercase();
        l.contains("\"product\"") || l.contains("\"offer\"")
    }) || doc
        .meta
        .metas
        .iter()
        .any(|(k, v)| k == "og:type" && v.to_ascii_lowercase().contains("product"));
    let path = url_path(url).to_ascii_lowercase();
    let segment = |names: &[&str]| path.split('/').any(|s| names.contains(&s));
    let by_url = segment(&["product", "products", "p", "item", "dp", "artikel"]);
    let listing = segment(&[
        "category",
        "categories",
        "c",
        "collections",
        "search",
        "tag",
        "list",
        "shop",
    ]);
    declared || by_url || (page_type == PageType::Product && !listing)
}

/// The path of an absolute URL ("" when it has none).
fn url_path(url: &str) -> &str {
    let rest = url.split_once("://").map_or("", |(_, r)| r);
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    rest.find('/').map_or("", |i| &rest[i..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_block_holds_the_name_and_half_the_text() {
        let desc = "Hand thrown stoneware, glazed inside, holds 350 ml of tea. ".repeat(4);
        let doc = Doc::parse_str(&format!(
            "<body><div id=top><div id=head><h1>Stoneware mug</h1><p>$24</p></div>\
             <div id=tabs><p>{desc}</p></div></div><div id=more><p>Shipping in two days.</p></div></body>"
        ));
        let noise = vec![false; doc.len()];
        let block = title_block(&doc, &doc.agg, &noise).expect("an h1");
        assert_eq!(doc.attr(block, "id"), Some("top"));
        let none = Doc::parse_str("<body><p>No title here.</p></body>");
        assert!(title_block(&none, &none.agg, &vec![false; none.len()]).is_none());
    }

    #[test]
    fn a_thin_product_text_gets_the_json_ld_description() {
        let d = "Dark roast, fair trade, organic arabica and robusta.";
        let mut thin = "Item added to your cart".to_string();
        add_description(&mut thin, Some(d));
        assert_eq!(thin, format!("Item added to your cart\n\n{d}"));
        let mut full = "word ".repeat(THIN_WORDS);
        add_description(&mut full, Some(d));
        assert!(!full.contains(d));
        // Regression: many short lines (sizes, delivery options) are not a
        // description either; a wording change that split one glued word
        // pushed such a page over the word count and lost its description.
        let mut options = "Size\nxs\ns\nm\nl\nStandard delivery in 4-7 days\n".repeat(8);
        add_description(&mut options, Some(d));
        assert!(options.ends_with(d));
        let mut holds = d.to_string();
        add_description(&mut holds, Some(d));
        assert_eq!(holds, d);
    }

    #[test]
    fn a_description_apart_from_the_product_block_is_found() {
        let doc = Doc::parse_str(
            "<body><div id=buy><h1>Fire pit</h1><p>$299</p></div>\
             <div class=tabs><div class='tab product-description'><p>Steel, smokeless.</p></div>\
             <div class=tab><p>Ships in 2 days.</p></div></div></body>",
        );
        let buy = (0..doc.len() as NodeId)
            .find(|&i| doc.class_id(i).1 == Some("buy"))
            .expect("buy");
        let marked = description_blocks(&doc, buy);
        let texts: Vec<String> = (0..doc.len() as NodeId)
            .filter(|&i| marked[i as usize] && !doc.is_element(i))
            .map(|i| doc.plain_text(i))
            .collect();
        assert_eq!(texts, ["Steel, smokeless."]);
    }
}
