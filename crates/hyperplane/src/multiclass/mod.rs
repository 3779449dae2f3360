//! Multiclass from binary classifiers: one-vs-all and one-vs-one.
//!
//! Both reductions work over any binary learner, given as a function from a two-class
//! [`Dataset`](crate::data::Dataset) to a fitted [`Classifier`](crate::Classifier); the sub-problems share the feature matrix (it is
//! never copied) and are trained in parallel. Column 1 of a binary sub-model's
//! `decision_function` is its confidence in the sub-problem's second class.
//!
//! - [`OneVsRest`]: `K` problems "class k against the rest"; predict
//!   `argmax_k s_k(x)`; probabilities `p_k / sum_j p_j` when the sub-models have them.
//! - [`OneVsOne`]: `K (K - 1) / 2` problems on the rows of each pair of classes; each pair
//!   votes, and ties are broken by the summed confidences, squashed into `(-1/3, 1/3)` so they
//!   never outweigh a vote (scikit-learn's rule).

mod one_vs_one;
mod one_vs_rest;

pub use one_vs_one::OneVsOne;
pub use one_vs_rest::OneVsRest;

use serde::{Deserialize, Serialize};

/// Which reduction turns a binary learner into a multiclass one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// One-vs-all (one-vs-rest).
    #[default]
    Ova,
    /// One-vs-one.
    Ovo,
}

impl std::str::FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "ova" | "ovr" | "one-vs-all" | "one-vs-rest" => Ok(Strategy::Ova),
            "ovo" | "one-vs-one" => Ok(Strategy::Ovo),
            _ => Err("choose ova (one-vs-all) or ovo (one-vs-one)".into()),
        }
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Strategy::Ova => "ova",
            Strategy::Ovo => "ovo",
        })
    }
}

crate::param::choice_value!(Strategy = ["ova", "ovo"]);

/// Checks a reduction read from a model file: its classes non-empty, sorted and distinct,
/// `n_models` sub-models of one or two classes each, all `n_features` wide; the error
/// names the field.
fn check_reduction<M: crate::estimator::Classifier>(
    classes: &[crate::data::Label],
    models: &[M],
    n_models: usize,
    n_features: usize,
) -> crate::error::Result<()> {
    let bad = |field: &str, why: String| {
        Err(crate::error::Error::data(format!(
            "multiclass model: {field} {why}"
        )))
    };
    if classes.len() < 2 || classes.windows(2).any(|w| w[0] >= w[1]) {
        return bad(
            "classes",
            "must be at least two, sorted and distinct".into(),
        );
    }
    if models.len() != n_models {
        return bad(
            "models",
            format!(
                "holds {} models, not {n_models} for {} classes",
                models.len(),
                classes.len()
            ),
        );
    }
    if let Some(k) = models
        .iter()
        .position(|m| !(1..=2).contains(&m.classes().len()))
    {
        return bad(
            "models",
            format!("{}: a sub-model must have one or two classes", k + 1),
        );
    }
    if let Some(k) = models.iter().position(|m| m.n_features() != n_features) {
        return bad(
            "models",
            format!(
                "{}: takes {} features, not {n_features}",
                k + 1,
                models[k].n_features()
            ),
        );
    }
    Ok(())
}

/// Column 1 of a two-column score matrix, or the only column of a one-class model (whose
/// confidence in the sub-problem's second class is then 0 or 1 by which class it saw).
fn positive_column(scores: &ndarray::Array2<f64>) -> Vec<f64> {
    scores.column(scores.ncols().min(2) - 1).to_vec()
}

#[cfg(test)]
mod test_support {
    use crate::bayes::{GaussianNB, GaussianNBModel};
    use crate::data::{Dataset, Features, Label};
    use crate::error::Result;
    use crate::estimator::Fit;
    use ndarray::Array2;

    /// Three well-separated blobs in 2-D, `n` rows each.
    pub fn blobs(n: usize) -> Dataset<'static> {
        let centers = [(0.0, 0.0), (5.0, 0.0), (0.0, 5.0)];
        let mut rng = crate::rng::Rng::new(3);
        let mut x = Array2::zeros((3 * n, 2));
        let mut y = Vec::new();
        for (c, (cx, cy)) in centers.iter().enumerate() {
            for i in 0..n {
                x[[c * n + i, 0]] = cx + rng.next_f64() - 0.5;
                x[[c * n + i, 1]] = cy + rng.next_f64() - 0.5;
                y.push(Label::from(["a", "b", "c"][c]));
            }
        }
        Dataset::new(Features::from(x), &y).unwrap()
    }

    pub fn gaussian(d: &Dataset) -> Result<GaussianNBModel> {
        GaussianNB::default().fit(d)
    }
}
