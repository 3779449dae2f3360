//! Sequential minimal optimisation for the SVM duals, as LIBSVM solves them.
//!
//! Every kind's dual is one quadratic programme over `l` variables
//!
//! ```text
//! min f(a) = 1/2 a^T Q a + p^T a   s.t.  y^T a = Delta,  0 <= a_i <= C_i,   y_i in {-1, +1}
//! ```
//!
//! (the `nu` kinds add `e^T a = const` per sign of `y`). Each step changes two variables
//! `a_i`, `a_j` along the constraint and solves the two-variable problem exactly:
//!
//! - Working set, second order (Fan, Chen and Lin 2005): with `G = Q a + p`,
//!   `I_up = {t : a_t < C_t, y_t = +1 or a_t > 0, y_t = -1}` and `I_low` its mirror,
//!   `i = argmax_{t in I_up} -y_t G_t`, then `j = argmin_t -b_it^2 / a_it` over `t in I_low`
//!   with `b_it = -y_i G_i + y_t G_t > 0`, `a_it = Q_ii + Q_tt - 2 y_i y_t Q_it` (`tau` when not
//!   positive, so indefinite kernels still step). `nu`: `i` and `j` of the same sign.
//! - Stopping: the maximal violation `m(a) - M(a) = max_{I_up} -y G - min_{I_low} -y G < tol`.
//! - Bookkeeping: `G` is updated over the active variables after each step;
//!   `G_bar = sum_{a_t = C_t} C_t Q_t` over all of them, so the gradient of a shrunk variable
//!   is rebuilt as `G_bar + p + sum_{free t} a_t Q_t` without touching the bounded ones.
//! - Shrinking (every `min(l, 1000)` steps): a variable at a bound whose gradient says it
//!   cannot be part of a violating pair leaves the active set (its position swapped to the
//!   end); near the end (violation `< 10 tol`) everything is reactivated once, and the
//!   stop is always checked on all variables.
//! - `rho`: the mean of `y_t G_t` over the free variables, else the middle of the interval
//!   the bounded ones allow; the decision value is `sum_t y_t a_t K(x_t, x) - rho`.
//! - Objective: `f(a) = 1/2 sum_t a_t (G_t + p_t)`.

use super::cache::Entry;

/// The matrix `Q` of the dual, by columns, in the solver's working order of positions.
pub(crate) trait QMatrix {
    /// The type of its entries (`f32` or `f64`).
    type Entry: Entry;
    /// `l`, the number of variables.
    fn size(&self) -> usize;
    /// `Q_tt` for every position.
    fn diagonal(&self) -> Vec<f64>;
    /// The first `len` entries of column `i`.
    fn column(&mut self, i: usize, len: usize) -> &[Self::Entry];
    /// Columns `i` and `j` at once (the two of a step).
    fn columns(&mut self, i: usize, j: usize, len: usize) -> (&[Self::Entry], &[Self::Entry]);
    /// Swaps positions `i` and `j`.
    fn swap(&mut self, i: usize, j: usize);
}

/// A dual to solve: `p`, `y`, the bounds `C_t` and a feasible start `a`.
pub(crate) struct Problem {
    pub p: Vec<f64>,
    pub y: Vec<f64>,
    pub c: Vec<f64>,
    pub alpha: Vec<f64>,
}

/// How the dual is solved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// Stop at a maximal violation below this.
    pub tol: f64,
    /// Shrink the active set.
    pub shrinking: bool,
    /// Steps at most.
    pub max_iter: usize,
    /// The `nu` formulation (one equality constraint per sign of `y`).
    pub nu: bool,
}

/// LIBSVM's default step budget for `l` variables: `max(10^7, 100 l)`.
pub(crate) fn default_max_iter(l: usize) -> usize {
    l.saturating_mul(100).max(10_000_000)
}

/// The solution, in the problem's order.
#[derive(Clone, Debug)]
pub(crate) struct Solution {
    pub alpha: Vec<f64>,
    pub rho: f64,
    /// `nu` formulation: the `r` of the two-sided constraint (0 otherwise).
    pub r: f64,
    pub objective: f64,
    pub iterations: usize,
    /// Whether the violation fell below `tol` within `max_iter` steps.
    pub converged: bool,
}

impl Solution {
    /// Why the stopping rule was not met, for the model's summary.
    pub fn warning(&self) -> Option<crate::optim::ConvergenceWarning> {
        (!self.converged).then_some(crate::optim::ConvergenceWarning::MaxIterations {
            iterations: self.iterations,
        })
    }
}

