//! The contracts every learner keeps.
//!
//! A learner is a plain params struct (with `Default` and builder setters) that implements
//! [`Fit`]: `fit` validates the params, checks the data and returns a fitted model. A
//! fitted classifier implements [`Classifier`], a fitted regressor [`Regressor`]; every
//! method returns `Result` and checks the feature count, so nothing panics on user input.
//!
//! A model kind is declared once, in its own file: its params struct implements [`Kind`]
//! (its [`KindInfo`], and the hooks where it differs from the defaults), and its fitted
//! model [`FittedModel`] and [`Body`] (its name in model files). Its family lists it in
//! one [`Registration`] line of its [`Family`]; the pipeline lists the families, one line
//! each. The registry and the pipeline see every kind through two object-safe traits:
//! [`Learn`] (a learner of any kind, with its parameters; every `Kind` is one) and
//! `FittedModel` (a fitted model of any kind, saved and read back by its body's name).

use std::any::Any;
use std::fmt::Debug;

use ndarray::Array2;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::data::{Dataset, Features, Label};
use crate::error::Result;
use crate::numeric;
use crate::param::Params;
use crate::score::LinearModel;
use crate::summary::{LossCurve, ModelSummary};
use crate::weights::{row_weights, ClassWeight};

/// Params that can be fitted to a data set.
pub trait Fit {
    /// The fitted model.
    type Model;
    /// Validates the params, checks the data (non-empty, finite) and fits.
    fn fit(&self, data: &Dataset) -> Result<Self::Model>;
}

/// A fitted classifier.
pub trait Classifier {
    /// The classes, sorted; column `k` of every score matrix belongs to `classes()[k]`.
    fn classes(&self) -> &[Label];
    /// The number of features the model was fitted on.
    fn n_features(&self) -> usize;
    /// Per-class scores, shape `(n_samples, n_classes)`; the predicted class has the
    /// largest score. (For Naive Bayes: the joint log-likelihood `log P(y) + log P(x | y)`.)
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>>;
    /// `log P(y | x)` per class.
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>>;

    /// `P(y | x)` per class; each row sums to 1.
    fn predict_proba(&self, x: &Features) -> Result<Array2<f64>> {
        Ok(self.predict_log_proba(x)?.mapv_into(f64::exp))
    }
    /// Whether [`predict_index`](Classifier::predict_index) is the most probable class of
    /// each row (the first largest of [`predict_proba`](Classifier::predict_proba), up to
    /// ties made by rounding), so a caller holding the probabilities need not predict
    /// again. False unless the model says so: a kernel SVM votes over its pairs.
    fn predicts_most_probable(&self) -> bool {
        false
    }
    /// Whether [`predict_index`](Classifier::predict_index) is the first largest of
    /// [`decision_function`](Classifier::decision_function) (its default), so a caller
    /// holding the scores need not predict again. A kernel SVM of more than two classes
    /// votes over its pairs, and its scores (votes plus bounded confidences) may break a
    /// tie of votes otherwise.
    fn predicts_largest_score(&self) -> bool {
        true
    }
    /// Index into `classes()` of the predicted class of each row (first maximum on ties).
    fn predict_index(&self, x: &Features) -> Result<Vec<usize>> {
        let scores = self.decision_function(x)?;
        Ok(scores
            .rows()
            .into_iter()
            .map(|r| numeric::argmax(r.as_slice().unwrap_or(&r.to_vec())))
            .collect())
    }
    /// The predicted label of each row.
    fn predict(&self, x: &Features) -> Result<Vec<Label>> {
        let classes = self.classes();
        Ok(self
            .predict_index(x)?
            .into_iter()
            .map(|k| classes[k].clone())
            .collect())
    }
}

/// A fitted regression model: real-valued predictions, one column per output.
pub trait Regressor {
    /// The number of features the model was fitted on.
    fn n_features(&self) -> usize;
    /// The number of outputs (columns of `y`).
    fn n_outputs(&self) -> usize;
    /// Predictions, shape `(n_samples, n_outputs)`; checks the feature count.
    fn predict(&self, x: &Features) -> Result<Array2<f64>>;
}

