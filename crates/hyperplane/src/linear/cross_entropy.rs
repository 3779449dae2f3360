//! What logistic and softmax regression share: the L2-regularised cross-entropy fit
//!
//! ```text
//! f(w) = 1/2 ||w||^2 + C sum_n c_n err_n(w)
//! ```
//!
//! (`c_n` the row weight, the intercepts not in `||w||^2`), its [`Training`] params with
//! their builder setters, the model of a data set of one class, and the stopping rules of
//! each solver:
//!
//! | solver | converged when |
//! |---|---|
//! | `newton`, `newton-ls`, `newton-cholesky`, `gd`, `gd-armijo` | `‖∇f(w)‖₂ <= tol · max(min_k m_k, 1) / N · ‖∇f(0)‖₂` (LIBLINEAR's rule; `m_k` the rows of class `k`) |
//! | `lbfgs` | `max_j |∇f(w)_j| <= tol · C · sum_n c_n`, or a relative decrease of `f` below `64 eps` |
//! | `sgd` (logistic only) | 5 epochs in a row whose epoch objective of `f / (C sum_n c_n)` does not drop below the best by `tol` (scikit-learn's `SGDClassifier` rule, see [`LogisticRegression`](super::LogisticRegression)) |
//!
//! The L-BFGS rule is scikit-learn's: it minimises `f / (C sum_n c_n)` (the mean loss
//! plus `||w||^2 / (2 C sum_n c_n)`) with `gtol = tol` and `ftol = 64 eps`; the minimiser
//! is the same, and the rule above is its rule on our scale.

use ndarray::{Array1, Array2};

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::optim::{Convergence, Differentiable, Evaluator, GradNorm, Objective, Settings, Solver};
use crate::param::Params;
use crate::score::{LinearModel, Link};
use crate::weights::ClassWeight;

crate::params! {
    /// How the weights are trained: the regularisation, the intercept, the class weights and
    /// the solver with its budget. Shared by [`LogisticRegression`](super::LogisticRegression)
    /// (default solver `auto`) and [`SoftmaxRegression`](super::SoftmaxRegression) (`lbfgs`).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Training {
        pub c: f64,
        pub fit_intercept: bool,
        pub class_weight: ClassWeight,
        pub solver: Solver,
        pub tol: f64,
        pub max_iter: usize,
        pub step: Option<f64>,
        pub init: Option<Vec<f64>>,
    }
    schema "training" {
        /// `C`: weight of the data term against `1/2 ||w||^2` (larger: less regularisation)
        c = "1", positive => c;
        /// learn an intercept `b`, not penalised
        fit_intercept = "true", bool => fit_intercept;
        /// per-class weights multiplying the sample weights
        class_weight = "none", "`none`, `balanced`, `LABEL:W,...`" => class_weight;
        /// the optimiser; `auto` chooses by the shape and sparsity of the data (logistic regression's rule; `lbfgs` for softmax regression)
        solver = "auto", "`auto`, `newton`, `newton-ls`, `newton-cholesky`, `lbfgs`, `gd`, `gd-armijo`; `sgd` and `newton-cholesky` for logistic regression only" => solver;
        /// stopping tolerance (see the module doc)
        tol = "0.0001", positive => tol;
        /// iteration budget (`sgd`: epochs)
        max_iter = "1000", at_least_1 => max_iter;
        /// `gd`: the fixed step; `gd-armijo`: the first trial step; `auto` is `1 / L` with `L` a bound on the curvature of `f`
        step = "auto", positive => step as Auto;
        /// warm start: every parameter in the model's layout (weights, then intercepts)
        init = "none", finite => init;
    }
}

impl Default for Training {
    fn default() -> Self {
        Training::with_solver(Solver::Auto)
    }
}

impl Training {
    /// The defaults with `solver`.
    pub fn with_solver(solver: Solver) -> Self {
        Training {
            c: 1.0,
            fit_intercept: true,
            class_weight: ClassWeight::Uniform,
            solver,
            tol: 1e-4,
            max_iter: 1000,
            step: None,
            init: None,
        }
    }

    /// Checks every value against its range.
    pub fn validate(&self) -> Result<()> {
        self.check_params()
    }

    /// The starting point of a model with `dim` parameters: `init`, or zero.
    pub(super) fn start(&self, dim: usize) -> Result<Vec<f64>> {
        match &self.init {
            Some(init) if init.len() != dim => Err(Error::param(
                "init",
                format!("{} values", init.len()),
                format!("this model has {dim} parameters (weights, then intercepts)"),
            )),
            Some(init) => Ok(init.clone()),
            None => Ok(vec![0.0; dim]),
        }
    }

