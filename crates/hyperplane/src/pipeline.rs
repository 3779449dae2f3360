//! Pipelines: raw input -> features -> model, fitted and saved as one.
//!
//! A [`PipelineSpec`] names a model kind and its parameters; fitting it on a reader's
//! [`LabelledInput`] fits, on the training rows only, the input stage (a text vectorizer
//! for documents, a tabular encoder for CSV tables, nothing for LIBSVM matrices), any
//! transforms (discretizer, scaler) and the model. The fitted [`Pipeline`] keeps all of
//! them with the class names, so a saved model predicts on raw input.
//!
//! Defaults chosen per input and model kind:
//!
//! | input | model | features |
//! |---|---|---|
//! | text | every kind | token presence (0/1); `binary=false` for counts |
//! | table | categorical-nb | categories as indices; numeric columns binned (`n_bins`, default 10) |
//! | table | others | numeric columns as they are, categorical columns one-hot |
//! | matrix | categorical-nb | columns that are not non-negative integers binned |
//! | matrix | others | as read |
//!
//! Parameters are routed by name: the model's own (`alpha`, `priors`...), then the
//! vectorizer's (`binary`, `min_df`, `ngram_max`...), then the pipeline's:
//! `vectorizer=count|tfidf|hashing`, `n_bins` / `bin_strategy` of the discretizer and
//! `scale=standard|minmax|none`.

use std::path::Path;

use ndarray::Array2;
use serde::{Deserialize, Serialize};

use crate::bayes::{NaiveBayes, NaiveBayesModel};
use crate::data::csv;
use crate::data::read::{self, Format, LabelColumn, ReadOptions};
use crate::data::split::{self, StratifiedKFold};
use crate::data::{labels, Dataset, Features, Label, LabelledInput, RawInput};
use crate::error::{Error, Result};
use crate::estimator::{Classifier, Fit, Params};
use crate::metrics::{self, ClassificationReport, CostMatrix};
use crate::persist;
use crate::select::{grid_search, GridSearchResult, ParamGrid};
use crate::text::{DocumentFiles, Documents, FittedVectorizer, HashingVectorizer, Vectorizer};
use crate::transform::{
    CategoricalEncoding, FittedTabularEncoder, FittedTransform, KBinsDiscretizer, TabularEncoder,
    Transform,
};

/// Every model kind the pipeline can train.
pub fn kinds() -> Vec<&'static str> {
    NaiveBayes::kind_names().to_vec()
}

/// The params of a learner of any family.
#[derive(Clone, Debug)]
pub enum Learner {
    NaiveBayes(NaiveBayes),
}

impl Learner {
    /// The default params of a model kind.
    pub fn from_kind(kind: &str) -> Result<Self> {
        if NaiveBayes::kind_names().contains(&kind) {
            return Ok(Learner::NaiveBayes(NaiveBayes::from_kind(kind)?));
        }
        Err(Error::param(
            "model",
            kind,
            format!("unknown model kind; choose one of {}", kinds().join(", ")),
        ))
    }

    fn params(&mut self) -> &mut dyn Params {
        match self {
            Learner::NaiveBayes(p) => p,
        }
    }

    fn param_values(&self) -> Vec<(String, String)> {
        match self {
            Learner::NaiveBayes(p) => p.param_values(),
        }
    }

    /// Fits the learner on a data set.
    pub fn fit(&self, data: &Dataset) -> Result<Model> {
        match self {
            Learner::NaiveBayes(p) => Ok(Model::NaiveBayes(p.fit(data)?)),
        }
    }
}

/// A fitted model of any family.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Model {
    NaiveBayes(NaiveBayesModel),
}

impl Model {
    fn classifier(&self) -> &dyn Classifier {
        match self {
            Model::NaiveBayes(m) => m,
        }
    }

