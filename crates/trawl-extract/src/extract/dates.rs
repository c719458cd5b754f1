//! Dates a reader sees: the publish or update date a page shows at its
//! head (under the headline, in the byline, "Last updated: Dec 12, 2025"),
//! read from the visible text in the common written forms of the languages
//! we meet, and dates in URLs (`/2025/09/04/`). Metadata (JSON-LD, `<meta>`)
//! says what a page's software recorded, which is often the first
//! publication while the page shows a later update; readers, and the
//! datasets built from what they see, go by the page. As htmldate does, a
//! date is only taken from a bounded part of the page and within a
//! plausible range of years.

use std::sync::OnceLock;

use regex::Regex;

use crate::extract::relative_dates as relative;
use crate::html::{Doc, NodeId, Tag};

/// A calendar day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Day {
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
    pub fn from_days(days: i64) -> Option<Day> {
        let (year, month, day) = civil_from_days(days);
        Day::new(u32::try_from(year).ok()?, month, day)
    }

    /// `YYYY-MM-DD`.
    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
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

/// Month names (lower case) in the languages of the pages we meet; a word
/// matches a month when it is a name or the first three or more letters of
/// one ("Sept.", "Dez", "févr").
const MONTHS: [&[&str]; 12] = [
    &[
        "january", "januar", "janvier", "enero", "gennaio", "janeiro", "januari", "jänner",
    ],
    &[
        "february",
        "februar",
        "février",
        "febrero",
        "febbraio",
        "fevereiro",
        "februari",
    ],
    &["march", "märz", "mars", "marzo", "março", "maart", "maerz"],
    &["april", "avril", "abril", "aprile"],
    &["may", "mai", "mayo", "maggio", "maio", "mei", "maj"],
    &["june", "juni", "juin", "junio", "giugno", "junho"],
    &["july", "juli", "juillet", "julio", "luglio", "julho"],
    &["august", "août", "agosto", "augustus", "augusti"],
    &[
        "september",
        "septembre",
        "septiembre",
        "setiembre",
        "settembre",
        "setembro",
    ],
    &[
        "october", "oktober", "octobre", "octubre", "ottobre", "outubro",
    ],
    &["november", "novembre", "noviembre", "novembro"],
    &[
        "december",
        "dezember",
        "décembre",
        "diciembre",
        "dicembre",
        "dezembro",
    ],
];

/// The month a word names (1-12).
fn month_of(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_lowercase();
    if w.chars().count() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|names| names.iter().any(|n| n.starts_with(&w)))
        .map(|i| i as u32 + 1)
}

/// How a written date is ordered when its numbers alone do not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// 09/05/2025 is September 5 (American English).
    MonthFirst,
    /// 09/05/2025 is 9 May (most of the world).
    DayFirst,
}

impl Order {
    /// The order of the page's language (`en-US`, `en`: month first).
    pub fn of_lang(lang: Option<&str>) -> Order {
        match lang.map(str::to_ascii_lowercase) {
            Some(l) if l == "en" || l.starts_with("en-us") || l.starts_with("en_us") => {
                Order::MonthFirst
            }
            None => Order::MonthFirst,
            _ => Order::DayFirst,
        }
    }

    /// Whether the language leaves the order open: plain `en` (British,
    /// Indian, Australian sites say so too) or none.
    pub fn lang_is_vague(lang: Option<&str>) -> bool {
        lang.is_none_or(|l| l.trim().eq_ignore_ascii_case("en"))
    }

