//! Conformance checks as a library: scikit-learn's estimator checks, translated, runnable on
//! any learner.
//!
//! [`check_classifier`], [`check_regressor`] and [`check_novelty`] fit the learner on small synthetic data
//! (counts `0..=5`, valid input for every family, its classes linearly separable), dense
//! and sparse, and return a [`Report`] with one [`CheckResult`] per check and storage. The test suite runs them on
//! every registered kind and on every choice of its choice parameters (solvers, losses,
//! orders); the Python package will run the same checks.
//!
//! | check | what must hold |
//! |---|---|
//! | `non_finite_rejected` | NaN and infinities are errors at fit and predict, naming row (counted from 1) and feature |
//! | `empty_rejected` | 0 samples and 0 features are errors saying so |
//! | `tiny_inputs` | 1 sample, 1 feature, a single class are handled |
//! | `feature_count_checked` | predicting on the wrong width is an error naming both counts |
//! | `labels_round_trip` | text, integer and -1/+1 labels come back as given (classifiers) |
//! | `weights_are_repeats` | integer sample weights give the model of repeated rows, to 1e-6 relative (order-dependent learners: unit weights are no weights, and weights change the model) |
//! | `fit_is_idempotent` | fitting twice gives the same model, to the bit |
//! | `batch_and_order_invariant` | predictions do not depend on batching or row order; nor, for learners that do not visit rows in order, does the model |
//! | `sparse_equals_dense` | the same rows as CSR give the same predictions (1e-6 relative; 1e-3 for learners that step row by row, whose rounding compounds) |
//! | `borrowed_equals_owned` | the same rows lent as views (row- and column-major dense, CSR of int32 / int64 indices and f64 / f32 values) give the model fitted on owned data, to the bit, and the same predictions |
//! | `save_load_round_trip` | a saved and loaded model predicts the same, to the bit |
//! | `probabilities_normalised` | probabilities sum to 1, or are refused as unsupported (classifiers) |
//!
//! A check that panics is reported as failed with the panic message: a report is always
//! returned.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

use ndarray::{Array2, ShapeBuilder};
use serde::Serialize;

use crate::data::{CsrMatrix, CsrView, Dataset, Features, Label};
use crate::error::Error;
use crate::estimator::Classifier;
use crate::pipeline::{Learner, Model};
use crate::rng::Rng;

/// How one check ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", content = "detail", rename_all = "snake_case")]
pub enum Outcome {
    Passed,
    /// What did not hold.
    Failed(String),
}

/// One check on one storage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckResult {
    /// The check, as the module table names it.
    pub check: &'static str,
    /// Whether it ran on sparse (CSR) input.
    pub sparse: bool,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// Every check run on one learner.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// What was checked (a kind, with its settings).
    pub estimator: String,
    pub results: Vec<CheckResult>,
}

impl Report {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.failures().is_empty()
    }

    /// The checks that failed.
    pub fn failures(&self) -> Vec<&CheckResult> {
        self.results
            .iter()
            .filter(|r| r.outcome != Outcome::Passed)
            .collect()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failed = self.failures();
        writeln!(
            f,
            "{}: {} of {} checks passed",
            self.estimator,
            self.results.len() - failed.len(),
            self.results.len()
        )?;
        for r in failed {
            if let Outcome::Failed(why) = &r.outcome {
                let storage = if r.sparse { "sparse" } else { "dense" };
                writeln!(f, "  {} ({storage}): {why}", r.check)?;
            }
        }
        Ok(())
    }
}

type Check = Result<(), String>;

/// Fails the check with a message unless `cond`.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        {
            let holds: bool = $cond;
            if !holds {
                return Err(format!($($msg)+));
            }
        }
    };
}

/// The estimator under check: a classifier, a regressor or a novelty detector, fitted
/// through one call.
struct Subject<'a> {
    learner: &'a Learner,
    regressor: bool,
    /// Predicts the training rows' labels (a classifier; not a novelty detector).
    labels: bool,
}