    /// The `k` most indicative features of each class, as (feature index, score).
    pub fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        match self {
            Model::NaiveBayes(m) => m.top_features(k),
        }
    }

    /// What the scores of [`Model::top_features`] mean.
    pub fn top_feature_score(&self) -> &'static str {
        match self {
            Model::NaiveBayes(m) => m.top_feature_score(),
        }
    }

    /// Class prior probabilities, when the model has them.
    pub fn class_priors(&self) -> Option<Vec<f64>> {
        match self {
            Model::NaiveBayes(m) => Some(m.class_log_prior().iter().map(|v| v.exp()).collect()),
        }
    }
}

impl Classifier for Model {
    fn classes(&self) -> &[Label] {
        self.classifier().classes()
    }
    fn n_features(&self) -> usize {
        self.classifier().n_features()
    }
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        self.classifier().decision_function(x)
    }
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>> {
        self.classifier().predict_log_proba(x)
    }
    fn predict_index(&self, x: &Features) -> Result<Vec<usize>> {
        self.classifier().predict_index(x)
    }
}

/// How to turn a scaler name into a transform.
fn scaler(name: &str) -> Result<Option<Transform>> {
    match name {
        "none" => Ok(None),
        "standard" | "minmax" => Ok(Some(Transform::from_name(name)?)),
        _ => Err(Error::param(
            "scale",
            name,
            "choose one of standard, minmax, none",
        )),
    }
}

/// A model kind with its parameters, ready to fit on raw input.
#[derive(Clone, Debug)]
pub struct PipelineSpec {
    kind: String,
    learner: Learner,
    vectorizer: Vectorizer,
    discretizer: KBinsDiscretizer,
    scale: String,
    /// Vectorizer settings the user made, re-applied when the vectorizer kind changes.
    vectorizer_settings: Vec<(String, String)>,
}

const PIPELINE_PARAMS: &[&str] = &["vectorizer", "n_bins", "bin_strategy", "scale"];

/// The text vectorizer of a kind (`count`, `tfidf`, `hashing`), with the pipeline default
/// of token presence rather than counts: on e-mail it is clearly more accurate for every
/// Naive Bayes kind (BENCHMARKS.md); `binary=false` restores counts.
fn vectorizer(kind: &str) -> Result<Vectorizer> {
    let mut v = match kind {
        "count" => Vectorizer::default(),
        "tfidf" => Vectorizer::tfidf(),
        "hashing" => Vectorizer::Hashing(HashingVectorizer::default()),
        _ => {
            return Err(Error::param(
                "vectorizer",
                kind,
                "choose one of count, tfidf, hashing",
            ))
        }
    };
    if kind != "tfidf" {
        v.set_param("binary", "true")?;
    }
    Ok(v)
}

impl PipelineSpec {
    /// The default pipeline for a model kind (see the module table).
    pub fn new(kind: &str) -> Result<Self> {
        let learner = Learner::from_kind(kind)?;
        Ok(PipelineSpec {
            kind: kind.to_string(),
            learner,
            vectorizer: vectorizer("count")?,
            discretizer: KBinsDiscretizer::default(),
            scale: "none".into(),
            vectorizer_settings: Vec::new(),
        })
    }

