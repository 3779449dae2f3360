//! Naive Bayes: generative classifiers that assume the features independent given the
//! class, `P(x | c) = prod_j P(x_j | c)`, and predict by Bayes' rule
//! `P(c | x) = P(c) P(x | c) / sum_c' P(c') P(x | c')`. Training is a single pass of
//! counting (a sum over rows), so they are fast, streamable and mergeable.
//!
//! # Which model for which data
//!
//! | data | model | `P(x_j \| c)` |
//! |---|---|---|
//! | word counts, any sequence over a finite alphabet | [`MultinomialNB`] | `(N_cj + alpha) / (N_c. + alpha n)` |
//! | the same, classes unbalanced | [`ComplementNB`] | complement counts, see its module |
//! | presence / absence of words or flags (absent words count) | [`BernoulliNB`] | `p_cj^x (1 - p_cj)^(1-x)`, `p_cj = (N_cj + alpha) / (N_c + 2 alpha)` |
//! | categories `0..k_j-1` (or continuous values binned) | [`CategoricalNB`] | `(N_cjv + alpha) / (N_c + alpha k_j)` |
//! | continuous measurements | [`GaussianNB`] | `N(x_j; theta_cj, sigma2_cj + eps)` |
//!
//! Every model predicts with the joint log-likelihood `jll_c(x) = log P(c) + log P(x | c)`
//! ([`Classifier::decision_function`](crate::Classifier::decision_function)) and
//! normalises it with a max-shifted log-sum-exp (`log P(c | x) = jll_c - logsumexp(jll)`),
//! so nothing underflows even with 100,000 features.
//!
//! # Smoothing (`alpha`) and zero probabilities
//!
//! `alpha` is Lidstone's smoothing strength (CS229's Laplace smoothing is `alpha = 1`): it
//! adds `alpha` pseudo-observations of every outcome. Choose it on a validation set.
//! `alpha = 0` is plain maximum likelihood: an outcome never seen with a class has
//! probability 0. Such zeros are handled explicitly, never as `NaN`:
//!
//! - `0 log 0 = 0`: a feature with value 0 contributes nothing, whatever its probability.
//! - Each score is kept as *(impossible weight, finite part)*; the impossible weight is
//!   the sum of `x_j` over the events of probability 0 (and 1 for a class prior of 0).
//! - **Rule:** the classes with the smallest impossible weight share the posterior by the
//!   softmax of their finite parts; all others get probability 0. A sample impossible
//!   under every class still gets a prediction and probabilities that sum to 1.
//! - A `0 / 0` distribution (a class with no data at all, `alpha = 0`) is uniform.
//!
//! This is the leading term of the `alpha -> 0+` limit (there `jll_c ~ impossible_c ln alpha`).
//!
//! # Training as a sum over rows
//!
//! Each model's sufficient statistics (weighted class counts `N_c`; feature sums `N_cj`,
//! category counts `N_cjv`, or means and variances) have `update(batch)` and `merge(other)`,
//! and the params' `finish(stats)` turns them into a model. Fitted models keep their
//! statistics: `partial_fit(batch)` continues training and `merge(other)` combines models
//! fitted on disjoint parts (classes are unioned by label, so a part may lack a class).
//! Sample weights multiply each row's contribution, so integer weights equal repeated rows.
//!
//! # Explaining a model
//!
//! `top_features(k)` lists per class the `k` features that most separate it from the
//! others: for the discrete models the evidence
//! `P(x_j | c) (ln P(x_j | c) - ln mean_{c' != c} P(x_j | c'))`, the feature's term in the
//! Kullback-Leibler divergence of the class from the others (log-odds weighted by how often
//! the feature occurs, so a word seen once in spam does not outrank "click"); for a spam
//! filter, the words most typical of spam against ham. For [`GaussianNB`], the
//! standardized mean difference.
//!
//! # When not to use Naive Bayes
//!
//! - Strongly dependent features (repeated or derived columns) are counted several times:
//!   the class ranking often survives, but the probabilities become overconfident. Do not
//!   use `predict_proba` as calibrated probabilities without checking.
//! - With plenty of data, discriminative models (logistic regression, linear SVMs) usually
//!   reach a lower error; Naive Bayes wins with little data and as a fast baseline.
//! - GaussianNB on skewed or multimodal features: transform or bin them (CategoricalNB).
//!
//! # scikit-learn equivalence
//!
//! | scikit-learn | hyperplane |
//! |---|---|
//! | `MultinomialNB(alpha=a, fit_prior=False)` | `MultinomialNB::default().alpha(a).priors(Priors::Uniform)` |
//! | `BernoulliNB(binarize=None)` | `BernoulliNB::default().binarize(None)` |
//! | `CategoricalNB(min_categories=k)` | `CategoricalNB::default().min_categories(k)` |
//! | `GaussianNB(priors=p, var_smoothing=v)` | `GaussianNB::default().priors(Priors::Given(p)).var_smoothing(v)` |
//! | `ComplementNB(norm=True)` | `ComplementNB::default().norm(true)` |
//! | `est.fit(X, y, sample_weight=w)` | `params.fit(&Dataset::new(x, &y)?.with_weights(w)?)` |
//! | `est.partial_fit(X, y)` | `model.partial_fit(&batch)` |
//! | `est.predict_proba(X)` / `est.predict_joint_log_proba(X)` | `model.predict_proba(&x)` / `model.decision_function(&x)` |
//! | `est.feature_log_prob_`, `est.class_log_prior_` | `model.feature_log_prob()`, `model.class_log_prior()` |

