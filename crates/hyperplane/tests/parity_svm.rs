//! Parity of the kernel SVMs with LIBSVM's `svm-train` and scikit-learn's `SVC`; fixtures
//! made by `scripts/fixtures/gen_svm_fixtures.py`.
//!
//! LIBSVM keeps `Q` in single precision, as we do, so its printed objective (6 decimals),
//! `rho` and support-vector counts are the reference, at its default tolerance and at
//! `-e 1e-8`.

use hyperplane::pipeline::{Learner, Model};
use hyperplane::svm::SvmModel;
use hyperplane::transform::StandardScaler;
use hyperplane::{Classifier, Dataset, Features, Label, Params};
use ndarray::Array2;
use serde_json::Value;

use crate::common;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn fixture(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("{DIR}/tests/fixtures/{name}")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn heart() -> (Features<'static>, Vec<Label>) {
    let data = common::heart_scale();
    (data.x().clone(), data.labels())
}

/// A scikit-learn bundled CSV: features and the class index.
fn bundled(name: &str) -> (Array2<f64>, Vec<Label>) {
    let data = common::csv(name, 1);
    (data.x().to_dense(), data.labels())
}

/// The data set of a LIBSVM case: classes, or the labels as real targets (regression).
fn case_data(case: &Value) -> Dataset<'static> {
    let (x, y): (Features, Vec<Label>) = match case["data"].as_str().unwrap() {
        "heart_scale" => heart(),
        "iris" => {
            let (x, y) = bundled("iris.csv");
            (x.into(), y)
        }
        "breast_cancer_scaled" => {
            let (x, y) = bundled("breast_cancer.csv");
            let x: Features = x.into();
            let scaler = StandardScaler::new().fit(&x).unwrap();
            (scaler.transform(&x).unwrap(), y)
        }
        other => panic!("unknown data {other}"),
    };
    match case["svm_type"].as_str().unwrap() {
        "epsilon_svr" | "nu_svr" => {
            let v = Array2::from_shape_fn((y.len(), 1), |(i, _)| match &y[i] {
                Label::Int(k) => *k as f64,
                other => panic!("label {other}"),
            });
            Dataset::regression(x, v).unwrap()
        }
        _ => Dataset::new(x, &y).unwrap(),
    }
}

/// The learner of a LIBSVM case, with every parameter it was run with.
fn case_learner(case: &Value) -> Learner {
    let kind = match case["svm_type"].as_str().unwrap() {
        "c_svc" => "svc",
        "nu_svc" => "nu-svc",
        "epsilon_svr" => "svr",
        "nu_svr" => "nu-svr",
        "one_class" => "one-class-svm",
        other => panic!("{other}"),
    };
    let mut l = Learner::from_kind(kind).unwrap();
    let text = |k: &str| match &case[k] {
        Value::Bool(b) => b.to_string(),
        v => v.as_f64().unwrap().to_string(),
    };
    l.set_param("kernel", case["kernel"].as_str().unwrap())
        .unwrap();
    for p in ["gamma", "degree", "coef0", "tol", "shrinking"] {
        l.set_param(p, &text(p)).unwrap();
    }
    for p in ["c", "nu", "epsilon"] {
        if l.has_param(p) {
            l.set_param(p, &text(p)).unwrap();
        }
    }
    let weights = case["class_weight"].as_object().unwrap();
    if !weights.is_empty() {
        let list: Vec<String> = weights.iter().map(|(k, w)| format!("{k}:{w}")).collect();
        l.set_param("class_weight", &list.join(",")).unwrap();
    }
    l
}

fn svm(model: &Model) -> &SvmModel {
    model.downcast_ref::<SvmModel>().unwrap()
}

