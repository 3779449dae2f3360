//! Linear models from the command line: training, inspecting convergence and margins,
//! multiclass reductions, the polynomial transform and regression.

use crate::common;

use std::path::Path;

use common::{fails, json_of, ok, s, train, write};

/// Two classes separated by x + y = 1 with a margin, 2-D.
fn separable() -> String {
    let mut text = String::from("x,y,label\n");
    for i in 0..20 {
        let t = i as f64 / 20.0;
        text.push_str(&format!("{},{},pos\n", 1.0 + t, 0.5 + t));
        text.push_str(&format!("{},{},neg\n", -0.5 - t, 0.2 - t));
    }
    text
}

/// Three classes on three corners.
fn three_classes() -> String {
    let mut text = String::from("x,y,label\n");
    for i in 0..15 {
        let e = (i % 5) as f64 * 0.1;
        text.push_str(&format!("{},{},a\n", e, e));
        text.push_str(&format!("{},{},b\n", 5.0 + e, e));
        text.push_str(&format!("{},{},c\n", e, 5.0 + e));
    }
    text
}

#[test]
fn perceptron_converges_and_inspect_shows_margins() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "sep.csv", &separable());
    let model = dir.path().join("pla.json");
    let out = ok(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "perceptron",
        "--out",
        s(&model),
    ]);
    assert!(out.contains("training accuracy 1.0000"), "{out}");
    assert!(!out.contains("warning"), "{out}");
    let text = ok(&["inspect", "--model", s(&model), "--data", s(&data)]);
    assert!(
        text.contains("converged") && text.contains("min y(w.x+b)/||w||"),
        "{text}"
    );
    let v = json_of(&[
        "inspect",
        "--model",
        s(&model),
        "--data",
        s(&data),
        "--json",
    ]);
    let m = &v["margins"][0];
    assert!(m["min_geometric"].as_f64().unwrap() > 0.0, "{v}");
    assert_eq!(m["misclassified"], 0);
    assert!(v["linear"][0]["convergence"]["updates"].as_u64().unwrap() >= 1);
}

/// `inspect --data` of a model file: its text and its `--json` output.
fn inspect_on(model: &Path, data: &Path) -> (String, serde_json::Value) {
    let args = ["inspect", "--model", s(model), "--data", s(data)];
    let json = json_of(&[&args[..], &["--json"]].concat());
    (ok(&args), json)
}

#[test]
fn inspect_puts_the_perceptron_updates_beside_the_pla_bound() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "sep.csv", &separable());
    let model = dir.path().join("pla.json");
    train(&data, "perceptron", &[], &model);
    let (text, v) = inspect_on(&model, &data);
    let b = &v["pla_bound"][0];
    let updates = b["updates"].as_u64().unwrap();
    assert_eq!(
        updates,
        v["linear"][0]["convergence"]["updates"].as_u64().unwrap()
    );
    assert_eq!(
        (&b["converged"], &b["from_zero"]),
        (&true.into(), &true.into())
    );
    assert_eq!(b["misclassified"], 0);
    // R^2 = 1 + max ||x||^2 (the folded x_0 = 1): the largest row is (1.95, 1.45)
    let (r, rho, bound) = (
        b["bound"]["r"].as_f64().unwrap(),
        b["bound"]["rho"].as_f64().unwrap(),
        b["bound"]["bound"].as_f64().unwrap(),
    );
    assert!(
        (r * r - (1.0 + 1.95f64.powi(2) + 1.45f64.powi(2))).abs() < 1e-9,
        "{b}"
    );
    assert!((bound - r * r / (rho * rho)).abs() < 1e-9 * bound, "{b}");
    assert!(rho > 0.0 && updates as f64 <= bound, "{b}");
    assert!(text.contains("T <= R^2/rho^2"), "{text}");
    assert!(text.contains(&format!("{bound:.2}")), "{text}");
    // started from linear regression's weights, the check says the bound is for w = 0
    let linreg = dir.path().join("linreg.json");
    train(&data, "perceptron", &["init=linreg"], &linreg);
    let (text, v) = inspect_on(&linreg, &data);
    assert_eq!(v["pla_bound"][0]["from_zero"], false, "{v}");
    assert!(text.contains("the bound is for PLA from w = 0"), "{text}");
    // other kinds have no PLA bound
    let logistic = dir.path().join("logistic.json");
    train(&data, "logistic-regression", &[], &logistic);
    let (text, v) = inspect_on(&logistic, &data);
    assert!(v["pla_bound"].is_null() && v["margins"].is_array(), "{v}");
    assert!(!text.contains("PLA update bound"), "{text}");
}

