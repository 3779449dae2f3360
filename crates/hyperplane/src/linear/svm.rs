//! The linear support vector machine (LIBLINEAR's `-s 1`, `-s 3` and `-s 2`), binary:
//!
//! ```text
//! primal  P(w) = 1/2 ||w||^2 + sum_i C_i xi(y_i w.x_i)
//!         hinge xi(z) = max(0, 1 - z),  squared hinge xi(z) = max(0, 1 - z)^2
//! dual    min_a f(a) = 1/2 a^T Qbar a - e^T a   s.t.  0 <= a_i <= U_i
//!         Qbar = Q + D,  Q_ij = y_i y_j x_i.x_j
//!         hinge: U_i = C_i, D_ii = 0;   squared hinge: U_i = inf, D_ii = 1 / (2 C_i)
//!         w(a) = sum_i y_i a_i x_i,   D(a) = -f(a) <= P(w),   D(a*) = P(w(a*))
//! ```
//!
//! with `y_i` in {-1, +1} (`classes[1]` is +1) and `C_i = C c_i`, `c_i` the row's sample
//! weight times its class weight (rows of weight 0 are left out). The intercept is
//! LIBLINEAR's `-B`: every `x_i` gets a last feature of constant value `B`, whose weight
//! `w_B` is penalised like the others; the model's intercept is `b = B w_B`
//! (`bias=none`: no such feature, `b = 0`).
//!
//! `solver=dual` (the default) is the dual coordinate descent of Hsieh, Chang, Lin, Keerthi
//! and Sundararajan (2008). It keeps `w = w(a)` and minimises `f` over one `a_i` at a time,
//! exactly, in `O(nnz(x_i))`:
//!
//! ```text
//! G  = y_i w.x_i - 1 + D_ii a_i                      (d f / d a_i)
//! PG = min(G, 0) if a_i = 0;  max(G, 0) if a_i = U_i;  G otherwise   (projected gradient)
//! if PG != 0:  a_i' = min(max(a_i - G / Qbar_ii, 0), U_i),   w += (a_i' - a_i) y_i x_i
//! ```
//!
//! A pass visits the active rows in a new random order (the seeded [`Rng`], `seed`).
//! Shrinking, with `M` and `m` the largest and smallest `PG` of the previous pass
//! (`M = inf` when it was `<= 0`, `m = -inf` when it was `>= 0`): a row at `a_i = 0` with
//! `G > M`, or at `a_i = U_i` with `G < m`, is likely to stay at its bound and leaves the
//! active set. A pass whose `max(PG, 0) - min(PG, 0)` is below `tol` over the active rows
//! ends the run if every row was active; otherwise every row becomes active again and the
//! run goes on without shrinking for a pass (the paper's and LIBLINEAR's rule; counting 0
//! in both bounds makes the rule bound every `|PG|` by `tol`). `max_iter` bounds the passes.
//! A row whose `Qbar_ii` is 0 (`x_i = 0`, no intercept, hinge loss) has `G = -1` and the
//! step takes it to `a_i = U_i` (`-G / 0 = inf`), which leaves `w` unchanged.
//!
//! `solver=primal` (squared hinge only, LIBLINEAR's `-s 2`) minimises `P` by the trust-region
//! Newton solver ([`Solver::Newton`]) through the smooth objective of the binary learners,
//! with the generalised Hessian `I + 2 sum_{i: y_i s_i < 1} C_i x_i x_i^T` (the hinge has no
//! second derivative), stopping by LIBLINEAR's rule
//! `||grad P(w)|| <= tol max(min_k m_k, 1) / N ||grad P(0)||` (`m_k` the rows of class `k`).
//! Its multipliers are `a_i = 2 C_i max(0, 1 - y_i w.x_i)`, the squared hinge's optimality
//! condition.
//!
//! The model's [`Convergence`] holds `P(w)` as its `objective`, `D(a)` and the duality gap
//! `P(w) - D(a)` (with the dual solver `w = w(a)`; with the primal one `D` is evaluated at
//! `w(a)` of its multipliers), and the passes or Newton iterations.
//!
//! scikit-learn: `LinearSVC(C=c, loss=...)` solves the same problem with its bundled
//! LIBLINEAR (`intercept_scaling` is `B`), at `tol=1e-4` by default.

