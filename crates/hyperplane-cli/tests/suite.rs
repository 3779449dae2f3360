//! The command line's integration tests, one module per file beside this one, built as one
//! binary (one link instead of one per file). Run one file's tests with
//! `cargo test --release -p hyperplane-cli --test suite cli::`.

mod common;

mod bad_inputs;
mod cli;
mod crash_safe;
mod linear;
mod params;
mod plot;
mod readme;
mod svm;
mod theory;
