//! Feature matrices: dense (ndarray) and sparse (CSR) behind one row-access abstraction.
//!
//! Every algorithm is written once against [`RowAccess`] and monomorphised for both
//! storages; [`Features`] holds either and dispatches once per call with
//! [`with_rows!`](crate::with_rows), never per element. Sparse input is never densified.

use ndarray::{Array2, ArrayBase, ArrayView2, Axis, CowArray, Data, Ix2};
use serde::{Deserialize, Serialize};

use crate::data::borrowed::CsrRef;
use crate::error::{Error, Result};

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
            sparse_kernels::prefetch_entry(per_row, far);
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

/// A compressed sparse row matrix of `f64`.
///
/// Row `i` holds the entries `indices[indptr[i]..indptr[i+1]]` with values
/// `data[indptr[i]..indptr[i+1]]`; column indices are strictly increasing within a row.
/// Our own small type rather than `sprs`: learners need only row iteration, and owning the
/// layout lets readers and vectorizers build it directly with `u32` indices (half the
/// memory of `usize`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "CsrParts")]
pub struct CsrMatrix {
    n_rows: usize,
    n_cols: usize,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    data: Vec<f64>,
}

/// The serialized form of a [`CsrMatrix`], validated by [`CsrMatrix::new`] when read.
#[derive(Deserialize)]
struct CsrParts {
    n_cols: usize,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    data: Vec<f64>,
}

impl TryFrom<CsrParts> for CsrMatrix {
    type Error = Error;
    fn try_from(p: CsrParts) -> Result<Self> {
        CsrMatrix::new(p.n_cols, p.indptr, p.indices, p.data)
    }
}

impl CsrMatrix {
    /// Builds a CSR matrix from its parts, checking every invariant.
    pub fn new(
        n_cols: usize,
        indptr: Vec<usize>,
        indices: Vec<u32>,
        data: Vec<f64>,
    ) -> Result<Self> {
        if indptr.is_empty() || indptr[0] != 0 {
            return Err(Error::data("CSR indptr must start with 0"));
        }
        if indices.len() != data.len() || *indptr.last().unwrap() != data.len() {
            return Err(Error::data(format!(
                "CSR arrays disagree: indptr ends at {}, {} indices, {} values",
                indptr.last().unwrap(),
                indices.len(),
                data.len()
            )));
        }
        if n_cols > u32::MAX as usize {
            return Err(Error::data(format!(
                "at most {} columns are supported",
                u32::MAX
            )));
        }
        for (i, w) in indptr.windows(2).enumerate() {
            if w[1] < w[0] {
                return Err(Error::data(format!(
                    "CSR indptr decreases at row {}",
                    i + 1
                )));
            }
            let row = &indices[w[0]..w[1]];
            if row.windows(2).any(|p| p[1] <= p[0]) {
                return Err(Error::data(format!(
                    "CSR column indices of row {} are not strictly increasing",
                    i + 1
                )));
            }
            if let Some(&j) = row.last() {
                if j as usize >= n_cols {
                    return Err(Error::data(format!(
                        "CSR row {} has column {j} but the matrix has {n_cols} columns",
                        i + 1
                    )));
                }
            }
        }
        Ok(CsrMatrix {
            n_rows: indptr.len() - 1,
            n_cols,
            indptr,
            indices,
            data,
        })
    }

    /// Builds a CSR matrix from rows of `(column, value)` pairs (any order; duplicates summed).
    pub fn from_rows(n_cols: usize, rows: &[Vec<(usize, f64)>]) -> Result<Self> {
        let mut b = CsrBuilder::new(n_cols);
        for r in rows {
            b.push_row(r.iter().copied())?;
        }
        Ok(b.finish())
    }

