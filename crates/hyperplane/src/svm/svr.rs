//! Support vector regression: epsilon-SVR and nu-SVR (LIBSVM's `-s 3` and `-s 4`).
//!
//! epsilon-SVR: errors inside a tube of half-width `epsilon` cost nothing,
//!
//! ```text
//! primal  min 1/2 ||w||^2 + sum_i C_i (xi_i + xi*_i)
//!         s.t. y_i - f(x_i) <= epsilon + xi_i,  f(x_i) - y_i <= epsilon + xi*_i,  xi, xi* >= 0
//! dual    over 2l variables (a, a*): min 1/2 (a - a*)^T K (a - a*) + epsilon e^T (a + a*) - y^T (a - a*)
//!         s.t. e^T (a - a*) = 0,  0 <= a_i, a*_i <= C_i
//! ```
//!
//! written as one SMO problem with `Q = [K -K; -K K]`, `p = (epsilon - y, epsilon + y)`,
//! signs `(+1, -1)`. The model is `f(x) = sum_i (a_i - a*_i) K(x_i, x) - rho`. nu-SVR
//! chooses `epsilon` itself: `p = (-y, y)` with the extra constraint
//! `e^T (a + a*) = C nu W` (`W = sum_i c_i`), solved by the `nu` form of SMO, whose `-r` is
//! the `epsilon` found. `C_i = C c_i` with `c_i` the sample weight.

use super::dual::{weighted_rows, Dual};
use super::kernel::KernelRows;
use super::model::{DualSummary, Provenance, SupportVectors, SvmModel, SvmType};
use super::smo::{fill_to, Problem};
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::estimator::{Fit, Kind, KindInfo};
use crate::param::Params;
use crate::with_rows;

crate::params! {
    /// epsilon-SVR (scikit-learn's `SVR`, LIBSVM's `-s 3`).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Svr {
        pub c: f64,
        pub epsilon: f64,
        pub dual: Dual,
    }
    schema "svr" {
        /// `C`: the cost of each unit of error beyond the tube
        c = "1", positive => c;
        /// the half-width of the tube in which errors cost nothing
        epsilon = "0.1", non_negative => epsilon;
        ..dual: Dual;
    }
}

crate::params! {
    /// nu-SVR (scikit-learn's `NuSVR`, LIBSVM's `-s 4`).
    #[derive(Clone, Debug, PartialEq)]
    pub struct NuSvr {
        pub c: f64,
        pub nu: f64,
        pub dual: Dual,
    }
    schema "nu-svr" {
        /// `C`: the cost of each unit of error beyond the tube
        c = "1", positive => c;
        /// `nu` in (0, 1]: an upper bound on the fraction of rows outside the tube, a lower bound on the fraction of support vectors
        nu = "0.5", fraction => nu;
        ..dual: Dual;
    }
}

impl Default for Svr {
    fn default() -> Self {
        Svr {
            c: 1.0,
            epsilon: 0.1,
            dual: Dual::default(),
        }
    }
}

impl Default for NuSvr {
    fn default() -> Self {
        NuSvr {
            c: 1.0,
            nu: 0.5,
            dual: Dual::default(),
        }
    }
}

impl Svr {
    pub const KIND: &'static str = "svr";
}

impl NuSvr {
    pub const KIND: &'static str = "nu-svr";
}

impl Fit for Svr {
    type Model = SvmModel;
    fn fit(&self, data: &Dataset) -> Result<SvmModel> {
        self.check_params()?;
        fit_regression(data, &self.dual, self.c, Tube::Epsilon(self.epsilon))
    }
}

impl Fit for NuSvr {
    type Model = SvmModel;
    fn fit(&self, data: &Dataset) -> Result<SvmModel> {
        self.check_params()?;
        fit_regression(data, &self.dual, self.c, Tube::Nu(self.nu))
    }
}

impl Kind for Svr {
    const INFO: &'static KindInfo = &KindInfo::regressor(
        Self::KIND,
        super::GROUP,
        "epsilon-SVR: kernel regression, errors inside an epsilon tube are free",
    );
    fn depends_on_row_order(&self) -> bool {
        self.dual.depends_on_row_order()
    }
    fn width_state(&self, n_features: usize, _n_classes: usize) -> [usize; 3] {
        Dual::width_state(n_features)
    }
}

