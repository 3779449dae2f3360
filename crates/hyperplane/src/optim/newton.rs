//! Newton's method with conjugate gradients, in its two globalisations: LIBLINEAR's
//! trust region (TRON: Lin and Moré 1999; Lin, Weng and Keerthi 2008), and the line
//! search of LIBLINEAR's later `NEWTON` solver (Galli and Lin, "A study on truncated
//! Newton methods for linear classification"); and the line search on the exact step by
//! Cholesky (below). The first two only ever ask for Hessian-vector
//! products `H v` (so `X^T D X` is never formed), preconditioned by the diagonal
//! `M = (1 - a) I + a diag(H)`, `a = 0.01` (LIBLINEAR >= 2.2; Hsia, Chiang and Lin 2018),
//! with `||v||_M = sqrt(sum_j M_j v_j^2)`.
//!
//! **Trust region** ([`tron`], solver `newton`). Each iteration approximately minimises
//! the quadratic model `q(s) = g.s + 1/2 s.H s` within `||s||_M <= delta` by conjugate
//! gradients (Steihaug: stop at `||r||_{M^-1} <= 0.1 ||g||_{M^-1}` or on the boundary).
//! It then compares the actual reduction `f(w) - f(w + s)` with the predicted `-q(s)`:
//!
//! | ratio `actred / prered` | step | radius `delta` |
//! |---|---|---|
//! | `< 1e-4` | rejected | shrunk to at most `delta / 2` |
//! | `< 0.25` | accepted | shrunk, at least `delta / 4` |
//! | `< 0.75` | accepted | within `[delta / 4, 4 delta]` |
//! | otherwise | accepted | grown, up to `4 delta` |
//!
//! with the new radius set from `alpha ||s||_M`, `alpha` the minimiser of the quadratic
//! through `f(w)`, `g.s` and `f(w + s)` (4 when that quadratic is not convex). Each trial
//! point costs one pass over the rows (value, gradient and curvature together); a rejected
//! one restores the kept curvature instead of evaluating `w` again.
//!
//! **Line search** ([`line_search_newton`], solver `newton-ls`). Conjugate gradients on
//! `H s = -g` stop by the quadratic rule: after step `i`, when the model's last decrease
//! is small against its total, `i (q(s_i) - q(s_{i-1})) >= t q(s_i)` with
//! `t = min(0.5, ||g||_{M^-1}^(1/2))`, so an iteration far from the optimum makes few
//! products (and at once on curvature `d.H d <= 0`, which only rounding makes). The step
//! `w + a s` takes the first `a` of `1, 1/2, 1/4, ...` (at most 20) with
//! `f(w + a s) <= f(w) + 0.01 a g.s` (Armijo). Where `-g.s` is below the rounding of `f`
//! (`1e-12 |f|`), the full step is taken if it decreases `||g||` instead; when no step
//! qualifies, the solver stops with
//! [`ConvergenceWarning::LineSearchFailed`](super::ConvergenceWarning::LineSearchFailed)
//! (which says how far the gradient's norm ended from the tolerance).
//!
//! **Cholesky** (solver `newton-cholesky`, scikit-learn's `newton-cholesky`). The same line
//! search, on the exact Newton step: each iteration forms the Hessian `H` (the penalty's
//! diagonal plus `X~^T D X~` summed over row chunks, see
//! [`Evaluator::hessian`](super::Evaluator::hessian)), factors it `H = U^T U` and solves
//! `H s = -g`: `d^3 / 3` multiply-adds for `d` parameters and one formation, at most
//! `N d^2` (far less on sparse rows), where a CG iteration makes Hessian products until
//! its rule stops it. Near the optimum the full step is taken and the gradient falls
//! quadratically, in every direction at once, however ill-conditioned `H` (unscaled
//! features, a flat intercept direction). When `H` is not positive definite to working
//! precision (all rows' curvature lost to rounding, say), the step is taken on
//! `H + mu I` with the smallest shift `mu` that factors.

use super::{
    axpy, budget_spent, dot, line_search_failed, norm2, report, start, stopped, Convergence,
    Differentiable, Settings,
};
use crate::linalg::{Cholesky, Matrix};

const ETA0: f64 = 1e-4;
const ETA1: f64 = 0.25;
const ETA2: f64 = 0.75;
const SIGMA1: f64 = 0.25;
const SIGMA2: f64 = 0.5;
const SIGMA3: f64 = 4.0;
/// Trust region: conjugate gradients stop at `||r||_{M^-1} <= CG_TOL ||g||_{M^-1}`.
const CG_TOL: f64 = 0.1;
/// Line search: the largest `t` of the quadratic rule `i (q_i - q_{i-1}) >= t q_i`.
const QUADRATIC_CG_TOL: f64 = 0.5;
/// Line search: the Armijo constant of `f(w + a s) <= f(w) + ARMIJO a g.s`.
const ARMIJO: f64 = 0.01;
/// Line search: step halvings tried before the search fails.
const MAX_HALVINGS: usize = 20;
/// Weight of `diag(H)` in the preconditioner.
const PRECONDITIONER_WEIGHT: f64 = 0.01;
/// Cholesky: shifts `mu I` tried when `H` is not positive definite (up to `1e10` times its
/// largest diagonal entry).
const MAX_SHIFTS: usize = 11;

