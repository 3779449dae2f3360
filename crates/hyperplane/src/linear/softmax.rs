//! Softmax (multinomial logistic) regression with L2 regularisation, as scikit-learn's
//! `LogisticRegression(solver="lbfgs")` on more than two classes:
//!
//! ```text
//! f(W, b) = 1/2 ||W||^2 + C sum_n c_n (logsumexp_k(s_nk) - s_{n y_n}),   s_nk = W_k.x_n + b_k
//! grad_Wk = W_k + C sum_n c_n (p_nk - [y_n = k]) x_n,                    p_n = softmax(s_n)
//! H v     = v + C sum_n c_n (diag(p_n) - p_n p_n^T) u_n  (x) x_n,         u_nk = V_k.x_n + v_bk
//! ```
//!
//! with one weight row per class (`W` is `K x d`, the intercepts `b` not penalised).
//! scikit-learn minimises `f / (C sum_n c_n)`, which has the same minimiser. On two classes
//! the fitted rows are folded into the single row `W_1 - W_0` of a binary model, which
//! gives the same probabilities `sigma(s_1 - s_0)`.

use std::ops::Range;

use ndarray::{Array1, Array2};

use crate::data::{Dataset, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::{Fit, Kind, KindInfo};
use crate::linear::cross_entropy::{class_counts, single_class_model, training_setters, Training};
use crate::optim::{Objective, Penalty, Solver};
use crate::score::{LinearModel, Link};
use crate::weights::{row_weights, ClassWeight};
use crate::with_rows;

const NAME: &str = "softmax-regression";

crate::params! {
    /// Params of softmax regression: the [`Training`] params, with `solver` `lbfgs` by
    /// default (`auto` is `lbfgs`; `sgd` and `newton-cholesky` are refused). `init` holds the `K x d` weights row by row, then the `K`
    /// intercepts when `fit_intercept`.
    #[derive(Clone, Debug, PartialEq)]
    pub struct SoftmaxRegression {
        pub training: Training,
    }
    schema "softmax-regression" {
        ..training: Training;
    }
}

impl Default for SoftmaxRegression {
    fn default() -> Self {
        SoftmaxRegression {
            training: Training::with_solver(Solver::Lbfgs),
        }
    }
}

training_setters!(SoftmaxRegression);

/// The data term `C sum_n c_n (-ln softmax(s_n)_{y_n})`; parameters are `W` row by row,
/// then the intercepts.
pub(crate) struct MultinomialCrossEntropy<'a, M: RowAccess> {
    pub x: &'a M,
    pub targets: &'a [usize],
    pub n_classes: usize,
    /// `C c_n`.
    pub weight: &'a [f64],
    pub fit_intercept: bool,
}

impl<M: RowAccess> MultinomialCrossEntropy<'_, M> {
    /// `s_k = W_k.x_i + b_k` into `s`.
    fn row_scores(&self, w: &[f64], i: usize, s: &mut [f64]) {
        let d = self.x.n_cols();
        let k = self.n_classes;
        for (c, sc) in s.iter_mut().enumerate() {
            *sc = self.x.dot_row(i, &w[c * d..(c + 1) * d]);
            if self.fit_intercept {
                *sc += w[k * d + c];
            }
        }
    }

    /// Turns the scores `s` of row `i` into the probabilities `p = softmax(s)` and returns
    /// the row's loss `C c_i (ln sum_k exp(s_k) - s_y)`, computed stably after subtracting
    /// `max_k s_k`.
    fn probabilities(&self, i: usize, s: &mut [f64]) -> f64 {
        let max = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let shifted_y = s[self.targets[i]] - max;
        let mut z = 0.0;
        for v in s.iter_mut() {
            *v = (*v - max).exp();
            z += *v;
        }
        // -ln p_y = ln z - (s_y - max), with z = sum_k exp(s_k - max) >= 1
        let loss = self.weight[i] * (z.ln() - shifted_y);
        s.iter_mut().for_each(|v| *v /= z);
        loss
    }

    /// Turns row `i`'s probabilities `p` into the derivatives of its loss in its scores,
    /// `C c_i (p_k - [k = y_i])`.
    fn score_derivatives(&self, i: usize, p: &mut [f64]) {
        let (c, y) = (self.weight[i], self.targets[i]);
        for (j, v) in p.iter_mut().enumerate() {
            *v = c * (*v - f64::from(u8::from(j == y)));
        }
    }

    /// `grad_Wk += a_k x_i` (and `grad_bk += a_k`) for every class.
    fn add_outer(&self, i: usize, a: &[f64], out: &mut [f64]) {
        let d = self.x.n_cols();
        let k = self.n_classes;
        for (c, &ac) in a.iter().enumerate() {
            if ac != 0.0 {
                self.x.add_row_scaled(i, ac, &mut out[c * d..(c + 1) * d]);
                if self.fit_intercept {
                    out[k * d + c] += ac;
                }
            }
        }
    }
}

