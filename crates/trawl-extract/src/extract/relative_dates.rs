//! Relative dates a page shows instead of a calendar date: "3 days ago",
//! "2 hours ago", "yesterday", "vor 2 Tagen", "il y a 3 jours", "hace 2
//! días", "3天前", "昨天". They are only dates against the time the page was
//! fetched (a crawl knows it; a saved page of unknown age does not), so
//! [`find`] takes that time. Months and years ago ("11 years, 9 months
//! ago") name no day and are left alone, as are "today" words, which stories
//! use in their sentences.

use std::sync::OnceLock;

use regex::Regex;

use std::ops::Range;

const MINUTE: i64 = 60;
const HOUR: i64 = 3_600;
const DAY: i64 = 86_400;

/// Seconds in a unit word ("days", "Stunden", "semaine", "小时").
fn unit_secs(word: &str) -> Option<i64> {
    // A unit's words, as they start (en, de, fr, es/pt, zh), and its length.
    const UNITS: [(&[&str], i64); 4] = [
        (&["min", "分钟"], MINUTE),
        (&["hour", "hr", "stunde", "heure", "hora", "小时"], HOUR),
        (&["day", "tag", "jour", "día", "dia", "天"], DAY),
        (&["week", "woche", "semaine", "semana", "周"], 7 * DAY),
    ];
    let w = word.to_lowercase();
    UNITS
        .iter()
        .find(|(starts, _)| starts.iter().any(|s| w.starts_with(s)))
        .map(|(_, secs)| *secs)
}

/// "a", "an", "one", "einem", "une", "una" are one.
fn count(word: &str) -> Option<i64> {
    match word.to_lowercase().as_str() {
        "a" | "an" | "one" | "einer" | "einem" | "un" | "une" | "una" => Some(1),
        n => n.parse().ok().filter(|&n: &i64| n <= 999),
    }
}

fn patterns() -> &'static [Regex; 3] {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    P.get_or_init(|| {
        let re = |s: &str| Regex::new(s).unwrap_or_else(|e| unreachable!("relative date: {e}"));
        let units = r"(min(?:ute)?s?|hours?|hrs?|days?|weeks?|Minuten?|Stunden?|Tage?n?|Wochen?|minutes?|heures?|jours?|semaines?|minutos?|horas?|d[íi]as?|semanas?)";
        [
            // 3 days ago, an hour ago; vor 2 Tagen; il y a 3 jours; hace 2 días
            re(&format!(
                r"(?i)(?-u:\b)(?:(vor|il\s+y\s+a|hace)\s+)?([0-9]{{1,3}}|an?|one|einer|einem|une?|una)\s+{units}(?:\s+(ago))?(?-u:\b)"
            )),
            // yesterday, gestern, ayer
            re(r"(?i)(?-u:\b)(yesterday|gestern|ayer)(?-u:\b)"),
            // 3天前, 2小时前, 昨天
            re(r"([0-9]{1,3})\s*(分钟|小时|天|周)前|(昨天)"),
        ]
    })
}

/// The relative dates of `text` read against `now` (seconds since the
/// epoch, UTC): each as days since the epoch, with its byte range, in order.
pub(super) fn find(text: &str, now: i64) -> Vec<(i64, Range<usize>)> {
    let p = patterns();
    let mut out = Vec::new();
    let mut push = |secs_ago: i64, range: Range<usize>| {
        out.push(((now - secs_ago).div_euclid(DAY), range));
    };
    for c in p[0].captures_iter(text) {
        // "ago" after, or "vor" / "il y a" / "hace" before: not "3 days" alone.
        if c.get(1).is_none() && c.get(4).is_none() {
            continue;
        }
        if let (Some(n), Some(unit)) = (count(&c[2]), unit_secs(&c[3])) {
            push(n * unit, c.get(0).map_or(0..0, |m| m.range()));
        }
    }
    for m in p[1].find_iter(text) {
        push(DAY, m.range());
    }
    for c in p[2].captures_iter(text) {
        let whole = c.get(0).map_or(0..0, |m| m.range());
        if c.get(3).is_some() {
            push(DAY, whole);
        } else if let (Some(n), Some(unit)) = (
            c.get(1).and_then(|m| count(m.as_str())),
            c.get(2).and_then(|m| unit_secs(m.as_str())),
        ) {
            push(n * unit, whole);
        }
    }
    out.sort_by_key(|(_, r)| r.start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::written_dates::Day;

    /// 2025-12-20 15:00 UTC.
    const NOW: i64 = 1_766_242_800;

    fn days(text: &str) -> Vec<String> {
        find(text, NOW)
            .into_iter()
            .filter_map(|(d, _)| Day::from_days(d).map(Day::iso))
            .collect()
    }

    #[test]
    fn relative_dates_in_the_languages_we_meet() {
        assert_eq!(
            Day::from_days(NOW / DAY).map(Day::iso).as_deref(),
            Some("2025-12-20")
        );
        assert_eq!(days("Posted 3 days ago"), ["2025-12-17"]);
        assert_eq!(days("Updated an hour ago"), ["2025-12-20"]);
        assert_eq!(days("16 hours ago"), ["2025-12-19"]);
        assert_eq!(days("2 weeks ago"), ["2025-12-06"]);
        assert_eq!(days("Start date Yesterday at 4:25 AM"), ["2025-12-19"]);
        assert_eq!(days("Aktualisiert vor 2 Tagen"), ["2025-12-18"]);
        assert_eq!(days("il y a 3 jours"), ["2025-12-17"]);
        assert_eq!(days("hace 2 días"), ["2025-12-18"]);
        assert_eq!(days("发布于3天前"), ["2025-12-17"]);
        assert_eq!(days("昨天 10:20"), ["2025-12-19"]);
        // No day: months and years ago, a duration, today.
        assert!(days("Asked 11 years, 9 months ago").is_empty());
        assert!(days("It took 3 days to build.").is_empty());
        assert!(days("Today the council met.").is_empty());
    }
}
