//! Pipelines: raw input -> features -> model, fitted and saved as one.
//!
//! A [`PipelineSpec`] names a model kind and its parameters; fitting it on a reader's
//! [`LabelledInput`](crate::data::LabelledInput) fits, on the training rows only, the input stage (a text vectorizer
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
//! `scale=standard|minmax|none` and `multiclass=ova|ovo` (how a binary learner meets more
//! than two classes: one-vs-all, the default, or one-vs-one).

mod evaluate;
mod fitted;
mod learning_curve;
mod spec;
mod tune;

pub use evaluate::{Evaluation, RegressionEvaluation};
pub use fitted::{InputStage, LinearSummary, Pipeline, PlaStart, RegressionSummary, Summary};
pub use spec::{Init, PipelineOptions, PipelineSpec, Scaling, VectorizerKind};
pub use tune::{Tuning, Validation};

use crate::bayes::{self, NaiveBayes, NaiveBayesModel};
use crate::data::{Dataset, Features, Label};
use crate::error::{Error, Result};
use crate::estimator::{Classifier, Fit, KindInfo, Regressor, Task};
use crate::linear::{
    row_weights, ClassWeight, LinearClassifier, LinearModel, LinearRegressionModel, LinearRegressor,
};
use crate::multiclass::{OneVsOne, OneVsRest, Strategy};
use crate::param::{Composite, Params};
use ndarray::Array2;
use serde::{Deserialize, Serialize};

/// A family of model kinds: its kinds, declared beside its code, and how the pipeline
/// makes a learner of one of them.
struct Family {
    kinds: &'static [KindInfo],
    learner: fn(&str) -> Result<Learner>,
}

/// The registry: every family, one line each. `kinds`, the CLI's lists and help, `inspect`,
/// the conformance suite and the README's kind table read it.
const FAMILIES: [Family; 3] = [
    Family {
        kinds: bayes::KINDS,
        learner: |k| Ok(Learner::NaiveBayes(NaiveBayes::from_kind(k)?)),
    },
    Family {
        kinds: crate::linear::CLASSIFIERS,
        learner: |k| Ok(Learner::Linear(LinearClassifier::from_kind(k)?)),
    },
    Family {
        kinds: crate::linear::REGRESSORS,
        learner: |k| Ok(Learner::Regression(LinearRegressor::from_kind(k)?)),
    },
];

/// Every model kind, family by family.
pub fn registry() -> impl Iterator<Item = &'static KindInfo> {
    FAMILIES.iter().flat_map(|f| f.kinds.iter())
}

/// The registry entry of a kind; an unknown name lists the kinds.
pub fn kind_info(kind: &str) -> Result<&'static KindInfo> {
    registry().find(|k| k.name == kind).ok_or_else(|| {
        let names: Vec<&str> = registry().map(|k| k.name).collect();
        Error::param(
            "model",
            kind,
            format!("unknown model kind; choose one of {}", names.join(", ")),
        )
    })
}

/// The regression kinds (real-valued targets).
pub fn regressor_kinds() -> Vec<&'static str> {
    registry()
        .filter(|k| k.task == Task::Regressor)
        .map(|k| k.name)
        .collect()
}

/// Every classifier kind the pipeline can train (see [`regressor_kinds`] for the rest).
pub fn kinds() -> Vec<&'static str> {
    registry()
        .filter(|k| k.task == Task::Classifier)
        .map(|k| k.name)
        .collect()
}

/// The params of a learner of any family.
#[derive(Clone, Debug)]
pub enum Learner {
    NaiveBayes(NaiveBayes),
    Linear(LinearClassifier),
    Regression(LinearRegressor),
}

impl Learner {
    /// The default params of a model kind.
    pub fn from_kind(kind: &str) -> Result<Self> {
        let family = FAMILIES
            .iter()
            .find(|f| f.kinds.iter().any(|k| k.name == kind));
        match family {
            Some(f) => (f.learner)(kind),
            None => Err(kind_info(kind)
                .err()
                .unwrap_or_else(|| Error::data(format!("{kind} is registered without a family")))),
        }
    }

