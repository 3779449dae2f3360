//! Neural networks: the multilayer perceptron trained by backpropagation.
//!
//! A network of `L` layers maps a row `x` to outputs through layers of units,
//!
//! ```text
//! a_0 = x,   a_l = g(a_{l-1} W_l + b_l)  (l < L),   a_L = output(a_{L-1} W_L + b_L)
//! ```
//!
//! with `g` the hidden units' [`Activation`] (the course's sigmoid unit `1 / (1 + e^-z)`,
//! tanh, relu or identity) and the [`Output`] layer matched to its loss: softmax with
//! cross-entropy for classes, one logistic unit for two, identity with squared error for
//! regression, or the course's sigmoid outputs with squared error. With no hidden layer it
//! is the linear family's logistic, softmax or least-squares model.
//!
//! Training minimises the average loss plus scikit-learn's L2 penalty,
//! `J = (sum_i w_i l_i + alpha/2 sum_l ||W_l||^2) / sum_i w_i`, whose gradient
//! backpropagation computes layer by layer from the output back ([`backprop`]). The
//! parameters live in one flat vector, `[W_1, ..., W_L, b_1, ..., b_L]` ([`layers`]), so the
//! shared optimisers move them as any other model's.
//!
//! - [`activation`]: the units and the output layers with their losses and derivatives.
//! - [`layers`]: the layout of the parameters, Glorot's initialisation, the first layer's
//!   products with dense or sparse rows.
//! - [`backprop`]: the forward pass, the loss of a batch and its gradient.
//! - [`precision`]: training's passes in `f64` or, faster, `f32` (`dtype`).
//! - [`stochastic`]: mini-batch SGD with (Nesterov's) momentum and its step schedules,
//!   Adam, an epoch, and training by epochs until the loss stops improving.
//! - [`mlp`]: the kinds `mlp` and `mlp-regressor` ([`Mlp`], [`MlpRegressor`]) and their
//!   fitted [`MlpModel`].
//!
//! | kind | scikit-learn | what it fits |
//! |---|---|---|
//! | `mlp` | `MLPClassifier` | classes: softmax (or logistic) outputs, cross-entropy; `loss=squared` the course's sigmoid outputs |
//! | `mlp-regressor` | `MLPRegressor` | real values: identity outputs, squared error |

pub mod activation;
pub mod backprop;
pub mod layers;
pub mod mlp;
pub mod precision;
pub mod step;
pub mod stochastic;

pub use activation::{Activation, Output};
pub use backprop::{Batch, Gradient, Network};
pub use layers::Layout;
pub use mlp::{ClassLoss, Mlp, MlpModel, MlpRegressor, MlpState, Optimizer, Stop, Training};
pub use precision::Dtype;
pub use step::{Adam, Schedule, Sgd, Step, StepRule};
pub use stochastic::{epoch, train, Budget, EpochData, Trained, Watch};

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::estimator::{
    boxed_learner, read_validated, Classifier, Family, Fit, FittedModel, KindInfo, Learn, Regressor,
};
use crate::param::{Composite, Params};

/// Values a parallel task of an elementwise pass over the parameters handles (the
/// optimiser's step, the penalty, the conversions). Each value is computed alone, and sums
/// run over these fixed chunks added in order, so the passes give the same bits on any
/// number of threads.
const PARAMETER_CHUNK: usize = 1 << 13;

/// The neural network family, as the registry lists it.
pub const FAMILY: Family = Family {
    kinds: KINDS,
    learner: |kind| boxed_learner(Neural::from_kind, kind),
    model_tag: "Mlp",
    read_model: |d| read_validated(d, MlpModel::validate),
};

const GROUP: &str = "neural networks";

/// The neural network kinds, in the order of the [`Neural`] variants.
pub const KINDS: &[KindInfo] = &[
    KindInfo::classifier(
        Mlp::KIND,
        GROUP,
        "multilayer perceptron: hidden layers of relu / tanh / sigmoid units by backpropagation (Adam, SGD, L-BFGS)",
    ),
    KindInfo::regressor(
        MlpRegressor::KIND,
        GROUP,
        "multilayer perceptron regression: identity outputs, squared error",
    ),
];

/// Either multilayer perceptron learner, chosen by kind name.
#[derive(Clone, Debug, PartialEq)]
pub enum Neural {
    Classifier(Mlp),
    Regressor(MlpRegressor),
}

impl Neural {
    /// The learner of kind `kind` with default params.
    pub fn from_kind(kind: &str) -> Result<Self> {
        match kind {
            Mlp::KIND => Ok(Neural::Classifier(Mlp::default())),
            MlpRegressor::KIND => Ok(Neural::Regressor(MlpRegressor::default())),
            _ => {
                let names: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
                Err(Error::param(
                    "model",
                    kind,
                    format!("valid kinds: {}", names.join(", ")),
                ))
            }
        }
    }

    fn training(&self) -> &Training {
        match self {
            Neural::Classifier(p) => &p.training,
            Neural::Regressor(p) => &p.training,
        }
    }
}

impl Composite for Neural {
    fn component(&self) -> String {
        self.info().name.to_string()
    }
    fn parts(&self) -> Vec<&dyn Params> {
        vec![match self {
            Neural::Classifier(p) => p as &dyn Params,
            Neural::Regressor(p) => p as &dyn Params,
        }]
    }
    fn parts_mut(&mut self) -> Vec<&mut dyn Params> {
        vec![match self {
            Neural::Classifier(p) => p as &mut dyn Params,
            Neural::Regressor(p) => p as &mut dyn Params,
        }]
    }
}

impl Learn for Neural {
    fn info(&self) -> &'static KindInfo {
        &KINDS[match self {
            Neural::Classifier(_) => 0,
            Neural::Regressor(_) => 1,
        }]
    }
    fn fit_model(&self, data: &Dataset) -> Result<Box<dyn FittedModel>> {
        Ok(match self {
            Neural::Classifier(p) => Box::new(p.fit(data)?),
            Neural::Regressor(p) => Box::new(p.fit(data)?),
        })
    }
    /// Mini-batches are runs of rows in the order given (shuffled by the seed), so the
    /// steps depend on it; L-BFGS sees all rows at once.
    fn depends_on_row_order(&self) -> bool {
        self.training().solver != Optimizer::Lbfgs
    }
}

impl FittedModel for MlpModel {
    fn tag(&self) -> &'static str {
        FAMILY.model_tag
    }
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        (!self.classes.is_empty()).then_some(self as &dyn Classifier)
    }
    fn as_regressor(&self) -> Option<&dyn Regressor> {
        self.classes.is_empty().then_some(self as &dyn Regressor)
    }
    fn details(&self) -> Vec<(String, String)> {
        self.summary()
    }
}
