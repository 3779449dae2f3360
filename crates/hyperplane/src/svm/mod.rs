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
pub use model::{DualSummary, Platt, Provenance, SupportVectors, SvmModel, SvmSummary, SvmType};
pub use one_class::OneClassSvm;
pub use probability::Calibration;
pub use svc::{NuSvc, Svc};
pub use svr::{NuSvr, Svr};

use crate::estimator::{Body, Family, Registration};

/// The SVM family, as the registry lists it: one line per kind.
pub const FAMILY: Family = Family {
    kinds: &[
        Registration::of::<HardMargin>(),
        Registration::of::<Svc>(),
        Registration::of::<NuSvc>(),
        Registration::of::<Svr>(),
        Registration::of::<NuSvr>(),
        Registration::of::<OneClassSvm>(),
    ],
    model_tag: SvmModel::TAG,
};

/// The family of the SVM kinds, as the kind table groups them.
const GROUP: &str = "support vector machines";
