//! The page's own day for a moment its markup records in UTC.
//!
//! Publishing systems record times in UTC: an article dated 7 November in
//! Berlin is recorded as `2022-11-06T23:00:00Z`, a thread opened at 4:25 in
//! Karachi as `2025-12-18T23:25:38+00:00`. The day people read on the page,
//! and sort by, is the local one (issue 60). A recorded moment stated in UTC
//! is read again in the page's zone when that moves it to another day: the
//! zone the page's other recorded times state (`<time datetime>`, `<meta>`
//! values with an offset), else the one its language or country implies,
//! with European summer time where that applies, and only when the page
//! shows that day (in its text, or a `<time>` stating a local moment). A
//! zone the page does not settle, or a day it does not show, leaves the
//! moment as recorded.

use crate::extract::written_dates::{civil_from_days, Day};
use crate::html::{Doc, NodeId, Tag};

/// A zone: a fixed offset from UTC, or one with European summer time
/// (one hour more from the last Sunday of March to the last of October).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Zone {
    /// Minutes east of UTC, all year.
    Fixed(i32),
    /// Minutes east of UTC in winter; one hour more in European summer.
    European(i32),
}

/// A moment as recorded: days since 1970-01-01 and seconds into that day,
/// in the offset it states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    days: i64,
    secs: i64,
    offset: i32,
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Reads `YYYY-MM-DDThh:mm[:ss[.fff]]` with `Z`, `±hh:mm` or `±hhmm`;
/// `None` without a time or an offset.
fn parse(s: &str) -> Option<Stamp> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = s.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || b.get(10) != Some(&b'T') {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || b.get(13) != Some(&b':') {
        return None;
    }
    let (hour, minute) = (num(11..13)?, num(14..16)?);
    let mut i = 16;
    let mut second = 0;
    if b.get(i) == Some(&b':') {
        second = num(i + 1..i + 3)?;
        i += 3;
        if b.get(i) == Some(&b'.') {
            i += 1;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let offset = match s.get(i..)? {
        "Z" | "z" => 0,
        zone => {
            let sign = match zone.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let digits: String = zone[1..].chars().filter(|c| *c != ':').collect();
            if digits.len() != 4 || !digits.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let h: i32 = digits[..2].parse().ok()?;
            let m: i32 = digits[2..].parse().ok()?;
            sign * (h * 60 + m)
        }
    };
    Some(Stamp {
        days: days_from_civil(year, month as u32, day as u32),
        secs: hour * 3600 + minute * 60 + second,
        offset,
    })
}

/// Seconds since the epoch at 01:00 UTC on the last Sunday of `month`.
fn last_sunday_1am(year: i64, month: u32) -> i64 {
    let last = days_from_civil(year, month + 1, 1) - 1;
    // 1970-01-01 was a Thursday: weekday 0 is Sunday.
    let back = (last + 4).rem_euclid(7);
    (last - back) * 86_400 + 3_600
}

impl Zone {
    /// Minutes east of UTC at the moment `utc` (seconds since the epoch).
    fn offset_at(self, utc: i64) -> i32 {
        match self {
            Zone::Fixed(m) => m,
            Zone::European(m) => {
                let (year, _, _) = civil_from_days(utc.div_euclid(86_400));
                let summer = last_sunday_1am(year, 3) <= utc && utc < last_sunday_1am(year, 10);
                m + if summer { 60 } else { 0 }
            }
        }
    }
}

/// Whether `recorded` is a moment stated in UTC (`…T23:00Z`, `+00:00`).
pub(crate) fn in_utc(recorded: &str) -> bool {
    parse(recorded.trim()).is_some_and(|s| s.offset == 0)
}

/// `recorded` read in `zone` when it is stated in UTC and the zone's day
/// is another: `2022-11-06T23:00:00.000Z` in Berlin is
/// `2022-11-07T00:00:00+01:00`. `None` when nothing changes.
pub(crate) fn localize(recorded: &str, zone: Zone) -> Option<String> {
    let stamp = parse(recorded.trim())?;
    if stamp.offset != 0 {
        return None;
    }
    let utc = stamp.days * 86_400 + stamp.secs;
    let offset = zone.offset_at(utc);
    let local = utc + i64::from(offset) * 60;
    let days = local.div_euclid(86_400);
    if days == stamp.days {
        return None;
    }
    let (y, mo, d) = civil_from_days(days);
    let s = local.rem_euclid(86_400);
    let sign = if offset < 0 { '-' } else { '+' };
    let o = offset.abs();
    Some(format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}{sign}{:02}:{:02}",
        s / 3600,
        s % 3600 / 60,
        s % 60,
        o / 60,
        o % 60
    ))
}