mod bernoulli;
mod categorical;
mod complement;
mod counts;
mod explain;
mod gaussian;
mod likelihood;
mod model;
mod multinomial;
mod prior;
#[cfg(test)]
mod properties;
mod validate;

pub use bernoulli::{BernoulliNB, BernoulliNBModel};
pub use categorical::{CategoricalNB, CategoricalNBModel, CategoryCounts, MAX_CATEGORY};
pub use complement::{ComplementNB, ComplementNBModel};
pub use counts::{CountNBModel, CountParams, EventModel, FeatureCounts};
pub use gaussian::{GaussianMoments, GaussianNB, GaussianNBModel, Moments};
pub use likelihood::{JointLogLikelihood, LinearScore};
pub use model::{FittedNB, NaiveBayesParams, Statistics};
pub use multinomial::{MultinomialNB, MultinomialNBModel};
pub use prior::{ClassCounts, Priors};

use crate::estimator::{Body, Family, Registration};

/// The Naive Bayes family, as the registry lists it: one line per kind.
pub const FAMILY: Family = Family {
    kinds: &[
        Registration::of::<BernoulliNB>(),
        Registration::of::<MultinomialNB>(),
        Registration::of::<CategoricalNB>(),
        Registration::of::<GaussianNB>(),
        Registration::of::<ComplementNB>(),
    ],
    model_tag: <GaussianNBModel as Body>::TAG,
};

/// The family of the Naive Bayes kinds, as the kind table groups them.
const GROUP: &str = "Naive Bayes";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Dataset, Label};
    use crate::estimator::Classifier;
    use crate::param::Params;
    use crate::pipeline::{Learner, Model};
    use ndarray::array;

    #[test]
    fn every_kind_round_trips_and_fits() {
        let d = Dataset::new(
            array![[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]].into(),
            &["a".into(), "b".into(), "a".into()],
        )
        .unwrap();
        for r in FAMILY.kinds {
            let k = r.info.name;
            let nb = Learner::from_kind(k).unwrap();
            assert_eq!(nb.info().name, k);
            assert!(nb.incremental().is_some(), "{k}");
            let m = nb.fit(&d).unwrap();
            assert_eq!(m.classes(), d.classes());
            assert_eq!(m.predict(d.x()).unwrap().len(), 3);
            let json = serde_json::to_string(&m).unwrap();
            assert!(
                json.starts_with(&format!(
                    "{{\"NaiveBayes\":{{\"{}\":",
                    r.model_variant.unwrap()
                )),
                "{json}"
            );
            let back: Model = serde_json::from_str(&json).unwrap();
            assert_eq!(
                back.predict_proba(d.x()).unwrap(),
                m.predict_proba(d.x()).unwrap()
            );
            assert_eq!(m.top_features(1).len(), 2);
        }
        assert!(Learner::from_kind("svm").is_err());
    }

    #[test]
    fn set_param_dispatches() {
        let mut nb = Learner::from_kind("gaussian-nb").unwrap();
        nb.set_param("var_smoothing", "1e-6").unwrap();
        assert!(nb
            .param_values()
            .contains(&("var_smoothing".into(), "0.000001".into())));
        assert!(nb.set_param("alpha", "1").is_err());
    }

    #[test]
    fn merging_different_kinds_is_an_error() {
        let d = Dataset::new(array![[1.0], [2.0]].into(), &[Label::Int(0), Label::Int(1)]).unwrap();
        let start = |kind: &str| {
            let mut s = Learner::from_kind(kind)
                .unwrap()
                .incremental()
                .unwrap()
                .start(1);
            s.partial_fit(&d).unwrap();
            s
        };
        let (mut a, b) = (start("gaussian-nb"), start("multinomial-nb"));
        let e = a.merge(&*b).unwrap_err().to_string();
        assert!(
            e.contains("gaussian-nb") && e.contains("multinomial-nb"),
            "{e}"
        );
        a.merge(&*start("gaussian-nb")).unwrap();
        assert_eq!(a.finish().unwrap().n_features(), 1);
    }
}
