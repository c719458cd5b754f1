//! Lines a page shows more than once. Markup repeats blocks that a reader
//! sees once: the mobile and the desktop copy of a block (one of them hidden
//! by a stylesheet we do not apply), the cloned slides a carousel needs to
//! loop, the doubled items of a scrolling ticker, a "free shipping" strip
//! repeated in every section. The extracted text keeps the first copy.
//!
//! Measured on wcxb-dev (simulated on auto's output, page-F1 summed over
//! 1,497 pages): dropping every repeat of a line of at least 1 / 3 / 5 words
//! +3.8 / +3.7 / +3.7, but a tutorial's repeated step and a guide's chapter
//! summaries went too (documentation −1.1 / −0.8 / −0.6). Dropping repeats
//! only in runs of 2 / 3 lines (blocks shown twice): +4.2 / +3.6, documentation
//! −0.7 / −0.5. Runs of two it is; documentation pages keep their repeats.
//! Code keeps its repeats: a program's lines come back in the next version
//! of the program (an answer's second listing that reuses the first's
//! imports and helpers), and a listing is verbatim or it is wrong.

use rustc_hash::FxHashSet;

use crate::html::markdown::push_ascii_words;
use crate::html::{Doc, Kind, Selection, Tag};

/// A repeat is dropped when it is one of a run of at least this many
/// consecutive repeated lines: a block shown twice, not a sentence a text
/// says twice (a step of a procedure, a summary heading a chapter).
const MIN_RUN: usize = 2;

/// The runs of at least [`MIN_RUN`] consecutive lines of `text` that each
/// repeat an earlier line (words compared, case and punctuation aside;
/// blank lines do not break a run): one flag per `\n`-separated line.
///
/// A run of headings only (`is_heading`) stays: a review's "Pros & Cons",
/// "Pros" over every product it rates are its sections, not a block shown
/// twice. A line of code (`is_code`) stays wherever it stands.
pub(crate) fn repeated_lines(
    text: &str,
    is_heading: &dyn Fn(&str) -> bool,
    is_code: &dyn Fn(&str) -> bool,
) -> Vec<bool> {
    let lines: Vec<&str> = text.split('\n').collect();
    // Every line's key written into one buffer (a string per line was an
    // allocation per line of every page).
    let mut buf = String::with_capacity(text.len());
    let spans: Vec<(usize, usize)> = lines
        .iter()
        .map(|line| {
            let from = buf.len();
            push_words(line, &mut buf);
            (from, buf.len())
        })
        .collect();
    let keys: Vec<&str> = spans
        .iter()
        .map(|&(a, b)| buf.get(a..b).unwrap_or(""))
        .collect();
    let written_out = written_out(&keys);
    // Membership only: a fast hash of the page's own lines.
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    // For each line with words: does it repeat an earlier one?
    let repeats: Vec<Option<bool>> = keys
        .iter()
        .zip(&written_out)
        .map(|(key, &kept)| {
            if key.is_empty() {
                return None;
            }
            let repeat = !seen.insert(key);
            Some(repeat && !kept)
        })
        .collect();
    let mut drop = vec![false; lines.len()];
    let mut run: Vec<usize> = Vec::new();
    for (i, r) in repeats
        .iter()
        .enumerate()
        .chain(std::iter::once((lines.len(), &Some(false))))
    {
        match r {
            None => {}
            Some(true) => run.push(i),
            Some(false) => {
                if run.len() >= MIN_RUN && !sections(&run, &keys, is_heading, &lines) {
                    for &k in &run {
                        drop[k] = !is_code(lines[k]);
                    }
                }
                run.clear();
            }
        }
    }
    drop
}