    /// The CSR form of a dense matrix (zeros dropped).
    pub fn from_dense(x: ArrayView2<f64>) -> Self {
        let mut b = CsrBuilder::new(x.ncols());
        for row in x.rows() {
            b.push_sorted_row(
                row.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != 0.0)
                    .map(|(j, v)| (j, *v)),
            );
        }
        b.finish()
    }

    /// The dense form. Only for small matrices (tests, display).
    pub fn to_dense(&self) -> Array2<f64> {
        let mut out = Array2::zeros((self.n_rows, self.n_cols));
        for i in 0..self.n_rows {
            self.for_each_in_row(i, |j, v| out[[i, j]] = v);
        }
        out
    }

    /// Row pointer array (`n_rows + 1` entries).
    pub fn indptr(&self) -> &[usize] {
        &self.indptr
    }
    /// Column indices of the stored entries.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }
    /// Values of the stored entries.
    pub fn data(&self) -> &[f64] {
        &self.data
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.data.len()
    }
    /// Column indices and values of row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let (a, b) = (self.indptr[i], self.indptr[i + 1]);
        (&self.indices[a..b], &self.data[a..b])
    }

    /// Multiplies every stored value of column `j` by `factor[j]` (one entry per column).
    pub fn scale_columns(&mut self, factor: &[f64]) {
        assert_eq!(factor.len(), self.n_cols, "one factor per column");
        for (v, &j) in self.data.iter_mut().zip(&self.indices) {
            *v *= factor[j as usize];
        }
    }

    /// The rows `rows` (in that order, repeats allowed) as a new matrix.
    pub fn select_rows(&self, rows: &[usize]) -> Self {
        sparse_kernels::select_rows(self, rows)
    }

    /// Overwrites `out` with the first rows of `order` (in that order) that hold at most
    /// `max_entries` entries in all (at least one row, at most `max_rows`), and `values` with
    /// their entries of `per_row`, reusing both buffers; returns how many rows it took. The
    /// copy keeps every invariant of `self`.
    fn gather_block<T: Copy>(
        &self,
        order: &[usize],
        per_row: &[T],
        (max_entries, max_rows): (usize, usize),
        (out, values): &mut (CsrMatrix, Vec<T>),
    ) -> usize {
        out.n_cols = self.n_cols;
        out.indptr.clear();
        out.indices.clear();
        out.data.clear();
        out.indptr.push(0);
        values.clear();
        let mut taken = 0;
        for (k, &i) in order.iter().enumerate().take(max_rows) {
            let (idx, val) = self.row(i);
            if taken > 0 && out.data.len() + val.len() > max_entries {
                break;
            }
            self.prefetch_ahead(order, k, per_row);
            values.push(per_row[i]);
            out.indices.extend_from_slice(idx);
            out.data.extend_from_slice(val);
            out.indptr.push(out.data.len());
            taken += 1;
        }
        out.n_rows = taken;
        taken
    }

    /// Visits the rows in `order` as consecutive blocks, in order: `visit(block, identity,
    /// values)` gets a matrix holding the next rows of `order` (about `block_entries` entries
    /// in all), `identity = 0..block.n_rows()` and those rows' entries of `per_row`.
    ///
    /// A second thread gathers the next blocks while one is visited, so the visitor reads
    /// memory in sequence. A shuffled epoch over a matrix much larger than the caches spends
    /// most of its time waiting for rows fetched in random order; handing the fetching to a
    /// second core made a shuffled 200k x 50k SGD epoch 1.5-1.9x faster (blocks of 256 to
    /// 2,048 rows of 80 entries did about as well; 16,384 rows were slower).
    pub fn visit_in_blocks<T: Copy + Send + Sync>(
        &self,
        order: &[usize],
        per_row: &[T],
        block_entries: usize,
        mut visit: impl FnMut(&CsrMatrix, &[usize], &[T]),
    ) {
        use std::sync::mpsc::sync_channel;
        /// Blocks in flight: one visited, one gathered, one spare.
        const BUFFERS: usize = 3;
        /// Rows per block at most (so empty rows cannot make a block unbounded).
        const MAX_ROWS: usize = 4096;
        let identity: Vec<usize> = (0..MAX_ROWS).collect();
        let (full_tx, full_rx) = sync_channel::<(CsrMatrix, Vec<T>)>(BUFFERS);
        let (empty_tx, empty_rx) = sync_channel::<(CsrMatrix, Vec<T>)>(BUFFERS);
        for _ in 0..BUFFERS {
            let block = CsrBuilder::new(self.n_cols).finish();
            // cannot fail: the channel has room for every buffer and its receiver is alive
            let _ = empty_tx.send((block, Vec::new()));
        }
        // `move`: the visitor's ends of the channels belong to this closure, so a panicking
        // visitor drops them while unwinding; the gatherer then sees them gone and stops,
        // and the scope can join it and propagate the panic (instead of waiting forever).
        std::thread::scope(move |scope| {
            scope.spawn(move || {
                let mut rest = order;
                while !rest.is_empty() {
                    let Ok(mut buffer) = empty_rx.recv() else {
                        return;
                    };
                    let limits = (block_entries, MAX_ROWS);
                    let taken = self.gather_block(rest, per_row, limits, &mut buffer);
                    rest = &rest[taken..];
                    if full_tx.send(buffer).is_err() {
                        return;
                    }
                }
            });
            for (block, values) in full_rx.iter() {
                visit(&block, &identity[..block.n_rows], &values);
                // the gatherer may have finished and gone: then the buffer is not needed
                let _ = empty_tx.send((block, values));
            }
        });
    }
}

