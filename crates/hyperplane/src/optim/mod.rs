//! Optimisers shared by the iterative learners.
//!
//! Every iterative learner states its training problem as an objective
//! `f(w) = r(w) + sum_n loss_n(w)` that can be evaluated on any batch of rows
//! (`loss_grad(w, batch)`), so one optimiser drives every model, and the same objective can
//! be summed over threads, streams or machines. Each solver reports how it ended in a
//! [`Convergence`]; not reaching the tolerance within the budget, or diverging, is a typed
//! [`ConvergenceWarning`] in that report, never a panic or a silent result.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Why a solver stopped without meeting its tolerance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConvergenceWarning {
    /// The iteration budget ran out before the stopping rule held.
    MaxIterations {
        /// Iterations (or epochs, or updates) used.
        iterations: usize,
    },
    /// The objective became non-finite or grew without bound: the step is too large.
    Diverged {
        /// The iteration at which divergence was detected.
        iteration: usize,
    },
    /// The line search found no step that decreases the objective.
    LineSearchFailed {
        /// The iteration at which the search failed.
        iteration: usize,
        /// The gradient's norm at the returned point, in the norm the tolerance bounds
        /// ([`Settings::norm`]); `None` in reports written before it was recorded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gradient_norm: Option<f64>,
        /// The tolerance that norm had to meet ([`Settings::gtol`]); `None` in reports
        /// written before it was recorded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tolerance: Option<f64>,
    },
    /// The perceptron's update budget ran out with training points still misclassified.
    NotSeparated {
        /// Updates made.
        updates: usize,
        /// Misclassified training points (weighted fraction) at the end.
        in_sample_error: f64,
    },
}

impl std::fmt::Display for ConvergenceWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConvergenceWarning::MaxIterations { iterations } => write!(
                f,
                "did not converge within {iterations} iterations; raise max_iter or loosen tol"
            ),
            ConvergenceWarning::Diverged { iteration } => write!(
                f,
                "diverged at iteration {iteration}: the objective became non-finite or grew; use a smaller step"
            ),
            ConvergenceWarning::LineSearchFailed {
                iteration,
                gradient_norm,
                tolerance,
            } => {
                write!(
                    f,
                    "the line search found no decrease at iteration {iteration}; the result is the last good point"
                )?;
                match (gradient_norm, tolerance) {
                    (Some(g), Some(t)) if *t > 0.0 => write!(
                        f,
                        ", where the gradient norm {g:.2e} is {:.1} times the tolerance {t:.2e}",
                        g / t
                    ),
                    (Some(g), Some(t)) => write!(
                        f,
                        ", where the gradient norm is {g:.2e} against the tolerance {t}"
                    ),
                    _ => Ok(()),
                }
            }
            ConvergenceWarning::NotSeparated {
                updates,
                in_sample_error,
            } => write!(
                f,
                "did not converge: {updates} updates made and E_in = {in_sample_error:.4} > 0 (the data may not be linearly separable)"
            ),
        }
    }
}

/// How an iterative fit ended.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Convergence {
    /// Iterations (solver iterations, epochs or passes) run.
    pub iterations: usize,
    /// Weight updates made, for mistake-driven learners (PLA, pocket, SGD).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updates: Option<usize>,
    /// The objective at the returned weights, when the learner has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<f64>,
    /// `||grad f||` at the returned weights, when the learner has a gradient.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grad_norm: Option<f64>,
    /// Weighted in-sample 0/1 error of the returned weights, when the learner tracks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_sample_error: Option<f64>,
    /// Why the stopping rule was not met; `None` when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<ConvergenceWarning>,
    /// For a learner with a dual (the linear SVM): the dual objective `D(a)` at the
    /// returned multipliers, signed so that `D(a) <= P(w)`, the primal `objective`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dual_objective: Option<f64>,
    /// `P(w) - D(a)` (`>= 0` by weak duality, up to rounding): a bound on how far the
    /// primal `objective` is above its minimum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duality_gap: Option<f64>,
    /// The solver that ran, for a learner that chooses among several (`solver=auto` names
    /// its choice here); `None` in reports written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver: Option<Solver>,
}

