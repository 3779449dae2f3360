//! Least squares: linear regression `w = X^+ y` and ridge regression
//! `w = argmin ||y - X w||^2 + alpha ||w||^2`, for real-valued (multi-output) targets, and
//! linear regression used as a classifier and as an initialiser for PLA, pocket and
//! logistic regression.
//!
//! The normal equations `X^T X w = X^T y` are never formed or inverted: that squares the
//! condition number and fails when `X^T X` is singular. Instead:
//!
//! - **dense** `X`: one Householder QR of the augmented matrix `[X y] = Q [R z; 0 rho]`
//!   (TSQR, [`crate::linalg::tall_r`]: row blocks in cache, in parallel, `Q` never
//!   formed), so `z = Q^T y` comes for free, then a small `p x p` problem:
//!   - `svd` (default): `R = U S V^T` (one-sided Jacobi), `w = V f(S) U^T z` with `f(s) = 1/s` for
//!     `s > rcond s_max` and `0` otherwise (the minimum-norm solution, as LAPACK `gelsd`
//!     and `numpy.linalg.lstsq`), or the ridge shrinkage `f(s) = s / (s^2 + alpha)`;
//!   - `qr`: column-pivoted QR `R P = Q_2 R_2`, rank `r` = number of `|R_2[i,i]| >
//!     rcond |R_2[0,0]|`, and the minimum-norm solution through the complete orthogonal
//!     decomposition (`R_2[..r, ..]^T = Q_3 T`, `w = P Q_3 T^{-T} (Q_2^T z)[..r]`); ridge
//!     solves the augmented least squares `[R; sqrt(alpha) I] w ~ [z; 0]` by QR.
//!
//!   `rank` and the singular values of the (centred, weighted) design are reported.
//! - **sparse** `X`: [LSQR](crate::linalg::lsqr) (Paige and Saunders, 1982) from `w_0 = 0`, which converges to
//!   the minimum-norm least-squares solution; ridge is damped LSQR with `damp =
//!   sqrt(alpha)`. The centring `X - 1 xbar^T` is applied implicitly inside the products
//!   `A v` and `A^T u`, so the matrix is never densified. The iterations are reported.
//!
//! With an intercept, `X` and `y` are centred by their weighted means `xbar`, `ybar` and
//! `b = ybar - W xbar` (the intercept is not penalised). Sample weights `c_n` scale row `n`
//! by `sqrt(c_n)`, so integer weights equal repeated rows.

use hyperplane_kernels::csr::Value;
use ndarray::{Array1, Array2, ArrayView2};
use serde::{Deserialize, Serialize};

use crate::data::{Dataset, Features, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::{Body, Fit, FittedModel, Kind, KindInfo, Regressor};
use crate::linalg::{
    lsqr, min_norm_lstsq, scale, solve_upper, tall_r, LinearOperator, Matrix, RowQr, Svd,
};
use crate::optim::{Convergence, ConvergenceWarning};
use crate::score::{LinearModel, Link};
use crate::summary::{ModelSummary, RegressionSummary};
use crate::targets::signed_targets;
use crate::transform::check_weights;
use crate::weights::{row_weights, ClassWeight};
use crate::with_rows;

/// How the dense least-squares problem is solved after the QR of `[X y]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LstsqMethod {
    /// SVD of the triangular factor: minimum-norm, rank and singular values (as `gelsd`).
    #[default]
    Svd,
    /// Column-pivoted QR and the complete orthogonal decomposition (as `gelsy`).
    Qr,
}

impl std::str::FromStr for LstsqMethod {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.trim() {
            "svd" => Ok(LstsqMethod::Svd),
            "qr" => Ok(LstsqMethod::Qr),
            _ => Err("expected svd or qr".into()),
        }
    }
}

impl std::fmt::Display for LstsqMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LstsqMethod::Svd => "svd",
            LstsqMethod::Qr => "qr",
        })
    }
}

crate::param::choice_value!(LstsqMethod = ["svd", "qr"]);

