//! Metrics: how good a classifier's (or a regressor's, in [`regression`]) predictions are.
//!
//! Labels are class indices `0..n_classes` (as encoded by [`crate::data::labels::encode`]);
//! every metric returns `f64` and checks its inputs: arrays of different lengths give
//! [`Error::InvalidData`] naming both lengths, an empty input
//! or a label out of range is an error too.
//!
//! ## Formulas
//!
//! For class `c`, with `TP` the rows of class `c` predicted `c`, `FP` the rows of other
//! classes predicted `c`, and `FN` the rows of class `c` predicted otherwise:
//!
//! | metric | formula | when the denominator is 0 |
//! |---|---|---|
//! | accuracy | `sum_i w_i [y_i = p_i] / sum_i w_i` (w = 1 unweighted) | error (no samples) |
//! | 0/1 error | `1 - accuracy` | |
//! | precision | `TP / (TP + FP)` | 0 (scikit-learn's `zero_division=0`) |
//! | recall | `TP / (TP + FN)` | 0 |
//! | F1 | `2 TP / (2 TP + FP + FN)` (= `2 P R / (P + R)`) | 0 |
//! | support | `TP + FN` | |
//! | macro average | `(1 / K) sum_c m_c` over all `K` classes | |
//! | weighted average | `sum_c support_c m_c / sum_c support_c` | |
//! | log loss | `-(1 / sum w) sum_i w_i ln clip(p_{i, y_i})`, `clip` to `[eps, 1 - eps]`, `eps = f64::EPSILON` | |
//! | ROC AUC | `(R_+ - n_+ (n_+ + 1) / 2) / (n_+ n_-)`, `R_+` the sum of the positives' ranks (ties get the average rank) | error (one class) |
//! | cost-weighted error | `(1 / n) sum_i cost[y_i][p_i]` | error (no samples) |
//!
//! ## For scikit-learn users
//!
//! | scikit-learn | hyperplane |
//! |---|---|
//! | `accuracy_score(y, p, sample_weight=w)` | [`accuracy`]`(&y, &p, Some(&w))` |
//! | `zero_one_loss(y, p)` | [`zero_one_error`]`(&y, &p, None)` |
//! | `confusion_matrix(y, p, labels=range(K))` | [`ConfusionMatrix::from_labels`]`(&y, &p, K)` |
//! | `precision_recall_fscore_support(y, p, labels=range(K), zero_division=0)` | [`ClassificationReport`] (`classes`, `macro_avg`, `weighted_avg`) |
//! | `classification_report(y, p, target_names=names, zero_division=0)` | `println!("{}", ClassificationReport::from_labels(&y, &p, &names)?)` |
//! | `log_loss(y, proba, labels=range(K))` | [`log_loss`]`(&y, proba.view(), None)` |
//! | `roc_auc_score(y, scores)` | [`roc_auc`]`(&y_bool, &scores)` |
//! | `mean_squared_error`, `mean_absolute_error`, `r2_score` | [`mean_squared_error`], [`mean_absolute_error`], [`r2_score`] |

pub mod classification;
pub mod cost;
pub mod probabilistic;
pub mod regression;

pub use classification::{
    accuracy, zero_one_error, AverageScores, ClassScores, ClassificationReport, ConfusionMatrix,
};
pub use cost::{cost_weighted_error, CostMatrix};
pub use probabilistic::{log_loss, roc_auc};
pub use regression::{mean_absolute_error, mean_squared_error, r2_score, RegressionReport};

use crate::error::{Error, Result};

/// Errors unless `a_len == b_len`, naming both inputs and lengths; errors on empty input.
fn check_lengths(a_name: &str, a_len: usize, b_name: &str, b_len: usize) -> Result<()> {
    if a_len != b_len {
        return Err(Error::data(format!(
            "{a_name} has {a_len} entries but {b_name} has {b_len}"
        )));
    }
    if a_len == 0 {
        return Err(Error::data(format!(
            "{a_name} and {b_name} are empty: a metric needs at least one sample"
        )));
    }
    Ok(())
}

/// Errors unless every class index in `y` is below `n_classes`.
fn check_classes(what: &str, y: &[usize], n_classes: usize) -> Result<()> {
    match y.iter().position(|&c| c >= n_classes) {
        Some(row) => Err(Error::data(format!(
            "{what} has class index {} at row {} but there are only {n_classes} classes",
            y[row],
            row + 1
        ))),
        None => Ok(()),
    }
}

/// Checks optional sample weights (length `n`, finite, non-negative, positive sum) and
/// returns their sum, or `n` when unweighted.
fn check_weights(weights: Option<&[f64]>, n: usize) -> Result<f64> {
    let Some(w) = weights else {
        return Ok(n as f64);
    };
    check_lengths("sample weights", w.len(), "y_true", n)?;
    if let Some(row) = w.iter().position(|v| !v.is_finite() || *v < 0.0) {
        return Err(Error::data(format!(
            "sample weight {} at row {} must be finite and non-negative",
            w[row],
            row + 1
        )));
    }
    let total: f64 = w.iter().sum();
    if total <= 0.0 {
        return Err(Error::data("sample weights sum to zero"));
    }
    Ok(total)
}
