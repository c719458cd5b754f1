//! The map in docs/ARCHITECTURE.md, checked: each library crate's top-level
//! modules stand in layers, and a module imports only modules of lower
//! layers (every `crate::x` path, in `use` lines or inline; the crates'
//! modules reach each other only that way). An import against the stated
//! direction fails here, naming
//! the file and the line, so the map and the code cannot drift apart.
//! Test code (`#[cfg(test)]` to the end of a file, `tests.rs`) is not
//! counted: tests may reach anywhere.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers of one crate, lowest first: a module may import the modules
/// of the layers below its own, never those of its own layer or above.
const EXTRACT: &[&[&str]] = &[
    &["error"],
    &["input"],
    &["html"],
    &["extract"],
    &["page", "chunks", "archive"],
    &["template", "training"],
];

const CRAWL: &[&[&str]] = &[
    &["record", "limits"],
    &["sink"],
    &["store"],
    &["frontier", "focus", "politeness", "fetch", "warc", "render"],
    &["seeds"],
    &["config"],
    &["cluster"],
    &["crawl"],
];

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap_or_else(|e| panic!("{e}")).path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The crate's top-level module a file belongs to (`store` for
/// src/store/queue.rs and src/store.rs; `None` for lib.rs).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib").then_some(name)
}

/// (line, module) of every `crate::module` the file's non-test code names.
fn imports(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `crate::{a, b}`: each name in the braces.
            if name.is_empty() && after.starts_with('{') {
                let inner = after[1..].split('}').next().unwrap_or("");
                for part in inner.split(',') {
                    let n: String = part
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !n.is_empty() {
                        out.push((i + 1, n));
                    }
                }
            } else if !name.is_empty() {
                out.push((i + 1, name));
            }
            rest = after;
        }
    }
    out
}

fn check(crate_dir: &str, layers: &[&[&str]]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(crate_dir)
        .join("src");
    let rank: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(r, mods)| mods.iter().map(move |m| (*m, r)))
        .collect();
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    let mut wrong = Vec::new();
    for file in files {
        if file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let Some(module) = module_of(&src, &file) else {
            continue;
        };
        let Some(&own) = rank.get(module.as_str()) else {
            wrong.push(format!(
                "{}: module `{module}` is not on the map (add it to a layer here and in docs/ARCHITECTURE.md)",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}"));
        for (line, target) in imports(&text) {
            if target == module {
                continue;
            }
            match rank.get(target.as_str()) {
                Some(&r) if r < own => {}
                Some(_) => wrong.push(format!(
                    "{}:{line}: `{module}` imports `{target}`, which is not below it",
                    file.display()
                )),
                // Items of the crate root (re-exports) are not modules.
                None => {}
            }
        }
    }
    // Every layer's module exists (the map names no ghost).
    for m in rank.keys() {
        let (a, b) = (src.join(m), src.join(format!("{m}.rs")));
        if !a.is_dir() && !b.is_file() {
            wrong.push(format!(
                "the map names `{m}`, which {crate_dir} does not have"
            ));
        }
    }
    wrong
}

#[test]
fn imports_follow_the_map() {
    let mut wrong = check("crates/trawl-extract", EXTRACT);
    wrong.extend(check("crates/trawl-crawl", CRAWL));
    assert!(
        wrong.is_empty(),
        "imports against docs/ARCHITECTURE.md:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_checker_sees_an_import_against_the_map() {
    let found = imports("use crate::store::Store;\nuse crate::{config, record::Record};\n#[cfg(test)]\nuse crate::crawl;\n");
    let names: Vec<&str> = found.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["store", "config", "record"]);
}