    /// The order the page's own dates show, for a page whose language
    /// leaves it open: "16 February 2026" and 25/12/2025 vote day first,
    /// "February 16, 2026" and 12/25/2025 month first (the first
    /// [`EVIDENCE`] characters of its text; none or a tie: `None`).
    pub fn of_page(doc: &Doc) -> Option<Order> {
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

fn patterns() -> &'static [Regex; 5] {
    static P: OnceLock<[Regex; 5]> = OnceLock::new();
    P.get_or_init(|| {
        let month = r"(\p{L}{3,}\.?)";
        // ASCII word boundaries and digits: a Unicode `\b` keeps the
        // regex engine off its fast path on pages that are not ASCII.
        let re = |s: &str| Regex::new(s).unwrap_or_else(|e| unreachable!("date pattern: {e}"));
        [
            // 2025-09-04, 2025/09/04, 2025.09.04
            // (a time may follow: 2025-09-04T10:00)
            re(r"(?-u:\b)([0-9]{4})([-/.])([0-9]{1,2})([-/.])([0-9]{1,2})(?:[^0-9]|$)"),
            // 04.09.2025, 09/04/2025, 4-9-2025
            re(r"(?-u:\b)([0-9]{1,2})([./-]) ?([0-9]{1,2})([./-]) ?([0-9]{4})(?-u:\b)"),
            // 4 September 2025, 4. September 2025, 4th Sept. 2025, 4 de septiembre de 2025
            re(&format!(
                r"(?i)(?-u:\b)([0-9]{{1,2}})(?:st|nd|rd|th|er)?\.?\s+(?:de\s+)?{month},?\s+(?:de\s+)?([0-9]{{4}})(?-u:\b)"
            )),
            // September 4, 2025, Sept. 4th 2025
            re(&format!(
                r"(?i){month}\s+([0-9]{{1,2}})(?:st|nd|rd|th)?,?\s+([0-9]{{4}})(?-u:\b)"
            )),
            // 2025年9月4日, 2025년 9월 4일
            re(r"([0-9]{4})\s*[年년]\s*([0-9]{1,2})\s*[月월]\s*([0-9]{1,2})\s*[日일]?"),
        ]
    })
}

/// A date found in a text, with its byte range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub day: Day,
    pub start: usize,
    pub end: usize,
    /// Read by the [`Order`] given (09/05/2025): another order reads
    /// another day.
    pub ambiguous: bool,
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
pub fn find(text: &str, order: Order) -> Vec<Found> {
    // Every form has a four-digit year: most texts have none.
    let mut run = 0;
    let year = text.bytes().any(|b| {
        run = if b.is_ascii_digit() { run + 1 } else { 0 };
        run == 4
    });
    if !year {
        return Vec::new();
    }
    let p = patterns();
    let num = |s: &str| s.parse::<u32>().unwrap_or(0);
    let mut out: Vec<Found> = Vec::new();
    let mut push = |day: Option<Day>, start: usize, end: usize, ambiguous: bool| {
        if let Some(day) = day {
            out.push(Found {
                day,
                start,
                end,
                ambiguous,
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
                false,
            );
        }
    }
    for c in p[1].captures_iter(text) {
        if c[2] != c[4] {
            continue;
        }
        let (a, b, y) = (num(&c[1]), num(&c[3]), num(&c[5]));
        let month_first = match (a > 12, b > 12) {
            (true, _) => false,
            (_, true) => true,
            // Dots and dashes are day-first everywhere.
            _ => &c[2] == "/" && order == Order::MonthFirst,
        };
        let day = if month_first {
            Day::new(y, a, b)
        } else {
            Day::new(y, b, a)
        };
        let m = c.get(0).map_or(0..0, |m| m.range());
        let ambiguous = &c[2] == "/" && a <= 12 && b <= 12 && a != b;
        push(day, m.start, m.end, ambiguous);
    }
    // Month names: (pattern, day's group, month's group); the year is group 3.
    for (re, d, mo) in [(&p[2], 1, 2), (&p[3], 2, 1)] {
        for c in re.captures_iter(text) {
            let m = c.get(0).map_or(0..0, |m| m.range());
            let day = month_of(&c[mo]).and_then(|month| Day::new(num(&c[3]), month, num(&c[d])));
            push(day, m.start, m.end, false);
        }
    }
    for c in p[4].captures_iter(text) {
        let m = c.get(0).map_or(0..0, |m| m.range());
        push(
            Day::new(num(&c[1]), num(&c[2]), num(&c[3])),
            m.start,
            m.end,
            false,
        );
    }
    out.sort_by_key(|f| (f.start, std::cmp::Reverse(f.end)));
    let mut kept: Vec<Found> = Vec::with_capacity(out.len());
    for f in out {
        if kept.last().is_none_or(|k| f.start >= k.end) {
            kept.push(f);
        }
    }
    kept
}

/// The date in a URL's path: `/2025/09/04/`, `/2025-09-04-title`,
/// `/20250904/` (not a year and month alone: that names an archive).
pub fn in_url(url: &str) -> Option<Day> {
    static P: OnceLock<Regex> = OnceLock::new();
    let p = P.get_or_init(|| {
        Regex::new(r"/((?:19|20)\d{2})[/_-]?([01]\d)[/_-]?([0-3]\d)(?:[/_.-]|$)")
            .unwrap_or_else(|e| unreachable!("url date pattern: {e}"))
    });
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let c = p.captures(path)?;
    let n = |i: usize| c[i].parse::<u32>().unwrap_or(0);
    Day::new(n(1), n(2), n(3))
}

/// What a shown date is, by the words just before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// "Updated", "Last modified", "Aktualisiert", "edited", …
    Updated,
    /// Any other label ("Published", "Posted on", "asked", a byline) or none.
    Published,
}

/// A date a page shows, what its label says it is, and whether it sits in
/// one of a run of like items (a teaser list, a news ticker, a thread's
/// posts): there it is an item's date, the page's only on a forum thread,
/// whose first post is the thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShownDate {
    pub day: Day,
    pub kind: Shown,
    pub listed: bool,
    /// Written so that another day-month order reads another day.
    pub ambiguous: bool,
}

