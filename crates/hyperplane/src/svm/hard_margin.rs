//! The maximum-margin (hard-margin) classifier: of all separating hyperplanes, the one
//! farthest from the closest point,
//!
//! ```text
//! max_{w, b} gamma  s.t.  y_i (w.x_i + b) / ||w|| >= gamma
//!   <=>  min 1/2 ||w||^2  s.t.  y_i (w.x_i + b) >= 1          (gamma = 1 / ||w||)
//! dual   min 1/2 a^T Q a - e^T a  s.t.  y^T a = 0,  a >= 0,   w = sum_i y_i a_i x_i
//! ```
//!
//! solved by SMO with the kernel columns in double precision. The dual has no upper bound;
//! on separable data its solution is that of the soft margin for every `C` at least its
//! largest `a_i`, so the solver runs with `C = 10^3, 10^6, 10^9, 10^12` until no row
//! violates the margin and no `a_i` reaches `C`, each bound starting from the solution of
//! the one before (it is feasible there). If the rows are not linearly separable the dual
//! is unbounded: its `a` grows with `C` and SMO runs out of steps at every bound (`auto`:
//! `max(10^5, 100 n)` a bound, where a separable dual needs far fewer), and the fit is an
//! error naming the row with the largest violation at `C = 10^12`, never a soft model. The support vectors are the rows with `a_i > 0`;
//! they lie on the margin, `y_i (w.x_i + b) = 1`. Sample weights do not move the
//! hyperplane (every constraint must hold), except that a row of weight 0 is left out.
//!
//! The fitted model is a [`LinearModel`] (`w`, `b`), so margins, `inspect` and
//! `plot boundary` (with the margin lines through the support vectors) read it as any
//! linear classifier.

use ndarray::{Array1, Array2};

