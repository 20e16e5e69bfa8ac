//! The crate's import graph, read from its source: which module uses which (`use crate::…`,
//! `use super::…`, a child module's path, and the same paths written inline in code), and the
//! shape `ARCHITECTURE.md` promises — no cycle, a core that names no family, families that
//! reach only the core and each other's rule types.
//!
//! Why a test and not a one-off script: the shape decays one convenient import at a time, and
//! a test says so on the commit that does it. It reads Rust as text (comments, strings and
//! test modules dropped first), which is enough for the paths this crate writes; it knows no
//! macros and no `#[path]`, which the crate does not use.
//!
//! `cargo test -p grim-levels --test imports -- --nocapture` prints the modules in dependency
//! order and every edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path below the crate root (`["families", "counts", "rule"]`; empty: the root).
type Module = Vec<String>;

/// The modules a stage of the pipeline is, and the crate root: they walk the family table.
const STAGES: [&str; 4] = ["read", "compile", "solve", "clash"];

#[test]
fn the_import_graph_is_a_dag_with_a_core_that_names_no_family() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_files(&src);
    let modules: BTreeMap<Module, PathBuf> = files
        .iter()
        .map(|f| (module_of(&src, f), f.clone()))
        .collect();
    let known: BTreeSet<Module> = modules.keys().cloned().collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (m, file) in &modules {
        let text = std::fs::read_to_string(file).expect("a source file");
        let code = without_tests(&blank_comments_and_strings(&text));
        let targets = edges.entry(m.clone()).or_default();
        for path in paths(&code) {
            if let Some(t) = resolve(m, &path, &known)
                && &t != m
            {
                targets.insert(t);
            }
        }
    }
    let count: usize = edges.values().map(BTreeSet::len).sum();
    println!("{} modules, {count} edges", modules.len());

    // 1. No cycle: a topological order exists.
    let order = topological(&edges).unwrap_or_else(|cycle| {
        panic!(
            "the imports have a cycle: {}",
            cycle.iter().map(name).collect::<Vec<_>>().join(" -> ")
        )
    });
    println!("in dependency order (each module uses only modules above it):");
    for m in &order {
        let uses: Vec<String> = edges[m].iter().map(name).collect();
        println!("  {:<34} uses {}", name(m), uses.join(", "));
    }

    // 2. The core names no family; the aggregate spec names only the families' rule types.
    // 3. A family uses the core, its own modules and other families' rule types only.
    let is_family = |m: &Module| m.first().is_some_and(|s| s == "families") && m.len() >= 2;
    let is_rule = |m: &Module| is_family(m) && m.len() == 3 && m[2] == "rule";
    let mut wrong = Vec::new();
    for (m, targets) in &edges {
        let stage =
            m.is_empty() || STAGES.contains(&m[0].as_str()) || m == &vec!["families".to_string()];
        for t in targets.iter().filter(|t| is_family(t)) {
            let ok = if stage {
                true
            } else if is_family(m) {
                t[1] == m[1] || is_rule(t)
            } else {
                // The core: only `spec`, whose public fields are the families' rule types.
                m == &vec!["spec".to_string()] && is_rule(t)
            };
            if !ok {
                wrong.push(format!("{} uses {}", name(m), name(t)));
            }
        }
        if !stage && !is_family(m) && targets.contains(&vec!["families".to_string()]) {
            wrong.push(format!("{} uses the family table", name(m)));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports across the layers:\n{}",
        wrong.join("\n")
    );
}

/// `crate::a::b` for a module path.
fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".to_string()
    } else {
        format!("crate::{}", m.join("::"))
    }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the source directory")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out
}

