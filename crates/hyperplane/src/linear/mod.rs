//! Linear models: every classifier and regressor whose score is `s = w.x + b`.
//!
//! The learners differ only in how they choose `w`; they share the fitted
//! [`LinearModel`], the pointwise [`Loss`]es, the [`margins`] and the label and weight
//! conventions below, so each algorithm file holds just its update rule.
//!
//! Conventions:
//! - Binary problems use `y = -1` for `classes[0]` and `y = +1` for `classes[1]`
//!   (sorted classes, so `-1 < +1` and `"ham" < "spam"` come out as the courses write them).
//! - Every learner honours sample weights and class weights through one per-row weight
//!   `w_n = sample_weight_n * class_weight_{y_n}` ([`row_weights`]).

mod binary;
mod binary_objective;
mod cross_entropy;
pub mod experiment;
mod family;
mod logistic;
mod loss;
mod margin;
mod model;
mod perceptron;
mod pocket;
mod regression;
pub mod sgd;
mod softmax;
mod svm;

/// The fitted-regressor trait, also at [`crate::Regressor`] (it lives in [`crate::estimator`]).
pub use crate::estimator::Regressor;
pub use cross_entropy::Training;
pub use family::{
    LinearClassifier, LinearRegressor, CLASSIFIERS, CLASSIFIER_FAMILY, REGRESSORS, REGRESSOR_FAMILY,
};
pub use logistic::LogisticRegression;
pub use loss::Loss;
pub use margin::{margins, pla_check, Margins, PlaCheck};
pub use model::{LinearModel, Link};
pub use perceptron::{pla_update_bound, Order, Perceptron, PlaBound, Trace, TraceStep, TRACE_CAP};
pub use pocket::Pocket;
pub use regression::{
    linear_regression_init, LinearRegression, LinearRegressionClassifier, LinearRegressionModel,
    LstsqMethod, Ridge,
};
pub use sgd::{Sgd, SgdState};
pub use softmax::SoftmaxRegression;
pub use svm::{LinearSvm, SvmLoss, SvmSolver};

use crate::data::{labels, Dataset, Label};
use crate::error::{Error, Result};

/// `y_n` in {-1, +1} for a two-class data set (`classes[1]` is +1). A data set with one
/// class gives all +1; more than two classes is an error suggesting a multiclass wrapper.
pub fn signed_targets(data: &Dataset, model: &str) -> Result<Vec<f64>> {
    if data.classes().len() > 2 {
        return Err(Error::Unsupported {
            model: model.into(),
            what: format!(
                "{} classes directly; it is a binary learner: wrap it with multiclass=ova or multiclass=ovo",
                data.classes().len()
            ),
        });
    }
    let single = data.classes().len() == 1;
    Ok(data
        .targets()
        .iter()
        .map(|&t| if t == 1 || single { 1.0 } else { -1.0 })
        .collect())
}

/// Per-class weights that multiply the sample weights: the courses' cost-sensitive
/// classification (weight a class by the cost of missing it).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ClassWeight {
    /// Every class weighs 1.
    #[default]
    Uniform,
    /// `sum_n c_n / (n_classes * sum_{n in k} c_n)` with `c` the sample weights (1 when not
    /// given: `n_samples / (n_classes * count_k)`), as scikit-learn's `class_weight="balanced"`;
    /// so integer sample weights still equal repeated rows.
    Balanced,
    /// Given weights by label; classes not named weigh 1.
    Given(Vec<(Label, f64)>),
}

impl std::str::FromStr for ClassWeight {
    type Err = String;
    /// `none`, `balanced`, or `LABEL:WEIGHT,LABEL:WEIGHT`.
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.trim() {
            "none" | "uniform" | "" => Ok(ClassWeight::Uniform),
            "balanced" => Ok(ClassWeight::Balanced),
            list => list
                .split(',')
                .map(|pair| {
                    let (l, w) = pair.rsplit_once(':').ok_or_else(|| {
                        format!("`{pair}` is not LABEL:WEIGHT (use none, balanced or a list like spam:5,ham:1)")
                    })?;
                    let w: f64 = w.trim().parse().map_err(|e| format!("weight `{w}`: {e}"))?;
                    if !w.is_finite() || w < 0.0 {
                        return Err(format!("weight {w} of class {l} must be finite and >= 0"));
                    }
                    Ok((Label::parse(l), w))
                })
                .collect::<std::result::Result<Vec<_>, _>>()
                .map(ClassWeight::Given),
        }
    }
}

impl std::fmt::Display for ClassWeight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClassWeight::Uniform => f.write_str("none"),
            ClassWeight::Balanced => f.write_str("balanced"),
            ClassWeight::Given(list) => {
                let parts: Vec<String> = list.iter().map(|(l, w)| format!("{l}:{w}")).collect();
                f.write_str(&parts.join(","))
            }
        }
    }
}

crate::param::choice_value!(ClassWeight = []);

/// A data set of one (zero) row per class: what the class-level helpers need when a
/// learner streams batches that may not hold every class.
pub(crate) fn one_row_per_class(classes: &[Label]) -> Result<Dataset<'static>> {
    let k = classes.len();
    Dataset::from_encoded(
        ndarray::Array2::<f64>::zeros((k, 1)).into(),
        (0..k).collect(),
        classes.to_vec(),
    )
}

