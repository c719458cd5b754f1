//! Seed files: one URL per line, `#` comments, blank lines, and optional
//! `key=value` options after the URL:
//!
//! ```text
//! # news sites, shallow
//! https://news.example.org/        depth=2 max_pages=500
//! https://shop.example.com/        mode=ecommerce scope=domain
//! https://blog.example.net/        sitemaps=false
//! ```
//!
//! | option      | meaning                                          | default          |
//! |-------------|--------------------------------------------------|------------------|
//! | `depth`     | link hops from the seed                          | `crawl.max_depth` |
//! | `max_pages` | pages fetched for this seed                      | unlimited        |
//! | `scope`     | `host`, `domain` (subdomains too) or `any`       | `crawl.scope`    |
//! | `mode`      | `article` or `ecommerce`                         | `article`        |
//! | `sitemaps`  | read robots-declared sitemaps and /sitemap.xml   | `crawl.sitemaps` |
//! | `topic`     | a `[focus.topics.NAME]` of config.toml           | the `[focus]` topic |
//! | `revisit`   | fetch its hubs again this often (`30m`, `never`) | `revisit.hubs`   |
//! | `revisit_pages` | fetch its other pages again this often       | `revisit.pages`  |
//! | `user_agent` | the User-Agent sent (no spaces on a seed line)  | `crawl.user_agent` |
//! | `header`    | `Name:Value`, an extra header field (repeatable) | none             |
//! | `cookies`   | a Netscape cookie file (curl, wget)              | none             |
//! | `auth_env`  | environment variable with `user:password` (basic auth) | none       |
//! | `proxy`     | a proxy URL for its requests                     | `crawl.proxy`    |
//! | `render`    | `never`, `auto` or `always`: pages rendered in Chromium | `render.mode` |
//!
//! A line of options after `*` sets them for the following lines of the file:
//!
//! ```text
//! * topic=energy depth=3
//! https://solar.example.org/
//! https://grid.example.net/     depth=1
//! ```
//!
//! A bad line is reported with `file:line` and skipped; the rest still load.

mod book;
mod registry;
mod seed;

use std::path::{Path, PathBuf};

use crate::frontier::url::{host_key, normalize, UrlRules};

pub use book::Book;
pub use registry::Registry;
use seed::{env_is_set, is_env_name};
pub use seed::{Mode, RenderMode, RequestSettings, Scope, Seed};

/// Defaults a seed line can override.
#[derive(Debug, Clone)]
pub struct SeedDefaults {
    /// Link depth (`depth=`).
    pub max_depth: u16,
    /// Scope (`scope=`).
    pub scope: Scope,
    /// Read sitemaps (`sitemaps=`).
    pub sitemaps: bool,
    /// Mode (`mode=`).
    pub mode: Mode,
    /// Names of the configured focus topics (`topic=` must be one).
    pub topics: Vec<String>,
}

