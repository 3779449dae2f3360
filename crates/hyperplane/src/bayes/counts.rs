//! Sufficient statistics of the count models: weighted class counts `N_c` and per-class
//! feature sums `N_cj = sum_{i: y_i = c} w_i x_ij` (MultinomialNB, ComplementNB), or of
//! binarized features (BernoulliNB: `N_cj` = weight of the class-`c` rows where `x_j = 1`).
//!
//! One pass over the rows: each stored entry of row `i` adds `w_i x_ij` to the row of its
//! class, so a CSR matrix costs one multiply-add per non-zero (no per-class products).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::bayes::explain;
use crate::bayes::likelihood::{JointLogLikelihood, LinearScore};
use crate::bayes::model::{FittedNB, NaiveBayesParams, Statistics};
use crate::bayes::prior::{check_batch, ClassCounts};
use crate::bayes::validate::check_values;
use crate::data::{CsrMatrix, Dataset, Features, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::KindInfo;
use crate::with_rows;

/// What a feature value means to a count model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum EventModel {
    /// `x_j` is a count (or any non-negative amount): multinomial event model.
    Counts,
    /// `x_j` is an event that happened or not: `1` when `x_j > threshold`, else `0`; with
    /// no threshold the values are used as they are (they should be 0/1).
    Binary { binarize: Option<f64> },
}

impl EventModel {
    /// The value a stored entry contributes.
    #[inline]
    pub(crate) fn map(self) -> impl Fn(f64) -> f64 + Copy {
        let t = match self {
            EventModel::Counts => None,
            EventModel::Binary { binarize } => binarize,
        };
        move |v| match t {
            Some(t) => f64::from(u8::from(v > t)),
            None => v,
        }
    }

    /// Checks input in one pass over the stored values: finite, and for counts `>= 0`; a
    /// negative threshold would turn every implicit zero of a sparse matrix into 1, so it
    /// is refused there.
    pub(crate) fn check(self, x: &Features, what: &str, model: &str) -> Result<()> {
        let counts = self == EventModel::Counts;
        if let EventModel::Binary { binarize: Some(t) } = self {
            if t < 0.0 && x.is_sparse() {
                return Err(Error::Unsupported {
                    model: model.to_string(),
                    what: format!(
                        "binarize = {t} < 0 on sparse input (every implicit zero would become 1)"
                    ),
                });
            }
        }
        // non-short-circuit `|` and `&`: the test is branch-free, so the scan vectorizes
        match x.first_stored(move |v| !v.is_finite() | (counts & (v < 0.0))) {
            Some((row, feature, value)) if !value.is_finite() => Err(Error::NonFinite {
                what: what.to_string(),
                row,
                feature,
                value,
            }),
            Some((row, feature, v)) => Err(Error::Unsupported {
                model: model.to_string(),
                what: format!(
                    "negative value {v} at row {}, feature {feature} (features must be counts >= 0)",
                    row + 1
                ),
            }),
            None => Ok(()),
        }
    }
}

/// `sums[j] += w_i map(x_ij)` over the entries of `rows`, in row order (any storage).
fn add_rows(
    sums: &mut [f64],
    x: &impl RowAccess,
    rows: &[usize],
    weight: impl Fn(usize) -> f64,
    map: impl Fn(f64) -> f64,
) {
    for &i in rows {
        let w = weight(i);
        x.for_each_in_row(i, |j, v| sums[j] += w * map(v));
    }
}

/// Rows per group of the CSR pass (about 20 KiB of a typical text matrix).
const GROUP: usize = 16;

/// `sums[j] += w_i map(x_ij)` over the stored entries of `rows`, in row order (so every sum
/// adds its terms in the order of the dense path).
///
/// The rows of one class lie apart in memory, so the hardware prefetcher does not follow
/// them and each row would wait for its loads one cache line at a time. Rows are taken in
/// groups: a first loop reads one value per cache line of the group (independent loads,
/// all in flight at once), then the group is added from cache.
fn add_csr_rows(
    sums: &mut [f64],
    x: &CsrMatrix,
    rows: &[usize],
    weight: impl Fn(usize) -> f64,
    map: impl Fn(f64) -> f64,
) {
    let (indptr, indices, data) = (x.indptr(), x.indices(), x.data());
    for group in rows.chunks(GROUP) {
        let mut touched = 0u64;
        for &i in group {
            let (a, b) = (indptr[i], indptr[i + 1]);
            // 16 indices or 8 values per 64-byte line
            for p in (a..b).step_by(16) {
                touched ^= u64::from(indices[p]);
            }
            for p in (a..b).step_by(8) {
                touched ^= data[p].to_bits();
            }
        }
        std::hint::black_box(touched);
        for &i in group {
            let (a, b) = (indptr[i], indptr[i + 1]);
            let w = weight(i);
            for (&j, &v) in indices[a..b].iter().zip(&data[a..b]) {
                sums[j as usize] += w * map(v);
            }
        }
    }
}