/// The classes of a learner that trains batch by batch, sorted and unique, and the weight
/// of each; `kind` names the learner in the errors. `class_weight=balanced` needs the class
/// counts of the whole data set and is refused.
pub(crate) fn streaming_classes(
    classes: Vec<Label>,
    class_weight: &ClassWeight,
    kind: &str,
) -> Result<(Vec<Label>, Vec<f64>)> {
    let mut classes = classes;
    classes.sort();
    classes.dedup();
    if classes.is_empty() {
        return Err(Error::data(format!("{kind} needs at least one class")));
    }
    if *class_weight == ClassWeight::Balanced {
        return Err(Error::param(
            "class_weight",
            "balanced",
            "needs the class counts of the whole data set; give weights per class for training batch by batch",
        ));
    }
    let weights = row_weights(&one_row_per_class(&classes)?, class_weight)?;
    Ok((classes, weights))
}

/// The index in `classes` of each of `batch`'s classes; an error naming the first row of
/// a label not among them.
pub(crate) fn class_index(batch: &Dataset, classes: &[Label]) -> Result<Vec<usize>> {
    batch
        .classes()
        .iter()
        .map(|label| {
            classes
                .iter()
                .position(|c| c == label)
                .ok_or_else(|| label.clone())
        })
        .collect::<std::result::Result<_, Label>>()
        .map_err(|label| Error::UnknownClass {
            label: label.to_string(),
            row: batch.labels().iter().position(|l| *l == label).unwrap_or(0),
            classes: labels::format_classes(classes),
        })
}

/// `sample_weight_n * class_weight_{y_n}` for every row; a class weight naming a label the
/// data does not have is an error.
pub fn row_weights(data: &Dataset, class_weight: &ClassWeight) -> Result<Vec<f64>> {
    let classes = data.classes();
    let per_class: Vec<f64> = match class_weight {
        ClassWeight::Uniform => vec![1.0; classes.len()],
        ClassWeight::Balanced => {
            let mut totals = vec![0.0; classes.len()];
            for (i, &t) in data.targets().iter().enumerate() {
                totals[t] += data.weight(i);
            }
            let total: f64 = totals.iter().sum();
            totals
                .iter()
                .map(|&c| {
                    if c > 0.0 {
                        total / (classes.len() as f64 * c)
                    } else {
                        1.0
                    }
                })
                .collect()
        }
        ClassWeight::Given(list) => {
            let mut w = vec![1.0; classes.len()];
            for (label, weight) in list {
                let k = classes.iter().position(|c| c == label).ok_or_else(|| {
                    Error::param(
                        "class_weight",
                        label.to_string(),
                        format!(
                            "no such class; the classes are {}",
                            labels::format_classes(classes)
                        ),
                    )
                })?;
                w[k] = *weight;
            }
            w
        }
    };
    Ok(data
        .targets()
        .iter()
        .enumerate()
        .map(|(i, &t)| data.weight(i) * per_class[t])
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn data() -> Dataset<'static> {
        let x = array![[0.0], [1.0], [2.0], [3.0]].into();
        Dataset::new(
            x,
            &["ham".into(), "spam".into(), "ham".into(), "ham".into()],
        )
        .unwrap()
        .with_weights(vec![1.0, 2.0, 1.0, 0.5])
        .unwrap()
    }

    #[test]
    fn targets_are_signed_by_sorted_class() {
        assert_eq!(
            signed_targets(&data(), "pla").unwrap(),
            vec![-1.0, 1.0, -1.0, -1.0]
        );
        let three = Dataset::new(
            array![[0.0], [1.0], [2.0]].into(),
            &[Label::Int(0), Label::Int(1), Label::Int(2)],
        )
        .unwrap();
        let e = signed_targets(&three, "perceptron")
            .unwrap_err()
            .to_string();
        assert!(e.contains("multiclass=ova"), "{e}");
    }

    #[test]
    fn class_weights_multiply_sample_weights() {
        let d = data();
        assert_eq!(
            row_weights(&d, &ClassWeight::Uniform).unwrap(),
            vec![1.0, 2.0, 1.0, 0.5]
        );
        let given: ClassWeight = "spam:10".parse().unwrap();
        assert_eq!(row_weights(&d, &given).unwrap(), vec![1.0, 20.0, 1.0, 0.5]);
        // balanced, weighted totals 4.5: ham weighs 2.5, spam 2; 4.5 / (2 * 2.5) and
        // 4.5 / (2 * 2), times the sample weights.
        let b = row_weights(&d, &ClassWeight::Balanced).unwrap();
        assert!(
            (b[0] - 0.9).abs() < 1e-15 && (b[1] - 2.0 * 1.125).abs() < 1e-15,
            "{b:?}"
        );
        let unknown: ClassWeight = "eggs:2".parse().unwrap();
        assert!(row_weights(&d, &unknown)
            .unwrap_err()
            .to_string()
            .contains("ham, spam"));
        assert!("spam".parse::<ClassWeight>().is_err());
        assert!("spam:-1".parse::<ClassWeight>().is_err());
        assert_eq!(given.to_string(), "spam:10");
    }
}
