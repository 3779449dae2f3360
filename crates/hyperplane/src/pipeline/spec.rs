//! [`PipelineSpec`]: a model kind with its parameters, and fitting it on raw input.
//!
//! A pipeline has five components, each with its own parameter schema: `model` (the
//! learner), `vectorizer` (text input), `discretizer` (numeric columns binned for
//! categorical models), `encoder` (CSV tables) and `pipeline` (the vectorizer kind,
//! scaling, `Phi_Q`, the multiclass reduction, the initialisation). A parameter is named
//! `component.name`, or by its bare name when one component has it; a bare name two
//! components share is an error listing both spellings. Settings are kept as given and
//! resolved together, so their order never matters: `vectorizer=tfidf` makes `norm` a
//! vectorizer parameter whether it comes before or after.

use std::borrow::Cow;
use std::path::Path;

use crate::data::labels::Labels;
use crate::data::read::{self, read, Format, ReadOptions};
use crate::data::{Dataset, Features, Label, LabelledInput, RawInput, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::{KindInfo, Task};
use crate::multiclass::Strategy;
use crate::param::{ParamSpec, Params, Value};
use crate::text::{DocumentFiles, Documents, HashingVectorizer, Vectorizer};
use crate::threads::Threads;
use crate::transform::{
    CategoricalEncoding, FittedTransform, KBinsDiscretizer, PolynomialFeatures, TabularEncoder,
    Transform,
};
use crate::with_rows;
use ndarray::Array2;

use super::{
    kind_info, registry, FitOptions, InputStage, Learner, Pipeline, PlaStart, TrainingScore,
};

crate::choice_enum! {
    /// The text vectorizer of a pipeline.
    pub enum VectorizerKind {
        /// Token presence or counts, over a learned vocabulary.
        #[default]
        Count = "count",
        /// Counts re-weighted by tf-idf.
        Tfidf = "tfidf",
        /// Hashed counts, no vocabulary.
        Hashing = "hashing",
    }
}

crate::choice_enum! {
    /// How the features are scaled after the other transforms.
    pub enum Scaling {
        #[default]
        None = "none",
        /// `(x - mean) / std`.
        Standard = "standard",
        /// Onto `[0, 1]`.
        MinMax = "minmax",
    }
}

crate::choice_enum! {
    /// Where PLA, pocket and logistic regression start.
    pub enum Init {
        /// `w = 0`.
        #[default]
        Zero = "zero",
        /// Linear regression's weights (the courses' initialisation).
        Linreg = "linreg",
    }
}

crate::params! {
    /// The pipeline's own settings (component `pipeline`).
    #[derive(Clone, Debug, Default, PartialEq)]
    pub struct PipelineOptions {
        pub vectorizer: VectorizerKind,
        pub scale: Scaling,
        pub multiclass: Strategy,
        pub init: Init,
        pub poly: Option<usize>,
        pub threads: Option<usize>,
    }
    schema "pipeline" {
        /// the text vectorizer: a vocabulary of token presence or counts, tf-idf, or hashed counts
        vectorizer = "count", "`count`, `tfidf`, `hashing`" => vectorizer;
        /// scale the features after the other transforms
        scale = "none", "`none`, `standard`, `minmax`" => scale;
        /// how a binary learner meets more than two classes: one-vs-all or one-vs-one
        multiclass = "ova", "`ova`, `ovo`" => multiclass;
        /// start PLA, pocket or logistic regression from linear regression's weights
        init = "zero", "`zero`, `linreg`" => init;
        /// the degree `Q` of the polynomial transform `Phi_Q` applied before the model (`0`: none)
        poly = "none", "`none`, `0`, or `>= 1`" => poly;
        /// threads of the fit: `auto` is all cores (or `RAYON_NUM_THREADS`); the model is the same for any count
        threads = "auto", at_least_1 => threads as Auto;
    }
}

impl PipelineOptions {
    /// The degree of `Phi_Q`, when one is applied (`poly=0` is none, as `none` is).
    fn degree(&self) -> Option<usize> {
        self.poly.filter(|&q| q > 0)
    }
}

/// The text vectorizer of a pipeline for a model kind: `count` and `hashing` store token
/// counts for a kind that reads them by default ([`KindInfo::text_counts`]: the
/// multinomial event model, Manning et al., Introduction to Information Retrieval, ch. 13)
/// and token presence (`x_j = [count_j > 0]`) for every other kind: the Bernoulli event
/// model's own input, and on e-mail clearly more accurate for the other Naive Bayes kinds
/// (BENCHMARKS.md). `binary` overrides either; `tfidf` re-weights counts.
fn vectorizer(vectorizer: VectorizerKind, kind: &KindInfo) -> Vectorizer {
    let binary = !kind.text_counts;
    match vectorizer {
        VectorizerKind::Count => {
            Vectorizer::Count(crate::text::CountVectorizer::new().binary(binary))
        }
        VectorizerKind::Tfidf => Vectorizer::tfidf(),
        VectorizerKind::Hashing => Vectorizer::Hashing(HashingVectorizer::new().binary(binary)),
    }
}

/// The components of a pipeline, in the order bare names are listed.
const COMPONENTS: [&str; 5] = ["model", "vectorizer", "discretizer", "encoder", "pipeline"];

/// Old spellings that still work.
const ALIASES: [(&str, &str); 1] = [("bin_strategy", "discretizer.strategy")];

/// Parameters of a component that the pipeline sets itself.
fn hidden(component: &str, name: &str) -> bool {
    component == "discretizer" && name == "columns"
}

/// Why a parameter does nothing for the kind of `info`, when it does not: the discretizer
/// bins numeric columns for the kinds that read categories, the multiclass reduction is
/// for binary classifiers, `init` for the kinds that start from least squares.
fn unused_by(info: &KindInfo, component: &str, name: &str) -> Option<String> {
    let kinds = |keep: fn(&KindInfo) -> bool| -> String {
        let names: Vec<&str> = registry().filter(|k| keep(k)).map(|k| k.name).collect();
        names.join(", ")
    };
    let kind = info.name;
    match (component, name) {
        ("discretizer", _) if !info.categorical_input => Some(format!(
            "{kind} reads numeric columns as numbers; the discretizer bins them for the kinds \
             that read categories ({})",
            kinds(|k| k.categorical_input)
        )),
        ("pipeline", "multiclass") if !info.binary => Some(format!(
            "{kind} is not a binary classifier; the multiclass reduction is for {}",
            kinds(|k| k.binary)
        )),
        ("pipeline", "init") if !info.least_squares_start => Some(format!(
            "{kind} has no starting weights; the kinds that start from least squares are {}",
            kinds(|k| k.least_squares_start)
        )),
        _ => None,
    }
}

/// A component's error about its parameter `bare`, naming it as the user wrote it.
fn named_as_given(e: Error, bare: &str, given: &str) -> Error {
    match e {
        Error::InvalidParameter {
            name,
            value,
            reason,
        } if name == bare => Error::InvalidParameter {
            name: given.to_string(),
            value,
            reason,
        },
        other => other,
    }
}

/// Every component of a pipeline with its typed params.
#[derive(Clone, Debug)]
struct Components {
    learner: Learner,
    vectorizer: Vectorizer,
    discretizer: KBinsDiscretizer,
    encoder: TabularEncoder,
    pipeline: PipelineOptions,
}

/// Where a parameter name leads.
enum Place {
    /// Component and bare name.
    Found(usize, String),
    /// Not settable with the current settings, but maybe with others (a parameter of
    /// another vectorizer kind; a bare name two components share): the error to report
    /// once every setting is known.
    Deferred(Error),
}

impl Components {
    fn get(&self, c: usize) -> &dyn Params {
        match c {
            0 => &self.learner,
            1 => &self.vectorizer,
            2 => &self.discretizer,
            3 => &self.encoder,
            _ => &self.pipeline,
        }
    }

    fn get_mut(&mut self, c: usize) -> &mut dyn Params {
        match c {
            0 => &mut self.learner,
            1 => &mut self.vectorizer,
            2 => &mut self.discretizer,
            3 => &mut self.encoder,
            _ => &mut self.pipeline,
        }
    }

    /// Whether component `c` has parameter `name` (hidden ones excluded).
    fn has(&self, c: usize, name: &str) -> bool {
        !hidden(COMPONENTS[c], name) && self.get(c).has_param(name)
    }

    /// The vectorizer kinds other than the current one that have `name`.
    fn other_vectorizers_with(&self, name: &str) -> Vec<VectorizerKind> {
        let kind = self.learner.info();
        [
            VectorizerKind::Count,
            VectorizerKind::Tfidf,
            VectorizerKind::Hashing,
        ]
        .into_iter()
        .filter(|&k| k != self.pipeline.vectorizer && vectorizer(k, kind).has_param(name))
        .collect()
    }

    fn locate(&self, kind: &str, given: &str, value: &str) -> Result<Place> {
        let name = ALIASES
            .iter()
            .find(|(old, _)| *old == given)
            .map_or(given, |(_, new)| new);
        let elsewhere = |name: &str| -> Option<Error> {
            let kinds = self.other_vectorizers_with(name);
            let k = kinds.first()?;
            Some(Error::param(
                given,
                value,
                format!("is a parameter of the {k} vectorizer, and this pipeline's is {}; set vectorizer={k}", self.pipeline.vectorizer),
            ))
        };
        if let Some((component, bare)) = name.split_once('.') {
            let Some(c) = COMPONENTS.iter().position(|&n| n == component) else {
                return Err(Error::param(
                    given,
                    value,
                    format!(
                        "unknown component `{component}`; the components are {}",
                        COMPONENTS.join(", ")
                    ),
                ));
            };
            if self.has(c, bare) {
                return Ok(Place::Found(c, bare.to_string()));
            }
            if c == 1 {
                if let Some(e) = elsewhere(bare) {
                    return Ok(Place::Deferred(e));
                }
            }
            let names: Vec<&str> = self
                .get(c)
                .schema()
                .iter()
                .map(|p| p.name)
                .filter(|n| !hidden(component, n))
                .collect();
            return Err(Error::param(
                given,
                value,
                format!(
                    "the {component} of {kind} has no such parameter; its parameters: {}",
                    names.join(", ")
                ),
            ));
        }
        let owners: Vec<usize> = (0..COMPONENTS.len())
            .filter(|&c| self.has(c, name))
            .collect();
        match owners[..] {
            [c] => Ok(Place::Found(c, name.to_string())),
            [] => match elsewhere(name) {
                Some(e) => Ok(Place::Deferred(e)),
                None => Err(Error::param(
                    given,
                    value,
                    format!(
                        "no such parameter for {kind}; valid names: {}",
                        self.names().join(", ")
                    ),
                )),
            },
            _ => {
                let spellings: Vec<String> = owners
                    .iter()
                    .map(|&c| format!("{}.{name}={value}", COMPONENTS[c]))
                    .collect();
                let owners: Vec<&str> = owners.iter().map(|&c| COMPONENTS[c]).collect();
                Ok(Place::Deferred(Error::param(
                    given,
                    value,
                    format!(
                        "`{name}` is a parameter of both the {}; write {}",
                        owners.join(" and the "),
                        spellings.join(" or ")
                    ),
                )))
            }
        }
    }

    /// Every parameter as the command line takes it (bare when one component has it),
    /// with its component and schema; `default` is its value in this pipeline (the
    /// pipeline's default unless set).
    fn parameters(&self) -> Vec<(String, &'static str, ParamSpec)> {
        let mut out = Vec::new();
        for (c, component) in COMPONENTS.iter().enumerate() {
            let values = self.get(c).param_values();
            for mut p in self.get(c).schema() {
                if hidden(component, p.name) {
                    continue;
                }
                if let Some((_, v)) = values.iter().find(|(n, _)| n == p.name) {
                    p.default = v.clone();
                }
                let shared = (0..COMPONENTS.len())
                    .filter(|&o| self.has(o, p.name))
                    .count()
                    > 1;
                let name = if shared {
                    format!("{component}.{}", p.name)
                } else {
                    p.name.to_string()
                };
                out.push((name, *component, p));
            }
        }
        out
    }

    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.parameters().into_iter().map(|(n, _, _)| n).collect();
        names.sort();
        names
    }
}

