//! A stopped store read by the commands that only read it (`status`,
//! `export`, `store check`, `store salvage`): they never write to it (a
//! read-only bind mount works), and a damaged database gives an error that
//! names the store and the way out, never a panic (exit 101).

mod support;

use std::path::{Path, PathBuf};

use support::*;

/// A crawl of `n` pages on its own loopback address; returns its config.
fn crawled_store(ip: &str, name: &str, n: usize) -> (PathBuf, Host) {
    let host = Host::start(ip, move |path, _| {
        if path == "/robots.txt" {
            return status(404);
        }
        let i: usize = path.trim_start_matches("/p").parse().unwrap_or(0);
        let links: Vec<String> = (i * 3 + 1..i * 3 + 4)
            .filter(|j| *j < n)
            .map(|j| format!("/p{j}"))
            .collect();
        let words = format!("Page {i} is about tide pools and rocky shores. ").repeat(20);
        html(&page(&format!("Page {i} {words}"), &links))
    });
    let dir = scratch(name);
    let cfg = config(&dir, "sitemaps = false\nmin_delay_ms = 0\nmax_depth = 50");
    let seeds = dir.join("s.txt");
    std::fs::write(&seeds, format!("{}\n", host.url("/p0"))).unwrap_or_else(|e| panic!("{e}"));
    crawl_once(&cfg, &seeds);
    (cfg, host)
}

fn run(cfg: &Path, args: &[&str]) -> std::process::Output {
    trawl()
        .args(["--config", &cfg.to_string_lossy()])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{e}"));
    for e in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{e}")) {
        let e = e.unwrap_or_else(|e| panic!("{e}"));
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{e}")) {
        let p = e.unwrap_or_else(|e| panic!("{e}")).path();
        if p.is_dir() {
            out.extend(snapshot(&p));
        } else {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{e}"));
            out.push((p, bytes));
        }
    }
    out.sort();
    out
}

fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// Files read-only, directories not writable.
fn make_read_only(dir: &Path) {
    let ok = std::process::Command::new("chmod")
        .args(["-R", "a-w"])
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "chmod -R a-w {}", dir.display());
}

/// `setpriv` (util-linux) can drop root for one command.
fn runs_as_nobody() -> bool {
    std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
        .status()
        .is_ok_and(|s| s.success())
}

