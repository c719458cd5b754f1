//! What the daemon's process owns, and the library leaves to it: when to
//! stop (SIGINT/SIGTERM), the live progress line on a terminal, glibc's
//! allocator settings for a long run, and not dying of SIGXFSZ (a file-size
//! limit then fails a write like a full disk, which the store rides out).

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use trawl_crawl::Stats;

/// Process settings for a long-running crawl, before the runtime starts.
pub fn prepare_daemon() {
    trawl_crawl::store::alloc::tune_allocator();
    #[cfg(unix)]
    // SAFETY: installs the ignore disposition for one signal before the
    // runtime's threads start; no handler code runs. A file-size limit
    // (ulimit -f) then fails the write with EFBIG, which the writer
    // handles like a full disk, instead of killing the daemon.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Completes on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                // No SIGTERM handler could be installed: Ctrl-C still works.
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        // An error here means no handler: the daemon then runs until killed.
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Where log lines go: standard error; on a terminal each starts by
/// clearing the live progress line (which has no line break), so the two
/// do not run together; the progress line is drawn again on its next tick.
pub struct LogWriter {
    tty: bool,
}

impl LogWriter {
    pub fn new() -> LogWriter {
        LogWriter {
            tty: std::io::stderr().is_terminal(),
        }
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogWriter {
    type Writer = std::io::Stderr;

    fn make_writer(&'a self) -> Self::Writer {
        let mut err = std::io::stderr();
        if self.tty {
            use std::io::Write;
            // Nothing to do if the terminal is gone: the log line fails too.
            let _ = err.write_all(b"\r\x1b[2K");
        }
        err
    }
}

/// A live line on a terminal, a log line every 10 s otherwise.
pub async fn progress(stats: Arc<Stats>) {
    let tty = std::io::stderr().is_terminal();
    let every = if tty {
        Duration::from_millis(500)
    } else {
        Duration::from_secs(10)
    };
    loop {
        tokio::time::sleep(every).await;
        let line = stats.snapshot().line();
        if tty {
            eprint!("\r\x1b[2K{line}");
        } else {
            tracing::info!("{line}");
        }
    }
}
