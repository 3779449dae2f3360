//! Categorical Naive Bayes: each feature takes one of `k_j` categories `0..k_j-1`
//! (colour, country, a continuous value discretised into bins).
//!
//! With `N_c` the weight of class `c` and `N_cjv` the weight of its rows where `x_j = v`:
//!
//! ```text
//! P(x_j = v | c) = (N_cjv + alpha) / (N_c + alpha * k_j)
//! jll_c(x)       = log P(c) + sum_j log P(x_j | c)
//! ```
//!
//! `k_j` is the largest category seen in training plus 1 (at least `min_categories`).
//! A category never seen with a class gets `alpha / (N_c + alpha k_j)`; so does a value
//! `>= k_j` at predict (scikit-learn raises an error there): the smoothing mass of an
//! unseen category, the same for every unseen value. With `alpha = 0` such a value is an
//! impossible event (see the posterior rule in the module doc).
//!
//! Values must be non-negative integers (stored as `f64`); in sparse input the implicit
//! zeros are category 0, whose counts are derived as `N_c - sum_{v >= 1} N_cjv`.

use ndarray::Array2;
use serde::{Deserialize, Serialize};

use crate::bayes::counts::{log_ratios, SmoothedLn};
use crate::bayes::explain;
use crate::bayes::likelihood::{split, split_sum, JointLogLikelihood};
use crate::bayes::model::{naive_bayes_params, FittedNB, NaiveBayesParams, Statistics};
use crate::bayes::prior::{check_alpha, check_batch, ClassCounts, Priors};
use crate::bayes::validate::{bad_field, check_values};
use crate::data::{Dataset, Features, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::KindInfo;
use crate::with_rows;

/// The largest category index accepted in training (memory is `O(k)` per class and feature).
pub const MAX_CATEGORY: usize = 1 << 20;

naive_bayes_params! {
    /// Params of categorical Naive Bayes.
    pub struct CategoricalNB as "categorical-nb" {
        /// Lidstone smoothing strength (1 = Laplace, 0 = maximum likelihood)
        pub alpha: f64 = "1", non_negative;
        /// every feature has at least this many categories `k_j`
        pub min_categories: usize = "0", "`0..=2^20`";
        /// class prior `P(y)`: `fitted` (the class frequencies), `uniform`, or given numbers
        /// summing to 1 (`0.3,0.7`)
        pub priors: Priors = "fitted", "`fitted`, `uniform`, or one probability per class";
    }
}

const NAME: &str = "CategoricalNB";

/// The category of value `v` at `(row, feature)`: a non-negative integer.
fn category(v: f64, row: usize, feature: usize) -> Result<usize> {
    if v >= 0.0 && v.fract() == 0.0 {
        Ok(if v >= usize::MAX as f64 {
            usize::MAX
        } else {
            v as usize
        })
    } else {
        Err(Error::Unsupported {
            model: NAME.into(),
            what: format!(
                "value {v} at row {}, feature {feature} (categories are integers 0, 1, 2, ...)",
                row + 1
            ),
        })
    }
}

/// Checks every stored value is a category, and at most `max` when given.
fn check_categories(x: &Features, max: Option<usize>) -> Result<()> {
    for i in 0..x.n_rows() {
        let mut res = Ok(());
        with_rows!(x, |m| m.for_each_in_row(i, |j, v| {
            if res.is_ok() {
                res = category(v, i, j).and_then(|c| match max {
                    Some(max) if c > max => Err(Error::Unsupported {
                        model: NAME.into(),
                        what: format!(
                            "category {c} at row {}, feature {j} (at most {max} in training)",
                            i + 1
                        ),
                    }),
                    _ => Ok(()),
                });
            }
        }));
        res?;
    }
    Ok(())
}

/// Checks `n_classes x sum_j k_j` numbers (`what`, per class and category `k_j` of each
/// feature) against the [memory budget](crate::memory).
fn categories_fit(n_classes: usize, k: &[usize], what: &str) -> Result<()> {
    let per_class = k.iter().try_fold(0u64, |acc, &k| acc.checked_add(k as u64));
    crate::memory::check_bytes(
        || {
            format!(
                "{NAME}'s {what}: {n_classes} classes x {} features, up to {} categories each",
                k.len(),
                k.iter().max().unwrap_or(&0)
            )
        },
        per_class.and_then(|n| n.checked_mul(n_classes.max(1) as u64)?.checked_mul(8)),
    )
}

/// Sufficient statistics of categorical Naive Bayes: class counts `N_c` and
/// `counts[c][j][v] = N_cjv` for categories `v >= 1` (`v = 0` is derived).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CategoryCounts {
    /// Number of features.
    pub n_features: usize,
    /// Classes and their weighted counts `N_c`.
    pub classes: ClassCounts,
    /// `N_cjv` for `v >= 1`; entry 0 of each list is unused (0).
    pub counts: Vec<Vec<Vec<f64>>>,
}

