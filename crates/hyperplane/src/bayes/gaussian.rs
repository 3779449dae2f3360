//! Gaussian Naive Bayes: each feature is normal within each class.
//!
//! With `theta_cj` and `sigma2_cj` the weighted mean and variance of feature `j` in class
//! `c`, and `eps = var_smoothing * max_j Var(x_j)` (the variance of all training rows):
//!
//! ```text
//! s2_cj    = sigma2_cj + eps
//! jll_c(x) = log P(c) - 1/2 sum_j ln(2 pi s2_cj) - 1/2 sum_j (x_j - theta_cj)^2 / s2_cj
//! ```
//!
//! Means and variances are merged across batches with Chan, Golub and LeVeque's formula
//! (`M2 = M2_a + M2_b + (n_a n_b / n) (mean_a - mean_b)^2`); within a batch they are
//! computed in two passes (mean, then squared deviations), as NumPy does, so a single fit
//! matches scikit-learn to rounding. Differences from scikit-learn: `eps` comes from the
//! *weighted* variance of *all* data seen (scikit-learn: unweighted, of the latest
//! `partial_fit` batch), so integer weights equal repeated rows; and when every feature
//! is constant, `eps = var_smoothing` (scikit-learn divides by zero).

use serde::{Deserialize, Serialize};

use crate::bayes::explain;
use crate::bayes::likelihood::{split, JointLogLikelihood};
use crate::bayes::model::{naive_bayes_params, FittedNB, NaiveBayesParams, Statistics};
use crate::bayes::prior::{check_batch, ClassCounts, Priors};
use crate::bayes::validate::check_values;
use crate::data::{Dataset, Features, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::KindInfo;
use crate::with_rows;

naive_bayes_params! {
    /// Params of Gaussian Naive Bayes.
    pub struct GaussianNB as "gaussian-nb" {
        /// added variance, as a fraction of the largest feature variance
        pub var_smoothing: f64 = "0.000000001", positive;
        /// class prior `P(y)`: `fitted` (the class frequencies), `uniform`, or given numbers
        /// summing to 1 (`0.3,0.7`)
        pub priors: Priors = "fitted", "`fitted`, `uniform`, or one probability per class";
    }
}

const NAME: &str = "GaussianNB";

/// Weighted count, mean and variance of each feature over a set of rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    /// Total weight `n`.
    pub count: f64,
    /// Weighted mean per feature.
    pub mean: Vec<f64>,
    /// Weighted (population) variance per feature.
    pub var: Vec<f64>,
}

impl Moments {
    fn empty(n_features: usize) -> Self {
        Moments {
            count: 0.0,
            mean: vec![0.0; n_features],
            var: vec![0.0; n_features],
        }
    }

    /// Chan et al.'s merge, in scikit-learn's `_update_mean_variance` arithmetic.
    fn merge(&mut self, new: &Moments) {
        if new.count == 0.0 {
            return;
        }
        if self.count == 0.0 {
            *self = new.clone();
            return;
        }
        let (n_past, n_new) = (self.count, new.count);
        let n_total = n_past + n_new;
        for j in 0..self.mean.len() {
            let (mu, nmu) = (self.mean[j], new.mean[j]);
            let total_mu = (n_new * nmu + n_past * mu) / n_total;
            let ssd = n_past * self.var[j]
                + n_new * new.var[j]
                + (n_new * n_past / n_total) * (mu - nmu).powi(2);
            self.mean[j] = total_mu;
            self.var[j] = ssd / n_total;
        }
        self.count = n_total;
    }
}

