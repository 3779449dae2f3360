//! The training curve of a model that keeps one (a neural network): its loss after each
//! step (an epoch, or an evaluation of the objective for L-BFGS) and, with early stopping,
//! its validation error `1 - score` (accuracy for classes, `R^2` for values).

use super::line::{LineChart, Series};
use crate::error::{Error, Result};
use crate::summary::LossCurve;

/// The chart of a loss curve and its validation errors (log scale when the loss falls
/// over more than two decades), as [`FittedModel::loss_curve`](crate::estimator::FittedModel::loss_curve) gives it.
pub fn loss_curve_chart(curve: &LossCurve) -> Result<LineChart> {
    if curve.loss_curve.is_empty() {
        return Err(Error::data("the model has no loss curve to draw"));
    }
    let along = |values: &[f64]| -> Vec<(f64, f64)> {
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| ((i + 1) as f64, v))
            .collect()
    };
    let mut series = vec![Series::line("training loss", along(&curve.loss_curve))];
    if !curve.validation_scores.is_empty() {
        let errors: Vec<f64> = curve.validation_scores.iter().map(|s| 1.0 - s).collect();
        series.push(Series::line(curve.validation, along(&errors)));
    }
    let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    Ok(LineChart {
        title: curve.title.clone(),
        x_label: curve.step.into(),
        y_label: "loss".into(),
        log_y: lo > 0.0 && hi > 100.0 * lo,
        series,
        ..LineChart::default()
    })
}
