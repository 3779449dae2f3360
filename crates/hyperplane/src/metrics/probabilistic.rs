//! Metrics of scores and probabilities: log loss (cross-entropy) and ROC AUC.

use ndarray::ArrayView2;

use super::{check_classes, check_lengths, check_weights};
use crate::error::{Error, Result};

/// Largest distance of a probability row's sum from 1 that [`log_loss`] accepts.
const ROW_SUM_TOLERANCE: f64 = 1e-6;

/// Cross-entropy of predicted class probabilities,
/// `-(1 / sum w) sum_i w_i ln clip(p[i, y_i])`, with `clip` to `[eps, 1 - eps]` and
/// `eps = f64::EPSILON`, as scikit-learn 1.9's `log_loss(y, proba, labels=range(K))`.
///
/// `proba` has one row per sample and one column per class (`y_true` indexes columns).
/// Entries must lie in `[0, 1]` and rows sum to 1 within `1e-6`; rows are not
/// renormalised (scikit-learn stopped renormalising in 1.5 and only warns on rows that do
/// not sum to 1; here such rows are an error, since they are not probabilities).
pub fn log_loss(y_true: &[usize], proba: ArrayView2<f64>, weights: Option<&[f64]>) -> Result<f64> {
    check_lengths("y_true", y_true.len(), "proba rows", proba.nrows())?;
    check_classes("y_true", y_true, proba.ncols())?;
    let total = check_weights(weights, y_true.len())?;
    for (row, p) in proba.rows().into_iter().enumerate() {
        if let Some((class, &v)) = p.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(Error::NonFinite {
                what: "proba".into(),
                row,
                feature: class,
                value: v,
            });
        }
        if let Some((class, &v)) = p
            .iter()
            .enumerate()
            .find(|(_, v)| !(0.0..=1.0).contains(*v))
        {
            return Err(Error::data(format!(
                "proba has {v} at row {}, class {class}: probabilities lie in [0, 1]",
                row + 1
            )));
        }
        let sum = p.sum();
        if (sum - 1.0).abs() > ROW_SUM_TOLERANCE {
            return Err(Error::data(format!(
                "proba row {} sums to {sum}, not 1: pass probabilities, one column per class",
                row + 1
            )));
        }
    }
    let eps = f64::EPSILON;
    let losses = y_true
        .iter()
        .enumerate()
        .map(|(i, &c)| -proba[[i, c]].clamp(eps, 1.0 - eps).ln());
    let sum: f64 = match weights {
        Some(w) => losses.zip(w).map(|(l, w)| l * w).sum(),
        None => losses.sum(),
    };
    Ok(sum / total)
}

