//! The row kernels of compressed sparse row (CSR) matrices, over column indices checked
//! once.
//!
//! A CSR row is a slice of column indices and a slice of values. Its kernels, `x . w` and
//! `out += alpha x`, index the dense vector by each column without a bounds check: the
//! profile of a perceptron or SGD epoch is this loop. What makes that sound is
//! [`Columns`]: a slice of indices of which every one is below `n_cols`, checked when the
//! value is made ([`check_rows`], [`ColumnVec::push`]) and kept by every operation on it
//! (a sub-slice of checked indices is checked). The kernels then assert only that the
//! vector has `n_cols` entries, once per row.

use std::fmt::Debug;
use std::ops::Range;

mod sealed {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for u32 {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A stored column index (or row pointer): `u32`, or scipy's `int32` and `int64`.
pub trait Index: sealed::Sealed + Copy + Send + Sync + Debug + PartialEq + 'static {
    /// The index as `usize` (a negative one wraps: call it on checked indices only).
    fn get(self) -> usize;
    /// The index as `usize`, or `None` when negative.
    fn checked(self) -> Option<usize>;
    /// `j` as this type, or `None` when it does not fit.
    fn from_usize(j: usize) -> Option<Self>;
}

/// A stored value, read as `f64`: `f64`, or `f32` (widened exactly).
pub trait Value: sealed::Sealed + Copy + Send + Sync + Debug + PartialEq + 'static {
    /// The value, widened to `f64`.
    fn get(self) -> f64;
}

/// `impl Index` for the integer types.
macro_rules! index {
    ($($t:ty),*) => {$(
        impl Index for $t {
            #[inline(always)]
            fn get(self) -> usize {
                self as usize
            }
            #[inline]
            fn checked(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
            #[inline]
            fn from_usize(j: usize) -> Option<Self> {
                Self::try_from(j).ok()
            }
        }
    )*};
}

index!(usize, u32, i32, i64);

impl Value for f64 {
    #[inline(always)]
    fn get(self) -> f64 {
        self
    }
}

impl Value for f32 {
    #[inline(always)]
    fn get(self) -> f64 {
        f64::from(self)
    }
}

/// An index not below the number of columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    /// Where it would stand in the list.
    pub position: usize,
    /// The index.
    pub index: usize,
    /// The number of columns.
    pub n_cols: usize,
}

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let OutOfRange {
            position,
            index,
            n_cols,
        } = self;
        write!(
            f,
            "column index {index} at position {position} is not below {n_cols}"
        )
    }
}

impl std::error::Error for OutOfRange {}

/// What makes `indptr` and `indices` not the rows of a CSR matrix (`P`: the type of the
/// row pointers, `I`: that of the column indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsrError<P, I> {
    /// `indptr` is empty or does not start with 0.
    Start,
    /// `indptr[at]` is `found`: negative, below `indptr[at - 1] = start`, or past the last
    /// index.
    Pointer {
        /// Its position in `indptr`.
        at: usize,
        /// Its value.
        found: P,
        /// Where its row starts.
        start: usize,
    },
    /// The column indices of row `row` (from 0) do not strictly increase.
    NotIncreasing {
        /// The row.
        row: usize,
    },
    /// Row `row` (from 0) has the column index `found`: negative or not below `n_cols`.
    OutOfRange {
        /// The row.
        row: usize,
        /// The index.
        found: I,
    },
    /// `indptr` ends at `end`, before the last index.
    End {
        /// Its last value.
        end: usize,
    },
}

/// Checks that `indptr` and `indices` are the rows of a CSR matrix of `n_cols` columns, in
/// one pass: `indptr` starts at 0, never decreases and ends at `indices.len()`, and each
/// row's indices strictly increase from 0 up and stay below `n_cols`.
pub fn check_rows<'a, P: Index, I: Index>(
    n_cols: usize,
    indptr: &[P],
    indices: &'a [I],
) -> Result<Columns<'a, I>, CsrError<P, I>> {
    if indptr.first().and_then(|p| p.checked()) != Some(0) {
        return Err(CsrError::Start);
    }
    let mut start = 0;
    for (row, &found) in indptr[1..].iter().enumerate() {
        let end = match found.checked() {
            Some(e) if e >= start && e <= indices.len() => e,
            _ => {
                return Err(CsrError::Pointer {
                    at: row + 1,
                    found,
                    start,
                })
            }
        };
        let mut previous: Option<usize> = None;
        for &found in &indices[start..end] {
            match found.checked() {
                Some(j) if j < n_cols && previous.is_none_or(|p| j > p) => previous = Some(j),
                Some(j) if j < n_cols => return Err(CsrError::NotIncreasing { row }),
                _ => return Err(CsrError::OutOfRange { row, found }),
            }
        }
        start = end;
    }
    if start != indices.len() {
        return Err(CsrError::End { end: start });
    }
    Ok(Columns { n_cols, indices })
}

