//! Optimisers shared by the iterative learners.
//!
//! Every iterative learner states its training problem as an objective
//! `f(w) = r(w) + sum_n loss_n(w)` that can be evaluated on any batch of rows
//! (`loss_grad(w, batch)`), so one optimiser drives every model, and the same objective can
//! be summed over threads, streams or machines. Each solver reports how it ended in a
//! [`Convergence`]; not reaching the tolerance within the budget, or diverging, is a typed
//! [`ConvergenceWarning`] in that report, never a panic or a silent result.

use serde::{Deserialize, Serialize};

/// Why a solver stopped without meeting its tolerance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConvergenceWarning {
    /// The iteration budget ran out before the stopping rule held.
    MaxIterations {
        /// Iterations (or epochs, or updates) used.
        iterations: usize,
    },
    /// The objective became non-finite or grew without bound: the step is too large.
    Diverged {
        /// The iteration at which divergence was detected.
        iteration: usize,
    },
    /// The line search found no step that decreases the objective.
    LineSearchFailed {
        /// The iteration at which the search failed.
        iteration: usize,
    },
    /// The perceptron's update budget ran out with training points still misclassified.
    NotSeparated {
        /// Updates made.
        updates: usize,
        /// Misclassified training points (weighted fraction) at the end.
        in_sample_error: f64,
    },
}

impl std::fmt::Display for ConvergenceWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConvergenceWarning::MaxIterations { iterations } => write!(
                f,
                "did not converge within {iterations} iterations; raise max_iter or loosen tol"
            ),
            ConvergenceWarning::Diverged { iteration } => write!(
                f,
                "diverged at iteration {iteration}: the objective became non-finite or grew; use a smaller step"
            ),
            ConvergenceWarning::LineSearchFailed { iteration } => write!(
                f,
                "the line search found no decrease at iteration {iteration}; the result is the last good point"
            ),
            ConvergenceWarning::NotSeparated {
                updates,
                in_sample_error,
            } => write!(
                f,
                "did not converge: {updates} updates made and E_in = {in_sample_error:.4} > 0 (the data may not be linearly separable)"
            ),
        }
    }
}

/// How an iterative fit ended.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Convergence {
    /// Iterations (solver iterations, epochs or passes) run.
    pub iterations: usize,
    /// Weight updates made, for mistake-driven learners (PLA, pocket, SGD).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updates: Option<usize>,
    /// The objective at the returned weights, when the learner has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<f64>,
    /// `||grad f||` at the returned weights, when the learner has a gradient.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grad_norm: Option<f64>,
    /// Weighted in-sample 0/1 error of the returned weights, when the learner tracks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_sample_error: Option<f64>,
    /// Why the stopping rule was not met; `None` when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<ConvergenceWarning>,
}

impl Convergence {
    /// Whether the solver met its stopping rule.
    pub fn converged(&self) -> bool {
        self.warning.is_none()
    }
}
