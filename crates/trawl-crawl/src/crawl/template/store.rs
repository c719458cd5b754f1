//! Where e-commerce mode keeps learned templates: the store's `templates`
//! keyspace, keyed by site and cluster (`site ++ 0 ++ cluster`, big-endian),
//! valued by the template itself. A template stored again for the same site
//! and cluster replaces the old one with the next version.

use trawl_extract::Template;

use crate::store::{Store, StoreError, Tree};

/// The templates of a store.
pub struct Templates(Tree);

fn site_prefix(site: &str) -> Vec<u8> {
    let mut p = site.as_bytes().to_vec();
    p.push(0);
    p
}

fn key(site: &str, cluster: u32) -> Vec<u8> {
    let mut k = site_prefix(site);
    k.extend_from_slice(&cluster.to_be_bytes());
    k
}

impl Templates {
    /// The templates kept in `store`.
    pub fn of(store: &Store) -> Templates {
        Templates(store.templates())
    }

    /// Stores a template; an earlier one of the same site and cluster is
    /// replaced and the version goes up. Returns the stored version.
    pub fn put(&self, t: &Template) -> Result<u32, StoreError> {
        let k = key(&t.site, t.cluster);
        let version = match self.0.get::<Template>(&k)? {
            Some(old) => old.version + 1,
            None => t.version.max(1),
        };
        let mut t = t.clone();
        t.version = version;
        self.0.put(&k, &t)?;
        Ok(version)
    }

    /// Stores a template as it is, version included (one read from the
    /// cluster's database).
    pub fn replace(&self, t: &Template) -> Result<(), StoreError> {
        self.0.put(&key(&t.site, t.cluster), t)
    }

    /// Templates of one site (all sites with `None`), by site and cluster.
    pub fn list(&self, site: Option<&str>) -> Result<Vec<Template>, StoreError> {
        let prefix = site.map_or_else(Vec::new, site_prefix);
        Ok(self.0.scan(&prefix)?.into_iter().map(|(_, t)| t).collect())
    }

    /// Forgets one template (a site's cluster).
    pub fn forget(&self, site: &str, cluster: u32) -> Result<(), StoreError> {
        self.0.remove(&key(site, cluster))?;
        Ok(())
    }

    /// Forgets a site's templates; returns how many there were.
    pub fn forget_site(&self, site: &str) -> Result<usize, StoreError> {
        let keys = self.0.scan::<serde::de::IgnoredAny>(&site_prefix(site))?;
        for (k, _) in &keys {
            self.0.remove(k)?;
        }
        Ok(keys.len())
    }
}
