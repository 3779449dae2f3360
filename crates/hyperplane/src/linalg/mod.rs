//! Linear algebra for least squares and Newton's method: Householder QR (plain,
//! column-pivoted and tall-skinny), one-sided Jacobi SVD, triangular solves, the complete
//! orthogonal decomposition and the Cholesky factorisation, on a small column-major
//! [`Matrix`]; the weighted Gram matrix `X^T D X` of dense or sparse rows
//! ([`add_weighted_gram`]); and [`lsqr`], which reads its matrix only through products (a
//! [`LinearOperator`]), for sparse problems.
//!
//! ## How a least-squares problem uses it
//!
//! For `min ||A w - y||` with `A` tall (`n x p`, `n >> p`):
//!
//! 1. [`tall_r`] (TSQR) factors `[A y] = Q [R z; 0 rho]` block by block, in parallel,
//!    without forming `Q` or even a column-major copy of `A`: `2 n (p+k)^2` flops, each
//!    row block in cache. `z = Q^T y` is read off `R`'s last columns.
//! 2. The `p x p` problem `R w ~ z` is solved by [`Svd`] (one-sided Jacobi: minimum-norm
//!    `w = V S^+ U^T z`, rank and singular values, as LAPACK `gelsd`) or by
//!    [`min_norm_lstsq`] (pivoted QR + complete orthogonal decomposition, as `gelsy`).
//!
//! The normal equations `A^T A w = A^T y` are never formed: that squares the condition
//! number. QR and Jacobi work on `A` itself and keep the error at `eps cond(A)`.
//!
//! ## Trade-offs, and when not to use this
//!
//! - Made for tall-skinny problems and small square ones (`p` up to a few hundred):
//!   Jacobi SVD is `O(p^3)` per sweep and the pivoted QR recomputes column norms.
//!   For large square matrices, use a full linear-algebra library (faer, LAPACK).
//! - Kernels are safe Rust on contiguous slices, vectorised by the compiler for the
//!   build's target features (`-C target-cpu=native` gives AVX2/FMA). The neural network's
//!   products run on register tiles written for AVX2/FMA and AVX-512 (chosen at run time),
//!   in `hyperplane_kernels::gemm`.
//! - Results of [`tall_r`] do not depend on the thread count (fixed chunks, merged in order).

mod cholesky;
mod cod;
mod gram;
mod householder;
mod lsqr;
mod matrix;
mod qr;
mod svd;
mod triangular;

pub use cholesky::{Cholesky, NotPositiveDefinite};
pub use cod::min_norm_lstsq;
pub use gram::add_weighted_gram;
pub use lsqr::{lsqr, LinearOperator};
pub(crate) use matrix::scale;
pub use matrix::{axpy, dot, Matrix};
pub use qr::{tall_r, Qr, RowQr};
pub use svd::Svd;
pub use triangular::{solve_upper, solve_upper_transposed};

#[cfg(test)]
mod tests;
