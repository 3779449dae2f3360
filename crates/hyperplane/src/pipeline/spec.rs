//! [`PipelineSpec`]: a model kind with its parameters, and fitting it on raw input.

use crate::data::{Dataset, Features, Label, LabelledInput, RawInput};
use crate::error::{Error, Result};
use crate::estimator::Params;
use crate::text::{DocumentFiles, Documents, HashingVectorizer, Vectorizer};
use crate::transform::{
    CategoricalEncoding, FittedTransform, KBinsDiscretizer, PolynomialFeatures, TabularEncoder,
    Transform,
};
use ndarray::Array2;

use super::{FitOptions, InputStage, Learner, Model, Pipeline};

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
    pub(super) learner: Learner,
    vectorizer: Vectorizer,
    discretizer: KBinsDiscretizer,
    scale: String,
    /// Multiclass reduction and initialisation.
    options: FitOptions,
    /// The degree `Q` of the polynomial transform `Phi_Q`, when one is applied.
    poly: Option<usize>,
    /// Vectorizer settings the user made, re-applied when the vectorizer kind changes.
    vectorizer_settings: Vec<(String, String)>,
}

const PIPELINE_PARAMS: &[&str] = &[
    "vectorizer",
    "n_bins",
    "bin_strategy",
    "scale",
    "multiclass",
    "init",
    "poly",
];

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
            options: FitOptions::default(),
            poly: None,
            vectorizer_settings: Vec::new(),
        })
    }

    /// Whether the model predicts real numbers (a regressor) rather than classes.
    pub fn is_regressor(&self) -> bool {
        self.learner.is_regressor()
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
                "multiclass" => {
                    self.options.multiclass = value
                        .parse()
                        .map_err(|e: String| Error::param(name, value, e))?;
                }
                "init" => {
                    self.options.linear_regression_init = match value.trim() {
                        "linreg" | "linear-regression" => true,
                        "zero" | "zeros" | "none" => false,
                        _ => {
                            return Err(Error::param(
                                name,
                                value,
                                "choose zero (the default) or linreg (start from linear regression's weights)",
                            ))
                        }
                    };
                }
                "poly" => {
                    self.poly = match value.trim() {
                        "none" | "0" => None,
                        q => Some(crate::estimator::parse_param::<usize>(name, q)?),
                    };
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
        let labels = data.require_labels("training needs one label per row")?;
        if data.input.n_rows() == 0 {
            return Err(Error::data(format!(
                "{} has no rows",
                data.source.display()
            )));
        }
        let (input, x) = self.fit_input(&data.input)?;
        let (transforms, x) = self.fit_transforms(&input, x)?;
        let model = if self.learner.is_regressor() {
            let y = regression_targets(labels)?;
            x.check_fit_input()?;
            self.learner.fit_regression(&x, y.view(), None)?
        } else {
            let dataset = Dataset::new(x, labels)?;
            self.learner.fit_with(&dataset, &self.options)?
        };
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
        if let Some(q) = self.poly {
            preprocessing.push(("poly".into(), q.to_string()));
        }
        if self.scale != "none" {
            preprocessing.push(("scale".into(), self.scale.clone()));
        }
        if self.options.linear_regression_init {
            preprocessing.push(("init".into(), "linreg".into()));
        }
        if matches!(model, Model::OneVsRest(_) | Model::OneVsOne(_)) {
            preprocessing.push(("multiclass".into(), self.options.multiclass.to_string()));
        }
        Ok(Pipeline {
            kind: self.kind.clone(),
            params: self.learner.param_values(),
            preprocessing,
            input,
            transforms,
            model,
            n_train: labels.len(),
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
        if let Some(q) = self.poly {
            specs.push(Transform::Poly(PolynomialFeatures {
                degree: q,
                ..PolynomialFeatures::default()
            }));
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

/// Real-valued regression targets from the labels read: integers, or text that parses as
/// a number; anything else is an error naming the row.
pub(super) fn regression_targets(labels: &[Label]) -> Result<Array2<f64>> {
    let mut y = Array2::zeros((labels.len(), 1));
    for (row, l) in labels.iter().enumerate() {
        y[[row, 0]] = match l {
            Label::Int(v) => *v as f64,
            Label::Text(t) => t
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    Error::data(format!(
                    "a regressor needs a number as the target of every row; row {row} has `{t}`"
                ))
                })?,
        };
    }
    Ok(y)
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
