//! Dates as people write them: "4 September 2025", "September 4, 2025",
//! 04.09.2025, 09/04/2025 (day or month first, by the page's language or
//! its other dates), 31.10.23, 2025年9月4日, and dates in URLs
//! (`/2025/09/04/`), within a plausible range of years. Which of a page's
//! dates is its own is `dates`' business; this module only reads them.

use std::sync::OnceLock;

use regex::Regex;

use crate::extract::month_names::{month_of, MONTH_LETTER};
use crate::html::{Doc, NodeId};

/// A calendar day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Day {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl Day {
    fn new(year: u32, month: u32, day: u32) -> Option<Day> {
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
            2 => 28,
            _ => return None,
        };
        ((FIRST_YEAR..=last_year()).contains(&year) && (1..=days).contains(&day)).then_some(Day {
            year: year as u16,
            month: month as u8,
            day: day as u8,
        })
    }

    /// The day `days` days after 1970-01-01 (proleptic Gregorian).
    pub(crate) fn from_days(days: i64) -> Option<Day> {
        let (year, month, day) = civil_from_days(days);
        Day::new(u32::try_from(year).ok()?, month, day)
    }

    /// `YYYY-MM-DD`.
    pub(crate) fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// The day read in the other day-month order (`None` when that is no
    /// day: 25/01 has no 25th month).
    pub(crate) fn swapped(self) -> Option<Day> {
        Day::new(
            u32::from(self.year),
            u32::from(self.day),
            u32::from(self.month),
        )
    }
}

/// The last day a page fetched at `fetched_at` (seconds since the epoch;
/// `None`: now) can give as its own: the fetch's day and the next (a
/// page's local day runs ahead of UTC east of it).
pub(crate) fn latest_day(fetched_at: Option<i64>) -> Day {
    let secs = fetched_at.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    });
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400) + 1);
    Day {
        year: u16::try_from(y).unwrap_or(u16::MAX),
        month: m as u8,
        day: d as u8,
    }
}

/// No page dates itself before the web.
const FIRST_YEAR: u32 = 1993;

/// Next year at the latest (a page may be dated a little ahead of a
/// clock; further is a typo or an event's date).
fn last_year() -> u32 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    1970 + (secs / 31_556_952) as u32 + 1
}

/// How a written date is ordered when its numbers alone do not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// 09/05/2025 is September 5 (American English).
    MonthFirst,
    /// 09/05/2025 is 9 May (most of the world).
    DayFirst,
    /// Day first, on a Croatian page: its month names differ in one word
    /// from its neighbours' (`listopad` is October, not November).
    DayFirstCroatian,
}

impl Order {
    /// The other order.
    pub(crate) fn flipped(self) -> Order {
        match self {
            Order::MonthFirst => Order::DayFirst,
            Order::DayFirst | Order::DayFirstCroatian => Order::MonthFirst,
        }
    }

    /// The order of the page's language (`en-US`, `en`: month first).
    pub(crate) fn of_lang(lang: Option<&str>) -> Order {
        match lang.map(str::to_ascii_lowercase) {
            Some(l) if l == "en" || l.starts_with("en-us") || l.starts_with("en_us") => {
                Order::MonthFirst
            }
            None => Order::MonthFirst,
            Some(l) if l == "hr" || l.starts_with("hr-") || l.starts_with("hr_") => {
                Order::DayFirstCroatian
            }
            _ => Order::DayFirst,
        }
    }

    /// Whether the language leaves the order open: plain `en` (British,
    /// Indian, Australian sites say so too) or none.
    pub(crate) fn lang_is_vague(lang: Option<&str>) -> bool {
        lang.is_none_or(|l| l.trim().eq_ignore_ascii_case("en"))
    }

    /// The order of the country a URL's host names by its top-level
    /// domain (`.uk`, `.au`, `.de`: day first; `.us`, `.ph`: month first),
    /// for a page whose language leaves the order open; `None` for generic
    /// domains (`.com`, `.org`, `.io`, …) and Canada's, which writes both.
    pub(crate) fn of_tld(url: &str) -> Option<Order> {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let host = rest.split(['/', '?', '#', ':']).next()?;
        let tld = host.rsplit('.').next()?.to_ascii_lowercase();
        match tld.as_str() {
            "us" | "ph" => Some(Order::MonthFirst),
            "hr" => Some(Order::DayFirstCroatian),
            // Country codes sold as generic names, and Canada's.
            "ca" | "io" | "co" | "tv" | "me" | "ai" | "fm" | "ly" | "to" | "cc" | "ws" => None,
            t if t.len() == 2 && t.bytes().all(|b| b.is_ascii_lowercase()) => Some(Order::DayFirst),
            _ => None,
        }
    }

