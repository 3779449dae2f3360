//! The units' activation functions and the output layers with their losses.
//!
//! ```text
//! identity  g(z) = z                     g'(z) = 1
//! sigmoid   g(z) = 1 / (1 + exp(-z))     g'(z) = g (1 - g)
//! tanh      g(z) = tanh z                g'(z) = 1 - g^2
//! relu      g(z) = max(0, z)             g'(z) = [g > 0]
//! ```
//!
//! Each derivative is written in terms of the unit's output `a = g(z)`, so backpropagation
//! needs only the activations it kept from the forward pass (as scikit-learn's MLP does).
//!
//! The output layer and the loss go together so that the error at the output is simple:
//!
//! ```text
//! softmax   a_k = exp(z_k) / sum_j exp(z_j)   l = -sum_k y_k log a_k          dl/dz = a - y
//! logistic  a = sigmoid(z) (two classes)      l = -y log a - (1 - y) log(1 - a)  dl/dz = a - y
//! identity  a = z (regression)                l = 1/2 sum_k (a_k - y_k)^2      dl/dz = a - y
//! squared   a_k = sigmoid(z_k) (classes)      l = 1/2 sum_k (a_k - y_k)^2      dl/dz = (a - y) a (1 - a)
//! ```
//!
//! The cross-entropies take `log` of the probabilities clipped to `[eps, 1 - eps]`
//! (`eps = 2^-52`), as scikit-learn does, so a row's loss is at most `-log eps = 36.04`
//! however wrong the network is; `dl/dz` is that of the unclipped loss, as in
//! scikit-learn. The clip matters only beyond 36 nats and keeps the epoch losses, and so
//! the stopping rule, those of scikit-learn.
//!
//! `squared` is the course's unit: sigmoid outputs fitted by squared error. The regression
//! loss sums over the outputs; scikit-learn's reported value averages over them, but its
//! gradient is that of the sum, which is the one trained here.

use ndarray::{ArrayView, ArrayView1, ArrayViewMut, Dimension, Zip};
use serde::{Deserialize, Serialize};

use super::precision::Real;
use crate::numeric::sigmoid;

crate::choice_enum! {
    /// The hidden units' activation function (see the module doc).
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Activation {
        Identity = "identity",
        Sigmoid = "sigmoid",
        Tanh = "tanh",
        #[default]
        Relu = "relu",
    }
}

impl Activation {
    /// `a = g(a)` in place, `a` holding `z`.
    pub fn apply<T: Real, D: Dimension>(self, mut a: ArrayViewMut<T, D>) {
        match self {
            Activation::Identity => {}
            Activation::Sigmoid => a.mapv_inplace(sigmoid),
            Activation::Tanh => a.mapv_inplace(T::tanh),
            Activation::Relu => a.mapv_inplace(|v| v.max(T::zero())),
        }
    }

    /// `delta *= g'(z)`, from the outputs `a = g(z)`.
    pub fn backward<T: Real, D: Dimension>(self, a: ArrayView<T, D>, delta: ArrayViewMut<T, D>) {
        let pairs = Zip::from(delta).and(a);
        let one = T::one();
        match self {
            Activation::Identity => {}
            Activation::Sigmoid => pairs.for_each(|d, &a| *d *= a * (one - a)),
            Activation::Tanh => pairs.for_each(|d, &a| *d *= one - a * a),
            // a select rather than a store under a branch: vectorised, and no
            // mispredictions on the half of the units a batch leaves off
            Activation::Relu => {
                pairs.for_each(|d, &a| *d = if a <= T::zero() { T::zero() } else { *d })
            }
        }
    }
}

/// The output layer and its loss (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Output {
    /// Softmax over the classes, cross-entropy (three or more classes).
    Softmax,
    /// One logistic unit, cross-entropy (two classes).
    Logistic,
    /// Identity outputs, squared error (regression).
    Identity,
    /// Sigmoid outputs, squared error against the class indicators (`loss=squared`).
    SquaredSigmoid,
}

