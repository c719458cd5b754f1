//! The map in docs/ARCHITECTURE.md, checked: each library crate's top-level
//! modules stand in layers, and a module imports only modules of lower
//! layers (every `crate::x` path, in `use` lines or inline; the crates'
//! modules reach each other only that way). An import against the stated
//! direction fails here, naming
//! the file and the line, so the map and the code cannot drift apart.
//! Test code (`#[cfg(test)]` to the end of a file, `tests.rs`) is not
//! counted: tests may reach anywhere.
//!
//! Inside every folder of the three crates the same holds without a hand-written
//! map: the folder's files and subfolders (its `mod.rs` one of them) import
//! each other without a loop, so they stand in floors and no import runs
//! back up (a `mod.rs` that both hands its children's items on and holds
//! items they read is such a loop).

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

/// The module path a file is (`extract/shop/visible.rs` → `extract::shop::visible`;
/// a `mod.rs` is its folder's module; `lib.rs` the crate's).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if !matches!(stem, "mod" | "lib" | "main") {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// Whether `path` (below `src`) names a module: a file or a folder.
fn is_module(src: &Path, path: &[String]) -> bool {
    let p = path.iter().fold(src.to_path_buf(), |p, s| p.join(s));
    p.is_dir() || p.with_extension("rs").is_file()
}

/// A line and the module path it names.
type ModuleRef = (usize, Vec<String>);

/// (line, module path) of every module path the file's non-test code
/// names: `crate::a::b`, `super::a`, `self::a` and a child module's bare
/// name (`mod a;` in the file), braces expanded one level.
fn module_refs(src: &Path, file: &Path, text: &str) -> Vec<ModuleRef> {
    let own = module_path(src, file);
    // The module `super` names from this file (`self` is `own`).
    let parent = own[..own.len().saturating_sub(1)].to_vec();
    let children: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let l = visibility_free(l);
            let l = l.trim_start();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            Some(l.strip_prefix("mod ")?.strip_suffix(';')?.to_string())
        })
        .collect();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = visibility_free(line.split("//").next().unwrap_or(""))
            .replace(", ", ",")
            .replace("{ ", "{");
        let tokens: Vec<&str> = code
            .split(|c: char| !(c.is_ascii_alphanumeric() || "_:{},".contains(c)))
            .collect();
        for tok in tokens.into_iter().filter(|t| t.contains("::")) {
            for path in expand(tok) {
                let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
                let Some((&first, rest)) = segs.split_first() else {
                    continue;
                };
                let (mut base, rest) = match first {
                    "crate" => (Vec::new(), rest),
                    "super" => (parent.clone(), rest),
                    "self" => (own.clone(), rest),
                    // A child module named bare (`use walk::Block;` in mod.rs).
                    name if children.iter().any(|c| c == name) => (own.clone(), &segs[..]),
                    _ => continue,
                };
                for seg in rest {
                    if *seg == "super" {
                        base.pop();
                        continue;
                    }
                    let mut next = base.clone();
                    next.push(seg.to_string());
                    if !is_module(src, &next) {
                        break;
                    }
                    base = next;
                }
                out.push((i + 1, base));
            }
        }
    }
    out
}

/// A line without its visibilities (`pub(super)`, `pub(in crate::a)`):
/// they name where an item may be seen, not what it uses.
fn visibility_free(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("pub(") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once(')').map_or("", |x| x.1);
    }
    out.push_str(rest);
    out
}

/// `a::{b, c::d}` → `a::b`, `a::c::d`; anything else as it is.
fn expand(tok: &str) -> Vec<String> {
    match tok.split_once('{') {
        Some((head, inner)) => inner
            .split(',')
            .map(|part| part.trim_matches(|c| c == '{' || c == '}'))
            .filter(|part| !part.is_empty())
            .map(|part| format!("{head}{part}"))
            .collect(),
        None => vec![tok.trim_matches(|c| c == ',' || c == '}').to_string()],
    }
}