    /// The order the page's own dates show, for a page whose language
    /// leaves it open: "16 February 2026" and 25/12/2025 vote day first,
    /// "February 16, 2026" and 12/25/2025 month first (the first
    /// [`EVIDENCE`] characters of its text; none or a tie: `None`).
    pub(crate) fn of_page(doc: &Doc) -> Option<Order> {
        let body = doc.body();
        let (text, _) = texts(doc, body, doc.end(body), |len, _| len <= EVIDENCE);
        let p = patterns();
        let mut day_first = p[2].find_iter(&text).count() as i64;
        let mut month_first = p[3].find_iter(&text).count() as i64;
        for c in p[1].captures_iter(&text) {
            if &c[2] != "/" || c[2] != c[4] {
                continue;
            }
            let (a, b) = (
                c[1].parse::<u32>().unwrap_or(0),
                c[3].parse::<u32>().unwrap_or(0),
            );
            if a > 12 && b <= 12 {
                day_first += 1;
            } else if b > 12 && a <= 12 {
                month_first += 1;
            }
        }
        match day_first.cmp(&month_first) {
            std::cmp::Ordering::Greater => Some(Order::DayFirst),
            std::cmp::Ordering::Less => Some(Order::MonthFirst),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// Text characters read for the order a page writes its dates in.
const EVIDENCE: usize = 20_000;

fn patterns() -> &'static [Regex; 7] {
    static P: OnceLock<[Regex; 7]> = OnceLock::new();
    P.get_or_init(|| {
        let month = format!(r"({MONTH_LETTER}{{3,}}\.?)");
        // ASCII word boundaries and digits: a Unicode `\b` keeps the
        // regex engine off its fast path on pages that are not ASCII.
        let re = |s: &str| Regex::new(s).unwrap_or_else(|e| unreachable!("date pattern: {e}"));
        [
            // 2025-09-04, 2025/09/04, 2025.09.04, 2025. 9. 4. (Korean)
            // (a time may follow: 2025-09-04T10:00)
            re(r"(?-u:\b)([0-9]{4})([-/.]) ?([0-9]{1,2})([-/.]) ?([0-9]{1,2})(?:[^0-9]|$)"),
            // 04.09.2025, 09/04/2025, 4-9-2025
            re(r"(?-u:\b)([0-9]{1,2})([./-]) ?([0-9]{1,2})([./-]) ?([0-9]{4})(?-u:\b)"),
            // 4 September 2025, 4. September 2025, 4th Sept. 2025, 4 de septiembre de 2025,
            // 4 d'octubre de 2025
            re(&format!(
                r"(?i)(?-u:\b)([0-9]{{1,2}})(?:st|nd|rd|th|er)?\.?\s+(?:de\s+|d['’])?{month},?\s+(?:de\s+)?([0-9]{{4}})(?-u:\b)"
            )),
            // September 4, 2025, Sept. 4th 2025
            re(&format!(
                r"(?i){month}\s+([0-9]{{1,2}})(?:st|nd|rd|th)?,?\s+([0-9]{{4}})(?-u:\b)"
            )),
            // 2025年9月4日, 2025년 9월 4일
            re(r"([0-9]{4})\s*[年년]\s*([0-9]{1,2})\s*[月월]\s*([0-9]{1,2})\s*[日일]?"),
            // 2021. november 10., 2021. nov. 10. (Hungarian: the year first,
            // with its dot)
            re(&format!(r"(?-u:\b)([0-9]{{4}})\.\s+{month}\s+([0-9]{{1,2}})(?-u:\b)")),
            // 10 tháng 11 năm 2021, 10 tháng 11, 2021 (Vietnamese: day, month's number)
            re(r"(?i)(?-u:\b)([0-9]{1,2})\s+tháng\s+([0-9]{1,2}),?\s+(?:năm\s+)?([0-9]{4})(?-u:\b)"),
        ]
    })
}

/// A date found in a text, with its byte range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Found {
    pub day: Day,
    pub start: usize,
    pub end: usize,
    /// Read by the [`Order`] given (09/05/2025): another order reads
    /// this day.
    pub other: Option<Day>,
}

/// The (year, month, day) `days` days after 1970-01-01, proleptic
/// Gregorian (Howard Hinnant's `civil_from_days`): the one calendar sum the
/// extractor and the crawl's timestamps share.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month as u32, day as u32)
}

