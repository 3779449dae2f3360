//! Binary logistic regression with L2 regularisation (LIBLINEAR's `-s 0`):
//!
//! ```text
//! f(w) = 1/2 ||w||^2 + C sum_n c_n ln(1 + exp(-y_n (w.x_n + b)))
//! grad = w + C sum_n c_n (sigma(y_n s_n) - 1) y_n x_n
//! H v  = v + C sum_n c_n sigma(s_n) (1 - sigma(s_n)) (x_n . v) x_n     (X^T D X v, row by row)
//! ```
//!
//! with `y_n` in {-1, +1} (`classes[1]` is +1). The intercept `b` is either free (not
//! penalised, scikit-learn's convention, `fit_intercept`), or LIBLINEAR's `-B bias`: a
//! feature of constant value `B` appended to every row, its weight penalised like the
//! others (`b = B w_B`), or absent.
//!
//! `solver=sgd` runs the [SGD engine](crate::linear::sgd::engine) on the same objective
//! divided by `C W`, `W = sum_n c_n` (so its minimiser is the same):
//!
//! ```text
//! f(w) / (C W) = (1/N) sum_n c'_n ln(1 + exp(-y_n (w.x_n + b))) + alpha/2 ||w||^2,
//! c'_n = N c_n / W,   alpha = 1 / (C W)
//! ```
//!
//! with one step per row and epoch, rows in a new seeded order every epoch, and the free
//! intercept (not penalised; `bias` is refused).

use ndarray::{Array1, Array2};

