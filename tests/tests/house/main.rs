//! The house rules (issue 26), checked on the workspace's own sources:
//!
//! - no import circle that crosses folders inside a crate ([`imports`]);
//! - no `Result<_, String>` in non-test code;
//! - no function over 100 lines, but for the data tables listed in
//!   [`DATA_TABLES`];
//! - `docs/architecture.md` at most 200 lines, and every path and item it
//!   cites exists.
//!
//! `HOUSE_GRAPH=1 cargo test -p tandem-tests --test house -- --nocapture`
//! prints each crate's file graph (who imports whom) as well.

mod imports;
mod source;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use source::{line_of, root, test_ranges, trees};

/// The longest function allowed, in lines.
const MAX_FN_LINES: usize = 100;

/// Functions allowed past [`MAX_FN_LINES`] because their body is a table
/// (one arm or row per entry, nothing else): file and function name.
const DATA_TABLES: &[(&str, &str)] = &[
    // One arm per SDL key: the scan-code table of the window.
    ("frontend/src/input/keymap.rs", "key"),
];

#[test]
fn no_import_circle_crosses_folders() {
    let mut bad = Vec::new();
    for t in trees() {
        let g = imports::graph(&t);
        if std::env::var_os("HOUSE_GRAPH").is_some() {
            println!("== {} ({})", t.krate, t.root.display());
            for (f, deps) in &g {
                let d: Vec<String> = deps.iter().map(|p| p.display().to_string()).collect();
                println!("{} -> {}", f.display(), d.join(", "));
            }
        }
        for set in imports::circles(&g) {
            let folders: BTreeSet<&Path> = set.iter().filter_map(|p| p.parent()).collect();
            if folders.len() > 1 {
                let c = imports::one_circle(&g, &set);
                let c: Vec<String> = c.iter().map(|p| p.display().to_string()).collect();
                let all: Vec<String> = set.iter().map(|p| p.display().to_string()).collect();
                bad.push(format!(
                    "{}: {} files in {} folders, e.g. {}\n  all of them: {}",
                    t.krate,
                    set.len(),
                    folders.len(),
                    c.join(" -> "),
                    all.join(" ")
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "import circles across folders:\n{}",
        bad.join("\n")
    );
}

/// Every `.rs` file of the workspace's crates (sources, tests, examples,
/// benches), from the workspace root.
fn all_rust_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "target") {
                    continue;
                }
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for k in source::CRATES {
        walk(&root().join(k), &mut out);
    }
    out
}

#[test]
fn no_result_of_string_outside_tests() {
    let mut bad = Vec::new();
    for t in trees() {
        for f in t.files.values().filter(|f| !f.test) {
            let tests = test_ranges(&f.code);
            for at in result_string(&f.code) {
                if tests.iter().any(|&(a, b)| (a..b).contains(&at)) {
                    continue;
                }
                bad.push(format!("{}:{}", f.path.display(), line_of(&f.code, at)));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "Result<_, String> in non-test code (a typed error instead):\n{}",
        bad.join("\n")
    );
}

/// Where `code` has a `Result<T, String>`.
fn result_string(code: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = code[from..].find("Result<") {
        let start = from + p;
        from = start + 7;
        if start > 0 && code.as_bytes()[start - 1].is_ascii_alphanumeric() {
            continue;
        }
        // The generic arguments at depth one.
        let mut depth = 1;
        let mut args = vec![String::new()];
        for c in code[from..].chars() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' => depth -= 1,
                ',' if depth == 1 => {
                    args.push(String::new());
                    continue;
                }
                _ => {}
            }
            if depth == 0 {
                break;
            }
            if let Some(a) = args.last_mut() {
                a.push(c);
            }
        }
        if args.len() == 2 && args[1].trim() == "String" {
            out.push(start);
        }
    }
    out
}

#[test]
fn no_function_over_100_lines_but_data_tables() {
    let mut bad = Vec::new();
    let mut allowed_seen = BTreeSet::new();
    for p in all_rust_files() {
        let raw = std::fs::read_to_string(&p).unwrap_or_default();
        let code = source::blank(&raw);
        let rel = p.strip_prefix(root()).unwrap_or(&p).to_path_buf();
        for (name, line, len) in functions(&code) {
            if len <= MAX_FN_LINES {
                continue;
            }
            let key = (rel.display().to_string(), name.clone());
            if DATA_TABLES
                .iter()
                .any(|(f, n)| *f == key.0.as_str() && *n == name)
            {
                allowed_seen.insert(key);
                continue;
            }
            bad.push(format!("{}:{line} fn {name}: {len} lines", rel.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "functions over {MAX_FN_LINES} lines:\n{}",
        bad.join("\n")
    );
    // A table that got short or moved leaves the list.
    for (f, n) in DATA_TABLES {
        assert!(
            allowed_seen.contains(&(f.to_string(), n.to_string())),
            "DATA_TABLES lists {f} fn {n}, which is not a function over {MAX_FN_LINES} lines"
        );
    }
}

/// The functions of blanked `code`: name, first line and length in lines
/// (from the `fn` line to its closing brace).
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.split('\n').collect();
    let mut offsets = Vec::with_capacity(lines.len());
    let mut o = 0;
    for l in &lines {
        offsets.push(o);
        o += l.len() + 1;
    }
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(name) = fn_name(l) else { continue };
        let start = offsets[i] + l.find("fn ").unwrap_or(0);
        let rest = &code[start..];
        let brace = rest.find('{');
        let semi = source::top_level_semicolon(rest);
        let open = match (brace, semi) {
            (Some(b), Some(s)) if s < b => continue,
            (Some(b), _) => start + b,
            _ => continue,
        };
        let Some(close) = source::matching(code, open) else {
            continue;
        };
        let len = line_of(code, close) - (i + 1) + 1;
        out.push((name, i + 1, len));
    }
    out
}

/// The name of the function a line starts, if it does.
fn fn_name(line: &str) -> Option<String> {
    let mut t = line.trim_start();
    loop {
        let before = t;
        for q in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
            "extern ",
        ] {
            if let Some(r) = t.strip_prefix(q) {
                t = r.trim_start();
            }
        }
        if let Some(r) = t.strip_prefix("\"") {
            // extern "C"
            t = r.trim_start_matches(|c| c != '"').trim_start_matches('"');
            t = t.trim_start();
        }
        if t == before {
            break;
        }
    }
    let r = t.strip_prefix("fn ")?;
    let name: String = r
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[test]
fn the_architecture_map_is_short_and_cites_what_exists() {
    let doc_path = root().join("docs/architecture.md");
    let doc = std::fs::read_to_string(&doc_path).expect("docs/architecture.md");
    let n = doc.lines().count();
    assert!(n <= 200, "docs/architecture.md has {n} lines (at most 200)");
    let index = ItemIndex::build();
    let mut bad = Vec::new();
    for span in backticked(&doc) {
        if let Err(why) = cited_exists(&span, &index) {
            bad.push(format!("`{span}`: {why}"));
        }
    }
    assert!(
        bad.is_empty(),
        "docs/architecture.md cites what does not exist:\n{}",
        bad.join("\n")
    );
}

/// The `code spans` of a Markdown text, outside fenced blocks.
fn backticked(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let (Some(code), Some(_)) = (parts.next(), parts.next()) {
            out.push(code.to_string());
        }
    }
    out
}

/// Every item name defined in the workspace, and for each name the files
/// that define it.
struct ItemIndex {
    /// Item name -> files defining it (fn, struct, enum, trait, type,
    /// const, static, mod, macro).
    items: std::collections::BTreeMap<String, Vec<PathBuf>>,
    /// Every identifier that occurs in code, by file.
    idents: std::collections::BTreeMap<PathBuf, BTreeSet<String>>,
    /// Every file and folder of the repository, from its root.
    paths: Vec<String>,
}

impl ItemIndex {
    fn build() -> ItemIndex {
        let mut items: std::collections::BTreeMap<String, Vec<PathBuf>> = Default::default();
        let mut idents = std::collections::BTreeMap::new();
        for p in all_rust_files() {
            let code = source::blank(&std::fs::read_to_string(&p).unwrap_or_default());
            let words: Vec<&str> = code
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '!'))
                .filter(|w| !w.is_empty())
                .collect();
            for w in words.windows(2) {
                if matches!(
                    w[0],
                    "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "mod"
                ) || w[0] == "macro_rules!"
                {
                    items.entry(w[1].to_string()).or_default().push(p.clone());
                }
            }
            let set: BTreeSet<String> = words.iter().map(|w| w.to_string()).collect();
            idents.insert(p, set);
        }
        for k in source::CRATES {
            items.entry(k.to_string()).or_default();
        }
        items.entry("tandem".into()).or_default();
        let mut paths = Vec::new();
        repo_paths(&root(), "", &mut paths);
        ItemIndex {
            items,
            idents,
            paths,
        }
    }

    /// Whether a cited path names a file or folder of the repository: the
    /// whole path from the root or from `docs/`, or its last components
    /// under a folder the text names around it (`biu/queue.rs`). A
    /// component `NAME` or with `*` stands for any name in an existing
    /// folder (`hw/src/NAME.rs`, `models/profiles/*.toml`).
    fn has_path(&self, cited: &str) -> bool {
        let (dir, last) = match cited.rsplit_once('/') {
            Some((d, l)) => (Some(d), l),
            None => (None, cited),
        };
        if last.contains("NAME") || last.contains('*') {
            return dir.is_none_or(|d| self.has_path(d));
        }
        if cited.starts_with("../") {
            return root().join(cited).exists();
        }
        let docs = format!("docs/{cited}");
        let tail = format!("/{cited}");
        self.paths
            .iter()
            .any(|p| *p == cited || *p == docs || p.ends_with(&tail))
    }
}

