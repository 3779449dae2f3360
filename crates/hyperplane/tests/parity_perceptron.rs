//! Perceptron and SGD parity with scikit-learn 1.9.1 (fixtures from
//! `scripts/fixtures/gen_perceptron_fixtures.py`; no Python needed at test time).
//!
//! Digits 3 (class -1) and 8 (class +1) of the first 1,000 rows, visited in order for a
//! fixed number of epochs: scikit-learn's `Perceptron` is our cyclic PLA update for update
//! (compared exactly: every weight is an integer multiple of eta), and `SGDClassifier` takes
//! the same steps as our SGD engine (compared to 1e-9 relative).

use hyperplane::data::{CsrMatrix, Dataset, Label};
use hyperplane::linear::{LinearModel, Perceptron, Sgd};
use hyperplane::{Fit, Params};
use ndarray::Array2;
use serde_json::Value;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn threes_and_eights() -> (Array2<f64>, Vec<Label>) {
    let text = std::fs::read_to_string(format!("{DIR}/tests/data/digits.csv")).unwrap();
    let rows: Vec<Vec<f64>> = text
        .lines()
        .take(1000)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .filter(|r: &Vec<f64>| r[64] == 3.0 || r[64] == 8.0)
        .collect();
    let x = Array2::from_shape_fn((rows.len(), 64), |(i, j)| rows[i][j]);
    let y = rows.iter().map(|r| Label::Int(r[64] as i64)).collect();
    (x, y)
}

fn fit(case: &Value, data: &Dataset) -> LinearModel {
    let params = case["params"].as_object().unwrap();
    match case["kind"].as_str().unwrap() {
        "perceptron" => {
            let mut p = Perceptron::default();
            for (k, v) in params {
                p.set_param(k, v.as_str().unwrap()).unwrap();
            }
            p.fit(data).unwrap()
        }
        "sgd" => {
            let mut p = Sgd::default();
            for (k, v) in params {
                p.set_param(k, v.as_str().unwrap()).unwrap();
            }
            p.fit(data).unwrap()
        }
        other => panic!("unknown kind {other}"),
    }
}

#[test]
fn perceptron_and_sgd_match_scikit_learn_step_for_step() {
    let (x, y) = threes_and_eights();
    let text =
        std::fs::read_to_string(format!("{DIR}/tests/fixtures/perceptron_digits.json")).unwrap();
    let fx: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(fx["sklearn_version"], "1.9.1");
    assert_eq!(fx["n_rows"].as_u64().unwrap() as usize, y.len());
    let weights: Vec<f64> = (0..y.len()).map(|i| 1.0 + (i % 3) as f64).collect();
    let cases = fx["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 12);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let expected: Vec<f64> = case["coef"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let b = case["intercept"].as_f64().unwrap();
        let exact = case["kind"] == "perceptron";
        for sparse in [false, true] {
            let features = if sparse {
                CsrMatrix::from_dense(x.view()).into()
            } else {
                x.clone().into()
            };
            let mut data = Dataset::new(features, &y).unwrap();
            if case["weights"].as_bool().unwrap() {
                data = data.with_weights(weights.clone()).unwrap();
            }
            let m = fit(case, &data);
            assert_eq!(
                m.convergence().iterations,
                case["n_iter"].as_u64().unwrap() as usize,
                "{name}"
            );
            let got = m.weights(0).to_vec();
            if exact {
                assert_eq!(got, expected, "{name} sparse={sparse}");
                assert_eq!(m.intercept()[0], b, "{name} sparse={sparse}");
            } else {
                let scale = expected.iter().fold(b.abs(), |a, v| a.max(v.abs()));
                let worst = got
                    .iter()
                    .zip(&expected)
                    .map(|(g, e)| (g - e).abs())
                    .fold((m.intercept()[0] - b).abs(), f64::max);
                assert!(
                    worst <= 1e-9 * scale,
                    "{name} sparse={sparse}: max |diff| {worst} of scale {scale}"
                );
            }
        }
    }
}
