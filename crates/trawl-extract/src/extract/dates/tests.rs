//! Tests of the shown dates: labels, datelines, stamps and the words
//! around a date, in several languages (kept apart so `dates.rs` stays
//! readable).

use super::*;

#[test]
fn a_labelled_date_far_from_the_headline() {
    let story = "<p>The story itself, long enough to be a paragraph of the article and more.</p>"
        .repeat(40);
    let html = format!(
        "<body><h1>Webcams</h1>{story}<p>On March 3, 2021 the wall was rebuilt, as the story says here.</p>\
         <footer><p>Last updated: November 13, 2025</p></footer></body>"
    );
    let doc = Doc::parse_str(&html);
    assert!(
        shown(&doc, Order::MonthFirst, None).is_empty(),
        "not at its head"
    );
    assert_eq!(
        anywhere(&doc, Order::MonthFirst, None, false).map(|s| (s.day.iso(), s.kind)),
        Some(("2025-11-13".to_string(), Shown::Updated))
    );
}

/// Issue 60: a date opening the story's first line before a dash, a
/// bar or a quote is its dateline, in any language; a date inside a
/// sentence is not.
#[test]
fn a_dateline_opens_the_story() {
    let story = "<p>The story itself, long enough to be a paragraph of the article.</p>";
    let at = |first: &str| {
        let html = format!("<body><h1>Headline</h1><p>{first}</p>{story}</body>");
        shown_of(&html, Order::DayFirst)
    };
    let published = |d: &str| vec![(d.to_string(), Shown::Published)];
    assert_eq!(
        at("27.1.2022 - Bei der Erinnerung an die Verfolgten und so weiter, wie der Bericht des Tages sagt"),
        published("2022-01-27")
    );
    assert_eq!(
        at("<strong>01.02.2022 „Der Arbeitsmarkt ist gut ins Jahr gestartet“ und so weiter, wie der Bericht des Tages sagt</strong>"),
        published("2022-02-01")
    );
    assert_eq!(
        at("8 November 2021 | Online conference on the day of remembrance and more, as the report of the day says"),
        published("2021-11-08")
    );
    assert_eq!(
        at("12 de mayo de 2022 — El gobierno anunció hoy su plan y más, como dice el informe del día"),
        published("2022-05-12")
    );
    assert_eq!(
        at("Pressemitteilung vom 25. Januar 2022 | Berlin – Die künftige Ministerin sagt und so weiter, wie der Bericht sagt"),
        published("2022-01-25")
    );
    assert_eq!(
        at("BERLIN, 25.01.2022 – Die künftige Ministerin sagt und so weiter, wie der Bericht des Tages sagt"),
        published("2022-01-25")
    );
    assert_eq!(
        at("Communiqué du 8 novembre 2021 | Paris – La ministre a dit et ainsi de suite, comme le dit le rapport"),
        published("2021-11-08")
    );
    assert!(at("On 27.1.2022 - the day of remembrance - we met in the old town hall").is_empty());
    assert!(
        at("Tuesday, December 26, 2006 - 07:02 PM EST — Apple stores and more news of the day")
            .is_empty(),
        "a masthead's clock"
    );
    assert!(
        at("The end of 27.1.2022 - the day of remembrance - we met in the old town hall")
            .is_empty()
    );
    assert!(at("27.1.2022 was the day of remembrance, and we met in the old town hall").is_empty());
}

/// Issue 60: a date labelled as the date ("Datum", "Date:", "Fecha")
/// far down a page, as its own text or after the label's element.
#[test]
fn a_date_labelled_as_the_date() {
    let story = "<p>The story itself, long enough to be a paragraph of the article and more.</p>"
        .repeat(40);
    let at = |facts: &str| {
        let html = format!("<body><h1>Radon</h1>{story}<div>{facts}</div></body>");
        let doc = Doc::parse_str(&html);
        anywhere(&doc, Order::DayFirst, None, true).map(|s| (s.day.iso(), s.kind))
    };
    let published = |d: &str| Some((d.to_string(), Shown::Published));
    assert_eq!(
        at("<span class=label>Ausgabejahr</span> <span>2022</span> <span class=label>Datum</span> <span class=value>25.01.2022</span>"),
        published("2022-01-25")
    );
    assert_eq!(at("<p>Date: 25/01/2022</p>"), published("2022-01-25"));
    assert_eq!(
        at("<dt>Fecha</dt><dd>25/01/2022</dd>"),
        published("2022-01-25")
    );
    // A wiki's footer: the last edit.
    let updated = |d: &str| Some((d.to_string(), Shown::Updated));
    for footer in [
        "Diese Seite wurde zuletzt am 29. Januar 2020 um 13:22 Uhr geändert.",
        "This page was last edited on 29 January 2020, at 13:22.",
        "Dernière modification : 29 janvier 2020",
    ] {
        assert_eq!(
            at(&format!("<ul><li>{footer}</li></ul>")),
            updated("2020-01-29"),
            "{footer}"
        );
    }
    // Other dates are not the page's: an expiry, a birthday.
    assert_eq!(at("<dt>Ablaufdatum</dt><dd>25.01.2022</dd>"), None);
    assert_eq!(at("<p>Due date: 25/01/2022</p>"), None);
}

