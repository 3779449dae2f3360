//! Support vector machines: maximum-margin classifiers and regressors with kernels,
//! trained on their duals by SMO (the LIBSVM family).
//!
//! A linear classifier `sign(w.x + b)` has functional margin `y_i (w.x_i + b)` at each
//! point and geometric margin `y_i (w.x_i + b) / ||w||`. The soft-margin SVM maximises the
//! geometric margin while paying `C` per unit of violation:
//!
//! ```text
//! min 1/2 ||w||^2 + C sum_i xi_i   s.t.  y_i (w.phi(x_i) + b) >= 1 - xi_i,  xi_i >= 0
//! ```
//!
//! Its dual depends on the data only through inner products, so any kernel
//! `K(u, v) = phi(u).phi(v)` replaces them (see [`kernel`]); the solution is a sum over
//! the support vectors, the rows with `a_i > 0`:
//! `f(x) = sum_i y_i a_i K(x_i, x) - rho`.
//!
//! | kind | scikit-learn | LIBSVM | what it solves |
//! |---|---|---|---|
//! | `hard-margin-svm` | `SVC(kernel="linear", C=inf)` | | the maximum-margin classifier ([`HardMargin`]) |
//! | `svc` | `SVC` | `-s 0` | C-SVC, one-vs-one over the classes ([`Svc`]) |
//! | `nu-svc` | `NuSVC` | `-s 1` | nu-SVC ([`NuSvc`]) |
//! | `svr` | `SVR` | `-s 3` | epsilon-SVR ([`Svr`]) |
//! | `nu-svr` | `NuSVR` | `-s 4` | nu-SVR ([`NuSvr`]) |
//! | `one-class-svm` | `OneClassSVM` | `-s 2` | the support of one distribution: inliers `1`, outliers `-1` ([`OneClassSvm`]) |
//!
//! Every kind shares [`Dual`]: the kernel (`kernel`, `gamma`, `degree`, `coef0`) and the
//! solver (`tol`, `shrinking`, `cache_mb`, `max_iter`). The files follow LIBSVM's split:
//! [`kernel`] (the functions and columns of `Q`), `cache` (the column cache), `smo` (the
//! solver), [`model`] (the fitted [`SvmModel`]), `svc` and `svr` (each kind's dual), and
//! [`libsvm_format`] (LIBSVM's own model files, read and written).
//!
//! Differences from LIBSVM, by design: the model lists the classes sorted (LIBSVM in the
//! order first seen; each pair is still solved in LIBSVM's orientation, see `svc`);
//! `gamma` defaults to scikit-learn's `scale` (`gamma=auto` is LIBSVM's `1 / n_features`);
//! rows of weight 0 are left out of the duals (as scikit-learn does).
//!
//! When not to use a kernel SVM: with many rows (training grows between `n^2` and `n^3`)
//! and many features, a linear model is as accurate and far faster.

mod cache;
mod dual;
mod hard_margin;
pub mod kernel;
pub mod libsvm_format;
pub mod model;
mod one_class;
pub mod probability;
mod smo;
mod svc;
mod svr;

pub use dual::Dual;
pub use hard_margin::HardMargin;
pub use kernel::{Gamma, Kernel, KernelKind};
pub use model::{DualSummary, Platt, Provenance, SupportVectors, SvmModel, SvmType};
pub use one_class::OneClassSvm;
pub use probability::Calibration;
pub use svc::{NuSvc, Svc};
pub use svr::{NuSvr, Svr};

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::estimator::{
    boxed_learner, read_validated, Classifier, Family, Fit, FittedModel, KindInfo, Learn, Regressor,
};
use crate::param::{Composite, Params};

/// The SVM family, as the registry lists it.
pub const FAMILY: Family = Family {
    kinds: KINDS,
    learner: |kind| boxed_learner(Svm::from_kind, kind),
    model_tag: "Svm",
    read_model: |d| read_validated(d, SvmModel::validate),
};

/// The SVM kinds, in the order of the [`Svm`] variants.
pub const KINDS: &[KindInfo] = &[
    KindInfo::binary(
        HardMargin::KIND,
        GROUP,
        "the maximum-margin classifier: widest separating hyperplane, an error if none separates",
    ),
    KindInfo::classifier(
        Svc::KIND,
        GROUP,
        "C-SVC: soft-margin kernel SVM by SMO (LIBSVM), one-vs-one over classes",
    ),
    KindInfo::classifier(
        NuSvc::KIND,
        GROUP,
        "nu-SVC: kernel SVM whose nu bounds the fraction of margin errors",
    ),
    KindInfo::regressor(
        Svr::KIND,
        GROUP,
        "epsilon-SVR: kernel regression, errors inside an epsilon tube are free",
    ),
    KindInfo::regressor(
        NuSvr::KIND,
        GROUP,
        "nu-SVR: kernel regression whose nu sets the tube's width",
    ),
    KindInfo::novelty(
        OneClassSvm::KIND,
        GROUP,
        "one-class SVM: a boundary around the training rows; predicts 1 inside, -1 outside",
    ),
];

