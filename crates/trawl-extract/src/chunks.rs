//! A record's Markdown cut into chunks for retrieval: each chunk at most a
//! budget of tokens, broken at headings first, then between blocks
//! (paragraphs, list items, tables, code), then between sentences; a table
//! or code block is cut (between its lines) only when it alone is over the
//! budget. Each chunk carries the path of headings it sits under and its
//! range in the Markdown, so it can be cited back.
//!
//! Tokens are whitespace-separated words with a letter or digit in them
//! (Markdown's own `|`, `---`, `-` and `#` do not count): cheap and
//! model-independent (a model's tokenizer counts more; not measured here).

use serde::Serialize;

/// One chunk of a Markdown document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Chunk {
    /// The headings it sits under, outermost first.
    pub headings: Vec<String>,
    /// Its Markdown: exactly `markdown[start..end]` of the document.
    pub markdown: String,
    /// Where it starts in the document, in characters (Unicode scalar
    /// values, as Python indexes a `str`).
    pub start: usize,
    /// Where it ends (exclusive), in characters.
    pub end: usize,
    /// Its tokens (whitespace-separated words with a letter or digit).
    pub tokens: usize,
}

/// A block of the document: byte range, tokens, heading level (0: none).
#[derive(Clone, Copy, Debug)]
struct Block {
    start: usize,
    end: usize,
    tokens: usize,
    level: usize,
    /// A table or a code block: cut only by lines.
    whole: bool,
}

fn tokens(s: &str) -> usize {
    s.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// Splits `md` into blocks: runs of lines between blank lines, a fenced
/// code block (blank lines inside it included) and a table each one block.
fn blocks(md: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut pos = 0;
    let mut start: Option<usize> = None;
    let mut fence: Option<String> = None;
    let mut whole = false;
    for line in md.split_inclusive('\n') {
        let at = pos;
        pos += line.len();
        let t = line.trim();
        let bare = t.trim_start_matches(['>', ' ']);
        if let Some(f) = &fence {
            if bare.starts_with(f.as_str())
                && bare
                    .trim_start_matches('`')
                    .trim_start_matches('~')
                    .is_empty()
            {
                fence = None;
            }
            continue;
        }
        if bare.starts_with("```") || bare.starts_with("~~~") {
            let c = bare.chars().next().unwrap_or('`');
            fence = Some(bare.chars().take_while(|&x| x == c).collect());
            if let Some(s) = start.take() {
                push(&mut out, md, s, at, whole);
            }
            start = Some(at);
            whole = true;
            continue;
        }
        let heading = bare.starts_with('#');
        if t.is_empty() || heading {
            if let Some(s) = start.take() {
                push(&mut out, md, s, at, whole);
            }
            whole = false;
            if heading {
                push(&mut out, md, at, pos, false);
            }
            continue;
        }
        if start.is_none() {
            start = Some(at);
            whole = bare.starts_with('|');
        }
    }
    if let Some(s) = start {
        push(&mut out, md, s, md.len(), whole);
    }
    out
}

fn push(out: &mut Vec<Block>, md: &str, start: usize, end: usize, whole: bool) {
    let text = md[start..end].trim_end();
    let end = start + text.len();
    if text.is_empty() {
        return;
    }
    let bare = text.trim_start_matches(['>', ' ']);
    let hashes = bare.chars().take_while(|&c| c == '#').count();
    let level =
        if (1..=6).contains(&hashes) && bare[hashes..].starts_with(' ') && !text.contains('\n') {
            hashes
        } else {
            0
        };
    out.push(Block {
        start,
        end,
        tokens: tokens(text),
        level,
        whole,
    });
}

/// Cuts a block over the budget: a table or code by lines, a paragraph by
/// sentences (and a sentence over the budget by words).
fn cut(md: &str, b: Block, budget: usize) -> Vec<Block> {
    let text = &md[b.start..b.end];
    let mut pieces: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    let bounds: Vec<usize> = if b.whole {
        text.match_indices('\n').map(|(i, _)| i + 1).collect()
    } else {
        sentence_ends(text)
    };
    for end in bounds.into_iter().chain(std::iter::once(text.len())) {
        if end > at {
            pieces.push((at, end));
            at = end;
        }
    }
    // Pieces merged up to the budget; a piece alone over it cut by words.
    let mut out = Vec::new();
    let mut cur: Option<(usize, usize)> = None;
    for (s, e) in pieces {
        for (s, e) in by_words(text, s, e, budget) {
            cur = match cur {
                Some((cs, _)) if tokens(&text[cs..e]) <= budget => Some((cs, e)),
                Some(c) => {
                    out.push(c);
                    Some((s, e))
                }
                None => Some((s, e)),
            };
        }
    }
    out.extend(cur);
    out.into_iter()
        .map(|(s, e)| Block {
            start: b.start + s,
            end: b.start + e,
            tokens: tokens(&text[s..e]),
            level: 0,
            whole: b.whole,
        })
        .collect()
}

/// Byte offsets just after each sentence end (". ", "! ", "? ", "。").
fn sentence_ends(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        if (c.is_whitespace() && matches!(prev, '.' | '!' | '?'))
            || matches!(prev, '。' | '！' | '？')
        {
            out.push(i);
        }
        prev = c;
    }
    out
}