/// What a model kind predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    /// Classes (labels of any kind).
    Classifier,
    /// Real numbers (one or more outputs).
    Regressor,
    /// Novelty detection: inliers (class `1`) and outliers (`-1`) of the training rows'
    /// distribution; the rows' labels are not used in training.
    Novelty,
}

/// A model kind as its family declares it, beside its code; the pipeline's registry
/// ([`pipeline::kinds`](crate::pipeline::kinds)) lists every family's kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KindInfo {
    /// The name `--model` and `PipelineSpec::new` take.
    pub name: &'static str,
    /// The family, as the kind table groups kinds.
    pub family: &'static str,
    /// What it predicts.
    pub task: Task,
    /// Whether it separates two classes only (more classes go through one-vs-all or
    /// one-vs-one).
    pub binary: bool,
    /// Whether it models categorical features (categories as indices, numeric columns
    /// binned) rather than numeric ones (categories one-hot).
    pub categorical_input: bool,
    /// Whether it reads text (`vectorizer=count` or `hashing`) as token counts by default
    /// (`binary=false`), rather than token presence: the multinomial event model, whose
    /// likelihood is `prod_j P(t_j | c)^{x_j}` over the counts `x_j`.
    #[serde(skip)]
    pub text_counts: bool,
    /// Whether it can start from the least-squares weights (`pipeline.init=linreg`, the
    /// courses' initialisation of PLA, pocket and logistic regression; see
    /// [`Kind::warm_started`]).
    pub least_squares_start: bool,
    /// What it is, in one line.
    pub about: &'static str,
}

impl KindInfo {
    /// A classifier of more than two classes natively.
    pub const fn classifier(name: &'static str, family: &'static str, about: &'static str) -> Self {
        KindInfo {
            name,
            family,
            task: Task::Classifier,
            binary: false,
            categorical_input: false,
            text_counts: false,
            least_squares_start: false,
            about,
        }
    }

    /// A classifier of two classes.
    pub const fn binary(name: &'static str, family: &'static str, about: &'static str) -> Self {
        KindInfo {
            binary: true,
            ..KindInfo::classifier(name, family, about)
        }
    }

    /// A regressor.
    pub const fn regressor(name: &'static str, family: &'static str, about: &'static str) -> Self {
        KindInfo {
            task: Task::Regressor,
            ..KindInfo::classifier(name, family, about)
        }
    }

    /// A novelty detector (predicts `1` inside, `-1` outside; labels unused).
    pub const fn novelty(name: &'static str, family: &'static str, about: &'static str) -> Self {
        KindInfo {
            task: Task::Novelty,
            ..KindInfo::classifier(name, family, about)
        }
    }

    /// The same kind, reading text as token counts by default.
    pub const fn reading_text_counts(self) -> Self {
        KindInfo {
            text_counts: true,
            ..self
        }
    }

    /// The same kind, able to start from the least-squares weights.
    pub const fn starting_from_least_squares(self) -> Self {
        KindInfo {
            least_squares_start: true,
            ..self
        }
    }

    /// The same kind, reading categorical features.
    pub const fn with_categorical_input(self) -> Self {
        KindInfo {
            categorical_input: true,
            ..self
        }
    }
}

