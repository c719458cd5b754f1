//! `trawl eval --structure`: the records' Markdown against a dataset's
//! structure truth (wcxb-dev's reviewed Markdown, CleanEval's markers),
//! element F1 by type and page type, peers' Markdown scored the same way in
//! the same run; and `trawl eval` on markdown-cases, the HTML → Markdown
//! conversion cases, each passed or listed.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use rayon::prelude::*;
use trawl_extract::{extract, html_to_markdown, Options};

use super::dataset::Loaded;
use super::error::EvalError;
use super::score::{prf, Prf};
use super::structure::{compare, read, Counts, Levels, Structure, KINDS, SCORED};

/// One side's (trawl's or a peer's) scores on one page.
#[derive(Debug, Clone)]
pub struct PageScore {
    pub id: String,
    pub kind: String,
    pub counts: [Counts; 6],
    /// Word F1 of the Markdown's rendered text against the truth's.
    pub words: Prf,
}

/// The pages one side was scored on.
pub struct Side {
    pub name: String,
    pub pages: Vec<PageScore>,
    /// trawl's `text` field against the same truth (trawl's side only).
    pub text_words: Option<Vec<Prf>>,
}

fn score(pred: &Structure, truth: &Structure, id: &str, kind: &str) -> PageScore {
    let mut counts = [Counts::default(); 6];
    for (c, k) in counts.iter_mut().zip(KINDS) {
        *c = compare(pred, truth, k);
    }
    PageScore {
        id: id.to_string(),
        kind: kind.to_string(),
        counts,
        words: prf(&pred.text, &truth.text),
    }
}

fn levels(kind: &str) -> Levels {
    if kind == "cleaneval" {
        Levels::Ignored
    } else {
        Levels::Kept
    }
}

/// Scores trawl's Markdown (and each peer's: name and Markdown by page id)
/// on the pages with structure truth.
pub fn run(
    pages: &[Loaded],
    threads: usize,
    peers: &[(String, HashMap<String, String>)],
) -> Vec<Side> {
    let with: Vec<&Loaded> = pages
        .iter()
        .filter(|p| p.case.structure.is_some())
        .collect();
    let work = || -> Vec<(PageScore, Prf, Vec<PageScore>)> {
        with.par_iter()
            .map(|page| {
                let case = &page.case;
                let lv = levels(&case.kind);
                let base = case.url.as_deref().and_then(|u| url::Url::parse(u).ok());
                let base = base.as_ref();
                let truth = read(case.structure.as_deref().unwrap_or(""), lv, base);
                let opts = Options::default().with_url_opt(case.url.clone());
                let (md, text) = match &page.bytes {
                    Ok(b) => extract(b, &opts)
                        .map_or_else(|_| Default::default(), |r| (r.markdown, r.text)),
                    Err(_) => Default::default(),
                };
                let ours = score(&read(&md, lv, base), &truth, &case.id, &case.kind);
                let text_words = prf(&text, &truth.text);
                let theirs = peers
                    .iter()
                    .map(|(_, by_id)| {
                        let md = by_id.get(&case.id).map_or("", String::as_str);
                        score(&read(md, lv, base), &truth, &case.id, &case.kind)
                    })
                    .collect();
                (ours, text_words, theirs)
            })
            .collect()
    };
    let results = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    };
    let mut sides = vec![Side {
        name: "trawl".into(),
        pages: Vec::new(),
        text_words: Some(Vec::new()),
    }];
    for (name, _) in peers {
        sides.push(Side {
            name: name.clone(),
            pages: Vec::new(),
            text_words: None,
        });
    }
    for (ours, text, theirs) in results {
        sides[0].pages.push(ours);
        if let Some(t) = sides[0].text_words.as_mut() {
            t.push(text);
        }
        for (i, s) in theirs.into_iter().enumerate() {
            sides[i + 1].pages.push(s);
        }
    }
    sides
}

/// A peer's Markdown per page: JSONL lines with `source` (a page file or
/// id) and `markdown`.
pub fn load_peer(path: &Path) -> Result<HashMap<String, String>, EvalError> {
    let bad = |message: String| EvalError::BadFile {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let mut out = HashMap::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| bad(format!("line {}: {e}", n + 1)))?;
        let source = v.get("source").and_then(|s| s.as_str()).unwrap_or("");
        let name = source.rsplit('/').next().unwrap_or(source);
        let id = name.split('.').next().unwrap_or(name).to_string();
        let md = v.get("markdown").and_then(|s| s.as_str()).unwrap_or("");
        out.insert(id, md.to_string());
    }
    Ok(out)
}