/// A feasible start of a dual with `e^T a = total`: the variables in order, each at its
/// bound `upper_t` until the sum is reached (LIBSVM's start of the nu and one-class duals).
pub(crate) fn fill_to(total: f64, upper: &[f64]) -> Vec<f64> {
    let mut left = total;
    upper
        .iter()
        .map(|&c| {
            let a = c.min(left);
            left -= a;
            a
        })
        .collect()
}

/// `tau`: the curvature used where `a_it <= 0`.
const TAU: f64 = 1e-12;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Lower,
    Upper,
    Free,
}

struct Smo<'q, Q> {
    q: &'q mut Q,
    settings: Settings,
    l: usize,
    active: usize,
    unshrink: bool,
    alpha: Vec<f64>,
    status: Vec<Bound>,
    g: Vec<f64>,
    g_bar: Vec<f64>,
    p: Vec<f64>,
    y: Vec<f64>,
    c: Vec<f64>,
    qd: Vec<f64>,
    /// The problem's index of each position.
    order: Vec<usize>,
}

/// Solves the dual `problem` with columns of `q`.
pub(crate) fn solve<Q: QMatrix>(q: &mut Q, problem: Problem, settings: Settings) -> Solution {
    let l = q.size();
    let Problem { p, y, c, alpha } = problem;
    let qd = q.diagonal();
    let mut s = Smo {
        q,
        settings,
        l,
        active: l,
        unshrink: false,
        status: (0..l).map(|t| bound(alpha[t], c[t])).collect(),
        g: p.clone(),
        g_bar: vec![0.0; l],
        alpha,
        p,
        y,
        c,
        qd,
        order: (0..l).collect(),
    };
    s.init_gradient();
    let (iterations, converged) = s.run();
    let (rho, r) = if settings.nu { s.rho_nu() } else { s.rho() };
    let objective = (0..l).map(|t| s.alpha[t] * (s.g[t] + s.p[t])).sum::<f64>() / 2.0;
    let mut alpha = vec![0.0; l];
    for (pos, &t) in s.order.iter().enumerate() {
        alpha[t] = s.alpha[pos];
    }
    Solution {
        alpha,
        rho,
        r,
        objective,
        iterations,
        converged,
    }
}

/// Keeps `a + b = sum` and brings `a` into `[0, c]` where it left it from above (when
/// `sum > c`), or `b` up to 0 (otherwise): one side of the clipping of a pair whose sum is
/// fixed (the other side swaps the roles).
fn clip_sum(a: &mut f64, b: &mut f64, sum: f64, c: f64) {
    if sum > c {
        if *a > c {
            *a = c;
            *b = sum - c;
        }
    } else if *b < 0.0 {
        *b = 0.0;
        *a = sum;
    }
}

fn bound(a: f64, c: f64) -> Bound {
    if a >= c {
        Bound::Upper
    } else if a <= 0.0 {
        Bound::Lower
    } else {
        Bound::Free
    }
}

