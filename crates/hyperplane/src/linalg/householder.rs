//! Householder reflectors `H = I - tau v v^T` with `v = [1; v_tail]` (LAPACK's `dlarfg`
//! convention): `H` is symmetric and orthogonal, and maps `[alpha; x]` to `[beta; 0]`.

use super::matrix::{axpy, dot, norm2};

/// Turns `[alpha; x]` into a reflector: overwrites `x` with `v_tail` and returns
/// `(beta, tau)`, where `beta = -sign(alpha) ||[alpha; x]||`, `tau = (beta - alpha) / beta`
/// and `v_tail = x / (alpha - beta)`. A zero `x` gives `tau = 0` (`H = I`, `beta = alpha`).
pub fn make_reflector(alpha: f64, x: &mut [f64]) -> (f64, f64) {
    let xnorm = norm2(x);
    if xnorm == 0.0 {
        return (alpha, 0.0);
    }
    let beta = -alpha.hypot(xnorm).copysign(alpha);
    let tau = (beta - alpha) / beta;
    let scale = 1.0 / (alpha - beta);
    x.iter_mut().for_each(|v| *v *= scale);
    (beta, tau)
}

/// Applies `H` to the vector `[head; tail]`: `w = tau (head + v_tail . tail)`,
/// `head -= w`, `tail -= w v_tail`.
#[inline]
pub fn apply_reflector(tau: f64, v_tail: &[f64], head: &mut f64, tail: &mut [f64]) {
    if tau == 0.0 {
        return;
    }
    let w = tau * (*head + dot(v_tail, tail));
    *head -= w;
    axpy(tail, -w, v_tail);
}
