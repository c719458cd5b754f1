//! Which price a product record carries: the structured price unless the
//! page contradicts it (a sale the markup missed, a wrong currency), else
//! the buy box's; the top of a range, the regular price struck beside it,
//! the price an add-to-cart control carries, and the currency of the
//! prices the page shows.

use super::availability::Availability;
use super::record::{Partial, Price, Source, StructuredPrice};
use crate::extract::shop::money::{self, same_amount, settle, Named, Place};
use crate::extract::shop::visible;
use crate::html::{Doc, NodeId};

/// The top of the range whose low end is the price paid: the structured
/// one, else the one the buy box shows ("$10.00 – $20.00", "30,000원~
/// 50,000원") when the price paid is its low end.
pub(super) fn price_max(
    ld: &Partial,
    vis: &visible::Visible,
    paid: Option<&Price>,
) -> Option<Price> {
    let paid = paid?;
    let low: f64 = paid.amount.parse().ok()?;
    if paid.source == Source::JsonLd {
        if let Some(high) = ld.high_price.as_ref() {
            return (high.amount.parse::<f64>().ok()? > low).then(|| high.beside(paid));
        }
    }
    let shown_low = vis
        .price
        .as_ref()
        .filter(|f| same_amount(&f.amount, &paid.amount))?;
    let top = vis.price_max.as_ref()?;
    (shown_low.named == top.named).then(|| Price {
        amount: top.amount.clone(),
        currency: paid.currency.clone(),
        raw: top.raw.clone(),
        source: Source::Visible,
    })
}

/// The regular price: the structured list price, else the first price
/// shown struck through that is above the one paid (and not ten times it:
/// a bundle's, a plan's). Only when there is a price paid, below it.
pub(super) fn regular_price(
    ld: &Partial,
    vis: &visible::Visible,
    paid: Option<&Price>,
) -> Option<Price> {
    let paid = paid?;
    let now: f64 = paid.amount.parse().ok()?;
    let above = |amount: &str| {
        amount
            .parse::<f64>()
            .is_ok_and(|a| a > now && a < now * 10.0)
    };
    if let Some(lp) = ld.list_price.as_ref().filter(|lp| above(&lp.amount)) {
        return Some(lp.beside(paid));
    }
    let struck = vis.struck.iter().find(|a| above(a))?;
    Some(Price {
        amount: struck.clone(),
        currency: paid.currency.clone(),
        raw: struck.clone(),
        source: Source::Visible,
    })
}

/// Without any other price, the one the product's add-to-cart control
/// carries in an attribute, on a page with a product heading.
pub(super) fn control_price(doc: &Doc, vis: &visible::Visible, beside: &[bool]) -> Option<Price> {
    vis.anchor?;
    let chrome = |id: NodeId| visible::in_chrome(doc, id) || beside[id as usize];
    let c = crate::extract::shop::controls::cart_price(doc, &chrome)?;
    Some(Price {
        amount: c.amount,
        currency: c.currency.map(str::to_string),
        raw: c.raw,
        source: Source::Control,
    })
}

/// The one currency of every price the page shows, if they agree.
pub(super) fn shown_currency(vis: &visible::Visible, place: &Place) -> Option<String> {
    let mut codes = vis.all.iter().filter_map(|f| settle(f.named, None, place));
    let first = codes.next()?;
    codes.all(|c| c == first).then(|| first.to_string())
}

