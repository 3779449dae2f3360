//! The one-class SVM (Schoelkopf et al. 2001; LIBSVM's `-s 2`): a boundary around where
//! the training rows lie, for novelty and outlier detection.
//!
//! ```text
//! primal  min 1/2 ||w||^2 + 1/(nu W) sum_i c_i xi_i - rho   s.t.  w.phi(x_i) >= rho - xi_i,  xi_i >= 0
//! dual    min 1/2 a^T K a                                 s.t.  e^T a = nu W,  0 <= a_i <= c_i
//! ```
//!
//! (LIBSVM's scaling: `W = sum_i c_i`, `c_i` the sample weights, 1 for every row in
//! LIBSVM). `f(x) = sum_i a_i K(x_i, x) - rho` is positive inside (class `1`) and negative
//! outside (class `-1`); `nu` is an upper bound on the fraction of training rows outside
//! and a lower bound on the fraction of support vectors. The rows' labels are not used.

use super::dual::{weighted_rows, Dual};
use super::kernel::KernelRows;
use super::model::{one_class_labels, DualSummary, Provenance, SupportVectors, SvmModel, SvmType};
use super::smo::{fill_to, Problem};
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::estimator::{Fit, Kind, KindInfo};
use crate::param::Params;
use crate::with_rows;

crate::params! {
    /// The one-class SVM (scikit-learn's `OneClassSVM`, LIBSVM's `-s 2`).
    #[derive(Clone, Debug, PartialEq)]
    pub struct OneClassSvm {
        pub nu: f64,
        pub dual: Dual,
    }
    schema "one-class-svm" {
        /// `nu` in (0, 1]: an upper bound on the fraction of training rows outside the boundary, a lower bound on the fraction of support vectors
        nu = "0.5", fraction => nu;
        ..dual: Dual;
    }
}

impl Default for OneClassSvm {
    fn default() -> Self {
        OneClassSvm {
            nu: 0.5,
            dual: Dual::default(),
        }
    }
}

impl OneClassSvm {
    pub const KIND: &'static str = "one-class-svm";
}

impl Fit for OneClassSvm {
    type Model = SvmModel;
    fn fit(&self, data: &Dataset) -> Result<SvmModel> {
        self.check_params()?;
        let x = data.x();
        x.check_fit_input()?;
        if data.n_samples() == 0 {
            return Err(Error::data("no rows to fit"));
        }
        let kernel = self.dual.kernel_on(data)?;
        let rows = weighted_rows(data)?;
        let l = rows.len();
        let upper: Vec<f64> = rows.iter().map(|&i| data.weight(i)).collect();
        // a feasible start, as LIBSVM's: the first rows at their bound until e^T a = nu W
        let alpha = fill_to(self.nu * upper.iter().sum::<f64>(), &upper);
        let problem = Problem {
            p: vec![0.0; l],
            y: vec![1.0; l],
            c: upper.clone(),
            alpha,
        };
        let sol = with_rows!(x, |m| self.dual.solve::<_, f32>(
            &KernelRows::new(m, kernel),
            rows.clone(),
            vec![1.0; l],
            problem,
            false
        ))?;
        let support: Vec<usize> = (0..l).filter(|&t| sol.alpha[t] > 0.0).collect();
        let summary = DualSummary {
            classes: None,
            objective: sol.objective,
            rho: sol.rho,
            n_support: support.len(),
            n_bounded_support: support
                .iter()
                .filter(|&&t| sol.alpha[t] >= upper[t])
                .count(),
            iterations: sol.iterations,
            warning: sol.warning(),
        };
        let support_rows: Vec<usize> = support.iter().map(|&t| rows[t]).collect();
        Ok(SvmModel {
            svm_type: SvmType::OneClass,
            kernel,
            classes: one_class_labels().to_vec(),
            n_features: data.n_features(),
            support_vectors: SupportVectors::select(&kernel, x, &support_rows),
            n_support: vec![support.len()],
            dual_coef: vec![support.iter().map(|&t| sol.alpha[t]).collect()],
            duals: vec![summary],
            support: support_rows,
            probability: None,
            provenance: Provenance::Fitted,
        })
    }
}

impl Kind for OneClassSvm {
    const INFO: &'static KindInfo = &KindInfo::novelty(
        Self::KIND,
        super::GROUP,
        "one-class SVM: a boundary around the training rows; predicts 1 inside, -1 outside",
    );
    fn depends_on_row_order(&self) -> bool {
        self.dual.depends_on_row_order()
    }
    fn width_state(&self, n_features: usize, _n_classes: usize) -> [usize; 3] {
        Dual::width_state(n_features)
    }
}