    /// The model kind.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// Sets a parameter of the model, the vectorizer or the pipeline, by name.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<()> {
        let in_learner = self.learner.param_values().iter().any(|(n, _)| n == name);
        let in_vectorizer = self
            .vectorizer
            .param_values()
            .iter()
            .any(|(n, _)| n == name);
        if in_learner {
            self.learner.params().set_param(name, value)?;
        } else if in_vectorizer {
            self.vectorizer.set_param(name, value)?;
            self.vectorizer_settings
                .push((name.to_string(), value.to_string()));
        } else {
            match name {
                "vectorizer" => {
                    let mut v = vectorizer(value)?;
                    for (n, val) in &self.vectorizer_settings {
                        v.set_param(n, val)?;
                    }
                    self.vectorizer = v;
                }
                "n_bins" => self.discretizer.set_param("n_bins", value)?,
                "bin_strategy" => self.discretizer.set_param("strategy", value)?,
                "scale" => {
                    scaler(value)?;
                    self.scale = value.to_string();
                }
                _ => {
                    let mut valid: Vec<String> = self.param_names();
                    valid.sort();
                    return Err(Error::param(
                        name,
                        value,
                        format!(
                            "no such parameter for {}; valid names: {}",
                            self.kind,
                            valid.join(", ")
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn param_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .learner
            .param_values()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        names.extend(self.vectorizer.param_values().into_iter().map(|(n, _)| n));
        names.extend(PIPELINE_PARAMS.iter().map(|s| s.to_string()));
        names
    }

    /// The model's parameters with their values.
    pub fn param_values(&self) -> Vec<(String, String)> {
        self.learner.param_values()
    }

    /// Fits on every row of `data` (which must be labelled).
    pub fn fit(&self, data: &LabelledInput) -> Result<Pipeline> {
        let labels = data.labels.as_ref().ok_or_else(|| {
            Error::data(format!(
                "{} has no labels; training needs one label per row (see --label-col)",
                data.source.display()
            ))
        })?;
        if data.input.n_rows() == 0 {
            return Err(Error::data(format!(
                "{} has no rows",
                data.source.display()
            )));
        }
        let (input, x) = self.fit_input(&data.input)?;
        let (transforms, x) = self.fit_transforms(&input, x)?;
        let dataset = Dataset::new(x, labels)?;
        let model = self.learner.fit(&dataset)?;
        let mut preprocessing = Vec::new();
        if let InputStage::Text(_) = input {
            preprocessing.push(("vectorizer".to_string(), self.vectorizer.kind().to_string()));
            preprocessing.extend(self.vectorizer.param_values());
        }
        if transforms
            .iter()
            .any(|t| matches!(t, FittedTransform::Discretize(_)))
        {
            // Which columns are binned is shown by the fitted transform itself.
            preprocessing.extend(
                self.discretizer
                    .param_values()
                    .into_iter()
                    .filter(|(n, _)| n != "columns"),
            );
        }
        if self.scale != "none" {
            preprocessing.push(("scale".into(), self.scale.clone()));
        }
        Ok(Pipeline {
            kind: self.kind.clone(),
            params: self.learner.param_values(),
            preprocessing,
            input,
            transforms,
            model,
            n_train: dataset.n_samples(),
        })
    }

    /// The text input stage: documents in memory or files are fitted alike.
    fn fit_text<S: Documents + ?Sized>(&self, docs: &S) -> Result<(InputStage, Features)> {
        let (v, x) = self.vectorizer.fit_transform(docs)?;
        Ok((InputStage::Text(Box::new(v)), Features::Sparse(x)))
    }

    fn fit_input(&self, raw: &RawInput) -> Result<(InputStage, Features)> {
        match raw {
            RawInput::Text(docs) => self.fit_text(docs.as_slice()),
            RawInput::Files(files) => self.fit_text(&DocumentFiles(files)),
            RawInput::Table(table) => {
                let encoding = if self.kind == "categorical-nb" {
                    CategoricalEncoding::Ordinal
                } else {
                    CategoricalEncoding::OneHot
                };
                let enc = TabularEncoder {
                    categorical: encoding,
                }
                .fit(table)?;
                let x = enc.transform(table)?;
                Ok((InputStage::Table(enc), x))
            }
            RawInput::Matrix(x) => Ok((
                InputStage::Matrix {
                    n_features: x.n_cols(),
                },
                x.clone(),
            )),
        }
    }

    fn fit_transforms(
        &self,
        input: &InputStage,
        mut x: Features,
    ) -> Result<(Vec<FittedTransform>, Features)> {
        let mut specs = Vec::new();
        if self.kind == "categorical-nb" {
            let columns = match input {
                InputStage::Table(enc) => enc.numeric_features(),
                InputStage::Matrix { .. } => non_integer_columns(&x),
                InputStage::Text(_) => Vec::new(),
            };
            if !columns.is_empty() {
                let mut d = self.discretizer.clone();
                d.columns = Some(columns);
                specs.push(Transform::Discretize(d));
            }
        }
        if let Some(s) = scaler(&self.scale)? {
            specs.push(s);
        }
        let mut fitted = Vec::new();
        for spec in specs {
            let t = spec.fit(&x)?;
            x = t.transform(&x)?;
            fitted.push(t);
        }
        Ok((fitted, x))
    }
}

/// Columns holding a value that is not a non-negative integer (so not already categories).
fn non_integer_columns(x: &Features) -> Vec<usize> {
    let mut continuous = vec![false; x.n_cols()];
    for i in 0..x.n_rows() {
        crate::with_rows!(x, |m| crate::data::RowAccess::for_each_in_row(
            m,
            i,
            |j, v| {
                if v < 0.0 || v.fract() != 0.0 {
                    continuous[j] = true;
                }
            }
        ));
    }
    continuous
        .iter()
        .enumerate()
        .filter(|(_, &c)| c)
        .map(|(j, _)| j)
        .collect()
}

/// One line describing a fitted transform, for `inspect`.
fn describe_transform(t: &FittedTransform) -> String {
    match t {
        FittedTransform::Discretize(d) => {
            let binned: Vec<String> = d
                .n_bins()
                .iter()
                .enumerate()
                .filter_map(|(j, b)| b.map(|b| format!("{j}:{b}")))
                .collect();
            format!(
                "k-bins discretizer, bins per feature (index:bins) {}",
                binned.join(" ")
            )
        }
        FittedTransform::StandardScale(_) => "standard scaler (x - mean) / std".to_string(),
        FittedTransform::MinMaxScale(_) => "min-max scaler to a fixed range".to_string(),
    }
}

/// The fitted first stage: what turns raw samples into features.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum InputStage {
    /// Documents through a fitted vectorizer.
    Text(Box<FittedVectorizer>),
    /// CSV tables through a fitted encoder.
    Table(FittedTabularEncoder),
    /// LIBSVM matrices used as they are.
    Matrix { n_features: usize },
}

impl InputStage {
    fn describe(&self) -> &'static str {
        match self {
            InputStage::Text(_) => "text documents (tsv or a folder of files)",
            InputStage::Table(_) => "a CSV table",
            InputStage::Matrix { .. } => "a LIBSVM matrix",
        }
    }
}

fn describe_raw(raw: &RawInput) -> &'static str {
    match raw {
        RawInput::Text(_) | RawInput::Files(_) => "text documents",
        RawInput::Table(_) => "a CSV table",
        RawInput::Matrix(_) => "a LIBSVM matrix",
    }
}

/// A fitted pipeline: input stage, transforms, model and class names. This is what a
/// model file holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pipeline {
    kind: String,
    params: Vec<(String, String)>,
    /// Settings of the input stage and transforms (vectorizer, binning, scaling).
    preprocessing: Vec<(String, String)>,
    input: InputStage,
    transforms: Vec<FittedTransform>,
    model: Model,
    n_train: usize,
}

impl Pipeline {
    /// The model kind, as given to [`PipelineSpec::new`].
    pub fn kind(&self) -> &str {
        &self.kind
    }
    /// The model parameters it was fitted with.
    pub fn params(&self) -> &[(String, String)] {
        &self.params
    }
    /// The settings of its input stage and transforms.
    pub fn preprocessing(&self) -> &[(String, String)] {
        &self.preprocessing
    }
    /// The fitted model.
    pub fn model(&self) -> &Model {
        &self.model
    }
    /// The fitted input stage.
    pub fn input_stage(&self) -> &InputStage {
        &self.input
    }
    /// The fitted transforms, in order.
    pub fn transforms(&self) -> &[FittedTransform] {
        &self.transforms
    }
    /// The classes, sorted.
    pub fn classes(&self) -> &[Label] {
        self.model.classes()
    }
    /// Number of training rows.
    pub fn n_train(&self) -> usize {
        self.n_train
    }

