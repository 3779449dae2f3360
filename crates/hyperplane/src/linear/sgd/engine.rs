//! The SGD engine: one pass per epoch over the rows, one step per row.
//!
//! It minimises
//!
//! ```text
//! f(w, b) = (1/N) sum_n c_n err(w.x_n + b, y_n) + alpha/2 ||w||^2
//! ```
//!
//! with a step per visited row n (score `s = w.x_n + b` before the step):
//!
//! ```text
//! w <- (1 - eta_t alpha) w - eta_t c_n err'(s, y_n) x_n      (the decay is clipped at 0)
//! b <- b - eta_t c_n err'(s, y_n)
//! ```
//!
//! (the order of scikit-learn's `_plain_sgd`). The weights are stored as `w = a v`: the decay
//! multiplies the scalar `a` and the step adds `-(eta c err' / a) x_n` to `v`, so a step costs
//! `O(nnz of the row)`, not `O(d)`; `v` is renormalised (`v <- a v`, `a <- 1`) when
//! `a < 1e-9`. With averaging (ASGD) the average of the iterates after every step is kept as
//! `(P + Q v) / k` (`P` a vector, `Q` a scalar): a step `v += delta` does `P -= Q delta`
//! (same rows) and then `Q += a`, so averaging is also `O(nnz)` per step.
//!
//! A shuffled epoch over a large sparse matrix, with a second thread free, visits the rows in
//! blocks that thread gathers in the shuffled order ([`CsrMatrix::visit_in_blocks`]): the
//! same steps in the same order, so the same weights to the bit, without waiting on rows
//! fetched in random order.
//!
//! Learning rates (`t` = 1 + rows visited so far, over all calls):
//! `constant`: `eta0`; `optimal` (Bottou, as scikit-learn): `1 / (alpha (t0 + t - 1))` with
//! `t0 = 1 / (alpha eta_init)`, `eta_init = sqrt(1/sqrt(alpha)) / max(1, err'(-sqrt(1/sqrt(alpha)), +1))`;
//! `invscaling`: `eta0 / t^power_t`.
//!
//! Stopping (scikit-learn's rule): after each epoch, the epoch objective is the mean of
//! `c_n err` at the visits plus `alpha/2 ||w||^2` at the end of the epoch; an epoch that does
//! not improve on the best by more than `tol` counts as no improvement, and
//! `n_iter_no_change` of them in a row stop the run. Rows of weight 0 are skipped entirely
//! (no decay, no `t` increment), as if absent.

use serde::{Deserialize, Serialize};

use crate::data::{CsrMatrix, Features, RowAccess};
use crate::error::{Error, Result};
use crate::linear::Loss;
use crate::optim::{Convergence, ConvergenceWarning};
use crate::rng::Rng;
use crate::with_rows;

/// `v` is renormalised when its scale falls below this.
const MIN_SCALE: f64 = 1e-9;
/// `|err'|` is clipped to this, as scikit-learn does, so one huge step cannot overflow.
const MAX_DLOSS: f64 = 1e12;

/// How the step size `eta_t` evolves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LearningRate {
    /// `eta_t = eta0`.
    Constant,
    /// `eta_t = 1 / (alpha (t0 + t - 1))` (Bottou's schedule, scikit-learn's default).
    #[default]
    Optimal,
    /// `eta_t = eta0 / t^power_t`.
    InvScaling,
}

impl std::str::FromStr for LearningRate {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.trim() {
            "constant" => Ok(LearningRate::Constant),
            "optimal" => Ok(LearningRate::Optimal),
            "invscaling" => Ok(LearningRate::InvScaling),
            _ => Err("unknown learning rate; choose constant, optimal or invscaling".into()),
        }
    }
}

impl std::fmt::Display for LearningRate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LearningRate::Constant => "constant",
            LearningRate::Optimal => "optimal",
            LearningRate::InvScaling => "invscaling",
        })
    }
}

crate::param::choice_value!(LearningRate = ["optimal", "constant", "invscaling"]);

/// The problem SGD solves and how it steps: loss, L2 strength, schedule, intercept, averaging.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SgdProblem {
    /// The pointwise loss `err(s, y)` (not the 0/1 loss: it has no gradient).
    pub loss: Loss,
    /// L2 strength `alpha >= 0` (`optimal` needs `alpha > 0`).
    pub alpha: f64,
    /// The step size schedule.
    pub learning_rate: LearningRate,
    /// `eta0 > 0` of `constant` and `invscaling`.
    pub eta0: f64,
    /// The exponent of `invscaling`.
    pub power_t: f64,
    /// Learn `b` (else `b` stays at its initial value).
    pub fit_intercept: bool,
    /// Return the average of the iterates (ASGD) instead of the last one.
    pub average: bool,
}