/// A model kind: a params struct declared once, in its own file, with everything the
/// registry needs. Its [`KindInfo`], its default params (`Default`), its fit (`Fit`, to a
/// model with a [`Body`] in model files) and its parameter schema (`Params`) are required;
/// what the pipeline does around a fit is a hook with a default, overridden where the kind
/// differs. Every `Kind` is a [`Learn`], so its family lists it with one line,
/// [`Registration::of`].
///
/// ```text
/// impl Kind for Perceptron {
///     const INFO: &'static KindInfo = &KindInfo::binary(Self::KIND, GROUP, "the PLA");
///     fn depends_on_row_order(&self) -> bool { true }
/// }
/// // in the family's list: Registration::of::<Perceptron>(),
/// ```
pub trait Kind:
    Fit<Model: FittedModel + Body> + Params + Default + Clone + Debug + Send + Sync + 'static
{
    /// Its registry entry.
    const INFO: &'static KindInfo;

    /// Whether the fitted model depends on the order of the training rows beyond rounding
    /// (mistake-driven and stochastic learners).
    fn depends_on_row_order(&self) -> bool {
        false
    }
    /// Its class weights, when it has them: a multiclass reduction applies them once, on
    /// the original classes, as row weights ([`Learn::split_class_weight`]).
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        None
    }
    /// The learner started from the least-squares weights of binary `data` (the courses'
    /// initialisation of PLA, pocket and logistic regression); `None` for a learner that
    /// has no starting weights. A kind that overrides it says so in its `INFO`
    /// ([`KindInfo::starting_from_least_squares`]), which the pipeline reads before any
    /// data is seen.
    fn warm_started(&self, _data: &Dataset) -> Result<Option<Self>> {
        Ok(None)
    }
    /// The numbers (`f64`) a fit keeps that grow with the width of the data, as factors
    /// to multiply, checked against the [memory budget](crate::memory) before fitting. By
    /// default four per feature and class (dense weights and a solver's vectors, or the
    /// tables of a Naive Bayes model); `n_classes` is 1 for a regressor.
    fn width_state(&self, n_features: usize, n_classes: usize) -> [usize; 3] {
        [n_features, n_classes.max(1), 4]
    }
    /// How its walk starts, for a learner whose model the PLA bound speaks of (the
    /// perceptron); `None` for the others.
    fn pla_start(&self) -> Option<PlaStart> {
        None
    }
    /// Training batch by batch and merging parts, for a kind whose training is a sum over
    /// rows (one-pass statistics: Naive Bayes); `None` for the others.
    fn incremental(&self) -> Option<&dyn Incremental> {
        None
    }
}

/// A learner of any kind, as the registry and the pipeline drive it: a [`Kind`] behind one
/// object-safe interface (every `Kind` is one).
pub trait Learn: AsParams + CloneLearn + Debug + Send + Sync {
    /// The registry entry of its kind.
    fn info(&self) -> &'static KindInfo;
    /// Fits on `data`: its classes for a classifier, its real-valued targets
    /// ([`Dataset::values`]) for a regressor.
    fn fit_model(&self, data: &Dataset) -> Result<Box<dyn FittedModel>>;
    /// See [`Kind::depends_on_row_order`].
    fn depends_on_row_order(&self) -> bool;
    /// The learner without its class weights, with the weight they and the sample weights
    /// give each row of `data`: a multiclass reduction applies them once, on the original
    /// classes, so every sub-problem sees the same per-row costs. `None` when the learner
    /// has no class weights (or uniform ones).
    fn split_class_weight(&self, data: &Dataset) -> Result<Option<Unweighted>>;
    /// See [`Kind::warm_started`].
    fn warm_started(&self, data: &Dataset) -> Result<Option<Box<dyn Learn>>>;
    /// See [`Kind::width_state`].
    fn width_state(&self, n_features: usize, n_classes: usize) -> [usize; 3];
    /// See [`Kind::pla_start`].
    fn pla_start(&self) -> Option<PlaStart>;
    /// See [`Kind::incremental`].
    fn incremental(&self) -> Option<&dyn Incremental>;
}

