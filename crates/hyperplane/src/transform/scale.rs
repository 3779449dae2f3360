//! Feature scaling: standardisation `z = (x - mean) / std` and min-max scaling onto a range.

use hyperplane_kernels::csr::Value;
use ndarray::{ArrayBase, Data, Ix2};
use serde::{Deserialize, Serialize};

use crate::data::{Features, RowAccess};
use crate::error::{Error, Result};
use crate::transform::{check_transform_input, check_weights};

crate::params! {
    /// Standardisation: `z_ij = (x_ij - mean_j) / scale_j`.
    ///
    /// With sample weights `w` (all 1 by default) and `W = sum_i w_i`:
    /// `mean_j = sum_i w_i x_ij / W` and the population variance
    /// `var_j = (sum_i w_i d_ij^2 - (sum_i w_i d_ij)^2 / W) / W`, `d_ij = x_ij - mean_j`
    /// (the corrected two-pass formula scikit-learn uses). `scale_j = sqrt(var_j)`, except that a
    /// (numerically) constant column, `var_j <= W eps var_j + (W mean_j eps)^2`, gets scale 1.
    ///
    /// On sparse input use `with_mean = false`: the stored values are divided by the scale of
    /// their column (the variance still counts the implicit zeros) and the matrix stays sparse.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct StandardScaler {
        pub with_mean: bool,
        pub with_std: bool,
    }
    schema "standard scaler" {
        /// subtract the mean (an error on sparse input: centring would make it dense)
        with_mean = "true", bool => with_mean;
        /// divide by the standard deviation
        with_std = "true", bool => with_std;
    }
}

impl Default for StandardScaler {
    fn default() -> Self {
        StandardScaler {
            with_mean: true,
            with_std: true,
        }
    }
}

impl StandardScaler {
    /// The default params.
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets `with_mean`.
    pub fn with_mean(mut self, on: bool) -> Self {
        self.with_mean = on;
        self
    }
    /// Sets `with_std`.
    pub fn with_std(mut self, on: bool) -> Self {
        self.with_std = on;
        self
    }

    /// Learns the mean and scale of each column.
    pub fn fit(&self, x: &Features) -> Result<FittedStandardScaler> {
        self.fit_weighted(x, None)
    }

    /// Learns the weighted mean and scale of each column.
    pub fn fit_weighted(
        &self,
        x: &Features,
        weights: Option<&[f64]>,
    ) -> Result<FittedStandardScaler> {
        x.check_fit_input()?;
        check_weights(weights, x.n_rows())?;
        if self.with_mean && x.is_sparse() {
            return Err(Error::Unsupported {
                model: "StandardScaler".into(),
                what: "sparse input with with_mean = true (subtracting the mean would make \
                       every zero non-zero, densifying the matrix); set with_mean = false"
                    .into(),
            });
        }
        let n_features = x.n_cols();
        if !self.with_mean && !self.with_std {
            return Ok(FittedStandardScaler {
                n_features,
                mean: None,
                scale: None,
            });
        }
        let (mean, var, total) = match x {
            Features::Dense(a) => column_mean_var(a, weights),
            Features::DenseF32(a) => column_mean_var(a, weights),
            Features::Sparse(s) => sparse_column_mean_var(s, weights),
            Features::SparseView(s) => sparse_column_mean_var(s, weights),
        };
        let scale = self.with_std.then(|| {
            mean.iter()
                .zip(&var)
                .map(|(&m, &v)| {
                    let bound = total * f64::EPSILON * v + (total * m * f64::EPSILON).powi(2);
                    if v <= bound {
                        1.0
                    } else {
                        v.sqrt()
                    }
                })
                .collect()
        });
        Ok(FittedStandardScaler {
            n_features,
            mean: self.with_mean.then_some(mean),
            scale,
        })
    }
}

/// Weighted column means and population variances of a dense matrix, and the total weight.
fn column_mean_var<S: Data + Sync>(
    a: &ArrayBase<S, Ix2>,
    weights: Option<&[f64]>,
) -> (Vec<f64>, Vec<f64>, f64)
where
    S::Elem: Value,
{
    let n_cols = a.ncols();
    let w = |i: usize| weights.map_or(1.0, |w| w[i]);
    let total: f64 = weights.map_or(a.nrows() as f64, |w| w.iter().sum());
    let mut sum = vec![0.0; n_cols];
    for i in 0..a.nrows() {
        a.add_row_scaled(i, w(i), &mut sum);
    }
    let mean: Vec<f64> = sum.iter().map(|s| s / total).collect();
    let (mut correction, mut sq) = (vec![0.0; n_cols], vec![0.0; n_cols]);
    for (i, row) in a.rows().into_iter().enumerate() {
        let wi = w(i);
        for (j, &v) in row.iter().enumerate() {
            let d = v.get() - mean[j];
            correction[j] += wi * d;
            sq[j] += wi * d * d;
        }
    }
    let var = sq
        .iter()
        .zip(&correction)
        .map(|(s, c)| (s - c * c / total) / total)
        .collect();
    (mean, var, total)
}

