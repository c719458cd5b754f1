//! The word-level F1 metric of WCXB (see ../shared/datasets/README.md):
//! tokens are `\w+` matches in lower-cased text; overlap is the multiset
//! intersection; an empty truth scores 1 only against an empty prediction.

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
    let t = tokens(truth);
    let p = tokens(pred);
    if t.is_empty() {
        let v = if p.is_empty() { 1.0 } else { 0.0 };
        return Prf { p: v, r: v, f1: v };
    }
    if p.is_empty() {
        return Prf::default();
    }
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for w in &t {
        *counts.entry(w).or_insert(0) += 1;
    }
    let mut overlap = 0u64;
    for w in &p {
        if let Some(c) = counts.get_mut(w.as_str()) {
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
    fn unicode_words() {
        assert_eq!(tokens("Größe: 10 ÉTÉ_2"), vec!["größe", "10", "été_2"]);
    }
}
