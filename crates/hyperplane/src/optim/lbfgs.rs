//! Limited-memory BFGS (Nocedal and Wright, Algorithms 7.4 and 7.5) with a line search
//! for the strong Wolfe conditions (Algorithms 3.5 and 3.6, cubic interpolation):
//!
//! ```text
//! f(w + a d) <= f(w) + c1 a grad f(w).d        (sufficient decrease, c1 = 1e-4)
//! |grad f(w + a d).d| <= c2 |grad f(w).d|      (curvature, c2 = 0.9)
//! ```
//!
//! The direction `d = -H g` comes from the two-loop recursion over the last 10 pairs
//! `(s, y) = (w_{k+1} - w_k, g_{k+1} - g_k)` with `H_0 = (s.y / y.y) I`; pairs with
//! `s.y <= 0` are skipped so `H` stays positive definite. While the line search is still
//! bracketing (the slope steep and negative), the next trial is where the secant of the
//! slope through `0` and `a` vanishes, `a g0 / (g0 - g(a))`, kept within `[2a, 10a]` (as
//! Moré and Thuente extrapolate): a first step `1/||g||` that is far too short costs two
//! trials, not a run of doublings.
//!
//! The data term is a function of the scores `z(w)`, linear in `w`, so the line search
//! works on `z(w) + a z(d)`: one pass over the rows computes `z(d)`, every trial step is
//! `O(N)`, and one more pass gives the gradient at the accepted step. An iteration costs
//! two passes however many trials its line search makes.

use std::collections::VecDeque;

use super::{
    axpy, budget_spent, dot, line_search_failed, norm2, report, start, Convergence, Differentiable,
    Settings,
};

const MEMORY: usize = 10;
const C1: f64 = 1e-4;
const C2: f64 = 0.9;
/// Objective evaluations allowed per line search (scikit-learn's `maxls`).
const MAX_LINE_SEARCH: usize = 50;

/// L-BFGS from `w`.
pub(super) fn lbfgs<E: Differentiable>(
    eval: &mut E,
    mut w: Vec<f64>,
    s: &Settings,
) -> (Vec<f64>, Convergence) {
    let n = w.len();
    let (mut f, mut g) = match start(eval, w.as_slice(), false) {
        Ok(fg) => fg,
        Err(c) => return (w, *c),
    };
    let mut pairs: VecDeque<(Vec<f64>, Vec<f64>, f64)> = VecDeque::with_capacity(MEMORY);
    let mut d = vec![0.0; n];
    let (mut w_new, mut g_new) = (vec![0.0; n], vec![0.0; n]);
    for it in 1..=s.max_iter {
        if crate::context::cancelled() {
            return (w, report(it - 1, f, &g, None)); // `minimize` reports the cancellation
        }
        if s.norm.of(&g) <= s.gtol {
            return (w, report(it - 1, f, &g, None));
        }
        direction(&pairs, &g, &mut d);
        let mut slope = dot(&d, &g);
        if slope >= 0.0 || slope.is_nan() {
            pairs.clear();
            direction(&pairs, &g, &mut d);
            slope = dot(&d, &g);
        }
        let first = if pairs.is_empty() {
            (1.0 / norm2(&g)).min(1.0)
        } else {
            1.0
        };
        let Some(a) = line_search(eval, &w, f, slope, &d, first) else {
            let warning = line_search_failed(it, s, &g);
            return (w, report(it, f, &g, Some(warning)));
        };
        let f_new = eval.line_accept(a, &mut w_new, &mut g_new);
        let step: Vec<f64> = w_new.iter().zip(&w).map(|(a, b)| a - b).collect();
        let change: Vec<f64> = g_new.iter().zip(&g).map(|(a, b)| a - b).collect();
        let sy = dot(&step, &change);
        if sy > 1e-10 * dot(&change, &change) {
            if pairs.len() == MEMORY {
                pairs.pop_front();
            }
            pairs.push_back((step, change, 1.0 / sy));
        }
        let decrease = (f - f_new) / f.abs().max(f_new.abs()).max(1.0);
        std::mem::swap(&mut w, &mut w_new);
        std::mem::swap(&mut g, &mut g_new);
        f = f_new;
        if decrease <= s.ftol {
            return (w, report(it, f, &g, None));
        }
    }
    (w, budget_spent(s, f, &g))
}