/// Weighted column means and population variances of a CSR matrix, counting the implicit
/// zeros: `var_j = (sum_stored w (x - m)^2 + W_zero m^2) / W`.
fn sparse_column_mean_var(
    s: &impl RowAccess,
    weights: Option<&[f64]>,
) -> (Vec<f64>, Vec<f64>, f64) {
    let n_cols = s.n_cols();
    let w = |i: usize| weights.map_or(1.0, |w| w[i]);
    let total: f64 = weights.map_or(s.n_rows() as f64, |w| w.iter().sum());
    let (mut sum, mut stored_weight) = (vec![0.0; n_cols], vec![0.0; n_cols]);
    for i in 0..s.n_rows() {
        let wi = w(i);
        s.for_each_in_row(i, |j, v| {
            sum[j] += wi * v;
            stored_weight[j] += wi;
        });
    }
    let mean: Vec<f64> = sum.iter().map(|s| s / total).collect();
    let mut sq = vec![0.0; n_cols];
    for i in 0..s.n_rows() {
        let wi = w(i);
        s.for_each_in_row(i, |j, v| {
            let d = v - mean[j];
            sq[j] += wi * d * d;
        });
    }
    let var = (0..n_cols)
        .map(|j| (sq[j] + (total - stored_weight[j]) * mean[j] * mean[j]) / total)
        .collect();
    (mean, var, total)
}

/// A fitted [`StandardScaler`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedStandardScaler {
    n_features: usize,
    mean: Option<Vec<f64>>,
    scale: Option<Vec<f64>>,
}

impl FittedStandardScaler {
    /// Column means (when `with_mean`).
    pub fn mean(&self) -> Option<&[f64]> {
        self.mean.as_deref()
    }
    /// Column scales: standard deviations, 1 for constant columns (when `with_std`).
    pub fn scale(&self) -> Option<&[f64]> {
        self.scale.as_deref()
    }
    /// Number of features the scaler was fitted on.
    pub fn n_features_in(&self) -> usize {
        self.n_features
    }
    /// Number of output features (the same).
    pub fn n_features_out(&self) -> usize {
        self.n_features
    }

    /// `(x - mean) / scale`, column by column. Sparse input (fitted with `with_mean = false`)
    /// has its stored values multiplied by `1 / scale` and stays sparse.
    pub fn transform(&self, x: &Features) -> Result<Features<'static>> {
        check_transform_input(x, self.n_features)?;
        match x.dense_in_f64() {
            Some(a) => {
                let mut out = a.into_owned();
                for mut row in out.rows_mut() {
                    if let Some(mean) = &self.mean {
                        row.iter_mut().zip(mean).for_each(|(v, m)| *v -= m);
                    }
                    if let Some(scale) = &self.scale {
                        row.iter_mut().zip(scale).for_each(|(v, s)| *v /= s);
                    }
                }
                Ok(Features::from(out))
            }
            None => {
                if self.mean.is_some() {
                    return Err(Error::Unsupported {
                        model: "StandardScaler fitted with with_mean = true".into(),
                        what: "sparse input (centring would densify it); refit with \
                               with_mean = false"
                            .into(),
                    });
                }
                let mut out = x.to_sparse();
                if let Some(scale) = &self.scale {
                    let inv: Vec<f64> = scale.iter().map(|s| 1.0 / s).collect();
                    out.scale_columns(&inv);
                }
                Ok(Features::Sparse(out))
            }
        }
    }
}

crate::params! {
    /// Min-max scaling onto `[lo, hi]`: `z_ij = x_ij * scale_j + min_j` with
    /// `scale_j = (hi - lo) / (max_j - min_j)` and `min_j = lo - data_min_j * scale_j`
    /// (scikit-learn's formula). A constant column (range below `10 eps`) gets range 1, so its
    /// values map to `lo`. Values outside the training range map outside `[lo, hi]` (no clipping).
    /// Rows of weight 0 are left out of the minimum and maximum (integer weights act as
    /// repeated rows, which do not move them).
    ///
    /// Sparse input is an error: the shift `min_j` would turn every zero into a non-zero.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct MinMaxScaler {
        pub range: (f64, f64),
    }
    schema "min-max scaler" {
        /// target interval `lo,hi`
        range = "0,1", "finite, `lo < hi`" => range;
    }
}

