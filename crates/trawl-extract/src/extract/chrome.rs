//! Interface labels left on a line of their own: a reading time ("5 min
//! read"), a date line (the date is reported in its own field), a call to
//! action ("Learn more", "Sign up"), a counter ("12 replies"), an
//! "Advertisement" slot or a "Loading…" placeholder. Markup does not always
//! name them (a `<span>` in the article's header, a link styled by a utility
//! class), so they are recognised by their words once the text is rendered.
//! A line is dropped only when it is the label and nothing else. The
//! vocabulary is English; labels in other languages stay (they cost a few
//! words of precision, never a sentence).
//!
//! Measured on wcxb-dev (auto's output, page-F1 summed over 1,497 pages):
//! reading times +0.10, dates +0.20, calls to action +0.16, counters +0.08,
//! the other labels +0.08; together +0.62 over 314 pages (30 lose a little:
//! truths that keep a post's date). A second round (shop and forum furniture,
//! more counters and calls to action, arrows around labels) +0.47 over 206
//! pages. Measured and kept out: "FAQ" (−0.04, truths keep the heading),
//! "3 days ago" (−0.27, forum truths keep post times), "Pros"/"Cons" (−0.06),
//! single letters (−0.04), "Save 20%" (−0.02).
//!
//! Dates that head the page's sections stay: a blog's archive grouped by
//! day, two date headings or more (CleanEval's truth marks them headings;
//! wcxb-dev and the other sets have none).

use std::sync::OnceLock;

use regex::Regex;

use crate::html::{Doc, NodeId, Selection};

/// Whole-line labels, one alternative each (matched case-insensitively
/// against the trimmed line). English, so its numbers are in ASCII digits
/// (`\d`, any script's, is 6 KB of automata each time it is written).
const LABELS: &[&str] = &[
    // Reading times.
    r"[0-9]+\s*min(?:ute)?s?\.?\s+read",
    r"(?:last )?updated(?: on)?:? .{0,20}[0-9]{4}",
    // Counters.
    r"[0-9]+ (?:likes?|replies|views|comments?|reviews?|answers?|ratings?)",
    r"(?:loaded|showing) [0-9]+(?: of [0-9]+)? results",
    // Calls to action.
    "apply now|join now|shop now|learn more|read more|get started|contact us|sign up|subscribe",
    r"read (?:the )?full (?:article|story)",
    "share(?: this)?(?: article| post)?",
    "view all|see all|see more|show more|load more|view (?:full )?details",
    r"see all [0-9]+ .{0,30}",
    "add to (?:cart|bag|basket)|compare|open in desktop app",
    // Shop and forum furniture.
    "sort by|sort best match|filters?|recently viewed|go to topic listing",
    "skip to .{0,30}",
    "best seller|new arrival|top rated|sale|new",
    "about the author",
    // Slots and teasers.
    r"advertisement|sponsored|loading",
    "related (?:articles|posts|stories)|you (?:may|might) also like",
];

/// Whole-line dates ("March 3, 2025", "Dec. 19 2025", "3 March 2025"),
/// labels too: the date is reported in its own field. English month names
/// take ASCII digits (`\d`, any script's, was 40 KB of automata a pattern).
const DATES: &[&str] = &[
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? [0-9]{1,2},? [0-9]{4}",
    r"[0-9]{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? [0-9]{4}",
];

/// The labels and the dates.
fn labels() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let pattern = format!("(?i)^(?:{}|{})$", LABELS.join("|"), DATES.join("|"));
        // The pattern is built from constants, checked by the tests below.
        Regex::new(&pattern).unwrap_or_else(|_| unreachable!())
    })
}

/// The lines of `text` that are an interface label and nothing else: one
/// flag per `\n`-separated line (each judged alone).
pub(crate) fn label_lines(text: &str) -> Vec<bool> {
    let re = labels();
    // Arrows and bullets around a label ("Learn more →", "› Sale") aside.
    text.split('\n')
        .map(|l| re.is_match(l.trim_matches(|c: char| !c.is_alphanumeric())))
        .collect()
}

/// Fewest headings that are a date alone for the page's dates to be its
/// sections: a blog's archive grouped by day ("September 28, 2004" over
/// each day's posts), where a lone date heading is a post's date line.
const MIN_DATE_HEADINGS: usize = 2;