use serde::{Deserialize, Serialize};

use crate::data::{Dataset, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::{Fit, Kind, KindInfo};
use crate::linear::binary::{binary_model, BinaryFit};
use crate::linear::binary_objective::{BinaryObjective, Intercept, PointwiseLoss};
use crate::linear::cross_entropy::{class_counts, relative_gtol, single_class_model};
use crate::optim::{Convergence, ConvergenceWarning, Evaluator, GradNorm, Settings, Solver};
use crate::param::Params;
use crate::rng::Rng;
use crate::score::{LinearModel, Link};
use crate::weights::ClassWeight;
use crate::with_rows;

crate::choice_enum! {
    /// The loss of the linear SVM (see the module doc).
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SvmLoss {
        /// `max(0, 1 - y s)`: LIBLINEAR's `-s 3`.
        Hinge = "hinge",
        /// `max(0, 1 - y s)^2`: LIBLINEAR's `-s 1` and `-s 2`.
        #[default]
        SquaredHinge = "squared_hinge",
    }
}

crate::choice_enum! {
    /// How the linear SVM is solved (see the module doc).
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SvmSolver {
        /// Dual coordinate descent.
        #[default]
        Dual = "dual",
        /// Trust-region Newton on the primal (squared hinge only).
        Primal = "primal",
    }
}

crate::params_struct! {
    /// Params of the linear SVM (binary; wrap it for more classes). The defaults are
    /// LIBLINEAR's `-s 1 -B 1` (scikit-learn's `LinearSVC()` but for its `tol=1e-4`).
    pub struct LinearSvm as "linear-svm" {
        /// `C`: weight of the data term against `1/2 ||w||^2` (`C_i = C c_i`; larger: a harder margin)
        pub c: f64 = "1", positive;
        /// `squared_hinge` `max(0, 1 - y s)^2` (LIBLINEAR `-s 1`, `-s 2`) or `hinge` `max(0, 1 - y s)` (`-s 3`)
        pub loss: SvmLoss = "squared_hinge", "`squared_hinge`, `hinge`";
        /// `dual`: coordinate descent on the dual; `primal`: Newton on the primal (squared hinge only, `-s 2`)
        pub solver: SvmSolver = "dual", "`dual`, `primal`";
        /// LIBLINEAR's `-B`: a constant feature of value `B` on every row, its weight penalised (`b = B w_B`); `none`: no intercept
        pub bias: Option<f64> = "1", positive;
        /// per-class weights multiplying `C` with the sample weights
        pub class_weight: ClassWeight = "none", "`none`, `balanced`, `LABEL:W,...`";
        /// `dual`: stop when `max PG - min PG < tol`; `primal`: LIBLINEAR's relative gradient rule; `auto`: LIBLINEAR's 0.1 (`dual`) or 0.01 (`primal`)
        pub tol: Option<f64> = "auto", positive as Auto;
        /// passes over the rows (`dual`) or Newton iterations (`primal`) at most
        pub max_iter: usize = "1000", at_least_1;
        /// `dual`: seed of the row order of every pass
        pub seed: u64 = "0", any;
    }
}

impl LinearSvm {
    /// The stopping tolerance: `tol`, or LIBLINEAR's default for the solver.
    fn tolerance(&self) -> f64 {
        self.tol.unwrap_or(match self.solver {
            SvmSolver::Dual => 0.1,
            SvmSolver::Primal => 0.01,
        })
    }

    /// Refuses the settings the solver cannot honour, naming them.
    fn check_solver_settings(&self) -> Result<()> {
        if self.solver != SvmSolver::Primal {
            return Ok(());
        }
        if self.loss == SvmLoss::Hinge {
            return Err(Error::param(
                "solver",
                "primal",
                "the hinge loss has no second derivative for Newton's method; use solver=dual (or loss=squared_hinge)",
            ));
        }
        if self.seed != 0 {
            return Err(Error::param(
                "seed",
                self.seed,
                "applies to solver=dual only (Newton's method visits no rows in random order); set solver=dual or leave seed at 0",
            ));
        }
        Ok(())
    }
}

impl SvmLoss {
    /// `xi(z)` at the margin `z = y s`.
    fn value(self, z: f64) -> f64 {
        let slack = (1.0 - z).max(0.0);
        match self {
            SvmLoss::Hinge => slack,
            SvmLoss::SquaredHinge => slack * slack,
        }
    }

    /// The bound `U_i` and the diagonal `D_ii` of a row of weight `C_i`.
    #[inline]
    fn dual_box(self, c: f64) -> (f64, f64) {
        match self {
            SvmLoss::Hinge => (c, 0.0),
            SvmLoss::SquaredHinge => (f64::INFINITY, 0.5 / c),
        }
    }
}

/// The squared hinge as a smooth loss for Newton: `C_i max(0, 1 - y s)^2`, its derivative
/// `-2 C_i y max(0, 1 - y s)` and its generalised second derivative `2 C_i [y s < 1]`.
#[derive(Clone, Copy)]
struct SquaredHinge;

impl PointwiseLoss for SquaredHinge {
    #[inline]
    fn weighted(&self, c: f64, y: f64, s: f64) -> (f64, f64, f64) {
        let slack = 1.0 - y * s;
        if slack > 0.0 {
            (c * slack * slack, -2.0 * c * y * slack, 2.0 * c)
        } else {
            (0.0, 0.0, 0.0)
        }
    }
}

/// A row of the dual, with its multiplier: one 32-byte entry, so a shuffled visit reads
/// one cache line for all of it.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Coordinate {
    y: f64,
    /// `C_i`.
    c: f64,
    /// `Qbar_ii = ||x_i||^2 + B^2 + D_ii`.
    q: f64,
    /// `a_i`.
    a: f64,
}

