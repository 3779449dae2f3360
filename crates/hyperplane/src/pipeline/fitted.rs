//! [`Pipeline`]: the fitted input stage, transforms and model; what a model file holds.

use crate::data::csv;
use crate::data::read::{self, Format, LabelColumn, ReadOptions};
use crate::data::{labels, Features, Label, LabelledInput, RawInput};
use crate::error::{Error, Result};
use crate::estimator::{Classifier, PlaStart};
use crate::linear::{margins, pla_check, Margins, PlaCheck};
use crate::param::Params;
use crate::persist;
use crate::score::LinearModel;
use crate::summary::ModelSummary;
use crate::text::{DocumentFiles, FittedVectorizer};
use crate::threads::Threads;
use crate::transform::{FittedTabularEncoder, FittedTransform};
use ndarray::Array2;
use serde::{Deserialize, Serialize};
use std::path::Path;

use super::Model;

/// One line describing a fitted transform, for `inspect`.
pub(super) fn describe_transform(t: &FittedTransform) -> String {
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
        FittedTransform::Poly(p) => format!(
            "polynomial features Phi_Q, {} -> {} features",
            p.n_features_in(),
            p.n_features_out()
        ),
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
    pub(super) fn describe(&self) -> &'static str {
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

/// A binary linear model inside a pipeline: its name (empty, or its class under
/// one-vs-all), the model and the class index of every row (1 is its +1 class).
type BinaryView<'a> = (String, &'a LinearModel, Vec<usize>);

/// A fitted pipeline: input stage, transforms, model and class names. This is what a
/// model file holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pipeline {
    pub(super) kind: String,
    pub(super) params: Vec<(String, String)>,
    /// Settings of the input stage and transforms (vectorizer, binning, scaling).
    pub(super) preprocessing: Vec<(String, String)>,
    pub(super) input: InputStage,
    pub(super) transforms: Vec<FittedTransform>,
    pub(super) model: Model,
    pub(super) n_train: usize,
    /// How a perceptron's walk started, for its PLA bound (perceptrons only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) pla_start: Option<PlaStart>,
    /// The threads predictions and evaluations use (not saved: a setting of the caller).
    #[serde(skip)]
    pub(super) threads: Threads,
}

impl Pipeline {
    /// The model kind, as given to [`PipelineSpec::new`](super::PipelineSpec::new).
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