impl Subject<'_> {
    /// Fits on `x` with the targets of `ds` (classes, or the class index as a real number
    /// for a regressor).
    fn fit(&self, ds: &Dataset) -> Result<Model, Error> {
        if self.regressor {
            let y = Array2::from_shape_fn((ds.n_samples(), 1), |(i, _)| ds.targets()[i] as f64);
            self.learner.fit(&ds.with_values(y)?)
        } else {
            self.learner.fit(ds)
        }
    }

    /// Probabilities when the model has them, else its scores (classifiers); predictions
    /// (regressors).
    fn outputs(&self, m: &Model, x: &Features) -> Result<Array2<f64>, String> {
        if self.regressor {
            return m.predict_values(x).map_err(|e| e.to_string());
        }
        match m.predict_proba(x) {
            Ok(p) => Ok(p),
            Err(Error::Unsupported { .. }) => m.decision_function(x).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        }
    }

    fn order_dependent(&self) -> bool {
        self.learner.depends_on_row_order()
    }
}

/// 6 features of counts 0..=5; three classes that shift the count distribution: class `c`
/// draws features `2c` and `2c + 1` from 3..=5, the others from 0..=2 (so any two groups
/// of classes are linearly separable, as the maximum-margin classifier needs).
fn counts(seed: u64, n: usize) -> (Array2<f64>, Vec<usize>) {
    let mut rng = Rng::new(seed);
    let mut x = Array2::zeros((n, 6));
    let mut y = Vec::with_capacity(n);
    for i in 0..n {
        let c = i % 3;
        for j in 0..6 {
            let boost = if j / 2 == c { 3 } else { 0 };
            x[[i, j]] = (rng.below(3) + boost) as f64;
        }
        y.push(c);
    }
    (x, y)
}

fn storage(x: Array2<f64>, sparse: bool) -> Features<'static> {
    if sparse {
        Features::Sparse(CsrMatrix::from_dense(x.view()))
    } else {
        Features::from(x)
    }
}

fn labelled(
    x: Features<'static>,
    y: &[usize],
    names: &[Label],
) -> Result<Dataset<'static>, String> {
    let labels: Vec<Label> = y.iter().map(|&c| names[c].clone()).collect();
    Dataset::new(x, &labels).map_err(|e| e.to_string())
}

fn names() -> Vec<Label> {
    vec!["a".into(), "b".into(), "c".into()]
}

/// The standard data set: 90 rows.
fn data(sparse: bool) -> Result<Dataset<'static>, String> {
    let (x, y) = counts(1, 90);
    labelled(storage(x, sparse), &y, &names())
}

fn json(m: &Model) -> Result<String, String> {
    serde_json::to_string(m).map_err(|e| e.to_string())
}

fn close(a: &Array2<f64>, b: &Array2<f64>, tol: f64, what: &str) -> Check {
    ensure!(
        a.dim() == b.dim(),
        "{what}: shapes {:?} and {:?}",
        a.dim(),
        b.dim()
    );
    for (x, y) in a.iter().zip(b.iter()) {
        ensure!((x - y).abs() <= tol * (1.0 + x.abs()), "{what}: {x} vs {y}");
    }
    Ok(())
}

/// Relative tolerance between two fits of the same problem: an iterative solver stops
/// within its own tolerance of the optimum, at a slightly different point each time the
/// rows come in another form (weights or repeats, another order, CSR).
const REFIT_TOL: f64 = 1e-6;

fn fit_ok(s: &Subject, ds: &Dataset) -> Result<Model, String> {
    s.fit(ds).map_err(|e| format!("fit failed: {e}"))
}