/// Words that say a date is an update, in the languages we meet.
const UPDATED: &[&str] = &[
    "updated",
    "update",
    "modified",
    "revised",
    "current as of",
    "aktualisiert",
    "geändert",
    "mis à jour",
    "mise à jour",
    "modifié",
    "actualizado",
    "actualización",
    "atualizado",
    "aggiornato",
    "bijgewerkt",
    "edited",
    "更新",
];

/// Words that say a date is not the page's: a member's join date beside a
/// post, a last visit, a copyright year's line.
const NOT_THE_PAGES: &[&str] = &[
    "joined",
    "member since",
    "registered",
    "last seen",
    "last visit",
    "last active",
    "mitglied seit",
    "registriert",
    "dabei seit",
    "inscrit",
    "miembro desde",
    "registrado",
    "iscritto",
    "lid sinds",
    "注册时间",
    "注册于",
    "加入时间",
];

/// Class, id or itemprop words of an element that holds a date.
fn date_box(doc: &Doc, id: NodeId) -> bool {
    if matches!(doc.tag(id), Tag::Time) {
        return true;
    }
    let words = |s: &str| {
        let s = s.to_ascii_lowercase();
        [
            "date", "time", "publish", "posted", "updated", "byline", "meta", "dateline",
        ]
        .iter()
        .any(|w| s.contains(w))
    };
    let (class, idv) = doc.class_id(id);
    class.is_some_and(words)
        || idv.is_some_and(words)
        || doc.attr(id, "itemprop").is_some_and(words)
}

/// Text characters read before the headline and after it for a shown date.
const BEFORE_HEADLINE: usize = 400;
const AFTER_HEADLINE: usize = 1_200;
/// Without a headline, the first characters of the page's text.
const NO_HEADLINE: usize = 1_500;

/// The dates shown at the head of the page, in order: the text around the
/// first `<h1>` (or the page's first text when it has none), where a date
/// is taken when an element around it is a date's (a `<time>`, a class or
/// itemprop naming a date, a byline or meta line) or its block is little
/// more than the date. `order` reads 09/05/2025.
pub fn shown(doc: &Doc, order: Order, fetched_at: Option<i64>) -> Vec<ShownDate> {
    let body = doc.body();
    let end = doc.end(body);
    let h1 = (body..end).find(|&id| doc.tag(id) == Tag::H1 && doc.is_element(id));
    // Start a little before the headline: walk back over text nodes.
    let mut first = body;
    if let Some(h) = h1 {
        let mut before = 0;
        let mut id = h;
        while id > body && before < BEFORE_HEADLINE {
            id -= 1;
            if !doc.is_element(id) {
                before += doc.text(id).len();
            }
        }
        first = id;
    }
    // The text nodes of the zone, and where the headline starts in it.
    let mut headline = None;
    let (text, at) = texts(doc, first, end, |len, id| {
        if Some(id) == h1 {
            headline = Some(len);
        }
        len <= match headline {
            Some(h) => h + AFTER_HEADLINE,
            None if h1.is_none() => NO_HEADLINE,
            None => usize::MAX,
        }
    });
    let (from, to) = match headline {
        Some(h) => (h.saturating_sub(BEFORE_HEADLINE), h + AFTER_HEADLINE),
        None => (0, NO_HEADLINE),
    };
    scan(doc, &text, &at, (from, to), order, false, fetched_at)
}

