//! The step rules of the stochastic solvers: how a mini-batch's gradient `g` moves the
//! parameters, in one parallel sweep over them.
//!
//! ```text
//! sgd        v <- mu v - eta g,   p <- p + v                     (momentum mu)
//! nesterov   v <- mu v - eta g,   p <- p + mu v - eta g
//! adam       t <- t + 1,  m <- b1 m + (1 - b1) g,  s <- b2 s + (1 - b2) g^2
//!            eta_t = eta sqrt(1 - b2^t) / (1 - b1^t),   p <- p - eta_t m / (sqrt(s) + eps)
//! ```
//!
//! as scikit-learn's `SGDOptimizer` and `AdamOptimizer` write them (Kingma and Ba's Adam
//! with the bias corrections folded into the step size).

use hyperplane_kernels::simd::with_widest;
use rayon::prelude::*;

use super::precision::Real;
use super::PARAMETER_CHUNK;

crate::choice_enum! {
    /// How SGD's step size moves between epochs (see the module doc).
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Schedule {
        #[default]
        Constant = "constant",
        Invscaling = "invscaling",
        Adaptive = "adaptive",
    }
}

/// `fill(start, p, g)` of a [`Step`].
pub type Fill<'s, T> = &'s (dyn Fn(usize, &[T], &mut [T]) -> f64 + Sync);

/// What a step does before a rule's update, chunk by chunk: each chunk of 8,192
/// parameters (the family's fixed chunks; `start` a multiple of it) gets its gradient from
/// `fill` and is updated at once, so that the gradient's last touches and the update read
/// and write the parameters once, in one parallel pass.
pub struct Step<'s, T> {
    /// The gradient, one value per parameter, completed chunk by chunk by `fill`.
    pub grad: &'s mut [T],
    /// `fill(start, p, g)` completes the gradient `g` of the parameters `p` (the chunk at
    /// `start`) before their update; returns a term of a sum over the chunks.
    pub fill: Fill<'s, T>,
}

impl<'s, T: Real> Step<'s, T> {
    /// A step along `grad` as it is.
    pub fn along(grad: &'s mut [T]) -> Self {
        Step {
            grad,
            fill: &|_, _, _| 0.0,
        }
    }

    /// `update(p, g, state)` on each chunk of `params`, `grad` and the rule's `state`
    /// vectors, in parallel, after `fill`; returns the sum of `fill`'s terms, added chunk
    /// by chunk in order (the same bits on any number of threads).
    fn run<const S: usize>(
        self,
        params: &mut [T],
        state: [&mut [T]; S],
        update: impl Fn(&mut [T], &[T], [&mut [T]; S]) + Sync,
    ) -> f64 {
        let mut parts = state.map(|v| v.chunks_mut(PARAMETER_CHUNK));
        let states: Vec<[&mut [T]; S]> = (0..params.len().div_ceil(PARAMETER_CHUNK))
            .map(|_| {
                parts
                    .each_mut()
                    .map(|it| it.next().expect("state as long as params"))
            })
            .collect();
        let Step { grad, fill } = self;
        let terms: Vec<f64> = (
            params.par_chunks_mut(PARAMETER_CHUNK),
            grad.par_chunks_mut(PARAMETER_CHUNK),
            states,
        )
            .into_par_iter()
            .enumerate()
            .map(|(k, (p, g, state))| {
                let term = fill(k * PARAMETER_CHUNK, p, g);
                update(p, g, state);
                term
            })
            .collect();
        terms.iter().sum()
    }
}

/// A rule that moves the parameters, in the precision `T` of training, along a batch's
/// gradient.
pub trait StepRule<T> {
    /// `params <- params + update(grad)`, the rule's state moving with it, the gradient
    /// completed as `step` says; returns the sum of `step.fill`'s terms.
    fn step(&mut self, params: &mut [T], step: Step<T>) -> f64;
    /// After an epoch, `seen` rows into training: the schedule's move.
    fn epoch_ends(&mut self, _seen: usize) {}
    /// Training has stalled: whether to stop (`false`: the rule changed and goes on).
    fn stalled(&mut self) -> bool {
        true
    }
}

