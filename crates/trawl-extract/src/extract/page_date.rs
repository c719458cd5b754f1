//! The date a page goes by, and its publication and update dates: what
//! it shows at its head ([`dates`]), what its markup records
//! ([`metadata`](super::metadata)), its URL's, in the order the measurements chose; never a
//! day after the page was fetched.

use crate::extract::dates::{self, Day, Order, Shown, ShownDate};
use crate::extract::embedded;
use crate::extract::local_time;
use crate::extract::metadata::{normalize_date, time_element, Meta, DATE_KEYS};
use crate::extract::typing::PageType;
use crate::html::{Doc, NodeId};

/// The page's dates: the one it goes by, its publication and its update.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Dates {
    pub date: Option<String>,
    pub published: Option<String>,
    pub modified: Option<String>,
}

/// Which of its dates a page goes by (the record's `date_kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DateKind {
    /// Its publication, or a date it gives with no update label.
    Published,
    /// Its last update: the page shows that first or gives only that.
    Updated,
}

/// The day (`YYYY-MM-DD`) of an ISO 8601 date.
fn day_of(date: &Option<String>) -> Option<&str> {
    date.as_deref().and_then(|d| d.get(..10))
}

/// Whether more of the page's ambiguous shown days are days its markup
/// records (publication or update) when read in the other day-month order
/// than as read.
fn recorded_in_other_order(shown: &[ShownDate], meta: &Meta) -> bool {
    let recorded = [day_of(&meta.date), day_of(&meta.date_modified)];
    let is_recorded = |d: Day| recorded.contains(&Some(d.iso().as_str()));
    let (mut as_read, mut other) = (0, 0);
    for s in shown.iter().filter(|s| s.ambiguous) {
        as_read += usize::from(is_recorded(s.day));
        other += usize::from(s.day.swapped().is_some_and(is_recorded));
    }
    other > as_read
}

impl Dates {
    /// Whether `date` is the update: the same day as `modified` and not
    /// as `published`.
    pub(crate) fn kind(&self) -> Option<DateKind> {
        let date = day_of(&self.date)?;
        let updated = day_of(&self.modified) == Some(date) && day_of(&self.published) != Some(date);
        Some(if updated {
            DateKind::Updated
        } else {
            DateKind::Published
        })
    }
}