fn non_finite_rejected(s: &Subject, sparse: bool) -> Check {
    let model = fit_ok(s, &data(sparse)?)?;
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let (mut x, y) = counts(2, 30);
        x[[4, 2]] = bad;
        let e = match s.fit(&labelled(storage(x.clone(), sparse), &y, &names())?) {
            Ok(_) => return Err(format!("fit accepted {bad}")),
            Err(e) => e.to_string(),
        };
        // the fifth row: messages count rows from 1
        ensure!(
            e.contains("row 5") && e.contains("feature 2"),
            "fit error on {bad}: {e}"
        );
        let e = match s.outputs(&model, &storage(x, sparse)) {
            Ok(_) => return Err(format!("predict accepted {bad}")),
            Err(e) => e,
        };
        ensure!(
            e.contains("predict") && e.contains("row 5"),
            "predict error on {bad}: {e}"
        );
    }
    Ok(())
}

fn empty_rejected(s: &Subject, _: bool) -> Check {
    let no_rows = Dataset::new(Features::from(Array2::<f64>::zeros((0, 3))), &[])
        .map_err(|e| e.to_string())?;
    match s.fit(&no_rows) {
        Ok(_) => return Err("fit accepted 0 samples".into()),
        Err(e) => ensure!(e.to_string().contains("0 samples"), "0 samples: {e}"),
    }
    let no_cols = Dataset::new(
        Features::from(Array2::<f64>::zeros((2, 0))),
        &[1.into(), 2.into()],
    )
    .map_err(|e| e.to_string())?;
    match s.fit(&no_cols) {
        Ok(_) => Err("fit accepted 0 features".into()),
        Err(e) => {
            ensure!(e.to_string().contains("0 features"), "0 features: {e}");
            Ok(())
        }
    }
}

fn tiny_inputs(s: &Subject, sparse: bool) -> Check {
    let one = Dataset::new(
        storage(Array2::from_elem((1, 1), 2.0), sparse),
        &[Label::Int(1)],
    )
    .map_err(|e| e.to_string())?;
    let m = fit_ok(s, &one)?;
    let out = s.outputs(&m, one.x())?;
    ensure!(
        out.dim() == (1, if s.regressor { 1 } else { out.ncols() }),
        "shape {:?}",
        out.dim()
    );
    if s.labels {
        ensure!(
            m.predict(one.x()).map_err(|e| e.to_string())? == vec![Label::Int(1)],
            "1 sample: wrong class"
        );
        let (x, _) = counts(3, 30);
        let single = Dataset::new(storage(x, sparse), &vec![Label::Int(7); 30])
            .map_err(|e| e.to_string())?;
        let m = fit_ok(s, &single)?;
        let pred = m.predict(single.x()).map_err(|e| e.to_string())?;
        ensure!(
            pred.iter().all(|l| *l == Label::Int(7)),
            "a single class: predicted {pred:?}"
        );
    } else {
        ensure!(out.iter().all(|v| v.is_finite()), "1 sample: {out}");
    }
    Ok(())
}

fn feature_count_checked(s: &Subject, sparse: bool) -> Check {
    let m = fit_ok(s, &data(sparse)?)?;
    match s.outputs(&m, &Features::from(Array2::<f64>::zeros((2, 4)))) {
        Ok(_) => Err("predicted on 4 features after fitting on 6".into()),
        Err(e) => {
            ensure!(e.contains('6') && e.contains('4'), "{e}");
            Ok(())
        }
    }
}

fn labels_round_trip(s: &Subject, sparse: bool) -> Check {
    let sets: [Vec<Label>; 3] = [
        vec!["ham".into(), "spam".into(), "eggs".into()],
        vec![Label::Int(10), Label::Int(0), Label::Int(3)],
        vec![Label::Int(-1), Label::Int(1), Label::Int(1)],
    ];
    for names in &sets {
        let (x, y) = counts(4, 60);
        let ds = labelled(storage(x, sparse), &y, names)?;
        let m = fit_ok(s, &ds)?;
        let mut expected = names.clone();
        expected.sort();
        expected.dedup();
        ensure!(
            m.classes() == &expected[..],
            "classes {:?}, expected {expected:?}",
            m.classes()
        );
        let pred = m.predict(ds.x()).map_err(|e| e.to_string())?;
        ensure!(pred.iter().all(|l| names.contains(l)), "predicted {pred:?}");
        let right = pred
            .iter()
            .zip(ds.labels())
            .filter(|(p, t)| **p == *t)
            .count();
        ensure!(
            right * 2 > pred.len(),
            "training accuracy {right} of {}",
            pred.len()
        );
    }
    Ok(())
}