impl<Q: QMatrix> Smo<'_, Q> {
    /// `G = p + sum_{a_t > 0} a_t Q_t`, `G_bar = sum_{a_t = C_t} C_t Q_t`.
    fn init_gradient(&mut self) {
        let l = self.l;
        for t in 0..l {
            if self.status[t] == Bound::Lower {
                continue;
            }
            let col = self.q.column(t, l);
            let a = self.alpha[t];
            for (g, &q) in self.g.iter_mut().zip(col) {
                *g += a * q.into();
            }
            if self.status[t] == Bound::Upper {
                let c = self.c[t];
                for (gb, &q) in self.g_bar.iter_mut().zip(col) {
                    *gb += c * q.into();
                }
            }
        }
    }

    /// Steps until the violation is below `tol` (`true`) or the budget is spent.
    fn run(&mut self) -> (usize, bool) {
        let l = self.l;
        let period = l.min(1000);
        let mut counter = period + 1;
        let mut iterations = 0;
        while iterations < self.settings.max_iter {
            counter -= 1;
            // an iteration selects over the active set, O(l): the check is lost in it
            if crate::context::cancelled() {
                break; // `Dual::solve` reports the cancellation
            }
            if counter == 0 {
                counter = period;
                if self.settings.shrinking {
                    self.shrink();
                }
            }
            let (i, j) = match self.select() {
                Some(pair) => pair,
                None => {
                    // optimal on the active set: check on every variable
                    self.reconstruct_gradient();
                    self.active = l;
                    match self.select() {
                        Some(pair) => {
                            counter = 1; // shrink again at the next step
                            pair
                        }
                        None => return (iterations, true),
                    }
                }
            };
            iterations += 1;
            self.step(i, j);
        }
        if self.active < l {
            self.reconstruct_gradient();
            self.active = l;
        }
        (iterations, false)
    }

    fn select(&mut self) -> Option<(usize, usize)> {
        if self.settings.nu {
            self.select_nu()
        } else {
            self.select_standard()
        }
    }

    fn can_rise(&self, t: usize) -> bool {
        self.status[t] != Bound::Upper
    }

    fn can_fall(&self, t: usize) -> bool {
        self.status[t] != Bound::Lower
    }

    /// `-b^2 / a` with `a` replaced by `tau` when not positive.
    fn gain(grad_diff: f64, quad: f64) -> f64 {
        -(grad_diff * grad_diff) / if quad > 0.0 { quad } else { TAU }
    }

    fn select_standard(&mut self) -> Option<(usize, usize)> {
        let n = self.active;
        let mut gmax = f64::NEG_INFINITY;
        let mut best_i = None;
        for t in 0..n {
            let in_up = if self.y[t] > 0.0 {
                self.can_rise(t)
            } else {
                self.can_fall(t)
            };
            let v = -self.y[t] * self.g[t];
            if in_up && v >= gmax {
                gmax = v;
                best_i = Some(t);
            }
        }
        let i = best_i?;
        let yi = self.y[i];
        let qi = self.q.column(i, n);
        let mut gmax2 = f64::NEG_INFINITY;
        let mut best_j = None;
        let mut best_gain = f64::INFINITY;
        for (t, &qit) in qi.iter().enumerate() {
            let in_low = if self.y[t] > 0.0 {
                self.status[t] != Bound::Lower
            } else {
                self.status[t] != Bound::Upper
            };
            if !in_low {
                continue;
            }
            let v = self.y[t] * self.g[t];
            gmax2 = gmax2.max(v);
            let grad_diff = gmax + v;
            if grad_diff > 0.0 {
                let quad = self.qd[i] + self.qd[t] - 2.0 * yi * self.y[t] * qit.into();
                let gain = Self::gain(grad_diff, quad);
                if gain <= best_gain {
                    best_gain = gain;
                    best_j = Some(t);
                }
            }
        }
        if gmax + gmax2 < self.settings.tol {
            return None;
        }
        best_j.map(|j| (i, j))
    }

    fn select_nu(&mut self) -> Option<(usize, usize)> {
        let n = self.active;
        // the most violating variable of each sign
        let (mut gmaxp, mut gmaxn) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        let (mut ip, mut in_) = (None, None);
        for t in 0..n {
            if self.y[t] > 0.0 {
                if self.can_rise(t) && -self.g[t] >= gmaxp {
                    gmaxp = -self.g[t];
                    ip = Some(t);
                }
            } else if self.can_fall(t) && self.g[t] >= gmaxn {
                gmaxn = self.g[t];
                in_ = Some(t);
            }
        }
        let (qp, qn): (&[Q::Entry], &[Q::Entry]) = match (ip, in_) {
            (Some(a), Some(b)) => self.q.columns(a, b, n),
            (Some(a), None) => (self.q.column(a, n), &[]),
            (None, Some(b)) => (&[], self.q.column(b, n)),
            (None, None) => return None,
        };
        let (mut gmaxp2, mut gmaxn2) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        let mut best_j = None;
        let mut best_gain = f64::INFINITY;
        for t in 0..n {
            let (grad_diff, quad) = if self.y[t] > 0.0 {
                if self.status[t] == Bound::Lower {
                    continue;
                }
                gmaxp2 = gmaxp2.max(self.g[t]);
                let Some(a) = ip else { continue };
                (
                    gmaxp + self.g[t],
                    self.qd[a] + self.qd[t] - 2.0 * qp[t].into(),
                )
            } else {
                if self.status[t] == Bound::Upper {
                    continue;
                }
                gmaxn2 = gmaxn2.max(-self.g[t]);
                let Some(b) = in_ else { continue };
                (
                    gmaxn - self.g[t],
                    self.qd[b] + self.qd[t] - 2.0 * qn[t].into(),
                )
            };
            if grad_diff > 0.0 {
                let gain = Self::gain(grad_diff, quad);
                if gain <= best_gain {
                    best_gain = gain;
                    best_j = Some(t);
                }
            }
        }
        if (gmaxp + gmaxp2).max(gmaxn + gmaxn2) < self.settings.tol {
            return None;
        }
        let j = best_j?;
        let i = if self.y[j] > 0.0 { ip? } else { in_? };
        Some((i, j))
    }

    /// Solves the two-variable problem in `a_i`, `a_j` exactly (clipped to the box) and
    /// updates `G`, the bounds and `G_bar`.
    fn step(&mut self, i: usize, j: usize) {
        let n = self.active;
        let (ci, cj) = (self.c[i], self.c[j]);
        let (old_i, old_j) = (self.alpha[i], self.alpha[j]);
        let (qi, qj) = self.q.columns(i, j, n);
        let qij: f64 = qi[j].into();
        let (mut ai, mut aj) = (old_i, old_j);
        if self.y[i] != self.y[j] {
            // a_i - a_j stays constant
            let quad = self.qd[i] + self.qd[j] + 2.0 * qij;
            let delta = (-self.g[i] - self.g[j]) / if quad > 0.0 { quad } else { TAU };
            let diff = ai - aj;
            ai += delta;
            aj += delta;
            if diff > 0.0 {
                if aj < 0.0 {
                    aj = 0.0;
                    ai = diff;
                }
            } else if ai < 0.0 {
                ai = 0.0;
                aj = -diff;
            }
            if diff > ci - cj {
                if ai > ci {
                    ai = ci;
                    aj = ci - diff;
                }
            } else if aj > cj {
                aj = cj;
                ai = cj + diff;
            }
        } else {
            // a_i + a_j stays constant
            let quad = self.qd[i] + self.qd[j] - 2.0 * qij;
            let delta = (self.g[i] - self.g[j]) / if quad > 0.0 { quad } else { TAU };
            let sum = ai + aj;
            ai -= delta;
            aj += delta;
            clip_sum(&mut ai, &mut aj, sum, ci);
            clip_sum(&mut aj, &mut ai, sum, cj);
        }
        self.alpha[i] = ai;
        self.alpha[j] = aj;
        let (di, dj) = (ai - old_i, aj - old_j);
        for (k, g) in self.g[..n].iter_mut().enumerate() {
            *g += qi[k].into() * di + qj[k].into() * dj;
        }
        for t in [i, j] {
            let was_upper = self.status[t] == Bound::Upper;
            self.status[t] = bound(self.alpha[t], self.c[t]);
            let is_upper = self.status[t] == Bound::Upper;
            if was_upper != is_upper {
                let c = if is_upper { self.c[t] } else { -self.c[t] };
                let col = self.q.column(t, self.l);
                for (gb, &q) in self.g_bar.iter_mut().zip(col) {
                    *gb += c * q.into();
                }
            }
        }
    }

    /// Rebuilds `G` of the inactive variables from `G_bar` and the free active ones.
    fn reconstruct_gradient(&mut self) {
        let (n, l) = (self.active, self.l);
        if n == l {
            return;
        }
        for t in n..l {
            self.g[t] = self.g_bar[t] + self.p[t];
        }
        let free: Vec<usize> = (0..n).filter(|&t| self.status[t] == Bound::Free).collect();
        // whichever loop reads fewer kernel entries: columns of the inactive variables over
        // the active ones, or columns of the free variables over the inactive ones
        if free.len() * l > 2 * n * (l - n) {
            for t in n..l {
                let col = self.q.column(t, n);
                let mut sum = 0.0;
                for &f in &free {
                    sum += self.alpha[f] * col[f].into();
                }
                self.g[t] += sum;
            }
        } else {
            for &f in &free {
                let a = self.alpha[f];
                let col = self.q.column(f, l);
                for (g, &q) in self.g[n..].iter_mut().zip(&col[n..]) {
                    *g += a * q.into();
                }
            }
        }
    }

    /// Moves the variables that cannot be part of a violating pair to the end.
    fn shrink(&mut self) {
        let n = self.active;
        // standard: m = max_{I_up} -y G, M' = max_{I_low} y G
        // nu: the same per sign (index 0: y = +1, 1: y = -1)
        let mut up = [f64::NEG_INFINITY; 2];
        let mut low = [f64::NEG_INFINITY; 2];
        for t in 0..n {
            let side = self.side(t);
            let yg = self.y[t] * self.g[t];
            let (rise, fall) = (self.can_rise(t), self.can_fall(t));
            // moving a_t up changes y^T a by y_t: in I_up when y_t a_t can grow
            let (grow, shrink) = if self.y[t] > 0.0 {
                (rise, fall)
            } else {
                (fall, rise)
            };
            if grow {
                up[side] = up[side].max(-yg);
            }
            if shrink {
                low[side] = low[side].max(yg);
            }
        }
        if !self.settings.nu {
            up = [up[0].max(up[1]); 2];
            low = [low[0].max(low[1]); 2];
        }
        let violation = (up[0] + low[0]).max(up[1] + low[1]);
        if !self.unshrink && violation <= 10.0 * self.settings.tol {
            self.unshrink = true;
            self.reconstruct_gradient();
            self.active = self.l;
        }
        let mut t = 0;
        while t < self.active {
            if self.shrinkable(t, &up, &low) {
                self.active -= 1;
                while self.active > t {
                    if !self.shrinkable(self.active, &up, &low) {
                        self.swap(t, self.active);
                        break;
                    }
                    self.active -= 1;
                }
            }
            t += 1;
        }
    }

    /// Which equality constraint `t` is in: 0 for all (standard) or for `y = +1` (nu).
    fn side(&self, t: usize) -> usize {
        usize::from(self.settings.nu && self.y[t] < 0.0)
    }

    /// A bounded variable whose only feasible move cannot reduce the violation.
    fn shrinkable(&self, t: usize, up: &[f64; 2], low: &[f64; 2]) -> bool {
        let side = self.side(t);
        let yg = self.y[t] * self.g[t];
        // at a bound, y_t a_t can move one way only: it is in I_up or I_low alone
        let in_up_only = match self.status[t] {
            Bound::Free => return false,
            Bound::Upper => self.y[t] < 0.0,
            Bound::Lower => self.y[t] > 0.0,
        };
        if in_up_only {
            // can be i only: no j in I_low has y G below -(-y_t G_t)
            -yg < -low[side]
        } else {
            // can be j only: its -y G is above every candidate i's
            -yg > up[side]
        }
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.q.swap(a, b);
        for v in [
            &mut self.alpha,
            &mut self.g,
            &mut self.g_bar,
            &mut self.p,
            &mut self.y,
            &mut self.c,
            &mut self.qd,
        ] {
            v.swap(a, b);
        }
        self.status.swap(a, b);
        self.order.swap(a, b);
    }

    /// `rho` (and `r = 0`): the mean `y G` of the free variables, else the middle of the
    /// bounds the bounded ones set.
    fn rho(&self) -> (f64, f64) {
        let (mut ub, mut lb) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut sum, mut free) = (0.0, 0usize);
        for t in 0..self.active {
            let yg = self.y[t] * self.g[t];
            match (self.status[t], self.y[t] > 0.0) {
                (Bound::Upper, false) | (Bound::Lower, true) => ub = ub.min(yg),
                (Bound::Upper, true) | (Bound::Lower, false) => lb = lb.max(yg),
                (Bound::Free, _) => {
                    sum += yg;
                    free += 1;
                }
            }
        }
        let rho = if free > 0 {
            sum / free as f64
        } else {
            (ub + lb) / 2.0
        };
        (rho, 0.0)
    }

    /// `nu`: `r_+` and `r_-` from each sign's variables as [`Smo::rho`] does;
    /// `rho = (r_+ - r_-) / 2`, `r = (r_+ + r_-) / 2`.
    fn rho_nu(&self) -> (f64, f64) {
        let mut ub = [f64::INFINITY; 2];
        let mut lb = [f64::NEG_INFINITY; 2];
        let mut sum = [0.0; 2];
        let mut free = [0usize; 2];
        for t in 0..self.active {
            let s = usize::from(self.y[t] < 0.0);
            let g = self.g[t];
            match self.status[t] {
                Bound::Upper => lb[s] = lb[s].max(g),
                Bound::Lower => ub[s] = ub[s].min(g),
                Bound::Free => {
                    sum[s] += g;
                    free[s] += 1;
                }
            }
        }
        let r = |s: usize| {
            if free[s] > 0 {
                sum[s] / free[s] as f64
            } else {
                (ub[s] + lb[s]) / 2.0
            }
        };
        let (r1, r2) = (r(0), r(1));
        ((r1 - r2) / 2.0, (r1 + r2) / 2.0)
    }
}