    /// The registry entry of the learner's kind.
    pub fn info(&self) -> &'static KindInfo {
        let kind = match self {
            Learner::NaiveBayes(p) => p.kind(),
            Learner::Linear(p) => p.kind(),
            Learner::Regression(p) => p.kind(),
        };
        registry()
            .find(|k| k.name == kind)
            .expect("every learner is made from a registered kind")
    }

    /// Whether the learner separates two classes only, so that more classes go through a
    /// one-vs-all or one-vs-one reduction.
    fn is_binary(&self) -> bool {
        self.info().binary
    }

    fn fit_native(&self, data: &Dataset) -> Result<Model> {
        match self {
            Learner::NaiveBayes(p) => Ok(Model::NaiveBayes(p.fit(data)?)),
            Learner::Linear(p) => Ok(Model::Linear(p.fit(data)?)),
            Learner::Regression(_) => Err(Error::Unsupported {
                model: "a regressor".into(),
                what: "class labels (it fits real-valued targets: use fit_regression)".into(),
            }),
        }
    }

    /// Whether the learner predicts real numbers rather than classes.
    pub fn is_regressor(&self) -> bool {
        self.info().task == Task::Regressor
    }

    /// Fits a regressor on real-valued targets `y` (`n x outputs`).
    pub fn fit_regression(
        &self,
        x: &Features,
        y: ndarray::ArrayView2<f64>,
        weights: Option<&[f64]>,
    ) -> Result<Model> {
        match self {
            Learner::Regression(p) => Ok(Model::Regression(p.fit_xy(x, y, weights)?)),
            _ => Err(Error::Unsupported {
                model: "a classifier".into(),
                what: "real-valued targets (train linear-regression or ridge)".into(),
            }),
        }
    }

    /// Starts the learner from linear regression's weights (PLA, pocket, logistic
    /// regression); other learners are unchanged.
    fn with_linear_regression_init(&self, data: &Dataset) -> Result<Learner> {
        Ok(match self {
            Learner::Linear(p) => Learner::Linear(p.with_linear_regression_init(data)?),
            other => other.clone(),
        })
    }

    /// Whether the fitted model depends on the order of the training rows (beyond
    /// rounding): PLA, pocket and SGD visit rows in order.
    pub fn depends_on_row_order(&self) -> bool {
        match self {
            Learner::NaiveBayes(_) | Learner::Regression(_) => false,
            Learner::Linear(p) => p.depends_on_row_order(),
        }
    }

    /// Fits the learner on a data set; a binary learner meets more than two classes through
    /// one-vs-all.
    pub fn fit(&self, data: &Dataset) -> Result<Model> {
        self.fit_with(data, &FitOptions::default())
    }

    /// Fits the learner with pipeline options: a multiclass problem for a binary learner
    /// is reduced by `options.multiclass`; class weights are applied once, on the original
    /// classes (as row weights), so every sub-problem sees the same per-row costs.
    pub fn fit_with(&self, data: &Dataset, options: &FitOptions) -> Result<Model> {
        let fit_binary = |learner: &Learner, d: &Dataset| {
            if options.linear_regression_init {
                learner.with_linear_regression_init(d)?.fit_native(d)
            } else {
                learner.fit_native(d)
            }
        };
        if !self.is_binary() || data.classes().len() <= 2 {
            return fit_binary(self, data);
        }
        let mut sub = self.clone();
        let mut data = data.clone();
        if let Learner::Linear(p) = self {
            let cw = p.class_weight();
            if cw != ClassWeight::Uniform {
                data = data.clone().with_weights(row_weights(&data, &cw)?)?;
                sub = Learner::Linear(p.with_class_weight(ClassWeight::Uniform));
            }
        }
        let fit = |d: &Dataset| fit_binary(&sub, d);
        Ok(match options.multiclass {
            Strategy::Ova => Model::OneVsRest(OneVsRest::fit(&data, fit)?),
            Strategy::Ovo => Model::OneVsOne(OneVsOne::fit(&data, fit)?),
        })
    }
}

impl Composite for Learner {
    fn component(&self) -> String {
        self.info().name.to_string()
    }
    fn parts(&self) -> Vec<&dyn Params> {
        vec![match self {
            Learner::NaiveBayes(p) => p as &dyn Params,
            Learner::Linear(p) => p,
            Learner::Regression(p) => p,
        }]
    }
    fn parts_mut(&mut self) -> Vec<&mut dyn Params> {
        vec![match self {
            Learner::NaiveBayes(p) => p as &mut dyn Params,
            Learner::Linear(p) => p,
            Learner::Regression(p) => p,
        }]
    }
}

/// How the pipeline fits a learner beyond its own params.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FitOptions {
    /// How a binary learner meets more than two classes.
    pub multiclass: Strategy,
    /// Start PLA, pocket and logistic regression from linear regression's weights.
    pub linear_regression_init: bool,
}

