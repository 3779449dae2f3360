//! Pipelines: raw input -> features -> model, fitted and saved as one.
//!
//! A [`PipelineSpec`] names a model kind and its parameters; fitting it on a reader's
//! [`LabelledInput`](crate::data::LabelledInput) fits, on the training rows only, the input stage (a text vectorizer
//! for documents, a tabular encoder for CSV tables, nothing for LIBSVM matrices), any
//! transforms (discretizer, scaler) and the model. The fitted [`Pipeline`] keeps all of
//! them with the class names, so a saved model predicts on raw input.
//!
//! Defaults chosen per input and model kind:
//!
//! | input | model | features |
//! |---|---|---|
//! | text | multinomial-nb | token counts (the multinomial event model); `binary=true` for presence |
//! | text | others | token presence (0/1); `binary=false` for counts |
//! | table | categorical-nb | categories as indices; numeric columns binned (`n_bins`, default 10) |
//! | table | others | numeric columns as they are, categorical columns one-hot |
//! | matrix | categorical-nb | columns that are not non-negative integers binned |
//! | matrix | others | as read |
//!
//! Parameters are routed by name: the model's own (`alpha`, `priors`...), then the
//! vectorizer's (`binary`, `min_df`, `ngram_max`...), then the pipeline's:
//! `vectorizer=count|tfidf|hashing`, `n_bins` / `bin_strategy` of the discretizer and
//! `scale=standard|minmax|none` and `multiclass=ova|ovo` (how a binary learner meets more
//! than two classes: one-vs-all, the default, or one-vs-one).

mod evaluate;
mod fitted;
mod learning_curve;
mod libsvm_model;
mod spec;
mod tune;

pub use evaluate::{Evaluation, RegressionEvaluation, TrainingScore};
pub use fitted::{InputStage, Pipeline, Summary};
pub use spec::{Init, PipelineOptions, PipelineSpec, Scaling, VectorizerKind};
pub use tune::{Tuning, Validation};

pub use crate::estimator::PlaStart;
pub use crate::summary::{Duality, LinearSummary, RegressionSummary};

use crate::bayes;
use crate::data::{Dataset, Features, Label};
use crate::error::{Error, Result};
use crate::estimator::{
    Body, Classifier, ExportFormat, Family, FittedModel, Incremental, KindInfo, Learn, PartialFit,
    Registration, Regressor, Task,
};
use crate::multiclass::{OneVsOne, OneVsRest, Strategy};
use crate::param::{Composite, Params};
use crate::score::LinearModel;
use crate::summary::{LossCurve, ModelSummary};
use crate::threads::Threads;
use ndarray::Array2;
use serde::{Deserialize, Serialize};

/// The registry: every family, one line each. `kinds`, the CLI's lists and help, `inspect`,
/// the conformance suite, the README's kind table and the model-file reader read it.
const FAMILIES: &[Family] = &[
    bayes::FAMILY,
    crate::linear::CLASSIFIER_FAMILY,
    crate::linear::REGRESSOR_FAMILY,
    crate::svm::FAMILY,
    crate::neural::FAMILY,
];

/// Every model kind, family by family.
pub fn registry() -> impl Iterator<Item = &'static KindInfo> {
    registrations().map(|r| r.info)
}

/// Every kind's registration, family by family.
fn registrations() -> impl Iterator<Item = &'static Registration> {
    FAMILIES.iter().flat_map(|f| f.kinds.iter())
}

/// The registration of a kind; an unknown name lists the kinds.
fn registration(kind: &str) -> Result<&'static Registration> {
    registrations()
        .find(|r| r.info.name == kind)
        .ok_or_else(|| {
            let names: Vec<&str> = registry().map(|k| k.name).collect();
            Error::param(
                "model",
                kind,
                format!("unknown model kind; choose one of {}", names.join(", ")),
            )
        })
}

/// The family of a registered kind.
fn family_of(kind: &str) -> Option<&'static Family> {
    FAMILIES
        .iter()
        .find(|f| f.kinds.iter().any(|r| r.info.name == kind))
}

/// The registry entry of a kind; an unknown name lists the kinds.
pub fn kind_info(kind: &str) -> Result<&'static KindInfo> {
    registration(kind).map(|r| r.info)
}

/// The regression kinds (real-valued targets).
pub fn regressor_kinds() -> Vec<&'static str> {
    registry()
        .filter(|k| k.task == Task::Regressor)
        .map(|k| k.name)
        .collect()
}

