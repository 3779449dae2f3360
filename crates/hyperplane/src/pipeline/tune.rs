//! Choosing parameters: grid search over stratified folds or a validation split.

use crate::data::split::{self, KFold, StratifiedKFold};
use crate::data::{labels, LabelledInput};
use crate::error::Result;
use crate::select::{grid_search, GridSearchResult, ParamGrid};

use super::PipelineSpec;

/// How tuning scores each setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Validation {
    /// Stratified k-fold cross-validation.
    KFold(usize),
    /// One stratified split holding this fraction of the rows for validation.
    Holdout(f64),
}

impl std::fmt::Display for Validation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Validation::KFold(k) => write!(f, "{k}-fold cross-validation"),
            Validation::Holdout(v) => write!(f, "{:.0}% validation split", v * 100.0),
        }
    }
}

/// The result of [`PipelineSpec::tune`].
#[derive(Clone, Debug)]
pub struct Tuning {
    /// Scores (accuracy) of every setting on every fold.
    pub result: GridSearchResult,
}

impl Tuning {
    /// The best setting (first on ties).
    pub fn best_params(&self) -> &[(String, String)] {
        &self.result.best().params
    }

    /// `base` with the best setting applied.
    pub fn best_spec(&self, base: &PipelineSpec) -> Result<PipelineSpec> {
        base.with_params(self.best_params())
    }
}

impl PipelineSpec {
    /// A copy with the given parameters set.
    pub fn with_params(&self, params: &[(String, String)]) -> Result<PipelineSpec> {
        let mut spec = self.clone();
        for (n, v) in params {
            spec.set_param(n, v)?;
        }
        Ok(spec)
    }

    /// Scores every setting of `grid` by accuracy (R^2 for a regressor, whose folds are
    /// not stratified) under `validation`; every fold refits
    /// the whole pipeline (vectorizer included) on its training rows only.
    pub fn tune(
        &self,
        data: &LabelledInput,
        grid: &ParamGrid,
        validation: Validation,
        seed: u64,
    ) -> Result<Tuning> {
        let labels = data.require_labels("tuning needs them")?;
        let (_, codes) = labels::encode(labels);
        let strata = (!self.is_regressor()).then_some(codes.as_slice());
        let folds = match (validation, strata) {
            (Validation::KFold(k), Some(codes)) => StratifiedKFold { k, seed }.folds(codes)?,
            (Validation::KFold(k), None) => KFold {
                k,
                shuffle: true,
                seed,
            }
            .folds(codes.len())?,
            (Validation::Holdout(f), _) => {
                vec![split::train_test_split(codes.len(), f, strata, seed)?]
            }
        };
        // Validate every setting before any fitting, so a typo fails fast.
        let candidates = grid.candidates();
        for candidate in &candidates {
            self.with_params(candidate)?.check()?;
        }
        let result = grid_search(&candidates, &folds, |params, train, test| {
            let fitted = self.with_params(params)?.fit(&data.select_rows(train))?;
            fitted.score(&data.select_rows(test))
        })?;
        Ok(Tuning { result })
    }
}