/// Trust-region Newton from `w`.
pub(super) fn tron<E: Differentiable>(
    eval: &mut E,
    mut w: Vec<f64>,
    s: &Settings,
) -> (Vec<f64>, Convergence) {
    let n = w.len();
    // a rejected step is undone: its curvature is replaced by the one before
    eval.keep_previous_curvature(true);
    let (mut f, mut g) = match start(eval, w.as_slice(), true) {
        Ok(fg) => fg,
        Err(c) => return (w, *c),
    };
    let mut m = vec![0.0; n];
    preconditioner(eval, &mut m);
    let mut cg = Cg::new(n);
    divide(&g, &m, &mut cg.z);
    let mut delta = dot(&g, &cg.z).sqrt();
    let (mut w_new, mut g_new) = (vec![0.0; n], vec![0.0; n]);
    for it in 1..=s.max_iter {
        if crate::context::cancelled() {
            return (w, report(it - 1, f, &g, None)); // `minimize` reports the cancellation
        }
        if s.norm.of(&g) <= s.gtol {
            return (w, report(it - 1, f, &g, None));
        }
        cg.solve(eval, &g, &m, CgRule::TrustRegion { delta });
        let step = &cg.s;
        w_new.copy_from_slice(&w);
        axpy(&mut w_new, 1.0, step);
        let gs = dot(&g, step);
        let prered = -0.5 * (gs - dot(step, &cg.r));
        let f_new = eval.value_grad(&w_new, &mut g_new, true);
        let snorm = mdot(step, &m, step).sqrt();
        if it == 1 {
            delta = delta.min(snorm);
        }
        let actred = f - f_new;
        // below rounding, f cannot measure the decrease: judge the step by the gradient
        let unmeasurable = prered <= 1e-12 * f.abs() && f_new.is_finite();
        let judged_by_gradient = unmeasurable && norm2(&g_new) < norm2(&g);
        if !judged_by_gradient {
            delta = radius(delta, snorm, gs, f, f_new, prered);
        }
        let accepted = judged_by_gradient || (f_new.is_finite() && actred > ETA0 * prered);
        if accepted {
            std::mem::swap(&mut w, &mut w_new);
            std::mem::swap(&mut g, &mut g_new);
            f = f_new;
            preconditioner(eval, &mut m);
        } else {
            eval.revert_curvature();
        }
        // no decrease is predicted, or none above rounding can be measured
        let stalled = prered <= 0.0 || (!accepted && prered <= 1e-14 * f.abs());
        if stalled {
            return (w, stopped(it, s, f, &g, line_search_failed(it, s, &g)));
        }
    }
    (w, budget_spent(s, f, &g))
}

/// How [`line_search_newton`] finds the Newton step `s = -H^-1 g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NewtonStep {
    /// Preconditioned conjugate gradients on Hessian products, stopped by the quadratic
    /// rule (`newton-ls`).
    Cg,
    /// The Hessian formed and factored by Cholesky (`newton-cholesky`).
    Cholesky,
}

