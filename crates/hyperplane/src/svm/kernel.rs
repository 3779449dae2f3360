//! Kernels `K(u, v) = phi(u) . phi(v)`, computed from the inner product `u . v` and the
//! squared norms:
//!
//! ```text
//! linear    K(u, v) = u . v
//! poly      K(u, v) = (gamma u . v + coef0)^degree
//! rbf       K(u, v) = exp(-gamma ||u - v||^2),  ||u - v||^2 = ||u||^2 + ||v||^2 - 2 u . v
//! sigmoid   K(u, v) = tanh(gamma u . v + coef0)
//! precomputed  K(x_i, x_j) = X[i, j]
//! ```
//!
//! With `precomputed` the features are the kernel values themselves (scikit-learn's
//! convention): at fit, the `n x n` matrix of the training rows, `X[i, j] = K(x_i, x_j)`;
//! at prediction, `n_test x n` with column `j` the value against training row `j`. The
//! model keeps the indices of its support vectors, not their rows.
//!
//! A column of the kernel matrix, `K(x_a, x_b)` for many rows `b`, spreads row `a` into a
//! dense buffer once and takes each `x_b . x_a` over the stored entries of `x_b` only:
//! O(nnz) per column on sparse rows, the dense dot product on dense ones. Entries are
//! independent, so a long column is computed in parallel chunks with the same bits on
//! any thread count.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::cache::{ColumnCache, Entry};
use super::smo::QMatrix;
use crate::data::{Features, RowAccess};
use crate::error::{Error, Result};
use crate::with_rows;

crate::choice_enum! {
    /// The kernel function (see the module doc for the formulas).
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum KernelKind {
        Linear = "linear",
        Poly = "poly",
        #[default]
        Rbf = "rbf",
        Sigmoid = "sigmoid",
        Precomputed = "precomputed",
    }
}

/// The `gamma` of the poly, rbf and sigmoid kernels.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Gamma {
    /// `1 / (n_features Var(X))`, the variance over every entry of `X` (zeros included);
    /// 1 when `X` is constant (scikit-learn's default).
    #[default]
    Scale,
    /// `1 / n_features` (LIBSVM's default).
    Auto,
    /// A given value.
    Value(f64),
}

impl std::str::FromStr for Gamma {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.trim() {
            "scale" => Ok(Gamma::Scale),
            "auto" => Ok(Gamma::Auto),
            v => v
                .parse::<f64>()
                .map(Gamma::Value)
                .map_err(|_| format!("`{v}` is not scale, auto or a number")),
        }
    }
}

impl std::fmt::Display for Gamma {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Gamma::Scale => f.write_str("scale"),
            Gamma::Auto => f.write_str("auto"),
            Gamma::Value(v) => write!(f, "{v}"),
        }
    }
}

impl crate::param::ParamValue for Gamma {
    const KIND: &'static str = "scale, auto or a number";
    fn forms() -> Vec<crate::param::Form> {
        use crate::param::Form;
        vec![
            Form::Choice {
                words: vec!["scale", "auto"],
            },
            Form::Float,
        ]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        crate::param::parse_param(name, text)
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
    fn numbers(&self) -> Vec<f64> {
        match self {
            Gamma::Value(v) => vec![*v],
            _ => Vec::new(),
        }
    }
}

impl Gamma {
    /// The value on training features `x` whose rows weigh `weight(i)` (the sample
    /// weights: a row of weight 2 counts as two rows, so integer weights still equal
    /// repeated rows; scikit-learn's `scale` ignores the weights).
    pub fn resolve(self, x: &Features, weight: impl Fn(usize) -> f64) -> f64 {
        let d = x.n_cols() as f64;
        match self {
            Gamma::Value(g) => g,
            Gamma::Auto => 1.0 / d,
            Gamma::Scale => {
                // Var(X) over all n d entries, zeros included: E[x^2] - E[x]^2.
                let (mut sum, mut sum_sq, mut rows) = (0.0, 0.0, 0.0);
                with_rows!(x, |m| {
                    for i in 0..m.n_rows() {
                        let w = weight(i);
                        rows += w;
                        m.for_each_in_row(i, |_, v| {
                            sum += w * v;
                            sum_sq += w * v * v;
                        });
                    }
                });
                let count = rows * d;
                let mean = sum / count;
                let var = sum_sq / count - mean * mean;
                if var > 0.0 {
                    1.0 / (d * var)
                } else {
                    1.0
                }
            }
        }
    }
}

/// A kernel with its parameters resolved (what a fitted model keeps).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kernel {
    pub kind: KernelKind,
    /// `gamma` of poly, rbf and sigmoid.
    pub gamma: f64,
    /// `degree` of poly.
    pub degree: u32,
    /// `coef0` of poly and sigmoid.
    pub coef0: f64,
}