/// A rejected seed line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct SeedLineError {
    /// The seed file.
    pub file: String,
    /// The line number (from 1).
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// Sets one `key=value` option on a seed.
fn apply(seed: &mut Seed, opt: &str, defaults: &SeedDefaults) -> Result<(), String> {
    let Some((k, v)) = opt.split_once('=') else {
        return Err(format!("option {opt:?} is not key=value"));
    };
    let bad = |what: &str| format!("option {k}: {v:?} is not {what}");
    match k {
        "depth" => v
            .parse()
            .map(|d| seed.max_depth = d)
            .map_err(|_| bad("a number 0..65535")),
        "max_pages" => v
            .parse()
            .map(|n| seed.max_pages = Some(n))
            .map_err(|_| bad("a number")),
        "scope" => Scope::parse(v)
            .map(|s| seed.scope = s)
            .ok_or_else(|| bad("host, domain or any")),
        "mode" => match v {
            "article" => Ok(Mode::Article),
            "ecommerce" => Ok(Mode::Ecommerce),
            _ => Err(bad("article or ecommerce")),
        }
        .map(|m| seed.mode = m),
        "render" => RenderMode::parse(v)
            .map(|m| seed.render = Some(m))
            .ok_or_else(|| bad("never, auto or always")),
        "priority" => match v.parse::<f32>() {
            Ok(p) if (0.0..=1.0).contains(&p) => {
                seed.priority = Some(p);
                Ok(())
            }
            _ => Err(bad("a number from 0 to 1")),
        },
        "sitemaps" => v
            .parse()
            .map(|b| seed.sitemaps = b)
            .map_err(|_| bad("true or false")),
        "delay" => match v.parse::<u64>() {
            Ok(ms) if ms <= 3_600_000 => {
                seed.delay_ms = Some(ms);
                Ok(())
            }
            _ => Err(bad("milliseconds, 0 to 3600000")),
        },
        "concurrency" => match v.parse::<usize>() {
            Ok(n) if (1..=64).contains(&n) => {
                seed.concurrency = Some(n);
                Ok(())
            }
            _ => Err(bad("a number of requests at once, 1 to 64")),
        },
        "revisit" | "revisit_pages" => {
            let secs = crate::record::parse_duration(v).map_err(|e| format!("option {k}: {e}"))?;
            if k == "revisit" {
                seed.revisit = Some(secs);
            } else {
                seed.revisit_pages = Some(secs);
            }
            Ok(())
        }
        "user_agent" if !v.is_empty() => {
            seed.request.user_agent = Some(v.to_string());
            Ok(())
        }
        "header" | "header_env"
            if seed.request.headers.len() + seed.request.header_env.len()
                >= crate::limits::MAX_SEED_HEADERS =>
        {
            Err(format!(
                "more than {} header= and header_env= options on one line",
                crate::limits::MAX_SEED_HEADERS
            ))
        }
        "header" => match v.split_once(':') {
            Some((name, value)) => {
                let (name, value) = (name.trim(), value.trim());
                crate::fetch::check_header(name, value).map_err(|e| format!("option header: {e}"))?;
                seed.request.headers.push((name.to_string(), value.to_string()));
                Ok(())
            }
            None => Err(bad("Name:Value")),
        },
        "header_env" => match v.split_once(':') {
            Some((name, var)) if is_env_name(var.trim()) => {
                let (name, var) = (name.trim(), var.trim());
                crate::fetch::check_secret_header(name).map_err(|e| format!("option header_env: {e}"))?;
                env_is_set(k, var)?;
                seed.request.header_env.push((name.to_string(), var.to_string()));
                Ok(())
            }
            _ => Err(bad("Name:ENV_VARIABLE (the variable holds the value)")),
        },
        "cookies" => {
            let path = PathBuf::from(v);
            crate::fetch::cookies::CookieJar::load(&path).map_err(|e| format!("option cookies: {e}"))?;
            seed.request.cookies = Some(path);
            Ok(())
        }
        "auth_env" if is_env_name(v) => {
            env_is_set(k, v)?;
            seed.request.auth_env = Some(v.to_string());
            Ok(())
        }
        "proxy" if crate::fetch::is_proxy_url(v) => {
            seed.request.proxy = Some(v.to_string());
            Ok(())
        }
        "proxy" => Err(bad("a proxy URL (http://, https://, socks5:// or socks5h://HOST:PORT)")),
        "include" | "exclude" => match regex::Regex::new(v) {
            Ok(_) if k == "include" => {
                seed.include.push(v.to_string());
                Ok(())
            }
            Ok(_) => {
                seed.exclude.push(v.to_string());
                Ok(())
            }
            Err(e) => Err(bad(&format!("a regular expression ({e})"))),
        },
        "topic" if defaults.topics.iter().any(|t| t == v) => {
            seed.topic = Some(v.to_string());
            Ok(())
        }
        "topic" => Err(bad(&format!(
            "a topic of config.toml (known: {})",
            if defaults.topics.is_empty() {
                "none; add [focus.topics.NAME]".to_string()
            } else {
                defaults.topics.join(", ")
            }
        ))),
        _ => Err(format!(
            "unknown option {k:?} (known: depth, max_pages, scope, mode, sitemaps, topic, include, exclude, delay, concurrency, revisit, revisit_pages, render, user_agent, header, header_env, cookies, auth_env, proxy)"
        )),
    }
}