impl Kind for NuSvr {
    const INFO: &'static KindInfo = &KindInfo::regressor(
        Self::KIND,
        super::GROUP,
        "nu-SVR: kernel regression whose nu sets the tube's width",
    );
    fn depends_on_row_order(&self) -> bool {
        self.dual.depends_on_row_order()
    }
    fn width_state(&self, n_features: usize, _n_classes: usize) -> [usize; 3] {
        Dual::width_state(n_features)
    }
}

#[derive(Clone, Copy)]
enum Tube {
    Epsilon(f64),
    Nu(f64),
}

fn fit_regression(data: &Dataset, dual: &Dual, c: f64, tube: Tube) -> Result<SvmModel> {
    let y = data.require_values()?;
    let name = match tube {
        Tube::Epsilon(_) => Svr::KIND,
        Tube::Nu(_) => NuSvr::KIND,
    };
    if y.ncols() != 1 {
        return Err(Error::Unsupported {
            model: name.into(),
            what: format!(
                "{} outputs; it fits one (fit one model per column)",
                y.ncols()
            ),
        });
    }
    let x = data.x();
    x.check_fit_input()?;
    let kernel = dual.kernel_on(data)?;
    let rows = weighted_rows(data)?;
    let l = rows.len();
    let target: Vec<f64> = rows.iter().map(|&i| y[[i, 0]]).collect();
    let upper: Vec<f64> = rows.iter().map(|&i| c * data.weight(i)).collect();
    let (p, alpha, nu) = match tube {
        Tube::Epsilon(eps) => {
            let p = target
                .iter()
                .map(|t| eps - t)
                .chain(target.iter().map(|t| eps + t))
                .collect();
            (p, vec![0.0; 2 * l], false)
        }
        Tube::Nu(nu) => {
            // a feasible start: a_i = a*_i, filled in row order to sum C nu W / 2 each
            let half = fill_to(nu * upper.iter().sum::<f64>() / 2.0, &upper);
            let p = target
                .iter()
                .map(|t| -t)
                .chain(target.iter().copied())
                .collect();
            (p, [half.clone(), half].concat(), true)
        }
    };
    let sign: Vec<f64> = std::iter::repeat_n(1.0, l)
        .chain(std::iter::repeat_n(-1.0, l))
        .collect();
    let problem = Problem {
        p,
        y: sign.clone(),
        c: [upper.clone(), upper.clone()].concat(),
        alpha,
    };
    let index: Vec<usize> = rows.iter().chain(&rows).copied().collect();
    let sol = with_rows!(x, |m| dual.solve::<_, f32>(
        &KernelRows::new(m, kernel),
        index,
        sign,
        problem,
        nu
    ))?;
    let coef: Vec<f64> = (0..l).map(|t| sol.alpha[t] - sol.alpha[t + l]).collect();
    let support: Vec<usize> = (0..l).filter(|&t| coef[t] != 0.0).collect();
    let summary = DualSummary {
        classes: None,
        objective: sol.objective,
        rho: sol.rho,
        n_support: support.len(),
        n_bounded_support: support
            .iter()
            .filter(|&&t| coef[t].abs() >= upper[t])
            .count(),
        iterations: sol.iterations,
        warning: sol.warning(),
    };
    let support_rows: Vec<usize> = support.iter().map(|&t| rows[t]).collect();
    Ok(SvmModel {
        svm_type: match tube {
            Tube::Epsilon(_) => SvmType::EpsilonSvr,
            Tube::Nu(_) => SvmType::NuSvr,
        },
        kernel,
        classes: Vec::new(),
        n_features: data.n_features(),
        support_vectors: SupportVectors::select(&kernel, x, &support_rows),
        n_support: vec![support.len()],
        dual_coef: vec![support.iter().map(|&t| coef[t]).collect()],
        duals: vec![summary],
        support: support_rows,
        probability: None,
        provenance: Provenance::Fitted,
    })
}
