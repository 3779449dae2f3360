//! Functional and geometric margins of a binary linear classifier.
//!
//! For a label `y` in {-1, +1} (`classes[1]` is +1) and the score `s = w.x + b`:
//! the functional margin is `y (w.x + b)`, positive exactly when the point is classified
//! correctly; the geometric margin `y (w.x + b) / ||w||` is the signed distance from the point
//! to the hyperplane `w.x + b = 0`. The margin of a data set is the minimum over its points.

use serde::Serialize;

use crate::data::Features;
use crate::error::{Error, Result};

use super::LinearModel;

/// Per-point and minimum margins of a binary linear model on a data set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Margins {
    /// `y_n (w.x_n + b)` for every point.
    pub functional: Vec<f64>,
    /// `y_n (w.x_n + b) / ||w||` for every point (infinite when `w = 0`).
    pub geometric: Vec<f64>,
    /// The smallest functional margin (the data set's).
    pub min_functional: f64,
    /// The smallest geometric margin: positive exactly when every point is on its side.
    pub min_geometric: f64,
    /// `||w||`.
    pub weight_norm: f64,
}

/// The margins of `model` on `x` with class indices `targets` (index 1 is +1).
pub fn margins(model: &LinearModel, x: &Features, targets: &[usize]) -> Result<Margins> {
    if !model.is_binary() {
        return Err(Error::Unsupported {
            model: format!("linear model of {} classes", model.coef().nrows()),
            what: "margins (they are defined for a binary classifier; train one-vs-all and inspect each)".into(),
        });
    }
    if targets.len() != x.n_rows() {
        return Err(Error::data(format!(
            "margins need one label per row: {} labels for {} rows",
            targets.len(),
            x.n_rows()
        )));
    }
    let s = model.scores(x)?;
    let norm = model.weights(0).dot(&model.weights(0)).sqrt();
    let functional: Vec<f64> = targets
        .iter()
        .zip(s.column(0))
        .map(|(&t, &si)| if t == 1 { si } else { -si })
        .collect();
    let geometric: Vec<f64> = functional.iter().map(|f| f / norm).collect();
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    Ok(Margins {
        min_functional: min(&functional),
        min_geometric: min(&geometric),
        functional,
        geometric,
        weight_norm: norm,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Label;
    use crate::linear::Link;
    use crate::optim::Convergence;
    use ndarray::array;

    #[test]
    fn margins_are_signed_distances() {
        // w = (3, 4), b = -5: ||w|| = 5.
        let m = LinearModel::new(
            vec![Label::Int(-1), Label::Int(1)],
            array![[3.0, 4.0]],
            array![-5.0],
            Link::Sign,
            Convergence::default(),
        )
        .unwrap();
        let x: Features = array![[3.0, 4.0], [0.0, 0.0], [1.0, 1.0]].into();
        let r = margins(&m, &x, &[1, 0, 0]).unwrap();
        assert_eq!(r.functional, vec![20.0, 5.0, -2.0]);
        assert_eq!(r.geometric, vec![4.0, 1.0, -0.4]);
        assert_eq!(r.min_geometric, -0.4);
        assert_eq!(r.weight_norm, 5.0);
        assert!(margins(&m, &x, &[1]).is_err());
    }
}