    /// Raw samples -> the model's features.
    pub fn features(&self, raw: &RawInput) -> Result<Features> {
        self.features_from(raw, Path::new(""))
    }

    /// Raw samples read from `source` -> the model's features; errors name `source`.
    fn features_from(&self, raw: &RawInput, source: &Path) -> Result<Features> {
        let mismatch = || {
            Error::data(format!(
                "this model was trained on {} but the input is {}",
                self.input.describe(),
                describe_raw(raw)
            ))
        };
        let mut x = match (&self.input, raw) {
            (InputStage::Text(v), RawInput::Text(docs)) => {
                Features::Sparse(v.transform(docs.as_slice())?)
            }
            (InputStage::Text(v), RawInput::Files(files)) => {
                Features::Sparse(v.transform(&DocumentFiles(files))?)
            }
            (InputStage::Table(enc), RawInput::Table(t)) => enc.transform_source(t, source)?,
            (InputStage::Matrix { .. }, RawInput::Matrix(m)) => m.clone(),
            _ => return Err(mismatch()),
        };
        for t in &self.transforms {
            x = t.transform(&x)?;
        }
        Ok(x)
    }

    /// The predicted label of each sample.
    pub fn predict(&self, raw: &RawInput) -> Result<Vec<Label>> {
        self.model.predict(&self.features(raw)?)
    }

