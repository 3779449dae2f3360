//! Data: feature matrices, labels, data sets, readers and splits.

pub mod borrowed;
pub mod csv;
pub mod dataset;
pub mod file;
pub mod input;
pub mod labels;
pub mod libsvm;
pub mod matrix;
mod options;
pub mod read;
pub mod split;
pub mod text_files;

pub use borrowed::{CsrMatrix32, CsrRef, CsrView, OwnedFeatures};
pub use dataset::Dataset;
pub use input::{Categories, Column, LabelledInput, RawInput, Table};
pub use labels::Label;
pub use matrix::{CsrBuilder, CsrMatrix, Features, RowAccess};
