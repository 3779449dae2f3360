//! The contracts every learner keeps.
//!
//! A learner is a plain params struct (with `Default` and builder setters) that implements
//! [`Fit`]: `fit` validates the params, checks the data and returns a fitted model. A
//! fitted classifier implements [`Classifier`], a fitted regressor [`Regressor`]; every
//! method returns `Result` and checks the feature count, so nothing panics on user input.
//!
//! The registry sees every family through two object-safe traits: [`Learn`] (a learner of
//! any kind, with its parameters) and [`FittedModel`] (a fitted model of any kind, saved
//! and read back by its family's tag). A family declares itself in one [`Family`] value
//! beside its code; the pipeline lists the families, one line each.

use std::any::Any;
use std::fmt::Debug;

use ndarray::Array2;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::data::{Dataset, Features, Label};
use crate::error::Result;
use crate::numeric;
use crate::param::Params;

/// Params that can be fitted to a data set.
pub trait Fit {
    /// The fitted model.
    type Model;
    /// Validates the params, checks the data (non-empty, finite) and fits.
    fn fit(&self, data: &Dataset) -> Result<Self::Model>;
}

/// A fitted classifier.
pub trait Classifier {
    /// The classes, sorted; column `k` of every score matrix belongs to `classes()[k]`.
    fn classes(&self) -> &[Label];
    /// The number of features the model was fitted on.
    fn n_features(&self) -> usize;
    /// Per-class scores, shape `(n_samples, n_classes)`; the predicted class has the
    /// largest score. (For Naive Bayes: the joint log-likelihood `log P(y) + log P(x | y)`.)
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>>;
    /// `log P(y | x)` per class.
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>>;

    /// `P(y | x)` per class; each row sums to 1.
    fn predict_proba(&self, x: &Features) -> Result<Array2<f64>> {
        Ok(self.predict_log_proba(x)?.mapv_into(f64::exp))
    }
    /// Whether [`predict_index`](Classifier::predict_index) is the most probable class of
    /// each row (the first largest of [`predict_proba`](Classifier::predict_proba), up to
    /// ties made by rounding), so a caller holding the probabilities need not predict
    /// again. False unless the model says so: a kernel SVM votes over its pairs.
    fn predicts_most_probable(&self) -> bool {
        false
    }
    /// Index into `classes()` of the predicted class of each row (first maximum on ties).
    fn predict_index(&self, x: &Features) -> Result<Vec<usize>> {
        let scores = self.decision_function(x)?;
        Ok(scores
            .rows()
            .into_iter()
            .map(|r| numeric::argmax(r.as_slice().unwrap_or(&r.to_vec())))
            .collect())
    }
    /// The predicted label of each row.
    fn predict(&self, x: &Features) -> Result<Vec<Label>> {
        let classes = self.classes();
        Ok(self
            .predict_index(x)?
            .into_iter()
            .map(|k| classes[k].clone())
            .collect())
    }
}

/// A fitted regression model: real-valued predictions, one column per output.
pub trait Regressor {
    /// The number of features the model was fitted on.
    fn n_features(&self) -> usize;
    /// The number of outputs (columns of `y`).
    fn n_outputs(&self) -> usize;
    /// Predictions, shape `(n_samples, n_outputs)`; checks the feature count.
    fn predict(&self, x: &Features) -> Result<Array2<f64>>;
}

/// What a model kind predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    /// Classes (labels of any kind).
    Classifier,
    /// Real numbers (one or more outputs).
    Regressor,
    /// Novelty detection: inliers (class `1`) and outliers (`-1`) of the training rows'
    /// distribution; the rows' labels are not used in training.
    Novelty,
}

/// A model kind as its family declares it, beside its code; the pipeline's registry
/// ([`pipeline::kinds`](crate::pipeline::kinds)) lists every family's kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KindInfo {
    /// The name `--model` and `PipelineSpec::new` take.
    pub name: &'static str,
    /// The family, as the kind table groups kinds.
    pub family: &'static str,
    /// What it predicts.
    pub task: Task,
    /// Whether it separates two classes only (more classes go through one-vs-all or
    /// one-vs-one).
    pub binary: bool,
    /// Whether it models categorical features (categories as indices, numeric columns
    /// binned) rather than numeric ones (categories one-hot).
    pub categorical_input: bool,
    /// What it is, in one line.
    pub about: &'static str,
}