    /// Class probabilities, one row per sample, columns in [`Pipeline::classes`] order.
    pub fn predict_proba(&self, raw: &RawInput) -> Result<Array2<f64>> {
        self.model.predict_proba(&self.features(raw)?)
    }

    /// Names of the model's input features (vocabulary, encoded columns, or `x1, x2...`).
    pub fn feature_names(&self) -> Vec<String> {
        match &self.input {
            InputStage::Text(v) => match v.feature_names() {
                Some(names) => names.to_vec(),
                None => (0..v.n_features()).map(|j| format!("hash{j}")).collect(),
            },
            InputStage::Table(enc) => enc.feature_names(),
            InputStage::Matrix { n_features } => {
                (1..=*n_features).map(|j| format!("x{j}")).collect()
            }
        }
    }

    /// The `k` most indicative features of each class, by name.
    pub fn top_features(&self, k: usize) -> Vec<(Label, Vec<(String, f64)>)> {
        let names = self.feature_names();
        let name = |j: usize| {
            names
                .get(j)
                .cloned()
                .unwrap_or_else(|| format!("feature{j}"))
        };
        self.model
            .top_features(k)
            .into_iter()
            .zip(self.classes())
            .map(|(top, c)| {
                (
                    c.clone(),
                    top.into_iter().map(|(j, s)| (name(j), s)).collect(),
                )
            })
            .collect()
    }

    /// Writes the pipeline to a model file, atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        persist::save(path, &self.kind, self)
    }

    /// Reads a model file written by [`Pipeline::save`].
    pub fn load(path: &Path) -> Result<Pipeline> {
        Ok(persist::load::<Pipeline>(path)?.1)
    }
}

impl LabelledInput {
    /// The samples `rows` with their labels.
    pub fn select_rows(&self, rows: &[usize]) -> LabelledInput {
        LabelledInput {
            input: self.input.select_rows(rows),
            labels: self
                .labels
                .as_ref()
                .map(|l| rows.iter().map(|&i| l[i].clone()).collect()),
            source: self.source.clone(),
        }
    }
}

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
    /// Mean cross-entropy of the predicted probabilities.
    pub log_loss: f64,
    /// Area under the ROC curve of the second class's probability (binary problems only).
    pub roc_auc: Option<f64>,
    /// Mean cost under a cost matrix, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_weighted_error: Option<f64>,
}

