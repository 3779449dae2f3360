//! Row access: what every learner needs of a feature matrix, written once per storage.
//!
//! Every algorithm is written against [`RowAccess`] and monomorphised for each storage:
//! dense matrices (any ndarray layout, values `f64` or `f32`) and CSR matrices (the
//! crate's `Csr`: the owned [`CsrMatrix`](crate::data::CsrMatrix) and the borrowed
//! [`CsrView`](crate::data::CsrView)), whose row kernels are those of
//! `hyperplane_kernels::csr`, written once over a row's checked column indices and its
//! values. Values are read as `f64` ([`Value::get`], exact for `f32`).

use hyperplane_kernels::csr::{Columns, Index, Value};
use hyperplane_kernels::prefetch;
use ndarray::{ArrayBase, Data, Ix2};

/// Row-wise access to a feature matrix: what every learner needs, written once per storage.
pub trait RowAccess: Sync {
    /// Number of rows (samples).
    fn n_rows(&self) -> usize;
    /// Number of columns (features).
    fn n_cols(&self) -> usize;
    /// Calls `f(j, x_ij)` for every stored entry of row `i` (all entries when dense).
    fn for_each_in_row<F: FnMut(usize, f64)>(&self, i: usize, f: F);
    /// `x_i . w`.
    fn dot_row(&self, i: usize, w: &[f64]) -> f64;
    /// `out += alpha * x_i`.
    fn add_row_scaled(&self, i: usize, alpha: f64, out: &mut [f64]);
    /// A hint that row `i` is read next: start loading it into the cache. Epochs in a
    /// shuffled order call it a few rows ahead (a no-op where it would not help).
    #[inline]
    fn prefetch_row(&self, _i: usize) {}
    /// A hint that row `i` is read soon: start loading where it is stored (for CSR, its
    /// `indptr` entry), so a later [`RowAccess::prefetch_row`] finds it at hand.
    #[inline]
    fn prefetch_row_start(&self, _i: usize) {}
    /// Visiting rows in `order`, about to read `order[k]`: prefetches where the row eight
    /// visits ahead is stored, with its entry of the learner's `per_row` values (label and
    /// weight together, so one cache line), and the row two visits ahead, so all arrive
    /// while `order[k]` is being used. (Measured on a shuffled 200k x 50k epoch: distances
    /// 8 and 2 to 32 and 4 did about as well; prefetching the labels and weights too made
    /// the epochs 15-30% faster.)
    #[inline]
    fn prefetch_ahead<T>(&self, order: &[usize], k: usize, per_row: &[T]) {
        if let Some(&far) = order.get(k + 8) {
            self.prefetch_row_start(far);
            prefetch::entry(per_row, far);
        }
        if let Some(&next) = order.get(k + 2) {
            self.prefetch_row(next);
        }
    }
    /// `||x_i||^2`.
    fn row_norm_sq(&self, i: usize) -> f64 {
        let mut s = 0.0;
        self.for_each_in_row(i, |_, v| s += v * v);
        s
    }
}

