//! Per-host state that must outlive the process: when the host was last
//! sent a request and the delay it asked for (so politeness holds across
//! restarts), and whether the store was closed cleanly (after a crash, the
//! last flush interval of those times may be missing).
//!
//! `hosts` tree: host name → last request (wall-clock ms, 8 bytes) ++ delay
//! (ms, 4 bytes).

use super::error::StoreError;
use super::handle::Store;
use super::layout::{key, M};

const CLEAN_STOP: &[u8] = b"clean_stop";

impl Store {
    /// The last booked request of `host`: (wall-clock ms, delay ms).
    pub fn host_time(&self, host: &str) -> Result<Option<(u64, u32)>, StoreError> {
        let Some(v) = self.host_times.get(host.as_bytes())? else {
            return Ok(None);
        };
        match (v.get(..8), v.get(8..12)) {
            (Some(t), Some(d)) => {
                let t = u64::from_be_bytes(t.try_into().unwrap_or_default());
                let d = u32::from_be_bytes(d.try_into().unwrap_or_default());
                Ok(Some((t, d)))
            }
            _ => Err(StoreError::Corrupt {
                tree: "hosts",
                message: format!("{} bytes is not a host time", v.len()),
            }),
        }
    }

    /// Saves when `host` may next be sent a request, and its delay.
    pub fn put_host_time(&self, host: &str, at_ms: u64, delay_ms: u32) -> Result<(), StoreError> {
        let mut v = [0u8; 12];
        v[..8].copy_from_slice(&at_ms.to_be_bytes());
        v[8..].copy_from_slice(&delay_ms.to_be_bytes());
        self.host_times.insert(host.as_bytes(), &v)?;
        Ok(())
    }

    /// Whether the last run stopped cleanly (or no host was ever
    /// contacted); clears the mark, so a crash of this run is seen by the next.
    pub fn take_clean_stop(&self) -> Result<bool, StoreError> {
        let marked = self.kv.remove(key(M, CLEAN_STOP))?.is_some();
        Ok(marked || self.host_times.is_empty())
    }

    /// Marks a clean stop (call after the final flush, then flush again).
    pub fn mark_clean_stop(&self) -> Result<(), StoreError> {
        self.kv.insert(key(M, CLEAN_STOP), &[1u8])?;
        Ok(())
    }
}