impl Kernel {
    /// Checks the parameters: finite, `gamma > 0` where it is used.
    pub fn check(&self) -> Result<()> {
        if !self.gamma.is_finite() || (self.uses_gamma() && self.gamma <= 0.0) {
            return Err(Error::param("gamma", self.gamma, "must be finite and > 0"));
        }
        if !self.coef0.is_finite() {
            return Err(Error::param("coef0", self.coef0, "must be finite"));
        }
        Ok(())
    }

    /// Whether `K` has a `gamma`.
    pub fn uses_gamma(&self) -> bool {
        matches!(
            self.kind,
            KernelKind::Poly | KernelKind::Rbf | KernelKind::Sigmoid
        )
    }

    /// Whether the features are the kernel values (`precomputed`).
    pub fn is_precomputed(&self) -> bool {
        self.kind == KernelKind::Precomputed
    }

    /// Whether `K` needs the squared norms of the rows.
    pub fn needs_norms(&self) -> bool {
        self.kind == KernelKind::Rbf
    }

    /// `K(u, v)` from `u . v` and (rbf) `||u||^2`, `||v||^2` (precomputed: `dot` is the
    /// kernel value).
    #[inline]
    pub fn from_dot(&self, dot: f64, norm_u: f64, norm_v: f64) -> f64 {
        match self.kind {
            KernelKind::Linear | KernelKind::Precomputed => dot,
            KernelKind::Poly => (self.gamma * dot + self.coef0).powi(self.degree as i32),
            KernelKind::Rbf => (-self.gamma * (norm_u + norm_v - 2.0 * dot).max(0.0)).exp(),
            KernelKind::Sigmoid => (self.gamma * dot + self.coef0).tanh(),
        }
    }

    /// The squared norm of every row of `m` when the kernel needs them (else empty).
    pub fn norms<M: RowAccess>(&self, m: &M) -> Vec<f64> {
        if self.needs_norms() {
            (0..m.n_rows()).map(|i| m.row_norm_sq(i)).collect()
        } else {
            Vec::new()
        }
    }
}

/// Rows of one matrix under a kernel: `K(x_a, x_b)` for rows `a`, `b` of `m`.
pub(crate) struct KernelRows<'m, M> {
    pub m: &'m M,
    pub kernel: Kernel,
    norms: Vec<f64>,
}

/// Entries of a column below which it is computed on one thread.
const PARALLEL_MIN: usize = 2048;

impl<'m, M: RowAccess> KernelRows<'m, M> {
    pub fn new(m: &'m M, kernel: Kernel) -> Self {
        KernelRows {
            norms: kernel.norms(m),
            m,
            kernel,
        }
    }

    /// The width of the rows.
    pub fn n_cols(&self) -> usize {
        self.m.n_cols()
    }

    fn norm(&self, i: usize) -> f64 {
        self.norms.get(i).copied().unwrap_or(0.0)
    }

    /// `K(x_i, x_i)`.
    pub fn diagonal(&self, i: usize) -> f64 {
        if self.kernel.is_precomputed() {
            let mut k = 0.0;
            self.m.for_each_in_row(i, |j, v| {
                if j == i {
                    k = v
                }
            });
            return k;
        }
        let n = self.m.row_norm_sq(i);
        self.kernel.from_dot(n, n, n)
    }

    /// `out[k] = f(k, K(x_a, x_{rows[k]}))`, with `dense` a zeroed scratch buffer of
    /// `n_cols` values (left zeroed).
    pub fn column<T: Entry>(
        &self,
        a: usize,
        rows: &[usize],
        dense: &mut [f64],
        out: &mut [T],
        f: impl Fn(usize, f64) -> T + Sync,
    ) {
        self.m.for_each_in_row(a, |j, v| dense[j] = v);
        let na = self.norm(a);
        let x: &[f64] = dense;
        let precomputed = self.kernel.is_precomputed();
        let fill = |start: usize, out: &mut [T]| {
            for (k, o) in out.iter_mut().enumerate() {
                let b = rows[start + k];
                let dot = if precomputed {
                    x[b]
                } else {
                    self.m.dot_row(b, x)
                };
                *o = f(start + k, self.kernel.from_dot(dot, na, self.norm(b)));
            }
        };
        if out.len() < PARALLEL_MIN {
            fill(0, out);
        } else {
            out.par_chunks_mut(PARALLEL_MIN / 2)
                .enumerate()
                .for_each(|(c, chunk)| fill(c * (PARALLEL_MIN / 2), chunk));
        }
        self.m.for_each_in_row(a, |j, _| dense[j] = 0.0);
    }
}

