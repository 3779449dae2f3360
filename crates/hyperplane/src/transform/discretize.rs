//! Discretisation: continuous features to ordinal bin indices, as scikit-learn's
//! `KBinsDiscretizer(encode="ordinal")`.
//!
//! A feature with training edges `e_0 < e_1 < ... < e_m` (`m` bins) maps `x` to the number of
//! inner edges `e_1..e_{m-1}` that are `<= x`, so bin `b` is `[e_b, e_{b+1})` and values
//! outside the training range fall into the first or last bin.

use serde::{Deserialize, Serialize};

use crate::data::Features;
use crate::error::{Error, Result};
use crate::transform::{check_transform_input, check_weights};

/// How bin edges are placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinStrategy {
    /// Edges at the quantiles `0, 1/k, ..., 1` of the training values (numpy's
    /// `averaged_inverted_cdf` method, scikit-learn's default): bins hold about equally many
    /// samples. Edges closer than `1e-8` to the previous edge are dropped, so a feature
    /// with many tied values gets fewer bins.
    #[default]
    Quantile,
    /// Equal-width bins: `linspace(min, max, k + 1)`.
    Uniform,
}

impl std::str::FromStr for BinStrategy {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim() {
            "quantile" => Ok(BinStrategy::Quantile),
            "uniform" => Ok(BinStrategy::Uniform),
            _ => Err(Error::param(
                "strategy",
                s,
                "valid strategies: quantile, uniform",
            )),
        }
    }
}

impl std::fmt::Display for BinStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BinStrategy::Quantile => "quantile",
            BinStrategy::Uniform => "uniform",
        })
    }
}

crate::param::choice_value!(BinStrategy = ["quantile", "uniform"]);

crate::params! {
    /// Bins continuous features into `0..n_bins` (as `f64`), so they can feed categorical
    /// Naive Bayes.
    ///
    /// A constant feature gets one bin (every value maps to 0); its edges are stored as
    /// `[c, c]` where scikit-learn stores `[-inf, inf]` (same output; JSON has no infinity).
    /// Unlike scikit-learn, all training rows are used (scikit-learn subsamples 200 000 rows
    /// by default). Sparse input is an error: the bin index of 0 is usually not 0.
    ///
    /// With sample weights, `Uniform` takes the minimum and maximum over rows of non-zero
    /// weight and `Quantile` uses scikit-learn's weighted averaged inverted CDF.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct KBinsDiscretizer {
        pub n_bins: usize,
        pub strategy: BinStrategy,
        pub columns: Option<Vec<usize>>,
    }
    schema "discretizer" {
        /// bins per feature (fewer when quantile edges coincide)
        n_bins = "10", at_least_2 => n_bins;
        /// edge placement: `quantile` (edges at the training quantiles, bins of about equal
        /// counts) or `uniform` (equal widths from the minimum to the maximum)
        strategy = "quantile", "`quantile`, `uniform`" => strategy;
        /// indices of the features to bin; the others pass through unchanged
        columns = "all", "`all`, or distinct indices `< n_features`" => columns;
    }
}

impl Default for KBinsDiscretizer {
    fn default() -> Self {
        KBinsDiscretizer {
            n_bins: 10,
            strategy: BinStrategy::Quantile,
            columns: None,
        }
    }
}

impl KBinsDiscretizer {
    /// The default params.
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets `n_bins`.
    pub fn n_bins(mut self, n_bins: usize) -> Self {
        self.n_bins = n_bins;
        self
    }
    /// Sets the edge strategy.
    pub fn strategy(mut self, strategy: BinStrategy) -> Self {
        self.strategy = strategy;
        self
    }
    /// Bins only these feature indices; the others pass through.
    pub fn columns(mut self, columns: Vec<usize>) -> Self {
        self.columns = Some(columns);
        self
    }

    /// Learns the bin edges of each chosen feature.
    pub fn fit(&self, x: &Features) -> Result<FittedKBinsDiscretizer> {
        self.fit_weighted(x, None)
    }

