//! Seeds into the frontier: seed files are read when they change, each seed
//! is registered (its number and options kept in the store) and its URL
//! queued unless known.

use std::path::{Path, PathBuf};

use super::shared::Fetching;
use crate::config::Config;
use crate::frontier::Frontier;
use crate::seeds::{self, Registry, SeedDefaults};
use crate::store::{NewUrl, QueuedUrl, Store, StoreError, UrlKind};

pub(in crate::crawl) fn seed_defaults(cfg: &Config) -> SeedDefaults {
    SeedDefaults {
        max_depth: cfg.crawl.max_depth,
        scope: cfg.crawl.scope,
        sitemaps: cfg.crawl.sitemaps,
        mode: cfg.crawl.mode,
        topics: cfg.focus.topics.keys().cloned().collect(),
    }
}

/// Seed lines as the crawl reads them (the seed-file syntax with `cfg`'s
/// defaults and URL rules): the seeds, their URLs normalised, and each bad
/// line's error; `name` names the lines in those errors.
pub fn parse_lines(
    cfg: &Config,
    text: &str,
    name: &str,
) -> (Vec<crate::seeds::Seed>, Vec<seeds::SeedLineError>) {
    let rules = crate::frontier::url::UrlRules {
        strip_params: cfg.crawl.strip_params.clone(),
        sort_query: cfg.crawl.sort_query,
        max_len: cfg.crawl.max_url_len,
    };
    seeds::parse(text, name, &seed_defaults(cfg), &rules)
}

/// Where a run's seed files are (the seeds directory or `--seeds`, and the
/// API's file in the data directory), and whether the API just wrote one.
pub(in crate::crawl) struct SeedFiles {
    dir: PathBuf,
    given: Vec<PathBuf>,
    data_dir: PathBuf,
    /// Set by [`crate::crawl::options::Observer::seeds_changed`].
    changed: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl SeedFiles {
    pub(in crate::crawl) fn new(
        cfg: &Config,
        opts: &crate::crawl::options::RunOptions,
    ) -> SeedFiles {
        SeedFiles {
            dir: cfg.crawl.seeds_dir.clone(),
            given: opts.extra_seeds.clone(),
            data_dir: cfg.crawl.data_dir.clone(),
            changed: opts.observer.as_ref().map(|o| o.seeds_flag()),
        }
    }

    /// The files, in reading order ([`seeds::run_files`]).
    pub(in crate::crawl) fn list(&self) -> Vec<PathBuf> {
        seeds::run_files(&self.dir, &self.given, &self.data_dir)
    }

    /// Whether a file was written since the last call: read them now, not
    /// at the next poll.
    pub(in crate::crawl) fn changed(&self) -> bool {
        self.changed
            .as_ref()
            .is_some_and(|f| f.swap(false, std::sync::atomic::Ordering::Relaxed))
    }
}

/// A seed file that changed since it was last read.
pub(in crate::crawl) struct ChangedFile {
    pub text: String,
    pub seeds: Vec<crate::seeds::Seed>,
    /// Bad lines (each logged and skipped).
    pub bad: usize,
}

/// Reads `file` if it changed since [`Registry::file_read`] last saw it
/// (an unreadable file is logged and skipped), parses its seeds and logs
/// its bad lines.
pub(in crate::crawl) fn changed_file(
    store: &Store,
    file: &Path,
    defaults: &SeedDefaults,
    rules: &crate::frontier::url::UrlRules,
) -> Result<Option<ChangedFile>, StoreError> {
    let text = match crate::limits::read_capped(file, crate::limits::MAX_SEED_FILE_BYTES) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            tracing::warn!(error = %e, "cannot read seed file");
            return Ok(None);
        }
    };
    if Registry::of(store).file_unchanged(file, &text)? {
        return Ok(None);
    }
    let (seeds, errors) = seeds::parse(&text, &file.display().to_string(), defaults, rules);
    for e in &errors {
        tracing::warn!("bad seed line skipped: {e}");
    }
    Ok(Some(ChangedFile {
        text,
        seeds,
        bad: errors.len(),
    }))
}

/// Lines of a seed file read per step of a [`SeedLoader`].
const LINES_PER_STEP: usize = 5_000;

/// Seed files streamed into the frontier a step at a time, so a file of a
/// million lines neither holds the crawl up nor the process's memory (its
/// lines are read, registered and queued 5,000 at a time), and a SIGTERM
/// is acted on between steps. A file is marked read when its last line is
/// in; one changed meanwhile is read again at the next look.
#[derive(Default)]
pub(in crate::crawl) struct SeedLoader {
    reading: Option<Reading>,
}

/// A seed file being read.
struct Reading {
    file: PathBuf,
    /// Its hash when the reading started.
    hash: [u8; 8],
    /// Bytes and lines read so far.
    offset: u64,
    line: usize,
    parser: seeds::SeedParser,
    added: usize,
    bad: usize,
}

impl SeedLoader {
    /// Whether a file is being read.
    pub(in crate::crawl) fn busy(&self) -> bool {
        self.reading.is_some()
    }