/// Issue 60: far from the headline, the labelled publication wins over
/// an update shown before it; labels in more languages.
#[test]
fn the_publication_far_down_in_many_languages() {
    let story = "<p>The story itself, long enough to be a paragraph of the article and more.</p>"
        .repeat(40);
    let at = |foot: &str, order: Order| {
        let doc = Doc::parse_str(&format!(
            "<body><h1>Headline</h1>{story}<footer>{foot}</footer></body>"
        ));
        anywhere(&doc, order, None, false).map(|s| (s.day.iso(), s.kind))
    };
    let published = |d: &str| Some((d.to_string(), Shown::Published));
    assert_eq!(
        at(
            "<p>Letzte Änderung: 31.10.2023 - 14:49:39 Erschienen am: 01.11.2023 Lesungen: 61</p>",
            Order::DayFirst
        ),
        published("2023-11-01")
    );
    assert_eq!(
        at(
            "<p>Artikel opublikowano 3.05.2024 w dziale</p>",
            Order::DayFirst
        ),
        published("2024-05-03")
    );
    assert_eq!(
        at(
            "<p>Artikeln publicerad 3.05.2024 i vår tidning</p>",
            Order::DayFirst
        ),
        published("2024-05-03")
    );
    assert_eq!(
        at(
            "<p>記事の公開日 2024年5月3日 更新されました</p>",
            Order::DayFirst
        ),
        published("2024-05-03")
    );
    assert_eq!(
        at(
            "<p>Страница обновлено 3.05.2024 редакцией</p>",
            Order::DayFirst
        ),
        Some(("2024-05-03".to_string(), Shown::Updated))
    );
}

/// Issue 60: a date with its time of day in a short line under the
/// headline is the moment the page was posted, unlabelled and beside
/// other words, in any script; a long paragraph's date and time is not.
#[test]
fn a_date_and_its_time_under_the_headline_are_the_pages_stamp() {
    let story = "<p>The story itself, long enough to be a paragraph of the article and more.</p>";
    let at = |line: &str, order: Order| {
        let html = format!("<body><h1>Headline</h1><div>{line}</div>{story}</body>");
        shown_of(&html, order)
    };
    let published = |d: &str| vec![(d.to_string(), Shown::Published)];
    assert_eq!(
        at(
            "http://biz.163.com\u{3000}2005-04-25 08:24:06\u{3000}来源: 第一财经日报\u{3000}<a href=\"#c\">网友评论 0 条</a>",
            Order::DayFirst
        ),
        published("2005-04-25")
    );
    assert_eq!(
        at(
            "本贴由 大卫 于2005年8月12日16:12:21在〖 心灵体操 〗发表. 点击 1234 次",
            Order::DayFirst
        ),
        published("2005-08-12")
    );
    assert_eq!(
        at(
            "Redaktion · 14.03.2023, 09:15 · Lesezeit 3 Minuten",
            Order::DayFirst
        ),
        published("2023-03-14")
    );
    assert_eq!(
        at(
            "Staff report, March 14, 2023 9:15 am, with three photos",
            Order::MonthFirst
        ),
        published("2023-03-14")
    );
    // The time inside a long paragraph is the story's, not the page's.
    let long = format!(
        "{} On March 14, 2023 9:15 am the council met again, as it does every spring.",
        "The story opens with a long account of the town and its people. ".repeat(3)
    );
    assert_eq!(at(&long, Order::MonthFirst), vec![]);
}

/// Issue 60: in languages that put the verb last, "posted" follows the
/// post's date ("于2005年8月12日…发表", "2021年3月1日に公開"); that date
/// is the page's, before the follow-ups' dates listed under it.
#[test]
fn a_posts_verb_after_its_date_labels_it() {
    let story =
        "<p>所以爱是什么，爱是由接受的人决定的。你认为你那些行为都是爱你的先生吗？</p>".repeat(40);
    for (line, want) in [
        (
            "本贴由<b>大卫</b>于2005年8月12日16:12:21在〖<a href=\"/bbs\">心灵体操</a>〗发表.",
            "2005-08-12",
        ),
        ("この記事は2021年3月1日に公開されました。", "2021-03-01"),
    ] {
        let html = format!(
            "<body><h3>Title</h3>{story}<center>{line}</center>\
             <ul><li><a href=\"1.html\">re: title</a> <i>09:02:51 5/23/06</i></li></ul></body>"
        );
        let doc = Doc::parse_str(&html);
        assert_eq!(
            anywhere(&doc, Order::MonthFirst, None, false).map(|s| (s.day.iso(), s.kind)),
            Some((want.to_string(), Shown::Published)),
            "{line}"
        );
    }
}

