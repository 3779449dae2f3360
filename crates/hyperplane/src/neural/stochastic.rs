//! The stochastic solvers: a step on the parameters after each mini-batch's gradient, by
//! one of the step rules of [`step`](super::step). An epoch takes the rows in a given
//! order in batches of `batch_size` consecutive rows (the last one shorter) and reports
//! scikit-learn's epoch loss, `sum_b |b| J_b / n`.
//!
//! [`train`] runs epochs as scikit-learn's `_fit_stochastic` does: after each epoch the
//! schedule moves SGD's step (`invscaling`: `eta = eta_0 / (t + 1)^power_t`, `t` the rows
//! seen so far), and the epoch counts as stale when its loss is not below the best so far
//! minus `tol` or, with early stopping, when the validation score is not above the best
//! so far plus `tol`. After more than `n_iter_no_change` stale epochs in a row training
//! stops, except that the `adaptive` schedule first divides SGD's step by 5 (and stops
//! once it is at most `1e-6`). Early stopping returns the parameters of the epoch with the
//! best validation score.

use ndarray::ArrayView2;

use super::backprop::{Batch, Gradient};
use super::precision::Real;
use super::step::StepRule;
use crate::data::Features;
use crate::optim::ConvergenceWarning;
use crate::rng::Rng;

/// The data of an epoch: the rows trained on, their targets and weights.
pub struct EpochData<'b, 'x> {
    /// The input rows.
    pub x: &'b Features<'x>,
    /// The rows of `x` trained on (the others may be held out for validation).
    pub rows: &'b [usize],
    /// Targets, one row per row of `x`.
    pub y: ArrayView2<'b, f64>,
    /// Sample weights, one per row of `x`; `None` for weight 1.
    pub weights: Option<&'b [f64]>,
}

/// One epoch over `order` in batches of `batch_size` (at least 1), a step of `rule` after
/// each ([`Gradient::descend`]); returns `sum_b |b| J_b / |order|`.
pub fn epoch<T: Real>(
    gradient: &mut Gradient,
    params: &mut [T],
    alpha: f64,
    data: &EpochData,
    order: &[usize],
    batch_size: usize,
    rule: &mut dyn StepRule<T>,
) -> f64 {
    let mut total = 0.0;
    for rows in order.chunks(batch_size.max(1)) {
        let batch = Batch {
            x: data.x,
            rows,
            y: data.y,
            weights: data.weights,
        };
        total += gradient.descend(params, alpha, &batch, rule) * rows.len() as f64;
    }
    total / order.len().max(1) as f64
}

/// When [`train`] stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Rows per batch (at least 1).
    pub batch_size: usize,
    /// Epochs at most.
    pub max_iter: usize,
    /// The improvement of the epoch loss (or validation score) that counts.
    pub tol: f64,
    /// Stale epochs in a row allowed.
    pub n_iter_no_change: usize,
}

/// The score of parameters on held-out rows, higher is better.
pub type Validation<'w, T> = &'w mut dyn FnMut(&[T]) -> f64;

/// What [`train`] watches besides the loss: an optional row shuffle, an optional
/// validation score (early stopping).
pub struct Watch<'w, T> {
    /// Shuffles the rows before each epoch (else they come in the order given).
    pub shuffle: Option<&'w mut Rng>,
    /// The score of the parameters on held-out rows, higher is better (early stopping).
    pub validation: Option<Validation<'w, T>>,
}

impl<T> Default for Watch<'_, T> {
    fn default() -> Self {
        Watch {
            shuffle: None,
            validation: None,
        }
    }
}

/// What [`train`] did: the loss of every epoch, the validation scores, and why it stopped
/// (`None`: the loss or the validation score stopped improving, which is convergence).
#[derive(Clone, Debug, PartialEq)]
pub struct Trained {
    /// The epoch losses.
    pub loss_curve: Vec<f64>,
    /// The validation score after each epoch (empty without early stopping).
    pub validation_scores: Vec<f64>,
    /// With early stopping, the epoch (from 1) whose parameters are returned.
    pub best_epoch: Option<usize>,
    /// `None` when the loss stopped improving; the iteration budget or a non-finite loss
    /// otherwise.
    pub warning: Option<ConvergenceWarning>,
}

/// Epochs of `rule` over the rows of `data` (module doc), in the order given or, with
/// `watch.shuffle`, in a new order each epoch.
pub fn train<T: Real>(
    gradient: &mut Gradient,
    params: &mut [T],
    alpha: f64,
    data: &EpochData,
    budget: &Budget,
    rule: &mut dyn StepRule<T>,
    mut watch: Watch<T>,
) -> Trained {
    let n = data.rows.len();
    let mut order = data.rows.to_vec();
    let mut trained = Trained {
        loss_curve: Vec::new(),
        validation_scores: Vec::new(),
        best_epoch: None,
        warning: None,
    };
    let (mut best, mut stale) = (f64::INFINITY, 0);
    let (mut best_score, mut best_params) = (f64::NEG_INFINITY, Vec::new());
    for it in 1..=budget.max_iter {
        if crate::context::cancelled() {
            break; // the network's fit reports the cancellation
        }
        if let Some(rng) = watch.shuffle.as_deref_mut() {
            rng.shuffle(&mut order);
        }
        let loss = epoch(
            gradient,
            params,
            alpha,
            data,
            &order,
            budget.batch_size,
            rule,
        );
        trained.loss_curve.push(loss);
        if !loss.is_finite() {
            trained.warning = Some(ConvergenceWarning::Diverged { iteration: it });
            break;
        }
        let score = watch.validation.as_deref_mut().map(|score| score(params));
        crate::context::report(|| match score {
            Some(s) => format!("epoch {it}: loss {loss:.6}, validation score {s:.4}"),
            None => format!("epoch {it}: loss {loss:.6}"),
        });
        let improved = match score {
            Some(score) => {
                trained.validation_scores.push(score);
                let improved = score >= best_score + budget.tol;
                if score > best_score {
                    best_score = score;
                    best_params = params.to_vec();
                    trained.best_epoch = Some(it);
                }
                improved
            }
            None => {
                let improved = loss <= best - budget.tol;
                best = best.min(loss);
                improved
            }
        };
        stale = if improved { 0 } else { stale + 1 };
        rule.epoch_ends(it * n);
        if stale > budget.n_iter_no_change {
            if rule.stalled() {
                break;
            }
            stale = 0;
        }
        if it == budget.max_iter {
            trained.warning = Some(ConvergenceWarning::MaxIterations {
                iterations: budget.max_iter,
            });
        }
    }
    if trained.best_epoch.is_some() {
        params.copy_from_slice(&best_params);
    }
    trained
}
