//! The crawl bench's real-page web: a saved page's own links must be inert
//! (a crawler following them would leave loopback or chase 404s) and the
//! generated links must be where every crawler sees them.

mod support;

use support::web::real_page;

#[test]
fn saved_links_are_inert_and_the_site_links_open_the_body() {
    let saved = br#"<html><head><META HTTP-EQUIV="refresh" content="0; url=https://example.com/">
<link rel=canonical href="https://example.com/a"></head><body class=x>
<a href="https://example.com/b">b</a> <a HREF = '/c'>c</a> <a data-href=x>d</a>
<script>var s = "</body>";</script></body></html>"#;
    let page = String::from_utf8(real_page(saved, 3, 7, 100)).expect("utf-8 in, utf-8 out");
    for gone in ["canonical href", "href=\"https", "HREF =", "HTTP-EQUIV="] {
        assert!(!page.contains(gone), "{gone} left in:\n{page}");
    }
    // The site's links right after `<body …>`, not inside the script.
    let body = page.find("<body class=x>").expect("body kept") + "<body class=x>".len();
    assert!(
        page[body..].starts_with("<nav><ul><li><a href=\"/p0\">"),
        "{page}"
    );
    assert_eq!(page.matches("<a href=\"/p").count(), 15 + 8, "{page}");
}
