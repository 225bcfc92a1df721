//! The workspace's Rust sources as the house checks see them: each crate's
//! module tree from its root (`lib.rs`, `main.rs`), every file with its
//! module path, whether it is test code, and its text with comments and
//! string literals blanked (so a word in a comment is never read as code).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace's root folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

/// The crates whose sources the checks read.
pub const CRATES: &[&str] = &["emu", "sst", "hw", "dos", "models", "frontend", "tests"];

/// One source file of a crate's module tree.
#[derive(Debug)]
pub struct File {
    /// Its path from the workspace root.
    pub path: PathBuf,
    /// Whether the file is test code (declared under `#[cfg(test)]`).
    pub test: bool,
    /// The text with comments and literals blanked, lines kept.
    pub code: String,
}

/// A crate root's module tree: every file reached by `mod` declarations.
#[derive(Debug)]
pub struct Tree {
    /// The crate folder (`emu`, `frontend`...).
    pub krate: String,
    /// The root file (`src/lib.rs` or `src/main.rs`).
    pub root: PathBuf,
    /// The files by module path.
    pub files: BTreeMap<Vec<String>, File>,
}

/// Every module tree of the workspace (a crate with a library and a
/// binary has two).
pub fn trees() -> Vec<Tree> {
    let mut out = Vec::new();
    for k in CRATES {
        for r in ["src/lib.rs", "src/main.rs"] {
            let root = root().join(k).join(r);
            if root.exists() {
                out.push(tree(k, &root));
            }
        }
    }
    out
}

fn tree(krate: &str, root_file: &Path) -> Tree {
    let mut files = BTreeMap::new();
    walk(root_file, Vec::new(), false, true, &mut files);
    Tree {
        krate: krate.to_string(),
        root: root_file.to_path_buf(),
        files,
    }
}

/// Reads `path` (module `module`) and the files its `mod NAME;` lines name.
fn walk(
    path: &Path,
    module: Vec<String>,
    test: bool,
    is_root: bool,
    out: &mut BTreeMap<Vec<String>, File>,
) {
    let raw = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let code = blank(&raw);
    // The folder this file's child modules live in.
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let dir = path.parent().unwrap_or(Path::new("."));
    let child_dir = if is_root || name == "mod.rs" {
        dir.to_path_buf()
    } else {
        dir.join(path.file_stem().unwrap_or_default())
    };
    for (child, cfg_test) in mod_decls(&code) {
        let a = child_dir.join(format!("{child}.rs"));
        let b = child_dir.join(&child).join("mod.rs");
        let p = if a.exists() { a } else { b };
        if !p.exists() {
            panic!("{}: mod {child}: no file", path.display());
        }
        let mut m = module.clone();
        m.push(child);
        walk(&p, m, test || cfg_test, false, out);
    }
    let rel = path.strip_prefix(root()).unwrap_or(path).to_path_buf();
    out.insert(
        module.clone(),
        File {
            path: rel,
            test,
            code,
        },
    );
}

/// The `mod NAME;` declarations of a file's code (not inline modules), each
/// with whether a `#[cfg(test)]` stands right before it.
fn mod_decls(code: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut cfg_test = false;
    for line in code.lines() {
        let t = line.trim();
        if t.starts_with("#[cfg(test)]") {
            cfg_test = true;
            continue;
        }
        if t.starts_with("#[") {
            continue;
        }
        let t2 = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub(super) "))
            .or_else(|| t.strip_prefix("pub "))
            .unwrap_or(t);
        if let Some(rest) = t2.strip_prefix("mod ") {
            if let Some(name) = rest.strip_suffix(';') {
                out.push((name.trim().to_string(), cfg_test));
            }
        }
        if !t.is_empty() {
            cfg_test = false;
        }
    }
    out
}

/// `src` with comments, string and character literals replaced by spaces
/// (newlines kept, so line numbers stay).
pub fn blank(src: &str) -> String {
    let mut b = Blanker {
        src,
        b: src.as_bytes(),
        out: Vec::with_capacity(src.len()),
        i: 0,
    };
    while b.i < b.b.len() {
        let c = b.b[b.i];
        let next = b.b.get(b.i + 1).copied().unwrap_or(0);
        let after_ident = ident_byte(b.out.last().copied().unwrap_or(b' '));
        match (c, next) {
            (b'/', b'/') => b.line_comment(),
            (b'/', b'*') => b.block_comment(),
            (b'r', b'"' | b'#') if !after_ident => b.raw_string(),
            (b'"', _) => b.string(),
            (b'\'', _) => b.char_or_lifetime(),
            _ => b.keep(1),
        }
    }
    String::from_utf8_lossy(&b.out).into_owned()
}

/// The state of [`blank`]: the source, what is written, where it stands.
struct Blanker<'a> {
    src: &'a str,
    b: &'a [u8],
    out: Vec<u8>,
    i: usize,
}

