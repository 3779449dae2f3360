//! # hyperplane
//!
//! Classical machine learning in Rust: the algorithms of the foundations courses, built to
//! production quality. Data flows one way:
//!
//! ```text
//! reader -> RawInput -> (vectorizer / encoder / transforms) -> Features -> fit -> model -> predict -> metrics
//! ```
//!
//! A fitted [`pipeline::Pipeline`] (input stage + transforms + model + class names) is what
//! gets saved, so a saved model predicts on raw input.

pub mod bayes;
pub mod data;
pub mod datasets;
pub mod error;
pub mod estimator;
pub mod metrics;
pub mod numeric;
pub mod persist;
pub mod pipeline;
pub mod rng;
pub mod select;
pub mod text;
pub mod transform;

pub use data::{CsrMatrix, Dataset, Features, Label, RowAccess};
pub use error::{Error, Result};
pub use estimator::{Classifier, Fit, Params};