use super::dual::Dual;
use super::kernel::{Kernel, KernelKind, KernelRows};
use super::smo::Problem;
use crate::data::{Dataset, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::{Fit, Kind, KindInfo};
use crate::optim::Convergence;
use crate::param::Params;
use crate::score::{LinearModel, Link};
use crate::targets::signed_targets;
use crate::with_rows;

crate::params! {
    /// The maximum-margin classifier on linearly separable data (see the module doc).
    #[derive(Clone, Debug, PartialEq)]
    pub struct HardMargin {
        pub tol: f64,
        pub max_iter: Option<usize>,
        pub cache_mb: f64,
    }
    schema "hard-margin-svm" {
        /// stop when the maximal violation of the optimality conditions is below this
        tol = "0.000000001", positive => tol;
        /// SMO steps at most per bound on the dual; `auto` is `max(10^5, 100 n)`
        max_iter = "auto", at_least_1 => max_iter as Auto;
        /// memory for cached kernel columns (double precision), in MiB
        cache_mb = "200", positive => cache_mb;
    }
}

impl Default for HardMargin {
    fn default() -> Self {
        HardMargin {
            tol: 1e-9,
            max_iter: None,
            cache_mb: 200.0,
        }
    }
}

impl HardMargin {
    pub const KIND: &'static str = "hard-margin-svm";
}

/// The bounds tried on the dual, in turn.
const BOUNDS: [f64; 4] = [1e3, 1e6, 1e9, 1e12];

impl Fit for HardMargin {
    type Model = LinearModel;
    fn fit(&self, data: &Dataset) -> Result<LinearModel> {
        self.check_params()?;
        data.check_fit()?;
        let y = signed_targets(data, Self::KIND)?;
        let d = data.n_features();
        if data.classes().len() == 1 {
            // every row on the one side: w = 0, b = 1
            return LinearModel::new(
                data.classes().to_vec(),
                Array2::zeros((1, d)),
                Array1::ones(1),
                Link::Sign,
                Convergence::default(),
            );
        }
        let rows: Vec<usize> = (0..data.n_samples())
            .filter(|&i| data.weight(i) > 0.0)
            .collect();
        let n = rows.len();
        let dual = Dual {
            kernel: KernelKind::Linear,
            tol: self.tol,
            cache_mb: self.cache_mb,
            max_iter: Some(self.max_iter.unwrap_or(100_000.max(100 * n))),
            ..Dual::default()
        };
        let kernel = Kernel {
            kind: KernelKind::Linear,
            gamma: 1.0,
            degree: 1,
            coef0: 0.0,
        };
        let y: Vec<f64> = rows.iter().map(|&i| y[i]).collect();
        let mut alpha = vec![0.0; n];
        let mut iterations = 0;
        let mut worst = (0, f64::INFINITY);
        for c in BOUNDS {
            let problem = Problem {
                p: vec![-1.0; n],
                y: y.clone(),
                c: vec![c; n],
                alpha: std::mem::take(&mut alpha),
            };
            let (w, b, sol) = with_rows!(data.x(), |m| {
                let sol = dual.solve::<_, f64>(
                    &KernelRows::new(m, kernel),
                    rows.clone(),
                    y.clone(),
                    problem,
                    false,
                )?;
                // w = sum_i y_i a_i x_i, b = -rho
                let mut w = vec![0.0; d];
                for (t, &a) in sol.alpha.iter().enumerate() {
                    if a > 0.0 {
                        m.add_row_scaled(rows[t], y[t] * a, &mut w);
                    }
                }
                let b = -sol.rho;
                worst = (0..n)
                    .map(|t| (rows[t], y[t] * (m.dot_row(rows[t], &w) + b)))
                    .fold((0, f64::INFINITY), |a, v| if v.1 < a.1 { v } else { a });
                (w, b, sol)
            });
            iterations += sol.iterations;
            let bounded = sol.alpha.iter().any(|&a| a >= c);
            alpha.clone_from(&sol.alpha);
            if sol.converged && !bounded && worst.1 >= 1.0 - 1e3 * self.tol.max(1e-12) {
                let objective = 0.5 * w.iter().map(|v| v * v).sum::<f64>();
                return LinearModel::new(
                    data.classes().to_vec(),
                    Array2::from_shape_vec((1, d), w).map_err(|e| Error::data(e.to_string()))?,
                    Array1::from_elem(1, b),
                    Link::Sign,
                    Convergence {
                        iterations,
                        objective: Some(objective),
                        ..Convergence::default()
                    },
                );
            }
        }
        Err(Error::data(format!(
            "the rows are not linearly separable: no hyperplane puts every row on its side with a margin (row {} keeps y (w.x + b) = {:.6} < 1 at C = 1e12); train svc with a finite c for a soft margin",
            worst.0 + 1,
            worst.1
        )))
    }
}

/// Its `w` is a linear model's: the default per-feature state.
impl Kind for HardMargin {
    const INFO: &'static KindInfo = &KindInfo::binary(
        Self::KIND,
        super::GROUP,
        "the maximum-margin classifier: widest separating hyperplane, an error if none separates",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Label;
    use ndarray::array;

    fn fit(x: Array2<f64>, y: &[i64]) -> Result<LinearModel> {
        let labels: Vec<Label> = y.iter().map(|&v| Label::Int(v)).collect();
        HardMargin::default().fit(&Dataset::new(x.into(), &labels)?)
    }

    #[test]
    fn two_points_are_separated_by_their_perpendicular_bisector() {
        // (0, 0) and (2, 2): the margin is half their distance, sqrt 2
        let m = fit(array![[0.0, 0.0], [2.0, 2.0]], &[-1, 1]).unwrap();
        let w = m.weights(0);
        let gamma = 1.0 / w.dot(&w).sqrt();
        assert!((gamma - 2f64.sqrt()).abs() < 1e-9 * 2f64.sqrt(), "{gamma}");
        assert!(
            (w[0] - 0.5).abs() < 1e-9 && (w[1] - 0.5).abs() < 1e-9,
            "{w}"
        );
        assert!((m.intercept()[0] + 1.0).abs() < 1e-9);
    }

    #[test]
    fn the_closest_pair_of_the_two_sides_sets_the_margin() {
        // class -1 on x <= 0, class +1 on x >= 3 with (3, 0) and (0, 0) the closest pair;
        // other rows are farther and are not support vectors: gamma = 1.5, w = (2/3, 0)
        let x = array![
            [0.0, 0.0],
            [-1.0, 2.0],
            [-2.0, -1.0],
            [3.0, 0.0],
            [3.0, 5.0],
            [5.0, -3.0],
            [3.0, -4.0]
        ];
        let m = fit(x, &[-1, -1, -1, 1, 1, 1, 1]).unwrap();
        let w = m.weights(0);
        assert!((w[0] - 2.0 / 3.0).abs() < 1e-9 && w[1].abs() < 1e-9, "{w}");
        assert!((m.intercept()[0] + 1.0).abs() < 1e-9);
    }

    #[test]
    fn non_separable_rows_are_an_error_never_a_soft_model() {
        // XOR
        let e = fit(
            array![[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]],
            &[-1, -1, 1, 1],
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("not linearly separable") && e.contains("svc") && e.contains("row "),
            "{e}"
        );
    }
}
