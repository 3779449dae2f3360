//! One-vs-all: one binary problem per class.

use ndarray::Array2;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::data::{Dataset, Features, Label};
use crate::error::{Error, Result};
use crate::estimator::Classifier;

use super::positive_column;

/// `K` binary models, model `k` separating class `k` (its second class, `1`) from the rest
/// (`0`). Predicts `argmax_k s_k(x)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OneVsRest<M> {
    classes: Vec<Label>,
    models: Vec<M>,
}

impl<M: Classifier + Send> OneVsRest<M> {
    /// Fits `fit` on "class k against the rest" for every class, in parallel. Each
    /// sub-problem's classes are `[Int(0), Int(1)]`: 1 means "class k".
    pub fn fit<F>(data: &Dataset, fit: F) -> Result<Self>
    where
        F: Fn(&Dataset) -> Result<M> + Sync,
    {
        let classes = data.classes().to_vec();
        let binary = vec![Label::Int(0), Label::Int(1)];
        let models = (0..classes.len())
            .into_par_iter()
            .map(|k| {
                let targets = data
                    .targets()
                    .iter()
                    .map(|&t| usize::from(t == k))
                    .collect();
                fit(&data.with_targets(targets, binary.clone())?)
            })
            .collect::<Result<Vec<M>>>()?;
        Ok(OneVsRest { classes, models })
    }

    /// The binary models, one per class in [`Classifier::classes`] order.
    pub fn models(&self) -> &[M] {
        &self.models
    }

    /// Checks a model read from a file: one binary model per class, all as wide.
    pub fn validate(&self) -> Result<()> {
        super::check_reduction(
            &self.classes,
            &self.models,
            self.classes.len(),
            self.n_features(),
        )
    }

    /// `P_k(class k | x)` of every sub-model, unnormalised.
    fn positive_proba(&self, x: &Features) -> Result<Array2<f64>> {
        self.columns(x, |m| m.predict_proba(x))
    }

    fn columns<F>(&self, x: &Features, score: F) -> Result<Array2<f64>>
    where
        F: Fn(&M) -> Result<Array2<f64>>,
    {
        let mut out = Array2::zeros((x.n_rows(), self.models.len()));
        for (k, m) in self.models.iter().enumerate() {
            let col = positive_column(&score(m)?);
            out.column_mut(k).assign(&ndarray::Array1::from(col));
        }
        Ok(out)
    }
}

impl<M: Classifier + Send> Classifier for OneVsRest<M> {
    fn classes(&self) -> &[Label] {
        &self.classes
    }
    fn n_features(&self) -> usize {
        self.models.first().map_or(0, |m| m.n_features())
    }
    /// Column `k`: sub-model `k`'s confidence in class `k`.
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        x.check_predict_input(self.n_features())?;
        self.columns(x, |m| m.decision_function(x))
    }
    /// `log(p_k / sum_j p_j)`; a row where every sub-model gives 0 is uniform.
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>> {
        x.check_predict_input(self.n_features())?;
        let mut p = self.positive_proba(x)?;
        let k = p.ncols() as f64;
        for mut row in p.rows_mut() {
            let total: f64 = row.sum();
            if total > 0.0 {
                row.mapv_inplace(|v| (v / total).ln());
            } else {
                row.fill(-k.ln());
            }
        }
        if p.iter().any(|v| v.is_nan()) {
            return Err(Error::data("one-vs-all probabilities are not finite"));
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multiclass::test_support::{blobs, gaussian};

    #[test]
    fn separable_blobs_are_learned() {
        let d = blobs(20);
        let m = OneVsRest::fit(&d, gaussian).unwrap();
        assert_eq!(m.models().len(), 3);
        assert_eq!(m.predict(d.x()).unwrap(), d.labels());
        let p = m.predict_proba(d.x()).unwrap();
        for r in p.rows() {
            assert!((r.sum() - 1.0).abs() < 1e-12);
        }
        let wrong: Features = Array2::<f64>::zeros((1, 3)).into();
        assert!(matches!(
            m.predict(&wrong),
            Err(Error::FeatureCount {
                expected: 2,
                found: 3
            })
        ));
    }

    #[test]
    fn sub_problems_are_class_against_rest() {
        let d = blobs(5);
        let seen = std::sync::Mutex::new(Vec::new());
        OneVsRest::fit(&d, |sub| {
            seen.lock()
                .unwrap()
                .push(sub.targets().iter().sum::<usize>());
            gaussian(sub)
        })
        .unwrap();
        assert_eq!(seen.into_inner().unwrap(), vec![5, 5, 5]);
    }
}