impl SgdProblem {
    /// Checks every field.
    pub fn validate(&self) -> Result<()> {
        if self.loss == Loss::ZeroOne {
            return Err(Error::param(
                "loss",
                "zero_one",
                "has no gradient; use hinge, log, squared, modified_huber or perceptron (or the pocket algorithm for the 0/1 error)",
            ));
        }
        if !(self.alpha.is_finite() && self.alpha >= 0.0) {
            return Err(Error::param("alpha", self.alpha, "must be finite and >= 0"));
        }
        if self.learning_rate == LearningRate::Optimal && self.alpha == 0.0 {
            return Err(Error::param(
                "alpha",
                0,
                "must be > 0 with learning_rate=optimal (eta = 1 / (alpha t)); use constant or invscaling",
            ));
        }
        if self.learning_rate != LearningRate::Optimal
            && !(self.eta0.is_finite() && self.eta0 > 0.0)
        {
            return Err(Error::param("eta0", self.eta0, "must be finite and > 0"));
        }
        if !self.power_t.is_finite() {
            return Err(Error::param("power_t", self.power_t, "must be finite"));
        }
        Ok(())
    }

    /// `t0` of the `optimal` schedule (0 for the others).
    fn optimal_t0(&self) -> f64 {
        if self.learning_rate != LearningRate::Optimal {
            return 0.0;
        }
        let typw = (1.0 / self.alpha.sqrt()).sqrt();
        let eta_init = typw / self.loss.derivative(-typw, 1.0).max(1.0);
        1.0 / (eta_init * self.alpha)
    }

    #[inline]
    fn eta(&self, t: f64, t0: f64) -> f64 {
        match self.learning_rate {
            LearningRate::Constant => self.eta0,
            LearningRate::Optimal => 1.0 / (self.alpha * (t0 + t - 1.0)),
            LearningRate::InvScaling => self.eta0 / t.powf(self.power_t),
        }
    }
}

/// The running average of the iterates: `(p + q v) / k`, intercept `b_sum / k`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Average {
    p: Vec<f64>,
    q: f64,
    b_sum: f64,
    k: f64,
}

/// The state of an SGD run, kept between calls so training can continue on new batches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SgdWeights {
    v: Vec<f64>,
    scale: f64,
    intercept: f64,
    /// 1 + rows visited so far.
    t: f64,
    average: Option<Average>,
    /// Epochs run so far.
    pub epochs: usize,
    /// Steps with a non-zero gradient so far.
    pub updates: usize,
}

impl SgdWeights {
    /// Starts at `(w, b)`; `average` keeps the average of the iterates from here on.
    pub fn new(w: Vec<f64>, b: f64, average: bool) -> Self {
        let d = w.len();
        SgdWeights {
            v: w,
            scale: 1.0,
            intercept: b,
            t: 1.0,
            average: average.then(|| Average {
                p: vec![0.0; d],
                q: 0.0,
                b_sum: 0.0,
                k: 0.0,
            }),
            epochs: 0,
            updates: 0,
        }
    }

    /// Starts at `w = 0`, `b = 0`.
    pub fn zeros(n_features: usize, average: bool) -> Self {
        SgdWeights::new(vec![0.0; n_features], 0.0, average)
    }

    /// The number of features.
    pub fn n_features(&self) -> usize {
        self.v.len()
    }

    /// The last iterate `(w, b)`.
    pub fn current(&self) -> (Vec<f64>, f64) {
        (
            self.v.iter().map(|v| self.scale * v).collect(),
            self.intercept,
        )
    }

    /// The solution: the average of the iterates with averaging (once a row has been
    /// visited), else the last iterate.
    pub fn solution(&self) -> (Vec<f64>, f64) {
        match &self.average {
            Some(a) if a.k > 0.0 => (
                a.p.iter()
                    .zip(&self.v)
                    .map(|(p, v)| (p + a.q * v) / a.k)
                    .collect(),
                a.b_sum / a.k,
            ),
            _ => self.current(),
        }
    }