/// Every date written in `text`, in order (overlaps resolved for the one
/// starting first).
pub(crate) fn find(text: &str, order: Order) -> Vec<Found> {
    // Every form but the numeric one with a two-digit year has a
    // four-digit year: most texts have neither.
    let mut run = 0;
    let year = text.bytes().any(|b| {
        run = if b.is_ascii_digit() { run + 1 } else { 0 };
        run == 4
    });
    let mut out: Vec<Found> = Vec::new();
    short_years(text, order, &mut out);
    if !year {
        return resolve(out);
    }
    let p = patterns();
    let croatian = order == Order::DayFirstCroatian;
    let num = |s: &str| s.parse::<u32>().unwrap_or(0);
    let mut push = |day: Option<Day>, start: usize, end: usize, other: Option<Day>| {
        if let Some(day) = day {
            out.push(Found {
                day,
                start,
                end,
                other,
            });
        }
    };
    for c in p[0].captures_iter(text) {
        if c[2] == c[4] {
            let start = c.get(0).map_or(0, |m| m.start());
            let end = c.get(5).map_or(start, |m| m.end());
            push(
                Day::new(num(&c[1]), num(&c[3]), num(&c[5])),
                start,
                end,
                None,
            );
        }
    }
    for c in p[1].captures_iter(text) {
        if c[2] != c[4] {
            continue;
        }
        let (a, b, y) = (num(&c[1]), num(&c[3]), num(&c[5]));
        let (day, other) = numeric(a, b, y, &c[2], order);
        let m = c.get(0).map_or(0..0, |m| m.range());
        push(day, m.start, m.end, other);
    }
    // (pattern, year's group, month's group, day's group, month as a name)
    for (re, y, mo, d, named) in [
        (&p[2], 3, 2, 1, true),
        (&p[3], 3, 1, 2, true),
        (&p[5], 1, 2, 3, true),
        (&p[6], 3, 2, 1, false),
        (&p[4], 1, 2, 3, false),
    ] {
        for c in re.captures_iter(text) {
            let m = c.get(0).map_or(0..0, |m| m.range());
            let month = if named {
                month_of(&c[mo], croatian)
            } else {
                Some(num(&c[mo]))
            };
            let day = month.and_then(|month| Day::new(num(&c[y]), month, num(&c[d])));
            push(day, m.start, m.end, None);
        }
    }
    resolve(out)
}

/// Overlapping dates resolved for the one starting first (the longest
/// when two start together), in text order.
fn resolve(mut out: Vec<Found>) -> Vec<Found> {
    out.sort_by_key(|f| (f.start, std::cmp::Reverse(f.end)));
    let mut kept: Vec<Found> = Vec::with_capacity(out.len());
    for f in out {
        if kept.last().is_none_or(|k| f.start >= k.end) {
            kept.push(f);
        }
    }
    kept
}

/// The day of a numeric date `a sep b sep year` and, when the order read
/// it (09/05/2025), the day the other order reads. Dots and dashes are
/// day-first everywhere; a slash goes by `order` unless a number over 12
/// says.
fn numeric(a: u32, b: u32, y: u32, sep: &str, order: Order) -> (Option<Day>, Option<Day>) {
    let month_first = match (a > 12, b > 12) {
        (true, _) => false,
        (_, true) => true,
        _ => sep == "/" && order == Order::MonthFirst,
    };
    let (day, other) = if month_first {
        (Day::new(y, a, b), Day::new(y, b, a))
    } else {
        (Day::new(y, b, a), Day::new(y, a, b))
    };
    let ambiguous = sep == "/" && a <= 12 && b <= 12 && a != b;
    (day, other.filter(|_| ambiguous))
}

/// The year of a two-digit one: this century's up to next year, else the
/// last century's (`26` → 2026, `98` → 1998).
fn full_year(yy: u32) -> u32 {
    if 2000 + yy <= last_year() {
        2000 + yy
    } else {
        1900 + yy
    }
}

