//! The fitted kernel SVM: support vectors stored once, their dual coefficients in LIBSVM's
//! layout, and one `rho` per pair of classes.
//!
//! ```text
//! f_ab(x) = sum_{s in SV_a} coef[b-1][s] K(x_s, x) + sum_{s in SV_b} coef[a][s] K(x_s, x) - rho_ab
//! ```
//!
//! for classes `a < b` (the support vectors grouped by class; `f_ab > 0` votes for `a`,
//! LIBSVM's convention); a regressor has one row of coefficients and
//! `f(x) = sum_s coef[s] K(x_s, x) - rho`. The kernel values of a test row are computed once
//! and shared by every pair.

use hyperplane_kernels::csr::Value;
use ndarray::{Array2, ArrayBase, ArrayView2, Data, Ix2};
use serde::{Deserialize, Serialize};

use rayon::prelude::*;

use super::kernel::KernelKind;
use super::kernel::{kernel_row, precomputed_row, Kernel};
use super::probability::{couple, pair_probability};
use crate::data::{CsrMatrix, Features, Label, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::{Body, Classifier, ExportFormat, FittedModel, Regressor};
use crate::optim::{dot, ConvergenceWarning};
use crate::summary::ModelSummary;
use crate::with_rows;

/// Rows per parallel task at prediction.
const PREDICT_BLOCK: usize = 64;

/// Which dual the model solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SvmType {
    /// C-SVC: `min 1/2 ||w||^2 + sum_i C_i xi_i`.
    CSvc,
    /// nu-SVC: `nu` bounds the fraction of margin errors and support vectors.
    NuSvc,
    /// epsilon-SVR: errors below `epsilon` cost nothing.
    EpsilonSvr,
    /// nu-SVR: `epsilon` chosen so that `nu` bounds the fraction outside the tube.
    NuSvr,
    /// One-class SVM: `nu` bounds the fraction of training rows outside the estimated
    /// support; `f(x) > 0` inside (class `1`), `< 0` outside (class `-1`).
    OneClass,
}

impl SvmType {
    /// The kind that fits this dual.
    pub fn kind(self) -> &'static str {
        match self {
            SvmType::CSvc => super::Svc::KIND,
            SvmType::NuSvc => super::NuSvc::KIND,
            SvmType::EpsilonSvr => super::Svr::KIND,
            SvmType::NuSvr => super::NuSvr::KIND,
            SvmType::OneClass => super::OneClassSvm::KIND,
        }
    }

    /// Whether the model has one dual whose value is its output (regressors, one-class)
    /// rather than one per pair of classes.
    pub fn single_dual(self) -> bool {
        !matches!(self, SvmType::CSvc | SvmType::NuSvc)
    }
}

/// Platt's sigmoids, one per pair `(a, b)` in the order of the duals (LIBSVM's `probA`
/// and `probB`): `P(a | f_ab) = 1 / (1 + exp(A f_ab + B))`, fitted on cross-validated
/// decision values (`probability=true`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Platt {
    pub prob_a: Vec<f64>,
    pub prob_b: Vec<f64>,
}

/// The support vectors, dense (row-major) or CSR as the training rows were.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SupportVectors {
    Dense {
        n_rows: usize,
        n_cols: usize,
        values: Vec<f64>,
    },
    Sparse(CsrMatrix),
}

impl SupportVectors {
    /// The rows `rows` of `x`, in the storage of `x`; under a precomputed kernel, rows of
    /// no columns (the model keeps only their indices).
    pub fn select(kernel: &Kernel, x: &Features, rows: &[usize]) -> Self {
        if kernel.is_precomputed() {
            return SupportVectors::Dense {
                n_rows: rows.len(),
                n_cols: 0,
                values: Vec::new(),
            };
        }
        match x {
            Features::Dense(a) => Self::dense(a, rows),
            Features::DenseF32(a) => Self::dense(a, rows),
            sparse => match sparse.select_rows(rows) {
                Features::Sparse(m) => SupportVectors::Sparse(m),
                other => SupportVectors::Sparse(other.to_sparse()),
            },
        }
    }

    /// The rows `rows` of a dense matrix, row-major, values as `f64`.
    fn dense<S: Data>(a: &ArrayBase<S, Ix2>, rows: &[usize]) -> Self
    where
        S::Elem: Value,
    {
        let mut values = Vec::with_capacity(rows.len() * a.ncols());
        for &i in rows {
            values.extend(a.row(i).iter().map(|v| v.get()));
        }
        SupportVectors::Dense {
            n_rows: rows.len(),
            n_cols: a.ncols(),
            values,
        }
    }

