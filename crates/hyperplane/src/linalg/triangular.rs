//! Triangular solves with the upper-triangular `n x n` block `R` of a matrix (the
//! leading `n` rows and columns; entries below the diagonal are ignored), on columns.
//!
//! - `R x = b` by back substitution, column-oriented: `x_j = b_j / R[j,j]`, then
//!   `b[..j] -= x_j R[..j, j]` (an axpy on a contiguous column).
//! - `R^T x = b` by forward substitution: `x_i = (b_i - R[..i, i] . x[..i]) / R[i,i]`.
//!
//! A zero on the diagonal gives infinities or NaN: callers decide the rank first.

use super::matrix::{axpy, dot, Matrix};

/// `B := R^{-1} B` for the upper-triangular leading `n x n` block of `r`, `n = B.rows()`.
pub fn solve_upper(r: &Matrix, b: &mut Matrix) {
    let n = b.rows();
    for c in 0..b.cols() {
        let x = b.col_mut(c);
        for j in (0..n).rev() {
            x[j] /= r[(j, j)];
            let (head, tail) = x.split_at_mut(j);
            axpy(head, -tail[0], &r.col(j)[..j]);
        }
    }
}

/// `B := R^{-T} B` for the upper-triangular leading `n x n` block of `r`, `n = B.rows()`.
pub fn solve_upper_transposed(r: &Matrix, b: &mut Matrix) {
    let n = b.rows();
    for c in 0..b.cols() {
        let x = b.col_mut(c);
        for i in 0..n {
            x[i] = (x[i] - dot(&r.col(i)[..i], &x[..i])) / r[(i, i)];
        }
    }
}