/// Text characters read for a date anywhere.
const ANYWHERE: usize = 100_000;

/// Words that say a date is the page's publication.
const PUBLISHED: &[&str] = &[
    "published",
    "posted",
    "veröffentlicht",
    "publié",
    "publicado",
    "pubblicato",
    "gepubliceerd",
    "发布",
    "发表",
];

/// The first date a page shows anywhere in its first [`ANYWHERE`]
/// characters, in a date's element or a line of its own as at its head, or
/// after a label ("Last updated: …" in a footer, "Published …" in an author
/// box under the story): for pages that show none at their head and record
/// none.
pub fn anywhere(doc: &Doc, order: Order, fetched_at: Option<i64>) -> Option<ShownDate> {
    let body = doc.body();
    let (text, at) = texts(doc, body, doc.end(body), |len, _| len <= ANYWHERE);
    scan(doc, &text, &at, (0, text.len()), order, true, fetched_at)
        .into_iter()
        .next()
}

/// The text nodes of `first..end` joined with spaces, and where each starts
/// in the result; `more(length so far, node)` is asked at every node and
/// ends the text when it says no.
fn texts(
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

/// The dates of `text[from..to]` (the text of the nodes in `at`) a page
/// shows as its own: see [`taken`]; with `labelled`, also one after a
/// publication or update label.
fn scan(
    doc: &Doc,
    text: &str,
    at: &[(usize, NodeId)],
    (from, to): (usize, usize),
    order: Order,
    labelled: bool,
    fetched_at: Option<i64>,
) -> Vec<ShownDate> {
    let from = floor_char(text, from);
    let to = floor_char(text, to.min(text.len()));
    let mut found = find(&text[from..to], order);
    if let Some(now) = fetched_at {
        found.extend(relative::find(&text[from..to], now).into_iter().filter_map(
            |(days, range)| {
                Some(Found {
                    day: Day::from_days(days)?,
                    start: range.start,
                    end: range.end,
                    ambiguous: false,
                })
            },
        ));
        found.sort_by_key(|f| f.start);
    }
    let mut out = Vec::new();
    for f in found {
        let start = from + f.start;
        let node = match at.binary_search_by_key(&start, |(o, _)| *o) {
            Ok(i) => at[i].1,
            Err(0) => continue,
            Err(i) => at[i - 1].1,
        };
        let before = text[floor_char(text, start.saturating_sub(40))..start].to_lowercase();
        if not_the_pages(&before) {
            continue;
        }
        let label = nearest_label(&before);
        // Far from the headline only a date's element, a line that is the
        // date or a label says a date is the page's.
        let own = taken(doc, node, f.end - f.start, !labelled) || (labelled && label.is_some());
        if !own {
            continue;
        }
        let kind = if label == Some(Label::Updated) {
            Shown::Updated
        } else {
            Shown::Published
        };
        out.push(ShownDate {
            day: f.day,
            kind,
            listed: listed(doc, node, f.end - f.start, order),
            ambiguous: f.ambiguous,
        });
    }
    out
}

/// What the words before a date say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    Updated,
    Published,
}

/// Characters between a label of [`NOT_THE_PAGES`] and its date ("Joined:
/// Mon ", "Member since "): further on, the label is another line's.
const NOT_THE_PAGES_GAP: usize = 8;

/// Whether `before` (lower case) ends with a label of [`NOT_THE_PAGES`].
fn not_the_pages(before: &str) -> bool {
    NOT_THE_PAGES.iter().any(|w| {
        before
            .rfind(w)
            .is_some_and(|at| before.len() - (at + w.len()) <= NOT_THE_PAGES_GAP)
    })
}

