//! A named keyspace of the store for a layer above it. The layer (templates
//! in the crawl's shop, for one) owns its keys and its value type; the store
//! keeps them durable and checksummed like everything else, and nothing
//! above the store sees sled.

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::codec::{decode, encode};
use super::error::StoreError;

/// One keyspace: keys are bytes, values any serde type (stored as JSON).
#[derive(Clone)]
pub struct Tree {
    inner: sled::Tree,
    name: &'static str,
}

impl Tree {
    pub(super) fn new(inner: sled::Tree, name: &'static str) -> Tree {
        Tree { inner, name }
    }

    /// The value under `key`.
    pub fn get<T: DeserializeOwned>(&self, key: &[u8]) -> Result<Option<T>, StoreError> {
        self.inner
            .get(key)?
            .map(|v| decode(self.name, &v))
            .transpose()
    }

    /// Stores `value` under `key`, replacing what was there.
    pub fn put<T: Serialize>(&self, key: &[u8], value: &T) -> Result<(), StoreError> {
        self.inner.insert(key, encode(value))?;
        Ok(())
    }

    /// Removes `key`; whether it was there.
    pub fn remove(&self, key: &[u8]) -> Result<bool, StoreError> {
        Ok(self.inner.remove(key)?.is_some())
    }

    /// Every key starting with `prefix`, in key order, with its value.
    pub fn scan<T: DeserializeOwned>(
        &self,
        prefix: &[u8],
    ) -> Result<Vec<(Vec<u8>, T)>, StoreError> {
        self.inner
            .scan_prefix(prefix)
            .map(|kv| {
                let (k, v) = kv?;
                Ok((k.to_vec(), decode(self.name, &v)?))
            })
            .collect()
    }
}
