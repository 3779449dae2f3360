//! [`LinearModel`] under the registry's contract: a model file body, a classifier, a
//! linear score (for margins, the PLA bound and boundary plots) and a summary.

use ndarray::Array2;

use super::{LinearModel, Link};
use crate::data::{Features, Label};
use crate::error::{Error, Result};
use crate::estimator::{Body, Classifier, FittedModel};
use crate::numeric;
use crate::summary::{Duality, LinearSummary, ModelSummary};

impl LinearSummary {
    /// The summary of `m`, named `name`.
    pub fn new(name: String, m: &LinearModel) -> Self {
        LinearSummary {
            name,
            link: m.link(),
            intercept: m.intercept().to_vec(),
            weight_norm: m
                .coef()
                .rows()
                .into_iter()
                .map(|r| r.dot(&r).sqrt())
                .collect(),
            nonzero_weights: m.coef().iter().filter(|&&v| v != 0.0).count(),
            convergence: m.convergence().clone(),
            duality: Duality::of(m.convergence()),
        }
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
    use crate::optim::Convergence;
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
