//! The offer a page selects among its product's several. A link to one size
//! or colour (`/products/jacket?variant=402`) renders that variant: its
//! price, its stock and its code are the page's, not the first offer's. Shop
//! platforms say which one in two ways this module reads: each offer's own
//! `url` names its variant (the page's URL is one of them), and the product
//! states the selected variant's `sku` while each offer states its own.
//!
//! It works on what the JSON-LD reader hands it (each offer's URL and code),
//! so it knows nothing of JSON.

use url::Url;

/// One of a product's offers as the selection sees it.
#[derive(Debug, Default)]
pub(super) struct Candidate {
    /// The offer's own URL (or its variant's), as written: relative or not.
    pub url: Option<String>,
    /// The offer's code (or its variant's).
    pub sku: Option<String>,
}

/// What told the offer apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum By {
    /// The page's own URL is the offer's.
    Url,
    /// The product's code is the offer's and no other's.
    Code,
}

/// The index of the candidate the page selects: the one whose URL is the
/// page's (`page_url`), else the only one whose code is the product's own
/// (`own_sku`). `None` when neither tells one offer from the rest.
pub(super) fn select(
    cands: &[Candidate],
    page_url: Option<&str>,
    own_sku: Option<&str>,
) -> Option<(usize, By)> {
    if cands.len() < 2 {
        return None;
    }
    if let Some(i) = page_url.and_then(|u| by_url(cands, u)) {
        return Some((i, By::Url));
    }
    own_sku
        .and_then(|s| by_code(cands, s))
        .map(|i| (i, By::Code))
}

/// The candidate whose URL is the page's: the same path, and every query
/// pair it has in the page's query (the page's may add a tracking
/// parameter). The one with the most such pairs wins; a tie selects
/// nothing, and so does a URL every other offer shares.
fn by_url(cands: &[Candidate], page_url: &str) -> Option<usize> {
    let page = Url::parse(page_url).ok()?;
    let page_pairs: Vec<(String, String)> = page
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let mut best: Option<(usize, usize)> = None;
    let mut tied = false;
    let mut others = false;
    for (i, c) in cands.iter().enumerate() {
        let Some(u) = c.url.as_deref().and_then(|u| page.join(u.trim()).ok()) else {
            continue;
        };
        let held = u
            .query_pairs()
            .all(|(k, v)| page_pairs.iter().any(|(pk, pv)| *pk == *k && *pv == *v));
        if !(held && same_path(&u, &page)) {
            others = true;
            continue;
        }
        let pairs = u.query_pairs().count();
        match best {
            Some((_, b)) if pairs < b => {}
            Some((_, b)) if pairs == b => tied = true,
            _ => {
                best = Some((i, pairs));
                tied = false;
            }
        }
    }
    best.filter(|_| others && !tied).map(|(i, _)| i)
}

/// Paths equal but for a closing slash (hosts may differ: a shop's own
/// domain and its platform's).
fn same_path(a: &Url, b: &Url) -> bool {
    a.path().trim_end_matches('/') == b.path().trim_end_matches('/')
}

/// The only candidate whose code is `own`, among candidates of at least
/// two different codes.
fn by_code(cands: &[Candidate], own: &str) -> Option<usize> {
    let own = own.trim();
    fn code(c: &Candidate) -> Option<&str> {
        c.sku.as_deref().map(str::trim)
    }
    let mut hits = cands
        .iter()
        .enumerate()
        .filter(|(_, c)| code(c) == Some(own));
    let (i, _) = hits.next()?;
    if hits.next().is_some() {
        return None;
    }
    cands
        .iter()
        .any(|c| code(c).is_some_and(|s| s != own))
        .then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(url: Option<&str>, sku: Option<&str>) -> Candidate {
        Candidate {
            url: url.map(str::to_string),
            sku: sku.map(str::to_string),
        }
    }

    fn sizes() -> Vec<Candidate> {
        vec![
            cand(Some("https://s.test/products/j?variant=401"), Some("J-S")),
            cand(Some("https://s.test/products/j?variant=402"), Some("J-M")),
            cand(Some("/products/j?variant=403"), Some("J-L")),
        ]
    }

    #[test]
    fn the_pages_url_selects_its_offer() {
        let c = sizes();
        let at = |u: &str| select(&c, Some(u), None);
        assert_eq!(
            at("https://s.test/products/j?variant=402"),
            Some((1, By::Url))
        );
        // A relative offer URL, another host, a tracking parameter beside.
        assert_eq!(
            at("https://shop.test/products/j/?utm_source=x&variant=403"),
            Some((2, By::Url))
        );
        // The product's own URL selects none of them.
        assert_eq!(at("https://s.test/products/j"), None);
        assert_eq!(at("https://s.test/products/k?variant=402"), None);
    }

    #[test]
    fn a_url_every_offer_shares_selects_nothing() {
        let c = vec![
            cand(Some("https://s.test/p/1"), None),
            cand(Some("https://s.test/p/1"), None),
        ];
        assert_eq!(select(&c, Some("https://s.test/p/1"), None), None);
        // The bare URL beside a variant's: the variant's is the more exact.
        let c = vec![
            cand(Some("https://s.test/p/1"), None),
            cand(Some("https://s.test/p/1?size=9"), None),
            cand(Some("https://s.test/p/1?size=10"), None),
        ];
        assert_eq!(
            select(&c, Some("https://s.test/p/1?size=10"), None),
            Some((2, By::Url))
        );
        // Variants at paths of their own.
        let c = vec![
            cand(Some("https://s.test/shirt-blue"), None),
            cand(Some("https://s.test/shirt-red"), None),
        ];
        assert_eq!(
            select(&c, Some("https://s.test/shirt-red"), None),
            Some((1, By::Url))
        );
    }

    #[test]
    fn the_products_own_code_selects_its_offer() {
        let c = sizes();
        assert_eq!(select(&c, None, Some("J-M")), Some((1, By::Code)));
        assert_eq!(
            select(&c, Some("https://s.test/products/j"), Some(" J-L")),
            Some((2, By::Code))
        );
        // A code no offer has, or one every offer shares, selects nothing.
        assert_eq!(select(&c, None, Some("J")), None);
        let same = vec![cand(None, Some("J")), cand(None, Some("J"))];
        assert_eq!(select(&same, None, Some("J")), None);
        // One offer is no choice.
        assert_eq!(select(&c[..1], None, Some("J-S")), None);
    }
}
