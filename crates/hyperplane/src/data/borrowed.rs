//! Borrowed sparse matrices: CSR over slices the caller owns, validated once, never copied.
//!
//! A host that already holds a matrix (scipy's `csr_matrix` handed over by the Python
//! package, a Spark partition, an mmap'd file) lends its three arrays as they are:
//! `indptr` and `indices` of 32- or 64-bit integers, values of `f32` or `f64`. The
//! constructor checks every invariant the row kernels rely on in one pass over the
//! indices; after that every learner reads the rows in place through [`RowAccess`].
//!
//! Learners are monomorphised for three storages only (dense, [`CsrMatrix`], and the
//! borrowed [`CsrRef`]); the four integer/float combinations of a borrowed CSR are told
//! apart once per row, a perfectly predicted branch beside the row's own work.

use std::fmt::Debug;

use hyperplane_kernels::csr::{check_rows, ColumnVec, Columns, CsrError, Index, Value};

use crate::data::csr::{select_rows, CsrMatrix};
use crate::data::rows::{find_stored, Csr, RowAccess};
use crate::error::{Error, Result};

/// The integer types a borrowed CSR may use for `indptr` and `indices`: scipy's `int32`
/// and `int64`.
pub trait CsrIndex: Index {}
impl CsrIndex for i32 {}
impl CsrIndex for i64 {}

/// The value types a borrowed CSR may hold: `f64`, and `f32` (widened on reading, exactly).
pub trait CsrValue: Value {}
impl CsrValue for f64 {}
impl CsrValue for f32 {}

/// A CSR matrix over borrowed slices: row `i` holds the column indices
/// `indices[indptr[i]..indptr[i+1]]` (strictly increasing, each `< n_cols`) with values
/// `data[indptr[i]..indptr[i+1]]`, exactly scipy's `csr_matrix` layout.
///
/// ```
/// use hyperplane::data::{CsrView, Features};
/// // [[1, 0, 2], [0, 0, 0], [0, 3, 0]] as scipy.sparse.csr_matrix(..., dtype=float32) holds it
/// let (indptr, indices, data) = ([0i32, 2, 2, 3], [0i32, 2, 1], [1.0f32, 2.0, 3.0]);
/// let x: Features = CsrView::new(3, &indptr, &indices, &data)?.into();
/// assert_eq!((x.n_rows(), x.n_cols(), x.nnz()), (3, 3, 3));
/// # Ok::<(), hyperplane::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CsrView<'a, I, V> {
    indptr: &'a [I],
    /// The column indices, each checked below the number of columns (which it holds).
    indices: Columns<'a, I>,
    data: &'a [V],
}

impl<'a, I: CsrIndex, V: CsrValue> CsrView<'a, I, V> {
    /// Lends the three arrays of a CSR matrix with `n_cols` columns, checking every
    /// invariant once (`O(nnz)` reads, no copy): `indptr` starts at 0, never decreases and
    /// ends at `data.len() == indices.len()`; the indices of each row are non-negative,
    /// strictly increasing (scipy: `sort_indices()` and `sum_duplicates()` make them so)
    /// and below `n_cols`, which is at most `u32::MAX`.
    pub fn new(n_cols: usize, indptr: &'a [I], indices: &'a [I], data: &'a [V]) -> Result<Self> {
        let fail = |what: String| Err(Error::data(format!("borrowed CSR matrix: {what}")));
        if n_cols > u32::MAX as usize {
            return fail(format!(
                "{n_cols} columns; at most {} are supported",
                u32::MAX
            ));
        }
        if indices.len() != data.len() {
            return fail(format!(
                "{} indices but {} values",
                indices.len(),
                data.len()
            ));
        }
        let indices =
            check_rows(n_cols, indptr, indices).map_err(|e| refusal(e, n_cols, indices.len()))?;
        Ok(CsrView {
            indptr,
            indices,
            data,
        })
    }

    /// Column indices and values of row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> (&'a [I], &'a [V]) {
        let (columns, values) = self.columns_of(i);
        (columns.indices(), values)
    }

    /// Row `i`'s checked column indices and its values.
    #[inline(always)]
    fn columns_of(&self, i: usize) -> (Columns<'a, I>, &'a [V]) {
        let (a, b) = (self.indptr[i].get(), self.indptr[i + 1].get());
        (self.indices.slice(a..b), &self.data[a..b])
    }
}

impl<I: CsrIndex, V: CsrValue> Csr for CsrView<'_, I, V> {
    type Index = I;
    type Value = V;
    type Pointer = I;
    fn rows(&self) -> usize {
        self.indptr.len() - 1
    }
    fn cols(&self) -> usize {
        self.indices.n_cols()
    }
    #[inline(always)]
    fn stored_row(&self, i: usize) -> (Columns<'_, I>, &[V]) {
        self.columns_of(i)
    }
    fn row_pointers(&self) -> &[I] {
        self.indptr
    }
}

