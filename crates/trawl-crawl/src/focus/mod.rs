//! Focused crawling: how relevant a page is, and which links to follow first.
//!
//! With a topic configured, every extracted page gets a relevance in [0, 1]
//! (`topic`), and every link found on it a priority that the frontier
//! serves highest-first across hosts. A link's priority comes from its
//! features — the parent page's relevance, the keywords in its anchor text,
//! around it and in its URL, whether the parent is a hub (list-like page),
//! its depth and how well its host has paid off so far — first through a
//! fixed heuristic, then more and more through an online model (`model`)
//! trained on the pages judged so far. The features travel with the queued
//! URL, so when the page is fetched and judged, the model learns from the
//! link that led to it. `strategy = "bfs"` keeps breadth-first order for
//! comparison; without a topic the crawl is unfocused, as before.

pub(crate) mod model;
pub(crate) mod topic;

use std::sync::RwLock;

pub use model::LinkModel;
pub(crate) use model::FEATURES;
pub(crate) use topic::Topic;
use trawl_extract::PageType;

/// Crawl order (`focus.strategy`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Highest expected relevance first.
    #[default]
    Focused,
    /// Shallowest first (the comparison baseline).
    Bfs,
}

impl Strategy {
    /// The name as config.toml and `--strategy` write it.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Focused => "focused",
            Strategy::Bfs => "bfs",
        }
    }

    /// From its name in config and on the command line (`focused`, `bfs`).
    pub fn parse(s: &str) -> Option<Strategy> {
        match s {
            "focused" => Some(Strategy::Focused),
            "bfs" => Some(Strategy::Bfs),
            _ => None,
        }
    }
}

/// What a focused crawl is short of (`focus.budget`): time (fill every
/// fetch slot the politeness allows) or pages (leave a slot idle rather than
/// spend a fetch far below what the best hosts still hold).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Budget {
    /// Hours are the budget: patience compares with the fetches in flight.
    #[default]
    Time,
    /// Pages are the budget: patience compares with the best URL queued at
    /// any host, those waiting for their politeness delay included.
    Pages,
}

/// What is known about a link when it is found.
#[derive(Debug, Clone, Default)]
pub(crate) struct LinkFeatures {
    /// Relevance of the page the link is on.
    pub parent_relevance: f32,
    /// Relevance of the link's anchor text.
    pub anchor: f32,
    /// Relevance of the text around the link.
    pub context: f32,
    /// Relevance of the URL's words.
    pub url: f32,
    /// Whether the page it is on links to many of its kind (a listing).
    pub hub: bool,
    /// Link depth from the seed.
    pub depth: u16,
    /// The host's harvest rate so far.
    pub host_rate: f32,
}

impl LinkFeatures {
    /// The model's input vector.
    pub(crate) fn vector(&self) -> [f32; FEATURES] {
        let hub = if self.hub { 1.0 } else { 0.0 };
        [
            self.parent_relevance,
            self.anchor,
            self.context,
            self.url,
            hub,
            1.0 / (1.0 + f32::from(self.depth)),
            self.host_rate,
            self.parent_relevance * hub,
        ]
    }
}