/// `out[s] = K(x_t, sv_s)` for every row `s` of `sv`, with `sv_norms` the squared norms of
/// `sv`'s rows ([`Kernel::norms`]) and `dense` a zeroed scratch buffer of `n_cols` values
/// (left zeroed).
pub(crate) fn kernel_row<A: RowAccess, B: RowAccess>(
    kernel: &Kernel,
    x: &A,
    t: usize,
    sv: &B,
    sv_norms: &[f64],
    dense: &mut [f64],
    out: &mut [f64],
) {
    x.for_each_in_row(t, |j, v| dense[j] = v);
    let nt = if kernel.needs_norms() {
        x.row_norm_sq(t)
    } else {
        0.0
    };
    for (s, o) in out.iter_mut().enumerate() {
        let ns = sv_norms.get(s).copied().unwrap_or(0.0);
        *o = kernel.from_dot(sv.dot_row(s, dense), nt, ns);
    }
    x.for_each_in_row(t, |j, _| dense[j] = 0.0);
}

/// `out[s] = X[t, support[s]]`: a precomputed kernel's values of row `t` against the
/// support vectors, training rows `support`; `dense` as in [`kernel_row`]. A column beyond
/// a narrower row is 0 (a model read from a LIBSVM file takes rows of any width).
pub(crate) fn precomputed_row<A: RowAccess>(
    x: &A,
    t: usize,
    support: &[usize],
    dense: &mut [f64],
    out: &mut [f64],
) {
    x.for_each_in_row(t, |j, v| dense[j] = v);
    for (o, &j) in out.iter_mut().zip(support) {
        *o = dense.get(j).copied().unwrap_or(0.0);
    }
    x.for_each_in_row(t, |j, _| dense[j] = 0.0);
}

/// The `Q` of a kernel dual, `Q_st = sign_s sign_t K(x_{row_s}, x_{row_t})`, by columns
/// through the [`ColumnCache`]: C-SVC (`sign = y`), one-class (`sign = 1`) and SVR (each
/// row twice, signs `+1` and `-1`).
pub(crate) struct KernelQ<'r, M, T> {
    rows: &'r KernelRows<'r, M>,
    /// The data row and the sign of each position.
    index: Vec<usize>,
    sign: Vec<f64>,
    diag: Vec<f64>,
    cache: ColumnCache<T>,
    dense: Vec<f64>,
}

impl<'r, M: RowAccess, T: Entry> KernelQ<'r, M, T> {
    /// `Q` over positions `(row, sign)`, caching within `cache_bytes`.
    pub fn new(
        rows: &'r KernelRows<'r, M>,
        index: Vec<usize>,
        sign: Vec<f64>,
        cache_bytes: usize,
    ) -> Self {
        let diag = index.iter().map(|&r| rows.diagonal(r)).collect();
        KernelQ {
            cache: ColumnCache::new(index.len(), cache_bytes),
            dense: vec![0.0; rows.m.n_cols()],
            rows,
            index,
            sign,
            diag,
        }
    }

    fn fill(&mut self, i: usize, len: usize) {
        let KernelQ {
            rows,
            index,
            sign,
            cache,
            dense,
            ..
        } = self;
        let si = sign[i];
        cache.get(i, len, |start, out| {
            let sign = &sign[start..len];
            rows.column(index[i], &index[start..len], dense, out, |k, v| {
                T::from_f64(si * sign[k] * v)
            })
        });
    }
}

impl<M: RowAccess, T: Entry> QMatrix for KernelQ<'_, M, T> {
    type Entry = T;
    fn size(&self) -> usize {
        self.index.len()
    }
    fn diagonal(&self) -> Vec<f64> {
        self.diag.clone()
    }
    fn column(&mut self, i: usize, len: usize) -> &[T] {
        self.fill(i, len);
        self.cache.peek(i, len)
    }
    fn columns(&mut self, i: usize, j: usize, len: usize) -> (&[T], &[T]) {
        self.fill(i, len);
        self.fill(j, len);
        (self.cache.peek(i, len), self.cache.peek(j, len))
    }
    fn swap(&mut self, i: usize, j: usize) {
        self.index.swap(i, j);
        self.sign.swap(i, j);
        self.diag.swap(i, j);
        self.cache.swap(i, j);
    }
}