/// What a borrowed CSR matrix's arrays break, in words (rows counted from 1).
fn refusal<I: CsrIndex>(e: CsrError<I, I>, n_cols: usize, len: usize) -> Error {
    let what = match e {
        CsrError::Start => "indptr must start with 0".to_string(),
        CsrError::Pointer { at, found, start } => {
            format!("indptr[{at}] = {found:?} is outside {start}..={len}")
        }
        CsrError::NotIncreasing { row } => format!(
            "the column indices of row {} are not strictly increasing \
             (scipy: call sort_indices() and sum_duplicates() first)",
            row + 1
        ),
        CsrError::OutOfRange { row, found } => {
            format!(
                "row {} has column index {found:?}, outside 0..{n_cols}",
                row + 1
            )
        }
        CsrError::End { end } => format!("indptr ends at {end} but there are {len} values"),
    };
    Error::data(format!("borrowed CSR matrix: {what}"))
}

/// An owned CSR matrix of `f32` values with `i32` row pointers and column indices, lent to
/// learners as a [`CsrView`]: 8 bytes an entry against [`CsrMatrix`]'s 12, and row pointers
/// half as large. Readers build it when every value is exact in `f32` (one-hot indicators,
/// counts, integers up to 2^24) and there are fewer than 2^31 entries and columns, so the
/// learners read the very same `f64`s (and fit the very same models) in less memory.
#[derive(Clone, Debug, PartialEq)]
pub struct CsrMatrix32 {
    indptr: Vec<i32>,
    indices: ColumnVec<i32>,
    data: Vec<f32>,
}

impl CsrMatrix32 {
    /// Builds the matrix from its parts, checking every invariant as [`CsrView::new`] does.
    pub fn new(n_cols: usize, indptr: Vec<i32>, indices: Vec<i32>, data: Vec<f32>) -> Result<Self> {
        let len = indices.len();
        if len != data.len() {
            return Err(Error::data(format!(
                "borrowed CSR matrix: {len} indices but {} values",
                data.len()
            )));
        }
        let indices =
            ColumnVec::from_rows(n_cols, &indptr, indices).map_err(|e| refusal(e, n_cols, len))?;
        Ok(CsrMatrix32 {
            indptr,
            indices,
            data,
        })
    }

    /// The matrix, lent (its invariants were checked when it was built).
    pub fn view(&self) -> CsrView<'_, i32, f32> {
        CsrView {
            indptr: &self.indptr,
            indices: self.indices.as_columns(),
            data: &self.data,
        }
    }
}

/// A borrowed CSR matrix of any of the index and value types a host may lend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CsrRef<'a> {
    /// `int32` indices, `float64` values.
    I32F64(CsrView<'a, i32, f64>),
    /// `int32` indices, `float32` values.
    I32F32(CsrView<'a, i32, f32>),
    /// `int64` indices, `float64` values.
    I64F64(CsrView<'a, i64, f64>),
    /// `int64` indices, `float32` values.
    I64F32(CsrView<'a, i64, f32>),
}

/// Runs `$body` with `$v` bound to the typed view inside a [`CsrRef`].
macro_rules! each_view {
    ($csr:expr, |$v:ident| $body:expr) => {
        match $csr {
            CsrRef::I32F64($v) => $body,
            CsrRef::I32F32($v) => $body,
            CsrRef::I64F64($v) => $body,
            CsrRef::I64F32($v) => $body,
        }
    };
}

macro_rules! from_view {
    ($($variant:ident: $i:ty, $v:ty;)*) => {$(
        impl<'a> From<CsrView<'a, $i, $v>> for CsrRef<'a> {
            fn from(v: CsrView<'a, $i, $v>) -> Self {
                CsrRef::$variant(v)
            }
        }
    )*};
}
from_view! {
    I32F64: i32, f64;
    I32F32: i32, f32;
    I64F64: i64, f64;
    I64F32: i64, f32;
}

impl CsrRef<'_> {
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        each_view!(self, |v| v.data.len())
    }

    /// The first stored value with `bad(v)`, as `(row, column, value)`.
    pub(crate) fn find_stored(&self, bad: impl Fn(f64) -> bool) -> Option<(usize, usize, f64)> {
        each_view!(self, |v| find_stored(v, bad))
    }

    /// The rows `rows` (in that order, repeats allowed) as an owned matrix of `f64`.
    pub fn select_rows(&self, rows: &[usize]) -> CsrMatrix {
        each_view!(self, |v| select_rows(v, rows))
    }

    /// An owned copy (the same entries, values as `f64`).
    pub fn to_owned(&self) -> CsrMatrix {
        self.select_rows(&(0..self.n_rows()).collect::<Vec<_>>())
    }
}