    /// Minimises `obj` (whose data term already holds `C c_n`) from `init` or zero.
    /// `class_counts` are the rows per class, `weight_total` is `sum_n c_n`, and
    /// `curvature_bound` bounds the largest eigenvalue of the data term's Hessian; it costs a
    /// pass over the rows, so it is called only for gradient descent's default step `1 / L`,
    /// `L` that bound plus the penalty's.
    pub(super) fn solve<O: Objective>(
        &self,
        obj: &O,
        class_counts: &[usize],
        weight_total: f64,
        curvature_bound: impl FnOnce() -> f64,
    ) -> Result<(Vec<f64>, Convergence)> {
        let w0 = self.start(obj.dim())?;
        let mut eval = Evaluator::new(obj);
        let (gtol, norm) = match self.solver {
            Solver::Lbfgs => (self.tol * self.c * weight_total, GradNorm::Max),
            _ => (
                relative_gtol(&mut eval, class_counts, self.tol),
                GradNorm::Two,
            ),
        };
        let settings = Settings {
            max_iter: self.max_iter,
            gtol,
            norm,
            ftol: 64.0 * f64::EPSILON,
            step: match (self.solver, self.step) {
                (_, Some(step)) => step,
                (Solver::Gd | Solver::GdArmijo, None) => {
                    1.0 / (obj.penalty().curvature_bound() + curvature_bound())
                }
                (_, None) => 1.0, // unused by the other solvers
            },
        };
        self.solver.minimize(&mut eval, w0, &settings)
    }
}

/// Builder setters for the [`Training`] params of a params struct with a `training` field.
macro_rules! training_setters {
    ($t:ty) => {
        impl $t {
            /// Sets `C`.
            pub fn c(mut self, c: f64) -> Self {
                self.training.c = c;
                self
            }
            /// Learns a free intercept or none.
            pub fn fit_intercept(mut self, on: bool) -> Self {
                self.training.fit_intercept = on;
                self
            }
            /// Sets the class weights.
            pub fn class_weight(mut self, w: $crate::weights::ClassWeight) -> Self {
                self.training.class_weight = w;
                self
            }
            /// Sets the solver.
            pub fn solver(mut self, s: $crate::optim::Solver) -> Self {
                self.training.solver = s;
                self
            }
            /// Sets the stopping tolerance.
            pub fn tol(mut self, tol: f64) -> Self {
                self.training.tol = tol;
                self
            }
            /// Sets the iteration budget.
            pub fn max_iter(mut self, n: usize) -> Self {
                self.training.max_iter = n;
                self
            }
            /// Sets the gradient-descent step.
            pub fn step(mut self, step: f64) -> Self {
                self.training.step = Some(step);
                self
            }
            /// Starts from these parameters (weights, then intercepts).
            pub fn init(mut self, w: Vec<f64>) -> Self {
                self.training.init = Some(w);
                self
            }
        }
    };
}
pub(super) use training_setters;

/// LIBLINEAR's stopping threshold of its Newton fits (`-s 0`, `-s 2`) on `‖∇f(w)‖₂`:
/// `tol · max(min_k m_k, 1) / N · ‖∇f(0)‖₂`, `m_k` the rows of class `k` (`class_counts`).
/// One gradient evaluation, at `w = 0`.
pub(crate) fn relative_gtol<E: Differentiable>(
    eval: &mut E,
    class_counts: &[usize],
    tol: f64,
) -> f64 {
    let mut g0 = vec![0.0; eval.dim()];
    eval.value_grad(&vec![0.0; eval.dim()], &mut g0, false);
    let n: usize = class_counts.iter().sum();
    let smallest = class_counts.iter().copied().min().unwrap_or(0).max(1);
    let scale = smallest as f64 / n.max(1) as f64;
    tol * scale * crate::optim::norm2(&g0)
}

/// The number of rows of each class.
pub(crate) fn class_counts(data: &Dataset) -> Vec<usize> {
    let mut counts = vec![0; data.classes().len()];
    for &t in data.targets() {
        counts[t] += 1;
    }
    counts
}

/// A model that predicts its only class (a data set of one class).
pub(crate) fn single_class_model(data: &Dataset, link: Link) -> Result<LinearModel> {
    LinearModel::new(
        data.classes().to_vec(),
        Array2::zeros((1, data.n_features())),
        Array1::zeros(1),
        link,
        Convergence::default(),
    )
}