/// Every kind the pipeline trains on labelled rows: the classifiers and the novelty
/// detectors (see [`regressor_kinds`] for the rest).
pub fn kinds() -> Vec<&'static str> {
    registry()
        .filter(|k| k.task != Task::Regressor)
        .map(|k| k.name)
        .collect()
}

/// A learner of any registered kind, with its parameters.
#[derive(Debug)]
pub struct Learner(Box<dyn Learn>);

impl Clone for Learner {
    fn clone(&self) -> Self {
        Learner(self.0.clone_learn())
    }
}

impl Learner {
    /// The default params of a model kind.
    pub fn from_kind(kind: &str) -> Result<Self> {
        Ok(Learner((registration(kind)?.learner)()))
    }

    /// The registry entry of the learner's kind.
    pub fn info(&self) -> &'static KindInfo {
        self.0.info()
    }

    /// Whether the learner predicts real numbers rather than classes.
    pub fn is_regressor(&self) -> bool {
        self.info().task == Task::Regressor
    }

    /// Checks what fitting on `data` keeps per feature ([`Learn::width_state`]) against
    /// the memory budget.
    pub fn check_memory(&self, data: &Dataset) -> Result<()> {
        let state = self.0.width_state(data.n_features(), data.classes().len());
        crate::memory::check(
            || {
                format!(
                    "fitting {} on {} features ({} numbers per feature{})",
                    self.info().name,
                    data.n_features(),
                    state[1] * state[2],
                    if state[1] > 1 {
                        ", for its classes"
                    } else {
                        ""
                    }
                )
            },
            &state,
            8,
        )
    }

    /// Whether the fitted model depends on the order of the training rows (beyond
    /// rounding): PLA, pocket and SGD visit rows in order.
    pub fn depends_on_row_order(&self) -> bool {
        self.0.depends_on_row_order()
    }

    /// How the walk of a perceptron starts, for its PLA bound (`None` for other kinds).
    pub fn pla_start(&self) -> Option<PlaStart> {
        self.0.pla_start()
    }

    /// Training batch by batch and merging parts fitted apart, for a kind whose training
    /// is a sum over rows (Naive Bayes); `None` for the others. See [`Incremental`].
    pub fn incremental(&self) -> Option<&dyn Incremental> {
        self.0.incremental()
    }

    /// Fits the learner on a data set (classes, or real values for a regressor); a binary
    /// learner meets more than two classes through one-vs-all.
    pub fn fit(&self, data: &Dataset) -> Result<Model> {
        self.fit_with(data, &FitOptions::default())
    }

    /// Fits the learner with pipeline options: a multiclass problem for a binary learner
    /// is reduced by `options.multiclass`; class weights are applied once, on the original
    /// classes (as row weights), so every sub-problem sees the same per-row costs.
    pub fn fit_with(&self, data: &Dataset, options: &FitOptions) -> Result<Model> {
        options.threads.run(|| self.fit_here(data, options))?
    }

    fn fit_here(&self, data: &Dataset, options: &FitOptions) -> Result<Model> {
        let kind = Some(self.info().name);
        let fit_one = |learner: &dyn Learn, d: &Dataset| -> Result<Model> {
            let warm = if options.linear_regression_init {
                learner.warm_started(d)?
            } else {
                None
            };
            Ok(Model(
                warm.as_deref().unwrap_or(learner).fit_model(d)?,
                kind,
            ))
        };
        if !self.info().binary || data.classes().len() <= 2 {
            return fit_one(&*self.0, data);
        }
        let (sub, data) = match self.0.split_class_weight(data)? {
            Some((sub, rows)) => (sub, data.clone().with_weights(rows)?),
            None => (self.0.clone_learn(), data.clone()),
        };
        let fit = |d: &Dataset| fit_one(&*sub, d);
        let reduction: Box<dyn FittedModel> = match options.multiclass {
            Strategy::Ova => Box::new(OneVsRest::fit(&data, fit)?),
            Strategy::Ovo => Box::new(OneVsOne::fit(&data, fit)?),
        };
        Ok(Model(reduction, kind))
    }
}

impl Composite for Learner {
    fn component(&self) -> String {
        self.info().name.to_string()
    }
    fn parts(&self) -> Vec<&dyn Params> {
        vec![self.0.as_params()]
    }
    fn parts_mut(&mut self) -> Vec<&mut dyn Params> {
        vec![self.0.as_params_mut()]
    }
}

