//! # hyperplane
//!
//! Classical machine learning in Rust: the algorithms of the foundations courses (CS229,
//! NTU "Machine Learning Foundations", CS188), built to production quality and checked
//! against scikit-learn, LIBLINEAR and numpy. This release has the Naive Bayes family, the
//! linear models (perceptron and pocket, SGD, logistic and softmax regression, least
//! squares and ridge, one-vs-all and one-vs-one, the transform `Phi_Q`), the
//! learning-theory toolkit, plots, and everything around them: readers, text vectorizers,
//! encoders and discretizers, splits, cross-validation, metrics and model files; and the
//! support vector machines (the maximum-margin classifier, the linear SVM, and LIBSVM's
//! kernel C-SVC, nu-SVC, epsilon- and nu-SVR and one-class SVM by SMO); and multilayer
//! perceptrons (`mlp`, `mlp-regressor`: Adam, SGD with momentum, L-BFGS).
//!
//! ## Data flows one way
//!
//! ```text
//! reader -> LabelledInput -> input stage (vectorizer / encoder) -> transforms
//!        -> Dataset -> fit -> model -> predict -> metrics
//! ```
//!
//! A fitted [`pipeline::Pipeline`] (input stage + transforms + model + class names) is what
//! gets saved, so a saved model predicts on raw input. Every model kind is listed once in
//! the registry ([`pipeline::registry`]); its parameters have a typed schema ([`param`]).
//! A kind declares itself in its own file, its params implementing [`estimator::Kind`],
//! and its family lists it in one line; the pipeline, the command line, `inspect`, the
//! conformance checks and model files reach it only through [`estimator::Learn`] and
//! [`estimator::FittedModel`]. What the families share lives below all of them:
//! [`weights`], [`targets`] and the fitted linear model ([`score`]).
//!
//! ## How to fit: one way for each job
//!
//! | you have | use | you get |
//! |---|---|---|
//! | a matrix, and the kind in your code | the kind's params struct (`Default`, then builder setters or [`Params::with`]) and [`Fit::fit`] | the kind's own model type, its fields in reach |
//! | a matrix, and the kind chosen at run time (a host, a form, a grid) | [`pipeline::Learner::from_kind`], [`Params::set_value`] and `fit` / `fit_with` | a [`pipeline::Model`]: predictions, `to_bytes` |
//! | raw input (documents, a CSV table, LIBSVM files) | [`pipeline::PipelineSpec`] | a [`pipeline::Pipeline`] that reads raw input and saves to a model file |
//! | data in batches, or in parts to merge (one-pass kinds) | [`pipeline::Learner::incremental`] | statistics to `partial_fit`, `merge` and `finish` |
//!
//! Each of them runs in the caller's [`context::Context`] (threads, memory budget,
//! progress, cancellation) when given one.
//!
//! ```
//! use hyperplane::svm::Svc;
//! use hyperplane::{Classifier, Dataset, Fit, Label, Params};
//!
//! let x = ndarray::array![[0.0, 0.0], [0.2, 0.1], [1.0, 1.0], [0.9, 1.2]];
//! let y = ["a", "a", "b", "b"].map(Label::from);
//! let svc = Svc::default().with("c", 10.0)?.with("kernel", "linear")?;
//! let model = svc.fit(&Dataset::new(x.view().into(), &y)?)?;
//! assert_eq!(model.predict(&x.view().into())?, y);
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! ## Naive Bayes: from raw documents to a saved spam filter
//!
//! ```
//! use hyperplane::data::{LabelledInput, RawInput, Label};
//! use hyperplane::pipeline::PipelineSpec;
//!
//! let docs = ["cheap pills buy now", "meeting notes attached", "buy cheap watches", "notes from the meeting"];
//! let data = LabelledInput {
//!     input: RawInput::Text(docs.iter().map(|d| d.to_string()).collect()),
//!     labels: Some(vec!["spam".into(), "ham".into(), "spam".into(), "ham".into()]),
//!     source: "inline".into(),
//! };
//! let mut spec = PipelineSpec::new("multinomial-nb")?;
//! spec.set_param("alpha", "0.5")?;           // the model's; `vectorizer.min_df`, `pipeline.scale`...
//! let filter = spec.fit(&data)?;
//! let new = RawInput::Text(vec!["cheap watches now".into()]);
//! assert_eq!(filter.predict(&new)?, vec![Label::from("spam")]);
//! // filter.save("spam.json".as_ref())?;  -- versioned JSON, written atomically
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! ## One estimator on a matrix
//!
//! Every learner is a params struct (`Default` + builder setters) implementing [`Fit`];
//! fitted classifiers implement [`Classifier`]. Dense (`ndarray`) and sparse
//! ([`CsrMatrix`]) input, owned or borrowed, go through the same code.
//!
//! ```
//! use hyperplane::bayes::{MultinomialNB, Priors};
//! use hyperplane::{Classifier, CsrMatrix, Dataset, Features, Fit, Label};
//! use ndarray::array;
//!
//! let x = array![[2.0, 0.0, 1.0], [0.0, 3.0, 1.0], [3.0, 0.0, 0.0]];
//! let y = [Label::from("spam"), Label::from("ham"), Label::from("spam")];
//! let dense = Dataset::new(x.clone().into(), &y)?;
//! let sparse = Dataset::new(CsrMatrix::from_dense(x.view()).into(), &y)?;
//! let params = MultinomialNB::default().alpha(0.5).priors(Priors::Uniform);
//! let (a, b) = (params.fit(&dense)?, params.fit(&sparse)?);
//! let p = a.predict_proba(dense.x())?;
//! assert_eq!(p, b.predict_proba(sparse.x())?);
//! assert!((p.row(0).sum() - 1.0).abs() < 1e-12);
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! ## Data the caller already holds: borrowed, not copied
//!
//! A host with its own buffers (numpy and scipy arrays, a Spark partition, an mmap'd file)
//! lends them as they are: a dense `ArrayView2` of any layout, or a CSR matrix over its
//! three slices with 32- or 64-bit indices and `f32` or `f64` values ([`data::CsrView`],
//! validated once). Every learner fits and predicts on them in place, with the same
//! results, to the bit, as on owned data.
//!
//! ```
//! use hyperplane::data::{CsrView, Dataset, Features};
//! use hyperplane::linear::LogisticRegression;
//! use hyperplane::{Classifier, Fit, Label};
//!
//! // scipy.sparse.csr_matrix([[1, 0, 2], [0, 3, 0], [2, 0, 1], [0, 1, 0]], dtype=float32)
//! let (indptr, indices, values) = ([0i32, 2, 3, 5, 6], [0i32, 2, 1, 0, 2, 1], [1f32, 2., 3., 2., 1., 1.]);
//! let x: Features = CsrView::new(3, &indptr, &indices, &values)?.into();
//! let y: Vec<Label> = ["a", "b", "a", "b"].map(Label::from).to_vec();
//! let model = LogisticRegression::default().fit(&Dataset::new(x.clone(), &y)?)?;
//! assert_eq!(model.predict(&x)?, y);
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! ## Linear models: PLA, logistic regression, least squares
//!
//! ```
//! use hyperplane::linear::{LinearRegression, LogisticRegression, Perceptron};
//! use hyperplane::{Classifier, Dataset, Fit, Label, Regressor};
//! use ndarray::array;
//!
//! let x = array![[1.0, 2.0], [2.0, 3.0], [-1.0, -1.5], [-2.0, -1.0]];
//! let y: Vec<Label> = [1, 1, -1, -1].map(Label::Int).to_vec();
//! let data = Dataset::new(x.clone().into(), &y)?;
//! let pla = Perceptron::default().fit(&data)?;          // halts: the data are separable
//! assert_eq!(pla.predict(data.x())?, y);
//! let logistic = LogisticRegression::default().c(10.0).fit(&data)?;
//! assert!(logistic.predict_proba(data.x())?[[0, 1]] > 0.9);   // P(y = 1 | x_1)
//! let targets = data.with_values(array![[3.0], [5.0], [-2.5], [-3.0]])?;  // real-valued
//! let ls = LinearRegression::default().fit(&targets)?;
//! assert_eq!(ls.predict(data.x())?.dim(), (4, 1));
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! ## Support vector machines: the widest margin, and kernels
//!
//! ```
//! use hyperplane::svm::{HardMargin, KernelKind, Svc, SvmModel};
//! use hyperplane::{Classifier, Dataset, Fit, Label};
//! use ndarray::array;
//!
//! let x = array![[0.0, 0.0], [2.0, 2.0], [0.0, 2.0], [2.0, 0.0]];
//! let y: Vec<Label> = [-1, -1, 1, 1].map(Label::Int).to_vec();   // XOR: no separating line
//! let data = Dataset::new(x.into(), &y)?;
//! assert!(HardMargin::default().fit(&data).is_err());           // "not linearly separable"
//! let mut svc = Svc::default();
//! svc.c = 10.0;
//! svc.dual.kernel = KernelKind::Rbf;                             // K(u, v) = exp(-gamma ||u - v||^2)
//! let model: SvmModel = svc.fit(&data)?;
//! assert_eq!(model.predict(data.x())?, y);
//! assert_eq!(model.support.len(), 4);                            // every row on the margin
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! ## Learning theory
//!
//! ```
//! use hyperplane::theory::{bounding, vc_sample_size, GrowthBound};
//!
//! assert_eq!(bounding(4, 3).to_string(), "11");          // B(4, 3), exactly
//! let n = vc_sample_size(0.1, 0.1, &GrowthBound::Polynomial { dvc: 3 })?;
//! assert_eq!(n, 29_300);                                   // vs the rule of thumb 10 d_vc
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! ## Checking an estimator
//!
//! [`check`] runs scikit-learn's estimator checks, translated, on any learner and returns
//! a report; the test suite runs it on every kind and every solver.
//!
//! ```
//! use hyperplane::check::check_classifier;
//! use hyperplane::pipeline::Learner;
//!
//! let report = check_classifier("gaussian-nb", &Learner::from_kind("gaussian-nb")?);
//! assert!(report.passed(), "{report}");
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! ## Trade-offs, and when not to use this
//!
//! - Naive Bayes trains in one pass and explains itself (`top_features`), but its
//!   probabilities are overconfident when features are correlated; do not read them as
//!   calibrated without checking.
//! - The linear models are fast and exact where the mathematics is (least squares with the
//!   rank reported; Newton to LIBLINEAR's objective), but a linear score separates only what
//!   a hyperplane separates: use `Phi_Q` (`poly`) for curved boundaries on few features, and
//!   wait for the kernel SVMs or the neural network for more.
//! - PLA halts only on separable data (the budget stops it otherwise, with a warning); use
//!   pocket or logistic regression on real data.
//! - Everything computes in `f64` but the network's `dtype=f32` (`f32` input is widened
//!   exactly as it is read), on one machine; training statistics merge
//!   (`partial_fit`, `merge`, through the registry [`pipeline::Learner::incremental`]) and
//!   objectives are sums over rows, so out-of-core and distributed training need no new
//!   algorithms.
//! - Not for deep learning, images or sequences of raw signals: use a deep-learning library.

pub mod bayes;
pub mod check;
pub mod context;
pub mod data;
#[cfg(feature = "corpus")]
pub mod datasets;

/// The README's Rust program, compiled and run as a doctest so it stays true.
#[cfg(all(doctest, feature = "corpus"))]
#[doc = include_str!("../../../README.md")]
pub struct Readme;
pub mod error;
pub mod estimator;
mod intern;
pub mod linalg;
pub mod linear;
pub mod memory;
pub mod metrics;
pub mod multiclass;
pub mod neural;
pub mod numeric;
pub mod optim;
pub mod param;
pub mod persist;
pub mod pipeline;
#[cfg(feature = "plot")]
pub mod plot;
pub mod rng;
pub mod score;
pub mod select;
pub mod summary;
pub mod svm;
pub mod targets;
pub mod text;
pub mod theory;
pub mod threads;
pub mod transform;
pub mod units;
pub mod weights;

pub use data::{CsrMatrix, Dataset, Features, Label, RowAccess};
pub use error::{Error, Result};
pub use estimator::{Classifier, Fit, Regressor};
pub use param::Params;