impl<M: RowAccess> Objective for MultinomialCrossEntropy<'_, M> {
    fn dim(&self) -> usize {
        self.n_classes * (self.x.n_cols() + usize::from(self.fit_intercept))
    }
    fn n_rows(&self) -> usize {
        self.x.n_rows()
    }
    /// `1/2 ||W||^2`, the intercepts free.
    fn penalty(&self) -> Penalty {
        Penalty::l2(self.n_classes * self.x.n_cols())
    }
    /// `C c_n`, then `p_n1 .. p_nK`.
    fn curvature_width(&self) -> usize {
        self.n_classes + 1
    }

    fn score_width(&self) -> usize {
        self.n_classes
    }

    fn scores(&self, w: &[f64], rows: Range<usize>, z: &mut [f64]) {
        let k = self.n_classes;
        for (s, i) in z.chunks_exact_mut(k).zip(rows) {
            self.row_scores(w, i, s);
        }
    }

    fn losses(&self, dz: &mut [f64], rows: Range<usize>, mut curvature: Option<&mut [f64]>) -> f64 {
        let k = self.n_classes;
        let mut loss = 0.0;
        for (r, i) in rows.enumerate() {
            let s = &mut dz[r * k..(r + 1) * k];
            loss += self.probabilities(i, s);
            if let Some(cv) = curvature.as_deref_mut() {
                let row = &mut cv[r * (k + 1)..(r + 1) * (k + 1)];
                row[0] = self.weight[i];
                row[1..].copy_from_slice(s);
            }
            self.score_derivatives(i, s);
        }
        loss
    }

    fn add_score_gradient(&self, dz: &[f64], rows: Range<usize>, grad: &mut [f64]) {
        let k = self.n_classes;
        for (g, i) in dz.chunks_exact(k).zip(rows) {
            self.add_outer(i, g, grad);
        }
    }

    fn hess_vec(&self, curvature: &[f64], v: &[f64], rows: Range<usize>, out: &mut [f64]) {
        let k = self.n_classes;
        let mut u = vec![0.0; k];
        for (r, i) in rows.enumerate() {
            let row = &curvature[r * (k + 1)..(r + 1) * (k + 1)];
            let (c, p) = (row[0], &row[1..]);
            if c == 0.0 {
                continue;
            }
            self.row_scores(v, i, &mut u);
            let mean: f64 = p.iter().zip(&u).map(|(a, b)| a * b).sum();
            for (uj, pj) in u.iter_mut().zip(p) {
                *uj = c * pj * (*uj - mean);
            }
            self.add_outer(i, &u, out);
        }
    }

    /// `diag(H)` for `W_k`: `sum_n C c_n p_nk (1 - p_nk) x_nj^2` (and `x_nj = 1` for `b_k`).
    fn hess_diag(&self, curvature: &[f64], rows: Range<usize>, out: &mut [f64]) {
        let k = self.n_classes;
        let d = self.x.n_cols();
        for (r, i) in rows.enumerate() {
            let row = &curvature[r * (k + 1)..(r + 1) * (k + 1)];
            let (c, p) = (row[0], &row[1..]);
            for (m, &pm) in p.iter().enumerate() {
                let a = c * pm * (1.0 - pm);
                if a == 0.0 {
                    continue;
                }
                let o = &mut out[m * d..(m + 1) * d];
                self.x.for_each_in_row(i, |j, x| o[j] += a * x * x);
                if self.fit_intercept {
                    out[k * d + m] += a;
                }
            }
        }
    }
}

