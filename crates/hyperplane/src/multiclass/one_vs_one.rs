//! One-vs-one: one binary problem per pair of classes, then a vote.

use ndarray::Array2;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::data::{Dataset, Features, Label};
use crate::error::{Error, Result};
use crate::estimator::Classifier;

use super::positive_column;

/// `K (K - 1) / 2` binary models, one per pair `(i, j)`, `i < j`, trained on the rows of
/// classes `i` and `j` (class `j` is the sub-problem's second class).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OneVsOne<M> {
    classes: Vec<Label>,
    n_features: usize,
    pairs: Vec<(usize, usize)>,
    models: Vec<M>,
}

impl<M: Classifier + Send> OneVsOne<M> {
    /// Fits `fit` on every pair of classes, in parallel.
    pub fn fit<F>(data: &Dataset, fit: F) -> Result<Self>
    where
        F: Fn(&Dataset) -> Result<M> + Sync,
    {
        let classes = data.classes().to_vec();
        let k = classes.len();
        let pairs: Vec<(usize, usize)> = (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .collect();
        let models = pairs
            .par_iter()
            .map(|&(i, j)| {
                let rows: Vec<usize> = (0..data.n_samples())
                    .filter(|&n| data.targets()[n] == i || data.targets()[n] == j)
                    .collect();
                let sub = data.select_rows(&rows);
                let targets = sub.targets().iter().map(|&t| usize::from(t == j)).collect();
                fit(&sub.with_targets(targets, vec![classes[i].clone(), classes[j].clone()])?)
            })
            .collect::<Result<Vec<M>>>()?;
        Ok(OneVsOne {
            classes,
            n_features: data.n_features(),
            pairs,
            models,
        })
    }

    /// Checks a model read from a file: one binary model per pair `i < j` of classes, in
    /// order, all `n_features` wide.
    pub fn validate(&self) -> Result<()> {
        let k = self.classes.len();
        let pairs: Vec<(usize, usize)> = (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .collect();
        if self.pairs != pairs {
            return Err(Error::data(format!(
                "multiclass model: pairs must be every pair i < j of the {k} classes, in order"
            )));
        }
        super::check_reduction(&self.classes, &self.models, pairs.len(), self.n_features)
    }

    /// The pairs `(i, j)` of class indices and their models.
    pub fn pairs(&self) -> impl Iterator<Item = ((usize, usize), &M)> {
        self.pairs.iter().copied().zip(&self.models)
    }
}

impl<M: Classifier + Send> Classifier for OneVsOne<M> {
    fn classes(&self) -> &[Label] {
        &self.classes
    }
    fn n_features(&self) -> usize {
        self.n_features
    }
    /// `votes_k + c_k / (3 (|c_k| + 1))`, with `c_k` the summed confidence of the pair
    /// models in class `k`: the vote decides, the confidence only breaks ties.
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        x.check_predict_input(self.n_features)?;
        let n = x.n_rows();
        let mut votes = Array2::<f64>::zeros((n, self.classes.len()));
        let mut confidence = Array2::<f64>::zeros((n, self.classes.len()));
        for ((i, j), m) in self.pairs() {
            let s = positive_column(&m.decision_function(x)?);
            let predicted = m.predict_index(x)?;
            for r in 0..n {
                votes[[r, if predicted[r] == 1 { j } else { i }]] += 1.0;
                confidence[[r, j]] += s[r];
                confidence[[r, i]] -= s[r];
            }
        }
        Ok(votes + confidence.mapv(|c| c / (3.0 * (c.abs() + 1.0))))
    }
    fn predict_log_proba(&self, _x: &Features) -> Result<Array2<f64>> {
        Err(Error::Unsupported {
            model: "one-vs-one".into(),
            what: "probabilities (votes are not probabilities; use multiclass=ova)".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multiclass::test_support::{blobs, gaussian};

    #[test]
    fn separable_blobs_are_learned_by_voting() {
        let d = blobs(20);
        let m = OneVsOne::fit(&d, gaussian).unwrap();
        assert_eq!(m.pairs().count(), 3);
        assert_eq!(m.predict(d.x()).unwrap(), d.labels());
        assert!(m.predict_proba(d.x()).is_err());
        let s = m.decision_function(d.x()).unwrap();
        // The winner of every row has both its votes.
        for r in s.rows() {
            let best = r.iter().copied().fold(f64::MIN, f64::max);
            assert!(best > 5.0 / 3.0 && best < 7.0 / 3.0, "{r}");
        }
    }

    #[test]
    fn sub_problems_hold_only_their_pair() {
        let d = blobs(4);
        let sizes = std::sync::Mutex::new(Vec::new());
        OneVsOne::fit(&d, |sub| {
            sizes
                .lock()
                .unwrap()
                .push((sub.n_samples(), sub.classes().to_vec()));
            gaussian(sub)
        })
        .unwrap();
        let mut sizes = sizes.into_inner().unwrap();
        sizes.sort_by_key(|s| format!("{:?}", s.1));
        assert_eq!(sizes[0], (8, vec![Label::from("a"), Label::from("b")]));
        assert_eq!(sizes.len(), 3);
    }
}