/// A model kind with its parameters, ready to fit on raw input.
#[derive(Clone, Debug)]
pub struct PipelineSpec {
    info: &'static KindInfo,
    /// The settings as given, in order; resolved together (see the module doc).
    settings: Vec<(String, String)>,
}

impl PipelineSpec {
    /// The default pipeline for a model kind (see the module table).
    pub fn new(kind: &str) -> Result<Self> {
        Ok(PipelineSpec {
            info: kind_info(kind)?,
            settings: Vec::new(),
        })
    }

    /// Whether the model predicts real numbers (a regressor) rather than classes.
    pub fn is_regressor(&self) -> bool {
        self.info.task == Task::Regressor
    }

    /// The model kind.
    pub fn kind(&self) -> &str {
        self.info.name
    }

    /// The registry entry of the model kind.
    pub fn info(&self) -> &'static KindInfo {
        self.info
    }

    /// Whether the kind reads text (`vectorizer=count` or `hashing`) as token counts by
    /// default (`binary=false`: the multinomial event model) rather than token presence
    /// (`binary=true`); `--param binary=...` overrides either.
    pub fn reads_text_counts(&self) -> bool {
        self.info.text_counts
    }

    /// Sets a parameter of any component, by `component.name` or bare name. A bad value or
    /// a name no component has is an error at once; a name that depends on other settings
    /// (a bare name two components share, a parameter of another vectorizer kind) is
    /// checked by [`PipelineSpec::check`] and at fit, when every setting is known.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<()> {
        self.settings
            .push((name.trim().to_string(), value.trim().to_string()));
        if let Err(e) = self.components(false) {
            self.settings.pop();
            return Err(e);
        }
        Ok(())
    }

    /// Sets a parameter of any component from a typed value (a host's `None`, `0.5`,
    /// `"rbf"`, `[64, 32]`), as [`PipelineSpec::set_param`] sets its text form
    /// ([`ParamSpec::text_of`]).
    pub fn set_value(&mut self, name: &str, value: &Value) -> Result<()> {
        let parameters = self.parameters()?;
        let bare = name.trim().rsplit('.').next().unwrap_or(name);
        let spec = parameters
            .iter()
            .find(|(n, _, _)| n == name.trim())
            .or_else(|| parameters.iter().find(|(_, _, p)| p.name == bare));
        let text = match spec {
            Some((_, _, spec)) => spec.text_of(value)?,
            None => value.to_string(), // refused by name
        };
        self.set_param(name, &text)
    }

    /// Sets several parameters; their order does not matter. Checks them all.
    pub fn set_params<S: AsRef<str>>(&mut self, params: &[(S, S)]) -> Result<()> {
        let before = self.settings.len();
        self.settings.extend(
            params
                .iter()
                .map(|(n, v)| (n.as_ref().trim().to_string(), v.as_ref().trim().to_string())),
        );
        if let Err(e) = self.check() {
            self.settings.truncate(before);
            return Err(e);
        }
        Ok(())
    }

    /// Checks every setting: names, values and ranges.
    pub fn check(&self) -> Result<()> {
        self.components(true).map(|_| ())
    }

    /// The components with every setting applied; with `strict`, deferred names are errors
    /// and every value is range-checked.
    fn components(&self, strict: bool) -> Result<Components> {
        let mut pipeline = PipelineOptions::default();
        for (name, value) in &self.settings {
            if name == "vectorizer" || name == "pipeline.vectorizer" {
                pipeline.set_param("vectorizer", value)?;
            }
        }
        let mut c = Components {
            learner: Learner::from_kind(self.info.name)?,
            vectorizer: vectorizer(pipeline.vectorizer, self.info),
            discretizer: KBinsDiscretizer::default(),
            encoder: TabularEncoder {
                categorical: if self.info.categorical_input {
                    CategoricalEncoding::Ordinal
                } else {
                    CategoricalEncoding::OneHot
                },
            },
            pipeline,
        };
        for (name, value) in &self.settings {
            match c.locate(self.info.name, name, value)? {
                Place::Found(component, bare) => {
                    if let Some(reason) = unused_by(self.info, COMPONENTS[component], &bare) {
                        return Err(Error::param(name, value, reason));
                    }
                    c.get_mut(component)
                        .set_param(&bare, value)
                        .map_err(|e| named_as_given(e, &bare, name))?
                }
                Place::Deferred(e) if strict => return Err(e),
                Place::Deferred(_) => {}
            }
        }
        if strict {
            for i in 0..COMPONENTS.len() {
                c.get(i).check_params()?;
            }
        }
        Ok(c)
    }

    /// Every parameter of this pipeline as `--param` takes it (bare when unambiguous,
    /// else `component.name`), with its component and schema, at the current settings
    /// (the vectorizer's are those of the chosen vectorizer kind).
    pub fn parameters(&self) -> Result<Vec<(String, &'static str, ParamSpec)>> {
        Ok(self.components(false)?.parameters())
    }

    /// [`PipelineSpec::parameters`] without those this kind never uses, which it refuses
    /// when set: the discretizer's unless the kind reads categories (it bins numeric
    /// columns for it), the multiclass reduction unless the kind is binary, `init` unless
    /// the kind starts from least squares.
    pub fn applicable_parameters(&self) -> Result<Vec<(String, &'static str, ParamSpec)>> {
        let mut parameters = self.parameters()?;
        parameters.retain(|(_, component, p)| unused_by(self.info, component, p.name).is_none());
        Ok(parameters)
    }

    /// The model's parameters with their values.
    pub fn param_values(&self) -> Result<Vec<(String, String)>> {
        Ok(self.components(true)?.learner.param_values())
    }

    /// Fits on every row of `data` (which must be labelled), with `pipeline.threads`
    /// threads.
    pub fn fit(&self, data: &LabelledInput) -> Result<Pipeline> {
        let c = self.components(true)?;
        let labels = Labels::from(data.require_labels(NEEDS_LABELS)?);
        Threads::from_setting(c.pipeline.threads).run(|| {
            Ok(self
                .fit_components(c, Cow::Borrowed(&data.input), labels, &data.source)?
                .0)
        })?
    }

    /// [`PipelineSpec::fit`], and how well the fitted pipeline fits `data`, scored on the
    /// features the fit built: each document is read and tokenized once. The score is the
    /// one [`Pipeline::evaluate`] (accuracy), [`Pipeline::evaluate_regression`] (`R^2`) or
    /// [`Pipeline::predict`] (the share of inliers of a novelty detector) gives on `data`.
    ///
    /// It takes `data` whole: the raw input is freed once encoded (a table's columns) or
    /// moved into the data set (a matrix), so the peak memory holds one copy of the data.
    pub fn fit_scored(&self, data: LabelledInput) -> Result<(Pipeline, TrainingScore)> {
        let c = self.components(true)?;
        let labels = Labels::from(data.require_labels(NEEDS_LABELS)?);
        let LabelledInput { input, source, .. } = data;
        Threads::from_setting(c.pipeline.threads).run(|| {
            let (pipeline, train) = self.fit_components(c, Cow::Owned(input), labels, &source)?;
            self.scored(pipeline, &train)
        })?
    }

    /// Reads `path` (as [`read()`] does) and fits on every row, scored: the result of
    /// [`PipelineSpec::fit_scored`] on what [`read()`] gives, but a CSV file is encoded as it
    /// is read ([`TabularEncoder::fit_transform_file`]) and its labels kept as codes, so a
    /// one-hot encoded table's values are never held as columns beside the features.
    pub fn fit_file_scored(
        &self,
        path: &Path,
        opts: &ReadOptions,
    ) -> Result<(Pipeline, TrainingScore)> {
        let c = self.components(true)?;
        if read::format_of(path, opts)? != Format::Csv {
            return self.fit_scored(read(path, opts)?);
        }
        Threads::from_setting(c.pipeline.threads).run(|| {
            let (encoder, x, labels) = c.encoder.fit_transform_file(path, opts)?;
            let labels = labels.ok_or_else(|| {
                Error::data(format!(
                    "{} has no labels; {NEEDS_LABELS} (see --label-col)",
                    path.display()
                ))
            })?;
            x.lend(|x| {
                let (pipeline, train) =
                    self.fit_features(c, InputStage::Table(encoder), x, labels)?;
                self.scored(pipeline, &train)
            })
        })?
    }

    /// The training score of `pipeline`, fitted on `train`.
    fn scored(&self, pipeline: Pipeline, train: &Dataset) -> Result<(Pipeline, TrainingScore)> {
        let score = pipeline
            .training_score(self.info.task, train)
            .map_err(|e| overflowed(e, self.info.name, train.x()))?;
        Ok((pipeline, score))
    }

    /// The fitted pipeline and the dataset its model was fitted on.
    fn fit_components(
        &self,
        c: Components,
        raw: Cow<'_, RawInput>,
        labels: Labels,
        source: &Path,
    ) -> Result<(Pipeline, Dataset<'static>)> {
        if raw.n_rows() == 0 {
            return Err(Error::data(format!("{} has no rows", source.display())));
        }
        let (input, x) = c.fit_input(raw)?;
        self.fit_features(c, input, x, labels)
    }

    /// The fitted pipeline from its fitted input stage and the features it gave, and the
    /// dataset its model was fitted on; the labels are freed once encoded.
    fn fit_features<'a>(
        &self,
        c: Components,
        input: InputStage,
        x: Features<'a>,
        labels: Labels,
    ) -> Result<(Pipeline, Dataset<'a>)> {
        let (transforms, x) = c.fit_transforms(self.info, &input, x)?;
        let options = FitOptions {
            multiclass: c.pipeline.multiclass,
            linear_regression_init: c.pipeline.init == Init::Linreg,
            threads: Threads::All,
        };
        let dataset = if self.is_regressor() {
            Dataset::regression(x, regression_targets(&labels)?)?
        } else {
            let (classes, targets) = labels.encode();
            Dataset::from_encoded(x, targets, classes)?
        };
        let n_train = labels.len();
        drop(labels);
        c.learner.check_memory(&dataset)?;
        let model = c.learner.fit_with(&dataset, &options)?;
        let mut preprocessing = Vec::new();
        if let InputStage::Text(_) = input {
            preprocessing.push(("vectorizer".to_string(), c.pipeline.vectorizer.to_string()));
            preprocessing.extend(c.vectorizer.param_values());
        }
        if transforms
            .iter()
            .any(|t| matches!(t, FittedTransform::Discretize(_)))
        {
            // Which columns are binned is shown by the fitted transform itself.
            preprocessing.extend(
                c.discretizer
                    .param_values()
                    .into_iter()
                    .filter(|(n, _)| !hidden("discretizer", n)),
            );
        }
        if let Some(q) = c.pipeline.degree() {
            preprocessing.push(("poly".into(), q.to_string()));
        }
        if c.pipeline.scale != Scaling::None {
            preprocessing.push(("scale".into(), c.pipeline.scale.to_string()));
        }
        if options.linear_regression_init {
            preprocessing.push(("init".into(), "linreg".into()));
        }
        if model.is_reduction() {
            preprocessing.push(("multiclass".into(), c.pipeline.multiclass.to_string()));
        }
        let pla_start = c.learner.pla_start().map(|start| PlaStart {
            from_zero: start.from_zero && !options.linear_regression_init,
            ..start
        });
        let pipeline = Pipeline {
            threads: Threads::from_setting(c.pipeline.threads),
            pla_start,
            kind: self.info.name.to_string(),
            params: c.learner.param_values(),
            preprocessing,
            input,
            transforms,
            model,
            n_train,
        };
        Ok((pipeline, dataset))
    }
}

