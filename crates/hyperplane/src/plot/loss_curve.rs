//! The training curve of a neural network: its loss after each epoch (each evaluation of
//! the objective for L-BFGS) and, with early stopping, its validation error
//! `1 - score` (accuracy for classes, `R^2` for values).

use super::line::{LineChart, Series};
use crate::error::{Error, Result};
use crate::neural::{MlpModel, Optimizer};

/// The chart of `model`'s loss curve and validation errors (log scale when the loss
/// falls over more than two decades).
pub fn loss_curve_chart(model: &MlpModel) -> Result<LineChart> {
    if model.loss_curve.is_empty() {
        return Err(Error::data("the model has no loss curve to draw"));
    }
    let along = |values: &[f64]| -> Vec<(f64, f64)> {
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| ((i + 1) as f64, v))
            .collect()
    };
    let mut series = vec![Series::line("training loss", along(&model.loss_curve))];
    let regression = model.classes.is_empty();
    if !model.validation_scores.is_empty() {
        let errors: Vec<f64> = model.validation_scores.iter().map(|s| 1.0 - s).collect();
        let name = if regression {
            "validation 1 - R^2"
        } else {
            "validation error (1 - accuracy)"
        };
        series.push(Series::line(name, along(&errors)));
    }
    let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let x_label = match model.solver {
        Optimizer::Lbfgs => "evaluation of the objective",
        _ => "epoch",
    };
    Ok(LineChart {
        title: format!(
            "Training of a {} network by {}",
            model
                .network
                .layout
                .sizes
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("-"),
            model.solver
        ),
        x_label: x_label.into(),
        y_label: "loss".into(),
        log_y: lo > 0.0 && hi > 100.0 * lo,
        series,
        ..LineChart::default()
    })
}
