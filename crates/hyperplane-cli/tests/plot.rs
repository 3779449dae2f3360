//! `hyperplane plot` subcommands end to end: boundary, learning-curve, bounds, growth,
//! linreg-curve, pla and loss-curve.

use crate::common;

use common::{fails, hyperplane, ok, s};
use std::path::{Path, PathBuf};

/// Two separated clouds in 2-D, classes `low` and `high`, 40 rows; `extra` adds a third
/// numeric column.
fn blobs(dir: &Path, name: &str, extra: bool) -> PathBuf {
    let mut text = String::from(if extra {
        "a,b,c,label\n"
    } else {
        "a,b,label\n"
    });
    for i in 0..40 {
        let (class, centre) = if i % 2 == 0 {
            ("low", -1.0)
        } else {
            ("high", 1.0)
        };
        // A deterministic spread in [-0.5, 0.5).
        let jitter = |k: usize| ((i * 7 + k * 13) % 10) as f64 / 10.0 - 0.5;
        let (x, y) = (centre + jitter(1), centre + jitter(2));
        if extra {
            text.push_str(&format!("{x},{y},{},{class}\n", jitter(3)));
        } else {
            text.push_str(&format!("{x},{y},{class}\n"));
        }
    }
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn svg_at(path: &Path) -> String {
    let svg = std::fs::read_to_string(path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
    assert!(svg.trim_end().ends_with("</svg>"));
    svg
}

#[test]
fn boundary_of_a_trained_model() {
    let dir = tempfile::tempdir().unwrap();
    let data = blobs(dir.path(), "blobs.csv", false);
    let model = dir.path().join("m.json");
    let out = dir.path().join("regions.svg");
    ok(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "gaussian-nb",
        "--out",
        s(&model),
    ]);
    let text = ok(&[
        "plot",
        "boundary",
        "--model",
        s(&model),
        "--data",
        s(&data),
        "--out",
        s(&out),
        "--title",
        "two clouds",
        "--resolution",
        "60",
    ]);
    assert!(text.contains(&format!("wrote {}", out.display())), "{text}");
    assert!(text.contains("over a, b, 40 points"), "{text}");
    let svg = svg_at(&out);
    for word in ["two clouds", "low", "high", "decision boundary"] {
        assert!(svg.contains(word), "{word}");
    }
    assert!(svg.matches("<circle").count() >= 40);
}

/// `plot boundary --model MODEL --data DATA --out OUT` followed by `extra`.
fn boundary_args(model: &Path, data: &Path, out: &Path, extra: &[&str]) -> Vec<String> {
    let base = [
        "plot",
        "boundary",
        "--model",
        s(model),
        "--data",
        s(data),
        "--out",
        s(out),
    ];
    base.iter().chain(extra).map(|a| a.to_string()).collect()
}

/// `plot learning-curve --data DATA --model gaussian-nb --out OUT` followed by `extra`.
fn curve_args(data: &Path, out: &Path, extra: &[&str]) -> Vec<String> {
    let base = [
        "plot",
        "learning-curve",
        "--data",
        s(data),
        "--model",
        "gaussian-nb",
    ];
    base.iter()
        .chain(&["--out", s(out)])
        .chain(extra)
        .map(|a| a.to_string())
        .collect()
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn boundary_errors_are_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let two = blobs(dir.path(), "two.csv", false);
    let three = blobs(dir.path(), "three.csv", true);
    let (m2, m3) = (dir.path().join("m2.json"), dir.path().join("m3.json"));
    let out = dir.path().join("x.svg");
    ok(&[
        "train",
        "--data",
        s(&two),
        "--model",
        "gaussian-nb",
        "--out",
        s(&m2),
    ]);
    ok(&[
        "train",
        "--data",
        s(&three),
        "--model",
        "gaussian-nb",
        "--out",
        s(&m3),
    ]);
    let cases: [(&Path, &Path, &[&str], &[&str]); 4] = [
        // A model of 3 columns cannot be drawn in the plane.
        (
            &m3,
            &three,
            &[],
            &[
                "3 feature columns (a, b, c)",
                "exactly 2 numeric feature columns",
            ],
        ),
        // Data with 3 feature columns for a model of 2.
        (
            &m2,
            &three,
            &["--label-col", "label"],
            &["3 feature columns"],
        ),
        (&dir.path().join("none.json"), &two, &[], &["none.json"]),
        (&m2, &two, &["--width", "5"], &["width"]),
    ];
    for (model, data, extra, expected) in cases {
        let e = fails(&strs(&boundary_args(model, data, &out, extra)));
        for text in expected {
            assert!(e.contains(text), "{text}: {e}");
        }
    }
    assert!(!out.exists(), "no file is written on error");
}

#[test]
fn learning_curve_table_json_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let data = blobs(dir.path(), "blobs.csv", false);
    let out = dir.path().join("curve.svg");
    let text = ok(&strs(&curve_args(
        &data,
        &out,
        &["--sizes", "4,16,30", "--folds", "4"],
    )));
    assert!(text.contains("E_in mean"), "{text}");
    assert!(text.contains("over 4 stratified folds"), "{text}");
    for n in ["4 ", "16 ", "30 "] {
        assert!(text.lines().any(|l| l.starts_with(n)), "{n}: {text}");
    }
    assert!(text.contains(&format!("wrote {}", out.display())), "{text}");
    let svg = svg_at(&out);
    assert!(svg.contains("E_out (held-out fold)") && svg.contains("gaussian-nb"));

    let extra = ["--steps", "3", "--param", "var_smoothing=1e-6", "--json"];
    let json = ok(&strs(&curve_args(&data, &out, &extra)));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sizes: Vec<u64> = v["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    // 40 rows in 5 folds: 32 training rows per fold; steps from round(10% of 32) = 3 to 32.
    assert_eq!(sizes, vec![3, 18, 32]);
    assert_eq!(v["e_out_mean"].as_array().unwrap().len(), 3);
    assert_eq!(v["folds"], 5);
    assert_eq!(v["out"], s(&out));
}

#[test]
fn learning_curve_errors() {
    let dir = tempfile::tempdir().unwrap();
    let data = blobs(dir.path(), "blobs.csv", false);
    let out = dir.path().join("c.svg");
    let cases: [(&[&str], &str); 3] = [
        (&["--sizes", "10,500"], "use sizes up to 32"),
        (&["--sizes", "1"], "number of classes (2)"),
        (&["--folds", "1"], "folds"),
    ];
    for (extra, expected) in cases {
        let e = fails(&strs(&curve_args(&data, &out, extra)));
        assert!(e.contains(expected), "{expected}: {e}");
    }
    // A usage error from the argument parser: the usage line follows the message.
    let conflict = hyperplane(&strs(&curve_args(
        &data,
        &out,
        &["--sizes", "5", "--steps", "3"],
    )));
    assert!(!conflict.status.success());
    let e = String::from_utf8(conflict.stderr).unwrap();
    assert!(e.contains("cannot be used with"), "{e}");
    let e = fails(&[
        "plot",
        "learning-curve",
        "--data",
        s(&data),
        "--model",
        "no-such-model",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("unknown model kind"), "{e}");
    assert!(!out.exists());
}

#[test]
fn help_teaches_by_example() {
    let help = ok(&["plot", "--help"]);
    assert!(
        help.contains("boundary") && help.contains("learning-curve"),
        "{help}"
    );
    let help = ok(&["plot", "boundary", "--help"]);
    assert!(help.contains("hyperplane plot boundary --model"), "{help}");
    let help = ok(&["plot", "learning-curve", "--help"]);
    assert!(help.contains("--sizes") && help.contains("E_out"), "{help}");
}

#[test]
fn boundary_of_a_linear_model_draws_its_line_and_margins() {
    let dir = tempfile::tempdir().unwrap();
    let data = blobs(dir.path(), "blobs.csv", false);
    let model = dir.path().join("lr.json");
    let out = dir.path().join("lr.svg");
    ok(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "logistic-regression",
        "--param",
        "scale=standard",
        "--out",
        s(&model),
    ]);
    let text = ok(&strs(&boundary_args(
        &model,
        &data,
        &out,
        &["--resolution", "40"],
    )));
    assert!(text.contains("w.x + b = 0: "), "{text}");
    assert!(text.contains("margins at ±1 dashed"), "{text}");
    let svg = svg_at(&out);
    assert!(svg.contains("w.x + b = 0"));
    let dashed = svg.matches("stroke-dasharray").count();
    let text = ok(&strs(&boundary_args(
        &model,
        &data,
        &out,
        &["--resolution", "40", "--no-margins"],
    )));
    assert!(!text.contains("margins"), "{text}");
    let svg = svg_at(&out);
    assert!(svg.contains("w.x + b = 0"));
    assert!(svg.matches("stroke-dasharray").count() < dashed || dashed == 0);
}

#[test]
fn bounds_table_json_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bounds.svg");
    let text = ok(&[
        "plot",
        "bounds",
        "--dvc",
        "3",
        "--delta",
        "0.1",
        "--n-max",
        "100000",
        "--points",
        "6",
        "--eps",
        "0.1",
        "--out",
        s(&out),
    ]);
    // N = 100000: Omega = sqrt(8e-5 ln(4 (2e5^3 + 1) / 0.1)).
    let want = (8e-5f64 * (4.0 * (2e5f64.powi(3) + 1.0) / 0.1).ln()).sqrt();
    let last = text.lines().find(|l| l.starts_with("100000 ")).unwrap();
    assert!(last.contains(&format!("{want:.6}")), "{last} vs {want}");
    assert!(
        text.contains("eps = 0.1: the VC bound needs N >= 29300"),
        "{text}"
    );
    let svg = svg_at(&out);
    assert!(svg.contains("Hoeffding, one hypothesis") && svg.contains("d_vc = 3"));

    let json = ok(&[
        "plot",
        "bounds",
        "--dvc",
        "2",
        "--delta",
        "0.05",
        "--n-max",
        "1000",
        "--binomial",
        "--json",
        "--out",
        s(&out),
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows[0]["n"], 1);
    assert_eq!(rows.last().unwrap()["n"], 1000);
    assert!(rows
        .iter()
        .all(|r| r["eps_vc_binomial"].as_f64().unwrap() <= r["eps_vc"].as_f64().unwrap()));
    assert_eq!(v["out"], s(&out));
    assert!(svg_at(&out).contains("B(N, 3)"));

    let e = fails(&[
        "plot",
        "bounds",
        "--dvc",
        "3",
        "--delta",
        "1.5",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("delta"), "{e}");
}

#[test]
fn growth_table_json_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("growth.svg");
    let text = ok(&[
        "plot",
        "growth",
        "--set",
        "perceptron",
        "--d",
        "2",
        "--n-max",
        "8",
        "--out",
        s(&out),
    ]);
    assert!(text.contains("d_vc = 3, break point 4"), "{text}");
    // N = 5: m_H = 22, 2^N = 32, N^3 + 1 = 126, B(5, 4) = 26.
    let row = text.lines().find(|l| l.starts_with("5 ")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells, ["5", "22", "32", "126", "26"]);
    let svg = svg_at(&out);
    assert!(svg.contains("2^N (all dichotomies)") && svg.contains("B(N, 4)"));

    let json = ok(&[
        "plot",
        "growth",
        "--set",
        "convex",
        "--n-max",
        "70",
        "--json",
        "--out",
        s(&out),
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["set"]["set"], "convex-sets");
    assert!(v["vc_dimension"].is_null());
    // 2^70 is printed in full.
    assert_eq!(v["rows"][69]["growth"], "1180591620717411303424");

    let e = fails(&["plot", "growth", "--set", "circles", "--out", s(&out)]);
    assert!(e.contains("rays, intervals, convex, perceptron"), "{e}");
    let e = fails(&[
        "plot",
        "growth",
        "--set",
        "rays",
        "--n-max",
        "5000",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("--n-max = 5000"), "{e}");
}

#[test]
fn linreg_curve_table_json_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("linreg.svg");
    let text = ok(&[
        "plot",
        "linreg-curve",
        "--d",
        "2",
        "--sigma",
        "0.5",
        "--sizes",
        "6,12,60",
        "--runs",
        "300",
        "--seed",
        "3",
        "--out",
        s(&out),
    ]);
    // Theory at N = 6: 0.25 (1 - 3/6) = 0.125 and 0.25 (1 + 3/6) = 0.375.
    let row = text.lines().find(|l| l.starts_with("6 ")).unwrap();
    let cells: Vec<f64> = row.split_whitespace().map(|c| c.parse().unwrap()).collect();
    assert_eq!((cells[2], cells[4]), (0.125, 0.375));
    assert!((cells[1] / 0.125 - 1.0).abs() < 0.15, "{row}");
    assert!((cells[3] / 0.375 - 1.0).abs() < 0.15, "{row}");
    let svg = svg_at(&out);
    assert!(svg.contains("E_out measured") && svg.contains("sigma^2 (noise level)"));

    let json = ok(&[
        "plot",
        "linreg-curve",
        "--d",
        "2",
        "--runs",
        "20",
        "--json",
        "--out",
        s(&out),
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let ns: Vec<u64> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["n"].as_u64().unwrap())
        .collect();
    assert_eq!(ns, vec![6, 9, 15, 30, 60, 150]);
    assert_eq!(v["setup"]["runs"], 20);

    let e = fails(&[
        "plot",
        "linreg-curve",
        "--d",
        "5",
        "--sizes",
        "4",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("d + 1 = 6"), "{e}");
}

#[test]
fn pla_walk_table_json_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let data = blobs(dir.path(), "blobs.csv", false);
    let out = dir.path().join("pla.svg");
    let text = ok(&["plot", "pla", "--data", s(&data), "--out", s(&out)]);
    assert!(text.contains("updates, converged"), "{text}");
    assert!(text.contains("final line: "), "{text}");
    let svg = svg_at(&out);
    assert!(svg.contains("converged") && svg.contains("final: "));

    let json = ok(&[
        "plot",
        "pla",
        "--data",
        s(&data),
        "--order",
        "random",
        "--seed",
        "2",
        "--every",
        "2",
        "--json",
        "--out",
        s(&out),
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["converged"], true);
    let updates = v["updates"].as_u64().unwrap();
    assert_eq!(
        v["trace"]["steps"].as_array().unwrap().len() as u64,
        updates + 1
    );
    assert_eq!(v["classes"], serde_json::json!(["high", "low"]));

    let e = fails(&[
        "plot",
        "pla",
        "--data",
        s(&data),
        "--order",
        "zigzag",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("cyclic or random"), "{e}");
    let three = blobs(dir.path(), "three.csv", true);
    let e = fails(&["plot", "pla", "--data", s(&three), "--out", s(&out)]);
    assert!(e.contains("3 feature columns"), "{e}");
}

#[test]
fn help_of_the_new_plots() {
    for (cmd, example) in [
        ("bounds", "hyperplane plot bounds --dvc 3"),
        ("growth", "hyperplane plot growth --set perceptron"),
        ("linreg-curve", "hyperplane plot linreg-curve --d 5"),
        ("pla", "hyperplane plot pla --data"),
    ] {
        let help = ok(&["plot", cmd, "--help"]);
        assert!(help.contains(example), "{cmd}: {help}");
    }
}

#[test]
fn loss_curve_of_a_network_and_its_boundary() {
    let dir = tempfile::tempdir().unwrap();
    let data = blobs(dir.path(), "blobs.csv", false);
    let model = dir.path().join("net.json");
    common::train(
        &data,
        "mlp",
        &[
            "hidden=6",
            "early_stopping=true",
            "validation_fraction=0.25",
            "learning_rate_init=0.05",
        ],
        &model,
    );
    let info = ok(&["inspect", "--model", s(&model)]);
    assert!(info.contains("2 inputs -> 6 relu -> 1 logistic"), "{info}");
    assert!(info.contains("the weights are those of epoch"), "{info}");
    let out = dir.path().join("loss.svg");
    let v = common::json_of(&[
        "plot",
        "loss-curve",
        "--model",
        s(&model),
        "--out",
        s(&out),
        "--json",
    ]);
    let losses = v["loss_curve"].as_array().unwrap();
    assert_eq!(
        losses.len(),
        v["validation_scores"].as_array().unwrap().len()
    );
    assert!(losses[losses.len() - 1].as_f64() < losses[0].as_f64());
    let svg = svg_at(&out);
    assert!(svg.contains("training loss") && svg.contains("validation error"));
    let regions = dir.path().join("regions.svg");
    ok(&[
        "plot",
        "boundary",
        "--model",
        s(&model),
        "--data",
        s(&data),
        "--out",
        s(&regions),
    ]);
    svg_at(&regions);
    // a model without a loss curve: one clear error
    let nb = dir.path().join("nb.json");
    common::train(&data, "gaussian-nb", &[], &nb);
    let e = fails(&["plot", "loss-curve", "--model", s(&nb), "--out", s(&out)]);
    assert!(e.contains("only neural network models"), "{e}");
}