impl Pipeline {
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
        let labels = data.labels.as_ref().ok_or_else(|| {
            Error::data(format!(
                "{} has no labels; evaluation needs the true label of every row (see --label-col)",
                data.source.display()
            ))
        })?;
        let classes = self.classes();
        let y_true = labels::encode_with(classes, labels)?;
        let proba = self
            .model
            .predict_proba(&self.features_from(&data.input, &data.source)?)?;
        let y_pred: Vec<usize> = proba
            .rows()
            .into_iter()
            .map(|r| crate::numeric::argmax(&r.to_vec()))
            .collect();
        let report = ClassificationReport::from_labels(&y_true, &y_pred, classes)?;
        let roc_auc = if classes.len() == 2 && y_true.contains(&0) && y_true.contains(&1) {
            let positive: Vec<bool> = y_true.iter().map(|&t| t == 1).collect();
            Some(metrics::roc_auc(&positive, &proba.column(1).to_vec())?)
        } else {
            None
        };
        Ok(Evaluation {
            n_samples: y_true.len(),
            accuracy: report.accuracy,
            classes: classes.to_vec(),
            confusion_matrix: report.confusion_matrix.counts.clone(),
            log_loss: metrics::log_loss(&y_true, proba.view(), None)?,
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
            Validation::KFold(k) => write!(f, "stratified {k}-fold cross-validation"),
            Validation::Holdout(v) => write!(f, "stratified {:.0}% validation split", v * 100.0),
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

    /// Scores every setting of `grid` by accuracy under `validation`; every fold refits
    /// the whole pipeline (vectorizer included) on its training rows only.
    pub fn tune(
        &self,
        data: &LabelledInput,
        grid: &ParamGrid,
        validation: Validation,
        seed: u64,
    ) -> Result<Tuning> {
        let labels = data.labels.as_ref().ok_or_else(|| {
            Error::data(format!(
                "{} has no labels; tuning needs them",
                data.source.display()
            ))
        })?;
        let (_, codes) = labels::encode(labels);
        let folds = match validation {
            Validation::KFold(k) => StratifiedKFold { k, seed }.folds(&codes)?,
            Validation::Holdout(f) => {
                vec![split::train_test_split(codes.len(), f, Some(&codes), seed)?]
            }
        };
        // Validate every setting before any fitting, so a typo fails fast.
        let candidates = grid.candidates();
        for candidate in &candidates {
            self.with_params(candidate)?;
        }
        let result = grid_search(&candidates, &folds, |params, train, test| {
            let fitted = self.with_params(params)?.fit(&data.select_rows(train))?;
            Ok(fitted.evaluate(&data.select_rows(test))?.accuracy)
        })?;
        Ok(Tuning { result })
    }
}

/// What `inspect` shows about a fitted pipeline.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub kind: String,
    pub params: Vec<(String, String)>,
    pub preprocessing: Vec<(String, String)>,
    /// The input the pipeline takes.
    pub input: String,
    /// Features the model sees (after the input stage and transforms).
    pub n_features: usize,
    /// Size of the learned vocabulary (text input with a vocabulary).
    pub vocabulary_size: Option<usize>,
    pub n_train: usize,
    /// The fitted transforms, described.
    pub transforms: Vec<String>,
    /// CSV categorical columns with their categories.
    pub categorical_columns: Vec<(String, Vec<String>)>,
    pub classes: Vec<Label>,
    pub priors: Option<Vec<f64>>,
    /// The most indicative features of each class, with their scores.
    pub top_features: Vec<(Label, Vec<(String, f64)>)>,
    /// What the top-feature score means.
    pub top_feature_score: String,
}

impl Pipeline {
    /// Number of features the model itself takes.
    pub fn model_n_features(&self) -> usize {
        self.model.n_features()
    }