impl Default for MinMaxScaler {
    fn default() -> Self {
        MinMaxScaler { range: (0.0, 1.0) }
    }
}

fn sparse_minmax_error() -> Error {
    Error::Unsupported {
        model: "MinMaxScaler".into(),
        what: "sparse input (shifting by the minimum would densify it); use StandardScaler \
               with with_mean = false"
            .into(),
    }
}

impl MinMaxScaler {
    /// The default params.
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets the target interval `[lo, hi]`.
    pub fn range(mut self, lo: f64, hi: f64) -> Self {
        self.range = (lo, hi);
        self
    }

    /// Learns each column's minimum and maximum.
    pub fn fit(&self, x: &Features) -> Result<FittedMinMaxScaler> {
        self.fit_weighted(x, None)
    }

    /// Learns each column's minimum and maximum over the rows of non-zero weight.
    pub fn fit_weighted(
        &self,
        x: &Features,
        weights: Option<&[f64]>,
    ) -> Result<FittedMinMaxScaler> {
        let (lo, hi) = self.range;
        if !(lo.is_finite() && hi.is_finite() && lo < hi) {
            return Err(Error::param(
                "range",
                format!("{lo},{hi}"),
                "must be two finite numbers lo < hi",
            ));
        }
        x.check_fit_input()?;
        check_weights(weights, x.n_rows())?;
        let (data_min, data_max) = match x {
            Features::Dense(a) => column_range(a, weights),
            Features::DenseF32(a) => column_range(a, weights),
            Features::Sparse(_) | Features::SparseView(_) => return Err(sparse_minmax_error()),
        };
        let scale: Vec<f64> = data_min
            .iter()
            .zip(&data_max)
            .map(|(a, b)| {
                let r = b - a;
                (hi - lo) / if r < 10.0 * f64::EPSILON { 1.0 } else { r }
            })
            .collect();
        let min = data_min
            .iter()
            .zip(&scale)
            .map(|(d, s)| lo - d * s)
            .collect();
        Ok(FittedMinMaxScaler {
            data_min,
            data_max,
            scale,
            min,
        })
    }
}

/// The least and the greatest value of each column over the rows of nonzero weight.
fn column_range<S: Data + Sync>(
    a: &ArrayBase<S, Ix2>,
    weights: Option<&[f64]>,
) -> (Vec<f64>, Vec<f64>)
where
    S::Elem: Value,
{
    let n = a.ncols();
    let (mut data_min, mut data_max) = (vec![f64::INFINITY; n], vec![f64::NEG_INFINITY; n]);
    for i in 0..a.nrows() {
        if weights.is_some_and(|w| w[i] == 0.0) {
            continue;
        }
        a.for_each_in_row(i, |j, v| {
            data_min[j] = data_min[j].min(v);
            data_max[j] = data_max[j].max(v);
        });
    }
    (data_min, data_max)
}

/// A fitted [`MinMaxScaler`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedMinMaxScaler {
    data_min: Vec<f64>,
    data_max: Vec<f64>,
    scale: Vec<f64>,
    min: Vec<f64>,
}

impl FittedMinMaxScaler {
    /// Training minimum of each column.
    pub fn data_min(&self) -> &[f64] {
        &self.data_min
    }
    /// Training maximum of each column.
    pub fn data_max(&self) -> &[f64] {
        &self.data_max
    }
    /// Multiplier of each column.
    pub fn scale(&self) -> &[f64] {
        &self.scale
    }
    /// Offset of each column.
    pub fn min(&self) -> &[f64] {
        &self.min
    }
    /// Number of features the scaler was fitted on.
    pub fn n_features_in(&self) -> usize {
        self.scale.len()
    }
    /// Number of output features (the same).
    pub fn n_features_out(&self) -> usize {
        self.scale.len()
    }