/// Per page type (and `all`): element F1 by kind, the structure score
/// (mean over [`SCORED`] kinds present) and word F1s.
pub fn format(sides: &[Side], dataset: &str, worst: usize) -> String {
    let mut s = format!(
        "{dataset} · Markdown structure, {} pages with structure truth\n",
        sides.first().map_or(0, |x| x.pages.len())
    );
    s.push_str(&format!(
        "{:<14}{:<24}{:>5}{:>9}{:>7}{:>7}{:>7}{:>7}{:>7}{:>10}{:>8}{:>8}\n",
        "type",
        "tool",
        "n",
        "heading",
        "item",
        "cell",
        "code",
        "link",
        "image",
        "structure",
        "words",
        "text"
    ));
    let mut kinds: Vec<String> = sides
        .first()
        .map(|x| x.pages.iter().map(|p| p.kind.clone()).collect())
        .unwrap_or_default();
    kinds.sort();
    kinds.dedup();
    kinds.insert(0, "all".into());
    for kind in &kinds {
        for side in sides {
            let rows: Vec<usize> = (0..side.pages.len())
                .filter(|&i| kind == "all" || side.pages[i].kind == *kind)
                .collect();
            let mut sum = [Counts::default(); 6];
            let mut words = 0.0;
            for &i in &rows {
                for (a, b) in sum.iter_mut().zip(side.pages[i].counts) {
                    a.add(b);
                }
                words += side.pages[i].words.f1;
            }
            let n = rows.len().max(1) as f64;
            // A kind the truth never marks (CleanEval has no tables) is not scored.
            let score = |c: &Counts| if c.truth == 0 { None } else { c.f1() };
            let f = |c: &Counts| score(c).map_or("-".to_string(), |v| format!("{v:.3}"));
            let scored: Vec<f64> = SCORED
                .iter()
                .filter_map(|k| KINDS.iter().position(|x| x == k))
                .filter_map(|i| score(&sum[i]))
                .collect();
            let structure = scored.iter().sum::<f64>() / scored.len().max(1) as f64;
            let text = side.text_words.as_ref().map_or("".to_string(), |t| {
                format!("{:.3}", rows.iter().map(|&i| t[i].f1).sum::<f64>() / n)
            });
            s.push_str(&format!(
                "{:<14}{:<24}{:>5}{:>9}{:>7}{:>7}{:>7}{:>7}{:>7}{:>10.3}{:>8.3}{:>8}\n",
                kind,
                side.name,
                rows.len(),
                f(&sum[0]),
                f(&sum[1]),
                f(&sum[2]),
                f(&sum[3]),
                f(&sum[4]),
                f(&sum[5]),
                structure,
                words / n,
                text
            ));
        }
    }
    if let Some(ours) = sides.first() {
        // Pages whose Markdown says fewer of the truth's words than the text.
        let mut gaps: Vec<(f64, &PageScore)> = ours
            .pages
            .iter()
            .zip(ours.text_words.iter().flatten())
            .map(|(p, t)| (t.f1 - p.words.f1, p))
            .collect();
        gaps.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (gap, p) in gaps.iter().take(worst) {
            s.push_str(&format!(
                "  {} {:<14} words {:.3}, text {:.3} higher\n",
                p.id, p.kind, p.words.f1, gap
            ));
        }
    }
    if let [ours, peer, ..] = sides {
        s.push_str(&peer_leads(ours, peer, worst));
    }
    s.push_str(
        "element F1 summed over pages (micro); structure = mean of heading, item, cell, code, link;\n\
         words = word F1 of the Markdown's text, text = of the record's `text`, both against the truth's text\n",
    );
    s
}

/// The pages where the first peer matches most more of the truth's
/// elements than trawl, per scored kind (`--worst N` of each).
fn peer_leads(ours: &Side, peer: &Side, worst: usize) -> String {
    let mut s = String::new();
    if worst == 0 {
        return s;
    }
    for kind in SCORED {
        let Some(k) = KINDS.iter().position(|x| *x == kind) else {
            continue;
        };
        let mut leads: Vec<(i64, &PageScore, &PageScore)> = ours
            .pages
            .iter()
            .zip(&peer.pages)
            .map(|(a, b)| (b.counts[k].tp as i64 - a.counts[k].tp as i64, a, b))
            .filter(|x| x.0 > 0)
            .collect();
        leads.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.id.cmp(&b.1.id)));
        s.push_str(&format!("where {} leads on {kind}:\n", peer.name));
        for (gain, a, b) in leads.iter().take(worst) {
            let (ca, cb) = (a.counts[k], b.counts[k]);
            s.push_str(&format!(
                "  {} {:<14} +{gain}: truth {}, trawl {} of {}, {} {} of {}\n",
                a.id, a.kind, ca.truth, ca.tp, ca.pred, peer.name, cb.tp, cb.pred
            ));
        }
    }
    s
}

// ---- markdown-cases ----

/// One conversion case.
pub struct ConvCase {
    pub file: String,
    pub name: String,
    pub input: String,
    pub expected: String,
}

/// Whether a directory holds the conversion cases.
pub fn is_cases(dir: &Path) -> bool {
    dir.join("turndown-cases.html").is_file()
}