crate::params_struct! {
    /// Ordinary least squares, `w = X^+ y` (kind `linear-regression`).
    #[derive(Serialize, Deserialize)]
    pub struct LinearRegression as "linear-regression" {
        /// fit `b` (centre `X` and `y` by their weighted means)
        pub fit_intercept: bool = "true", bool;
        /// dense solver after the QR: `svd` or `qr` (column-pivoted)
        pub method: LstsqMethod = "svd", "`svd`, `qr`";
        /// singular values below `rcond * s_max` count as zero; `auto` is `eps * max(n, p)` as `numpy.linalg.lstsq`
        pub rcond: Option<f64> = "auto", "`auto` or finite, `>= 0`" as Auto;
        /// LSQR stopping tolerance (sparse input)
        pub tol: f64 = "0.0000000001", positive;
        /// LSQR iteration budget (sparse input); `auto` is `2 p + 100`
        pub max_iter: Option<usize> = "auto", "`auto` or `>= 1`" as Auto;
    }
}

crate::params_struct! {
    /// Ridge regression, `w = argmin sum_n c_n (y_n - w.x_n - b)^2 + alpha ||w||^2`
    /// (kind `ridge`); the intercept `b` is not penalised.
    #[derive(Serialize, Deserialize)]
    pub struct Ridge as "ridge" {
        /// L2 penalty strength
        pub alpha: f64 = "1", non_negative;
        /// fit the unpenalised `b`
        pub fit_intercept: bool = "true", bool;
        /// dense solver: `svd` (shrinkage `s / (s^2 + alpha)`) or `qr` (augmented least squares)
        pub method: LstsqMethod = "svd", "`svd`, `qr`";
        /// damped-LSQR stopping tolerance (sparse input)
        pub tol: f64 = "0.0000000001", positive;
        /// damped-LSQR iteration budget (sparse input); `auto` is `2 p + 100`
        pub max_iter: Option<usize> = "auto", "`auto` or `>= 1`" as Auto;
    }
}

/// A fitted least-squares model: `y_hat = W x + b`, one row of `W` per output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinearRegressionModel {
    coef: Array2<f64>,
    intercept: Array1<f64>,
    rank: Option<usize>,
    singular_values: Option<Vec<f64>>,
    convergence: Option<Convergence>,
}

impl LinearRegressionModel {
    /// The weights `W`, shape `(n_outputs, n_features)`.
    pub fn coef(&self) -> &Array2<f64> {
        &self.coef
    }
    /// The intercepts `b`, one per output.
    pub fn intercept(&self) -> &Array1<f64> {
        &self.intercept
    }
    /// The numerical rank of the centred, weighted design (dense fits only).
    pub fn rank(&self) -> Option<usize> {
        self.rank
    }
    /// The singular values of the centred, weighted design, largest first (dense fits only).
    pub fn singular_values(&self) -> Option<&[f64]> {
        self.singular_values.as_deref()
    }
    /// LSQR's report for sparse fits: iterations of the slowest output and any warning.
    pub fn convergence(&self) -> Option<&Convergence> {
        self.convergence.as_ref()
    }
}

impl Regressor for LinearRegressionModel {
    fn n_features(&self) -> usize {
        self.coef.ncols()
    }
    fn n_outputs(&self) -> usize {
        self.coef.nrows()
    }
    fn predict(&self, x: &Features) -> Result<Array2<f64>> {
        x.check_predict_input(self.coef.ncols())?;
        let w: Vec<Vec<f64>> = self.coef.rows().into_iter().map(|r| r.to_vec()).collect();
        let mut out = Array2::zeros((x.n_rows(), w.len()));
        with_rows!(x, |m| {
            for (i, mut row) in out.rows_mut().into_iter().enumerate() {
                for (k, wk) in w.iter().enumerate() {
                    row[k] = m.dot_row(i, wk) + self.intercept[k];
                }
            }
        });
        Ok(out)
    }
}

impl Body for LinearRegressionModel {
    const TAG: &'static str = "Regression";
}

impl FittedModel for LinearRegressionModel {
    fn as_regressor(&self) -> Option<&dyn Regressor> {
        Some(self)
    }
    /// Its first output's weights, by feature name.
    fn summary(&self, feature_names: &dyn Fn() -> Vec<String>) -> ModelSummary {
        ModelSummary {
            regression: Some(RegressionSummary {
                intercept: self.intercept()[0],
                weights: feature_names()
                    .into_iter()
                    .zip(self.coef().row(0).iter().copied())
                    .collect(),
                rank: self.rank(),
                singular_values: self.singular_values().map(<[f64]>::to_vec),
            }),
            ..ModelSummary::default()
        }
    }
}