/// Numeric dates with a two-digit year (`31.10.23`, `01/25/26`), into
/// `out`: the numbers must stand alone (not part of a version, an address
/// or a longer run of numbers: `1.10.11.15`, `10.0.0.1`).
fn short_years(text: &str, order: Order, out: &mut Vec<Found>) {
    static P: OnceLock<Regex> = OnceLock::new();
    if !text.contains(['.', '/']) {
        return;
    }
    let p = P.get_or_init(|| {
        Regex::new(r"(?-u:\b)([0-9]{1,2})([./])([0-9]{1,2})([./])([0-9]{2})(?-u:\b)")
            .unwrap_or_else(|e| unreachable!("short date pattern: {e}"))
    });
    let bytes = text.as_bytes();
    let num = |s: &str| s.parse::<u32>().unwrap_or(0);
    for c in p.captures_iter(text) {
        let Some(m) = c.get(0) else { continue };
        let joined = |i: Option<&u8>, j: Option<&u8>| {
            matches!(i, Some(b'.' | b'/' | b'-' | b',')) && j.is_some_and(u8::is_ascii_digit)
        };
        let before = m.start().checked_sub(1).and_then(|i| bytes.get(i));
        let before2 = m.start().checked_sub(2).and_then(|i| bytes.get(i));
        if c[2] != c[4]
            || joined(bytes.get(m.end()), bytes.get(m.end() + 1))
            || joined(before, before2)
        {
            continue;
        }
        let (day, other) = numeric(num(&c[1]), num(&c[3]), full_year(num(&c[5])), &c[2], order);
        if let Some(day) = day {
            out.push(Found {
                day,
                start: m.start(),
                end: m.end(),
                other,
            });
        }
    }
}

/// The date in a URL's path: `/2025/09/04/`, `/2025-09-04-title`,
/// `/20250904/`, `/2017/7/12/` (whole segments of one or two digits), and
/// a segment opening with the day first (`/29-10-2021`,
/// read month first only when its numbers say so: `/10-29-2021`); not a
/// year and month alone: that names an archive.
pub(crate) fn in_url(url: &str) -> Option<Day> {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let p = P.get_or_init(|| {
        let re = |s: &str| Regex::new(s).unwrap_or_else(|e| unreachable!("url date pattern: {e}"));
        [
            re(r"/((?:19|20)[0-9]{2})[/_-]?([01][0-9])[/_-]?([0-3][0-9])(?:[/_.-]|$)"),
            re(r"/((?:19|20)[0-9]{2})/([0-9]{1,2})/([0-9]{1,2})(?:/|$)"),
            re(r"/([0-3][0-9])[_.-]([0-3][0-9])[_.-]((?:19|20)[0-9]{2})(?:[/_.-]|$)"),
        ]
    });
    let path = url.split(['?', '#']).next().unwrap_or(url);
    for year_first in &p[..2] {
        if let Some(c) = year_first.captures(path) {
            let n = |i: usize| c[i].parse::<u32>().unwrap_or(0);
            return Day::new(n(1), n(2), n(3));
        }
    }
    let c = p[2].captures(path)?;
    let n = |i: usize| c[i].parse::<u32>().unwrap_or(0);
    Day::new(n(3), n(2), n(1)).or_else(|| Day::new(n(3), n(1), n(2)))
}

