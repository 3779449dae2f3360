//! The stochastic solvers: a step on the parameters after each mini-batch's gradient `g`.
//!
//! ```text
//! sgd        v <- mu v - eta g,   p <- p + v                     (momentum mu)
//! nesterov   v <- mu v - eta g,   p <- p + mu v - eta g
//! adam       t <- t + 1,  m <- b1 m + (1 - b1) g,  s <- b2 s + (1 - b2) g^2
//!            eta_t = eta sqrt(1 - b2^t) / (1 - b1^t),   p <- p - eta_t m / (sqrt(s) + eps)
//! ```
//!
//! as scikit-learn's `SGDOptimizer` and `AdamOptimizer` write them (Kingma and Ba's Adam
//! with the bias corrections folded into the step size). An epoch takes the rows in a given
//! order in batches of `batch_size` consecutive rows (the last one shorter) and reports
//! scikit-learn's epoch loss, `sum_b |b| J_b / n`.

use ndarray::ArrayView2;

use super::backprop::{Batch, Network};
use crate::data::Features;

/// A rule that moves the parameters along a batch's gradient.
pub trait StepRule {
    /// `params <- params + update(grad)`, the rule's state moving with it.
    fn step(&mut self, params: &mut [f64], grad: &[f64]);
}

/// Stochastic gradient descent with (Nesterov's) momentum; `learning_rate` is the
/// current step size `eta` (a schedule may change it between epochs).
#[derive(Clone, Debug)]
pub struct Sgd {
    /// `eta`.
    pub learning_rate: f64,
    /// `mu`, in `[0, 1]`.
    pub momentum: f64,
    /// Nesterov's look-ahead step.
    pub nesterov: bool,
    velocity: Vec<f64>,
}

impl Sgd {
    /// The rule for `n` parameters, at rest.
    pub fn new(n: usize, learning_rate: f64, momentum: f64, nesterov: bool) -> Self {
        Sgd {
            learning_rate,
            momentum,
            nesterov,
            velocity: vec![0.0; n],
        }
    }
}

impl StepRule for Sgd {
    fn step(&mut self, params: &mut [f64], grad: &[f64]) {
        let (mu, eta) = (self.momentum, self.learning_rate);
        for ((p, v), g) in params.iter_mut().zip(&mut self.velocity).zip(grad) {
            *v = mu * *v - eta * g;
            *p += if self.nesterov { mu * *v - eta * g } else { *v };
        }
    }
}

/// Adam (see the module doc).
#[derive(Clone, Debug)]
pub struct Adam {
    /// `eta`.
    pub learning_rate: f64,
    /// `b1`, in `[0, 1)`.
    pub beta_1: f64,
    /// `b2`, in `[0, 1)`.
    pub beta_2: f64,
    /// `eps`.
    pub epsilon: f64,
    t: u64,
    m: Vec<f64>,
    s: Vec<f64>,
}

impl Adam {
    /// The rule for `n` parameters, at step 0.
    pub fn new(n: usize, learning_rate: f64, beta_1: f64, beta_2: f64, epsilon: f64) -> Self {
        Adam {
            learning_rate,
            beta_1,
            beta_2,
            epsilon,
            t: 0,
            m: vec![0.0; n],
            s: vec![0.0; n],
        }
    }
}

impl StepRule for Adam {
    fn step(&mut self, params: &mut [f64], grad: &[f64]) {
        self.t += 1;
        let (b1, b2) = (self.beta_1, self.beta_2);
        let t = self.t as f64;
        let eta = self.learning_rate * (1.0 - b2.powf(t)).sqrt() / (1.0 - b1.powf(t));
        for (((p, m), s), g) in params
            .iter_mut()
            .zip(&mut self.m)
            .zip(&mut self.s)
            .zip(grad)
        {
            *m = b1 * *m + (1.0 - b1) * g;
            *s = b2 * *s + (1.0 - b2) * (g * g);
            *p += -eta * *m / (s.sqrt() + self.epsilon);
        }
    }
}

/// The data of an epoch: all rows, their targets and weights.
pub struct EpochData<'b, 'x> {
    /// The input rows.
    pub x: &'b Features<'x>,
    /// Targets, one row per row of `x`.
    pub y: ArrayView2<'b, f64>,
    /// Sample weights, one per row of `x`; `None` for weight 1.
    pub weights: Option<&'b [f64]>,
}

/// One epoch over `order` in batches of `batch_size` (at least 1), a step of `rule` after
/// each; returns `sum_b |b| J_b / |order|`.
pub fn epoch(
    net: &Network,
    params: &mut [f64],
    alpha: f64,
    data: &EpochData,
    order: &[usize],
    batch_size: usize,
    rule: &mut dyn StepRule,
) -> f64 {
    let mut grad = vec![0.0; params.len()];
    let mut total = 0.0;
    for rows in order.chunks(batch_size.max(1)) {
        let batch = Batch {
            x: data.x,
            rows,
            y: data.y,
            weights: data.weights,
        };
        total += net.loss_grad(params, alpha, &batch, &mut grad) * rows.len() as f64;
        rule.step(params, &grad);
    }
    total / order.len().max(1) as f64
}