/// How the pipeline fits a learner beyond its own params.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FitOptions {
    /// How a binary learner meets more than two classes.
    pub multiclass: Strategy,
    /// Start PLA, pocket and logistic regression from linear regression's weights.
    pub linear_regression_init: bool,
    /// The threads the fit uses (all cores by default); the model is the same for any count.
    pub threads: Threads,
}

/// A fitted model of any registered family, or a multiclass reduction of binary ones.
///
/// In a model file it is `{"<tag>": body}` (`{"<tag>": {"<variant>": body}}` in a family
/// with one model type per kind), the names of its [`Body`], or the reduction's
/// (`OneVsRest`, `OneVsOne`); the registry says which reader takes which body. It knows
/// the kind it was fitted as, which [`Model::to_bytes`] records in the envelope.
#[derive(Debug)]
pub struct Model(Box<dyn FittedModel>, Option<&'static str>);

impl Clone for Model {
    fn clone(&self) -> Self {
        Model(self.0.clone_model(), self.1)
    }
}

/// The tags of the multiclass reductions in model files.
const ONE_VS_REST: &str = "OneVsRest";
const ONE_VS_ONE: &str = "OneVsOne";

impl Model {
    /// Wraps a fitted model of any family (of no kind yet: see [`Model::with_kind`]).
    pub fn new(model: Box<dyn FittedModel>) -> Self {
        Model(model, None)
    }

    /// The model as one of kind `kind` (a model finished from statistics, say), checked
    /// as a model file's body is: a body of the kind's family, sorted classes, a binary
    /// kind's many classes only inside a reduction.
    pub fn with_kind(self, kind: &str) -> Result<Model> {
        let info = kind_info(kind)?;
        self.check_kind(info).map_err(|e| match e {
            Error::InvalidData(m) => Error::data(format!("not a {} model: {m}", info.name)),
            e => e,
        })?;
        Ok(Model(self.0, Some(info.name)))
    }

    /// The kind it was fitted as (as [`Learner::from_kind`] takes it); `None` for a model
    /// wrapped by [`Model::new`].
    pub fn kind(&self) -> Option<&'static str> {
        self.1
    }

    /// The model in the envelope of a model file, as bytes (for a host that stores models
    /// itself: a pickle, a Spark model folder); [`Model::from_bytes`] reads them. A
    /// [`Pipeline`] saves its input stage too; this is the model alone, for a matrix.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let kind = self.1.ok_or_else(|| {
            Error::data("the model has no kind to record: give it one with Model::with_kind")
        })?;
        crate::persist::to_bytes(kind, self)
    }

    /// Reads the bytes of [`Model::to_bytes`], checking the envelope and that the body
    /// is a model of the kind it names; errors name them "model file `<in memory>`".
    pub fn from_bytes(bytes: &[u8]) -> Result<Model> {
        let path = std::path::Path::new("<in memory>");
        let (info, model) = crate::persist::load_bytes::<Model>(bytes, path)?;
        model
            .with_kind(&info.model_kind)
            .map_err(|e| Error::ModelFile {
                path: path.to_path_buf(),
                reason: e.to_string(),
            })
    }

    /// Checks that the body is a model of kind `info` (its family's, or the one its own
    /// registration names), with classes as a model of that kind has them.
    pub(crate) fn check_kind(&self, info: &'static KindInfo) -> Result<()> {
        let family = family_of(info.name)
            .ok_or_else(|| Error::data(format!("{} has no family", info.name)))?;
        // a kind may fit another family's model (hard-margin-svm fits the linear model)
        let own = registration(info.name)?.model_tag;
        if let Some(tag) = self
            .family_tags()
            .into_iter()
            .find(|&t| t != family.model_tag && t != own)
        {
            return Err(Error::data(format!(
                "the model body is a {tag} model, not the {} model of kind {}",
                family.model_tag, info.name
            )));
        }
        if info.task != crate::estimator::Task::Regressor {
            let classes = self.classes();
            if classes.is_empty() || classes.windows(2).any(|w| w[0] >= w[1]) {
                return Err(Error::data(
                    "classes must be non-empty, sorted and distinct",
                ));
            }
            if info.binary && !self.is_reduction() && classes.len() > 2 {
                return Err(Error::data(format!(
                    "classes: {} is binary, yet the model lists {} classes without a one-vs-all or one-vs-one reduction",
                    info.name,
                    classes.len()
                )));
            }
        }
        Ok(())
    }

    /// The model as its kind's own type (e.g. [`SvmModel`](crate::svm::SvmModel)), when it
    /// is one, for a caller that knows the kind. The library reaches every kind through
    /// [`FittedModel`] instead.
    pub fn downcast_ref<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }

    /// Whether the model is a one-vs-all or one-vs-one reduction of binary models.
    pub fn is_reduction(&self) -> bool {
        matches!(self.0.tag(), ONE_VS_REST | ONE_VS_ONE)
    }

    fn classifier(&self) -> Result<&dyn Classifier> {
        self.0.as_classifier().ok_or_else(|| Error::Unsupported {
            model: "a regressor".into(),
            what: "classes and class scores (it predicts real numbers: use predict_values)".into(),
        })
    }

    /// The model as a regressor, when it is one.
    pub fn regressor(&self) -> Option<&dyn Regressor> {
        self.0.as_regressor()
    }

    /// Real-valued predictions of a regressor, one column per output.
    pub fn predict_values(&self, x: &Features) -> Result<Array2<f64>> {
        match self.regressor() {
            Some(m) => m.predict(x),
            None => Err(Error::Unsupported {
                model: "a classifier".into(),
                what: "real-valued predictions (use predict or predict_proba)".into(),
            }),
        }
    }

    /// The `k` most indicative features of each class, as (feature index, score); empty
    /// lists for one-vs-one, whose pair models say nothing about one class.
    pub fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        self.0.top_features(k)
    }

    /// What the scores of [`Model::top_features`] mean.
    pub fn top_feature_score(&self) -> &'static str {
        self.0.top_feature_score()
    }

    /// The statistics the model keeps, to continue training it or merge it with another
    /// part's ([`FittedModel::resume`]); `None` for a model without them.
    pub fn resume(&self) -> Option<Box<dyn PartialFit>> {
        self.0.resume()
    }

    /// Class prior probabilities, when the model has them.
    pub fn class_priors(&self) -> Option<Vec<f64>> {
        self.0.class_priors()
    }

    /// What `inspect` shows of the model beyond its classes, features and priors
    /// ([`FittedModel::summary`]); `feature_names` names its features on demand.
    pub fn summary(&self, feature_names: &dyn Fn() -> Vec<String>) -> ModelSummary {
        self.0.summary(feature_names)
    }

    /// The model as a linear score, when it is one ([`FittedModel::as_linear`]).
    pub fn as_linear(&self) -> Option<&LinearModel> {
        self.0.as_linear()
    }

    /// Its training curve, when it keeps one ([`FittedModel::loss_curve`]).
    pub fn loss_curve(&self) -> Option<LossCurve> {
        self.0.loss_curve()
    }

    /// The model written in another tool's format ([`FittedModel::export`]).
    pub fn export(&self, format: ExportFormat) -> Option<Result<String>> {
        self.0.export(format)
    }

    /// Whether the model is a one-vs-all reduction.
    pub(super) fn is_one_vs_rest(&self) -> bool {
        self.0.tag() == ONE_VS_REST
    }

    /// The body tags of the model, or of each sub-model of a reduction.
    pub(super) fn family_tags(&self) -> Vec<&'static str> {
        let parts = self.0.parts();
        if parts.is_empty() {
            return vec![self.0.tag()];
        }
        parts.into_iter().map(|(_, sub)| sub.tag()).collect()
    }

    /// The linear models inside, named: the model itself, or one per class (one-vs-all,
    /// named by the class) or per pair (one-vs-one, "a vs b"). Empty for other families.
    pub fn linear_models(&self) -> Vec<(String, &LinearModel)> {
        if let Some(m) = self.0.as_linear() {
            return vec![(String::new(), m)];
        }
        self.0
            .parts()
            .into_iter()
            .filter_map(|(name, sub)| Some((name, sub.as_linear()?)))
            .collect()
    }
}

