//! Singular value decomposition `A = U S V^T` by one-sided Jacobi (Hestenes 1958).
//!
//! Plane rotations `J` applied to pairs of columns `(g_i, g_j)` of `G = A V` make them
//! orthogonal: with `alpha = |g_i|^2`, `beta = |g_j|^2`, `gamma = g_i . g_j`,
//! `zeta = (beta - alpha) / (2 gamma)`, `t = sign(zeta) / (|zeta| + sqrt(1 + zeta^2))`,
//! `c = 1 / sqrt(1 + t^2)`, `s = c t`: `g_i <- c g_i - s g_j`, `g_j <- s g_i + c g_j`
//! (and the same on `V`). Sweeps over all pairs stop when every pair satisfies
//! `|gamma| <= m eps sqrt(alpha beta)`; then `s_j = |g_j|`, `u_j = g_j / s_j`.
//!
//! Trade-offs: `O(m n^2)` per sweep and typically 5-10 sweeps, so it is meant for small
//! matrices (the `p x p` triangular factor of a least-squares problem), where it is
//! simple and accurate: singular values to high relative precision, tiny ones included.

use super::matrix::{dot, Matrix};

/// `A = U diag(s) V^T` with `s` descending, thin: `k = min(m, n)` values, `U` is
/// `m x k`, `V` is `n x k`. Columns of `U` belonging to zero singular values are zero.
#[derive(Clone, Debug)]
pub struct Svd {
    pub u: Matrix,
    pub s: Vec<f64>,
    pub v: Matrix,
}

/// Sweeps allowed before giving up on convergence (quadratic convergence needs ~10).
const MAX_SWEEPS: usize = 60;

impl Svd {
    /// The SVD of `a` by one-sided Jacobi.
    pub fn new(a: &Matrix) -> Self {
        let (m, n) = (a.rows(), a.cols());
        let mut g = a.clone();
        let mut v = Matrix::identity(n);
        let tol = f64::EPSILON * m.max(1) as f64;
        for _ in 0..MAX_SWEEPS {
            let mut rotated = false;
            for i in 0..n {
                for j in i + 1..n {
                    let (gi, gj) = g.col_pair_mut(i, j);
                    let (alpha, beta, gamma) = (dot(gi, gi), dot(gj, gj), dot(gi, gj));
                    if gamma == 0.0 || gamma.abs() <= tol * (alpha * beta).sqrt() {
                        continue;
                    }
                    rotated = true;
                    let zeta = (beta - alpha) / (2.0 * gamma);
                    let t = 1.0f64.copysign(zeta) / (zeta.abs() + zeta.hypot(1.0));
                    let c = 1.0 / t.hypot(1.0);
                    let s = c * t;
                    rotate(gi, gj, c, s);
                    let (vi, vj) = v.col_pair_mut(i, j);
                    rotate(vi, vj, c, s);
                }
            }
            if !rotated {
                break;
            }
        }
        let norms: Vec<f64> = (0..n).map(|j| dot(g.col(j), g.col(j)).sqrt()).collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| norms[b].total_cmp(&norms[a]));
        order.truncate(m.min(n));
        let s: Vec<f64> = order.iter().map(|&j| norms[j]).collect();
        let u = Matrix::from_fn(m, order.len(), |i, k| {
            let sk = s[k];
            if sk > 0.0 {
                g[(i, order[k])] / sk
            } else {
                0.0
            }
        });
        let v = Matrix::from_fn(n, order.len(), |i, k| v[(i, order[k])]);
        Svd { u, s, v }
    }
}

/// `(x, y) <- (c x - s y, s x + c y)`.
fn rotate(x: &mut [f64], y: &mut [f64], c: f64, s: f64) {
    for (a, b) in x.iter_mut().zip(y.iter_mut()) {
        let (p, q) = (*a, *b);
        *a = c * p - s * q;
        *b = s * p + c * q;
    }
}
