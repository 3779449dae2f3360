//! The weighted Gram matrix of a set of rows, `G += sum_n c_n x~_n x~_n^T`, where
//! `x~_n = (x_n, e)` is row `n` with an optional constant column `e` appended (a linear
//! model's intercept feature): the Hessian `X^T D X` of a loss of linear scores.
//!
//! Rows are taken [`GRAM_BLOCK`] at a time, and each block by the cheaper of two ways:
//!
//! - sparse rows: a rank-one update of the upper triangle per row, over its stored
//!   entries only, `k_n (k_n + 1) / 2` multiply-adds for `k_n` of them;
//! - dense rows: the block gathered into a `b x p` matrix `B` (`p` the columns of `G`),
//!   then `G += B^T (D B)` by one matrix product (`matrixmultiply`, through ndarray's
//!   `general_mat_mul`): `b p^2` multiply-adds, each about [`GEMM_SPEEDUP`] times cheaper
//!   than a scattered update.
//!
//! A sparse matrix is never densified: a block is gathered only when its rows fill enough
//! of the columns that the product is cheaper, and only [`GRAM_BLOCK`] rows at a time. The
//! choice depends on the rows alone, so the result does not depend on threads.

use std::ops::Range;

use ndarray::linalg::general_mat_mul;
use ndarray::{Array2, ArrayViewMut2, ShapeBuilder};

use super::matrix::Matrix;
use crate::data::RowAccess;

/// Rows per block.
pub const GRAM_BLOCK: usize = 128;
/// How many times cheaper a multiply-add of the blocked product is than one of the scattered
/// rank-one updates: an estimate, not tuned (a scattered update is a read-modify-write into
/// `G` at a data-dependent place; the product keeps registers full and vectorises).
pub const GEMM_SPEEDUP: usize = 8;

/// Adds `sum_{n in rows} c[n - rows.start] x~_n x~_n^T` to `g` (`x~_n = (x_n, e)` with the
/// constant `extra = Some(e)`, else `x_n`). `g` is `p x p`, `p = x.n_cols() + 1` with the
/// constant column, `x.n_cols()` without; its upper triangle is updated for sure, its lower
/// one may be.
pub fn add_weighted_gram<M: RowAccess>(
    x: &M,
    rows: Range<usize>,
    c: &[f64],
    extra: Option<f64>,
    g: &mut Matrix,
) {
    let p = x.n_cols() + usize::from(extra.is_some());
    assert_eq!((g.rows(), g.cols()), (p, p), "Gram matrix shape");
    let mut entries: Vec<(usize, f64)> = Vec::new();
    let mut starts: Vec<usize> = Vec::with_capacity(GRAM_BLOCK + 1);
    let mut block = Array2::<f64>::zeros((0, 0));
    let mut scaled = Array2::<f64>::zeros((0, 0));
    for start in rows.clone().step_by(GRAM_BLOCK) {
        let block_rows = start..(start + GRAM_BLOCK).min(rows.end);
        // the block's entries, the constant column included, rows of weight 0 skipped
        entries.clear();
        starts.clear();
        let mut weights = Vec::with_capacity(block_rows.len());
        for i in block_rows {
            let ci = c[i - rows.start];
            if ci == 0.0 {
                continue;
            }
            starts.push(entries.len());
            weights.push(ci);
            x.for_each_in_row(i, |j, v| {
                if v != 0.0 {
                    entries.push((j, v));
                }
            });
            if let Some(e) = extra {
                entries.push((p - 1, e));
            }
        }
        starts.push(entries.len());
        let scattered: usize = starts
            .windows(2)
            .map(|s| (s[1] - s[0]) * (s[1] - s[0] + 1) / 2)
            .sum();
        if scattered * GEMM_SPEEDUP <= weights.len() * p * p {
            for (s, ci) in starts.windows(2).zip(&weights) {
                add_rank_one(&entries[s[0]..s[1]], *ci, g);
            }
        } else {
            let b = weights.len();
            if block.dim() != (b, p) {
                block = Array2::zeros((b, p));
                scaled = Array2::zeros((b, p));
            } else {
                block.fill(0.0);
            }
            for (r, s) in starts.windows(2).enumerate() {
                for &(j, v) in &entries[s[0]..s[1]] {
                    block[[r, j]] = v;
                }
            }
            for ((mut out, row), ci) in scaled
                .rows_mut()
                .into_iter()
                .zip(block.rows())
                .zip(&weights)
            {
                out.zip_mut_with(&row, |o, v| *o = ci * v);
            }
            let mut gv =
                ArrayViewMut2::from_shape((p, p).f(), g.as_mut_slice()).expect("a p x p matrix");
            general_mat_mul(1.0, &block.t(), &scaled, 1.0, &mut gv);
        }
    }
}

/// `g[j_a, j_b] += c v_a v_b` for the entries `(j_a, v_a)` of one row (increasing `j`), on
/// and above the diagonal.
fn add_rank_one(entries: &[(usize, f64)], c: f64, g: &mut Matrix) {
    for (b, &(jb, vb)) in entries.iter().enumerate() {
        let cvb = c * vb;
        let col = g.col_mut(jb);
        for &(ja, va) in &entries[..=b] {
            col[ja] += cvb * va;
        }
    }
}
