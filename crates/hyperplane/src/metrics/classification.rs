//! Classification metrics from hard predictions: accuracy, 0/1 error, the confusion
//! matrix and the per-class report (precision, recall, F1, support).

use std::fmt;

use serde::Serialize;

use super::{check_classes, check_lengths, check_weights};
use crate::data::Label;
use crate::error::{Error, Result};

/// Fraction of rows predicted right, `sum_i w_i [y_i = p_i] / sum_i w_i` (`w_i = 1` when
/// unweighted).
pub fn accuracy(y_true: &[usize], y_pred: &[usize], weights: Option<&[f64]>) -> Result<f64> {
    check_lengths("y_true", y_true.len(), "y_pred", y_pred.len())?;
    let total = check_weights(weights, y_true.len())?;
    let hits = y_true.iter().zip(y_pred).map(|(t, p)| t == p);
    let correct: f64 = match weights {
        Some(w) => hits.zip(w).filter(|(hit, _)| *hit).map(|(_, w)| w).sum(),
        None => hits.filter(|&hit| hit).count() as f64,
    };
    Ok(correct / total)
}

/// Fraction of rows predicted wrong (weighted as [`accuracy`]): `1 - accuracy`.
pub fn zero_one_error(y_true: &[usize], y_pred: &[usize], weights: Option<&[f64]>) -> Result<f64> {
    Ok(1.0 - accuracy(y_true, y_pred, weights)?)
}

/// Counts of (true class, predicted class) pairs: `counts[t][p]` rows of class `t` were
/// predicted `p`. Rows are true classes, columns predicted classes, as scikit-learn's
/// `confusion_matrix`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConfusionMatrix {
    pub n_classes: usize,
    pub counts: Vec<Vec<u64>>,
}

impl ConfusionMatrix {
    /// Counts the pairs of `y_true` and `y_pred`, both class indices below `n_classes`.
    pub fn from_labels(y_true: &[usize], y_pred: &[usize], n_classes: usize) -> Result<Self> {
        check_lengths("y_true", y_true.len(), "y_pred", y_pred.len())?;
        check_classes("y_true", y_true, n_classes)?;
        check_classes("y_pred", y_pred, n_classes)?;
        let mut counts = vec![vec![0u64; n_classes]; n_classes];
        for (&t, &p) in y_true.iter().zip(y_pred) {
            counts[t][p] += 1;
        }
        Ok(ConfusionMatrix { n_classes, counts })
    }

    /// Number of rows counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }

    /// Rows predicted right: the trace.
    pub fn correct(&self) -> u64 {
        self.counts
            .iter()
            .enumerate()
            .filter_map(|(c, row)| row.get(c))
            .sum()
    }

    /// `TP` of class `c`: rows of class `c` predicted `c`.
    pub fn true_positives(&self, c: usize) -> u64 {
        self.counts
            .get(c)
            .and_then(|row| row.get(c))
            .copied()
            .unwrap_or(0)
    }

    /// Support of class `c`, `TP + FN`: rows whose true class is `c` (row sum).
    pub fn support(&self, c: usize) -> u64 {
        self.counts.get(c).map_or(0, |row| row.iter().sum())
    }

    /// `TP + FP` of class `c`: rows predicted `c` (column sum).
    pub fn predicted(&self, c: usize) -> u64 {
        self.counts.iter().filter_map(|row| row.get(c)).sum()
    }

    /// `correct / total` (0 for an empty matrix).
    pub fn accuracy(&self) -> f64 {
        ratio(self.correct() as f64, self.total() as f64)
    }

    /// Precision of class `c`, `TP / (TP + FP)`; 0 when nothing was predicted `c`.
    pub fn precision(&self, c: usize) -> f64 {
        ratio(self.true_positives(c) as f64, self.predicted(c) as f64)
    }

    /// Recall of class `c`, `TP / (TP + FN)`; 0 when class `c` has no rows.
    pub fn recall(&self, c: usize) -> f64 {
        ratio(self.true_positives(c) as f64, self.support(c) as f64)
    }

    /// F1 of class `c`, `2 TP / (2 TP + FP + FN)`, the harmonic mean of precision and
    /// recall; 0 when class `c` was neither present nor predicted.
    pub fn f1(&self, c: usize) -> f64 {
        ratio(
            2.0 * self.true_positives(c) as f64,
            (self.support(c) + self.predicted(c)) as f64,
        )
    }

