//! Kernel SVMs from the command line: training on LIBSVM's own example, what `inspect`
//! shows of the duals, and multiclass one-vs-one.

use crate::common;

use std::path::PathBuf;

use common::{fails, json_of, ok, s, train, write};

/// LIBSVM's example file, vendored with the library's tests.
fn heart_scale() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../hyperplane/tests/data/heart_scale")
}

#[test]
fn svc_with_libsvms_defaults_reports_libsvms_dual_on_heart_scale() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("svc.json");
    let out = train(&heart_scale(), "svc", &["gamma=auto"], &model);
    // svm-train heart_scale: 86.67% training accuracy
    assert!(out.contains("training accuracy 0.8667"), "{out}");
    let text = ok(&["inspect", "--model", s(&model)]);
    assert!(
        text.contains("rbf (gamma 0.07692307692307693)")
            && text.contains("132 (68 / 64 per class)")
            && text.contains("objective -100.877288"),
        "{text}"
    );
    let v = json_of(&["inspect", "--model", s(&model), "--json"]);
    let dual = &v["svm"];
    // svm-train: obj = -100.877288, rho = 0.424462 (for its +1 class; ours is the pair
    // (-1, +1), so the sign flips), nSV = 132, nBSV = 107, #iter = 162
    assert!(
        (dual["objective"].as_f64().unwrap() + 100.877288).abs() < 1e-6,
        "{v}"
    );
    assert!(
        (dual["rho"].as_f64().unwrap() + 0.424462).abs() < 1e-5,
        "{v}"
    );
    assert_eq!(dual["n_support"], 132);
    assert_eq!(dual["n_bounded_support"], 107);
    assert_eq!(dual["iterations"], 162);
    assert_eq!(v["n_support"], serde_json::json!([68, 64]));
}

#[test]
fn multiclass_svc_lists_one_dual_per_pair() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("x,y,label\n");
    for i in 0..12 {
        let e = (i % 4) as f64 * 0.3;
        text.push_str(&format!("{e},{e},a\n"));
        text.push_str(&format!("{},{e},b\n", 4.0 + e));
        text.push_str(&format!("{e},{},c\n", 4.0 + e));
    }
    let data = write(dir.path(), "three.csv", &text);
    let model = dir.path().join("svc.json");
    let out = train(&data, "svc", &["kernel=linear"], &model);
    assert!(out.contains("training accuracy 1.0000"), "{out}");
    let v = json_of(&["inspect", "--model", s(&model), "--json"]);
    let pairs = v["svm"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    for (p, (a, b)) in pairs.iter().zip([(0, 1), (0, 2), (1, 2)]) {
        assert_eq!(p["classes"], serde_json::json!([a, b]));
        assert!(p["objective"].as_f64().unwrap() < 0.0, "{p}");
    }
    assert_eq!(v["n_support"].as_array().unwrap().len(), 3);
    let predicted = ok(&["predict", "--model", s(&model), "--data", s(&data)]);
    assert_eq!(
        predicted.lines().filter(|l| *l == "b").count(),
        12,
        "{predicted}"
    );
}

#[test]
fn svr_fits_real_targets() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("x,y\n");
    for i in 0..40 {
        let x = i as f64 / 10.0;
        text.push_str(&format!("{x},{}\n", 2.0 * x + 1.0));
    }
    let data = write(dir.path(), "line.csv", &text);
    let model = dir.path().join("svr.json");
    train(
        &data,
        "svr",
        &["kernel=linear", "c=100", "epsilon=0.01"],
        &model,
    );
    let v = json_of(&["inspect", "--model", s(&model), "--json"]);
    assert!(v["svm"]["n_support"].as_u64().unwrap() >= 2, "{v}");
    let out = ok(&["predict", "--model", s(&model), "--data", s(&data)]);
    let first: f64 = out.lines().next().unwrap().parse().unwrap();
    assert!((first - 1.0).abs() < 0.02, "{out}");
}