impl<K: Kind> Learn for K {
    fn info(&self) -> &'static KindInfo {
        K::INFO
    }
    fn fit_model(&self, data: &Dataset) -> Result<Box<dyn FittedModel>> {
        crate::context::checkpoint()?;
        Ok(Box::new(self.fit(data)?))
    }
    fn depends_on_row_order(&self) -> bool {
        Kind::depends_on_row_order(self)
    }
    fn split_class_weight(&self, data: &Dataset) -> Result<Option<Unweighted>> {
        let mut unweighted = self.clone();
        let Some(class_weight) = unweighted.class_weight_mut() else {
            return Ok(None);
        };
        if *class_weight == ClassWeight::Uniform {
            return Ok(None);
        }
        let rows = row_weights(data, class_weight)?;
        *class_weight = ClassWeight::Uniform;
        Ok(Some((Box::new(unweighted), rows)))
    }
    fn warm_started(&self, data: &Dataset) -> Result<Option<Box<dyn Learn>>> {
        Ok(Kind::warm_started(self, data)?.map(|l| Box::new(l) as Box<dyn Learn>))
    }
    fn width_state(&self, n_features: usize, n_classes: usize) -> [usize; 3] {
        Kind::width_state(self, n_features, n_classes)
    }
    fn pla_start(&self) -> Option<PlaStart> {
        Kind::pla_start(self)
    }
    fn incremental(&self) -> Option<&dyn Incremental> {
        Kind::incremental(self)
    }
}

/// Training as a sum over rows, for the kinds whose training is one (see
/// [`Kind::incremental`]): statistics started empty, updated batch by batch, merged with
/// the statistics of other parts, and finished into a model. Merging in any grouping gives
/// the model of the union, so a host may fit its partitions apart (out of core, on several
/// machines) and merge them in partition order; a part travels as the model it finishes
/// into, whose statistics [`FittedModel::resume`] gives back.
///
/// ```
/// use hyperplane::pipeline::Learner;
/// use hyperplane::{Classifier, Dataset, Label};
/// use ndarray::array;
///
/// let y = |l: &[&str]| l.iter().map(|&s| Label::from(s)).collect::<Vec<_>>();
/// let a = Dataset::new(array![[2.0, 0.0], [0.0, 1.0]].into(), &y(&["spam", "ham"]))?;
/// let b = Dataset::new(array![[3.0, 1.0]].into(), &y(&["spam"]))?;
/// let nb = Learner::from_kind("multinomial-nb")?;
/// let one_pass = nb.incremental().expect("Naive Bayes trains in one pass");
/// let (mut left, mut right) = (one_pass.start(2), one_pass.start(2));
/// left.partial_fit(&a)?;
/// right.partial_fit(&b)?;
/// left.merge(&*right)?;
/// let merged = left.finish()?;
/// let whole = nb.fit(&Dataset::new(array![[2.0, 0.0], [0.0, 1.0], [3.0, 1.0]].into(),
///                                 &y(&["spam", "ham", "spam"]))?)?;
/// let x = array![[1.0, 1.0]].into();
/// assert_eq!(merged.as_classifier().unwrap().predict(&x)?, whole.predict(&x)?);
/// # Ok::<(), hyperplane::Error>(())
/// ```
pub trait Incremental {
    /// Statistics of no rows yet, for data of `n_features` features (the classes come
    /// with the batches).
    fn start(&self, n_features: usize) -> Box<dyn PartialFit>;
}

/// The statistics of a fit in progress (see [`Incremental`]).
pub trait PartialFit: AsAny + Debug + Send + Sync {
    /// The registry entry of its kind.
    fn info(&self) -> &'static KindInfo;
    /// Adds the rows of `batch` (a class not seen before joins); on error the statistics
    /// are unchanged.
    fn partial_fit(&mut self, batch: &Dataset) -> Result<()>;
    /// Adds the statistics of another part, of the same kind (the params are this part's).
    fn merge(&mut self, other: &dyn PartialFit) -> Result<()>;
    /// The model of every row added so far.
    fn finish(&self) -> Result<Box<dyn FittedModel>>;
}

/// A learner without its class weights, with the weight of each row they stood for.
pub type Unweighted = (Box<dyn Learn>, Vec<f64>);