/// The day `url_day` (from the page's URL) for a moment `recorded` in
/// UTC on the day after or before it, when a zone from 10 hours behind
/// UTC to 13 ahead puts the moment on that day (`2023-11-09T05:30:59Z`
/// under `/2023/11/08/`): publishing systems write the site's own day into
/// the URL. The zone itself is not known, so the day alone is given.
/// `None` otherwise.
pub(crate) fn on_url_day(recorded: &str, url_day: Day) -> Option<String> {
    let stamp = parse(recorded.trim()).filter(|s| s.offset == 0)?;
    let days = days_from_civil(
        i64::from(url_day.year),
        u32::from(url_day.month),
        u32::from(url_day.day),
    );
    // Zones where people live and publish: from 10 hours behind UTC
    // (Hawaii) to 13 ahead (New Zealand's summer).
    let plausible = match days - stamp.days {
        -1 => stamp.secs < 10 * 3_600,
        1 => stamp.secs >= 11 * 3_600,
        _ => false,
    };
    plausible.then(|| url_day.iso())
}

/// The `datetime` attributes of the page's `<time>` elements.
fn datetimes(doc: &Doc) -> impl Iterator<Item = &str> {
    doc.nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.tag == Tag::Time)
        .filter_map(|(i, _)| doc.attr(i as NodeId, "datetime"))
}

/// The zone the page's recorded times state: the one offset other than
/// UTC's of its `<time datetime>` attributes and `<meta>` values (two an
/// hour apart: European summer time, when the earlier is a European
/// winter offset). `None` when they state none, or several.
fn stated(doc: &Doc) -> Option<Zone> {
    let mut offsets: Vec<i32> = Vec::new();
    let values = datetimes(doc).chain(doc.meta.metas.iter().map(|(_, v)| v.as_str()));
    for v in values {
        if let Some(s) = parse(v.trim()).filter(|s| s.offset != 0) {
            if !offsets.contains(&s.offset) {
                offsets.push(s.offset);
            }
        }
    }
    offsets.sort_unstable();
    match offsets[..] {
        [one] => Some(Zone::Fixed(one)),
        [winter, summer] if summer - winter == 60 && [0, 60, 120].contains(&winter) => {
            Some(Zone::European(winter))
        }
        _ => None,
    }
}

/// Whether a `<time>` element states a moment on `day` (`YYYY-MM-DD`) in
/// a zone other than UTC: a local day the page gives its readers.
pub(crate) fn time_states_day(doc: &Doc, day: &str) -> bool {
    datetimes(doc).any(|v| {
        let v = v.trim();
        v.get(..10) == Some(day) && parse(v).is_some_and(|s| s.offset != 0)
    })
}

/// The zone a `<time>` element shows for the moment `recorded` (stated in
/// UTC): one whose `datetime` is a wall-clock time with no offset
/// (`2023-11-08 23:30:59`) that is the recorded moment read a whole
/// quarter-hour offset away, at most 14 hours. A page in English on a
/// generic domain gives no zone otherwise.
pub(crate) fn shown_by_time(doc: &Doc, recorded: &str) -> Option<Zone> {
    let utc = parse(recorded.trim()).filter(|s| s.offset == 0)?;
    let utc = utc.days * 86_400 + utc.secs;
    datetimes(doc).find_map(|v| {
        let v = v.trim();
        // The date and a clock time, `T` or a space between them.
        if !matches!(v.as_bytes().get(10), Some(b'T' | b' ')) {
            return None;
        }
        let clock = v.get(..10)?.to_string() + "T" + v.get(11..)?;
        if parse(&clock).is_some() {
            return None;
        }
        let local = parse(&(clock + "Z"))?;
        let offset = local.days * 86_400 + local.secs - utc;
        let plausible = offset != 0 && offset % 900 == 0 && offset.abs() <= 14 * 3_600;
        plausible.then_some(Zone::Fixed((offset / 60) as i32))
    })
}

/// The zone of a country (ISO 3166 code, lower case), where the country
/// keeps one.
fn of_country(code: &str) -> Option<Zone> {
    Some(match code {
        "gb" | "uk" | "ie" | "pt" => Zone::European(0),
        "de" | "at" | "ch" | "fr" | "be" | "nl" | "lu" | "it" | "es" | "pl" | "cz" | "sk"
        | "hu" | "se" | "dk" | "no" | "hr" | "si" | "rs" | "ba" | "mk" | "al" | "me" | "mt" => {
            Zone::European(60)
        }
        "gr" | "fi" | "ro" | "bg" | "ee" | "lv" | "lt" | "ua" | "cy" => Zone::European(120),
        "tr" | "by" => Zone::Fixed(180),
        "in" => Zone::Fixed(330),
        "th" | "vn" => Zone::Fixed(420),
        "cn" | "tw" | "hk" | "sg" | "my" | "ph" => Zone::Fixed(480),
        "jp" | "kr" => Zone::Fixed(540),
        _ => return None,
    })
}