/// `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`; `src/lib.rs` is the root.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).expect("a file below src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The text with every comment and the inside of every string and character literal blanked
/// (lengths kept), so that only code is left to read.
fn blank_comments_and_strings(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && !ident(c.get(i.wrapping_sub(1)).copied())
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() {
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && (c.get(i + 2) == Some(&'\'') || next == Some('\\')) {
            // A character literal ('x', '\n', '\u{..}'); a lifetime has no closing quote.
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn ident(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The code without its `#[cfg(test)]` modules (their `use super::*` is not the module's).
fn without_tests(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let rest = &out[at..];
        let Some(open) = rest.find('{') else { break };
        let head = &rest[..open];
        if !head.contains("mod ") {
            // A test-only item that is not a module: keep it, but stop looking at this mark.
            out.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        }
        let mut depth = 0;
        let mut end = rest.len();
        for (k, ch) in rest[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.replace_range(at..at + end, "");
    }
    out
}

/// Every path the code names: those of `use` trees (expanded) and `a::b::c` chains written
/// inline.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if code[i..].starts_with("use ") && (i == 0 || !ident(code[..i].chars().last())) {
            let end = code[i..].find(';').map_or(code.len(), |e| i + e);
            expand(&code[i + 4..end], &mut Vec::new(), &mut out);
            i = end;
            continue;
        }
        i += 1;
    }
    // Inline chains: `ident::ident::…`.
    let chars: Vec<char> = code.chars().collect();
    let mut k = 0;
    while k < chars.len() {
        if (chars[k].is_alphabetic() || chars[k] == '_')
            && !ident(k.checked_sub(1).map(|p| chars[p]))
        {
            let mut segs = Vec::new();
            let mut j = k;
            loop {
                let start = j;
                while j < chars.len() && ident(Some(chars[j])) {
                    j += 1;
                }
                segs.push(chars[start..j].iter().collect::<String>());
                if chars.get(j) == Some(&':')
                    && chars.get(j + 1) == Some(&':')
                    && ident(chars.get(j + 2).copied())
                {
                    j += 2;
                } else {
                    break;
                }
            }
            if segs.len() > 1 {
                out.push(segs);
            }
            k = j.max(k + 1);
        } else {
            k += 1;
        }
    }
    out
}

/// The paths of a `use` tree (`crate::a::{b, c::{d, e as f}}`), each prefixed by `prefix`.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = segments(&tree[..open]);
        let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let n = prefix.len();
        prefix.extend(head);
        let mut depth = 0;
        let mut start = 0;
        for (k, ch) in body.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&body[start..k], prefix, out);
                    start = k + 1;
                }
                _ => {}
            }
        }
        expand(&body[start..], prefix, out);
        prefix.truncate(n);
    } else {
        let item = tree.split(" as ").next().unwrap_or("").trim();
        if item.is_empty() {
            return;
        }
        let mut full = prefix.clone();
        full.extend(
            segments(item)
                .into_iter()
                .filter(|s| s != "self" || prefix.is_empty()),
        );
        out.push(full);
    }
}

fn segments(s: &str) -> Vec<String> {
    s.split("::")
        .map(|x| x.trim().trim_start_matches("pub(crate) ").to_string())
        .filter(|x| !x.is_empty() && x != "*")
        .collect()
}

/// The module `path` names from module `from`: the longest known module its resolved segments
/// start with. `None` for another crate's path, or a name that is not a path into this crate.
fn resolve(from: &Module, path: &[String], known: &BTreeSet<Module>) -> Option<Module> {
    let mut base: Module;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &path[1..];
        }
        Some("self") => {
            base = from.clone();
            rest = &path[1..];
        }
        Some("super") => {
            base = from.clone();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) => {
            let mut child = from.clone();
            child.push(first.to_string());
            if !known.contains(&child) {
                return None; // another crate, a type, a local name
            }
            base = from.clone();
        }
        None => return None,
    }
    let mut target = base.clone();
    let mut best = base;
    for seg in rest {
        target.push(seg.clone());
        if known.contains(&target) {
            best = target.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// The modules in an order where each comes after everything it uses, or a cycle.
fn topological(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Result<Vec<Module>, Vec<Module>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        m: &Module,
        edges: &BTreeMap<Module, BTreeSet<Module>>,
        marks: &mut BTreeMap<Module, Mark>,
        stack: &mut Vec<Module>,
        out: &mut Vec<Module>,
    ) -> Result<(), Vec<Module>> {
        match marks.get(m) {
            Some(Mark::Done) => return Ok(()),
            Some(Mark::Open) => {
                let from = stack.iter().position(|s| s == m).unwrap_or(0);
                let mut cycle = stack[from..].to_vec();
                cycle.push(m.clone());
                return Err(cycle);
            }
            None => {}
        }
        marks.insert(m.clone(), Mark::Open);
        stack.push(m.clone());
        for t in edges.get(m).into_iter().flatten() {
            visit(t, edges, marks, stack, out)?;
        }
        stack.pop();
        marks.insert(m.clone(), Mark::Done);
        out.push(m.clone());
        Ok(())
    }
    let mut marks = BTreeMap::new();
    let mut out = Vec::new();
    for m in edges.keys() {
        visit(m, edges, &mut marks, &mut Vec::new(), &mut out)?;
    }
    Ok(out)
}
