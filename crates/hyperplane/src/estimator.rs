//! The contracts every learner keeps.
//!
//! A learner is a plain params struct (with `Default` and builder setters) that implements
//! [`Fit`]: `fit` validates the params, checks the data and returns a fitted model. A
//! fitted classifier implements [`Classifier`], a fitted regressor [`Regressor`]; every
//! method returns `Result` and checks the feature count, so nothing panics on user input.

use ndarray::Array2;

use crate::data::{Dataset, Features, Label};
use crate::error::{Error, Result};
use crate::numeric;

/// Params that can be fitted to a data set.
pub trait Fit {
    /// The fitted model.
    type Model;
    /// Validates the params, checks the data (non-empty, finite) and fits.
    fn fit(&self, data: &Dataset) -> Result<Self::Model>;
}

/// Params settable by name, as the CLI's `--param NAME=VALUE` and grid search do.
pub trait Params {
    /// Sets one parameter from its text form; an unknown name or a bad value is
    /// [`Error::InvalidParameter`] naming the valid choices.
    fn set_param(&mut self, name: &str, value: &str) -> Result<()>;
    /// Every parameter with its current value, in text form.
    fn param_values(&self) -> Vec<(String, String)>;
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

/// Parses a parameter value of type `T`, or says which parameter and why.
pub fn parse_param<T: std::str::FromStr>(name: &str, value: &str) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    value
        .trim()
        .parse::<T>()
        .map_err(|e| Error::param(name, value, e.to_string()))
}

/// The error for a parameter name a learner does not have.
pub fn unknown_param(model: &str, name: &str, valid: &[&str]) -> Error {
    Error::param(
        name,
        "?",
        format!(
            "{model} has no such parameter; valid names: {}",
            valid.join(", ")
        ),
    )
}