/// `d = -H g` by the two-loop recursion (`d = -g` with no pairs).
fn direction(pairs: &VecDeque<(Vec<f64>, Vec<f64>, f64)>, g: &[f64], d: &mut [f64]) {
    d.iter_mut().zip(g).for_each(|(di, gi)| *di = -gi);
    let mut alpha = [0.0; MEMORY];
    for (k, (s, y, rho)) in pairs.iter().enumerate().rev() {
        alpha[k] = rho * dot(s, d);
        axpy(d, -alpha[k], y);
    }
    if let Some((s, y, _)) = pairs.back() {
        let gamma = dot(s, y) / dot(y, y);
        d.iter_mut().for_each(|v| *v *= gamma);
    }
    for (k, (s, y, rho)) in pairs.iter().enumerate() {
        let beta = rho * dot(y, d);
        axpy(d, alpha[k] - beta, s);
    }
}

/// A point on the line `w + a d`: step, objective, directional derivative.
#[derive(Clone, Copy)]
struct Point {
    a: f64,
    f: f64,
    slope: f64,
}

/// A step `a` along `d` from `w0` meeting the strong Wolfe conditions, or `None` when none
/// was found within the budget and no decrease was seen. Trials cost `O(N)` each
/// ([`Evaluator::line`]).
fn line_search<E: Differentiable>(
    e: &mut E,
    w0: &[f64],
    f0: f64,
    slope0: f64,
    d: &[f64],
    first: f64,
) -> Option<f64> {
    e.line_start(w0, d);
    let mut at = |a: f64| {
        let (f, slope) = e.line(a);
        Point { a, f, slope }
    };
    let start = Point {
        a: 0.0,
        f: f0,
        slope: slope0,
    };
    let armijo = |p: &Point| p.f.is_finite() && p.f <= f0 + C1 * p.a * slope0;
    let curvature = |p: &Point| p.slope.abs() <= -C2 * slope0;
    let (mut prev, mut a) = (start, first);
    let mut evals = 0;
    let (mut lo, mut hi) = loop {
        let p = at(a);
        evals += 1;
        if !armijo(&p) || (evals > 1 && p.f >= prev.f) {
            break (prev, p);
        }
        if curvature(&p) {
            return Some(p.a);
        }
        if p.slope >= 0.0 {
            break (p, prev);
        }
        if evals >= MAX_LINE_SEARCH {
            return Some(p.a);
        }
        // still descending steeply: extrapolate to where the slope's secant through
        // 0 and a vanishes, at least doubling and at most ten times the step
        let secant = p.a * slope0 / (slope0 - p.slope);
        prev = p;
        a = if secant.is_finite() {
            secant.clamp(2.0 * p.a, 10.0 * p.a)
        } else {
            2.0 * p.a
        };
    };
    while evals < MAX_LINE_SEARCH {
        let p = at(interpolate(&lo, &hi));
        evals += 1;
        if !armijo(&p) || p.f >= lo.f {
            hi = p;
        } else {
            if curvature(&p) {
                return Some(p.a);
            }
            if p.slope * (hi.a - lo.a) >= 0.0 {
                hi = lo;
            }
            lo = p;
        }
        if (hi.a - lo.a).abs() <= 1e-16 * lo.a.abs().max(1e-300) {
            break;
        }
    }
    // No strong-Wolfe step: settle for the best decrease seen, if any.
    (lo.a > 0.0 && lo.f < f0).then_some(lo.a)
}

/// The minimiser of the cubic through `lo` and `hi` (values and slopes), kept inside the
/// middle 80% of the interval; bisection when the cubic has none.
fn interpolate(lo: &Point, hi: &Point) -> f64 {
    let (a, b) = (lo.a, hi.a);
    let d1 = lo.slope + hi.slope - 3.0 * (lo.f - hi.f) / (a - b);
    let d2 = (b - a).signum() * (d1 * d1 - lo.slope * hi.slope).sqrt();
    let t = b - (b - a) * (hi.slope + d2 - d1) / (hi.slope - lo.slope + 2.0 * d2);
    let (left, right) = (a.min(b), a.max(b));
    let margin = 0.1 * (right - left);
    if t.is_finite() && t >= left + margin && t <= right - margin {
        t
    } else {
        0.5 * (a + b)
    }
}
