//! The fitted linear classifier: scores `s = W x + b`, with a [`Link`] to probabilities.
//!
//! Every learner of the linear family returns a [`LinearModel`], and so does the
//! hard-margin SVM (its `w = sum_i y_i a_i x_i`): it lives here, below the families that
//! share it, as [`crate::weights`] and [`crate::targets`] do. [`crate::linear`] re-exports it.

use ndarray::{Array1, Array2, ArrayView1};
use serde::{Deserialize, Serialize};

use crate::data::{Features, Label, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::{Body, Classifier, FittedModel};
use crate::numeric;
use crate::optim::Convergence;
use crate::summary::{LinearSummary, ModelSummary};
use crate::with_rows;

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

impl Body for LinearModel {
    const TAG: &'static str = "Linear";
}

impl FittedModel for LinearModel {
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        Some(self)
    }
    fn as_linear(&self) -> Option<&LinearModel> {
        Some(self)
    }
    fn summary(&self, _feature_names: &dyn Fn() -> Vec<String>) -> ModelSummary {
        ModelSummary {
            linear: vec![LinearSummary::new(String::new(), self)],
            ..ModelSummary::default()
        }
    }
    fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        LinearModel::top_features(self, k)
    }
    fn top_feature_score(&self) -> &'static str {
        "weight w_j towards the class"
    }
}

impl Classifier for LinearModel {
    fn classes(&self) -> &[Label] {
        &self.classes
    }
    fn n_features(&self) -> usize {
        self.coef.ncols()
    }
    /// Binary: the columns are `(-s, s)`; multiclass: the scores `s_k`.
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        let s = self.scores(x)?;
        if !self.is_binary() {
            return Ok(s);
        }
        Ok(Array2::from_shape_fn((s.nrows(), 2), |(i, c)| {
            if c == 0 {
                -s[[i, 0]]
            } else {
                s[[i, 0]]
            }
        }))
    }
    /// Logistic: `log sigma(-s), log sigma(s)`; softmax: `s_k - logsumexp(s)`. A model
    /// with a sign link has no probabilities.
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>> {
        if self.classes.len() == 1 {
            x.check_predict_input(self.coef.ncols())?;
            return Ok(Array2::zeros((x.n_rows(), 1)));
        }
        match self.link {
            Link::Sign => Err(Error::Unsupported {
                model: "linear classifier with a sign output".into(),
                what: "probabilities (train logistic-regression, softmax-regression or sgd with loss=log for them)".into(),
            }),
            Link::Logistic => {
                let s = self.scores(x)?;
                Ok(Array2::from_shape_fn((s.nrows(), 2), |(i, c)| {
                    let v = if c == 0 { -s[[i, 0]] } else { s[[i, 0]] };
                    -numeric::log1pexp(-v)
                }))
            }
            Link::Softmax => Ok(numeric::log_softmax_rows(self.scores(x)?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn binary(link: Link) -> LinearModel {
        LinearModel::new(
            vec![Label::Int(-1), Label::Int(1)],
            array![[1.0, -2.0]],
            array![0.5],
            link,
            Convergence::default(),
        )
        .unwrap()
    }

    #[test]
    fn binary_scores_and_predictions() {
        let m = binary(Link::Logistic);
        let x: Features = array![[1.0, 0.0], [0.0, 1.0]].into();
        assert_eq!(m.scores(&x).unwrap(), array![[1.5], [-1.5]]);
        assert_eq!(m.predict(&x).unwrap(), vec![Label::Int(1), Label::Int(-1)]);
        let p = m.predict_proba(&x).unwrap();
        assert!((p[[0, 1]] - 1.0 / (1.0 + (-1.5f64).exp())).abs() < 1e-15);
        assert!((p.row(1).sum() - 1.0).abs() < 1e-15);
        assert!(binary(Link::Sign).predict_proba(&x).is_err());
        assert_eq!(m.top_features(5), vec![vec![(1, 2.0)], vec![(0, 1.0)]]);
        let wrong: Features = array![[1.0]].into();
        assert!(matches!(
            m.predict(&wrong),
            Err(Error::FeatureCount {
                expected: 2,
                found: 1
            })
        ));
    }

    #[test]
    fn shapes_are_checked() {
        let classes = vec![Label::Int(0), Label::Int(1), Label::Int(2)];
        let bad = LinearModel::new(
            classes,
            array![[1.0]],
            array![0.0],
            Link::Softmax,
            Convergence::default(),
        );
        assert!(bad.is_err());
    }

    #[test]
    fn a_single_class_is_always_predicted() {
        let m = LinearModel::new(
            vec![Label::from("only")],
            array![[0.0, 0.0]],
            array![0.0],
            Link::Sign,
            Convergence::default(),
        )
        .unwrap();
        let x: Features = array![[1.0, 2.0], [3.0, 4.0]].into();
        assert_eq!(m.predict(&x).unwrap(), vec![Label::from("only"); 2]);
        assert_eq!(m.predict_proba(&x).unwrap(), array![[1.0], [1.0]]);
    }
}