/// A CSR storage as the row kernels read it: each row's checked column indices and values.
pub(crate) trait Csr: Sync {
    /// The stored column index type.
    type Index: Index;
    /// The stored value type.
    type Value: Value;
    /// The row pointer type.
    type Pointer;
    /// Number of rows.
    fn rows(&self) -> usize;
    /// Number of columns.
    fn cols(&self) -> usize;
    /// Row `i`'s column indices (checked below `cols()`) and values.
    fn stored_row(&self, i: usize) -> (Columns<'_, Self::Index>, &[Self::Value]);
    /// The `rows() + 1` row pointers.
    fn row_pointers(&self) -> &[Self::Pointer];
}

/// The first stored value with `bad(v)`, as `(row, column, value)`.
pub(crate) fn find_stored(m: &impl Csr, bad: impl Fn(f64) -> bool) -> Option<(usize, usize, f64)> {
    (0..m.rows()).find_map(|i| {
        let (idx, val) = m.stored_row(i);
        idx.indices()
            .iter()
            .zip(val)
            .map(|(j, v)| (j.get(), v.get()))
            .find(|(_, v)| bad(*v))
            .map(|(j, v)| (i, j, v))
    })
}

impl<M: Csr> RowAccess for M {
    fn n_rows(&self) -> usize {
        self.rows()
    }
    fn n_cols(&self) -> usize {
        self.cols()
    }
    #[inline]
    fn for_each_in_row<F: FnMut(usize, f64)>(&self, i: usize, mut f: F) {
        let (idx, val) = self.stored_row(i);
        for (&j, &v) in idx.indices().iter().zip(val) {
            f(j.get(), v.get());
        }
    }
    #[inline(always)]
    fn dot_row(&self, i: usize, w: &[f64]) -> f64 {
        let (idx, val) = self.stored_row(i);
        idx.dot(val, w)
    }
    #[inline(always)]
    fn add_row_scaled(&self, i: usize, alpha: f64, out: &mut [f64]) {
        let (idx, val) = self.stored_row(i);
        idx.add_scaled(val, alpha, out)
    }
    /// Starts loading the row's indices and values into the cache (their first 1 KiB each).
    #[inline]
    fn prefetch_row(&self, i: usize) {
        /// Cache lines of each array asked for, at most.
        const LINES: usize = 16;
        let (idx, val) = self.stored_row(i);
        prefetch::slice(idx.indices(), prefetch::Level::L1, LINES);
        prefetch::slice(val, prefetch::Level::L1, LINES);
    }
    #[inline]
    fn prefetch_row_start(&self, i: usize) {
        prefetch::entry(self.row_pointers(), i);
    }
}

/// Any dense matrix of `f64` or `f32` (each value read as `f64`, exactly): owned,
/// borrowed, row-major, column-major or strided. Rows of a row-major matrix are read as
/// slices; the others element by element, in the same order, so every layout gives the
/// same bits, and `f32` values give the bits of the same values held as `f64`.
impl<S: Data + Sync> RowAccess for ArrayBase<S, Ix2>
where
    S::Elem: Value,
{
    fn n_rows(&self) -> usize {
        self.nrows()
    }
    fn n_cols(&self) -> usize {
        self.ncols()
    }
    #[inline]
    fn for_each_in_row<F: FnMut(usize, f64)>(&self, i: usize, mut f: F) {
        for (j, &v) in self.row(i).iter().enumerate() {
            f(j, v.get());
        }
    }
    #[inline]
    fn dot_row(&self, i: usize, w: &[f64]) -> f64 {
        let row = self.row(i);
        match row.as_slice() {
            Some(x) => dense_dot(x, w),
            // a row of a column-major or strided matrix: gathered, then the same sums
            None => dense_dot(&row.to_vec(), w),
        }
    }
    #[inline]
    fn add_row_scaled(&self, i: usize, alpha: f64, out: &mut [f64]) {
        for (o, &v) in out.iter_mut().zip(self.row(i).iter()) {
            *o += alpha * v.get();
        }
    }
}

/// `x . w`, with eight partial sums the compiler can vectorise without reassociating, in
/// ndarray's own order (so results did not move when dense views arrived).
#[inline(always)]
fn dense_dot<V: Value>(x: &[V], w: &[f64]) -> f64 {
    assert!(w.len() >= x.len(), "w has fewer entries than columns");
    let (xs, ws) = (x.chunks_exact(8), w[..x.len()].chunks_exact(8));
    let (x_tail, w_tail) = (xs.remainder(), ws.remainder());
    let mut p = [0.0f64; 8];
    for (a, b) in xs.zip(ws) {
        for u in 0..8 {
            p[u] += a[u].get() * b[u];
        }
    }
    let mut sum = 0.0;
    sum += p[0] + p[4];
    sum += p[1] + p[5];
    sum += p[2] + p[6];
    sum += p[3] + p[7];
    for (a, b) in x_tail.iter().zip(w_tail) {
        sum += a.get() * b;
    }
    sum
}