/// The structured data with the offer the buy box shows: when the buy box's
/// price is not the first offer's but is another of the product's own offers'
/// (another seller's in a marketplace's list, another size's), that offer is
/// the one sold, its availability with it. When the first offer is sold out
/// and the page shows the product in stock (`shows_in_stock`: its cart
/// control), the first offer in stock at the buy box's price is the one
/// sold (a shop selects the first size it has: Shopify's "first available
/// variant"). `None` when the first offer is the one shown.
pub(super) fn shown_offer(
    ld: &Partial,
    vis: &visible::Visible,
    shows_in_stock: &dyn Fn() -> bool,
) -> Option<Partial> {
    let (first, buy) = (ld.price.as_ref()?, vis.price.as_ref()?);
    if ld.other_offers.is_empty() || ld.selected {
        return None;
    }
    let at_buy = |o: &StructuredPrice| {
        same_amount(&buy.amount, &o.amount)
            && (o.currency.is_none() || first.currency.is_none() || o.currency == first.currency)
    };
    let shown = if !same_amount(&buy.amount, &first.amount) {
        ld.other_offers.iter().find(|o| at_buy(&o.price))?
    } else if ld.availability == Some(Availability::OutOfStock) {
        let in_stock = ld
            .other_offers
            .iter()
            .find(|o| o.availability == Some(Availability::InStock) && at_buy(&o.price))?;
        if !shows_in_stock() {
            return None;
        }
        in_stock
    } else {
        return None;
    };
    // A code that was the first offer's goes with it; the product's own stays.
    let sku = match &shown.sku {
        Some(code) if ld.sku.is_some() && ld.sku == ld.offer_sku => Some(code.clone()),
        _ => ld.sku.clone(),
    };
    Some(Partial {
        price: Some(shown.price.clone()),
        availability: shown.availability,
        list_price: None,
        high_price: None,
        offer_sku: shown.sku.clone(),
        sku,
        ..ld.clone()
    })
}

/// The price: the most trusted structured price unless the page contradicts
/// it, else the buy box.
pub(super) fn pick_price(
    sources: &[(&Partial, Source)],
    vis: &visible::Visible,
    place: &Place,
) -> Option<Price> {
    let declared = sources
        .iter()
        .find_map(|(p, _)| p.price.as_ref().and_then(|x| x.currency))
        .or_else(|| sources.iter().find_map(|(p, _)| p.currency));
    let from_visible = |f: &money::Found| Price {
        amount: f.amount.clone(),
        // An amount shown without its currency is in the page's others',
        // else in the one its place pays in (`nl-NL`: euros).
        currency: settle(f.named, declared, place)
            .map(str::to_string)
            .or_else(|| shown_currency(vis, place))
            .or_else(|| {
                let unshown = f.named == Named::Unshown;
                unshown
                    .then(|| place.currency())
                    .flatten()
                    .map(str::to_string)
            }),
        raw: f.raw.clone(),
        source: Source::Visible,
    };
    let structured = sources
        .iter()
        .find_map(|(p, s)| p.price.as_ref().map(|x| (x, *s)));
    let Some((sp, source)) = structured else {
        return vis.price.as_ref().map(from_visible);
    };
    let currency = sp.currency.or_else(|| {
        // Structured amount without a currency: the one the page shows beside it.
        vis.all
            .iter()
            .find(|f| same_amount(&f.amount, &sp.amount))
            .and_then(|f| settle(f.named, None, place))
    });
    let keep = Price {
        amount: sp.amount.clone(),
        currency: currency.map(str::to_string),
        raw: sp.raw.clone(),
        source,
    };
    let Some(buy) = vis.price.as_ref() else {
        return Some(keep);
    };
    if same_amount(&buy.amount, &sp.amount) {
        return Some(keep);
    }
    // A sale the markup missed: the structured amount is the struck one.
    let struck = vis.struck.iter().any(|a| same_amount(a, &sp.amount));
    // Markup that names the wrong currency: the page shows the structured
    // amount only under another currency.
    let shown: Vec<&money::Found> = vis
        .all
        .iter()
        .filter(|f| same_amount(&f.amount, &sp.amount))
        .collect();
    let other_currency = !shown.is_empty()
        && sp.currency.is_some()
        && shown.iter().all(|f| match f.named {
            Named::Sure(c) => Some(c) != sp.currency,
            _ => false,
        });
    if struck || other_currency {
        return Some(from_visible(buy));
    }
    Some(keep)
}
