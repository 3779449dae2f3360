//! ARCHITECTURE.md stays the map of the code: its table of modules lists exactly the
//! library's top-level modules, and its table of crates exactly the workspace's members
//! (with the ones still to come marked "Later").

use std::collections::BTreeSet;
use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The first cells (between backquotes) of the table under `## heading`.
fn first_column(markdown: &str, heading: &str) -> Vec<(String, String)> {
    let start = markdown
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no `## {heading}`"));
    let section = &markdown[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` |"))
        .map(|(name, rest)| (name.to_string(), rest.to_string()))
        .collect()
}

#[test]
fn the_module_table_lists_the_librarys_modules() {
    let guide = read("../../ARCHITECTURE.md");
    let listed: BTreeSet<String> = first_column(&guide, "Modules")
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let declared: BTreeSet<String> = read("src/lib.rs")
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').to_string())
        .collect();
    assert!(declared.len() > 10, "read lib.rs's modules: {declared:?}");
    assert_eq!(listed, declared, "ARCHITECTURE.md's modules against lib.rs");
}

#[test]
fn the_crate_table_lists_the_workspaces_members() {
    let guide = read("../../ARCHITECTURE.md");
    let listed: BTreeSet<String> = first_column(&guide, "Crates")
        .into_iter()
        .filter(|(_, about)| !about.trim_start().starts_with("Later"))
        .map(|(name, _)| name)
        .collect();
    let manifest = read("../../Cargo.toml");
    let members = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("the workspace's members")
        .0;
    let members: BTreeSet<String> = members
        .split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .collect();
    assert_eq!(
        listed, members,
        "ARCHITECTURE.md's crates against Cargo.toml"
    );
}
