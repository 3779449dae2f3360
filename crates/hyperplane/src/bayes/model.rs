//! The fitted model shared by every Naive Bayes learner: params and sufficient statistics,
//! and the tables `finish` derives from them.
//!
//! A learner says what is specific to its mathematics ([`NaiveBayesParams`]: its
//! statistics, its tables, its joint log-likelihood `jll_c(x) = log P(c) + log P(x | c)`);
//! [`FittedNB`] does the rest once: fit as one pass of statistics, `partial_fit`, `merge`,
//! the [`Classifier`] methods and the model file.

use std::fmt::Debug;

use ndarray::Array2;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::bayes::likelihood::{argmax_rows, JointLogLikelihood};
use crate::bayes::prior::{ClassCounts, Priors};
use crate::data::{Dataset, Features, Label};
use crate::error::{Error, Result};
use crate::estimator::{
    Body, Classifier, Fit, FittedModel, Incremental, Kind, KindInfo, PartialFit,
};
use crate::param::Params;

/// Sufficient statistics of a Naive Bayes learner: a sum over rows, so batches `update`
/// them and parts `merge`.
pub trait Statistics:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Number of features.
    fn n_features(&self) -> usize;
    /// The classes seen so far and their weighted counts `N_c`.
    fn class_counts(&self) -> &ClassCounts;
    /// Adds the rows of `batch`; `model` names the learner in messages.
    fn add_batch(&mut self, batch: &Dataset, model: &str) -> Result<()>;
    /// Adds the statistics of another part.
    fn add_part(&mut self, other: &Self) -> Result<()>;
    /// Checks statistics read from a model file as a whole: classes non-empty, sorted and
    /// distinct, every table shaped by the classes and `n_features`, counts and variances
    /// finite and `>= 0`; the error names the field.
    fn validate(&self) -> Result<()>;
}

/// What one Naive Bayes learner computes; [`FittedNB`] does the rest, and every
/// `NaiveBayesParams` with a schema is a [`Kind`] of the family, trained in one pass
/// ([`Incremental`]).
pub trait NaiveBayesParams:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The learner's name in messages, e.g. `"GaussianNB"`.
    const NAME: &'static str;
    /// Its registry entry ([`Kind::INFO`]).
    const INFO: &'static KindInfo;
    /// The name of its model inside the family's body in model files, e.g. `"Gaussian"`.
    const BODY: &'static str;
    /// What the scores of its `top_features` mean.
    const TOP_FEATURE_SCORE: &'static str =
        "evidence P(x_j | c) (ln P(x_j | c) - ln mean over other classes of P(x_j | c'))";
    /// Its sufficient statistics.
    type Stats: Statistics;
    /// What prediction needs, derived from the statistics.
    type Tables: Clone + Debug + PartialEq + Send + Sync + 'static;
    /// Checks the params.
    fn validate(&self) -> Result<()>;
    /// Empty statistics for `n_features` features.
    fn empty_statistics(&self, n_features: usize) -> Self::Stats;
    /// Checks that `stats` suit these params (beyond the feature count).
    fn check_statistics(&self, stats: &Self::Stats) -> Result<()> {
        let _ = stats;
        Ok(())
    }
    /// `(log P(c) per class, tables)` of valid params and statistics of positive weight.
    fn tables(&self, stats: &Self::Stats) -> Result<(Vec<f64>, Self::Tables)>;
    /// `jll_c(x)` of every row of `x` (checked here: feature count, valid values).
    fn joint_log_likelihood(model: &FittedNB<Self>, x: &Features) -> Result<JointLogLikelihood>;
    /// The `k` most discriminative features per class as `(feature, score)`.
    fn top_features(model: &FittedNB<Self>, k: usize) -> Vec<Vec<(usize, f64)>>;
}

/// A fitted Naive Bayes model: its params, its statistics (so it can keep training) and
/// the tables derived from them.
///
/// A model file holds only the params and the statistics; the tables are derived again on
/// loading, so they always agree with the statistics and `-inf` entries (alpha = 0) never
/// have to pass through JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    bound = "P: NaiveBayesParams",
    try_from = "FittedNBRepr<P>",
    into = "FittedNBRepr<P>"
)]
pub struct FittedNB<P: NaiveBayesParams> {
    pub(super) params: P,
    pub(super) stats: P::Stats,
    pub(super) class_log_prior: Vec<f64>,
    pub(super) tables: P::Tables,
}

