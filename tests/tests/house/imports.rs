//! The import graph of a crate's files, and its circles.
//!
//! File A depends on file B when A's non-test code names B's module: a
//! `use` of it or of an item in it, or a path (`crate::x::y`, `super::z`)
//! through it. An item the crate root re-exports (`pub use m::Item`) counts
//! as a use of the module that defines it. A `mod` declaration is not a
//! dependency, nor a method call on a type defined elsewhere.
//!
//! A circle (a strongly connected set of files) within one folder is a
//! module's own business; one that crosses folders ties rooms of the house
//! together, which is what the check forbids.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::source::{test_ranges, Tree};

/// Tokens of blanked code: identifiers, `::`, and single punctuation.
fn tokens(code: &str) -> Vec<&str> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(&code[s..i]);
        } else if c == b':' && b.get(i + 1) == Some(&b':') {
            out.push("::");
            i += 2;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else {
            out.push(&code[i..i + 1]);
            i += 1;
        }
    }
    out
}

/// The paths (as segment lists) a piece of code names: every use tree
/// expanded, and every `crate::`/`super::`/`self::` path elsewhere.
fn paths(code: &str) -> Vec<Vec<String>> {
    let t = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i] == "use" && (i == 0 || t[i - 1] != "::") {
            i += 1;
            use_tree(&t, &mut i, Vec::new(), &mut out);
            continue;
        }
        if matches!(t[i], "crate" | "super" | "self")
            && t.get(i + 1) == Some(&"::")
            && (i == 0 || t[i - 1] != "::")
        {
            let mut p = vec![t[i].to_string()];
            let mut j = i + 1;
            while t.get(j) == Some(&"::") {
                match t.get(j + 1) {
                    Some(s) if is_ident(s) => {
                        p.push(s.to_string());
                        j += 2;
                    }
                    _ => break,
                }
            }
            out.push(p);
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

fn is_ident(s: &str) -> bool {
    s.bytes()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
}

/// Expands one use tree starting at `t[*i]`, with `prefix` before it.
fn use_tree(t: &[&str], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut p = prefix;
    loop {
        match t.get(*i) {
            Some(&"{") => {
                *i += 1;
                loop {
                    use_tree(t, i, p.clone(), out);
                    match t.get(*i) {
                        Some(&",") => {
                            *i += 1;
                            if t.get(*i) == Some(&"}") {
                                *i += 1;
                                return;
                            }
                        }
                        Some(&"}") => {
                            *i += 1;
                            return;
                        }
                        _ => return,
                    }
                }
            }
            Some(&"*") => {
                *i += 1;
                out.push(p);
                return;
            }
            Some(s) if is_ident(s) => {
                p.push(s.to_string());
                *i += 1;
                if t.get(*i) == Some(&"::") {
                    *i += 1;
                    continue;
                }
                if t.get(*i) == Some(&"as") {
                    *i += 2;
                }
                if t.get(*i) == Some(&";") {
                    *i += 1;
                }
                out.push(p);
                return;
            }
            _ => {
                if !p.is_empty() {
                    out.push(p);
                }
                return;
            }
        }
    }
}

/// The import graph of one module tree: file path to the files it uses.
pub fn graph(tree: &Tree) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    // What each module re-exports: item name to the path it names.
    let mut reexports: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (m, f) in &tree.files {
        for p in pub_uses(&f.code) {
            if let Some(last) = p.last() {
                let abs = absolute(m, &p, tree);
                reexports
                    .entry(m.clone())
                    .or_default()
                    .insert(last.clone(), abs);
            }
        }
    }
    let mut g = BTreeMap::new();
    for (m, f) in &tree.files {
        let mut deps = BTreeSet::new();
        if !f.test {
            for p in paths(&non_test(&f.code)) {
                let abs = absolute(m, &p, tree);
                if let Some(target) = resolve(&abs, tree, &reexports, 0) {
                    if target != *m {
                        deps.insert(tree.files[&target].path.clone());
                    }
                }
            }
        }
        g.insert(f.path.clone(), deps);
    }
    g
}

/// `code` without its `#[cfg(test)]` items.
fn non_test(code: &str) -> String {
    let mut s = code.to_string();
    for (a, b) in test_ranges(code) {
        s.replace_range(a..b, &" ".repeat(b - a));
    }
    s
}