/// Two-pass weighted moments of the rows of `m` grouped by `group(i)` (`None`: skipped).
/// Implicit zeros of sparse rows are accounted for without visiting them.
fn batch_moments<M: RowAccess>(
    m: &M,
    n_groups: usize,
    group: impl Fn(usize) -> usize,
    weight: impl Fn(usize) -> f64,
) -> Vec<Moments> {
    let nf = m.n_cols();
    let mut out = vec![Moments::empty(nf); n_groups];
    let mut stored_w = vec![vec![0.0; nf]; n_groups];
    for i in 0..m.n_rows() {
        let (g, w) = (group(i), weight(i));
        let o = &mut out[g];
        o.count += w;
        let sw = &mut stored_w[g];
        m.for_each_in_row(i, |j, v| {
            o.mean[j] += v * w;
            sw[j] += w;
        });
    }
    for o in out.iter_mut().filter(|o| o.count > 0.0) {
        let n = o.count;
        o.mean.iter_mut().for_each(|s| *s /= n);
    }
    for i in 0..m.n_rows() {
        let (g, w) = (group(i), weight(i));
        let o = &mut out[g];
        let (mean, var) = (&o.mean, &mut o.var);
        m.for_each_in_row(i, |j, v| var[j] += (v - mean[j]).powi(2) * w);
    }
    for (o, sw) in out.iter_mut().zip(&stored_w) {
        if o.count > 0.0 {
            let n = o.count;
            for ((v, mu), s) in o.var.iter_mut().zip(&o.mean).zip(sw) {
                let implicit = n - s;
                if implicit > 0.0 {
                    *v += implicit * mu * mu;
                }
                *v /= n;
            }
        }
    }
    out
}

/// Sufficient statistics of Gaussian Naive Bayes: per-class and overall moments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaussianMoments {
    /// Number of features.
    pub n_features: usize,
    /// Classes and their weighted counts.
    pub classes: ClassCounts,
    /// Moments of each class.
    pub class_moments: Vec<Moments>,
    /// Moments of all rows (for the variance floor `eps`).
    pub total: Moments,
}

impl GaussianMoments {
    /// Empty statistics.
    pub fn new(n_features: usize) -> Self {
        GaussianMoments {
            n_features,
            classes: ClassCounts::default(),
            class_moments: Vec::new(),
            total: Moments::empty(n_features),
        }
    }

    /// Adds the rows of `batch`.
    pub fn update(&mut self, batch: &Dataset) -> Result<()> {
        check_batch(self.n_features, batch.n_features())?;
        batch.x().check_finite("X")?;
        let inc = self.classes.absorb_rows(
            batch.classes(),
            &mut self.class_moments,
            Moments::empty(self.n_features),
        );
        let t = batch.targets();
        let w = |i: usize| batch.weight(i);
        let (per_class, total) = with_rows!(batch.x(), |m| (
            batch_moments(m, batch.classes().len(), |i| t[i], w),
            batch_moments(m, 1, |_| 0, w),
        ));
        for (k, mom) in per_class.iter().enumerate() {
            let c = inc[k];
            self.classes.count[c] += mom.count;
            self.class_moments[c].merge(mom);
        }
        self.total.merge(&total[0]);
        Ok(())
    }

    /// Adds the statistics of another part.
    pub fn merge(&mut self, other: &Self) -> Result<()> {
        check_batch(self.n_features, other.n_features)?;
        self.classes.merge_rows(
            &other.classes,
            &mut self.class_moments,
            &other.class_moments,
            Moments::empty(self.n_features),
            Moments::merge,
        );
        self.total.merge(&other.total);
        Ok(())
    }
}

impl Statistics for GaussianMoments {
    fn n_features(&self) -> usize {
        self.n_features
    }
    fn class_counts(&self) -> &ClassCounts {
        &self.classes
    }
    fn add_batch(&mut self, batch: &Dataset, _: &str) -> Result<()> {
        self.update(batch)
    }
    fn add_part(&mut self, other: &Self) -> Result<()> {
        self.merge(other)
    }
    fn validate(&self) -> Result<()> {
        self.classes
            .validate("class_moments", &self.class_moments)?;
        for (field, m) in self
            .class_moments
            .iter()
            .map(|m| ("class_moments", m))
            .chain([("total", &self.total)])
        {
            check_values(&format!("{field}.count"), &[m.count], 1, true)?;
            check_values(&format!("{field}.mean"), &m.mean, self.n_features, false)?;
            check_values(&format!("{field}.var"), &m.var, self.n_features, true)?;
        }
        Ok(())
    }
}