/// A seed line's words: split at white space, except inside double quotes
/// (`user_agent="MyBot/1.0 (+https://example.org/bot)"`), which are taken
/// out; `\"` and `\\` inside quotes are a quote and a backslash.
fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut quoted = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            '\\' if quoted => match chars.next() {
                Some(n @ ('"' | '\\')) => word.push(n),
                Some(n) => {
                    word.push('\\');
                    word.push(n);
                }
                None => word.push('\\'),
            },
            c if c.is_whitespace() && !quoted => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if quoted {
        return Err("a double quote is not closed".into());
    }
    if started {
        out.push(word);
    }
    Ok(out)
}

/// Parses a seed file's text. Returns the seeds and the bad lines.
pub fn parse(
    text: &str,
    file: &str,
    defaults: &SeedDefaults,
    rules: &UrlRules,
) -> (Vec<Seed>, Vec<SeedLineError>) {
    let mut seeds = Vec::new();
    let mut errors = Vec::new();
    let mut parser = SeedParser::new(file, defaults, rules);
    // A file saved with a UTF-8 byte-order mark keeps its first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        match parser.line(i + 1, raw) {
            Some(Ok(seed)) => seeds.push(seed),
            Some(Err(e)) => errors.push(e),
            None => {}
        }
    }
    (seeds, errors)
}

/// Reads a seed file one line at a time, so a file of millions of lines
/// is streamed into the frontier: it keeps what `*` lines set for the
/// lines after them.
#[derive(Debug, Clone)]
pub struct SeedParser {
    file: String,
    defaults: SeedDefaults,
    rules: UrlRules,
    /// What `*` lines set for the lines after them.
    template: Seed,
}

impl SeedParser {
    /// A parser for the lines of `file` (named in errors).
    pub fn new(file: &str, defaults: &SeedDefaults, rules: &UrlRules) -> SeedParser {
        SeedParser {
            file: file.to_string(),
            template: Seed {
                max_depth: defaults.max_depth,
                scope: defaults.scope,
                mode: defaults.mode,
                sitemaps: defaults.sitemaps,
                guarded: Path::new(file).file_name() == Some(std::ffi::OsStr::new(API_FILE)),
                ..Seed::bare("")
            },
            defaults: defaults.clone(),
            rules: rules.clone(),
        }
    }

    /// Line `number` (from 1): a seed, a bad line's error, or nothing (a
    /// comment, a blank line, a `*` line).
    pub fn line(&mut self, number: usize, raw: &str) -> Option<Result<Seed, SeedLineError>> {
        let raw = if number == 1 {
            raw.strip_prefix('\u{feff}').unwrap_or(raw)
        } else {
            raw
        };
        let line = raw.split_once(" #").map_or(raw, |(l, _)| l).trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let err = |message: String| SeedLineError {
            file: self.file.clone(),
            line: number,
            message,
        };
        let words = match words(line) {
            Ok(w) => w,
            Err(e) => return Some(Err(err(e))),
        };
        let mut parts = words.iter().map(String::as_str);
        let first = parts.next()?;
        if first == "*" {
            let mut next = self.template.clone();
            return match parts.try_for_each(|opt| apply(&mut next, opt, &self.defaults)) {
                Ok(()) => {
                    self.template = next;
                    None
                }
                Err(e) => Some(Err(err(e))),
            };
        }
        let url = match normalize(first, None, &self.rules) {
            Ok(u) => u,
            Err(e) => return Some(Err(err(format!("bad URL {first:?}: {e}")))),
        };
        let mut seed = Seed {
            host: host_key(&url),
            url: url.to_string(),
            ..self.template.clone()
        };
        Some(
            parts
                .try_for_each(|opt| apply(&mut seed, opt, &self.defaults))
                .map(|()| seed)
                .map_err(err),
        )
    }
}