impl Fit for SoftmaxRegression {
    type Model = LinearModel;
    fn fit(&self, data: &Dataset) -> Result<LinearModel> {
        self.training.validate()?;
        let mut training = self.training.clone();
        match training.solver {
            Solver::Sgd | Solver::NewtonCholesky => {
                return Err(Error::Unsupported {
                    model: NAME.into(),
                    what: format!("solver={}: use solver=lbfgs, newton, newton-ls, gd or gd-armijo, or logistic-regression with solver={} (one-vs-all on more classes)", training.solver, training.solver),
                });
            }
            Solver::Auto => training.solver = Solver::Lbfgs,
            _ => {}
        }
        data.check_fit()?;
        let k = data.classes().len();
        if k == 1 {
            return single_class_model(data, Link::Logistic);
        }
        let cw = row_weights(data, &self.training.class_weight)?;
        let weight_total: f64 = cw.iter().sum();
        let weight: Vec<f64> = cw.iter().map(|c| self.training.c * c).collect();
        let d = data.n_features();
        let fit_intercept = self.training.fit_intercept;
        let (w, convergence) = with_rows!(data.x(), |m| {
            // diag(p) - p p^T <= 1/2 I, so H <= I + 1/2 sum_n C c_n (||x_n||^2 + 1)
            let bound = || {
                0.5 * (0..m.n_rows())
                    .map(|i| weight[i] * (m.row_norm_sq(i) + f64::from(u8::from(fit_intercept))))
                    .sum::<f64>()
            };
            let obj = MultinomialCrossEntropy {
                x: m,
                targets: data.targets(),
                n_classes: k,
                weight: &weight,
                fit_intercept,
            };
            training.solve(&obj, &class_counts(data), weight_total, bound)
        })?;
        let coef = Array2::from_shape_vec((k, d), w[..k * d].to_vec())
            .map_err(|e| Error::data(e.to_string()))?;
        // Adding a constant to every free intercept leaves every probability unchanged, so
        // the optimum is a line; report its point with sum_k b_k = 0 (as the penalty makes
        // every column of W sum to 0). A preconditioned solver may end anywhere on it.
        let intercept = if fit_intercept {
            let b = Array1::from_vec(w[k * d..].to_vec());
            let mean = b.mean().unwrap_or(0.0);
            b - mean
        } else {
            Array1::zeros(k)
        };
        if k == 2 {
            let folded = (&coef.row(1) - &coef.row(0)).insert_axis(ndarray::Axis(0));
            let b = Array1::from_elem(1, intercept[1] - intercept[0]);
            return LinearModel::new(
                data.classes().to_vec(),
                folded,
                b,
                Link::Logistic,
                convergence,
            );
        }
        LinearModel::new(
            data.classes().to_vec(),
            coef,
            intercept,
            Link::Softmax,
            convergence,
        )
    }
}

