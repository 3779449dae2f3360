//! `kernel=precomputed`: the features are the kernel values (at fit the `n x n` matrix of
//! the training rows, at prediction one column per training row). Parity with LIBSVM's
//! `svm-train -t 4` and scikit-learn's `SVC(kernel="precomputed")`, fixtures made by
//! `scripts/fixtures/gen_svm_precomputed_fixtures.py`; and the same model as the kernel the
//! matrix was computed from.

use hyperplane::data::RawInput;
use hyperplane::pipeline::{Learner, Model, Pipeline};
use hyperplane::svm::{libsvm_format, KernelKind, SvmModel};
use hyperplane::{Classifier, Dataset, Error, Features, Label, Params};
use ndarray::Array2;
use serde_json::Value;

use crate::common;

const DIR: &str = env!("CARGO_MANIFEST_DIR");
const HEART_GAMMA: f64 = 1.0 / 13.0;

fn fixture() -> Value {
    let text =
        std::fs::read_to_string(format!("{DIR}/tests/fixtures/svm_precomputed.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn indices(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap() as usize)
        .collect()
}

fn close(ours: f64, theirs: f64, tol: f64) -> bool {
    (ours - theirs).abs() <= tol * theirs.abs().max(1.0)
}

fn heart() -> (Array2<f64>, Vec<Label>) {
    let data = common::heart_scale();
    (data.x().to_dense(), data.labels())
}

/// `K(a_i, b_j)` of the linear or rbf (`gamma`) kernel, as the generator computes it.
fn gram(kind: &str, a: &Array2<f64>, b: &Array2<f64>, gamma: f64) -> Array2<f64> {
    let dot = a.dot(&b.t());
    match kind {
        "linear" => dot,
        "rbf" => Array2::from_shape_fn(dot.dim(), |(i, j)| {
            let sq = a.row(i).dot(&a.row(i)) + b.row(j).dot(&b.row(j)) - 2.0 * dot[[i, j]];
            (-gamma * sq.max(0.0)).exp()
        }),
        other => panic!("kernel {other}"),
    }
}

fn rows(x: &Array2<f64>, rows: &[usize]) -> Array2<f64> {
    x.select(ndarray::Axis(0), rows)
}

fn precomputed(kind: &str) -> Learner {
    let mut l = Learner::from_kind(kind).unwrap();
    l.set_param("kernel", "precomputed").unwrap();
    l
}

fn svm(model: &Model) -> &SvmModel {
    model.downcast_ref::<SvmModel>().unwrap()
}

fn as_number(l: &Label) -> f64 {
    match l {
        Label::Int(k) => *k as f64,
        other => panic!("label {other}"),
    }
}

#[test]
fn svm_train_t4_cases_have_its_objective_rho_support_and_predictions() {
    let (x, y) = heart();
    let cases = fixture();
    let mut names = Vec::new();
    for case in cases["libsvm_cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let (train, test) = (indices(&case["train"]), indices(&case["test"]));
        let kind = case["kernel"].as_str().unwrap();
        let xt = rows(&x, &train);
        let k = Features::from(gram(kind, &xt, &xt, HEART_GAMMA));
        let kt = gram(kind, &rows(&x, &test), &xt, HEART_GAMMA);
        let labels: Vec<Label> = train.iter().map(|&i| y[i].clone()).collect();
        let args = case["args"].as_str().unwrap();
        let (learner, data) = if args.contains("-s 3") {
            let targets = Array2::from_shape_fn((train.len(), 1), |(i, _)| as_number(&labels[i]));
            (precomputed("svr"), Dataset::regression(k, targets).unwrap())
        } else if args.contains("-s 2") {
            (
                precomputed("one-class-svm"),
                Dataset::new(k, &labels).unwrap(),
            )
        } else {
            (precomputed("svc"), Dataset::new(k, &labels).unwrap())
        };
        let model = learner.fit(&data).unwrap();
        let m = svm(&model);
        // LIBSVM's +1 is heart_scale's first label (+1); our pair puts the class -1 first
        let sign = if m.classes.len() == 2 && args == "-t 4" {
            -1.0
        } else {
            1.0
        };
        let d = &m.duals[0];
        let objective = common::json_numbers(&case["objective"])[0];
        assert!(
            (d.objective - objective).abs() <= 1e-6 * objective.abs().max(1.0),
            "{name}: objective {} vs LIBSVM {objective}",
            d.objective
        );
        let rho = common::json_numbers(&case["rho"])[0];
        assert!(
            close(sign * d.rho, rho, 1e-5),
            "{name}: rho {} vs {rho}",
            d.rho
        );
        assert_eq!(
            d.n_bounded_support as f64,
            common::json_numbers(&case["n_bsv"])[0],
            "{name}"
        );
        assert_eq!(
            d.iterations as f64,
            common::json_numbers(&case["iterations"])[0],
            "{name}"
        );
        let mut theirs = indices(&case["support"]);
        theirs.sort();
        let mut ours = m.support.clone();
        ours.sort();
        assert_eq!(ours, theirs, "{name}: support rows");
        // the model keeps the indices of its support vectors, not their rows
        assert!(m.support_vectors.len() == m.support.len());
        let kt = Features::from(kt);
        let predicted: Vec<f64> = if m.classes.is_empty() {
            model.predict_values(&kt).unwrap().iter().copied().collect()
        } else {
            model.predict(&kt).unwrap().iter().map(as_number).collect()
        };
        for (i, (a, b)) in predicted
            .iter()
            .zip(common::json_numbers(&case["predictions"]))
            .enumerate()
        {
            assert!(close(*a, b, 1e-5), "{name} test row {i}: {a} vs {b}");
        }
        // written as a LIBSVM model file: the `0:ID` lines name the support rows as
        // svm-train's file does, and the file reads back to the same decision values
        let text = m.to_libsvm().unwrap();
        let back = libsvm_format::read(text.as_bytes(), std::path::Path::new("m")).unwrap();
        assert_eq!(back.support, m.support, "{name}");
        let first = m.support[0] + 1;
        assert!(text.contains(&format!(" 0:{first}\n")), "{name}");
        let bits = |m: &SvmModel| -> Vec<u64> {
            let v = m.decision_values_ovo(&kt).unwrap();
            v.iter().map(|v| v.to_bits()).collect()
        };
        assert_eq!(bits(&back), bits(m), "{name}: decision values read back");
        let theirs = libsvm_model(name);
        let mut theirs_support = svm(theirs.model()).support.clone();
        theirs_support.sort();
        assert_eq!(ours, theirs_support, "{name}: svm-train's file");
        names.push(name);
    }
    assert_eq!(
        names,
        [
            "heart_linear",
            "heart_rbf",
            "heart_split",
            "heart_one_class",
            "heart_svr"
        ]
    );
}

/// svm-train's `-t 4` model file of a libsvm case, as a pipeline.
fn libsvm_model(name: &str) -> Pipeline {
    let path = format!("{DIR}/tests/fixtures/libsvm_models/precomputed_{name}.model");
    Pipeline::from_libsvm_model(std::path::Path::new(&path)).unwrap()
}

#[test]
fn svm_train_t4_model_files_predict_as_svm_predict() {
    let (x, _) = heart();
    for case in fixture()["libsvm_cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let p = libsvm_model(name);
        let m = svm(p.model());
        assert_eq!(m.kernel.kind, KernelKind::Precomputed, "{name}");
        let (train, test) = (indices(&case["train"]), indices(&case["test"]));
        // the `0:ID` serials are the training rows of the support vectors
        assert_eq!(m.n_features, m.support.iter().max().unwrap() + 1, "{name}");
        let mut support = m.support.clone();
        support.sort();
        let mut theirs = indices(&case["support"]);
        theirs.sort();
        assert_eq!(support, theirs, "{name}");
        let kind = case["kernel"].as_str().unwrap();
        let kt = gram(kind, &rows(&x, &test), &rows(&x, &train), HEART_GAMMA);
        let want = common::json_numbers(&case["predictions"]);
        let predicted: Vec<f64> = if p.is_regressor() {
            let raw = RawInput::Matrix(Features::from(kt.clone()));
            p.predict_values(&raw).unwrap().iter().copied().collect()
        } else {
            let raw = RawInput::Matrix(Features::from(kt.clone()));
            p.predict(&raw).unwrap().iter().map(as_number).collect()
        };
        for (i, (a, b)) in predicted.iter().zip(&want).enumerate() {
            // labels exactly; svm-predict prints regression values with %.17g, from kernel
            // values whose last bits differ from ours
            assert!(close(*a, *b, 1e-9), "{name} test row {i}: {a} vs {b}");
        }
        // a row narrower than the last support row: the columns it lacks are 0, as in
        // any LIBSVM-format row
        let last = *m.support.iter().max().unwrap();
        let mut cut = kt.slice(ndarray::s![0..1, ..]).to_owned();
        cut[[0, last]] = 0.0;
        let narrow = cut.slice(ndarray::s![.., 0..last]).to_owned();
        let (a, b) = (
            m.decision_values_ovo(&Features::from(cut)).unwrap(),
            m.decision_values_ovo(&Features::from(narrow)).unwrap(),
        );
        assert_eq!(a, b, "{name}: a narrower row");
    }
}

#[test]
fn svc_precomputed_matches_scikit_learn_on_iris() {
    let data = common::csv("iris.csv", 1);
    let (x, y) = (data.x().to_dense(), data.labels());
    for case in fixture()["sklearn_cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let (train, test) = (indices(&case["train"]), indices(&case["test"]));
        let xt = rows(&x, &train);
        let labels: Vec<Label> = train.iter().map(|&i| y[i].clone()).collect();
        let data = Dataset::new(Features::from(gram("linear", &xt, &xt, 0.0)), &labels).unwrap();
        let model = precomputed("svc").fit(&data).unwrap();
        let m = svm(&model);
        assert_eq!(m.support, indices(&case["support"]), "{name}: support_");
        let coef: Vec<f64> = m.dual_coef.iter().flatten().copied().collect();
        let want = common::json_numbers(&case["dual_coef"]);
        assert_eq!(coef.len(), want.len(), "{name}");
        for (a, b) in coef.iter().zip(&want) {
            assert!(close(*a, *b, 1e-6), "{name}: dual_coef_ {a} vs {b}");
        }
        for (d, b) in m.duals.iter().zip(common::json_numbers(&case["intercept"])) {
            assert!(
                close(-d.rho, b, 1e-6),
                "{name}: intercept_ {} vs {b}",
                -d.rho
            );
        }
        let kt = Features::from(gram("linear", &rows(&x, &test), &xt, 0.0));
        let scores = model.decision_function(&kt).unwrap();
        for (a, b) in scores
            .iter()
            .zip(common::json_numbers(&case["decision_function"]))
        {
            assert!(close(*a, b, 1e-6), "{name}: decision_function {a} vs {b}");
        }
        let predicted: Vec<f64> = model.predict(&kt).unwrap().iter().map(as_number).collect();
        assert_eq!(
            predicted,
            common::json_numbers(&case["predict"]),
            "{name}: predict"
        );
    }
}

/// Every kind (and probabilities, by the same seeded folds) fits the same model on the
/// kernel matrix as on the rows it was computed from.
#[test]
fn precomputed_rbf_is_the_rbf_kernel() {
    let (x, y) = heart();
    let k = Features::from(gram("rbf", &x, &x, HEART_GAMMA));
    let targets = Array2::from_shape_fn((y.len(), 1), |(i, _)| as_number(&y[i]));
    let settings: [(&str, &[(&str, &str)]); 5] = [
        ("svc", &[("probability", "true"), ("seed", "3")]),
        ("nu-svc", &[("nu", "0.3")]),
        ("one-class-svm", &[]),
        ("svr", &[("epsilon", "0.2")]),
        ("nu-svr", &[]),
    ];
    for (kind, params) in settings {
        let fit = |features: Features<'static>, kernel: &str| {
            let mut l = Learner::from_kind(kind).unwrap();
            l.set_param("kernel", kernel).unwrap();
            l.set_param("tol", "1e-9").unwrap();
            if kernel == "rbf" {
                l.set_param("gamma", &HEART_GAMMA.to_string()).unwrap();
            }
            for (p, v) in params {
                l.set_param(p, v).unwrap();
            }
            let data = if kind.ends_with("svr") {
                Dataset::regression(features, targets.clone()).unwrap()
            } else {
                Dataset::new(features, &y).unwrap()
            };
            l.fit(&data).unwrap()
        };
        let by_rows = fit(Features::from(x.clone()), "rbf");
        let by_matrix = fit(k.clone(), "precomputed");
        let (a, b) = (svm(&by_rows), svm(&by_matrix));
        assert_eq!(a.support, b.support, "{kind}");
        for (da, db) in a.duals.iter().zip(&b.duals) {
            // the matrix's last bits differ from the kernel's own (another order of
            // operations), which may change an SMO step: solved tightly, both reach the
            // same optimum
            assert!(
                close(da.objective, db.objective, 1e-7),
                "{kind}: objective {} vs {}",
                da.objective,
                db.objective
            );
            assert!(close(da.rho, db.rho, 1e-6), "{kind}: rho");
        }
        let ours = b.decision_values_ovo(&k).unwrap();
        let theirs = a.decision_values_ovo(&Features::from(x.clone())).unwrap();
        for (u, v) in ours.iter().zip(&theirs) {
            assert!(close(*u, *v, 1e-6), "{kind}: decision values {u} vs {v}");
        }
        if kind == "svc" {
            let (pa, pb) = (
                by_rows.predict_proba(&Features::from(x.clone())).unwrap(),
                by_matrix.predict_proba(&k).unwrap(),
            );
            for (u, v) in pa.iter().zip(&pb) {
                assert!(close(*u, *v, 1e-6), "probabilities {u} vs {v}");
            }
        }
    }
}

#[test]
fn a_kernel_matrix_of_the_wrong_shape_is_refused() {
    let (x, y) = heart();
    let data = Dataset::new(Features::from(x.clone()), &y).unwrap();
    let e = precomputed("svc").fit(&data).unwrap_err();
    assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
    let text = e.to_string();
    assert!(
        text.contains("precomputed") && text.contains("n x n") && text.contains("270 rows of 13"),
        "{text}"
    );
    // prediction takes one column per training row
    let k = gram("linear", &x, &x, 0.0);
    let model = precomputed("svc")
        .fit(&Dataset::new(Features::from(k), &y).unwrap())
        .unwrap();
    let e = model.predict(&Features::from(x)).unwrap_err().to_string();
    assert!(e.contains("270") && e.contains("13"), "{e}");
}

#[test]
fn a_precomputed_model_file_round_trips_and_its_support_indices_are_checked() {
    let (x, y) = heart();
    let k = Features::from(gram("linear", &x, &x, 0.0));
    let model = precomputed("svc")
        .fit(&Dataset::new(k.clone(), &y).unwrap())
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.json");
    hyperplane::persist::save(&path, "svc", &model).unwrap();
    let (_, back) = hyperplane::persist::load::<Model>(&path).unwrap();
    assert_eq!(back.predict(&k).unwrap(), model.predict(&k).unwrap());
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    file.pointer_mut("/model/Svm/support/0")
        .map(|v| *v = 270.into())
        .unwrap();
    std::fs::write(&path, file.to_string()).unwrap();
    let e = hyperplane::persist::load::<Model>(&path)
        .unwrap_err()
        .to_string();
    assert!(e.contains("support") && e.contains("270"), "{e}");
}
