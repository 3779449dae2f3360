//! The row kernels of compressed sparse row (CSR) matrices, over column indices checked
//! once.
//!
//! A CSR row is a slice of column indices and a slice of values. Its kernels, `x . w` and
//! `out += alpha x`, index the dense vector by each column without a bounds check: the
//! profile of a perceptron or SGD epoch is this loop. What makes that sound is
//! [`Columns`]: a slice of indices of which every one is below `n_cols`, checked when the
//! value is made ([`Columns::new`], [`ColumnVec::push`]) and kept by every operation on it
//! (a sub-slice of checked indices is checked). The kernels then assert only that the
//! vector has `n_cols` entries, once per row.

use std::fmt::Debug;
use std::ops::Range;

mod sealed {
    pub trait Sealed {}
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

impl Index for u32 {
    #[inline(always)]
    fn get(self) -> usize {
        self as usize
    }
    #[inline]
    fn checked(self) -> Option<usize> {
        Some(self as usize)
    }
    #[inline]
    fn from_usize(j: usize) -> Option<Self> {
        Self::try_from(j).ok()
    }
}

/// `impl Index` for the signed integer types.
macro_rules! signed {
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

signed!(i32, i64);

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

/// An index that is negative or not below the number of columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    /// Where it stands in the slice checked.
    pub position: usize,
    /// The index (`None`: negative, or beyond `usize`).
    pub index: Option<usize>,
    /// The number of columns.
    pub n_cols: usize,
}

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self.index {
            Some(j) => write!(
                f,
                "column index {j} at position {} is not below {}",
                self.position, self.n_cols
            ),
            None => write!(f, "column index at position {} is negative", self.position),
        }
    }
}

impl std::error::Error for OutOfRange {}

/// Column indices every one of which is below `n_cols`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Columns<'a, I> {
    n_cols: usize,
    indices: &'a [I],
}

impl<'a, I: Index> Columns<'a, I> {
    /// Checks that every index is non-negative and below `n_cols` (one pass).
    pub fn new(n_cols: usize, indices: &'a [I]) -> Result<Self, OutOfRange> {
        // one branch-free pass (vectorised) for the common case, the position on failure
        let all_in = indices
            .iter()
            .fold(true, |ok, j| ok & j.checked().is_some_and(|j| j < n_cols));
        if !all_in {
            let (position, j) = indices
                .iter()
                .enumerate()
                .find(|(_, j)| j.checked().is_none_or(|j| j >= n_cols))
                .expect("the fold found an index out of range");
            return Err(OutOfRange {
                position,
                index: j.checked(),
                n_cols,
            });
        }
        Ok(Columns { n_cols, indices })
    }

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

    /// Takes `indices`, checking each against `n_cols`.
    pub fn from_vec(n_cols: usize, indices: Vec<I>) -> Result<Self, OutOfRange> {
        Columns::new(n_cols, &indices)?;
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
                index: Some(j),
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

    #[test]
    fn indices_out_of_range_are_refused_where_they_stand() {
        assert_eq!(
            Columns::new(3, &[0u32, 2, 3]).unwrap_err(),
            OutOfRange {
                position: 2,
                index: Some(3),
                n_cols: 3
            }
        );
        let negative = Columns::new(5, &[1i32, -1]).unwrap_err();
        assert_eq!((negative.position, negative.index), (1, None));
        assert!(Columns::new(4, &[3i64, 0, 1]).is_ok());
        assert!(Columns::<u32>::new(0, &[]).is_ok());
        let mut v = ColumnVec::<u32>::new(2);
        assert!(v.push(1).is_ok());
        assert_eq!(v.push(2).unwrap_err().position, 1);
        assert_eq!(v.as_slice(), &[1]);
        assert!(ColumnVec::from_vec(2, vec![0, 5]).is_err());
    }

    #[test]
    fn the_kernels_compute_the_sums_they_state() {
        let idx = [0u32, 2, 3, 5, 6, 9];
        let val = [1.0f64, -2.0, 0.5, 4.0, 3.0, -1.0];
        let w: Vec<f64> = (0..10).map(|j| f64::from(j) + 1.0).collect();
        let cols = Columns::new(10, &idx).unwrap();
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
        let cols = Columns::new(10, &[9u32]).unwrap();
        cols.dot(&[1.0f64], &[0.0; 9]);
    }

    #[test]
    #[should_panic(expected = "appended to a list of")]
    fn wider_indices_cannot_be_appended() {
        let wide = ColumnVec::from_vec(10, vec![9]).unwrap();
        let mut narrow = ColumnVec::<u32>::new(5);
        narrow.extend_from(wide.as_columns());
    }
}