#[test]
fn inspect_says_plainly_when_the_perceptron_does_not_separate() {
    // XOR: no line separates it, so PLA runs out of updates
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("x,y,label\n");
    for (x, y, l) in [(0, 0, "a"), (1, 1, "a"), (0, 1, "b"), (1, 0, "b")] {
        text.push_str(&format!("{x},{y},{l}\n"));
    }
    let data = write(dir.path(), "xor.csv", &text);
    let model = dir.path().join("pla.json");
    train(&data, "perceptron", &["max_updates=50"], &model);
    let (text, v) = inspect_on(&model, &data);
    let b = &v["pla_bound"][0];
    assert!(b["bound"].is_null(), "{v}");
    assert_eq!(b["converged"], false);
    assert_eq!(b["updates"], 50);
    assert!(b["misclassified"].as_u64().unwrap() >= 1, "{v}");
    assert!(
        text.contains("does not separate the data") && text.contains("no bound"),
        "{text}"
    );
    assert!(!text.contains("R^2/rho^2\n"), "no table of bounds: {text}");
}

#[test]
fn inspect_shows_the_linear_svm_s_primal_dual_and_gap() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "sep.csv", &separable());
    let svm = dir.path().join("svm.json");
    let out = train(&data, "linear-svm", &["tol=1e-8"], &svm);
    assert!(
        out.contains("training accuracy 1.0000") && !out.contains("warning"),
        "{out}"
    );
    let (text, v) = inspect_on(&svm, &data);
    let (d, c) = (&v["linear"][0]["duality"], &v["linear"][0]["convergence"]);
    let (p, dual, gap) = (
        d["primal_objective"].as_f64().unwrap(),
        d["dual_objective"].as_f64().unwrap(),
        d["duality_gap"].as_f64().unwrap(),
    );
    // the primal is the report's objective; weak duality, and a tight fit closes the gap
    assert_eq!(d["primal_objective"], c["objective"], "{v}");
    assert_eq!(
        (&d["dual_objective"], &d["duality_gap"]),
        (&c["dual_objective"], &c["duality_gap"])
    );
    assert_eq!(d["iterations"], c["iterations"]);
    assert!(d["iterations"].as_u64().unwrap() >= 1, "{v}");
    assert!(
        dual <= p + 1e-12 && gap == p - dual && gap < 1e-6 * p,
        "{d}"
    );
    assert!(
        text.contains("primal objective") && text.contains("duality gap"),
        "{text}"
    );
    // one-vs-all: one report per class; a logistic model has no dual
    let data3 = write(dir.path(), "three.csv", &three_classes());
    let ova = dir.path().join("ova.json");
    train(&data3, "linear-svm", &["loss=hinge"], &ova);
    let (text, v) = inspect_on(&ova, &data3);
    let linear = v["linear"].as_array().unwrap();
    assert_eq!(linear.len(), 3, "{v}");
    assert!(
        linear
            .iter()
            .all(|l| l["duality"]["duality_gap"].as_f64().unwrap() >= 0.0),
        "{v}"
    );
    assert!(text.contains("a: primal objective"), "{text}");
    let logistic = dir.path().join("logistic.json");
    train(&data, "logistic-regression", &[], &logistic);
    let (text, v) = inspect_on(&logistic, &data);
    assert!(v["linear"][0]["duality"].is_null(), "{v}");
    assert!(
        v["linear"][0]["convergence"]["dual_objective"].is_null(),
        "{v}"
    );
    assert!(!text.contains("duality gap"), "{text}");
    // the hinge has no Newton step: one line saying what to use
    let e = fails(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "linear-svm",
        "--param",
        "solver=primal",
        "--param",
        "loss=hinge",
        "--out",
        s(&svm),
    ]);
    assert!(
        e.contains("no second derivative") && e.contains("solver=dual"),
        "{e}"
    );
}

