//! The date a record goes by, on pages we wrote on the patterns that fooled
//! it (issue 41): a member's join date beside a post, a question's edit
//! shown before its asking, a ticker of other stories above the headline,
//! a thread recorded as a `WebPage`'s main entity, the day's date in a
//! masthead.

use std::path::Path;

use trawl_extract::{extract, DateKind, Extracted, Options, PageType};

fn run(file: &str, page_type: Option<PageType>) -> Extracted {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/dates")
        .join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let opts = Options::default().with_page_type(page_type);
    extract(&bytes, &opts).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn day(date: Option<&str>) -> Option<&str> {
    date.and_then(|d| d.get(..10))
}

#[test]
fn a_members_registration_date_is_not_the_threads() {
    let r = run("forum_registered_de.html", Some(PageType::Forum));
    assert_eq!(day(r.date.as_deref()), Some("2024-09-11"), "{r:?}");
}

#[test]
fn a_question_goes_by_its_asking_not_its_edit() {
    let r = run("qa_asked_edited.html", Some(PageType::Forum));
    assert_eq!(day(r.date.as_deref()), Some("2014-03-28"));
    assert_eq!(day(r.date_published.as_deref()), Some("2014-03-28"));
}

#[test]
fn dates_of_a_ticker_above_the_headline_are_the_stories_not_the_pages() {
    let r = run(
        "article_teasers_before_headline.html",
        Some(PageType::Article),
    );
    assert_eq!(day(r.date.as_deref()), Some("2023-11-21"));
    // Without the byline, the recorded date, not the ticker's.
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/dates/article_teasers_before_headline.html");
    let html = std::fs::read_to_string(path).unwrap_or_default();
    let html = html.replace(
        "Written by Rob Stott · November 21, 2023",
        "Written by Rob Stott",
    );
    let opts = Options::default().with_page_type(Some(PageType::Article));
    let r = extract(html.as_bytes(), &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(day(r.date.as_deref()), Some("2023-11-21"));
}

#[test]
fn a_thread_recorded_as_a_web_pages_main_entity() {
    // The JSON-LD also holds a raw line break in a string, which JSON
    // forbids and sites write anyway.
    let r = run("thread_webpage_main_entity.html", Some(PageType::Forum));
    assert_eq!(day(r.date.as_deref()), Some("2024-01-10"));
    // Its publication too, not the first reply's day.
    assert_eq!(day(r.date_published.as_deref()), Some("2024-01-10"));
    assert_eq!(r.author.as_deref(), Some("Kevin Hale"));
}

#[test]
fn the_shown_date_the_markup_records_wins_over_a_mastheads_day() {
    let r = run("article_today_then_byline_fr.html", Some(PageType::Article));
    assert_eq!(day(r.date.as_deref()), Some("2025-12-18"));
    assert_eq!(day(r.date_published.as_deref()), Some("2025-12-18"));
    assert_eq!(r.date_kind, Some(DateKind::Published));
}

#[test]
fn an_english_page_writing_days_first_reads_03_10_as_the_third_of_october() {
    // `lang="en"` leaves the order open; the page's other dates are
    // written day first.
    let r = run("article_en_day_first.html", Some(PageType::Article));
    assert_eq!(day(r.date.as_deref()), Some("2023-10-03"));
}

#[test]
fn a_page_giving_only_its_update_goes_by_it_and_says_so() {
    let r = run("service_updated_only.html", Some(PageType::Service));
    assert_eq!(day(r.date.as_deref()), Some("2025-03-22"));
    assert_eq!(r.date_published, None);
    assert_eq!(r.date_kind, Some(DateKind::Updated));
}

#[test]
fn a_documentation_page_dated_only_in_its_footer() {
    let r = run("docs_footer_updated.html", Some(PageType::Documentation));
    assert_eq!(day(r.date.as_deref()), Some("2025-03-05"));
    assert_eq!(day(r.date_modified.as_deref()), Some("2025-03-05"));
    assert_eq!(r.date_kind, Some(DateKind::Updated));
}