    /// The number of support vectors.
    pub fn len(&self) -> usize {
        match self {
            SupportVectors::Dense { n_rows, .. } => *n_rows,
            SupportVectors::Sparse(m) => m.indptr().len() - 1,
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where a model comes from: what its [`DualSummary`]s hold and what width of input it takes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provenance {
    /// Fitted here: every figure of the duals is the solver's, and predictions take
    /// rows of exactly `n_features` features.
    #[default]
    Fitted,
    /// Read from a LIBSVM model file (see [`libsvm_format`](super::libsvm_format)). The
    /// file records `rho`, the coefficients and the support vectors only: each dual's
    /// `objective` is NaN and its `n_bounded_support` and `iterations` 0 (not recorded),
    /// `support` holds the position of each support vector in the file's SV section, and
    /// `n_features` is the largest index among the support vectors. As `svm-predict`, it
    /// takes rows of any width: a missing index is 0, and the entries beyond the support
    /// vectors' width still count in the norm of the row (rbf). Probabilities couple the
    /// pairs in the file's label order, as `svm-predict -b 1` does (the coupling is
    /// iterative: another order stops at another point within its tolerance).
    LibsvmFile {
        /// The classes in the order of the file's `label` line (indices into `classes`).
        label_order: Vec<usize>,
    },
}

impl Provenance {
    /// Whether the model was fitted here.
    pub fn is_fitted(&self) -> bool {
        *self == Provenance::Fitted
    }
}

/// What the solve of one dual found (one pair of classes, or the regression).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DualSummary {
    /// The classes `(a, b)` of the pair (indices into the classes; `a` is the `+1` side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classes: Option<(usize, usize)>,
    /// The dual objective at the solution (LIBSVM's `obj`); NaN when not recorded (a
    /// model read from a LIBSVM model file).
    #[serde(with = "crate::persist::nonfinite::scalar")]
    pub objective: f64,
    /// The offset: `f(x) = sum coef K - rho`.
    pub rho: f64,
    /// Support vectors (`a_t > 0`).
    pub n_support: usize,
    /// Support vectors at the upper bound (`a_t = C_t`).
    pub n_bounded_support: usize,
    /// SMO steps.
    pub iterations: usize,
    /// Why the stopping rule was not met; `None` when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<ConvergenceWarning>,
}

/// A fitted kernel SVM (classifier or regressor).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SvmModel {
    pub svm_type: SvmType,
    pub kernel: Kernel,
    /// The classes, sorted (empty for a regressor).
    pub classes: Vec<Label>,
    pub n_features: usize,
    /// The training row of each support vector (scikit-learn's `support_`).
    pub support: Vec<usize>,
    pub support_vectors: SupportVectors,
    /// Support vectors per class, in class order (a regressor: one count).
    pub n_support: Vec<usize>,
    /// `(classes - 1) x n_sv` coefficients `y_t a_t` in LIBSVM's layout (a regressor: one
    /// row of `a_t - a*_t`).
    pub dual_coef: Vec<Vec<f64>>,
    /// One per pair `(0, 1), (0, 2), ..., (1, 2), ...` (a regressor or one-class: one).
    pub duals: Vec<DualSummary>,
    /// The pairs' sigmoids for probabilities, when fitted with `probability=true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<Platt>,
    /// Fitted here, or read from a LIBSVM model file.
    #[serde(default, skip_serializing_if = "Provenance::is_fitted")]
    pub provenance: Provenance,
}

impl SvmModel {
    /// Checks rows given to predict: finite, and `n_features` wide for a fitted model (a
    /// model read from a LIBSVM model file takes any width, as `svm-predict` does).
    fn check_input(&self, x: &Features) -> Result<()> {
        match self.provenance {
            Provenance::Fitted => x.check_predict_input(self.n_features),
            Provenance::LibsvmFile { .. } => x.check_finite("X at predict"),
        }
    }

