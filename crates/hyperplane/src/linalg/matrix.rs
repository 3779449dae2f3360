//! A dense column-major `f64` matrix: column `j` is the contiguous slice
//! `data[j * rows .. (j + 1) * rows]`, so the column kernels run on slices.

use std::ops::{Index, IndexMut};

/// A dense column-major matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Matrix {
    /// The `rows x cols` zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Matrix {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// `A[i, j] = f(i, j)`.
    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> f64) -> Self {
        let mut m = Matrix::zeros(rows, cols);
        for j in 0..cols {
            for (i, v) in m.col_mut(j).iter_mut().enumerate() {
                *v = f(i, j);
            }
        }
        m
    }

    /// The `n x n` identity.
    pub fn identity(n: usize) -> Self {
        Matrix::from_fn(n, n, |i, j| if i == j { 1.0 } else { 0.0 })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Column `j` as a slice.
    pub fn col(&self, j: usize) -> &[f64] {
        &self.data[j * self.rows..(j + 1) * self.rows]
    }

    /// Column `j` as a mutable slice.
    pub fn col_mut(&mut self, j: usize) -> &mut [f64] {
        &mut self.data[j * self.rows..(j + 1) * self.rows]
    }

    /// Columns `j` (read) and `k > j` (write) at once.
    pub fn col_pair_mut(&mut self, j: usize, k: usize) -> (&mut [f64], &mut [f64]) {
        debug_assert!(j < k);
        let (head, tail) = self.data.split_at_mut(k * self.rows);
        (
            &mut head[j * self.rows..(j + 1) * self.rows],
            &mut tail[..self.rows],
        )
    }

    /// The whole column-major storage.
    pub fn as_slice(&self) -> &[f64] {
        &self.data
    }

    /// The whole column-major storage, mutable.
    pub fn as_mut_slice(&mut self) -> &mut [f64] {
        &mut self.data
    }

    /// `A^T`.
    pub fn transpose(&self) -> Matrix {
        Matrix::from_fn(self.cols, self.rows, |i, j| self[(j, i)])
    }

    /// The block `A[r0..r1, c0..c1]` as a new matrix.
    pub fn block(&self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> Matrix {
        Matrix::from_fn(rows.len(), cols.len(), |i, j| {
            self[(rows.start + i, cols.start + j)]
        })
    }

    /// `A B`.
    pub fn matmul(&self, b: &Matrix) -> Matrix {
        assert_eq!(self.cols, b.rows, "matmul shapes");
        let mut out = Matrix::zeros(self.rows, b.cols);
        for j in 0..b.cols {
            let o = out.col_mut(j);
            for (k, &bkj) in b.col(j).iter().enumerate() {
                axpy(o, bkj, self.col(k));
            }
        }
        out
    }
}

impl Index<(usize, usize)> for Matrix {
    type Output = f64;
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        &self.data[j * self.rows + i]
    }
}

impl IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut f64 {
        &mut self.data[j * self.rows + i]
    }
}

/// `x . y` with eight partial sums, so the loop vectorises without reassociation by
/// the compiler.
pub fn dot(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &y[..n]);
    let mut acc = [0.0f64; 8];
    let (xc, yc) = (x.chunks_exact(8), y.chunks_exact(8));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    for (a, b) in xc.zip(yc) {
        for l in 0..8 {
            acc[l] += a[l] * b[l];
        }
    }
    let mut tail = 0.0;
    for (a, b) in xr.iter().zip(yr) {
        tail += a * b;
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// `y += a x`.
pub fn axpy(y: &mut [f64], a: f64, x: &[f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

/// `x *= a`.
pub fn scale(x: &mut [f64], a: f64) {
    x.iter_mut().for_each(|v| *v *= a);
}

/// `||x||_2`, scaled so that it neither overflows nor underflows.
pub fn norm2(x: &[f64]) -> f64 {
    let big = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if big == 0.0 || !big.is_finite() {
        return big;
    }
    let inv = 1.0 / big;
    big * x.iter().map(|v| (v * inv) * (v * inv)).sum::<f64>().sqrt()
}