/// A fitted model of any family.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Model {
    NaiveBayes(NaiveBayesModel),
    Linear(LinearModel),
    /// A binary model per class (one-vs-all).
    OneVsRest(OneVsRest<Model>),
    /// A binary model per pair of classes (one-vs-one).
    OneVsOne(OneVsOne<Model>),
    /// Least squares or ridge: real-valued predictions, no classes.
    Regression(LinearRegressionModel),
}

impl Model {
    fn classifier(&self) -> Result<&dyn Classifier> {
        match self {
            Model::NaiveBayes(m) => Ok(m),
            Model::Linear(m) => Ok(m),
            Model::OneVsRest(m) => Ok(m),
            Model::OneVsOne(m) => Ok(m),
            Model::Regression(_) => Err(Error::Unsupported {
                model: "a regressor".into(),
                what: "classes and class scores (it predicts real numbers: use predict_values)"
                    .into(),
            }),
        }
    }

    /// The regressor inside, when the model is one.
    pub fn regressor(&self) -> Option<&LinearRegressionModel> {
        match self {
            Model::Regression(m) => Some(m),
            _ => None,
        }
    }

    /// Real-valued predictions of a regressor, one column per output.
    pub fn predict_values(&self, x: &Features) -> Result<Array2<f64>> {
        match self {
            Model::Regression(m) => m.predict(x),
            _ => Err(Error::Unsupported {
                model: "a classifier".into(),
                what: "real-valued predictions (use predict or predict_proba)".into(),
            }),
        }
    }

    /// The `k` most indicative features of each class, as (feature index, score); empty
    /// lists for one-vs-one, whose pair models say nothing about one class.
    pub fn top_features(&self, k: usize) -> Vec<Vec<(usize, f64)>> {
        match self {
            Model::NaiveBayes(m) => m.top_features(k),
            Model::Linear(m) => m.top_features(k),
            Model::OneVsRest(m) => m
                .models()
                .iter()
                .map(|sub| sub.top_features(k).pop().unwrap_or_default())
                .collect(),
            Model::OneVsOne(m) => vec![Vec::new(); m.classes().len()],
            Model::Regression(_) => Vec::new(),
        }
    }

    /// What the scores of [`Model::top_features`] mean.
    pub fn top_feature_score(&self) -> &'static str {
        match self {
            Model::NaiveBayes(m) => m.top_feature_score(),
            Model::Linear(_) | Model::OneVsOne(_) => "weight w_j towards the class",
            Model::Regression(_) => "weight w_j",
            Model::OneVsRest(m) => m
                .models()
                .first()
                .map_or("weight w_j towards the class", |sub| {
                    sub.top_feature_score()
                }),
        }
    }

    /// Class prior probabilities, when the model has them.
    pub fn class_priors(&self) -> Option<Vec<f64>> {
        match self {
            Model::NaiveBayes(m) => Some(m.class_log_prior().iter().map(|v| v.exp()).collect()),
            _ => None,
        }
    }

    /// The linear models inside, named: the model itself, or one per class (one-vs-all,
    /// named by the class) or per pair (one-vs-one, "a vs b"). Empty for other families.
    pub fn linear_models(&self) -> Vec<(String, &LinearModel)> {
        match self {
            Model::Linear(m) => vec![(String::new(), m)],
            Model::OneVsRest(m) => m
                .classes()
                .iter()
                .zip(m.models())
                .filter_map(|(c, sub)| match sub {
                    Model::Linear(l) => Some((c.to_string(), l)),
                    _ => None,
                })
                .collect(),
            Model::OneVsOne(m) => m
                .pairs()
                .filter_map(|((i, j), sub)| match sub {
                    Model::Linear(l) => {
                        Some((format!("{} vs {}", m.classes()[i], m.classes()[j]), l))
                    }
                    _ => None,
                })
                .collect(),
            Model::NaiveBayes(_) | Model::Regression(_) => Vec::new(),
        }
    }
}

/// A regressor has no classes (an empty list) and refuses every class score.
impl Classifier for Model {
    fn classes(&self) -> &[Label] {
        self.classifier().map_or(&[], |c| c.classes())
    }
    fn n_features(&self) -> usize {
        match self {
            Model::Regression(m) => m.n_features(),
            _ => self.classifier().map_or(0, |c| c.n_features()),
        }
    }
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        self.classifier()?.decision_function(x)
    }
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>> {
        self.classifier()?.predict_log_proba(x)
    }
    fn predict_index(&self, x: &Features) -> Result<Vec<usize>> {
        self.classifier()?.predict_index(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::text_files::read_dir;
    use crate::data::{LabelledInput, RawInput};

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
