//! The papers' main-content algorithms (../shared/papers), one file each,
//! behind the shared [`Extractor`](crate::Extractor) trait: selectable by
//! name so they can be compared on the same pages.

pub(crate) mod article_std;
pub(crate) mod cc;
pub(crate) mod cetd_tpc;
pub(crate) mod list_rank;
pub(crate) mod segment;
