//! `config.toml`: every setting with its default, in two steps: serde reads
//! the file strictly (an unknown key is an error that names it), then
//! [`Config::validate`] checks values and names the bad key.
//! Defaults live here once; the CLI and the shipped `config.toml` use them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::error::ConfigError;
use crate::extract::{Algorithm, Options};

/// The whole configuration file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub extract: ExtractConfig,
}

/// `[extract]`: the extractor stage.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExtractConfig {
    /// Algorithm name: auto, cetd-tpc, cc, article-std, list-rank, segment.
    pub algorithm: String,
    /// Largest page accepted, in bytes.
    pub max_bytes: u64,
    /// Deepest element nesting kept; deeper elements are flattened.
    pub max_depth: usize,
    /// Most tokens (tags and text runs) parsed per page.
    pub max_nodes: usize,
    /// Wall-clock limit per page, in milliseconds (0 = none).
    pub time_limit_ms: u64,
    /// Worker threads for extraction (0 = all cores).
    pub threads: usize,
}

impl Default for ExtractConfig {
    fn default() -> Self {
        let o = Options::default();
        ExtractConfig {
            algorithm: o.algorithm.name().to_string(),
            max_bytes: o.max_bytes as u64,
            max_depth: o.max_depth,
            max_nodes: o.max_nodes,
            time_limit_ms: o.time_limit.map_or(0, |d| d.as_millis() as u64),
            threads: 0,
        }
    }
}

impl Config {
    /// Reads and validates a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Config::parse(&text, path)
    }

    /// Parses and validates config text (`path` is for messages).
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let cfg: Config = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        cfg.validate(path)?;
        Ok(cfg)
    }

    fn validate(&self, path: &Path) -> Result<(), ConfigError> {
        let bad = |key: &str, message: String| ConfigError::Invalid {
            path: PathBuf::from(path),
            key: key.to_string(),
            message,
        };
        let e = &self.extract;
        Algorithm::parse(&e.algorithm).map_err(|err| bad("extract.algorithm", err.to_string()))?;
        if e.max_bytes == 0 {
            return Err(bad("extract.max_bytes", "must be greater than 0".into()));
        }
        if e.max_depth < 16 {
            return Err(bad("extract.max_depth", "must be at least 16".into()));
        }
        if e.max_nodes < 100 {
            return Err(bad("extract.max_nodes", "must be at least 100".into()));
        }
        Ok(())
    }

    /// Extraction options from this config.
    pub fn extract_options(&self) -> Options {
        let e = &self.extract;
        Options {
            // Validated in `validate`; fall back to the default on a programming error.
            algorithm: Algorithm::parse(&e.algorithm).unwrap_or(Algorithm::Auto),
            charset: None,
            max_bytes: e.max_bytes as usize,
            max_depth: e.max_depth,
            max_nodes: e.max_nodes,
            time_limit: (e.time_limit_ms > 0).then(|| Duration::from_millis(e.time_limit_ms)),
            page_type: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_config_parses_and_matches_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config.toml");
        let cfg = Config::load(&path).expect("shipped config.toml is valid");
        let d = ExtractConfig::default();
        assert_eq!(cfg.extract.algorithm, d.algorithm);
        assert_eq!(cfg.extract.max_bytes, d.max_bytes);
        assert_eq!(cfg.extract.max_depth, d.max_depth);
        assert_eq!(cfg.extract.max_nodes, d.max_nodes);
        assert_eq!(cfg.extract.time_limit_ms, d.time_limit_ms);
    }

    #[test]
    fn unknown_key_is_named() {
        let err = Config::parse("[extract]\nmax_byte = 3\n", Path::new("c.toml")).unwrap_err();
        assert!(err.to_string().contains("max_byte"), "{err}");
    }

    #[test]
    fn bad_value_names_the_key() {
        let err =
            Config::parse("[extract]\nalgorithm = \"magic\"\n", Path::new("c.toml")).unwrap_err();
        assert!(err.to_string().contains("extract.algorithm"), "{err}");
        let err = Config::parse("[extract]\nmax_bytes = 0\n", Path::new("c.toml")).unwrap_err();
        assert!(err.to_string().contains("extract.max_bytes"), "{err}");
    }
}