    /// Reads seed lines for about `budget`: the file being read, else the
    /// next file that changed since it was last read. Returns the URLs
    /// queued.
    pub(in crate::crawl) fn step(
        &mut self,
        shared: &Fetching,
        files: &[PathBuf],
        defaults: &SeedDefaults,
        frontier: &mut Frontier,
        budget: std::time::Duration,
    ) -> Result<usize, StoreError> {
        let started = std::time::Instant::now();
        let mut added = 0;
        let mut looked = false;
        loop {
            if self.reading.is_none() {
                if looked {
                    return Ok(added);
                }
                looked = true;
                self.reading = next_changed(&shared.store, files, defaults, &shared.rules)?;
                if self.reading.is_none() {
                    return Ok(added);
                }
            }
            if let Some(r) = self.reading.as_mut() {
                let (n, finished) = r.read_some(shared, frontier)?;
                added += n;
                if finished {
                    self.reading = None;
                    looked = false;
                }
            }
            if started.elapsed() >= budget {
                return Ok(added);
            }
        }
    }
}

/// The first of `files` whose content changed since it was last read.
fn next_changed(
    store: &Store,
    files: &[PathBuf],
    defaults: &SeedDefaults,
    rules: &crate::frontier::url::UrlRules,
) -> Result<Option<Reading>, StoreError> {
    let registry = Registry::of(store);
    for file in files {
        let hash = match file_hash(file) {
            Ok(h) => h,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read seed file");
                continue;
            }
        };
        if registry.hash_unchanged(file, &hash)? {
            continue;
        }
        return Ok(Some(Reading {
            file: file.clone(),
            hash,
            offset: 0,
            line: 0,
            parser: seeds::SeedParser::new(&file.display().to_string(), defaults, rules),
            added: 0,
            bad: 0,
        }));
    }
    Ok(None)
}

/// The hash of a seed file's bytes (at most [`crate::limits::MAX_SEED_FILE_BYTES`]),
/// read in pieces.
fn file_hash(file: &Path) -> Result<[u8; 8], crate::limits::FileError> {
    use std::io::Read;
    let io = |source| crate::limits::FileError::Io {
        path: file.to_path_buf(),
        source,
    };
    let f = std::fs::File::open(file).map_err(io)?;
    let max = crate::limits::MAX_SEED_FILE_BYTES;
    let mut r = f.take(max + 1);
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut total = 0u64;
    loop {
        let n = r.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        total += n as u64;
        h.update(&buf[..n]);
    }
    if total > max {
        return Err(crate::limits::FileError::TooLarge {
            path: file.to_path_buf(),
            max,
        });
    }
    Ok(h.digest().to_be_bytes())
}

impl Reading {
    /// Reads, registers and queues up to [`LINES_PER_STEP`] lines; whether
    /// the file is done.
    fn read_some(
        &mut self,
        shared: &Fetching,
        frontier: &mut Frontier,
    ) -> Result<(usize, bool), StoreError> {
        use std::io::{BufRead, Seek};
        let opened = std::fs::File::open(&self.file).and_then(|mut f| {
            f.seek(std::io::SeekFrom::Start(self.offset))?;
            Ok(f)
        });
        let f = match opened {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(file = %self.file.display(), error = %e, "cannot read seed file");
                return Ok((0, true));
            }
        };
        let mut reader = std::io::BufReader::new(f);
        let mut seeds = Vec::new();
        let mut raw = Vec::new();
        let mut end = false;
        for _ in 0..LINES_PER_STEP {
            raw.clear();
            let n = match reader.read_until(b'\n', &mut raw) {
                Ok(n) => n,
                Err(e) => {
                    tracing::warn!(file = %self.file.display(), error = %e, "cannot read seed file");
                    return Ok((0, true));
                }
            };
            if n == 0 || self.offset >= crate::limits::MAX_SEED_FILE_BYTES {
                end = true;
                break;
            }
            self.offset += n as u64;
            self.line += 1;
            let text = String::from_utf8_lossy(&raw);
            match self
                .parser
                .line(self.line, text.trim_end_matches(['\n', '\r']))
            {
                Some(Ok(seed)) => seeds.push(seed),
                Some(Err(e)) => {
                    self.bad += 1;
                    tracing::warn!("bad seed line skipped: {e}");
                }
                None => {}
            }
        }
        let added = queue_seeds(shared, &seeds, frontier)?;
        self.added += added;
        if end {
            Registry::of(&shared.store).hash_read(&self.file, &self.hash)?;
            tracing::info!(
                file = %self.file.display(),
                lines = self.line,
                new_urls = self.added,
                bad_lines = self.bad,
                "seed file loaded"
            );
        }
        Ok((added, end))
    }
}

/// Registers `seeds` and queues their URLs (known ones are not queued again).
fn queue_seeds(
    shared: &Fetching,
    seeds: &[crate::seeds::Seed],
    frontier: &mut Frontier,
) -> Result<usize, StoreError> {
    let registry = Registry::of(&shared.store);
    let mut urls = Vec::with_capacity(seeds.len());
    for seed in seeds {
        let id = registry.register(seed)?;
        shared.add_seeds([(id, seed.clone())]);
        urls.push(NewUrl {
            host: seed.host.clone(),
            item: QueuedUrl {
                url: seed.url.clone(),
                depth: 0,
                seed: id,
                attempt: 0,
                kind: UrlKind::Page,
                priority: seed.url_priority(),
                features: None,
                revisit: None,
            },
        });
    }
    let n = shared.store.enqueue(&urls)?;
    if n > 0 {
        let mut hosts: Vec<&str> = seeds.iter().map(|s| s.host.as_str()).collect();
        hosts.sort_unstable();
        hosts.dedup();
        for h in hosts {
            frontier.host_has_work(h);
        }
    }
    Ok(n)
}