/// Class counts and per-class feature sums, the statistics of MultinomialNB, ComplementNB
/// and BernoulliNB. `update` adds a batch, `merge` adds another part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeatureCounts {
    /// Number of features.
    pub n_features: usize,
    /// How values are read.
    pub event: EventModel,
    /// Classes and their weighted counts `N_c`.
    pub classes: ClassCounts,
    /// `N_cj`, class-major: `feature_count[c][j]`.
    pub feature_count: Vec<Vec<f64>>,
}

impl FeatureCounts {
    /// Empty statistics.
    pub fn new(n_features: usize, event: EventModel) -> Self {
        FeatureCounts {
            n_features,
            event,
            classes: ClassCounts::default(),
            feature_count: Vec::new(),
        }
    }

    /// Adds the rows of `batch` (its classes are unioned into ours by label).
    pub fn update(&mut self, batch: &Dataset, model: &str) -> Result<()> {
        check_batch(self.n_features, batch.n_features())?;
        self.event.check(batch.x(), "X", model)?;
        let inc = self.classes.absorb_rows(
            batch.classes(),
            &mut self.feature_count,
            vec![0.0; self.n_features],
        );
        let n = self.classes.len();
        let map = self.event.map();
        // the rows of each class of the batch, in row order: one class's sums stay in cache
        // while its rows stream by, and each sum keeps the row order
        let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); batch.classes().len()];
        for (i, &t) in batch.targets().iter().enumerate() {
            rows_of[t].push(i);
        }
        let mut batch_class = vec![None; n];
        for (k, &c) in inc.iter().enumerate() {
            batch_class[c] = Some(k);
        }
        let weight = |i: usize| batch.weight(i);
        for (c, sums) in self.feature_count.iter_mut().enumerate() {
            let Some(k) = batch_class[c] else { continue };
            let rows = &rows_of[k];
            for &i in rows {
                self.classes.count[c] += weight(i);
            }
            match batch.x() {
                Features::Sparse(s) => add_csr_rows(sums, s, rows, weight, map),
                Features::Dense(a) => add_rows(sums, a, rows, weight, map),
                Features::DenseF32(a) => add_rows(sums, a, rows, weight, map),
                Features::SparseView(s) => add_rows(sums, s, rows, weight, map),
            }
        }
        Ok(())
    }

    /// Adds the statistics of another part (same features and event model).
    pub fn merge(&mut self, other: &Self) -> Result<()> {
        check_batch(self.n_features, other.n_features)?;
        if self.event != other.event {
            return Err(Error::data(format!(
                "cannot merge statistics of different event models ({:?} and {:?})",
                self.event, other.event
            )));
        }
        self.classes.merge_rows(
            &other.classes,
            &mut self.feature_count,
            &other.feature_count,
            vec![0.0; self.n_features],
            |a, b| a.iter_mut().zip(b).for_each(|(x, y)| *x += y),
        );
        Ok(())
    }
}

/// What a count model computes from [`FeatureCounts`]: MultinomialNB, BernoulliNB and
/// ComplementNB implement it; [`CountNBModel`] does the rest once for all three.
pub trait CountParams:
    Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The model's name in messages, e.g. `"MultinomialNB"`.
    const NAME: &'static str;
    /// Its registry entry ([`NaiveBayesParams::INFO`]).
    const INFO: &'static KindInfo;
    /// The name of its model in model files ([`NaiveBayesParams::BODY`]).
    const BODY: &'static str;
    /// How feature values are read.
    fn event(&self) -> EventModel;
    /// Checks the params.
    fn validate(&self) -> Result<()>;
    /// `(class_log_prior, feature_log_prob[c][j], linear joint log-likelihood)`.
    fn tables(&self, stats: &FeatureCounts) -> Result<(Vec<f64>, Vec<Vec<f64>>, LinearScore)>;
    /// Class-conditional probabilities `P(x_j | c)` scored by `top_features`.
    fn conditional(&self, stats: &FeatureCounts, feature_log_prob: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let _ = stats;
        feature_log_prob
            .iter()
            .map(|r| r.iter().map(|v| v.exp()).collect())
            .collect()
    }
}