    /// A [`Display`](fmt::Display) of the matrix with the given class names as row and
    /// column headers (class indices for missing names).
    pub fn display_with<'a>(&'a self, class_names: &'a [Label]) -> impl fmt::Display + 'a {
        ConfusionDisplay {
            matrix: self,
            names: class_names,
        }
    }
}

impl fmt::Display for ConfusionMatrix {
    /// The matrix with class indices as headers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display_with(&[]).fmt(f)
    }
}

struct ConfusionDisplay<'a> {
    matrix: &'a ConfusionMatrix,
    names: &'a [Label],
}

impl fmt::Display for ConfusionDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.matrix;
        let names: Vec<String> = (0..m.n_classes)
            .map(|c| self.names.get(c).map_or(c.to_string(), |l| l.to_string()))
            .collect();
        let corner = "true \\ predicted";
        let label_width = names
            .iter()
            .map(|s| s.chars().count())
            .chain([corner.len()])
            .max()
            .unwrap_or(0);
        let cell_width = names
            .iter()
            .map(|s| s.chars().count())
            .chain(m.counts.iter().flatten().map(|v| v.to_string().len()))
            .max()
            .unwrap_or(1);
        write!(f, "{corner:>label_width$}")?;
        for name in &names {
            write!(f, "  {name:>cell_width$}")?;
        }
        writeln!(f)?;
        for (name, row) in names.iter().zip(&m.counts) {
            write!(f, "{name:>label_width$}")?;
            for v in row {
                write!(f, "  {v:>cell_width$}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Precision, recall, F1 and support of one class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassScores {
    pub label: Label,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub support: u64,
}

/// Precision, recall and F1 averaged over classes, and the total support.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AverageScores {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub support: u64,
}

/// Per-class precision, recall, F1 and support, their macro and support-weighted
/// averages, and the accuracy, as scikit-learn's `classification_report(...,
/// zero_division=0)` with `labels` = every class: classes absent from both `y_true` and
/// `y_pred` are kept (with scores 0) and count in the macro average.
///
/// `Display` prints the table and the confusion matrix; the formatter's precision sets
/// the decimals (`{:.4}`; 2 by default, as scikit-learn).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassificationReport {
    pub classes: Vec<ClassScores>,
    pub accuracy: f64,
    pub macro_avg: AverageScores,
    pub weighted_avg: AverageScores,
    pub confusion_matrix: ConfusionMatrix,
}

impl ClassificationReport {
    /// The report of a confusion matrix whose class `c` is named `class_names[c]`.
    pub fn new(confusion_matrix: ConfusionMatrix, class_names: &[Label]) -> Result<Self> {
        let k = confusion_matrix.n_classes;
        if class_names.len() != k {
            return Err(Error::data(format!(
                "the confusion matrix has {k} classes but {} class names were given",
                class_names.len()
            )));
        }
        if confusion_matrix.counts.len() != k
            || confusion_matrix.counts.iter().any(|r| r.len() != k)
        {
            return Err(Error::data(format!(
                "the confusion matrix counts are not {k} x {k}"
            )));
        }
        let total = confusion_matrix.total();
        if total == 0 {
            return Err(Error::data(
                "the confusion matrix is empty: a report needs at least one sample",
            ));
        }
        let classes: Vec<ClassScores> = class_names
            .iter()
            .enumerate()
            .map(|(c, label)| ClassScores {
                label: label.clone(),
                precision: confusion_matrix.precision(c),
                recall: confusion_matrix.recall(c),
                f1: confusion_matrix.f1(c),
                support: confusion_matrix.support(c),
            })
            .collect();
        let average = |weighted: bool| {
            let weight = |s: &ClassScores| if weighted { s.support as f64 } else { 1.0 };
            let norm: f64 = classes.iter().map(weight).sum();
            let mean = |m: fn(&ClassScores) -> f64| {
                ratio(classes.iter().map(|s| weight(s) * m(s)).sum(), norm)
            };
            AverageScores {
                precision: mean(|s| s.precision),
                recall: mean(|s| s.recall),
                f1: mean(|s| s.f1),
                support: total,
            }
        };
        Ok(ClassificationReport {
            accuracy: confusion_matrix.accuracy(),
            macro_avg: average(false),
            weighted_avg: average(true),
            classes,
            confusion_matrix,
        })
    }

    /// The report of predictions `y_pred` against `y_true` (class indices into
    /// `class_names`).
    pub fn from_labels(y_true: &[usize], y_pred: &[usize], class_names: &[Label]) -> Result<Self> {
        let cm = ConfusionMatrix::from_labels(y_true, y_pred, class_names.len())?;
        ClassificationReport::new(cm, class_names)
    }
}