#[test]
fn the_maximum_margin_classifier_finds_the_widest_margin_or_says_there_is_none() {
    let dir = tempfile::tempdir().unwrap();
    // the closest points of the two sides are (0, 0) and (3, 0): gamma = 1.5
    let text = "x,y,label\n0,0,neg\n-1,2,neg\n-2,-1,neg\n3,0,pos\n3,5,pos\n5,-3,pos\n3,-4,pos\n";
    let data = write(dir.path(), "sep.csv", text);
    let model = dir.path().join("hm.json");
    let out = train(&data, "hard-margin-svm", &[], &model);
    assert!(out.contains("training accuracy 1.0000"), "{out}");
    let v = json_of(&[
        "inspect",
        "--model",
        s(&model),
        "--data",
        s(&data),
        "--json",
    ]);
    let m = &v["margins"][0];
    assert!(
        (m["min_geometric"].as_f64().unwrap() - 1.5).abs() < 1e-9,
        "{v}"
    );
    assert!(
        (m["min_functional"].as_f64().unwrap() - 1.0).abs() < 1e-9,
        "{v}"
    );
    let svg = dir.path().join("hm.svg");
    let text = ok(&[
        "plot",
        "boundary",
        "--model",
        s(&model),
        "--data",
        s(&data),
        "--out",
        s(&svg),
    ]);
    assert!(text.contains("margins at ±1 dashed"), "{text}");
    // XOR: no separating line
    let xor = write(
        dir.path(),
        "xor.csv",
        "x,y,label\n0,0,a\n1,1,a\n0,1,b\n1,0,b\n",
    );
    let bad = dir.path().join("xor.json");
    let e = common::fails(&[
        "train",
        "--data",
        s(&xor),
        "--model",
        "hard-margin-svm",
        "--out",
        s(&bad),
    ]);
    assert!(
        e.contains("not linearly separable") && e.contains("svc"),
        "{e}"
    );
}

#[test]
fn one_class_svm_finds_libsvms_boundary_and_predicts_inliers() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("oc.json");
    let out = train(&heart_scale(), "one-class-svm", &["gamma=auto"], &model);
    assert!(
        out.contains("labels unused; training rows inside the boundary"),
        "{out}"
    );
    // svm-train -s 2 -n 0.5 heart_scale: obj = 3366.935440, rho = 54.425690, nSV = 141,
    // nBSV = 130, #iter = 102
    let v = json_of(&["inspect", "--model", s(&model), "--json"]);
    assert!(
        (v["svm"]["objective"].as_f64().unwrap() - 3366.935440).abs() < 1e-5,
        "{v}"
    );
    assert_eq!(v["svm"]["n_support"], 141);
    assert_eq!(v["svm"]["iterations"], 102);
    let text = ok(&["inspect", "--model", s(&model)]);
    assert!(
        text.contains("support vectors 141\n")
            && text.contains("predicts     1 inside the boundary, -1 outside")
            && !text.contains("prior"),
        "{text}"
    );
    let err = common::fails(&common::predict_args(&model, &heart_scale(), &["--proba"]));
    assert!(
        err.contains("one-class-svm cannot use probabilities"),
        "{err}"
    );
    for nu in ["0", "1.5"] {
        let err = common::fails(&[
            "train",
            "--data",
            s(&heart_scale()),
            "--model",
            "one-class-svm",
            "--param",
            &format!("nu={nu}"),
            "--out",
            s(&model),
        ]);
        assert!(err.contains("must be in (0, 1]"), "{err}");
    }
    let predicted = ok(&["predict", "--model", s(&model), "--data", s(&heart_scale())]);
    let labels: Vec<&str> = predicted.lines().collect();
    assert_eq!(labels.len(), 270);
    assert!(
        labels.iter().all(|l| *l == "1" || *l == "-1"),
        "{predicted}"
    );
    // nu = 0.5 bounds the fraction outside from above
    let outside = labels.iter().filter(|l| **l == "-1").count();
    assert!(outside <= 135 && outside > 100, "{outside} outside");
}

#[test]
fn svc_with_probability_predicts_probabilities_and_keeps_its_vote() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("p.json");
    let out = train(
        &heart_scale(),
        "svc",
        &["gamma=auto", "probability=true", "seed=3"],
        &model,
    );
    // the same vote as without probabilities: svm-train's 86.67%
    assert!(out.contains("training accuracy 0.8667"), "{out}");
    let text = ok(&common::predict_args(&model, &heart_scale(), &["--proba"]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "-1\t1");
    for line in &lines[1..] {
        let p: Vec<f64> = line.split('\t').map(|v| v.parse().unwrap()).collect();
        assert!((p[0] + p[1] - 1.0).abs() < 1e-5 && p.iter().all(|&q| q > 0.0));
    }
    let plain = dir.path().join("plain.json");
    train(&heart_scale(), "svc", &["gamma=auto"], &plain);
    let err = common::fails(&common::predict_args(&plain, &heart_scale(), &["--proba"]));
    assert!(err.contains("probability=true"), "{err}");
}

