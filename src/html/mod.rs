//! Everything between page bytes and a tree the extractors can walk:
//! charset decoding, parsing into a flat DOM, and rendering selected nodes
//! back to readable text.

pub mod charset;
pub mod dom;
pub mod mojibake;
pub mod render;
pub mod tag;
mod visibility;

pub use dom::{Agg, Doc, Kind, Limits, NodeId};
pub use render::{render, Selection};
pub use tag::Tag;
