//! Naive Bayes parity with scikit-learn 1.9.1 (fixtures from
//! `scripts/fixtures/gen_bayes_fixtures.py`; no Python needed at test time).

use hyperplane::bayes::{BernoulliNB, MultinomialNB};
use hyperplane::data::{CsrMatrix, Dataset, Features, Label};
use hyperplane::pipeline::Learner;
use hyperplane::{Classifier, Fit, Params};
use ndarray::{array, Array2};
use serde_json::Value;

const DIR: &str = env!("CARGO_MANIFEST_DIR");
const N_TRAIN: usize = 1500;

fn digits() -> (Array2<f64>, Vec<Label>) {
    let text = std::fs::read_to_string(format!("{DIR}/tests/data/digits.csv")).unwrap();
    let rows: Vec<Vec<f64>> = text
        .lines()
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    let x = Array2::from_shape_fn((rows.len(), 64), |(i, j)| rows[i][j]);
    let y = rows.iter().map(|r| Label::Int(r[64] as i64)).collect();
    (x, y)
}

fn fixture(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("{DIR}/tests/fixtures/{name}")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn max_abs_diff(p: &Array2<f64>, expected: &Value) -> f64 {
    let mut worst = 0.0f64;
    for (i, row) in expected.as_array().unwrap().iter().enumerate() {
        for (c, v) in row.as_array().unwrap().iter().enumerate() {
            worst = worst.max((p[[i, c]] - v.as_f64().unwrap()).abs());
        }
    }
    worst
}

#[test]
fn digits_probabilities_match_scikit_learn() {
    let (x, y) = digits();
    let train = x.slice(ndarray::s![..N_TRAIN, ..]).to_owned();
    let test = x.slice(ndarray::s![N_TRAIN.., ..]).to_owned();
    let weights: Vec<f64> = (0..N_TRAIN).map(|i| 1.0 + (i % 3) as f64).collect();
    let fx = fixture("bayes_digits.json");
    assert_eq!(fx["sklearn_version"], "1.9.1");
    let cases = fx["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 17);
    let mut report = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let mut nb = Learner::from_kind(case["kind"].as_str().unwrap()).unwrap();
        for (k, v) in case["params"].as_object().unwrap() {
            nb.set_param(k, v.as_str().unwrap()).unwrap();
        }
        let mut data = Dataset::new(train.clone().into(), &y[..N_TRAIN]).unwrap();
        if case["weights"].as_bool().unwrap() {
            data = data.with_weights(weights.clone()).unwrap();
        }
        for sparse in [false, true] {
            let (d, t): (Dataset, Features) = if sparse {
                (
                    Dataset::new(CsrMatrix::from_dense(train.view()).into(), &y[..N_TRAIN])
                        .unwrap()
                        .with_weights(data.weights().map_or(vec![1.0; N_TRAIN], <[f64]>::to_vec))
                        .unwrap(),
                    CsrMatrix::from_dense(test.view()).into(),
                )
            } else {
                (data.clone(), test.clone().into())
            };
            let p = nb.fit(&d).unwrap().predict_proba(&t).unwrap();
            let diff = max_abs_diff(&p, &case["proba"]);
            report.push(format!(
                "{name} (sparse: {sparse}): max |diff| = {diff:.3e}"
            ));
            assert!(diff < 1e-9, "{name} sparse={sparse}: {diff}");
        }
    }
    println!("{}", report.join("\n"));
}

fn irbook() -> (Dataset<'static>, Features<'static>) {
    let fx = fixture("bayes_irbook.json");
    let rows: Vec<Vec<f64>> = serde_json::from_value(fx["x"].clone()).unwrap();
    let y: Vec<String> = serde_json::from_value(fx["y"].clone()).unwrap();
    let x = Array2::from_shape_fn((4, 6), |(i, j)| rows[i][j]);
    let labels: Vec<Label> = y.into_iter().map(Label::from).collect();
    // the hand-built count matrix of the book: Chinese Beijing Shanghai Macao Tokyo Japan
    assert_eq!(
        x,
        array![
            [2.0, 1.0, 0.0, 0.0, 0.0, 0.0],
            [2.0, 0.0, 1.0, 0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0, 1.0, 1.0]
        ]
    );
    let test: Features = array![[3.0, 0.0, 0.0, 0.0, 1.0, 1.0]].into();
    (Dataset::new(x.into(), &labels).unwrap(), test)
}

#[test]
fn irbook_example_matches_the_book_and_scikit_learn() {
    let fx = fixture("bayes_irbook.json");
    let (d, t) = irbook();
    assert_eq!(d.classes(), &[Label::from("no"), Label::from("yes")]);
    let m = MultinomialNB::default()
        .fit(&d)
        .unwrap()
        .predict_proba(&t)
        .unwrap();
    let b = BernoulliNB::default()
        .fit(&d)
        .unwrap()
        .predict_proba(&t)
        .unwrap();
    // the book, to its 5 digits
    for (p, book) in [(&m, [0.31024, 0.68976]), (&b, [0.80893, 0.19107])] {
        for c in 0..2 {
            assert!((p[[0, c]] - book[c]).abs() < 5e-6, "{p} vs {book:?}");
        }
    }
    // the exact value: P(yes|d) ∝ 3/4 (3/7)^3 (1/14)^2, P(no|d) ∝ 1/4 (2/9)^3 (2/9)^2
    let yes = 0.75 * (3.0f64 / 7.0).powi(3) * (1.0f64 / 14.0).powi(2);
    let no = 0.25 * (2.0f64 / 9.0).powi(5);
    assert!((m[[0, 1]] - yes / (yes + no)).abs() < 1e-15);
    // scikit-learn
    for (p, key) in [(&m, "multinomial_proba"), (&b, "bernoulli_proba")] {
        let sk: Vec<f64> = serde_json::from_value(fx[key].clone()).unwrap();
        for c in 0..2 {
            assert!((p[[0, c]] - sk[c]).abs() < 1e-12, "{key}: {p} vs {sk:?}");
        }
    }
}
