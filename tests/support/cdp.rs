//! A small Chrome DevTools Protocol client for browser tests: Debian's
//! chromium, headless, driven over `--remote-debugging-pipe` (JSON messages
//! ended by a NUL byte, the browser reading fd 3 and writing fd 4), so no
//! WebSocket and no port is needed. One page target, attached in flat mode;
//! events (console messages, exceptions, log entries) are kept for the
//! test to read.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The browser: `TRAWL_CHROMIUM`, else `chromium` on the PATH, else
/// `/usr/bin/chromium`; `None` (after [`super::skip_or_fail`]) when none runs.
pub fn chromium() -> Option<PathBuf> {
    let cands = [
        std::env::var("TRAWL_CHROMIUM").ok().map(PathBuf::from),
        Some(PathBuf::from("chromium")),
        Some(PathBuf::from("/usr/bin/chromium")),
    ];
    for c in cands.into_iter().flatten() {
        let ok = Command::new(&c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(c);
        }
    }
    super::skip_or_fail(
        "chromium not installed (apt-get install chromium); the browser test is not run",
    );
    None
}

/// A headless browser with one page attached.
pub struct Browser {
    child: Child,
    to: File,
    from: Receiver<Value>,
    next_id: u64,
    session: String,
    /// Events received so far (method and params).
    pub events: Vec<Value>,
}

fn pipe() -> (RawFd, RawFd) {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    let r = unsafe { libc::pipe(fds.as_mut_ptr()) };
    assert_eq!(r, 0, "pipe: {}", std::io::Error::last_os_error());
    (fds[0], fds[1])
}

impl Browser {
    /// Starts `exe` headless with a fresh profile in `profile` and a page of
    /// `width`×`height` pixels, and attaches to that page.
    pub fn launch(exe: &Path, profile: &Path, width: u32, height: u32) -> Browser {
        let (browser_in, ours_out) = pipe(); // we write, the browser reads fd 3
        let (ours_in, browser_out) = pipe(); // the browser writes fd 4, we read
        let mut cmd = Command::new(exe);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--remote-debugging-pipe",
        ])
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .env("HOME", profile)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (dup2, close) between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if libc::dup2(browser_in, 3) < 0 || libc::dup2(browser_out, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                for fd in [browser_in, browser_out, ours_in, ours_out] {
                    if fd > 4 {
                        libc::close(fd);
                    }
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("start chromium");
        // SAFETY: the descriptors came from pipe(2) above and are owned here alone.
        let (to, from_file) = unsafe {
            libc::close(browser_in);
            libc::close(browser_out);
            (File::from_raw_fd(ours_out), File::from_raw_fd(ours_in))
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(from_file);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        if let Ok(v) = serde_json::from_slice::<Value>(&buf) {
                            if tx.send(v).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        });
        let mut b = Browser {
            child,
            to,
            from: rx,
            next_id: 1,
            session: String::new(),
            events: Vec::new(),
        };
        let target = b.send(
            "Target.createTarget",
            json!({ "url": "about:blank" }),
            false,
        );
        let id = target["targetId"].as_str().expect("targetId").to_string();
        let attached = b.send(
            "Target.attachToTarget",
            json!({ "targetId": id, "flatten": true }),
            false,
        );
        b.session = attached["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_string();
        for m in ["Page.enable", "Runtime.enable", "Log.enable"] {
            b.call(m, json!({}));
        }
        b
    }

    /// Sends a command (to the page when `to_page`) and waits for its
    /// result; panics on a protocol error or after 20 s.
    fn send(&mut self, method: &str, params: Value, to_page: bool) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if to_page {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&msg).expect("json");
        bytes.push(0);
        self.to.write_all(&bytes).expect("write to chromium");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(v) if v["id"].as_u64() == Some(id) => {
                    assert!(v.get("error").is_none(), "{method}: {}", v["error"]);
                    return v["result"].clone();
                }
                Ok(v) => {
                    if v.get("method").is_some() {
                        self.events.push(v);
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("{method}: no answer from chromium"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: chromium went away"),
            }
        }
    }

    /// A command to the page.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, true)
    }

    /// Opens `url` in the page.
    pub fn navigate(&mut self, url: &str) {
        let r = self.call("Page.navigate", json!({ "url": url }));
        assert!(r.get("errorText").is_none(), "navigate {url}: {r}");
    }

    /// The value of a JavaScript expression in the page (returned by value).
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "{expression}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Evaluates `expression` until it is truthy; its value then, or `None`
    /// after `within`.
    pub fn wait_for(&mut self, expression: &str, within: Duration) -> Option<Value> {
        let deadline = Instant::now() + within;
        loop {
            let v = self.eval(expression);
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::String(s) => !s.is_empty(),
                Value::Number(n) => n.as_f64() != Some(0.0),
                _ => true,
            };
            if truthy {
                return Some(v);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Console errors, uncaught exceptions and error log entries seen so far.
    pub fn errors(&mut self) -> Vec<String> {
        // Let queued events in.
        while let Ok(v) = self.from.try_recv() {
            if v.get("method").is_some() {
                self.events.push(v);
            }
        }
        self.events
            .iter()
            .filter(|e| match e["method"].as_str() {
                Some("Runtime.exceptionThrown") => true,
                Some("Runtime.consoleAPICalled") => e["params"]["type"] == "error",
                Some("Log.entryAdded") => e["params"]["entry"]["level"] == "error",
                _ => false,
            })
            .map(Value::to_string)
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
