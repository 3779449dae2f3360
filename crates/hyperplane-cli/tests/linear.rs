//! Linear models from the command line: training, inspecting convergence and margins,
//! multiclass reductions, the polynomial transform and regression.

mod common;

use common::{fails, json_of, ok, s, write};

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
    let e = fails(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "ridge",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("needs a number") && e.contains("`pos`"), "{e}");
    let e = fails(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "perceptron",
        "--param",
        "init=random",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("linreg"), "{e}");
    let e = fails(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "sgd",
        "--param",
        "loss=huber",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("modified_huber"), "{e}");
    let e = fails(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "perceptron",
        "--multiclass",
        "all",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("ova"), "{e}");
}
