//! A throwaway PostgreSQL cluster for cluster-mode tests: Debian's
//! `postgresql` package (`initdb`, `postgres`, `pg_ctl`), a data directory
//! in a temp dir, a loopback port, no password (trust on loopback). Tests
//! skip with a message when the binaries are missing; `.ci/run` installs
//! the package, so CI runs them. PostgreSQL refuses to run as root, so
//! under root the server runs as the `postgres` user (`runuser`).
#![allow(dead_code)] // each test binary uses part of this module

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Ports tried when the one found free is taken before the server binds it.
const START_TRIES: usize = 3;

/// A running throwaway cluster; stopped and deleted on drop.
pub struct Pg {
    bin: PathBuf,
    pub dir: PathBuf,
    pub port: u16,
    as_postgres: bool,
}

/// The directory with `initdb` and `pg_ctl`: `$TRAWL_PG_BIN`, Debian's
/// newest `/usr/lib/postgresql/N/bin`, or `pg_config --bindir`.
fn bin_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TRAWL_PG_BIN") {
        return Some(PathBuf::from(d));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, b)) = versions.pop() {
        return Some(b);
    }
    let out = Command::new("pg_config").arg("--bindir").output().ok()?;
    let b = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    b.join("initdb").exists().then_some(b)
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

impl Pg {
    /// Starts a cluster, or returns `None` (after printing why) when
    /// PostgreSQL is not installed.
    pub fn start(name: &str) -> Option<Pg> {
        Pg::start_at(name, super::free_port())
    }

    /// [`Pg::start`] on `port` first. The port a probe found free can be
    /// taken by another test's socket before the server binds it (tests
    /// run in parallel, `initdb` takes a second): then another free port
    /// is tried, [`START_TRIES`] times in all, so `port` tells where the
    /// server listens.
    pub fn start_at(name: &str, port: u16) -> Option<Pg> {
        let Some(bin) = bin_dir() else {
            super::skip_or_fail(&format!(
                "PostgreSQL not installed (apt-get install postgresql); \
                 cluster-mode test {name} not run"
            ));
            return None;
        };
        let dir = std::env::temp_dir().join(format!("trawl-pg-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
        std::fs::create_dir_all(&dir).expect("pg dir");
        let as_postgres = is_root();
        if as_postgres {
            let ok = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            assert!(ok, "chown of {} to postgres failed", dir.display());
        }
        let mut pg = Pg {
            bin,
            dir,
            port,
            as_postgres,
        };
        let data = pg.data();
        let out = pg
            .cmd("initdb")
            .args([
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-sync",
                "-D",
            ])
            .arg(&data)
            .output()
            .expect("initdb runs");
        assert!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for tries_left in (0..START_TRIES).rev() {
            match pg.try_start_server() {
                Ok(()) => break,
                Err(why) if tries_left > 0 && why.contains("Address already in use") => {
                    pg.port = super::free_port();
                }
                Err(why) => panic!("pg_ctl start failed: {why}"),
            }
        }
        pg.wait_listening();
        Some(pg)
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn cmd(&self, tool: &str) -> Command {
        let exe = self.bin.join(tool);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(exe);
            c
        } else {
            Command::new(exe)
        }
    }

    /// Starts (or restarts) the server and waits until it accepts connections.
    pub fn start_server(&self) {
        if let Err(why) = self.try_start_server() {
            panic!("pg_ctl start failed: {why}");
        }
        self.wait_listening();
    }

    /// Runs `pg_ctl start` on [`Pg::port`]: its error output and the
    /// server's log when it fails.
    fn try_start_server(&self) -> Result<(), String> {
        // Tests need no durability; the benchmark sets TRAWL_PG_FSYNC=on.
        let fsync = std::env::var("TRAWL_PG_FSYNC").unwrap_or_else(|_| "off".into());
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync={fsync} -c max_connections=200",
            self.port,
            self.dir.display()
        );
        let out = self
            .cmd("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(self.dir.join("log"))
            .args(["-o", &opts, "-w", "-t", "60", "start"])
            .stdout(Stdio::null())
            .output()
            .expect("pg_ctl runs");
        if out.status.success() {
            return Ok(());
        }
        Err(format!(
            "{} {}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
        ))
    }

    /// Waits until the server accepts connections on [`Pg::port`].
    fn wait_listening(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "PostgreSQL did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server (fast shutdown: open connections are cut).
    pub fn stop_server(&self) {
        let _ = self
            .cmd("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "fast", "-w", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }

    /// A connection URL for database `postgres`.
    pub fn url(&self) -> String {
        format!(
            "postgres://postgres@127.0.0.1:{}/postgres?connect_timeout=5",
            self.port
        )
    }

    /// Runs SQL with `psql` and returns its unaligned output.
    pub fn psql(&self, sql: &str) -> String {
        match self.try_psql(sql) {
            Ok(s) => s,
            Err(e) => panic!("psql {sql:?} failed: {e}"),
        }
    }

    /// [`Pg::psql`] that reports a failure (a table not created yet).
    pub fn try_psql(&self, sql: &str) -> Result<String, String> {
        self.try_psql_in("postgres", sql)
    }

    /// [`Pg::try_psql`] in database `db`.
    pub fn try_psql_in(&self, db: &str, sql: &str) -> Result<String, String> {
        let out = Command::new(self.bin.join("psql"))
            .args(["-X", "-A", "-t", "-h", "127.0.0.1", "-U", "postgres"])
            .args(["-p", &self.port.to_string(), "-d", db, "-c", sql])
            .output()
            .map_err(|e| format!("psql does not run: {e}"))?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        if std::env::var_os("TRAWL_PG_KEEP").is_some() {
            eprintln!(
                "kept PostgreSQL at {} port {}",
                self.dir.display(),
                self.port
            );
            return;
        }
        self.stop_server();
        let _ = std::fs::remove_dir_all(&self.dir); // best-effort cleanup
    }
}