/// The page's dates (see [`crate::Extracted::date`]): what it shows at its
/// head first (but when that is labelled an update, the publication it
/// shows or records), then what its markup records, then its URL's, then
/// (an article, a thread, a documentation or service page) a date it shows
/// elsewhere, then a `<time>`'s, then the publication an app's embedded
/// state records, then the update; on a forum thread, whose head shows the
/// latest posts' dates, what its markup records first. A recorded date of
/// the same day as a shown one is kept for its time of day, as is the
/// moment of the `<time>` a shown day is written in. The day-month order
/// is the declared language's, else that of the language `text_lang` the
/// text reads in. None is after the fetch ([`dates::latest_day`]).
///
/// Measured with `trawl eval --metadata` (date, same day; pages with a
/// date in their truth), before → after: wcxb-dev 0.676 → 0.854,
/// trafilatura-eval 0.637 → 0.843, multilingual-dev (zh) 0.107 → 0.679.
/// The recorded date first everywhere gave 0.831, 0.819, 0.625 (before
/// dates elsewhere were read); shown first on forums too cost wcxb-dev's
/// forums 0.857 → 0.800. Then (issue 41, second pass): dates of a run of
/// dated items and after a "Joined" label dropped, microdata and a
/// `WebPage`'s `mainEntity` read, and a shown date the markup records
/// preferred, with the steps after it (docs/BENCHMARKS.md): 0.854 → 0.882,
/// 0.843 → 0.879, 0.679 → 0.661 (one page whose truth is the document's
/// signing day, not the publication day it shows and records). Issue 60:
/// a head showing an update first gives way to the publication shown or
/// recorded, no date after the fetch, two-digit years, publication `<meta>`
/// names as a family, RDFa, a service page's boxed or labelled date:
/// 0.882 → 0.885, 0.879 → 0.882, 0.661 → 0.661.
pub(crate) fn dates(
    doc: &Doc,
    url: Option<&str>,
    meta: &Meta,
    page_type: PageType,
    fetched_at: Option<i64>,
    text_lang: Option<&str>,
) -> Dates {
    // The page's language as it declares it, else as its text reads.
    let lang = meta.html_lang.as_deref().or(text_lang);
    let (order, shown) = shown_in_order(doc, url, meta, lang, fetched_at);
    // A moment recorded in UTC, on the page's own day when the page shows
    // that day (issue 60: the shown day wins).
    // The zone is looked for only when a moment is recorded in UTC.
    let zone = std::cell::OnceCell::new();
    let zone = || *zone.get_or_init(|| local_time::page_zone(doc, lang, url));
    // The URL's day is the publication's (not an update's).
    let in_url = url.and_then(dates::in_url);
    let on_day = |d: &Option<String>, url_day: Option<Day>| {
        on_shown_day(doc, &zone, order, fetched_at, url_day, d.as_deref())
    };
    let local = |d: &Option<String>| on_day(d, None);
    let recorded_date = on_day(&meta.date, in_url);
    let recorded_modified = local(&meta.date_modified);
    // Dates in a run of like items (teasers, a ticker) are the items'; a
    // forum thread's first post is the thread.
    let shown: Vec<(Day, Shown, Option<NodeId>)> = shown
        .into_iter()
        .filter(|s| !s.listed || page_type == PageType::Forum)
        .map(|s| (s.day, s.kind, s.time))
        .collect();
    // The recorded moment of the shown day, else the moment of the `<time>`
    // it is written in, else the day alone.
    let same_day = |recorded: &Option<String>, day: Day, time: Option<NodeId>| {
        let iso = day.iso();
        let of_day = |m: &Option<String>| m.clone().filter(|_| day_of(m) == Some(iso.as_str()));
        of_day(recorded)
            .or_else(|| {
                of_day(
                    &time
                        .and_then(|t| doc.attr(t, "datetime"))
                        .and_then(normalize_date),
                )
            })
            .unwrap_or(iso)
    };
    // A shown date with the recorded one of its kind, when the same day.
    let with_recorded = |&(d, kind, time): &(Day, Shown, Option<NodeId>)| match kind {
        Shown::Published => same_day(&recorded_date, d, time),
        Shown::Updated => same_day(&recorded_modified, d, time),
    };
    // A shown date the markup records is the one the page goes by,
    // wherever it is in the head's dates (after a masthead's day, say).
    let (recorded, recorded_update) = (day_of(&recorded_date), day_of(&recorded_modified));
    let recorded_as = |d: &Day, kind: Shown| {
        let r = match kind {
            Shown::Published => recorded,
            Shown::Updated => recorded_update,
        };
        r == Some(d.iso().as_str())
    };
    let first_of = |kind: Shown| {
        let mut of_kind = shown.iter().filter(|(_, k, _)| *k == kind);
        of_kind
            .clone()
            .find(|(d, _, _)| recorded_as(d, kind))
            .or_else(|| of_kind.next())
            .map(with_recorded)
    };
    let url_day = in_url.map(Day::iso);
    let shown_published = first_of(Shown::Published);
    let shown_updated = first_of(Shown::Updated);
    let first = shown
        .iter()
        .find(|(d, _, _)| recorded == Some(d.iso().as_str()))
        .or(shown.first());
    // A shown date labelled as the update. (Also taking an unlabelled one
    // the markup records as the update, with an earlier recorded
    // publication, cost wcxb-dev 1 page and trafilatura-eval 12: their
    // annotators go by the shown date there.)
    let is_update = |&(_, kind, _): &(Day, Shown, Option<NodeId>)| kind == Shown::Updated;
    let date = if page_type == PageType::Forum {
        recorded_date
            .clone()
            .or_else(|| shown_published.clone())
            .or_else(|| shown_updated.clone())
    } else {
        match first {
            // Shown first is the update: the publication when the page
            // gives one, shown or recorded (not later than the update).
            Some(f) if is_update(f) => {
                let update = f.0.iso();
                let day = |d: &String| d.get(..10).unwrap_or_default().to_string();
                shown_published
                    .clone()
                    .filter(|p| day(p) < update)
                    .or_else(|| recorded_date.clone().filter(|r| day(r) <= update))
                    .or_else(|| Some(with_recorded(f)))
            }
            Some(f) => Some(with_recorded(f)),
            None => recorded_date.clone(),
        }
    };
    let (mut published_elsewhere, mut updated_elsewhere) = (None, None);
    let date = date.or_else(|| url_day.clone()).or_else(|| {
        let found = elsewhere(doc, page_type, order, fetched_at)?;
        let day = Some(found.day.iso());
        match found.kind {
            Shown::Updated => updated_elsewhere = day.clone(),
            Shown::Published => published_elsewhere = day.clone(),
        }
        day
    });
    // No date of a page is after it was fetched (a typo, an event's day).
    let latest = dates::latest_day(fetched_at).iso();
    let before_fetch = |d: &String| d.get(..10).is_some_and(|d| d <= latest.as_str());
    let date = date
        .filter(before_fetch)
        .or_else(|| local(&time_element(doc).and_then(|d| normalize_date(&d))));
    let state_date = if date.is_none() {
        on_day(&in_state(doc, page_type), in_url).filter(before_fetch)
    } else {
        None
    };
    Dates {
        date: date
            .or_else(|| state_date.clone())
            // A page that gives only its update goes by it.
            .or_else(|| shown_updated.clone())
            .or_else(|| recorded_modified.clone())
            .filter(before_fetch),
        // A thread's publication is its recorded one, as its date.
        published: if page_type == PageType::Forum {
            recorded_date.clone().or(shown_published)
        } else {
            shown_published.or_else(|| recorded_date.clone())
        }
        .or(url_day)
        // Not the day the markup records as the update ("updated" by class).
        .or(published_elsewhere.filter(|d| Some(d.as_str()) != day_of(&recorded_modified)))
        .filter(before_fetch)
        .or(state_date),
        modified: shown_updated
            .or_else(|| recorded_modified.clone())
            .or(updated_elsewhere)
            .filter(before_fetch),
    }
}

