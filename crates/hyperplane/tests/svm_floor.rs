//! Kernel SVMs on real data: accuracy floors under 10-fold stratified cross-validation
//! (scikit-learn's `SVC()` with standard scaling: digits .982, breast_cancer .975), and the
//! optimality conditions of the dual at the returned solution.

use hyperplane::svm::{Dual, KernelKind, Svc, SvmModel};
use hyperplane::{Dataset, Fit, Label};
use ndarray::Array2;

use crate::common;

use common::{csv, cv_accuracy, standardised};

const DIR: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn svc_on_digits_reaches_the_floor() {
    let accuracy = cv_accuracy(&csv("digits.csv", 0), |d| Svc::default().fit(d).unwrap());
    assert!(accuracy >= 0.98, "digits: {accuracy}");
}

#[test]
fn svc_on_breast_cancer_reaches_the_floor() {
    let accuracy = cv_accuracy(&csv("breast_cancer.csv", 1), |d| {
        Svc::default().fit(d).unwrap()
    });
    assert!(accuracy >= 0.97, "breast_cancer: {accuracy}");
}

/// `f(x_i)` of a binary model at its training rows, in the orientation of its dual (the
/// class seen first is `+1`).
fn kkt_violation(model: &SvmModel, data: &Dataset, c: f64) -> f64 {
    let f = model.decision_values_ovo(data.x()).unwrap();
    // the pair (0, 1): positive votes for class 0, the +1 side
    let coef = &model.dual_coef[0];
    let mut worst = 0.0f64;
    let mut alpha = vec![0.0; data.n_samples()];
    for (s, &row) in model.support.iter().enumerate() {
        alpha[row] = coef[s].abs();
    }
    for i in 0..data.n_samples() {
        let y = if data.targets()[i] == 0 { 1.0 } else { -1.0 };
        let m = y * f[[i, 0]]; // the functional margin
                               // a = 0: m >= 1; 0 < a < C: m = 1; a = C: m <= 1
        let v = if alpha[i] == 0.0 {
            (1.0 - m).max(0.0)
        } else if alpha[i] < c {
            (m - 1.0).abs()
        } else {
            (m - 1.0).max(0.0)
        };
        worst = worst.max(v);
    }
    worst
}

#[test]
fn the_solution_meets_the_optimality_conditions_within_tol() {
    let data = standardised(csv("breast_cancer.csv", 1));
    for kernel in [KernelKind::Linear, KernelKind::Rbf, KernelKind::Poly] {
        for tol in [1e-3, 1e-6] {
            let svc = Svc {
                c: 2.0,
                dual: Dual {
                    kernel,
                    tol,
                    ..Dual::default()
                },
                ..Svc::default()
            };
            let model = svc.fit(&data).unwrap();
            // sum_i y_i a_i = 0
            let sum: f64 = model.dual_coef[0].iter().sum();
            assert!(sum.abs() < 1e-10, "{kernel}: sum y a = {sum}");
            // the stopping rule bounds the violation of each condition by about tol
            // (single-precision kernel values add about 1e-6)
            let v = kkt_violation(&model, &data, 2.0);
            assert!(v < tol + 1e-5, "{kernel} tol {tol}: KKT violated by {v}");
        }
    }
}

/// Iris setosa against versicolor: linearly separable.
fn setosa_versicolor() -> Dataset<'static> {
    let text = std::fs::read_to_string(format!("{DIR}/tests/data/iris.csv")).unwrap();
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .filter(|r: &Vec<f64>| r[4] < 2.0)
        .collect();
    let x = Array2::from_shape_fn((rows.len(), 4), |(i, j)| rows[i][j]);
    let y: Vec<Label> = rows.iter().map(|r| Label::Int(r[4] as i64)).collect();
    Dataset::new(x.into(), &y).unwrap()
}

#[test]
fn the_maximum_margin_is_at_least_every_other_separators_and_svc_with_a_huge_c_finds_it() {
    use hyperplane::linear::{margins, LinearModel, LogisticRegression, Perceptron};
    use hyperplane::svm::HardMargin;
    let data = setosa_versicolor();
    let gamma = |m: &LinearModel| margins(m, data.x(), data.targets()).unwrap().min_geometric;
    let hard = HardMargin::default().fit(&data).unwrap();
    let best = gamma(&hard);
    // every row on the margin or beyond: functional margins >= 1, equality at the SVs
    let m = margins(&hard, data.x(), data.targets()).unwrap();
    assert!(
        (m.min_functional - 1.0).abs() < 1e-9,
        "{}",
        m.min_functional
    );
    assert!((best - 1.0 / m.weight_norm).abs() < 1e-9 * best);
    let pla = Perceptron::default().fit(&data).unwrap();
    let logistic = LogisticRegression::default().c(1e4).fit(&data).unwrap();
    for (what, other) in [("PLA", &pla), ("logistic regression", &logistic)] {
        let g = gamma(other);
        assert!(g > 0.0, "{what} separates the rows");
        assert!(best >= g, "{what}'s margin {g} beats the maximum {best}");
    }
    // the soft margin with C above every a_i is the hard margin
    let svc = Svc {
        c: 1e6,
        dual: Dual {
            kernel: KernelKind::Linear,
            tol: 1e-9,
            ..Dual::default()
        },
        ..Svc::default()
    };
    let soft = svc.fit(&data).unwrap();
    let x = data.x().to_dense();
    let mut w = [0.0; 4];
    for (s, &row) in soft.support.iter().enumerate() {
        for j in 0..4 {
            // the pair (0, 1): class 0 is +1, so w here scores class 0
            w[j] -= soft.dual_coef[0][s] * x[[row, j]];
        }
    }
    let norm = w.iter().map(|v| v * v).sum::<f64>().sqrt();
    assert!(
        ((1.0 / norm) - best).abs() < 1e-6 * best,
        "svc: {} vs {best}",
        1.0 / norm
    );
    for (a, b) in w.iter().zip(hard.weights(0).iter()) {
        assert!((a - b).abs() < 1e-6 * norm, "{w:?} vs {}", hard.weights(0));
    }
}