impl Serialize for Model {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(1))?;
        match self.0.variant() {
            Some(variant) => map.serialize_entry(self.0.tag(), &Variant(variant, &*self.0))?,
            None => map.serialize_entry(self.0.tag(), &*self.0)?,
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Model {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_map(ModelVisitor)
    }
}

/// Reads `{"<tag>": body}` by the reader the registry gives the tag.
struct ModelVisitor;

impl<'de> serde::de::Visitor<'de> for ModelVisitor {
    type Value = Model;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a fitted model: {\"<family tag>\": body}")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Model, A::Error> {
        use serde::de::Error as _;
        let tag: String = map
            .next_key()?
            .ok_or_else(|| A::Error::custom("the model body is empty"))?;
        let model: Box<dyn FittedModel> = match tag.as_str() {
            ONE_VS_REST => {
                let m = map.next_value::<OneVsRest<Model>>()?;
                m.validate().map_err(A::Error::custom)?;
                Box::new(m)
            }
            ONE_VS_ONE => {
                let m = map.next_value::<OneVsOne<Model>>()?;
                m.validate().map_err(A::Error::custom)?;
                Box::new(m)
            }
            _ => {
                let kind = registrations().find(|r| r.model_tag == tag).ok_or_else(|| {
                    let mut tags: Vec<&str> = Vec::new();
                    for r in registrations() {
                        if !tags.contains(&r.model_tag) {
                            tags.push(r.model_tag);
                        }
                    }
                    A::Error::custom(format!(
                        "unknown model body `{tag}`; this build reads {}, {ONE_VS_REST} and {ONE_VS_ONE}",
                        tags.join(", ")
                    ))
                })?;
                match kind.model_variant {
                    Some(_) => map.next_value_seed(VariantSeed(kind.model_tag))?,
                    None => map.next_value_seed(BodySeed(kind.read_model))?,
                }
            }
        };
        if map.next_key::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::custom("a model holds one body, found a second"));
        }
        Ok(Model(model, None))
    }
}

