//! The contract the solvers drive: a differentiable function of the parameters.
//!
//! ```text
//! f(w), grad f(w)                     every solver
//! f(w + a d), d . grad f(w + a d)     the line searches (L-BFGS, gd-armijo, newton-ls)
//! H(w) v, diag H(w)                   the Newton solvers (optional)
//! H(w)                                newton-cholesky (optional)
//! ```
//!
//! A linear model's objective is its fast special case ([`Evaluator`](super::Evaluator):
//! a trial step costs `O(N)` through the scores `z(w) + a z(d)`); any other function (a
//! neural network's loss) implements this trait, or wraps a closure in [`Function`], adds
//! its regulariser with a [`Penalty`](super::Penalty) (the linear models' L2 with another
//! strength and set of parameters), and uses L-BFGS and gradient descent without touching
//! the solvers.

use crate::linalg::Matrix;

/// A differentiable function the solvers minimise.
pub trait Differentiable {
    /// Number of parameters.
    fn dim(&self) -> usize;
    /// `f(w)`, with `grad f(w)` written to `grad`; with `keep_curvature` the curvature at
    /// `w` is kept for [`Differentiable::hess_vec`].
    fn value_grad(&mut self, w: &[f64], grad: &mut [f64], keep_curvature: bool) -> f64;
    /// Starts a line search along `w + a d`.
    fn line_start(&mut self, w: &[f64], d: &[f64]);
    /// `(f(w + a d), d . grad f(w + a d))` on the line of the last `line_start`.
    fn line(&mut self, a: f64) -> (f64, f64);
    /// Accepts the step `a`: writes `w + a d` to `w_out` and its gradient to `grad`;
    /// returns `f` there.
    fn line_accept(&mut self, a: f64, w_out: &mut [f64], grad: &mut [f64]) -> f64;
    /// Whether [`Differentiable::hess_vec`] and [`Differentiable::hess_diag`] are available
    /// (the Newton solvers need them).
    fn has_hessian(&self) -> bool {
        false
    }
    /// `H v` at the point last evaluated with `keep_curvature`, written to `out`.
    fn hess_vec(&mut self, _v: &[f64], out: &mut [f64]) {
        out.fill(f64::NAN);
    }
    /// The diagonal of `H` at that point, written to `out`.
    fn hess_diag(&mut self, out: &mut [f64]) {
        out.fill(1.0);
    }
    /// Makes the curvature kept before the last `keep_curvature` evaluation current again.
    fn revert_curvature(&mut self) {}
    /// Whether the curvature before the last `keep_curvature` evaluation is kept for
    /// [`Differentiable::revert_curvature`] (the default). Solvers that never revert say
    /// `false`, which saves the memory of a second curvature (one value per row).
    fn keep_previous_curvature(&mut self, _keep: bool) {}
    /// Whether [`Differentiable::hessian`] forms the whole Hessian (`newton-cholesky`
    /// needs it).
    fn forms_hessian(&self) -> bool {
        false
    }
    /// The Hessian at the point last evaluated with `keep_curvature`, written to `out`
    /// (`dim x dim`, its upper triangle).
    fn hessian(&mut self, out: &mut Matrix) {
        out.as_mut_slice().fill(f64::NAN);
    }
}

/// A function given by a closure `w, grad -> f(w)` (writing `grad f(w)`); the line is
/// evaluated point by point.
pub struct Function<F: FnMut(&[f64], &mut [f64]) -> f64> {
    f: F,
    dim: usize,
    w: Vec<f64>,
    d: Vec<f64>,
    trial: Vec<f64>,
    grad: Vec<f64>,
    /// The step and value of the point in `trial` (and its gradient in `grad`).
    last: Option<(f64, f64)>,
    /// Evaluations of the closure so far.
    pub evaluations: usize,
}

impl<F: FnMut(&[f64], &mut [f64]) -> f64> Function<F> {
    /// The function `f` of `dim` parameters.
    pub fn new(dim: usize, f: F) -> Self {
        Function {
            f,
            dim,
            w: vec![0.0; dim],
            d: vec![0.0; dim],
            trial: vec![0.0; dim],
            grad: vec![0.0; dim],
            last: None,
            evaluations: 0,
        }
    }

    /// `f` and its gradient (in `self.grad`) at `w + a d`, the point left in `self.trial`;
    /// the line search's last trial is not evaluated again when it is accepted.
    fn at(&mut self, a: f64) -> f64 {
        if let Some((last, f)) = self.last {
            if last == a {
                return f;
            }
        }
        for ((t, w), d) in self.trial.iter_mut().zip(&self.w).zip(&self.d) {
            *t = w + a * d;
        }
        self.evaluations += 1;
        let f = (self.f)(&self.trial, &mut self.grad);
        self.last = Some((a, f));
        f
    }
}

impl<F: FnMut(&[f64], &mut [f64]) -> f64> Differentiable for Function<F> {
    fn dim(&self) -> usize {
        self.dim
    }
    fn value_grad(&mut self, w: &[f64], grad: &mut [f64], _keep_curvature: bool) -> f64 {
        self.evaluations += 1;
        (self.f)(w, grad)
    }
    fn line_start(&mut self, w: &[f64], d: &[f64]) {
        self.w.copy_from_slice(w);
        self.d.copy_from_slice(d);
        self.last = None;
    }
    fn line(&mut self, a: f64) -> (f64, f64) {
        let f = self.at(a);
        (f, super::dot(&self.grad, &self.d))
    }
    fn line_accept(&mut self, a: f64, w_out: &mut [f64], grad: &mut [f64]) -> f64 {
        let f = self.at(a);
        w_out.copy_from_slice(&self.trial);
        grad.copy_from_slice(&self.grad);
        f
    }
}