impl Output {
    /// One row's output activations from its scores `z` (in place), and its loss against
    /// the targets `y` (the cross-entropies clipped as the module doc says).
    pub fn apply_and_loss(self, z: &mut [f64], y: ArrayView1<f64>) -> f64 {
        // sum_k -c_k log(clip(p_k)), terms of coefficient 0 left out (scipy's xlogy)
        let cross = |terms: &mut dyn Iterator<Item = (f64, f64)>| -> f64 {
            -terms
                .filter(|(c, _)| *c != 0.0)
                .map(|(c, p)| c * p.clamp(f64::EPSILON, 1.0 - f64::EPSILON).ln())
                .sum::<f64>()
        };
        match self {
            Output::Softmax => {
                self.apply(z);
                cross(&mut y.iter().copied().zip(z.iter().copied()))
            }
            Output::Logistic => {
                z[0] = sigmoid(z[0]);
                cross(&mut [(y[0], z[0]), (1.0 - y[0], 1.0 - z[0])].into_iter())
            }
            Output::Identity => 0.5 * z.iter().zip(y).map(|(a, y)| (a - y).powi(2)).sum::<f64>(),
            Output::SquaredSigmoid => {
                z.iter_mut().for_each(|v| *v = sigmoid(*v));
                0.5 * z.iter().zip(y).map(|(a, y)| (a - y).powi(2)).sum::<f64>()
            }
        }
    }

    /// One row's outputs from its scores, in place (prediction: no targets).
    pub fn apply(self, z: &mut [f64]) {
        match self {
            Output::Softmax => {
                // as scikit-learn: e_k = exp(z_k - max z), a_k = e_k / sum_j e_j (one
                // exponential a class, where exp(z_k - logsumexp z) takes two)
                let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                z.iter_mut().for_each(|v| *v = (*v - max).exp());
                let sum: f64 = z.iter().sum();
                z.iter_mut().for_each(|v| *v /= sum);
            }
            Output::Logistic | Output::SquaredSigmoid => {
                z.iter_mut().for_each(|v| *v = sigmoid(*v))
            }
            Output::Identity => {}
        }
    }

    /// `dl/dz` of one row, written over its outputs `a`, times the row's weight `w`.
    pub fn delta(self, a: &mut [f64], y: ArrayView1<f64>, w: f64) {
        for (a, y) in a.iter_mut().zip(y) {
            *a = match self {
                Output::SquaredSigmoid => w * (*a - y) * *a * (1.0 - *a),
                _ => w * (*a - y),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `g'(z)` from `backward` equals the central difference of `g`.
    #[test]
    fn derivatives_from_outputs_are_the_derivatives() {
        for g in [
            Activation::Identity,
            Activation::Sigmoid,
            Activation::Tanh,
            Activation::Relu,
        ] {
            for z in [-2.5, -0.3, 0.4, 1.7] {
                let at = |z: f64| {
                    let mut v = [z];
                    g.apply(ndarray::aview_mut1(&mut v));
                    v[0]
                };
                let h = 1e-6;
                let numeric = (at(z + h) - at(z - h)) / (2.0 * h);
                let mut d = [1.0];
                g.backward(ndarray::aview1(&[at(z)]), ndarray::aview_mut1(&mut d));
                assert!((d[0] - numeric).abs() < 1e-8, "{g:?} at {z}");
            }
        }
    }

    #[test]
    fn softmax_loss_is_the_cross_entropy_of_the_probabilities() {
        let mut z = [1.0, -2.0, 0.5];
        let loss = Output::Softmax.apply_and_loss(&mut z, ndarray::aview1(&[0.0, 0.0, 1.0]));
        assert!((z.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        assert!((loss + z[2].ln()).abs() < 1e-14);
        // a score far past exp's range: the loss is capped at -log eps, as scikit-learn's
        let mut far = [800.0, -800.0];
        let l = Output::Softmax.apply_and_loss(&mut far, ndarray::aview1(&[0.0, 1.0]));
        assert_eq!(l, -f64::EPSILON.ln());
        let mut far = [-800.0];
        let l = Output::Logistic.apply_and_loss(&mut far, ndarray::aview1(&[1.0]));
        assert_eq!(l, -f64::EPSILON.ln());
    }
}