/// The tables of a Gaussian model.
#[derive(Clone, Debug, PartialEq)]
pub struct GaussianTables {
    epsilon: f64,
    theta: Vec<Vec<f64>>,
    var: Vec<Vec<f64>>,
    /// `-1/2 sum_j ln(2 pi s2_cj)` per class.
    log_norm: Vec<f64>,
}

impl NaiveBayesParams for GaussianNB {
    const NAME: &'static str = NAME;
    const INFO: &'static KindInfo = &KindInfo::classifier(
        Self::KIND,
        super::GROUP,
        "a normal density per feature and class",
    );
    const BODY: &'static str = "Gaussian";
    const TOP_FEATURE_SCORE: &'static str =
        "standardized mean difference (theta_cj - mean of other classes) / sigma_j";
    type Stats = GaussianMoments;
    type Tables = GaussianTables;
    fn empty_statistics(&self, n_features: usize) -> GaussianMoments {
        GaussianMoments::new(n_features)
    }
    fn validate(&self) -> Result<()> {
        if !(self.var_smoothing.is_finite() && self.var_smoothing > 0.0) {
            return Err(Error::param(
                "var_smoothing",
                self.var_smoothing,
                "must be finite and > 0",
            ));
        }
        self.priors.validate()
    }

    fn tables(&self, stats: &GaussianMoments) -> Result<(Vec<f64>, GaussianTables)> {
        let class_log_prior = self.priors.log_prior(&stats.classes.count)?;
        let max_var = stats.total.var.iter().copied().fold(0.0, f64::max);
        let epsilon = if max_var > 0.0 {
            self.var_smoothing * max_var
        } else {
            self.var_smoothing
        };
        let theta: Vec<Vec<f64>> = stats.class_moments.iter().map(|m| m.mean.clone()).collect();
        let var: Vec<Vec<f64>> = stats
            .class_moments
            .iter()
            .map(|m| m.var.iter().map(|v| v + epsilon).collect())
            .collect();
        let log_norm = var
            .iter()
            .map(|v| {
                -0.5 * v
                    .iter()
                    .map(|s| (2.0 * std::f64::consts::PI * s).ln())
                    .sum::<f64>()
            })
            .collect();
        let tables = GaussianTables {
            epsilon,
            theta,
            var,
            log_norm,
        };
        Ok((class_log_prior, tables))
    }

    /// The `k` features with the largest standardized mean difference per class,
    /// `d_cj = (theta_cj - mean_{c'!=c} theta_c'j) / sqrt(mean_c' s2_c'j)`, by `|d|`.
    fn top_features(model: &GaussianNBModel, k: usize) -> Vec<Vec<(usize, f64)>> {
        let t = &model.tables;
        let nc = t.theta.len();
        if nc < 2 {
            return vec![Vec::new(); nc];
        }
        let nf = model.stats.n_features;
        let scores: Vec<Vec<f64>> = (0..nc)
            .map(|c| {
                (0..nf)
                    .map(|j| {
                        let others: f64 = (0..nc).filter(|&o| o != c).map(|o| t.theta[o][j]).sum();
                        let pooled: f64 = t.var.iter().map(|v| v[j]).sum::<f64>() / nc as f64;
                        (t.theta[c][j] - others / (nc - 1) as f64) / pooled.sqrt()
                    })
                    .collect()
            })
            .collect();
        explain::top_k(&scores, k, true)
    }

    fn joint_log_likelihood(model: &GaussianNBModel, x: &Features) -> Result<JointLogLikelihood> {
        let t = &model.tables;
        x.check_predict_input(model.stats.n_features)?;
        let nc = t.theta.len();
        let n = x.n_rows();
        let p = model.stats.n_features;
        Ok(JointLogLikelihood::by_rows(
            n,
            nc,
            || vec![0.0; p],
            |row, i, f, k| {
                row.iter_mut().for_each(|v| *v = 0.0);
                with_rows!(x, |m| m.for_each_in_row(i, |j, v| row[j] = v));
                for c in 0..nc {
                    let s: f64 = row
                        .iter()
                        .zip(&t.theta[c])
                        .zip(&t.var[c])
                        .map(|((x, t), v)| (x - t).powi(2) / v)
                        .sum();
                    let (impossible, p) = split(model.class_log_prior[c]);
                    f[c] = p + (t.log_norm[c] - 0.5 * s);
                    k[c] = impossible;
                }
            },
        ))
    }
}