fn run_as_nobody(cfg: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_trawl"))
        .args(["--config", &cfg.to_string_lossy()])
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A read-only bind mount of a directory, undone on drop.
struct ReadOnlyMount(PathBuf);

impl ReadOnlyMount {
    fn new(src: &Path, at: &Path) -> Option<ReadOnlyMount> {
        std::fs::create_dir_all(at).ok()?;
        let ok = |args: &[&str]| {
            std::process::Command::new("mount")
                .args(args)
                .status()
                .is_ok_and(|s| s.success())
        };
        let (src, target) = (src.to_string_lossy(), at.to_string_lossy());
        if !ok(&["--bind", &src, &target]) {
            return None;
        }
        let mount = ReadOnlyMount(at.to_path_buf());
        ok(&["-o", "remount,ro,bind", &target]).then_some(mount)
    }
}

impl Drop for ReadOnlyMount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

/// Regression (issue 34, finding 3): a stopped store on a read-only file
/// system could not be exported, checked or salvaged ("Read-only file
/// system"); the read-only commands now never write to the store.
#[test]
fn read_only_commands_work_on_a_read_only_mount_and_write_nothing() {
    let (cfg, _host) = crawled_store("127.0.0.50", "store-ro", 40);
    let dir = cfg.parent().unwrap_or(Path::new(".")).to_path_buf();
    let before = snapshot(&dir.join("storage"));
    // A read-only bind mount; where mounting is not allowed, a copy the
    // commands cannot write (made read-only, and read as `nobody` when
    // this test runs as root, whom permissions do not stop).
    let ro = dir.join("ro");
    let mount = ReadOnlyMount::new(&dir.join("storage"), &ro);
    let as_nobody = mount.is_none() && is_root();
    if mount.is_none() {
        let _ = std::fs::remove_dir_all(&ro);
        copy_dir(&dir.join("storage"), &ro);
        make_read_only(&ro);
        if as_nobody && !runs_as_nobody() {
            skip_or_fail("no read-only mount (mount --bind) and no setpriv to drop root");
            return;
        }
    }
    let run = |cfg: &Path, args: &[&str]| {
        if as_nobody {
            run_as_nobody(cfg, args)
        } else {
            run(cfg, args)
        }
    };
    assert!(
        as_nobody || std::fs::write(ro.join("probe"), b"x").is_err(),
        "the copy is read-only"
    );
    let ro_s = ro.to_string_lossy().into_owned();
    let saved = std::env::temp_dir().join(format!("trawl-saved-{}.jsonl", std::process::id()));
    let saved_s = saved.to_string_lossy().into_owned();
    for args in [
        vec!["status", "--data", &ro_s],
        vec!["status", "--json", "--data", &ro_s],
        vec!["status", "--metrics", "--data", &ro_s],
        vec!["export", "--data", &ro_s],
        vec!["export", "--outcomes", "--data", &ro_s],
        vec!["store", "check", "--data", &ro_s],
        vec!["store", "salvage", "--out", &saved_s, "--data", &ro_s],
    ] {
        let out = run(&cfg, &args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let exported = run(&cfg, &["export", "--data", &ro_s]);
    assert_eq!(
        String::from_utf8_lossy(&exported.stdout).lines().count(),
        40
    );
    let saved_lines = std::fs::read_to_string(&saved).unwrap_or_default();
    assert_eq!(saved_lines.lines().count(), 40);
    let _ = std::fs::remove_file(&saved);
    drop(mount);
    // On a writable directory too, nothing in the store changes.
    for args in [vec!["status"], vec!["export"], vec!["store", "check"]] {
        assert!(run(&cfg, &args).status.success(), "{args:?}");
    }
    assert!(
        before == snapshot(&dir.join("storage")),
        "the store was written to"
    );
}

/// Regression (issue 34, finding 4): random bytes over a stopped store's
/// database made `status` and `export` panic (exit 101) inside sled.
#[test]
fn a_damaged_database_is_an_error_naming_the_store_never_a_panic() {
    let (cfg, _host) = crawled_store("127.0.0.51", "store-damaged", 2000);
    let dir = cfg.parent().unwrap_or(Path::new(".")).to_path_buf();
    assert_eq!(
        String::from_utf8_lossy(&run(&cfg, &["export"]).stdout)
            .lines()
            .count(),
        2000
    );
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    // Damage at every tenth of the file: where sled panics (at the open or
    // only when a walk reaches the damaged page) depends on the crawl's
    // layout, which differs run to run; a read that is not guarded ended
    // in exit 101 in one run of three (session 44).
    for pct in [10, 20, 30, 40, 50, 60, 70, 80, 90] {
        let copy = dir.join(format!("damaged-{pct}"));
        copy_dir(&dir.join("storage"), &copy);
        let db = copy.join("db");
        let mut bytes = std::fs::read(&db).unwrap_or_else(|e| panic!("{e}"));
        let at = bytes.len() * pct / 100;
        let end = (at + 65_536).min(bytes.len());
        for b in &mut bytes[at..end] {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            *b = seed as u8;
        }
        std::fs::write(&db, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let copy_s = copy.to_string_lossy().into_owned();
        let saved = dir.join(format!("saved-{pct}.jsonl"));
        let saved_s = saved.to_string_lossy().into_owned();
        for args in [
            vec!["status", "--data", &copy_s],
            vec!["status", "--json", "--data", &copy_s],
            vec!["export", "--data", &copy_s],
            vec!["export", "--outcomes", "--data", &copy_s],
            vec!["store", "check", "--data", &copy_s],
            vec!["store", "salvage", "--out", &saved_s, "--data", &copy_s],
        ] {
            let out = run(&cfg, &args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_ne!(out.status.code(), Some(101), "{pct}% {args:?}: {err}");
            assert!(!err.contains("panicked"), "{pct}% {args:?}: {err}");
            if !out.status.success() {
                assert!(
                    err.contains(&format!("damaged-{pct}")) || args[0] == "store",
                    "{pct}% {args:?}: the error names the store: {err}"
                );
                assert!(
                    err.contains("salvage") || args[1] == "salvage",
                    "{pct}% {args:?}: {err}"
                );
            }
        }
        let saved = std::fs::read_to_string(&saved).unwrap_or_default();
        assert!(
            saved.lines().count() >= 1800,
            "{pct}%: salvage keeps what is intact ({} of 2000)",
            saved.lines().count()
        );
        assert!(
            bytes == std::fs::read(&db).unwrap_or_default(),
            "{pct}%: the store was written to"
        );
    }
}

/// Regression (issue 53, item 3): salvage saved nothing when sled opened a
/// damaged database and silently held fewer records (1 MiB zeroed), and
/// failed (exit 2) when sled answered with an error instead of a panic:
/// the raw scan ran only after a panic. Now the database's own answer and
/// a raw scan of its files are combined, whatever sled says.
#[test]
fn salvage_keeps_the_intact_records_whatever_sled_says() {
    let (cfg, _host) = crawled_store("127.0.0.52", "store-zeroed", 2000);
    let dir = cfg.parent().unwrap_or(Path::new(".")).to_path_buf();
    let len = std::fs::metadata(dir.join("storage/db"))
        .map(|m| m.len() as usize)
        .unwrap_or(0);
    let zeroed = (1usize << 20).min(len / 8);
    let mut least = usize::MAX;
    for pct in (4..100).step_by(6) {
        let copy = dir.join(format!("zeroed-{pct}"));
        copy_dir(&dir.join("storage"), &copy);
        let db = copy.join("db");
        let mut bytes = std::fs::read(&db).unwrap_or_else(|e| panic!("{e}"));
        let at = bytes.len() * pct / 100;
        let end = (at + zeroed).min(bytes.len());
        bytes[at..end].fill(0);
        std::fs::write(&db, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let saved = dir.join(format!("zeroed-{pct}.jsonl"));
        let out = run(
            &cfg,
            &[
                "store",
                "salvage",
                "--out",
                &saved.to_string_lossy(),
                "--data",
                &copy.to_string_lossy(),
            ],
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{pct}%: {:?} {err}",
            out.status
        );
        let seqs: std::collections::HashSet<u64> = std::fs::read_to_string(&saved)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v["seq"].as_u64())
            .collect();
        least = least.min(seqs.len());
        // A damaged store is never called healthy by `status`.
        if out.status.code() == Some(1) {
            let status = run(&cfg, &["status", "--data", &copy.to_string_lossy()]);
            assert!(
                !status.status.success(),
                "{pct}%: status vouched for a damaged store: {}",
                String::from_utf8_lossy(&status.stdout)
            );
        }
        let _ = std::fs::remove_dir_all(&copy);
    }
    // 1 MiB of a few MiB zeroed: most records have an intact copy.
    assert!(least >= 1500, "salvage kept {least} of 2000 at worst");
}