impl Convergence {
    /// Whether the solver met its stopping rule.
    pub fn converged(&self) -> bool {
        self.warning.is_none()
    }
}

mod function;
mod gd;
mod lbfgs;
mod newton;
pub(crate) mod objective;
mod penalty;

use crate::linalg::axpy;
pub use crate::linalg::dot;
pub use function::{Differentiable, Function};
use newton::NewtonStep;
pub use objective::{norm2, norm_inf, Evaluator, Objective};
pub use penalty::{Penalty, PenaltyLine};

/// The optimisers of a smooth objective.
///
/// | name | method | per iteration |
/// |---|---|---|
/// | `newton` | trust-region Newton with conjugate gradients (LIBLINEAR's TRON) | one gradient, a few Hessian products |
/// | `newton-ls` | line-search Newton with conjugate gradients stopped by the quadratic rule (LIBLINEAR's later `NEWTON`) | one gradient per trial step, a few Hessian products |
/// | `newton-cholesky` | line-search Newton on the exact step: the Hessian formed and factored by Cholesky (scikit-learn's `newton-cholesky`) | one gradient per trial step, one Hessian (`N d^2` at most, `d^3 / 3` to factor) |
/// | `lbfgs` | limited-memory BFGS (10 pairs), strong-Wolfe line search | one or more gradients |
/// | `gd` | gradient descent `w <- w - step grad f(w)` with a fixed step | one gradient |
/// | `gd-armijo` | gradient descent with a backtracking (Armijo) line search from `step` | one or more objective values |
/// | `sgd` | stochastic gradient descent, one step per row ([`crate::linear::sgd`]'s engine) | one pass over the rows (an epoch) |
///
/// `sgd` steps on single rows of a pointwise loss, so it is run by the learner that owns
/// the rows and the loss (logistic regression), not by [`Solver::minimize`]; `auto` is a
/// learner's choice among the others by the shape of its data (logistic regression's rule:
/// [`LogisticRegression`](crate::linear::LogisticRegression)), made before it minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Solver {
    Auto,
    Newton,
    NewtonLs,
    NewtonCholesky,
    Lbfgs,
    Gd,
    GdArmijo,
    Sgd,
}

impl Solver {
    /// Every solver with its name.
    pub const NAMES: [(&'static str, Solver); 8] = [
        ("auto", Solver::Auto),
        ("newton", Solver::Newton),
        ("newton-ls", Solver::NewtonLs),
        ("newton-cholesky", Solver::NewtonCholesky),
        ("lbfgs", Solver::Lbfgs),
        ("gd", Solver::Gd),
        ("gd-armijo", Solver::GdArmijo),
        ("sgd", Solver::Sgd),
    ];

    /// The solver's name.
    pub fn name(self) -> &'static str {
        Solver::NAMES
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("?", |(n, _)| n)
    }

