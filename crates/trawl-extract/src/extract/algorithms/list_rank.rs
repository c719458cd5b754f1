//! Paper 002, list pages: rank same-depth, same-class elements.
//!
//! Every element is keyed by (depth, class name); per key count occurrences O
//! and total text length L; rank keys by `R(O, L)`; among the top n = 15 keys
//! take the one with the largest average text length `TL = L / O`; output the
//! text of all its elements.
//!
//! The paper's formula for R did not survive in our copy. We use `R = O · L`
//! (the total text weight of the key), and consider only keys that repeat
//! (O ≥ [`MIN_REPEAT`](crate::extract::list_records::MIN_REPEAT));
//! classless elements are keyed by their tag name so bare `<li>` lists count
//! too. Both choices measured on wcxb-dev. The ranking itself is
//! [`list_records`](crate::extract::list_records), which page typing and
//! `auto` read too.

use super::Extractor;
use crate::extract::list_records::records;
use crate::extract::noise;
use crate::html::{Doc, Selection};

pub(crate) struct ListRank;

impl Extractor for ListRank {
    fn name(&self) -> &'static str {
        "list-rank"
    }

    fn select(&self, doc: &Doc) -> Selection {
        let noise = noise::structural(doc);
        let ids = records(doc, &noise);
        if ids.is_empty() {
            return Selection::subtree(doc, doc.body());
        }
        let mut sel = Selection::none(doc);
        for id in ids {
            sel.include(doc, id);
            sel.line_break_around(id);
        }
        sel
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::render;

    #[test]
    fn outputs_every_record() {
        let cards: String = (0..6)
            .map(|i| format!("<div class=card><h3>Item {i}</h3><p>Description of item number {i} here.</p></div>"))
            .collect();
        let html = format!(
            "<body><ul class=nav>{}</ul><div class=grid>{cards}</div></body>",
            "<li class=m><a href=/x>Link</a></li>".repeat(4)
        );
        let doc = Doc::parse_str(&html);
        let text = render(&doc, &ListRank.select(&doc));
        for i in 0..6 {
            assert!(text.contains(&format!("item number {i}")), "{text}");
        }
        assert!(!text.contains("Link"));
    }
}
