//! Pages of the classes a reader notices at once when an extractor gets them
//! wrong (issue 40): a paragraph repeated in a bare body or between
//! headings, hidden nodes, share buttons, markup inside `<noscript>`, a plain
//! article with a list of links, a forum thread with quotes and signatures.
//! Each fixture in tests/fixtures/every_page was written for this test on
//! the pattern, not copied from any page.

use std::path::Path;

mod support;
use support::assert_has;

use trawl_extract::{extract, Extracted, Options, PageType};

fn run(file: &str, url: Option<&str>) -> Extracted {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/every_page")
        .join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut opts = Options::default();
    if let Some(url) = url {
        opts = opts.with_url(url);
    }
    extract(&bytes, &opts).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn template_filler_that_is_the_whole_page_is_its_text() {
    // Regression: every copy of a 'Lorem ipsum' paragraph was taken for
    // filler and the page came out as its heading alone.
    let e = run("repeated_bare_body.html", None);
    assert_eq!(
        e.text.matches("Lorem ipsum dolor sit amet").count(),
        5,
        "{}",
        e.text
    );
    assert_eq!(e.page_type, PageType::Article);
}

#[test]
fn a_paragraph_written_out_five_times_between_headings_stays() {
    // Regression: copies after the first were dropped as a block shown twice.
    let e = run("repeated_between_headings.html", None);
    assert_eq!(
        e.text.matches("The ferry to the island").count(),
        5,
        "{}",
        e.text
    );
    // (The closing heading, with nothing under it, goes as an article's
    // trailing heading does.)
    assert_has(&e.text, &["Summer crossings"], &[]);
    assert_eq!(e.page_type, PageType::Article);
}

#[test]
fn hidden_nodes_are_not_text() {
    let e = run("hidden_nodes.html", None);
    assert_has(
        &e.text,
        &[
            "single stiff link",
            "Turn the pedals backwards",
            "Flex the link",
        ],
        &[
            "newsletter",
            "logged-in members",
            "Template text",
            "Cycle Notes",
        ],
    );
}

#[test]
fn share_and_follow_buttons_are_not_text() {
    let e = run("social_buttons.html", None);
    assert_has(
        &e.text,
        &["first lit in 1821", "last keeper", "ninety-one steps"],
        &["Share on", "Copy link", "Follow us", "Instagram", "Home"],
    );
}

#[test]
fn markup_in_noscript_is_never_printed_as_text() {
    // Regression: escaped markup in a <noscript> came out as a line of tags.
    let e = run("noscript_markup.html", None);
    assert_has(
        &e.text,
        &["long cold rise", "fold it three times", "covered pot"],
        &["<", "display:inline", "ads.invalid"],
    );
}

#[test]
fn a_plain_article_with_a_list_of_links_keeps_its_paragraphs() {
    let e = run("plain_article_with_links.html", None);
    assert_has(
        &e.text,
        &[
            "wooden hut",
            "county office",
            "burned down",
            "typed up every page",
        ],
        &["Ledger 3"],
    );
    assert!(
        !matches!(
            e.page_type,
            PageType::Listing | PageType::Collection | PageType::Forum
        ),
        "typed {:?}",
        e.page_type
    );
}

#[test]
fn a_forum_thread_keeps_its_posts_not_their_signatures_or_quotes() {
    let url = "https://bakers.example/forum/t/sourdough-starter-acetone/123";
    let e = run("forum_quotes_signatures.html", Some(url));
    assert_eq!(e.page_type, PageType::Forum);
    assert_has(
        &e.text,
        &[
            "nail polish remover",
            "ran out of food",
            "proper open crumb",
        ],
        &[
            "Baking since 2019",
            "Forty years at the oven",
            "wrote:",
            "Forum rules",
        ],
    );
    // Each reply once: the quoted line is not repeated.
    assert_eq!(
        e.text.matches("feed it twice a day").count(),
        1,
        "{}",
        e.text
    );
}

/// Every page written in the fixtures' pattern gives text (no page of a few
/// hundred words of running text comes out empty).
#[test]
fn no_page_of_running_text_comes_out_empty() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/every_page");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fixtures") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".html") {
            continue;
        }
        let e = run(name, None);
        assert!(e.text.len() > 200, "{name}: {:?}", e.text);
        n += 1;
    }
    assert!(n >= 7, "only {n} fixtures");
}