/// Every file and folder under `dir` (but `target` and dot-folders), as
/// paths from the repository's root.
fn repo_paths(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name == "target" || name.starts_with('.') {
            continue;
        }
        let rel = format!("{prefix}{name}");
        if e.path().is_dir() {
            repo_paths(&e.path(), &format!("{rel}/"), out);
        }
        out.push(rel);
    }
}

/// Whether a cited code span names something that exists: a path (a file
/// or folder of the repository), an item path (`Type::method`,
/// `crate::Type`), a type, or a function.
fn cited_exists(span: &str, index: &ItemIndex) -> Result<(), String> {
    let s = span.trim();
    if s.contains(' ') || s.starts_with('-') || s.is_empty() {
        return Ok(()); // a command line or an option
    }
    let looks_like_path = s.contains('/')
        || [
            ".rs", ".md", ".toml", ".txt", ".sh", ".py", ".asm", ".com", ".exe",
        ]
        .iter()
        .any(|e| s.ends_with(e));
    if looks_like_path {
        return if index.has_path(s.trim_end_matches('/')) {
            Ok(())
        } else {
            Err("no such file or folder".into())
        };
    }
    let item = s.trim_end_matches("()");
    let segs: Vec<&str> = item.split("::").collect();
    let ident = |w: &str| {
        !w.is_empty()
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && w.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
    };
    if !segs.iter().all(|w| ident(w)) {
        return Ok(()); // not a name (a number, an expression)
    }
    if segs.len() == 1 {
        let w = segs[0];
        let typeish = w.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && w.chars().any(|c| c.is_ascii_lowercase());
        if typeish && !index.items.contains_key(w) {
            return Err("no such item".into());
        }
        if w.contains('_') && !typeish && !index.idents.values().any(|i| i.contains(w)) {
            return Err("no such name in the code".into());
        }
        return Ok(());
    }
    // Each segment an item (or a crate); the last may be a field, method
    // or variant named in a file that defines the one before.
    for (i, w) in segs.iter().enumerate() {
        if index.items.contains_key(*w) {
            continue;
        }
        let last = i == segs.len() - 1;
        let owner_files = i
            .checked_sub(1)
            .and_then(|j| index.items.get(segs[j]))
            .cloned()
            .unwrap_or_default();
        let in_owner = owner_files
            .iter()
            .any(|f| index.idents.get(f).is_some_and(|ids| ids.contains(*w)));
        if !(last && in_owner) {
            return Err(format!("no item {w}"));
        }
    }
    Ok(())
}

#[test]
fn the_checks_can_fail() {
    assert_eq!(
        result_string("fn f() -> Result<Vec<(u8, u16)>, String> {}").len(),
        1
    );
    assert!(result_string("fn f() -> Result<u8, Error> {}").is_empty());
    let long = format!("fn big() {{\n{}}}\n", "    x();\n".repeat(120));
    assert_eq!(functions(&long), vec![("big".to_string(), 1, 122)]);
    let array = long.replace("fn big()", "fn big(a: [u8; 2])");
    assert_eq!(functions(&array), vec![("big".to_string(), 1, 122)]);
    let index = ItemIndex::build();
    assert!(cited_exists("hw/src/no_such_file.rs", &index).is_err());
    assert!(cited_exists("NoSuchType", &index).is_err());
    assert!(cited_exists("Machine::no_such_method_anywhere", &index).is_err());
    assert!(cited_exists("hw/src/scheduler.rs", &index).is_ok());
    assert!(cited_exists("biu/queue.rs", &index).is_ok());
    assert!(cited_exists("biu/no_queue.rs", &index).is_err());
    assert!(cited_exists("hw/src/NAME.rs", &index).is_ok());
    assert!(cited_exists("no/src/NAME.rs", &index).is_err());
}
