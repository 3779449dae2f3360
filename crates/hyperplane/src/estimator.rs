//! The contracts every learner keeps.
//!
//! A learner is a plain params struct (with `Default` and builder setters) that implements
//! [`Fit`]: `fit` validates the params, checks the data and returns a fitted model. A
//! fitted classifier implements [`Classifier`], a fitted regressor [`Regressor`]; every
//! method returns `Result` and checks the feature count, so nothing panics on user input.

use ndarray::Array2;
use serde::Serialize;

use crate::data::{Dataset, Features, Label};
use crate::error::Result;
use crate::numeric;

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

    /// The same kind, reading categorical features.
    pub const fn with_categorical_input(self) -> Self {
        KindInfo {
            categorical_input: true,
            ..self
        }
    }
}
