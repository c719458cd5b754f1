//! Whether a page needs a browser: some pages send an empty shell and fill
//! it with JavaScript (the article, the price, the product grid come from an
//! API after load). A crawler renders only where that changes the result,
//! so the test is conservative: the page must show next to nothing where
//! its content should be *and* load scripts. A page whose content is in its
//! markup, or in state it embeds ([`super::embedded`]), does not need one.

use serde::Serialize;

use crate::extract::typing::PageType;
use crate::html::{Doc, NodeId};

/// Why a page needs a browser to show its content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScriptNeed {
    /// The body shows almost no text and the page loads scripts: an app
    /// shell.
    EmptyShell,
    /// An app's root element (`#root`, `#app`, `#__next`, …) is empty and
    /// the page shows little else.
    EmptyAppRoot,
    /// A `<noscript>` asks for JavaScript and the page shows little else.
    NoscriptNotice,
    /// A product page (one add-to-cart control) with no price in its
    /// markup or data: the price comes with a script.
    PriceByScript,
}

impl ScriptNeed {
    /// The name records and logs use.
    pub fn name(self) -> &'static str {
        match self {
            ScriptNeed::EmptyShell => "empty_shell",
            ScriptNeed::EmptyAppRoot => "empty_app_root",
            ScriptNeed::NoscriptNotice => "noscript_notice",
            ScriptNeed::PriceByScript => "price_by_script",
        }
    }
}

/// A body with less visible text than this (characters) is empty.
const EMPTY_BODY_CHARS: u32 = 200;
/// Inline script past this many characters can build a page by itself;
/// shorter inline scripts count when they load something (a module, a
/// `fetch`, an injected script: the head scan's `loaders`).
const APP_INLINE_CHARS: usize = crate::html::SHORT_INLINE_CHARS;

/// The ids frameworks mount their app on.
const APP_ROOTS: [&str; 9] = [
    "root",
    "app",
    "__next",
    "__nuxt",
    "___gatsby",
    "svelte",
    "app-root",
    "main-app",
    "q-app",
];

/// What the extractor found on a page, as far as the shell test reads it.
pub(crate) struct Found<'a> {
    /// The main content's text.
    pub text: &'a str,
    /// The text came from state the page embeds, not from its markup.
    pub embedded: bool,
    /// The product record has a price.
    pub priced: bool,
    pub page_type: PageType,
}

/// Why `doc` (where the extractor found `ex`) needs a browser, if it does.
pub(crate) fn needs_script(
    doc: &Doc,
    ex: &Found,
    carts: &std::sync::OnceLock<(usize, usize)>,
) -> Option<ScriptNeed> {
    let scripts = &doc.meta.scripts;
    let has_scripts =
        scripts.external > 0 || scripts.loaders > 0 || scripts.inline_chars >= APP_INLINE_CHARS;
    if !has_scripts || ex.embedded {
        return None;
    }
    let thin = ex.text.chars().count() < super::embedded::THIN_TEXT_CHARS;
    let priced = ex.priced;
    if thin && !priced {
        if doc.agg[doc.body() as usize].chars < EMPTY_BODY_CHARS {
            return Some(ScriptNeed::EmptyShell);
        }
        if (0..doc.len() as NodeId).any(|i| empty_app_root(doc, i)) {
            return Some(ScriptNeed::EmptyAppRoot);
        }
        if (0..doc.len() as NodeId).any(|i| super::noise::scripts_warning(doc, i)) {
            return Some(ScriptNeed::NoscriptNotice);
        }
    }
    if priced || scripts.external == 0 {
        return None;
    }
    // A shop's product page: one add-to-cart control (a service page the
    // model calls a product has none). The buy-box test last: few pages get
    // this far.
    let shop = matches!(
        ex.page_type,
        PageType::Product | PageType::Service | PageType::Collection | PageType::Listing
    ) && super::shop::cart_buttons(doc, carts) == 1;
    if shop {
        return Some(ScriptNeed::PriceByScript);
    }
    None
}