impl Blanker<'_> {
    /// Copies `n` bytes as they are.
    fn keep(&mut self, n: usize) {
        let end = (self.i + n).min(self.b.len());
        self.out.extend_from_slice(&self.b[self.i..end]);
        self.i = end;
    }

    /// Blanks `n` bytes (newlines stay).
    fn hide(&mut self, n: usize) {
        let end = (self.i + n).min(self.b.len());
        for &c in &self.b[self.i..end] {
            self.out.push(if c == b'\n' { b'\n' } else { b' ' });
        }
        self.i = end;
    }

    fn line_comment(&mut self) {
        let n = self.b[self.i..]
            .iter()
            .position(|&c| c == b'\n')
            .unwrap_or(self.b.len() - self.i);
        self.hide(n);
    }

    /// A block comment, nested ones included.
    fn block_comment(&mut self) {
        let mut depth = 0;
        while self.i < self.b.len() {
            if self.b[self.i..].starts_with(b"/*") {
                depth += 1;
                self.hide(2);
            } else if self.b[self.i..].starts_with(b"*/") {
                depth -= 1;
                self.hide(2);
                if depth == 0 {
                    return;
                }
            } else {
                self.hide(1);
            }
        }
    }

    /// A raw string r"..." or r#"..."# (or an identifier starting with r).
    fn raw_string(&mut self) {
        let hashes = self.b[self.i + 1..]
            .iter()
            .take_while(|&&c| c == b'#')
            .count();
        if self.b.get(self.i + 1 + hashes) != Some(&b'"') {
            return self.keep(1);
        }
        self.hide(1 + hashes);
        self.keep(1);
        let close: Vec<u8> = std::iter::once(b'"')
            .chain(std::iter::repeat_n(b'#', hashes))
            .collect();
        let body = self.b[self.i..]
            .windows(close.len())
            .position(|w| w == close.as_slice())
            .unwrap_or(self.b.len() - self.i);
        self.hide(body);
        self.keep(1);
        self.hide(hashes);
    }

    /// A string literal with its escapes.
    fn string(&mut self) {
        self.keep(1);
        while self.i < self.b.len() && self.b[self.i] != b'"' {
            let n = if self.b[self.i] == b'\\' { 2 } else { 1 };
            self.hide(n);
        }
        self.keep(1);
    }

    /// A character literal ('x', '\n', '\u{..}', 'é') or a lifetime ('a).
    fn char_or_lifetime(&mut self) {
        let (b, i) = (self.b, self.i);
        let end = if b.get(i + 1) == Some(&b'\\') {
            (i + 2..b.len().min(i + 12)).find(|&j| b[j] == b'\'')
        } else if b.get(i + 2) == Some(&b'\'') {
            Some(i + 2)
        } else {
            self.src[i + 1..]
                .chars()
                .next()
                .filter(|ch| ch.len_utf8() > 1)
                .map(|ch| i + 1 + ch.len_utf8())
                .filter(|&j| b.get(j) == Some(&b'\''))
        };
        match end {
            Some(e) => {
                self.keep(1);
                self.hide(e - i - 1);
                self.keep(1);
            }
            None => self.keep(1),
        }
    }
}

fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The byte ranges of `code` inside `#[cfg(test)]` items (inline test
/// modules and test-only functions), which the checks of non-test code
/// skip.
pub fn test_ranges(code: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = code[from..].find("#[cfg(test)]") {
        let start = from + p;
        let after = start + "#[cfg(test)]".len();
        // The item: up to its first `{` (then its matching `}`) or `;`.
        let rest = &code[after..];
        let brace = rest.find('{');
        let semi = top_level_semicolon(rest);
        let end = match (brace, semi) {
            (Some(b), Some(s)) if s < b => after + s + 1,
            (Some(b), _) => matching(code, after + b).map_or(code.len(), |e| e + 1),
            (None, Some(s)) => after + s + 1,
            (None, None) => code.len(),
        };
        out.push((start, end));
        from = end.max(after);
    }
    out
}

/// The first `;` of `s` outside brackets (a `[u32; 2]` in a signature is
/// not the end of a declaration).
pub fn top_level_semicolon(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth <= 0 => return Some(i),
            '{' if depth <= 0 => return None,
            _ => {}
        }
    }
    None
}

/// The index of the `}` matching the `{` at `open`.
pub fn matching(code: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in code.bytes().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The 1-based line of byte `at` in `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_hides_comments_and_literals_but_keeps_lines() {
        let src = "let a = \"x // y\"; // crate::z\n/* crate::w\n */ let c = 'x'; fn f<'a>() {}\nr#\"q\"#;";
        let b = blank(src);
        assert_eq!(b.lines().count(), src.lines().count());
        assert!(!b.contains("crate::"));
        assert!(b.contains("fn f<'a>()"));
        assert!(!b.contains('q'));
    }
}