impl<P: NaiveBayesParams> FittedNB<P> {
    /// The model of `params` for the statistics `stats` (the `finish` step).
    pub fn from_statistics(params: P, stats: P::Stats) -> Result<Self> {
        params.validate()?;
        params.check_statistics(&stats)?;
        stats.class_counts().check_total()?;
        let (class_log_prior, tables) = params.tables(&stats)?;
        Ok(FittedNB {
            params,
            stats,
            class_log_prior,
            tables,
        })
    }

    /// The params the model was fitted with.
    pub fn params(&self) -> &P {
        &self.params
    }
    /// The sufficient statistics.
    pub fn statistics(&self) -> &P::Stats {
        &self.stats
    }
    /// `log P(c)` per class.
    pub fn class_log_prior(&self) -> &[f64] {
        &self.class_log_prior
    }

    /// Continues training on `batch` (new classes are added); on error the model is unchanged.
    pub fn partial_fit(&mut self, batch: &Dataset) -> Result<()> {
        let mut stats = self.stats.clone();
        absorb::<P>(&mut stats, batch)?;
        *self = Self::from_statistics(self.params.clone(), stats)?;
        Ok(())
    }

    /// The model of the union of both training sets (params of `self`).
    pub fn merge(&self, other: &Self) -> Result<Self> {
        let mut stats = self.stats.clone();
        stats.add_part(&other.stats)?;
        Self::from_statistics(self.params.clone(), stats)
    }

    /// The `k` most discriminative features per class as `(feature, score)` (see the
    /// module doc of each learner for its score).
    pub fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        P::top_features(self, k)
    }

    /// The kind name of the learner that made this model.
    pub fn kind(&self) -> &'static str {
        P::INFO.name
    }
}

/// Adds the statistics of a batch of classes.
fn absorb<P: NaiveBayesParams>(stats: &mut P::Stats, batch: &Dataset) -> Result<()> {
    batch.require_classes()?;
    stats.add_batch(batch, P::NAME)
}

/// Fit is one pass of statistics, then `finish`.
impl<P: NaiveBayesParams> Fit for P {
    type Model = FittedNB<P>;
    fn fit(&self, data: &Dataset) -> Result<FittedNB<P>> {
        self.validate()?;
        if data.n_samples() == 0 || data.n_features() == 0 {
            // the same message as every learner; finiteness is checked by the update
            data.check_fit()?;
        }
        let mut stats = self.empty_statistics(data.n_features());
        absorb::<P>(&mut stats, data)?;
        FittedNB::from_statistics(self.clone(), stats)
    }
}

impl<P: NaiveBayesParams> Classifier for FittedNB<P> {
    fn classes(&self) -> &[Label] {
        &self.stats.class_counts().classes
    }
    fn n_features(&self) -> usize {
        self.stats.n_features()
    }
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        Ok(P::joint_log_likelihood(self, x)?.decision())
    }
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>> {
        Ok(P::joint_log_likelihood(self, x)?.log_proba())
    }
    fn predict_index(&self, x: &Features) -> Result<Vec<usize>> {
        Ok(argmax_rows(&self.predict_log_proba(x)?))
    }
    fn predicts_most_probable(&self) -> bool {
        true
    }
}

/// A Naive Bayes learner is a kind of the family: one pass of statistics, so it trains
/// batch by batch and merges ([`Incremental`]).
impl<P: NaiveBayesParams + Params + Default> Kind for P {
    const INFO: &'static KindInfo = P::INFO;
    fn incremental(&self) -> Option<&dyn Incremental> {
        Some(self)
    }
}

impl<P: NaiveBayesParams> Incremental for P {
    fn start(&self, n_features: usize) -> Box<dyn PartialFit> {
        Box::new(Training {
            params: self.clone(),
            stats: self.empty_statistics(n_features),
        })
    }
}

/// A Naive Bayes fit in progress: the params and the statistics so far.
#[derive(Clone, Debug)]
struct Training<P: NaiveBayesParams> {
    params: P,
    stats: P::Stats,
}

