//! Relative dates a page shows instead of a calendar date: "3 days ago",
//! "2 hours ago", "yesterday", "vor 2 Tagen", "il y a 3 jours", "hace 2
//! días", "3 дня назад", "5 dni temu", "3 gün önce", "3天前", "3時間前",
//! "3일 전", "昨天" and their like in a score of languages. They are only
//! dates against the time the page was fetched (a crawl knows it; a saved
//! page of unknown age does not), so [`find`] takes that time. Months and
//! years ago ("11 years, 9 months ago") name no day and are left alone, as
//! are "today" words, which stories use in their sentences.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use crate::extract::char_class::NO_LETTER_OR_DIGIT;

const MINUTE: i64 = 60;
const HOUR: i64 = 3_600;
const DAY: i64 = 86_400;

/// Seconds in a unit word ("days", "Stunden", "semaine", "小时").
fn unit_secs(word: &str) -> Option<i64> {
    // A unit's words, as they start, and its length.
    const UNITS: [(&[&str], i64); 4] = [
        (&["min", "мин", "хвил", "dakika", "分", "분"], MINUTE),
        (
            &[
                "hour",
                "hr",
                "stunde",
                "heure",
                "hora",
                "ora",
                "ore",
                "uur",
                "tim",
                "час",
                "годин",
                "godzin",
                "hodin",
                "saat",
                "小时",
                "時間",
                "시간",
            ],
            HOUR,
        ),
        (
            &[
                "day", "tag", "jour", "día", "dia", "giorn", "dag", "døgn", "zi", "дн", "день",
                "dni", "dzień", "dny", "dnem", "gün", "天", "일",
            ],
            DAY,
        ),
        (
            &[
                "week",
                "woche",
                "semaine",
                "semana",
                "settiman",
                "wek",
                "veck",
                "uge",
                "uke",
                "săpt",
                "недел",
                "тиж",
                "tydz",
                "tygod",
                "týd",
                "hafta",
                "周",
                "週",
                "주",
            ],
            7 * DAY,
        ),
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
        let units = concat!(
            r"(min(?:ute)?s?|hours?|hrs?|days?|weeks?|Minuten?|Stunden?|Tage?n?|Wochen?",
            r"|minutes?|heures?|jours?|semaines?|minutos?|horas?|d[íi]as?|semanas?",
            // it, nl, sv, da/no, ro
            r"|minuti|minuto|ore|ora|giorni|giorno|settimane|settimana|minuten|minuut|uur|dagen|dag|weken|week",
            r"|minuter|timmar|timme|dagar|veckor|vecka|minutter|timer|time|dage|dager|døgn|uger|uker|uge|uke",
            r"|zile|zi|săptămâni|săptămână",
            // ru, uk, pl, cs, tr
            r"|минут[уы]?|час(?:а|ов)?|дн(?:я|ей)|день|недел[юиь]|хвилин[уи]?|годин[уи]?|дн(?:і|ів)|тижн(?:і|ів)|тиждень",
            r"|minut[ay]?|godzin[ya]?|dni|dzień|tygodni(?:e)?|tydzień|minutami|minutou|hodinami|hodinou|dny|dnem|týdny|týdnem",
            r"|dakika|saat|gün|hafta)"
        );
        [
            // 3 days ago, an hour ago; vor 2 Tagen; il y a 3 jours; hace 2 días;
            // há 2 dias; před 2 dny; acum 3 zile; 3 дня назад; 3 gün önce
            re(&format!(
                r"(?i)(?-u:\b)(?:(vor|il\s+y\s+a|hace|há|před|acum)\s+)?([0-9]{{1,3}}|an?|one|einer|einem|une?|una)\s+{units}(?:\s+(ago|назад|тому|temu|önce|geleden|fa|siden|sedan))?(?:{NO_LETTER_OR_DIGIT}|$)"
            )),
            // yesterday, gestern, ayer, …
            re(&format!(r"(?i)(?:^|{NO_LETTER_OR_DIGIT})(yesterday|gestern|ayer|ieri|ontem|gisteren|igår|i går|wczoraj|včera|dün|вчера|вчора)(?:{NO_LETTER_OR_DIGIT}|$)")),
            // 3天前, 2小时前, 昨天; 3時間前, 2週間前, 昨日; 3시간 전, 어제
            re(r"([0-9]{1,3})\s*(分钟|小时|天|周|分|時間|週間|분|시간|일|주)\s*[前전]|(昨天|昨日|어제)"),
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
        // The words' range, not the character after them that the pattern
        // reads to see they end.
        let start = c.get(0).map_or(0, |m| m.start());
        let end = c.get(4).or(c.get(3)).map_or(start, |m| m.end());
        if let (Some(n), Some(unit)) = (count(&c[2]), unit_secs(&c[3])) {
            push(n * unit, start..end);
        }
    }
    for c in p[1].captures_iter(text) {
        push(DAY, c.get(1).map_or(0..0, |m| m.range()));
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
        for (text, day) in [
            ("3 дня назад", "2025-12-17"),
            ("2 години тому", "2025-12-20"),
            ("5 dni temu", "2025-12-15"),
            ("před 2 dny", "2025-12-18"),
            ("3 gün önce", "2025-12-17"),
            ("2 dagen geleden", "2025-12-18"),
            ("3 giorni fa", "2025-12-17"),
            ("há 2 dias", "2025-12-18"),
            ("för 2 veckor sedan", "2025-12-06"),
            ("4 dage siden", "2025-12-16"),
            ("acum 3 zile", "2025-12-17"),
            ("Вчера в 10:20", "2025-12-19"),
            ("wczoraj", "2025-12-19"),
            ("3時間前", "2025-12-20"),
            ("2週間前", "2025-12-06"),
            ("3일 전", "2025-12-17"),
            ("어제", "2025-12-19"),
        ] {
            assert_eq!(days(text), [day], "{text}");
        }
        // Not a relative date: a word that begins like one.
        assert!(days("vor 3 Tagesordnungspunkten").is_empty());
        assert!(days("3 дня назадний").is_empty());
        assert!(days("Klicken Sie hier").is_empty());
        // The range is the words': "Вчера" after a space starts at its letter.
        let found = find("Posted: Вчера", NOW);
        assert_eq!(found[0].1, 8.."Posted: Вчера".len());
        assert_eq!(find("3 days ago, then", NOW)[0].1, 0..10);
        // No day: months and years ago, a duration, today.
        assert!(days("Asked 11 years, 9 months ago").is_empty());
        assert!(days("It took 3 days to build.").is_empty());
        assert!(days("Today the council met.").is_empty());
    }
}
