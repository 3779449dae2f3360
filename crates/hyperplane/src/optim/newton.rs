//! Trust-region Newton with conjugate gradients (Lin and Moré 1999; the design of
//! LIBLINEAR's TRON, Lin, Weng and Keerthi 2008).
//!
//! Each iteration approximately minimises the quadratic model
//! `q(s) = g.s + 1/2 s.H s` within `||s|| <= delta` by conjugate gradients (Steihaug:
//! stop at `||r|| <= 0.1 ||g||` or on the boundary), using only Hessian-vector products
//! `H v` (so `X^T D X` is never formed), then compares the actual reduction
//! `f(w) - f(w + s)` with the predicted `-q(s)`:
//!
//! | ratio `actred / prered` | step | radius `delta` |
//! |---|---|---|
//! | `< 1e-4` | rejected | shrunk to at most `delta / 2` |
//! | `< 0.25` | accepted | shrunk, at least `delta / 4` |
//! | `< 0.75` | accepted | within `[delta / 4, 4 delta]` |
//! | otherwise | accepted | grown, up to `4 delta` |
//!
//! with the new radius set from `alpha ||s||`, `alpha` the minimiser of the quadratic
//! through `f(w)`, `g.s` and `f(w + s)` (4 when that quadratic is not convex).

use super::{
    axpy, dot, norm2, report, Convergence, ConvergenceWarning, Evaluator, Objective, Settings,
};

const ETA0: f64 = 1e-4;
const ETA1: f64 = 0.25;
const ETA2: f64 = 0.75;
const SIGMA1: f64 = 0.25;
const SIGMA2: f64 = 0.5;
const SIGMA3: f64 = 4.0;
/// Conjugate-gradient tolerance: `||r|| <= CG_TOL ||g||`.
const CG_TOL: f64 = 0.1;

/// Trust-region Newton from `w`.
pub(super) fn tron<O: Objective>(
    eval: &mut Evaluator<'_, O>,
    mut w: Vec<f64>,
    s: &Settings,
) -> (Vec<f64>, Convergence) {
    let n = w.len();
    let mut g = vec![0.0; n];
    let mut f = eval.value_grad(&w, &mut g, true);
    if !f.is_finite() {
        return (
            w,
            report(
                0,
                f,
                &g,
                Some(ConvergenceWarning::Diverged { iteration: 0 }),
            ),
        );
    }
    let mut delta = norm2(&g);
    let mut cg = Cg::new(n);
    let (mut w_new, mut g_new) = (vec![0.0; n], vec![0.0; n]);
    for it in 1..=s.max_iter {
        if s.norm.of(&g) <= s.gtol {
            return (w, report(it - 1, f, &g, None));
        }
        cg.solve(eval, &g, delta);
        let step = &cg.s;
        w_new.copy_from_slice(&w);
        axpy(1.0, step, &mut w_new);
        let gs = dot(&g, step);
        let prered = -0.5 * (gs - dot(step, &cg.r));
        let f_new = eval.value_grad(&w_new, &mut g_new, true);
        let snorm = norm2(step);
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
        } else {
            // the curvature kept is that of the rejected point: restore the current one
            f = eval.value_grad(&w, &mut g, true);
        }
        // no decrease is predicted, or none above rounding can be measured
        let stalled = prered <= 0.0 || (!accepted && prered <= 1e-14 * f.abs());
        if stalled {
            let warning = (s.norm.of(&g) > s.gtol)
                .then_some(ConvergenceWarning::LineSearchFailed { iteration: it });
            return (w, report(it, f, &g, warning));
        }
    }
    let done = s.norm.of(&g) <= s.gtol;
    let warning = (!done).then_some(ConvergenceWarning::MaxIterations {
        iterations: s.max_iter,
    });
    (w, report(s.max_iter, f, &g, warning))
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

/// Steihaug's truncated conjugate gradients for `H s = -g` within `||s|| <= delta`.
struct Cg {
    /// The step.
    s: Vec<f64>,
    /// The residual `-g - H s`.
    r: Vec<f64>,
    d: Vec<f64>,
    hd: Vec<f64>,
}

impl Cg {
    fn new(n: usize) -> Self {
        Cg {
            s: vec![0.0; n],
            r: vec![0.0; n],
            d: vec![0.0; n],
            hd: vec![0.0; n],
        }
    }

    fn solve<O: Objective>(&mut self, eval: &mut Evaluator<'_, O>, g: &[f64], delta: f64) {
        let Cg { s, r, d, hd } = self;
        s.iter_mut().for_each(|v| *v = 0.0);
        r.iter_mut().zip(g).for_each(|(ri, gi)| *ri = -gi);
        d.copy_from_slice(r);
        let tol = CG_TOL * norm2(g);
        let mut rr = dot(r, r);
        for _ in 0..s.len().max(1) {
            if rr.sqrt() <= tol {
                break;
            }
            eval.hess_vec(d, hd);
            let dhd = dot(d, hd);
            let alpha = rr / dhd;
            let (sd, ss, dd) = (dot(s, d), dot(s, s), dot(d, d));
            let inside = dhd > 0.0 && ss + alpha * (2.0 * sd + alpha * dd) <= delta * delta;
            if !inside {
                // negative curvature or leaving the region: go to the boundary along d,
                // ||s + tau d|| = delta
                let rad = (sd * sd + dd * (delta * delta - ss)).max(0.0).sqrt();
                let tau = if sd >= 0.0 {
                    (delta * delta - ss) / (sd + rad)
                } else {
                    (rad - sd) / dd
                };
                axpy(tau, d, s);
                axpy(-tau, hd, r);
                return;
            }
            axpy(alpha, d, s);
            axpy(-alpha, hd, r);
            let rr_new = dot(r, r);
            let beta = rr_new / rr;
            d.iter_mut()
                .zip(r.iter())
                .for_each(|(di, ri)| *di = ri + beta * *di);
            rr = rr_new;
        }
    }
}
