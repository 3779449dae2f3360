//! Any linear classifier or regressor, chosen by kind name (the CLI's `--model`).

use ndarray::ArrayView2;

use crate::data::{Dataset, Features};
use crate::error::{Error, Result};
use crate::estimator::{Fit, Params};
use crate::optim::Solver;

use super::{
    linear_regression_init, ClassWeight, LinearModel, LinearRegression, LinearRegressionClassifier,
    LinearRegressionModel, LogisticRegression, Perceptron, Pocket, Ridge, Sgd, SoftmaxRegression,
};

/// The linear classifiers: PLA, pocket, SGD, logistic and softmax regression, and linear
/// regression used as a classifier (`g(x) = sign(w_lin.x + b)`).
#[derive(Clone, Debug, PartialEq)]
pub enum LinearClassifier {
    Perceptron(Perceptron),
    Pocket(Pocket),
    Sgd(Sgd),
    Logistic(LogisticRegression),
    Softmax(SoftmaxRegression),
    LeastSquares(LinearRegressionClassifier),
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
            LinearClassifier::LeastSquares($p) => $body,
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
            LinearRegressionClassifier::KIND,
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
            LinearRegressionClassifier::KIND => {
                LinearClassifier::LeastSquares(LinearRegressionClassifier::default())
            }
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
    /// mistake-driven and stochastic learners, and logistic regression with `solver=sgd`),
    /// beyond rounding.
    pub fn depends_on_row_order(&self) -> bool {
        match self {
            LinearClassifier::Perceptron(_)
            | LinearClassifier::Pocket(_)
            | LinearClassifier::Sgd(_) => true,
            LinearClassifier::Logistic(p) => p.training.solver == Solver::Sgd,
            LinearClassifier::Softmax(_) | LinearClassifier::LeastSquares(_) => false,
        }
    }

    /// Starts PLA, pocket or logistic regression from the linear-regression weights of
    /// `data` (the courses' initialisation); other learners are returned unchanged.
    pub fn with_linear_regression_init(&self, data: &Dataset) -> Result<Self> {
        let class_weight = |p: &dyn Params| -> Result<ClassWeight> {
            let text = p
                .param_values()
                .into_iter()
                .find(|(n, _)| n == "class_weight")
                .map_or("none".to_string(), |(_, v)| v);
            text.parse()
                .map_err(|e: String| Error::param("class_weight", &text, e))
        };
        let mut out = self.clone();
        match &mut out {
            LinearClassifier::Perceptron(p) => {
                let (w, b) = linear_regression_init(data, &class_weight(p)?)?;
                p.init_weights = Some(folded(w, b, p.fit_intercept));
            }
            LinearClassifier::Pocket(p) => {
                let (w, b) = linear_regression_init(data, &class_weight(p)?)?;
                p.init_weights = Some(folded(w, b, p.fit_intercept));
            }
            LinearClassifier::Logistic(p) => {
                let (mut w, b) = linear_regression_init(data, &p.training.class_weight)?;
                if p.training.fit_intercept || p.bias.is_some() {
                    w.push(b);
                }
                p.training.init = Some(w);
            }
            _ => {}
        }
        Ok(out)
    }
}

/// `(b, w_1..w_d)` with an intercept, `(w_1..w_d)` without: the perceptron's layout.
fn folded(w: Vec<f64>, b: f64, fit_intercept: bool) -> Vec<f64> {
    if fit_intercept {
        std::iter::once(b).chain(w).collect()
    } else {
        w
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

/// The linear regressors: least squares and ridge.
#[derive(Clone, Debug, PartialEq)]
pub enum LinearRegressor {
    LeastSquares(LinearRegression),
    Ridge(Ridge),
}

impl LinearRegressor {
    /// The kind names.
    pub fn kind_names() -> &'static [&'static str] {
        &["linear-regression", "ridge"]
    }

    /// The learner of kind `kind` with default params.
    pub fn from_kind(kind: &str) -> Result<Self> {
        match kind {
            "linear-regression" => Ok(LinearRegressor::LeastSquares(LinearRegression::default())),
            "ridge" => Ok(LinearRegressor::Ridge(Ridge::default())),
            _ => Err(Error::param(
                "model",
                kind,
                format!("valid kinds: {}", Self::kind_names().join(", ")),
            )),
        }
    }

    /// Fits `y` (`n x outputs`) on `x` with optional sample weights.
    pub fn fit_xy(
        &self,
        x: &Features,
        y: ArrayView2<f64>,
        weights: Option<&[f64]>,
    ) -> Result<LinearRegressionModel> {
        match self {
            LinearRegressor::LeastSquares(p) => p.fit_xy(x, y, weights),
            LinearRegressor::Ridge(p) => p.fit_xy(x, y, weights),
        }
    }

    fn params(&self) -> &dyn Params {
        match self {
            LinearRegressor::LeastSquares(p) => p,
            LinearRegressor::Ridge(p) => p,
        }
    }
}

impl Params for LinearRegressor {
    fn set_param(&mut self, name: &str, value: &str) -> Result<()> {
        match self {
            LinearRegressor::LeastSquares(p) => p.set_param(name, value),
            LinearRegressor::Ridge(p) => p.set_param(name, value),
        }
    }
    fn param_values(&self) -> Vec<(String, String)> {
        self.params().param_values()
    }
}
