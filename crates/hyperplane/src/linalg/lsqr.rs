//! LSQR (Paige and Saunders, 1982): `min ||A w - b||^2 + damp^2 ||w||^2` by Golub-Kahan
//! bidiagonalisation, reading `A` only through the products `A v` and `A^T u` (a
//! [`LinearOperator`]), so a sparse or implicitly transformed matrix is never formed.
//! From `w = 0` it converges to the minimum-norm least-squares solution.

use super::matrix::scale;

/// A matrix `A` known by its products, for [`lsqr`].
pub trait LinearOperator {
    /// The number of columns of `A`: the length of `w`.
    fn n_cols(&self) -> usize;
    /// `out = A v`.
    fn apply(&self, v: &[f64], out: &mut [f64]);
    /// `out = A^T u`.
    fn apply_transpose(&self, u: &[f64], out: &mut [f64]);
}

/// `sqrt(sum_i v_i^2)`.
fn norm(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

/// LSQR for `min ||A w - b||^2 + damp^2 ||w||^2` from `w = 0` (Paige and Saunders 1982,
/// the bidiagonalisation and stopping rules of their algorithm with `atol = btol = tol`):
/// stop when `||r|| <= tol (||b|| + ||A|| ||w||)` or `||A^T r|| <= tol ||A|| ||r||`.
/// Returns the weights, the iterations and whether a stopping rule held.
pub fn lsqr(
    op: &impl LinearOperator,
    b: &[f64],
    damp: f64,
    tol: f64,
    max_iter: usize,
) -> (Vec<f64>, usize, bool) {
    let p = op.n_cols();
    let mut x = vec![0.0; p];
    let mut u = b.to_vec();
    let mut beta = norm(&u);
    if beta == 0.0 {
        return (x, 0, true);
    }
    scale(&mut u, 1.0 / beta);
    let mut v = vec![0.0; p];
    op.apply_transpose(&u, &mut v);
    let mut alpha = norm(&v);
    if alpha == 0.0 {
        return (x, 0, true);
    }
    scale(&mut v, 1.0 / alpha);
    let mut w = v.clone();
    let (mut rhobar, mut phibar, bnorm) = (alpha, beta, beta);
    let (mut anorm, mut xxnorm, mut zeta, mut cs2, mut sn2, mut res2) =
        (0.0f64, 0.0f64, 0.0, -1.0, 0.0, 0.0);
    let mut tmp_u = vec![0.0; u.len()];
    let mut tmp_v = vec![0.0; p];
    for itn in 1..=max_iter {
        if crate::context::cancelled() {
            return (x, itn - 1, false); // the caller reports the cancellation
        }
        // Bidiagonalisation: beta u = A v - alpha u, alpha v = A^T u - beta v.
        op.apply(&v, &mut tmp_u);
        u.iter_mut()
            .zip(&tmp_u)
            .for_each(|(a, t)| *a = t - alpha * *a);
        beta = norm(&u);
        if beta > 0.0 {
            scale(&mut u, 1.0 / beta);
            anorm = (anorm * anorm + alpha * alpha + beta * beta + damp * damp).sqrt();
            op.apply_transpose(&u, &mut tmp_v);
            v.iter_mut()
                .zip(&tmp_v)
                .for_each(|(a, t)| *a = t - beta * *a);
            alpha = norm(&v);
            if alpha > 0.0 {
                scale(&mut v, 1.0 / alpha);
            }
        }
        // Eliminate the damping, then the subdiagonal, by plane rotations.
        let rhobar1 = rhobar.hypot(damp);
        let (cs1, sn1) = (rhobar / rhobar1, damp / rhobar1);
        let psi = sn1 * phibar;
        phibar *= cs1;
        let rho = rhobar1.hypot(beta);
        let (cs, sn) = (rhobar1 / rho, beta / rho);
        let theta = sn * alpha;
        rhobar = -cs * alpha;
        let phi = cs * phibar;
        phibar *= sn;
        let tau = sn * phi;
        let (t1, t2) = (phi / rho, -theta / rho);
        for j in 0..p {
            x[j] += t1 * w[j];
            w[j] = v[j] + t2 * w[j];
        }
        // ||x|| by the second rotation, ||r|| and ||A^T r|| for the stopping rules.
        let delta = sn2 * rho;
        let gambar = -cs2 * rho;
        let rhs = phi - delta * zeta;
        let zbar = rhs / gambar;
        let xnorm = (xxnorm + zbar * zbar).sqrt();
        let gamma = gambar.hypot(theta);
        cs2 = gambar / gamma;
        sn2 = theta / gamma;
        zeta = rhs / gamma;
        xxnorm += zeta * zeta;
        res2 += psi * psi;
        let rnorm = (phibar * phibar + res2).sqrt();
        let arnorm = alpha * tau.abs();
        let small_residual = rnorm <= tol * (bnorm + anorm * xnorm);
        let small_gradient = arnorm <= tol * anorm * rnorm;
        if small_residual || small_gradient || alpha == 0.0 || beta == 0.0 {
            return (x, itn, true);
        }
    }
    (x, max_iter, false)
}
