//! The README works as written. Every line of its `sh` blocks, in order, runs in one
//! folder laid out like the top of a clone (the vendored data at
//! `crates/hyperplane/tests/data`), with the built `hyperplane` first on `PATH`; each must
//! succeed, and each `#  text` line under a command is output it must print. `cargo` lines
//! are what built this test, and `NAME=value` lines set a variable for the lines after.
//! The demo's listing is its output, but for its running time.
#![cfg(unix)]

use std::path::Path;
use std::process::Command;

fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The bodies of the blocks fenced as `lang`.
fn blocks<'a>(markdown: &'a str, lang: &str) -> Vec<&'a str> {
    let fence = format!("```{lang}\n");
    let mut out = Vec::new();
    let mut rest = markdown;
    while let Some(start) = rest.find(&fence) {
        let body = &rest[start + fence.len()..];
        let end = body.find("```").expect("every block is closed");
        out.push(&body[..end]);
        rest = &body[end..][3..];
    }
    out
}

/// A folder like the top of a clone, for the README's commands to run in.
fn clone_like() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let tests = dir.path().join("crates/hyperplane/tests");
    std::fs::create_dir_all(&tests).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hyperplane/tests/data");
    std::os::unix::fs::symlink(data.canonicalize().unwrap(), tests.join("data")).unwrap();
    dir
}

fn path_with_the_binary() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_hyperplane"))
        .parent()
        .unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn every_readme_command_runs_and_prints_what_the_readme_shows() {
    let text = readme();
    let dir = clone_like();
    let path = path_with_the_binary();
    let mut vars: Vec<(String, String)> = Vec::new();
    let mut ran = 0;
    for block in blocks(&text, "sh") {
        let mut lines = block.lines().peekable();
        while let Some(line) = lines.next() {
            let command = line.split(" #").next().unwrap().trim();
            if command.is_empty() || command.starts_with('#') || command.starts_with("cargo ") {
                continue;
            }
            if let Some((name, value)) = command.split_once('=') {
                if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()) {
                    vars.push((name.into(), value.into()));
                    continue;
                }
            }
            let mut shown = Vec::new();
            while let Some(output) = lines.peek().and_then(|l| l.strip_prefix("#  ")) {
                shown.push(output);
                lines.next();
            }
            let out = Command::new("sh")
                .args(["-c", command])
                .current_dir(dir.path())
                .env("PATH", &path)
                .envs(vars.iter().map(|(n, v)| (n, v)))
                .output()
                .unwrap();
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(out.status.success(), "`{command}` failed:\n{printed}");
            for line in shown {
                assert!(
                    printed.contains(line),
                    "`{command}` no longer prints `{line}`; it prints:\n{printed}"
                );
            }
            ran += 1;
        }
    }
    assert!(ran > 30, "read the README's commands: {ran}");
}

#[test]
fn the_readme_shows_the_demos_output() {
    let text = readme();
    let section = &text[text.find("\n## The demo\n").expect("a demo section")..];
    let shown = blocks(section, "text")[0];
    let dir = clone_like();
    let out = Command::new(env!("CARGO_BIN_EXE_hyperplane"))
        .arg("demo")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    // the running time differs from run to run
    let timeless = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| match l.strip_prefix("Done in ") {
                Some(rest) => format!("Done in _ s.{}", rest.split_once(" s.").unwrap().1),
                None => l.to_string(),
            })
            .collect()
    };
    assert_eq!(timeless(shown), timeless(&printed));
}
