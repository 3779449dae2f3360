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
//! ([`Classifier::decision_function`]) and normalises it with a max-shifted log-sum-exp
//! (`log P(c | x) = jll_c - logsumexp(jll)`), so nothing underflows even with 100,000
//! features.
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

use ndarray::Array2;
use serde::{Deserialize, Serialize};

use crate::data::{Dataset, Features, Label};
use crate::error::{Error, Result};
use crate::estimator::{
    boxed_learner, read_model, Classifier, Family, Fit, FittedModel, KindInfo, Learn,
};
use crate::param::{Composite, Params};

/// The Naive Bayes family, as the registry lists it.
pub const FAMILY: Family = Family {
    kinds: KINDS,
    learner: |kind| boxed_learner(NaiveBayes::from_kind, kind),
    model_tag: "NaiveBayes",
    read_model: read_model::<NaiveBayesModel>,
};

/// The Naive Bayes kinds, in the order of the [`NaiveBayes`] variants.
pub const KINDS: &[KindInfo] = &[
    KindInfo::classifier(
        "bernoulli-nb",
        GROUP,
        "multi-variate Bernoulli event model: each feature present or absent",
    ),
    KindInfo::classifier(
        "multinomial-nb",
        GROUP,
        "multinomial event model: counts of words or symbols",
    ),
    KindInfo::classifier(
        "categorical-nb",
        GROUP,
        "categorical features x_j in {1..k_j}; numeric columns binned (n_bins)",
    )
    .with_categorical_input(),
    KindInfo::classifier(
        "gaussian-nb",
        GROUP,
        "a normal density per feature and class",
    ),
    KindInfo::classifier(
        "complement-nb",
        GROUP,
        "weights from the other classes' counts (Rennie et al.), for skewed text classes",
    ),
];

const GROUP: &str = "Naive Bayes";

/// Any Naive Bayes learner, chosen by kind name (the CLI's `--model`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum NaiveBayes {
    Bernoulli(BernoulliNB),
    Multinomial(MultinomialNB),
    Categorical(CategoricalNB),
    Gaussian(GaussianNB),
    Complement(ComplementNB),
}

/// Runs `$body` with `$p` bound to the learner inside a [`NaiveBayes`] / model inside a
/// [`NaiveBayesModel`].
macro_rules! each {
    ($e:expr, $ty:ident, |$p:ident| $body:expr) => {
        match $e {
            $ty::Bernoulli($p) => $body,
            $ty::Multinomial($p) => $body,
            $ty::Categorical($p) => $body,
            $ty::Gaussian($p) => $body,
            $ty::Complement($p) => $body,
        }
    };
}

impl NaiveBayes {
    /// The kind names, in the order of the variants.
    pub fn kind_names() -> Vec<&'static str> {
        KINDS.iter().map(|k| k.name).collect()
    }

    /// The learner of kind `kind` with default params.
    pub fn from_kind(kind: &str) -> Result<Self> {
        Ok(match kind {
            "bernoulli-nb" => NaiveBayes::Bernoulli(BernoulliNB::default()),
            "multinomial-nb" => NaiveBayes::Multinomial(MultinomialNB::default()),
            "categorical-nb" => NaiveBayes::Categorical(CategoricalNB::default()),
            "gaussian-nb" => NaiveBayes::Gaussian(GaussianNB::default()),
            "complement-nb" => NaiveBayes::Complement(ComplementNB::default()),
            _ => {
                return Err(Error::param(
                    "model",
                    kind,
                    format!("valid kinds: {}", Self::kind_names().join(", ")),
                ))
            }
        })
    }

    /// This learner's kind name.
    pub fn kind(&self) -> &'static str {
        KINDS[self.index()].name
    }

    fn index(&self) -> usize {
        match self {
            NaiveBayes::Bernoulli(_) => 0,
            NaiveBayes::Multinomial(_) => 1,
            NaiveBayes::Categorical(_) => 2,
            NaiveBayes::Gaussian(_) => 3,
            NaiveBayes::Complement(_) => 4,
        }
    }
}

impl Composite for NaiveBayes {
    fn component(&self) -> String {
        self.kind().to_string()
    }
    fn parts(&self) -> Vec<&dyn Params> {
        vec![each!(self, NaiveBayes, |p| p as &dyn Params)]
    }
    fn parts_mut(&mut self) -> Vec<&mut dyn Params> {
        vec![each!(self, NaiveBayes, |p| p as &mut dyn Params)]
    }
}

impl Fit for NaiveBayes {
    type Model = NaiveBayesModel;
    fn fit(&self, data: &Dataset) -> Result<NaiveBayesModel> {
        Ok(match self {
            NaiveBayes::Bernoulli(p) => NaiveBayesModel::Bernoulli(p.fit(data)?),
            NaiveBayes::Multinomial(p) => NaiveBayesModel::Multinomial(p.fit(data)?),
            NaiveBayes::Categorical(p) => NaiveBayesModel::Categorical(p.fit(data)?),
            NaiveBayes::Gaussian(p) => NaiveBayesModel::Gaussian(p.fit(data)?),
            NaiveBayes::Complement(p) => NaiveBayesModel::Complement(p.fit(data)?),
        })
    }
}

impl Learn for NaiveBayes {
    fn info(&self) -> &'static KindInfo {
        &KINDS[self.index()]
    }
    fn fit_model(&self, data: &Dataset) -> Result<Box<dyn FittedModel>> {
        Ok(Box::new(self.fit(data)?))
    }
}