/// A body inside its family's, named by its variant: `{"<variant>": body}`.
struct Variant<'a>(&'static str, &'a dyn FittedModel);

impl Serialize for Variant<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(self.0, self.1)?;
        map.end()
    }
}

/// Reads `{"<variant>": body}` inside the body `tag`, by the reader of the kind whose
/// model has that variant.
struct VariantSeed(&'static str);

impl<'de> serde::de::DeserializeSeed<'de> for VariantSeed {
    type Value = Box<dyn FittedModel>;
    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for VariantSeed {
    type Value = Box<dyn FittedModel>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a {} model: {{\"<variant>\": body}}", self.0)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        use serde::de::Error as _;
        let kinds = || registrations().filter(|r| r.model_tag == self.0);
        let variant: String = map
            .next_key()?
            .ok_or_else(|| A::Error::invalid_length(0, &"a body named by its variant"))?;
        let Some(kind) = kinds().find(|r| r.model_variant == Some(variant.as_str())) else {
            let expected: Vec<String> = kinds()
                .filter_map(|r| Some(format!("`{}`", r.model_variant?)))
                .collect();
            return Err(A::Error::custom(format!(
                "unknown variant `{variant}`, expected one of {}",
                expected.join(", ")
            )));
        };
        let model = map.next_value_seed(BodySeed(kind.read_model))?;
        if map.next_key::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::custom(format!(
                "a {} model holds one body, found a second",
                self.0
            )));
        }
        Ok(model)
    }
}

/// Reads one kind's body through its [`ModelReader`](crate::estimator::ModelReader).
struct BodySeed(crate::estimator::ModelReader);

impl<'de> serde::de::DeserializeSeed<'de> for BodySeed {
    type Value = Box<dyn FittedModel>;
    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        let mut erased = <dyn erased_serde::Deserializer>::erase(d);
        (self.0)(&mut erased).map_err(serde::de::Error::custom)
    }
}

impl Body for OneVsRest<Model> {
    const TAG: &'static str = ONE_VS_REST;
    fn validate(&self) -> Result<()> {
        OneVsRest::validate(self)
    }
}

impl Body for OneVsOne<Model> {
    const TAG: &'static str = ONE_VS_ONE;
    fn validate(&self) -> Result<()> {
        OneVsOne::validate(self)
    }
}

/// One-vs-all over models of any family.
impl FittedModel for OneVsRest<Model> {
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        Some(self)
    }
    /// One per class, named by it.
    fn parts(&self) -> Vec<(String, &dyn FittedModel)> {
        self.classes()
            .iter()
            .map(|c| c.to_string())
            .zip(self.models().iter().map(|sub| &*sub.0))
            .collect()
    }
    /// Each class's sub-model's features towards its positive class.
    fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        self.models()
            .iter()
            .map(|sub| sub.top_features(k).pop().unwrap_or_default())
            .collect()
    }
    fn top_feature_score(&self) -> &'static str {
        self.models()
            .first()
            .map_or("", |sub| sub.top_feature_score())
    }
}