/// The label nearest the end of `before` (lower case): "Posted May 1,
/// updated May 5" makes the second an update.
fn nearest_label(before: &str) -> Option<Label> {
    [(UPDATED, Label::Updated), (PUBLISHED, Label::Published)]
        .iter()
        .flat_map(|(words, label)| {
            words
                .iter()
                .filter_map(|w| before.rfind(w).map(|at| (at + w.len(), *label)))
        })
        .max_by_key(|(end, _)| *end)
        .map(|(_, label)| label)
}

/// Levels above a date's text searched for an item of a run.
const ITEM_LEVELS: usize = 10;

/// Characters besides the date that make an element an item (a headline,
/// a teaser), not a line of a byline's list ("By …", "May 5, 2025", "5 min").
const ITEM_MORE: usize = 12;

/// Whether a date (`len` bytes) in text node `node` is inside one of at
/// least three like siblings (same element, same first class) that each
/// show a date, and holds more than the date: an item of a list, a ticker
/// or a grid, not a byline's line (not a table's row or cell either: old
/// pages lay themselves out in tables).
fn listed(doc: &Doc, node: NodeId, len: usize, order: Order) -> bool {
    let body = doc.body();
    let mut id = doc.nodes[node as usize].parent;
    for _ in 0..ITEM_LEVELS {
        if id == u32::MAX || id <= body {
            return false;
        }
        let parent = doc.nodes[id as usize].parent;
        if parent == u32::MAX {
            return false;
        }
        let kind = |n: NodeId| {
            let class = doc.class_id(n).0.unwrap_or("");
            (doc.nodes[n as usize].name, class.split_whitespace().next())
        };
        // Rows and cells of a table are most often a layout's.
        if matches!(
            doc.tag(id),
            Tag::Tr | Tag::Td | Tag::Th | Tag::Tbody | Tag::Thead | Tag::Table
        ) {
            id = parent;
            continue;
        }
        let me = kind(id);
        let dated = doc
            .children(parent)
            .filter(|&c| doc.is_element(c) && kind(c) == me && shows_a_date(doc, c, order))
            .take(3)
            .count();
        if dated >= 3 && doc.agg[id as usize].chars as usize >= len + ITEM_MORE {
            return true;
        }
        id = parent;
    }
    false
}

/// Text read from an item for a date of its own.
const ITEM_TEXT: usize = 400;

/// Whether the first [`ITEM_TEXT`] bytes of element `id`'s text hold a date.
fn shows_a_date(doc: &Doc, id: NodeId, order: Order) -> bool {
    let mut text = String::new();
    for n in id..doc.end(id) {
        if text.len() >= ITEM_TEXT {
            break;
        }
        if !doc.is_element(n) {
            text.push_str(doc.text(n));
            text.push(' ');
        }
    }
    !find(&text, order).is_empty()
}

/// Whether a date in text node `node` is a date line's: an element within
/// a few levels above it holds a date by its name, or the text node (or,
/// with `block`, the element around it) is mostly the date (`len` bytes).
fn taken(doc: &Doc, node: NodeId, len: usize, block: bool) -> bool {
    let mut id = doc.nodes[node as usize].parent;
    for _ in 0..4 {
        if id == u32::MAX {
            break;
        }
        if date_box(doc, id) {
            return true;
        }
        id = doc.nodes[id as usize].parent;
    }
    // The text node, or the element around it, is little more than the date.
    let parent = doc.nodes[node as usize].parent;
    doc.text(node).trim().len() <= len + 12
        || (block && parent != u32::MAX && (doc.agg[parent as usize].chars as usize) <= len + 40)
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
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
        // Not dates: an impossible day, a year out of range, a price.
        assert!(days("February 30, 2024", en).is_empty());
        assert!(days("March 3, 1850", en).is_empty());
        assert!(days("Price 12.50 for 3 items", en).is_empty());
    }

    #[test]
    fn a_labelled_date_far_from_the_headline() {
        let story =
            "<p>The story itself, long enough to be a paragraph of the article and more.</p>"
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
            anywhere(&doc, Order::MonthFirst, None).map(|s| (s.day.iso(), s.kind)),
            Some(("2025-11-13".to_string(), Shown::Updated))
        );
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
        assert_eq!(d("https://a.test/2025/09/archive"), None);
        assert_eq!(d("https://a.test/item/12345678"), None);
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
        let story =
            "<p>The story itself, long enough to be a paragraph of the article and more.</p>";
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
}
