//! Error under a cost matrix: mistakes of different kinds cost different amounts.
//!
//! The courses' example is fingerprint verification, with `+1` the authorised person and
//! `-1` an intruder. A *false accept* (an intruder let in) and a *false reject* (the
//! authorised person turned away) cost differently by application:
//!
//! | application | false accept | false reject |
//! |---|---|---|
//! | supermarket discount | 1 | 10 (an annoyed customer) |
//! | CIA building | 1000 (a security breach) | 1 |
//!
//! ```
//! use hyperplane::metrics::{cost_weighted_error, CostMatrix};
//! // Classes encoded in sorted order: 0 = -1 (intruder), 1 = +1 (authorised).
//! let cia = CostMatrix::false_accept_reject(1000.0, 1.0)?;
//! let err = cost_weighted_error(&[0, 1, 1, 0], &[1, 0, 1, 0], &cia)?;
//! assert_eq!(err, (1000.0 + 1.0) / 4.0);
//! # Ok::<(), hyperplane::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use super::{check_classes, check_lengths};
use crate::error::{Error, Result};

/// An `n x n` matrix of non-negative, finite costs, `cost(t, p)` the cost of predicting
/// class `p` for a row of class `t`. The diagonal (right predictions) is usually 0 but
/// may be anything non-negative.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostMatrix {
    n_classes: usize,
    /// Row-major, `costs[t * n_classes + p]`.
    costs: Vec<f64>,
}

impl CostMatrix {
    /// A cost matrix from its rows (`rows[t][p]`); it must be square, non-empty, finite
    /// and non-negative.
    pub fn new(rows: Vec<Vec<f64>>) -> Result<Self> {
        let n = rows.len();
        if n == 0 {
            return Err(Error::param(
                "cost matrix",
                "[]",
                "needs at least one class",
            ));
        }
        if let Some((t, row)) = rows.iter().enumerate().find(|(_, r)| r.len() != n) {
            return Err(Error::param(
                "cost matrix",
                format!("{rows:?}"),
                format!(
                    "must be square: {n} rows but row {} has {} entries",
                    t + 1,
                    row.len()
                ),
            ));
        }
        let costs: Vec<f64> = rows.into_iter().flatten().collect();
        if let Some(i) = costs.iter().position(|c| !c.is_finite() || *c < 0.0) {
            return Err(Error::param(
                &format!("cost[{}][{}]", i / n, i % n),
                costs[i],
                "costs must be finite and non-negative",
            ));
        }
        Ok(CostMatrix {
            n_classes: n,
            costs,
        })
    }

    /// The binary cost matrix of verification, classes in sorted label order
    /// `0 = -1` (reject / intruder) and `1 = +1` (accept / authorised):
    ///
    /// ```text
    ///               predicted -1    predicted +1
    /// true -1            0          false_accept
    /// true +1      false_reject          0
    /// ```
    ///
    /// Supermarket: `false_accept_reject(1.0, 10.0)`; CIA: `false_accept_reject(1000.0, 1.0)`.
    pub fn false_accept_reject(false_accept: f64, false_reject: f64) -> Result<Self> {
        for (name, v) in [
            ("false_accept", false_accept),
            ("false_reject", false_reject),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(Error::param(
                    name,
                    v,
                    "costs must be finite and non-negative",
                ));
            }
        }
        CostMatrix::new(vec![vec![0.0, false_accept], vec![false_reject, 0.0]])
    }

    /// Number of classes `n`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// Cost of predicting `predicted` for a row of class `true_class`; `None` when either
    /// is not below [`n_classes`](Self::n_classes).
    pub fn cost(&self, true_class: usize, predicted: usize) -> Option<f64> {
        (true_class < self.n_classes && predicted < self.n_classes)
            .then(|| self.at(true_class, predicted))
    }

    /// `cost[t][p]` for indices known to be in range.
    fn at(&self, t: usize, p: usize) -> f64 {
        self.costs[t * self.n_classes + p]
    }
}

