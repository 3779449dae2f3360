//! How a learner reads the classes of a data set: the `-1` / `+1` targets of a binary
//! learner ([`signed_targets`]: `classes[1]` is `+1`, so `-1 < +1` and `"ham" < "spam"`
//! come out as the courses write them) and the class index of each class of a batch.
//!
//! The families share these from here, below all of them: no family reads another's.

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

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn targets_are_signed_by_sorted_class() {
        let labels: Vec<Label> = ["ham", "spam", "ham", "ham"].map(Label::from).to_vec();
        let two = Dataset::new(array![[0.0], [1.0], [2.0], [3.0]].into(), &labels).unwrap();
        assert_eq!(
            signed_targets(&two, "pla").unwrap(),
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
}
