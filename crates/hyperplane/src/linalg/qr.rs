//! QR factorisations by Householder reflectors.
//!
//! - [`Qr`]: `A P = Q R` of an `m x n` matrix, `Q = H_0 H_1 ... H_{r-1}` (`r = min(m, n)`)
//!   kept as its reflectors, with optional column pivoting (at step `k` the remaining
//!   column of largest norm is moved to position `k`, so `|R[0,0]| >= |R[1,1]| >= ...`
//!   and the rank shows on the diagonal, as LAPACK `geqp3`). Cost `2 m n^2 - 2/3 n^3`.
//! - [`RowQr`]: the `c x c` triangular factor of a stack of row blocks, one block at a
//!   time: absorbing a block `B` replaces `R` by the `R'` of `[R; B] = Q' R'`, so
//!   `R'^T R' = R^T R + B^T B` (LAPACK `tpqrt`). Reflector `k` touches row `k` of `R`
//!   and the `b` rows of `B` only, so the cost is `2 b c^2` per block, `2 n c^2` in all:
//!   no more than one QR of the whole matrix, but each block stays in cache.
//! - [`tall_r`]: TSQR (tall-skinny QR) of an `n x c` matrix with `n >> c`: fixed chunks
//!   of rows are reduced to `R` factors in parallel (rayon) and merged in chunk order,
//!   so the result does not depend on the number of threads. `Q` is never formed; append
//!   the right-hand sides as extra columns and `Q^T y` comes out in `R`'s last columns.

use std::ops::Range;

use rayon::prelude::*;

use super::householder::{apply_reflector, make_reflector};
use super::matrix::{norm2, Matrix};

/// `A P = Q R` by Householder reflectors (optionally column-pivoted).
#[derive(Clone, Debug)]
pub struct Qr {
    /// `R` on and above the diagonal, reflector `k`'s `v_tail` below it in column `k`.
    factors: Matrix,
    tau: Vec<f64>,
    perm: Vec<usize>,
}

impl Qr {
    /// `A = Q R` (no pivoting).
    pub fn new(a: Matrix) -> Self {
        Self::factor(a, false)
    }

    /// `A P = Q R` with column pivoting.
    pub fn with_column_pivoting(a: Matrix) -> Self {
        Self::factor(a, true)
    }

    fn factor(mut a: Matrix, pivot: bool) -> Self {
        let (m, n) = (a.rows(), a.cols());
        let steps = m.min(n);
        let mut perm: Vec<usize> = (0..n).collect();
        let mut tau = Vec::with_capacity(steps);
        for k in 0..steps {
            if pivot {
                // Norms are recomputed, not downdated: exact, and cheap for small n.
                let best = (k..n)
                    .map(|j| (j, norm2(&a.col(j)[k..])))
                    .fold((k, -1.0), |b, c| if c.1 > b.1 { c } else { b })
                    .0;
                if best != k {
                    let (x, y) = a.col_pair_mut(k, best);
                    x.swap_with_slice(y);
                    perm.swap(k, best);
                }
            }
            let col = a.col_mut(k);
            let (head, tail) = col[k..].split_at_mut(1);
            let (beta, t) = make_reflector(head[0], tail);
            head[0] = beta;
            tau.push(t);
            for j in k + 1..n {
                let (v, c) = a.col_pair_mut(k, j);
                let (h, rest) = c[k..].split_at_mut(1);
                apply_reflector(t, &v[k + 1..], &mut h[0], rest);
            }
        }
        Qr {
            factors: a,
            tau,
            perm,
        }
    }

    /// `R`, the `min(m, n) x n` upper trapezoid.
    pub fn r(&self) -> Matrix {
        let (m, n) = (self.factors.rows(), self.factors.cols());
        Matrix::from_fn(
            m.min(n),
            n,
            |i, j| {
                if j >= i {
                    self.factors[(i, j)]
                } else {
                    0.0
                }
            },
        )
    }

    /// The column permutation: column `j` of `A P` is column `perm()[j]` of `A`.
    pub fn perm(&self) -> &[usize] {
        &self.perm
    }

