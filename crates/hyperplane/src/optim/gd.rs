//! Batch gradient descent: `w <- w - eta grad f(w)`.
//!
//! With a fixed step `eta` it converges for `eta < 2 / L` (`L` the largest curvature of
//! `f`); a step that makes `f` grow or become non-finite is reported as
//! [`ConvergenceWarning::Diverged`] and the last good point is returned. With the Armijo
//! line search, `eta` starts from twice the last accepted step (first: `step`) and halves
//! until `f(w - eta g) <= f(w) - 1e-4 eta ||g||^2`.

use super::{
    axpy, budget_spent, dot, line_search_failed, report, start, Convergence, ConvergenceWarning,
    Differentiable, Settings,
};

/// The sufficient-decrease constant of the Armijo rule.
const ARMIJO_C: f64 = 1e-4;
/// Halvings tried before the line search gives up.
const MAX_HALVINGS: usize = 60;

/// Gradient descent from `w`: fixed step, or Armijo backtracking when `line_search`.
pub(super) fn gradient_descent<E: Differentiable>(
    eval: &mut E,
    mut w: Vec<f64>,
    s: &Settings,
    line_search: bool,
) -> (Vec<f64>, Convergence) {
    let n = w.len();
    let (mut f, mut g) = match start(eval, w.as_slice(), false) {
        Ok(fg) => fg,
        Err(c) => return (w, *c),
    };
    let (mut trial, mut g_trial) = (vec![0.0; n], vec![0.0; n]);
    let mut eta = s.step;
    for it in 1..=s.max_iter {
        if crate::context::cancelled() {
            return (w, report(it - 1, f, &g, None)); // `minimize` reports the cancellation
        }
        if s.norm.of(&g) <= s.gtol {
            return (w, report(it - 1, f, &g, None));
        }
        let gg = dot(&g, &g);
        if line_search {
            eta *= 2.0;
        }
        let mut accepted = false;
        for _ in 0..if line_search { MAX_HALVINGS } else { 1 } {
            trial.copy_from_slice(&w);
            axpy(&mut trial, -eta, &g);
            let f_trial = eval.value_grad(&trial, &mut g_trial, false);
            if !line_search {
                if !f_trial.is_finite() || f_trial - f > 1e-12 * f.abs().max(1.0) {
                    let warning = ConvergenceWarning::Diverged { iteration: it };
                    return (w, report(it, f, &g, Some(warning)));
                }
            } else if !sufficient_decrease(f, f_trial, eta * gg, &g_trial, gg) {
                eta *= 0.5;
                continue;
            }
            f = f_trial;
            std::mem::swap(&mut w, &mut trial);
            std::mem::swap(&mut g, &mut g_trial);
            accepted = true;
            break;
        }
        if !accepted {
            let warning = line_search_failed(it, s, &g);
            return (w, report(it, f, &g, Some(warning)));
        }
    }
    (w, budget_spent(s, f, &g))
}

/// Armijo's `f_trial <= f - c eta ||g||^2` (with `decrease = eta ||g||^2`); when that
/// decrease is below the rounding of `f`, a smaller gradient instead.
fn sufficient_decrease(f: f64, f_trial: f64, decrease: f64, g_trial: &[f64], gg: f64) -> bool {
    if !f_trial.is_finite() {
        false
    } else if decrease <= 1e-12 * f.abs() {
        dot(g_trial, g_trial) < gg
    } else {
        f_trial <= f - ARMIJO_C * decrease
    }
}