// SAFETY: every constructor checks `j < n_cols` for each stored index `j`
// (`CsrMatrix::new`, `CsrBuilder`, `gather_block` copying rows of a checked matrix).
unsafe impl sparse_kernels::Csr for CsrMatrix {
    type Index = u32;
    type Value = f64;
    type Pointer = usize;
    fn rows(&self) -> usize {
        self.n_rows
    }
    fn cols(&self) -> usize {
        self.n_cols
    }
    #[inline(always)]
    fn stored_row(&self, i: usize) -> (&[u32], &[f64]) {
        self.row(i)
    }
    fn row_pointers(&self) -> &[usize] {
        &self.indptr
    }
}

/// The row kernels of every CSR storage (owned, or borrowed with other integer and float
/// types), written once over the row's index and value slices.
pub(crate) mod sparse_kernels {
    use crate::data::borrowed::sealed::{Index, Value};
    use crate::data::RowAccess;

    /// A CSR storage as the row kernels read it: the rows' index and value slices.
    ///
    /// # Safety
    /// Every index of every `stored_row(i)` is below `cols()`: the kernels index the
    /// caller's vectors (asserted to have `cols()` entries) without bounds checks.
    pub unsafe trait Csr: Sync {
        type Index: Index;
        type Value: Value;
        type Pointer;
        fn rows(&self) -> usize;
        fn cols(&self) -> usize;
        fn stored_row(&self, i: usize) -> (&[Self::Index], &[Self::Value]);
        fn row_pointers(&self) -> &[Self::Pointer];
    }

    /// The first stored value with `bad(v)`, as `(row, column, value)`.
    pub fn find_stored(m: &impl Csr, bad: impl Fn(f64) -> bool) -> Option<(usize, usize, f64)> {
        (0..m.rows()).find_map(|i| {
            let (idx, val) = m.stored_row(i);
            idx.iter()
                .zip(val)
                .map(|(j, v)| (j.get(), v.get()))
                .find(|(_, v)| bad(*v))
                .map(|(j, v)| (i, j, v))
        })
    }

    /// The rows `rows` (in that order, repeats allowed) as an owned matrix of `f64`.
    pub fn select_rows(m: &impl Csr, rows: &[usize]) -> super::CsrMatrix {
        let mut b = super::CsrBuilder::new(m.cols());
        b.reserve(rows.iter().map(|&i| m.stored_row(i).0.len()).sum());
        for &i in rows {
            let (idx, val) = m.stored_row(i);
            b.push_sorted_row(idx.iter().zip(val).map(|(j, v)| (j.get(), v.get())));
        }
        b.finish()
    }

    impl<M: Csr> RowAccess for M {
        fn n_rows(&self) -> usize {
            self.rows()
        }
        fn n_cols(&self) -> usize {
            self.cols()
        }
        #[inline]
        fn for_each_in_row<F: FnMut(usize, f64)>(&self, i: usize, f: F) {
            let (idx, val) = self.stored_row(i);
            for_each(idx, val, f);
        }
        #[inline(always)]
        fn dot_row(&self, i: usize, w: &[f64]) -> f64 {
            assert!(w.len() >= self.cols(), "w has fewer entries than columns");
            let (idx, val) = self.stored_row(i);
            // SAFETY: each index is `< cols() <= w.len()` (the contract of `Csr`).
            unsafe { dot(idx, val, w) }
        }
        #[inline(always)]
        fn add_row_scaled(&self, i: usize, alpha: f64, out: &mut [f64]) {
            assert!(
                out.len() >= self.cols(),
                "out has fewer entries than columns"
            );
            let (idx, val) = self.stored_row(i);
            // SAFETY: as in `dot_row`.
            unsafe { add_scaled(idx, val, alpha, out) }
        }
        #[inline]
        fn prefetch_row(&self, i: usize) {
            let (idx, val) = self.stored_row(i);
            prefetch(idx, val);
        }
        #[inline]
        fn prefetch_row_start(&self, i: usize) {
            prefetch_entry(self.row_pointers(), i);
        }
    }

    /// Calls `f(j, x_j)` for every stored entry.
    #[inline]
    pub fn for_each<I: Index, V: Value>(idx: &[I], val: &[V], mut f: impl FnMut(usize, f64)) {
        for (&j, &v) in idx.iter().zip(val) {
            f(j.get(), v.get());
        }
    }

