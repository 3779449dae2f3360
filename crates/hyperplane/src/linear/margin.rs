//! Functional and geometric margins of a binary linear classifier.
//!
//! For a label `y` in {-1, +1} (`classes[1]` is +1) and the score `s = w.x + b`:
//! the functional margin is `y (w.x + b)`, positive exactly when the point is classified
//! correctly; the geometric margin `y (w.x + b) / ||w||` is the signed distance from the point
//! to the hyperplane `w.x + b = 0`. The margin of a data set is the minimum over its points.
//!
//! [`pla_check`] puts a trained perceptron beside Novikoff's bound `T <= R^2 / rho^2`,
//! with the model's own `(w, b)` as the separator `w_f` (see [`pla_update_bound`]).

use serde::Serialize;

use crate::data::Features;
use crate::error::{Error, Result};

use super::{pla_update_bound, PlaBound};
use crate::score::LinearModel;

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

/// A trained perceptron beside the course's PLA guarantee on a data set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlaCheck {
    /// Updates PLA made in training (`None` when the model does not record them).
    pub updates: Option<usize>,
    /// Whether training ended with every training row on its side.
    pub converged: bool,
    /// Whether training started from `w = 0`, as the bound assumes.
    pub from_zero: bool,
    /// Rows of the data with `y (w.x + b) <= 0`.
    pub misclassified: usize,
    /// `R`, `rho` and `R^2 / rho^2` with `w_f = (b, w)`, the model's own weights; `None`
    /// when they do not separate the data (`misclassified > 0`), so there is no bound.
    pub bound: Option<PlaBound>,
}

/// Checks a trained binary perceptron on `x` with class indices `targets` (index 1 is +1):
/// when its own `(w, b)` separates the data, Novikoff's bound with them as `w_f`,
///
/// ```text
/// T <= R^2 / rho^2,   R = max_n ||(x_0, x_n)||,   rho = min_n y_n (w.x_n + b) / ||(b, w)||
/// ```
///
/// (`x_0 = 1` with an intercept, absent without, as [`pla_update_bound`] folds it), beside
/// the updates the model made. `from_zero` says whether training started from `w = 0`; the
/// bound is for that start and for unit row weights.
pub fn pla_check(
    model: &LinearModel,
    x: &Features,
    targets: &[usize],
    fit_intercept: bool,
    from_zero: bool,
) -> Result<PlaCheck> {
    let m = margins(model, x, targets)?;
    let misclassified = m
        .functional
        .iter()
        .filter(|&&f| f <= 0.0 || f.is_nan())
        .count();
    let bound = if misclassified == 0 {
        let y: Vec<f64> = targets
            .iter()
            .map(|&t| if t == 1 { 1.0 } else { -1.0 })
            .collect();
        let w = model.weights(0).to_vec();
        Some(pla_update_bound(
            x,
            &y,
            &w,
            model.intercept()[0],
            fit_intercept,
        )?)
    } else {
        None
    };
    let c = model.convergence();
    Ok(PlaCheck {
        updates: c.updates,
        converged: c.converged(),
        from_zero,
        misclassified,
        bound,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Label;
    use crate::optim::Convergence;
    use crate::score::Link;
    use ndarray::array;

    /// `w = (3, 4)`, `b = -5` over the classes -1, +1.
    fn model(convergence: Convergence) -> LinearModel {
        LinearModel::new(
            vec![Label::Int(-1), Label::Int(1)],
            array![[3.0, 4.0]],
            array![-5.0],
            Link::Sign,
            convergence,
        )
        .unwrap()
    }

    #[test]
    fn margins_are_signed_distances() {
        // ||w|| = 5.
        let m = model(Convergence::default());
        let x: Features = array![[3.0, 4.0], [0.0, 0.0], [1.0, 1.0]].into();
        let r = margins(&m, &x, &[1, 0, 0]).unwrap();
        assert_eq!(r.functional, vec![20.0, 5.0, -2.0]);
        assert_eq!(r.geometric, vec![4.0, 1.0, -0.4]);
        assert_eq!(r.min_geometric, -0.4);
        assert_eq!(r.weight_norm, 5.0);
        assert!(margins(&m, &x, &[1]).is_err());
    }

    #[test]
    fn pla_check_bounds_a_separator_and_refuses_a_non_separator() {
        // rows (3, 4) [+1] and (0, 0) [-1]: margins 20 and 5; ||(b, w)|| = sqrt(50),
        // R^2 = 1 + 25 = 26, rho = 5 / sqrt(50)
        let m = model(Convergence {
            updates: Some(7),
            ..Convergence::default()
        });
        let x: Features = array![[3.0, 4.0], [0.0, 0.0]].into();
        let c = pla_check(&m, &x, &[1, 0], true, true).unwrap();
        let b = c.bound.unwrap();
        assert_eq!(
            (c.updates, c.misclassified, c.converged),
            (Some(7), 0, true)
        );
        assert!((b.r * b.r - 26.0).abs() < 1e-12 && (b.bound - 26.0 * 2.0).abs() < 1e-9);
        let c = pla_check(&m, &x, &[0, 0], true, false).unwrap();
        assert_eq!((c.misclassified, c.bound, c.from_zero), (1, None, false));
    }
}