/// Every folder below `src`, and the loops among each one's rooms (its
/// files and subfolders) as "a → b → … → a" with a line that imports.
fn folder_loops(crate_dir: &str) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(crate_dir)
        .join("src");
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    files.retain(|f| f.file_name().is_none_or(|n| n != "tests.rs"));
    let mut folders: Vec<PathBuf> = files
        .iter()
        .filter_map(|f| f.parent().map(Path::to_path_buf))
        .collect();
    folders.sort();
    folders.dedup();
    let refs: Vec<(PathBuf, Vec<ModuleRef>)> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{e}"));
            (f.clone(), module_refs(&src, f, &text))
        })
        .collect();
    let mut wrong = Vec::new();
    for folder in folders {
        let here = module_path(&src, &folder.join("mod.rs"));
        // room → room → a line that imports
        let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for (file, found) in &refs {
            let Ok(rel) = file.strip_prefix(&folder) else {
                continue;
            };
            let first = rel
                .components()
                .next()
                .map(|c| c.as_os_str().to_string_lossy().into_owned());
            let Some(from) = first.map(|n| n.trim_end_matches(".rs").to_string()) else {
                continue;
            };
            for (line, target) in found {
                if target.len() < here.len() || target[..here.len()] != here[..] {
                    continue;
                }
                let to = target.get(here.len()).cloned().unwrap_or_else(|| {
                    if folder != src {
                        "mod".into()
                    } else if src.join("lib.rs").is_file() {
                        "lib".into()
                    } else {
                        "main".into()
                    }
                });
                if to != from {
                    edges
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_insert_with(|| format!("{}:{line}", file.display()));
                }
            }
        }
        if let Some(cycle) = find_loop(&edges) {
            let at: Vec<String> = cycle
                .windows(2)
                .map(|w| edges[&w[0]][&w[1]].clone())
                .collect();
            wrong.push(format!(
                "{}: {} ({})",
                folder.display(),
                cycle.join(" → "),
                at.join(", ")
            ));
        }
    }
    wrong
}

/// A loop in the graph, as its rooms with the first repeated at the end.
fn find_loop(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in edges.get(n).into_iter().flat_map(|e| e.keys()) {
            match state.get(m.as_str()) {
                Some(1) => {
                    let from = stack.iter().position(|s| s == m).unwrap_or(0);
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(m, edges, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in edges.keys() {
        if !state.contains_key(n.as_str()) {
            if let Some(c) = visit(n, edges, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_import_runs_back_up_inside_a_folder() {
    let mut found = folder_loops("crates/trawl-extract");
    found.extend(folder_loops("crates/trawl-crawl"));
    found.extend(folder_loops("."));
    assert!(
        found.is_empty(),
        "imports in a loop inside a folder (move what both sides read below them):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_folder_checker_sees_a_loop_and_reads_paths_as_rust_does() {
    fn edge(edges: &mut BTreeMap<String, BTreeMap<String, String>>, a: &str, b: &str) {
        edges
            .entry(a.into())
            .or_default()
            .insert(b.into(), String::new());
    }
    let mut edges = BTreeMap::new();
    edge(&mut edges, "mod", "walk");
    edge(&mut edges, "walk", "inline");
    assert_eq!(find_loop(&edges), None);
    edge(&mut edges, "inline", "mod");
    assert_eq!(
        find_loop(&edges),
        Some(vec![
            "inline".into(),
            "mod".into(),
            "walk".into(),
            "inline".into()
        ])
    );
    assert_eq!(
        expand("super::{record::Price,jsonld}"),
        ["super::record::Price", "super::jsonld"]
    );
    assert_eq!(
        visibility_free("pub(super) fn a(x: &super::B)"),
        " fn a(x: &super::B)"
    );
    assert_eq!(
        visibility_free("pub(in crate::crawl) struct C"),
        " struct C"
    );
}

#[test]
fn the_checker_sees_an_import_against_the_map() {
    let found = imports("use crate::store::Store;\nuse crate::{config, record::Record};\n#[cfg(test)]\nuse crate::crawl;\n");
    let names: Vec<&str> = found.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["store", "config", "record"]);
}

/// trawl-crawl's public modules: the faces named in its crate docs (and two
/// hidden from the docs, for the benches). Every other module is private
/// behind the facade at the top of lib.rs.
const CRAWL_FACES: &[&str] = &[
    "cluster", "fetch", "frontier", "render", "seeds", "sink", "store", "warc",
];

#[test]
fn trawl_crawls_internals_stay_behind_its_facade() {
    let lib = std::fs::read_to_string("crates/trawl-crawl/src/lib.rs")
        .unwrap_or_else(|e| panic!("lib.rs: {e}"));
    let public: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert_eq!(
        public, CRAWL_FACES,
        "a module made public needs a reason in lib.rs's docs and here"
    );
    assert!(
        lib.contains("#![warn(unreachable_pub)]"),
        "unreachable_pub keeps every `pub` item reachable from the facade"
    );
}