    /// Minimises `eval` from `w`; see [`Settings`] for the stopping rule. [`Solver::Sgd`]
    /// is an [`Error::Unsupported`]: it needs the rows and the pointwise loss, which a
    /// general function does not expose; so are the Newton solvers on a function without
    /// Hessian products, `newton-cholesky` on one that does not form its Hessian, and
    /// [`Solver::Auto`] (a learner resolves it first).
    pub fn minimize<E: Differentiable>(
        self,
        eval: &mut E,
        w: Vec<f64>,
        settings: &Settings,
    ) -> Result<(Vec<f64>, Convergence)> {
        let unsupported = |what: String| Error::Unsupported {
            model: "Solver::minimize".into(),
            what,
        };
        if matches!(
            self,
            Solver::Newton | Solver::NewtonLs | Solver::NewtonCholesky
        ) && !eval.has_hessian()
        {
            return Err(unsupported(format!(
                "solver={} on a function without Hessian products; use lbfgs, gd or gd-armijo",
                self.name()
            )));
        }
        if self == Solver::NewtonCholesky && !eval.forms_hessian() {
            return Err(unsupported(
                "solver=newton-cholesky on a function that does not form its Hessian (binary logistic regression's does); use newton or newton-ls".into(),
            ));
        }
        let (w, mut report) = match self {
            Solver::Newton => newton::tron(eval, w, settings),
            Solver::NewtonLs => newton::line_search_newton(eval, w, settings, NewtonStep::Cg),
            Solver::NewtonCholesky => {
                newton::line_search_newton(eval, w, settings, NewtonStep::Cholesky)
            }
            Solver::Lbfgs => lbfgs::lbfgs(eval, w, settings),
            Solver::Gd => gd::gradient_descent(eval, w, settings, false),
            Solver::GdArmijo => gd::gradient_descent(eval, w, settings, true),
            Solver::Sgd => {
                return Err(unsupported(
                    "solver=sgd on a general objective (SGD steps on single rows of a pointwise loss; logistic-regression runs it itself)".into(),
                ))
            }
            Solver::Auto => {
                return Err(unsupported(
                    "solver=auto on a general objective (a learner chooses the solver from its data first)".into(),
                ))
            }
        };
        crate::context::checkpoint()?;
        report.solver = Some(self);
        Ok((w, report))
    }
}

impl std::str::FromStr for Solver {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        Solver::NAMES
            .iter()
            .find(|(n, _)| *n == s.trim())
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                let names: Vec<&str> = Solver::NAMES.iter().map(|(n, _)| *n).collect();
                format!("unknown solver; choose one of {}", names.join(", "))
            })
    }
}

impl std::fmt::Display for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

crate::param::choice_value!(Solver = Solver::NAMES.map(|(n, _)| n));

/// Which norm of the gradient the stopping rule bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GradNorm {
    /// `||g||_2`.
    Two,
    /// `max_j |g_j|`.
    Max,
}

impl GradNorm {
    /// The norm of `g`.
    pub fn of(self, g: &[f64]) -> f64 {
        match self {
            GradNorm::Two => norm2(g),
            GradNorm::Max => norm_inf(g),
        }
    }
}

/// When a solver stops: `norm(grad f(w)) <= gtol` (converged), or after `max_iter`
/// iterations (a [`ConvergenceWarning::MaxIterations`]). L-BFGS also stops when the
/// relative decrease `(f_k - f_{k+1}) / max(|f_k|, |f_{k+1}|, 1)` is below `ftol`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Iteration budget.
    pub max_iter: usize,
    /// Gradient-norm threshold.
    pub gtol: f64,
    /// The norm the threshold bounds.
    pub norm: GradNorm,
    /// L-BFGS relative-decrease threshold (scipy's `ftol`; scikit-learn uses `64 eps`).
    pub ftol: f64,
    /// Gradient descent: the fixed step, or the first trial step of the line search.
    pub step: f64,
}

/// `f(w)` and its gradient at the starting point, or the report of a start that is already
/// non-finite (every solver refuses to move from there; boxed, as the report is large).
fn start<E: Differentiable>(
    eval: &mut E,
    w: &[f64],
    keep_curvature: bool,
) -> std::result::Result<(f64, Vec<f64>), Box<Convergence>> {
    let mut g = vec![0.0; w.len()];
    let f = eval.value_grad(w, &mut g, keep_curvature);
    if f.is_finite() {
        Ok((f, g))
    } else {
        Err(Box::new(report(
            0,
            f,
            &g,
            Some(ConvergenceWarning::Diverged { iteration: 0 }),
        )))
    }
}

/// The report of a finished solve at `w` with objective `f` and gradient `g`.
fn report(
    iterations: usize,
    f: f64,
    g: &[f64],
    warning: Option<ConvergenceWarning>,
) -> Convergence {
    Convergence {
        iterations,
        updates: None,
        objective: Some(f),
        grad_norm: Some(norm2(g)),
        in_sample_error: None,
        warning,
        dual_objective: None,
        duality_gap: None,
        solver: None,
    }
}

