//! Minimum-norm least squares by the complete orthogonal decomposition (as LAPACK
//! `gelsy`): column-pivoted QR `A P = Q_2 R_2`, numerical rank `r` = the number of
//! `|R_2[i,i]| > rcond |R_2[0,0]|`, then `R_2[..r, ..]^T = Q_3 T` (a QR of the transpose,
//! i.e. an LQ of the leading rows), so `A P = Q_2 [T^T 0] Q_3^T` and
//!
//! `w = P Q_3 [T^{-T} (Q_2^T b)[..r]; 0]`,
//!
//! the least-squares solution of smallest norm. Cheaper than the SVD but the rank
//! decision rests on the pivoted diagonal, which can (rarely) misjudge it.

use super::matrix::Matrix;
use super::qr::Qr;
use super::triangular::solve_upper_transposed;

/// The minimum-norm `W = argmin ||A W - B||_F` and the numerical rank of `A` (`m x n`).
pub fn min_norm_lstsq(a: &Matrix, b: &Matrix, rcond: f64) -> (Matrix, usize) {
    let (n, k) = (a.cols(), b.cols());
    let qr = Qr::with_column_pivoting(a.clone());
    let r2 = qr.r();
    let top = if r2.rows() > 0 { r2[(0, 0)].abs() } else { 0.0 };
    let rank = (0..r2.rows())
        .take_while(|&i| r2[(i, i)].abs() > rcond * top)
        .count();
    let mut w = Matrix::zeros(n, k);
    if rank == 0 {
        return (w, 0);
    }
    let mut qtb = b.clone();
    qr.apply_qt(&mut qtb);
    let lq = Qr::new(r2.block(0..rank, 0..n).transpose());
    let mut c = qtb.block(0..rank, 0..k);
    solve_upper_transposed(&lq.r(), &mut c);
    let mut wp = Matrix::from_fn(n, k, |i, j| if i < rank { c[(i, j)] } else { 0.0 });
    lq.apply_q(&mut wp);
    for (j, &pj) in qr.perm().iter().enumerate() {
        for col in 0..k {
            w[(pj, col)] = wp[(j, col)];
        }
    }
    (w, rank)
}