impl Kind for SoftmaxRegression {
    const INFO: &'static KindInfo = &KindInfo::classifier(
        "softmax-regression",
        super::CLASSIFIER_GROUP,
        "multinomial logistic regression, native multiclass",
    );
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        Some(&mut self.training.class_weight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Features, Label};
    use crate::estimator::Classifier;
    use crate::optim::Evaluator;
    use crate::param::Params;
    use ndarray::array;

    fn toy() -> Dataset<'static> {
        let x: Features = array![
            [1.0, 2.0],
            [2.0, 0.5],
            [-1.0, 0.3],
            [0.0, -1.0],
            [1.5, -0.5],
            [-2.0, 1.0],
            [0.5, 0.5]
        ]
        .into();
        let y: Vec<Label> = [0, 1, 2, 2, 1, 0, 2]
            .iter()
            .map(|&v| Label::Int(v))
            .collect();
        Dataset::new(x, &y).unwrap()
    }

    #[test]
    fn gradient_and_hessian_match_finite_differences() {
        let data = toy();
        let weight = vec![0.5, 1.0, 2.0, 1.0, 0.3, 1.5, 1.0];
        for fit_intercept in [true, false] {
            with_rows!(data.x(), |m| {
                let obj = MultinomialCrossEntropy {
                    x: m,
                    targets: data.targets(),
                    n_classes: 3,
                    weight: &weight,
                    fit_intercept,
                };
                let dim = obj.dim();
                let w: Vec<f64> = (0..dim).map(|j| 0.3 - 0.2 * j as f64).collect();
                let v: Vec<f64> = (0..dim).map(|j| 1.0 - 0.1 * j as f64).collect();
                let along: Vec<f64> = (0..dim).map(|j| 0.5 - 0.3 * j as f64).collect();
                crate::optim::objective::tests::check_line(&obj, &w, &along);
                let mut e = Evaluator::new(&obj);
                let mut g = vec![0.0; dim];
                e.value_grad(&w, &mut g, true);
                let mut hv = vec![0.0; dim];
                e.hess_vec(&v, &mut hv);
                let h = 1e-6;
                let (mut gp, mut gm) = (vec![0.0; dim], vec![0.0; dim]);
                for j in 0..dim {
                    let (mut wp, mut wm) = (w.clone(), w.clone());
                    wp[j] += h;
                    wm[j] -= h;
                    let fd = (e.value_grad(&wp, &mut gp, false)
                        - e.value_grad(&wm, &mut gm, false))
                        / (2.0 * h);
                    assert!((fd - g[j]).abs() < 1e-6, "grad {j}");
                }
                let wp: Vec<f64> = w.iter().zip(&v).map(|(a, b)| a + h * b).collect();
                let wm: Vec<f64> = w.iter().zip(&v).map(|(a, b)| a - h * b).collect();
                e.value_grad(&wp, &mut gp, false);
                e.value_grad(&wm, &mut gm, false);
                let mut diag = vec![0.0; dim];
                e.hess_diag(&mut diag);
                for j in 0..dim {
                    let mut ej = vec![0.0; dim];
                    ej[j] = 1.0;
                    let mut hj = vec![0.0; dim];
                    e.hess_vec(&ej, &mut hj);
                    assert!((diag[j] - hj[j]).abs() < 1e-12, "diag {j}");
                }
                for j in 0..dim {
                    assert!(((gp[j] - gm[j]) / (2.0 * h) - hv[j]).abs() < 1e-5, "Hv {j}");
                }
            });
        }
    }

    #[test]
    fn newton_and_lbfgs_agree_and_intercepts_balance() {
        let data = toy()
            .with_weights(vec![1.0, 2.0, 1.0, 0.5, 1.0, 3.0, 1.0])
            .unwrap();
        let a = SoftmaxRegression::default().tol(1e-10).fit(&data).unwrap();
        assert!(a.convergence().converged());
        for solver in [Solver::Newton, Solver::NewtonLs] {
            let b = SoftmaxRegression::default()
                .solver(solver)
                .tol(1e-10)
                .fit(&data)
                .unwrap();
            assert!(b.convergence().converged(), "{solver:?}");
            for (x, y) in a.coef().iter().zip(b.coef()) {
                assert!((x - y).abs() < 1e-6, "{solver:?}");
            }
            // d f / d b_k = C sum_n c_n (p_nk - [y_n = k]) = 0
            let p = b.predict_proba(data.x()).unwrap();
            for k in 0..3 {
                let r: f64 = (0..7)
                    .map(|i| {
                        data.weight(i) * (p[[i, k]] - f64::from(u8::from(data.targets()[i] == k)))
                    })
                    .sum();
                assert!(r.abs() < 1e-7, "{solver:?} class {k}: {r}");
            }
        }
    }

    #[test]
    fn two_classes_fold_into_one_row_and_one_class_is_handled() {
        let x: Features = array![[1.0], [2.0], [3.0], [0.0]].into();
        let two =
            Dataset::new(x.clone(), &["a".into(), "b".into(), "b".into(), "a".into()]).unwrap();
        let m = SoftmaxRegression::default().fit(&two).unwrap();
        assert!(m.is_binary() && m.link() == Link::Logistic);
        let one = Dataset::new(x.clone(), &vec![Label::from("a"); 4]).unwrap();
        let m = SoftmaxRegression::default().fit(&one).unwrap();
        assert_eq!(m.predict(&x).unwrap(), vec![Label::from("a"); 4]);
        assert!(SoftmaxRegression::default().set_param("bias", "1").is_err());
    }

    #[test]
    fn sgd_is_refused_with_the_alternatives() {
        let e = SoftmaxRegression::default()
            .solver(Solver::Sgd)
            .fit(&toy())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("softmax-regression cannot use solver=sgd"),
            "{e}"
        );
        assert!(
            e.contains("lbfgs") && e.contains("logistic-regression"),
            "{e}"
        );
    }
}