impl fmt::Display for ClassificationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = f.precision().unwrap_or(2);
        let names: Vec<String> = self.classes.iter().map(|c| c.label.to_string()).collect();
        let width = names
            .iter()
            .map(|s| s.chars().count())
            .chain(["weighted avg".len()])
            .max()
            .unwrap_or(0);
        let cell = 9.max(digits + 3);
        let blank = "";
        writeln!(
            f,
            "{blank:>width$}  {:>cell$} {:>cell$} {:>cell$} {:>cell$}",
            "precision", "recall", "f1-score", "support"
        )?;
        writeln!(f)?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, p: f64, r: f64, f1: f64, s: u64| {
            writeln!(
                f,
                "{name:>width$}  {p:>cell$.digits$} {r:>cell$.digits$} {f1:>cell$.digits$} {s:>cell$}"
            )
        };
        for (name, c) in names.iter().zip(&self.classes) {
            row(f, name, c.precision, c.recall, c.f1, c.support)?;
        }
        writeln!(f)?;
        let acc = self.accuracy;
        let total = self.macro_avg.support;
        writeln!(
            f,
            "{:>width$}  {blank:>cell$} {blank:>cell$} {acc:>cell$.digits$} {total:>cell$}",
            "accuracy"
        )?;
        for (name, a) in [
            ("macro avg", &self.macro_avg),
            ("weighted avg", &self.weighted_avg),
        ] {
            row(f, name, a.precision, a.recall, a.f1, a.support)?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "confusion matrix (rows: true class, columns: predicted class)"
        )?;
        let labels: Vec<Label> = self.classes.iter().map(|c| c.label.clone()).collect();
        let matrix = self.confusion_matrix.display_with(&labels);
        write!(f, "{matrix}")
    }
}

