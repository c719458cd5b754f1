//! Values in and out of the store: our own structs as JSON, counters as
//! big-endian integers. A value that does not decode is a
//! [`StoreError::Corrupt`] naming its range.

use serde::{Deserialize, Serialize};

use super::error::StoreError;

pub(super) fn encode<T: Serialize>(v: &T) -> Vec<u8> {
    // Serializing our own plain structs to JSON cannot fail.
    serde_json::to_vec(v).unwrap_or_default()
}

pub(super) fn decode<T: for<'a> Deserialize<'a>>(
    range: &'static str,
    bytes: &[u8],
) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        tree: range,
        message: e.to_string(),
    })
}

pub(super) fn be_u64(v: Option<sled::IVec>) -> u64 {
    v.and_then(|v| v.as_ref().try_into().ok().map(u64::from_be_bytes))
        .unwrap_or(0)
}
