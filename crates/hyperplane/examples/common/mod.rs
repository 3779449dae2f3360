//! Helpers shared by the benchmark examples.

use hyperplane::data::Dataset;
use hyperplane::{Classifier, Result};

/// The fraction of rows of `test` that `model` labels correctly.
pub fn accuracy(model: &impl Classifier, test: &Dataset) -> Result<f64> {
    let predicted = model.predict(test.x())?;
    let labels = test.labels();
    let hits = predicted
        .iter()
        .zip(&labels)
        .filter(|(a, b)| a == b)
        .count();
    Ok(hits as f64 / labels.len() as f64)
}