/// Line-search Newton from `w`, its step by `how`.
pub(super) fn line_search_newton<E: Differentiable>(
    eval: &mut E,
    mut w: Vec<f64>,
    s: &Settings,
    how: NewtonStep,
) -> (Vec<f64>, Convergence) {
    let n = w.len();
    // a rejected trial step is followed by a shorter one, never by a step from the last
    eval.keep_previous_curvature(false);
    let (mut f, mut g) = match start(eval, w.as_slice(), true) {
        Ok(fg) => fg,
        Err(c) => return (w, *c),
    };
    let mut m = vec![0.0; n];
    let mut cg = Cg::new(n);
    let mut hessian = match how {
        NewtonStep::Cg => Matrix::zeros(0, 0),
        NewtonStep::Cholesky => Matrix::zeros(n, n),
    };
    let (mut w_new, mut g_new) = (vec![0.0; n], vec![0.0; n]);
    for it in 1..=s.max_iter {
        if crate::context::cancelled() {
            return (w, report(it - 1, f, &g, None)); // `minimize` reports the cancellation
        }
        if s.norm.of(&g) <= s.gtol {
            return (w, report(it - 1, f, &g, None));
        }
        match how {
            NewtonStep::Cg => {
                preconditioner(eval, &mut m);
                cg.solve(eval, &g, &m, CgRule::Quadratic);
            }
            NewtonStep::Cholesky => {
                eval.hessian(&mut hessian);
                cholesky_step(&hessian, &g, &mut cg.s);
            }
        }
        let gs = dot(&g, &cg.s);
        // below rounding (g.s >= 0 included, which only rounding causes as H is positive
        // definite) f cannot measure the decrease: the full step is judged by the
        // gradient instead, and shorter ones cannot do better
        let unmeasurable = -gs <= 1e-12 * f.abs();
        let g_norm = norm2(&g);
        let mut accepted = None;
        let mut a = 1.0;
        for _ in 0..MAX_HALVINGS {
            w_new.copy_from_slice(&w);
            axpy(&mut w_new, a, &cg.s);
            let f_new = eval.value_grad(&w_new, &mut g_new, true);
            let judged_by_gradient = unmeasurable && f_new.is_finite() && norm2(&g_new) < g_norm;
            if (gs < 0.0 && f_new - f <= ARMIJO * a * gs) || judged_by_gradient {
                accepted = Some(f_new);
                break;
            }
            if unmeasurable {
                break;
            }
            a *= 0.5;
        }
        let Some(f_new) = accepted else {
            // no step decreases f (or, below rounding, the gradient): stop at w
            return (w, stopped(it, s, f, &g, line_search_failed(it, s, &g)));
        };
        std::mem::swap(&mut w, &mut w_new);
        std::mem::swap(&mut g, &mut g_new);
        f = f_new;
    }
    (w, budget_spent(s, f, &g))
}

/// The Newton step `s = -(H + mu I)^-1 g` by Cholesky: `mu = 0` when `H` is positive
/// definite to working precision, else the first of `1e-10 m, 1e-8 m, ...` (`m` the largest
/// `|H_jj|`, at most [`MAX_SHIFTS`] tries) that makes it so (Levenberg's shift: a descent
/// direction between Newton's and the gradient's); `s = -g` when none does (a Hessian that
/// is not finite).
fn cholesky_step(h: &Matrix, g: &[f64], step: &mut [f64]) {
    let largest = (0..h.cols()).fold(0.0f64, |m, j| m.max(h[(j, j)].abs()));
    let mut shift = 0.0;
    for _ in 0..=MAX_SHIFTS {
        let mut shifted = h.clone();
        for j in 0..h.cols() {
            shifted[(j, j)] += shift;
        }
        if let Ok(factor) = Cholesky::factor(shifted) {
            step.iter_mut().zip(g).for_each(|(sj, gj)| *sj = -gj);
            factor.solve(step);
            if step.iter().all(|v| v.is_finite()) {
                return;
            }
        }
        shift = if shift == 0.0 {
            1e-10 * largest.max(f64::MIN_POSITIVE)
        } else {
            100.0 * shift
        };
    }
    step.iter_mut().zip(g).for_each(|(sj, gj)| *sj = -gj);
}

/// The new trust-region radius after a step of length `snorm` with `g.s = gs` took `f`
/// to `f_new` against a predicted reduction `prered` (the table in the module doc).
fn radius(delta: f64, snorm: f64, gs: f64, f: f64, f_new: f64, prered: f64) -> f64 {
    let actred = f - f_new;
    if !f_new.is_finite() {
        return SIGMA1 * snorm.min(delta);
    }
    let curv = f_new - f - gs;
    let alpha = if curv <= 0.0 {
        SIGMA3
    } else {
        SIGMA1.max(-0.5 * (gs / curv))
    };
    if actred < ETA0 * prered {
        (alpha.max(SIGMA1) * snorm).min(SIGMA2 * delta)
    } else if actred < ETA1 * prered {
        (SIGMA1 * delta).max((alpha * snorm).min(SIGMA2 * delta))
    } else if actred < ETA2 * prered {
        (SIGMA1 * delta).max((alpha * snorm).min(SIGMA3 * delta))
    } else {
        delta.max((alpha * snorm).min(SIGMA3 * delta))
    }
}

/// `M = (1 - a) I + a diag(H)` at the point whose curvature `eval` keeps.
fn preconditioner<E: Differentiable>(eval: &mut E, m: &mut [f64]) {
    eval.hess_diag(m);
    for mj in m.iter_mut() {
        *mj = (1.0 - PRECONDITIONER_WEIGHT) + PRECONDITIONER_WEIGHT * *mj;
    }
}

/// `z = M^-1 v` for the diagonal `M = m`.
fn divide(v: &[f64], m: &[f64], z: &mut [f64]) {
    for ((zj, vj), mj) in z.iter_mut().zip(v).zip(m) {
        *zj = vj / mj;
    }
}

/// `sum_j a_j m_j b_j`.
fn mdot(a: &[f64], m: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(m).zip(b).map(|((x, mj), y)| x * mj * y).sum()
}