/// One-vs-one over models of any family (pair models say nothing about one class, so no
/// top features).
impl FittedModel for OneVsOne<Model> {
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        Some(self)
    }
    /// One per pair of classes, named "a vs b".
    fn parts(&self) -> Vec<(String, &dyn FittedModel)> {
        let classes = self.classes();
        self.pairs()
            .map(|((i, j), sub)| (format!("{} vs {}", classes[i], classes[j]), &*sub.0))
            .collect()
    }
    fn top_features(&self, _k: usize) -> Vec<Vec<(usize, f64)>> {
        vec![Vec::new(); self.classes().len()]
    }
    fn top_feature_score(&self) -> &'static str {
        self.pairs()
            .next()
            .map_or("", |(_, sub)| sub.top_feature_score())
    }
}

/// A regressor has no classes (an empty list) and refuses every class score.
impl Classifier for Model {
    fn classes(&self) -> &[Label] {
        self.classifier().map_or(&[], |c| c.classes())
    }
    fn n_features(&self) -> usize {
        self.0.n_features()
    }
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        self.classifier()?.decision_function(x)
    }
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>> {
        self.classifier()?.predict_log_proba(x)
    }
    fn predict_index(&self, x: &Features) -> Result<Vec<usize>> {
        self.classifier()?.predict_index(x)
    }
    fn predicts_most_probable(&self) -> bool {
        self.classifier().is_ok_and(|c| c.predicts_most_probable())
    }
    fn predicts_largest_score(&self) -> bool {
        self.classifier().is_ok_and(|c| c.predicts_largest_score())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::text_files::read_dir;
    use crate::data::{LabelledInput, RawInput};

    #[test]
    fn a_folder_of_files_fits_and_predicts_as_its_text() {
        let dir = tempfile::tempdir().unwrap();
        let docs = [
            ("ham", "a", "meeting at noon"),
            ("ham", "b", "lunch at noon then the meeting"),
            ("spam", "c", "win money now"),
            ("spam", "d", "free money, win \u{ff} now"),
        ];
        for (class, name, text) in docs {
            std::fs::create_dir_all(dir.path().join(class)).unwrap();
            std::fs::write(dir.path().join(class).join(name), text).unwrap();
        }
        let files = read_dir(dir.path()).unwrap();
        assert!(matches!(files.input, RawInput::Files(_)));
        let text = LabelledInput {
            input: RawInput::Text(docs.iter().map(|d| d.2.to_string()).collect()),
            ..files.clone()
        };
        let spec = PipelineSpec::new("multinomial-nb").unwrap();
        let (a, b) = (spec.fit(&files).unwrap(), spec.fit(&text).unwrap());
        let x = a.features(&files.input).unwrap();
        assert_eq!(x, b.features(&text.input).unwrap());
        assert_eq!(x, b.features(&files.input).unwrap());
        assert_eq!(
            a.predict(&text.input).unwrap(),
            b.predict(&files.input).unwrap()
        );
        let rows = files.input.select_rows(&[3, 0]);
        assert_eq!(rows.n_rows(), 2);
        assert_eq!(
            a.predict(&rows).unwrap(),
            vec![Label::from("spam"), Label::from("ham")]
        );
    }

    #[test]
    fn fits_and_predictions_take_their_threads_and_agree_for_any_count() {
        let x = Features::from(Array2::from_shape_fn((300, 3), |(i, j)| {
            ((i * 7 + j * 13) % 11) as f64 - 5.0
        }));
        let y: Vec<Label> = (0..300).map(|i| Label::Int((i % 3) as i64)).collect();
        let data = Dataset::new(x, &y).unwrap();
        let learner = Learner::from_kind("logistic-regression").unwrap();
        let fit = |threads| {
            let options = FitOptions {
                threads,
                ..FitOptions::default()
            };
            serde_json::to_string(&learner.fit_with(&data, &options).unwrap()).unwrap()
        };
        assert_eq!(fit(Threads::Count(1)), fit(Threads::Count(3)));
        let bad = FitOptions {
            threads: Threads::Count(0),
            ..FitOptions::default()
        };
        assert!(learner
            .fit_with(&data, &bad)
            .unwrap_err()
            .to_string()
            .contains("threads"));

        let input = LabelledInput {
            input: RawInput::Matrix(data.x().clone()),
            labels: Some(y.clone()),
            source: "m".into(),
        };
        let mut p = PipelineSpec::new("gaussian-nb")
            .unwrap()
            .fit(&input)
            .unwrap();
        let all = p.predict_proba(&input.input).unwrap();
        p.set_threads(Threads::Count(2));
        assert_eq!(p.predict_proba(&input.input).unwrap(), all);
        p.set_threads(Threads::Count(0));
        assert!(p.predict(&input.input).is_err());
        assert!(p.evaluate(&input).is_err());
    }
}