    /// Learns the bin edges of each chosen feature with optional sample weights.
    pub fn fit_weighted(
        &self,
        x: &Features,
        weights: Option<&[f64]>,
    ) -> Result<FittedKBinsDiscretizer> {
        if self.n_bins < 2 {
            return Err(Error::param("n_bins", self.n_bins, "must be at least 2"));
        }
        x.check_fit_input()?;
        check_weights(weights, x.n_rows())?;
        // column `j` as `f64`
        let column: Box<dyn Fn(usize) -> Vec<f64> + '_> = match x {
            Features::Dense(a) => Box::new(|j| a.column(j).to_vec()),
            Features::DenseF32(a) => Box::new(|j| a.column(j).iter().map(|&v| v.into()).collect()),
            Features::Sparse(_) | Features::SparseView(_) => return Err(sparse_error()),
        };
        let n_features = x.n_cols();
        crate::memory::check(
            || {
                format!(
                    "the bin edges of {n_features} features with n_bins = {}",
                    self.n_bins
                )
            },
            &[n_features, self.n_bins.saturating_add(1)],
            8,
        )?;
        let mut chosen = vec![self.columns.is_none(); n_features];
        for &j in self.columns.iter().flatten() {
            if j >= n_features {
                return Err(Error::param(
                    "columns",
                    j,
                    format!("the input has {n_features} features"),
                ));
            }
            if chosen[j] {
                return Err(Error::param("columns", j, "listed twice"));
            }
            chosen[j] = true;
        }
        let edges = chosen
            .iter()
            .enumerate()
            .map(|(j, &on)| {
                on.then(|| {
                    let col = column(j);
                    bin_edges(&col, weights, self.n_bins, self.strategy).ok_or_else(|| {
                        Error::data(format!(
                            "feature {j} spans more than the largest f64; rescale it first"
                        ))
                    })
                })
                .transpose()
            })
            .collect::<Result<_>>()?;
        Ok(FittedKBinsDiscretizer { edges })
    }
}

fn sparse_error() -> Error {
    Error::Unsupported {
        model: "KBinsDiscretizer".into(),
        what: "sparse input (the bin of 0 is usually not 0, so the output would be dense); \
               convert to dense first"
            .into(),
    }
}

/// numpy's `linspace(start, stop, num)`: `start + i * ((stop - start) / (num - 1))`, last = stop.
fn linspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    let div = (num - 1) as f64;
    let delta = stop - start;
    let step = delta / div;
    let mut y: Vec<f64> = (0..num)
        .map(|i| {
            if step == 0.0 {
                i as f64 / div * delta + start
            } else {
                i as f64 * step + start
            }
        })
        .collect();
    y[num - 1] = stop;
    y
}

/// Edges of one feature (`None` when `max - min` overflows). `col` is finite and
/// non-empty; `weights` (if any) are valid.
fn bin_edges(
    col: &[f64],
    weights: Option<&[f64]>,
    n_bins: usize,
    strategy: BinStrategy,
) -> Option<Vec<f64>> {
    let nonzero = |i: usize| weights.is_none_or(|w| w[i] != 0.0);
    let masked = |use_mask: bool| {
        col.iter()
            .enumerate()
            .filter(move |(i, _)| !use_mask || nonzero(*i))
            .map(|(_, &v)| v)
    };
    // scikit-learn takes min/max over non-zero-weight rows only for the uniform strategy.
    let use_mask = strategy == BinStrategy::Uniform;
    let lo = masked(use_mask).fold(f64::INFINITY, f64::min);
    let hi = masked(use_mask).fold(f64::NEG_INFINITY, f64::max);
    if lo == hi {
        return Some(vec![lo, hi]);
    }
    if !(hi - lo).is_finite() {
        return None;
    }
    Some(match strategy {
        BinStrategy::Uniform => linspace(lo, hi, n_bins + 1),
        BinStrategy::Quantile => {
            let levels = linspace(0.0, 100.0, n_bins + 1);
            let edges = match weights {
                None => percentiles(col, &levels),
                Some(w) => weighted_percentiles(col, w, &levels),
            };
            // Drop an edge within 1e-8 of the edge before it (numpy's ediff1d on the
            // original edges, first edge always kept).
            let mut kept = vec![edges[0]];
            kept.extend(
                edges
                    .windows(2)
                    .filter(|p| p[1] - p[0] > 1e-8)
                    .map(|p| p[1]),
            );
            if kept.len() == 1 {
                // Every edge coincides (a range under 1e-8): one bin, where scikit-learn
                // reports 0 bins but also maps every value to 0.
                kept.push(edges[edges.len() - 1]);
            }
            kept
        }
    })
}