#[test]
fn binary_learners_meet_three_classes_by_ova_or_ovo() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "three.csv", &three_classes());
    let cases = [
        ("logistic-regression", "ova", "c=1"),
        ("pocket", "ovo", "max_updates=500"),
        ("sgd", "ova", "loss=log"),
    ];
    for (kind, strategy, param) in cases {
        let model = dir.path().join(format!("{kind}.json"));
        let v = json_of(&[
            "train",
            "--data",
            s(&data),
            "--model",
            kind,
            "--multiclass",
            strategy,
            "--param",
            param,
            "--out",
            s(&model),
            "--json",
        ]);
        assert_eq!(v["classes"].as_array().unwrap().len(), 3, "{kind}");
        assert!(
            v["training_accuracy"].as_f64().unwrap() > 0.95,
            "{kind}: {v}"
        );
        let e = json_of(&[
            "evaluate",
            "--model",
            s(&model),
            "--data",
            s(&data),
            "--json",
        ]);
        // One-vs-one votes (and the pocket's signs) are not probabilities: no log loss,
        // still an accuracy; one-vs-all over logistic outputs has one.
        assert_eq!(e["log_loss"].is_null(), strategy == "ovo", "{kind}: {e}");
        assert_eq!(e["accuracy"], 1.0, "{kind}: {e}");
        let summary = json_of(&["inspect", "--model", s(&model), "--json"]);
        let expected = 3; // three one-vs-all models, or three pairs
        assert_eq!(
            summary["linear"].as_array().unwrap().len(),
            expected,
            "{kind}"
        );
    }
    let softmax = dir.path().join("softmax.json");
    let v = json_of(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "softmax-regression",
        "--out",
        s(&softmax),
        "--json",
    ]);
    assert!(v["training_accuracy"].as_f64().unwrap() > 0.95, "{v}");
}

#[test]
fn the_polynomial_transform_separates_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("x,y,label\n");
    for i in 0..60 {
        let a = i as f64 * 0.7;
        let r = if i % 2 == 0 { 0.5 } else { 2.0 };
        text.push_str(&format!(
            "{},{},{}\n",
            r * a.cos(),
            r * a.sin(),
            if i % 2 == 0 { "in" } else { "out" }
        ));
    }
    let data = write(dir.path(), "circle.csv", &text);
    let model = dir.path().join("m.json");
    let flat = json_of(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "logistic-regression",
        "--out",
        s(&model),
        "--json",
    ]);
    let curved = json_of(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "logistic-regression",
        "--poly",
        "2",
        "--param",
        "c=100",
        "--out",
        s(&model),
        "--json",
    ]);
    assert!(flat["training_accuracy"].as_f64().unwrap() < 0.8, "{flat}");
    assert_eq!(curved["training_accuracy"], 1.0, "{curved}");
    assert_eq!(
        curved["n_features"], 6,
        "C(2 + 2, 2) = 6 features with the constant"
    );
    let text = ok(&["inspect", "--model", s(&model)]);
    assert!(text.contains("poly=2"), "{text}");
}

