//! trawl-crawl: the crawl daemon as a library.
//!
//! ```text
//! seeds ─► frontier (sled queues, seen-set) ─► politeness (robots, clock)
//!       ─► fetch (reqwest) ─► trawl_extract ─► store (records, outcomes)
//!                                 └─► focus (link priorities) ─► frontier
//! ```

pub mod cluster;
pub mod config;
pub mod crawl;
pub mod fetch;
pub mod focus;
pub mod frontier;
pub mod politeness;
pub mod record;
pub mod seeds;
pub mod store;
