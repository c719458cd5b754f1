//! The product record's types: the [`Product`] a page yields, its
//! [`Price`]s and [`Variant`]s and where each came from ([`Source`]), and
//! what one source of structured data says before the sources are combined
//! ([`Partial`]).

use serde::{Deserialize, Serialize};

use super::availability::Availability;
use crate::extract::shop::money;

/// Where a price came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Source {
    /// `<script type="application/ld+json">`.
    JsonLd,
    /// Microdata or RDFa attributes.
    Microdata,
    /// OpenGraph / catalogue `<meta>` tags.
    OpenGraph,
    /// The visible page (the buy box).
    Visible,
    /// An attribute of the add-to-cart control (`data-price`), on a page
    /// that shows its price by script.
    Control,
}

/// A normalised price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Price {
    /// Plain decimal with at least two decimals: `"1299.00"`.
    pub amount: String,
    /// ISO 4217 code, when the page says or implies it.
    pub currency: Option<String>,
    /// The text the amount was read from (`"1.299,00 €"`, `"1299"`).
    pub raw: String,
    /// Where it was read.
    pub source: Source,
}

/// A product record read from one page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Product {
    /// The product's name.
    pub name: Option<String>,
    /// What it costs now; with a range of prices, the low end.
    pub price: Option<Price>,
    /// The top of a range of prices (a JSON-LD `AggregateOffer`'s
    /// `highPrice`), when `price` is its low end and below it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_max: Option<Price>,
    /// The currency the page sells in (ISO 4217): the price's, else the one
    /// currency of every price the page shows (no buy-box price found).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Whether it can be bought.
    pub availability: Option<Availability>,
    /// The seller's code.
    pub sku: Option<String>,
    /// GTIN/EAN/UPC/ISBN.
    pub gtin: Option<String>,
    /// Manufacturer part or model number.
    pub mpn: Option<String>,
    /// Brand or maker.
    pub brand: Option<String>,
    /// Image URLs (as written: resolve against the page URL).
    pub images: Vec<String>,
    /// Breadcrumb trail, outermost first.
    pub breadcrumbs: Vec<String>,
    /// The seller's description.
    pub description: Option<String>,
    /// Labelled specification rows (label, value).
    pub specs: Vec<(String, String)>,
    /// The regular (list, "was") price when the page sells below it: the
    /// structured data's `ListPrice` / `StrikethroughPrice`, else a price
    /// shown struck through above the one paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regular_price: Option<Price>,
    /// The average rating as written (`"4.6"`), from `aggregateRating`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<String>,
    /// How many reviews (or ratings) the rating averages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review_count: Option<u64>,
    /// Variants with their own names, codes and prices, when the structured
    /// data lists them (a `ProductGroup`'s `hasVariant`, or several offers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<Variant>,
}

/// A price as structured data gives it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StructuredPrice {
    pub amount: String,
    pub currency: Option<&'static str>,
    pub raw: String,
}

impl StructuredPrice {
    /// This JSON-LD price as a record's, in the currency of `paid` when it
    /// names none (a list price, the top of a range).
    pub(super) fn beside(&self, paid: &Price) -> Price {
        Price {
            amount: self.amount.clone(),
            currency: self
                .currency
                .map(str::to_string)
                .or_else(|| paid.currency.clone()),
            raw: self.raw.clone(),
            source: Source::JsonLd,
        }
    }

    /// A structured price from its raw value (`"1299.00"`, `"$1,779.00"`,
    /// `"0,00"`), if it holds a number.
    pub(crate) fn parse(raw: String, currency: Option<&'static str>) -> Option<StructuredPrice> {
        let amount = money::parse_amount(&raw, true)?;
        Some(StructuredPrice {
            amount,
            currency,
            raw,
        })
    }
}

/// What one structured source knows.
#[derive(Debug, Default, Clone)]
pub(crate) struct Partial {
    /// The source declares a product.
    pub found: bool,
    pub name: Option<String>,
    pub price: Option<StructuredPrice>,
    /// The currency the source states, with a price or without one (a
    /// `priceCurrency` whose price a script fills in).
    pub currency: Option<&'static str>,
    pub availability: Option<Availability>,
    pub sku: Option<String>,
    pub gtin: Option<String>,
    pub mpn: Option<String>,
    pub brand: Option<String>,
    pub description: Option<String>,
    pub images: Vec<String>,
    pub breadcrumbs: Vec<String>,
    pub list_price: Option<StructuredPrice>,
    /// The top of an `AggregateOffer`'s range.
    pub high_price: Option<StructuredPrice>,
    pub rating: Option<String>,
    pub review_count: Option<u64>,
    pub variants: Vec<Variant>,
    /// Every priced offer of the product and its variants after the one
    /// `price` comes from, in order, with its availability: another seller's,
    /// another size's (the page's buy box may show one of them).
    pub other_offers: Vec<OtherOffer>,
    /// The code of the offer `price` comes from (its own or its variant's).
    pub offer_sku: Option<String>,
    /// The page selects the offer `price` comes from (its URL or the
    /// product's code names it): the buy box's price does not move it.
    pub selected: bool,
}

/// Another priced offer of a product: another seller's, another size's.
#[derive(Debug, Clone)]
pub(crate) struct OtherOffer {
    pub price: StructuredPrice,
    pub availability: Option<Availability>,
    /// Its code (its own or its variant's).
    pub sku: Option<String>,
}

/// One variant of a product (a size, a colour) as its page lists it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// Its name ("Tee - M / Blue").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sku: Option<String>,
    /// Its own price (a decimal number as text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<String>,
    /// The price's currency (ISO 4217).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Whether it can be bought.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub availability: Option<Availability>,
}