/// Issue 60: the founding day a blog's sidebar shows beside its posts
/// ("建立于: 2004年10月6日", "Established March 3, 1998") is not a post's.
#[test]
fn a_blogs_founding_day_is_not_the_posts() {
    for label in ["建立于:", "创建于 ", "Established", "Founded:"] {
        let html = format!(
            "<body><h1>Headline</h1><div>Blog {label} 2004-10-06</div>\
             <p>The story itself, long enough to be a paragraph of the article and more.</p></body>"
        );
        assert_eq!(shown_of(&html, Order::DayFirst), vec![], "{label}");
    }
}

fn shown_of(html: &str, order: Order) -> Vec<(String, Shown)> {
    let doc = Doc::parse_str(html);
    shown(&doc, order, None)
        .into_iter()
        .filter(|s| !s.listed)
        .map(|s| (s.day.iso(), s.kind))
        .collect()
}

#[test]
fn the_date_a_page_shows_at_its_head() {
    let story = "<p>The story itself, long enough to be a paragraph of the article and more.</p>";
    let html = format!(
        "<body><nav>Home News</nav><article><h1>Headline</h1>\
         <div class=post-meta><span>August 16, 2019</span> <span>- Updated July 9, 2025</span></div>\
         {}<p>In a story, on March 3, 2021, something happened that the article tells.</p></article></body>",
        story.repeat(3)
    );
    assert_eq!(
        shown_of(&html, Order::MonthFirst),
        [
            ("2019-08-16".to_string(), Shown::Published),
            ("2025-07-09".to_string(), Shown::Updated)
        ]
    );
    // A label and a date before the headline, in a plain block.
    let html = format!(
        "<body><div><div>Last updated:</div><div>Dec 12, 2025</div></div><h1>Headline</h1>{story}</body>"
    );
    assert_eq!(
        shown_of(&html, Order::MonthFirst),
        [("2025-12-12".to_string(), Shown::Updated)]
    );
    // A line of its own that is only a date, beside a legend.
    let html = format!(
        "<body><h1>Blog</h1><fieldset><legend>Week 2</legend> 20 December 2025 <div>{story}</div></fieldset></body>"
    );
    assert_eq!(
        shown_of(&html, Order::DayFirst),
        [("2025-12-20".to_string(), Shown::Published)]
    );
    // A date inside a sentence of the story is not the page's date.
    let html = format!(
        "<body><h1>Headline</h1><p>On March 3, 2021 the council met and decided to rebuild the harbour wall.</p>{story}</body>"
    );
    assert!(shown_of(&html, Order::MonthFirst).is_empty());
}

/// A post's `<article class="post status-publish">` names no date box: an
/// event's day in its headline is not the post's date, the `<time>` under
/// it is.
#[test]
fn a_posts_status_class_makes_no_date_box() {
    let story = "<p>The story itself, long enough to be a paragraph of the article and more.</p>";
    let html = format!(
        "<body><article class=\"post type-post status-publish\"><header>\
         <h1>Conference: institutions of revolutionary power in the European revolutions of the early nineteenth century (26 and 27. 2. 2015, Eichstätt)</h1>\
         <div class=entry-meta><time datetime=2015-01-28>28. Januar 2015</time></div></header>\
         {}</article></body>",
        story.repeat(8)
    );
    assert_eq!(
        shown_of(&html, Order::DayFirst),
        [("2015-01-28".to_string(), Shown::Published)]
    );
}

/// Issue 60: a byline's date and its label in languages beyond Western
/// Europe (Russian, Ukrainian, Polish, Czech, Croatian, Turkish,
/// Hungarian, Greek): the day read, an update told from a publication.
#[test]
fn labelled_dates_in_more_languages() {
    let story = "<p>The story itself, long enough to be a paragraph of the article and more.</p>";
    let at = |line: &str, order: Order| {
        let html = format!(
            "<body><h1>Headline</h1><p class=meta>{line}</p>{}</body>",
            story.repeat(3)
        );
        shown_of(&html, order)
    };
    let (day_first, published, updated) = (Order::DayFirst, Shown::Published, Shown::Updated);
    for (line, order, day, kind) in [
        ("15 августа 2016, 13:43", day_first, "2016-08-15", published),
        (
            "Опубліковано 3 березня 2022",
            day_first,
            "2022-03-03",
            published,
        ),
        (
            "Zaktualizowano 10 listopada 2021",
            day_first,
            "2021-11-10",
            updated,
        ),
        (
            "Aktualizováno 2. června 2023",
            day_first,
            "2023-06-02",
            updated,
        ),
        (
            "Objavljeno: 10. listopada 2021.",
            Order::DayFirstCroatian,
            "2021-10-10",
            published,
        ),
        ("Güncellendi 5 Şubat 2024", day_first, "2024-02-05", updated),
        (
            "Frissítve: 2021. november 10.",
            day_first,
            "2021-11-10",
            updated,
        ),
        (
            "Δημοσιεύθηκε 7 Μαΐου 2020",
            day_first,
            "2020-05-07",
            published,
        ),
    ] {
        assert_eq!(at(line, order), vec![(day.to_string(), kind)], "{line}");
    }
}