impl<P: NaiveBayesParams> PartialFit for Training<P> {
    fn info(&self) -> &'static KindInfo {
        P::INFO
    }
    fn partial_fit(&mut self, batch: &Dataset) -> Result<()> {
        let mut stats = self.stats.clone();
        absorb::<P>(&mut stats, batch)?;
        self.stats = stats;
        Ok(())
    }
    fn merge(&mut self, other: &dyn PartialFit) -> Result<()> {
        let Some(other) = other.as_any().downcast_ref::<Training<P>>() else {
            return Err(Error::Unsupported {
                model: P::INFO.name.into(),
                what: format!("merging with a {} model", other.info().name),
            });
        };
        let mut stats = self.stats.clone();
        stats.add_part(&other.stats)?;
        self.stats = stats;
        Ok(())
    }
    fn finish(&self) -> Result<Box<dyn FittedModel>> {
        Ok(Box::new(FittedNB::from_statistics(
            self.params.clone(),
            self.stats.clone(),
        )?))
    }
}

/// In model files a Naive Bayes model is `{"NaiveBayes": {"<BODY>": {params, stats}}}`.
impl<P: NaiveBayesParams> Body for FittedNB<P> {
    const TAG: &'static str = "NaiveBayes";
    const VARIANT: Option<&'static str> = Some(P::BODY);
}

impl<P: NaiveBayesParams> FittedModel for FittedNB<P> {
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        Some(self)
    }
    fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        P::top_features(self, k)
    }
    fn top_feature_score(&self) -> &'static str {
        P::TOP_FEATURE_SCORE
    }
    fn class_priors(&self) -> Option<Vec<f64>> {
        Some(self.class_log_prior.iter().map(|v| v.exp()).collect())
    }
    fn resume(&self) -> Option<Box<dyn PartialFit>> {
        Some(Box::new(Training {
            params: self.params.clone(),
            stats: self.stats.clone(),
        }))
    }
}

/// What a model file holds of a [`FittedNB`].
#[derive(Serialize, Deserialize)]
#[serde(bound = "P: NaiveBayesParams")]
struct FittedNBRepr<P: NaiveBayesParams> {
    params: P,
    stats: P::Stats,
}

impl<P: NaiveBayesParams> TryFrom<FittedNBRepr<P>> for FittedNB<P> {
    type Error = Error;
    fn try_from(r: FittedNBRepr<P>) -> Result<Self> {
        r.stats.validate()?;
        FittedNB::from_statistics(r.params, r.stats)
    }
}

impl<P: NaiveBayesParams> From<FittedNB<P>> for FittedNBRepr<P> {
    fn from(m: FittedNB<P>) -> Self {
        FittedNBRepr {
            params: m.params,
            stats: m.stats,
        }
    }
}

crate::param::choice_value!(Priors = [], forms vec![
    crate::param::Form::Choice { words: vec!["fitted", "uniform"] },
    crate::param::Form::List { of: crate::param::Scalar::Float },
]);

/// Declares a learner's params struct with its defaults (as text, with ranges and
/// meanings: see [`params_struct!`](crate::params_struct)), plus `statistics` / `finish`.
macro_rules! naive_bayes_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident as $kind:literal {
            $($body:tt)*
        }
    ) => {
        $crate::params_struct! {
            $(#[$meta])*
            #[derive(::serde::Serialize, ::serde::Deserialize)]
            pub struct $name as $kind {
                $($body)*
            }
        }

        impl $name {
            /// Empty statistics for `n_features` features, to `update` batch by batch.
            pub fn statistics(
                &self,
                n_features: usize,
            ) -> <Self as $crate::bayes::NaiveBayesParams>::Stats {
                $crate::bayes::NaiveBayesParams::empty_statistics(self, n_features)
            }
            /// The model of accumulated statistics.
            pub fn finish(
                &self,
                stats: <Self as $crate::bayes::NaiveBayesParams>::Stats,
            ) -> $crate::error::Result<$crate::bayes::FittedNB<Self>> {
                $crate::bayes::FittedNB::from_statistics(self.clone(), stats)
            }
        }
    };
}
pub(crate) use naive_bayes_params;
