//! The online link model: which links lead to relevant pages.
//!
//! Logistic regression on a link's features (see [`super::LinkFeatures`]),
//! trained by stochastic gradient descent each time a page is judged: the
//! features of the link that led to it, against its relevance as a soft
//! label. Until it has seen enough pages, priorities lean on a fixed
//! heuristic; the blend moves to the model over its first
//! [`TRUST_AFTER`] updates. Small enough to store as JSON in sled.

use serde::{Deserialize, Serialize};

/// Link features, each in [0, 1]:
/// 0 parent relevance, 1 anchor keywords, 2 keywords around the link,
/// 3 URL keywords, 4 parent is a hub, 5 shallowness 1/(1+depth),
/// 6 host harvest rate, 7 parent relevance × hub.
pub(crate) const FEATURES: usize = crate::store::LINK_FEATURES;

/// Updates after which the model alone sets priorities.
pub(crate) const TRUST_AFTER: u64 = 300;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
/// The online link model: logistic regression from link features to the chance the target page is relevant.
pub struct LinkModel {
    /// Bias first, then one weight per feature.
    pub weights: Vec<f32>,
    /// Judged pages learned from.
    pub updates: u64,
    /// Step size of each update.
    pub learning_rate: f32,
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

impl LinkModel {
    /// An untrained model.
    pub fn new(learning_rate: f32) -> LinkModel {
        LinkModel {
            weights: vec![0.0; FEATURES + 1],
            updates: 0,
            learning_rate,
        }
    }

    /// A stored model, if it fits this build's features.
    pub fn from_json(bytes: &[u8], learning_rate: f32) -> Option<LinkModel> {
        let mut m: LinkModel = serde_json::from_slice(bytes).ok()?;
        if m.weights.len() != FEATURES + 1 || m.weights.iter().any(|w| !w.is_finite()) {
            return None;
        }
        m.learning_rate = learning_rate;
        Some(m)
    }

    /// The model as JSON (kept in the store).
    pub fn to_json(&self) -> Vec<u8> {
        // A struct of numbers always serializes.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Probability that the link leads to a relevant page.
    pub fn predict(&self, x: &[f32; FEATURES]) -> f32 {
        let z = self.weights[0]
            + x.iter()
                .zip(&self.weights[1..])
                .map(|(a, w)| a * w)
                .sum::<f32>();
        sigmoid(z)
    }

    /// One SGD step towards `label` in [0, 1].
    pub fn update(&mut self, x: &[f32; FEATURES], label: f32) {
        let err = label.clamp(0.0, 1.0) - self.predict(x);
        let lr = self.learning_rate;
        self.weights[0] += lr * err;
        for (w, a) in self.weights[1..].iter_mut().zip(x) {
            *w += lr * err * a;
        }
        self.updates += 1;
    }

    /// How much the model's prediction counts, in [0, 1].
    pub fn trust(&self) -> f32 {
        (self.updates as f32 / TRUST_AFTER as f32).min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_which_feature_predicts_relevance() {
        let mut m = LinkModel::new(0.3);
        let mut good = [0.0; FEATURES];
        good[1] = 1.0;
        let mut bad = [0.0; FEATURES];
        bad[2] = 1.0;
        for _ in 0..500 {
            m.update(&good, 1.0);
            m.update(&bad, 0.0);
        }
        assert!(m.predict(&good) > 0.8, "{}", m.predict(&good));
        assert!(m.predict(&bad) < 0.2, "{}", m.predict(&bad));
        assert_eq!(m.trust(), 1.0);
        let back = LinkModel::from_json(&m.to_json(), 0.3).expect("round trip");
        assert_eq!(back, m);
        assert!(
            LinkModel::from_json(b"{\"weights\":[1],\"updates\":1,\"learning_rate\":1}", 0.1)
                .is_none()
        );
        assert!(LinkModel::from_json(b"garbage", 0.1).is_none());
    }
}
