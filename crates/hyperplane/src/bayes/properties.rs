//! Property tests of the whole family, every kind as the registry lists it: probabilities
//! sum to 1, merged statistics equal the union (through the registry's one-pass training,
//! [`Incremental`](crate::estimator::Incremental)), integer weights equal repeated rows,
//! strong smoothing tends to the prior, dense and sparse input give the same model.

use ndarray::Array2;
use proptest::prelude::*;

use super::FAMILY;
use crate::data::{CsrMatrix, Dataset, Features, Label};
use crate::estimator::Classifier;
use crate::param::Params;
use crate::pipeline::{Learner, Model};

/// Small count matrices (values 0..4) with labels from 3 classes and integer weights.
fn data() -> impl Strategy<Value = (Array2<f64>, Vec<i64>, Vec<u32>)> {
    (2usize..14, 1usize..5).prop_flat_map(|(n, f)| {
        (
            proptest::collection::vec(0u8..5, n * f)
                .prop_map(move |v| Array2::from_shape_fn((n, f), |(i, j)| v[i * f + j] as f64)),
            proptest::collection::vec(0i64..3, n),
            proptest::collection::vec(1u32..4, n),
        )
    })
}

fn dataset(x: &Array2<f64>, y: &[i64]) -> Dataset<'static> {
    let labels: Vec<Label> = y.iter().map(|&v| Label::Int(v)).collect();
    Dataset::new(x.clone().into(), &labels).unwrap()
}

/// The example of Manning et al., *Introduction to Information Retrieval*,
/// 13.1: word counts of Chinese Beijing Shanghai Macao Tokyo Japan, classes yes / no.
pub(super) fn irbook() -> Dataset<'static> {
    let x = ndarray::array![
        [2.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [2.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 1.0, 1.0]
    ];
    Dataset::new(
        x.into(),
        &["yes".into(), "yes".into(), "yes".into(), "no".into()],
    )
    .unwrap()
}

/// A learner of every kind of the family, smoothed by `alpha` where it has one.
fn learners(alpha: f64) -> Vec<Learner> {
    FAMILY
        .kinds
        .iter()
        .map(|r| {
            let mut nb = Learner::from_kind(r.info.name).unwrap();
            if nb.has_param("alpha") {
                nb.set_param("alpha", &alpha.to_string()).unwrap();
            }
            nb
        })
        .collect()
}

/// The model of `learner` on `parts`, each trained apart batch by batch, then merged.
fn merged(learner: &Learner, parts: &[&Dataset]) -> Model {
    let one_pass = learner.incremental().unwrap();
    let mut total = one_pass.start(parts[0].n_features());
    for part in parts {
        let mut s = one_pass.start(part.n_features());
        s.partial_fit(part).unwrap();
        total.merge(&*s).unwrap();
    }
    Model::new(total.finish().unwrap())
}