/// The text nodes of `first..end` joined with spaces, and where each starts
/// in the result; `more(length so far, node)` is asked at every node and
/// ends the text when it says no.
pub(crate) fn texts(
    doc: &Doc,
    first: NodeId,
    end: NodeId,
    mut more: impl FnMut(usize, NodeId) -> bool,
) -> (String, Vec<(usize, NodeId)>) {
    let mut text = String::new();
    let mut at = Vec::new();
    for id in first..end {
        if !more(text.len(), id) {
            break;
        }
        if doc.is_element(id) {
            continue;
        }
        let t = doc.text(id);
        if t.trim().is_empty() {
            continue;
        }
        at.push((text.len(), id));
        text.push_str(t);
        text.push(' ');
    }
    (text, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(text: &str, order: Order) -> Vec<String> {
        find(text, order).into_iter().map(|f| f.day.iso()).collect()
    }

    #[test]
    fn written_dates_in_many_forms_and_languages() {
        let en = Order::MonthFirst;
        assert_eq!(days("Last updated: Dec 12, 2025", en), ["2025-12-12"]);
        assert_eq!(days("Updated on July 9, 2025", en), ["2025-07-09"]);
        assert_eq!(
            days("August 16, 2019 - Updated July 9, 2025", en),
            ["2019-08-16", "2025-07-09"]
        );
        assert_eq!(days("Page updated: 12 November 2025", en), ["2025-11-12"]);
        assert_eq!(days("Sept. 4th, 2025", en), ["2025-09-04"]);
        assert_eq!(days("09/25/2025", en), ["2025-09-25"]);
        assert_eq!(days("09/05/2025", en), ["2025-09-05"]);
        assert_eq!(days("09/05/2025", Order::DayFirst), ["2025-05-09"]);
        let de = Order::DayFirst;
        assert_eq!(days("Stand: 4. Juni 2019, 17:37", de), ["2019-06-04"]);
        assert_eq!(days("06.08.2020", de), ["2020-08-06"]);
        assert_eq!(days("Publié le 3 févr. 2024", de), ["2024-02-03"]);
        assert_eq!(days("12 de diciembre de 2025", de), ["2025-12-12"]);
        assert_eq!(days("Aggiornato il 5 maggio 2023", de), ["2023-05-05"]);
        assert_eq!(days("发布时间：2022年3月15日 10:20", de), ["2022-03-15"]);
        assert_eq!(days("2025-09-04T10:00", de), ["2025-09-04"]);
        // Beyond Western Europe: the genitive a day takes, the year first.
        assert_eq!(days("15 августа 2016, 13:43", de), ["2016-08-15"]);
        assert_eq!(days("10 listopada 2021 r.", de), ["2021-11-10"]);
        assert_eq!(days("10. listopadu 2021", de), ["2021-11-10"]);
        assert_eq!(
            days("10. listopada 2021.", Order::DayFirstCroatian),
            ["2021-10-10"]
        );
        assert_eq!(days("10. marraskuuta 2021", de), ["2021-11-10"]);
        assert_eq!(days("10 Kasım 2021", de), ["2021-11-10"]);
        assert_eq!(days("2021. november 10.", de), ["2021-11-10"]);
        assert_eq!(days("10 d'octubre de 2021", de), ["2021-10-10"]);
        assert_eq!(days("10 Νοεμβρίου 2021", de), ["2021-11-10"]);
        assert_eq!(days("10 Agustus 2021", de), ["2021-08-10"]);
        assert_eq!(days("2021. 11. 10. 오후 3:20", de), ["2021-11-10"]);
        assert_eq!(
            days("Thứ Tư, ngày 10 tháng 11 năm 2021", de),
            ["2021-11-10"]
        );
        assert_eq!(days("10 tháng 11, 2021", de), ["2021-11-10"]);
        // Not dates: an impossible day, a year out of range, a price.
        assert!(days("February 30, 2024", en).is_empty());
        assert!(days("March 3, 1850", en).is_empty());
        assert!(days("Price 12.50 for 3 items", en).is_empty());
    }

    #[test]
    fn dates_in_urls() {
        let d = |u: &str| in_url(u).map(Day::iso);
        assert_eq!(
            d("https://a.test/2025/09/04/top-trends/").as_deref(),
            Some("2025-09-04")
        );
        assert_eq!(
            d("https://a.test/news/2024-03-01-title").as_deref(),
            Some("2024-03-01")
        );
        assert_eq!(
            d("https://a.test/20231115/story.html").as_deref(),
            Some("2023-11-15")
        );
        assert_eq!(
            d("https://a.test/meldungen/29-10-2021").as_deref(),
            Some("2021-10-29")
        );
        assert_eq!(
            d("https://a.test/news/10-29-2021-title").as_deref(),
            Some("2021-10-29")
        );
        assert_eq!(d("https://a.test/p/45-10-2021"), None);
        assert_eq!(
            d("https://a.test/home/2017/7/12/unter-uns").as_deref(),
            Some("2017-07-12")
        );
        assert_eq!(d("https://a.test/2017/7/123/x"), None);
        assert_eq!(d("https://a.test/2025/09/archive"), None);
        assert_eq!(d("https://a.test/item/12345678"), None);
    }
}
