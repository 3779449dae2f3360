//! `hyperplane theory ...` end to end: every command's JSON against known values, and
//! one-line errors on bad input.

use crate::common;

use std::path::Path;

use serde_json::Value;

/// Runs `hyperplane theory <line> --json` (`line`: arguments separated by spaces) and
/// parses its output.
fn json(line: &str) -> Value {
    json_of(&line.split_whitespace().collect::<Vec<_>>())
}

fn json_of(args: &[&str]) -> Value {
    let mut all = vec!["theory"];
    all.extend_from_slice(args);
    all.push("--json");
    common::json_of(&all)
}

/// Runs `hyperplane theory <line>`, which must fail; returns its one-line error.
fn fails(line: &str) -> String {
    fails_of(&line.split_whitespace().collect::<Vec<_>>())
}

fn fails_of(args: &[&str]) -> String {
    let mut all = vec!["theory"];
    all.extend_from_slice(args);
    common::fails(&all)
}

fn close(v: &Value, want: f64) -> bool {
    let got = v.as_f64().expect("a number");
    (got - want).abs() <= 1e-12 * want.abs().max(1e-300)
}

#[test]
fn hoeffding_solves_for_each_unknown() {
    let v = json("hoeffding --eps 0.1 --n 1000");
    assert!(close(&v["delta"], 2.0 * (-20f64).exp()), "{v}");
    assert_eq!(v["solved"], "delta");
    let v = json("hoeffding --eps 0.05 --delta 0.03");
    assert_eq!(v["n"], 840);
    let v = json("hoeffding --eps 0.05 --delta 0.03 --m 100");
    assert_eq!(v["n"], 1761);
    let v = json("hoeffding --n 100 --delta 0.05");
    assert!(close(&v["eps"], (40f64.ln() / 200.0).sqrt()), "{v}");
}

#[test]
fn vc_bound_and_sample_size() {
    let v = json("vc-bound --dvc 3 --n 1000 --delta 0.05");
    let want = (8.0 / 1000.0 * (4.0 * (2000f64.powi(3) + 1.0) / 0.05).ln()).sqrt();
    assert!(close(&v["epsilon"], want), "{v}");
    assert_eq!(v["growth_2n"], "8000000001");
    assert!(close(&v["hoeffding_epsilon"], (40f64.ln() / 2000.0).sqrt()));
    let v = json("sample-size --dvc 3 --eps 0.1 --delta 0.1");
    assert_eq!(v["n"], 29_300);
    assert_eq!(v["rule_of_thumb"], 30);
    assert!(v["delta_at_n"].as_f64().unwrap() <= 0.1);
    let b = json("sample-size --dvc 3 --eps 0.1 --delta 0.1 --bound binomial");
    assert_eq!(b["n"], 27_735);
}

#[test]
fn growth_functions() {
    let v = json("growth --set intervals --n 5");
    assert_eq!(v["d_vc"], 2);
    assert_eq!(v["break_point"], 3);
    let growth: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["growth"].as_str().unwrap())
        .collect();
    assert_eq!(growth, ["2", "4", "7", "11", "16"]);
    let v = json("growth --set perceptron --d 2 --n 8 --q 2");
    assert_eq!(v["rows"][7]["growth"], "58"); // 8^2 - 8 + 2
    assert_eq!(v["rows"][2]["shattered"], true);
    assert_eq!(v["rows"][3]["shattered"], false);
    assert_eq!(v["z_dimension"], 6);
    let v = json("growth --set convex --n 70");
    assert_eq!(v["d_vc"], Value::Null);
    assert_eq!(v["rows"][69]["growth"], "1180591620717411303424"); // 2^70
}

#[test]
fn bound_table() {
    let v = json("bound-table --n-max 10 --k-max 10");
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 100);
    let b43 = cells.iter().find(|c| c["n"] == 4 && c["k"] == 3).unwrap();
    assert_eq!(b43["value"], "11");
    assert_eq!(b43["recursion"], "11");
    let b10 = cells.iter().find(|c| c["n"] == 10 && c["k"] == 5).unwrap();
    assert_eq!(b10["value"], "386"); // 1 + 10 + 45 + 120 + 210
}

