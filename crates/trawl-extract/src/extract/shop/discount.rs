//! A former price told by what is printed beside it. A theme whose
//! classes say nothing (generated names, no `<del>`, the strike drawn by a
//! stylesheet) still prints "₹2,499 ₹1,299 48% off": the higher price less
//! 48% is the lower one, so the higher is the price before the discount.
//! Or it labels the lower price as the sale price and leaves the higher
//! one under a plain "Price" ("价格 ¥199 促销价 ¥99"). Both are read in
//! the smallest element the two prices share, and only when that element
//! is a price block. The discount counts only with hardly a word beside
//! the prices and the percentage: a price with a condition of its own
//! ("Club Price: $24.29 (Save 10%)", "get it for $185.25 (5% off) with
//! Auto-Replenish") is offered to some, not struck for all: its words leave
//! the higher price the price.

use super::box_price::around;
use super::price_boxes::{regular_beside_current, PriceBox};
use super::price_labels;
use crate::html::{Doc, NodeId};

/// Boxes read on each side of a price for the discounted one.
const NEAR_BOXES: usize = 3;
/// Levels up from each box to the element the two share.
const SHARED_LEVELS: usize = 4;
/// Most visible characters of the shared element: a price block.
const BLOCK_CHARS: u32 = 120;
/// Most letters in a price block beside its prices ("48% off", "-25 %
/// Rabatt"): more are labels that say what each price is.
const BLOCK_LETTERS: usize = 10;
/// How far (in percentage points) the discount printed may be from the
/// one the two prices make: shops round it either way.
const PERCENT_SLACK: f64 = 1.0;

/// Which of `boxes` are former prices by the boxes beside them: a regular
/// price beside a current one, a price that the discount printed beside
/// it brings down to its neighbour's, or a higher price beside one
/// labelled as the sale price (not in the blocks `beside` the product).
pub(super) fn formers_beside(doc: &Doc, boxes: &[PriceBox], beside: &[bool]) -> Vec<bool> {
    let mut out = regular_beside_current(doc, boxes);
    // The one amount of each box (none for a box beside the product).
    let amounts: Vec<Option<f64>> = boxes
        .iter()
        .map(|b| match b.found.as_slice() {
            [f] if !beside.get(b.id as usize).copied().unwrap_or(true) => {
                f.amount.parse::<f64>().ok().filter(|a| *a > 0.0)
            }
            _ => None,
        })
        .collect();
    if amounts.iter().flatten().nth(1).is_none() {
        return out;
    }
    let discounted = before_discount(doc, boxes, &amounts);
    let sold = above_sale(doc, boxes, &amounts);
    for (k, former) in out.iter_mut().enumerate() {
        *former |= discounted[k] || sold[k];
    }
    out
}

/// The pairs of nearby boxes (`k`, `j`) whose one amount `k`'s (`x`) is
/// higher than `j`'s (`y`), in the same currency, with the price block the
/// two share: `(k, j, block, x, y)`.
fn higher_beside<'a>(
    doc: &'a Doc,
    boxes: &'a [PriceBox],
    amounts: &'a [Option<f64>],
) -> impl Iterator<Item = (usize, usize, NodeId, f64, f64)> + 'a {
    boxes.iter().enumerate().flat_map(move |(k, high)| {
        let near = k.saturating_sub(NEAR_BOXES)..(k + NEAR_BOXES + 1).min(boxes.len());
        near.filter_map(move |j| {
            let (x, y) = (amounts[k]?, amounts[j]?);
            let low = &boxes[j];
            if j == k || y >= x || low.found[0].named != high.found[0].named {
                return None;
            }
            shared(doc, high.id, low.id).map(|block| (k, j, block, x, y))
        })
    })
}

/// Which of `boxes` are the price before a discount printed beside them:
/// a box whose one price, less a percentage shown in the price block it
/// shares with a nearby box, is that box's one price (in the same currency).
/// `amounts` holds each box's one amount; boxes in the blocks beside the
/// product (related products' cards) have none.
fn before_discount(doc: &Doc, boxes: &[PriceBox], amounts: &[Option<f64>]) -> Vec<bool> {
    let mut out = vec![false; boxes.len()];
    // The text of each block read, read once.
    let mut blocks: Vec<(NodeId, String)> = Vec::new();
    for (k, j, block, x, y) in higher_beside(doc, boxes, amounts) {
        if out[k] {
            continue;
        }
        let (high, low) = (&boxes[k], &boxes[j]);
        let at = match blocks.iter().position(|(id, _)| *id == block) {
            Some(at) => at,
            None => {
                blocks.push((block, doc.plain_text(block)));
                blocks.len() - 1
            }
        };
        let text = &blocks[at].1;
        let made = (x - y) / x * 100.0;
        let shown = percents(text)
            .into_iter()
            .any(|p| (p - made).abs() < PERCENT_SLACK);
        if shown && few_words(text, &high.found[0].raw, &low.found[0].raw) {
            out[k] = true;
        }
    }
    out
}