/// The report of a solver stopped at iteration `it` at `f` and `g`: converged when `g` meets
/// the tolerance, else the warning `why`.
fn stopped(it: usize, s: &Settings, f: f64, g: &[f64], why: ConvergenceWarning) -> Convergence {
    let warning = (s.norm.of(g) > s.gtol).then_some(why);
    report(it, f, g, warning)
}

/// The warning of a line search that failed at iteration `it` with the gradient `g`: how far
/// its norm ended from the tolerance.
fn line_search_failed(it: usize, s: &Settings, g: &[f64]) -> ConvergenceWarning {
    ConvergenceWarning::LineSearchFailed {
        iteration: it,
        gradient_norm: Some(s.norm.of(g)),
        tolerance: Some(s.gtol),
    }
}

/// The report of a solver whose budget of `s.max_iter` iterations ran out at `f` and `g`.
fn budget_spent(s: &Settings, f: f64, g: &[f64]) -> Convergence {
    let why = ConvergenceWarning::MaxIterations {
        iterations: s.max_iter,
    };
    stopped(s.max_iter, s, f, g, why)
}

#[cfg(test)]
mod solver_tests {
    use super::objective::tests::Quadratic;
    use super::*;

    fn settings(max_iter: usize, step: f64) -> Settings {
        Settings {
            max_iter,
            gtol: 1e-10,
            norm: GradNorm::Two,
            ftol: 0.0,
            step,
        }
    }

    /// Rosenbrock's function `(1 - x)^2 + 100 (y - x^2)^2`, minimum 0 at `(1, 1)`: not a
    /// function of linear scores.
    fn rosenbrock(w: &[f64], g: &mut [f64]) -> f64 {
        let (x, y) = (w[0], w[1]);
        g[0] = -2.0 * (1.0 - x) - 400.0 * x * (y - x * x);
        g[1] = 200.0 * (y - x * x);
        (1.0 - x).powi(2) + 100.0 * (y - x * x).powi(2)
    }

    #[test]
    fn a_general_function_is_minimised_through_the_same_solvers() {
        for (solver, max_iter, step) in
            [(Solver::Lbfgs, 200, 1.0), (Solver::GdArmijo, 100_000, 1.0)]
        {
            let mut f = Function::new(2, rosenbrock);
            let (w, c) = solver
                .minimize(&mut f, vec![-1.2, 1.0], &settings(max_iter, step))
                .unwrap();
            assert!(c.warning.is_none(), "{solver:?}: {c:?}");
            assert!(
                (w[0] - 1.0).abs() < 1e-6 && (w[1] - 1.0).abs() < 1e-6,
                "{solver:?}: {w:?}"
            );
            assert!(f.evaluations > 0);
        }
        // the step the line search accepts is not evaluated a second time
        let mut points: Vec<Vec<f64>> = Vec::new();
        let mut f = Function::new(2, |w: &[f64], g: &mut [f64]| {
            points.push(w.to_vec());
            rosenbrock(w, g)
        });
        let (_, c) = Solver::Lbfgs
            .minimize(&mut f, vec![-1.2, 1.0], &settings(200, 1.0))
            .unwrap();
        assert!(points.windows(2).all(|p| p[0] != p[1]), "{points:?}");
        assert!(
            points.len() <= 2 * c.iterations,
            "{} evaluations",
            points.len()
        );
        for solver in [Solver::Newton, Solver::NewtonLs, Solver::NewtonCholesky] {
            let mut f = Function::new(2, rosenbrock);
            let e = solver
                .minimize(&mut f, vec![0.0; 2], &settings(10, 1.0))
                .unwrap_err()
                .to_string();
            assert!(e.contains("without Hessian products"), "{e}");
        }
    }