fn weights_are_repeats(s: &Subject, sparse: bool) -> Check {
    let ds = data(sparse)?;
    let probe = data(false)?;
    let w: Vec<f64> = (0..ds.n_samples()).map(|i| (i % 4) as f64).collect();
    let weighted = fit_ok(s, &ds.clone().with_weights(w).map_err(|e| e.to_string())?)?;
    if s.order_dependent() {
        // Visiting a repeated row again is not one weighted step; the algorithm's file
        // states what holds. Here: unit weights are no weights, and weights are honoured.
        let n = ds.n_samples();
        let ones = fit_ok(
            s,
            &ds.clone()
                .with_weights(vec![1.0; n])
                .map_err(|e| e.to_string())?,
        )?;
        ensure!(
            json(&ones)? == json(&fit_ok(s, &ds)?)?,
            "unit weights changed the model"
        );
        ensure!(json(&weighted)? != json(&ones)?, "the weights were ignored");
        return Ok(());
    }
    let repeated: Vec<usize> = (0..ds.n_samples())
        .flat_map(|i| std::iter::repeat_n(i, i % 4))
        .collect();
    let b = fit_ok(s, &ds.select_rows(&repeated))?;
    close(
        &s.outputs(&weighted, probe.x())?,
        &s.outputs(&b, probe.x())?,
        REFIT_TOL,
        "weights vs repeated rows",
    )
}

fn fit_is_idempotent(s: &Subject, sparse: bool) -> Check {
    let ds = data(sparse)?;
    ensure!(
        json(&fit_ok(s, &ds)?)? == json(&fit_ok(s, &ds)?)?,
        "two fits differ"
    );
    Ok(())
}