/// `+1` when LIBSVM's first label is our first class (sorted), else `-1`: LIBSVM's pairs
/// put the first label it saw on the `+1` side, ours the smaller class.
fn orientation(case: &Value, data: &Dataset) -> f64 {
    let labels = case["labels"].as_array().unwrap();
    match labels.first() {
        Some(first) if data.classes()[0] != Label::Int(first.as_i64().unwrap()) => -1.0,
        _ => 1.0,
    }
}

fn close(ours: f64, theirs: f64, tol: f64) -> bool {
    (ours - theirs).abs() <= tol * theirs.abs().max(1.0)
}

#[test]
fn every_libsvm_case_has_its_objective_rho_and_support_vectors() {
    let cases = fixture("svm_libsvm.json");
    let mut checked = Vec::new();
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let data = case_data(case);
        let model = case_learner(case).fit(&data).unwrap();
        let m = svm(&model);
        let sign = orientation(case, &data);
        let objectives = common::json_numbers(&case["objective"]);
        let rhos = common::json_numbers(&case["rho"]);
        let bounded = common::json_numbers(&case["n_bsv"]);
        assert_eq!(m.duals.len(), objectives.len(), "{name}: duals");
        for (p, d) in m.duals.iter().enumerate() {
            // printed with 6 decimals
            assert!(
                close(d.objective, objectives[p], 1e-6)
                    || (d.objective - objectives[p]).abs() < 1e-6,
                "{name} pair {p}: objective {} vs LIBSVM {}",
                d.objective,
                objectives[p]
            );
            assert!(
                close(sign * d.rho, rhos[p], 1e-5),
                "{name} pair {p}: rho {} vs LIBSVM {}",
                sign * d.rho,
                rhos[p]
            );
            assert_eq!(
                d.n_bounded_support as f64, bounded[p],
                "{name} pair {p}: bounded support vectors"
            );
            assert!(d.warning.is_none(), "{name}: {:?}", d.warning);
        }
        assert_eq!(
            m.support.len() as u64,
            case["n_sv"].as_u64().unwrap(),
            "{name}: support vectors"
        );
        if let Some(per_class) = case["n_support_per_class"].as_array() {
            // LIBSVM counts per class in its label order
            let labels: Vec<i64> = case["labels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_i64().unwrap())
                .collect();
            for (k, n) in per_class.iter().enumerate() {
                let ours = data
                    .classes()
                    .iter()
                    .position(|c| *c == Label::Int(labels[k]))
                    .unwrap();
                assert_eq!(m.n_support[ours] as u64, n.as_u64().unwrap(), "{name}");
            }
        }
        // the support vectors are the same training rows
        let mut theirs: Vec<u64> = case["support"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let mut ours: Vec<u64> = m.support.iter().map(|&i| i as u64).collect();
        theirs.sort();
        ours.sort();
        if name != "iris_rbf" {
            // (iris rows 101 and 142 are equal: either may be the support vector)
            assert_eq!(ours, theirs, "{name}: support rows");
        }
        // decision values of the first rows, and every prediction
        let first: Vec<usize> = (0..30).collect();
        let x30 = data.x().select_rows(&first);
        let dec = m.decision_values_ovo(&x30).unwrap();
        let want = &case["decision_values"];
        for i in 0..30 {
            let row = common::json_numbers(&want[i]);
            for (p, &v) in row.iter().enumerate() {
                let s = if m.classes.is_empty() { 1.0 } else { sign };
                assert!(
                    close(s * dec[[i, p]], v, 1e-5),
                    "{name} row {i} pair {p}: {} vs LIBSVM {v}",
                    s * dec[[i, p]]
                );
            }
        }
        let predicted: Vec<f64> = if m.classes.is_empty() {
            model
                .predict_values(data.x())
                .unwrap()
                .iter()
                .copied()
                .collect()
        } else {
            model
                .predict(data.x())
                .unwrap()
                .iter()
                .map(|l| match l {
                    Label::Int(k) => *k as f64,
                    other => panic!("{other}"),
                })
                .collect()
        };
        let want = common::json_numbers(&case["predictions"]);
        for (i, (a, b)) in predicted.iter().zip(&want).enumerate() {
            assert!(
                close(*a, *b, 1e-5),
                "{name} row {i}: predicted {a}, LIBSVM {b}"
            );
        }
        checked.push(name);
    }
    assert_eq!(checked.len(), 15, "{checked:?}");
}

/// The scikit-learn data set of a case: iris raw, breast_cancer standardised, or the toy
/// rows the case holds; with the case's sample weights.
fn sklearn_data(case: &Value) -> Dataset<'static> {
    let (x, y): (Features, Vec<Label>) = match case["data"].as_str() {
        Some("iris") => {
            let (x, y) = bundled("iris.csv");
            (x.into(), y)
        }
        Some("breast_cancer_scaled") => {
            let (x, y) = bundled("breast_cancer.csv");
            let x: Features = x.into();
            let scaler = StandardScaler::new().fit(&x).unwrap();
            (scaler.transform(&x).unwrap(), y)
        }
        _ => {
            let rows = case["X"].as_array().unwrap();
            let d = rows[0].as_array().unwrap().len();
            let x =
                Array2::from_shape_vec((rows.len(), d), common::json_numbers(&case["X"])).unwrap();
            let y = common::json_numbers(&case["y"])
                .iter()
                .map(|&v| Label::Int(v as i64))
                .collect();
            (x.into(), y)
        }
    };
    let data = Dataset::new(x, &y).unwrap();
    match case["sample_weight"].as_str() {
        Some("1 + (i % 3)") => {
            let w = (0..data.n_samples())
                .map(|i| 1.0 + (i % 3) as f64)
                .collect();
            data.with_weights(w).unwrap()
        }
        None => data,
        Some(other) => panic!("sample weights {other}"),
    }
}