/// A fitted Gaussian Naive Bayes model.
pub type GaussianNBModel = FittedNB<GaussianNB>;

impl GaussianNBModel {
    /// Per-class feature means `theta[c][j]`.
    pub fn theta(&self) -> &[Vec<f64>] {
        &self.tables.theta
    }
    /// Per-class feature variances `s2[c][j]`, `eps` included.
    pub fn var(&self) -> &[Vec<f64>] {
        &self.tables.var
    }
    /// The variance floor `eps` added to every variance.
    pub fn epsilon(&self) -> f64 {
        self.tables.epsilon
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::CsrMatrix;
    use crate::estimator::{Classifier, Fit};
    use ndarray::array;

    fn data() -> Dataset<'static> {
        let x = array![[1.0, 0.0], [3.0, 0.0], [10.0, 2.0], [14.0, 0.0]];
        Dataset::new(x.into(), &["a".into(), "a".into(), "b".into(), "b".into()]).unwrap()
    }

    #[test]
    fn moments_and_epsilon() {
        let m = GaussianNB::default().fit(&data()).unwrap();
        assert_eq!(m.theta()[0], vec![2.0, 0.0]);
        assert_eq!(m.theta()[1], vec![12.0, 1.0]);
        // overall variance of feature 0: mean 7, deviations 36+16+9+49 = 110 / 4
        assert!((m.epsilon() - 1e-9 * 27.5).abs() < 1e-20);
        assert!((m.var()[1][1] - (1.0 + m.epsilon())).abs() < 1e-15);
    }

    #[test]
    fn sparse_matches_dense() {
        let d = data();
        let s = Dataset::new(
            CsrMatrix::from_dense(d.x().to_dense().view()).into(),
            &d.labels(),
        )
        .unwrap();
        let (a, b) = (
            GaussianNB::default().fit(&d).unwrap(),
            GaussianNB::default().fit(&s).unwrap(),
        );
        for c in 0..2 {
            for j in 0..2 {
                assert!((a.var()[c][j] - b.var()[c][j]).abs() < 1e-12);
            }
        }
        let t: Features = array![[2.0, 0.5]].into();
        let pa = a.predict_proba(&t).unwrap();
        let pb = b.predict_proba(&t.to_sparse().into()).unwrap();
        assert!((pa[[0, 0]] - pb[[0, 0]]).abs() < 1e-12);
    }

    #[test]
    fn constant_features_and_bad_smoothing() {
        let d = Dataset::new(array![[1.0], [1.0]].into(), &[0.into(), 1.into()]).unwrap();
        let m = GaussianNB::default().fit(&d).unwrap();
        assert_eq!(m.epsilon(), 1e-9);
        assert!(m
            .predict_proba(&array![[5.0]].into())
            .unwrap()
            .iter()
            .all(|v| v.is_finite()));
        assert!(GaussianNB::default().var_smoothing(0.0).fit(&d).is_err());
    }

    #[test]
    fn top_features_rank_by_standardized_difference() {
        let m = GaussianNB::default().fit(&data()).unwrap();
        let top = m.top_features(1);
        assert_eq!(top[0][0].0, 0);
        assert!(top[0][0].1 < 0.0 && top[1][0].1 > 0.0);
    }
}
