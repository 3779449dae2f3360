//! Cholesky factorisation of a symmetric positive definite matrix, `A = U^T U` with `U`
//! upper triangular, by inner products (Cholesky-Crout, column by column):
//!
//! ```text
//! U[i, j] = (A[i, j] - U[..i, i] . U[..i, j]) / U[i, i]      i < j
//! U[j, j] = sqrt(A[j, j] - U[..j, j] . U[..j, j])
//! ```
//!
//! `U` is stored column-major, so both products run on contiguous columns. Cost `n^3 / 3`
//! multiply-adds. `A x = b` is then two triangular solves, `U^T y = b` and `U x = y`.
//!
//! A pivot `A[j, j] - ||U[..j, j]||^2` that is not above `eps A[j, j]` (zero, negative, NaN,
//! or all of `A[j, j]` lost to rounding) means `A` is not positive definite to working
//! precision: [`Cholesky::factor`] says at which column, and the caller decides (a shifted
//! matrix, another method).

use super::matrix::{dot, Matrix};
use super::triangular::{solve_upper, solve_upper_transposed};

/// The factor `U` of `A = U^T U`.
#[derive(Clone, Debug)]
pub struct Cholesky {
    u: Matrix,
}

/// [`Cholesky::factor`] met a pivot that is not positive: `A` is not positive definite (to
/// working precision) in its leading `column + 1` rows and columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NotPositiveDefinite {
    /// The column of the failed pivot.
    pub column: usize,
}

impl Cholesky {
    /// Factors the symmetric `n x n` matrix whose upper triangle `a` holds (entries below
    /// the diagonal are ignored and overwritten).
    pub fn factor(mut a: Matrix) -> Result<Self, NotPositiveDefinite> {
        let n = a.cols();
        assert_eq!(a.rows(), n, "Cholesky of a square matrix");
        for j in 0..n {
            let diag = a[(j, j)];
            for i in 0..j {
                let (ui, uj) = a.col_pair_mut(i, j);
                uj[i] = (uj[i] - dot(&ui[..i], &uj[..i])) / ui[i];
            }
            let col = a.col_mut(j);
            let pivot = diag - dot(&col[..j], &col[..j]);
            // NaN fails too
            let positive = pivot > f64::EPSILON * diag;
            if !positive {
                return Err(NotPositiveDefinite { column: j });
            }
            col[j] = pivot.sqrt();
            col[j + 1..].fill(0.0);
        }
        Ok(Cholesky { u: a })
    }

    /// `b := A^-1 b`.
    pub fn solve(&self, b: &mut [f64]) {
        let n = self.u.cols();
        let mut x = Matrix::zeros(n, 1);
        x.col_mut(0).copy_from_slice(b);
        solve_upper_transposed(&self.u, &mut x);
        solve_upper(&self.u, &mut x);
        b.copy_from_slice(x.col(0));
    }
}
