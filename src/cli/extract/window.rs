//! Pages extracted on all cores, written in input order through a bounded
//! window: a few pages per thread are in flight or waiting for an earlier
//! one to be written, so memory holds a window of pages whatever the
//! input's size (a directory of files or a WARC of millions), and a slow
//! page holds back the output, never the workers. A page whose work panics
//! is reported in its place; the others go on.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Pages per thread in flight or waiting to be written (a chunk of 256
/// waiting records was 8 MB of a one-thread run's peak).
const PER_THREAD: usize = 4;

/// Runs `work` on the payload of each of `items` on `pool`, and hands each
/// item's own part (`M`, kept on this thread) with its result to `emit`,
/// in the items' order. `None`: the work panicked. Items are drawn from
/// the iterator only as the window has room.
pub(super) fn in_order<M, P, T>(
    items: impl Iterator<Item = (M, P)>,
    pool: &rayon::ThreadPool,
    work: impl Fn(P) -> T + Sync,
    mut emit: impl FnMut(M, Option<T>) -> std::io::Result<()>,
) -> std::io::Result<()>
where
    P: Send,
    T: Send,
{
    let window = pool.current_num_threads().max(1) * PER_THREAD;
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Option<T>)>();
    let work = &work;
    let mut items = items.fuse();
    pool.in_place_scope(|scope| {
        let (mut spawned, mut written) = (0usize, 0usize);
        let mut metas = BTreeMap::new();
        let mut done = BTreeMap::new();
        loop {
            while spawned < written + window {
                let Some((meta, payload)) = items.next() else {
                    break;
                };
                metas.insert(spawned, meta);
                let (tx, at) = (tx.clone(), spawned);
                scope.spawn(move |_| {
                    // A panic must not leave the writer waiting for this page.
                    let res = catch_unwind(AssertUnwindSafe(|| work(payload))).ok();
                    let _ = tx.send((at, res));
                });
                spawned += 1;
            }
            if written == spawned {
                return Ok(());
            }
            let Ok((at, res)) = rx.recv() else {
                return Ok(());
            };
            done.insert(at, res);
            while let Some(res) = done.remove(&written) {
                if let Some(meta) = metas.remove(&written) {
                    emit(meta, res)?;
                }
                written += 1;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::in_order;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn results_come_out_in_order_past_slow_and_panicking_pages() {
        let mut got = Vec::new();
        let items = (0..200u64).map(|i| (i, i));
        let res = in_order(
            items,
            &pool(3),
            |i| {
                if i % 7 == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                if i == 50 {
                    panic!("page 50");
                }
                i * 2
            },
            |meta, res| {
                got.push((meta, res));
                Ok(())
            },
        );
        assert!(res.is_ok());
        assert_eq!(got.len(), 200);
        for (n, (meta, res)) in got.iter().enumerate() {
            assert_eq!(*meta, n as u64);
            let want = (n != 50).then_some(2 * n as u64);
            assert_eq!(*res, want, "page {n}");
        }
    }

    #[test]
    fn items_are_drawn_only_as_the_window_has_room() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let drawn = AtomicUsize::new(0);
        let mut most_ahead = 0;
        let mut written = 0;
        let items = (0..100usize).map(|i| {
            drawn.fetch_add(1, Ordering::SeqCst);
            (i, i)
        });
        let res = in_order(
            items,
            &pool(2),
            |i| i,
            |_, _| {
                written += 1;
                most_ahead = most_ahead.max(drawn.load(Ordering::SeqCst) - written);
                Ok(())
            },
        );
        assert!(res.is_ok());
        assert_eq!(written, 100);
        // Two threads, four pages each: never more than eight ahead.
        assert!(
            most_ahead < 8,
            "{most_ahead} pages drawn ahead of the output"
        );
    }

    #[test]
    fn an_output_error_stops_the_run() {
        let mut seen = 0;
        let res = in_order(
            (0..50usize).map(|i| (i, i)),
            &pool(2),
            |i| i,
            |_, _| {
                seen += 1;
                if seen == 3 {
                    return Err(std::io::Error::other("closed pipe"));
                }
                Ok(())
            },
        );
        assert!(res.is_err());
        assert_eq!(seen, 3);
    }
}
