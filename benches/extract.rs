//! Extraction per page on a fixed sample: the first N pages of wcxb-dev in
//! file order (default 300), each extracted once to warm up and then
//! measured. Reports wall time per page (median and total) and, through a
//! counting allocator around the system's, heap allocations and bytes
//! allocated per page: the figures issue 58 asks to keep with the code.
//!
//! `cargo bench --bench extract -- [N]`; `DATASET=DIR` names another
//! dataset folder holding `html/`; `MARKDOWN=off` leaves the records'
//! Markdown unwritten (what it costs); `ALLOC_SITES=K` also samples one
//! allocation in K and prints the functions of ours that made the most
//! (slow: a backtrace per sample). Skips with a message when the dataset
//! is absent.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use trawl_extract::{extract, read_input, Options};

/// The system allocator, counting calls and bytes.
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
/// Sample one allocation in this many (0: none).
static SAMPLE: AtomicU64 = AtomicU64::new(0);
/// Sampled allocations by the innermost function of ours that made them.
static SITES: Mutex<Option<HashMap<String, u64>>> = Mutex::new(None);

thread_local! {
    /// Set while a sample is taken (its backtrace allocates too).
    static SAMPLING: Cell<bool> = const { Cell::new(false) };
}

/// Counts the allocation and, one in `SAMPLE`, notes where it was made.
fn note() {
    // The sample's own allocations are not counted (nor sampled).
    if SAMPLING.with(Cell::get) {
        return;
    }
    let n = ALLOCS.fetch_add(1, Relaxed);
    let k = SAMPLE.load(Relaxed);
    if k == 0 || n % k != 0 {
        return;
    }
    SAMPLING.with(|s| s.set(true));
    let trace = std::backtrace::Backtrace::force_capture().to_string();
    // Frames read "N: name" then "at path:line:col"; the first in our
    // extractor's sources names the site.
    let lines: Vec<&str> = trace.lines().map(str::trim).collect();
    let site = lines
        .windows(2)
        .find_map(|w| {
            let name = w[0].split_once(": ")?.1;
            let at = w[1].strip_prefix("at ")?;
            let (_, file) = at.split_once("trawl-extract/src/")?;
            let file = file.rsplit_once(':').map_or(file, |x| x.0);
            Some(format!("{file} {name}"))
        })
        .unwrap_or_else(|| "(elsewhere)".to_string());
    if let Ok(mut g) = SITES.lock() {
        *g.get_or_insert_with(HashMap::new).entry(site).or_insert(0) += 1;
    }
    SAMPLING.with(|s| s.set(false));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above, with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        BYTES.fetch_add(new_size as u64, Relaxed);
        // SAFETY: as for `alloc`; `ptr` and `layout` are the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let dir = std::env::var_os("DATASET")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/wcxb-dev")
        });
    let Ok(entries) = std::fs::read_dir(dir.join("html")) else {
        println!(
            "skipped: no dataset at {} (set DATASET)",
            dir.join("html").display()
        );
        return;
    };
    let mut files: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    files.sort();
    files.truncate(n);
    let pages: Vec<Vec<u8>> = files
        .iter()
        .filter_map(|f| read_input(&f.to_string_lossy(), 64 << 20).ok())
        .collect();
    // MARKDOWN=off: records without their Markdown (to time what it costs).
    let markdown = std::env::var("MARKDOWN").map_or(true, |v| v != "off");
    let opts = Options::default().with_markdown(markdown);
    for p in &pages {
        let _ = extract(p, &opts);
    }
    let sample: u64 = std::env::var("ALLOC_SITES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if sample > 0 {
        SAMPLE.store(sample, Relaxed);
        for p in &pages {
            let _ = extract(p, &opts);
        }
        SAMPLE.store(0, Relaxed);
        let sites = SITES
            .lock()
            .ok()
            .and_then(|mut g| g.take())
            .unwrap_or_default();
        let all: u64 = sites.values().sum();
        let mut sites: Vec<_> = sites.into_iter().collect();
        sites.sort_by_key(|s| std::cmp::Reverse(s.1));
        println!("allocations by the innermost function of ours ({all} samples):");
        for (site, k) in sites.iter().take(25) {
            println!("{:6.1}%  {site}", *k as f64 * 100.0 / all.max(1) as f64);
        }
    }
    let mut times = Vec::with_capacity(pages.len());
    let mut allocs = Vec::with_capacity(pages.len());
    let mut bytes = 0u64;
    let start = Instant::now();
    for p in &pages {
        let (a0, b0) = (ALLOCS.load(Relaxed), BYTES.load(Relaxed));
        let t = Instant::now();
        let _ = std::hint::black_box(extract(p, &opts));
        times.push(t.elapsed().as_secs_f64() * 1e3);
        allocs.push(ALLOCS.load(Relaxed) - a0);
        bytes += BYTES.load(Relaxed) - b0;
    }
    let total = start.elapsed().as_secs_f64();
    let count = pages.len().max(1);
    times.sort_by(f64::total_cmp);
    allocs.sort_unstable();
    let input: usize = pages.iter().map(Vec::len).sum();
    println!(
        "{} pages of {} ({:.1} MB of HTML), one thread",
        pages.len(),
        dir.display(),
        input as f64 / 1e6
    );
    println!(
        "wall: {:.1} ms/page mean, {:.2} ms median, {:.0} pages/s",
        total * 1e3 / count as f64,
        times.get(count / 2).copied().unwrap_or(0.0),
        count as f64 / total
    );
    println!(
        "allocations: {:.0}/page mean, {} median; {:.2} MB allocated/page ({:.1}× the page's bytes)",
        allocs.iter().sum::<u64>() as f64 / count as f64,
        allocs.get(count / 2).copied().unwrap_or(0),
        bytes as f64 / count as f64 / 1e6,
        bytes as f64 / input.max(1) as f64
    );
}
