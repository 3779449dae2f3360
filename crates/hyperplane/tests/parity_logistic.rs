//! Parity with scikit-learn's LogisticRegression(lbfgs) and LIBLINEAR's `-s 0`; fixtures made
//! by `scripts/fixtures/gen_logistic_fixtures.py`.

use std::path::Path;

use hyperplane::data::read::{read, ReadOptions};
use hyperplane::data::RawInput;
use hyperplane::linear::{ClassWeight, LogisticRegression, SoftmaxRegression};
use hyperplane::optim::Solver;
use hyperplane::transform::StandardScaler;
use hyperplane::{Classifier, Dataset, Features, Fit, Label};
use ndarray::Array2;
use serde_json::Value;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn fixture(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("{DIR}/tests/fixtures/{name}")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A scikit-learn bundled CSV (header `n,d,names...`; features then the class index),
/// standardised.
fn bundled(name: &str) -> Dataset {
    let text = std::fs::read_to_string(format!("{DIR}/tests/data/{name}")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let (n, d): (usize, usize) = (header[0].parse().unwrap(), header[1].parse().unwrap());
    let mut x = Array2::zeros((n, d));
    let mut y = Vec::with_capacity(n);
    for (i, line) in lines.enumerate() {
        let v: Vec<f64> = line.split(',').map(|t| t.parse().unwrap()).collect();
        for j in 0..d {
            x[[i, j]] = v[j];
        }
        y.push(Label::Int(v[d] as i64));
    }
    let x: Features = x.into();
    let x = StandardScaler::new()
        .fit(&x)
        .unwrap()
        .transform(&x)
        .unwrap();
    Dataset::new(x, &y).unwrap()
}

fn as_vec(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(a) => a.iter().flat_map(as_vec).collect(),
        _ => vec![v.as_f64().unwrap()],
    }
}

/// `max |a - b| / max |b|`.
fn relative(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
        / scale
}

#[test]
fn coefficients_match_scikit_learn_lbfgs() {
    for case in fixture("logistic_sklearn.json")["cases"]
        .as_array()
        .unwrap()
    {
        let mut data = bundled(case["data"].as_str().unwrap());
        let weighted = case["weighted"].as_bool().unwrap();
        let class_weight = if weighted {
            let w = (0..data.n_samples())
                .map(|i| 1.0 + (i % 3) as f64)
                .collect();
            data = data.with_weights(w).unwrap();
            let k = data.classes().len() as i64;
            ClassWeight::Given((0..k).map(|c| (Label::Int(c), 0.5 + c as f64)).collect())
        } else {
            ClassWeight::Uniform
        };
        let (coef, intercept) = (as_vec(&case["coef"]), as_vec(&case["intercept"]));
        for solver in [Solver::Newton, Solver::Lbfgs] {
            let model = if data.classes().len() == 2 {
                LogisticRegression::default()
                    .solver(solver)
                    .class_weight(class_weight.clone())
                    .tol(1e-10)
                    .fit(&data)
                    .unwrap()
            } else {
                SoftmaxRegression::default()
                    .solver(solver)
                    .class_weight(class_weight.clone())
                    .tol(1e-10)
                    .fit(&data)
                    .unwrap()
            };
            let ours: Vec<f64> = model.coef().iter().copied().collect();
            let what = format!("{} weighted={weighted} {solver:?}", case["data"]);
            assert!(
                relative(&ours, &coef) < 1e-4,
                "{what}: coef {}",
                relative(&ours, &coef)
            );
            let b = model.intercept().to_vec();
            assert!(relative(&b, &intercept) < 1e-4, "{what}: intercept");
        }
    }
}

#[test]
fn objective_matches_liblinear_with_its_bias_convention() {
    let case = &fixture("logistic_liblinear.json")["cases"][0];
    let input = read(
        Path::new(&format!("{DIR}/tests/data/heart_scale")),
        &ReadOptions::default(),
    )
    .unwrap();
    let RawInput::Matrix(x) = input.input else {
        panic!("LIBSVM reads to a matrix")
    };
    let data = Dataset::new(x, input.labels.as_ref().unwrap()).unwrap();
    let theirs = case["objective"].as_f64().unwrap();
    for solver in [Solver::Newton, Solver::Lbfgs] {
        let model = LogisticRegression::default()
            .bias(case["bias"].as_f64().unwrap())
            .c(case["c"].as_f64().unwrap())
            .solver(solver)
            .tol(1e-8)
            .fit(&data)
            .unwrap();
        let ours = model.convergence().objective.unwrap();
        assert!(
            ((ours - theirs) / theirs).abs() < 1e-6,
            "{solver:?}: {ours} vs LIBLINEAR {theirs}"
        );
        // LIBLINEAR's w scores its first label, +1, which is also our classes[1]
        let w = as_vec(&case["w"]);
        let ours_w: Vec<f64> = model.coef().iter().copied().collect();
        assert!(relative(&ours_w, &w[..13]) < 1e-3, "{solver:?} weights");
        assert!((model.intercept()[0] - w[13]).abs() < 1e-3);
        assert_eq!(model.classes()[1], Label::Int(1));
    }
}