    /// `out[i * width + p] = f_p(x_i)` for every row `i` of `x` and dual `p`, `width` the
    /// number of duals. Rows in parallel blocks; each row's kernel values against the
    /// support vectors are computed once, into a buffer of `n_sv` values per thread.
    fn fill_decisions<A: RowAccess, B: RowAccess>(&self, x: &A, sv: &B, out: &mut [f64]) {
        let width = self.duals.len();
        // the rows may be narrower or wider than the support vectors (LIBSVM model files)
        let (d, n_sv) = (x.n_cols().max(sv.n_cols()), self.support.len());
        let sv_norms = self.kernel.norms(sv);
        let starts = self.starts();
        out.par_chunks_mut((PREDICT_BLOCK * width).max(1))
            .enumerate()
            .for_each_init(
                || (vec![0.0; d], vec![0.0; n_sv]),
                |(dense, k), (block, chunk)| {
                    for (r, values) in chunk.chunks_mut(width).enumerate() {
                        let t = block * PREDICT_BLOCK + r;
                        if self.kernel.is_precomputed() {
                            precomputed_row(x, t, &self.support, dense, k);
                        } else {
                            kernel_row(&self.kernel, x, t, sv, &sv_norms, dense, k);
                        }
                        self.pair_values(k, &starts, values);
                    }
                },
            );
    }

    /// Every dual's value from one row's kernel values `k`.
    fn pair_values(&self, k: &[f64], starts: &[usize], out: &mut [f64]) {
        for (p, (d, o)) in self.duals.iter().zip(out).enumerate() {
            *o = match d.classes {
                None => dot(&self.dual_coef[p], k),
                Some((a, b)) => {
                    let (sa, sb) = (starts[a], starts[b]);
                    let ra = sa..sa + self.n_support[a];
                    let rb = sb..sb + self.n_support[b];
                    dot(&self.dual_coef[b - 1][ra.clone()], &k[ra])
                        + dot(&self.dual_coef[a][rb.clone()], &k[rb])
                }
            } - d.rho;
        }
    }

    /// The first support vector of each class.
    fn starts(&self) -> Vec<usize> {
        let mut starts = Vec::with_capacity(self.n_support.len());
        let mut s = 0;
        for &n in &self.n_support {
            starts.push(s);
            s += n;
        }
        starts
    }

    /// LIBSVM's decision values: one column per pair `(a, b)`, `a < b`, in the order
    /// `(0, 1), (0, 2), ..., (1, 2), ...`; positive votes for `a`. A regressor: its
    /// prediction.
    pub fn decision_values_ovo(&self, x: &Features) -> Result<Array2<f64>> {
        self.check_input(x)?;
        let width = self.duals.len();
        let mut out = vec![0.0; x.n_rows() * width];
        match &self.support_vectors {
            SupportVectors::Dense {
                n_rows,
                n_cols,
                values,
            } => {
                let sv = ArrayView2::from_shape((*n_rows, *n_cols), values)
                    .map_err(|e| Error::data(format!("support vectors: {e}")))?;
                with_rows!(x, |a| self.fill_decisions(a, &sv, &mut out))
            }
            SupportVectors::Sparse(sv) => with_rows!(x, |a| self.fill_decisions(a, sv, &mut out)),
        }
        Array2::from_shape_vec((x.n_rows(), width), out).map_err(|e| Error::data(e.to_string()))
    }

