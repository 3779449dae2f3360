//! What the binary learners fitted by the smooth solvers share: the L2-regularised data term
//! of a pointwise loss of the score,
//!
//! ```text
//! f(w) = 1/2 ||w||^2 + sum_n C c_n l(y_n, s_n),     s_n = w.x_n + b B
//! grad = w + sum_n C c_n l'(y_n, s_n) (x_n, B)
//! H v  = v + sum_n C c_n l''(y_n, s_n) ((x_n, B) . v) (x_n, B)      (X^T D X v, row by row)
//! H    = I' + X~^T D X~,   X~ = [X, B 1],   D_n = C c_n l''(y_n, s_n)  (newton-cholesky)
//! ```
//!
//! (`I'` the identity on the penalised weights.)
//!
//! with `y_n` in {-1, +1} (`classes[1]` is +1) and the intercept's feature of value `B`:
//! free (`B = 1`, its weight not penalised), LIBLINEAR's `-B` (a constant feature of value
//! `B` whose weight is penalised like the others, `b = B w_B`), or absent. The loss is a
//! [`PointwiseLoss`]: logistic regression's cross-entropy, the linear SVM's squared hinge
//! (whose `l''` is the generalised second derivative, as LIBLINEAR's `-s 2` takes it).

use std::ops::Range;

use crate::data::RowAccess;
use crate::linalg::{add_weighted_gram, Matrix};
use crate::optim::{Objective, Penalty};

/// How the intercept enters the binary objective.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Intercept {
    None,
    /// `b` not penalised.
    Free,
    /// A feature of value `B`, penalised.
    Penalised(f64),
}

impl Intercept {
    /// The value of the intercept feature (0 without an intercept).
    pub fn value(self) -> f64 {
        match self {
            Intercept::None => 0.0,
            Intercept::Free => 1.0,
            Intercept::Penalised(b) => b,
        }
    }
}

/// A row's loss at its score, weighted: `(c l(y, s), c l'(y, s), c l''(y, s))`, the
/// derivatives in `s`.
pub(crate) trait PointwiseLoss: Sync {
    fn weighted(&self, c: f64, y: f64, s: f64) -> (f64, f64, f64);
}

/// The data term `sum_n C c_n l(y_n, s_n)` over the rows of `x`; parameters are `d` weights
/// and, with an intercept, its weight last.
pub(crate) struct BinaryObjective<'a, M: RowAccess, L: PointwiseLoss> {
    pub x: &'a M,
    pub y: &'a [f64],
    /// `C c_n`.
    pub weight: &'a [f64],
    pub intercept: Intercept,
    pub loss: L,
}