/// The zone of a language written without a country, where its speakers
/// keep one (not English, Spanish, Portuguese, French Canada's, Arabic,
/// Russian: they span zones).
fn of_language(lang: &str) -> Option<Zone> {
    let country = match lang {
        "de" | "lb" => "de",
        "fr" => "fr",
        "it" => "it",
        "nl" => "nl",
        "pl" => "pl",
        "cs" => "cz",
        "sk" => "sk",
        "hu" => "hu",
        "sv" => "se",
        "da" => "dk",
        "nb" | "nn" | "no" => "no",
        "hr" | "bs" | "sr" | "sl" => "hr",
        "ca" | "eu" | "gl" => "es",
        "el" => "gr",
        "fi" => "fi",
        "ro" => "ro",
        "bg" => "bg",
        "et" => "ee",
        "lv" => "lv",
        "lt" => "lt",
        "uk" => "ua",
        "tr" => "tr",
        "th" => "th",
        "vi" => "vn",
        "zh" => "cn",
        "ja" => "jp",
        "ko" => "kr",
        _ => return None,
    };
    of_country(country)
}

/// The page's zone: the one its recorded times state, else its
/// language's (`de`, `de-AT`, `en-GB`: the country named wins), else, for
/// a page in plain English or no language, its country domain's.
pub(crate) fn page_zone(doc: &Doc, lang: Option<&str>, url: Option<&str>) -> Option<Zone> {
    if let Some(z) = stated(doc) {
        return Some(z);
    }
    let lang = lang.map(|l| l.trim().to_ascii_lowercase().replace('_', "-"));
    if let Some(l) = lang.as_deref().filter(|l| !l.is_empty()) {
        let mut parts = l.split('-');
        let language = parts.next().unwrap_or_default();
        let region = parts.find(|p| p.len() == 2);
        if let Some(r) = region {
            return of_country(r);
        }
        if language != "en" {
            return of_language(language);
        }
    }
    let rest = url?.split_once("://").map(|(_, r)| r)?;
    let host = rest.split(['/', '?', '#', ':']).next()?;
    of_country(&host.rsplit('.').next()?.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_names_the_sites_own_day() {
        let day = |y, m, d| Day {
            year: y,
            month: m,
            day: d,
        };
        let on = |r, u| on_url_day(r, u);
        assert_eq!(
            on("2023-11-09T05:30:59Z", day(2023, 11, 8)).as_deref(),
            Some("2023-11-08")
        );
        assert_eq!(
            on("2022-11-06T23:00:00.000Z", day(2022, 11, 7)).as_deref(),
            Some("2022-11-07")
        );
        // The same day, two days apart, or a time no zone moves that far.
        assert_eq!(on("2023-11-08T05:30:59Z", day(2023, 11, 8)), None);
        assert_eq!(on("2023-11-10T05:30:59Z", day(2023, 11, 8)), None);
        assert_eq!(on("2023-11-09T10:13:31Z", day(2023, 11, 8)), None);
        assert_eq!(on("2022-11-06T10:00:00Z", day(2022, 11, 7)), None);
        // Not stated in UTC: recorded in the site's zone already.
        assert_eq!(on("2023-11-09T05:30:59+01:00", day(2023, 11, 8)), None);
    }

    #[test]
    fn a_moment_in_utc_read_on_the_pages_day() {
        // Midnight in Berlin, winter and summer.
        assert_eq!(
            localize("2022-11-06T23:00:00.000Z", Zone::European(60)).as_deref(),
            Some("2022-11-07T00:00:00+01:00")
        );
        assert_eq!(
            localize("2022-06-06T22:00:00Z", Zone::European(60)).as_deref(),
            Some("2022-06-07T00:00:00+02:00")
        );
        // The same day there: unchanged; a stated offset: unchanged.
        assert_eq!(localize("2022-06-06T12:00:00Z", Zone::European(60)), None);
        assert_eq!(
            localize("2022-06-06T23:30:00+02:00", Zone::Fixed(540)),
            None
        );
        // West of UTC, the day before; offsets written without a colon.
        assert_eq!(
            localize("2023-11-09T05:30:59+0000", Zone::Fixed(-360)).as_deref(),
            Some("2023-11-08T23:30:59-06:00")
        );
        // London in summer, Tokyo, a date alone, no time: unchanged.
        assert_eq!(
            localize("2024-07-01T23:15Z", Zone::European(0)).as_deref(),
            Some("2024-07-02T00:15:00+01:00")
        );
        assert_eq!(
            localize("2024-07-01T16:00:00Z", Zone::Fixed(540)).as_deref(),
            Some("2024-07-02T01:00:00+09:00")
        );
        assert_eq!(localize("2024-07-01", Zone::Fixed(540)), None);
        assert_eq!(localize("2024-07-01T16:00:00", Zone::Fixed(540)), None);
        assert_eq!(localize("2024-13-01T16:00:00Z", Zone::Fixed(540)), None);
    }

    #[test]
    fn a_time_showing_the_wall_clock_of_a_utc_moment_gives_the_zone() {
        let doc = |dt: &str| {
            Doc::parse_str(&format!(
                r#"<body><p>PUBLISHED: <time datetime="{dt}">November 8, 2023 at 11:30 p.m.</time></p></body>"#
            ))
        };
        let recorded = "2023-11-09T05:30:59Z";
        for dt in ["2023-11-08 23:30:59", "2023-11-08T23:30:59"] {
            assert_eq!(
                shown_by_time(&doc(dt), recorded),
                Some(Zone::Fixed(-360)),
                "{dt}"
            );
        }
        // An offset stated, the same clock, another moment, a date alone,
        // a moment not in UTC: none.
        for dt in [
            "2023-11-08T23:30:59-06:00",
            "2023-11-09 05:30:59",
            "2023-11-08 23:31:12",
            "2023-11-08",
        ] {
            assert_eq!(shown_by_time(&doc(dt), recorded), None, "{dt}");
        }
        let d = doc("2023-11-08 23:30:59");
        assert_eq!(shown_by_time(&d, "2023-11-09T05:30:59+01:00"), None);
    }

    #[test]
    fn summer_time_starts_and_ends_on_the_last_sundays() {
        // 2025: 30 March and 26 October, at 01:00 UTC.
        let z = Zone::European(60);
        let at = |s: &str| {
            let p = parse(s).expect("a stamp");
            z.offset_at(p.days * 86_400 + p.secs)
        };
        assert_eq!(at("2025-03-30T00:59:00Z"), 60);
        assert_eq!(at("2025-03-30T01:00:00Z"), 120);
        assert_eq!(at("2025-10-26T00:59:00Z"), 120);
        assert_eq!(at("2025-10-26T01:00:00Z"), 60);
    }

    #[test]
    fn the_zone_from_the_page_its_language_or_its_domain() {
        let doc = |html: &str| Doc::parse_str(html);
        // Times stated with an offset elsewhere on the page.
        let d = doc(r#"<body><time datetime="2025-12-19T04:25:38+0500">Yesterday</time></body>"#);
        assert_eq!(page_zone(&d, Some("en-US"), None), Some(Zone::Fixed(300)));
        // Two offsets an hour apart: European summer time.
        let d = doc(
            r#"<head><meta property="article:published_time" content="2022-02-03T21:17:12+01:00">
            <meta property="article:modified_time" content="2022-07-03T21:17:12+02:00"></head>"#,
        );
        assert_eq!(page_zone(&d, None, None), Some(Zone::European(60)));
        // Offsets that disagree settle nothing: the language does.
        let d = doc(
            r#"<body><time datetime="2025-01-01T10:00:00+05:00"></time><time datetime="2025-01-01T10:00:00-03:00"></time></body>"#,
        );
        assert_eq!(page_zone(&d, Some("de"), None), Some(Zone::European(60)));
        let plain = doc("<body><p>No times</p></body>");
        assert_eq!(
            page_zone(&plain, Some("de"), None),
            Some(Zone::European(60))
        );
        assert_eq!(
            page_zone(&plain, Some("de-CH"), None),
            Some(Zone::European(60))
        );
        assert_eq!(page_zone(&plain, Some("fr-CA"), None), None);
        assert_eq!(page_zone(&plain, Some("es"), None), None);
        assert_eq!(page_zone(&plain, Some("en-US"), None), None);
        assert_eq!(page_zone(&plain, Some("ja"), None), Some(Zone::Fixed(540)));
        // Plain English: the country domain says.
        assert_eq!(
            page_zone(&plain, Some("en"), Some("https://news.example.co.uk/a")),
            Some(Zone::European(0))
        );
        assert_eq!(
            page_zone(&plain, Some("en"), Some("https://news.example.com/a")),
            None
        );
        // A language other than English with its country wins over the domain.
        assert_eq!(
            page_zone(&plain, Some("de"), Some("https://example.jp/")),
            Some(Zone::European(60))
        );
    }
}
