//! The one error type of the crate.
//!
//! Every fallible operation returns [`Result<T>`]. Variants are structured so that a
//! program can react to them and a person can read them: each message names what was
//! wrong and where (file, line, column, row, feature, parameter). Messages count lines,
//! columns and rows from 1, as an editor shows them; the `row` fields hold the 0-based
//! index. Features are named by their 0-based index (the column of the feature matrix).

use std::path::PathBuf;

/// Shorthand for `std::result::Result<T, hyperplane::Error>`.
pub type Result<T> = std::result::Result<T, Error>;

/// Everything that can go wrong in hyperplane.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A parameter is outside its valid range.
    #[error("invalid parameter {name} = {value}: {reason}")]
    InvalidParameter {
        name: String,
        value: String,
        reason: String,
    },

    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// A line of an input file does not have the expected form.
    #[error("{}:{line}:{column}: expected {expected}, found {found}", file.display())]
    Parse {
        file: PathBuf,
        /// 1-based line number.
        line: usize,
        /// 1-based column (character) number; for delimited files, the field number.
        column: usize,
        expected: String,
        found: String,
    },

    /// Input data is unusable as a whole (empty, no features, inconsistent lengths...).
    #[error("invalid data: {0}")]
    InvalidData(String),

    /// A feature value is NaN or infinite.
    #[error("{what} contains a non-finite value ({value}) at row {}, feature {feature}", row + 1)]
    NonFinite {
        /// Which input: "X" at fit, "X at predict", "sample weights"...
        what: String,
        /// The row's index (from 0; messages count rows from 1, as an editor shows lines).
        row: usize,
        feature: usize,
        value: f64,
    },

    /// The matrix given to a fitted model does not have the feature count it was fitted on.
    #[error("feature count mismatch: the model was fitted on {expected} features but the input has {found}")]
    FeatureCount { expected: usize, found: usize },

    /// A value is not allowed by the model (for example a negative count for multinomial NB).
    #[error("{model} cannot use {what}")]
    Unsupported { model: String, what: String },

    /// Labels at evaluation that the model never saw.
    #[error("label {label:?} at row {} is not one of the model's classes {classes}", row + 1)]
    UnknownClass {
        label: String,
        /// The row's index (from 0; messages count rows from 1).
        row: usize,
        classes: String,
    },

    /// A model file is corrupt, truncated, foreign or from a newer version.
    #[error("model file {}: {reason}", path.display())]
    ModelFile { path: PathBuf, reason: String },

    /// A path to read is a FIFO, a device or a socket, not a regular file.
    #[error("{} is a {kind}, not a regular file: data and model files must be regular files (save a stream to a file first)", path.display())]
    NotAFile { path: PathBuf, kind: &'static str },

    /// Work sized by the input would need more memory than the budget allows.
    #[error("{what} would take {} of memory, over the budget of {} (raise it with --max-memory)", bytes.map_or("more than 16 EiB".to_string(), crate::units::format_size), crate::units::format_size(*budget))]
    MemoryBudget {
        /// What would be allocated, with the sizes that make it.
        what: String,
        /// Its size in bytes; `None` when it does not even fit a `u64`.
        bytes: Option<u64>,
        /// The budget in bytes ([`crate::memory::budget`]).
        budget: u64,
    },

    /// The computation was stopped by its host ([`crate::context::Cancel`]).
    #[error("cancelled: stopped by the caller before it finished")]
    Cancelled,
}

impl Error {
    /// Builds [`Error::InvalidParameter`].
    pub fn param(name: &str, value: impl std::fmt::Display, reason: impl Into<String>) -> Self {
        Error::InvalidParameter {
            name: name.to_string(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }

    /// Builds [`Error::Io`] for `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// Builds [`Error::InvalidData`].
    pub fn data(message: impl Into<String>) -> Self {
        Error::InvalidData(message.into())
    }
}