    /// One vote per pair (ties in a pair go to `b`, as in LIBSVM); the class with most
    /// votes, the first on ties.
    fn votes(&self, ovo: &Array2<f64>) -> Vec<usize> {
        let k = self.classes.len();
        ovo.rows()
            .into_iter()
            .map(|row| {
                let mut votes = vec![0usize; k];
                for (d, value) in self.duals.iter().zip(row) {
                    if let Some((a, b)) = d.classes {
                        votes[if *value > 0.0 { a } else { b }] += 1;
                    }
                }
                let best = votes.iter().copied().max().unwrap_or(0);
                votes.iter().position(|&v| v == best).unwrap_or(0)
            })
            .collect()
    }
}

impl SvmModel {
    /// Checks that the parts of a model read from a file agree (shapes, pairs, finite
    /// numbers), so predicting with it cannot index out of bounds; the error names the field.
    pub fn validate(&self) -> Result<()> {
        let bad = |field: &str, why: String| Err(Error::data(format!("SVM model: {field} {why}")));
        self.kernel.check()?;
        let n_sv = self.support.len();
        let (sv_rows, sv_cols) = match &self.support_vectors {
            SupportVectors::Dense {
                n_rows,
                n_cols,
                values,
            } => {
                if n_rows.checked_mul(*n_cols) != Some(values.len()) {
                    return bad(
                        "support_vectors",
                        format!("hold {} values, not {n_rows} x {n_cols}", values.len()),
                    );
                }
                (*n_rows, *n_cols)
            }
            SupportVectors::Sparse(m) => (m.indptr().len() - 1, m.n_cols()),
        };
        // a precomputed kernel reads the support vectors' columns of the input
        let width = if self.kernel.is_precomputed() {
            0
        } else {
            self.n_features
        };
        if sv_rows != n_sv || sv_cols != width {
            return bad(
                "support_vectors",
                format!("are {sv_rows} x {sv_cols}, not {n_sv} (support) x {width}"),
            );
        }
        if self.kernel.is_precomputed() && self.support.iter().any(|&s| s >= self.n_features) {
            return bad(
                "support",
                format!(
                    "must index the {} training rows (the columns of a precomputed kernel)",
                    self.n_features
                ),
            );
        }
        let k = self.classes.len();
        let expected_classes = match self.svm_type {
            SvmType::EpsilonSvr | SvmType::NuSvr => Some(Vec::new()),
            SvmType::OneClass => Some(one_class_labels().to_vec()),
            SvmType::CSvc | SvmType::NuSvc => None,
        };
        if let Some(expected) = expected_classes {
            if self.classes != expected {
                return bad(
                    "classes",
                    format!("of a {:?} model must be {expected:?}", self.svm_type),
                );
            }
        } else if k == 0 || self.classes.windows(2).any(|w| w[0] >= w[1]) {
            return bad(
                "classes",
                "must be non-empty, sorted and distinct".to_string(),
            );
        }
        let (lines, per_class, pairs): (usize, usize, Vec<Option<(usize, usize)>>) =
            if self.svm_type.single_dual() {
                (1, 1, vec![None])
            } else {
                let pairs = (0..k)
                    .flat_map(|a| (a + 1..k).map(move |b| Some((a, b))))
                    .collect();
                (k - 1, k, pairs)
            };
        if self.n_support.len() != per_class || self.n_support.iter().sum::<usize>() != n_sv {
            return bad(
                "n_support",
                format!(
                    "{:?} does not count {n_sv} support vectors in {per_class} group(s)",
                    self.n_support
                ),
            );
        }
        if self.dual_coef.len() != lines || self.dual_coef.iter().any(|c| c.len() != n_sv) {
            return bad(
                "dual_coef",
                format!("must be {lines} rows of {n_sv} coefficients"),
            );
        }
        if self.dual_coef.iter().flatten().any(|c| !c.is_finite()) {
            return bad("dual_coef", "must be finite".into());
        }
        let found: Vec<Option<(usize, usize)>> = self.duals.iter().map(|d| d.classes).collect();
        if found != pairs {
            return bad(
                "duals",
                format!("must be the pairs {pairs:?}, found {found:?}"),
            );
        }
        if self.duals.iter().any(|d| !d.rho.is_finite()) {
            return bad("duals", "rho must be finite".into());
        }
        if let Provenance::LibsvmFile { label_order } = &self.provenance {
            let mut seen = vec![false; k];
            let permutation = label_order.len() == if self.svm_type.single_dual() { 0 } else { k }
                && label_order
                    .iter()
                    .all(|&a| a < k && !std::mem::replace(&mut seen[a], true));
            if !permutation {
                return bad(
                    "provenance",
                    format!("label_order {label_order:?} is not an order of the {k} classes"),
                );
            }
        }
        if let Some(p) = &self.probability {
            if self.svm_type.single_dual() {
                return bad("probability", "is only for classifiers of pairs".into());
            }
            if p.prob_a.len() != pairs.len() || p.prob_b.len() != pairs.len() {
                return bad(
                    "probability",
                    format!("must hold {} values of A and of B", pairs.len()),
                );
            }
            if p.prob_a.iter().chain(&p.prob_b).any(|v| !v.is_finite()) {
                return bad("probability", "must be finite".into());
            }
        }
        Ok(())
    }
}

impl SvmModel {
    /// The class probabilities from the pairwise ones, coupled in the order of the
    /// classes, or in the label order of the LIBSVM model file the model was read from.
    fn couple_in_order(&self, r: &[Vec<f64>]) -> Vec<f64> {
        let order = match &self.provenance {
            Provenance::LibsvmFile { label_order } if label_order.len() == r.len() => label_order,
            _ => return couple(r),
        };
        let permuted: Vec<Vec<f64>> = order
            .iter()
            .map(|&a| order.iter().map(|&b| r[a][b]).collect())
            .collect();
        let mut p = vec![0.0; r.len()];
        for (&a, v) in order.iter().zip(couple(&permuted)) {
            p[a] = v;
        }
        p
    }
}

/// The classes of a one-class SVM: outside (`-1`) and inside (`1`) the support.
pub fn one_class_labels() -> [Label; 2] {
    [Label::from(-1), Label::from(1)]
}

impl Classifier for SvmModel {
    fn classes(&self) -> &[Label] {
        &self.classes
    }
    fn n_features(&self) -> usize {
        self.n_features
    }
    /// Two classes: `(-f, f)` with `f = -f_01` (positive for `classes[1]`, scikit-learn's
    /// sign). More: scikit-learn's `ovr` shape, `votes_k + c_k / (3 (|c_k| + 1))` with
    /// `c_k` the sum of the pair values towards `k`, so the largest is the class voted
    /// for (ties between vote counts broken by confidence).
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        let k = self.classes.len();
        if k == 1 {
            self.check_input(x)?;
            return Ok(Array2::zeros((x.n_rows(), 1)));
        }
        let ovo = self.decision_values_ovo(x)?;
        if k == 2 {
            // a pair's f_01 is positive for class 0; a one-class f for class 1 (inside)
            let sign = if self.svm_type == SvmType::OneClass {
                -1.0
            } else {
                1.0
            };
            return Ok(Array2::from_shape_fn((x.n_rows(), 2), |(i, c)| {
                let f = sign * ovo[[i, 0]];
                if c == 0 {
                    f
                } else {
                    -f
                }
            }));
        }
        let mut out = Array2::zeros((x.n_rows(), k));
        for (i, row) in ovo.rows().into_iter().enumerate() {
            let mut votes = vec![0.0; k];
            let mut confidence = vec![0.0; k];
            for (d, &value) in self.duals.iter().zip(row) {
                if let Some((a, b)) = d.classes {
                    votes[if value > 0.0 { a } else { b }] += 1.0;
                    confidence[a] += value;
                    confidence[b] -= value;
                }
            }
            for c in 0..k {
                out[[i, c]] = votes[c] + confidence[c] / (3.0 * (confidence[c].abs() + 1.0));
            }
        }
        Ok(out)
    }
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>> {
        if self.classes.len() == 1 {
            self.check_input(x)?;
            return Ok(Array2::zeros((x.n_rows(), 1)));
        }
        let Some(platt) = &self.probability else {
            let what = if self.svm_type == SvmType::OneClass {
                "probabilities (its scores are signed distances to the boundary; use \
                 decision_function)"
            } else {
                "probabilities unless fitted with probability=true (its scores are \
                 distances to the margin; use decision_function)"
            };
            return Err(Error::Unsupported {
                model: self.svm_type.kind().into(),
                what: what.into(),
            });
        };
        let ovo = self.decision_values_ovo(x)?;
        let k = self.classes.len();
        let mut out = Array2::zeros((x.n_rows(), k));
        let mut r = vec![vec![0.0; k]; k];
        for (row, mut o) in ovo.rows().into_iter().zip(out.rows_mut()) {
            for (p, (d, &f)) in self.duals.iter().zip(row).enumerate() {
                if let Some((a, b)) = d.classes {
                    r[a][b] = pair_probability(f, platt.prob_a[p], platt.prob_b[p]);
                    r[b][a] = 1.0 - r[a][b];
                }
            }
            for (o, p) in o.iter_mut().zip(self.couple_in_order(&r)) {
                *o = p.ln();
            }
        }
        Ok(out)
    }
    /// Two classes (or one-class): the sign of the one decision value, which is the larger
    /// score; more classes: the vote.
    fn predicts_largest_score(&self) -> bool {
        self.classes.len() <= 2
    }
    /// LIBSVM's vote over the pairs.
    fn predict_index(&self, x: &Features) -> Result<Vec<usize>> {
        if self.classes.len() == 1 {
            self.check_input(x)?;
            return Ok(vec![0; x.n_rows()]);
        }
        let ovo = self.decision_values_ovo(x)?;
        if self.svm_type == SvmType::OneClass {
            return Ok(ovo
                .column(0)
                .iter()
                .map(|&f| usize::from(f > 0.0))
                .collect());
        }
        Ok(self.votes(&ovo))
    }
}