/// How a perceptron's walk started, as its PLA bound needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaStart {
    /// The bias was folded in as `x_0 = 1`.
    pub fit_intercept: bool,
    /// The walk started from `w = 0` (Novikoff's bound holds from there).
    pub from_zero: bool,
}

/// A fitted model type as model files hold it: `{"<TAG>": body}`, or, in a family whose
/// kinds each have their own model type, `{"<TAG>": {"<VARIANT>": body}}`.
pub trait Body: Serialize + DeserializeOwned {
    /// The name of the body.
    const TAG: &'static str;
    /// The name of the kind's own body inside its family's, when its family has one type
    /// per kind (Naive Bayes: `Gaussian`, `Multinomial`...).
    const VARIANT: Option<&'static str> = None;
    /// Checks a body read from a model file before use; the error names the field.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

/// The names of a fitted model's body in model files (every [`Body`] has them).
pub trait Tagged {
    /// [`Body::TAG`].
    fn tag(&self) -> &'static str;
    /// [`Body::VARIANT`].
    fn variant(&self) -> Option<&'static str>;
}

impl<T: Body> Tagged for T {
    fn tag(&self) -> &'static str {
        T::TAG
    }
    fn variant(&self) -> Option<&'static str> {
        T::VARIANT
    }
}

/// A fitted model of any kind: what a pipeline holds and a model file stores, under its
/// [`Body`]'s names.
pub trait FittedModel:
    erased_serde::Serialize + Tagged + AsAny + CloneModel + Debug + Send + Sync
{
    /// The number of features it was fitted on (its classifier's or regressor's).
    fn n_features(&self) -> usize {
        match (self.as_classifier(), self.as_regressor()) {
            (Some(c), _) => c.n_features(),
            (None, Some(r)) => r.n_features(),
            (None, None) => 0,
        }
    }
    /// The model as a classifier, when it is one.
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        None
    }
    /// The model as a regressor, when it is one.
    fn as_regressor(&self) -> Option<&dyn Regressor> {
        None
    }
    /// The `k` most indicative features of each class, as `(feature index, score)`.
    fn top_features(&self, _k: usize) -> Vec<Vec<(usize, f64)>> {
        Vec::new()
    }
    /// What the scores of [`FittedModel::top_features`] mean.
    fn top_feature_score(&self) -> &'static str {
        ""
    }
    /// `P(y)` per class, when the model has class priors.
    fn class_priors(&self) -> Option<Vec<f64>> {
        None
    }
    /// What `inspect` shows of the model beyond its classes, features and priors, as
    /// structured data; `feature_names` names its features when a part needs them (made
    /// on demand: a hashed or LIBSVM width can be millions of names). By default, the
    /// linear models of its [parts](FittedModel::parts), named by the part.
    fn summary(&self, feature_names: &dyn Fn() -> Vec<String>) -> ModelSummary {
        ModelSummary::of_parts(
            self.parts()
                .into_iter()
                .map(|(name, part)| (name, part.summary(feature_names))),
        )
    }
    /// The model as a linear score `s = W x + b`, when it is one (for margins, PLA bounds
    /// and decision lines).
    fn as_linear(&self) -> Option<&LinearModel> {
        None
    }
    /// The models it is made of, named: a multiclass reduction's, by class (one-vs-all) or
    /// pair (`a vs b`, one-vs-one). Empty for a model of one kind.
    fn parts(&self) -> Vec<(String, &dyn FittedModel)> {
        Vec::new()
    }
    /// Its training curve, for a model that keeps one (the networks); `plot loss-curve`
    /// draws it.
    fn loss_curve(&self) -> Option<LossCurve> {
        None
    }
    /// The model written in another tool's `format`; `None` when the format cannot hold
    /// it, an error when this model cannot be written there.
    fn export(&self, _format: ExportFormat) -> Option<Result<String>> {
        None
    }
    /// The statistics the model keeps, to continue training it batch by batch or merge it
    /// with another part's (see [`Incremental`]); `None` for a model without them.
    fn resume(&self) -> Option<Box<dyn PartialFit>> {
        None
    }
}