    /// `v <- a v`, `a <- 1` (and folds `q v` into `p`), `O(d)`.
    fn renormalize(&mut self) {
        if let Some(a) = &mut self.average {
            for (p, v) in a.p.iter_mut().zip(&self.v) {
                *p += a.q * v;
            }
            a.q = 0.0;
        }
        for v in &mut self.v {
            *v *= self.scale;
        }
        self.scale = 1.0;
    }

    fn is_finite(&self) -> bool {
        self.intercept.is_finite() && self.scale.is_finite() && self.v.iter().all(|v| v.is_finite())
    }

    /// One epoch over the rows in `order`, with `labels[n] = [y_n, c_n]`; adds
    /// `c_n err(s_n, y_n)` at each visit to `loss_sum`, in the order of the visits.
    fn epoch<M: RowAccess>(
        &mut self,
        m: &M,
        labels: &[[f64; 2]],
        order: &[usize],
        problem: &SgdProblem,
        t0: f64,
        loss_sum: &mut f64,
    ) {
        let loss = problem.loss;
        let alpha = problem.alpha;
        for (k, &i) in order.iter().enumerate() {
            m.prefetch_ahead(order, k, labels);
            let [yi, ci] = labels[i];
            if ci == 0.0 {
                continue;
            }
            let s = self.scale * m.dot_row(i, &self.v) + self.intercept;
            let eta = problem.eta(self.t, t0);
            let (value, derivative) = loss.value_and_derivative(s, yi);
            *loss_sum += ci * value;
            let step = -eta * ci * derivative.clamp(-MAX_DLOSS, MAX_DLOSS);
            if alpha > 0.0 {
                self.scale *= (1.0 - eta * alpha).max(0.0);
                if self.scale < MIN_SCALE {
                    self.renormalize();
                }
            }
            if step != 0.0 {
                let dv = step / self.scale;
                m.add_row_scaled(i, dv, &mut self.v);
                if let Some(a) = &mut self.average {
                    m.add_row_scaled(i, -a.q * dv, &mut a.p);
                }
                if problem.fit_intercept {
                    self.intercept += step;
                }
                self.updates += 1;
            }
            if let Some(a) = &mut self.average {
                a.q += self.scale;
                a.b_sum += self.intercept;
                a.k += 1.0;
            }
            self.t += 1.0;
        }
    }
}

/// Entries per block when a shuffled epoch over a sparse matrix visits its rows in blocks
/// gathered by a second thread (about 768 KiB of indices and values).
const BLOCK_ENTRIES: usize = 1 << 16;

/// Whether a shuffled epoch over `m` visits its rows in gathered blocks
/// ([`CsrMatrix::visit_in_blocks`]): when the entries (12 bytes each) outgrow the caches, so
/// that fetching rows in random order is what an epoch waits on, and a second thread is
/// free: the thread pool has more than one, and this run is not already one of several
/// run in parallel on it (one-vs-rest's sub-problems).
fn gathers(m: &CsrMatrix) -> bool {
    const MIN_BYTES: usize = 16 << 20;
    12 * m.nnz() >= MIN_BYTES
        && rayon::current_num_threads() > 1
        && rayon::current_thread_index().is_none()
}

/// When an SGD run stops.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stopping {
    /// Epochs to run at most.
    pub max_epochs: usize,
    /// Stop after `n_iter_no_change` epochs whose objective is not below the best minus
    /// `tol`; `None` runs every epoch.
    pub tol: Option<f64>,
    /// See `tol`.
    pub n_iter_no_change: usize,
    /// Visit the rows in a new seeded random order every epoch (else in their order).
    pub shuffle: bool,
    /// Seed of the shuffles.
    pub seed: u64,
}

/// The objective `(1/N) sum_n c_n err(w.x_n + b, y_n) + alpha/2 ||w||^2`, one pass: `O(nnz)`.
pub fn objective(
    x: &Features,
    y: &[f64],
    c: &[f64],
    loss: Loss,
    alpha: f64,
    w: &[f64],
    b: f64,
) -> f64 {
    let sum: f64 = with_rows!(x, |m| {
        (0..m.n_rows())
            .map(|i| c[i] * loss.value(m.dot_row(i, w) + b, y[i]))
            .sum()
    });
    sum / x.n_rows() as f64 + 0.5 * alpha * w.iter().map(|v| v * v).sum::<f64>()
}