impl CategoryCounts {
    /// Empty statistics.
    pub fn new(n_features: usize) -> Self {
        CategoryCounts {
            n_features,
            classes: ClassCounts::default(),
            counts: Vec::new(),
        }
    }

    /// Adds the rows of `batch`.
    pub fn update(&mut self, batch: &Dataset) -> Result<()> {
        check_batch(self.n_features, batch.n_features())?;
        batch.x().check_finite("X")?;
        check_categories(batch.x(), Some(MAX_CATEGORY))?;
        self.check_memory(batch)?;
        let inc = self.classes.absorb_rows(
            batch.classes(),
            &mut self.counts,
            vec![vec![0.0]; self.n_features],
        );
        let targets = batch.targets();
        with_rows!(batch.x(), |m| {
            for i in 0..m.n_rows() {
                let c = inc[targets[i]];
                let w = batch.weight(i);
                self.classes.count[c] += w;
                let rows = &mut self.counts[c];
                m.for_each_in_row(i, |j, v| {
                    let v = v as usize;
                    if v > 0 {
                        let r = &mut rows[j];
                        if r.len() <= v {
                            r.resize(v + 1, 0.0);
                        }
                        r[v] += w;
                    }
                });
            }
        });
        Ok(())
    }

    /// Checks the counts after adding `batch` against the [memory budget](crate::memory):
    /// per class (an upper bound: the classes seen and the batch's), one count per category
    /// up to the largest of each feature, `sum_j k_j` numbers.
    fn check_memory(&self, batch: &Dataset) -> Result<()> {
        let mut k: Vec<usize> = match self.counts.first() {
            Some(rows) => rows.iter().map(Vec::len).collect(),
            None => vec![1; self.n_features],
        };
        with_rows!(batch.x(), |m| {
            for i in 0..m.n_rows() {
                // values were checked to be categories up to MAX_CATEGORY
                m.for_each_in_row(i, |j, v| k[j] = k[j].max(v as usize + 1));
            }
        });
        let classes = self.counts.len() + batch.classes().len();
        categories_fit(classes, &k, "category counts")
    }

    /// Adds the statistics of another part.
    pub fn merge(&mut self, other: &Self) -> Result<()> {
        check_batch(self.n_features, other.n_features)?;
        self.classes.merge_rows(
            &other.classes,
            &mut self.counts,
            &other.counts,
            vec![vec![0.0]; self.n_features],
            |rows, other_rows| {
                for (a, b) in rows.iter_mut().zip(other_rows) {
                    if a.len() < b.len() {
                        a.resize(b.len(), 0.0);
                    }
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                }
            },
        );
        Ok(())
    }
}

impl Statistics for CategoryCounts {
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
        self.classes.validate("counts", &self.counts)?;
        for per_feature in &self.counts {
            if per_feature.len() != self.n_features {
                return Err(bad_field(
                    "counts",
                    format!(
                        "has {} features, not n_features = {}",
                        per_feature.len(),
                        self.n_features
                    ),
                ));
            }
            for categories in per_feature {
                if categories.is_empty() || categories.len() > MAX_CATEGORY + 1 {
                    return Err(bad_field(
                        "counts",
                        format!(
                            "must list 1 to {} category counts per feature",
                            MAX_CATEGORY + 1
                        ),
                    ));
                }
                check_values("counts", categories, categories.len(), true)?;
            }
        }
        Ok(())
    }
}

/// The tables of a categorical model.
#[derive(Clone, Debug, PartialEq)]
pub struct CategoricalTables {
    n_categories: Vec<usize>,
    /// `[j][c][v] = log P(x_j = v | c)`.
    feature_log_prob: Vec<Vec<Vec<f64>>>,
    /// `[j][c] = log P(x_j = unseen | c)`.
    unseen_log_prob: Vec<Vec<f64>>,
    /// `log P(c) + sum_j log P(x_j = 0 | c)`, split.
    bias_impossible: Vec<f64>,
    bias_finite: Vec<f64>,
}

