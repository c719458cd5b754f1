//! What the crawl is looking for, and how relevant a text is to it.
//!
//! A topic is weighted keywords and phrases, optionally with example texts of
//! relevant pages and of pages to avoid. A page's relevance in [0, 1] comes
//! from its extracted main text only (menus and footers never reach it):
//! - keyword density: weighted keyword hits per 100 tokens, mapped through
//!   `1 - exp(-(density / 2)²)`, so two weighted hits per 100 tokens give
//!   0.63, four give 0.98, and a passing mention in a long text stays near 0;
//! - example similarity: cosine of the text's term vector with the centroid
//!   of the positive examples, less its similarity to the negative ones. The
//!   examples' 20 most characteristic terms also join the keywords (at half
//!   weight), so anchors and URLs can be scored with examples alone.
//!
//! Tokens are lower-cased letter/digit runs; Chinese, Japanese and Korean
//! characters are one token each, so densities compare across scripts.

use std::collections::HashMap;

/// Unicode ranges whose characters are tokens by themselves.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30ff | 0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xac00..=0xd7af | 0xf900..=0xfaff)
}

/// Lower-cased tokens of a text.
pub(crate) fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars() {
        if is_cjk(c) {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            out.push(c.to_string());
        } else if c.is_alphanumeric() {
            cur.extend(c.to_lowercase());
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Words too common to say anything about a topic (English; other
/// languages rely on the keywords).
const STOP: &[&str] = &[
    "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was",
    "one", "our", "out", "has", "his", "how", "its", "may", "new", "now", "see", "two", "who",
    "did", "get", "him", "let", "say", "she", "too", "use", "that", "with", "have", "this", "will",
    "your", "from", "they", "been", "more", "when", "were", "what", "there", "their", "which",
    "would", "about", "into", "than", "them", "then", "these", "some", "could", "other", "also",
    "after", "first", "most", "over", "such", "only", "very", "just", "like", "said", "each",
    "many", "where", "while", "those", "being", "because", "between", "through", "should",
];

/// A sparse, L2-normalised term vector.
#[derive(Debug, Clone, Default)]
pub(crate) struct TermVector(HashMap<String, f32>);

impl TermVector {
    /// The term vector of a text.
    pub(crate) fn of(text: &str) -> TermVector {
        let mut tf: HashMap<String, f32> = HashMap::new();
        for t in tokens(text) {
            let short = t.chars().count() < 3 && !t.chars().next().is_some_and(is_cjk);
            if short || STOP.contains(&t.as_str()) || t.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            *tf.entry(t).or_default() += 1.0;
        }
        let mut v = TermVector(tf.into_iter().map(|(k, n)| (k, 1.0 + n.ln())).collect());
        v.normalise();
        v
    }

    fn normalise(&mut self) {
        let norm = self.0.values().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            for x in self.0.values_mut() {
                *x /= norm;
            }
        }
    }

    /// The normalised mean of several vectors.
    pub(crate) fn centroid(vs: &[TermVector]) -> TermVector {
        let mut sum: HashMap<String, f32> = HashMap::new();
        for v in vs {
            for (k, x) in &v.0 {
                *sum.entry(k.clone()).or_default() += x;
            }
        }
        let mut c = TermVector(sum);
        c.normalise();
        c
    }

    /// Cosine similarity with another vector.
    pub(crate) fn cosine(&self, other: &TermVector) -> f32 {
        let (small, large) = if self.0.len() <= other.0.len() {
            (self, other)
        } else {
            (other, self)
        };
        small
            .0
            .iter()
            .filter_map(|(k, x)| large.0.get(k).map(|y| x * y))
            .sum()
    }

    /// Whether it has no terms.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A keyword or phrase with its weight.
#[derive(Debug, Clone)]
struct Keyword {
    tokens: Vec<String>,
    weight: f32,
}

/// A compiled topic.
#[derive(Debug, Clone, Default)]
pub struct Topic {
    keywords: Vec<Keyword>,
    positive: TermVector,
    negative: TermVector,
}

/// Terms of the examples added as keywords.
const DERIVED_KEYWORDS: usize = 20;

/// Density (weighted hits per 100 tokens) that scores 1 - 1/e.
const DENSITY_SCALE: f32 = 2.0;
/// Texts shorter than this many tokens count as this long (one keyword in a
/// three-word caption is not a relevant page).
const MIN_TOKENS: f32 = 100.0;

impl Topic {
    /// `keywords`: phrase → weight; examples: texts of relevant pages and of
    /// pages to avoid.
    pub fn new(keywords: &[(String, f32)], positive: &[String], negative: &[String]) -> Topic {
        let keywords = keywords
            .iter()
            .filter_map(|(k, w)| {
                let tokens = tokens(k);
                (!tokens.is_empty() && *w > 0.0).then_some(Keyword { tokens, weight: *w })
            })
            .collect();
        let vecs = |texts: &[String]| {
            TermVector::centroid(&texts.iter().map(|t| TermVector::of(t)).collect::<Vec<_>>())
        };
        let mut topic = Topic {
            keywords,
            positive: vecs(positive),
            negative: vecs(negative),
        };
        topic.derive_keywords();
        topic
    }

    /// Adds the examples' most characteristic terms as keywords (at half
    /// weight), so a topic given only by examples can still score anchor
    /// texts and URLs, which are too short for a similarity.
    fn derive_keywords(&mut self) {
        let mut terms: Vec<(&String, f32)> = self
            .positive
            .0
            .iter()
            .map(|(t, w)| (t, w - self.negative.0.get(t).copied().unwrap_or(0.0)))
            .filter(|(_, w)| *w > 0.0)
            .collect();
        terms.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let derived: Vec<Keyword> = terms
            .into_iter()
            .take(DERIVED_KEYWORDS)
            .filter(|(t, _)| !self.keywords.iter().any(|k| k.tokens == [(*t).clone()]))
            .map(|(t, _)| Keyword {
                tokens: vec![t.clone()],
                weight: 0.5,
            })
            .collect();
        self.keywords.extend(derived);
    }

    /// Whether there is anything to look for.
    pub fn is_empty(&self) -> bool {
        self.keywords.is_empty() && self.positive.is_empty()
    }

    /// Weighted keyword hits in a token list.
    fn hits(&self, toks: &[String]) -> f32 {
        let mut sum = 0.0;
        for k in &self.keywords {
            let n = k.tokens.len();
            if n == 0 || toks.len() < n {
                continue;
            }
            let count = toks
                .windows(n)
                .filter(|w| *w == k.tokens.as_slice())
                .count();
            sum += k.weight * count as f32;
        }
        sum
    }

    /// Keyword score in [0, 1] of a text (main text, anchor text, URL words).
    pub fn keyword_score(&self, text: &str, min_tokens: f32) -> f32 {
        if self.keywords.is_empty() {
            return 0.0;
        }
        let toks = tokens(text);
        let density = self.hits(&toks) * 100.0 / (toks.len() as f32).max(min_tokens);
        let d = density / DENSITY_SCALE;
        1.0 - (-d * d).exp()
    }

    /// Example similarity in [0, 1]: positive cosine above the negative one,
    /// scaled so a same-topic text (cosine ~0.3 on our runs) scores high.
    fn example_score(&self, text: &str) -> Option<f32> {
        if self.positive.is_empty() {
            return None;
        }
        let v = TermVector::of(text);
        let pos = v.cosine(&self.positive);
        let neg = if self.negative.is_empty() {
            0.0
        } else {
            v.cosine(&self.negative)
        };
        Some(((pos - neg.max(0.05)) / 0.2).clamp(0.0, 1.0))
    }

    /// Relevance of a page's main text, in [0, 1].
    pub fn relevance(&self, main_text: &str) -> f32 {
        let kw = (!self.keywords.is_empty()).then(|| self.keyword_score(main_text, MIN_TOKENS));
        match (kw, self.example_score(main_text)) {
            (Some(k), Some(e)) => 0.6 * k + 0.4 * e,
            (Some(k), None) => k,
            (None, Some(e)) => e,
            (None, None) => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic() -> Topic {
        Topic::new(
            &[("solar".into(), 1.0), ("heat pump".into(), 2.0)],
            &[],
            &[],
        )
    }

    #[test]
    fn tokens_split_words_and_cjk_characters() {
        assert_eq!(tokens("Heat-Pump, 2024!"), ["heat", "pump", "2024"]);
        assert_eq!(tokens("太阳能 power"), ["太", "阳", "能", "power"]);
    }

    #[test]
    fn dense_mentions_are_relevant_and_passing_ones_are_not() {
        let t = topic();
        let on = "Solar panels and a heat pump cut the bill. ".repeat(10);
        let off = format!(
            "{} solar",
            "The match ended in a draw after extra time. ".repeat(20)
        );
        assert!(t.relevance(&on) > 0.9, "{}", t.relevance(&on));
        assert!(t.relevance(&off) < 0.1, "{}", t.relevance(&off));
        assert!(t.relevance("") == 0.0);
        assert!(
            t.relevance("solar") < 0.3,
            "short texts count as 100 tokens"
        );
    }

    #[test]
    fn phrases_match_whole_token_runs() {
        let t = topic();
        let toks = tokens("a heat pump and a pump of heat");
        assert_eq!(t.hits(&toks), 2.0);
    }

    #[test]
    fn examples_score_similar_texts() {
        let t = Topic::new(
            &[],
            &["Goalkeeper saves penalty as the striker misses; the league table tightens.".into()],
            &["Bake the bread with flour, yeast and butter.".into()],
        );
        let sport = "The striker scored and the goalkeeper was beaten; the league leaders won.";
        let food = "Knead the flour with butter and yeast, then bake the bread.";
        assert!(t.relevance(sport) > t.relevance(food));
        assert!(t.relevance(food) < 0.1);
        // The examples' own terms score short texts such as anchors.
        assert!(t.keyword_score("Goalkeeper of the year", 5.0) > 0.5);
        assert_eq!(t.keyword_score("Bread and butter", 5.0), 0.0);
    }
}
