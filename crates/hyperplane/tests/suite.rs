//! The library's integration tests, one module per file beside this one, built as one
//! binary: each test crate links the library and instantiates its generic code again, so
//! one crate instead of twenty-odd is most of a fresh clone's test build saved. Run one
//! file's tests with `cargo test --release --test suite parity_svm::`.
//!
//! `borrowed_data.rs` is a binary of its own: it counts allocations with its own global
//! allocator, which must not see the other tests' threads.

mod common;

mod conformance;
mod decision_rule;
mod dense_f32;
mod deterministic_bytes;
mod guide;
mod libsvm_format;
mod linear_floor;
mod logistic_optimum;
mod model_files;
mod neural_mlp;
mod neural_problems;
#[cfg(feature = "corpus")]
mod one_pass;
mod parity_bayes;
mod parity_linear_svm;
mod parity_logistic;
mod parity_mlp;
mod parity_perceptron;
mod parity_regression;
mod parity_svm;
mod sequences;
#[cfg(feature = "corpus")]
mod spam_floor;
mod svm_floor;
mod svm_precomputed;