/// The publication an app's embedded state records for it to draw, on a
/// page of one piece (a list's state holds its items' dates).
fn in_state(doc: &Doc, page_type: PageType) -> Option<String> {
    if matches!(page_type, PageType::Listing | PageType::Collection) {
        return None;
    }
    embedded::published(doc).and_then(normalize_date)
}

/// The day-month order the page writes its dates in, and the dates it
/// shows at its head read in it: by its language, the country of its
/// URL's domain when the language is a bare `en` or none, its other dates
/// when they settle an ambiguous one, and the markup's record of a shown
/// day read the other way.
fn shown_in_order(
    doc: &Doc,
    url: Option<&str>,
    meta: &Meta,
    lang: Option<&str>,
    fetched_at: Option<i64>,
) -> (Order, Vec<ShownDate>) {
    // A bare `en` (or none): the country of the URL's domain, if it names one.
    let mut order = match url.and_then(Order::of_tld) {
        Some(o) if Order::lang_is_vague(lang) => o,
        _ => Order::of_lang(lang),
    };
    let mut shown = dates::shown(doc, order, fetched_at);
    // A language that leaves 03/10/2023 open: the page's other dates say.
    if Order::lang_is_vague(lang) && shown.iter().any(|s| s.ambiguous) {
        if let Some(o) = Order::of_page(doc).filter(|&o| o != order) {
            order = o;
            shown = dates::shown(doc, order, fetched_at);
        }
    }
    // Ambiguous shown days that the markup records in the other order (an
    // Austrian page showing `11/01/2021` and recording 2021-11-01): the
    // page writes its dates in that order, whatever its language says.
    if recorded_in_other_order(&shown, meta) {
        order = order.flipped();
        shown = dates::shown(doc, order, fetched_at);
    }
    (order, shown)
}

/// The date an article, thread or documentation page shows only elsewhere
/// (a footer's "Last updated", an author box under the story); a service
/// page's own date is one a date's element or a label gives.
fn elsewhere(
    doc: &Doc,
    page_type: PageType,
    order: Order,
    fetched_at: Option<i64>,
) -> Option<ShownDate> {
    match page_type {
        PageType::Article | PageType::Forum | PageType::Documentation => {
            dates::anywhere(doc, order, fetched_at, false)
        }
        PageType::Service => dates::anywhere(doc, order, fetched_at, true),
        _ => None,
    }
}

/// `recorded` in the page's `zone` when that moves it to a day the page
/// shows (in its text, or a `<time>` stating a local moment) or, for a
/// publication, its URL names (`url_day`, from `/2023/11/08/`: the site's
/// own day); else as recorded.
fn on_shown_day(
    doc: &Doc,
    zone: &dyn Fn() -> Option<local_time::Zone>,
    order: Order,
    fetched_at: Option<i64>,
    url_day: Option<Day>,
    recorded: Option<&str>,
) -> Option<String> {
    let recorded = recorded?;
    if !local_time::in_utc(recorded) {
        return Some(recorded.to_string());
    }
    let shows = |l: &String| {
        l.get(..10).is_some_and(|day| {
            url_day.is_some_and(|u| u.iso() == day)
                || local_time::time_states_day(doc, day)
                || dates::shows_day(doc, order, fetched_at, day)
        })
    };
    // A `<time>` showing the moment's wall clock settles the zone first.
    let local = match local_time::shown_by_time(doc, recorded).or_else(zone) {
        Some(z) => local_time::localize(recorded, z).filter(shows),
        // No zone settled: a URL naming the day before or after names the
        // site's own day.
        None => url_day.and_then(|u| local_time::on_url_day(recorded, u)),
    };
    Some(local.unwrap_or_else(|| recorded.to_string()))
}