/// numpy's `percentile(col, levels, method="averaged_inverted_cdf")`, replicating its
/// floating-point path: virtual index `v = n * (p / 100) - 1`; when `v` is a whole number
/// the mean of the sorted values `v` and `v + 1`, else sorted value `floor(v) + 1`
/// (indices clamped to `0..n`).
fn percentiles(col: &[f64], levels: &[f64]) -> Vec<f64> {
    let mut s = col.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    let n = s.len();
    levels
        .iter()
        .map(|&p| {
            let v = n as f64 * (p / 100.0) - 1.0;
            if v >= (n - 1) as f64 {
                return s[n - 1];
            }
            if v < 0.0 {
                return s[0];
            }
            let prev = v.floor();
            let (a, b) = (s[prev as usize], s[prev as usize + 1]);
            if v - prev == 0.0 {
                // numpy's _lerp at t = 0.5: b - (b - a) * (1 - t)
                b - (b - a) * 0.5
            } else {
                b
            }
        })
        .collect()
}

/// scikit-learn's `_weighted_percentile(col, w, levels, average=True)`: with the values
/// sorted and `cdf` the running sum of their weights, level `p` targets `r = p / 100 * W`
/// (the smallest positive number when 0); `i` is the first index with `cdf_i >= r`. If
/// `cdf_i - r > eps` the result is value `i`, else the mean of values `i` and the next
/// index of non-zero weight.
fn weighted_percentiles(col: &[f64], w: &[f64], levels: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..col.len()).collect();
    order.sort_by(|&a, &b| col[a].total_cmp(&col[b]));
    let values: Vec<f64> = order.iter().map(|&i| col[i]).collect();
    let sorted_w: Vec<f64> = order.iter().map(|&i| w[i]).collect();
    let cdf: Vec<f64> = sorted_w
        .iter()
        .scan(0.0, |acc, &v| {
            *acc += v;
            Some(*acc)
        })
        .collect();
    let last = values.len() - 1;
    let total = cdf[last];
    levels
        .iter()
        .map(|&p| {
            let mut r = p / 100.0 * total;
            if r == 0.0 {
                r = f64::from_bits(1); // nextafter(0, 1)
            }
            let i = cdf.partition_point(|&c| c < r).min(last);
            if cdf[i] - r > f64::EPSILON {
                return values[i];
            }
            let mut next = (i + 1).min(last);
            if sorted_w[next] == 0.0 {
                next = cdf.partition_point(|&c| c <= cdf[i]);
                if next > last {
                    next = i;
                }
            }
            (values[i] + values[next]) / 2.0
        })
        .collect()
}

/// A fitted [`KBinsDiscretizer`]: the bin edges of each binned feature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedKBinsDiscretizer {
    /// Per feature: `Some(edges)` (ascending, `bins + 1` values) or `None` (passed through).
    edges: Vec<Option<Vec<f64>>>,
}

impl FittedKBinsDiscretizer {
    /// Per feature: the bin edges, or `None` for a feature passed through.
    pub fn bin_edges(&self) -> &[Option<Vec<f64>>] {
        &self.edges
    }
    /// Per feature: the number of bins (may be below `n_bins` after dropping coincident
    /// quantile edges; 1 for a constant feature), or `None` for a feature passed through.
    pub fn n_bins(&self) -> Vec<Option<usize>> {
        self.edges
            .iter()
            .map(|e| e.as_ref().map(|e| e.len() - 1))
            .collect()
    }
    /// Number of features the discretizer was fitted on.
    pub fn n_features_in(&self) -> usize {
        self.edges.len()
    }
    /// Number of output features (the same).
    pub fn n_features_out(&self) -> usize {
        self.edges.len()
    }

