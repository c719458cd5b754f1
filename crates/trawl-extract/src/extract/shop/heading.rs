//! The product's heading on a page that draws none: marketplaces write the
//! name in a `<div>` (JD's `sku-name`, Shopee's title block) where a shop
//! theme has an `<h1>`. The page's title still opens with the name, so the
//! element whose text the title's first part opens stands in for the
//! heading, and the price by it is read as by any heading. And a heading
//! that is a logo outside any `<header>` (all its text one link home)
//! names the shop, not the product.

use crate::html::{Doc, Kind, NodeId, Tag};

/// Where a page's title ends the product's name and goes on to its
/// categories or the shop's name.
const TITLE_CUTS: &[&str] = &[" | ", " - ", " – ", " — ", " :: ", " · ", "【", "［", "["];

/// Fewest characters of the title's first part: a shorter one ("Home")
/// names no product.
const MIN_NAME_CHARS: usize = 4;

/// Most characters an element standing in for the heading shows.
const MAX_NAME_CHARS: u32 = 300;

/// The title's first part: up to its first [`TITLE_CUTS`].
fn title_name(title: &str) -> &str {
    let cut = TITLE_CUTS
        .iter()
        .filter_map(|c| title.find(c))
        .min()
        .unwrap_or(title.len());
    title[..cut].trim()
}

/// `s` with its runs of whitespace folded to single spaces, trimmed.
fn folded(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The innermost element outside the `chrome`, not a link nor the
/// `<title>`, whose text opens with the title's first part (the name in
/// full, or a name the title shortens), the first such in the page.
pub(super) fn title_element(doc: &Doc, chrome: &dyn Fn(NodeId) -> bool) -> Option<NodeId> {
    let title = folded(doc.meta.title.as_deref()?);
    let name = title_name(&title);
    if name.chars().count() < MIN_NAME_CHARS {
        return None;
    }
    // An element's count leaves whitespace out.
    let fewest = name.chars().filter(|c| !c.is_whitespace()).count() as u32;
    let mut found: Option<NodeId> = None;
    let mut end = doc.len() as NodeId;
    for i in 0..doc.len() as NodeId {
        if let Some(f) = found {
            // Past the match's subtree: it was the innermost.
            if i >= end {
                return Some(f);
            }
        }
        let chars = doc.agg[i as usize].chars;
        if doc.nodes[i as usize].kind != Kind::Element
            || !(fewest..=MAX_NAME_CHARS).contains(&chars)
            || doc.tag(i) == Tag::A
            || doc.name(i) == "title"
        {
            continue;
        }
        if folded(&doc.plain_text(i)).starts_with(name) && !chrome(i) && !holds_chrome(doc, i) {
            found = Some(i);
            end = doc.end(i);
        }
    }
    found
}

/// Whether element `i` holds a page's header, menu, footer or sidebar: a
/// wrapper of the whole page, whose text opens with the header's.
fn holds_chrome(doc: &Doc, i: NodeId) -> bool {
    matches!(doc.tag(i), Tag::Html | Tag::Body)
        || (i + 1..doc.end(i)).any(|c| {
            matches!(
                doc.tag(c),
                Tag::Header | Tag::Nav | Tag::Footer | Tag::Aside
            )
        })
}

/// Whether heading `h` is a logo drawn as a heading outside any `<header>`
/// (`<div class=header><h1><a href="/">Garden Co</a></h1>`): all its text
/// is one link to the site's home page. It names the shop, not the
/// product.
pub(super) fn links_home(doc: &Doc, h: NodeId) -> bool {
    let chars = doc.agg[h as usize].chars;
    (h + 1..doc.end(h)).any(|i| {
        doc.tag(i) == Tag::A
            && doc.agg[i as usize].chars == chars
            && doc.attr(i, "href").is_some_and(home)
    })
}

/// Whether `href` leads to a site's home page: `/`, `./`, `index.html`,
/// or an address with no path.
fn home(href: &str) -> bool {
    let h = href.trim();
    let path = match h.split_once("//") {
        Some((scheme, rest)) if scheme.is_empty() || scheme.ends_with(':') => {
            rest.find('/').map_or("", |at| &rest[at + 1..])
        }
        _ => h
            .strip_prefix("./")
            .or_else(|| h.strip_prefix('/'))
            .unwrap_or(h),
    };
    !h.is_empty() && matches!(path, "" | "index.html" | "index.php" | "index.htm")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(html: &str) -> Option<String> {
        let doc = Doc::parse_str(html);
        let header = |i: NodeId| super::super::price_boxes::inside(&doc, i, &[Tag::Header], 64);
        title_element(&doc, &header).map(|i| folded(&doc.plain_text(i)))
    }

    #[test]
    fn the_element_the_title_opens_with_heads_the_product() {
        assert_eq!(
            named(
                "<title>小米手环8 NFC版【行情 报价】-商城</title><header><a href=/>商城</a></header>\
                 <div class=intro><div class=sku-name>小米手环8 NFC版</div><div>￥269.00</div></div>"
            )
            .as_deref(),
            Some("小米手环8 NFC版")
        );
        assert_eq!(
            named(
                "<title>Áo thun nam cotton | Shop</title><div><div><span>Áo thun nam cotton cổ tròn</span></div>\
                 <div>₫89.000</div></div>"
            )
            .as_deref(),
            Some("Áo thun nam cotton cổ tròn")
        );
        // The shop's name in its header, a link to the product, a short
        // title: none.
        assert_eq!(
            named(
                "<title>Kettle | Shop</title><header><b>Kettle</b></header><a href=/k>Kettle</a>"
            ),
            None
        );
        assert_eq!(named("<title>Top</title><div>Top</div>"), None);
    }

    #[test]
    fn a_heading_that_links_home_is_a_logo() {
        let logo = |html: &str| {
            let doc = Doc::parse_str(html);
            let h = (0..doc.len() as NodeId).find(|&i| doc.tag(i) == Tag::H1);
            h.is_some_and(|h| links_home(&doc, h))
        };
        for href in [
            "/",
            "./",
            "index.html",
            "https://garden.example/",
            "//garden.example",
        ] {
            assert!(
                logo(&format!("<h1><a href='{href}'>Garden Co</a></h1>")),
                "{href}"
            );
        }
        for html in [
            "<h1><a href='/p/teak-bench'>Teak Bench</a></h1>",
            "<h1><a href='/'>Garden Co</a> Teak Bench</h1>",
            "<h1><a href='#'>Teak Bench</a></h1>",
            "<h1>Teak Bench</h1>",
        ] {
            assert!(!logo(html), "{html}");
        }
    }
}
