//! Which price of a buy box is the one paid: the words around a price box,
//! the prices a box holds (the lower of a deal, the one with tax, never a
//! rate, an add-on or a threshold), cents a theme sets apart, a former
//! price's label that strikes only its own price, and among the boxes the
//! one nearest the product's heading, or the sale price right after a
//! struck copy of it. `visible` finds the boxes; this decides between them.

use std::borrow::Cow;

use super::money::Found;
use super::price_labels;
use super::unit_price;
use crate::extract::noise::matches_any_token;
use crate::html::{Doc, Kind, NodeId};

/// The nearest non-empty text before node `id` and after its subtree
/// (a few nodes each way): the words around a price box; and where those
/// texts are.
pub(super) type Around = (String, String, Option<usize>, Option<usize>);
pub(super) fn around(doc: &Doc, id: NodeId) -> Around {
    let i = id as usize;
    let end = doc.nodes[i].end as usize;
    let is_text = |j: usize| doc.nodes[j].kind == Kind::Text && doc.nodes[j].chars > 0;
    let prev_at = (i.saturating_sub(12)..i).rev().find(|&j| is_text(j));
    let prev = prev_at
        .map(|j| doc.text(j as NodeId).trim().to_lowercase())
        .unwrap_or_default();
    let next_at = (end..(end + 12).min(doc.len())).find(|&j| is_text(j));
    let next = next_at
        .map(|j| doc.text(j as NodeId).trim().to_lowercase())
        .unwrap_or_default();
    (prev, next, prev_at, next_at)
}

/// Words right after an amount that make it a monthly rate ("4,17 €
/// monatlich", "16,66 € par mois") or a loyalty point's worth ("（￥50相当）").
const RATE_AFTER: &[&str] = &[
    "a month",
    "monthly",
    "monatlich",
    "mtl.",
    "pro monat",
    "im monat",
    "par mois",
    "al mes",
    "por mes",
    "al mese",
    "per maand",
    "miesięcznie",
    "в месяц",
    "i måneden",
    "i månaden",
    "相当",
];

/// Whether the text right after a price makes it a rate or a discount
/// ("/month", "per meal", "off", "monatlich").
fn is_rate(after: &str) -> bool {
    let a = after
        .trim_start_matches(|c: char| c.is_whitespace() || c == ')' || c == '）')
        .to_lowercase();
    a.starts_with('/')
        || a.starts_with("per ")
        || a.starts_with("off")
        || a.starts_with("mo ")
        || RATE_AFTER.iter().any(|w| a.starts_with(w))
}
/// Whether price `k` of a box's `text` (its prices `found`) is never the
/// price paid by what the box itself says: a unit price, or a label since
/// the box's last price of a saving, an instalment, an add-on or a
/// threshold ("zzgl. 0,25 € Pfand", "(2,98 € / kg)"). A block holding the
/// price and such a box is a box of the price.
pub(super) fn never_paid(text: &str, found: &[Found], k: usize) -> bool {
    let Some(f) = found.get(k) else {
        return false;
    };
    if unit_price::of_measure(text, found, k) {
        return true;
    }
    let from = k
        .checked_sub(1)
        .and_then(|j| found.get(j))
        .map_or(0, |last| last.at + last.raw.len());
    let before = text.get(from..f.at).unwrap_or_default().trim();
    if before.is_empty() {
        return false;
    }
    let lower = before.to_lowercase();
    add_on(before) || price_labels::not_the_price(&lower) || price_labels::threshold(&lower)
}

/// Whether the text before a price makes it an add-on ("+ $5.00", "(+
/// 2,00 €)"); a quantity's tier ("10+ $9.00") is a price.
fn add_on(before: &str) -> bool {
    let b = before
        .strip_suffix("(+")
        .or_else(|| before.strip_suffix('+'));
    b.is_some_and(|rest| !rest.ends_with(|c: char| c.is_ascii_digit()))
}

