//! Scoring a fitted pipeline on labelled data.

use crate::data::{labels, Dataset, Features, Label, LabelledInput};
use crate::error::{Error, Result};
use crate::estimator::{Classifier, Task};
use crate::metrics::{self, ClassificationReport, CostMatrix, RegressionReport};
use ndarray::Array2;
use serde::Serialize;

use super::Pipeline;

/// How a pipeline is scored on labelled data.
#[derive(Clone, Debug, Serialize)]
pub struct Evaluation {
    /// Number of scored rows.
    pub n_samples: usize,
    /// Fraction of rows predicted correctly.
    pub accuracy: f64,
    /// The model's classes, in the order of the confusion matrix rows and columns.
    pub classes: Vec<Label>,
    /// `confusion_matrix[t][p]`: rows of true class `t` predicted as `p`.
    pub confusion_matrix: Vec<Vec<u64>>,
    /// Per-class precision / recall / F1 and their averages.
    pub report: ClassificationReport,
    /// Mean cross-entropy of the predicted probabilities (models that give probabilities).
    pub log_loss: Option<f64>,
    /// Area under the ROC curve of the second class's probability, or of its score for
    /// models without probabilities (binary problems only).
    pub roc_auc: Option<f64>,
    /// Mean cost under a cost matrix, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_weighted_error: Option<f64>,
}

/// How a regression pipeline is scored on data with real-valued targets.
#[derive(Clone, Debug, Serialize)]
pub struct RegressionEvaluation {
    /// Number of scored rows.
    pub n_samples: usize,
    /// MSE, MAE and R^2 (of the first output).
    #[serde(flatten)]
    pub report: RegressionReport,
}

/// How well a pipeline fits the rows it was trained on
/// ([`PipelineSpec::fit_scored`](super::PipelineSpec::fit_scored)).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrainingScore {
    /// A classifier's accuracy on its training rows: [`Evaluation::accuracy`].
    Accuracy(f64),
    /// A regressor's `R^2` on its training rows: [`RegressionEvaluation`]'s `r2`.
    R2(f64),
    /// A novelty detector's share of training rows predicted inside its boundary (`1`);
    /// the labels are not used.
    InlierFraction(f64),
}

/// Rows scored at a time for a training score.
const SCORE_ROWS: usize = 1 << 12;

/// A non-finite value error of a block of rows, its row moved down by the `from` rows before.
fn below_rows(mut e: Error, from: usize) -> Error {
    if let Error::NonFinite { row, .. } = &mut e {
        *row += from;
    }
    e
}

impl Pipeline {
    /// How well the model fits `train`, the dataset it was fitted on: scored on `train`'s
    /// features and targets, so no document is read or tokenized again. The same
    /// number as [`Pipeline::evaluate`] (or [`Pipeline::evaluate_regression`]) on the raw
    /// training input, since the fitted input stage maps it to exactly these features.
    pub(super) fn training_score(&self, task: Task, train: &Dataset) -> Result<TrainingScore> {
        let x = train.x();
        Ok(match task {
            Task::Regressor => {
                let p = self.model.predict_values(x)?;
                Features::from(p.view()).check_finite("predictions")?;
                let y = train.require_values()?;
                TrainingScore::R2(
                    RegressionReport::new(&y.column(0).to_vec(), &p.column(0).to_vec(), None)?.r2,
                )
            }
            Task::Novelty => {
                let predicted = self.model.predict(x)?;
                let inside = predicted.iter().filter(|l| **l == Label::Int(1)).count();
                TrainingScore::InlierFraction(inside as f64 / predicted.len().max(1) as f64)
            }
            Task::Classifier => {
                // the model's classes are the dataset's: its targets index them; scored by
                // blocks of rows, so no score matrix of every row is held beside the data
                // (sparse blocks are copies: at most a sixteenth of the entries each)
                let (n, mut right) = (x.n_rows(), 0);
                let block_rows = if x.is_sparse() {
                    let per_row = x.nnz().div_ceil(n.max(1)).max(1);
                    ((x.nnz() / 16).max(1 << 16) / per_row).clamp(64, SCORE_ROWS)
                } else {
                    SCORE_ROWS
                };
                for from in (0..n).step_by(block_rows) {
                    let block = x.row_range(from..n.min(from + block_rows));
                    // the predictions alone (no ROC AUC or log loss); scores that overflowed
                    // would still pick a class, so they are checked
                    let (scores, _, y_pred) = self.scored_predictions(&block)?;
                    Features::from(scores.view())
                        .check_finite("scores")
                        .map_err(|e| below_rows(e, from))?;
                    right += y_pred
                        .iter()
                        .zip(&train.targets()[from..])
                        .filter(|(p, t)| p == t)
                        .count();
                }
                TrainingScore::Accuracy(right as f64 / x.n_rows().max(1) as f64)
            }
        })
    }

    /// Scores a regressor: MSE, MAE and R^2 of its predictions against the targets read.
    pub fn evaluate_regression(&self, data: &LabelledInput) -> Result<RegressionEvaluation> {
        self.with_threads(|| self.evaluate_regression_here(data))
    }