    /// Everything `inspect` shows, with the `top` most indicative features per class.
    pub fn summary(&self, top: usize) -> Summary {
        let (vocabulary_size, categorical_columns) = match &self.input {
            InputStage::Text(v) => (v.feature_names().map(<[String]>::len), Vec::new()),
            InputStage::Table(enc) => (
                None,
                enc.categorical_columns()
                    .into_iter()
                    .map(|(c, cats)| (c.to_string(), cats.to_vec()))
                    .collect(),
            ),
            InputStage::Matrix { .. } => (None, Vec::new()),
        };
        Summary {
            kind: self.kind.clone(),
            params: self.params.clone(),
            preprocessing: self.preprocessing.clone(),
            input: self.input.describe().to_string(),
            n_features: self.model.n_features(),
            vocabulary_size,
            n_train: self.n_train,
            transforms: self.transforms.iter().map(describe_transform).collect(),
            categorical_columns,
            classes: self.classes().to_vec(),
            priors: self.model.class_priors(),
            top_features: self.top_features(top),
            top_feature_score: self.model.top_feature_score().to_string(),
        }
    }

    /// Reads `path` as input for this pipeline. Unless the caller named the label column,
    /// a CSV file is checked against the fitted columns: one extra column is taken as the
    /// label (by its header name, or the last column without a header), none means the
    /// file is unlabelled. LIBSVM and text files say themselves whether they have labels.
    pub fn read_input(
        &self,
        path: &Path,
        opts: &ReadOptions,
        label_given: bool,
    ) -> Result<LabelledInput> {
        let mut opts = opts.clone();
        let format = match opts.format {
            Some(f) => f,
            None => read::guess_format(path)?,
        };
        opts.format = Some(format);
        if let (InputStage::Table(enc), Format::Csv, false) = (&self.input, format, label_given) {
            let shape = csv::sniff(path, &opts)?;
            let fitted = enc.column_names();
            opts.label = if shape.names.len() == fitted.len() {
                LabelColumn::None
            } else if shape.names.len() == fitted.len() + 1 && shape.has_header {
                let extra: Vec<&String> = shape
                    .names
                    .iter()
                    .filter(|n| !fitted.contains(&n.as_str()))
                    .collect();
                match extra[..] {
                    [one] => LabelColumn::Name(one.clone()),
                    _ => LabelColumn::Last,
                }
            } else {
                LabelColumn::Last
            };
        }
        read::read(path, &opts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::text_files::read_dir;

    #[test]
    fn a_folder_of_files_fits_and_predicts_as_its_text() {
        let dir = tempfile::tempdir().unwrap();
        let docs = [
            ("ham", "a", "meeting at noon"),
            ("ham", "b", "lunch at noon then the meeting"),
            ("spam", "c", "win money now"),
            ("spam", "d", "free money, win \u{ff} now"),
        ];
        for (class, name, text) in docs {
            std::fs::create_dir_all(dir.path().join(class)).unwrap();
            std::fs::write(dir.path().join(class).join(name), text).unwrap();
        }
        let files = read_dir(dir.path()).unwrap();
        assert!(matches!(files.input, RawInput::Files(_)));
        let text = LabelledInput {
            input: RawInput::Text(docs.iter().map(|d| d.2.to_string()).collect()),
            ..files.clone()
        };
        let spec = PipelineSpec::new("multinomial-nb").unwrap();
        let (a, b) = (spec.fit(&files).unwrap(), spec.fit(&text).unwrap());
        let x = a.features(&files.input).unwrap();
        assert_eq!(x, b.features(&text.input).unwrap());
        assert_eq!(x, b.features(&files.input).unwrap());
        assert_eq!(
            a.predict(&text.input).unwrap(),
            b.predict(&files.input).unwrap()
        );
        let rows = files.input.select_rows(&[3, 0]);
        assert_eq!(rows.n_rows(), 2);
        assert_eq!(
            a.predict(&rows).unwrap(),
            vec![Label::from("spam"), Label::from("ham")]
        );
    }
}