#[test]
fn regression_trains_evaluates_predicts_and_tunes() {
    let dir = tempfile::tempdir().unwrap();
    // y = 3 x1 - 2 x2 + 1 exactly.
    let mut text = String::from("x1,x2,y\n");
    for i in 0..30 {
        let (a, b) = (i as f64 * 0.37 % 5.0, (i * i) as f64 * 0.11 % 3.0);
        text.push_str(&format!("{a},{b},{}\n", 3.0 * a - 2.0 * b + 1.0));
    }
    let data = write(dir.path(), "lin.csv", &text);
    let model = dir.path().join("ols.json");
    let v = json_of(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "linear-regression",
        "--out",
        s(&model),
        "--json",
    ]);
    assert!(
        (v["training_r2"].as_f64().unwrap() - 1.0).abs() < 1e-12,
        "{v}"
    );
    let e = json_of(&[
        "evaluate",
        "--model",
        s(&model),
        "--data",
        s(&data),
        "--json",
    ]);
    assert!(
        e["mse"].as_f64().unwrap() < 1e-20 && e["n_samples"] == 30,
        "{e}"
    );
    let first: f64 = ok(&["predict", "--model", s(&model), "--data", s(&data)])
        .lines()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((first - 1.0).abs() < 1e-9, "row 0 is (0, 0): {first}");
    let summary = json_of(&["inspect", "--model", s(&model), "--json"]);
    let w = &summary["regression"]["weights"];
    assert!((w[0][1].as_f64().unwrap() - 3.0).abs() < 1e-9, "{summary}");
    let tuned = ok(&[
        "tune",
        "--data",
        s(&data),
        "--model",
        "ridge",
        "--grid",
        "alpha=0.001,100",
    ]);
    assert!(
        tuned.contains("score: R^2") && tuned.contains("best: alpha=0.001"),
        "{tuned}"
    );
}

#[test]
fn bad_linear_input_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "sep.csv", &separable());
    let out = dir.path().join("m.json");
    let cases: [(&str, &[&str], &[&str]); 4] = [
        ("ridge", &[], &["needs a number", "`pos`"]),
        ("perceptron", &["--param", "init=random"], &["linreg"]),
        ("sgd", &["--param", "loss=huber"], &["modified_huber"]),
        ("perceptron", &["--multiclass", "all"], &["ova"]),
    ];
    for (kind, extra, expected) in cases {
        let args = [
            &[
                "train",
                "--data",
                s(&data),
                "--model",
                kind,
                "--out",
                s(&out),
            ],
            extra,
        ]
        .concat();
        let e = fails(&args);
        assert!(
            expected.iter().all(|x| e.contains(x)),
            "{kind} {extra:?}: {e}"
        );
    }
}

#[test]
fn inspect_says_when_no_feature_points_towards_a_class() {
    // label by the sign of a + b: both weights end positive, so class `neg` has no feature
    let mut csv = String::from("a,b,label\n");
    for i in -4..=4 {
        for j in -4..=4 {
            if i + j != 0 {
                let label = if i + j > 0 { "pos" } else { "neg" };
                csv.push_str(&format!("{i},{j},{label}\n"));
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "diag.csv", &csv);
    let model = dir.path().join("pla.json");
    train(&data, "perceptron", &[], &model);
    let text = ok(&["inspect", "--model", s(&model)]);
    let neg = text
        .split("top features of class neg")
        .nth(1)
        .expect("a section for class neg");
    let first_line = neg.lines().nth(1).unwrap_or_default();
    assert!(
        first_line.contains("(none: no feature's weight points towards this class)"),
        "{text}"
    );
    assert!(text.contains("top features of class pos"), "{text}");
}

#[test]
fn inspect_names_the_solver_that_auto_chose() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "sep.csv", &separable());
    let model = dir.path().join("logistic.json");
    // 40 rows, 3 parameters: few columns, so the exact Newton step
    for (params, solver) in [
        (&[][..], "newton-cholesky"),
        (&["solver=newton"][..], "newton"),
    ] {
        train(&data, "logistic-regression", params, &model);
        let (text, v) = inspect_on(&model, &data);
        assert_eq!(v["linear"][0]["convergence"]["solver"], solver, "{v}");
        let row = format!("converged  {solver}");
        assert!(text.lines().any(|l| l.ends_with(&row)), "{text}");
    }
}