impl<M: RowAccess, L: PointwiseLoss> Objective for BinaryObjective<'_, M, L> {
    fn dim(&self) -> usize {
        self.x.n_cols() + usize::from(self.intercept != Intercept::None)
    }
    fn n_rows(&self) -> usize {
        self.x.n_rows()
    }
    /// `1/2 ||w||^2` over the weights, and the intercept feature's weight `w_B` with `-B`.
    fn penalty(&self) -> Penalty {
        Penalty::l2(match self.intercept {
            Intercept::Free => self.x.n_cols(),
            _ => self.dim(),
        })
    }
    fn curvature_width(&self) -> usize {
        1
    }

    fn score_width(&self) -> usize {
        1
    }

    /// `s_n = w.x_n + b B` (`B` the intercept feature's value).
    fn scores(&self, w: &[f64], rows: Range<usize>, z: &mut [f64]) {
        let d = self.x.n_cols();
        let (wx, wb) = w.split_at(d);
        let b = wb.first().map_or(0.0, |v| v * self.intercept.value());
        for (zk, i) in z.iter_mut().zip(rows) {
            *zk = self.x.dot_row(i, wx) + b;
        }
    }

    fn losses(&self, dz: &mut [f64], rows: Range<usize>, mut curvature: Option<&mut [f64]>) -> f64 {
        let mut loss = 0.0;
        for (k, i) in rows.enumerate() {
            let (l, g, h) = self.loss.weighted(self.weight[i], self.y[i], dz[k]);
            loss += l;
            dz[k] = g;
            if let Some(cv) = curvature.as_deref_mut() {
                cv[k] = h;
            }
        }
        loss
    }

    /// `X^T dz`, and `b sum_n dz_n` for the intercept.
    fn add_score_gradient(&self, dz: &[f64], rows: Range<usize>, grad: &mut [f64]) {
        let d = self.x.n_cols();
        let (gx, gb) = grad.split_at_mut(d);
        let mut grad_b = 0.0;
        for (&g, i) in dz.iter().zip(rows) {
            if g != 0.0 {
                self.x.add_row_scaled(i, g, gx);
                grad_b += g;
            }
        }
        if let Some(gb) = gb.first_mut() {
            *gb += grad_b * self.intercept.value();
        }
    }

    fn hess_vec(&self, curvature: &[f64], v: &[f64], rows: Range<usize>, out: &mut [f64]) {
        let d = self.x.n_cols();
        let bv = self.intercept.value();
        let (vx, vb) = v.split_at(d);
        let vb = vb.first().map_or(0.0, |v| v * bv);
        let (ox, ob) = out.split_at_mut(d);
        let mut sum_b = 0.0;
        for (k, i) in rows.enumerate() {
            let dk = curvature[k];
            if dk == 0.0 {
                continue;
            }
            let t = dk * (self.x.dot_row(i, vx) + vb);
            self.x.add_row_scaled(i, t, ox);
            sum_b += t;
        }
        if let Some(ob) = ob.first_mut() {
            *ob += sum_b * bv;
        }
    }

    fn forms_hessian(&self) -> bool {
        true
    }

    /// `X~^T D X~` with `X~ = [X, B 1]` (the intercept feature's column when there is one).
    fn add_hessian(&self, curvature: &[f64], rows: Range<usize>, out: &mut Matrix) {
        let extra = (self.intercept != Intercept::None).then(|| self.intercept.value());
        add_weighted_gram(self.x, rows, curvature, extra, out);
    }

    /// `diag(X^T D X)_j = sum_n D_n x_nj^2`.
    fn hess_diag(&self, curvature: &[f64], rows: Range<usize>, out: &mut [f64]) {
        let d = self.x.n_cols();
        let bv = self.intercept.value();
        let (ox, ob) = out.split_at_mut(d);
        let mut sum_b = 0.0;
        for (k, i) in rows.enumerate() {
            let dk = curvature[k];
            if dk != 0.0 {
                self.x.for_each_in_row(i, |j, x| ox[j] += dk * x * x);
                sum_b += dk;
            }
        }
        if let Some(ob) = ob.first_mut() {
            *ob += sum_b * bv * bv;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::optim::Evaluator;
    use crate::with_rows;

    /// [`check_derivatives`] of `loss` on `data` with row weights `weight`, for each
    /// intercept, at `w_j = 0.3 - 0.4 j` along `0.5 - 0.3 j`.
    pub fn check_loss<L: PointwiseLoss + Copy>(
        data: &Dataset,
        weight: &[f64],
        intercepts: &[Intercept],
        loss: L,
    ) {
        let y = crate::targets::signed_targets(data, "test").unwrap();
        for &intercept in intercepts {
            with_rows!(data.x(), |m| {
                let obj = BinaryObjective {
                    x: m,
                    y: &y,
                    weight,
                    intercept,
                    loss,
                };
                let w: Vec<f64> = (0..obj.dim()).map(|j| 0.3 - 0.4 * j as f64).collect();
                let along: Vec<f64> = (0..obj.dim()).map(|j| 0.5 - 0.3 * j as f64).collect();
                check_derivatives(&obj, &w, &along);
            });
        }
    }

    /// Checks the gradient and the Hessian products of `obj` at `w` against finite
    /// differences (step `1e-6`; the Hessian along `1 + j`), and its Hessian diagonal
    /// against `H e_j` after a trial point whose curvature is reverted.
    pub fn check_derivatives<M: RowAccess, L: PointwiseLoss>(
        obj: &BinaryObjective<M, L>,
        w: &[f64],
        along: &[f64],
    ) {
        let intercept = obj.intercept;
        let dim = obj.dim();
        crate::optim::objective::tests::check_line(obj, w, along);
        let mut e = Evaluator::new(obj);
        let mut g = vec![0.0; dim];
        e.value_grad(w, &mut g, true);
        let v: Vec<f64> = (0..dim).map(|j| 1.0 + j as f64).collect();
        let mut hv = vec![0.0; dim];
        e.hess_vec(&v, &mut hv);
        let h = 1e-6;
        let mut gp = vec![0.0; dim];
        let mut gm = vec![0.0; dim];
        for j in 0..dim {
            let mut wp = w.to_vec();
            let mut wm = w.to_vec();
            wp[j] += h;
            wm[j] -= h;
            let fd =
                (e.value_grad(&wp, &mut gp, false) - e.value_grad(&wm, &mut gm, false)) / (2.0 * h);
            assert!((fd - g[j]).abs() < 1e-6, "{intercept:?} grad {j}");
        }
        // H v against the difference of gradients along v
        let wp: Vec<f64> = w.iter().zip(&v).map(|(a, b)| a + h * b).collect();
        let wm: Vec<f64> = w.iter().zip(&v).map(|(a, b)| a - h * b).collect();
        e.value_grad(&wp, &mut gp, false);
        e.value_grad(&wm, &mut gm, false);
        for j in 0..dim {
            let fd = (gp[j] - gm[j]) / (2.0 * h);
            assert!((fd - hv[j]).abs() < 1e-5, "{intercept:?} Hv {j}");
        }
        // diag H against H e_j, after a trial point whose curvature is reverted
        e.value_grad(&wp, &mut gp, true);
        e.revert_curvature();
        let mut diag = vec![0.0; dim];
        e.hess_diag(&mut diag);
        for j in 0..dim {
            let mut ej = vec![0.0; dim];
            ej[j] = 1.0;
            e.hess_vec(&ej, &mut hv);
            assert!((diag[j] - hv[j]).abs() < 1e-12, "{intercept:?} diag {j}");
        }
    }
}