/// What both learners hand to the solver.
struct Problem {
    alpha: f64,
    fit_intercept: bool,
    method: LstsqMethod,
    rcond: Option<f64>,
    tol: f64,
    max_iter: Option<usize>,
}

impl LinearRegression {
    /// The default params.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fits `y` (`n x outputs`) on `x` with optional sample weights.
    pub fn fit_xy(
        &self,
        x: &Features,
        y: ArrayView2<f64>,
        weights: Option<&[f64]>,
    ) -> Result<LinearRegressionModel> {
        if let Some(r) = self.rcond {
            if !r.is_finite() || r < 0.0 {
                return Err(Error::param(
                    "rcond",
                    r.to_string(),
                    "must be finite and >= 0",
                ));
            }
        }
        self.problem().fit(x, y, weights)
    }

    fn fit_signed(
        &self,
        data: &Dataset,
        class_weight: &ClassWeight,
        model: &str,
    ) -> Result<LinearModel> {
        data.check_fit()?;
        let y = signed_targets(data, model)?;
        let c = row_weights(data, class_weight)?;
        let y = ArrayView2::from_shape((y.len(), 1), &y).map_err(|e| Error::data(e.to_string()))?;
        let fitted = self.fit_xy(data.x(), y, Some(&c))?;
        LinearModel::new(
            data.classes().to_vec(),
            fitted.coef,
            fitted.intercept,
            Link::Sign,
            fitted.convergence.unwrap_or_default(),
        )
    }

    fn problem(&self) -> Problem {
        Problem {
            alpha: 0.0,
            fit_intercept: self.fit_intercept,
            method: self.method,
            rcond: self.rcond,
            tol: self.tol,
            max_iter: self.max_iter,
        }
    }
}

crate::params! {
    /// Linear regression used as a binary classifier (kind `linear-regression-classifier`):
    ///
    /// ```text
    /// (w, b) = argmin sum_n c_n (y_n - w.x_n - b)^2,   y_n in {-1, +1},   g(x) = sign(w.x + b)
    /// c_n = sample_weight_n * class_weight_{y_n}
    /// ```
    ///
    /// (minimum norm when the minimiser is not unique). An integer class weight `k` is the same
    /// fit as `k` copies of every row of that class: the courses' cost-sensitive
    /// classification by copying examples.
    ///
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct LinearRegressionClassifier {
        pub regression: LinearRegression,
        pub class_weight: ClassWeight,
    }
    schema "linear-regression-classifier" {
        /// per-class weight multiplying the sample weights
        class_weight = "none", "`none`, `balanced`, `LABEL:W,...`" => class_weight;
        ..regression: LinearRegression;
    }
}

impl LinearRegressionClassifier {
    /// The kind name.
    pub const KIND: &'static str = "linear-regression-classifier";

    /// Sets the least-squares params.
    pub fn regression(mut self, regression: LinearRegression) -> Self {
        self.regression = regression;
        self
    }
    /// Sets the class weights.
    pub fn class_weight(mut self, class_weight: ClassWeight) -> Self {
        self.class_weight = class_weight;
        self
    }
}

impl Fit for LinearRegression {
    type Model = LinearRegressionModel;
    /// Fits the real-valued targets of a regression data set ([`Dataset::regression`]).
    fn fit(&self, data: &Dataset) -> Result<LinearRegressionModel> {
        let y = data.require_values()?;
        self.fit_xy(data.x(), y, data.weights())
    }
}

impl Kind for LinearRegression {
    const INFO: &'static KindInfo = &KindInfo::regressor(
        Self::KIND,
        super::REGRESSOR_GROUP,
        "least squares by QR and SVD (minimum norm, rank reported); LSQR on sparse input",
    );
}

impl Fit for Ridge {
    type Model = LinearRegressionModel;
    /// Fits the real-valued targets of a regression data set ([`Dataset::regression`]).
    fn fit(&self, data: &Dataset) -> Result<LinearRegressionModel> {
        let y = data.require_values()?;
        self.fit_xy(data.x(), y, data.weights())
    }
}

impl Kind for Ridge {
    const INFO: &'static KindInfo = &KindInfo::regressor(
        Self::KIND,
        super::REGRESSOR_GROUP,
        "least squares with an L2 penalty alpha ||w||^2",
    );
}