impl NaiveBayesParams for CategoricalNB {
    const NAME: &'static str = NAME;
    const INFO: &'static KindInfo = &KindInfo::classifier(
        Self::KIND,
        super::GROUP,
        "categorical features x_j in {1..k_j}; numeric columns binned (n_bins)",
    )
    .with_categorical_input();
    const BODY: &'static str = "Categorical";
    type Stats = CategoryCounts;
    type Tables = CategoricalTables;
    fn empty_statistics(&self, n_features: usize) -> CategoryCounts {
        CategoryCounts::new(n_features)
    }
    fn validate(&self) -> Result<()> {
        check_alpha(self.alpha)?;
        if self.min_categories > MAX_CATEGORY {
            return Err(Error::param(
                "min_categories",
                self.min_categories,
                format!("must be at most {MAX_CATEGORY}"),
            ));
        }
        self.priors.validate()
    }

    fn tables(&self, stats: &CategoryCounts) -> Result<(Vec<f64>, CategoricalTables)> {
        let class_log_prior = self.priors.log_prior(&stats.classes.count)?;
        let n_categories: Vec<usize> = (0..stats.n_features)
            .map(|j| {
                let seen = stats.counts.iter().map(|r| r[j].len()).max().unwrap_or(1);
                seen.max(self.min_categories).max(1)
            })
            .collect();
        categories_fit(
            stats.counts.len(),
            &n_categories,
            "probability tables (min_categories sets k_j from below)",
        )?;
        let mut flp = Vec::with_capacity(stats.n_features);
        let mut unseen = Vec::with_capacity(stats.n_features);
        let ln = SmoothedLn::new(self.alpha);
        for (j, &k) in n_categories.iter().enumerate() {
            let mut table = Vec::with_capacity(stats.counts.len());
            let mut unseen_j = Vec::with_capacity(stats.counts.len());
            for (c, rows) in stats.counts.iter().enumerate() {
                let r = &rows[j];
                let mut count = vec![0.0; k];
                count[..r.len()].copy_from_slice(r);
                count[0] = (stats.classes.count[c] - r[1..].iter().sum::<f64>()).max(0.0);
                let den: f64 = count.iter().map(|v| v + self.alpha).sum();
                // the last entry is an unseen category (count 0)
                let ln_num = count.iter().chain([&0.0]).map(|&v| ln.of(v)).collect();
                let mut lp = log_ratios(ln_num, den, k);
                unseen_j.push(lp.pop().unwrap_or(f64::NEG_INFINITY));
                table.push(lp);
            }
            flp.push(table);
            unseen.push(unseen_j);
        }
        let nc = class_log_prior.len();
        let (mut bias_k, mut bias_f): (Vec<f64>, Vec<f64>) =
            class_log_prior.iter().map(|&p| split(p)).unzip();
        for c in 0..nc {
            let (k, f) = split_sum(flp.iter().map(|t: &Vec<Vec<f64>>| t[c][0]));
            bias_k[c] += k;
            bias_f[c] += f;
        }
        let tables = CategoricalTables {
            n_categories,
            feature_log_prob: flp,
            unseen_log_prob: unseen,
            bias_impossible: bias_k,
            bias_finite: bias_f,
        };
        Ok((class_log_prior, tables))
    }

    /// The `k` features with the largest evidence per class; a feature's score is the
    /// largest evidence of its categories,
    /// `max_v P(x_j=v|c) [ln P(x_j=v|c) - ln mean_{c'!=c} P(x_j=v|c')]`.
    fn top_features(model: &CategoricalNBModel, k: usize) -> Vec<Vec<(usize, f64)>> {
        let t = &model.tables;
        let nc = model.class_log_prior.len();
        let mut scores = vec![vec![f64::NEG_INFINITY; t.n_categories.len()]; nc];
        for (j, table) in t.feature_log_prob.iter().enumerate() {
            let p: Vec<Vec<f64>> = table
                .iter()
                .map(|r| r.iter().map(|v| v.exp()).collect())
                .collect();
            for (c, odds) in explain::evidence(&p).into_iter().enumerate() {
                scores[c][j] = odds.into_iter().fold(f64::NEG_INFINITY, f64::max);
            }
        }
        if nc < 2 {
            scores.iter_mut().for_each(Vec::clear);
        }
        explain::top_k(&scores, k, false)
    }

    fn joint_log_likelihood(
        model: &CategoricalNBModel,
        x: &Features,
    ) -> Result<JointLogLikelihood> {
        let t = &model.tables;
        x.check_predict_input(t.n_categories.len())?;
        check_categories(x, None)?;
        let nc = model.class_log_prior.len();
        let n = x.n_rows();
        let mut finite = Array2::zeros((n, nc));
        let mut impossible = Array2::zeros((n, nc));
        for i in 0..n {
            let mut f = finite.row_mut(i);
            let mut k = impossible.row_mut(i);
            for c in 0..nc {
                f[c] = t.bias_finite[c];
                k[c] = t.bias_impossible[c];
            }
            with_rows!(x, |m| m.for_each_in_row(i, |j, v| {
                let v = v as usize;
                if v == 0 {
                    return;
                }
                let table = &t.feature_log_prob[j];
                for c in 0..nc {
                    let lp = table[c].get(v).copied().unwrap_or(t.unseen_log_prob[j][c]);
                    let (k1, f1) = split(lp);
                    let (k0, f0) = split(table[c][0]);
                    f[c] += f1 - f0;
                    k[c] += k1 - k0;
                }
            }));
        }
        Ok(JointLogLikelihood { impossible, finite })
    }
}