/// Whether the page's markup records its publication date for machines (a
/// `<meta>` of [`DATE_KEYS`] or a JSON-LD `datePublished` / `dateCreated`),
/// so that the record's date field has it whatever the text keeps.
pub(crate) fn records_date(doc: &Doc) -> bool {
    doc.meta
        .metas
        .iter()
        .any(|(k, v)| DATE_KEYS.contains(&k.as_str()) && !v.trim().is_empty())
        || doc
            .meta
            .json_ld
            .iter()
            .any(|j| j.contains("\"datePublished\"") || j.contains("\"dateCreated\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::metadata::collect;

    #[test]
    fn a_time_element_when_nothing_else_dates_the_page() {
        let doc = Doc::parse_str(
            r#"<body><h1>Visible</h1><span class="byline">By Jo Ray</span><time datetime="2023-11-02">Nov 2</time></body>"#,
        );
        let d = dates(&doc, None, &collect(&doc), PageType::Article, None, None);
        assert_eq!(d.date.as_deref(), Some("2023-11-02"), "the <time>'s");
        // A quoted post's <time> is the post's.
        let doc = Doc::parse_str(
            r#"<body><h1>Visible</h1><p>The story.</p><blockquote class="instagram-media"><p>A post shared by Ann (@ann) on <time datetime="2019-04-21T23:47:18+00:00">Apr 21, 2019</time></p></blockquote></body>"#,
        );
        let d = dates(&doc, None, &collect(&doc), PageType::Article, None, None);
        assert_eq!(d.date, None, "a quotation's date");
    }

    #[test]
    fn shown_recorded_and_url_dates_in_their_order() {
        let page = |head: &str, body: &str| {
            format!("<html><head>{head}</head><body><h1>Headline</h1>{body}<p>The story, long enough to be read as the text of the article.</p></body></html>")
        };
        let recorded = r#"<script type="application/ld+json">{"@type":"Article","datePublished":"2025-01-29T20:47:55+00:00","dateModified":"2025-08-19T13:25:59+00:00"}</script>"#;
        let at = |html: &str, url: Option<&str>, t: PageType| {
            let doc = Doc::parse_str(html);
            super::dates(&doc, url, &collect(&doc), t, None, None)
        };
        // The page shows only its update and records its publication: the
        // publication is its date (issue 60); both are kept.
        let d = at(
            &page(recorded, "<p class=post-info>Updated August 19, 2025</p>"),
            None,
            PageType::Article,
        );
        assert_eq!(d.date.as_deref(), Some("2025-01-29T20:47:55+00:00"));
        assert_eq!(d.kind(), Some(DateKind::Published));
        assert_eq!(d.published.as_deref(), Some("2025-01-29T20:47:55+00:00"));
        assert_eq!(d.modified.as_deref(), Some("2025-08-19T13:25:59+00:00"));
        // A forum thread goes by its recorded date.
        let d = at(
            &page(recorded, "<p class=post-info>Updated August 19, 2025</p>"),
            None,
            PageType::Forum,
        );
        assert_eq!(d.date.as_deref(), Some("2025-01-29T20:47:55+00:00"));
        // A meta name of the site's own.
        let d = at(
            &page(
                r#"<meta name="w-published-date" content="July 17, 2025">"#,
                "",
            ),
            None,
            PageType::Article,
        );
        assert_eq!(d.date.as_deref(), Some("2025-07-17"));
        // Nothing shown or recorded: the URL's date.
        let d = at(
            &page("", ""),
            Some("https://news.test/2024/03/01/a-story/"),
            PageType::Article,
        );
        assert_eq!(d.date.as_deref(), Some("2024-03-01"));
        assert_eq!(d.modified, None);
        // German order and month names, label first.
        let d = at(
            &page("", "<div class=meta>Aktualisiert am 4. Juni 2024</div>"),
            None,
            PageType::Article,
        );
        assert_eq!(d.date.as_deref(), Some("2024-06-04"));
        assert_eq!(d.modified.as_deref(), Some("2024-06-04"));
        assert_eq!(d.published, None);
        // A publication labelled under the story, after its paragraphs:
        // the date, and the publication too.
        let story = "<p>The story, long enough to be read as the text of the article.</p>";
        let d = at(
            &page(
                "",
                &format!("{}<p>Veröffentlicht am 16.08.2019</p>", story.repeat(30)),
            ),
            None,
            PageType::Article,
        );
        assert_eq!(d.date.as_deref(), Some("2019-08-16"));
        assert_eq!(d.published.as_deref(), Some("2019-08-16"));
        assert_eq!(d.kind(), Some(DateKind::Published));
    }

    /// Issue 60: a moment recorded in UTC is dated on the page's own day
    /// when the page shows that day (in several languages and zones); a
    /// page showing the UTC day, or none, keeps the moment as recorded.
    #[test]
    fn a_moment_recorded_in_utc_goes_by_the_day_the_page_shows() {
        let story = "<p>The story, long enough to be read as the text of the article, goes on.</p>"
            .repeat(40);
        let at = |lang: &str, head: &str, foot: &str, t: PageType| {
            let html = format!(
                "<html lang={lang}><head>{head}</head><body><h1>Headline</h1>{story}{foot}</body></html>"
            );
            let doc = Doc::parse_str(&html);
            super::dates(&doc, None, &collect(&doc), t, None, None).date
        };
        let meta = |v: &str| format!(r#"<meta property="article:published_time" content="{v}">"#);
        let ld = |v: &str| {
            format!(
                r#"<script type="application/ld+json">{{"@type":"Article","datePublished":"{v}"}}</script>"#
            )
        };
        let day = |d: Option<String>| d.map(|d| d[..10].to_string());
        for (lang, head, foot, want) in [
            // Midnight in Berlin, recorded as 23:00 UTC the day before.
            (
                "de",
                meta("2021-11-04T23:00Z"),
                "<p>Veröffentlicht am 5. November 2021</p>",
                "2021-11-05",
            ),
            // Summer time in Warsaw.
            (
                "pl",
                meta("2024-06-30T22:30:00Z"),
                "<p class=date>Opublikowano: 01.07.2024</p>",
                "2024-07-01",
            ),
            // Tokyo, nine hours ahead.
            (
                "ja",
                ld("2024-07-01T16:00:00Z"),
                "<p>公開日：2024年7月2日</p>",
                "2024-07-02",
            ),
            // The page shows the UTC day: the recorded moment stands.
            (
                "de",
                meta("2021-11-04T23:00Z"),
                "<p>Veröffentlicht am 4. November 2021</p>",
                "2021-11-04",
            ),
            // No zone the page settles (English, a generic domain).
            (
                "en",
                meta("2021-11-04T23:00Z"),
                "<p>Published November 5, 2021</p>",
                "2021-11-04",
            ),
            // Unless a `<time>` shows the moment's wall clock.
            (
                "en-US",
                meta("2023-11-09T05:30:59+00:00"),
                r#"<p>PUBLISHED: <time datetime="2023-11-08 23:30:59">November 8, 2023 at 11:30 p.m.</time> | UPDATED: <time datetime="2023-11-09 00:21:49">November 9, 2023 at 12:21 a.m.</time></p>"#,
                "2023-11-08",
            ),
        ] {
            assert_eq!(
                day(at(lang, &head, foot, PageType::Article)).as_deref(),
                Some(want),
                "{lang} {foot}"
            );
        }
        // A thread recorded in UTC whose posts state their local moment.
        let post = r#"<p>by ann <time datetime="2025-12-19T04:25:38+0500">Yesterday at 4:25 AM</time></p>"#;
        let d = at(
            "en-US",
            &meta("2025-12-18T23:25:38+00:00"),
            post,
            PageType::Forum,
        );
        assert_eq!(d.as_deref(), Some("2025-12-19T04:25:38+05:00"));
        // A page whose date line is hidden, in a zone nothing settles: the
        // URL's day is the site's own (a regression test: twincities.com in
        // trafilatura-eval was dated 2023-11-09, the UTC day).
        let hidden = r#"<div class="meta hide"><time datetime="2023-11-08 23:30:59">November 8, 2023</time></div>"#;
        let html = format!(
            "<html lang=en-US><head>{}</head><body><h1>Headline</h1>{hidden}{story}</body></html>",
            meta("2023-11-09T05:30:59Z")
        );
        let doc = Doc::parse_str(&html);
        let on = |url| {
            super::dates(
                &doc,
                Some(url),
                &collect(&doc),
                PageType::Article,
                None,
                None,
            )
        };
        let d = on("https://news.example/2023/11/08/mayor/");
        assert_eq!(d.date.as_deref(), Some("2023-11-08"));
        assert_eq!(d.published.as_deref(), Some("2023-11-08"));
        // A URL naming no day, or one no zone reaches, leaves the moment.
        for url in [
            "https://news.example/mayor/",
            "https://news.example/2023/11/06/mayor/",
        ] {
            assert_eq!(
                on(url).date.as_deref(),
                Some("2023-11-09T05:30:59Z"),
                "{url}"
            );
        }
    }

    /// A date in the headline is its subject's day when the head shows
    /// another (a regression test: a results page headed "…, 19.5.2007"
    /// and posted "20. Mai 2007", trafilatura-eval).
    #[test]
    fn a_date_in_the_headline_gives_way_to_the_heads_other_date() {
        let at = |head: &str| {
            let html = format!(
                r#"<html lang=de><body><div class="post_meta_wrapper">{head}</div><p>Die Ergebnisse der Meisterschaften, lang genug, um als der Text des Artikels gelesen zu werden.</p></body></html>"#
            );
            let doc = Doc::parse_str(&html);
            super::dates(&doc, None, &collect(&doc), PageType::Article, None, None).date
        };
        let h1 = "<h1>Ergebnisse: RM Aalen, 19.5.2007</h1>";
        let posted =
            r#"<p class="post-meta">von Marc | <span class="published">20. Mai 2007</span></p>"#;
        assert_eq!(at(&format!("{h1}{posted}")).as_deref(), Some("2007-05-20"));
        // The headline's date when it is the only one the head shows.
        assert_eq!(at(h1).as_deref(), Some("2007-05-19"));
    }

    #[test]
    fn ambiguous_shown_days_follow_the_order_the_markup_records() {
        let at = |lang: &str, recorded: &str, shown: &str| {
            let html = format!(
                r#"<html lang={lang}><head><meta property="article:published_time" content="{recorded}"></head><body><h1>Headline</h1><p class=date>{shown}</p><p>The story, long enough to be read as the text of the article.</p></body></html>"#
            );
            let doc = Doc::parse_str(&html);
            super::dates(&doc, None, &collect(&doc), PageType::Article, None, None).date
        };
        // A German or French page showing the American order: the recorded
        // day says how to read it.
        for (lang, shown) in [
            ("de", "11/01/2021"),
            ("fr", "11/01/2021"),
            ("en-GB", "11/01/2021"),
        ] {
            let d = at(lang, "2021-11-01T04:00:14Z", shown);
            assert_eq!(
                d.as_deref().and_then(|d| d.get(..10)),
                Some("2021-11-01"),
                "{lang}"
            );
        }
        // An American page showing the day first, the same way round.
        let d = at("en-US", "2021-11-01T10:00:00Z", "01/11/2021");
        assert_eq!(d.as_deref().and_then(|d| d.get(..10)), Some("2021-11-01"));
        // The recorded day agreeing with the language's reading: unchanged.
        let d = at("de", "2021-01-11T10:00:00Z", "11.01.2021");
        assert_eq!(d.as_deref().and_then(|d| d.get(..10)), Some("2021-01-11"));
        // A recorded day matching neither reading leaves the order alone.
        let d = at("de", "2021-06-02T10:00:00Z", "11.01.2021");
        assert_eq!(d.as_deref().and_then(|d| d.get(..10)), Some("2021-01-11"));
    }

    #[test]
    fn the_date_is_the_publication_and_never_after_the_fetch() {
        let page = |lang: &str, head: &str, body: &str| {
            format!("<html lang={lang}><head>{head}</head><body><h1>Headline</h1>{body}<p>The story, long enough to be read as the text of the article.</p></body></html>")
        };
        let at = |html: &str, fetched: Option<i64>| {
            let doc = Doc::parse_str(html);
            super::dates(&doc, None, &collect(&doc), PageType::Article, fetched, None)
        };
        let date = |html: &str, fetched| at(html, fetched).date;
        let meta = |k: &str, v: &str| format!(r#"<meta property="{k}" content="{v}">"#);
        // Only the update shown, the publication recorded: the publication.
        for (lang, shown) in [
            ("en", "Updated on March 3, 2025"),
            ("de", "Aktualisiert am 3. März 2025"),
            ("fr", "Mis à jour le 3 mars 2025"),
        ] {
            let html = page(
                lang,
                &meta("article:published_time", "2025-01-10"),
                &format!("<p class=byline>{shown}</p>"),
            );
            let d = at(&html, None);
            assert_eq!(d.date.as_deref(), Some("2025-01-10"), "{lang}");
            assert_eq!(d.modified.as_deref(), Some("2025-03-03"), "{lang}");
        }
        // An unlabelled shown date the markup records as the update is the
        // page's date (the dev sets' annotators go by it).
        let recorded = r#"<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2025-12-01T08:00:00Z","dateModified":"2025-12-19T10:00:00Z"}</script>"#;
        let html = page(
            "en",
            recorded,
            "<p class=meta>By Ann Lee | December 19, 2025</p>",
        );
        assert_eq!(date(&html, None).as_deref(), Some("2025-12-19"));
        // After the fetch: the other reading of 12/03/2026, else none.
        let fetched = Some(1_773_600_000); // 2026-03-15
        let html = page("en-GB", "", "<p class=date>12/03/2026</p>");
        assert_eq!(date(&html, fetched).as_deref(), Some("2026-03-12"));
        let html = page("en", "", "<p class=date>12/03/2026</p>");
        assert_eq!(
            date(&html, fetched).as_deref(),
            Some("2026-03-12"),
            "month-first read a future day"
        );
        let html = page("de", "", "<p class=date>20.04.2026</p>");
        assert_eq!(date(&html, fetched), None);
        let html = page("en", &meta("article:published_time", "2026-08-01"), "");
        assert_eq!(
            date(&html, fetched),
            None,
            "a recorded date after the fetch"
        );
        // A bare `en`: the country of the URL's domain orders the day.
        let html = page("en", "", "<p class=date>03/04/2025</p>");
        let doc = Doc::parse_str(&html);
        let from = |url| {
            dates(
                &doc,
                Some(url),
                &collect(&doc),
                PageType::Article,
                None,
                None,
            )
            .date
        };
        assert_eq!(
            from("https://news.test.co.uk/a").as_deref(),
            Some("2025-04-03")
        );
        assert_eq!(
            from("https://news.test.com.au/a").as_deref(),
            Some("2025-04-03")
        );
        assert_eq!(
            from("https://news.test.com/a").as_deref(),
            Some("2025-03-04")
        );
        assert_eq!(
            from("https://news.test.us/a").as_deref(),
            Some("2025-03-04")
        );
        // A shown day written in a `<time>` takes its moment, not the day alone.
        let html = page(
            "pl",
            "",
            r#"<p class=meta><time datetime="2021-03-16T08:00:48+00:00">16 marca 2021</time></p>"#,
        );
        let d = at(&html, None);
        assert_eq!(d.date.as_deref(), Some("2021-03-16T08:00:48+00:00"));
        assert_eq!(d.published.as_deref(), Some("2021-03-16T08:00:48+00:00"));
        // Not a moment of another day.
        let html = page(
            "pl",
            "",
            r#"<p class=meta><time datetime="2021-03-17T08:00:48+00:00">16 marca 2021</time></p>"#,
        );
        assert_eq!(date(&html, None).as_deref(), Some("2021-03-16"));
        // No declared language: the language the text reads in orders the day.
        let html = "<html><body><h1>Headline</h1><p class=date>05/06/2021</p><p>The story.</p></body></html>";
        let doc = Doc::parse_str(html);
        let read = |text_lang| {
            dates(
                &doc,
                None,
                &collect(&doc),
                PageType::Article,
                None,
                text_lang,
            )
            .date
        };
        assert_eq!(read(Some("de")).as_deref(), Some("2021-06-05"));
        assert_eq!(read(None).as_deref(), Some("2021-05-06"));
        // Two-digit years.
        for (lang, shown, want) in [
            ("en", "Published on 01/25/26", "2026-01-25"),
            ("de", "<span>31.10.23</span>", "2023-10-31"),
            ("hr", "10.11.15", "2015-11-10"),
            ("fr", "Publié le 05/06/98", "1998-06-05"),
        ] {
            let html = page(lang, "", &format!("<div class=post-date>{shown}</div>"));
            assert_eq!(date(&html, None).as_deref(), Some(want), "{shown}");
        }
        for not_a_date in ["Version 1.10.11.15", "Server 10.0.0.1", "Release 2.10.15.3"] {
            let html = page(
                "en",
                "",
                &format!("<div class=post-date>{not_a_date}</div>"),
            );
            assert_eq!(date(&html, None), None, "{not_a_date}");
        }
        // Meta names of the publication, as a family.
        for (k, v) in [
            ("published_on", "2024-05-06"),
            ("publish-date", "2024-05-06"),
            ("citation_publication_date", "2024/05/06"),
            ("dc.date.issued", "2024-05-06"),
            ("pub_date", "06.05.2024"),
        ] {
            let html = page("de", &format!(r#"<meta name="{k}" content="{v}">"#), "");
            assert_eq!(date(&html, None).as_deref(), Some("2024-05-06"), "{k}");
        }
        for k in [
            "event_start_date",
            "publish_expiry_date",
            "last-published-update",
        ] {
            let html = page(
                "en",
                &format!(r#"<meta name="{k}" content="2024-05-06">"#),
                "",
            );
            assert_eq!(date(&html, None), None, "{k}");
        }
        // Meta names of the update, as a family: a page that gives only its
        // update goes by it; with a publication, the update is `modified`.
        for k in [
            "last-updated",
            "Updated Date",
            "updated_at",
            "dateUpdate",
            "modified-date",
        ] {
            let html = page(
                "de",
                &format!(r#"<meta name="{k}" content="2024-04-14">"#),
                "",
            );
            let d = at(&html, None);
            assert_eq!(d.date.as_deref(), Some("2024-04-14"), "{k}");
            assert_eq!(d.kind(), Some(DateKind::Updated), "{k}");
            let html = page(
                "de",
                &format!(
                    r#"<meta name="{k}" content="2024-04-14"><meta name="publish-date" content="2024-01-02">"#
                ),
                "",
            );
            let d = at(&html, None);
            assert_eq!(d.date.as_deref(), Some("2024-01-02"), "{k}");
            assert_eq!(d.modified.as_deref(), Some("2024-04-14"), "{k}");
        }
        for k in ["next-update-date", "update-frequency", "update-policy"] {
            let html = page(
                "de",
                &format!(r#"<meta name="{k}" content="2024-04-14">"#),
                "",
            );
            assert_eq!(date(&html, None), None, "{k}");
        }
        // RDFa's property, as microdata's itemprop.
        let html = page(
            "de",
            "",
            r#"<span property="schema:datePublished" content="2022-01-28T12:45:46+00:00"></span>"#,
        );
        assert_eq!(
            date(&html, None).as_deref(),
            Some("2022-01-28T12:45:46+00:00")
        );
    }

    /// Issue 60: a page whose app draws its date from embedded state
    /// (`{"publishedDate": …}` in an `application/json` script) goes by
    /// that publication when nothing else dates it; a list's state does not
    /// date the list, and a shown date comes first.
    #[test]
    fn the_publication_an_apps_state_records() {
        let page = |state: &str, body: &str| {
            format!(
                r#"<html lang=en><body><h1>Review</h1>{body}<p>The review, long enough to be read as the text of the page.</p>
                <script type="application/json" id="dates">{state}</script></body></html>"#
            )
        };
        let at = |html: &str, page_type| {
            let doc = Doc::parse_str(html);
            super::dates(&doc, None, &collect(&doc), page_type, None, None)
        };
        for key in [
            "publishedDate",
            "published_at",
            "datePublished",
            "publicationDate",
        ] {
            let html = page(
                &format!(
                    r#"{{"{key}":"2016-11-04T20:37:27Z","updatedDate":"2016-11-05T20:39:47Z"}}"#
                ),
                "",
            );
            let d = at(&html, PageType::Service);
            assert_eq!(d.date.as_deref(), Some("2016-11-04T20:37:27Z"), "{key}");
            assert_eq!(
                d.published.as_deref(),
                Some("2016-11-04T20:37:27Z"),
                "{key}"
            );
            assert_eq!(at(&html, PageType::Listing).date, None, "{key}");
        }
        let html = page(
            r#"{"publishedDate":"2016-11-04T20:37:27Z"}"#,
            "<p class=date>March 3, 2020</p>",
        );
        assert_eq!(
            at(&html, PageType::Article).date.as_deref(),
            Some("2020-03-03")
        );
        // Not a publication's key, or no date in it.
        for state in [
            r#"{"createdDate":"2016-11-04"}"#,
            r#"{"publishedAt":"soon"}"#,
        ] {
            assert_eq!(
                at(&page(state, ""), PageType::Article).date,
                None,
                "{state}"
            );
        }
    }
}