    /// `B := Q^T B` (`B` has `m` rows).
    pub fn apply_qt(&self, b: &mut Matrix) {
        for j in 0..b.cols() {
            for k in 0..self.tau.len() {
                self.reflect(k, b.col_mut(j));
            }
        }
    }

    /// `B := Q B` (`B` has `m` rows).
    pub fn apply_q(&self, b: &mut Matrix) {
        for j in 0..b.cols() {
            for k in (0..self.tau.len()).rev() {
                self.reflect(k, b.col_mut(j));
            }
        }
    }

    fn reflect(&self, k: usize, x: &mut [f64]) {
        let (h, rest) = x[k..].split_at_mut(1);
        apply_reflector(self.tau[k], &self.factors.col(k)[k + 1..], &mut h[0], rest);
    }
}

/// Reflectors computed together and applied together to each trailing column, so the
/// column is read from cache once per panel rather than once per reflector.
const PANEL: usize = 8;

/// The triangular factor of a stack of row blocks (see the module doc).
#[derive(Clone, Debug)]
pub struct RowQr {
    r: Matrix,
}

impl RowQr {
    /// The factor of no rows: `R = 0`, `c x c`.
    pub fn new(cols: usize) -> Self {
        RowQr {
            r: Matrix::zeros(cols, cols),
        }
    }

    /// Absorbs the rows of `block` (`b x c`, overwritten): `R := R'` of `[R; B] = Q' R'`.
    pub fn absorb(&mut self, block: &mut Matrix) {
        let c = self.r.cols();
        assert_eq!(block.cols(), c, "block width");
        if block.rows() == 0 {
            return;
        }
        let mut tau = [0.0; PANEL];
        for k0 in (0..c).step_by(PANEL) {
            let k1 = (k0 + PANEL).min(c);
            for k in k0..k1 {
                let (beta, t) = make_reflector(self.r[(k, k)], block.col_mut(k));
                self.r[(k, k)] = beta;
                tau[k - k0] = t;
                for j in k + 1..k1 {
                    let (v, x) = block.col_pair_mut(k, j);
                    apply_reflector(t, v, &mut self.r[(k, j)], x);
                }
            }
            for j in k1..c {
                for k in k0..k1 {
                    let (v, x) = block.col_pair_mut(k, j);
                    apply_reflector(tau[k - k0], v, &mut self.r[(k, j)], x);
                }
            }
        }
    }

    /// The factor of both stacks: absorbs `other`'s `R` as a block.
    pub fn merge(&mut self, mut other: RowQr) {
        self.absorb(&mut other.r);
    }

    /// The `c x c` upper-triangular `R`.
    pub fn into_r(self) -> Matrix {
        self.r
    }
}

/// Rows per parallel chunk: fixed, so the reduction order does not depend on the threads.
const CHUNK_ROWS: usize = 8192;
/// Floats per row block handed to [`RowQr::absorb`]: a block fits in a 256 KiB L2 share.
const BLOCK_FLOATS: usize = 32 * 1024;

/// TSQR: the `c x c` factor `R` of an `n x c` matrix given block by block. `fill(start,
/// block)` writes rows `start .. start + block.rows()` into the column-major `block`.
pub fn tall_r(n: usize, c: usize, fill: impl Fn(usize, &mut Matrix) + Sync) -> Matrix {
    let block_rows = (BLOCK_FLOATS / c.max(1)).max(c).max(8);
    let chunks: Vec<Range<usize>> = (0..n)
        .step_by(CHUNK_ROWS)
        .map(|s| s..(s + CHUNK_ROWS).min(n))
        .collect();
    let factors: Vec<RowQr> = chunks
        .into_par_iter()
        .map(|rows| {
            let mut acc = RowQr::new(c);
            for start in rows.clone().step_by(block_rows) {
                let mut block = Matrix::zeros((start + block_rows).min(rows.end) - start, c);
                fill(start, &mut block);
                acc.absorb(&mut block);
            }
            acc
        })
        .collect();
    let mut total = RowQr::new(c);
    for f in factors {
        total.merge(f);
    }
    total.into_r()
}