/// A fitted categorical Naive Bayes model.
pub type CategoricalNBModel = FittedNB<CategoricalNB>;

impl CategoricalNBModel {
    /// `k_j` per feature.
    pub fn n_categories(&self) -> &[usize] {
        &self.tables.n_categories
    }
    /// `feature_log_prob()[j][c][v] = log P(x_j = v | c)` (scikit-learn's layout).
    pub fn feature_log_prob(&self) -> &[Vec<Vec<f64>>] {
        &self.tables.feature_log_prob
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::CsrMatrix;
    use crate::estimator::{Classifier, Fit};
    use ndarray::array;

    fn data() -> Dataset<'static> {
        let x = array![[0.0, 2.0], [1.0, 2.0], [1.0, 0.0], [2.0, 1.0]];
        Dataset::new(x.into(), &["a".into(), "a".into(), "b".into(), "b".into()]).unwrap()
    }

    #[test]
    fn probabilities_follow_the_formula() {
        let m = CategoricalNB::default().fit(&data()).unwrap();
        assert_eq!(m.n_categories(), &[3, 3]);
        // P(x_0 = 1 | a) = (1 + 1) / (2 + 3)
        assert!((m.feature_log_prob()[0][0][1] - 0.4f64.ln()).abs() < 1e-15);
        // P(x_0 = 0 | b) = (0 + 1) / (2 + 3) (derived category-0 count)
        assert!((m.feature_log_prob()[0][1][0] - 0.2f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn unseen_category_at_predict_is_smoothed() {
        let m = CategoricalNB::default().fit(&data()).unwrap();
        let d = m.decision_function(&array![[7.0, 0.0]].into()).unwrap();
        let e = m.decision_function(&array![[0.0, 0.0]].into()).unwrap();
        // value 7 >= k_0 = 3: alpha / (N_c + alpha k) = 1/5, P(x_0 = 0 | a) = 2/5
        assert!((d[[0, 0]] - e[[0, 0]] - (0.2f64.ln() - 0.4f64.ln())).abs() < 1e-12);
        let z = CategoricalNB::default().alpha(0.0).fit(&data()).unwrap();
        let p = z.predict_proba(&array![[7.0, 7.0]].into()).unwrap();
        assert!(p.iter().all(|v| v.is_finite()) && (p.sum() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn non_integer_and_negative_values_are_rejected() {
        for bad in [1.5, -1.0] {
            let d = Dataset::new(array![[bad], [0.0]].into(), &[1.into(), 2.into()]).unwrap();
            let e = CategoricalNB::default().fit(&d).unwrap_err().to_string();
            assert!(e.contains("row 1, feature 0"), "{e}");
        }
        let m = CategoricalNB::default().fit(&data()).unwrap();
        assert!(m.predict(&array![[0.5, 0.0]].into()).is_err());
    }

    #[test]
    fn sparse_matches_dense_and_min_categories_applies() {
        let d = data();
        let s = Dataset::new(
            CsrMatrix::from_dense(d.x().to_dense().view()).into(),
            &d.labels(),
        )
        .unwrap();
        let p = CategoricalNB::default().min_categories(5);
        let (a, b) = (p.fit(&d).unwrap(), p.fit(&s).unwrap());
        assert_eq!(a.n_categories(), &[5, 5]);
        assert_eq!(a.feature_log_prob(), b.feature_log_prob());
    }
}
