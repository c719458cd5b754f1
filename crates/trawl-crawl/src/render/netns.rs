//! The browser in a network namespace of its own (Linux, where trawl may
//! make one: as root, or with CAP_SYS_ADMIN). trawl answers every request a
//! page makes itself (request interception), so the browser needs no
//! network: in its namespace there is only a loopback interface, and a
//! packet a page's script manages to send past the interception (WebRTC's
//! UDP, a socket trawl did not see) reaches nothing. trawl talks to the
//! browser's DevTools endpoint, which listens on that namespace's
//! loopback, through a relay: a listener on trawl's own loopback whose
//! connections are made from inside the browser's namespace.
//!
//! Where a namespace cannot be made (no privilege), the browser shares
//! trawl's network, with the flags and page script that turn off what
//! bypasses interception; the log says so once.

use std::os::fd::AsRawFd;
use std::sync::OnceLock;

/// Whether this process may give a child a network namespace (tried once,
/// on a thread of its own, which ends with the namespace it made).
pub(super) fn available() -> bool {
    static CAN: OnceLock<bool> = OnceLock::new();
    *CAN.get_or_init(|| {
        let tried = std::thread::spawn(|| {
            // SAFETY: unshare(2) on this short-lived thread only; no memory
            // is touched.
            unsafe { libc::unshare(libc::CLONE_NEWNET) == 0 }
        })
        .join()
        .unwrap_or(false);
        if !tried {
            tracing::warn!(
                "the browser shares trawl's network (a network namespace needs root or \
                 CAP_SYS_ADMIN); WebRTC and other non-intercepted traffic stay turned off \
                 by flags and the page script"
            );
        }
        tried
    })
}

/// Run in the browser's process between fork and exec: a new network
/// namespace with its loopback interface up. Async-signal-safe: system
/// calls only, no allocation.
pub(super) fn isolate() -> std::io::Result<()> {
    // SAFETY: unshare(2), socket(2), ioctl(2) and close(2) on a zeroed
    // `ifreq` naming "lo"; no memory of the parent is touched.
    unsafe {
        if libc::unshare(libc::CLONE_NEWNET) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let s = libc::socket(libc::AF_INET, libc::SOCK_DGRAM, 0);
        if s < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let mut req: libc::ifreq = std::mem::zeroed();
        req.ifr_name[0] = b'l' as libc::c_char;
        req.ifr_name[1] = b'o' as libc::c_char;
        let mut ok = libc::ioctl(s, libc::SIOCGIFFLAGS, &mut req) == 0;
        if ok {
            req.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
            ok = libc::ioctl(s, libc::SIOCSIFFLAGS, &req) == 0;
        }
        let err = std::io::Error::last_os_error();
        libc::close(s);
        if ok {
            Ok(())
        } else {
            Err(err)
        }
    }
}

/// A TCP connection to `127.0.0.1:port` in the network namespace of
/// process `pid`, made on a thread that enters it (and ends there).
fn connect_in(pid: u32, port: u16) -> std::io::Result<std::net::TcpStream> {
    let ns = std::fs::File::open(format!("/proc/{pid}/ns/net"))?;
    std::thread::spawn(move || {
        // SAFETY: setns(2) with a namespace file we hold open; it moves
        // only this thread, which ends after the connect.
        if unsafe { libc::setns(ns.as_raw_fd(), libc::CLONE_NEWNET) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let s = std::net::TcpStream::connect(("127.0.0.1", port))?;
        s.set_nonblocking(true)?;
        Ok(s)
    })
    .join()
    .unwrap_or_else(|_| Err(std::io::Error::other("the connecting thread panicked")))
}

/// The DevTools URL `ws` (on the browser's own loopback, in the namespace of
/// process `pid`) made reachable from trawl's: a relay listening on
/// trawl's loopback; returns the URL to connect to and the relay's task.
pub(super) async fn relay(
    pid: u32,
    ws: &str,
) -> std::io::Result<(String, tokio::task::JoinHandle<()>)> {
    let bad = || std::io::Error::other(format!("not a DevTools address: {ws}"));
    let rest = ws.strip_prefix("ws://127.0.0.1:").ok_or_else(bad)?;
    let (port, path) = rest.split_once('/').ok_or_else(bad)?;
    let port: u16 = port.parse().map_err(|_| bad())?;
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
    let local = listener.local_addr()?.port();
    let task = tokio::spawn(async move {
        while let Ok((mut from, _)) = listener.accept().await {
            tokio::spawn(async move {
                let inner = tokio::task::spawn_blocking(move || connect_in(pid, port)).await;
                let Ok(Ok(inner)) = inner else { return };
                let Ok(mut to) = tokio::net::TcpStream::from_std(inner) else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut from, &mut to).await;
            });
        }
    });
    Ok((format!("ws://127.0.0.1:{local}/{path}"), task))
}