/// Features stored with a queued URL, one byte each.
pub(crate) fn quantize(x: &[f32; FEATURES]) -> [u8; FEATURES] {
    x.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// Features back from their stored bytes.
pub(crate) fn dequantize(q: &[u8; FEATURES]) -> [f32; FEATURES] {
    q.map(|v| f32::from(v) / 255.0)
}

/// Whether pages of this type link to many others of their kind.
pub(crate) fn is_hub(t: PageType) -> bool {
    matches!(
        t,
        PageType::Listing | PageType::Collection | PageType::Forum
    )
}

/// The topics, the strategy and the link model of a crawl.
pub(crate) struct Focus {
    /// The `[focus]` topic, for seeds without a `topic=`.
    pub topic: Option<Topic>,
    /// Named topics, for seeds with `topic=NAME`.
    pub topics: std::collections::HashMap<String, Topic>,
    /// Focused (best-first by predicted relevance) or breadth-first.
    pub strategy: Strategy,
    /// Pages at or above this relevance count as relevant (harvest rate).
    pub threshold: f32,
    model: RwLock<LinkModel>,
}

/// Meta key of the stored link model.
pub const MODEL_KEY: &str = "focus_model";

impl Focus {
    /// A focus from its topics, strategy, relevance threshold and link model.
    pub(crate) fn new(
        topic: Option<Topic>,
        topics: std::collections::HashMap<String, Topic>,
        strategy: Strategy,
        threshold: f32,
        model: LinkModel,
    ) -> Focus {
        Focus {
            topic,
            topics,
            strategy,
            threshold,
            model: RwLock::new(model),
        }
    }

    /// The topic pages of a seed are judged by (`None`: not judged).
    pub(crate) fn topic_for(&self, name: Option<&str>) -> Option<&Topic> {
        match name {
            Some(n) => self.topics.get(n).or(self.topic.as_ref()),
            None => self.topic.as_ref(),
        }
    }

    /// The fixed prior: what a link looks like before anything is learned.
    fn heuristic(x: &[f32; FEATURES]) -> f32 {
        let text = x[1].max(x[2] * 0.8);
        0.35 * x[0] + 0.3 * text + 0.15 * x[3] + 0.1 * x[6] + 0.05 * x[7] + 0.05 * x[5]
    }

    /// A link's priority in [0, 1], and the features to store with it.
    pub(crate) fn score(&self, f: &LinkFeatures) -> (f32, Option<[u8; FEATURES]>) {
        match self.strategy {
            Strategy::Bfs => (1.0 / (1.0 + f32::from(f.depth)), None),
            Strategy::Focused => {
                let x = f.vector();
                let h = Self::heuristic(&x);
                let p = match self.model.read() {
                    Ok(m) => {
                        let t = m.trust();
                        (1.0 - t) * h + t * m.predict(&x)
                    }
                    Err(_) => h,
                };
                (p.clamp(0.0, 1.0), Some(quantize(&x)))
            }
        }
    }

    /// Learns from a judged page reached through a link with features `q`.
    /// Returns the model's update count.
    pub(crate) fn learn(&self, q: &[u8; FEATURES], relevance: f32) -> u64 {
        match self.model.write() {
            Ok(mut m) => {
                m.update(&dequantize(q), relevance);
                m.updates
            }
            Err(_) => 0,
        }
    }

    /// The model, serialized for the store.
    pub(crate) fn model_json(&self) -> Vec<u8> {
        self.model.read().map(|m| m.to_json()).unwrap_or_default()
    }

    /// How many times the link model has learned from a judged page.
    pub(crate) fn model_updates(&self) -> u64 {
        self.model.read().map_or(0, |m| m.updates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn focus(strategy: Strategy) -> Focus {
        let mut named = std::collections::HashMap::new();
        named.insert(
            "food".to_string(),
            Topic::new(&[("bread".into(), 1.0)], &[], &[]),
        );
        Focus::new(
            Some(Topic::new(&[("solar".into(), 1.0)], &[], &[])),
            named,
            strategy,
            0.5,
            LinkModel::new(0.1),
        )
    }

    #[test]
    fn relevant_parents_and_anchors_come_first() {
        let f = focus(Strategy::Focused);
        let good = LinkFeatures {
            parent_relevance: 0.9,
            anchor: 0.8,
            depth: 3,
            ..LinkFeatures::default()
        };
        let bad = LinkFeatures {
            parent_relevance: 0.1,
            depth: 1,
            ..LinkFeatures::default()
        };
        assert!(f.score(&good).0 > f.score(&bad).0);
        let b = focus(Strategy::Bfs);
        assert!(b.score(&good).0 < b.score(&bad).0, "bfs: shallow first");
        assert!(b.score(&good).1.is_none());
    }

    #[test]
    fn seeds_are_judged_by_their_topic() {
        let f = focus(Strategy::Focused);
        let bread = "bread ".repeat(50);
        let judge = |name| f.topic_for(name).map(|t| t.relevance(&bread));
        assert_eq!(judge(Some("food")), Some(1.0));
        assert_eq!(judge(None), Some(0.0));
        assert_eq!(judge(Some("unknown")), Some(0.0), "falls back to [focus]");
    }

    #[test]
    fn features_survive_quantization() {
        let x = [0.0, 0.25, 0.5, 1.0, 1.0, 0.5, 0.1, 2.0];
        let back = dequantize(&quantize(&x));
        assert!((back[1] - 0.25).abs() < 0.01 && back[7] == 1.0);
    }
}