/// The lines of the code blocks (`<pre>`) the selection keeps, trimmed: a
/// line of the rendered text that is one of them is code.
pub(crate) fn code_lines(doc: &Doc, sel: &Selection) -> FxHashSet<String> {
    let mut code = String::new();
    let mut last = None;
    for i in 0..doc.len() {
        let node = &doc.nodes[i];
        if !node.pre {
            continue;
        }
        // A new block: a `<pre>` opens, or something outside one stood
        // between this text and the last.
        if node.tag == Tag::Pre || last.is_some_and(|l| l + 1 != i) {
            code.push('\n');
        }
        last = Some(i);
        if node.kind == Kind::Text && sel.get(i as u32) {
            code.push_str(doc.text(i as u32));
        }
    }
    code.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether a run of repeated lines (`run`, indexes into `lines` and their
/// `keys`) is headings only, each different: sections opening alike
/// ("Pros & Cons", "Pros"), not one name shown twice on a card.
fn sections(
    run: &[usize],
    keys: &[&str],
    is_heading: &dyn Fn(&str) -> bool,
    lines: &[&str],
) -> bool {
    let distinct = run
        .iter()
        .enumerate()
        .all(|(n, &k)| run[..n].iter().all(|&j| keys[j] != keys[k]));
    distinct && run.iter().all(|&k| is_heading(lines[k]))
}

/// A paragraph of prose written out at least this many times back to back
/// (blank lines aside) is what the page says: a mock-up, a drill, a poem's
/// refrain. Blocks shown twice (a mobile and a desktop copy) come in twos,
/// and the back-to-back copies of short lines (a product tile's name and
/// price) are chrome: wcxb-dev lost 46 pages when all back-to-back copies
/// stayed.
const WRITTEN_OUT_RUN: usize = 3;
/// ...and has at least this many words.
const WRITTEN_OUT_WORDS: usize = 12;

/// A line of prose: [`WRITTEN_OUT_WORDS`] words or more, most of them
/// different (not a marquee's "Book Now * Book Now * …").
fn prose(key: &str) -> bool {
    let words: Vec<&str> = key.split(' ').collect();
    let distinct: FxHashSet<&str> = words.iter().copied().collect();
    words.len() >= WRITTEN_OUT_WORDS && 2 * distinct.len() >= words.len()
}

/// For each line: is it one of [`WRITTEN_OUT_RUN`] or more back-to-back
/// copies of one paragraph of prose?
fn written_out(keys: &[&str]) -> Vec<bool> {
    let mut out = vec![false; keys.len()];
    let mut i = 0;
    while i < keys.len() {
        if keys[i].is_empty() {
            i += 1;
            continue;
        }
        // The run of copies of keys[i], blank lines between them allowed:
        // how many, and the last.
        let (mut copies, mut last) = (1, i);
        for (j, key) in keys.iter().enumerate().skip(i + 1) {
            if key.is_empty() {
                continue;
            }
            if *key != keys[i] {
                break;
            }
            copies += 1;
            last = j;
        }
        if copies >= WRITTEN_OUT_RUN && prose(keys[i]) {
            for (k, key) in keys.iter().enumerate().take(last + 1).skip(i) {
                out[k] = !key.is_empty();
            }
        }
        i = last + 1;
    }
    out
}

/// Removes the lines of `text` marked in `drop` (one flag per `\n`-separated
/// line), and the blank lines left behind.
pub(super) fn remove_lines(text: &mut String, drop: &[bool]) {
    if !drop.contains(&true) {
        return;
    }
    let lines = text.split('\n');
    let mut out = String::with_capacity(text.len());
    for (line, d) in lines.zip(drop) {
        if !d {
            out.push_str(line);
            out.push('\n');
        }
    }
    // Paragraph breaks around a dropped line collapse to one.
    let mut tidy = String::with_capacity(out.len());
    for part in out.split("\n\n") {
        let part = part.trim_matches('\n');
        if part.is_empty() {
            continue;
        }
        if !tidy.is_empty() {
            tidy.push_str("\n\n");
        }
        tidy.push_str(part);
    }
    *text = tidy;
}

/// Appends the words of a line to `key`, lower-cased and joined by single
/// spaces.
fn push_words(line: &str, key: &mut String) {
    // One pass over the characters (this runs for every line of every
    // page); an ASCII line, most of what pages hold, is read byte by byte
    // (no character to decode) and lowered without the Unicode tables.
    if line.is_ascii() {
        push_ascii_words(key, line, " ");
    } else {
        push_word_chars(line.chars(), key);
    }
}

/// [`push_words`] over a line's characters.
fn push_word_chars(chars: impl Iterator<Item = char>, key: &mut String) {
    let start = key.len();
    let mut gap = false;
    for c in chars {
        if !c.is_alphanumeric() {
            gap = true;
            continue;
        }
        if gap && key.len() > start {
            key.push(' ');
        }
        gap = false;
        if c.is_ascii() {
            key.push(c.to_ascii_lowercase());
        } else {
            key.extend(c.to_lowercase());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ascii_lines_key_is_the_one_its_characters_give() {
        for line in [
            "",
            "  Hello, World!  ",
            "A-B_c 12x",
            "...",
            "Mixed CASE words 2024 ok.",
            "x",
        ] {
            let (mut fast, mut slow) = (String::from("k"), String::from("k"));
            push_ascii_words(&mut fast, line, " ");
            push_word_chars(line.chars(), &mut slow);
            assert_eq!(fast, slow, "{line:?}");
        }
    }

    fn dropped(text: &str) -> String {
        let mut t = text.to_string();
        let drop = repeated_lines(&t, &|l| l.starts_with("## "), &|_| false);
        remove_lines(&mut t, &drop);
        t
    }

    #[test]
    fn a_run_of_repeated_headings_stays() {
        // Regression (wcxb-dev 0056): every mover's "Pros & Cons" and
        // "Pros" went after the first.
        let text = "## Pros & Cons
## Pros
Fast.

## Pros & Cons
## Pros
Cheap.";
        assert_eq!(dropped(text), text);
        // One name shown twice on a card is a repeat.
        let text = "## Mocha\n\nA card.\n\n## Mocha\n\n## Mocha\n\nEnd.";
        assert_eq!(dropped(text), "## Mocha\n\nA card.\n\nEnd.");
    }

    #[test]
    fn a_block_shown_twice_is_kept_once() {
        let text =
            "Fast & free shipping.\nRisk-free 99 day trial.\n\nThe wallet holds twelve cards.\n\n\
                    FAST & FREE shipping!\n\nRisk-free 99 day trial\nIt is made of aluminium.";
        assert_eq!(
            dropped(text),
            "Fast & free shipping.\nRisk-free 99 day trial.\n\nThe wallet holds twelve cards.\n\n\
             It is made of aluminium."
        );
    }

    #[test]
    fn a_paragraph_written_out_back_to_back_stays() {
        // Regression: five copies of one paragraph under a heading kept one.
        let p = "The river rose after three days of rain and the council met in the library.";
        let text = format!("Heading\n\n{p}\n\n{p}\n\n{p}\n\nEnd.");
        assert_eq!(dropped(&text), text);
        // Twice, or a short line: a block shown twice.
        let text = format!("Heading\n\n{p}\nA\n\n{p}\nA\n\nEnd.");
        assert_eq!(dropped(&text), format!("Heading\n\n{p}\nA\n\nEnd."));
        // A marquee's line is not prose.
        let m = "Book now * ".repeat(12);
        let text = format!("Top\n{m}\n{m}\n{m}\nEnd.");
        assert_eq!(dropped(&text), format!("Top\n{m}\nEnd."));
    }

    #[test]
    fn a_sentence_said_twice_and_texts_without_repeats_stay_as_they_are() {
        let text = "Press Enter.\nType the radius.\nPress Enter.\n\nDone.\n\n\n";
        assert_eq!(dropped(text), text);
        assert_eq!(dropped(""), "");
    }

    #[test]
    fn a_programs_lines_stay_in_its_next_listing() {
        // Regression (wcxb-dev 4310): an answer's second listing reuses the
        // first's imports and helpers; as a run of repeated lines they went,
        // and the listing was printed with holes.
        let first = "import asyncio\nimport time\n\ndef sleep():\n    time.sleep(1)";
        let second =
            "import asyncio\nimport time\n\nasync def sleep():\n    await asyncio.sleep(1)";
        let para = "<p>Here is the program again, with the sleep made asynchronous so that \
                    both tasks share the one event loop and finish sooner.</p>";
        let html = format!(
            "<html><body><article>{para}<pre><code>{first}</code></pre>{para}\
             <pre><code>{second}</code></pre>{para}</article></body></html>"
        );
        let ex = crate::extract(html.as_bytes(), &crate::Options::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ex.text.matches("import time").count(), 2, "{}", ex.text);
        assert_eq!(
            ex.markdown.matches("import asyncio").count(),
            2,
            "{}",
            ex.markdown
        );
        // The lines of the kept code blocks, and nothing else.
        let doc = Doc::parse_str(&html);
        let sel = Selection::subtree(&doc, 0);
        let lines = code_lines(&doc, &sel);
        assert!(lines.contains("time.sleep(1)") && lines.contains("async def sleep():"));
        assert!(!lines.iter().any(|l| l.contains("Here is the program")));
        // Two blocks back to back do not run into one line.
        let doc = Doc::parse_str("<pre>a = 1</pre><pre>b = 2</pre>");
        let lines = code_lines(&doc, &Selection::subtree(&doc, 0));
        assert!(
            lines.contains("a = 1") && lines.contains("b = 2"),
            "{lines:?}"
        );
    }
}