    /// `x * scale + min`, column by column (dense only).
    pub fn transform(&self, x: &Features) -> Result<Features<'static>> {
        check_transform_input(x, self.n_features_in())?;
        let Some(a) = x.dense_in_f64() else {
            return Err(sparse_minmax_error());
        };
        let mut out = a.into_owned();
        for mut row in out.rows_mut() {
            for ((v, s), m) in row.iter_mut().zip(&self.scale).zip(&self.min) {
                *v = *v * s + m;
            }
        }
        Ok(Features::from(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::CsrMatrix;
    use approx::assert_abs_diff_eq;
    use ndarray::{array, Array2};
    use proptest::prelude::*;

    #[test]
    fn standard_scaler_by_hand() {
        // column 0: mean 2, population var 2/3; column 1 constant -> scale 1.
        let x = Features::from(array![[1.0, 5.0], [2.0, 5.0], [3.0, 5.0]]);
        let f = StandardScaler::new().fit(&x).unwrap();
        assert_eq!(f.mean().unwrap(), &[2.0, 5.0]);
        assert_abs_diff_eq!(
            f.scale().unwrap()[0],
            (2.0f64 / 3.0).sqrt(),
            epsilon = 1e-15
        );
        assert_eq!(f.scale().unwrap()[1], 1.0);
        let z = f.transform(&x).unwrap().to_dense();
        let s = (2.0f64 / 3.0).sqrt();
        assert_abs_diff_eq!(
            z.as_slice().unwrap(),
            &[-1.0 / s, 0.0, 0.0, 0.0, 1.0 / s, 0.0][..],
            epsilon = 1e-12
        );
    }

    #[test]
    fn standard_scaler_options() {
        let x = Features::from(array![[1.0], [3.0]]);
        let no_mean = StandardScaler::new().with_mean(false).fit(&x).unwrap();
        assert!(no_mean.mean().is_none());
        assert_eq!(
            no_mean.transform(&x).unwrap().to_dense(),
            array![[1.0], [3.0]]
        );
        let no_std = StandardScaler::new().with_std(false).fit(&x).unwrap();
        assert!(no_std.scale().is_none());
        assert_eq!(
            no_std.transform(&x).unwrap().to_dense(),
            array![[-1.0], [1.0]]
        );
        let neither = StandardScaler::new()
            .with_mean(false)
            .with_std(false)
            .fit(&x)
            .unwrap();
        assert_eq!(neither.transform(&x).unwrap(), x);
    }

    #[test]
    fn integer_weights_equal_repeated_rows() {
        let x = Features::from(array![[1.0, -2.0], [4.0, 0.5], [7.0, 3.0]]);
        let weighted = StandardScaler::new()
            .fit_weighted(&x, Some(&[2.0, 0.0, 3.0]))
            .unwrap();
        let repeated = Features::from(array![
            [1.0, -2.0],
            [1.0, -2.0],
            [7.0, 3.0],
            [7.0, 3.0],
            [7.0, 3.0]
        ]);
        let plain = StandardScaler::new().fit(&repeated).unwrap();
        for (a, b) in weighted.mean().unwrap().iter().zip(plain.mean().unwrap()) {
            assert_abs_diff_eq!(a, b, epsilon = 1e-12);
        }
        for (a, b) in weighted.scale().unwrap().iter().zip(plain.scale().unwrap()) {
            assert_abs_diff_eq!(a, b, epsilon = 1e-12);
        }
        let mm = MinMaxScaler::new()
            .fit_weighted(&x, Some(&[2.0, 0.0, 3.0]))
            .unwrap();
        let mm_plain = MinMaxScaler::new().fit(&repeated).unwrap();
        assert_eq!(mm, mm_plain);
    }

    #[test]
    fn sparse_standard_scaling_stays_sparse_and_counts_zeros() {
        let d = array![[0.0, 2.0], [4.0, 0.0], [0.0, 0.0], [8.0, 2.0]];
        let sparse = Features::Sparse(CsrMatrix::from_dense(d.view()));
        let e = StandardScaler::new().fit(&sparse).unwrap_err().to_string();
        assert!(e.contains("with_mean = false"), "{e}");
        let p = StandardScaler::new().with_mean(false);
        let fs = p.fit(&sparse).unwrap();
        let fd = p.fit(&Features::from(d.clone())).unwrap();
        // column 0: values 0,4,0,8 -> mean 3, var (9+1+9+25)/4 = 11.
        assert_abs_diff_eq!(fs.scale().unwrap()[0], 11f64.sqrt(), epsilon = 1e-12);
        for (a, b) in fs.scale().unwrap().iter().zip(fd.scale().unwrap()) {
            assert_abs_diff_eq!(a, b, epsilon = 1e-12);
        }
        let out = fs.transform(&sparse).unwrap();
        assert!(out.is_sparse());
        assert_eq!(out.nnz(), sparse.nnz());
        assert_abs_diff_eq!(
            out.to_dense().as_slice().unwrap(),
            fd.transform(&Features::from(d))
                .unwrap()
                .to_dense()
                .as_slice()
                .unwrap(),
            epsilon = 1e-12
        );
        // A dense-fitted, centring scaler refuses sparse input at transform time.
        let centred = StandardScaler::new()
            .fit(&Features::from(array![[1.0, 2.0], [3.0, 4.0]]))
            .unwrap();
        assert!(matches!(
            centred.transform(&sparse),
            Err(Error::Unsupported { .. })
        ));
    }

    #[test]
    fn minmax_by_hand() {
        let x = Features::from(array![[1.0, 7.0], [3.0, 7.0], [5.0, 7.0]]);
        let f = MinMaxScaler::new().range(-1.0, 1.0).fit(&x).unwrap();
        assert_eq!(f.data_min(), &[1.0, 7.0]);
        assert_eq!(f.data_max(), &[5.0, 7.0]);
        let z = f.transform(&x).unwrap().to_dense();
        assert_eq!(z, array![[-1.0, -1.0], [0.0, -1.0], [1.0, -1.0]]);
        // Outside the training range: no clipping.
        let z = f.transform(&Features::from(array![[9.0, 7.0]])).unwrap();
        assert_eq!(z.to_dense(), array![[3.0, -1.0]]);
    }

    #[test]
    fn minmax_rejects_bad_range_and_sparse() {
        let x = Features::from(array![[1.0], [2.0]]);
        for (lo, hi) in [(1.0, 1.0), (2.0, 0.0), (f64::NAN, 1.0)] {
            let e = MinMaxScaler::new().range(lo, hi).fit(&x).unwrap_err();
            assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        }
        let s = Features::Sparse(CsrMatrix::from_dense(array![[1.0], [0.0]].view()));
        let e = MinMaxScaler::new().fit(&s).unwrap_err().to_string();
        assert!(e.contains("sparse"), "{e}");
        let f = MinMaxScaler::new().fit(&x).unwrap();
        assert!(matches!(f.transform(&s), Err(Error::Unsupported { .. })));
    }

    #[test]
    fn fit_rejects_bad_data() {
        let nan = Features::from(array![[1.0], [f64::NAN]]);
        assert!(matches!(
            StandardScaler::new().fit(&nan),
            Err(Error::NonFinite { .. })
        ));
        assert!(MinMaxScaler::new().fit(&nan).is_err());
        let empty = Features::from(Array2::<f64>::zeros((0, 2)));
        assert!(StandardScaler::new().fit(&empty).is_err());
        let x = Features::from(array![[1.0], [2.0]]);
        assert!(StandardScaler::new()
            .fit_weighted(&x, Some(&[1.0]))
            .is_err());
    }

    fn matrix() -> impl Strategy<Value = Array2<f64>> {
        (2usize..30, 1usize..5).prop_flat_map(|(r, c)| {
            prop::collection::vec(-1e3f64..1e3, r * c)
                .prop_map(move |v| Array2::from_shape_vec((r, c), v).unwrap())
        })
    }

    proptest! {
        #[test]
        fn standardised_training_columns_have_mean_0_std_1(a in matrix()) {
            let x = Features::from(a.clone());
            let f = StandardScaler::new().fit(&x).unwrap();
            let z = f.transform(&x).unwrap().to_dense();
            for (j, col) in z.columns().into_iter().enumerate() {
                let n = col.len() as f64;
                let mean = col.sum() / n;
                let var = col.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
                prop_assert!(mean.abs() < 1e-9, "column {} mean {}", j, mean);
                if f.scale().unwrap()[j] != 1.0 {
                    prop_assert!((var - 1.0).abs() < 1e-9, "column {} var {}", j, var);
                }
            }
        }

        #[test]
        fn minmax_training_columns_span_the_range(a in matrix()) {
            let x = Features::from(a.clone());
            let f = MinMaxScaler::new().range(-2.0, 3.0).fit(&x).unwrap();
            let z = f.transform(&x).unwrap().to_dense();
            for (j, col) in z.columns().into_iter().enumerate() {
                let lo = col.iter().cloned().fold(f64::INFINITY, f64::min);
                let hi = col.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                prop_assert!((lo + 2.0).abs() < 1e-9, "column {} min {}", j, lo);
                if f.data_max()[j] - f.data_min()[j] >= 10.0 * f64::EPSILON {
                    prop_assert!((hi - 3.0).abs() < 1e-9, "column {} max {}", j, hi);
                }
            }
        }
    }
}