/// Stochastic gradient descent with (Nesterov's) momentum; `learning_rate` is the
/// current step size `eta`, which the schedule moves between epochs from `eta_0`. The
/// velocity and the update are in the precision `T` of the parameters, the settings
/// rounded to it.
#[derive(Clone, Debug)]
pub struct Sgd<T> {
    /// `eta`.
    pub learning_rate: f64,
    /// `mu`, in `[0, 1]`.
    pub momentum: f64,
    /// Nesterov's look-ahead step.
    pub nesterov: bool,
    /// The schedule of `eta`.
    pub schedule: Schedule,
    /// `power_t` of `invscaling`.
    pub power_t: f64,
    initial: f64,
    velocity: Vec<T>,
}

impl<T: Real> Sgd<T> {
    /// The rule for `n` parameters, at rest, with a constant step.
    pub fn new(n: usize, learning_rate: f64, momentum: f64, nesterov: bool) -> Self {
        Sgd {
            learning_rate,
            momentum,
            nesterov,
            schedule: Schedule::Constant,
            power_t: 0.5,
            initial: learning_rate,
            velocity: vec![T::zero(); n],
        }
    }

    /// The same rule with the step moved by `schedule` (`power_t` for `invscaling`).
    pub fn scheduled(mut self, schedule: Schedule, power_t: f64) -> Self {
        self.schedule = schedule;
        self.power_t = power_t;
        self
    }
}

impl<T: Real> StepRule<T> for Sgd<T> {
    fn step(&mut self, params: &mut [T], step: Step<T>) -> f64 {
        let (mu, eta) = (T::narrow(self.momentum), T::narrow(self.learning_rate));
        let nesterov = self.nesterov;
        step.run(params, [&mut self.velocity], |params, grad, [velocity]| {
            for ((p, v), &g) in params.iter_mut().zip(velocity).zip(grad) {
                *v = mu * *v - eta * g;
                *p += if nesterov { mu * *v - eta * g } else { *v };
            }
        })
    }
    fn epoch_ends(&mut self, seen: usize) {
        if self.schedule == Schedule::Invscaling {
            self.learning_rate = self.initial / ((seen + 1) as f64).powf(self.power_t);
        }
    }
    fn stalled(&mut self) -> bool {
        if self.schedule != Schedule::Adaptive || self.learning_rate <= 1e-6 {
            return true;
        }
        self.learning_rate /= 5.0;
        false
    }
}

/// Adam (see the module doc); the moments and the update in the precision `T` of the
/// parameters, the settings and `eta_t` rounded to it.
#[derive(Clone, Debug)]
pub struct Adam<T> {
    /// `eta`.
    pub learning_rate: f64,
    /// `b1`, in `[0, 1)`.
    pub beta_1: f64,
    /// `b2`, in `[0, 1)`.
    pub beta_2: f64,
    /// `eps`.
    pub epsilon: f64,
    t: u64,
    m: Vec<T>,
    s: Vec<T>,
}

impl<T: Real> Adam<T> {
    /// The rule for `n` parameters, at step 0.
    pub fn new(n: usize, learning_rate: f64, beta_1: f64, beta_2: f64, epsilon: f64) -> Self {
        Adam {
            learning_rate,
            beta_1,
            beta_2,
            epsilon,
            t: 0,
            m: vec![T::zero(); n],
            s: vec![T::zero(); n],
        }
    }
}

impl<T: Real> StepRule<T> for Adam<T> {
    fn step(&mut self, params: &mut [T], step: Step<T>) -> f64 {
        self.t += 1;
        let (b1, b2) = (self.beta_1, self.beta_2);
        let t = self.t as f64;
        let eta = self.learning_rate * (1.0 - b2.powf(t)).sqrt() / (1.0 - b1.powf(t));
        let [b1, c1, b2, c2, eta, epsilon] =
            [b1, 1.0 - b1, b2, 1.0 - b2, -eta, self.epsilon].map(T::narrow);
        step.run(
            params,
            [&mut self.m, &mut self.s],
            |params, grad, [m, s]| {
                with_widest(|| {
                    for (((p, m), s), &g) in params.iter_mut().zip(m).zip(s).zip(grad) {
                        *m = b1 * *m + c1 * g;
                        *s = b2 * *s + c2 * (g * g);
                        *p += eta * *m / (s.sqrt() + epsilon);
                    }
                })
            },
        )
    }
}
