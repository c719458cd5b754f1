//! A tab's memory, capped for real: V8's `--max-old-space-size` bounds the
//! JavaScript heap only, and a page's typed arrays, images and DOM live
//! outside it (a page allocating 1.5 GB of `Uint8Array`s took its renderer
//! to 1.7 GB under a 512 MiB setting). So the browser's renderer processes
//! are measured while it runs, and one past [`Settings::tab_memory_mb`] of
//! resident memory is killed; the render it was doing fails with
//! `RenderError::Memory` and the next page gets a new renderer.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// Between two measurements of the renderers.
const EVERY: Duration = Duration::from_millis(50);
/// Between two searches for the browser's renderer processes.
const FIND_EVERY: u32 = 10;

/// Kills renderers of the browser `browser_pid` that grow past `limit_mb`,
/// counting each kill in `kills`, until aborted.
pub(super) async fn watch(browser_pid: u32, limit_mb: u64, kills: Arc<AtomicU64>) {
    let limit_kb = limit_mb.saturating_mul(1024);
    let mut renderers: Vec<u32> = Vec::new();
    let mut tick = 0u32;
    loop {
        if tick % FIND_EVERY == 0 {
            renderers = renderers_of(browser_pid);
        }
        tick = tick.wrapping_add(1);
        for &pid in &renderers {
            if rss_kb(pid).is_some_and(|kb| kb > limit_kb) {
                // SAFETY: kill(2) with a pid we found as the browser's own
                // renderer; a pid reused since is a risk of one tick (50
                // ms), checked again by the descent test just before.
                if descends_from(pid, browser_pid)
                    && unsafe { libc::kill(pid as i32, libc::SIGKILL) } == 0
                {
                    tracing::warn!(
                        pid,
                        limit_mb,
                        "a renderer passed render.tab_memory_mb: killed"
                    );
                    kills.fetch_add(1, Relaxed);
                }
            }
        }
        tokio::time::sleep(EVERY).await;
    }
}

/// Resident memory of `pid`, in KiB.
fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The parent of `pid`.
fn parent(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: the
    // fields after it start after its last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Whether `ancestor` is `pid`'s parent, grandparent, … (four levels: the
/// browser, its zygotes, their renderers).
fn descends_from(pid: u32, ancestor: u32) -> bool {
    let mut p = pid;
    for _ in 0..4 {
        match parent(p) {
            Some(up) if up == ancestor => return true,
            Some(up) if up > 1 => p = up,
            _ => return false,
        }
    }
    false
}

/// The renderer processes of the browser `browser_pid`.
fn renderers_of(browser_pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.windows(15).any(|w| w == b"--type=renderer"))
        })
        .filter(|&pid| descends_from(pid, browser_pid))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_descends_from_its_parent_and_has_a_size() {
        let me = std::process::id();
        let up = parent(me).expect("a parent");
        assert!(descends_from(me, up));
        assert!(!descends_from(me, me));
        assert!(rss_kb(me).is_some_and(|kb| kb > 0));
        assert!(renderers_of(me).is_empty());
    }
}