impl Components {
    /// The text input stage: documents in memory or files are fitted alike.
    fn fit_text<S: Documents + ?Sized>(&self, docs: &S) -> Result<(InputStage, Features<'static>)> {
        let (v, x) = self.vectorizer.fit_transform(docs)?;
        Ok((InputStage::Text(Box::new(v)), Features::Sparse(x)))
    }

    /// The input stage fitted on `raw` and the features it gives; owned input is consumed
    /// (a table freed once encoded, a matrix moved rather than copied).
    fn fit_input(&self, raw: Cow<'_, RawInput>) -> Result<(InputStage, Features<'static>)> {
        let raw = match raw {
            Cow::Owned(RawInput::Matrix(x)) => {
                return Ok((
                    InputStage::Matrix {
                        n_features: x.n_cols(),
                    },
                    x,
                ))
            }
            raw => raw,
        };
        match raw.as_ref() {
            RawInput::Text(docs) => self.fit_text(docs.as_slice()),
            RawInput::Files(files) => self.fit_text(&DocumentFiles(files)),
            RawInput::Table(table) => {
                let enc = self.encoder.fit(table)?;
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

    fn fit_transforms<'a>(
        &self,
        info: &KindInfo,
        input: &InputStage,
        x: Features<'a>,
    ) -> Result<(Vec<FittedTransform>, Features<'a>)> {
        let mut specs = Vec::new();
        if info.categorical_input {
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
        if let Some(q) = self.pipeline.degree() {
            specs.push(Transform::Poly(PolynomialFeatures {
                degree: q,
                ..PolynomialFeatures::default()
            }));
        }
        match self.pipeline.scale {
            Scaling::None => {}
            Scaling::Standard => specs.push(Transform::from_name("standard")?),
            Scaling::MinMax => specs.push(Transform::from_name("minmax")?),
        }
        if specs.is_empty() {
            return Ok((Vec::new(), x));
        }
        let mut x = dense_for_transforms(input, x)?.into_owned();
        let mut fitted = Vec::new();
        for spec in specs {
            let t = spec.fit(&x)?;
            x = t.transform(&x)?;
            fitted.push(t);
        }
        Ok((fitted, x.for_any_lifetime()))
    }
}

/// A non-finite training score or prediction, said as what it means: the fit overflowed
/// (values whose squares or exponentials exceed `f64`); other errors as they are.
fn overflowed(e: Error, kind: &str, x: &Features) -> Error {
    let Error::NonFinite { row, value, .. } = e else {
        return e;
    };
    let mut largest = 0.0f64;
    with_rows!(x, |m| {
        for i in 0..m.n_rows() {
            m.for_each_in_row(i, |_, v| largest = largest.max(v.abs()));
        }
    });
    Error::data(format!(
        "fitting {kind} overflowed: its score of training row {} is {value}, as the features \
         are too large for f64 arithmetic (the largest |value| is {largest:e}); divide them by \
         a power of ten, or scale them (--param scale=standard)",
        row + 1
    ))
}

/// What fitting says of unlabelled data.
const NEEDS_LABELS: &str = "training needs one label per row";

/// Sparse numeric rows (a table's one-hot CSR features, a LIBSVM matrix) as a dense
/// matrix, for the transforms that follow the input stage (discretizer, polynomial
/// features, scalers), which work on dense columns, once the dense matrix is known to fit
/// the memory budget; dense features, and text (whose vocabulary makes a dense matrix
/// absurd), as they are.
pub(super) fn dense_for_transforms<'a>(
    input: &InputStage,
    x: Features<'a>,
) -> Result<Features<'a>> {
    match input {
        InputStage::Table(_) | InputStage::Matrix { .. } if x.is_sparse() => {
            crate::memory::check(
                || {
                    format!(
                        "the dense form of {} rows x {} features, for the transforms",
                        x.n_rows(),
                        x.n_cols()
                    )
                },
                &[x.n_rows(), x.n_cols()],
                8,
            )?;
            Ok(Features::from(x.to_dense()))
        }
        _ => Ok(x),
    }
}

/// Real-valued regression targets from the labels read: integers, or text that parses as
/// a number (each distinct label parsed once); anything else is an error naming the first
/// row that has it.
pub(super) fn regression_targets(labels: &Labels) -> Result<Array2<f64>> {
    let values: Vec<Option<f64>> = labels
        .distinct()
        .iter()
        .map(|l| match l {
            Label::Int(v) => Some(*v as f64),
            Label::Text(t) => t.trim().parse::<f64>().ok().filter(|v| v.is_finite()),
        })
        .collect();
    let mut y = Array2::zeros((labels.len(), 1));
    for (row, &c) in labels.codes().iter().enumerate() {
        y[[row, 0]] = values[c as usize].ok_or_else(|| {
            Error::data(format!(
                "a regressor needs a number as the target of every row; row {} has `{}`",
                row + 1,
                labels.distinct()[c as usize]
            ))
        })?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::param::check_schema;

    /// Every parameter a kind's pipeline applies (each vectorizer kind too) reads its default
    /// as a typed value by one of its declared forms, and setting that value back leaves
    /// every value as it was.
    #[test]
    fn every_default_is_a_typed_value_that_sets_back() {
        for info in crate::pipeline::registry() {
            for vectorizer in ["count", "tfidf", "hashing"] {
                let mut spec = PipelineSpec::new(info.name).unwrap();
                spec.set_param("vectorizer", vectorizer).unwrap();
                let before = spec.applicable_parameters().unwrap();
                for (name, _, p) in &before {
                    let value = p.read(&p.default).unwrap_or_else(|| {
                        panic!(
                            "{}: {name} = {:?} fits none of {:?}",
                            info.name, p.default, p.forms
                        )
                    });
                    assert!(!p.forms.is_empty(), "{}: {name}", info.name);
                    spec.set_value(name, &value)
                        .unwrap_or_else(|e| panic!("{}: {name} = {value}: {e}", info.name));
                }
                let after = spec.applicable_parameters().unwrap();
                let defaults = |ps: &[(String, &str, ParamSpec)]| -> Vec<(String, String)> {
                    ps.iter()
                        .map(|(n, _, p)| (n.clone(), p.default.clone()))
                        .collect()
                };
                assert_eq!(defaults(&before), defaults(&after), "{}", info.name);
            }
        }
    }

    /// Hostile typed values are one clear error naming the parameter, never a panic or a
    /// value read as something else.
    #[test]
    fn hostile_typed_values_are_refused_naming_the_parameter() {
        let mut spec = PipelineSpec::new("svc").unwrap();
        let nested = Value::List(vec![Value::List(vec![Value::Int(1)])]);
        let map_in_list = Value::List(vec![Value::Map(Default::default())]);
        let comma_key = Value::Map([("a,b".to_string(), Value::Float(1.0))].into());
        for (name, value) in [
            ("c", Value::Float(f64::NAN)),
            ("c", Value::Float(f64::INFINITY)),
            ("c", Value::Text("ten".into())),
            ("c", nested.clone()),
            ("degree", Value::Int(-3)),
            ("degree", Value::Float(2.5)),
            ("kernel", map_in_list),
            ("class_weight", comma_key),
            ("shrinking", Value::Int(7)),
        ] {
            let e = spec.set_value(name, &value).unwrap_err().to_string();
            assert!(e.contains(name), "{name} = {value}: {e}");
        }
        assert!(spec
            .set_value("no_such", &Value::Int(1))
            .unwrap_err()
            .to_string()
            .contains("no_such"));
        assert!(
            spec.param_values()
                .unwrap()
                .iter()
                .any(|(n, v)| n == "c" && v == "1"),
            "unchanged"
        );
    }

    #[test]
    fn typed_values_set_what_their_text_sets() {
        let mut spec = PipelineSpec::new("svc").unwrap();
        spec.set_value("gamma", &Value::Float(0.25)).unwrap();
        spec.set_value("c", &Value::Int(10)).unwrap();
        spec.set_value(
            "class_weight",
            &Value::Map([("1".to_string(), Value::Float(2.0))].into()),
        )
        .unwrap();
        let values = spec.param_values().unwrap();
        let get = |n: &str| values.iter().find(|(k, _)| k == n).unwrap().1.clone();
        assert_eq!(
            (get("gamma"), get("c"), get("class_weight")),
            ("0.25".into(), "10".into(), "1:2".into())
        );
        let e = spec
            .set_value("c", &Value::Float(-1.0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("c = -1") && e.contains("> 0"), "{e}");
        let e = spec.set_value("c", &Value::None).unwrap_err().to_string();
        assert!(e.contains("c = None") && e.contains("number"), "{e}");
        let e = spec
            .set_value("kernel", &Value::Text("cubic".into()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("rbf"), "{e}");
        let mut mlp = PipelineSpec::new("mlp").unwrap();
        let layers = Value::List(vec![Value::Int(64), Value::Int(32)]);
        mlp.set_value("hidden", &layers).unwrap();
        let (_, _, p) = mlp
            .parameters()
            .unwrap()
            .into_iter()
            .find(|(n, _, _)| n == "hidden")
            .unwrap();
        assert_eq!(p.value_of(&p.default), layers);
        assert_eq!(serde_json::to_string(&layers).unwrap(), "[64,32]");
        let back: Value = serde_json::from_str("[64,32]").unwrap();
        assert_eq!(back, layers);
        assert_eq!(serde_json::from_str::<Value>("null").unwrap(), Value::None);
    }
    use crate::text::{CountVectorizer, TfidfTransformer, Tokenizer};
    use crate::transform::{MinMaxScaler, StandardScaler};

    fn mail() -> LabelledInput {
        let docs = [
            ("spam", "cheap pills buy now"),
            ("ham", "meeting notes attached"),
            ("spam", "buy cheap watches now now"),
            ("ham", "notes from the meeting"),
        ];
        LabelledInput {
            input: RawInput::Text(docs.iter().map(|d| d.1.to_string()).collect()),
            labels: Some(docs.iter().map(|d| Label::from(d.0)).collect()),
            source: "inline".into(),
        }
    }

    fn spec(kind: &str, params: &[(&str, &str)]) -> Result<PipelineSpec> {
        let mut s = PipelineSpec::new(kind)?;
        s.set_params(params)?;
        Ok(s)
    }

    #[test]
    fn every_component_declares_a_consistent_schema() {
        for k in super::super::registry() {
            check_schema(k.name, || Learner::from_kind(k.name).unwrap()).unwrap();
        }
        check_schema("count", || Vectorizer::Count(CountVectorizer::default())).unwrap();
        check_schema("tfidf", Vectorizer::tfidf).unwrap();
        check_schema("hashing", || {
            Vectorizer::Hashing(HashingVectorizer::default())
        })
        .unwrap();
        check_schema("tokenizer", Tokenizer::default).unwrap();
        check_schema("tfidf transformer", TfidfTransformer::default).unwrap();
        check_schema("discretizer", KBinsDiscretizer::default).unwrap();
        check_schema("encoder", TabularEncoder::default).unwrap();
        check_schema("pipeline", PipelineOptions::default).unwrap();
        check_schema("standard", StandardScaler::default).unwrap();
        check_schema("minmax", MinMaxScaler::default).unwrap();
        check_schema("poly", PolynomialFeatures::default).unwrap();
    }

    #[test]
    fn a_bare_name_two_components_share_is_an_error_in_either_order() {
        // complement-nb has `norm`, and so has the tf-idf vectorizer
        for order in [
            [("vectorizer", "tfidf"), ("norm", "l1")],
            [("norm", "l1"), ("vectorizer", "tfidf")],
        ] {
            let e = spec("complement-nb", &order).unwrap_err().to_string();
            assert!(
                e.contains("both the model and the vectorizer")
                    && e.contains("model.norm=l1 or vectorizer.norm=l1"),
                "{e}"
            );
        }
        let fitted = spec(
            "complement-nb",
            &[
                ("vectorizer.norm", "l1"),
                ("model.norm", "true"),
                ("vectorizer", "tfidf"),
            ],
        )
        .unwrap()
        .fit(&mail())
        .unwrap();
        assert!(fitted
            .preprocessing()
            .contains(&("norm".into(), "l1".into())));
        assert!(fitted.params().contains(&("norm".into(), "true".into())));
        // without tf-idf, `norm` is the model's alone
        let plain = spec("complement-nb", &[("norm", "true")]).unwrap();
        assert!(plain
            .param_values()
            .unwrap()
            .contains(&("norm".into(), "true".into())));
    }

    #[test]
    fn the_order_of_settings_never_matters() {
        let a = spec("multinomial-nb", &[("norm", "l1"), ("vectorizer", "tfidf")]).unwrap();
        let b = spec("multinomial-nb", &[("vectorizer", "tfidf"), ("norm", "l1")]).unwrap();
        let (a, b) = (a.fit(&mail()).unwrap(), b.fit(&mail()).unwrap());
        assert!(a.preprocessing().contains(&("norm".into(), "l1".into())));
        assert_eq!(a.preprocessing(), b.preprocessing());
        let raw = &mail().input;
        assert_eq!(a.predict_proba(raw).unwrap(), b.predict_proba(raw).unwrap());
        // one at a time: a name that needs a later setting waits for it
        let mut s = PipelineSpec::new("multinomial-nb").unwrap();
        s.set_param("norm", "l1").unwrap();
        let e = s.check().unwrap_err().to_string();
        assert!(e.contains("set vectorizer=tfidf"), "{e}");
        s.set_param("vectorizer", "tfidf").unwrap();
        s.check().unwrap();
        // the last value of a parameter wins
        let s = spec("multinomial-nb", &[("alpha", "0.5"), ("model.alpha", "2")]).unwrap();
        assert!(s
            .param_values()
            .unwrap()
            .contains(&("alpha".into(), "2".into())));
    }

    #[test]
    fn names_values_and_components_are_checked_with_clear_errors() {
        let cases = [
            (
                "multinomial-nb",
                "nrom",
                "l1",
                "no such parameter for multinomial-nb; valid names: alpha, binary",
            ),
            (
                "multinomial-nb",
                "foo.alpha",
                "1",
                "unknown component `foo`; the components are model, vectorizer",
            ),
            (
                "multinomial-nb",
                "model.binary",
                "true",
                "the model of multinomial-nb has no such parameter; its parameters: alpha, priors",
            ),
            (
                "multinomial-nb",
                "discretizer.columns",
                "1",
                "its parameters: n_bins, strategy",
            ),
            ("multinomial-nb", "alpha", "-1", "must be finite and >= 0"),
            (
                "multinomial-nb",
                "pipeline.scale",
                "zscore",
                "choose one of none, standard, minmax",
            ),
            (
                "logistic-regression",
                "init",
                "linreg",
                "write model.init=linreg or pipeline.init=linreg",
            ),
            // a setting the kind would ignore is refused, saying which kinds take it
            (
                "svc",
                "init",
                "linreg",
                "svc has no starting weights; the kinds that start from least squares are \
                 perceptron, pocket, logistic-regression",
            ),
            (
                "multinomial-nb",
                "multiclass",
                "ovo",
                "multinomial-nb is not a binary classifier",
            ),
            (
                "svc",
                "pipeline.multiclass",
                "ova",
                "the multiclass reduction is for",
            ),
            (
                "gaussian-nb",
                "n_bins",
                "5",
                "gaussian-nb reads numeric columns as numbers; the discretizer bins them for \
                 the kinds that read categories (categorical-nb",
            ),
        ];
        for (kind, name, value, expected) in cases {
            let e = spec(kind, &[(name, value)]).unwrap_err().to_string();
            assert!(e.contains(name) && e.contains(expected), "{name}: {e}");
        }
        // the old spelling of the discretizer's strategy still works
        let s = spec("categorical-nb", &[("bin_strategy", "uniform")]).unwrap();
        let c = s.components(true).unwrap();
        assert_eq!(c.discretizer.strategy.to_string(), "uniform");
        // qualified pipeline settings reach their typed fields
        let s = spec(
            "logistic-regression",
            &[("pipeline.init", "linreg"), ("scale", "standard")],
        )
        .unwrap();
        let c = s.components(true).unwrap();
        assert_eq!(
            (c.pipeline.init, c.pipeline.scale),
            (Init::Linreg, Scaling::Standard)
        );
    }

    #[test]
    fn a_kind_starts_from_least_squares_exactly_when_its_entry_says_so() {
        let x = Array2::from_shape_fn((40, 2), |(i, j)| ((i * 3 + j * 5) % 7) as f64 - 3.0);
        let y: Vec<Label> = (0..40)
            .map(|i| Label::Int(i64::from(x[[i, 0]] > 0.0)))
            .collect();
        let data = Dataset::new(x.into(), &y).unwrap();
        for info in registry().filter(|k| k.binary) {
            let learner = Learner::from_kind(info.name).unwrap();
            let started = learner.0.warm_started(&data).unwrap().is_some();
            assert_eq!(started, info.least_squares_start, "{}", info.name);
            let listed = spec(info.name, &[])
                .unwrap()
                .applicable_parameters()
                .unwrap()
                .iter()
                .any(|(_, component, p)| *component == "pipeline" && p.name == "init");
            assert_eq!(listed, info.least_squares_start, "{}", info.name);
        }
    }

    #[test]
    fn the_model_is_the_same_on_any_number_of_threads() {
        // large enough for several chunks in every parallel sum
        let mut rng = crate::rng::Rng::new(5);
        let x = Array2::from_shape_fn((40_000, 8), |_| rng.below(1000) as f64 / 250.0 - 2.0);
        let labels: Vec<Label> = (0..x.nrows())
            .map(|i| Label::Int(i64::from(x[[i, 0]] + 0.5 * x[[i, 3]] > 0.1 * x[[i, 5]])))
            .collect();
        let data = LabelledInput {
            input: RawInput::Matrix(Features::from(x)),
            labels: Some(labels),
            source: "inline".into(),
        };
        for kind in [
            "logistic-regression",
            "softmax-regression",
            "gaussian-nb",
            "linear-regression-classifier",
        ] {
            let fit = |threads: &str| {
                let m = spec(kind, &[("threads", threads)])
                    .unwrap()
                    .fit(&data)
                    .unwrap();
                serde_json::to_string(m.model()).unwrap()
            };
            let one = fit("1");
            assert_eq!(one, fit("2"), "{kind}");
            assert_eq!(one, fit("3"), "{kind}");
            assert_eq!(one, fit("auto"), "{kind}");
        }
        let e = spec("gaussian-nb", &[("threads", "0")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("threads") && e.contains(">= 1"), "{e}");
    }

    #[test]
    fn a_perceptron_records_how_its_walk_started_typed() {
        let start = |params: &[(&str, &str)]| {
            spec("perceptron", params)
                .unwrap()
                .fit(&mail())
                .unwrap()
                .pla_start
        };
        let plain = PlaStart {
            fit_intercept: true,
            from_zero: true,
        };
        assert_eq!(start(&[]), Some(plain));
        assert_eq!(
            start(&[("fit_intercept", "false"), ("pipeline.init", "linreg")]),
            Some(PlaStart {
                fit_intercept: false,
                from_zero: false
            })
        );
        assert_eq!(
            spec("pocket", &[]).unwrap().fit(&mail()).unwrap().pla_start,
            None
        );
        // a file written before the record was kept reads it from its parameter text
        let mut older = spec("perceptron", &[("pipeline.init", "linreg")])
            .unwrap()
            .fit(&mail())
            .unwrap();
        older.pla_start = None;
        assert_eq!(
            older.pla_start_of_older_file(),
            Some(PlaStart {
                fit_intercept: true,
                from_zero: false
            })
        );
    }

    #[test]
    fn poly_zero_is_no_transform() {
        let zero = spec("perceptron", &[("poly", "0")])
            .unwrap()
            .fit(&mail())
            .unwrap();
        let none = spec("perceptron", &[]).unwrap().fit(&mail()).unwrap();
        assert_eq!(zero.transforms().len(), 0);
        assert_eq!(zero.preprocessing(), none.preprocessing());
    }

    #[test]
    fn the_parameter_listing_qualifies_shared_names_and_shows_pipeline_defaults() {
        let s = spec("complement-nb", &[("vectorizer", "tfidf")]).unwrap();
        let names: Vec<String> = s
            .parameters()
            .unwrap()
            .into_iter()
            .map(|(n, _, _)| n)
            .collect();
        assert!(names.contains(&"model.norm".to_string()));
        assert!(names.contains(&"vectorizer.norm".to_string()));
        assert!(!names.iter().any(|n| n == "norm" || n.ends_with("columns")));
        let count = PipelineSpec::new("bernoulli-nb")
            .unwrap()
            .parameters()
            .unwrap();
        let binary = count.iter().find(|(n, _, _)| n == "binary").unwrap();
        assert_eq!(
            (binary.1, binary.2.default.as_str()),
            ("vectorizer", "true")
        );
    }
}
