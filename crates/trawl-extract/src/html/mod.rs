//! Everything between page bytes and a tree the extractors can walk:
//! charset decoding, parsing into a flat DOM, and rendering selected nodes
//! back to readable text.

pub(crate) mod charset;
mod class_names;
pub(crate) mod differential;
pub(crate) mod dom;
mod head_meta;
pub(crate) mod leaves;
pub(crate) mod markdown;
pub(crate) mod mojibake;
pub(crate) mod render;
mod sink;
pub(crate) mod tag;
mod tokenize;
mod visibility;
mod whitespace;

pub use dom::Doc;
pub(crate) use dom::NodeId;
pub(crate) use dom::{Agg, Kind};
pub(crate) use head_meta::SHORT_INLINE_CHARS;
pub use render::{render, Selection};
pub(crate) use sink::Limits;
pub(crate) use tag::Tag;