/// When [`Cg::solve`] stops.
#[derive(Clone, Copy)]
enum CgRule {
    /// Steihaug: at `||r||_{M^-1} <= CG_TOL ||g||_{M^-1}`, or on the boundary
    /// `||s||_M = delta` (negative curvature, or a step that would leave the region).
    TrustRegion { delta: f64 },
    /// The quadratic rule `i (q_i - q_{i-1}) >= t q_i` (module doc), or when the model
    /// stops decreasing.
    Quadratic,
}

/// Truncated conjugate gradients for `H s = -g`, preconditioned by the diagonal `M`.
struct Cg {
    /// The step.
    s: Vec<f64>,
    /// The residual `-g - H s`.
    r: Vec<f64>,
    /// `M^-1 r`.
    z: Vec<f64>,
    d: Vec<f64>,
    hd: Vec<f64>,
}

impl Cg {
    fn new(n: usize) -> Self {
        Cg {
            s: vec![0.0; n],
            r: vec![0.0; n],
            z: vec![0.0; n],
            d: vec![0.0; n],
            hd: vec![0.0; n],
        }
    }

    fn solve<E: Differentiable>(&mut self, eval: &mut E, g: &[f64], m: &[f64], rule: CgRule) {
        let Cg { s, r, z, d, hd } = self;
        s.iter_mut().for_each(|v| *v = 0.0);
        r.iter_mut().zip(g).for_each(|(ri, gi)| *ri = -gi);
        divide(r, m, z);
        d.copy_from_slice(z);
        let mut rz = dot(r, z);
        let (residual_tol, quadratic_tol) =
            (CG_TOL * rz.sqrt(), QUADRATIC_CG_TOL.min(rz.sqrt().sqrt()));
        let max_steps = match rule {
            CgRule::TrustRegion { .. } => s.len().max(1),
            CgRule::Quadratic => s.len().max(5),
        };
        // q(s) = g.s + 1/2 s.H s, 0 at s = 0
        let mut q = 0.0;
        for step in 1..=max_steps {
            if matches!(rule, CgRule::TrustRegion { .. }) && rz.sqrt() <= residual_tol {
                break;
            }
            eval.hess_vec(d, hd);
            let dhd = dot(d, hd);
            let alpha = rz / dhd;
            match rule {
                CgRule::TrustRegion { delta } => {
                    let (sd, ss, dd) = (mdot(s, m, d), mdot(s, m, s), mdot(d, m, d));
                    let inside = dhd > 0.0 && ss + alpha * (2.0 * sd + alpha * dd) <= delta * delta;
                    if !inside {
                        // negative curvature or leaving the region: go to the boundary
                        // along d, ||s + tau d||_M = delta
                        let rad = (sd * sd + dd * (delta * delta - ss)).max(0.0).sqrt();
                        let tau = if sd >= 0.0 {
                            (delta * delta - ss) / (sd + rad)
                        } else {
                            (rad - sd) / dd
                        };
                        axpy(s, tau, d);
                        axpy(r, -tau, hd);
                        return;
                    }
                }
                // no positive curvature along d (only rounding, as H is positive definite)
                CgRule::Quadratic if dhd <= 0.0 || dhd.is_nan() => return,
                CgRule::Quadratic => {}
            }
            axpy(s, alpha, d);
            axpy(r, -alpha, hd);
            if let CgRule::Quadratic = rule {
                // r = -g - H s, so g.s + 1/2 s.H s = -1/2 (s.r - s.g)
                let q_new = -0.5 * (dot(s, r) - dot(s, g));
                let decrease = q_new - q;
                if q_new > 0.0 || decrease > 0.0 || step as f64 * decrease >= quadratic_tol * q_new
                {
                    return;
                }
                q = q_new;
            }
            divide(r, m, z);
            let rz_new = dot(r, z);
            let beta = rz_new / rz;
            d.iter_mut()
                .zip(z.iter())
                .for_each(|(di, zi)| *di = zi + beta * *di);
            rz = rz_new;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hessian_that_is_not_positive_definite_still_gives_a_descent_step() {
        // singular: no curvature along the second parameter
        let mut h = Matrix::zeros(2, 2);
        h[(0, 0)] = 4.0;
        let g = [2.0, 1.0];
        let mut step = [0.0; 2];
        cholesky_step(&h, &g, &mut step);
        assert!(
            step.iter().all(|v| v.is_finite()) && dot(&g, &step) < 0.0,
            "{step:?}"
        );
        assert!(
            (step[0] + 0.5).abs() < 1e-9,
            "Newton's step where H has curvature"
        );
        // not finite: the gradient's direction
        h[(1, 1)] = f64::NAN;
        cholesky_step(&h, &g, &mut step);
        assert_eq!(step, [-2.0, -1.0]);
    }
}