impl Regressor for SvmModel {
    fn n_features(&self) -> usize {
        self.n_features
    }
    fn n_outputs(&self) -> usize {
        1
    }
    fn predict(&self, x: &Features) -> Result<Array2<f64>> {
        self.decision_values_ovo(x)
    }
}
impl Body for SvmModel {
    const TAG: &'static str = "Svm";
    fn validate(&self) -> Result<()> {
        SvmModel::validate(self)
    }
}

impl FittedModel for SvmModel {
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        (!self.classes.is_empty()).then_some(self as &dyn Classifier)
    }
    fn as_regressor(&self) -> Option<&dyn Regressor> {
        self.classes.is_empty().then_some(self as &dyn Regressor)
    }
    /// The kernel, the support vectors and each dual's report as lines; for `--json`, the
    /// duals ([`SvmSummary`]) and a classifier's support vectors per class.
    fn summary(&self, _feature_names: &dyn Fn() -> Vec<String>) -> ModelSummary {
        let mut figures = serde_json::Map::new();
        figures.insert("svm".into(), figure(SvmSummary::of(self)));
        if !self.classes.is_empty() {
            figures.insert("n_support".into(), figure(&self.n_support));
        }
        ModelSummary {
            details: self.details(),
            figures,
            ..ModelSummary::default()
        }
    }
    fn export(&self, format: ExportFormat) -> Option<Result<String>> {
        match format {
            ExportFormat::Libsvm => Some(self.to_libsvm()),
        }
    }
}