impl Fit for LinearRegressionClassifier {
    type Model = LinearModel;
    fn fit(&self, data: &Dataset) -> Result<LinearModel> {
        self.regression
            .fit_signed(data, &self.class_weight, Self::KIND)
    }
}

impl Kind for LinearRegressionClassifier {
    const INFO: &'static KindInfo = &KindInfo::binary(
        Self::KIND,
        super::CLASSIFIER_GROUP,
        "linear regression on -1/+1 targets, sign of the score",
    );
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        Some(&mut self.class_weight)
    }
}

/// The linear-regression weights `(w, b)` of a binary data set (targets in {-1, +1},
/// sample and class weights honoured): the course's starting point for PLA, pocket and
/// logistic regression.
pub fn linear_regression_init(
    data: &Dataset,
    class_weight: &ClassWeight,
) -> Result<(Vec<f64>, f64)> {
    let m = LinearRegression::default().fit_signed(data, class_weight, "linear-regression-init")?;
    Ok((m.coef().row(0).to_vec(), m.intercept()[0]))
}

impl Ridge {
    /// The default params.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fits `y` (`n x outputs`) on `x` with optional sample weights.
    pub fn fit_xy(
        &self,
        x: &Features,
        y: ArrayView2<f64>,
        weights: Option<&[f64]>,
    ) -> Result<LinearRegressionModel> {
        if !self.alpha.is_finite() || self.alpha < 0.0 {
            return Err(Error::param(
                "alpha",
                self.alpha.to_string(),
                "must be finite and >= 0",
            ));
        }
        Problem {
            alpha: self.alpha,
            fit_intercept: self.fit_intercept,
            method: self.method,
            rcond: None,
            tol: self.tol,
            max_iter: self.max_iter,
        }
        .fit(x, y, weights)
    }
}

impl Problem {
    fn fit(
        &self,
        x: &Features,
        y: ArrayView2<f64>,
        weights: Option<&[f64]>,
    ) -> Result<LinearRegressionModel> {
        if !(self.tol > 0.0 && self.tol.is_finite()) {
            return Err(Error::param(
                "tol",
                self.tol.to_string(),
                "must be finite and > 0",
            ));
        }
        if self.max_iter == Some(0) {
            return Err(Error::param("max_iter", "0", "must be >= 1 (or auto)"));
        }
        x.check_fit_input()?;
        let n = x.n_rows();
        if y.nrows() != n || y.ncols() == 0 {
            return Err(Error::data(format!(
                "y has shape {} x {}, but X has {n} rows (y needs one row per sample and at least one output)",
                y.nrows(),
                y.ncols()
            )));
        }
        if let Some(((row, output), v)) = y.indexed_iter().find(|(_, v)| !v.is_finite()) {
            return Err(Error::NonFinite {
                what: "y".into(),
                row,
                feature: output,
                value: *v,
            });
        }
        check_weights(weights, n)?;
        let (x_mean, y_mean) = if self.fit_intercept {
            (
                with_rows!(x, |m| weighted_column_means(m, weights)),
                weighted_mean_rows(y, weights),
            )
        } else {
            (vec![0.0; x.n_cols()], vec![0.0; y.ncols()])
        };
        let (coef, rank, singular_values, convergence) = match x {
            Features::Dense(a) => {
                let (coef, rank, s) = self.solve_dense(a.view(), y, weights, &x_mean, &y_mean);
                (coef, Some(rank), Some(s), None)
            }
            Features::DenseF32(a) => {
                let (coef, rank, s) = self.solve_dense(a.view(), y, weights, &x_mean, &y_mean);
                (coef, Some(rank), Some(s), None)
            }
            Features::Sparse(s) => {
                let (coef, c) = self.solve_sparse(s, y, weights, &x_mean, &y_mean);
                (coef, None, None, Some(c))
            }
            Features::SparseView(s) => {
                let (coef, c) = self.solve_sparse(s, y, weights, &x_mean, &y_mean);
                (coef, None, None, Some(c))
            }
        };
        crate::context::checkpoint()?; // LSQR stops early when cancelled
        let intercept = Array1::from_iter(
            y_mean
                .iter()
                .zip(coef.rows())
                .map(|(ym, w)| ym - w.iter().zip(&x_mean).map(|(a, b)| a * b).sum::<f64>()),
        );
        let singular = singular_values.iter().flatten();
        if coef
            .iter()
            .chain(&intercept)
            .chain(singular)
            .any(|w| !w.is_finite())
        {
            return Err(Error::data(
                "the least-squares weights are not finite: the features or targets are too \
                 large for f64 arithmetic (their squares overflow); divide them by a power of ten",
            ));
        }
        Ok(LinearRegressionModel {
            coef,
            intercept,
            rank,
            singular_values,
            convergence,
        })
    }