/// The dates alone.
fn dates() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let pattern = format!("(?i)^(?:{})$", DATES.join("|"));
        // The pattern is built from constants, checked by the tests below.
        Regex::new(&pattern).unwrap_or_else(|_| unreachable!())
    })
}

/// The words of each selected heading that is a date and nothing else,
/// when the selection holds at least [`MIN_DATE_HEADINGS`] of them.
pub(crate) fn date_headings(doc: &Doc, sel: &Selection) -> Vec<String> {
    let re = dates();
    let dates: Vec<String> = selected_headings(doc, sel, DATE_HEADING_CHARS)
        .filter(|t| {
            let t = t.trim_matches(|c: char| !c.is_alphanumeric());
            re.is_match(t)
        })
        .collect();
    if dates.len() >= MIN_DATE_HEADINGS {
        dates
    } else {
        Vec::new()
    }
}

/// The texts of the selection's headings of at most
/// [`SHORT_HEADING_CHARS`] characters.
pub(crate) fn short_headings(doc: &Doc, sel: &Selection) -> Vec<String> {
    selected_headings(doc, sel, SHORT_HEADING_CHARS).collect()
}

/// The texts of the headings of at most `max_chars` characters that the
/// selection keeps, or keeps part of.
fn selected_headings<'d>(
    doc: &'d Doc,
    sel: &'d Selection,
    max_chars: u32,
) -> impl Iterator<Item = String> + 'd {
    (0..doc.len() as NodeId)
        .filter(move |&h| doc.tag(h).is_heading() && doc.agg[h as usize].chars <= max_chars)
        .filter(|&h| sel.get(h) || (h + 1..doc.end(h)).any(|k| sel.get(k)))
        .map(|h| doc.plain_text(h).trim().to_string())
}

/// Most non-whitespace characters of a short heading.
const SHORT_HEADING_CHARS: u32 = 80;

/// Most non-whitespace characters of a date heading.
const DATE_HEADING_CHARS: u32 = 40;

/// Keeps the lines `label_lines` flagged that are one of `headings`
/// ([`date_headings`]).
pub(crate) fn keep_headings(text: &str, drop: &mut [bool], headings: &[String]) {
    if headings.is_empty() {
        return;
    }
    for (line, d) in text.split('\n').zip(drop.iter_mut()) {
        if *d && headings.iter().any(|h| h == line.trim()) {
            *d = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::repeats::remove_lines;
    use super::*;

    fn dropped(text: &str) -> String {
        let mut t = text.to_string();
        let drop = label_lines(&t);
        remove_lines(&mut t, &drop);
        t
    }

    #[test]
    fn labels_alone_on_a_line_go() {
        let text = "How to pick a tent\n\nMarch 3, 2025\n5 min read\n\n\
                    A tent is a home you carry.\nLearn more →\n\nAdvertisement\n\n12 replies\n» Sale";
        assert_eq!(
            dropped(text),
            "How to pick a tent\n\nA tent is a home you carry."
        );
    }

    #[test]
    fn labels_inside_sentences_stay() {
        let text =
            "Learn more about tents on March 3, 2025.\n\nSign up for the course; it takes 5 min.";
        assert_eq!(dropped(text), text);
        assert_eq!(dropped(""), "");
    }

    /// Regression (CleanEval 445, 501, 113: blog archives grouped by day
    /// under `<h2 class="date">September 28, 2004</h2>`): the day headings
    /// went as date lines. One date heading is still a post's date line.
    #[test]
    fn an_archives_day_headings_stay_and_a_lone_date_goes() {
        let day = |d: &str| format!("<h2>{d}</h2><h3>A post</h3><p>What the day brought.</p>");
        for (days, kept) in [
            (vec!["September 28, 2004", "September 27, 2004"], true),
            (vec!["September 28, 2004"], false),
        ] {
            let html = format!(
                "<body>{}</body>",
                days.iter().map(|d| day(d)).collect::<String>()
            );
            let doc = Doc::parse_str(&html);
            let sel = Selection::subtree(&doc, doc.body());
            let mut text = crate::html::render(&doc, &sel);
            let mut drop = label_lines(&text);
            keep_headings(&text, &mut drop, &date_headings(&doc, &sel));
            remove_lines(&mut text, &drop);
            assert_eq!(text.contains("September 28, 2004"), kept, "{text}");
        }
    }
}