/// A binary problem: the rows, their labels and weights `C_i`, the intercept feature's
/// value `B` (0 without one) and the loss.
struct Problem<'a, M: RowAccess> {
    x: &'a M,
    y: &'a [f64],
    /// `C_i = C c_i`.
    c: &'a [f64],
    bias: f64,
    loss: SvmLoss,
}

/// A solution: the weights `w` and `w_B`, and the multipliers `a`.
struct Solution {
    w: Vec<f64>,
    w_b: f64,
    alpha: Vec<f64>,
    report: Convergence,
}

impl<M: RowAccess> Problem<'_, M> {
    /// `y_i (w.x_i + B w_B)`.
    #[inline]
    fn margin(&self, i: usize, w: &[f64], w_b: f64) -> f64 {
        self.y[i] * (self.x.dot_row(i, w) + self.bias * w_b)
    }

    /// Dual coordinate descent from `a = 0` (module doc).
    fn dual_cd(&self, tol: f64, max_iter: usize, seed: u64) -> Solution {
        let n = self.x.n_rows();
        let bb = self.bias * self.bias;
        let mut rows: Vec<Coordinate> = (0..n)
            .map(|i| {
                let c = self.c[i];
                let q = if c > 0.0 {
                    self.x.row_norm_sq(i) + bb + self.loss.dual_box(c).1
                } else {
                    0.0
                };
                Coordinate {
                    y: self.y[i],
                    c,
                    q,
                    a: 0.0,
                }
            })
            .collect();
        let weighted: Vec<usize> = (0..n).filter(|&i| self.c[i] > 0.0).collect();
        let mut active = weighted.clone();
        let (mut w, mut w_b) = (vec![0.0; self.x.n_cols()], 0.0);
        let mut rng = Rng::new(seed);
        // M and m of the previous pass: no shrinking before the first
        let (mut upper, mut lower) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut passes = 0;
        let mut converged = false;
        while passes < max_iter && !crate::context::cancelled() {
            passes += 1;
            rng.shuffle(&mut active);
            let (mut pg_max, mut pg_min) = (0.0f64, 0.0f64);
            let mut kept = 0;
            for k in 0..active.len() {
                let i = active[k];
                self.x.prefetch_ahead(&active, k, &rows);
                let r = rows[i];
                let (u, d) = self.loss.dual_box(r.c);
                let g = r.y * (self.x.dot_row(i, &w) + self.bias * w_b) - 1.0 + d * r.a;
                let pg = if r.a == 0.0 {
                    if g > upper {
                        continue; // shrunk
                    }
                    g.min(0.0)
                } else if r.a >= u {
                    if g < lower {
                        continue; // shrunk
                    }
                    g.max(0.0)
                } else {
                    g
                };
                active[kept] = i;
                kept += 1;
                pg_max = pg_max.max(pg);
                pg_min = pg_min.min(pg);
                if pg != 0.0 {
                    let a = (r.a - g / r.q).max(0.0).min(u);
                    let step = (a - r.a) * r.y;
                    rows[i].a = a;
                    self.x.add_row_scaled(i, step, &mut w);
                    w_b += step * self.bias;
                }
            }
            active.truncate(kept);
            if pg_max - pg_min < tol {
                if active.len() == weighted.len() {
                    converged = true;
                    break;
                }
                active.clone_from(&weighted);
                (upper, lower) = (f64::INFINITY, f64::NEG_INFINITY);
                continue;
            }
            upper = if pg_max > 0.0 { pg_max } else { f64::INFINITY };
            lower = if pg_min < 0.0 {
                pg_min
            } else {
                f64::NEG_INFINITY
            };
        }
        Solution {
            w,
            w_b,
            alpha: rows.iter().map(|r| r.a).collect(),
            report: Convergence {
                iterations: passes,
                warning: (!converged).then_some(ConvergenceWarning::MaxIterations {
                    iterations: max_iter,
                }),
                ..Convergence::default()
            },
        }
    }

    /// Trust-region Newton on the squared-hinge primal from `w = 0` (module doc); the
    /// multipliers are `a_i = 2 C_i max(0, 1 - y_i w.x_i)`.
    fn primal_newton(&self, tol: f64, max_iter: usize, class_counts: &[usize]) -> Result<Solution> {
        let intercept = if self.bias > 0.0 {
            Intercept::Penalised(self.bias)
        } else {
            Intercept::None
        };
        let objective = BinaryObjective {
            x: self.x,
            y: self.y,
            weight: self.c,
            intercept,
            loss: SquaredHinge,
        };
        let mut eval = Evaluator::new(&objective);
        let settings = Settings {
            max_iter,
            gtol: relative_gtol(&mut eval, class_counts, tol),
            norm: GradNorm::Two,
            ftol: 0.0, // unused by Newton
            step: 1.0, // unused by Newton
        };
        let w0 = vec![0.0; objective_dim(self.x.n_cols(), intercept)];
        let (mut w, report) = Solver::Newton.minimize(&mut eval, w0, &settings)?;
        let w_b = if intercept == Intercept::None {
            0.0
        } else {
            w.pop().unwrap_or(0.0)
        };
        let alpha = (0..self.x.n_rows())
            .map(|i| 2.0 * self.c[i] * (1.0 - self.margin(i, &w, w_b)).max(0.0))
            .collect();
        Ok(Solution {
            w,
            w_b,
            alpha,
            report,
        })
    }

    /// `P(w) = 1/2 (||w||^2 + w_B^2) + sum_i C_i xi(y_i (w.x_i + B w_B))`: one pass.
    fn primal_objective(&self, w: &[f64], w_b: f64) -> f64 {
        let loss: f64 = (0..self.x.n_rows())
            .filter(|&i| self.c[i] > 0.0)
            .map(|i| self.c[i] * self.loss.value(self.margin(i, w, w_b)))
            .sum();
        0.5 * norm_sq(w, w_b) + loss
    }

    /// `w(a) = sum_i y_i a_i x_i` and its intercept weight `w_B(a) = B sum_i y_i a_i`: one
    /// pass.
    fn weights_of(&self, alpha: &[f64]) -> (Vec<f64>, f64) {
        let (mut w, mut w_b) = (vec![0.0; self.x.n_cols()], 0.0);
        for (i, &a) in alpha.iter().enumerate() {
            if a != 0.0 {
                self.x.add_row_scaled(i, a * self.y[i], &mut w);
                w_b += a * self.y[i] * self.bias;
            }
        }
        (w, w_b)
    }

    /// `D(a) = e^T a - 1/2 ||w(a)||^2 - 1/2 sum_i D_ii a_i^2`, given `w(a)` and `w_B(a)`.
    fn dual_objective(&self, alpha: &[f64], w: &[f64], w_b: f64) -> f64 {
        let (sum, quad) = alpha
            .iter()
            .zip(self.c)
            .filter(|(_, &c)| c > 0.0)
            .fold((0.0, 0.0), |(s, q), (&a, &c)| {
                (s + a, q + self.loss.dual_box(c).1 * a * a)
            });
        sum - 0.5 * norm_sq(w, w_b) - 0.5 * quad
    }
}