/// `theory shatter --points <file with content> --set <set>`: its JSON, or its error.
fn shatter(dir: &Path, content: &str, set: &str, ok: bool) -> Value {
    let path = dir.join(format!("{}.csv", content.len()));
    std::fs::write(&path, content).unwrap();
    let args = ["shatter", "--points", path.to_str().unwrap(), "--set", set];
    if ok {
        json_of(&args)
    } else {
        Value::String(fails_of(&args))
    }
}

#[test]
fn shatter_points_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let square = "x,y\n0,0\n0,1\n1,0\n1,1\n";
    let v = shatter(d, square, "perceptron", true);
    assert_eq!(
        (v["realised"].as_u64(), v["possible"].as_u64()),
        (Some(14), Some(16))
    );
    assert_eq!(v["shattered"], false);
    assert_eq!(
        shatter(d, "0,0\n1,0\n0,1\n", "perceptron", true)["shattered"],
        true
    );
    let line = "0.5\n1.5\n2.5\n3.5\n";
    assert_eq!(shatter(d, line, "intervals", true)["realised"], 11);
    assert_eq!(shatter(d, line, "rays", true)["realised"], 5);
    // Errors: rays on 2-D points, more than 20 points, a missing file.
    shatter(d, square, "rays", false);
    let many: String = (0..21).map(|i| format!("{i}\n")).collect();
    let err = shatter(d, &many, "rays", false);
    assert!(err.as_str().unwrap().contains("at most 20"), "{err}");
    let err = fails("shatter --points /no/such/points.csv --set perceptron");
    assert!(err.contains("/no/such/points.csv"), "{err}");
}

#[test]
fn coins_experiment() {
    let v = json("coins --runs 500 --seed 3");
    let means: Vec<f64> = v["coins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["mean_nu"].as_f64().unwrap())
        .collect();
    assert!(
        (means[0] - 0.5).abs() < 0.03 && (means[1] - 0.5).abs() < 0.03,
        "{means:?}"
    );
    assert!(means[2] < 0.07, "{means:?}");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    for r in rows {
        let hoeffding = r["hoeffding"].as_f64().unwrap();
        assert!(r["probability"][0].as_f64().unwrap() <= hoeffding, "{r}");
    }
    assert!(rows[3]["probability"][2].as_f64().unwrap() > rows[3]["hoeffding"].as_f64().unwrap());
    // Same seed, same numbers.
    assert_eq!(v, json("coins --runs 500 --seed 3"));
}

#[test]
fn bad_input_is_one_line_and_non_zero() {
    let err = fails("hoeffding --eps 0 --n 10");
    assert!(err.contains("eps"), "{err}");
    let err = fails("hoeffding --eps 0.1 --delta 1");
    assert!(err.contains("delta"), "{err}");
    fails("hoeffding --eps 0.1");
    fails("vc-bound --dvc 3 --n 100 --delta 1.5");
    fails("sample-size --dvc 3 --eps -0.1 --delta 0.1");
    fails("sample-size --dvc 3 --eps 0.1 --delta 0.1 --bound cubic");
    fails("growth --set circles --n 5");
    fails("growth --set rays --d 2 --n 5");
    fails("bound-table --n-max 0 --k-max 3");
    fails("coins --coins 0");
}

#[test]
fn every_command_has_help_with_an_example() {
    for cmd in [
        "hoeffding",
        "vc-bound",
        "sample-size",
        "growth",
        "bound-table",
        "shatter",
        "coins",
    ] {
        let out = common::hyperplane(&["theory", cmd, "--help"]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains(&format!("hyperplane theory {cmd}")),
            "{cmd}: {text}"
        );
    }
}