/// Reads `*-cases.html`: `<div class="case" data-name>` with an input
/// `<div>` and an expected `<pre>`.
pub fn load_cases(dir: &Path) -> Result<Vec<ConvCase>, EvalError> {
    let mut out = Vec::new();
    for file in ["turndown-cases.html", "gfm-cases.html"] {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| EvalError::BadFile {
            path: path.clone(),
            message: e.to_string(),
        })?;
        for chunk in text.split("<div class=\"case\"").skip(1) {
            let name = chunk
                .split("data-name=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or("");
            let Some(input_at) = chunk.find("<div class=\"input\">") else {
                continue;
            };
            let Some(exp_at) = chunk.find("<pre class=\"expected\">") else {
                continue;
            };
            let input_part = &chunk[input_at + 19..exp_at];
            let input = input_part
                .rfind("</div>")
                .map_or(input_part, |e| &input_part[..e]);
            let exp = &chunk[exp_at + 22..];
            let exp = exp.find("</pre>").map_or(exp, |e| &exp[..e]);
            out.push(ConvCase {
                file: file.to_string(),
                name: decode_entities(name),
                input: input.to_string(),
                expected: decode_entities(exp),
            });
        }
    }
    Ok(out)
}

/// The few entities the cases' `<pre>` uses.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| {
            let name = &tail[1..e];
            let c = match name {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ => name
                    .strip_prefix("#x")
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &tail[e + 1..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Markdown rendered to HTML with whitespace and paragraph tags
/// normalised: two documents that mean the same give the same string.
pub fn meaning(md: &str) -> String {
    use pulldown_cmark::{html, Options, Parser};
    let mut out = String::new();
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    html::push_html(&mut out, Parser::new_ext(md, opts));
    // Heading levels by rank among the levels used (as the scorer reads them).
    let mut used: Vec<char> = (1..=6u8)
        .map(|l| (b'0' + l) as char)
        .filter(|l| out.contains(&format!("<h{l}>")))
        .collect();
    used.sort_unstable();
    for (rank, l) in used.iter().enumerate() {
        let r = (b'1' + rank as u8) as char;
        out = out.replace(&format!("<h{l}>"), &format!("<H{r}>"));
        out = out.replace(&format!("</h{l}>"), &format!("</H{r}>"));
    }
    let out = out.replace("<p>", " ").replace("</p>", " ");
    let out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    out.replace("> ", ">").replace(" <", "<")
}

/// Runs the conversion cases: (file, name, passed, ours, expected).
pub fn run_cases(cases: &[ConvCase]) -> Vec<(String, String, bool, String, String)> {
    cases
        .iter()
        .map(|c| {
            let ours = html_to_markdown(c.input.as_bytes(), &Options::default())
                .unwrap_or_else(|e| format!("error: {e}"));
            let pass = meaning(&ours) == meaning(&c.expected);
            (
                c.file.clone(),
                c.name.clone(),
                pass,
                ours,
                c.expected.clone(),
            )
        })
        .collect()
}

/// The cases' summary, failures listed (with both sides when `show`).
pub fn format_cases(results: &[(String, String, bool, String, String)], show: bool) -> String {
    let mut by_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (f, _, pass, _, _) in results {
        let e = by_file.entry(f).or_default();
        e.0 += usize::from(*pass);
        e.1 += 1;
    }
    let mut s =
        String::from("markdown-cases · meaning compared (both rendered by pulldown-cmark)\n");
    for (f, (p, n)) in &by_file {
        s.push_str(&format!("{f}: {p} of {n} pass\n"));
    }
    for (f, name, pass, ours, exp) in results {
        if !pass {
            s.push_str(&format!("FAIL {f} · {name}\n"));
            if show {
                s.push_str(&format!("  ours:     {ours:?}\n  expected: {exp:?}\n"));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(name: &str, tp: u64) -> Side {
        let mut counts = [Counts::default(); 6];
        counts[0] = Counts {
            tp,
            pred: 3,
            truth: 3,
        };
        let words = prf("a b", "a b");
        Side {
            name: name.into(),
            pages: vec![PageScore {
                id: "0007".into(),
                kind: "article".into(),
                counts,
                words,
            }],
            text_words: None,
        }
    }

    #[test]
    fn the_pages_a_peer_leads_on_are_listed_by_kind() {
        let out = peer_leads(&side("trawl", 1), &side("peer", 3), 5);
        assert!(out.contains("where peer leads on heading:\n  0007 article        +2: truth 3, trawl 1 of 3, peer 3 of 3"), "{out}");
        // Nothing listed where trawl matches as many, or without --worst.
        assert!(!peer_leads(&side("trawl", 3), &side("peer", 3), 5).contains("0007"));
        assert!(peer_leads(&side("trawl", 1), &side("peer", 3), 0).is_empty());
    }
}