/// Area under the ROC curve of `scores` (higher means more likely positive) for the
/// binary truth `y_true_binary`: the probability that a random positive outscores a
/// random negative, counting ties as one half (Mann-Whitney U). With `R_+` the sum of
/// the positives' ranks among all scores (tied scores share their average rank),
/// `AUC = (R_+ - n_+ (n_+ + 1) / 2) / (n_+ n_-)`, equal to the trapezoid area under the
/// ROC curve (scikit-learn's `roc_auc_score`).
///
/// Errors: lengths differ, a score is NaN or infinite, or only one class is present.
pub fn roc_auc(y_true_binary: &[bool], scores: &[f64]) -> Result<f64> {
    check_lengths("y_true", y_true_binary.len(), "scores", scores.len())?;
    if let Some(row) = scores.iter().position(|s| !s.is_finite()) {
        return Err(Error::NonFinite {
            what: "scores".into(),
            row,
            feature: 0,
            value: scores[row],
        });
    }
    let n_pos = y_true_binary.iter().filter(|&&y| y).count();
    let n_neg = y_true_binary.len() - n_pos;
    if n_pos == 0 || n_neg == 0 {
        let present = if n_pos == 0 { "negative" } else { "positive" };
        return Err(Error::data(format!(
            "ROC AUC is undefined when y_true has only one class (all {} rows are {present})",
            y_true_binary.len()
        )));
    }
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_unstable_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    // Ranks are 1-based; a run of equal scores at positions start..end shares the
    // average rank (start + 1 + end) / 2.
    let mut positive_rank_sum = 0.0;
    let mut start = 0;
    while start < order.len() {
        let score = scores[order[start]];
        let end = start + order[start..].partition_point(|&i| scores[i] == score);
        let positives = order[start..end]
            .iter()
            .filter(|&&i| y_true_binary[i])
            .count();
        positive_rank_sum += positives as f64 * (start + 1 + end) as f64 / 2.0;
        start = end;
    }
    let (p, n) = (n_pos as f64, n_neg as f64);
    Ok((positive_rank_sum - p * (p + 1.0) / 2.0) / (p * n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, Array2};
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct LogLossCase {
        y_true: Vec<usize>,
        proba: Vec<Vec<f64>>,
        weights: Option<Vec<f64>>,
        log_loss: f64,
    }

    #[derive(Deserialize)]
    struct AucCase {
        y_true: Vec<bool>,
        scores: Vec<f64>,
        roc_auc: f64,
    }

    #[derive(Deserialize)]
    struct Fixtures {
        log_loss: Vec<LogLossCase>,
        roc_auc: Vec<AucCase>,
    }

    fn fixtures() -> Fixtures {
        serde_json::from_str(include_str!("../../tests/fixtures/metrics.json")).unwrap()
    }

    #[test]
    fn log_loss_agrees_with_scikit_learn() {
        let fx = fixtures();
        assert!(fx.log_loss.len() >= 3);
        for (i, case) in fx.log_loss.iter().enumerate() {
            let k = case.proba[0].len();
            let flat: Vec<f64> = case.proba.iter().flatten().copied().collect();
            let p = Array2::from_shape_vec((case.proba.len(), k), flat).unwrap();
            let got = log_loss(&case.y_true, p.view(), case.weights.as_deref()).unwrap();
            assert!(
                (got - case.log_loss).abs() <= 1e-12,
                "case {i}: {got} vs {}",
                case.log_loss
            );
        }
    }

    #[test]
    fn roc_auc_agrees_with_scikit_learn() {
        let fx = fixtures();
        assert!(fx.roc_auc.len() >= 3);
        for (i, case) in fx.roc_auc.iter().enumerate() {
            let got = roc_auc(&case.y_true, &case.scores).unwrap();
            assert!(
                (got - case.roc_auc).abs() <= 1e-12,
                "case {i}: {got} vs {}",
                case.roc_auc
            );
        }
    }

    #[test]
    fn log_loss_clips_certain_mistakes() {
        let p = array![[1.0, 0.0], [0.5, 0.5]];
        let got = log_loss(&[1, 0], p.view(), None).unwrap();
        let want = (-(f64::EPSILON.ln()) + 2f64.ln()) / 2.0;
        assert!((got - want).abs() < 1e-12);
        assert!(log_loss(&[0], array![[1.0, 0.0]].view(), None).unwrap() < 1e-15);
    }

    #[test]
    fn log_loss_rejects_bad_input() {
        let e = log_loss(&[0], array![[0.5, 0.5], [0.5, 0.5]].view(), None).unwrap_err();
        assert!(
            e.to_string()
                .contains("y_true has 1 entries but proba rows has 2"),
            "{e}"
        );
        let e = log_loss(&[2], array![[0.5, 0.5]].view(), None).unwrap_err();
        assert!(e.to_string().contains("class index 2"), "{e}");
        let e = log_loss(&[0], array![[f64::NAN, 0.5]].view(), None).unwrap_err();
        assert!(
            matches!(
                e,
                Error::NonFinite {
                    row: 0,
                    feature: 0,
                    ..
                }
            ),
            "{e}"
        );
        let e = log_loss(&[0], array![[1.5, -0.5]].view(), None).unwrap_err();
        assert!(e.to_string().contains("[0, 1]"), "{e}");
        let e = log_loss(&[0, 0], array![[0.5, 0.5], [0.3, 0.3]].view(), None).unwrap_err();
        assert!(e.to_string().contains("row 2 sums to 0.6"), "{e}");
    }

    #[test]
    fn roc_auc_by_hand_and_errors() {
        // Perfect, reversed, and all tied.
        let y = [false, false, true, true];
        assert_eq!(roc_auc(&y, &[0.1, 0.2, 0.3, 0.4]).unwrap(), 1.0);
        assert_eq!(roc_auc(&y, &[0.4, 0.3, 0.2, 0.1]).unwrap(), 0.0);
        assert_eq!(roc_auc(&y, &[1.0; 4]).unwrap(), 0.5);
        // One positive tied with one of two negatives: (1 + 0.5) / 2.
        assert_eq!(
            roc_auc(&[true, false, false], &[0.5, 0.5, 0.1]).unwrap(),
            0.75
        );
        let e = roc_auc(&[true, true], &[0.1, 0.2]).unwrap_err();
        assert!(e.to_string().contains("only one class"), "{e}");
        let e = roc_auc(&[true, false], &[0.1]).unwrap_err();
        assert!(
            e.to_string().contains("has 2 entries but scores has 1"),
            "{e}"
        );
        let e = roc_auc(&[true, false], &[0.1, f64::INFINITY]).unwrap_err();
        assert!(matches!(e, Error::NonFinite { row: 1, .. }), "{e}");
    }
}
