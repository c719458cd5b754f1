//! Allocator settings for a long-running store.
//!
//! sled and the frontier's merges allocate and free large buffers all day.
//! glibc's malloc keeps freed memory for reuse, and under that churn the
//! process grows past what it holds: the 10-million-URL frontier benchmark
//! peaked at 335 MB with the defaults and at 292 MB with large blocks
//! mapped separately and free memory returned at 64 KiB
//! (docs/BENCHMARKS.md). Elsewhere this does nothing.

/// Large allocations (≥ 64 KiB) get their own mappings, and free memory at
/// the top of the heap is returned once it reaches 64 KiB.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const LIMIT: libc::c_int = 64 << 10;
        // SAFETY: mallopt only sets glibc malloc parameters; it is called
        // with documented parameter names and in-range values.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, LIMIT);
            libc::mallopt(libc::M_TRIM_THRESHOLD, LIMIT);
        }
    }
}