const GROUP: &str = "support vector machines";

/// Any kernel SVM learner, chosen by kind name.
#[derive(Clone, Debug, PartialEq)]
pub enum Svm {
    HardMargin(HardMargin),
    Svc(Svc),
    NuSvc(NuSvc),
    Svr(Svr),
    NuSvr(NuSvr),
    OneClass(OneClassSvm),
}

macro_rules! each {
    ($e:expr, |$p:ident| $body:expr) => {
        match $e {
            Svm::HardMargin($p) => $body,
            Svm::Svc($p) => $body,
            Svm::NuSvc($p) => $body,
            Svm::Svr($p) => $body,
            Svm::NuSvr($p) => $body,
            Svm::OneClass($p) => $body,
        }
    };
}

impl Svm {
    /// The learner of kind `kind` with default params.
    pub fn from_kind(kind: &str) -> Result<Self> {
        Ok(match kind {
            HardMargin::KIND => Svm::HardMargin(HardMargin::default()),
            Svc::KIND => Svm::Svc(Svc::default()),
            NuSvc::KIND => Svm::NuSvc(NuSvc::default()),
            Svr::KIND => Svm::Svr(Svr::default()),
            NuSvr::KIND => Svm::NuSvr(NuSvr::default()),
            OneClassSvm::KIND => Svm::OneClass(OneClassSvm::default()),
            _ => {
                let names: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
                return Err(Error::param(
                    "model",
                    kind,
                    format!("valid kinds: {}", names.join(", ")),
                ));
            }
        })
    }
}

impl Composite for Svm {
    fn component(&self) -> String {
        self.info().name.to_string()
    }
    fn parts(&self) -> Vec<&dyn Params> {
        vec![each!(self, |p| p as &dyn Params)]
    }
    fn parts_mut(&mut self) -> Vec<&mut dyn Params> {
        vec![each!(self, |p| p as &mut dyn Params)]
    }
}

impl Learn for Svm {
    fn info(&self) -> &'static KindInfo {
        &KINDS[match self {
            Svm::HardMargin(_) => 0,
            Svm::Svc(_) => 1,
            Svm::NuSvc(_) => 2,
            Svm::Svr(_) => 3,
            Svm::NuSvr(_) => 4,
            Svm::OneClass(_) => 5,
        }]
    }
    fn fit_model(&self, data: &Dataset) -> Result<Box<dyn FittedModel>> {
        Ok(match self {
            Svm::HardMargin(p) => Box::new(p.fit(data)?),
            Svm::Svc(p) => Box::new(p.fit(data)?),
            Svm::NuSvc(p) => Box::new(p.fit(data)?),
            Svm::Svr(p) => Box::new(p.fit(data)?),
            Svm::NuSvr(p) => Box::new(p.fit(data)?),
            Svm::OneClass(p) => Box::new(p.fit(data)?),
        })
    }
    /// A kernel SVM keeps support vectors, not weights: only a dense row of scratch grows
    /// with the width (the hard-margin SVM's `w` is a linear model's).
    fn width_state(&self, n_features: usize, n_classes: usize) -> [usize; 3] {
        match self {
            Svm::HardMargin(_) => [n_features, n_classes.max(1), 4],
            _ => [n_features, 1, 1],
        }
    }
    /// The sigmoid kernel is not positive semi-definite: its dual is not convex, and the
    /// solution SMO reaches depends on the order it meets the rows in. Probabilities come
    /// from folds dealt by row position (a repeated row may land in two folds).
    fn depends_on_row_order(&self) -> bool {
        let dual = match self {
            Svm::HardMargin(_) => return false,
            Svm::Svc(p) if p.calibration.probability => return true,
            Svm::NuSvc(p) if p.calibration.probability => return true,
            Svm::Svc(p) => &p.dual,
            Svm::NuSvc(p) => &p.dual,
            Svm::Svr(p) => &p.dual,
            Svm::NuSvr(p) => &p.dual,
            Svm::OneClass(p) => &p.dual,
        };
        dual.kernel == KernelKind::Sigmoid
    }
}

impl FittedModel for SvmModel {
    fn tag(&self) -> &'static str {
        FAMILY.model_tag
    }
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        (!self.classes.is_empty()).then_some(self as &dyn Classifier)
    }
    fn as_regressor(&self) -> Option<&dyn Regressor> {
        self.classes.is_empty().then_some(self as &dyn Regressor)
    }
    fn details(&self) -> Vec<(String, String)> {
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
