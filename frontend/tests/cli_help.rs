//! The README's list of commands and their options (its "Commands"
//! section) agrees with `tandem --help` and each `tandem COMMAND --help`:
//! the same commands, and for each the same options.

use std::collections::{BTreeMap, BTreeSet};

mod common;
use common::{repo, tandem, text};

/// The `--options` of a piece of text.
fn options(t: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = t;
    while let Some(i) = rest.find("--") {
        let name: String = rest[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if !name.is_empty() {
            out.insert(name.clone());
        }
        rest = &rest[i + 2 + name.len()..];
    }
    out
}

/// The README's synopses: command to its options.
fn readme() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(repo().join("README.md")).expect("README.md");
    let section = text
        .split("\n## Commands\n")
        .nth(1)
        .expect("README has a Commands section");
    let block = section
        .split("```\n")
        .nth(1)
        .expect("the Commands section has a code block");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current = String::new();
    for line in block.lines() {
        if let Some(rest) = line.strip_prefix("tandem ") {
            current = rest.split(' ').next().unwrap_or_default().to_string();
        }
        out.entry(current.clone())
            .or_default()
            .extend(options(line));
    }
    out
}

/// The options a command's help lists (but --help and --verbose).
fn help_options(cmd: &str) -> BTreeSet<String> {
    let o = tandem(&[cmd, "--help"]);
    assert_eq!(o.status.code(), Some(0), "{cmd} --help");
    let help = text(&o.stdout);
    let mut set = BTreeSet::new();
    for l in help.lines() {
        let t = l.trim_start();
        // "-j, --jobs <N>": the long name after the short one.
        let short = t.len() > 4 && t.starts_with('-') && !t.starts_with("--") && &t[2..4] == ", ";
        let t = if short { &t[4..] } else { t };
        if t.starts_with("--") {
            set.extend(options(t.split_whitespace().next().unwrap_or_default()));
        }
    }
    set.remove("help");
    set.remove("verbose");
    set
}

#[test]
fn the_readme_lists_every_command_with_the_options_its_help_has() {
    let listed = readme();
    let o = tandem(&["--help"]);
    let help = text(&o.stdout);
    let commands: BTreeSet<String> = help
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands list")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect();
    let documented: BTreeSet<String> = listed.keys().cloned().collect();
    assert_eq!(documented, commands, "the README's commands and --help's");
    for (cmd, opts) in &listed {
        assert_eq!(
            opts,
            &help_options(cmd),
            "tandem {cmd}: README against --help"
        );
    }
}

#[test]
fn options_are_read_from_text() {
    let o = options("tandem x [--a-b N] [--c|--d] -- ARGS");
    assert_eq!(o, ["a-b", "c", "d"].into_iter().map(String::from).collect());
}