impl KindInfo {
    /// A classifier of more than two classes natively.
    pub const fn classifier(name: &'static str, family: &'static str, about: &'static str) -> Self {
        KindInfo {
            name,
            family,
            task: Task::Classifier,
            binary: false,
            categorical_input: false,
            about,
        }
    }

    /// A classifier of two classes.
    pub const fn binary(name: &'static str, family: &'static str, about: &'static str) -> Self {
        KindInfo {
            binary: true,
            ..KindInfo::classifier(name, family, about)
        }
    }

    /// A regressor.
    pub const fn regressor(name: &'static str, family: &'static str, about: &'static str) -> Self {
        KindInfo {
            task: Task::Regressor,
            ..KindInfo::classifier(name, family, about)
        }
    }

    /// A novelty detector (predicts `1` inside, `-1` outside; labels unused).
    pub const fn novelty(name: &'static str, family: &'static str, about: &'static str) -> Self {
        KindInfo {
            task: Task::Novelty,
            ..KindInfo::classifier(name, family, about)
        }
    }

    /// The same kind, reading categorical features.
    pub const fn with_categorical_input(self) -> Self {
        KindInfo {
            categorical_input: true,
            ..self
        }
    }
}

/// A learner of any family, as the registry and the pipeline drive it: a params struct
/// (or a family's enum of them) behind one object-safe interface.
pub trait Learn: AsParams + AsAny + CloneLearn + Debug + Send + Sync {
    /// The registry entry of its kind.
    fn info(&self) -> &'static KindInfo;
    /// Fits on `data`: its classes for a classifier, its real-valued targets
    /// ([`Dataset::values`]) for a regressor.
    fn fit_model(&self, data: &Dataset) -> Result<Box<dyn FittedModel>>;
    /// Whether the fitted model depends on the order of the training rows beyond rounding
    /// (mistake-driven and stochastic learners).
    fn depends_on_row_order(&self) -> bool {
        false
    }
    /// The learner without its class weights, with the weight they and the sample weights
    /// give each row of `data`: a multiclass reduction applies them once, on the original
    /// classes, so every sub-problem sees the same per-row costs. `None` when the learner
    /// has no class weights (or uniform ones).
    fn split_class_weight(&self, _data: &Dataset) -> Result<Option<Unweighted>> {
        Ok(None)
    }
    /// The learner started from the least-squares weights of binary `data` (the courses'
    /// initialisation of PLA, pocket and logistic regression); `None` for a learner that
    /// has no starting weights.
    fn warm_started(&self, _data: &Dataset) -> Result<Option<Box<dyn Learn>>> {
        Ok(None)
    }
    /// The numbers (`f64`) a fit keeps that grow with the width of the data, as factors
    /// to multiply, checked against the [memory budget](crate::memory) before fitting. By
    /// default four per feature and class (dense weights and a solver's vectors, or the
    /// tables of a Naive Bayes model); `n_classes` is 1 for a regressor.
    fn width_state(&self, n_features: usize, n_classes: usize) -> [usize; 3] {
        [n_features, n_classes.max(1), 4]
    }
}

/// A learner without its class weights, with the weight of each row they stood for.
pub type Unweighted = (Box<dyn Learn>, Vec<f64>);

