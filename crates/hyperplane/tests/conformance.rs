//! The conformance suite: scikit-learn's estimator checks, translated, run on every model
//! kind the pipeline knows (`pipeline::kinds()`), so a new estimator joins by existing.
//!
//! The data are small non-negative integer counts, valid input for every family (counts for
//! multinomial NB, categories for categorical NB, reals for the rest), dense and sparse.

use hyperplane::data::{CsrMatrix, Dataset, Features, Label};
use hyperplane::pipeline::{kinds, Learner, Model};
use hyperplane::rng::Rng;
use hyperplane::{persist, Classifier};
use ndarray::Array2;

/// 90 rows x 6 features of counts 0..=4, three classes that shift the count distribution.
fn counts(seed: u64, n: usize) -> (Array2<f64>, Vec<usize>) {
    let mut rng = Rng::new(seed);
    let mut x = Array2::zeros((n, 6));
    let mut y = Vec::with_capacity(n);
    for i in 0..n {
        let c = i % 3;
        for j in 0..6 {
            let boost = if j / 2 == c { 2 } else { 0 };
            x[[i, j]] = (rng.below(3) + boost) as f64;
        }
        y.push(c);
    }
    (x, y)
}

fn labelled(x: Features, y: &[usize], names: &[Label]) -> Dataset {
    let labels: Vec<Label> = y.iter().map(|&c| names[c].clone()).collect();
    Dataset::new(x, &labels).unwrap()
}

fn default_names() -> Vec<Label> {
    vec!["a".into(), "b".into(), "c".into()]
}

fn data(sparse: bool) -> Dataset {
    let (x, y) = counts(1, 90);
    let x = if sparse {
        Features::Sparse(CsrMatrix::from_dense(x.view()))
    } else {
        Features::Dense(x)
    };
    labelled(x, &y, &default_names())
}

fn fit(kind: &str, ds: &Dataset) -> hyperplane::Result<Model> {
    Learner::from_kind(kind)?.fit(ds)
}

/// Probabilities when the model has them, else its scores (PLA, pocket, hinge SGD,
/// one-vs-one have no probabilities, and say so).
fn outputs(m: &Model, x: &Features) -> Array2<f64> {
    match m.predict_proba(x) {
        Ok(p) => p,
        Err(hyperplane::Error::Unsupported { .. }) => m.decision_function(x).unwrap(),
        Err(e) => panic!("{e}"),
    }
}

fn order_dependent(kind: &str) -> bool {
    Learner::from_kind(kind).unwrap().depends_on_row_order()
}

fn json(m: &Model) -> String {
    serde_json::to_string(m).unwrap()
}

fn assert_close(a: &Array2<f64>, b: &Array2<f64>, tol: f64, what: &str) {
    assert_eq!(a.dim(), b.dim(), "{what}: shapes differ");
    for (x, y) in a.iter().zip(b.iter()) {
        assert!((x - y).abs() <= tol, "{what}: {x} vs {y}");
    }
}

fn each_kind(check: impl Fn(&str, bool)) {
    let all = kinds();
    assert!(!all.is_empty());
    for kind in all {
        for sparse in [false, true] {
            check(kind, sparse);
        }
    }
}

#[test]
fn non_finite_values_are_rejected_at_fit_and_predict() {
    each_kind(|kind, _| {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let (mut x, y) = counts(2, 30);
            x[[4, 2]] = bad;
            let e = fit(
                kind,
                &labelled(Features::Dense(x.clone()), &y, &default_names()),
            )
            .unwrap_err()
            .to_string();
            assert!(
                e.contains("row 4") && e.contains("feature 2"),
                "{kind}: {e}"
            );
            let model = fit(kind, &data(false)).unwrap();
            let e = model.predict(&Features::Dense(x)).unwrap_err().to_string();
            assert!(e.contains("predict") && e.contains("row 4"), "{kind}: {e}");
        }
    });
    let e = Dataset::from_f64_labels(Features::Dense(Array2::zeros((2, 1))), &[0.0, f64::NAN])
        .unwrap_err()
        .to_string();
    assert!(e.contains('y') && e.contains("row 1"), "{e}");
}

