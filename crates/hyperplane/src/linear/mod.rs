//! Linear models: every classifier and regressor whose score is `s = w.x + b`.
//!
//! The learners differ only in how they choose `w`; they share the fitted
//! [`LinearModel`], the pointwise [`Loss`]es, the [`margins`] and the label and weight
//! conventions below, so each algorithm file holds just its update rule.
//!
//! Conventions:
//! - Binary problems use `y = -1` for `classes[0]` and `y = +1` for `classes[1]`
//!   (sorted classes, so `-1 < +1` and `"ham" < "spam"` come out as the courses write them).
//! - Every learner honours sample weights and class weights through one per-row weight
//!   `w_n = sample_weight_n * class_weight_{y_n}` ([`row_weights`]).
//! - The fitted [`LinearModel`] and these two conventions live below the families
//!   ([`crate::score`], [`crate::targets`], [`crate::weights`]): the hard-margin SVM fits
//!   the same model, and the kernel SVMs and networks weigh rows the same way.

mod binary;
mod binary_objective;
mod cross_entropy;
pub mod experiment;
mod logistic;
mod loss;
mod margin;
mod perceptron;
mod pocket;
mod regression;
pub mod sgd;
mod softmax;
mod svm;

/// The fitted-regressor trait, also at [`crate::Regressor`] (it lives in [`crate::estimator`]).
pub use crate::estimator::Regressor;
pub use cross_entropy::Training;
pub use logistic::LogisticRegression;
pub use loss::Loss;
pub use margin::{margins, pla_check, Margins, PlaCheck};
pub use perceptron::{pla_update_bound, Order, Perceptron, PlaBound, Trace, TraceStep, TRACE_CAP};
pub use pocket::Pocket;
pub use regression::{
    linear_regression_init, LinearRegression, LinearRegressionClassifier, LinearRegressionModel,
    LstsqMethod, Ridge,
};
pub use sgd::{Sgd, SgdState};
pub use softmax::SoftmaxRegression;
// The fitted model and the weight and target conventions live below the families.
pub use crate::score::{LinearModel, Link};
pub use crate::targets::signed_targets;
pub use crate::weights::{row_weights, ClassWeight};
pub use svm::{LinearSvm, SvmLoss, SvmSolver};

use crate::estimator::{Body, Family, Registration};

/// The linear classifiers, as the registry lists them: one line per kind.
pub const CLASSIFIER_FAMILY: Family = Family {
    kinds: &[
        Registration::of::<Perceptron>(),
        Registration::of::<Pocket>(),
        Registration::of::<Sgd>(),
        Registration::of::<LogisticRegression>(),
        Registration::of::<SoftmaxRegression>(),
        Registration::of::<LinearRegressionClassifier>(),
        Registration::of::<LinearSvm>(),
    ],
    model_tag: LinearModel::TAG,
};

/// The linear regressors, as the registry lists them: one line per kind.
pub const REGRESSOR_FAMILY: Family = Family {
    kinds: &[
        Registration::of::<LinearRegression>(),
        Registration::of::<Ridge>(),
    ],
    model_tag: LinearRegressionModel::TAG,
};

/// The family of the linear classifiers, as the kind table groups them.
const CLASSIFIER_GROUP: &str = "linear classifiers";
/// The family of the linear regressors.
const REGRESSOR_GROUP: &str = "regressors";
