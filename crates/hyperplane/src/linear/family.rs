//! Any linear classifier, chosen by kind name (the CLI's `--model`).

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::estimator::{Fit, Params};

use super::{LinearModel, LogisticRegression, Perceptron, Pocket, Sgd, SoftmaxRegression};

/// The linear classifiers: PLA, pocket, SGD, logistic and softmax regression.
#[derive(Clone, Debug, PartialEq)]
pub enum LinearClassifier {
    Perceptron(Perceptron),
    Pocket(Pocket),
    Sgd(Sgd),
    Logistic(LogisticRegression),
    Softmax(SoftmaxRegression),
}

/// Runs `$body` with `$p` bound to the learner inside a [`LinearClassifier`].
macro_rules! each {
    ($e:expr, |$p:ident| $body:expr) => {
        match $e {
            LinearClassifier::Perceptron($p) => $body,
            LinearClassifier::Pocket($p) => $body,
            LinearClassifier::Sgd($p) => $body,
            LinearClassifier::Logistic($p) => $body,
            LinearClassifier::Softmax($p) => $body,
        }
    };
}

impl LinearClassifier {
    /// The kind names.
    pub fn kind_names() -> &'static [&'static str] {
        &[
            Perceptron::KIND,
            Pocket::KIND,
            Sgd::KIND,
            "logistic-regression",
            "softmax-regression",
        ]
    }

    /// The learner of kind `kind` with default params.
    pub fn from_kind(kind: &str) -> Result<Self> {
        Ok(match kind {
            Perceptron::KIND => LinearClassifier::Perceptron(Perceptron::default()),
            Pocket::KIND => LinearClassifier::Pocket(Pocket::default()),
            Sgd::KIND => LinearClassifier::Sgd(Sgd::default()),
            "logistic-regression" => LinearClassifier::Logistic(LogisticRegression::default()),
            "softmax-regression" => LinearClassifier::Softmax(SoftmaxRegression::default()),
            _ => {
                return Err(Error::param(
                    "model",
                    kind,
                    format!("valid kinds: {}", Self::kind_names().join(", ")),
                ))
            }
        })
    }

    /// Whether the learner separates two classes only (all but softmax regression).
    pub fn is_binary(&self) -> bool {
        !matches!(self, LinearClassifier::Softmax(_))
    }

    /// Whether the fitted weights depend on the order of the training rows (the
    /// mistake-driven and stochastic learners), beyond rounding.
    pub fn depends_on_row_order(&self) -> bool {
        matches!(
            self,
            LinearClassifier::Perceptron(_)
                | LinearClassifier::Pocket(_)
                | LinearClassifier::Sgd(_)
        )
    }
}

impl Params for LinearClassifier {
    fn set_param(&mut self, name: &str, value: &str) -> Result<()> {
        each!(self, |p| p.set_param(name, value))
    }
    fn param_values(&self) -> Vec<(String, String)> {
        each!(self, |p| p.param_values())
    }
}

impl Fit for LinearClassifier {
    type Model = LinearModel;
    fn fit(&self, data: &Dataset) -> Result<LinearModel> {
        each!(self, |p| p.fit(data))
    }
}