erased_serde::serialize_trait_object!(FittedModel);

/// A format other than our model files that a fitted model may be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportFormat {
    /// LIBSVM's model files, as `svm-train` writes them.
    Libsvm,
}

/// A kind as its family lists it: what the registry reads of it, from its [`Kind`] impl.
#[derive(Clone, Copy)]
pub struct Registration {
    /// Its registry entry.
    pub info: &'static KindInfo,
    /// A learner of it with default params.
    pub learner: fn() -> Box<dyn Learn>,
    /// The names of its fitted models' body in model files ([`Body`]).
    pub model_tag: &'static str,
    /// See [`Body::VARIANT`].
    pub model_variant: Option<&'static str>,
    /// Reads one such body, validated.
    pub read_model: ModelReader,
}

impl Registration {
    /// The registration of kind `K`: the one line a family's list gives a kind.
    pub const fn of<K: Kind>() -> Self
    where
        K::Model: 'static,
    {
        Registration {
            info: K::INFO,
            learner: default_learner::<K>,
            model_tag: <K::Model as Body>::TAG,
            model_variant: <K::Model as Body>::VARIANT,
            read_model: read_body::<K::Model>,
        }
    }
}

fn default_learner<K: Kind>() -> Box<dyn Learn> {
    Box::new(K::default())
}

/// A family of model kinds, as it declares itself beside its code.
pub struct Family {
    /// Its kinds, one [`Registration`] each.
    pub kinds: &'static [Registration],
    /// The body of its fitted models in model files. A kind may fit another family's
    /// model (the hard-margin SVM fits the linear family's); a file of a kind holds its
    /// family's body or its own.
    pub model_tag: &'static str,
}

/// Reads a fitted model's body from a model file.
pub type ModelReader = fn(
    &mut dyn erased_serde::Deserializer,
) -> std::result::Result<Box<dyn FittedModel>, erased_serde::Error>;

/// The [`ModelReader`] of a [`Body`]: reads it and checks it with [`Body::validate`]
/// before use; a body that fails is an error naming the field.
pub fn read_body<M: FittedModel + Body>(
    d: &mut dyn erased_serde::Deserializer,
) -> std::result::Result<Box<dyn FittedModel>, erased_serde::Error> {
    let model: M = erased_serde::deserialize(d)?;
    model
        .validate()
        .map_err(|e| <erased_serde::Error as serde::de::Error>::custom(e.to_string()))?;
    Ok(Box::new(model))
}

/// Borrowing a value as its parameters (every [`Params`] type has it).
pub trait AsParams {
    /// The parameters.
    fn as_params(&self) -> &dyn Params;
    /// The parameters, to set.
    fn as_params_mut(&mut self) -> &mut dyn Params;
}

impl<T: Params> AsParams for T {
    fn as_params(&self) -> &dyn Params {
        self
    }
    fn as_params_mut(&mut self) -> &mut dyn Params {
        self
    }
}

/// Borrowing a value as [`Any`], to reach a family's own type behind a trait object.
pub trait AsAny: Any {
    /// The value as `Any`.
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Cloning a boxed learner (every `Clone` learner has it).
pub trait CloneLearn {
    /// A boxed copy.
    fn clone_learn(&self) -> Box<dyn Learn>;
}

impl<T: Learn + Clone + 'static> CloneLearn for T {
    fn clone_learn(&self) -> Box<dyn Learn> {
        Box::new(self.clone())
    }
}

/// Cloning a boxed fitted model (every `Clone` model has it).
pub trait CloneModel {
    /// A boxed copy.
    fn clone_model(&self) -> Box<dyn FittedModel>;
}

impl<T: FittedModel + Clone + 'static> CloneModel for T {
    fn clone_model(&self) -> Box<dyn FittedModel> {
        Box::new(self.clone())
    }
}