#[test]
fn a_precomputed_kernel_gives_the_model_of_the_kernel_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    // points on a line, class by side, and K(u, v) = exp(-0.5 (u - v)^2) between them
    let train_x: Vec<f64> = (0..12).map(|i| i as f64 * 0.5 - 2.6).collect();
    let test_x = [-3.0, -0.4, 0.6, 2.2];
    let rbf = |u: f64, v: f64| (-0.5 * (u - v) * (u - v)).exp();
    let label = |u: f64| if u < 0.0 { "neg" } else { "pos" };
    let (mut raw, mut kernel) = (String::from("x,label\n"), String::new());
    let header: Vec<String> = (0..train_x.len()).map(|j| format!("k{j}")).collect();
    kernel.push_str(&format!("{},label\n", header.join(",")));
    for &u in &train_x {
        raw.push_str(&format!("{u},{}\n", label(u)));
        let row: Vec<String> = train_x.iter().map(|&v| rbf(u, v).to_string()).collect();
        kernel.push_str(&format!("{},{}\n", row.join(","), label(u)));
    }
    let (mut raw_test, mut kernel_test) = (String::from("x\n"), header.join(",") + "\n");
    for &u in &test_x {
        raw_test.push_str(&format!("{u}\n"));
        let row: Vec<String> = train_x.iter().map(|&v| rbf(u, v).to_string()).collect();
        kernel_test.push_str(&(row.join(",") + "\n"));
    }
    let (by_rows, by_matrix) = (dir.path().join("rbf.json"), dir.path().join("k.json"));
    train(
        &write(dir.path(), "raw.csv", &raw),
        "svc",
        &["gamma=0.5"],
        &by_rows,
    );
    let out = train(
        &write(dir.path(), "k.csv", &kernel),
        "svc",
        &["kernel=precomputed"],
        &by_matrix,
    );
    assert!(out.contains("training accuracy 1.0000"), "{out}");
    let text = ok(&["inspect", "--model", s(&by_matrix)]);
    assert!(
        text.contains("precomputed (features: the kernel values against the 12 training rows)"),
        "{text}"
    );
    let predict = |model: &PathBuf, name: &str, data: &str| {
        let data = write(dir.path(), name, data);
        ok(&["predict", "--model", s(model), "--data", s(&data)])
    };
    let want = predict(&by_rows, "raw_test.csv", &raw_test);
    assert_eq!(
        want.lines().collect::<Vec<_>>(),
        ["neg", "neg", "pos", "pos"]
    );
    assert_eq!(predict(&by_matrix, "k_test.csv", &kernel_test), want);
    // the training file must be the square matrix of the training rows
    let err = common::fails(&[
        "train",
        "--data",
        s(&dir.path().join("raw.csv")),
        "--model",
        "svc",
        "--param",
        "kernel=precomputed",
        "--out",
        s(&dir.path().join("bad.json")),
    ]);
    assert!(
        err.contains("n x n") && err.contains("12 rows of 1"),
        "{err}"
    );
}

/// A fixture of LIBSVM model files (`scripts/fixtures/gen_libsvm_models.py`).
fn libsvm_fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../hyperplane/tests/fixtures/libsvm_models")
        .join(name)
}

#[test]
fn export_writes_a_libsvm_model_that_predict_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("svc.json");
    train(&heart_scale(), "svc", &["gamma=auto"], &model);
    let out = dir.path().join("svc.model");
    let text = ok(&[
        "export",
        "--model",
        s(&model),
        "--format",
        "libsvm",
        "--out",
        s(&out),
    ]);
    assert!(text.contains("svc.model"), "{text}");
    let file = std::fs::read_to_string(&out).unwrap();
    assert!(
        file.starts_with("svm_type c_svc\nkernel_type rbf\n"),
        "{file}"
    );
    let data = heart_scale();
    let ours = ok(&["predict", "--model", s(&model), "--data", s(&data)]);
    let exported = ok(&["predict", "--model", s(&out), "--data", s(&data)]);
    assert_eq!(ours, exported);
    let e = ok(&["evaluate", "--model", s(&out), "--data", s(&data)]);
    assert!(e.contains("accuracy 0.8667"), "{e}");
}

#[test]
fn predict_and_inspect_take_a_model_file_written_by_svm_train() {
    let model = libsvm_fixture("heart_rbf.model");
    let predicted = ok(&["predict", "--model", s(&model), "--data", s(&heart_scale())]);
    let want = std::fs::read_to_string(libsvm_fixture("heart_rbf.predict")).unwrap();
    assert_eq!(predicted, want);
    let text = ok(&["inspect", "--model", s(&model)]);
    assert!(
        text.contains("not recorded in a LIBSVM model file") && text.contains("rho -0.424462"),
        "{text}"
    );
}

#[test]
fn export_refuses_what_a_libsvm_model_file_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("nb.json");
    train(&heart_scale(), "gaussian-nb", &[], &model);
    let out = dir.path().join("nb.model");
    let e = fails(&[
        "export",
        "--model",
        s(&model),
        "--format",
        "libsvm",
        "--out",
        s(&out),
    ]);
    assert!(
        e.contains("nb.model") && e.contains("gaussian-nb") && e.contains("not a kernel SVM"),
        "{e}"
    );
    let e = fails(&[
        "export",
        "--model",
        s(&model),
        "--format",
        "onnx",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("libsvm"), "{e}");
    let bad = write(dir.path(), "bad.model", "svm_type c_svc\nkernel_type rbf\n");
    let e = fails(&["predict", "--model", s(&bad), "--data", s(&heart_scale())]);
    assert!(e.contains("bad.model") && e.contains("line 2"), "{e}");
}
