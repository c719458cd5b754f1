//! The writer: the one thread that ends leases. It takes completions from
//! the CPU stage, the renders and the fetch tasks, plans each URL's next
//! visit, counts how it ended, lets the focus learn from judged pages,
//! places its exchanges in the archive, commits them through the
//! backend's [`Commits`] (a batch at a time, in order), and tells the
//! scheduler each URL ended and, later, which ones reached the frontier.

use std::sync::Arc;

use std::sync::atomic::Ordering::Relaxed;

use tokio::sync::{mpsc, watch};

use super::archive::Archive;
use super::backend::{Commits, Committed};
use super::shared::Finished;
use super::shared::{Sched, Visit};
use crate::crawl::focused::{learn, save_model};
use crate::crawl::stats::Stats;
use crate::focus::Focus;
use crate::record::{Outcome, RecordKind};
use crate::store::{Completion, Store};

/// What the writer works with besides its backend.
pub(super) struct Ends {
    pub store: Store,
    pub focus: Option<Arc<Focus>>,
    pub archive: Option<Arc<Archive>>,
    pub stats: Arc<Stats>,
    /// Where the scheduler hears that URLs ended.
    pub sched: mpsc::UnboundedSender<Sched>,
    /// The run's stop (the writer gives up waiting for a full disk then).
    pub stop: watch::Receiver<bool>,
    /// Sets a finished URL's next visit on its completion (`revisit`).
    pub plan: Box<dyn Fn(&mut Visit) + Send>,
}

/// Runs the writer until `rx` closes. Returns the completions the backend
/// could not save (the local store down), for the daemon to replay.
pub(super) async fn run<C: Commits>(
    mut commits: C,
    ends: Ends,
    mut rx: mpsc::Receiver<Visit>,
) -> Vec<Visit> {
    let Ends {
        store,
        focus,
        archive,
        stats,
        sched,
        mut stop,
        plan,
    } = ends;
    // The scheduler may be gone during shutdown; nothing to tell then.
    let tell = |c: Committed, ended: Vec<(String, Vec<u8>, _, _)>| {
        for (host, key) in c.earlier {
            let _ = sched.send(Sched::Committed { host, key });
        }
        for (host, key, delay, hold) in ended {
            let _ = sched.send(Sched::Finished(Finished {
                host,
                key,
                delay,
                hold,
                committed: c.now,
            }));
        }
    };
    loop {
        let msg = match commits.retry_at() {
            Some(at) => tokio::select! {
                m = rx.recv() => m,
                _ = tokio::time::sleep_until(at.into()) => {
                    let c = commits.retry().await;
                    tell(c, vec![]);
                    continue;
                }
            },
            None => rx.recv().await,
        };
        let Some(msg) = msg else { break };
        // What else is waiting joins this commit (up to a batch).
        let mut msgs = vec![msg];
        while msgs.len() < commits.batch() {
            match rx.try_recv() {
                Ok(m) => msgs.push(m),
                Err(_) => break,
            }
        }
        let mut ended = Vec::with_capacity(msgs.len());
        for msg in &mut msgs {
            plan(msg);
            count(&stats, &msg.completion);
            // A revisit's page was judged on its first visit.
            let first = msg.lease.item.revisit.is_none();
            if let (Some(f), Completion::Done { outcome, .. }, true, true) =
                (&focus, &msg.completion, commits.writable(), first)
            {
                learn(f, &store, &stats, &msg.lease, outcome);
            }
            ended.push((
                msg.lease.host.clone(),
                msg.lease.key.clone(),
                msg.delay,
                msg.hold,
            ));
        }
        // The pages' exchanges are durable before the pages are committed.
        if let Some(a) = &archive {
            place(a, &mut msgs, &stats, &mut stop).await;
        }
        let c = commits.commit(msgs).await;
        tell(c, ended);
    }
    // Exchanges of fetches cut by the shutdown: kept too.
    if let Some(a) = &archive {
        if let Err(e) = a.flush() {
            tracing::warn!(error = %e, "the last WARC records were not written");
        }
    }
    if let Some(f) = focus.as_ref().filter(|_| commits.writable()) {
        save_model(f, &store);
    }
    commits.close().await
}

/// Counts how a URL ended, once, here where every URL ends: its outcome's
/// kind and, for a record, its page type, template fields, near-duplicate
/// and version. (Events on the way, such as fetches, statuses, retries and
/// blocks, are counted where they happen.)
fn count(stats: &Stats, completion: &Completion) {
    let (outcome, record) = match completion {
        Completion::Done {
            outcome, record, ..
        } => (outcome, record.as_deref()),
        Completion::Park { outcome, .. } => (outcome, None),
        Completion::Retry { .. } => return,
    };
    let counter = match outcome.outcome {
        Outcome::ExtractionError => Some(&stats.extraction_errors),
        Outcome::Unchanged => Some(&stats.unchanged),
        Outcome::Noindex => Some(&stats.noindex),
        Outcome::RobotsDenied => Some(&stats.robots_denied),
        Outcome::HostStopped => Some(&stats.host_stopped_urls),
        Outcome::BudgetSpent => Some(&stats.budget_spent),
        _ => None,
    };
    if let Some(c) = counter {
        c.fetch_add(1, Relaxed);
    }
    if let Some(r) = record {
        stats.record_made(r.page_type.name());
        let marks = [
            (&stats.duplicates, r.duplicate_of.is_some()),
            (&stats.versions, r.previous.is_some()),
            (&stats.products, r.kind == Some(RecordKind::Product)),
        ];
        for (c, _) in marks.iter().filter(|(_, yes)| *yes) {
            c.fetch_add(1, Relaxed);
        }
    }
}

/// How long the writer waits before writing the archive again.
const ARCHIVE_RETRY: std::time::Duration = std::time::Duration::from_secs(3);

/// Appends the waiting exchanges to the archive, makes them durable, and
/// gives each page's record its response's WARC location. A write that
/// fails (a full disk) pauses the crawl (no new fetches, on one machine and
/// in a cluster) and is tried again every few seconds, this batch held
/// back meanwhile, until it succeeds or the run stops (then these pages
/// keep no WARC location).
async fn place(
    archive: &Archive,
    msgs: &mut [Visit],
    stats: &Stats,
    stop: &mut watch::Receiver<bool>,
) {
    let mut failing = false;
    while let Err(e) = archive.flush() {
        if !failing {
            tracing::error!(error = %e, "WARC write failed; fetching is paused until the archive can be written again");
            stats.error(format!("WARC write failed: {e}"));
            stats.archive_down.store(true, Relaxed);
            failing = true;
        }
        if *stop.borrow() {
            tracing::warn!("stopping while the archive cannot be written: this batch's pages keep no WARC location");
            return;
        }
        tokio::select! {
            _ = tokio::time::sleep(ARCHIVE_RETRY) => {}
            _ = stop.changed() => {}
        }
    }
    if failing {
        tracing::info!("the archive is written again; fetching resumes");
        stats.archive_down.store(false, Relaxed);
    }
    for msg in msgs {
        let at = msg.archived.and_then(|id| archive.located(id));
        let dom = msg.archived_dom.and_then(|id| archive.located(id));
        if let Completion::Done {
            record: Some(r), ..
        } = &mut msg.completion
        {
            r.warc = at;
            if let Some(note) = &mut r.rendered {
                note.warc = dom;
            }
        }
    }
}