impl RowAccess for CsrRef<'_> {
    fn n_rows(&self) -> usize {
        each_view!(self, |v| v.n_rows())
    }
    fn n_cols(&self) -> usize {
        each_view!(self, |v| v.n_cols())
    }
    #[inline]
    fn for_each_in_row<F: FnMut(usize, f64)>(&self, i: usize, f: F) {
        each_view!(self, |v| v.for_each_in_row(i, f))
    }
    #[inline]
    fn dot_row(&self, i: usize, w: &[f64]) -> f64 {
        each_view!(self, |v| v.dot_row(i, w))
    }
    #[inline]
    fn add_row_scaled(&self, i: usize, alpha: f64, out: &mut [f64]) {
        each_view!(self, |v| v.add_row_scaled(i, alpha, out))
    }
    #[inline]
    fn prefetch_row(&self, i: usize) {
        each_view!(self, |v| v.prefetch_row(i))
    }
    #[inline]
    fn prefetch_row_start(&self, i: usize) {
        each_view!(self, |v| v.prefetch_row_start(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_invariant_the_kernels_rely_on_is_checked_once() {
        let data = [1.0f64, 2.0, 3.0];
        let ok = |p: &[i64], i: &[i64]| CsrView::new(3, p, i, &data).map(|_| ());
        ok(&[0, 2, 2, 3], &[0, 2, 1]).unwrap();
        let err = |p: &[i64], i: &[i64]| ok(p, i).unwrap_err().to_string();
        assert!(err(&[1, 2, 2, 3], &[0, 2, 1]).contains("start with 0"));
        assert!(err(&[0, 2, 1, 3], &[0, 2, 1]).contains("indptr[2]"));
        assert!(err(&[0, 2, 2, 4], &[0, 2, 1]).contains("indptr[3]"));
        assert!(err(&[0, 2, 2, 2], &[0, 2, 1]).contains("ends at 2"));
        assert!(err(&[0, 2, 2, 3], &[2, 0, 1]).contains("sort_indices"));
        assert!(err(&[0, 2, 2, 3], &[0, 0, 1]).contains("strictly increasing"));
        assert!(err(&[0, 2, 2, 3], &[0, 3, 1]).contains("column index 3"));
        assert!(err(&[0, 2, 2, 3], &[-1, 2, 1]).contains("column index -1"));
        assert!(err(&[0, 2, 2, 3], &[0, 2]).contains("2 indices but 3 values"));
        assert!(err(&[], &[0, 2, 1]).contains("start with 0"));
        let e = CsrView::new(1 << 33, &[0i64], &[], &[0.0f64]).unwrap_err();
        assert!(e.to_string().contains("columns"), "{e}");
    }

    #[test]
    fn rows_read_the_same_as_the_owned_matrix_for_every_type() {
        let owned = CsrMatrix::from_rows(
            5,
            &[
                vec![(0, 1.5), (4, -2.0)],
                vec![],
                vec![(1, 0.25), (2, 3.0), (3, 1.0)],
            ],
        )
        .unwrap();
        let p32: Vec<i32> = owned.indptr().iter().map(|&p| p as i32).collect();
        let i32s: Vec<i32> = owned.indices().iter().map(|&j| j as i32).collect();
        let p64: Vec<i64> = p32.iter().map(|&p| p.into()).collect();
        let i64s: Vec<i64> = i32s.iter().map(|&j| j.into()).collect();
        let f32s: Vec<f32> = owned.data().iter().map(|&v| v as f32).collect();
        let views: [CsrRef; 4] = [
            CsrView::new(5, &p32, &i32s, owned.data()).unwrap().into(),
            CsrView::new(5, &p32, &i32s, &f32s).unwrap().into(),
            CsrView::new(5, &p64, &i64s, owned.data()).unwrap().into(),
            CsrView::new(5, &p64, &i64s, &f32s).unwrap().into(),
        ];
        let w = [0.5, -1.0, 2.0, 4.0, 0.125];
        for v in &views {
            assert_eq!((v.n_rows(), v.n_cols(), v.nnz()), (3, 5, 5));
            for i in 0..3 {
                assert_eq!(v.dot_row(i, &w), owned.dot_row(i, &w));
                let (mut a, mut b) = (vec![0.0; 5], vec![0.0; 5]);
                v.add_row_scaled(i, 3.0, &mut a);
                owned.add_row_scaled(i, 3.0, &mut b);
                assert_eq!(a, b);
            }
            assert_eq!(v.to_owned(), owned);
            assert_eq!(v.select_rows(&[2, 0]), owned.select_rows(&[2, 0]));
            assert_eq!(v.find_stored(|x| !x.is_finite()), None);
        }
        let compact = CsrMatrix32::new(5, p32.clone(), i32s.clone(), f32s.clone()).unwrap();
        assert_eq!(CsrRef::from(compact.view()), views[1]);
        let lent = crate::data::OwnedFeatures::Csr32(compact).into_features();
        assert_eq!(lent, crate::data::Features::Sparse(owned.clone()));
        let e = CsrMatrix32::new(4, p32.clone(), i32s.clone(), f32s).unwrap_err();
        assert!(e.to_string().contains("column index 4"), "{e}");
        let bad = [1.0f32, f32::NAN, 0.0, 1.0, 2.0];
        let v = CsrRef::from(CsrView::new(5, &p32, &i32s, &bad).unwrap());
        assert_eq!(
            v.find_stored(|x| !x.is_finite()).map(|(i, j, _)| (i, j)),
            Some((0, 4))
        );
    }
}