/// The paths of a file's `pub use` lines (its re-exports).
fn pub_uses(code: &str) -> Vec<Vec<String>> {
    let t = tokens(code);
    let mut out = Vec::new();
    for i in 0..t.len() {
        if t[i] == "pub" && t.get(i + 1) == Some(&"use") {
            let mut j = i + 2;
            use_tree(&t, &mut j, Vec::new(), &mut out);
        }
    }
    out
}

/// A path as written in module `m` made absolute from the crate root
/// (`None`-like empty result for paths into other crates).
fn absolute(m: &[String], p: &[String], tree: &Tree) -> Vec<String> {
    let mut base: Vec<String> = m.to_vec();
    let mut rest = p;
    match p.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &p[1..];
        }
        Some("super") | Some("self") => {
            while let Some(s) = rest.first() {
                match s.as_str() {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        Some(first) => {
            // A child module of `m` named without `self::`; anything else
            // is another crate's path.
            let mut child = m.to_vec();
            child.push(first.to_string());
            if !tree.files.contains_key(&child) {
                return vec!["<extern>".into()];
            }
        }
        None => return vec!["<extern>".into()],
    }
    base.extend(rest.iter().cloned());
    base
}

/// The module file a path ends in: its longest prefix that is a module,
/// following a re-export for the item after it.
fn resolve(
    abs: &[String],
    tree: &Tree,
    reexports: &BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
    depth: u32,
) -> Option<Vec<String>> {
    if abs.first().is_some_and(|s| s == "<extern>") || depth > 8 {
        return None;
    }
    let mut n = abs.len();
    while n > 0 && !tree.files.contains_key(&abs[..n]) {
        n -= 1;
    }
    let module = abs[..n].to_vec();
    if let Some(item) = abs.get(n) {
        if let Some(target) = reexports.get(&module).and_then(|r| r.get(item)) {
            if target.as_slice() != abs {
                if let Some(t) = resolve(target, tree, reexports, depth + 1) {
                    return Some(t);
                }
            }
        }
    }
    Some(module)
}

/// The strongly connected sets of more than one file (Tarjan).
pub fn circles(g: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct T<'a> {
        g: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        on: BTreeSet<&'a PathBuf>,
        stack: Vec<&'a PathBuf>,
        next: usize,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a PathBuf) {
        t.index.insert(v, t.next);
        t.low.insert(v, t.next);
        t.next += 1;
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let Some((w, _)) = t.g.get_key_value(w) else {
                continue;
            };
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut set = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                set.push(w.clone());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort();
                t.out.push(set);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        on: BTreeSet::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

/// One shortest circle through the files of `set` that starts at its
/// first file, for the message.
pub fn one_circle(g: &BTreeMap<PathBuf, BTreeSet<PathBuf>>, set: &[PathBuf]) -> Vec<PathBuf> {
    let start = &set[0];
    let inside: BTreeSet<&PathBuf> = set.iter().collect();
    // Breadth-first from start's successors back to start.
    let mut prev: BTreeMap<&PathBuf, &PathBuf> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::new();
    queue.push_back(start);
    while let Some(v) = queue.pop_front() {
        for w in g.get(v).into_iter().flatten() {
            if !inside.contains(w) {
                continue;
            }
            if w == start {
                let mut path = vec![v.clone()];
                let mut c = v;
                while c != start {
                    c = prev[c];
                    path.push(c.clone());
                }
                path.reverse();
                path.push(start.clone());
                return path;
            }
            if let Some((w, _)) = g.get_key_value(w) {
                if !prev.contains_key(w) && w != start {
                    prev.insert(w, v);
                    queue.push_back(w);
                }
            }
        }
    }
    set.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn use_trees_expand() {
        let p =
            paths("use crate::{a::B, c::{d, e::F as G}}; use super::x; let y = crate::z::w(1);");
        let s: Vec<String> = p.iter().map(|v| v.join("::")).collect();
        assert_eq!(
            s,
            [
                "crate::a::B",
                "crate::c::d",
                "crate::c::e::F",
                "super::x",
                "crate::z::w"
            ]
        );
    }

    #[test]
    fn a_circle_is_found() {
        let mut g = BTreeMap::new();
        let f = |s: &str| PathBuf::from(s);
        g.insert(f("a"), [f("b")].into());
        g.insert(f("b"), [f("c")].into());
        g.insert(f("c"), [f("a")].into());
        g.insert(f("d"), [f("a")].into());
        let c = circles(&g);
        assert_eq!(c, vec![vec![f("a"), f("b"), f("c")]]);
        assert_eq!(one_circle(&g, &c[0]), [f("a"), f("b"), f("c"), f("a")]);
    }
}