#[test]
fn empty_inputs_are_rejected() {
    each_kind(|kind, _| {
        let no_rows = Dataset::new(Features::Dense(Array2::zeros((0, 3))), &[]).unwrap();
        let e = fit(kind, &no_rows).unwrap_err().to_string();
        assert!(e.contains("0 samples"), "{kind}: {e}");
        let no_cols = Dataset::new(
            Features::Dense(Array2::zeros((2, 0))),
            &[1.into(), 2.into()],
        )
        .unwrap();
        let e = fit(kind, &no_cols).unwrap_err().to_string();
        assert!(e.contains("0 features"), "{kind}: {e}");
    });
}

#[test]
fn one_sample_one_feature_and_one_class_are_handled() {
    each_kind(|kind, _| {
        let one = Dataset::new(
            Features::Dense(Array2::from_elem((1, 1), 2.0)),
            &["only".into()],
        )
        .unwrap();
        let m = fit(kind, &one).unwrap();
        assert_eq!(m.predict(one.x()).unwrap(), vec![Label::from("only")]);
        let p = m.predict_proba(one.x()).unwrap();
        assert!((p[[0, 0]] - 1.0).abs() < 1e-12, "{kind}: {p}");

        let (x, _) = counts(3, 30);
        let single = Dataset::new(Features::Dense(x), &vec![Label::Int(7); 30]).unwrap();
        let m = fit(kind, &single).unwrap();
        assert!(m
            .predict(single.x())
            .unwrap()
            .iter()
            .all(|l| *l == Label::Int(7)));
    });
}

#[test]
fn wrong_feature_count_names_both_counts() {
    each_kind(|kind, sparse| {
        let m = fit(kind, &data(sparse)).unwrap();
        let e = m
            .predict_proba(&Features::Dense(Array2::zeros((2, 4))))
            .unwrap_err()
            .to_string();
        assert!(e.contains('6') && e.contains('4'), "{kind}: {e}");
    });
}

#[test]
fn labels_of_every_kind_round_trip() {
    let sets: [Vec<Label>; 3] = [
        vec!["ham".into(), "spam".into(), "eggs".into()],
        vec![Label::Int(10), Label::Int(0), Label::Int(3)],
        vec![Label::Int(-1), Label::Int(1), Label::Int(1)],
    ];
    each_kind(|kind, sparse| {
        for names in &sets {
            let (x, y) = counts(4, 60);
            let x = if sparse {
                Features::Sparse(CsrMatrix::from_dense(x.view()))
            } else {
                Features::Dense(x)
            };
            let ds = labelled(x, &y, names);
            let m = fit(kind, &ds).unwrap();
            let mut expected: Vec<Label> = names.clone();
            expected.sort();
            expected.dedup();
            assert_eq!(m.classes(), &expected[..], "{kind}");
            let pred = m.predict(ds.x()).unwrap();
            assert!(pred.iter().all(|l| names.contains(l)), "{kind}: {pred:?}");
            let acc = pred
                .iter()
                .zip(ds.labels())
                .filter(|(p, t)| **p == *t)
                .count();
            assert!(acc * 2 > pred.len(), "{kind}: training accuracy too low");
        }
    });
}

