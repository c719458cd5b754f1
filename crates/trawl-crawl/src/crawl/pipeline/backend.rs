//! What differs between the two daemons, behind two small traits: the
//! scheduler's [`Leases`] (where URLs come from: the sled frontier, or the
//! hosts a worker claimed in the shared frontier) and the writer's
//! [`Commits`] (how a finished URL is committed: a sled transaction, or
//! the outbox and a fenced PostgreSQL transaction).

use std::future::Future;
use std::time::Instant;

use super::shared::{Finished, Visit};
use crate::frontier::Next;

/// How leasing stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::crawl) enum Health {
    /// Lease as usual.
    Up,
    /// Lease nothing for now; keep ticking (a cluster database away).
    Paused,
    /// The store cannot write: lease nothing, let in-flight work reach the
    /// writer, then end the run.
    Down,
}

/// The scheduler's side of a backend: where URLs are leased from.
pub(in crate::crawl) trait Leases: Send {
    /// Periodic work, called on every turn of the scheduler while it
    /// leases: seed files, set-aside URLs, and for a cluster its
    /// heartbeat, claims and lease renewals. Cheap when nothing is due.
    fn tick(&mut self, now: Instant) -> impl Future<Output = ()> + Send;

    /// The next URL whose host may be sent a request now.
    fn next(&mut self, now: Instant) -> impl Future<Output = Next> + Send;

    /// When [`Leases::tick`] next has work (the scheduler sleeps no longer).
    fn next_tick(&self, now: Instant) -> Instant;

    /// A leased URL ended.
    fn finished(&mut self, f: Finished);

    /// A URL that ended uncommitted reached the frontier.
    fn committed(&mut self, _host: &str, _key: &[u8]) {}

    /// How leasing stands.
    fn health(&self) -> Health;

    /// With nothing in flight and nothing to lease here: whether the whole
    /// crawl is out of work (`exit_when_idle`).
    fn idle(&mut self) -> impl Future<Output = bool> + Send {
        std::future::ready(true)
    }

    /// The run ends: give back what this daemon holds.
    fn close(&mut self) -> impl Future<Output = ()> + Send {
        std::future::ready(())
    }
}

/// What a commit did.
#[derive(Debug, Default)]
pub(in crate::crawl) struct Committed {
    /// The completions just given are in the frontier.
    pub now: bool,
    /// Earlier completions that reached the frontier: (host, lease key).
    pub earlier: Vec<(String, Vec<u8>)>,
}

/// The writer's side of a backend: how finished URLs are committed.
pub(in crate::crawl) trait Commits: Send + 'static {
    /// The most completions one commit takes.
    fn batch(&self) -> usize {
        1
    }

    /// Whether the local store takes writes (focus learning writes there).
    fn writable(&self) -> bool;

    /// Commits completions, in order.
    fn commit(&mut self, msgs: Vec<Visit>) -> impl Future<Output = Committed> + Send;

    /// When completions that could not be committed are tried again.
    fn retry_at(&self) -> Option<Instant> {
        None
    }

    /// Tries the waiting completions again.
    fn retry(&mut self) -> impl Future<Output = Committed> + Send {
        std::future::ready(Committed::default())
    }

    /// Last work; returns the completions not known to be saved.
    fn close(self) -> impl Future<Output = Vec<Visit>> + Send;
}