    fn evaluate_regression_here(&self, data: &LabelledInput) -> Result<RegressionEvaluation> {
        let labels = data.require_labels("evaluation needs the true target of every row")?;
        let y = super::spec::regression_targets(&labels.into())?;
        let x = self.features_from(&data.input, &data.source)?;
        self.regression_of(&x, &y)
    }

    /// The regression scores of the model's predictions on features `x` against `y`.
    fn regression_of(&self, x: &Features, y: &Array2<f64>) -> Result<RegressionEvaluation> {
        let p = self.model.predict_values(x)?;
        let (y, p) = (y.column(0).to_vec(), p.column(0).to_vec());
        Ok(RegressionEvaluation {
            n_samples: y.len(),
            report: RegressionReport::new(&y, &p, None)?,
        })
    }

    /// One number to maximise: accuracy for a classifier, R^2 for a regressor.
    pub fn score(&self, data: &LabelledInput) -> Result<f64> {
        if self.is_regressor() {
            Ok(self.evaluate_regression(data)?.report.r2)
        } else {
            Ok(self.evaluate(data)?.accuracy)
        }
    }

    /// Scores the pipeline on labelled data; a label the model never saw is an error naming
    /// its row.
    pub fn evaluate(&self, data: &LabelledInput) -> Result<Evaluation> {
        self.evaluate_with_costs(data, None)
    }

    /// [`Pipeline::evaluate`], plus the mean cost of the predictions under `costs`
    /// (`cost(t, p)` for true class `t` predicted as `p`, classes in [`Pipeline::classes`]
    /// order): the courses' weighted classification error.
    pub fn evaluate_with_costs(
        &self,
        data: &LabelledInput,
        costs: Option<&CostMatrix>,
    ) -> Result<Evaluation> {
        self.with_threads(|| self.evaluate_here(data, costs))
    }

    fn evaluate_here(
        &self,
        data: &LabelledInput,
        costs: Option<&CostMatrix>,
    ) -> Result<Evaluation> {
        if self.is_regressor() {
            return Err(Error::Unsupported {
                model: self.kind().to_string(),
                what: "classification metrics (it is a regressor: use evaluate_regression)".into(),
            });
        }
        let labels = data.require_labels("evaluation needs the true label of every row")?;
        let y_true = labels::encode_with(self.classes(), labels)?;
        let x = self.features_from(&data.input, &data.source)?;
        self.classification_of(&x, y_true, costs)
    }

    /// The classification scores of the model's predictions on features `x` against the
    /// true classes `y_true` (indices into [`Pipeline::classes`]).
    /// The class scores of every row of `x` (probabilities when the model has them, and
    /// then `true`; otherwise its decision values, which rank the rows) and the classes
    /// `predict` gives: the largest score where that is the prediction, else `predict`
    /// again (a kernel SVM's vote, which its Platt probabilities or its scores may break
    /// otherwise on a tie).
    fn scored_predictions(&self, x: &Features) -> Result<(Array2<f64>, bool, Vec<usize>)> {
        let (scores, is_proba) = match self.model.predict_proba(x) {
            Ok(p) => (p, true),
            Err(Error::Unsupported { .. }) => (self.model.decision_function(x)?, false),
            Err(e) => return Err(e),
        };
        let reuse = match is_proba {
            true => self.model.predicts_most_probable(),
            false => self.model.predicts_largest_score(),
        };
        let y_pred: Vec<usize> = if !reuse {
            self.model.predict_index(x)?
        } else {
            scores
                .rows()
                .into_iter()
                .map(|r| crate::numeric::argmax(&r.to_vec()))
                .collect()
        };
        Ok((scores, is_proba, y_pred))
    }

    fn classification_of(
        &self,
        x: &Features,
        y_true: Vec<usize>,
        costs: Option<&CostMatrix>,
    ) -> Result<Evaluation> {
        let classes = self.classes();
        let (scores, is_proba, y_pred) = self.scored_predictions(x)?;
        let proba = is_proba.then_some(&scores);
        let report = ClassificationReport::from_labels(&y_true, &y_pred, classes)?;
        let roc_auc = if classes.len() == 2 && y_true.contains(&0) && y_true.contains(&1) {
            let positive: Vec<bool> = y_true.iter().map(|&t| t == 1).collect();
            Some(metrics::roc_auc(&positive, &scores.column(1).to_vec())?)
        } else {
            None
        };
        Ok(Evaluation {
            n_samples: y_true.len(),
            accuracy: report.accuracy,
            classes: classes.to_vec(),
            confusion_matrix: report.confusion_matrix.counts.clone(),
            log_loss: proba
                .map(|p| metrics::log_loss(&y_true, p.view(), None))
                .transpose()?,
            roc_auc,
            cost_weighted_error: costs
                .map(|c| {
                    if c.n_classes() != classes.len() {
                        return Err(Error::param(
                            "costs",
                            format!("{} x {}", c.n_classes(), c.n_classes()),
                            format!(
                                "the model has {} classes {}; give one row and column per class in that order",
                                classes.len(),
                                labels::format_classes(classes)
                            ),
                        ));
                    }
                    metrics::cost_weighted_error(&y_true, &y_pred, c)
                })
                .transpose()?,
            report,
        })
    }
}