/// The seed file the daemon's API writes, in its data directory: read
/// with the others whatever they are (`--seeds` or the seeds directory),
/// so seeds added through the API are kept across restarts.
pub const API_FILE: &str = "api-seeds.txt";

/// The seed files of a run: [`files`], then the API's in `data_dir` when
/// there is one.
pub fn run_files(dir: &Path, given: &[PathBuf], data_dir: &Path) -> Vec<PathBuf> {
    let mut out = files(dir, given);
    let api = data_dir.join(API_FILE);
    if api.is_file() {
        out.push(api);
    }
    out
}

/// The seed files: the files given (`--seeds`), or else every `*.txt` in
/// `dir`, sorted. Files given replace the directory, so a crawl of your own
/// list does not also crawl the shipped examples.
pub fn files(dir: &Path, given: &[PathBuf]) -> Vec<PathBuf> {
    if !given.is_empty() {
        return given.to_vec();
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;

    fn defaults() -> SeedDefaults {
        SeedDefaults {
            max_depth: 3,
            scope: Scope::Host,
            sitemaps: true,
            mode: Mode::Article,
            topics: vec!["energy".into()],
        }
    }

    #[test]
    fn a_seed_written_as_a_line_reads_back_the_same() {
        let line = concat!(
            "http://a.test/x depth=2 max_pages=40 scope=domain mode=ecommerce ",
            "sitemaps=false render=always topic=energy include=/news/ exclude=\"\\.pdf$\" ",
            "delay=1500 concurrency=2 revisit=1h revisit_pages=7d priority=0.25 ",
            "user_agent=\"Bot/1.0 (+http://a.test/\\\"bot\\\")\" header=X-A:b ",
            "header_env=X-Key:PATH auth_env=PATH proxy=http://127.0.0.1:3128",
        );
        let (seeds, errors) = parse(line, "s.txt", &defaults(), &UrlRules::default());
        assert!(errors.is_empty(), "{errors:?}");
        let seed = &seeds[0];
        assert_eq!(seed.priority, Some(0.25));
        assert_eq!(
            seed.request.user_agent.as_deref(),
            Some("Bot/1.0 (+http://a.test/\"bot\")")
        );
        let again = seed.to_line().expect("a line");
        let (back, errors) = parse(&again, "s.txt", &defaults(), &UrlRules::default());
        assert!(errors.is_empty(), "{again}: {errors:?}");
        assert_eq!(&back[0], seed, "{again}");
        let bare = parse("http://b.test/", "s.txt", &defaults(), &UrlRules::default()).0;
        let line = bare[0].to_line().expect("a line");
        assert_eq!(
            parse(&line, "s.txt", &defaults(), &UrlRules::default()).0,
            bare
        );
        let mut odd = bare[0].clone();
        odd.include = vec!["a #b".into()];
        assert!(
            odd.to_line().is_err(),
            "a comment inside a value is refused"
        );
        let e = parse(
            "http://b.test/ priority=2",
            "s",
            &defaults(),
            &UrlRules::default(),
        )
        .1;
        assert!(e[0].message.contains("0 to 1"), "{e:?}");
    }

    #[test]
    fn a_byte_order_mark_does_not_cost_the_first_line() {
        // Regression: the BOM glued to the URL made the first line a bad URL.
        let text = "\u{feff}http://a.test/\nhttp://b.test/\n";
        let (seeds, errors) = parse(text, "s.txt", &defaults(), &UrlRules::default());
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(seeds.len(), 2);
    }

    #[test]
    fn given_seed_files_replace_the_seeds_directory() {
        let dir = std::env::temp_dir().join(format!("trawl-seedfiles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join("example.txt"), "http://example.test/\n").expect("write");
        let mine = dir.join("mine.list");
        assert_eq!(files(&dir, &[]), vec![dir.join("example.txt")]);
        assert_eq!(files(&dir, std::slice::from_ref(&mine)), vec![mine]);
        let _ = std::fs::remove_dir_all(&dir); // best-effort cleanup
    }

    #[test]
    fn star_lines_set_defaults_for_the_lines_after() {
        let text = "http://a.test/\n* topic=energy depth=7\nhttp://b.test/\nhttp://c.test/ depth=1\n* topic=sports\nhttp://d.test/\n";
        let (seeds, errors) = parse(text, "s.txt", &defaults(), &UrlRules::default());
        let got: Vec<(Option<&str>, u16)> = seeds
            .iter()
            .map(|s| (s.topic.as_deref(), s.max_depth))
            .collect();
        assert_eq!(
            got,
            [
                (None, 3),
                (Some("energy"), 7),
                (Some("energy"), 1),
                (Some("energy"), 7)
            ]
        );
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].to_string().contains("s.txt:5: option topic"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn quoted_values_keep_their_spaces_and_concurrency_is_read() {
        let text = "http://a.test/ user_agent=\"MyBot/1.0 (+https://a.test/bot; say \\\"hi\\\")\" concurrency=3 exclude=/p\\d+\n\
                    http://b.test/ user_agent=\"open\n\
                    http://c.test/ concurrency=0\n\
                    http://d.test/ concurrency=65\n";
        let (seeds, errors) = parse(text, "s.txt", &defaults(), &UrlRules::default());
        assert_eq!(seeds.len(), 1, "{errors:?}");
        assert_eq!(
            seeds[0].request.user_agent.as_deref(),
            Some("MyBot/1.0 (+https://a.test/bot; say \"hi\")")
        );
        assert_eq!(seeds[0].concurrency, Some(3));
        assert_eq!(seeds[0].exclude, vec!["/p\\d+".to_string()]);
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![2, 3, 4]);
        assert!(errors[0].message.contains("quote"), "{}", errors[0]);
        assert!(errors[1].message.contains("1 to 64"), "{}", errors[1]);
    }

    #[test]
    fn parses_options_and_reports_bad_lines() {
        let text = "# comment\n\nhttps://Example.org/ depth=1 max_pages=10 scope=domain\nnot a url\nhttp://x.test/ colour=blue\nhttp://y.test/ depth=many\nftp://z.test/\nhttp://ok.test/a#frag   # trailing comment\n";
        let (seeds, errors) = parse(text, "s.txt", &defaults(), &UrlRules::default());
        assert_eq!(seeds.len(), 2);
        assert_eq!(seeds[0].url, "https://example.org/");
        assert_eq!(
            (seeds[0].max_depth, seeds[0].max_pages, seeds[0].scope),
            (1, Some(10), Scope::Domain)
        );
        assert_eq!(seeds[1].url, "http://ok.test/a");
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![4, 5, 6, 7]);
        assert!(errors[1].to_string().starts_with("s.txt:5: unknown option"));
    }

    #[test]
    fn scope_rules() {
        let (seeds, _) = parse(
            "http://www.example.com/ scope=domain\nhttp://127.0.0.2:8080/\n",
            "s",
            &defaults(),
            &UrlRules::default(),
        );
        let u = |s: &str| Url::parse(s).ok();
        let domain = &seeds[0];
        assert!(u("http://blog.example.com/x").is_some_and(|u| domain.in_scope(&u)));
        assert!(!u("http://example.org/x").is_some_and(|u| domain.in_scope(&u)));
        let host = &seeds[1];
        assert!(u("http://127.0.0.2:8080/a").is_some_and(|u| host.in_scope(&u)));
        assert!(!u("http://127.0.0.3:8080/a").is_some_and(|u| host.in_scope(&u)));
    }
}
