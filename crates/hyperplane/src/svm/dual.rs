//! What every kernel SVM shares: the kernel and solver parameters ([`Dual`]) and one
//! solve of a dual over some rows of the training matrix.

use super::cache::Entry;
use super::kernel::{Gamma, Kernel, KernelKind, KernelQ, KernelRows};
use super::smo::{self, Problem, Settings, Solution};
use crate::data::{Dataset, RowAccess};
use crate::error::{Error, Result};
#[cfg(doc)]
use crate::estimator::Kind;

crate::params! {
    /// The kernel and the SMO solver with its budget, shared by every kernel SVM kind.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Dual {
        pub kernel: KernelKind,
        pub gamma: Gamma,
        pub degree: usize,
        pub coef0: f64,
        pub tol: f64,
        pub shrinking: bool,
        pub cache_mb: f64,
        pub max_iter: Option<usize>,
    }
    schema "svm" {
        /// the kernel `K(u, v)`: `linear` `u.v`, `poly` `(gamma u.v + coef0)^degree`, `rbf` `exp(-gamma ||u - v||^2)`, `sigmoid` `tanh(gamma u.v + coef0)`; `precomputed`: the features are the kernel values, at fit the `n x n` matrix `K(x_i, x_j)` of the training rows, at prediction one column per training row
        kernel = "rbf", "`linear`, `poly`, `rbf`, `sigmoid`, `precomputed`" => kernel;
        /// `gamma` of poly, rbf and sigmoid: `scale` `1 / (n_features Var(X))` (scikit-learn's default), `auto` `1 / n_features` (LIBSVM's), or a number
        gamma = "scale", positive => gamma;
        /// `degree` of the poly kernel
        degree = "3", any => degree;
        /// `coef0` of the poly and sigmoid kernels
        coef0 = "0", finite => coef0;
        /// stop when the maximal violation of the optimality conditions `max_{I_up} -y_t G_t - min_{I_low} -y_t G_t` is below this (LIBSVM's `-e`)
        tol = "0.001", positive => tol;
        /// shrink the active set of variables (LIBSVM's `-h`)
        shrinking = "true", bool => shrinking;
        /// memory for cached kernel columns, in MiB (at least two columns are always kept)
        cache_mb = "200", positive => cache_mb;
        /// SMO steps at most per dual; `auto` is LIBSVM's `max(10^7, 100 l)` for `l` variables
        max_iter = "auto", at_least_1 => max_iter as Auto;
    }
}

impl Default for Dual {
    fn default() -> Self {
        Dual {
            kernel: KernelKind::Rbf,
            gamma: Gamma::Scale,
            degree: 3,
            coef0: 0.0,
            tol: 1e-3,
            shrinking: true,
            cache_mb: 200.0,
            max_iter: None,
        }
    }
}

impl Dual {
    /// Whether the solution depends on the order of the rows: the sigmoid kernel is not
    /// positive semi-definite, so its dual is not convex, and the solution SMO reaches
    /// depends on the order it meets the rows in.
    pub(super) fn depends_on_row_order(&self) -> bool {
        self.kernel == KernelKind::Sigmoid
    }

    /// What a fit keeps that grows with the width of the data ([`Kind::width_state`]):
    /// a kernel SVM keeps support vectors, not weights, so only a dense row of scratch.
    pub(super) fn width_state(n_features: usize) -> [usize; 3] {
        [n_features, 1, 1]
    }
}

/// The largest `degree` taken (`powi` takes an `i32`; far beyond any useful degree).
const MAX_DEGREE: usize = 1 << 16;

impl Dual {
    /// The kernel with `gamma` resolved on the training rows (weighted by their sample
    /// weights); a precomputed kernel's matrix must be square.
    pub fn kernel_on(&self, data: &Dataset) -> Result<Kernel> {
        if self.degree > MAX_DEGREE {
            return Err(Error::param(
                "degree",
                self.degree,
                format!("at most {MAX_DEGREE}"),
            ));
        }
        let (n, d) = (data.n_samples(), data.n_features());
        if self.kernel == KernelKind::Precomputed && n != d {
            return Err(Error::param(
                "kernel",
                "precomputed",
                format!(
                    "takes as features the n x n matrix K(x_i, x_j) of the n training rows: \
                     got {n} rows of {d} values"
                ),
            ));
        }
        let kernel = Kernel {
            kind: self.kernel,
            gamma: match self.kernel {
                KernelKind::Precomputed => 0.0,
                _ => self.gamma.resolve(data.x(), |i| data.weight(i)),
            },
            degree: self.degree as u32,
            coef0: self.coef0,
        };
        kernel.check()?;
        Ok(kernel)
    }

    /// Solves the dual `problem` over positions `index` (rows of the kernel matrix) with
    /// signs `sign` (`Q_st = sign_s sign_t K_st`), kernel columns cached as `T`;
    /// [`Error::Cancelled`] when the context stops it.
    pub(crate) fn solve<M: RowAccess, T: Entry>(
        &self,
        rows: &KernelRows<'_, M>,
        index: Vec<usize>,
        sign: Vec<f64>,
        problem: Problem,
        nu: bool,
    ) -> Result<Solution> {
        let l = index.len();
        let bytes = (self.cache_mb * (1u64 << 20) as f64) as usize;
        let mut q = KernelQ::<M, T>::new(rows, index, sign, bytes);
        let solution = smo::solve(
            &mut q,
            problem,
            Settings {
                tol: self.tol,
                shrinking: self.shrinking,
                max_iter: self.max_iter.unwrap_or_else(|| smo::default_max_iter(l)),
                nu,
            },
        );
        crate::context::checkpoint()?;
        Ok(solution)
    }
}

/// The rows of positive weight (rows of weight 0 cannot be support vectors and are left
/// out of the dual), or an error when there are none.
pub(crate) fn weighted_rows(data: &Dataset) -> Result<Vec<usize>> {
    let rows: Vec<usize> = (0..data.n_samples())
        .filter(|&i| data.weight(i) > 0.0)
        .collect();
    if rows.is_empty() {
        return Err(Error::data("every row has weight 0: nothing to fit"));
    }
    Ok(rows)
}