/// `num / den`, or 0 when `den` is 0 (scikit-learn's `zero_division=0`).
fn ratio(num: f64, den: f64) -> f64 {
    if den == 0.0 {
        0.0
    } else {
        num / den
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct PrfCase {
        n_classes: usize,
        y_true: Vec<usize>,
        y_pred: Vec<usize>,
        weights: Vec<f64>,
        precision: Vec<f64>,
        recall: Vec<f64>,
        f1: Vec<f64>,
        support: Vec<u64>,
        macro_avg: [f64; 3],
        weighted_avg: [f64; 3],
        accuracy: f64,
        weighted_accuracy: f64,
        zero_one_loss: f64,
        confusion_matrix: Vec<Vec<u64>>,
    }

    #[derive(Deserialize)]
    struct Fixtures {
        classification: Vec<PrfCase>,
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12
    }

    fn names(k: usize) -> Vec<Label> {
        (0..k as i64).map(Label::Int).collect()
    }

    #[test]
    fn agrees_with_scikit_learn() {
        let fx: Fixtures =
            serde_json::from_str(include_str!("../../tests/fixtures/metrics.json")).unwrap();
        assert!(!fx.classification.is_empty());
        for (i, case) in fx.classification.iter().enumerate() {
            let (t, p) = (&case.y_true, &case.y_pred);
            let cm = ConfusionMatrix::from_labels(t, p, case.n_classes).unwrap();
            assert_eq!(cm.counts, case.confusion_matrix, "case {i}");
            let r = ClassificationReport::new(cm, &names(case.n_classes)).unwrap();
            for (c, s) in r.classes.iter().enumerate() {
                assert!(close(s.precision, case.precision[c]), "case {i} class {c}");
                assert!(close(s.recall, case.recall[c]), "case {i} class {c}");
                assert!(close(s.f1, case.f1[c]), "case {i} class {c}");
                assert_eq!(s.support, case.support[c], "case {i} class {c}");
            }
            for (got, want) in [
                (&r.macro_avg, case.macro_avg),
                (&r.weighted_avg, case.weighted_avg),
            ] {
                assert!(close(got.precision, want[0]), "case {i}");
                assert!(close(got.recall, want[1]), "case {i}");
                assert!(close(got.f1, want[2]), "case {i}");
            }
            assert!(close(r.accuracy, case.accuracy), "case {i}");
            assert!(
                close(accuracy(t, p, None).unwrap(), case.accuracy),
                "case {i}"
            );
            let wa = accuracy(t, p, Some(&case.weights)).unwrap();
            assert!(close(wa, case.weighted_accuracy), "case {i}");
            assert!(
                close(zero_one_error(t, p, None).unwrap(), case.zero_one_loss),
                "case {i}"
            );
        }
    }

    #[test]
    fn zero_division_gives_zero() {
        // Class 2 is never predicted and class 3 neither present nor predicted.
        let cm = ConfusionMatrix::from_labels(&[0, 1, 2, 2], &[0, 1, 1, 0], 4).unwrap();
        assert_eq!(cm.precision(2), 0.0);
        assert_eq!(cm.recall(2), 0.0);
        assert_eq!(cm.f1(3), 0.0);
        assert_eq!(cm.precision(1), 0.5);
        assert!(close(cm.f1(0), 2.0 / 3.0));
        let r = ClassificationReport::new(cm, &names(4)).unwrap();
        assert!(close(r.macro_avg.recall, 0.5)); // (1 + 1 + 0 + 0) / 4
        assert!(close(r.weighted_avg.recall, 0.5)); // (1 + 1 + 0) / 4 rows
        assert_eq!(r.accuracy, 0.5);
    }

    #[test]
    fn lengths_labels_and_weights_are_checked() {
        let e = accuracy(&[0, 1, 1], &[0, 1], None).unwrap_err();
        assert!(matches!(e, Error::InvalidData(_)));
        assert!(
            e.to_string().contains("3 entries") && e.to_string().contains("has 2"),
            "{e}"
        );
        let e = accuracy(&[], &[], None).unwrap_err();
        assert!(e.to_string().contains("empty"), "{e}");
        let e = accuracy(&[0, 1], &[0, 1], Some(&[1.0])).unwrap_err();
        assert!(e.to_string().contains("sample weights has 1"), "{e}");
        let e = accuracy(&[0, 1], &[0, 1], Some(&[1.0, -1.0])).unwrap_err();
        assert!(e.to_string().contains("row 2"), "{e}");
        let e = accuracy(&[0, 1], &[0, 1], Some(&[0.0, 0.0])).unwrap_err();
        assert!(e.to_string().contains("sum to zero"), "{e}");
        let e = ConfusionMatrix::from_labels(&[0, 1], &[0, 5], 2).unwrap_err();
        assert!(
            e.to_string().contains("y_pred has class index 5 at row 2"),
            "{e}"
        );
        let cm = ConfusionMatrix::from_labels(&[0, 1], &[0, 1], 2).unwrap();
        let e = ClassificationReport::new(cm, &names(3)).unwrap_err();
        assert!(e.to_string().contains("3 class names"), "{e}");
    }

    #[test]
    fn weighted_accuracy_equals_repeated_rows() {
        let a = accuracy(&[0, 1, 1], &[0, 0, 1], Some(&[2.0, 1.0, 3.0])).unwrap();
        let b = accuracy(&[0, 0, 1, 1, 1, 1], &[0, 0, 0, 1, 1, 1], None).unwrap();
        assert!(close(a, b) && close(a, 5.0 / 6.0));
    }

    #[test]
    fn report_display_is_aligned_like_scikit_learn() {
        let classes = [Label::from("ham"), Label::from("spam")];
        let r = ClassificationReport::from_labels(&[0, 0, 0, 1, 1], &[0, 0, 1, 1, 0], &classes)
            .unwrap();
        let text = r.to_string();
        let expected = "              precision    recall  f1-score   support

         ham       0.67      0.67      0.67         3
        spam       0.50      0.50      0.50         2

    accuracy                           0.60         5
   macro avg       0.58      0.58      0.58         5
weighted avg       0.60      0.60      0.60         5

confusion matrix (rows: true class, columns: predicted class)
true \\ predicted   ham  spam
             ham     2     1
            spam     1     1
";
        assert_eq!(text, expected);
        assert!(
            format!("{r:.4}").contains("\n         ham     0.6667    0.6667    0.6667         3\n")
        );
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["classes"][1]["label"], "spam");
        assert_eq!(json["confusion_matrix"]["counts"][0][1], 1);
    }

    #[test]
    fn confusion_matrix_display_uses_indices_without_names() {
        let cm = ConfusionMatrix::from_labels(&[0, 1, 1], &[1, 1, 1], 2).unwrap();
        assert_eq!(
            cm.to_string(),
            "true \\ predicted  0  1\n               0  0  1\n               1  0  2\n"
        );
        assert_eq!((cm.total(), cm.correct(), cm.predicted(1)), (3, 2, 3));
    }
}
