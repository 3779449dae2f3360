//! The feature matrix of every learner: dense or sparse, owned or borrowed, behind one
//! type, [`Features`], dispatched once per call with [`with_rows!`](crate::with_rows),
//! never per element. Sparse input is never densified, and `f32` values are never copied
//! to `f64`: they are read as `f64` (exactly) where they lie.

use hyperplane_kernels::csr::Value;
use ndarray::{Array2, ArrayBase, ArrayView2, Axis, CowArray, Data, Ix2};

use crate::data::borrowed::{CsrIndex, CsrMatrix32, CsrRef, CsrValue, CsrView};
use crate::data::csr::CsrMatrix;
use crate::data::rows::RowAccess;
use crate::error::{Error, Result};

/// A feature matrix, dense or sparse, owned or borrowed. Rows are samples, columns are
/// features.
///
/// Readers and transforms produce owned matrices (`Features<'static>`); a host that holds
/// its data already lends it without a copy: a dense `ArrayView2` of `f64` or `f32`, of
/// any layout (`Features::from(view)`), or a CSR matrix over its own slices ([`CsrView`]).
///
/// Every learner reads `f32` values widened to `f64` (exactly), so a matrix of `f32`
/// fits the same model as the same values held as `f64`.
///
/// ```
/// use hyperplane::data::Features;
/// use ndarray::array;
/// // numpy's float32 array, lent as it is
/// let x32 = array![[1.5f32, 0.0], [0.0, -2.0]];
/// let x = Features::DenseF32(x32.view().into());
/// assert_eq!(x.to_dense(), array![[1.5, 0.0], [0.0, -2.0]]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Features<'a> {
    /// A dense matrix, owned or a view of any layout.
    Dense(CowArray<'a, f64, Ix2>),
    /// A dense matrix of `f32` values, owned or a view of any layout (numpy's `float32`),
    /// read in place: `Features::DenseF32(view.into())`. Not a `From` impl, so that an
    /// untyped float array (`array![[1.0, 2.0]].into()`) stays `f64` without annotation.
    DenseF32(CowArray<'a, f32, Ix2>),
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
            Features::DenseF32(a) => Features::DenseF32(a.into_owned().into()),
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
            $crate::data::Features::DenseF32($m) => $body,
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
        !matches!(self, Features::Dense(_) | Features::DenseF32(_))
    }
    /// Number of stored values (`rows * cols` when dense).
    pub fn nnz(&self) -> usize {
        match self {
            Features::Dense(a) => a.len(),
            Features::DenseF32(a) => a.len(),
            Features::Sparse(s) => s.nnz(),
            Features::SparseView(s) => s.nnz(),
        }
    }

    /// The same matrix, owning its storage (a borrowed one is copied: dense values in
    /// their own type, CSR values as `f64`).
    pub fn into_owned(self) -> Features<'static> {
        match self {
            Features::Dense(a) => Features::Dense(a.into_owned().into()),
            Features::DenseF32(a) => Features::DenseF32(a.into_owned().into()),
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
            Features::Dense(a) => first_in_dense(a, bad),
            Features::DenseF32(a) => first_in_dense(a, bad),
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
        let finite = match self {
            Features::Dense(a) => a.as_slice_memory_order().is_some_and(all_finite),
            Features::DenseF32(a) => a.as_slice_memory_order().is_some_and(all_finite),
            Features::Sparse(s) => all_finite(s.data()),
            Features::SparseView(_) => false,
        };
        if finite {
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
            Features::DenseF32(a) => Features::DenseF32(a.select(Axis(0), rows).into()),
            Features::Sparse(s) => Features::Sparse(s.select_rows(rows)),
            Features::SparseView(s) => Features::Sparse(s.select_rows(rows)),
        }
    }

    /// The rows `rows`, same storage: a view of dense rows, a copy of sparse ones.
    pub fn row_range(&self, rows: std::ops::Range<usize>) -> Features<'_> {
        match self {
            Features::Dense(a) => Features::Dense(a.slice(ndarray::s![rows, ..]).into()),
            Features::DenseF32(a) => Features::DenseF32(a.slice(ndarray::s![rows, ..]).into()),
            _ => self
                .select_rows(&rows.collect::<Vec<_>>())
                .for_any_lifetime(),
        }
    }

    /// The dense form in `f64` (small data, tests and display only).
    pub fn to_dense(&self) -> Array2<f64> {
        match self {
            Features::Dense(a) => a.to_owned(),
            Features::DenseF32(a) => a.mapv(f64::from),
            Features::Sparse(s) => s.to_dense(),
            Features::SparseView(s) => CsrMatrix::to_dense(&s.to_owned()),
        }
    }

    /// A dense matrix in `f64`, for the transforms whose output is a new dense `f64`
    /// matrix of the input's shape: `f64` storage lent as it is, `f32` storage widened
    /// into a copy (the one conversion those transforms make, which then becomes their
    /// output: `into_owned` moves it); `None` for CSR storage.
    pub(crate) fn dense_in_f64(&self) -> Option<CowArray<'_, f64, Ix2>> {
        match self {
            Features::Dense(a) => Some(a.view().into()),
            Features::DenseF32(a) => Some(a.mapv(f64::from).into()),
            Features::Sparse(_) | Features::SparseView(_) => None,
        }
    }

    /// The CSR form.
    pub fn to_sparse(&self) -> CsrMatrix {
        match self {
            Features::Dense(a) => CsrMatrix::from_dense(a.view()),
            Features::DenseF32(a) => CsrMatrix::from_dense(a.view()),
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

/// The first value of a dense matrix with `bad(v)` (`v` as `f64`), as `(row, column,
/// value)`: a scan of the raw values when row-major, else in row order.
fn first_in_dense<S: Data>(
    a: &ArrayBase<S, Ix2>,
    bad: impl Fn(f64) -> bool + Copy,
) -> Option<(usize, usize, f64)>
where
    S::Elem: Value,
{
    match a.as_slice() {
        Some(v) => first_bad(v, bad).map(|p| (p / a.ncols(), p % a.ncols(), v[p].get())),
        None => a
            .indexed_iter()
            .find(|(_, v)| bad(v.get()))
            .map(|((i, j), v)| (i, j, v.get())),
    }
}

/// Position of the first `v` with `bad(v)`: chunks are tested without early exit (a
/// branch-free reduction the compiler vectorizes), and only a failing chunk is searched.
fn first_bad<V: Value>(values: &[V], bad: impl Fn(f64) -> bool + Copy) -> Option<usize> {
    const CHUNK: usize = 512;
    values
        .chunks(CHUNK)
        .position(|c| c.iter().fold(false, |any, &v| any | bad(v.get())))
        .and_then(|k| {
            let start = k * CHUNK;
            values[start..]
                .iter()
                .position(|&v| bad(v.get()))
                .map(|p| start + p)
        })
}

/// A borrowed CSR matrix of any index and value type, as features.
impl<'a, I: CsrIndex, V: CsrValue> From<CsrView<'a, I, V>> for Features<'a>
where
    CsrRef<'a>: From<CsrView<'a, I, V>>,
{
    fn from(v: CsrView<'a, I, V>) -> Self {
        Features::SparseView(v.into())
    }
}

/// Features a reader built and owns: any [`Features`], or a [`CsrMatrix32`] lent as one.
#[derive(Clone, Debug, PartialEq)]
pub enum OwnedFeatures {
    /// A matrix of its own.
    Features(Features<'static>),
    /// A compact CSR matrix, lent to whoever reads it.
    Csr32(CsrMatrix32),
}

impl OwnedFeatures {
    /// Runs `f` on the features (a compact matrix lent for the call).
    pub fn lend<R>(self, f: impl FnOnce(Features<'_>) -> R) -> R {
        match self {
            OwnedFeatures::Features(x) => f(x),
            OwnedFeatures::Csr32(m) => f(m.view().into()),
        }
    }

    /// The features as a matrix of their own (a compact one copied, values as `f64`).
    pub fn into_features(self) -> Features<'static> {
        self.lend(|x| x.into_owned())
    }
}

/// Whether every value is finite (as `f64`: widening keeps NaN and the infinities):
/// blocks in parallel, each scanned without branches.
fn all_finite<V: Value>(values: &[V]) -> bool {
    use rayon::prelude::*;
    values
        .par_chunks(1 << 16)
        .all(|block| block.iter().fold(true, |ok, v| ok & v.get().is_finite()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, ShapeBuilder};
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

    #[test]
    fn a_non_finite_value_is_named_by_row_and_feature_in_every_layout() {
        let mut d = array![[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, -3.0, 4.0]];
        assert!(Features::from(d.clone()).check_finite("X").is_ok());
        d[[2, 1]] = f64::NAN;
        d[[2, 2]] = f64::INFINITY;
        let mut fortran = Array2::zeros((3, 3).f());
        fortran.assign(&d);
        let csr = Features::Sparse(CsrMatrix::from_dense(d.view()));
        let d32 = d.mapv(|v| v as f32);
        let mut fortran32 = Array2::zeros((3, 3).f());
        fortran32.assign(&d32);
        for x in [
            Features::from(d.clone()),
            Features::from(fortran),
            csr,
            Features::DenseF32(d32.view().into()),
            Features::DenseF32(fortran32.view().into()),
        ] {
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
    fn finite_and_shape_checks_name_the_place() {
        let x = Features::from(array![[1.0, 2.0], [3.0, f64::NAN]]);
        let e = x.check_fit_input().unwrap_err().to_string();
        assert!(e.contains("row 2") && e.contains("feature 1"), "{e}");
        let x32 = array![[1.0f32, 2.0], [3.0, f32::NAN]];
        let e32 = Features::DenseF32(x32.view().into())
            .check_fit_input()
            .unwrap_err();
        assert_eq!(e32.to_string(), e);
        let e = x.check_predict_input(3).unwrap_err().to_string();
        assert!(e.contains('3') && e.contains('2'), "{e}");
        let empty = Features::from(Array2::<f64>::zeros((0, 2)));
        assert!(empty
            .check_fit_input()
            .unwrap_err()
            .to_string()
            .contains("0 samples"));
    }

    #[test]
    fn f32_rows_read_as_the_same_values_in_f64() {
        let d = array![[1.5f32, 0.0, -2.25], [0.1, 7.0, 1e-3], [0.0, -3.0, 4.0]];
        let wide = d.mapv(f64::from);
        let mut fortran = Array2::zeros((3, 3).f());
        fortran.assign(&d);
        let w = [0.5, 1.0 / 3.0, -1.0];
        for x in [d.view(), fortran.view()] {
            for i in 0..3 {
                assert_eq!(x.dot_row(i, &w), wide.dot_row(i, &w));
                assert_eq!(x.row_norm_sq(i), wide.row_norm_sq(i));
                let (mut a, mut b) = (vec![0.0; 3], vec![0.0; 3]);
                x.add_row_scaled(i, 0.7, &mut a);
                wide.add_row_scaled(i, 0.7, &mut b);
                assert_eq!(a, b);
            }
            let f = Features::DenseF32(x.into());
            assert_eq!(f.to_dense(), wide);
            assert_eq!(f.to_sparse(), CsrMatrix::from_dense(wide.view()));
            assert_eq!((f.nnz(), f.is_sparse()), (9, false));
            // rows keep their storage, owned or lent
            let picked = f.select_rows(&[2, 0]);
            assert!(matches!(picked, Features::DenseF32(_)));
            assert_eq!(picked.to_dense(), wide.select(Axis(0), &[2, 0]));
            assert!(matches!(f.row_range(1..3), Features::DenseF32(a) if a.is_view()));
            assert!(matches!(f.into_owned(), Features::DenseF32(a) if a.is_owned()));
        }
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
