//! Per-row weights, as every learner of every family honours them: the sample weight of
//! a row times the weight of its class, `w_n = sample_weight_n * class_weight_{y_n}`
//! ([`row_weights`]), the courses' cost-sensitive classification.
//!
//! The families share these from here, below all of them: no family reads another's.

use crate::data::{labels, Dataset, Label};
use crate::error::{Error, Result};
use crate::targets::one_row_per_class;

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

crate::param::choice_value!(ClassWeight = [], forms vec![
    crate::param::Form::Absent { word: "none" },
    crate::param::Form::Choice { words: vec!["balanced"] },
    crate::param::Form::Map { of: crate::param::Scalar::Float },
]);

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