/// A fitted model of any family: what a pipeline holds and a model file stores, under its
/// family's [`Family::model_tag`].
pub trait FittedModel: erased_serde::Serialize + AsAny + CloneModel + Debug + Send + Sync {
    /// The name of its body in model files.
    fn tag(&self) -> &'static str;
    /// The number of features it was fitted on (its classifier's or regressor's).
    fn n_features(&self) -> usize {
        match (self.as_classifier(), self.as_regressor()) {
            (Some(c), _) => c.n_features(),
            (None, Some(r)) => r.n_features(),
            (None, None) => 0,
        }
    }
    /// The model as a classifier, when it is one.
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        None
    }
    /// The model as a regressor, when it is one.
    fn as_regressor(&self) -> Option<&dyn Regressor> {
        None
    }
    /// The `k` most indicative features of each class, as `(feature index, score)`.
    fn top_features(&self, _k: usize) -> Vec<Vec<(usize, f64)>> {
        Vec::new()
    }
    /// What the scores of [`FittedModel::top_features`] mean.
    fn top_feature_score(&self) -> &'static str {
        ""
    }
    /// `P(y)` per class, when the model has class priors.
    fn class_priors(&self) -> Option<Vec<f64>> {
        None
    }
    /// What `inspect` shows about the model beyond its classes and features: `(what,
    /// value)` lines.
    fn details(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

erased_serde::serialize_trait_object!(FittedModel);

/// A family of model kinds, as it declares itself beside its code.
pub struct Family {
    /// Its kinds.
    pub kinds: &'static [KindInfo],
    /// A learner of one of its kinds with default params (`None` for another name).
    pub learner: fn(&str) -> Option<Box<dyn Learn>>,
    /// The name of its fitted models' bodies in model files.
    pub model_tag: &'static str,
    /// Reads one such body.
    pub read_model: ModelReader,
}

/// Reads a fitted model's body from a model file.
pub type ModelReader = fn(
    &mut dyn erased_serde::Deserializer,
) -> std::result::Result<Box<dyn FittedModel>, erased_serde::Error>;

/// Reads a model body of type `M` and checks it with `validate` before use; a body that
/// fails is an error naming the field.
pub fn read_validated<M: FittedModel + DeserializeOwned>(
    d: &mut dyn erased_serde::Deserializer,
    validate: fn(&M) -> Result<()>,
) -> std::result::Result<Box<dyn FittedModel>, erased_serde::Error> {
    let model: M = erased_serde::deserialize(d)?;
    validate(&model)
        .map_err(|e| <erased_serde::Error as serde::de::Error>::custom(e.to_string()))?;
    Ok(Box::new(model))
}

/// The [`ModelReader`] of a model type that deserializes itself.
pub fn read_model<M: FittedModel + DeserializeOwned>(
    d: &mut dyn erased_serde::Deserializer,
) -> std::result::Result<Box<dyn FittedModel>, erased_serde::Error> {
    Ok(Box::new(erased_serde::deserialize::<M>(d)?))
}

/// The learner of a family's kind: `make(kind)` boxed, `None` on an unknown kind.
pub fn boxed_learner<L: Learn + 'static>(
    make: fn(&str) -> Result<L>,
    kind: &str,
) -> Option<Box<dyn Learn>> {
    make(kind).ok().map(|l| Box::new(l) as Box<dyn Learn>)
}

/// Borrowing a value as its parameters (every [`Params`] type has it).
pub trait AsParams {
    /// The parameters.
    fn as_params(&self) -> &dyn Params;
    /// The parameters, to set.
    fn as_params_mut(&mut self) -> &mut dyn Params;
}

impl<T: Params> AsParams for T {
    fn as_params(&self) -> &dyn Params {
        self
    }
    fn as_params_mut(&mut self) -> &mut dyn Params {
        self
    }
}

/// Borrowing a value as [`Any`], to reach a family's own type behind a trait object.
pub trait AsAny: Any {
    /// The value as `Any`.
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Cloning a boxed learner (every `Clone` learner has it).
pub trait CloneLearn {
    /// A boxed copy.
    fn clone_learn(&self) -> Box<dyn Learn>;
}

impl<T: Learn + Clone + 'static> CloneLearn for T {
    fn clone_learn(&self) -> Box<dyn Learn> {
        Box::new(self.clone())
    }
}

/// Cloning a boxed fitted model (every `Clone` model has it).
pub trait CloneModel {
    /// A boxed copy.
    fn clone_model(&self) -> Box<dyn FittedModel>;
}

impl<T: FittedModel + Clone + 'static> CloneModel for T {
    fn clone_model(&self) -> Box<dyn FittedModel> {
        Box::new(self.clone())
    }
}