/// `||w||^2 + w_B^2`.
fn norm_sq(w: &[f64], w_b: f64) -> f64 {
    w.iter().map(|v| v * v).sum::<f64>() + w_b * w_b
}

/// The parameters of the primal: the weights, and `w_B` with an intercept.
fn objective_dim(n_features: usize, intercept: Intercept) -> usize {
    n_features + usize::from(intercept != Intercept::None)
}

impl LinearSvm {
    /// Solves the binary problem of `data` with the chosen solver; the solution's report
    /// holds `P`, `D` and the gap.
    fn solve(&self, data: &Dataset, y: &[f64], c: &[f64]) -> Result<Solution> {
        let (tol, max_iter) = (self.tolerance(), self.max_iter);
        with_rows!(data.x(), |m| {
            let problem = Problem {
                x: m,
                y,
                c,
                bias: self.bias.unwrap_or(0.0),
                loss: self.loss,
            };
            let mut s = match self.solver {
                SvmSolver::Dual => problem.dual_cd(tol, max_iter, self.seed),
                SvmSolver::Primal => problem.primal_newton(tol, max_iter, &class_counts(data))?,
            };
            crate::context::checkpoint()?;
            let primal = problem.primal_objective(&s.w, s.w_b);
            // the dual solver keeps w = w(a); the primal one's w(a) is summed here
            let dual = match self.solver {
                SvmSolver::Dual => problem.dual_objective(&s.alpha, &s.w, s.w_b),
                SvmSolver::Primal => {
                    let (w, w_b) = problem.weights_of(&s.alpha);
                    problem.dual_objective(&s.alpha, &w, w_b)
                }
            };
            s.report.objective = Some(primal);
            s.report.dual_objective = Some(dual);
            s.report.duality_gap = Some(primal - dual);
            Ok(s)
        })
    }
}

