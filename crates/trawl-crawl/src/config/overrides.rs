//! `-s KEY=VALUE` on the command line (Scrapy's habit): settings changed
//! for one run without editing the file, validated like the file.

use std::path::{Path, PathBuf};

use super::{Config, ConfigError};

impl Config {
    /// [`Config::load`] with `-s KEY=VALUE` overrides ([`Config::parse_with`]).
    pub fn load_with(path: &Path, sets: &[String]) -> Result<Config, ConfigError> {
        Config::parse_with(&super::read_config_file(path)?, path, sets)
    }

    /// Parses config text, applies `-s KEY=VALUE` overrides (Scrapy's
    /// habit: `crawl.min_delay_ms=200`, `focus.threshold=0.6`,
    /// `crawl.strip_params=["sid"]`), and validates the result like a file:
    /// a bad key or value names the key and what is allowed. A value that is
    /// not TOML (a bare word) is taken as a string.
    pub fn parse_with(text: &str, path: &Path, sets: &[String]) -> Result<Config, ConfigError> {
        if sets.is_empty() {
            return Config::parse(text, path);
        }
        let bad = |key: &str, message: String| ConfigError::Invalid {
            path: PathBuf::from("-s"),
            key: key.to_string(),
            message,
        };
        let mut table: toml::Table = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        for set in sets {
            let Some((key, value)) = set.split_once('=') else {
                return Err(bad(
                    set,
                    "expected KEY=VALUE, e.g. crawl.min_delay_ms=200".into(),
                ));
            };
            let key = key.trim();
            let parts: Vec<&str> = key.split('.').collect();
            if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
                return Err(bad(
                    key,
                    "expected SECTION.KEY, e.g. crawl.min_delay_ms".into(),
                ));
            }
            let value = toml::from_str::<toml::Table>(&format!("v = {}", value.trim()))
                .ok()
                .and_then(|mut t| t.remove("v"))
                .unwrap_or_else(|| toml::Value::String(value.trim().to_string()));
            let mut at = &mut table;
            for part in &parts[..parts.len() - 1] {
                let next = at
                    .entry(part.to_string())
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()));
                let toml::Value::Table(t) = next else {
                    return Err(bad(key, format!("{part} is not a section")));
                };
                at = t;
            }
            at.insert(parts[parts.len() - 1].to_string(), value);
        }
        let merged = toml::to_string(&table).map_err(|e| ConfigError::Parse {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        // Errors name the key; one an override set is the command line's.
        Config::parse(&merged, path).map_err(|e| match e {
            ConfigError::Invalid { key, message, .. }
                if sets
                    .iter()
                    .any(|s| s.split('=').next().map(str::trim) == Some(key.as_str())) =>
            {
                bad(&key, message)
            }
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(sets: &[&str]) -> Result<Config, ConfigError> {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Config::parse_with("[crawl]\nmin_delay_ms = 1000\n", Path::new("c.toml"), &sets)
    }

    #[test]
    fn overrides_set_numbers_floats_lists_and_bare_words() {
        let c = with(&[
            "crawl.min_delay_ms=200",
            "focus.threshold=0.6",
            "crawl.strip_params=[\"sid\"]",
            "crawl.user_agent=mybot/1.0",
        ])
        .expect("valid");
        assert_eq!(c.crawl.min_delay_ms, 200);
        assert!((c.focus.threshold - 0.6).abs() < 1e-6);
        assert_eq!(c.crawl.strip_params, ["sid"]);
        assert_eq!(c.crawl.user_agent, "mybot/1.0");
    }

    #[test]
    fn a_bad_override_names_its_key_and_the_allowed_range() {
        let e = with(&["crawl.min_delay_ms=-5"])
            .expect_err("negative")
            .to_string();
        assert!(e.contains("crawl.min_delay_ms"), "{e}");
        let e = with(&["crawl.max_concurrent=0"])
            .expect_err("zero")
            .to_string();
        assert!(
            e.contains("crawl.max_concurrent") && e.contains("allowed"),
            "{e}"
        );
        let e = with(&["crawl.no_such_key=1"])
            .expect_err("unknown")
            .to_string();
        assert!(e.contains("no_such_key"), "{e}");
        let e = with(&["min_delay_ms=1"])
            .expect_err("no section")
            .to_string();
        assert!(e.contains("SECTION.KEY"), "{e}");
        let e = with(&["crawl.min_delay_ms"])
            .expect_err("no value")
            .to_string();
        assert!(e.contains("KEY=VALUE"), "{e}");
    }
}
