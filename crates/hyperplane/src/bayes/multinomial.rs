//! Multinomial Naive Bayes: the multinomial event model over counts (words in a
//! document, symbols of any sequence over a finite alphabet).
//!
//! With `N_cj` the weighted count of feature `j` in class `c` and `n` features:
//!
//! ```text
//! P(j | c)   = (N_cj + alpha) / (sum_j' N_cj' + alpha * n)
//! jll_c(x)   = log P(c) + sum_j x_j log P(j | c)
//! ```
//!
//! (the multinomial coefficient is the same for every class and is left out).

use crate::bayes::counts::{
    log_ratios, CountNBModel, CountParams, EventModel, FeatureCounts, SmoothedLn,
};
use crate::bayes::likelihood::{split, LinearScore};
use crate::bayes::model::naive_bayes_params;
use crate::bayes::prior::{check_alpha, Priors};
use crate::error::Result;
use crate::estimator::KindInfo;

naive_bayes_params! {
    /// Params of multinomial Naive Bayes.
    ///
    /// ```
    /// use hyperplane::bayes::MultinomialNB;
    /// let nb = MultinomialNB::default().alpha(0.5);
    /// assert_eq!(nb.alpha, 0.5);
    /// ```
    pub struct MultinomialNB as "multinomial-nb" {
        /// Lidstone smoothing strength (1 = Laplace, 0 = maximum likelihood)
        pub alpha: f64 = "1", non_negative;
        /// class prior `P(y)`: `fitted` (the class frequencies), `uniform`, or given numbers
        /// summing to 1 (`0.3,0.7`)
        pub priors: Priors = "fitted", "`fitted`, `uniform`, or one probability per class";
    }
}

/// A fitted multinomial Naive Bayes model.
pub type MultinomialNBModel = CountNBModel<MultinomialNB>;

impl CountParams for MultinomialNB {
    const NAME: &'static str = "MultinomialNB";
    const INFO: &'static KindInfo = &KindInfo::classifier(
        Self::KIND,
        super::GROUP,
        "multinomial event model: counts of words or symbols",
    )
    .reading_text_counts();
    const BODY: &'static str = "Multinomial";
    fn event(&self) -> EventModel {
        EventModel::Counts
    }
    fn validate(&self) -> Result<()> {
        check_alpha(self.alpha)?;
        self.priors.validate()
    }
    fn tables(&self, stats: &FeatureCounts) -> Result<(Vec<f64>, Vec<Vec<f64>>, LinearScore)> {
        let prior = self.priors.log_prior(&stats.classes.count)?;
        let n = stats.n_features;
        let ln = SmoothedLn::new(self.alpha);
        // one pass per class: `ln(N_cj + alpha)` and the denominator, then `- ln(den)`
        let flp: Vec<Vec<f64>> = stats
            .feature_count
            .iter()
            .map(|row| {
                let mut den = 0.0;
                let ln_num = row
                    .iter()
                    .map(|&v| {
                        den += v + self.alpha;
                        ln.of(v)
                    })
                    .collect();
                log_ratios(ln_num, den, n)
            })
            .collect();
        let (bk, bf) = prior.iter().map(|&p| split(p)).unzip();
        let score = LinearScore::new(bk, bf, &flp);
        Ok((prior, flp, score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bayes::properties::irbook;
    use crate::data::{CsrMatrix, Features, Label};
    use crate::estimator::{Classifier, Fit};
    use crate::param::Params;
    use ndarray::array;

    #[test]
    fn irbook_example() {
        let m = MultinomialNB::default().fit(&irbook()).unwrap();
        let t: Features = array![[3.0, 0.0, 0.0, 0.0, 1.0, 1.0]].into();
        let p = m.predict_proba(&t).unwrap();
        assert!((p[[0, 0]] - 0.31024).abs() < 5e-6, "{p}");
        assert!((p[[0, 1]] - 0.68976).abs() < 5e-6, "{p}");
        // P(Chinese | yes) = 6/14 = 3/7, as in the book.
        assert!((m.feature_log_prob()[1][0] - (3.0f64 / 7.0).ln()).abs() < 1e-15);
        assert_eq!(m.predict(&t).unwrap(), vec![Label::from("yes")]);
    }

    #[test]
    fn alpha_zero_never_gives_nan() {
        let m = MultinomialNB::default().alpha(0.0).fit(&irbook()).unwrap();
        // "Tokyo" is impossible under yes, "Beijing" impossible under no: both classes have
        // one impossible event; the finite parts decide.
        let t: Features = array![
            [1.0f64, 1.0, 0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        ]
        .into();
        let p = m.predict_proba(&t).unwrap();
        assert!(p.iter().all(|v| v.is_finite()), "{p}");
        for r in p.rows() {
            assert!((r.sum() - 1.0).abs() < 1e-12);
        }
        // a row with only "Tokyo": impossible under yes, possible under no.
        let t: Features = array![[0.0, 0.0, 0.0, 0.0, 2.0, 0.0]].into();
        assert_eq!(m.predict_proba(&t).unwrap().row(0).to_vec(), vec![1.0, 0.0]);
        let d = m.decision_function(&t).unwrap();
        assert_eq!(d[[0, 1]], f64::NEG_INFINITY);
    }

    #[test]
    fn negative_counts_are_rejected_at_predict() {
        let m = MultinomialNB::default().fit(&irbook()).unwrap();
        let t: Features = CsrMatrix::from_rows(6, &[vec![(3, -1.0)]]).unwrap().into();
        let e = m.predict(&t).unwrap_err().to_string();
        assert!(e.contains("row 1, feature 3"), "{e}");
        let e = m.predict(&array![[1.0]].into()).unwrap_err().to_string();
        assert!(e.contains("6") && e.contains("1"), "{e}");
    }

    #[test]
    fn set_param_by_name() {
        let mut p = MultinomialNB::default();
        p.set_param("alpha", "0.25").unwrap();
        p.set_param("priors", "uniform").unwrap();
        assert_eq!(
            p,
            MultinomialNB::default().alpha(0.25).priors(Priors::Uniform)
        );
        assert!(p.set_param("beta", "1").is_err());
        assert!(p.set_param("alpha", "x").is_err());
        assert!(MultinomialNB::default().alpha(-1.0).fit(&irbook()).is_err());
        assert!(MultinomialNB::default()
            .alpha(f64::NAN)
            .fit(&irbook())
            .is_err());
    }

    #[test]
    fn top_features_separate_the_classes() {
        let m = MultinomialNB::default().fit(&irbook()).unwrap();
        let top = m.top_features(2);
        // for "no": Tokyo and Japan (features 4, 5); for "yes": Chinese first.
        let no: Vec<usize> = top[0].iter().map(|t| t.0).collect();
        assert_eq!(no, vec![4, 5]);
        assert_eq!(top[1][0].0, 0);
    }
}