#[test]
fn integer_weights_equal_repeated_rows() {
    each_kind(|kind, sparse| {
        let ds = data(sparse);
        let probe = data(false);
        let weights: Vec<f64> = (0..ds.n_samples()).map(|i| (i % 4) as f64).collect();
        let weighted = fit(kind, &ds.clone().with_weights(weights).unwrap()).unwrap();
        if order_dependent(kind) {
            // Visiting a repeated row again is not the same step as one weighted step, so
            // the algorithm's own file states its equivalence; here: weights are honoured,
            // and unit weights are no weights.
            let ones = fit(
                kind,
                &ds.clone().with_weights(vec![1.0; ds.n_samples()]).unwrap(),
            )
            .unwrap();
            assert_eq!(json(&ones), json(&fit(kind, &ds).unwrap()), "{kind}");
            assert_ne!(json(&weighted), json(&ones), "{kind}: weights ignored");
            return;
        }
        let repeated: Vec<usize> = (0..ds.n_samples())
            .flat_map(|i| std::iter::repeat_n(i, i % 4))
            .collect();
        let b = fit(kind, &ds.select_rows(&repeated)).unwrap();
        assert_close(
            &outputs(&weighted, probe.x()),
            &outputs(&b, probe.x()),
            1e-8,
            kind,
        );
    });
}

#[test]
fn fitting_twice_gives_the_same_model() {
    each_kind(|kind, sparse| {
        let ds = data(sparse);
        assert_eq!(
            json(&fit(kind, &ds).unwrap()),
            json(&fit(kind, &ds).unwrap()),
            "{kind}"
        );
    });
}

#[test]
fn predictions_do_not_depend_on_batching_or_row_order() {
    each_kind(|kind, sparse| {
        let ds = data(sparse);
        let m = fit(kind, &ds).unwrap();
        let all = outputs(&m, ds.x());
        let n = ds.n_samples();
        for start in (0..n).step_by(7) {
            let rows: Vec<usize> = (start..(start + 7).min(n)).collect();
            let part = outputs(&m, &ds.x().select_rows(&rows));
            for (k, &i) in rows.iter().enumerate() {
                assert_eq!(part.row(k), all.row(i), "{kind}: batch");
            }
        }
        let mut order: Vec<usize> = (0..n).collect();
        Rng::new(9).shuffle(&mut order);
        let shuffled = outputs(&m, &ds.x().select_rows(&order));
        for (k, &i) in order.iter().enumerate() {
            assert_eq!(shuffled.row(k), all.row(i), "{kind}: order");
        }
        // Training on shuffled rows gives the same predictions too, unless the algorithm
        // visits rows in order (PLA, pocket, SGD).
        if !order_dependent(kind) {
            let m2 = fit(kind, &ds.select_rows(&order)).unwrap();
            assert_close(&outputs(&m2, ds.x()), &all, 1e-8, kind);
        }
    });
}

#[test]
fn save_and_load_give_identical_predictions() {
    let dir = tempfile::tempdir().unwrap();
    each_kind(|kind, sparse| {
        let ds = data(sparse);
        let m = fit(kind, &ds).unwrap();
        let path = dir.path().join(format!("{kind}.json"));
        persist::save(&path, kind, &m).unwrap();
        let (info, back): (_, Model) = persist::load(&path).unwrap();
        assert_eq!(info.model_kind, kind);
        assert_eq!(outputs(&m, ds.x()), outputs(&back, ds.x()), "{kind}");
        assert_eq!(m.predict(ds.x()).unwrap(), back.predict(ds.x()).unwrap());
    });
}

#[test]
fn probabilities_are_normalised_or_refused() {
    let with_proba = std::sync::atomic::AtomicUsize::new(0);
    each_kind(|kind, sparse| {
        let ds = data(sparse);
        let m = fit(kind, &ds).unwrap();
        match m.predict_proba(ds.x()) {
            Ok(p) => {
                with_proba.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                for r in p.rows() {
                    assert!((r.sum() - 1.0).abs() < 1e-12, "{kind}: {r}");
                    assert!(r.iter().all(|v| (0.0..=1.0).contains(v)));
                }
            }
            Err(e) => {
                assert!(
                    matches!(e, hyperplane::Error::Unsupported { .. }),
                    "{kind}: {e}"
                );
                assert_eq!(m.decision_function(ds.x()).unwrap().ncols(), 3, "{kind}");
            }
        }
    });
    assert!(
        with_proba.into_inner() >= 2 * 5,
        "the Naive Bayes kinds give probabilities"
    );
}
