//! Allocator settings for a long-running store.
//!
//! sled and the frontier's merges allocate and free large buffers all day.
//! glibc's malloc keeps freed memory for reuse, and under that churn the
//! process grows past what it holds: the 10-million-URL frontier benchmark
//! peaked at 335 MB with the defaults. Fixed thresholds keep it under 300
//! MB (docs/BENCHMARKS.md). Elsewhere this does nothing.
//!
//! The thresholds were 64 KiB (287 MB), and a crawl paid for them: every
//! page's buffers above 64 KiB (the body, its text, the parse arena) were
//! mapped and unmapped, page faults and all: the real-web crawl bench ran
//! 375 pages/s against 449 with glibc's defaults. At 4 MiB and 1 MiB the
//! frontier peaks at 290 MB and the crawl runs at 437.

/// Sets glibc's mapping and trimming thresholds for a long run:
/// allocations of 4 MiB or more get mappings of their own, and free memory
/// at the top of the heap is returned once it reaches 1 MiB.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const MMAP_THRESHOLD: libc::c_int = 4 << 20;
        const TRIM_THRESHOLD: libc::c_int = 1 << 20;
        // SAFETY: mallopt only sets glibc malloc parameters; it is called
        // with documented parameter names and in-range values.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
            libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
        }
    }
}