    /// Every solver on `lambda/2 sum_{j in S} w_j^2 + sum_n a_n/2 (w_{n mod 4} - b_n)^2`,
    /// whose minimiser is `w_j = sum a b / (sum a + lambda [j in S])` (the sums over the
    /// rows of `j`): strength 1 on all but the last parameter (the linear models'
    /// penalty), strengths 3.5 and 0.25 on other sets, and no penalty at all.
    #[test]
    fn every_solver_reaches_the_minimiser_of_each_penalty() {
        let penalties = [
            Penalty::l2(3),
            Penalty::L2 {
                strength: 3.5,
                penalised: vec![0..1, 2..4],
            },
            Penalty::L2 {
                strength: 0.25,
                penalised: vec![1..3, 3..4],
            },
            Penalty::None,
        ];
        for penalty in penalties {
            let q = Quadratic {
                penalty: penalty.clone(),
                ..Quadratic::new(50, 4)
            };
            let (lambda, penalised) = match &penalty {
                Penalty::None => (0.0, vec![]),
                Penalty::L2 {
                    strength,
                    penalised,
                } => (*strength, penalised.clone()),
            };
            let exact: Vec<f64> = (0..4)
                .map(|j| {
                    let rows = (j..50).step_by(4);
                    let ab: f64 = rows.clone().map(|n| q.a[n] * q.b[n]).sum();
                    let a: f64 = rows.map(|n| q.a[n]).sum();
                    let in_s = penalised.iter().any(|r| r.contains(&j));
                    ab / (a + if in_s { lambda } else { 0.0 })
                })
                .collect();
            for (a, b) in q.solution().iter().zip(&exact) {
                assert!((a - b).abs() < 1e-12, "{penalty:?}");
            }
            for (solver, step) in [
                (Solver::Newton, 0.0),
                (Solver::NewtonLs, 0.0),
                (Solver::NewtonCholesky, 0.0),
                (Solver::Lbfgs, 0.0),
                (Solver::Gd, 0.01),
                (Solver::GdArmijo, 1.0),
            ] {
                let mut e = Evaluator::new(&q);
                let (w, c) = solver
                    .minimize(&mut e, vec![0.0; 4], &settings(100_000, step))
                    .unwrap();
                assert!(c.converged(), "{solver:?}, {penalty:?}: {:?}", c.warning);
                for (a, b) in w.iter().zip(&exact) {
                    assert!(
                        (a - b).abs() < 1e-8,
                        "{solver:?}, {penalty:?}: {w:?} vs {exact:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn newton_solvers_report_a_short_budget_and_stop_at_rounding() {
        let q = Quadratic::new(50, 4);
        let exact = q.solution();
        for solver in [Solver::Newton, Solver::NewtonLs, Solver::NewtonCholesky] {
            let mut e = Evaluator::new(&q);
            let (_, c) = solver
                .minimize(&mut e, vec![0.0; 4], &settings(1, 0.0))
                .unwrap();
            // the exact step solves a quadratic at once; conjugate gradients with the
            // truncation rules do not
            let short = (solver != Solver::NewtonCholesky)
                .then_some(ConvergenceWarning::MaxIterations { iterations: 1 });
            assert_eq!(c.warning, short, "{solver:?}");
            assert_eq!((c.iterations, c.solver), (1, Some(solver)));
            // gtol = 0 cannot be met: the solver stops once rounding hides any progress,
            // long before the budget, at the minimiser
            let mut s = settings(1000, 0.0);
            s.gtol = 0.0;
            let (w, c) = solver.minimize(&mut e, vec![0.0; 4], &s).unwrap();
            let Some(ConvergenceWarning::LineSearchFailed {
                iteration,
                gradient_norm,
                tolerance,
            }) = c.warning
            else {
                panic!("{solver:?}: {c:?}")
            };
            assert!(iteration < 100, "{solver:?}: {c:?}");
            // where it ended, in the norm of the stopping rule (here the 2-norm)
            assert_eq!((gradient_norm, tolerance), (c.grad_norm, Some(0.0)));
            for (a, b) in w.iter().zip(&exact) {
                assert!((a - b).abs() < 1e-8, "{solver:?}: {w:?} vs {exact:?}");
            }
        }
    }

    /// `f = 0` with the gradient `(1, 1, 1, 1)`: no step along `-g` decreases `f`.
    fn flat(_: &[f64], g: &mut [f64]) -> f64 {
        g.fill(1.0);
        0.0
    }

    #[test]
    fn a_failed_line_search_says_how_far_from_the_tolerance_it_ended() {
        for solver in [Solver::Lbfgs, Solver::GdArmijo] {
            for (norm, expected) in [(GradNorm::Two, 2.0), (GradNorm::Max, 1.0)] {
                let mut s = settings(100, 1.0);
                (s.gtol, s.norm) = (1e-3, norm);
                let (w, c) = solver
                    .minimize(&mut Function::new(4, flat), vec![0.5; 4], &s)
                    .unwrap();
                let warning = c.warning.expect("no decrease");
                assert_eq!(
                    warning,
                    ConvergenceWarning::LineSearchFailed {
                        iteration: 1,
                        gradient_norm: Some(expected),
                        tolerance: Some(1e-3),
                    },
                    "{solver:?}"
                );
                assert_eq!(w, [0.5; 4], "{solver:?}: the last good point");
            }
        }
        let warning = ConvergenceWarning::LineSearchFailed {
            iteration: 7,
            gradient_norm: Some(3.2e-4),
            tolerance: Some(1e-5),
        };
        assert_eq!(
            warning.to_string(),
            "the line search found no decrease at iteration 7; the result is the last good point, \
             where the gradient norm 3.20e-4 is 32.0 times the tolerance 1.00e-5"
        );
        let text = serde_json::to_string(&warning).unwrap();
        assert_eq!(
            serde_json::from_str::<ConvergenceWarning>(&text).unwrap(),
            warning
        );
        let zero = ConvergenceWarning::LineSearchFailed {
            iteration: 2,
            gradient_norm: Some(1e-14),
            tolerance: Some(0.0),
        };
        assert!(zero
            .to_string()
            .ends_with("where the gradient norm is 1.00e-14 against the tolerance 0"));
        // a report written before the two fields were recorded still reads
        let old: ConvergenceWarning =
            serde_json::from_str(r#"{"kind":"line_search_failed","iteration":3}"#).unwrap();
        assert_eq!(
            old,
            ConvergenceWarning::LineSearchFailed {
                iteration: 3,
                gradient_norm: None,
                tolerance: None,
            }
        );
        assert!(old.to_string().ends_with("the last good point"), "{old}");
    }

    #[test]
    fn a_report_keeps_its_dual_figures_and_older_reports_read_without_them() {
        let old: Convergence = serde_json::from_str(r#"{"iterations":4,"objective":2.5}"#).unwrap();
        assert_eq!((old.dual_objective, old.duality_gap), (None, None));
        let text = serde_json::to_string(&old).unwrap();
        assert!(!text.contains("dual"), "{text}");
        let dual = Convergence {
            dual_objective: Some(2.25),
            duality_gap: Some(0.25),
            ..old
        };
        let text = serde_json::to_string(&dual).unwrap();
        assert_eq!(serde_json::from_str::<Convergence>(&text).unwrap(), dual);
    }

    #[test]
    fn a_huge_fixed_step_diverges_and_a_small_budget_is_reported() {
        let q = Quadratic::new(50, 4);
        let mut e = Evaluator::new(&q);
        let (w, c) = Solver::Gd
            .minimize(&mut e, vec![0.0; 4], &settings(1000, 100.0))
            .unwrap();
        assert!(
            matches!(c.warning, Some(ConvergenceWarning::Diverged { .. })),
            "{c:?}"
        );
        assert!(w.iter().all(|v| v.is_finite()) && c.objective.unwrap().is_finite());
        let (_, c) = Solver::Gd
            .minimize(&mut e, vec![0.0; 4], &settings(3, 0.001))
            .unwrap();
        assert_eq!(
            c.warning,
            Some(ConvergenceWarning::MaxIterations { iterations: 3 })
        );
        assert!("newton".parse::<Solver>().is_ok() && "adam".parse::<Solver>().is_err());
        let e = Solver::Sgd
            .minimize(&mut e, vec![0.0; 4], &settings(3, 0.001))
            .unwrap_err()
            .to_string();
        assert!(e.contains("solver=sgd"), "{e}");
    }
}
