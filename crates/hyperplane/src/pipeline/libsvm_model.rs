//! Pipelines from and to LIBSVM's own model files (see
//! [`libsvm_format`](crate::svm::libsvm_format)).
//!
//! A LIBSVM model file holds a kernel SVM alone: it takes LIBSVM-format numeric rows as
//! they are. So a pipeline read from one has a matrix input stage and no transforms, and
//! only such a pipeline, around a model that has a LIBSVM form
//! ([`FittedModel::export`](crate::estimator::FittedModel::export): a kernel SVM with
//! integer class labels), can be written as one. A text vectorizer, a CSV encoder, scaling, binning or polynomial
//! features, a linear model (`hard-margin-svm` fits a [`LinearModel`](crate::linear::LinearModel),
//! `linear-svm` too) and one-vs-all reductions have no place in the format.

use std::path::Path;

use super::fitted::{InputStage, Pipeline};
use super::Model;
use crate::error::{Error, Result};
use crate::estimator::ExportFormat;
use crate::persist;
use crate::svm::libsvm_format;

impl Pipeline {
    /// Reads a LIBSVM model file (as `svm-train` writes it) into a pipeline that takes
    /// LIBSVM-format numeric input, with the classes sorted.
    pub fn from_libsvm_model(path: &Path) -> Result<Pipeline> {
        let bytes = crate::data::file::read(path)?;
        Self::from_libsvm_bytes(path, &bytes)
    }

    fn from_libsvm_bytes(path: &Path, bytes: &[u8]) -> Result<Pipeline> {
        let model = libsvm_format::read(bytes, path)?;
        let kind = model.svm_type.kind();
        Ok(Pipeline {
            kind: kind.to_string(),
            params: libsvm_format::recorded_params(&model),
            preprocessing: Vec::new(),
            input: InputStage::Matrix {
                n_features: model.n_features,
            },
            transforms: Vec::new(),
            model: Model(Box::new(model), Some(kind)),
            n_train: 0,
            pla_start: None,
            threads: Default::default(),
        })
    }

    /// Reads a model file of either kind: ours (written by [`Pipeline::save`]) or
    /// LIBSVM's (its first line starts with `svm_type `).
    pub fn load_any(path: &Path) -> Result<Pipeline> {
        Self::load_any_bytes(&crate::data::file::read(path)?, path)
    }

    /// [`Pipeline::load_any`] of a model file's bytes held in memory; `path` names it in
    /// error messages.
    pub fn load_any_bytes(bytes: &[u8], path: &Path) -> Result<Pipeline> {
        if libsvm_format::is_libsvm_model(bytes) {
            Self::from_libsvm_bytes(path, bytes)
        } else {
            Pipeline::load_bytes(bytes, path)
        }
    }

    /// Writes the pipeline as a LIBSVM model file, atomically; an error naming what the
    /// format cannot hold when the pipeline has more than a kernel SVM on numeric rows.
    pub fn save_libsvm(&self, path: &Path) -> Result<()> {
        let refuse = |why: String| Error::ModelFile {
            path: path.to_path_buf(),
            reason: format!("cannot be written in LIBSVM's model format: {why}"),
        };
        let Some(text) = self.model.export(ExportFormat::Libsvm) else {
            return Err(refuse(format!(
                "the model is {}, not a kernel SVM (LIBSVM model files hold svc, nu-svc, svr, \
                 nu-svr and one-class-svm models)",
                self.kind
            )));
        };
        if !matches!(self.input, InputStage::Matrix { .. }) {
            return Err(refuse(format!(
                "the model reads {} through a fitted input stage; a LIBSVM model file takes \
                 LIBSVM-format numeric rows only (train on a LIBSVM file to export)",
                self.input.describe()
            )));
        }
        if let Some(t) = self.transforms.first() {
            return Err(refuse(format!(
                "the pipeline has a transform ({}) before the model; a LIBSVM model file holds \
                 the SVM alone (train without it to export)",
                super::fitted::describe_transform(t)
            )));
        }
        let text = text.map_err(|e| refuse(e.to_string()))?;
        persist::write_atomically(path, text.as_bytes())
    }
}