/// An app's mount point with (next to) nothing in it: an element with a
/// framework's id or attribute, or the page's `<main>` (`role=main`), which
/// a page with its content in the markup never leaves empty.
fn empty_app_root(doc: &Doc, id: NodeId) -> bool {
    doc.is_element(id)
        && doc.agg[id as usize].chars < 50
        && (doc
            .attr(id, "id")
            .is_some_and(|v| APP_ROOTS.contains(&v.trim()))
            || doc.attr(id, "data-reactroot").is_some()
            || doc.attr(id, "ng-version").is_some()
            || doc.name(id) == "main"
            || doc.attr(id, "role") == Some("main"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{extract, Options};

    fn need(html: &str) -> Option<ScriptNeed> {
        extract(html.as_bytes(), &Options::default())
            .expect("extract")
            .needs_script
    }

    const PROSE: &str = "<p>The harbour wall was rebuilt in granite after the storm of the winter before, and the fishing boats came back within the month, the older crews first and the younger after them.</p>";

    #[test]
    fn an_app_shell_needs_a_browser() {
        let shell = "<html><head><script src=/app.js></script></head><body><div id=root></div></body></html>";
        assert_eq!(need(shell), Some(ScriptNeed::EmptyShell));
    }

    #[test]
    fn a_page_without_scripts_or_with_its_text_needs_none() {
        assert_eq!(need("<html><body><div id=root></div></body></html>"), None);
        let article = format!(
            "<html><head><script src=/app.js></script></head><body><article><h1>Harbour</h1>{PROSE}{PROSE}</article>\
             <noscript>Please enable JavaScript</noscript></body></html>"
        );
        assert_eq!(need(&article), None);
    }

    #[test]
    fn an_empty_root_beside_a_menu_needs_one() {
        let links: String = (0..30)
            .map(|i| format!("<li><a href=/s{i}>Section number {i}</a></li>"))
            .collect();
        let html = format!(
            "<html><body><nav><ul>{links}</ul></nav><div id=app></div>\
             <script src=/bundle.js></script></body></html>"
        );
        assert_eq!(need(&html), Some(ScriptNeed::EmptyAppRoot));
    }

    /// Issue 53, item 6: the three shells a new user met. Each was extracted
    /// empty and not rendered: an inline script under 1 KB that fetches, a
    /// bundle at the end of `<body>` beside a header and footer of 200+
    /// characters, and an inline module script.
    #[test]
    fn short_inline_module_and_end_of_body_shells_need_one() {
        let inline = "<html><head><title>Harbour</title></head><body>\
             <noscript>You need to enable JavaScript to run this app.</noscript><div id=root></div>\
             <script>fetch('/api/a/7').then(r=>r.json()).then(a=>{root.textContent=a.body})</script>\
             </body></html>";
        assert_eq!(need(inline), Some(ScriptNeed::EmptyShell));
        let footer = "Privacy policy. Terms of use. Cookie settings. Accessibility. ".repeat(4);
        let end = format!(
            "<html><body><header><a href=/>Harbour News</a> <a href=/about>About</a></header>\
             <main id=content></main><footer>{footer}</footer>\
             <script src=/static/js/main.4f2a.js></script></body></html>"
        );
        assert_eq!(need(&end), Some(ScriptNeed::EmptyAppRoot));
        let module =
            "<html><head><script type=module>import {mount} from '/a.js'; mount(app)</script>\
             </head><body><div id=app></div></body></html>";
        assert_eq!(need(module), Some(ScriptNeed::EmptyShell));
    }

    #[test]
    fn a_short_script_that_loads_nothing_is_no_app() {
        let html = "<html><body><div id=root></div><script>var pageId = 7;</script></body></html>";
        assert_eq!(need(html), None);
        let data = "<html><body><div id=root></div>\
             <script type=application/json>{\"fetch(\": 1}</script></body></html>";
        assert_eq!(need(data), None);
    }

    #[test]
    fn embedded_state_is_read_instead() {
        let state =
            serde_json::json!({"page": {"body": [PROSE, PROSE.replace("granite", "stone")]}});
        let html = format!(
            "<html><body><div id=__next></div><script src=/main.js></script>\
             <script id=__NEXT_DATA__ type=application/json>{state}</script></body></html>"
        );
        let ex = extract(html.as_bytes(), &Options::default()).expect("extract");
        assert_eq!(ex.needs_script, None);
        assert_eq!(ex.text_source.as_deref(), Some("__NEXT_DATA__"));
        assert!(
            ex.text.contains("granite") && ex.text.contains("stone"),
            "{}",
            ex.text
        );
    }

    #[test]
    fn a_buy_box_without_a_price_needs_one() {
        let html = format!(
            "<html><head><script src=/shop.js></script></head><body><h1>Blue kettle</h1>{PROSE}{PROSE}\
             <div class=buy><span class=price id=price></span><button type=submit>Add to cart</button></div></body></html>"
        );
        assert_eq!(need(&html), Some(ScriptNeed::PriceByScript));
        let priced = html.replace("id=price>", "id=price>$24.99");
        assert_eq!(need(&priced), None);
    }
}