/// `text[s..e]` in runs of at most `budget` words.
fn by_words(text: &str, s: usize, e: usize, budget: usize) -> Vec<(usize, usize)> {
    let piece = &text[s..e];
    if tokens(piece) <= budget {
        return vec![(s, e)];
    }
    let mut out = Vec::new();
    let (mut start, mut n) = (s, 0);
    let mut in_word = false;
    for (i, c) in piece.char_indices() {
        let ws = c.is_whitespace();
        if !ws && !in_word {
            if n == budget {
                out.push((start, s + i));
                start = s + i;
                n = 0;
            }
            n += 1;
        }
        in_word = !ws;
    }
    out.push((start, e));
    out
}

/// Cuts `md` into chunks of at most `budget` tokens (a single table row or
/// code line over it stays whole).
///
/// ```
/// let md = "# Guide\n\nIntro words here.\n\n## Install\n\nRun the installer now.";
/// let chunks = trawl_extract::chunk_markdown(md, 6);
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(chunks[1].headings, ["Guide", "Install"]);
/// assert_eq!(chunks[1].markdown, "## Install\n\nRun the installer now.");
/// ```
pub fn chunk_markdown(md: &str, budget: usize) -> Vec<Chunk> {
    let budget = budget.max(1);
    let mut path: Vec<(usize, String)> = Vec::new();
    let mut out: Vec<Chunk> = Vec::new();
    // The chunk being filled: its blocks' range, tokens, headings at start.
    let mut cur: Option<(usize, usize, usize, Vec<String>)> = None;
    let names = |p: &[(usize, String)]| p.iter().map(|(_, h)| h.clone()).collect::<Vec<_>>();
    let close = |cur: &mut Option<(usize, usize, usize, Vec<String>)>, out: &mut Vec<Chunk>| {
        if let Some((s, e, t, h)) = cur.take() {
            out.push(Chunk {
                headings: h,
                markdown: md[s..e].to_string(),
                start: s,
                end: e,
                tokens: t,
            });
        }
    };
    for b in blocks(md) {
        if b.level > 0 {
            // A heading opens a chunk, unless the open one holds only headings.
            let only_headings = cur
                .as_ref()
                .is_some_and(|c| blocks(&md[c.0..c.1]).iter().all(|x| x.level > 0));
            if !only_headings {
                close(&mut cur, &mut out);
            }
            path.retain(|(l, _)| *l < b.level);
            let text = md[b.start..b.end].trim_start_matches(['>', ' ']);
            let name = text.trim_start_matches('#').trim().replace('\\', "");
            path.push((b.level, name));
            if let Some(c) = cur.as_mut() {
                c.1 = b.end;
                c.2 += b.tokens;
                c.3 = names(&path);
            } else {
                cur = Some((b.start, b.end, b.tokens, names(&path)));
            }
            continue;
        }
        let parts = if b.tokens > budget {
            cut(md, b, budget)
        } else {
            vec![b]
        };
        for p in parts {
            match cur.as_mut() {
                Some(c) if c.2 + p.tokens <= budget => {
                    c.1 = p.end;
                    c.2 += p.tokens;
                }
                _ => {
                    close(&mut cur, &mut out);
                    cur = Some((p.start, p.end, p.tokens, names(&path)));
                }
            }
        }
    }
    close(&mut cur, &mut out);
    // Byte offsets to character offsets.
    let mut chars = 0;
    let mut last = 0;
    for c in &mut out {
        chars += md[last..c.start].chars().count();
        let len = c.markdown.chars().count();
        last = c.end;
        c.start = chars;
        chars += len;
        c.end = chars;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_break_first_and_ranges_cite_back() {
        let md = "# A\n\none two three\n\n## B\n\nfour five\n\n- six\n- seven\n\n## C\n\neight";
        let c = chunk_markdown(md, 100);
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].headings, ["A"]);
        assert_eq!(c[2].headings, ["A", "C"]);
        for ch in &c {
            let got: String = md.chars().skip(ch.start).take(ch.end - ch.start).collect();
            assert_eq!(got, ch.markdown);
        }
    }

    #[test]
    fn tables_and_code_stay_whole_unless_alone_over_the_budget() {
        let table = "| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |";
        let md = format!("one two\n\n{table}\n\n```\nx y\n\nz w\n```");
        let c = chunk_markdown(&md, 10);
        assert!(c.iter().any(|ch| ch.markdown.contains(table)), "{c:?}");
        assert!(
            c.iter().any(|ch| ch.markdown == "```\nx y\n\nz w\n```"),
            "{c:?}"
        );
        let c = chunk_markdown(table, 4);
        assert!(c.len() > 1 && c.iter().all(|ch| ch.tokens <= 4), "{c:?}");
    }

    #[test]
    fn long_paragraphs_break_between_sentences_then_words() {
        let md = "One two three. Four five six. Seven eight nine ten eleven twelve.";
        let c = chunk_markdown(md, 4);
        assert_eq!(c[0].markdown, "One two three.");
        assert!(c.iter().all(|ch| ch.tokens <= 4), "{c:?}");
        let words: usize = c.iter().map(|ch| ch.tokens).sum();
        assert_eq!(words, 12);
        // Nothing between chunks but whitespace.
        let mut at = 0;
        for ch in &c {
            assert!(md[at..ch.start].trim().is_empty());
            at = ch.end;
        }
        let md = "é ".repeat(9);
        let c = chunk_markdown(md.trim_end(), 3);
        assert_eq!(c.len(), 3);
        assert_eq!(c.last().map(|x| x.end), Some(17));
    }
}
