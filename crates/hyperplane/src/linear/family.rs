//! Any linear classifier or regressor, chosen by kind name (the CLI's `--model`).

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::estimator::{
    boxed_learner, read_model, Classifier, Family, Fit, FittedModel, KindInfo, Learn, Regressor,
    Unweighted,
};
use crate::optim::Solver;
use crate::param::{Composite, Params};

use super::{
    linear_regression_init, row_weights, ClassWeight, LinearModel, LinearRegression,
    LinearRegressionClassifier, LinearRegressionModel, LinearSvm, LogisticRegression, Perceptron,
    Pocket, Ridge, Sgd, SoftmaxRegression,
};

/// The linear classifiers, as the registry lists them.
pub const CLASSIFIER_FAMILY: Family = Family {
    kinds: CLASSIFIERS,
    learner: |kind| boxed_learner(LinearClassifier::from_kind, kind),
    model_tag: "Linear",
    read_model: read_model::<LinearModel>,
};

/// The linear regressors, as the registry lists them.
pub const REGRESSOR_FAMILY: Family = Family {
    kinds: REGRESSORS,
    learner: |kind| boxed_learner(LinearRegressor::from_kind, kind),
    model_tag: "Regression",
    read_model: read_model::<LinearRegressionModel>,
};

/// The linear classifier kinds.
pub const CLASSIFIERS: &[KindInfo] = &[
    KindInfo::binary(
        Perceptron::KIND,
        CLASSIFIER_GROUP,
        "the perceptron learning algorithm (PLA), cyclic or random order",
    ),
    KindInfo::binary(
        Pocket::KIND,
        CLASSIFIER_GROUP,
        "PLA keeping the weights of least in-sample error",
    ),
    KindInfo::binary(
        Sgd::KIND,
        CLASSIFIER_GROUP,
        "stochastic gradient descent on hinge, log, squared, modified Huber or perceptron loss",
    ),
    KindInfo::binary(
        "logistic-regression",
        CLASSIFIER_GROUP,
        "L2-regularised cross-entropy; Newton, L-BFGS, gradient descent or SGD",
    ),
    KindInfo::classifier(
        "softmax-regression",
        CLASSIFIER_GROUP,
        "multinomial logistic regression, native multiclass",
    ),
    KindInfo::binary(
        LinearRegressionClassifier::KIND,
        CLASSIFIER_GROUP,
        "linear regression on -1/+1 targets, sign of the score",
    ),
    KindInfo::binary(
        LinearSvm::KIND,
        CLASSIFIER_GROUP,
        "linear SVM, hinge or squared hinge: dual coordinate descent, or Newton on the primal",
    ),
];

/// The linear regressor kinds.
pub const REGRESSORS: &[KindInfo] = &[
    KindInfo::regressor(
        "linear-regression",
        REGRESSOR_GROUP,
        "least squares by QR and SVD (minimum norm, rank reported); LSQR on sparse input",
    ),
    KindInfo::regressor(
        "ridge",
        REGRESSOR_GROUP,
        "least squares with an L2 penalty alpha ||w||^2",
    ),
];

const CLASSIFIER_GROUP: &str = "linear classifiers";
const REGRESSOR_GROUP: &str = "regressors";

/// The linear classifiers: PLA, pocket, SGD, logistic and softmax regression, linear
/// regression used as a classifier (`g(x) = sign(w_lin.x + b)`) and the linear SVM.
#[derive(Clone, Debug, PartialEq)]
pub enum LinearClassifier {
    Perceptron(Perceptron),
    Pocket(Pocket),
    Sgd(Sgd),
    Logistic(LogisticRegression),
    Softmax(SoftmaxRegression),
    LeastSquares(LinearRegressionClassifier),
    Svm(LinearSvm),
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
            LinearClassifier::Svm($p) => $body,
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
            LinearSvm::KIND => LinearClassifier::Svm(LinearSvm::default()),
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
        self.info().name
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
            // the SVM's random pass order moves its weights within its tolerance only
            LinearClassifier::Softmax(_)
            | LinearClassifier::LeastSquares(_)
            | LinearClassifier::Svm(_) => false,
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
            LinearClassifier::Svm(p) => &mut p.class_weight,
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

impl Learn for LinearClassifier {
    fn info(&self) -> &'static KindInfo {
        &CLASSIFIERS[match self {
            LinearClassifier::Perceptron(_) => 0,
            LinearClassifier::Pocket(_) => 1,
            LinearClassifier::Sgd(_) => 2,
            LinearClassifier::Logistic(_) => 3,
            LinearClassifier::Softmax(_) => 4,
            LinearClassifier::LeastSquares(_) => 5,
            LinearClassifier::Svm(_) => 6,
        }]
    }
    fn fit_model(&self, data: &Dataset) -> Result<Box<dyn FittedModel>> {
        Ok(Box::new(self.fit(data)?))
    }
    fn depends_on_row_order(&self) -> bool {
        LinearClassifier::depends_on_row_order(self)
    }
    fn split_class_weight(&self, data: &Dataset) -> Result<Option<Unweighted>> {
        let cw = self.class_weight();
        if cw == ClassWeight::Uniform {
            return Ok(None);
        }
        let rows = row_weights(data, &cw)?;
        Ok(Some((
            Box::new(self.with_class_weight(ClassWeight::Uniform)),
            rows,
        )))
    }
    fn warm_started(&self, data: &Dataset) -> Result<Option<Box<dyn Learn>>> {
        Ok(Some(Box::new(self.with_linear_regression_init(data)?)))
    }
}

impl FittedModel for LinearModel {
    fn tag(&self) -> &'static str {
        CLASSIFIER_FAMILY.model_tag
    }
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        Some(self)
    }
    fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        LinearModel::top_features(self, k)
    }
    fn top_feature_score(&self) -> &'static str {
        "weight w_j towards the class"
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
        self.info().name
    }
}

impl Fit for LinearRegressor {
    type Model = LinearRegressionModel;
    fn fit(&self, data: &Dataset) -> Result<LinearRegressionModel> {
        match self {
            LinearRegressor::LeastSquares(p) => p.fit(data),
            LinearRegressor::Ridge(p) => p.fit(data),
        }
    }
}

impl Learn for LinearRegressor {
    fn info(&self) -> &'static KindInfo {
        &REGRESSORS[match self {
            LinearRegressor::LeastSquares(_) => 0,
            LinearRegressor::Ridge(_) => 1,
        }]
    }
    fn fit_model(&self, data: &Dataset) -> Result<Box<dyn FittedModel>> {
        Ok(Box::new(self.fit(data)?))
    }
}

impl FittedModel for LinearRegressionModel {
    fn tag(&self) -> &'static str {
        REGRESSOR_FAMILY.model_tag
    }
    fn as_regressor(&self) -> Option<&dyn Regressor> {
        Some(self)
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
