//! What a fitted model shows of itself beyond predictions: the structured summary `inspect`
//! prints ([`ModelSummary`], from
//! [`FittedModel::summary`](crate::estimator::FittedModel::summary)) and the training curve
//! `plot loss-curve` draws ([`LossCurve`], from
//! [`FittedModel::loss_curve`](crate::estimator::FittedModel::loss_curve)).
//!
//! A kind fills in what it has; the pipeline and the command line read these through the
//! [`FittedModel`](crate::estimator::FittedModel) contract, never by knowing the kind's own
//! types.

use serde::Serialize;

use crate::optim::Convergence;
use crate::score::Link;

/// What `inspect` shows of a fitted model beyond its classes, features and priors: its
/// linear scores, a regressor's weights, `(what, value)` lines, and its family's own
/// figures for `inspect --json`. Every part is optional and left out of the JSON when
/// empty.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ModelSummary {
    /// The weights and training report of each linear model inside.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub linear: Vec<LinearSummary>,
    /// A regressor's weights, by feature name, with its intercept, rank and singular values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regression: Option<RegressionSummary>,
    /// What the model's family shows about it, as `(what, value)` lines.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<(String, String)>,
    /// The family's own figures, by name, as `inspect --json` shows them beside the others
    /// (a kernel SVM's `svm` duals and `n_support`).
    #[serde(flatten)]
    pub figures: serde_json::Map<String, serde_json::Value>,
}

impl ModelSummary {
    /// The summary of a model made of named parts (a multiclass reduction): the linear
    /// models of each part, named by the part.
    pub fn of_parts(parts: impl IntoIterator<Item = (String, ModelSummary)>) -> Self {
        let linear = parts
            .into_iter()
            .flat_map(|(name, part)| {
                part.linear.into_iter().map(move |mut l| {
                    l.name = if l.name.is_empty() {
                        name.clone()
                    } else {
                        format!("{name}: {}", l.name)
                    };
                    l
                })
            })
            .collect();
        ModelSummary {
            linear,
            ..ModelSummary::default()
        }
    }
}

/// A least-squares model, as `inspect` shows it (first output).
#[derive(Clone, Debug, Serialize)]
pub struct RegressionSummary {
    pub intercept: f64,
    /// `(feature name, w_j)` in feature order.
    pub weights: Vec<(String, f64)>,
    /// Rank of the (centred, weighted) design; dense fits only.
    pub rank: Option<usize>,
    pub singular_values: Option<Vec<f64>>,
}

/// One linear model, as `inspect` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct LinearSummary {
    /// Empty for a single model; the class (one-vs-all) or "a vs b" (one-vs-one).
    pub name: String,
    pub link: Link,
    /// `b`, one per score row.
    pub intercept: Vec<f64>,
    /// `||w||` of each score row.
    pub weight_norm: Vec<f64>,
    /// Non-zero weights over all rows.
    pub nonzero_weights: usize,
    /// Iterations, updates, objective, gradient norm, warning.
    pub convergence: Convergence,
    /// For a model fitted with a dual (the linear SVM), its primal and dual objectives side
    /// by side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duality: Option<Duality>,
}

/// The primal and dual objectives of a fit, as `inspect` shows them: the report's
/// `objective` named as the primal beside the dual.
#[derive(Clone, Debug, Serialize)]
pub struct Duality {
    /// `P(w)`, the report's `objective`.
    pub primal_objective: f64,
    /// `D(a) <= P(w)`.
    pub dual_objective: f64,
    /// `P(w) - D(a)`.
    pub duality_gap: f64,
    /// The solver's iterations (passes over the rows for coordinate descent).
    pub iterations: usize,
}

impl Duality {
    /// The duality figures of a report that has them.
    pub(crate) fn of(c: &Convergence) -> Option<Self> {
        Some(Duality {
            primal_objective: c.objective?,
            dual_objective: c.dual_objective?,
            duality_gap: c.duality_gap?,
            iterations: c.iterations,
        })
    }
}

/// A model's training curve, as `plot loss-curve` draws it and its `--json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct LossCurve {
    /// The loss after each step.
    pub loss_curve: Vec<f64>,
    /// The validation score after each epoch (with early stopping; empty without).
    pub validation_scores: Vec<f64>,
    /// Why training ended, as the model file writes it.
    pub stop: serde_json::Value,
    /// The chart's title (what was trained, and how).
    #[serde(skip)]
    pub title: String,
    /// What one step is: `epoch`, or `evaluation of the objective`.
    #[serde(skip)]
    pub step: &'static str,
    /// What `1 - score` of the validation rows is: `validation error (1 - accuracy)`...
    #[serde(skip)]
    pub validation: &'static str,
}