    /// Replaces each binned value by its bin index `0..bins` (as `f64`); other features
    /// pass through. Output is dense.
    pub fn transform(&self, x: &Features) -> Result<Features<'static>> {
        check_transform_input(x, self.edges.len())?;
        let Some(a) = x.dense_in_f64() else {
            return Err(sparse_error());
        };
        let mut out = a.into_owned();
        for mut row in out.rows_mut() {
            for (v, e) in row.iter_mut().zip(&self.edges) {
                if let Some(e) = e {
                    let inner = &e[1..e.len() - 1];
                    *v = inner.partition_point(|&edge| edge <= *v) as f64;
                }
            }
        }
        Ok(Features::from(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::param::Params;
    use ndarray::{array, Array2};
    use proptest::prelude::*;

    fn col(v: &[f64]) -> Features<'static> {
        Features::from(Array2::from_shape_vec((v.len(), 1), v.to_vec()).unwrap())
    }

    fn edges_of(f: &FittedKBinsDiscretizer, j: usize) -> Vec<f64> {
        f.bin_edges()[j].clone().unwrap()
    }

    #[test]
    fn uniform_edges_and_bins_by_hand() {
        let x = col(&[0.0, 1.0, 2.0, 10.0]);
        let f = KBinsDiscretizer::new()
            .n_bins(4)
            .strategy(BinStrategy::Uniform)
            .fit(&x)
            .unwrap();
        assert_eq!(edges_of(&f, 0), vec![0.0, 2.5, 5.0, 7.5, 10.0]);
        let out = f
            .transform(&col(&[0.0, 2.5, 2.4, 7.5, 10.0, -5.0, 99.0]))
            .unwrap();
        // inner edges 2.5, 5, 7.5; an edge value goes to the bin on its right; outside clips.
        assert_eq!(
            out.to_dense().column(0).to_vec(),
            vec![0.0, 1.0, 0.0, 3.0, 3.0, 0.0, 3.0]
        );
    }

    #[test]
    fn quantile_edges_by_hand() {
        // n = 4, k = 2: levels 0, 0.5, 1 -> virtual indices -1, 1, 3.
        // v = 1 is whole: mean of sorted[1] = 2 and sorted[2] = 3 -> 2.5.
        let f = KBinsDiscretizer::new()
            .n_bins(2)
            .fit(&col(&[4.0, 1.0, 3.0, 2.0]))
            .unwrap();
        assert_eq!(edges_of(&f, 0), vec![1.0, 2.5, 4.0]);
        // n = 5, k = 2: v = 1.5 is fractional -> sorted[2] = 3.
        let f = KBinsDiscretizer::new()
            .n_bins(2)
            .fit(&col(&[5.0, 1.0, 3.0, 2.0, 4.0]))
            .unwrap();
        assert_eq!(edges_of(&f, 0), vec![1.0, 3.0, 5.0]);
        assert_eq!(
            f.transform(&col(&[2.9, 3.0, 0.0]))
                .unwrap()
                .to_dense()
                .column(0)
                .to_vec(),
            vec![0.0, 1.0, 0.0]
        );
    }

    #[test]
    fn coincident_quantile_edges_are_dropped_and_reported() {
        // 6 zeros and 2 ones, 4 bins: v = -1, 1, 3, 5, 7 -> edges 0, 0, 0, 0.5, 1.
        let x = col(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]);
        let f = KBinsDiscretizer::new().n_bins(4).fit(&x).unwrap();
        assert_eq!(edges_of(&f, 0), vec![0.0, 0.5, 1.0]);
        assert_eq!(f.n_bins(), vec![Some(2)]);
        // A range under 1e-8: every edge coincides, one bin.
        let f = KBinsDiscretizer::new()
            .fit(&col(&[0.0, 1e-9, 5e-10]))
            .unwrap();
        assert_eq!(f.n_bins(), vec![Some(1)]);
        assert_eq!(f.transform(&col(&[7.0])).unwrap().to_dense()[[0, 0]], 0.0);
        let x = col(&[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0]);
        let f = KBinsDiscretizer::new().n_bins(4).fit(&x).unwrap();
        // v = 1, 3, 5 (whole): (0+0)/2, (0+1)/2, (1+2)/2 -> edges 0, 0, 0.5, 1.5, 3.
        assert_eq!(edges_of(&f, 0), vec![0.0, 0.5, 1.5, 3.0]);
        assert_eq!(f.n_bins(), vec![Some(3)]);
    }