/// Runs SGD on rows `x` with labels `y` (in {-1, +1} for classification; any real target
/// for the squared loss) and row weights `c`, continuing from `state`.
///
/// Returns how this run ended: `iterations` = epochs run here, `updates` = the state's total,
/// `objective` = the last epoch objective (see the module doc). Running out of epochs with a
/// `tol` is a `MaxIterations` warning; non-finite weights stop the run with a `Diverged`
/// warning and the state of the end of the last finite epoch.
pub fn minimize(
    x: &Features,
    y: &[f64],
    c: &[f64],
    problem: &SgdProblem,
    stopping: &Stopping,
    state: &mut SgdWeights,
) -> Result<Convergence> {
    problem.validate()?;
    let n = x.n_rows();
    if y.len() != n || c.len() != n {
        return Err(Error::data(format!(
            "sgd needs one label and one weight per row: {} labels, {} weights for {n} rows",
            y.len(),
            c.len()
        )));
    }
    if x.n_cols() != state.n_features() {
        return Err(Error::FeatureCount {
            expected: state.n_features(),
            found: x.n_cols(),
        });
    }
    if (state.average.is_some()) != problem.average {
        return Err(Error::data(
            "the SGD state was started with a different `average` setting",
        ));
    }
    if let Some(tol) = stopping.tol.filter(|t| !t.is_finite()) {
        return Err(Error::param("tol", tol, "must be finite (or none)"));
    }
    if stopping.max_epochs == 0 {
        return Err(Error::param("max_epochs", 0, "must be >= 1"));
    }
    let t0 = problem.optimal_t0();
    let mut rng = Rng::new(stopping.seed);
    let mut order: Vec<usize> = (0..n).collect();
    // label and weight side by side: a shuffled visit fetches one cache line for both
    let labels: Vec<[f64; 2]> = y.iter().zip(c).map(|(&y, &c)| [y, c]).collect();
    let (mut best, mut no_improvement) = (f64::INFINITY, 0usize);
    let mut report = Convergence::default();
    let mut last_good = state.clone();
    let mut stopped = false;
    for epoch in 1..=stopping.max_epochs {
        crate::context::checkpoint()?;
        if stopping.shuffle {
            rng.shuffle(&mut order);
        }
        let mut loss_sum = 0.0;
        match x {
            Features::Sparse(m) if stopping.shuffle && gathers(m) => {
                m.visit_in_blocks(&order, &labels, BLOCK_ENTRIES, |block, rows, values| {
                    state.epoch(block, values, rows, problem, t0, &mut loss_sum)
                })
            }
            _ => with_rows!(x, |m| state.epoch(
                m,
                &labels,
                &order,
                problem,
                t0,
                &mut loss_sum
            )),
        }
        state.epochs += 1;
        report.iterations = epoch;
        if !state.is_finite() || !loss_sum.is_finite() {
            *state = last_good;
            report.warning = Some(ConvergenceWarning::Diverged { iteration: epoch });
            report.updates = Some(state.updates);
            return Ok(report);
        }
        let w_sq = state.scale * state.scale * state.v.iter().map(|v| v * v).sum::<f64>();
        let objective = loss_sum / n as f64 + 0.5 * problem.alpha * w_sq;
        report.objective = Some(objective);
        if let Some(tol) = stopping.tol {
            if objective > best - tol {
                no_improvement += 1;
            } else {
                no_improvement = 0;
            }
            best = best.min(objective);
            if no_improvement >= stopping.n_iter_no_change {
                stopped = true;
                break;
            }
        }
        if epoch < stopping.max_epochs {
            last_good.clone_from(state);
        }
    }
    report.updates = Some(state.updates);
    if stopping.tol.is_some() && !stopped {
        report.warning = Some(ConvergenceWarning::MaxIterations {
            iterations: report.iterations,
        });
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::CsrMatrix;
    use ndarray::array;

    fn problem(loss: Loss, learning_rate: LearningRate) -> SgdProblem {
        SgdProblem {
            loss,
            alpha: 0.01,
            learning_rate,
            eta0: 0.1,
            power_t: 0.5,
            fit_intercept: true,
            average: false,
        }
    }

    fn fixed(epochs: usize) -> Stopping {
        Stopping {
            max_epochs: epochs,
            tol: None,
            n_iter_no_change: 5,
            shuffle: false,
            seed: 0,
        }
    }

    /// The plain O(d)-per-step algorithm the scaled form must reproduce.
    fn naive(
        x: &Array2,
        y: &[f64],
        p: &SgdProblem,
        epochs: usize,
    ) -> (Vec<f64>, f64, Vec<f64>, f64) {
        let d = x.ncols();
        let (mut w, mut b, mut t) = (vec![0.0; d], 0.0, 1.0);
        let (mut sum_w, mut sum_b, mut k) = (vec![0.0; d], 0.0, 0.0);
        let t0 = p.optimal_t0();
        for _ in 0..epochs {
            for i in 0..x.nrows() {
                let s: f64 = x.row(i).iter().zip(&w).map(|(a, b)| a * b).sum::<f64>() + b;
                let eta = p.eta(t, t0);
                let g = p.loss.derivative(s, y[i]);
                for (j, wj) in w.iter_mut().enumerate() {
                    *wj = (1.0 - eta * p.alpha).max(0.0) * *wj - eta * g * x[[i, j]];
                }
                b -= eta * g;
                for (s, wj) in sum_w.iter_mut().zip(&w) {
                    *s += wj;
                }
                sum_b += b;
                k += 1.0;
                t += 1.0;
            }
        }
        let avg = sum_w.iter().map(|s| s / k).collect();
        (w, b, avg, sum_b / k)
    }

    type Array2 = ndarray::Array2<f64>;

    #[test]
    fn scaled_and_averaged_weights_equal_the_plain_algorithm() {
        let x = array![
            [1.0, 0.0, 2.0],
            [0.0, -1.0, 0.5],
            [3.0, 1.0, 0.0],
            [-1.0, 2.0, 1.0]
        ];
        let y = [1.0, -1.0, 1.0, -1.0];
        let c = [1.0; 4];
        for loss in [
            Loss::Hinge,
            Loss::Log,
            Loss::Squared,
            Loss::ModifiedHuber,
            Loss::Perceptron,
        ] {
            for lr in [
                LearningRate::Constant,
                LearningRate::Optimal,
                LearningRate::InvScaling,
            ] {
                if loss == Loss::Squared && lr == LearningRate::Optimal {
                    continue; // first steps of 1 / (alpha t0) diverge: nothing to compare
                }
                let mut p = problem(loss, lr);
                p.average = true;
                let (w, b, avg, avg_b) = naive(&x, &y, &p, 7);
                for features in [
                    Features::from(x.clone()),
                    CsrMatrix::from_dense(x.view()).into(),
                ] {
                    let mut s = SgdWeights::zeros(3, true);
                    minimize(&features, &y, &c, &p, &fixed(7), &mut s).unwrap();
                    let (sw, sb) = s.current();
                    let (aw, ab) = s.solution();
                    let close = |a: &[f64], b: &[f64]| {
                        a.iter()
                            .zip(b)
                            .all(|(u, v)| (u - v).abs() < 1e-10 * (1.0 + v.abs()))
                    };
                    assert!(
                        close(&sw, &w) && (sb - b).abs() < 1e-10,
                        "{loss:?} {lr:?}: {sw:?} vs {w:?}"
                    );
                    assert!(
                        close(&aw, &avg) && (ab - avg_b).abs() < 1e-10,
                        "{loss:?} {lr:?} average"
                    );
                }
            }
        }
    }

    #[test]
    fn strong_decay_renormalises_and_continues_across_calls() {
        let x: Features = array![[1.0, 2.0], [2.0, -1.0], [-1.0, -1.0]].into();
        let y = [1.0, -1.0, 1.0];
        let c = [1.0, 1.0, 1.0];
        // eta alpha = 1: every step zeroes w first (scale 0 -> renormalised)
        let mut p = problem(Loss::Hinge, LearningRate::Constant);
        p.alpha = 10.0;
        let mut s = SgdWeights::zeros(2, false);
        minimize(&x, &y, &c, &p, &fixed(3), &mut s).unwrap();
        let (w, _) = s.current();
        assert_eq!(w, vec![-0.1, -0.1]); // the last row's step alone: 0.1 y x
                                         // two calls of one epoch equal one call of two epochs (no shuffle)
        let p = problem(Loss::Log, LearningRate::Optimal);
        let (mut a, mut b) = (SgdWeights::zeros(2, false), SgdWeights::zeros(2, false));
        minimize(&x, &y, &c, &p, &fixed(2), &mut a).unwrap();
        minimize(&x, &y, &c, &p, &fixed(1), &mut b).unwrap();
        minimize(&x, &y, &c, &p, &fixed(1), &mut b).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.epochs, 2);
    }

    #[test]
    fn epochs_over_gathered_blocks_equal_direct_epochs_to_the_bit() {
        // rows of 0 to 6 entries, some of weight 0, in a shuffled order; with averaging and
        // with a decay strong enough to renormalise
        let mut rng = Rng::new(3);
        let rows: Vec<Vec<(usize, f64)>> = (0..300)
            .map(|_| {
                (0..rng.below(7))
                    .map(|_| (rng.below(40), rng.next_f64() * 4.0 - 2.0))
                    .collect()
            })
            .collect();
        let m = CsrMatrix::from_rows(40, &rows).unwrap();
        let labels: Vec<[f64; 2]> = (0..300)
            .map(|i| [if i % 3 == 0 { 1.0 } else { -1.0 }, (i % 7) as f64 / 3.0])
            .collect();
        let mut order: Vec<usize> = (0..300).collect();
        for (loss, alpha) in [(Loss::Log, 0.01), (Loss::Hinge, 0.01), (Loss::Squared, 9.0)] {
            let mut p = problem(loss, LearningRate::Constant);
            p.alpha = alpha;
            p.average = true;
            let (mut direct, mut blocked) =
                (SgdWeights::zeros(40, true), SgdWeights::zeros(40, true));
            let (mut direct_sum, mut blocked_sum) = (0.0, 0.0);
            for _ in 0..3 {
                rng.shuffle(&mut order);
                direct.epoch(&m, &labels, &order, &p, 0.0, &mut direct_sum);
                m.visit_in_blocks(&order, &labels, 50, |block, rows, values| {
                    blocked.epoch(block, values, rows, &p, 0.0, &mut blocked_sum)
                });
            }
            assert_eq!(direct, blocked, "{loss:?}");
            assert_eq!(direct_sum.to_bits(), blocked_sum.to_bits(), "{loss:?}");
            assert!(direct.updates > 0);
        }
    }

    #[test]
    fn divergence_and_budget_are_reported() {
        let x: Features = array![[1e150, 1e150], [1e150, 1e150]].into();
        let (y, c) = ([1.0, -1.0], [1.0, 1.0]);
        let mut p = problem(Loss::Squared, LearningRate::Constant);
        p.alpha = 0.0;
        let mut s = SgdWeights::zeros(2, false);
        let r = minimize(&x, &y, &c, &p, &fixed(5), &mut s).unwrap();
        assert_eq!(
            r.warning,
            Some(ConvergenceWarning::Diverged { iteration: 1 })
        );
        assert!(s.is_finite());
        let x: Features = array![[1.0], [-1.0]].into();
        let log = |stop: &Stopping| {
            let p = problem(Loss::Log, LearningRate::Constant);
            minimize(&x, &y, &c, &p, stop, &mut SgdWeights::zeros(1, false)).unwrap()
        };
        let r = log(&Stopping {
            max_epochs: 2,
            tol: Some(-1.0),
            ..fixed(2)
        });
        assert_eq!(
            r.warning,
            Some(ConvergenceWarning::MaxIterations { iterations: 2 })
        );
        // tol stops after n_iter_no_change epochs without improvement
        let r = log(&Stopping {
            max_epochs: 1000,
            tol: Some(1e3),
            n_iter_no_change: 3,
            ..fixed(1)
        });
        assert!(r.converged());
        assert_eq!(r.iterations, 4); // the first epoch always improves on +inf
    }

    #[test]
    fn problems_are_validated() {
        let x: Features = array![[1.0]].into();
        let mut s = SgdWeights::zeros(1, false);
        let mut p = problem(Loss::ZeroOne, LearningRate::Constant);
        assert!(minimize(&x, &[1.0], &[1.0], &p, &fixed(1), &mut s).is_err());
        p.loss = Loss::Hinge;
        p.alpha = 0.0;
        p.learning_rate = LearningRate::Optimal;
        assert!(minimize(&x, &[1.0], &[1.0], &p, &fixed(1), &mut s).is_err());
        let p = problem(Loss::Hinge, LearningRate::Constant);
        assert!(minimize(&x, &[1.0, 1.0], &[1.0], &p, &fixed(1), &mut s).is_err());
        let wide: Features = array![[1.0, 2.0]].into();
        assert!(minimize(&wide, &[1.0], &[1.0], &p, &fixed(1), &mut s).is_err());
    }
}