    /// `x . w`, with four independent partial sums so the additions do not wait on each
    /// other (the profile of the SGD and perceptron epochs is dominated by this loop).
    ///
    /// # Safety
    /// Every index of `idx` is below `w.len()`.
    #[inline(always)]
    pub unsafe fn dot<I: Index, V: Value>(idx: &[I], val: &[V], w: &[f64]) -> f64 {
        let n = idx.len().min(val.len());
        // SAFETY: `k < n`, and the caller guarantees each index is in range of `w`.
        let at = |k: usize| unsafe {
            val.get_unchecked(k).get() * w.get_unchecked(idx.get_unchecked(k).get())
        };
        let mut acc = [0.0f64; 4];
        let full = n / 4 * 4;
        for k in (0..full).step_by(4) {
            for (u, a) in acc.iter_mut().enumerate() {
                *a += at(k + u);
            }
        }
        let tail: f64 = (full..n).map(at).sum();
        (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
    }

    /// `out += alpha * x`.
    ///
    /// # Safety
    /// Every index of `idx` is below `out.len()`.
    #[inline(always)]
    pub unsafe fn add_scaled<I: Index, V: Value>(
        idx: &[I],
        val: &[V],
        alpha: f64,
        out: &mut [f64],
    ) {
        for (&j, &v) in idx.iter().zip(val) {
            // SAFETY: the caller guarantees `j < out.len()`.
            unsafe { *out.get_unchecked_mut(j.get()) += alpha * v.get() };
        }
    }

    /// Starts loading a row's indices and values into the cache (their first 1 KiB each).
    #[inline]
    pub fn prefetch<I, V>(idx: &[I], val: &[V]) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            /// Cache lines of each array asked for, at most.
            const LINES: usize = 16;
            let (pi, pv) = (idx.as_ptr().cast::<i8>(), val.as_ptr().cast::<i8>());
            for l in 0..LINES {
                let offset = l * 64;
                // SAFETY: prefetching never faults, and each address is inside the row.
                unsafe {
                    if offset < std::mem::size_of_val(idx) {
                        _mm_prefetch(pi.add(offset), _MM_HINT_T0);
                    }
                    if offset < std::mem::size_of_val(val) {
                        _mm_prefetch(pv.add(offset), _MM_HINT_T0);
                    }
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (idx, val);
    }

    /// A hint that `values[i]` is read soon: starts loading it into the cache (nothing
    /// when `i` is out of range, or off x86-64).
    #[inline]
    pub fn prefetch_entry<T>(values: &[T], i: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = values.get(i) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: prefetching never faults, and the address is an element of `values`.
            unsafe { _mm_prefetch(std::ptr::from_ref(p).cast::<i8>(), _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (values, i);
    }
}

/// Whether every value is finite: blocks in parallel, each scanned without branches.
fn all_finite(values: &[f64]) -> bool {
    use rayon::prelude::*;
    values
        .par_chunks(1 << 16)
        .all(|block| block.iter().fold(true, |ok, v| ok & v.is_finite()))
}

/// An empty vector with room for `capacity` elements; on Linux, when that is at least
/// 32 MiB, the kernel is asked to back it with 2 MiB pages (`madvise(MADV_HUGEPAGE)`)
/// before any of it is touched. Learners visit the rows of a large CSR matrix in a shuffled
/// order, and with 4 KiB pages nearly every row costs TLB misses: huge pages made a
/// shuffled 200k x 50k epoch about 1.4x faster. Elsewhere (or when the kernel declines)
/// this is a plain `Vec::with_capacity`.
pub(crate) fn large_buffer<T>(capacity: usize) -> Vec<T> {
    let v = Vec::with_capacity(capacity);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = v.capacity() * std::mem::size_of::<T>();
        if bytes >= 16 * HUGE {
            let start = (v.as_ptr() as usize).next_multiple_of(HUGE);
            let end = (v.as_ptr() as usize + bytes) / HUGE * HUGE;
            // SAFETY: the range lies inside the vector's own allocation (aligned inward),
            // and MADV_HUGEPAGE changes only how its pages are backed, never their content.
            // A refusal (no THP support) leaves ordinary pages: the result is ignored.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    v
}

/// Builds a [`CsrMatrix`] row by row.
#[derive(Debug)]
pub struct CsrBuilder {
    n_cols: usize,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    data: Vec<f64>,
    scratch: Vec<(usize, f64)>,
}

impl CsrBuilder {
    /// A builder for a matrix with `n_cols` columns.
    pub fn new(n_cols: usize) -> Self {
        CsrBuilder {
            n_cols,
            indptr: vec![0],
            indices: Vec::new(),
            data: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Reserves room for `nnz` more entries.
    pub fn reserve(&mut self, nnz: usize) {
        self.indices.reserve(nnz);
        self.data.reserve(nnz);
    }

    /// Appends a row given as `(column, value)` pairs in any order; duplicate columns are
    /// summed and explicit zeros kept out.
    pub fn push_row(&mut self, entries: impl IntoIterator<Item = (usize, f64)>) -> Result<()> {
        self.scratch.clear();
        self.scratch.extend(entries);
        if let Some(&(j, _)) = self.scratch.iter().find(|(j, _)| *j >= self.n_cols) {
            return Err(Error::data(format!(
                "column {j} is out of range for a matrix with {} columns",
                self.n_cols
            )));
        }
        self.scratch.sort_unstable_by_key(|e| e.0);
        let mut last: Option<usize> = None;
        for &(j, v) in &self.scratch {
            if last == Some(j) {
                *self.data.last_mut().unwrap() += v;
            } else {
                self.indices.push(j as u32);
                self.data.push(v);
                last = Some(j);
            }
        }
        self.indptr.push(self.indices.len());
        Ok(())
    }

    /// Appends a row whose columns are already strictly increasing and in range.
    pub fn push_sorted_row(&mut self, entries: impl IntoIterator<Item = (usize, f64)>) {
        for (j, v) in entries {
            assert!(
                j < self.n_cols,
                "column {j} out of range in push_sorted_row"
            );
            self.indices.push(j as u32);
            self.data.push(v);
        }
        self.indptr.push(self.indices.len());
    }

    /// Number of rows pushed so far.
    pub fn n_rows(&self) -> usize {
        self.indptr.len() - 1
    }

    /// The finished matrix.
    pub fn finish(self) -> CsrMatrix {
        CsrMatrix {
            n_rows: self.indptr.len() - 1,
            n_cols: self.n_cols,
            indptr: self.indptr,
            indices: self.indices,
            data: self.data,
        }
    }
}

/// Any dense matrix of `f64`: owned, borrowed, row-major, column-major or strided. Rows
/// of a row-major matrix are read as slices; the others element by element, in the same
/// order, so every layout gives the same bits.
impl<S: Data<Elem = f64> + Sync> RowAccess for ArrayBase<S, Ix2> {
    fn n_rows(&self) -> usize {
        self.nrows()
    }
    fn n_cols(&self) -> usize {
        self.ncols()
    }
    #[inline]
    fn for_each_in_row<F: FnMut(usize, f64)>(&self, i: usize, mut f: F) {
        for (j, &v) in self.row(i).iter().enumerate() {
            f(j, v);
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
            *o += alpha * v;
        }
    }
}

/// `x . w`, with eight partial sums the compiler can vectorise without reassociating, in
/// ndarray's own order (so results did not move when dense views arrived).
#[inline(always)]
fn dense_dot(x: &[f64], w: &[f64]) -> f64 {
    assert!(w.len() >= x.len(), "w has fewer entries than columns");
    let (xs, ws) = (x.chunks_exact(8), w[..x.len()].chunks_exact(8));
    let (x_tail, w_tail) = (xs.remainder(), ws.remainder());
    let mut p = [0.0f64; 8];
    for (a, b) in xs.zip(ws) {
        for u in 0..8 {
            p[u] += a[u] * b[u];
        }
    }
    let mut sum = 0.0;
    sum += p[0] + p[4];
    sum += p[1] + p[5];
    sum += p[2] + p[6];
    sum += p[3] + p[7];
    for (a, b) in x_tail.iter().zip(w_tail) {
        sum += a * b;
    }
    sum
}

/// A feature matrix, dense or sparse, owned or borrowed. Rows are samples, columns are
/// features.
///
/// Readers and transforms produce owned matrices (`Features<'static>`); a host that holds
/// its data already lends it without a copy: a dense `ArrayView2` of any layout
/// (`Features::from(view)`), or a CSR matrix over its own slices ([`CsrView`](crate::data::CsrView)).
#[derive(Clone, Debug, PartialEq)]
pub enum Features<'a> {
    /// A dense matrix, owned or a view of any layout.
    Dense(CowArray<'a, f64, Ix2>),
    /// Our own CSR matrix (`u32` indices, `f64` values), as readers and vectorizers build it.
    Sparse(CsrMatrix),
    /// A borrowed CSR matrix over the caller's slices.
    SparseView(CsrRef<'a>),
}

impl Features<'static> {
    /// The same matrix as `Features` of any lifetime, moved (`Features` is invariant in its
    /// lifetime, through ndarray's storage type, so an owned matrix needs this to stand
    /// where a borrowed one may; a `'static` dense view is copied).
    pub(crate) fn for_any_lifetime<'b>(self) -> Features<'b> {
        match self {
            Features::Dense(a) => Features::Dense(a.into_owned().into()),
            Features::Sparse(s) => Features::Sparse(s),
            Features::SparseView(s) => Features::SparseView(s),
        }
    }
}

/// Runs `$body` with `$m` bound to the concrete matrix inside a [`Features`], so the body
/// is monomorphised for each storage: one dispatch per call, none per element.
#[macro_export]
macro_rules! with_rows {
    ($features:expr, |$m:ident| $body:expr) => {
        match $features {
            $crate::data::Features::Dense($m) => $body,
            $crate::data::Features::Sparse($m) => $body,
            $crate::data::Features::SparseView($m) => $body,
        }
    };
}

impl<'a> Features<'a> {
    /// Number of rows (samples).
    pub fn n_rows(&self) -> usize {
        with_rows!(self, |m| m.n_rows())
    }
    /// Number of columns (features).
    pub fn n_cols(&self) -> usize {
        with_rows!(self, |m| m.n_cols())
    }
    /// True for CSR storage (owned or borrowed).
    pub fn is_sparse(&self) -> bool {
        !matches!(self, Features::Dense(_))
    }
    /// Number of stored values (`rows * cols` when dense).
    pub fn nnz(&self) -> usize {
        match self {
            Features::Dense(a) => a.len(),
            Features::Sparse(s) => s.nnz(),
            Features::SparseView(s) => s.nnz(),
        }
    }

    /// The same matrix, owning its storage (a borrowed one is copied, values as `f64`).
    pub fn into_owned(self) -> Features<'static> {
        match self {
            Features::Dense(a) => Features::Dense(a.into_owned().into()),
            Features::Sparse(s) => Features::Sparse(s),
            Features::SparseView(s) => Features::Sparse(s.to_owned()),
        }
    }

    /// The first stored value with `bad(v)`, as `(row, feature, value)`: a scan of the raw
    /// value array (no per-row dispatch).
    pub(crate) fn first_stored(
        &self,
        bad: impl Fn(f64) -> bool + Copy,
    ) -> Option<(usize, usize, f64)> {
        match self {
            Features::Dense(a) => match a.as_slice() {
                Some(v) => first_bad(v, bad).map(|p| (p / a.ncols(), p % a.ncols(), v[p])),
                None => a
                    .indexed_iter()
                    .find(|(_, v)| bad(**v))
                    .map(|((i, j), v)| (i, j, *v)),
            },
            Features::Sparse(s) => first_bad(s.data(), bad).map(|p| {
                let row = s.indptr().partition_point(|&q| q <= p) - 1;
                (row, s.indices()[p] as usize, s.data()[p])
            }),
            Features::SparseView(s) => s.find_stored(bad),
        }
    }

    /// Rejects NaN and infinite values, naming `what`, the row and the feature.
    pub fn check_finite(&self, what: &str) -> Result<()> {
        // The common case first: all values finite, by a branch-free scan in parallel.
        let values = match self {
            Features::Dense(a) => a.as_slice_memory_order(),
            Features::Sparse(s) => Some(s.data()),
            Features::SparseView(_) => None,
        };
        if values.is_some_and(all_finite) {
            return Ok(());
        }
        match self.first_stored(|v| !v.is_finite()) {
            Some((row, feature, value)) => Err(Error::NonFinite {
                what: what.to_string(),
                row,
                feature,
                value,
            }),
            None => Ok(()),
        }
    }

    /// Checks the shape for a fitted model: `expected` features, finite values.
    pub fn check_predict_input(&self, expected: usize) -> Result<()> {
        if self.n_cols() != expected {
            return Err(Error::FeatureCount {
                expected,
                found: self.n_cols(),
            });
        }
        self.check_finite("X at predict")
    }

    /// Checks a training matrix: at least one row and one column, finite values.
    pub fn check_fit_input(&self) -> Result<()> {
        self.check_fit_shape()?;
        self.check_finite("X")
    }

    /// Checks a training matrix's shape: at least one row and one column.
    pub fn check_fit_shape(&self) -> Result<()> {
        if self.n_rows() == 0 {
            return Err(Error::data("X has 0 samples; at least 1 is required"));
        }
        if self.n_cols() == 0 {
            return Err(Error::data("X has 0 features; at least 1 is required"));
        }
        Ok(())
    }

    /// The rows `rows` (in that order, repeats allowed), same storage.
    pub fn select_rows(&self, rows: &[usize]) -> Features<'static> {
        match self {
            Features::Dense(a) => Features::Dense(a.select(Axis(0), rows).into()),
            Features::Sparse(s) => Features::Sparse(s.select_rows(rows)),
            Features::SparseView(s) => Features::Sparse(s.select_rows(rows)),
        }
    }

    /// The rows `rows`, same storage: a view of dense rows, a copy of sparse ones.
    pub fn row_range(&self, rows: std::ops::Range<usize>) -> Features<'_> {
        match self {
            Features::Dense(a) => Features::Dense(a.slice(ndarray::s![rows, ..]).into()),
            _ => self
                .select_rows(&rows.collect::<Vec<_>>())
                .for_any_lifetime(),
        }
    }

    /// The dense form (small data, tests and display only).
    pub fn to_dense(&self) -> Array2<f64> {
        match self {
            Features::Dense(a) => a.to_owned(),
            Features::Sparse(s) => s.to_dense(),
            Features::SparseView(s) => CsrMatrix::to_dense(&s.to_owned()),
        }
    }

    /// The CSR form.
    pub fn to_sparse(&self) -> CsrMatrix {
        match self {
            Features::Dense(a) => CsrMatrix::from_dense(a.view()),
            Features::Sparse(s) => s.clone(),
            Features::SparseView(s) => s.to_owned(),
        }
    }
}

impl From<Array2<f64>> for Features<'_> {
    fn from(a: Array2<f64>) -> Self {
        Features::Dense(a.into())
    }
}

/// A dense view of any layout, borrowed as it is.
impl<'a> From<ArrayView2<'a, f64>> for Features<'a> {
    fn from(a: ArrayView2<'a, f64>) -> Self {
        Features::Dense(a.into())
    }
}

impl From<CsrMatrix> for Features<'_> {
    fn from(s: CsrMatrix) -> Self {
        Features::Sparse(s)
    }
}

/// Position of the first `v` with `bad(v)`: chunks are tested without early exit (a
/// branch-free reduction the compiler vectorizes), and only a failing chunk is searched.
fn first_bad(values: &[f64], bad: impl Fn(f64) -> bool + Copy) -> Option<usize> {
    const CHUNK: usize = 512;
    values
        .chunks(CHUNK)
        .position(|c| c.iter().fold(false, |any, &v| any | bad(v)))
        .and_then(|k| {
            let start = k * CHUNK;
            values[start..]
                .iter()
                .position(|&v| bad(v))
                .map(|p| start + p)
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn first_bad_finds_the_first_in_any_chunk() {
        let mut v = vec![1.0; 2000];
        assert_eq!(first_bad(&v, |x| x < 0.0), None);
        v[1500] = -1.0;
        v[1700] = -2.0;
        assert_eq!(first_bad(&v, |x| x < 0.0), Some(1500));
        v[3] = f64::NAN;
        assert_eq!(first_bad(&v, |x| !x.is_finite()), Some(3));
    }

    use super::*;
    use ndarray::{array, ShapeBuilder};

    #[test]
    fn a_non_finite_value_is_named_by_row_and_feature_in_every_layout() {
        let mut d = array![[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, -3.0, 4.0]];
        assert!(Features::from(d.clone()).check_finite("X").is_ok());
        d[[2, 1]] = f64::NAN;
        d[[2, 2]] = f64::INFINITY;
        let mut fortran = Array2::zeros((3, 3).f());
        fortran.assign(&d);
        let csr = Features::Sparse(CsrMatrix::from_dense(d.view()));
        for x in [Features::from(d.clone()), Features::from(fortran), csr] {
            match x.check_finite("X") {
                Err(Error::NonFinite {
                    row: 2,
                    feature: 1,
                    value,
                    ..
                }) if value.is_nan() => {}
                other => panic!("expected row 2 feature 1 NaN, got {other:?}"),
            }
        }
    }

    #[test]
    fn dense_and_sparse_rows_agree() {
        let d = array![[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, -3.0, 4.0]];
        let s = CsrMatrix::from_dense(d.view());
        let w = [0.5, 1.0, -1.0];
        for i in 0..3 {
            assert_eq!(d.dot_row(i, &w), s.dot_row(i, &w));
            assert_eq!(d.row_norm_sq(i), s.row_norm_sq(i));
            let (mut a, mut b) = (vec![0.0; 3], vec![0.0; 3]);
            d.add_row_scaled(i, 2.0, &mut a);
            s.add_row_scaled(i, 2.0, &mut b);
            assert_eq!(a, b);
        }
        assert_eq!(s.nnz(), 4);
        assert_eq!(s.to_dense(), d);
    }

    #[test]
    fn builder_sums_duplicates_and_rejects_out_of_range() {
        let m = CsrMatrix::from_rows(4, &[vec![(3, 1.0), (0, 2.0), (3, 1.5)], vec![]]).unwrap();
        assert_eq!(m.row(0), (&[0u32, 3][..], &[2.0, 2.5][..]));
        assert_eq!(m.n_rows(), 2);
        assert!(CsrMatrix::from_rows(2, &[vec![(2, 1.0)]]).is_err());
    }

    #[test]
    fn new_checks_invariants() {
        assert!(CsrMatrix::new(3, vec![0, 2], vec![2, 1], vec![1.0, 1.0]).is_err());
        assert!(CsrMatrix::new(3, vec![0, 1], vec![3], vec![1.0]).is_err());
        assert!(CsrMatrix::new(3, vec![0, 1], vec![2], vec![1.0]).is_ok());
    }

    #[test]
    fn deserializing_checks_the_invariants_the_kernels_rely_on() {
        let m = CsrMatrix::from_rows(3, &[vec![(2, 1.5)], vec![(0, -1.0), (1, 2.0)]]).unwrap();
        let text = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<CsrMatrix>(&text).unwrap(), m);
        // a column index past the width would make dot_row read outside `w`
        let bad = text.replace("\"n_cols\":3", "\"n_cols\":2");
        assert_ne!(bad, text);
        let err = serde_json::from_str::<CsrMatrix>(&bad)
            .unwrap_err()
            .to_string();
        assert!(err.contains("column 2"), "{err}");
    }

    #[test]
    fn kernels_agree_with_a_plain_sum_on_long_rows() {
        // rows longer than the 4-way unrolled part, with a tail, against the dense form
        let rows: Vec<Vec<(usize, f64)>> = (0..5)
            .map(|i| {
                (0..(7 + 3 * i))
                    .map(|j| (j * 2 + i % 2, (j as f64) - 1.5 * i as f64))
                    .collect()
            })
            .collect();
        let s = CsrMatrix::from_rows(40, &rows).unwrap();
        let d = s.to_dense();
        let w: Vec<f64> = (0..40).map(|j| 0.25 * j as f64 - 3.0).collect();
        let order: Vec<usize> = (0..5).rev().collect();
        for (k, &i) in order.iter().enumerate() {
            s.prefetch_ahead(&order, k, &w);
            assert!((s.dot_row(i, &w) - d.dot_row(i, &w)).abs() < 1e-12);
        }
    }

    #[test]
    fn finite_and_shape_checks_name_the_place() {
        let x = Features::from(array![[1.0, 2.0], [3.0, f64::NAN]]);
        let e = x.check_fit_input().unwrap_err().to_string();
        assert!(e.contains("row 2") && e.contains("feature 1"), "{e}");
        let e = x.check_predict_input(3).unwrap_err().to_string();
        assert!(e.contains('3') && e.contains('2'), "{e}");
        let empty = Features::from(Array2::zeros((0, 2)));
        assert!(empty
            .check_fit_input()
            .unwrap_err()
            .to_string()
            .contains("0 samples"));
    }

    proptest::proptest! {
        #[test]
        fn blocks_hold_the_rows_of_the_order_in_order(
            lengths in proptest::collection::vec(0usize..6, 1..40),
            picks in proptest::collection::vec(0usize..1000, 0..120),
            block_entries in 0usize..12,
        ) {
            let rows: Vec<Vec<(usize, f64)>> = lengths
                .iter()
                .enumerate()
                .map(|(i, &len)| (0..len).map(|j| (j * 3 + i % 3, (i * 10 + j) as f64)).collect())
                .collect();
            let m = CsrMatrix::from_rows(20, &rows).unwrap();
            // any order, repeats allowed; per-row values name their row
            let order: Vec<usize> = picks.iter().map(|p| p % rows.len()).collect();
            let per_row: Vec<usize> = (0..rows.len()).map(|i| 100 + i).collect();
            let mut seen = Vec::new();
            m.visit_in_blocks(&order, &per_row, block_entries, |block, identity, values| {
                assert!(block.n_rows() >= 1 && block.n_cols() == 20);
                assert!(block.nnz() <= block_entries || block.n_rows() == 1);
                assert_eq!(identity, (0..block.n_rows()).collect::<Vec<_>>());
                for (k, &v) in values.iter().enumerate() {
                    let i = v - 100;
                    assert_eq!(block.row(k), m.row(i));
                    seen.push(i);
                }
            });
            proptest::prop_assert_eq!(seen, order);
        }
    }

    #[test]
    #[should_panic(expected = "visitor failed")]
    fn a_panicking_visitor_stops_the_gatherer_and_panics() {
        let m = CsrMatrix::from_rows(2, &vec![vec![(0, 1.0)]; 100]).unwrap();
        let order: Vec<usize> = (0..100).collect();
        m.visit_in_blocks(&order, &order, 1, |_, _, _| panic!("visitor failed"));
    }

    #[test]
    fn select_rows_keeps_storage() {
        let d = array![[1.0, 0.0], [0.0, 2.0], [3.0, 0.0]];
        let s = Features::Sparse(CsrMatrix::from_dense(d.view()));
        let picked = s.select_rows(&[2, 0, 2]);
        assert!(picked.is_sparse());
        assert_eq!(
            picked.to_dense(),
            array![[3.0, 0.0], [1.0, 0.0], [3.0, 0.0]]
        );
    }
}