/// Mean cost of the predictions, `(1 / n) sum_i cost[y_i][p_i]`: with 0 on the diagonal
/// and 1 elsewhere this is the 0/1 error.
pub fn cost_weighted_error(y_true: &[usize], y_pred: &[usize], costs: &CostMatrix) -> Result<f64> {
    check_lengths("y_true", y_true.len(), "y_pred", y_pred.len())?;
    check_classes("y_true", y_true, costs.n_classes)?;
    check_classes("y_pred", y_pred, costs.n_classes)?;
    let total: f64 = y_true
        .iter()
        .zip(y_pred)
        .map(|(&t, &p)| costs.at(t, p))
        .sum();
    Ok(total / y_true.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::zero_one_error;

    #[test]
    fn unit_costs_give_the_zero_one_error() {
        let unit = CostMatrix::new(vec![
            vec![0.0, 1.0, 1.0],
            vec![1.0, 0.0, 1.0],
            vec![1.0, 1.0, 0.0],
        ])
        .unwrap();
        let (t, p) = ([0, 1, 2, 2, 1], [0, 2, 2, 1, 1]);
        assert_eq!(
            cost_weighted_error(&t, &p, &unit).unwrap(),
            zero_one_error(&t, &p, None).unwrap()
        );
    }

    #[test]
    fn fingerprint_costs_depend_on_the_application() {
        // One false accept (intruder 0 predicted 1) and one false reject.
        let (t, p) = ([0, 1, 1, 0], [1, 0, 1, 0]);
        let market = CostMatrix::false_accept_reject(1.0, 10.0).unwrap();
        let cia = CostMatrix::false_accept_reject(1000.0, 1.0).unwrap();
        assert_eq!(cost_weighted_error(&t, &p, &market).unwrap(), 11.0 / 4.0);
        assert_eq!(cost_weighted_error(&t, &p, &cia).unwrap(), 1001.0 / 4.0);
        assert_eq!(cia.cost(0, 1), Some(1000.0));
        assert_eq!(cia.cost(1, 0), Some(1.0));
        assert_eq!(cia.cost(2, 0), None);
        // Two false rejects cost the supermarket more than two false accepts.
        let rejects = cost_weighted_error(&[1, 1], &[0, 0], &market).unwrap();
        let accepts = cost_weighted_error(&[0, 0], &[1, 1], &market).unwrap();
        assert!(rejects > accepts);
    }

    #[test]
    fn non_zero_diagonal_is_counted() {
        let c = CostMatrix::new(vec![vec![0.5, 2.0], vec![3.0, 0.0]]).unwrap();
        assert_eq!(cost_weighted_error(&[0, 0], &[0, 1], &c).unwrap(), 1.25);
    }

    #[test]
    fn bad_matrices_and_inputs_are_rejected() {
        let e = CostMatrix::new(vec![vec![0.0, 1.0], vec![1.0]]).unwrap_err();
        assert!(e.to_string().contains("row 2 has 1 entries"), "{e}");
        let e = CostMatrix::new(vec![]).unwrap_err();
        assert!(matches!(e, Error::InvalidParameter { .. }));
        let e = CostMatrix::new(vec![vec![0.0, -1.0], vec![1.0, 0.0]]).unwrap_err();
        assert!(e.to_string().contains("cost[0][1] = -1"), "{e}");
        let e = CostMatrix::false_accept_reject(f64::NAN, 1.0).unwrap_err();
        assert!(e.to_string().contains("false_accept"), "{e}");
        let c = CostMatrix::false_accept_reject(1.0, 1.0).unwrap();
        let e = cost_weighted_error(&[0, 1], &[0], &c).unwrap_err();
        assert!(
            e.to_string().contains("has 2 entries but y_pred has 1"),
            "{e}"
        );
        let e = cost_weighted_error(&[0, 2], &[0, 1], &c).unwrap_err();
        assert!(e.to_string().contains("class index 2 at row 2"), "{e}");
    }
}