/// The price of one small box (`text`, its prices `found`, the text
/// nodes before and after it), and whether it is labelled as before tax:
/// of several, the lower is what is paid now ("£114.90 £94.90 -17%"), and
/// one with tax over one without ("£25.00 ex VAT £30.00 inc VAT"); a rate,
/// an add-on or a threshold ("orders over $50") is never the price.
pub(super) fn box_price<'a>(
    found: &'a [Found],
    text: &str,
    (prev, prev_own): (&str, bool),
    next: &str,
) -> Option<(&'a Found, bool)> {
    let priced: Vec<(&Found, bool)> = found
        .iter()
        .enumerate()
        .filter_map(|(k, f)| {
            let end = (f.at + f.raw.len()).min(text.len());
            let after = text.get(end..).unwrap_or_default();
            let after = if after.trim().is_empty() { next } else { after };
            let in_box = text.get(..f.at).unwrap_or_default().trim_end();
            let before_text = if in_box.is_empty() { prev } else { in_box };
            let before_lower = before_text.to_lowercase();
            // A unit price: its measure after it, or its label since the
            // box's last price, or before the box when no other box ends
            // with that text ("£3.00 per kg" is no label of "£1.50").
            let unit = unit_price::per_measure(after)
                || if k > 0 || !in_box.is_empty() {
                    unit_price::of_measure(text, found, k)
                } else {
                    prev_own && unit_price::labelled(&before_lower)
                };
            let price = !is_rate(after)
                && !unit
                && !add_on(before_text)
                && !price_labels::threshold(&before_lower)
                && !price_labels::not_the_price(&before_lower);
            if !price {
                return None;
            }
            // The label before a price: the text since the box's last
            // price when it ends with a colon ("Inc VAT: £30.00 Ex VAT:
            // £25.00"; without one it follows that price: "£25.00 ex VAT
            // £30.00"), or the text before the box when no other price box
            // ends with it.
            let label: Cow<str> = match k.checked_sub(1).map(|j| &found[j]) {
                Some(last) => {
                    let since = text.get(last.at + last.raw.len()..f.at).unwrap_or_default();
                    let since = since.trim_end();
                    if since.ends_with([':', '：']) {
                        Cow::Owned(since.to_lowercase())
                    } else {
                        Cow::Borrowed("")
                    }
                }
                None if in_box.is_empty() && !prev_own => Cow::Borrowed(""),
                None => Cow::Borrowed(&before_lower),
            };
            // The words after a price up to the next one label it unless
            // they end with a colon (then they are the next one's).
            let till = found
                .get(k + 1)
                .map_or(after.len(), |g| g.at.saturating_sub(end));
            let follows = after.get(..till).unwrap_or(after);
            let follows = if follows.trim_end().ends_with([':', '：']) {
                String::new()
            } else {
                follows.to_lowercase()
            };
            let net = price_labels::net_of_tax(&follows, &label);
            Some((f, net))
        })
        .collect();
    let with_tax = priced.iter().any(|(_, net)| !net);
    priced
        .into_iter()
        .filter(|(_, net)| !with_tax || !net)
        .min_by(|(a, _), (b, _)| {
            let x: f64 = a.amount.parse().unwrap_or(f64::MAX);
            let y: f64 = b.amount.parse().unwrap_or(f64::MAX);
            x.total_cmp(&y)
        })
}

/// Class/id words of an element holding a price's cents apart (Mercado
/// Libre's `andes-money-amount__cents`, `price-fraction`): a `<sup>` drawn
/// by a stylesheet.
const CENTS_NAMES: &[&str] = &["cents", "fraction", "decimal"];

/// A box's text with the cents a theme sets apart joined back to their
/// amount (`$35<sup>99</sup>`, `<span>35</span><span>,99</span>`, a span
/// named for the cents, `<span>1 099,</span><span>00</span>`,
/// `<span>12</span><span>.</span><span>59</span>`: plain text puts a space
/// between the pieces, and "$35" was read); None when there are none.
pub(super) fn cents_joined(doc: &Doc, id: NodeId, text: &str) -> Option<String> {
    let two_digits = |t: &[u8]| t.len() == 2 && t.iter().all(u8::is_ascii_digit);
    let sup = (id + 1..doc.end(id))
        .filter(|&i| {
            doc.is_element(i)
                && (doc.name(i) == "sup" || matches_any_token(doc.class_id_role(i), CENTS_NAMES))
        })
        .map(|i| doc.plain_text(i))
        .find(|t| two_digits(t.as_bytes()));
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 1);
    let mut last = 0;
    for (i, _) in text.match_indices(' ') {
        // "129,<sup>99</sup>": the decimal mark written before the cents.
        let marked = i >= 2 && matches!(b[i - 1], b'.' | b',') && b[i - 2].is_ascii_digit();
        if i == 0 || !(b[i - 1].is_ascii_digit() || marked) {
            continue;
        }
        let rest = &b[i + 1..];
        let ends = |n: usize| rest.get(n).is_none_or(|c| !c.is_ascii_digit());
        let sup_follows = || {
            sup.as_deref()
                .is_some_and(|s| rest.starts_with(s.as_bytes()) && ends(2))
        };
        let mark = if marked {
            // "1 099,<span>00</span> zł": cents in an element of their own
            // after the mark, whatever the theme names it.
            let cents_alone = rest.get(..2).is_some_and(two_digits) && ends(2);
            if !sup_follows() && !cents_alone {
                continue;
            }
            ""
        } else if rest.len() >= 4
            && matches!(rest[0], b'.' | b',')
            && rest[1] == b' '
            && two_digits(&rest[2..4])
            && ends(4)
        {
            // "12 . 59": the mark an element of its own too.
            out.push_str(&text[last..i]);
            out.push(char::from(rest[0]));
            last = i + 3;
            continue;
        } else if rest.len() >= 3
            && matches!(rest[0], b'.' | b',')
            && two_digits(&rest[1..3])
            && ends(3)
        {
            ""
        } else if sup_follows() {
            // The amount's own marks are thousands: the other one.
            let mut number =
                text[..i].rsplit(|c: char| !c.is_ascii_digit() && c != '.' && c != ',');
            if number.next().is_some_and(|n| n.contains('.')) {
                ","
            } else {
                "."
            }
        } else {
            continue;
        };
        out.push_str(&text[last..i]);
        out.push_str(mark);
        last = i + 1;
    }
    if last == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    Some(out)
}