/// Which of `boxes` are a higher price beside the one labelled as the sale
/// price, in the price block the two share ("价格 ¥199 促销价 ¥99",
/// "Preis: 59,00 € Aktionspreis: 39,00 €"): the higher price is the one
/// before the sale. A box labelled as the sale price itself is never
/// struck by another.
fn above_sale(doc: &Doc, boxes: &[PriceBox], amounts: &[Option<f64>]) -> Vec<bool> {
    let mut out = vec![false; boxes.len()];
    let sale: Vec<bool> = boxes
        .iter()
        .zip(amounts)
        .map(|(b, a)| {
            a.is_some() && price_labels::sale(&b.text.to_lowercase(), &around(doc, b.id).0)
        })
        .collect();
    if !sale.contains(&true) {
        return out;
    }
    for (k, j, ..) in higher_beside(doc, boxes, amounts) {
        if sale[j] && !sale[k] {
            out[k] = true;
        }
    }
    out
}

/// The smallest element holding both `a` and `b`, within
/// [`SHARED_LEVELS`] of each and of at most [`BLOCK_CHARS`] characters.
fn shared(doc: &Doc, a: NodeId, b: NodeId) -> Option<NodeId> {
    let mut up = [u32::MAX; SHARED_LEVELS];
    let mut cur = doc.nodes[a as usize].parent;
    for slot in &mut up {
        if cur == u32::MAX {
            break;
        }
        *slot = cur;
        cur = doc.nodes[cur as usize].parent;
    }
    let mut cur = doc.nodes[b as usize].parent;
    for _ in 0..SHARED_LEVELS {
        if cur == u32::MAX {
            return None;
        }
        if up.contains(&cur) {
            return (doc.agg[cur as usize].chars <= BLOCK_CHARS).then_some(cur);
        }
        cur = doc.nodes[cur as usize].parent;
    }
    None
}

/// Whether a block's `text` holds at most [`BLOCK_LETTERS`] letters beside
/// the two prices (`high` and `low` as written).
fn few_words(text: &str, high: &str, low: &str) -> bool {
    let letters = |s: &str| s.chars().filter(|c| c.is_alphabetic()).count();
    let priced = |raw: &str| text.matches(raw).map(letters).sum::<usize>();
    letters(text).saturating_sub(priced(high) + priced(low)) <= BLOCK_LETTERS
}

/// The percentages written in `text` ("48% off", "-12,5 %", "％"), below
/// 100 and above 0.
fn percents(text: &str) -> Vec<f64> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices(['%', '％']) {
        let head = text[..at].trim_end_matches(' ');
        let number_start = head
            .rfind(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
            .map_or(0, |i| {
                i + head[i..].chars().next().map_or(1, char::len_utf8)
            });
        let number = head[number_start..].trim_start_matches(['.', ',']);
        if number.is_empty() || number.len() > 5 {
            continue;
        }
        if let Ok(p) = number.replace(',', ".").parse::<f64>() {
            if p > 0.0 && p < 100.0 {
                out.push(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_in_their_common_forms() {
        assert_eq!(percents("48% off"), vec![48.0]);
        assert_eq!(percents("-12,5 % rabatt"), vec![12.5]);
        assert_eq!(percents("割引 30％"), vec![30.0]);
        assert_eq!(percents("save 100% and 0%"), Vec::<f64>::new());
        assert!(percents("no discount").is_empty());
    }

    #[test]
    fn a_price_block_has_hardly_a_word_beside_its_prices() {
        assert!(few_words("₹1,299 ₹2,499 48% off", "₹2,499", "₹1,299"));
        assert!(few_words(
            "R$ 199,90 R$ 149,90 25% OFF",
            "R$ 199,90",
            "R$ 149,90"
        ));
        assert!(!few_words(
            "Online Price: $26.99 Club Price: $24.29 (Save 10%)",
            "$26.99",
            "$24.29"
        ));
        assert!(!few_words(
            "$195.00 get it for $185.25 (5% off) with Auto-Replenish",
            "$195.00",
            "$185.25"
        ));
    }
}
