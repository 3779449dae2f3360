//! Data: feature matrices, labels, data sets, readers and splits.
//!
//! The matrices, from the bottom up: [`rows`] (what a learner reads of a row, once per
//! storage), [`csr`] (the owned CSR matrix), [`borrowed`] (CSR over a caller's slices),
//! [`features`] (any of them, or dense, as one type).

pub mod borrowed;
pub mod csr;
pub mod csv;
pub mod dataset;
pub mod features;
pub mod file;
pub mod input;
pub mod labels;
pub mod libsvm;
mod options;
pub mod read;
pub mod rows;
pub mod split;
pub mod text_files;

pub use borrowed::{CsrMatrix32, CsrRef, CsrView};
pub use csr::{CsrBuilder, CsrMatrix};
pub use dataset::Dataset;
pub use features::{Features, OwnedFeatures};
pub use input::{Categories, Column, LabelledInput, RawInput, Table};
pub use labels::Label;
pub use rows::RowAccess;