fn batch_and_order_invariant(s: &Subject, sparse: bool) -> Check {
    let ds = data(sparse)?;
    let m = fit_ok(s, &ds)?;
    let all = s.outputs(&m, ds.x())?;
    let n = ds.n_samples();
    for start in (0..n).step_by(7) {
        let rows: Vec<usize> = (start..(start + 7).min(n)).collect();
        let part = s.outputs(&m, &ds.x().select_rows(&rows))?;
        for (k, &i) in rows.iter().enumerate() {
            ensure!(part.row(k) == all.row(i), "row {i} differs in a batch of 7");
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    Rng::new(9).shuffle(&mut order);
    let shuffled = s.outputs(&m, &ds.x().select_rows(&order))?;
    for (k, &i) in order.iter().enumerate() {
        ensure!(
            shuffled.row(k) == all.row(i),
            "row {i} differs in shuffled order"
        );
    }
    if !s.order_dependent() {
        let m2 = fit_ok(s, &ds.select_rows(&order))?;
        close(
            &s.outputs(&m2, ds.x())?,
            &all,
            REFIT_TOL,
            "fitted on shuffled rows",
        )?;
    }
    Ok(())
}

fn sparse_equals_dense(s: &Subject, _: bool) -> Check {
    let (dense, sparse) = (data(false)?, data(true)?);
    let (a, b) = (fit_ok(s, &dense)?, fit_ok(s, &sparse)?);
    // A dense row's dot product (ndarray's unrolled sum) and a CSR row's (non-zeros in
    // order) round differently; a learner that steps row by row compounds that over
    // thousands of steps (SGD with modified Huber loss here: 1.6e-4 relative).
    let tol = if s.order_dependent() { 1e-3 } else { REFIT_TOL };
    close(
        &s.outputs(&a, dense.x())?,
        &s.outputs(&b, sparse.x())?,
        tol,
        "sparse vs dense",
    )
}

/// The same rows lent by a host (dense views in row- and column-major order, CSR over
/// int32 / int64 index slices with f64 / f32 values) give the model fitted on owned data,
/// to the bit, and predict the same through views.
fn borrowed_equals_owned(s: &Subject, _: bool) -> Check {
    let (x, _) = counts(1, 90); // the rows of `data`
    let (n, d) = x.dim();
    let (owned_dense, owned_sparse) = (data(false)?, data(true)?);
    let (dense_model, sparse_model) = (fit_ok(s, &owned_dense)?, fit_ok(s, &owned_sparse)?);
    let column_major = Array2::from_shape_vec((n, d).f(), x.t().iter().copied().collect())
        .map_err(|e| e.to_string())?;
    let csr = CsrMatrix::from_dense(x.view());
    let p32: Vec<i32> = csr.indptr().iter().map(|&p| p as i32).collect();
    let i32s: Vec<i32> = csr.indices().iter().map(|&j| j as i32).collect();
    let (p64, i64s): (Vec<i64>, Vec<i64>) = (
        p32.iter().map(|&p| p.into()).collect(),
        i32s.iter().map(|&j| j.into()).collect(),
    );
    let f32s: Vec<f32> = csr.data().iter().map(|&v| v as f32).collect();
    let lent: [(&str, Features, &Model, &Dataset); 4] = [
        (
            "a row-major view",
            x.view().into(),
            &dense_model,
            &owned_dense,
        ),
        (
            "a column-major view",
            column_major.view().into(),
            &dense_model,
            &owned_dense,
        ),
        (
            "CSR of int32 and f64",
            CsrView::new(d, &p32, &i32s, csr.data())
                .map_err(|e| e.to_string())?
                .into(),
            &sparse_model,
            &owned_sparse,
        ),
        (
            "CSR of int64 and f32",
            CsrView::new(d, &p64, &i64s, &f32s)
                .map_err(|e| e.to_string())?
                .into(),
            &sparse_model,
            &owned_sparse,
        ),
    ];
    for (what, features, owned_model, owned) in lent {
        let borrowed = Dataset::new(features, &owned.labels()).map_err(|e| e.to_string())?;
        let model = fit_ok(s, &borrowed)?;
        ensure!(
            json(&model)? == json(owned_model)?,
            "fitted on {what}: the model differs from the one fitted on owned data"
        );
        ensure!(
            s.outputs(&model, borrowed.x())? == s.outputs(owned_model, owned.x())?,
            "predicting on {what} differs from predicting on owned data"
        );
    }
    Ok(())
}

/// Numbers the model files of checks running at once.
static NEXT_FILE: AtomicUsize = AtomicUsize::new(0);

fn save_load_round_trip(s: &Subject, sparse: bool) -> Check {
    let ds = data(sparse)?;
    let m = fit_ok(s, &ds)?;
    let dir = std::env::temp_dir().join(format!("hyperplane-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(format!(
        "model-{}.json",
        NEXT_FILE.fetch_add(1, Ordering::Relaxed)
    ));
    let saved = crate::persist::save(&path, "check", &m).map_err(|e| e.to_string());
    let loaded =
        saved.and_then(|()| crate::persist::load::<Model>(&path).map_err(|e| e.to_string()));
    let _ = std::fs::remove_file(&path);
    let (_, back) = loaded?;
    ensure!(
        s.outputs(&m, ds.x())? == s.outputs(&back, ds.x())?,
        "loaded model predicts differently"
    );
    Ok(())
}

fn probabilities_normalised(s: &Subject, sparse: bool) -> Check {
    let ds = data(sparse)?;
    let m = fit_ok(s, &ds)?;
    match m.predict_proba(ds.x()) {
        Ok(p) => {
            for r in p.rows() {
                ensure!((r.sum() - 1.0).abs() < 1e-12, "a row sums to {}", r.sum());
                ensure!(
                    r.iter().all(|v| (0.0..=1.0).contains(v)),
                    "a probability outside [0, 1]: {r}"
                );
            }
            if m.predicts_most_probable() {
                // the claim lets callers skip predict: it must hold
                let predicted = m.predict_index(ds.x()).map_err(|e| e.to_string())?;
                ensure!(
                    predicted == first_largest(&p),
                    "predicts_most_probable, yet predict differs from the most probable class"
                );
            }
            Ok(())
        }
        Err(Error::Unsupported { .. }) => {
            let scores = m.decision_function(ds.x()).map_err(|e| e.to_string())?;
            ensure!(
                scores.ncols() == 3,
                "{} score columns for 3 classes",
                scores.ncols()
            );
            if m.predicts_largest_score() {
                // the claim lets callers skip predict: it must hold
                let predicted = m.predict_index(ds.x()).map_err(|e| e.to_string())?;
                ensure!(
                    predicted == first_largest(&scores),
                    "predicts_largest_score, yet predict differs from the largest score"
                );
            }
            Ok(())
        }
        Err(e) => Err(format!("predict_proba failed: {e}")),
    }
}

/// The column of each row's first largest value.
fn first_largest(a: &Array2<f64>) -> Vec<usize> {
    a.rows()
        .into_iter()
        .map(|r| crate::numeric::argmax(&r.to_vec()))
        .collect()
}

type CheckFn = fn(&Subject, bool) -> Check;

/// The checks of both kinds of estimator, then those of classifiers only.
const COMMON: [(&str, CheckFn); 8] = [
    ("non_finite_rejected", non_finite_rejected),
    ("empty_rejected", empty_rejected),
    ("tiny_inputs", tiny_inputs),
    ("feature_count_checked", feature_count_checked),
    ("weights_are_repeats", weights_are_repeats),
    ("fit_is_idempotent", fit_is_idempotent),
    ("batch_and_order_invariant", batch_and_order_invariant),
    ("save_load_round_trip", save_load_round_trip),
];
const CLASSIFIER_ONLY: [(&str, CheckFn); 2] = [
    ("labels_round_trip", labels_round_trip),
    ("probabilities_normalised", probabilities_normalised),
];
/// Checks that compare storages run once.
const ONCE: [(&str, CheckFn); 2] = [
    ("sparse_equals_dense", sparse_equals_dense),
    ("borrowed_equals_owned", borrowed_equals_owned),
];

fn run(estimator: &str, subject: &Subject) -> Report {
    let mut checks: Vec<(&'static str, CheckFn)> = COMMON.to_vec();
    if subject.labels {
        checks.extend(CLASSIFIER_ONLY);
    }
    let mut results = Vec::new();
    let mut record = |check: &'static str, sparse: bool, f: CheckFn| {
        let outcome = match catch_unwind(AssertUnwindSafe(|| f(subject, sparse))) {
            Ok(Ok(())) => Outcome::Passed,
            Ok(Err(why)) => Outcome::Failed(why),
            Err(panic) => Outcome::Failed(format!(
                "panicked: {}",
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            )),
        };
        results.push(CheckResult {
            check,
            sparse,
            outcome,
        });
    };
    for (name, f) in checks {
        for sparse in [false, true] {
            record(name, sparse, f);
        }
    }
    for (name, f) in ONCE {
        record(name, true, f);
    }
    Report {
        estimator: estimator.to_string(),
        results,
    }
}

/// Runs every classifier check on `learner`; `estimator` names it in the report.
pub fn check_classifier(estimator: &str, learner: &Learner) -> Report {
    run(
        estimator,
        &Subject {
            learner,
            regressor: false,
            labels: true,
        },
    )
}

/// Runs every check that a novelty detector (its classes are `-1` and `1`, whatever the
/// rows' labels) must pass: all but the two of labels and probabilities.
pub fn check_novelty(estimator: &str, learner: &Learner) -> Report {
    run(
        estimator,
        &Subject {
            learner,
            regressor: false,
            labels: false,
        },
    )
}

/// Runs every regressor check on `learner` (targets: the class index of the standard
/// data, as a real number); `estimator` names it in the report.
pub fn check_regressor(estimator: &str, learner: &Learner) -> Report {
    run(
        estimator,
        &Subject {
            learner,
            regressor: true,
            labels: false,
        },
    )
}