use crate::data::{Dataset, Features, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::{Fit, Kind, KindInfo};
use crate::linear::binary_objective::{BinaryObjective, Intercept, PointwiseLoss};
use crate::linear::cross_entropy::{class_counts, single_class_model, training_setters, Training};
use crate::linear::sgd::{self, LearningRate, SgdProblem, SgdWeights, Stopping};
use crate::linear::{linear_regression_init, Loss};
use crate::numeric::log1pexp_sigmoid;
use crate::optim::{norm2, Convergence, Evaluator, Solver};
use crate::param::Params;
use crate::score::{LinearModel, Link};
use crate::targets::signed_targets;
use crate::weights::{row_weights, ClassWeight};
use crate::with_rows;

const NAME: &str = "logistic-regression";

crate::params! {
    /// Params of binary logistic regression: the ones below and the [`Training`] params
    /// (solver `auto` by default). `init` holds `d` weights, then the intercept weight when
    /// there is one.
    ///
    /// `solver=auto` chooses by the shape and sparsity of `X`, with `p` the parameters
    /// (`d`, plus one with an intercept) and `nnz` the stored values of `X` (`N d` dense):
    /// `newton-cholesky` when `p <= 2000` and `nnz >= p^3 / 60`, else `newton`. Factoring
    /// the Hessian costs `p^3 / 3` multiply-adds, at most what 10 Hessian products cost
    /// (`2 nnz` each) under that rule, and its `p^2` values (32 MB at `p = 2000`) stay
    /// small; an exact step then converges in a few iterations whatever the scaling of the
    /// features, where conjugate gradients need many products on ill-conditioned data. Many
    /// rows and few columns (tabular data, one-hot encoded) take `newton-cholesky`; text
    /// (tens of thousands of columns) or few rows take `newton`. The fitted model's report
    /// names the solver that ran (`inspect`).
    ///
    /// The parameters marked `solver=sgd` apply to that solver only; setting one with
    /// another solver is an error at fit. With `solver=sgd` (see the module doc for the
    /// objective it minimises), `max_iter` is the number of epochs at most and `tol` the
    /// engine's stopping rule: the run stops after `n_iter_no_change` epochs in a row whose
    /// epoch objective (the mean loss at the visits plus the penalty, on the scale of the
    /// module doc) does not drop below the best by `tol`. The report's `iterations` are
    /// epochs; its `objective` and `grad_norm` are `f` and `‖∇f‖₂` at the returned weights, as
    /// for the other solvers.
    #[derive(Clone, Debug, PartialEq)]
    pub struct LogisticRegression {
        pub training: Training,
        pub bias: Option<f64>,
        /// `solver=sgd`: the step schedule.
        pub learning_rate: LearningRate,
        /// `solver=sgd`: the step of `constant` and `invscaling`.
        pub eta0: f64,
        /// `solver=sgd`: average the iterates.
        pub average: bool,
        /// `solver=sgd`: seed of the row orders.
        pub seed: u64,
        /// `solver=sgd`: epochs without improvement that stop the run.
        pub n_iter_no_change: usize,
    }
    schema "logistic-regression" {
        /// LIBLINEAR's `-B`: append a feature of value `B` whose weight is penalised (replaces the free intercept; not with `solver=sgd`)
        bias = "none", positive => bias;
        /// `solver=sgd`: the step schedule, `optimal` `1 / (alpha (t0 + t - 1))`, `constant` `eta0`, `invscaling` `eta0 / t^0.5` (`t` counts steps)
        learning_rate = "optimal", "`optimal`, `constant`, `invscaling`" => learning_rate;
        /// `solver=sgd`: the step of `constant`, the first step of `invscaling`
        eta0 = "0.01", positive => eta0;
        /// `solver=sgd`: return the average of the iterates (ASGD) instead of the last one
        average = "false", bool => average;
        /// `solver=sgd`: seed of the row order of every epoch
        seed = "0", any => seed;
        /// `solver=sgd`: epochs in a row without an improvement of `tol` that stop the run (`>= max_iter`: run every epoch)
        n_iter_no_change = "5", at_least_1 => n_iter_no_change;
        ..training: Training;
    }
}

impl Default for LogisticRegression {
    fn default() -> Self {
        LogisticRegression {
            training: Training::with_solver(Solver::Auto),
            bias: None,
            learning_rate: LearningRate::Optimal,
            eta0: 0.01,
            average: false,
            seed: 0,
            n_iter_no_change: 5,
        }
    }
}

/// The exponent of `learning_rate=invscaling` with `solver=sgd` (scikit-learn's default).
const SGD_POWER_T: f64 = 0.5;
/// `solver=auto`: the most parameters for which it chooses `newton-cholesky`.
const AUTO_MAX_PARAMS: usize = 2000;
/// `solver=auto`: `newton-cholesky` needs `nnz >= p^3 / AUTO_ROWS_PER_CUBE`.
const AUTO_ROWS_PER_CUBE: f64 = 60.0;

training_setters!(LogisticRegression);

impl LogisticRegression {
    /// LIBLINEAR's `-B bias`: a penalised intercept feature of value `bias`.
    pub fn bias(mut self, bias: f64) -> Self {
        self.bias = Some(bias);
        self
    }

    /// `solver=sgd`: sets the step schedule.
    pub fn learning_rate(mut self, schedule: LearningRate) -> Self {
        self.learning_rate = schedule;
        self
    }

    /// `solver=sgd`: sets the step of `constant` and `invscaling`.
    pub fn eta0(mut self, eta0: f64) -> Self {
        self.eta0 = eta0;
        self
    }

    /// `solver=sgd`: returns the average of the iterates.
    pub fn average(mut self, on: bool) -> Self {
        self.average = on;
        self
    }

    /// `solver=sgd`: seeds the row orders.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// `solver=sgd`: sets the epochs without improvement that stop the run.
    pub fn n_iter_no_change(mut self, epochs: usize) -> Self {
        self.n_iter_no_change = epochs;
        self
    }

    /// Refuses the `solver=sgd` settings with another solver, rather than ignore them.
    fn check_solver_settings(&self) -> Result<()> {
        if self.training.solver == Solver::Sgd {
            return Ok(());
        }
        let d = Self::default();
        let changed = [
            ("learning_rate", self.learning_rate != d.learning_rate),
            ("eta0", self.eta0 != d.eta0),
            ("average", self.average != d.average),
            ("seed", self.seed != d.seed),
            (
                "n_iter_no_change",
                self.n_iter_no_change != d.n_iter_no_change,
            ),
        ];
        match changed.iter().find(|(_, changed)| *changed) {
            None => Ok(()),
            Some((name, _)) => {
                let values = self.param_values();
                let value = values
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or("?", |(_, v)| v);
                Err(Error::param(
                    name,
                    value,
                    format!(
                        "applies to solver=sgd only, and this fit uses solver={}; set solver=sgd or leave {name} at its default",
                        self.training.solver
                    ),
                ))
            }
        }
    }

    /// The solver `solver=auto` chooses for `x` with `n_params` parameters (see the params).
    fn auto_solver(x: &Features, n_params: usize) -> Solver {
        let p = n_params as f64;
        if n_params <= AUTO_MAX_PARAMS && x.nnz() as f64 >= p * p * p / AUTO_ROWS_PER_CUBE {
            Solver::NewtonCholesky
        } else {
            Solver::Newton
        }
    }

    /// The smooth solvers (`newton`, `newton-ls`, `newton-cholesky`, `lbfgs`, `gd`,
    /// `gd-armijo`; `auto` resolved) on `f`; returns the parameters in the layout of
    /// [`BinaryObjective`] and the report.
    fn fit_smooth(&self, p: &Problem) -> Result<(Vec<f64>, Convergence)> {
        let bv2 = p.intercept.value() * p.intercept.value();
        let mut training = self.training.clone();
        if training.solver == Solver::Auto {
            let n_params = p.data.n_features() + usize::from(p.intercept != Intercept::None);
            training.solver = Self::auto_solver(p.data.x(), n_params);
        }
        with_rows!(p.data.x(), |m| {
            // curvature bound: sigma(1 - sigma) <= 1/4, so H <= I + 1/4 sum_n C c_n ||x_n||^2
            let bound = || {
                0.25 * (0..m.n_rows())
                    .map(|i| p.weight[i] * (m.row_norm_sq(i) + bv2))
                    .sum::<f64>()
            };
            training.solve(
                &p.objective(m),
                &class_counts(p.data),
                p.weight_total,
                bound,
            )
        })
    }

    /// `solver=sgd`: minimises `f / (C W)` (module doc) by SGD from `init` or zero; returns
    /// the parameters in the layout of [`BinaryObjective`] and the report.
    fn fit_sgd(&self, p: &Problem) -> Result<(Vec<f64>, Convergence)> {
        if self.n_iter_no_change == 0 {
            return Err(Error::param("n_iter_no_change", 0, "must be >= 1"));
        }
        if let Intercept::Penalised(b) = p.intercept {
            return Err(Error::param(
                "bias",
                b,
                "solver=sgd learns a free intercept only; use fit_intercept=true without bias, or another solver",
            ));
        }
        if p.weight_total <= 0.0 {
            return Err(Error::data(format!(
                "{NAME} with solver=sgd needs a row of positive weight; every row weight is 0"
            )));
        }
        // c'_n = N c_n / W from C c_n
        let scale = p.data.n_samples() as f64 / (self.training.c * p.weight_total);
        let scaled: Vec<f64> = p.weight.iter().map(|w| scale * w).collect();
        let free = p.intercept == Intercept::Free;
        let problem = SgdProblem {
            loss: Loss::Log,
            alpha: 1.0 / (self.training.c * p.weight_total),
            learning_rate: self.learning_rate,
            eta0: self.eta0,
            power_t: SGD_POWER_T,
            fit_intercept: free,
            average: self.average,
        };
        let stopping = Stopping {
            max_epochs: self.training.max_iter,
            tol: Some(self.training.tol),
            n_iter_no_change: self.n_iter_no_change,
            shuffle: true,
            seed: self.seed,
        };
        let mut start = self
            .training
            .start(p.data.n_features() + usize::from(free))?;
        let b0 = if free {
            start.pop().unwrap_or(0.0)
        } else {
            0.0
        };
        let mut state = SgdWeights::new(start, b0, self.average);
        let run = sgd::minimize(p.data.x(), &p.y, &scaled, &problem, &stopping, &mut state)?;
        let (mut w, b) = state.solution();
        if free {
            w.push(b);
        }
        // f and its gradient at the returned weights, on the scale of the other solvers
        let mut grad = vec![0.0; w.len()];
        let f = with_rows!(p.data.x(), |m| {
            Evaluator::new(&p.objective(m)).value_grad(&w, &mut grad, false)
        });
        let convergence = Convergence {
            objective: Some(f),
            grad_norm: Some(norm2(&grad)),
            ..run
        };
        Ok((w, convergence))
    }

    fn intercept(&self) -> Result<Intercept> {
        match (self.bias, self.training.fit_intercept) {
            (Some(b), _) if !(b.is_finite() && b > 0.0) => Err(Error::param(
                "bias",
                b.to_string(),
                "must be finite and > 0",
            )),
            (Some(_), false) => Err(Error::param(
                "bias",
                format!("{:?}", self.bias),
                "a penalised intercept needs fit_intercept=true",
            )),
            (Some(b), true) => Ok(Intercept::Penalised(b)),
            (None, true) => Ok(Intercept::Free),
            (None, false) => Ok(Intercept::None),
        }
    }
}

/// Logistic regression's loss: `l(y, s) = ln(1 + exp(-y s))`, with `z = y s`,
/// `l' = -y sigma(-z)` and `l'' = sigma(z) sigma(-z)`.
#[derive(Clone, Copy)]
pub(crate) struct CrossEntropy;

impl PointwiseLoss for CrossEntropy {
    #[inline]
    fn weighted(&self, c: f64, y: f64, s: f64) -> (f64, f64, f64) {
        let (loss, sig_neg) = log1pexp_sigmoid(-y * s);
        (c * loss, -c * y * sig_neg, c * sig_neg * (1.0 - sig_neg))
    }
}

/// A binary fit: the data, `y_n` in {-1, +1}, `C c_n`, `W = sum_n c_n` and the intercept.
struct Problem<'a, 'd> {
    data: &'a Dataset<'d>,
    y: Vec<f64>,
    /// `C c_n`.
    weight: Vec<f64>,
    weight_total: f64,
    intercept: Intercept,
}

impl Problem<'_, '_> {
    /// The data term over the rows `m` of `data`.
    fn objective<'m, M: RowAccess>(&'m self, m: &'m M) -> BinaryObjective<'m, M, CrossEntropy> {
        BinaryObjective {
            x: m,
            y: &self.y,
            weight: &self.weight,
            intercept: self.intercept,
            loss: CrossEntropy,
        }
    }
}

impl Fit for LogisticRegression {
    type Model = LinearModel;
    fn fit(&self, data: &Dataset) -> Result<LinearModel> {
        self.check_params()?;
        self.check_solver_settings()?;
        let intercept = self.intercept()?;
        data.check_fit()?;
        let y = signed_targets(data, NAME)?;
        if data.classes().len() == 1 {
            return single_class_model(data, Link::Logistic);
        }
        let mut weight = row_weights(data, &self.training.class_weight)?;
        let weight_total = weight.iter().sum();
        weight.iter_mut().for_each(|c| *c *= self.training.c);
        let problem = Problem {
            data,
            y,
            weight,
            weight_total,
            intercept,
        };
        let (w, convergence) = if self.training.solver == Solver::Sgd {
            self.fit_sgd(&problem)?
        } else {
            self.fit_smooth(&problem)?
        };
        let d = data.n_features();
        let b = match intercept {
            Intercept::None => 0.0,
            Intercept::Free => w[d],
            Intercept::Penalised(bv) => w[d] * bv,
        };
        let coef = Array2::from_shape_vec((1, d), w[..d].to_vec())
            .map_err(|e| Error::data(e.to_string()))?;
        LinearModel::new(
            data.classes().to_vec(),
            coef,
            Array1::from_elem(1, b),
            Link::Logistic,
            convergence,
        )
    }
}

impl Kind for LogisticRegression {
    const INFO: &'static KindInfo = &KindInfo::binary(
        "logistic-regression",
        super::CLASSIFIER_GROUP,
        "L2-regularised cross-entropy; Newton, L-BFGS, gradient descent or SGD",
    )
    .starting_from_least_squares();
    /// SGD visits the rows in order; the other solvers see them all at once.
    fn depends_on_row_order(&self) -> bool {
        self.training.solver == Solver::Sgd
    }
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        Some(&mut self.training.class_weight)
    }
    /// `init` in the model's layout: the weights, then the intercept when there is one.
    fn warm_started(&self, data: &Dataset) -> Result<Option<Self>> {
        let (mut w, b) = linear_regression_init(data, &self.training.class_weight)?;
        if self.training.fit_intercept || self.bias.is_some() {
            w.push(b);
        }
        let mut out = self.clone();
        out.training.init = Some(w);
        Ok(Some(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Features, Label};
    use crate::estimator::Classifier;
    use crate::linear::binary_objective::tests::check_loss;
    use crate::optim::norm2;
    use ndarray::array;

    fn toy() -> Dataset<'static> {
        let x: Features = array![
            [1.0, 2.0],
            [2.0, 0.5],
            [-1.0, 0.3],
            [0.0, -1.0],
            [1.5, -0.5],
            [-2.0, 1.0]
        ]
        .into();
        let y: Vec<Label> = [1, 1, 0, 0, 1, 0].iter().map(|&v| Label::Int(v)).collect();
        Dataset::new(x, &y).unwrap()
    }

    #[test]
    fn gradient_and_hessian_match_finite_differences() {
        let weight = [0.5, 1.0, 2.0, 1.0, 0.3, 1.5];
        let intercepts = [Intercept::Free, Intercept::Penalised(2.0), Intercept::None];
        check_loss(&toy(), &weight, &intercepts, CrossEntropy);
    }

    #[test]
    fn every_solver_finds_the_same_optimum_with_zero_gradient() {
        let data = toy();
        let reference = LogisticRegression::default().tol(1e-10).fit(&data).unwrap();
        assert!(reference.convergence().converged());
        assert!(reference.convergence().grad_norm.unwrap() < 1e-8);
        for solver in [
            Solver::Newton,
            Solver::NewtonLs,
            Solver::NewtonCholesky,
            Solver::Lbfgs,
            Solver::Gd,
            Solver::GdArmijo,
        ] {
            let m = LogisticRegression::default()
                .solver(solver)
                .tol(1e-10)
                .max_iter(200_000)
                .fit(&data)
                .unwrap();
            assert!(m.convergence().converged(), "{solver:?}");
            let diff = norm2(
                &(m.coef() - reference.coef())
                    .iter()
                    .copied()
                    .chain([m.intercept()[0] - reference.intercept()[0]])
                    .collect::<Vec<_>>(),
            );
            assert!(diff < 1e-6, "{solver:?}: {diff}");
        }
    }

    #[test]
    fn newton_cholesky_is_the_same_on_sparse_rows_and_auto_reports_it() {
        let data = toy();
        let sparse = crate::linear::binary::tests::sparse_copy(&data);
        let cholesky = LogisticRegression::default()
            .solver(Solver::NewtonCholesky)
            .tol(1e-12);
        let (a, b) = (cholesky.fit(&data).unwrap(), cholesky.fit(&sparse).unwrap());
        for (x, y) in a
            .coef()
            .iter()
            .chain(a.intercept())
            .zip(b.coef().iter().chain(b.intercept()))
        {
            assert!((x - y).abs() < 1e-10, "{a:?} {b:?}");
        }
        // few columns, more values than p^3 / 60: auto takes the exact Newton step
        let auto = LogisticRegression::default().fit(&data).unwrap();
        assert_eq!(auto.convergence().solver, Some(Solver::NewtonCholesky));
        let newton = LogisticRegression::default().solver(Solver::Newton);
        assert_eq!(
            newton.fit(&data).unwrap().convergence().solver,
            Some(Solver::Newton)
        );
        assert_eq!(
            LogisticRegression::auto_solver(data.x(), 3),
            Solver::NewtonCholesky
        );
        assert_eq!(
            LogisticRegression::auto_solver(data.x(), 2001),
            Solver::Newton
        );
        // 12 values against 40^3 / 60: too few rows for 40 parameters
        assert_eq!(
            LogisticRegression::auto_solver(data.x(), 40),
            Solver::Newton
        );
    }

    #[test]
    fn the_free_intercept_balances_residuals() {
        // d f / d b = C sum_n c_n (p_n - [y_n = +1]) = 0 at the optimum
        let data = toy()
            .with_weights(vec![1.0, 2.0, 0.5, 1.0, 3.0, 1.0])
            .unwrap();
        let m = LogisticRegression::default().tol(1e-10).fit(&data).unwrap();
        let p = m.predict_proba(data.x()).unwrap();
        let r: f64 = (0..6)
            .map(|i| data.weight(i) * (p[[i, 1]] - data.targets()[i] as f64))
            .sum();
        assert!(r.abs() < 1e-8, "{r}");
    }

    #[test]
    fn params_are_checked_and_round_trip() {
        let data = toy();
        assert!(LogisticRegression::default().c(0.0).fit(&data).is_err());
        assert!(LogisticRegression::default().bias(-1.0).fit(&data).is_err());
        assert!(LogisticRegression::default()
            .bias(1.0)
            .fit_intercept(false)
            .fit(&data)
            .is_err());
        let e = LogisticRegression::default()
            .init(vec![0.0])
            .fit(&data)
            .unwrap_err()
            .to_string();
        assert!(e.contains("3 parameters"), "{e}");
        let mut p = LogisticRegression::default();
        p.set_param("solver", "lbfgs").unwrap();
        p.set_param("bias", "1").unwrap();
        p.set_param("init", "1,2,3").unwrap();
        assert!(p.set_param("solver", "adam").is_err());
        p.set_param("learning_rate", "invscaling").unwrap();
        p.set_param("eta0", "0.5").unwrap();
        p.set_param("average", "true").unwrap();
        p.set_param("seed", "7").unwrap();
        p.set_param("n_iter_no_change", "20").unwrap();
        assert!(p.set_param("learning_rate", "adaptive").is_err());
        assert!(p
            .set_param("alpha", "1")
            .unwrap_err()
            .to_string()
            .contains("learning_rate"));
        let mut q = LogisticRegression::default();
        for (n, v) in p.param_values() {
            q.set_param(&n, &v).unwrap();
        }
        assert_eq!(p, q);
    }

    #[test]
    fn sgd_is_the_same_on_sparse_rows_and_checks_its_params() {
        let data = toy();
        let sgd = LogisticRegression::default()
            .solver(Solver::Sgd)
            .max_iter(50);
        let dense = sgd.fit(&data).unwrap();
        let sparse = sgd
            .fit(&crate::linear::binary::tests::sparse_copy(&data))
            .unwrap();
        assert_eq!(dense.coef(), sparse.coef());
        assert_eq!(dense.intercept(), sparse.intercept());
        // the report holds f and its gradient at the returned weights
        let c = dense.convergence();
        assert!(c.iterations >= 1 && c.iterations <= 50, "{c:?}");
        let mut w: Vec<f64> = dense.coef().iter().copied().collect();
        w.push(dense.intercept()[0]);
        let at_w = LogisticRegression::default()
            .solver(Solver::Gd)
            .step(1e-300)
            .max_iter(1)
            .init(w)
            .fit(&data)
            .unwrap();
        let (f, g) = (c.objective.unwrap(), c.grad_norm.unwrap());
        assert!((f - at_w.convergence().objective.unwrap()).abs() < 1e-12 * f);
        assert!((g - at_w.convergence().grad_norm.unwrap()).abs() < 1e-9 * g.max(1.0));
        let free = sgd.clone().fit_intercept(false).fit(&data).unwrap();
        assert_eq!(free.intercept()[0], 0.0);
        let e = sgd.clone().bias(1.0).fit(&data).unwrap_err().to_string();
        assert!(e.contains("bias") && e.contains("free intercept"), "{e}");
        let e = sgd.clone().n_iter_no_change(0).fit(&data).unwrap_err();
        assert!(e.to_string().contains("n_iter_no_change"), "{e}");
        let e = sgd
            .clone()
            .learning_rate(LearningRate::Constant)
            .eta0(0.0)
            .fit(&data)
            .unwrap_err();
        assert!(e.to_string().contains("eta0"), "{e}");
        let zero = data.clone().with_weights(vec![0.0; 6]).unwrap();
        let e = sgd.fit(&zero).unwrap_err().to_string();
        assert!(e.contains("positive weight"), "{e}");
        // the smooth solvers refuse the SGD settings (naming the one set), rather than
        // ignore them; init is honoured by SGD
        let newton = LogisticRegression::default().tol(1e-10).fit(&data).unwrap();
        for refused in [
            LogisticRegression::default().average(true),
            LogisticRegression::default().seed(3),
            LogisticRegression::default().eta0(0.5),
            LogisticRegression::default().learning_rate(LearningRate::Constant),
            LogisticRegression::default().n_iter_no_change(2),
        ] {
            let e = refused.fit(&data).unwrap_err().to_string();
            assert!(e.contains("applies to solver=sgd only"), "{e}");
            assert!(e.contains("solver=auto"), "{e}");
        }
        let mut w: Vec<f64> = newton.coef().iter().copied().collect();
        w.push(newton.intercept()[0]);
        let warm = sgd.init(w).max_iter(1).fit(&data).unwrap();
        let cold = LogisticRegression::default()
            .solver(Solver::Sgd)
            .max_iter(1)
            .fit(&data)
            .unwrap();
        let f_newton = newton.convergence().objective.unwrap();
        let (f_warm, f_cold) = (
            warm.convergence().objective.unwrap(),
            cold.convergence().objective.unwrap(),
        );
        assert!(f_warm - f_newton < f_cold - f_newton, "{f_warm} {f_cold}");
    }

    #[test]
    fn one_class_and_three_classes() {
        let x: Features = array![[1.0], [2.0]].into();
        let one = Dataset::new(x.clone(), &[Label::Int(3), Label::Int(3)]).unwrap();
        let m = LogisticRegression::default().fit(&one).unwrap();
        assert_eq!(m.predict(&x).unwrap(), vec![Label::Int(3); 2]);
        let three = Dataset::new(
            array![[1.0], [2.0], [3.0]].into(),
            &[Label::Int(0), Label::Int(1), Label::Int(2)],
        )
        .unwrap();
        assert!(LogisticRegression::default().fit(&three).is_err());
    }
}
