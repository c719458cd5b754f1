//! What a template's self-check found ([`Check`], per field
//! [`FieldCheck`]): kept with the template, so a crawl knows whether to use
//! it. The check itself is [`check`](super::check).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How one field fared on the checked pages.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FieldCheck {
    /// Checked pages whose structured data or labelled rows give the field.
    pub evidence: usize,
    /// Of those, pages where the template read it in agreement.
    pub template: usize,
    /// Pages where the template read a different value.
    pub template_wrong: usize,
    /// Pages where the single-page product record agrees.
    pub record: usize,
    /// Pages that show the value in a text leaf (a template can only read
    /// what is shown; a JSON-LD SKU the page never shows is not).
    #[serde(default)]
    pub shown: usize,
}

/// What a template's self-check found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// Pages checked (not among the samples).
    pub pages: usize,
    /// Per field with evidence on the checked pages.
    pub fields: BTreeMap<String, FieldCheck>,
    /// Fields the evidence gives, and the pages show, on at least half the
    /// checked pages that the template reads right on fewer than
    /// `check::FIELD_PASS` of them.
    pub weak: Vec<String>,
    /// Share of all evidence the template agrees with.
    pub template_score: f32,
    /// The same for the single-page product record.
    pub record_score: f32,
}

impl Check {
    /// No field is missing or wrong.
    pub fn passed(&self) -> bool {
        self.weak.is_empty()
    }

    /// Whether the template does at least as well as the single-page
    /// record on its own site (with no evidence at all, it is used).
    pub fn template_is_used(&self) -> bool {
        self.template_score >= self.record_score
    }
}
