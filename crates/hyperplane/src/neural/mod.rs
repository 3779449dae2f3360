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

use crate::estimator::{Body, Family, Registration};

/// Values a parallel task of an elementwise pass over the parameters handles (the
/// optimiser's step, the penalty, the conversions). Each value is computed alone, and sums
/// run over these fixed chunks added in order, so the passes give the same bits on any
/// number of threads.
const PARAMETER_CHUNK: usize = 1 << 13;

/// The neural network family, as the registry lists it: one line per kind.
pub const FAMILY: Family = Family {
    kinds: &[
        Registration::of::<Mlp>(),
        Registration::of::<MlpRegressor>(),
    ],
    model_tag: MlpModel::TAG,
};

/// The family of the networks, as the kind table groups them.
const GROUP: &str = "neural networks";