fn assert_all_close(ours: &[f64], theirs: &[f64], tol: f64, what: &str) {
    assert_eq!(ours.len(), theirs.len(), "{what}: lengths");
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        assert!(close(*a, *b, tol), "{what}[{i}]: {a} vs scikit-learn {b}");
    }
}

#[test]
fn svc_matches_scikit_learn_on_its_toy_example_iris_and_breast_cancer() {
    let cases = fixture("svm_sklearn.json");
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let data = sklearn_data(case);
        let mut l = Learner::from_kind("svc").unwrap();
        l.set_param("kernel", case["kernel"].as_str().unwrap())
            .unwrap();
        // iris: scikit-learn's default gamma="scale", resolved the same way
        let gamma = if case["data"] == "iris" {
            "scale".to_string()
        } else {
            case["gamma"].as_f64().unwrap().to_string()
        };
        l.set_param("gamma", &gamma).unwrap();
        l.set_param("c", &case["c"].as_f64().unwrap().to_string())
            .unwrap();
        l.set_param("tol", &case["tol"].as_f64().unwrap().to_string())
            .unwrap();
        let weights = case["class_weight"].as_object().unwrap();
        if !weights.is_empty() {
            let list: Vec<String> = weights.iter().map(|(k, w)| format!("{k}:{w}")).collect();
            l.set_param("class_weight", &list.join(",")).unwrap();
        }
        let model = l.fit(&data).unwrap();
        let m = svm(&model);
        if case["kernel"] != "linear" {
            assert!(
                close(m.kernel.gamma, case["gamma"].as_f64().unwrap(), 1e-15),
                "{name}: gamma {}",
                m.kernel.gamma
            );
        }
        let binary = m.classes.len() == 2;
        if let Some(support) = case["support"].as_array() {
            let theirs: Vec<usize> = support
                .iter()
                .map(|v| v.as_u64().unwrap() as usize)
                .collect();
            assert_eq!(m.support, theirs, "{name}: support_");
            // binary: scikit-learn's dual_coef_ scores classes[1]; ours classes[0] (LIBSVM's)
            let flip = if binary { -1.0 } else { 1.0 };
            let ours: Vec<f64> = m.dual_coef.iter().flatten().map(|c| flip * c).collect();
            assert_all_close(&ours, &common::json_numbers(&case["dual_coef"]), 1e-6, name);
        }
        if let Some(n) = case["n_sv"].as_u64() {
            assert_eq!(m.support.len() as u64, n, "{name}");
        }
        let intercept = common::json_numbers(&case["intercept"]);
        let rho: Vec<f64> = m.duals.iter().map(|d| d.rho).collect();
        // scikit-learn's intercept_: -rho, in its own orientation (+rho for two classes)
        let ours: Vec<f64> = rho.iter().map(|r| if binary { *r } else { -r }).collect();
        assert_all_close(&ours, &intercept, 1e-6, &format!("{name} intercept_"));
        let rows = if let Some(d) = case["decision_function"].as_array() {
            d.len()
        } else {
            data.n_samples()
        };
        let x = data.x().select_rows(&(0..rows).collect::<Vec<_>>());
        let scores = model.decision_function(&x).unwrap();
        if binary {
            let ours: Vec<f64> = scores.column(1).to_vec();
            assert_all_close(
                &ours,
                &common::json_numbers(&case["decision_function"]),
                1e-6,
                name,
            );
        } else {
            let ovo: Vec<f64> = m.decision_values_ovo(&x).unwrap().iter().copied().collect();
            assert_all_close(
                &ovo,
                &common::json_numbers(&case["decision_function_ovo"]),
                1e-6,
                name,
            );
            if case.get("decision_function_ovr").is_some() {
                let ovr: Vec<f64> = scores.iter().copied().collect();
                assert_all_close(
                    &ovr,
                    &common::json_numbers(&case["decision_function_ovr"]),
                    1e-6,
                    name,
                );
            }
        }
        if let Some(want) = case["predict"].as_array() {
            let predicted = model.predict(&x).unwrap();
            for (i, (p, w)) in predicted.iter().zip(want).enumerate() {
                assert_eq!(*p, Label::Int(w.as_i64().unwrap()), "{name} row {i}");
            }
        }
    }
}