/// Column indices every one of which is below `n_cols`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Columns<'a, I> {
    n_cols: usize,
    indices: &'a [I],
}

impl<'a, I: Index> Columns<'a, I> {
    /// The number of columns every index is below.
    #[inline]
    pub fn n_cols(&self) -> usize {
        self.n_cols
    }

    /// The indices.
    #[inline]
    pub fn indices(&self) -> &'a [I] {
        self.indices
    }

    /// The indices in `range` (a row of a matrix), still checked.
    #[inline(always)]
    pub fn slice(&self, range: Range<usize>) -> Columns<'a, I> {
        Columns {
            n_cols: self.n_cols,
            indices: &self.indices[range],
        }
    }

    /// `x . w` for the row `x` with these columns and `values` (the shorter of the two
    /// sets the length), with four independent partial sums so the additions do not wait
    /// on each other: `((s_0 + s_1) + (s_2 + s_3)) + tail`, `s_u` the sum of every fourth
    /// product from `u`.
    ///
    /// # Panics
    /// When `w` has fewer than `n_cols` entries.
    #[inline(always)]
    pub fn dot<V: Value>(&self, values: &[V], w: &[f64]) -> f64 {
        assert!(w.len() >= self.n_cols, "w has fewer entries than columns");
        let (idx, n) = (self.indices, self.indices.len().min(values.len()));
        // SAFETY: `k < n` is inside both slices, and every index is below
        // `n_cols <= w.len()` (checked when the `Columns` was made, asserted above for `w`).
        let at = |k: usize| unsafe {
            values.get_unchecked(k).get() * w.get_unchecked(idx.get_unchecked(k).get())
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

    /// `out += alpha x` for the row `x` with these columns and `values`.
    ///
    /// # Panics
    /// When `out` has fewer than `n_cols` entries.
    #[inline(always)]
    pub fn add_scaled<V: Value>(&self, values: &[V], alpha: f64, out: &mut [f64]) {
        assert!(
            out.len() >= self.n_cols,
            "out has fewer entries than columns"
        );
        for (&j, &v) in self.indices.iter().zip(values) {
            // SAFETY: `j < n_cols <= out.len()` (checked when made; asserted above).
            unsafe { *out.get_unchecked_mut(j.get()) += alpha * v.get() };
        }
    }
}

/// A growable list of column indices every one of which is below `n_cols`: the indices of
/// an owned CSR matrix, built row by row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ColumnVec<I = u32> {
    n_cols: usize,
    indices: Vec<I>,
}

impl<I: Index> ColumnVec<I> {
    /// No indices yet, for a matrix of `n_cols` columns.
    pub fn new(n_cols: usize) -> Self {
        ColumnVec {
            n_cols,
            indices: Vec::new(),
        }
    }

    /// Takes the column indices of the rows `indptr` of a CSR matrix of `n_cols`
    /// columns, checking them as [`check_rows`] does.
    pub fn from_rows<P: Index>(
        n_cols: usize,
        indptr: &[P],
        indices: Vec<I>,
    ) -> Result<Self, CsrError<P, I>> {
        check_rows(n_cols, indptr, &indices)?;
        Ok(ColumnVec { n_cols, indices })
    }

    /// Appends `j`, when it is below `n_cols` (and fits in `I`).
    #[inline]
    pub fn push(&mut self, j: usize) -> Result<(), OutOfRange> {
        match I::from_usize(j) {
            Some(stored) if j < self.n_cols => {
                self.indices.push(stored);
                Ok(())
            }
            _ => Err(OutOfRange {
                position: self.indices.len(),
                index: j,
                n_cols: self.n_cols,
            }),
        }
    }

    /// Appends checked indices of a matrix with no more columns than this one.
    ///
    /// # Panics
    /// When `other` has more columns.
    #[inline]
    pub fn extend_from(&mut self, other: Columns<'_, I>) {
        assert!(
            other.n_cols <= self.n_cols,
            "indices of {} columns appended to a list of {}",
            other.n_cols,
            self.n_cols
        );
        self.indices.extend_from_slice(other.indices);
    }

    /// Empties the list, now for `n_cols` columns, keeping its allocation.
    pub fn reset(&mut self, n_cols: usize) {
        self.indices.clear();
        self.n_cols = n_cols;
    }

    /// Reserves room for `more` indices.
    pub fn reserve(&mut self, more: usize) {
        self.indices.reserve(more);
    }

    /// The number of indices.
    #[inline]
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// The number of columns every index is below.
    #[inline]
    pub fn n_cols(&self) -> usize {
        self.n_cols
    }

