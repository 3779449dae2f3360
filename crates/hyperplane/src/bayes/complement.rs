//! Complement Naive Bayes (Rennie et al. 2003), as scikit-learn's `ComplementNB`: each
//! class is scored by how *unlike* its complement (all other classes) the document is,
//! which is more stable than MultinomialNB when classes are unbalanced.
//!
//! With `N_cj` the weighted count of feature `j` in class `c`:
//!
//! ```text
//! C_cj   = sum_{c'} N_c'j + alpha - N_cj              (complement count)
//! l_cj   = ln( C_cj / sum_j' C_cj' )                   (complement log-probability)
//! w_cj   = -l_cj                  (norm = false)
//! w_cj   = l_cj / sum_j' l_cj'    (norm = true)
//! jll_c  = sum_j x_j w_cj         (+ log P(c) only when there is a single class)
//! ```
//!
//! With `alpha = 0` a complement count can be 0: `w = +inf` (a word never seen outside
//! `c` makes `c` certain, see the posterior rule); with `norm` the limit `alpha -> 0+` is
//! used: the `m` features with `l = -inf` share weight `1/m`, the others get 0.

use crate::bayes::counts::{CountNBModel, CountParams, EventModel, FeatureCounts};
use crate::bayes::likelihood::{split, LinearScore};
use crate::bayes::model::naive_bayes_params;
use crate::bayes::prior::{check_alpha, Priors};
use crate::error::Result;
use crate::estimator::KindInfo;

naive_bayes_params! {
    /// Params of complement Naive Bayes.
    pub struct ComplementNB as "complement-nb" {
        /// Lidstone smoothing strength of the complement counts
        pub alpha: f64 = "1", non_negative;
        /// normalise each class's weights to sum to 1 (Rennie et al.'s second step)
        pub norm: bool = "false", bool;
        /// class prior, used only when training saw a single class
        pub priors: Priors = "fitted", "`fitted`, `uniform`, or one probability per class";
    }
}

impl ComplementNB {
    fn weights(&self, complement_log: Vec<f64>) -> Vec<f64> {
        if !self.norm {
            return complement_log.into_iter().map(|v| -v).collect();
        }
        let m = complement_log.iter().filter(|v| v.is_infinite()).count();
        if m > 0 {
            let share = 1.0 / m as f64;
            return complement_log
                .iter()
                .map(|v| if v.is_infinite() { share } else { 0.0 })
                .collect();
        }
        let summed: f64 = complement_log.iter().sum();
        if summed == 0.0 {
            return vec![0.0; complement_log.len()];
        }
        complement_log.iter().map(|v| v / summed).collect()
    }
}

/// A fitted complement Naive Bayes model; `feature_log_prob()` holds the weights `w_cj`.
pub type ComplementNBModel = CountNBModel<ComplementNB>;

impl CountParams for ComplementNB {
    const NAME: &'static str = "ComplementNB";
    const INFO: &'static KindInfo = &KindInfo::classifier(
        Self::KIND,
        super::GROUP,
        "weights from the other classes' counts (Rennie et al.), for skewed text classes",
    );
    const BODY: &'static str = "Complement";
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
        let mut all = vec![0.0; n];
        for row in &stats.feature_count {
            all.iter_mut().zip(row).for_each(|(a, v)| *a += v);
        }
        let w: Vec<Vec<f64>> = stats
            .feature_count
            .iter()
            .map(|row| {
                let comp: Vec<f64> = all
                    .iter()
                    .zip(row)
                    .map(|(a, v)| (a + self.alpha) - v)
                    .collect();
                let total: f64 = comp.iter().sum();
                let logged = comp
                    .iter()
                    .map(|&c| {
                        if total > 0.0 {
                            (c / total).ln()
                        } else {
                            -(n as f64).ln()
                        }
                    })
                    .collect();
                self.weights(logged)
            })
            .collect();
        let single = prior.len() == 1;
        let (bk, bf) = prior
            .iter()
            .map(|&p| if single { split(p) } else { (0.0, 0.0) })
            .unzip();
        let score = LinearScore::new(bk, bf, &w);
        Ok((prior, w, score))
    }
    fn conditional(&self, stats: &FeatureCounts, _: &[Vec<f64>]) -> Vec<Vec<f64>> {
        stats
            .feature_count
            .iter()
            .map(|row| {
                let den: f64 = row.iter().map(|v| v + self.alpha).sum();
                row.iter()
                    .map(|v| {
                        if den > 0.0 {
                            (v + self.alpha) / den
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::estimator::{Classifier, Fit};
    use ndarray::array;

    fn data() -> Dataset<'static> {
        let x = array![[3.0, 0.0, 1.0], [2.0, 0.0, 0.0], [0.0, 4.0, 1.0]];
        Dataset::new(x.into(), &["a".into(), "a".into(), "b".into()]).unwrap()
    }

    #[test]
    fn weights_follow_the_formula() {
        let m = ComplementNB::default().fit(&data()).unwrap();
        // complement of a = b: counts [0, 4, 1] + 1 -> [1, 5, 2] / 8
        let w = &m.feature_log_prob()[0];
        assert!((w[1] + (5.0f64 / 8.0).ln()).abs() < 1e-15);
        let n = ComplementNB::default().norm(true).fit(&data()).unwrap();
        assert!((n.feature_log_prob()[0].iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn alpha_zero_is_defined_with_and_without_norm() {
        for norm in [false, true] {
            let m = ComplementNB::default()
                .alpha(0.0)
                .norm(norm)
                .fit(&data())
                .unwrap();
            let p = m
                .predict_proba(&array![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]].into())
                .unwrap();
            assert!(p.iter().all(|v| v.is_finite()), "{p}");
            assert!(p[[0, 0]] > 0.5 && p[[1, 1]] > 0.5, "{p}");
        }
    }

    #[test]
    fn single_class_has_probability_one() {
        let d = Dataset::new(array![[1.0, 2.0]].into(), &["only".into()]).unwrap();
        let m = ComplementNB::default().fit(&d).unwrap();
        assert_eq!(
            m.predict_proba(&array![[5.0, 0.0]].into()).unwrap()[[0, 0]],
            1.0
        );
    }
}
