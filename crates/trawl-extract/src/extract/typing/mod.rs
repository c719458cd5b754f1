//! Page typing: what kind of page this is (article, forum, product,
//! collection, listing, documentation, service, …), which decides how
//! `auto` reads it.
//!
//! [`classify`] gives the type from a trained linear model
//! ([`page_model`]) over the features [`page_type`] computes (markup shape,
//! URL tokens, structured data).

pub(crate) mod classify;
pub(crate) mod page_model;
pub(crate) mod page_type;

pub(crate) use classify::PageType;
