//! Helpers shared by the CLI test files: run the binary, expect success or a one-line error.
#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn hyperplane(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hyperplane"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs a command that must succeed; returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let out = hyperplane(args);
    assert!(
        out.status.success(),
        "hyperplane {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command that must fail; returns its one-line error.
pub fn fails(args: &[&str]) -> String {
    let out = hyperplane(args);
    assert!(!out.status.success(), "hyperplane {args:?} should fail");
    assert!(out.stdout.is_empty(), "nothing on stdout when failing");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

/// Runs a command that must succeed with `--json` output; returns it parsed.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("valid JSON")
}

/// `hyperplane train --data DATA --model KIND [--param P]... --out OUT`; returns its stdout.
pub fn train(data: &Path, kind: &str, params: &[&str], out: &Path) -> String {
    let mut args = vec!["train", "--data", s(data), "--model", kind, "--out", s(out)];
    for p in params {
        args.extend(["--param", p]);
    }
    ok(&args)
}

/// The arguments `predict --model MODEL --data DATA EXTRA...`.
pub fn predict_args<'a>(model: &'a Path, data: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["predict", "--model", s(model), "--data", s(data)];
    args.extend_from_slice(extra);
    args
}

pub fn write(dir: &Path, name: &str, content: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}
