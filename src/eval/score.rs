//! The metrics of the datasets (see ../shared/datasets/README.md), computed
//! as `../shared/tools/score.py` computes them:
//! - word F1 (WCXB, CleanEval, multilingual-dev): tokens are `\w+` matches in
//!   lower-cased text; overlap is the multiset intersection; an empty truth
//!   scores 1 only against an empty prediction;
//! - character F1 (multilingual-dev, the fair measure for Chinese): the same
//!   over the non-space characters;
//! - snippets (trafilatura-eval, trafilatura's own metric): whitespace runs
//!   become one space, then each snippet is a case-sensitive substring test;
//!   counts are summed over pages.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;

/// Precision, recall and F1 of one page.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prf {
    pub p: f64,
    pub r: f64,
    pub f1: f64,
}

fn word() -> &'static Regex {
    static WORD: OnceLock<Regex> = OnceLock::new();
    // A literal pattern; it compiles.
    WORD.get_or_init(|| Regex::new(r"\w+").unwrap_or_else(|_| unreachable!()))
}

/// Word tokens of a text.
pub fn tokens(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    word()
        .find_iter(&lower)
        .map(|m| m.as_str().to_string())
        .collect()
}

/// Scores a prediction against the truth.
pub fn prf(pred: &str, truth: &str) -> Prf {
    overlap_prf(&tokens(pred), &tokens(truth))
}

/// Multiset P/R/F1 of two token lists (the empty-truth rule of [`prf`]).
fn overlap_prf<T: std::hash::Hash + Eq>(p: &[T], t: &[T]) -> Prf {
    if t.is_empty() {
        let v = if p.is_empty() { 1.0 } else { 0.0 };
        return Prf { p: v, r: v, f1: v };
    }
    if p.is_empty() {
        return Prf::default();
    }
    let mut counts: HashMap<&T, i64> = HashMap::new();
    for w in t {
        *counts.entry(w).or_insert(0) += 1;
    }
    let mut overlap = 0u64;
    for w in p {
        if let Some(c) = counts.get_mut(w) {
            if *c > 0 {
                *c -= 1;
                overlap += 1;
            }
        }
    }
    let precision = overlap as f64 / p.len() as f64;
    let recall = overlap as f64 / t.len() as f64;
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    Prf {
        p: precision,
        r: recall,
        f1,
    }
}

/// Python's `\s` (str.isspace): Unicode white space and the four ASCII
/// separators U+001C–U+001F.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Character-level scores: the non-space characters of the lower-cased texts.
pub fn char_prf(pred: &str, truth: &str) -> Prf {
    let chars =
        |s: &str| -> Vec<char> { s.to_lowercase().chars().filter(|c| !py_space(*c)).collect() };
    overlap_prf(&chars(pred), &chars(truth))
}

/// Whitespace runs made one space, ends stripped (trafilatura's `ws`).
pub fn squeeze(text: &str) -> String {
    text.split(py_space)
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Snippet counts of one page or summed over pages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Snippets {
    /// `with` snippets found.
    pub tp: u64,
    /// `without` snippets found.
    pub fp: u64,
    /// `with` snippets missing.
    pub fn_: u64,
    /// `without` snippets absent.
    pub tn: u64,
}

impl Snippets {
    /// Tests a page's text against its snippets.
    pub fn of(text: &str, with: &[String], without: &[String]) -> Snippets {
        let text = squeeze(text);
        let found = |s: &String| text.contains(&squeeze(s));
        let a = with.iter().filter(|s| found(s)).count() as u64;
        let b = without.iter().filter(|s| found(s)).count() as u64;
        Snippets {
            tp: a,
            fp: b,
            fn_: with.len() as u64 - a,
            tn: without.len() as u64 - b,
        }
    }

    pub fn add(&mut self, o: Snippets) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.tn += o.tn;
    }

    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }

    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }

    pub fn accuracy(&self) -> f64 {
        ratio(self.tp + self.tn, self.tp + self.fp + self.fn_ + self.tn)
    }

    pub fn f1(&self) -> f64 {
        ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }

    /// As a [`Prf`] (one page's score in a "where we lose" report).
    pub fn prf(&self) -> Prf {
        Prf {
            p: self.precision(),
            r: self.recall(),
            f1: self.f1(),
        }
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_matches_the_readme() {
        assert_eq!(prf("", "").f1, 1.0);
        assert_eq!(prf("x", "").f1, 0.0);
        assert_eq!(prf("", "x").f1, 0.0);
        let s = prf("The cat sat", "the cat sat on the mat");
        assert!((s.p - 1.0).abs() < 1e-9);
        assert!((s.r - 0.5).abs() < 1e-9);
        assert!((s.f1 - 2.0 / 3.0).abs() < 1e-9);
        // Multiset: a repeated word counts as often as it appears in both.
        let s = prf("the the the", "the cat");
        assert!((s.p - 1.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn characters_and_snippets_as_the_reference_scorer() {
        let s = char_prf("天气 很好", "今天天气很好");
        assert!((s.p - 1.0).abs() < 1e-9 && (s.r - 4.0 / 6.0).abs() < 1e-9);
        assert_eq!(squeeze("  a\n\t b  c "), "a b c");
        let with = vec!["quick  brown".to_string(), "lazy dog".to_string()];
        let without = vec!["Menu".to_string()];
        let c = Snippets::of("The quick\nbrown fox. Menu", &with, &without);
        assert_eq!((c.tp, c.fn_, c.fp, c.tn), (1, 1, 1, 0));
        assert!((c.f1() - 2.0 / 4.0).abs() < 1e-9);
        // Case-sensitive, as trafilatura's harness.
        assert_eq!(Snippets::of("menu", &[], &without).fp, 0);
    }

    #[test]
    fn unicode_words() {
        assert_eq!(tokens("Größe: 10 ÉTÉ_2"), vec!["größe", "10", "été_2"]);
    }
}