    #[test]
    fn constant_feature_gets_one_bin() {
        let f = KBinsDiscretizer::new().fit(&col(&[2.0, 2.0, 2.0])).unwrap();
        assert_eq!(f.n_bins(), vec![Some(1)]);
        assert_eq!(
            f.transform(&col(&[-1.0, 2.0, 5.0]))
                .unwrap()
                .to_dense()
                .column(0)
                .to_vec(),
            vec![0.0, 0.0, 0.0]
        );
    }

    #[test]
    fn chosen_columns_only_are_binned() {
        let x = Features::from(array![[0.0, 7.0], [1.0, 8.0], [2.0, 9.0], [3.0, 9.5]]);
        let f = KBinsDiscretizer::new()
            .n_bins(2)
            .strategy(BinStrategy::Uniform)
            .columns(vec![1])
            .fit(&x)
            .unwrap();
        assert_eq!(f.n_bins(), vec![None, Some(2)]);
        assert_eq!(
            f.transform(&x).unwrap().to_dense(),
            array![[0.0, 0.0], [1.0, 0.0], [2.0, 1.0], [3.0, 1.0]]
        );
        for bad in [vec![2], vec![1, 1]] {
            let e = KBinsDiscretizer::new().columns(bad).fit(&x).unwrap_err();
            assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        }
    }

    #[test]
    fn bad_params_and_input_are_errors() {
        let huge = col(&[-f64::MAX, f64::MAX]);
        let e = KBinsDiscretizer::new().fit(&huge).unwrap_err().to_string();
        assert!(e.contains("feature 0"), "{e}");
        let x = col(&[1.0, 2.0]);
        assert!(matches!(
            KBinsDiscretizer::new().n_bins(1).fit(&x),
            Err(Error::InvalidParameter { .. })
        ));
        let s = Features::Sparse(crate::data::CsrMatrix::from_dense(
            array![[1.0], [0.0]].view(),
        ));
        assert!(matches!(
            KBinsDiscretizer::new().fit(&s),
            Err(Error::Unsupported { .. })
        ));
        assert!(KBinsDiscretizer::new().fit(&col(&[1.0, f64::NAN])).is_err());
        let mut p = KBinsDiscretizer::new();
        assert!(p.set_param("strategy", "kmeans").is_err());
        p.set_param("columns", "0,2").unwrap();
        assert_eq!(p.columns, Some(vec![0, 2]));
        p.set_param("columns", "all").unwrap();
        assert_eq!(p.columns, None);
        assert!(p.set_param("n_bins", "-3").is_err());
    }

    #[test]
    fn integer_weights_equal_repeated_rows() {
        let x = col(&[5.0, 1.0, 3.0, 2.0, 4.0, 9.0]);
        let w = [2.0, 1.0, 0.0, 3.0, 1.0, 0.0];
        let rep = col(&[5.0, 5.0, 1.0, 2.0, 2.0, 2.0, 4.0]);
        for strategy in [BinStrategy::Uniform, BinStrategy::Quantile] {
            for k in 2..6 {
                let p = KBinsDiscretizer::new().n_bins(k).strategy(strategy);
                let a = p.fit_weighted(&x, Some(&w)).unwrap();
                let b = p.fit(&rep).unwrap();
                let probe = col(&[0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 4.5, 5.0, 6.0]);
                assert_eq!(
                    a.transform(&probe).unwrap(),
                    b.transform(&probe).unwrap(),
                    "{strategy} k={k}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn bins_are_in_range_and_monotone(
            train in prop::collection::vec(-1e3f64..1e3, 1..60),
            probe in prop::collection::vec(-2e3f64..2e3, 1..20),
            k in 2usize..12,
            uniform in any::<bool>(),
        ) {
            let strategy = if uniform { BinStrategy::Uniform } else { BinStrategy::Quantile };
            let f = KBinsDiscretizer::new().n_bins(k).strategy(strategy).fit(&col(&train)).unwrap();
            let bins = f.n_bins()[0].unwrap();
            prop_assert!(bins >= 1 && bins <= k);
            let mut sorted = probe.clone();
            sorted.sort_by(f64::total_cmp);
            let out = f.transform(&col(&sorted)).unwrap().to_dense();
            let out = out.column(0);
            for w in out.to_vec().windows(2) {
                prop_assert!(w[0] <= w[1]);
            }
            for &b in out.iter() {
                prop_assert!(b >= 0.0 && b < bins as f64 && b.fract() == 0.0);
            }
        }
    }
}