/// Any fitted Naive Bayes model (what a pipeline saves).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum NaiveBayesModel {
    Bernoulli(BernoulliNBModel),
    Multinomial(MultinomialNBModel),
    Categorical(CategoricalNBModel),
    Gaussian(GaussianNBModel),
    Complement(ComplementNBModel),
}

impl NaiveBayesModel {
    /// The kind name of the learner that made this model.
    pub fn kind(&self) -> &'static str {
        KINDS[match self {
            NaiveBayesModel::Bernoulli(_) => 0,
            NaiveBayesModel::Multinomial(_) => 1,
            NaiveBayesModel::Categorical(_) => 2,
            NaiveBayesModel::Gaussian(_) => 3,
            NaiveBayesModel::Complement(_) => 4,
        }]
        .name
    }

    /// `log P(c)` per class.
    pub fn class_log_prior(&self) -> &[f64] {
        each!(self, NaiveBayesModel, |m| m.class_log_prior())
    }

    /// Continues training on `batch`; on error the model is unchanged.
    pub fn partial_fit(&mut self, batch: &Dataset) -> Result<()> {
        each!(self, NaiveBayesModel, |m| m.partial_fit(batch))
    }

    /// The model of the union of both training sets; both must be of the same kind.
    pub fn merge(&self, other: &Self) -> Result<Self> {
        use NaiveBayesModel as M;
        Ok(match (self, other) {
            (M::Bernoulli(a), M::Bernoulli(b)) => M::Bernoulli(a.merge(b)?),
            (M::Multinomial(a), M::Multinomial(b)) => M::Multinomial(a.merge(b)?),
            (M::Categorical(a), M::Categorical(b)) => M::Categorical(a.merge(b)?),
            (M::Gaussian(a), M::Gaussian(b)) => M::Gaussian(a.merge(b)?),
            (M::Complement(a), M::Complement(b)) => M::Complement(a.merge(b)?),
            _ => {
                return Err(Error::Unsupported {
                    model: self.kind().into(),
                    what: format!("merging with a {} model", other.kind()),
                })
            }
        })
    }

    /// The `k` most discriminative features per class as `(feature, score)` (see the
    /// module doc for the score of each model).
    pub fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        each!(self, NaiveBayesModel, |m| m.top_features(k))
    }

    /// What the scores of [`NaiveBayesModel::top_features`] mean.
    pub fn top_feature_score(&self) -> &'static str {
        match self {
            NaiveBayesModel::Gaussian(_) => {
                "standardized mean difference (theta_cj - mean of other classes) / sigma_j"
            }
            _ => "evidence P(x_j | c) (ln P(x_j | c) - ln mean over other classes of P(x_j | c'))",
        }
    }
}

impl FittedModel for NaiveBayesModel {
    fn tag(&self) -> &'static str {
        FAMILY.model_tag
    }
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        Some(self)
    }
    fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        NaiveBayesModel::top_features(self, k)
    }
    fn top_feature_score(&self) -> &'static str {
        NaiveBayesModel::top_feature_score(self)
    }
    fn class_priors(&self) -> Option<Vec<f64>> {
        Some(self.class_log_prior().iter().map(|v| v.exp()).collect())
    }
}

impl Classifier for NaiveBayesModel {
    fn classes(&self) -> &[Label] {
        each!(self, NaiveBayesModel, |m| m.classes())
    }
    fn n_features(&self) -> usize {
        each!(self, NaiveBayesModel, |m| m.n_features())
    }
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        each!(self, NaiveBayesModel, |m| m.decision_function(x))
    }
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>> {
        each!(self, NaiveBayesModel, |m| m.predict_log_proba(x))
    }
    fn predict_index(&self, x: &Features) -> Result<Vec<usize>> {
        each!(self, NaiveBayesModel, |m| m.predict_index(x))
    }
    fn predicts_most_probable(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn every_kind_round_trips_and_fits() {
        let d = Dataset::new(
            array![[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]].into(),
            &["a".into(), "b".into(), "a".into()],
        )
        .unwrap();
        for k in NaiveBayes::kind_names() {
            let nb = NaiveBayes::from_kind(k).unwrap();
            assert_eq!(nb.kind(), k);
            let m = nb.fit(&d).unwrap();
            assert_eq!(m.kind(), k);
            assert_eq!(m.classes(), d.classes());
            assert_eq!(m.predict(d.x()).unwrap().len(), 3);
            let json = serde_json::to_string(&m).unwrap();
            let back: NaiveBayesModel = serde_json::from_str(&json).unwrap();
            assert_eq!(
                back.predict_proba(d.x()).unwrap(),
                m.predict_proba(d.x()).unwrap()
            );
            assert_eq!(m.top_features(1).len(), 2);
        }
        assert!(NaiveBayes::from_kind("svm").is_err());
    }

    #[test]
    fn set_param_dispatches() {
        let mut nb = NaiveBayes::from_kind("gaussian-nb").unwrap();
        nb.set_param("var_smoothing", "1e-6").unwrap();
        assert!(nb
            .param_values()
            .contains(&("var_smoothing".into(), "0.000001".into())));
        assert!(nb.set_param("alpha", "1").is_err());
    }

    #[test]
    fn merging_different_kinds_is_an_error() {
        let d = Dataset::new(array![[1.0], [2.0]].into(), &[0.into(), 1.into()]).unwrap();
        let a = NaiveBayes::from_kind("gaussian-nb")
            .unwrap()
            .fit(&d)
            .unwrap();
        let b = NaiveBayes::from_kind("multinomial-nb")
            .unwrap()
            .fit(&d)
            .unwrap();
        assert!(a.merge(&b).is_err());
    }
}