/// A change to a model file's body.
type Edit = fn(&mut Value);

#[test]
fn an_edited_svm_model_file_is_refused_naming_the_field() {
    let case = &fixture("svm_libsvm.json")["cases"][12]; // iris_rbf: three pairs
    assert_eq!(case["name"], "iris_rbf");
    let data = case_data(case);
    let model = case_learner(case).fit(&data).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.json");
    hyperplane::persist::save(&path, "svc", &model).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let edits: [(&str, Edit); 5] = [
        ("dual_coef", |b| {
            b["dual_coef"][1].as_array_mut().unwrap().pop();
        }),
        ("n_support", |b| b["n_support"][0] = 1000.into()),
        ("duals", |b| {
            b["duals"].as_array_mut().unwrap().pop();
        }),
        ("support_vectors", |b| b["n_features"] = 7.into()),
        ("gamma", |b| b["kernel"]["gamma"] = (-1.0).into()),
    ];
    for (field, edit) in edits {
        let mut edited = file.clone();
        let body = edited.pointer_mut("/model/Svm").expect("an Svm body");
        edit(body);
        std::fs::write(&path, edited.to_string()).unwrap();
        let e = hyperplane::persist::load::<Model>(&path)
            .unwrap_err()
            .to_string();
        assert!(e.contains(field), "{field}: {e}");
    }
    // the file as saved loads and predicts the same
    std::fs::write(&path, &text).unwrap();
    let (_, back) = hyperplane::persist::load::<Model>(&path).unwrap();
    assert_eq!(
        back.predict(data.x()).unwrap(),
        model.predict(data.x()).unwrap()
    );
}