impl Statistics for FeatureCounts {
    fn n_features(&self) -> usize {
        self.n_features
    }
    fn class_counts(&self) -> &ClassCounts {
        &self.classes
    }
    fn add_batch(&mut self, batch: &Dataset, model: &str) -> Result<()> {
        self.update(batch, model)
    }
    fn add_part(&mut self, other: &Self) -> Result<()> {
        self.merge(other)
    }
    fn validate(&self) -> Result<()> {
        self.classes
            .validate("feature_count", &self.feature_count)?;
        self.feature_count
            .iter()
            .try_for_each(|row| check_values("feature_count", row, self.n_features, true))
    }
}

/// A fitted count model (MultinomialNB, BernoulliNB or ComplementNB).
pub type CountNBModel<P> = FittedNB<P>;

/// The tables of a count model: `feature_log_prob[c][j]` and the linear joint
/// log-likelihood.
#[derive(Clone, Debug, PartialEq)]
pub struct CountTables {
    feature_log_prob: Vec<Vec<f64>>,
    score: LinearScore,
}

impl<P: CountParams> NaiveBayesParams for P {
    const NAME: &'static str = <P as CountParams>::NAME;
    const INFO: &'static KindInfo = <P as CountParams>::INFO;
    const BODY: &'static str = <P as CountParams>::BODY;
    type Stats = FeatureCounts;
    type Tables = CountTables;
    fn validate(&self) -> Result<()> {
        CountParams::validate(self)
    }
    fn empty_statistics(&self, n_features: usize) -> FeatureCounts {
        FeatureCounts::new(n_features, self.event())
    }
    fn check_statistics(&self, stats: &FeatureCounts) -> Result<()> {
        if stats.event == self.event() {
            return Ok(());
        }
        Err(Error::data(format!(
            "{} needs statistics of event model {:?}, not {:?}",
            <P as CountParams>::NAME,
            self.event(),
            stats.event
        )))
    }
    fn tables(&self, stats: &FeatureCounts) -> Result<(Vec<f64>, CountTables)> {
        let (class_log_prior, feature_log_prob, score) = CountParams::tables(self, stats)?;
        let tables = CountTables {
            feature_log_prob,
            score,
        };
        Ok((class_log_prior, tables))
    }
    fn joint_log_likelihood(model: &FittedNB<P>, x: &Features) -> Result<JointLogLikelihood> {
        let n_features = model.stats.n_features;
        if x.n_cols() != n_features {
            x.check_predict_input(n_features)?;
        }
        let event = model.params.event();
        event.check(x, "X at predict", <P as CountParams>::NAME)?;
        let map = event.map();
        Ok(with_rows!(x, |m| model.tables.score.score(m, map)))
    }
    /// The `k` features with the largest evidence per class (see the module doc).
    fn top_features(model: &FittedNB<P>, k: usize) -> Vec<Vec<(usize, f64)>> {
        let p = model
            .params
            .conditional(&model.stats, &model.tables.feature_log_prob);
        explain::top_k(&explain::evidence(&p), k, false)
    }
}

impl<P: CountParams> FittedNB<P> {
    /// The fitted per-class feature weights, class-major (scikit-learn's `feature_log_prob_`).
    pub fn feature_log_prob(&self) -> &[Vec<f64>] {
        &self.tables.feature_log_prob
    }
}

/// `ln(N + alpha)`, read from a table for small whole counts `N` (most counts of text
/// data) and computed otherwise; both give the same bits.
pub(crate) struct SmoothedLn {
    alpha: f64,
    table: Vec<f64>,
}

impl SmoothedLn {
    /// Counts `0..SIZE` are looked up.
    const SIZE: usize = 256;

    pub(crate) fn new(alpha: f64) -> Self {
        let table = (0..Self::SIZE).map(|k| (k as f64 + alpha).ln()).collect();
        SmoothedLn { alpha, table }
    }

    /// `ln(n + alpha)`.
    #[inline]
    pub(crate) fn of(&self, n: f64) -> f64 {
        // `as` saturates (NaN -> 0), so the equality test admits only whole counts in range
        let k = n as usize;
        match self.table.get(k) {
            Some(&l) if k as f64 == n => l,
            _ => (n + self.alpha).ln(),
        }
    }
}