/// A figure of the summary as JSON (plain data: it always converts).
fn figure(value: impl Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

/// The duals of a kernel SVM, as `inspect --json` shows them.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SvmSummary {
    /// Two classes, or a regressor: its one dual.
    One(DualSummary),
    /// More classes: one dual per pair `(0, 1), (0, 2), ..., (1, 2), ...`.
    Pairs(Vec<DualSummary>),
}

impl SvmSummary {
    /// The duals of `m`.
    pub fn of(m: &SvmModel) -> Self {
        match m.duals.as_slice() {
            [one] => SvmSummary::One(one.clone()),
            pairs => SvmSummary::Pairs(pairs.to_vec()),
        }
    }
}

impl SvmModel {
    /// What `inspect` shows of the model, as `(what, value)` lines: the kernel, the
    /// support vectors, and each dual's objective, offset, support vectors and iterations.
    pub fn details(&self) -> Vec<(String, String)> {
        let k = &self.kernel;
        let kernel = match k.kind {
            KernelKind::Linear => "linear".to_string(),
            KernelKind::Poly => format!(
                "poly (gamma {}, coef0 {}, degree {})",
                k.gamma, k.coef0, k.degree
            ),
            KernelKind::Rbf => format!("rbf (gamma {})", k.gamma),
            KernelKind::Sigmoid => format!("sigmoid (gamma {}, coef0 {})", k.gamma, k.coef0),
            KernelKind::Precomputed => format!(
                "precomputed (features: the kernel values against the {} training rows)",
                self.n_features
            ),
        };
        let mut lines = vec![
            ("kernel".to_string(), kernel),
            (
                "support vectors".to_string(),
                if self.svm_type.single_dual() {
                    self.support.len().to_string()
                } else {
                    let per: Vec<String> = self.n_support.iter().map(|n| n.to_string()).collect();
                    format!("{} ({} per class)", self.support.len(), per.join(" / "))
                },
            ),
        ];
        let imported = !self.provenance.is_fitted();
        if imported {
            lines.push((
                "source".to_string(),
                "a LIBSVM model file: the objective, the support vectors at the bound and the \
                 iterations were not recorded in it"
                    .to_string(),
            ));
        }
        for d in &self.duals {
            let what = match d.classes {
                Some((a, b)) => format!("dual {} vs {}", self.classes[a], self.classes[b]),
                None => "dual".to_string(),
            };
            if imported {
                lines.push((
                    what,
                    format!("rho {:.6}, {} support vectors", d.rho, d.n_support),
                ));
                continue;
            }
            let mut text = format!(
                "objective {:.6}, rho {:.6}, {} support vectors ({} at the bound), {} iterations",
                d.objective, d.rho, d.n_support, d.n_bounded_support, d.iterations
            );
            if let Some(w) = &d.warning {
                text.push_str(&format!("; {w}"));
            }
            lines.push((what, text));
        }
        lines
    }
}