/// `svm-train -b 1`: on LIBSVM's own folds (recorded by the fixture generator) our Platt
/// sigmoids equal its `probA` / `probB` and our probabilities its `svm-predict -b 1`.
#[test]
fn probabilities_match_svm_train_b1_on_its_folds() {
    let cases = fixture("svm_probability.json");
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let (x, y) = match name {
            "heart_rbf" => heart(),
            _ => {
                let (x, y) = bundled("iris.csv");
                (x.into(), y)
            }
        };
        let data = Dataset::new(x, &y).unwrap();
        let mut svc = hyperplane::svm::Svc::default();
        svc.dual.gamma = hyperplane::svm::Gamma::Auto;
        if name == "iris_linear_c10" {
            svc.dual.kernel = hyperplane::svm::KernelKind::Linear;
            svc.c = 10.0;
        }
        let orders: Vec<Vec<usize>> = case["fold_orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                common::json_numbers(o)
                    .iter()
                    .map(|&v| v as usize)
                    .collect()
            })
            .collect();
        let model = svc.fit_with_fold_orders(&data, &orders).unwrap();
        let platt = model.probability.as_ref().expect("fitted with sigmoids");
        // one pair on heart_scale, whose first label (1) is our second class: B flips
        let sign = if name == "heart_rbf" { -1.0 } else { 1.0 };
        for (p, (a, b)) in common::json_numbers(&case["prob_a"])
            .into_iter()
            .zip(common::json_numbers(&case["prob_b"]))
            .enumerate()
        {
            assert!(
                close(platt.prob_a[p], a, 1e-6) && close(platt.prob_b[p], sign * b, 1e-6),
                "{name} pair {p}: A {} B {} against LIBSVM's {a} {b}",
                platt.prob_a[p],
                platt.prob_b[p]
            );
        }
        let proba = model.predict_proba(data.x()).unwrap();
        let labels: Vec<Label> = case["labels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| Label::Int(l.as_i64().unwrap()))
            .collect();
        let mut worst = 0.0f64;
        for (i, theirs) in case["probabilities"].as_array().unwrap().iter().enumerate() {
            for (label, p) in labels.iter().zip(common::json_numbers(theirs)) {
                let c = model.classes.iter().position(|k| k == label).unwrap();
                worst = worst.max((proba[[i, c]] - p).abs());
            }
        }
        // svm-predict prints 6 significant digits
        assert!(worst < 1e-5, "{name}: probabilities differ by {worst}");
    }
}

#[test]
fn probabilities_on_seeded_folds_are_reproducible_and_calibrated() {
    let (x, y) = bundled("iris.csv");
    let data = Dataset::new(x.into(), &y).unwrap();
    let mut l = Learner::from_kind("svc").unwrap();
    l.set_param("probability", "true").unwrap();
    l.set_param("seed", "7").unwrap();
    let a = l.fit(&data).unwrap();
    let b = l.fit(&data).unwrap();
    let (pa, pb) = (
        a.predict_proba(data.x()).unwrap(),
        b.predict_proba(data.x()).unwrap(),
    );
    assert_eq!(pa, pb, "same seed, same probabilities");
    for row in pa.rows() {
        assert!((row.sum() - 1.0).abs() < 1e-9 && row.iter().all(|&p| p > 0.0));
    }
    // the most probable class is the true one on almost every training row
    let hits = pa
        .rows()
        .into_iter()
        .zip(data.targets())
        .filter(|(row, &t)| row.iter().cloned().fold(f64::MIN, f64::max) == row[t])
        .count();
    assert!(hits >= 144, "{hits} of 150");
    l.set_param("seed", "8").unwrap();
    let c = l.fit(&data).unwrap();
    assert_ne!(
        svm(&a).probability,
        svm(&c).probability,
        "another seed deals other folds"
    );
    let plain = Learner::from_kind("svc").unwrap().fit(&data).unwrap();
    assert!(
        plain.predict_proba(data.x()).is_err(),
        "no sigmoids, no probabilities"
    );
}
