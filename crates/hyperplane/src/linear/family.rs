//! Any linear classifier or regressor, chosen by kind name (the CLI's `--model`).

use ndarray::ArrayView2;

use crate::data::{Dataset, Features};
use crate::error::{Error, Result};
use crate::estimator::{Fit, KindInfo};
use crate::optim::Solver;
use crate::param::{Composite, Params};

use super::{
    linear_regression_init, ClassWeight, LinearModel, LinearRegression, LinearRegressionClassifier,
    LinearRegressionModel, LogisticRegression, Perceptron, Pocket, Ridge, Sgd, SoftmaxRegression,
};

/// The linear classifier kinds.
pub const CLASSIFIERS: &[KindInfo] = &[
    KindInfo::binary(
        Perceptron::KIND,
        CLASSIFIER_FAMILY,
        "the perceptron learning algorithm (PLA), cyclic or random order",
    ),
    KindInfo::binary(
        Pocket::KIND,
        CLASSIFIER_FAMILY,
        "PLA keeping the weights of least in-sample error",
    ),
    KindInfo::binary(
        Sgd::KIND,
        CLASSIFIER_FAMILY,
        "stochastic gradient descent on hinge, log, squared, modified Huber or perceptron loss",
    ),
    KindInfo::binary(
        "logistic-regression",
        CLASSIFIER_FAMILY,
        "L2-regularised cross-entropy; Newton, L-BFGS, gradient descent or SGD",
    ),
    KindInfo::classifier(
        "softmax-regression",
        CLASSIFIER_FAMILY,
        "multinomial logistic regression, native multiclass",
    ),
    KindInfo::binary(
        LinearRegressionClassifier::KIND,
        CLASSIFIER_FAMILY,
        "linear regression on -1/+1 targets, sign of the score",
    ),
];

/// The linear regressor kinds.
pub const REGRESSORS: &[KindInfo] = &[
    KindInfo::regressor(
        "linear-regression",
        REGRESSOR_FAMILY,
        "least squares by QR and SVD (minimum norm, rank reported); LSQR on sparse input",
    ),
    KindInfo::regressor(
        "ridge",
        REGRESSOR_FAMILY,
        "least squares with an L2 penalty alpha ||w||^2",
    ),
];

const CLASSIFIER_FAMILY: &str = "linear classifiers";
const REGRESSOR_FAMILY: &str = "regressors";

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
    pub fn kind_names() -> Vec<&'static str> {
        CLASSIFIERS.iter().map(|k| k.name).collect()
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

    /// This learner's kind name.
    pub fn kind(&self) -> &'static str {
        let index = match self {
            LinearClassifier::Perceptron(_) => 0,
            LinearClassifier::Pocket(_) => 1,
            LinearClassifier::Sgd(_) => 2,
            LinearClassifier::Logistic(_) => 3,
            LinearClassifier::Softmax(_) => 4,
            LinearClassifier::LeastSquares(_) => 5,
        };
        CLASSIFIERS[index].name
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
        let class_weight = self.class_weight();
        let mut out = self.clone();
        match &mut out {
            LinearClassifier::Perceptron(p) => {
                let (w, b) = linear_regression_init(data, &class_weight)?;
                p.init_weights = Some(folded(w, b, p.fit_intercept));
            }
            LinearClassifier::Pocket(p) => {
                let (w, b) = linear_regression_init(data, &class_weight)?;
                p.init_weights = Some(folded(w, b, p.fit_intercept));
            }
            LinearClassifier::Logistic(p) => {
                let (mut w, b) = linear_regression_init(data, &class_weight)?;
                if p.training.fit_intercept || p.bias.is_some() {
                    w.push(b);
                }
                p.training.init = Some(w);
            }
            _ => {}
        }
        Ok(out)
    }

    /// The class weights of the learner.
    pub fn class_weight(&self) -> ClassWeight {
        self.clone().class_weight_slot_mut().clone()
    }

    /// The same learner with the class weights replaced (the pipeline applies them as row
    /// weights once before a multiclass reduction).
    pub fn with_class_weight(&self, class_weight: ClassWeight) -> Self {
        let mut out = self.clone();
        *out.class_weight_slot_mut() = class_weight;
        out
    }

    fn class_weight_slot_mut(&mut self) -> &mut ClassWeight {
        match self {
            LinearClassifier::Perceptron(p) => &mut p.class_weight,
            LinearClassifier::Pocket(p) => &mut p.class_weight,
            LinearClassifier::Sgd(p) => &mut p.class_weight,
            LinearClassifier::Logistic(p) => &mut p.training.class_weight,
            LinearClassifier::Softmax(p) => &mut p.training.class_weight,
            LinearClassifier::LeastSquares(p) => &mut p.class_weight,
        }
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

impl Composite for LinearClassifier {
    fn component(&self) -> String {
        self.kind().to_string()
    }
    fn parts(&self) -> Vec<&dyn Params> {
        vec![each!(self, |p| p as &dyn Params)]
    }
    fn parts_mut(&mut self) -> Vec<&mut dyn Params> {
        vec![each!(self, |p| p as &mut dyn Params)]
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
    pub fn kind_names() -> Vec<&'static str> {
        REGRESSORS.iter().map(|k| k.name).collect()
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

    /// This learner's kind name.
    pub fn kind(&self) -> &'static str {
        match self {
            LinearRegressor::LeastSquares(_) => REGRESSORS[0].name,
            LinearRegressor::Ridge(_) => REGRESSORS[1].name,
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
}

impl Composite for LinearRegressor {
    fn component(&self) -> String {
        self.kind().to_string()
    }
    fn parts(&self) -> Vec<&dyn Params> {
        vec![match self {
            LinearRegressor::LeastSquares(p) => p as &dyn Params,
            LinearRegressor::Ridge(p) => p,
        }]
    }
    fn parts_mut(&mut self) -> Vec<&mut dyn Params> {
        vec![match self {
            LinearRegressor::LeastSquares(p) => p as &mut dyn Params,
            LinearRegressor::Ridge(p) => p,
        }]
    }
}