    /// QR of the centred, row-scaled `[X y]`, then the small problem on `[R z]` (`X`'s
    /// values read as `f64`, block by block: no copy of `X`).
    fn solve_dense<V: Value>(
        &self,
        x: ArrayView2<V>,
        y: ArrayView2<f64>,
        weights: Option<&[f64]>,
        x_mean: &[f64],
        y_mean: &[f64],
    ) -> (Array2<f64>, usize, Vec<f64>) {
        let (n, p, k) = (x.nrows(), x.ncols(), y.ncols());
        let full = tall_r(n, p + k, |start, block| {
            augmented_rows(x, y, weights, x_mean, y_mean, start, block)
        });
        // [X y]^T [X y] = R^T R, so ||X w - y|| is ||R_x w - z|| plus a constant, with R_x
        // the first p rows and columns of R and z the first p rows of its last k columns.
        // All p rows: with fewer rows than columns, a zero (or dependent) column leaves its
        // row of R zero and pushes the data of later columns below row n.
        let top = full.block(0..p, 0..p + k);
        let (tri, z) = (top.block(0..p, 0..p), top.block(0..p, p..p + k));
        let rcond = self.rcond.unwrap_or(f64::EPSILON * n.max(p) as f64);
        let svd = Svd::new(&tri);
        let cutoff = rcond * svd.s.first().copied().unwrap_or(0.0);
        let rank = svd.s.iter().filter(|&&v| v > cutoff).count();
        let w = match (self.method, self.alpha > 0.0) {
            (LstsqMethod::Svd, _) => {
                let f = |s: f64| {
                    if self.alpha > 0.0 {
                        s / (s * s + self.alpha)
                    } else if s > cutoff {
                        1.0 / s
                    } else {
                        0.0
                    }
                };
                // w = V f(S) U^T z
                let mut utz = svd.u.transpose().matmul(&z);
                for c in 0..k {
                    for (v, &s) in utz.col_mut(c).iter_mut().zip(&svd.s) {
                        *v *= f(s);
                    }
                }
                svd.v.matmul(&utz)
            }
            (LstsqMethod::Qr, false) => min_norm_lstsq(&tri, &z, rcond).0,
            (LstsqMethod::Qr, true) => ridge_augmented_qr(top, p, self.alpha),
        };
        let coef = Array2::from_shape_fn((k, p), |(c, j)| w[(j, c)]);
        let mut s = svd.s;
        s.truncate(n.min(p)); // rank <= min(n, p): the rest are zero, as LAPACK reports
        (coef, rank, s)
    }

    /// LSQR on each output column, with the centring and row scaling applied implicitly.
    fn solve_sparse(
        &self,
        x: &impl RowAccess,
        y: ArrayView2<f64>,
        weights: Option<&[f64]>,
        x_mean: &[f64],
        y_mean: &[f64],
    ) -> (Array2<f64>, Convergence) {
        let op = CenteredScaled {
            x,
            scale: weights.map(|w| w.iter().map(|c| c.sqrt()).collect()),
            mean: x_mean,
        };
        let max_iter = self.max_iter.unwrap_or(2 * x.n_cols() + 100);
        let mut coef = Array2::zeros((y.ncols(), x.n_cols()));
        let mut report = Convergence::default();
        for (c, col) in y.columns().into_iter().enumerate() {
            let b: Vec<f64> = col
                .iter()
                .enumerate()
                .map(|(i, v)| op.row_scale(i) * (v - y_mean[c]))
                .collect();
            let (w, iterations, converged) = lsqr(&op, &b, self.alpha.sqrt(), self.tol, max_iter);
            coef.row_mut(c).assign(&Array1::from(w));
            report.iterations = report.iterations.max(iterations);
            if !converged {
                report.warning = Some(ConvergenceWarning::MaxIterations { iterations });
            }
        }
        (coef, report)
    }
}

