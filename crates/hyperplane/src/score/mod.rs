//! The fitted linear classifier: scores `s = W x + b`, with a [`Link`] to probabilities.
//!
//! Every learner of the linear family returns a [`LinearModel`], and so does the
//! hard-margin SVM (its `w = sum_i y_i a_i x_i`): it lives here, below the families that
//! share it, as [`crate::weights`] and [`crate::targets`] do. [`crate::linear`] re-exports it.
//! How the registry reaches it (as a classifier, a linear score, a summary) is in `fitted.rs`.

use ndarray::{Array1, Array2, ArrayView1};
use serde::{Deserialize, Serialize};

use crate::data::{Features, Label, RowAccess};
use crate::error::{Error, Result};
use crate::optim::Convergence;
use crate::with_rows;

mod fitted;

/// How scores become probabilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Link {
    /// `g(x) = sign(s)`: no probabilities (perceptron, pocket, hinge loss, least squares).
    Sign,
    /// `P(y = +1 | x) = 1 / (1 + exp(-s))` (logistic regression, log loss).
    Logistic,
    /// `P(y = k | x) = exp(s_k) / sum_j exp(s_j)` (softmax regression).
    Softmax,
}

/// A fitted linear classifier.
///
/// A binary model has one weight row: the score `s = w.x + b` of `classes[1]`, and
/// `classes[1]` is predicted when `s > 0` (the label `+1` of the courses). A multiclass model
/// has one row per class and predicts the largest score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinearModel {
    classes: Vec<Label>,
    coef: Array2<f64>,
    intercept: Array1<f64>,
    link: Link,
    convergence: Convergence,
}

impl LinearModel {
    /// A model from its weights: `coef` has one row per score (1 for two classes, else one
    /// per class) and one column per feature; `intercept` one entry per row.
    pub fn new(
        classes: Vec<Label>,
        coef: Array2<f64>,
        intercept: Array1<f64>,
        link: Link,
        convergence: Convergence,
    ) -> Result<Self> {
        let rows = if classes.len() == 2 { 1 } else { classes.len() };
        if coef.nrows() != rows || intercept.len() != rows {
            return Err(Error::data(format!(
                "a linear model of {} classes needs {rows} weight rows and intercepts, got {} and {}",
                classes.len(),
                coef.nrows(),
                intercept.len()
            )));
        }
        if link == Link::Softmax && rows == 1 {
            return Err(Error::data(
                "a softmax model needs one weight row per class",
            ));
        }
        Ok(LinearModel {
            classes,
            coef,
            intercept,
            link,
            convergence,
        })
    }

    /// The weights, one row per score.
    pub fn coef(&self) -> &Array2<f64> {
        &self.coef
    }
    /// The intercepts `b`, one per score.
    pub fn intercept(&self) -> &Array1<f64> {
        &self.intercept
    }
    /// How scores become probabilities.
    pub fn link(&self) -> Link {
        self.link
    }
    /// How training ended: iterations, updates, objective, gradient norm, warning.
    pub fn convergence(&self) -> &Convergence {
        &self.convergence
    }
    /// Whether the model separates two classes with one score row.
    pub fn is_binary(&self) -> bool {
        self.classes.len() == 2
    }

    /// The raw scores `s = W x + b`, shape `(n_samples, n_rows of W)`.
    pub fn scores(&self, x: &Features) -> Result<Array2<f64>> {
        x.check_predict_input(self.coef.ncols())?;
        let w: Vec<Vec<f64>> = self.coef.rows().into_iter().map(|r| r.to_vec()).collect();
        let mut s = Array2::zeros((x.n_rows(), w.len()));
        with_rows!(x, |m| {
            for (i, mut row) in s.rows_mut().into_iter().enumerate() {
                for (k, wk) in w.iter().enumerate() {
                    row[k] = m.dot_row(i, wk) + self.intercept[k];
                }
            }
        });
        Ok(s)
    }

    /// The `k` features with the largest weight towards each class, as (feature, weight):
    /// for a binary model, class 1's largest `w_j` and class 0's largest `-w_j`.
    pub fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        let top = |sign: f64, row: usize| {
            let mut w: Vec<(usize, f64)> = self
                .coef
                .row(row)
                .iter()
                .map(|&v| sign * v)
                .enumerate()
                .filter(|(_, v)| *v > 0.0)
                .collect();
            w.sort_by(|a, b| b.1.total_cmp(&a.1));
            w.truncate(k);
            w
        };
        match self.classes.len() {
            1 => vec![Vec::new()],
            2 => vec![top(-1.0, 0), top(1.0, 0)],
            n => (0..n).map(|c| top(1.0, c)).collect(),
        }
    }

    /// The weight row of score `k` as a view.
    pub fn weights(&self, k: usize) -> ArrayView1<'_, f64> {
        self.coef.row(k)
    }
}