    /// The indices, checked.
    #[inline(always)]
    pub fn as_columns(&self) -> Columns<'_, I> {
        Columns {
            n_cols: self.n_cols,
            indices: &self.indices,
        }
    }

    /// The indices as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[I] {
        &self.indices
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The indices as one row of a matrix of `n_cols` columns.
    fn row(n_cols: usize, indices: &[u32]) -> Columns<'_, u32> {
        check_rows(n_cols, &[0, indices.len()], indices).unwrap()
    }

    #[test]
    fn indices_out_of_range_are_refused_where_they_stand() {
        let mut v = ColumnVec::<u32>::new(2);
        assert!(v.push(1).is_ok());
        let e = v.push(2).unwrap_err();
        assert_eq!(
            e,
            OutOfRange {
                position: 1,
                index: 2,
                n_cols: 2
            }
        );
        assert_eq!(e.to_string(), "column index 2 at position 1 is not below 2");
        assert_eq!(v.as_slice(), &[1]);
        assert!(ColumnVec::from_rows(2, &[0u32, 2], vec![0u32, 5]).is_err());
    }

    #[test]
    fn every_invariant_of_the_rows_is_checked_in_one_pass() {
        let ok = |p: &[i64], i: &[i64]| check_rows(3, p, i).map(|c| c.indices().len());
        assert_eq!(ok(&[0, 2, 2, 3], &[0, 2, 1]), Ok(3));
        assert_eq!(ok(&[1, 2, 2, 3], &[0, 2, 1]), Err(CsrError::Start));
        assert_eq!(ok(&[], &[]), Err(CsrError::Start));
        let pointer = |at, found, start| Err(CsrError::Pointer { at, found, start });
        assert_eq!(ok(&[0, 2, 1, 3], &[0, 2, 1]), pointer(2, 1, 2));
        assert_eq!(ok(&[0, 2, 2, 4], &[0, 2, 1]), pointer(3, 4, 2));
        assert_eq!(ok(&[0, -1], &[]), pointer(1, -1, 0));
        assert_eq!(ok(&[0, 2, 2, 2], &[0, 2, 1]), Err(CsrError::End { end: 2 }));
        assert_eq!(
            ok(&[0, 2, 2, 3], &[2, 0, 1]),
            Err(CsrError::NotIncreasing { row: 0 })
        );
        assert_eq!(
            ok(&[0, 2, 2, 3], &[0, 0, 1]),
            Err(CsrError::NotIncreasing { row: 0 })
        );
        let out = |row, found| Err(CsrError::OutOfRange { row, found });
        assert_eq!(ok(&[0, 2, 2, 3], &[0, 3, 1]), out(0, 3));
        assert_eq!(ok(&[0, 2, 2, 3], &[0, 1, -1]), out(2, -1));
    }

    #[test]
    fn the_kernels_compute_the_sums_they_state() {
        let idx = [0u32, 2, 3, 5, 6, 9];
        let val = [1.0f64, -2.0, 0.5, 4.0, 3.0, -1.0];
        let w: Vec<f64> = (0..10).map(|j| f64::from(j) + 1.0).collect();
        let cols = row(10, &idx);
        // four partial sums, then the tail (the 5th and 6th products)
        let p: Vec<f64> = idx
            .iter()
            .zip(&val)
            .map(|(&j, v)| v * w[j as usize])
            .collect();
        let expected = ((p[0] + p[1]) + (p[2] + p[3])) + (p[4] + p[5]);
        assert_eq!(cols.dot(&val, &w), expected);
        let f32s = val.map(|v| v as f32);
        assert_eq!(cols.dot(&f32s, &w), expected);
        assert_eq!(cols.slice(1..3).dot(&val[1..3], &w), p[1] + p[2]);
        let mut out = vec![1.0; 10];
        cols.add_scaled(&val, 2.0, &mut out);
        assert_eq!(out[2], 1.0 - 4.0);
        assert_eq!(out[9], 1.0 - 2.0);
        assert_eq!(out[1], 1.0);
    }

    #[test]
    #[should_panic(expected = "fewer entries than columns")]
    fn a_vector_shorter_than_the_columns_is_a_panic_not_a_read_past_it() {
        let cols = row(10, &[9]);
        cols.dot(&[1.0f64], &[0.0; 9]);
    }

    #[test]
    #[should_panic(expected = "appended to a list of")]
    fn wider_indices_cannot_be_appended() {
        let wide = ColumnVec::from_rows(10, &[0usize, 1], vec![9u32]).unwrap();
        let mut narrow = ColumnVec::<u32>::new(5);
        narrow.extend_from(wide.as_columns());
    }
}