/// In a box whose text opens with a former price's label, how many of its
/// prices are former: those before the first price that follows a label of
/// its own that is not a former one ("Was $50.00 Now $35.00", "UVP 59,99 €
/// jetzt 39,99 €"). None when every price is former (a range, a list).
pub(super) fn former_then_now(found: &[Found], text: &str) -> Option<usize> {
    (1..found.len()).find(|&k| {
        let from = found[k - 1].at + found[k - 1].raw.len();
        let label = text.get(from..found[k].at).unwrap_or_default();
        let label = label.trim().to_lowercase();
        label.chars().any(char::is_alphabetic) && !price_labels::former(&label, &label)
    })
}

/// A buy-box candidate: distance from the heading, position, the box's
/// price and the top of the range it opens.
pub(super) type Candidate = (u64, u64, Found, Option<Found>);

/// Characters between a price and its struck copy, or a struck price and
/// the sale price beside it, for them to be one buy box.
const BESIDE_CHARS: u64 = 80;

/// The buy-box price: the candidate nearest the heading; but when that
/// amount is shown again struck through right after it, with a lower price
/// right after the struck copy, the lower one. A theme that prints the regular
/// price plainly and again struck beside the sale price (one of the two
/// hidden by a stylesheet we do not apply) sells at the sale price.
pub(super) fn buy_box_price(
    mut candidates: Vec<Candidate>,
    struck: &[(u64, String)],
) -> Option<Candidate> {
    candidates.sort_by_key(|(d, _, _, _)| *d);
    let (_, at, nearest, _) = candidates.first()?;
    let amount = |f: &Found| f.amount.parse::<f64>().unwrap_or(f64::MAX);
    let near = |a: u64, b: u64| a.abs_diff(b) <= BESIDE_CHARS;
    // The plain price, then its struck copy, then the sale price: a list
    // price struck *before* a price paid is the usual "was / now" (a
    // member's price after them is not the price).
    let copy = struck
        .iter()
        .find(|(s_at, s)| *s == nearest.amount && *s_at > *at && near(*s_at, *at));
    if let Some((s_at, _)) = copy {
        let now = amount(nearest);
        if let Some(sale) = candidates
            .iter()
            .skip(1)
            .find(|(_, c_at, f, _)| amount(f) < now && *c_at > *s_at && near(*c_at, *s_at))
        {
            return Some(sale.clone());
        }
    }
    candidates.into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::super::money::find_prices;
    use super::*;

    #[test]
    fn an_add_on_and_a_quantitys_tier() {
        assert!(add_on("+"));
        assert!(add_on("gift wrap (+"));
        assert!(!add_on("10+"));
        assert!(!add_on("price"));
        assert!(is_rate(" monatlich"));
        assert!(is_rate("相当）"));
        assert!(!is_rate(" inkl. MwSt."));
    }

    #[test]
    fn a_box_holding_only_what_is_never_paid() {
        let text = "zzgl. 0,25 € Pfand";
        let found = find_prices(text);
        assert!(never_paid(text, &found, 0));
        let text = "(2,98 € / 1 kg)";
        assert!(never_paid(text, &find_prices(text), 0));
        let text = "1,49 €";
        assert!(!never_paid(text, &find_prices(text), 0));
    }

    /// Issue 59: cents or the decimal mark in elements of their own,
    /// whatever their class: "1 099," then "00" read 0.00 (Allegro), "12"
    /// "." "59" read 12.00 (AliExpress).
    #[test]
    fn cents_and_marks_in_elements_of_their_own() {
        for (html, want) in [
            (
                "<div><span>1 099,</span><span>00</span> <span>zł</span></div>",
                "1 099,00 zł",
            ),
            (
                "<div><span>US $</span><span>12</span><span>.</span><span>59</span></div>",
                "US $ 12.59",
            ),
        ] {
            let doc = Doc::parse_str(html);
            let id = (0..doc.len() as NodeId)
                .find(|&i| doc.name(i) == "div")
                .expect("a div");
            let text = doc.plain_text(id);
            assert_eq!(
                cents_joined(&doc, id, &text).as_deref(),
                Some(want),
                "{html}"
            );
        }
        // Sizes after a comma are no cents: a third digit follows.
        let doc = Doc::parse_str("<div><span>10,</span><span>125</span></div>");
        let id = (0..doc.len() as NodeId)
            .find(|&i| doc.name(i) == "div")
            .expect("a div");
        assert_eq!(cents_joined(&doc, id, &doc.plain_text(id)), None);
    }
}
