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
//! - [`stochastic`]: mini-batch SGD with (Nesterov's) momentum and its step schedules,
//!   Adam, an epoch, and training by epochs until the loss stops improving.

pub mod activation;
pub mod backprop;
pub mod layers;
pub mod stochastic;

pub use activation::{Activation, Output};
pub use backprop::{Batch, Network};
pub use layers::Layout;
pub use stochastic::{epoch, train, Adam, Budget, EpochData, Schedule, Sgd, StepRule, Trained};