fn assert_same(a: &dyn Classifier, b: &dyn Classifier, x: &Features, rel: f64, kind: &str) {
    assert_eq!(a.classes(), b.classes());
    let (da, db) = (
        a.decision_function(x).unwrap(),
        b.decision_function(x).unwrap(),
    );
    for (u, v) in da.iter().zip(db.iter()) {
        let ok = u == v || (u - v).abs() <= rel * u.abs().max(v.abs()).max(1.0);
        assert!(ok, "{kind} : {u} vs {v}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn probabilities_sum_to_one((x, y, _) in data(), alpha in prop_oneof![Just(0.0), 0.01f64..5.0]) {
        let d = dataset(&x, &y);
        let probe: Features = (x.clone() + 1.0).into();
        for nb in learners(alpha) {
            let m = nb.fit(&d).unwrap();
            for t in [d.x(), &probe] {
                let p = m.predict_proba(t).unwrap();
                for r in p.rows() {
                    prop_assert!(r.iter().all(|v| v.is_finite() && *v >= 0.0), "{}: {p}", nb.info().name);
                    prop_assert!((r.sum() - 1.0).abs() < 1e-12, "{}: {p}", nb.info().name);
                }
            }
        }
    }

    #[test]
    fn merge_equals_fit_on_the_union((x, y, _) in data(), cut in 1usize..13) {
        let n = x.nrows();
        let cut = cut.min(n - 1);
        let all = dataset(&x, &y);
        let a: Vec<usize> = (0..cut).collect();
        let b: Vec<usize> = (cut..n).collect();
        let (da, db) = (dataset(&x.select(ndarray::Axis(0), &a), &y[..cut]),
                        dataset(&x.select(ndarray::Axis(0), &b), &y[cut..]));
        for nb in learners(0.5) {
            let kind = nb.info().name;
            let whole = nb.fit(&all).unwrap();
            assert_same(&whole, &merged(&nb, &[&da, &db]), all.x(), 1e-12, kind);
            // a part travels as its model, whose statistics resume
            let (ma, mb) = (nb.fit(&da).unwrap(), nb.fit(&db).unwrap());
            let mut resumed = ma.resume().unwrap();
            resumed.merge(&*mb.resume().unwrap()).unwrap();
            assert_same(&whole, &Model::new(resumed.finish().unwrap()), all.x(), 1e-12, kind);
            let mut streamed = ma.resume().unwrap();
            streamed.partial_fit(&db).unwrap();
            assert_same(&whole, &Model::new(streamed.finish().unwrap()), all.x(), 1e-12, kind);
        }
    }

    #[test]
    fn integer_weights_equal_repeated_rows((x, y, w) in data()) {
        let weighted = dataset(&x, &y)
            .with_weights(w.iter().map(|&v| v as f64).collect())
            .unwrap();
        let rows: Vec<usize> = w.iter().enumerate().flat_map(|(i, &k)| std::iter::repeat_n(i, k as usize)).collect();
        let reps: Vec<i64> = rows.iter().map(|&i| y[i]).collect();
        let repeated = dataset(&x.select(ndarray::Axis(0), &rows), &reps);
        for nb in learners(1.0) {
            assert_same(&nb.fit(&weighted).unwrap(), &nb.fit(&repeated).unwrap(), weighted.x(), 1e-12, nb.info().name);
        }
    }

    #[test]
    fn strong_smoothing_tends_to_the_prior((x, y, _) in data()) {
        let d = dataset(&x, &y);
        for nb in learners(1e12) {
            if !matches!(nb.info().name, "multinomial-nb" | "bernoulli-nb" | "categorical-nb") {
                continue;
            }
            let m = nb.fit(&d).unwrap();
            let p = m.predict_proba(d.x()).unwrap();
            for r in p.rows() {
                for (v, prior) in r.iter().zip(m.class_priors().unwrap()) {
                    prop_assert!((v - prior).abs() < 1e-6, "{}: {r} vs prior", nb.info().name);
                }
            }
        }
    }

    #[test]
    fn dense_and_sparse_give_the_same_model((x, y, w) in data()) {
        let weights: Vec<f64> = w.iter().map(|&v| v as f64 * 0.7).collect();
        let dense = dataset(&x, &y).with_weights(weights.clone()).unwrap();
        let labels: Vec<Label> = y.iter().map(|&v| Label::Int(v)).collect();
        let sparse = Dataset::new(CsrMatrix::from_dense(x.view()).into(), &labels)
            .unwrap()
            .with_weights(weights)
            .unwrap();
        for nb in learners(0.5) {
            let (a, b) = (nb.fit(&dense).unwrap(), nb.fit(&sparse).unwrap());
            assert_same(&a, &b, dense.x(), 1e-12, nb.info().name);
            assert_eq!(a.predict_proba(dense.x()).unwrap(), a.predict_proba(sparse.x()).unwrap());
        }
    }
}

#[test]
fn no_underflow_with_100000_features() {
    let nf = 100_000;
    let rows: Vec<Vec<(usize, f64)>> = vec![
        (0..nf).step_by(2).map(|j| (j, 3.0)).collect(),
        (1..nf).step_by(2).map(|j| (j, 3.0)).collect(),
    ];
    let x = CsrMatrix::from_rows(nf, &rows).unwrap();
    let d = Dataset::new(x.into(), &["even".into(), "odd".into()]).unwrap();
    let test: Features =
        CsrMatrix::from_rows(nf, &[(0..nf).map(|j| (j, 10.0 + (j % 2) as f64)).collect()])
            .unwrap()
            .into();
    for nb in learners(1.0) {
        let m = nb.fit(&d).unwrap();
        let jll = m.decision_function(&test).unwrap();
        assert!(jll.iter().all(|v| v.is_finite()), "{}", nb.info().name);
        let p = m.predict_proba(&test).unwrap();
        assert!(
            (p.sum() - 1.0).abs() < 1e-12 && p.iter().all(|v| v.is_finite()),
            "{}: {p}",
            nb.info().name
        );
    }
    // the multinomial scores are far below exp's range, yet the posterior is exact
    let m = learners(1.0).remove(1).fit(&d).unwrap();
    let jll = m.decision_function(&test).unwrap();
    assert!(jll[[0, 0]] < -1e6, "{jll}");
    let lp = m.predict_log_proba(&test).unwrap();
    assert!((lp[[0, 0]] - (jll[[0, 0]] - jll[[0, 1]])).abs() < 1e-6 * jll[[0, 0]].abs());
}

#[test]
fn single_class_gets_probability_one() {
    let d = Dataset::new(
        ndarray::array![[1.0, 0.0], [2.0, 1.0]].into(),
        &["a".into(), "a".into()],
    )
    .unwrap();
    for nb in learners(1.0) {
        let p = nb.fit(&d).unwrap().predict_proba(d.x()).unwrap();
        assert!(p.iter().all(|v| *v == 1.0), "{}: {p}", nb.info().name);
    }
}