/// Rows `start .. start + block.rows()` of `[sqrt(c) (X - 1 xbar^T), sqrt(c) (y - 1 ybar^T)]`
/// into the column-major `block`.
fn augmented_rows<V: Value>(
    x: ArrayView2<V>,
    y: ArrayView2<f64>,
    weights: Option<&[f64]>,
    x_mean: &[f64],
    y_mean: &[f64],
    start: usize,
    block: &mut Matrix,
) {
    let p = x.ncols();
    for b in 0..block.rows() {
        let i = start + b;
        let s = weights.map_or(1.0, |w| w[i].sqrt());
        for (j, (v, m)) in x.row(i).iter().zip(x_mean).enumerate() {
            block[(b, j)] = s * (v.get() - m);
        }
        for (j, (v, m)) in y.row(i).iter().zip(y_mean).enumerate() {
            block[(b, p + j)] = s * (v - m);
        }
    }
}

/// Ridge by the augmented least squares `[R; sqrt(alpha) I] w ~ [z; 0]` (full rank for
/// `alpha > 0`): the triangular factor of `[[R, z], [sqrt(alpha) I, 0]]` (`top` is
/// `[R z]`, `p` the width of `R`), then back substitution.
fn ridge_augmented_qr(mut top: Matrix, p: usize, alpha: f64) -> Matrix {
    let c = top.cols();
    let mut acc = RowQr::new(c);
    acc.absorb(&mut top);
    let root = alpha.sqrt();
    acc.absorb(&mut Matrix::from_fn(
        p,
        c,
        |i, j| if i == j { root } else { 0.0 },
    ));
    let big = acc.into_r();
    let mut w = big.block(0..p, p..c);
    solve_upper(&big, &mut w);
    w
}

/// `A = diag(s) (X - 1 xbar^T)` applied without forming it.
struct CenteredScaled<'a, M> {
    x: &'a M,
    scale: Option<Vec<f64>>,
    mean: &'a [f64],
}

impl<M> CenteredScaled<'_, M> {
    fn row_scale(&self, i: usize) -> f64 {
        self.scale.as_ref().map_or(1.0, |s| s[i])
    }
}

impl<M: RowAccess> LinearOperator for CenteredScaled<'_, M> {
    fn n_cols(&self) -> usize {
        self.x.n_cols()
    }
    /// `out = A v`: `out_i = s_i (x_i.v - xbar.v)`.
    fn apply(&self, v: &[f64], out: &mut [f64]) {
        let shift: f64 = self.mean.iter().zip(v).map(|(a, b)| a * b).sum();
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.row_scale(i) * (self.x.dot_row(i, v) - shift);
        }
    }
    /// `out = A^T u = sum_i s_i u_i x_i - xbar sum_i s_i u_i`.
    fn apply_transpose(&self, u: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        let mut total = 0.0;
        for (i, &ui) in u.iter().enumerate() {
            let su = self.row_scale(i) * ui;
            total += su;
            self.x.add_row_scaled(i, su, out);
        }
        for (o, m) in out.iter_mut().zip(self.mean) {
            *o -= m * total;
        }
    }
}

/// Weighted column means of `x`: `xbar_j = sum_i c_i x_ij / sum_i c_i`.
fn weighted_column_means<M: RowAccess>(m: &M, weights: Option<&[f64]>) -> Vec<f64> {
    let mut sum = vec![0.0; m.n_cols()];
    let mut total = 0.0;
    for i in 0..m.n_rows() {
        let c = weights.map_or(1.0, |w| w[i]);
        m.add_row_scaled(i, c, &mut sum);
        total += c;
    }
    scale(&mut sum, 1.0 / total);
    sum
}

fn weighted_mean_rows(y: ArrayView2<f64>, weights: Option<&[f64]>) -> Vec<f64> {
    let mut sum = vec![0.0; y.ncols()];
    let mut total = 0.0;
    for (i, row) in y.rows().into_iter().enumerate() {
        let c = weights.map_or(1.0, |w| w[i]);
        sum.iter_mut().zip(row).for_each(|(s, v)| *s += c * v);
        total += c;
    }
    scale(&mut sum, 1.0 / total);
    sum
}
