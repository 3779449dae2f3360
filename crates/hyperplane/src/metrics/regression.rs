//! How close a regressor's real-valued predictions are: MSE, MAE, R^2.
//!
//! | metric | formula (weights `w`, 1 when not given) |
//! |---|---|
//! | mean squared error | `sum_i w_i (y_i - p_i)^2 / sum_i w_i` |
//! | mean absolute error | `sum_i w_i abs(y_i - p_i) / sum_i w_i` |
//! | R^2 | `1 - sum_i w_i (y_i - p_i)^2 / sum_i w_i (y_i - ybar_w)^2`; when `y` is constant: 1 for a perfect fit, else 0 (scikit-learn's `force_finite`) |

use serde::Serialize;

use super::{check_lengths, check_weights};
use crate::error::Result;

fn weighted_mean(values: impl Iterator<Item = f64>, weights: Option<&[f64]>, total: f64) -> f64 {
    match weights {
        Some(w) => values.zip(w).map(|(v, w)| v * w).sum::<f64>() / total,
        None => values.sum::<f64>() / total,
    }
}

fn check(y_true: &[f64], y_pred: &[f64], weights: Option<&[f64]>) -> Result<f64> {
    check_lengths("y_true", y_true.len(), "y_pred", y_pred.len())?;
    check_weights(weights, y_true.len())
}

/// The (weighted) mean squared error.
pub fn mean_squared_error(y_true: &[f64], y_pred: &[f64], weights: Option<&[f64]>) -> Result<f64> {
    let total = check(y_true, y_pred, weights)?;
    let sq = y_true.iter().zip(y_pred).map(|(t, p)| (t - p) * (t - p));
    Ok(weighted_mean(sq, weights, total))
}

/// The (weighted) mean absolute error.
pub fn mean_absolute_error(y_true: &[f64], y_pred: &[f64], weights: Option<&[f64]>) -> Result<f64> {
    let total = check(y_true, y_pred, weights)?;
    let abs = y_true.iter().zip(y_pred).map(|(t, p)| (t - p).abs());
    Ok(weighted_mean(abs, weights, total))
}

/// The coefficient of determination R^2 (1 is a perfect fit; predicting the mean gives 0).
pub fn r2_score(y_true: &[f64], y_pred: &[f64], weights: Option<&[f64]>) -> Result<f64> {
    let total = check(y_true, y_pred, weights)?;
    let mean = weighted_mean(y_true.iter().copied(), weights, total);
    let residual = mean_squared_error(y_true, y_pred, weights)?;
    let spread = weighted_mean(
        y_true.iter().map(|t| (t - mean) * (t - mean)),
        weights,
        total,
    );
    Ok(if spread > 0.0 {
        1.0 - residual / spread
    } else if residual == 0.0 {
        1.0
    } else {
        0.0
    })
}

/// The three regression metrics of one output.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RegressionReport {
    pub mse: f64,
    pub mae: f64,
    pub r2: f64,
}

impl RegressionReport {
    /// MSE, MAE and R^2 of `y_pred` against `y_true`.
    pub fn new(y_true: &[f64], y_pred: &[f64], weights: Option<&[f64]>) -> Result<Self> {
        Ok(RegressionReport {
            mse: mean_squared_error(y_true, y_pred, weights)?,
            mae: mean_absolute_error(y_true, y_pred, weights)?,
            r2: r2_score(y_true, y_pred, weights)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Case {
        y_true: Vec<f64>,
        y_pred: Vec<f64>,
        weights: Option<Vec<f64>>,
        mse: f64,
        mae: f64,
        r2: f64,
    }

    #[derive(Deserialize)]
    struct Fixtures {
        regression: Vec<Case>,
    }

    #[test]
    fn agrees_with_scikit_learn() {
        let fx: Fixtures =
            serde_json::from_str(include_str!("../../tests/fixtures/metrics.json")).unwrap();
        assert_eq!(fx.regression.len(), 3);
        for (i, c) in fx.regression.iter().enumerate() {
            let r = RegressionReport::new(&c.y_true, &c.y_pred, c.weights.as_deref()).unwrap();
            for (got, want, what) in [
                (r.mse, c.mse, "mse"),
                (r.mae, c.mae, "mae"),
                (r.r2, c.r2, "r2"),
            ] {
                assert!(
                    (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                    "case {i} {what}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn bad_input_is_named() {
        assert!(mean_squared_error(&[1.0], &[1.0, 2.0], None)
            .unwrap_err()
            .to_string()
            .contains("y_pred has 2"));
        assert!(r2_score(&[], &[], None).is_err());
        assert_eq!(r2_score(&[2.0, 2.0], &[2.0, 2.0], None).unwrap(), 1.0);
    }
}
