//! Bernoulli Naive Bayes: the multi-variate Bernoulli event model. Each feature is an
//! event that happens or not (a word present in a document or not); absent features
//! count as evidence too.
//!
//! With `N_c` the weight of class `c` and `N_cj` the weight of its rows where `x_j = 1`:
//!
//! ```text
//! p_cj     = P(x_j = 1 | c) = (N_cj + alpha) / (N_c + 2 alpha)
//! jll_c(x) = log P(c) + sum_j [ x_j log p_cj + (1 - x_j) log(1 - p_cj) ]
//!          = log P(c) + sum_j log(1 - p_cj) + sum_j x_j (log p_cj - log(1 - p_cj))
//! ```
//!
//! The second form costs one multiply-add per stored entry, so sparse input stays sparse.

use crate::bayes::counts::{
    log_ratios, CountNBModel, CountParams, EventModel, FeatureCounts, SmoothedLn,
};
use crate::bayes::likelihood::{split, split_sum, LinearScore};
use crate::bayes::model::naive_bayes_params;
use crate::bayes::prior::{check_alpha, Priors};
use crate::error::{Error, Result};
use crate::estimator::KindInfo;

naive_bayes_params! {
    /// Params of Bernoulli Naive Bayes.
    pub struct BernoulliNB as "bernoulli-nb" {
        /// Lidstone smoothing strength (1 = Laplace, 0 = maximum likelihood)
        pub alpha: f64 = "1", non_negative;
        /// `x_j = 1` when the value is `> binarize`; `none`: values are already 0/1
        pub binarize: Option<f64> = "0", "finite (`>= 0` for sparse input), or `none`";
        /// class prior `P(y)`: `fitted` (the class frequencies), `uniform`, or given numbers
        /// summing to 1 (`0.3,0.7`)
        pub priors: Priors = "fitted", "`fitted`, `uniform`, or one probability per class";
    }
}

/// A fitted Bernoulli Naive Bayes model; `feature_log_prob()[c][j] = log P(x_j = 1 | c)`.
pub type BernoulliNBModel = CountNBModel<BernoulliNB>;

impl CountParams for BernoulliNB {
    const NAME: &'static str = "BernoulliNB";
    const INFO: &'static KindInfo = &KindInfo::classifier(
        Self::KIND,
        super::GROUP,
        "multi-variate Bernoulli event model: each feature present or absent",
    );
    const BODY: &'static str = "Bernoulli";
    fn event(&self) -> EventModel {
        EventModel::Binary {
            binarize: self.binarize,
        }
    }
    fn validate(&self) -> Result<()> {
        check_alpha(self.alpha)?;
        if let Some(t) = self.binarize.filter(|t| !t.is_finite()) {
            return Err(Error::param("binarize", t, "must be finite (or none)"));
        }
        self.priors.validate()
    }
    fn tables(&self, stats: &FeatureCounts) -> Result<(Vec<f64>, Vec<Vec<f64>>, LinearScore)> {
        let prior = self.priors.log_prior(&stats.classes.count)?;
        let mut flp = Vec::with_capacity(prior.len());
        let mut w = Vec::with_capacity(prior.len());
        let (mut bk, mut bf) = (Vec::new(), Vec::new());
        let ln = SmoothedLn::new(self.alpha);
        for ((row, &n_c), &p) in stats
            .feature_count
            .iter()
            .zip(&stats.classes.count)
            .zip(&prior)
        {
            let den = n_c + 2.0 * self.alpha;
            let lp = log_ratios(row.iter().map(|&v| ln.of(v)).collect(), den, 2);
            let neg: Vec<f64> = lp.iter().map(|v| (1.0 - v.exp()).ln()).collect();
            let (k, f) = split_sum(neg.iter().copied());
            let (pk, pf) = split(p);
            bk.push(k + pk);
            bf.push(pf + f);
            w.push(lp.iter().zip(&neg).map(|(a, b)| a - b).collect());
            flp.push(lp);
        }
        let score = LinearScore::new(bk, bf, &w);
        Ok((prior, flp, score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bayes::properties::irbook;
    use crate::data::{CsrMatrix, Dataset, Features};
    use crate::estimator::{Classifier, Fit};
    use crate::param::Params;
    use ndarray::array;

    #[test]
    fn irbook_example() {
        let m = BernoulliNB::default().fit(&irbook()).unwrap();
        let p = m
            .predict_proba(&array![[3.0, 0.0, 0.0, 0.0, 1.0, 1.0]].into())
            .unwrap();
        assert!((p[[0, 0]] - 0.80893).abs() < 5e-6, "{p}");
        // P(Chinese | yes) = (3 + 1) / (3 + 2) = 4/5
        assert!((m.feature_log_prob()[1][0] - 0.8f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn alpha_zero_counts_absent_and_present_impossible_events() {
        // feature 0 always on in class a, never in class b.
        let x = array![[1.0, 1.0], [1.0, 0.0], [0.0, 1.0], [0.0, 0.0]];
        let d = Dataset::new(x.into(), &["a".into(), "a".into(), "b".into(), "b".into()]).unwrap();
        let m = BernoulliNB::default().alpha(0.0).fit(&d).unwrap();
        let p = m
            .predict_proba(&array![[1.0, 0.0], [0.0, 1.0]].into())
            .unwrap();
        assert_eq!(p.row(0).to_vec(), vec![1.0, 0.0]);
        assert_eq!(p.row(1).to_vec(), vec![0.0, 1.0]);
    }

    #[test]
    fn negative_threshold_refused_on_sparse_input() {
        let x: Features = CsrMatrix::from_rows(2, &[vec![(0, 1.0)], vec![]])
            .unwrap()
            .into();
        let d = Dataset::new(x, &[1.into(), 2.into()]).unwrap();
        assert!(BernoulliNB::default().binarize(Some(-1.0)).fit(&d).is_err());
        assert!(BernoulliNB::default().binarize(None).fit(&d).is_ok());
        let mut p = BernoulliNB::default();
        p.set_param("binarize", "none").unwrap();
        assert_eq!(p.binarize, None);
    }
}
