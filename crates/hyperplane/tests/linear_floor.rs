//! Logistic and softmax regression on real data: accuracy floors under 10-fold stratified
//! cross-validation, and the weighting and invariance properties of the fit.

use hyperplane::linear::{ClassWeight, LinearModel, Link, LogisticRegression, SoftmaxRegression};
use hyperplane::optim::Solver;
use hyperplane::{Classifier, CsrMatrix, Dataset, Features, Fit, Label};

use crate::common;

use common::{csv, cv_accuracy, standardised};

#[test]
fn softmax_regression_on_digits_reaches_the_floor() {
    let data = csv("digits.csv", 0);
    let acc = cv_accuracy(&data, |d| SoftmaxRegression::default().fit(d).unwrap());
    assert!(acc >= 0.96, "digits 10-fold accuracy {acc:.4} < 0.96");
}

#[test]
fn logistic_regression_on_breast_cancer_reaches_the_floor() {
    let data = csv("breast_cancer.csv", 1);
    let acc = cv_accuracy(&data, |d| LogisticRegression::default().fit(d).unwrap());
    assert!(
        acc >= 0.97,
        "breast cancer 10-fold accuracy {acc:.4} < 0.97"
    );
}

fn params(m: &LinearModel) -> Vec<f64> {
    m.coef()
        .iter()
        .chain(m.intercept().iter())
        .copied()
        .collect()
}

/// Every parameter within `tol` relative (absolute below 1). Unscaled iris is
/// ill-conditioned: two fits stopped by the same gradient tolerance agree to about 1e-6
/// relative on coefficients near 10, while a wrong weighting moves them by far more.
fn close(a: &LinearModel, b: &LinearModel, tol: f64) -> bool {
    params(a)
        .iter()
        .zip(params(b))
        .all(|(x, y)| (x - y).abs() <= tol * x.abs().max(1.0))
}

/// Iris: three classes, 150 rows (the features unscaled).
fn iris() -> Dataset<'static> {
    csv("iris.csv", 1)
}

#[test]
fn integer_weights_equal_repeated_rows() {
    for data in [iris(), standardised(csv("breast_cancer.csv", 1))] {
        let n = data.n_samples();
        let weights: Vec<f64> = (0..n).map(|i| (i % 3) as f64).collect();
        let repeated: Vec<usize> = (0..n).flat_map(|i| std::iter::repeat_n(i, i % 3)).collect();
        let weighted = data.clone().with_weights(weights).unwrap();
        let copies = data.select_rows(&repeated);
        let fit = |d: &Dataset| {
            if d.classes().len() == 2 {
                LogisticRegression::default().tol(1e-10).fit(d).unwrap()
            } else {
                // Newton: it converges to the tolerance, where L-BFGS on unscaled iris
                // stops on its relative-decrease rule, at a point that depends on rounding
                SoftmaxRegression::default()
                    .solver(Solver::Newton)
                    .tol(1e-10)
                    .fit(d)
                    .unwrap()
            }
        };
        let (a, b) = (fit(&weighted), fit(&copies));
        assert!(close(&a, &b, 1e-8), "{:?}\n{:?}", params(&a), params(&b));
    }
}

#[test]
fn class_weights_act_as_sample_weights_and_move_the_boundary() {
    let data = standardised(csv("breast_cancer.csv", 1));
    // class 0 weighted 5 equals sample weight 5 on its rows
    let by_class = LogisticRegression::default()
        .class_weight(ClassWeight::Given(vec![(Label::Int(0), 5.0)]))
        .tol(1e-10)
        .fit(&data)
        .unwrap();
    let w = data
        .targets()
        .iter()
        .map(|&t| if t == 0 { 5.0 } else { 1.0 })
        .collect();
    let by_sample = LogisticRegression::default()
        .tol(1e-10)
        .fit(&data.clone().with_weights(w).unwrap())
        .unwrap();
    assert!(close(&by_class, &by_sample, 1e-8));
    // a heavier class is predicted on more rows
    let plain = LogisticRegression::default().fit(&data).unwrap();
    let count0 = |m: &LinearModel| {
        m.predict_index(data.x())
            .unwrap()
            .iter()
            .filter(|&&k| k == 0)
            .count()
    };
    assert!(count0(&by_class) > count0(&plain));
    let e = LogisticRegression::default()
        .class_weight(ClassWeight::Given(vec![(Label::Int(7), 2.0)]))
        .fit(&data)
        .unwrap_err();
    assert!(e.to_string().contains("no such class"), "{e}");
}

#[test]
fn softmax_probabilities_ignore_a_shift_of_every_score() {
    let data = iris();
    let m = SoftmaxRegression::default().fit(&data).unwrap();
    let shifted = LinearModel::new(
        m.classes().to_vec(),
        m.coef().clone(),
        m.intercept().mapv(|b| b + 123.0),
        Link::Softmax,
        m.convergence().clone(),
    )
    .unwrap();
    let (p, q) = (
        m.predict_proba(data.x()).unwrap(),
        shifted.predict_proba(data.x()).unwrap(),
    );
    assert!(p.iter().zip(q.iter()).all(|(a, b)| (a - b).abs() < 1e-12));
    // the optimum: every row of W sums with the others to zero (the penalty picks the
    // centred one of all equivalent W + 1 c^T)
    let w = SoftmaxRegression::default().tol(1e-10).fit(&data).unwrap();
    for col in w.coef().columns() {
        assert!(col.sum().abs() < 1e-6, "{col}");
    }
}

#[test]
fn dense_and_sparse_input_give_the_same_model() {
    let data = iris();
    let sparse: Features = CsrMatrix::from_dense(data.x().to_dense().view()).into();
    let sp =
        Dataset::from_encoded(sparse, data.targets().to_vec(), data.classes().to_vec()).unwrap();
    // The sums run in another order on sparse rows; L-BFGS on unscaled iris stops on its
    // relative-decrease rule, where rounding moves the stopping point a little further.
    for (solver, tol) in [("newton", 1e-6), ("lbfgs", 1e-4)] {
        let p = SoftmaxRegression::default()
            .solver(solver.parse().unwrap())
            .tol(1e-10);
        let (a, b) = (p.fit(&data).unwrap(), p.fit(&sp).unwrap());
        let diff = params(&a)
            .iter()
            .zip(params(&b))
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(close(&a, &b, tol), "{solver}: {diff}");
    }
}
