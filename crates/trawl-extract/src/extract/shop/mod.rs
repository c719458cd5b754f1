//! What a shop page shows: its add-to-cart controls ([`controls`]), what
//! sits beside the product ([`beside`]), the prices and codes by the
//! product's heading ([`visible`], amounts and currencies by [`money`]).
//! Page typing asks whether a page has a buy box, the shell test whether
//! its price comes by script, and the product record reads its fields from
//! the same views; each is computed once per page.

pub(crate) mod beside;
pub(crate) mod controls;
pub(crate) mod money;
pub(crate) mod visible;

use std::sync::OnceLock;

use crate::html::Doc;

/// The enabled add-to-cart buttons outside the page's chrome
/// ([`controls::count`]), counted once per page in `counted`
/// (`Meta::cart_buttons`).
pub(crate) fn cart_buttons(doc: &Doc, counted: &OnceLock<usize>) -> usize {
    *counted.get_or_init(|| controls::count(doc))
}

/// A buy box: one add-to-cart button outside the page's chrome, and a price
/// shown by the product's heading (not struck through, not in a link or a
/// carousel). A page with one is a product page whatever else it holds.
pub(crate) fn has_buy_box(doc: &Doc, counted: &OnceLock<usize>) -> bool {
    if cart_buttons(doc, counted) != 1 {
        return false;
    }
    visible::read(doc, beside::beside(doc)).price.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_buy_box_makes_a_product_page_a_grid_does_not() {
        let one = Doc::parse_str(
            "<header><a href=/>Shop</a></header><h1>Field Lamp</h1>\
             <div class=buy><span class=price>$74.00</span><button>Add to cart</button></div>\
             <p>A lamp for the field.</p>",
        );
        assert!(has_buy_box(&one, &OnceLock::new()));
        let grid = Doc::parse_str(
            "<h1>Lamps</h1><div><a href=/a>Lamp A</a> <span>$74.00</span><button>Add to cart</button></div>\
             <div><a href=/b>Lamp B</a> <span>$64.00</span><button>Add to cart</button></div>",
        );
        assert!(!has_buy_box(&grid, &OnceLock::new()));
        // A button but no price by the heading.
        let no_price = Doc::parse_str("<h1>Field Lamp</h1><button>Add to cart</button>");
        assert!(!has_buy_box(&no_price, &OnceLock::new()));
    }
}