    /// The threads [`Pipeline::predict`] and the other calls on raw input use: all cores
    /// (rayon's pool, or the caller's) by default, as fitted with `pipeline.threads`.
    /// Results are the same for any count.
    pub fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }

    /// Runs `f` with the pipeline's threads.
    pub(super) fn with_threads<R: Send>(&self, f: impl FnOnce() -> Result<R> + Send) -> Result<R> {
        self.threads.run(f)?
    }

    /// Raw samples -> the model's features.
    pub fn features(&self, raw: &RawInput) -> Result<Features<'static>> {
        self.with_threads(|| self.features_from(raw, Path::new("")))
    }

    /// Raw samples read from `source` -> the model's features; errors name `source`.
    pub(super) fn features_from(&self, raw: &RawInput, source: &Path) -> Result<Features<'static>> {
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
        if !self.transforms.is_empty() {
            x = super::spec::dense_for_transforms(&self.input, x)?;
        }
        for t in &self.transforms {
            x = t.transform(&x)?;
        }
        Ok(x)
    }

    /// The predicted label of each sample.
    pub fn predict(&self, raw: &RawInput) -> Result<Vec<Label>> {
        self.with_threads(|| self.model.predict(&self.features_from(raw, Path::new(""))?))
    }

    /// Whether the model predicts real numbers (linear-regression, ridge).
    pub fn is_regressor(&self) -> bool {
        self.model.regressor().is_some()
    }

    /// A regressor's predictions, one row per sample, one column per output.
    pub fn predict_values(&self, raw: &RawInput) -> Result<Array2<f64>> {
        self.with_threads(|| {
            self.model
                .predict_values(&self.features_from(raw, Path::new(""))?)
        })
    }

    /// Class probabilities, one row per sample, columns in [`Pipeline::classes`] order.
    pub fn predict_proba(&self, raw: &RawInput) -> Result<Array2<f64>> {
        self.with_threads(|| {
            self.model
                .predict_proba(&self.features_from(raw, Path::new(""))?)
        })
    }

    /// Names of the model's input features (vocabulary, encoded columns, or `x1, x2...`).
    pub fn feature_names(&self) -> Vec<String> {
        let listed = self.listed_feature_names();
        if !listed.is_empty() {
            return listed;
        }
        let width = match &self.input {
            InputStage::Text(v) => v.n_features(),
            InputStage::Table(_) => 0,
            InputStage::Matrix { n_features } => *n_features,
        };
        (0..width)
            .map_while(|j| self.generated_feature_name(j))
            .collect()
    }

    /// The feature names the input stage holds (a vocabulary, encoded columns); empty
    /// when they come from the index (hashed text, LIBSVM columns).
    fn listed_feature_names(&self) -> Vec<String> {
        match &self.input {
            InputStage::Text(v) => v
                .feature_names()
                .map(<[String]>::to_vec)
                .unwrap_or_default(),
            InputStage::Table(enc) => enc.feature_names(),
            InputStage::Matrix { .. } => Vec::new(),
        }
    }

    /// The name of feature `j` when it comes from the index: `hash{j}` for hashed text,
    /// `x{j + 1}` for a LIBSVM column; `None` otherwise or past the width.
    fn generated_feature_name(&self, j: usize) -> Option<String> {
        match &self.input {
            InputStage::Text(v) if v.feature_names().is_none() && j < v.n_features() => {
                Some(format!("hash{j}"))
            }
            InputStage::Matrix { n_features } if j < *n_features => Some(format!("x{}", j + 1)),
            _ => None,
        }
    }

    /// The `k` most indicative features of each class, by name. Only the named features
    /// are looked up: a width from a LIBSVM index or hashing can be millions of names.
    pub fn top_features(&self, k: usize) -> Vec<(Label, Vec<(String, f64)>)> {
        let names = if k > 0 {
            self.listed_feature_names()
        } else {
            Vec::new()
        };
        let name = |j: usize| {
            names
                .get(j)
                .cloned()
                .or_else(|| self.generated_feature_name(j))
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

    /// The bytes of the model file [`Pipeline::save`] writes, in memory.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        persist::to_bytes(&self.kind, self)
    }

    /// Reads the bytes of [`Pipeline::to_bytes`] (or of a model file); errors name them
    /// "model file `<in memory>`".
    pub fn from_bytes(bytes: &[u8]) -> Result<Pipeline> {
        Self::load_bytes(bytes, Path::new("<in memory>"))
    }

    /// Reads a model file written by [`Pipeline::save`].
    pub fn load(path: &Path) -> Result<Pipeline> {
        Self::load_bytes(&crate::data::file::read(path)?, path)
    }

    /// [`Pipeline::load`] of a model file's bytes held in memory; `path` names it in
    /// error messages.
    pub fn load_bytes(bytes: &[u8], path: &Path) -> Result<Pipeline> {
        let (info, mut pipeline) = persist::load_bytes::<Pipeline>(bytes, path)?;
        pipeline
            .validate(&info.model_kind)
            .map_err(|e| Error::ModelFile {
                path: path.to_path_buf(),
                reason: match e {
                    Error::InvalidData(m) => m,
                    e => e.to_string(),
                },
            })?;
        pipeline.model.1 = Some(super::kind_info(&pipeline.kind)?.name);
        Ok(pipeline)
    }

    /// Checks a pipeline read from a model file as a whole, before any use: its kind is
    /// the envelope's and its model is of that kind's family; the classes are non-empty and
    /// distinct (two at most for a binary kind without a reduction); the widths agree from
    /// the input stage through the transforms to the model; linear weights have one row per
    /// score and are finite.
    fn validate(&self, envelope_kind: &str) -> Result<()> {
        if self.kind != envelope_kind {
            return Err(Error::data(format!(
                "the envelope's model_kind is {envelope_kind:?} but the pipeline inside is {:?}",
                self.kind
            )));
        }
        let info = super::kind_info(&self.kind)?;
        self.model.check_kind(info)?;
        let mut width = match &self.input {
            InputStage::Text(v) => v.n_features(),
            InputStage::Table(e) => e.n_features_out(),
            InputStage::Matrix { n_features } => *n_features,
        };
        for (i, t) in self.transforms.iter().enumerate() {
            if t.n_features_in() != width {
                return Err(Error::data(format!(
                    "transform {} takes {} features but is given {width}",
                    i + 1,
                    t.n_features_in()
                )));
            }
            width = t.n_features_out();
        }
        if self.model.n_features() != width {
            return Err(Error::data(format!(
                "n_features: the model takes {} features but its input stage and transforms give {width}",
                self.model.n_features()
            )));
        }
        for (name, m) in self.model.linear_models() {
            let at = if name.is_empty() {
                String::new()
            } else {
                format!(" ({name})")
            };
            LinearModel::new(
                m.classes().to_vec(),
                m.coef().clone(),
                m.intercept().clone(),
                m.link(),
                m.convergence().clone(),
            )
            .map_err(|e| Error::data(format!("coef / intercept{at}: {e}")))?;
            if m.coef().iter().chain(m.intercept()).any(|v| !v.is_finite()) {
                return Err(Error::data(format!("coef / intercept{at} must be finite")));
            }
        }
        Ok(())
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
    /// What the model shows of itself: its linear models, a regressor's weights, its
    /// family's lines and figures ([`FittedModel::summary`](crate::estimator::FittedModel::summary)).
    #[serde(flatten)]
    pub model: ModelSummary,
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
            model: self.model.summary(&|| self.feature_names()),
        }
    }

    /// Functional and geometric margins of each binary linear model inside on labelled
    /// data: the model itself, or each one-vs-all model on "its class against the rest".
    /// One-vs-one models have no margin on rows outside their pair, so they are left out.
    pub fn margins(&self, data: &LabelledInput) -> Result<Vec<(String, Margins)>> {
        let (x, views) = self.binary_views(data, "margins")?;
        views
            .into_iter()
            .map(|(name, m, t)| Ok((name, margins(m, &x, &t)?)))
            .collect()
    }

    /// For a perceptron (alone or one-vs-all), each binary model beside the course's PLA
    /// bound on labelled data, with its own `(w, b)` as the separator: see
    /// [`pla_check`]. Empty for every other kind.
    pub fn pla_checks(&self, data: &LabelledInput) -> Result<Vec<(String, PlaCheck)>> {
        let Some(start) = self.pla_start.or_else(|| self.pla_start_of_older_file()) else {
            return Ok(Vec::new());
        };
        let (fit_intercept, from_zero) = (start.fit_intercept, start.from_zero);
        let (x, views) = self.binary_views(data, "PLA bounds")?;
        views
            .into_iter()
            .map(|(name, m, t)| Ok((name, pla_check(m, &x, &t, fit_intercept, from_zero)?)))
            .collect()
    }

    /// [`PlaStart`] of a perceptron file written before it was recorded: its kind's, at
    /// the parameters that file holds (a parameter this build does not take is passed
    /// over).
    pub(super) fn pla_start_of_older_file(&self) -> Option<PlaStart> {
        let mut learner = super::Learner::from_kind(&self.kind).ok()?;
        for (name, value) in &self.params {
            let _ = learner.set_param(name, value);
        }
        let start = learner.pla_start()?;
        let linreg = self
            .preprocessing
            .iter()
            .any(|(n, v)| n == "init" && v == "linreg");
        Some(PlaStart {
            from_zero: start.from_zero && !linreg,
            ..start
        })
    }

    /// The features of labelled `data` and each binary linear model inside with its class
    /// indices (index 1 is its +1 class): the model itself, or each one-vs-all model on
    /// "its class against the rest". `what` names the caller in errors.
    fn binary_views(
        &self,
        data: &LabelledInput,
        what: &str,
    ) -> Result<(Features<'static>, Vec<BinaryView<'_>>)> {
        let labels = data.require_labels(&format!("{what} need the true label of every row"))?;
        let y = labels::encode_with(self.classes(), labels)?;
        let x = self.features_from(&data.input, &data.source)?;
        let views = match self.model.as_linear() {
            Some(m) if m.is_binary() => vec![(String::new(), m, y)],
            _ if self.model.is_one_vs_rest() => self
                .model
                .linear_models()
                .into_iter()
                .enumerate()
                .map(|(k, (name, m))| {
                    let t: Vec<usize> = y.iter().map(|&c| usize::from(c == k)).collect();
                    (name, m, t)
                })
                .collect(),
            _ => {
                return Err(Error::Unsupported {
                    model: self.kind.clone(),
                    what: format!(
                        "{what} (they need a binary linear model or one-vs-all linear models)"
                    ),
                })
            }
        };
        Ok((x, views))
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
