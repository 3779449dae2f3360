//! # hyperplane
//!
//! Classical machine learning in Rust: the algorithms of the foundations courses (CS229,
//! NTU "Machine Learning Foundations", CS188), built to production quality and checked
//! against scikit-learn. This release has the Naive Bayes family with everything around
//! it: readers, text vectorizers, encoders and discretizers, splits, cross-validation,
//! metrics and model files.
//!
//! ## Data flows one way
//!
//! ```text
//! reader -> LabelledInput -> input stage (vectorizer / encoder) -> transforms
//!        -> Dataset -> fit -> model -> predict -> metrics
//! ```
//!
//! A fitted [`pipeline::Pipeline`] (input stage + transforms + model + class names) is what
//! gets saved, so a saved model predicts on raw input.
//!
//! ## From raw documents to a saved spam filter
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
//! spec.set_param("alpha", "0.5")?;
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
//! ([`CsrMatrix`]) input go through the same code.
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
//! ## Trade-offs, and when not to use this
//!
//! - Naive Bayes trains in one pass and explains itself (`top_features`), but its
//!   probabilities are overconfident when features are correlated; do not read them as
//!   calibrated without checking.
//! - Everything is `f64` and single-machine; training statistics merge
//!   (`partial_fit`, `merge`), so out-of-core and multi-threaded training need no new code.
//! - Not here yet: linear models, SVMs, neural networks, learning-theory tools (coming).
//!   For deep learning, use a deep-learning library.

pub mod bayes;
pub mod check;
pub mod data;
pub mod datasets;
pub mod error;
pub mod estimator;
pub mod linalg;
pub mod linear;
pub mod metrics;
pub mod multiclass;
pub mod numeric;
pub mod optim;
pub mod param;
pub mod persist;
pub mod pipeline;
pub mod plot;
pub mod rng;
pub mod select;
pub mod text;
pub mod theory;
pub mod transform;

pub use data::{CsrMatrix, Dataset, Features, Label, RowAccess};
pub use error::{Error, Result};
pub use estimator::{Classifier, Fit, Regressor};
pub use param::Params;