/// `ln(num_j / den) = ln num_j - ln den` for every `j`, given `ln num_j`, with the
/// conventions of the module doc: `ln 0 = -inf`, and a `0 / 0` distribution (no data and
/// `alpha = 0`) is uniform over `k` outcomes.
pub(crate) fn log_ratios(mut ln_num: Vec<f64>, den: f64, k: usize) -> Vec<f64> {
    if den > 0.0 {
        let lden = den.ln();
        ln_num.iter_mut().for_each(|l| *l -= lden);
    } else {
        ln_num.fill(-(k as f64).ln());
    }
    ln_num
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{CsrMatrix, Label};
    use ndarray::{array, Array2};

    #[test]
    fn dense_and_sparse_give_the_same_counts() {
        let x = array![[1.0, 0.0, 2.0], [0.0, 3.0, 0.0], [4.0, 0.0, 0.0]];
        let y: Vec<Label> = vec!["a".into(), "b".into(), "a".into()];
        let d = Dataset::new(x.clone().into(), &y).unwrap();
        let s = Dataset::new(CsrMatrix::from_dense(x.view()).into(), &y).unwrap();
        let mut a = FeatureCounts::new(3, EventModel::Counts);
        let mut b = FeatureCounts::new(3, EventModel::Counts);
        a.update(&d, "MultinomialNB").unwrap();
        b.update(&s, "MultinomialNB").unwrap();
        assert_eq!(a, b);
        assert_eq!(
            a.feature_count,
            vec![vec![5.0, 0.0, 2.0], vec![0.0, 3.0, 0.0]]
        );
        assert_eq!(a.classes.count, vec![2.0, 1.0]);
    }

    #[test]
    fn weighted_dense_and_sparse_sums_agree_to_the_bit() {
        // several row groups per class, fractional weights and values: the CSR pass must
        // add every sum in the same order as the dense path
        let mut rng = crate::rng::Rng::new(7);
        let (n, f) = (200, 9);
        let x = Array2::from_shape_fn((n, f), |_| {
            if rng.next_f64() < 0.6 {
                0.0
            } else {
                rng.next_f64() * 3.0
            }
        });
        let y: Vec<Label> = (0..n).map(|_| Label::Int(rng.below(3) as i64)).collect();
        let w: Vec<f64> = (0..n).map(|_| 0.1 + rng.next_f64()).collect();
        let d = Dataset::new(x.clone().into(), &y)
            .unwrap()
            .with_weights(w.clone())
            .unwrap();
        let s = Dataset::new(CsrMatrix::from_dense(x.view()).into(), &y)
            .unwrap()
            .with_weights(w)
            .unwrap();
        for event in [
            EventModel::Counts,
            EventModel::Binary {
                binarize: Some(1.0),
            },
        ] {
            let mut a = FeatureCounts::new(f, event);
            let mut b = FeatureCounts::new(f, event);
            a.update(&d, "m").unwrap();
            b.update(&s, "m").unwrap();
            assert_eq!(a, b);
            assert!(a.feature_count.iter().flatten().any(|v| v.fract() != 0.0));
        }
    }

    #[test]
    fn negative_count_names_row_and_feature() {
        let d = Dataset::new(
            array![[1.0, 0.0], [0.0, -2.0]].into(),
            &[1.into(), 2.into()],
        )
        .unwrap();
        let e = FeatureCounts::new(2, EventModel::Counts)
            .update(&d, "MultinomialNB")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("MultinomialNB") && e.contains("row 2, feature 1"),
            "{e}"
        );
    }

    #[test]
    fn merge_with_a_missing_class() {
        let d1 = Dataset::new(array![[1.0], [2.0]].into(), &["a".into(), "c".into()]).unwrap();
        let d2 = Dataset::new(array![[5.0]].into(), &["b".into()]).unwrap();
        let mut a = FeatureCounts::new(1, EventModel::Counts);
        a.update(&d1, "m").unwrap();
        let mut b = FeatureCounts::new(1, EventModel::Counts);
        b.update(&d2, "m").unwrap();
        a.merge(&b).unwrap();
        assert_eq!(
            a.classes.classes,
            vec![Label::from("a"), "b".into(), "c".into()]
        );
        assert_eq!(a.feature_count, vec![vec![1.0], vec![5.0], vec![2.0]]);
    }

    #[test]
    fn log_ratio_conventions() {
        assert_eq!(
            log_ratios(vec![f64::NEG_INFINITY], 2.0, 3),
            vec![f64::NEG_INFINITY]
        );
        assert_eq!(log_ratios(vec![0.0], 0.0, 4), vec![-(4f64.ln())]);
    }

    #[test]
    fn smoothed_ln_table_gives_the_same_bits() {
        for alpha in [0.0, 1e-10, 0.5, 1.0, 3.7] {
            let ln = SmoothedLn::new(alpha);
            for n in [0.0, -0.0, 1.0, 2.0, 2.5, 255.0, 256.0, 1e6, 1e300, f64::NAN] {
                let (a, b) = (ln.of(n), (n + alpha).ln());
                assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "{n} {alpha}"
                );
            }
        }
    }
}