impl Fit for LinearSvm {
    type Model = LinearModel;
    /// The weights `w` and the intercept `b = B w_B`; the report holds `P(w)`, `D(a)`, the
    /// gap and the passes (or Newton iterations), with a `MaxIterations` warning when
    /// `max_iter` ran out.
    fn fit(&self, data: &Dataset) -> Result<LinearModel> {
        self.check_params()?;
        self.check_solver_settings()?;
        let fit = BinaryFit::new(data, &self.class_weight, Self::KIND)?;
        if data.classes().len() == 1 {
            return single_class_model(data, Link::Sign);
        }
        let c: Vec<f64> = fit.c.iter().map(|w| self.c * w).collect();
        let s = self.solve(data, &fit.y, &c)?;
        let b = self.bias.map_or(0.0, |bias| bias * s.w_b);
        binary_model(data, s.w, b, Link::Sign, s.report)
    }
}

/// The random pass order of coordinate descent moves its weights within its tolerance
/// only, so the model does not depend on the rows' order beyond that.
impl Kind for LinearSvm {
    const INFO: &'static KindInfo = &KindInfo::binary(
        Self::KIND,
        super::CLASSIFIER_GROUP,
        "linear SVM, hinge or squared hinge: dual coordinate descent, or Newton on the primal",
    );
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        Some(&mut self.class_weight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Features, Label};
    use crate::estimator::Classifier;
    use crate::linear::binary::tests::{separable, sparse_copy};
    use crate::linear::binary_objective::tests::check_loss;
    use ndarray::{array, Array2};
    use proptest::prelude::*;

    /// A seeded overlapping set: `n` points of `d` features, labels by a noisy hyperplane.
    fn noisy(seed: u64, n: usize, d: usize) -> Dataset<'static> {
        let mut rng = crate::rng::Rng::new(seed);
        let x = Array2::from_shape_fn((n, d), |_| rng.next_f64() * 2.0 - 1.0);
        let labels: Vec<Label> = (0..n)
            .map(|i| {
                let s: f64 = x
                    .row(i)
                    .iter()
                    .enumerate()
                    .map(|(j, v)| v / (1.0 + j as f64))
                    .sum();
                Label::Int(if s + 0.6 * (rng.next_f64() - 0.5) > 0.1 {
                    1
                } else {
                    -1
                })
            })
            .collect();
        Dataset::new(x.into(), &labels).unwrap()
    }

    /// The solution of `params` on `data` (with its row weights), at the problem's level.
    fn solution(params: &LinearSvm, data: &Dataset) -> (Solution, Vec<f64>, Vec<f64>) {
        let fit = BinaryFit::new(data, &params.class_weight, "test").unwrap();
        let c: Vec<f64> = fit.c.iter().map(|w| params.c * w).collect();
        (params.solve(data, &fit.y, &c).unwrap(), fit.y, c)
    }

    fn tight(loss: SvmLoss) -> LinearSvm {
        LinearSvm::default()
            .loss(loss)
            .tol(Some(1e-10))
            .max_iter(100_000)
    }

    /// The KKT conditions of the dual at `a` within `tol`: `G_i = y_i w.x_i - 1 + D_ii a_i`
    /// is 0 where `0 < a_i < U_i`, `>= 0` where `a_i = 0` and `<= 0` where `a_i = U_i`.
    fn assert_kkt(params: &LinearSvm, data: &Dataset, tol: f64) {
        let (s, y, c) = solution(params, data);
        let bias = params.bias.unwrap_or(0.0);
        with_rows!(data.x(), |m| {
            for i in (0..m.n_rows()).filter(|&i| c[i] > 0.0) {
                let (u, d) = params.loss.dual_box(c[i]);
                let a = s.alpha[i];
                let g = y[i] * (m.dot_row(i, &s.w) + bias * s.w_b) - 1.0 + d * a;
                assert!((0.0..=u).contains(&a), "a_{i} = {a} outside [0, {u}]");
                if a == 0.0 {
                    assert!(g >= -tol, "a_{i} = 0 but G = {g}");
                } else if a == u {
                    assert!(g <= tol, "a_{i} = U but G = {g}");
                } else {
                    assert!(g.abs() <= tol, "0 < a_{i} = {a} < U but G = {g}");
                }
            }
        });
    }

    #[test]
    fn the_squared_hinge_primal_has_its_derivatives() {
        let weight: Vec<f64> = (0..40).map(|i| 0.5 + (i % 4) as f64).collect();
        let intercepts = [Intercept::Penalised(2.0), Intercept::None];
        check_loss(&noisy(3, 40, 3), &weight, &intercepts, SquaredHinge);
    }

    #[test]
    fn both_solvers_reach_the_same_squared_hinge_optimum() {
        let data = noisy(1, 200, 4);
        for bias in [Some(1.0), Some(3.0), None] {
            let dual = tight(SvmLoss::SquaredHinge).bias(bias).fit(&data).unwrap();
            let primal = LinearSvm::default()
                .solver(SvmSolver::Primal)
                .tol(Some(1e-10))
                .bias(bias)
                .fit(&data)
                .unwrap();
            let (pd, pp) = (dual.convergence(), primal.convergence());
            assert!(pd.converged() && pp.converged(), "{pd:?} {pp:?}");
            let (fd, fp) = (pd.objective.unwrap(), pp.objective.unwrap());
            assert!((fd - fp).abs() < 1e-9 * fp, "{bias:?}: {fd} vs {fp}");
            let diff = (dual.coef() - primal.coef())
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
            assert!(diff < 1e-6, "{bias:?}: {diff}");
            assert!((dual.intercept()[0] - primal.intercept()[0]).abs() < 1e-6);
            // the primal's multipliers certify it too
            assert!(pp.duality_gap.unwrap().abs() < 1e-8 * fp, "{pp:?}");
            if bias.is_none() {
                assert_eq!(dual.intercept()[0], 0.0);
            }
        }
    }

    #[test]
    fn the_report_holds_primal_dual_and_gap_and_a_short_budget_warns() {
        let data = noisy(2, 300, 5);
        for loss in [SvmLoss::Hinge, SvmLoss::SquaredHinge] {
            let m = LinearSvm::default().loss(loss).fit(&data).unwrap();
            let c = m.convergence();
            let (p, d, gap) = (
                c.objective.unwrap(),
                c.dual_objective.unwrap(),
                c.duality_gap.unwrap(),
            );
            assert!(c.converged() && c.iterations >= 2, "{loss:?}: {c:?}");
            assert_eq!(gap, p - d);
            assert!(gap >= 0.0 && gap < 0.05 * p, "{loss:?}: {c:?}");
            // P recomputed from the model's weights and intercept
            let s = m.scores(data.x()).unwrap();
            let y = crate::targets::signed_targets(&data, "t").unwrap();
            let w_b = m.intercept()[0];
            let recomputed = 0.5 * norm_sq(m.coef().as_slice().unwrap(), w_b)
                + (0..300).map(|i| loss.value(y[i] * s[[i, 0]])).sum::<f64>();
            assert!((recomputed - p).abs() < 1e-12 * p, "{recomputed} vs {p}");
            let short = LinearSvm::default()
                .loss(loss)
                .max_iter(1)
                .fit(&data)
                .unwrap();
            assert_eq!(
                short.convergence().warning,
                Some(ConvergenceWarning::MaxIterations { iterations: 1 })
            );
        }
    }

    #[test]
    fn shrinking_reaches_the_optimum_of_the_unshrunk_pass() {
        // the fit re-checks every row before it stops: the KKT conditions hold on all of them
        let data = noisy(4, 500, 6);
        for loss in [SvmLoss::Hinge, SvmLoss::SquaredHinge] {
            assert_kkt(
                &LinearSvm::default().loss(loss).tol(Some(1e-3)),
                &data,
                1e-3,
            );
        }
    }

    #[test]
    fn params_are_checked() {
        let data = noisy(5, 50, 2);
        let e = LinearSvm::default()
            .solver(SvmSolver::Primal)
            .loss(SvmLoss::Hinge)
            .fit(&data)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("solver") && e.contains("no second derivative") && e.contains("solver=dual"),
            "{e}"
        );
        let e = LinearSvm::default()
            .solver(SvmSolver::Primal)
            .seed(3)
            .fit(&data)
            .unwrap_err()
            .to_string();
        assert!(e.contains("seed") && e.contains("solver=dual only"), "{e}");
        assert!(LinearSvm::default().c(0.0).fit(&data).is_err());
        assert!(LinearSvm::default().bias(Some(-1.0)).fit(&data).is_err());
        assert!(LinearSvm::default().tol(Some(0.0)).fit(&data).is_err());
        let zero = data.clone().with_weights(vec![0.0; 50]).unwrap();
        assert!(LinearSvm::default().fit(&zero).is_err());
        let three = Dataset::new(
            array![[1.0], [2.0], [3.0]].into(),
            &[Label::Int(0), Label::Int(1), Label::Int(2)],
        )
        .unwrap();
        assert!(LinearSvm::default()
            .fit(&three)
            .unwrap_err()
            .to_string()
            .contains("multiclass=ova"));
        let mut p = LinearSvm::default();
        for (n, v) in [
            ("loss", "hinge"),
            ("solver", "primal"),
            ("bias", "none"),
            ("tol", "0.5"),
            ("seed", "9"),
        ] {
            p.set_param(n, v).unwrap();
        }
        assert_eq!(
            (p.loss, p.solver, p.bias, p.tol, p.seed),
            (SvmLoss::Hinge, SvmSolver::Primal, None, Some(0.5), 9)
        );
        assert!(p.set_param("loss", "log").is_err());
        assert_eq!(LinearSvm::default().tolerance(), 0.1);
        assert_eq!(
            LinearSvm::default().solver(SvmSolver::Primal).tolerance(),
            0.01
        );
    }

    #[test]
    fn rows_of_weight_zero_are_left_out_and_integer_weights_repeat_rows() {
        let data = noisy(6, 60, 3);
        let weights: Vec<f64> = (0..60).map(|i| (i % 3) as f64).collect();
        let weighted = data.clone().with_weights(weights.clone()).unwrap();
        let (mut rows, mut labels) = (Vec::new(), Vec::new());
        let x = data.x().to_dense();
        for (i, &w) in weights.iter().enumerate() {
            for _ in 0..w as usize {
                rows.push(x.row(i).to_vec());
                labels.push(data.labels()[i].clone());
            }
        }
        let repeated = Dataset::new(
            Array2::from_shape_fn((rows.len(), 3), |(i, j)| rows[i][j]).into(),
            &labels,
        )
        .unwrap();
        for loss in [SvmLoss::Hinge, SvmLoss::SquaredHinge] {
            let a = tight(loss).fit(&weighted).unwrap();
            let b = tight(loss).fit(&repeated).unwrap();
            let diff = (a.coef() - b.coef())
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
            assert!(diff < 1e-6, "{loss:?}: {diff}");
            let (fa, fb) = (
                a.convergence().objective.unwrap(),
                b.convergence().objective.unwrap(),
            );
            assert!((fa - fb).abs() < 1e-9 * fb, "{fa} vs {fb}");
        }
    }

    #[test]
    fn a_separable_set_is_separated_and_one_class_predicts_it() {
        let (data, _, _) = separable(7, 80, 2, 0.2);
        let m = tight(SvmLoss::Hinge).c(100.0).fit(&data).unwrap();
        assert_eq!(m.predict(data.x()).unwrap(), data.labels());
        let x: Features = array![[1.0], [2.0]].into();
        let one = Dataset::new(x.clone(), &[Label::Int(3), Label::Int(3)]).unwrap();
        assert_eq!(
            LinearSvm::default().fit(&one).unwrap().predict(&x).unwrap(),
            vec![Label::Int(3); 2]
        );
    }

    #[test]
    fn a_zero_row_without_intercept_goes_to_its_bound() {
        // Qbar_ii = 0 for the hinge: the row's a_i = C_i, and w does not move
        let x: Features = array![[0.0, 0.0], [1.0, 2.0], [-1.0, -1.5], [2.0, 1.0]].into();
        let data = Dataset::new(x, &[1, 1, -1, -1].map(Label::Int)).unwrap();
        let params = tight(SvmLoss::Hinge).bias(None);
        let (s, _, c) = solution(&params, &data);
        assert_eq!(s.alpha[0], c[0]);
        assert!(
            s.w.iter().all(|v| v.is_finite()) && s.report.converged(),
            "{:?}",
            s.report
        );
    }

    #[test]
    fn the_model_is_the_same_on_any_number_of_threads() {
        // 5,000 rows make several chunks of the primal's parallel sums
        let data = noisy(8, 5000, 4);
        for solver in [SvmSolver::Dual, SvmSolver::Primal] {
            let params = LinearSvm::default().solver(solver);
            let on = |threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| params.fit(&data).unwrap())
            };
            let one = on(1);
            assert_eq!(one, on(3), "{solver}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn weak_duality_kkt_seeds_and_storage(
            seed in 0u64..1000,
            n in 5usize..60,
            d in 1usize..5,
            hinge in any::<bool>(),
            c in 0.05f64..20.0,
            bias in prop_oneof![Just(None), Just(Some(1.0)), Just(Some(0.5))],
        ) {
            let data = noisy(seed, n, d);
            prop_assume!(data.classes().len() == 2);
            let loss = if hinge { SvmLoss::Hinge } else { SvmLoss::SquaredHinge };
            // weak duality at any point the solver stops at, converged or not
            for max_iter in [1, 3] {
                let m = LinearSvm::default().loss(loss).c(c).bias(bias).max_iter(max_iter).seed(seed).fit(&data).unwrap();
                let conv = m.convergence();
                prop_assert!(conv.duality_gap.unwrap() >= -1e-12 * conv.objective.unwrap().max(1.0), "{:?}", conv);
            }
            let params = tight(loss).c(c).bias(bias).seed(seed);
            let m = params.fit(&data).unwrap();
            let conv = m.convergence();
            let p = conv.objective.unwrap();
            prop_assert!(conv.converged(), "{:?}", conv);
            prop_assert!(conv.duality_gap.unwrap() < 1e-7 * p.max(1.0), "{:?}", conv);
            assert_kkt(&params, &data, 1e-8);
            // the same seed gives the same bits; dense and sparse storage the same model
            let again = params.fit(&data).unwrap();
            prop_assert_eq!(&again, &m);
            let sparse = params.fit(&sparse_copy(&data)).unwrap();
            let diff = (sparse.coef() - m.coef()).iter().fold(0.0f64, |a, v| a.max(v.abs()));
            prop_assert!(diff < 1e-9 * m.coef().iter().fold(1.0f64, |a, v| a.max(v.abs())), "{}", diff);
            prop_assert!((sparse.intercept()[0] - m.intercept()[0]).abs() < 1e-9);
        }
    }
}
