//! The multilayer perceptron kinds: `mlp` (classes) and `mlp-regressor` (real values),
//! scikit-learn's `MLPClassifier` and `MLPRegressor` with their defaults.
//!
//! Classes become targets the output layer fits: two classes one logistic unit (`y = 1`
//! for the second class), more a softmax over one unit per class; `loss=squared` puts
//! sigmoid units there instead (one for two classes) fitted by squared error, the course's
//! network. A regressor's outputs are identity units, one per target column.
//!
//! Training starts from Glorot's weights drawn by the seeded [`Rng`], then
//!
//! - `solver=adam` / `sgd`: epochs of mini-batches ([`train`]), the rows shuffled by the
//!   same generator each epoch (`shuffle`), until the loss (or, with `early_stopping`, the
//!   score on a seeded, stratified `validation_fraction` of the rows: accuracy, or `R^2`)
//!   has not improved by `tol` for more than `n_iter_no_change` epochs, or `max_iter`
//!   epochs (a typed warning). Early stopping keeps the weights of the best epoch.
//! - `solver=lbfgs`: the whole objective minimised by the shared L-BFGS, stopping as
//!   scikit-learn's scipy call does: `max |grad| <= tol`, a relative decrease below
//!   `2.2e-9`, or `max_iter` iterations.
//!
//! Each row's loss counts with its sample weight (times its class weight for `mlp`). A
//! loss that becomes non-finite is an error naming the epoch, never a model of NaNs.

use ndarray::{Array2, ArrayView2};
use serde::{Deserialize, Serialize};

use super::activation::{Activation, Output};
use super::backprop::{Batch, Gradient, Network};
use super::layers::Layout;
use super::precision::{in_precision, Dtype, Real};
use super::step::{Adam, Schedule, Sgd, StepRule};
use super::stochastic::{epoch, train, Budget, EpochData, Trained, Watch};
use crate::data::split::train_test_split;
use crate::data::{Dataset, Features, Label};
use crate::error::{Error, Result};
use crate::estimator::{Body, Classifier, Fit, FittedModel, Kind, KindInfo, Regressor};
use crate::optim::{self, ConvergenceWarning, Function, GradNorm, Settings};
use crate::param::Params;
use crate::rng::Rng;
use crate::summary::{LossCurve, ModelSummary};
use crate::targets::class_index;
use crate::weights::{row_weights, streaming_classes, ClassWeight};

crate::choice_enum! {
    /// How the parameters are trained (see the module doc).
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Optimizer {
        Sgd = "sgd",
        #[default]
        Adam = "adam",
        Lbfgs = "lbfgs",
    }
}

crate::choice_enum! {
    /// The loss of a classifier's outputs.
    pub enum ClassLoss {
        #[default]
        CrossEntropy = "cross-entropy",
        Squared = "squared",
    }
}

/// scipy's default `ftol` of L-BFGS-B (`factr = 1e7` times the machine epsilon), which
/// scikit-learn's `solver="lbfgs"` keeps.
const LBFGS_FTOL: f64 = 1e7 * f64::EPSILON;

/// Vectors of the parameters' length a fit keeps: the weights, their gradient, the step
/// rule's state and a copy of the best weights.
const STATE_COPIES: usize = 5;

/// The rows per batch of `batch_size=auto`, at most.
const AUTO_BATCH: usize = 200;

crate::params! {
    /// The network and its training, shared by `mlp` and `mlp-regressor` (scikit-learn's
    /// defaults).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Training {
        pub hidden: Vec<usize>,
        pub activation: Activation,
        pub solver: Optimizer,
        pub alpha: f64,
        pub batch_size: Option<usize>,
        pub learning_rate: Schedule,
        pub learning_rate_init: f64,
        pub power_t: f64,
        pub max_iter: usize,
        pub shuffle: bool,
        pub seed: u64,
        pub tol: f64,
        pub momentum: f64,
        pub nesterov: bool,
        pub early_stopping: bool,
        pub validation_fraction: f64,
        pub beta_1: f64,
        pub beta_2: f64,
        pub epsilon: f64,
        pub n_iter_no_change: usize,
        pub dtype: Dtype,
    }
    schema "mlp" {
        /// units of each hidden layer, comma-separated (`64,32`: two layers); `none`: no hidden layer (a linear model)
        hidden = "100", at_least_1 => hidden;
        /// the hidden units: `relu` max(0, z), `tanh`, `sigmoid` 1 / (1 + e^-z) (the course's unit), `identity`
        activation = "relu", "`relu`, `tanh`, `sigmoid`, `identity`" => activation;
        /// the optimiser: `adam`, `sgd` (mini-batches with momentum), `lbfgs` (the whole data at each step; for small data)
        solver = "adam", "`adam`, `sgd`, `lbfgs`" => solver;
        /// the L2 penalty: alpha/2 ||W||^2 (weights, not biases) over the total sample weight
        alpha = "0.0001", non_negative => alpha;
        /// `adam`, `sgd`: rows per mini-batch (`auto`: min(200, rows))
        batch_size = "auto", at_least_1 => batch_size as Auto;
        /// `sgd`: the step schedule, `constant`, `invscaling` eta_0 / (t + 1)^power_t (t rows seen), `adaptive` (divide by 5 when stalled)
        learning_rate = "constant", "`constant`, `invscaling`, `adaptive`" => learning_rate;
        /// `adam`, `sgd`: the (first) step size eta_0
        learning_rate_init = "0.001", positive => learning_rate_init;
        /// `sgd` with `invscaling`: the exponent of the schedule
        power_t = "0.5", finite => power_t;
        /// epochs (`adam`, `sgd`) or iterations (`lbfgs`) at most
        max_iter = "200", at_least_1 => max_iter;
        /// `adam`, `sgd`: shuffle the rows before each epoch
        shuffle = "true", bool => shuffle;
        /// seed of the initial weights, the row orders and the validation split
        seed = "0", any => seed;
        /// the improvement that counts (loss, or validation score with `early_stopping`); `lbfgs`: the gradient's largest entry that stops
        tol = "0.0001", non_negative => tol;
        /// `sgd`: the momentum mu
        momentum = "0.9", unit => momentum;
        /// `sgd`: Nesterov's momentum
        nesterov = "true", bool => nesterov;
        /// `adam`, `sgd`: hold out `validation_fraction` of the rows and stop when their score stalls, keeping the best epoch's weights
        early_stopping = "false", bool => early_stopping;
        /// with `early_stopping`: the fraction of rows held out, in (0, 1)
        validation_fraction = "0.1", fraction => validation_fraction;
        /// `adam`: decay of the first moment, in [0, 1)
        beta_1 = "0.9", unit => beta_1;
        /// `adam`: decay of the second moment, in [0, 1)
        beta_2 = "0.999", unit => beta_2;
        /// `adam`: the constant added to the root of the second moment
        epsilon = "1e-8", positive => epsilon;
        /// `adam`, `sgd`: stale epochs allowed in a row before stopping
        n_iter_no_change = "10", at_least_1 => n_iter_no_change;
        /// the precision of training: `f64`, or `f32` (about twice as fast; as scikit-learn on float32 data, Adam's and SGD's weights and state are `f32`; the loss and the saved weights are `f64`)
        dtype = "f64", "`f64`, `f32`" => dtype;
    }
}

impl Default for Training {
    fn default() -> Self {
        Training {
            hidden: vec![100],
            activation: Activation::Relu,
            solver: Optimizer::Adam,
            alpha: 1e-4,
            batch_size: None,
            learning_rate: Schedule::Constant,
            learning_rate_init: 1e-3,
            power_t: 0.5,
            max_iter: 200,
            shuffle: true,
            seed: 0,
            tol: 1e-4,
            momentum: 0.9,
            nesterov: true,
            early_stopping: false,
            validation_fraction: 0.1,
            beta_1: 0.9,
            beta_2: 0.999,
            epsilon: 1e-8,
            n_iter_no_change: 10,
            dtype: Dtype::F64,
        }
    }
}

crate::params! {
    /// A multilayer perceptron classifier (scikit-learn's `MLPClassifier`).
    #[derive(Clone, Debug, PartialEq, Default)]
    pub struct Mlp {
        pub loss: ClassLoss,
        pub class_weight: ClassWeight,
        pub training: Training,
    }
    schema "mlp" {
        /// the outputs' loss: `cross-entropy` (softmax, or one logistic unit for two classes), `squared` (sigmoid units, the course's network)
        loss = "cross-entropy", "`cross-entropy`, `squared`" => loss;
        /// class weights multiplying the rows' losses: `none`, `balanced` (n / (k n_c)), `LABEL:W,...`
        class_weight = "none", "`none`, `balanced`, `LABEL:W,...`" => class_weight;
        ..training: Training;
    }
}

crate::params! {
    /// A multilayer perceptron regressor (scikit-learn's `MLPRegressor`): identity outputs,
    /// squared error.
    #[derive(Clone, Debug, PartialEq, Default)]
    pub struct MlpRegressor {
        pub training: Training,
    }
    schema "mlp-regressor" {
        ..training: Training;
    }
}

impl Mlp {
    pub const KIND: &'static str = "mlp";
}

impl MlpRegressor {
    pub const KIND: &'static str = "mlp-regressor";
}

/// Why training ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Stop {
    /// The training loss improved by less than `tol` for more than `n_iter_no_change`
    /// epochs.
    LossStalled,
    /// The validation score improved by less than `tol` for more than `n_iter_no_change`
    /// epochs; the weights are those of `best_epoch`.
    ValidationStalled {
        /// The epoch (from 1) of the best validation score.
        best_epoch: usize,
    },
    /// L-BFGS met its tolerance (gradient or relative decrease).
    Converged,
    /// Trained batch by batch ([`MlpState::partial_fit`]): no stopping rule applies.
    Batches,
    /// The budget ran out or the solver could not go on.
    Warning(ConvergenceWarning),
}

/// A fitted multilayer perceptron: the network, its parameters in one flat vector
/// (`[W_1..W_L, b_1..b_L]`, see [`Layout`]) and how training went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MlpModel {
    /// The classes, sorted (empty for a regressor).
    pub classes: Vec<Label>,
    /// The layers, units and output layer.
    pub network: Network,
    /// The weights and biases.
    pub params: Vec<f64>,
    /// The optimiser that trained them.
    pub solver: Optimizer,
    /// The loss after each epoch (`adam`, `sgd`) or each evaluation of the objective
    /// (`lbfgs`).
    pub loss_curve: Vec<f64>,
    /// The validation score after each epoch (with `early_stopping`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validation_scores: Vec<f64>,
    /// Epochs or iterations run.
    pub iterations: usize,
    /// Why training ended.
    pub stop: Stop,
}

impl Fit for Mlp {
    type Model = MlpModel;
    fn fit(&self, data: &Dataset) -> Result<MlpModel> {
        self.check_params()?;
        data.check_fit()?;
        let k = data.classes().len();
        let (output, n_out) = self.output(k);
        let targets = data.targets();
        let y = Array2::from_shape_fn((targets.len(), n_out), |(i, j)| {
            let t = targets[i];
            f64::from(if n_out == 1 { t == 1 } else { t == j })
        });
        let weights = row_weights(data, &self.class_weight)?;
        let weights = weights.iter().any(|&w| w != 1.0).then_some(&weights[..]);
        let score = Score::Accuracy(targets);
        let fitted = self
            .training
            .fit_network(data.x(), y.view(), weights, output, score)?;
        Ok(MlpModel {
            classes: data.classes().to_vec(),
            ..fitted
        })
    }
}

impl Fit for MlpRegressor {
    type Model = MlpModel;
    fn fit(&self, data: &Dataset) -> Result<MlpModel> {
        self.check_params()?;
        let y = data.require_values()?;
        data.x().check_fit_input()?;
        y.iter().enumerate().try_for_each(|(p, v)| {
            if v.is_finite() {
                Ok(())
            } else {
                Err(Error::data(format!(
                    "the target of row {} is {v}; targets must be finite",
                    p / y.ncols() + 1
                )))
            }
        })?;
        self.training
            .fit_network(data.x(), y, data.weights(), Output::Identity, Score::R2)
    }
}

impl Kind for Mlp {
    const INFO: &'static KindInfo = &KindInfo::classifier(
        Self::KIND,
        super::GROUP,
        "multilayer perceptron: hidden layers of relu / tanh / sigmoid units by backpropagation (Adam, SGD, L-BFGS)",
    );
    fn depends_on_row_order(&self) -> bool {
        self.training.depends_on_row_order()
    }
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        Some(&mut self.class_weight)
    }
}

impl Kind for MlpRegressor {
    const INFO: &'static KindInfo = &KindInfo::regressor(
        Self::KIND,
        super::GROUP,
        "multilayer perceptron regression: identity outputs, squared error",
    );
    fn depends_on_row_order(&self) -> bool {
        self.training.depends_on_row_order()
    }
}

/// The validation score of early stopping.
#[derive(Clone, Copy)]
enum Score<'t> {
    /// Weighted accuracy against these class indices.
    Accuracy(&'t [usize]),
    /// Weighted `R^2`, averaged over the outputs.
    R2,
}

impl Score<'_> {
    /// The score of the network's outputs `a` on `rows` against `y`.
    fn of(self, a: &Array2<f64>, rows: &[usize], y: ArrayView2<f64>, w: Option<&[f64]>) -> f64 {
        let weight = |i: usize| w.map_or(1.0, |w| w[i]);
        let total: f64 = rows.iter().map(|&i| weight(i)).sum();
        if total <= 0.0 {
            return 0.0;
        }
        match self {
            Score::Accuracy(targets) => {
                let right: f64 = rows
                    .iter()
                    .zip(a.rows())
                    .filter(|(&i, out)| class_of_outputs(out.as_slice().unwrap()) == targets[i])
                    .map(|(&i, _)| weight(i))
                    .sum();
                right / total
            }
            Score::R2 => {
                let mut sum = 0.0;
                for j in 0..y.ncols() {
                    let mean = rows.iter().map(|&i| weight(i) * y[[i, j]]).sum::<f64>() / total;
                    let (mut res, mut tot) = (0.0, 0.0);
                    for (r, &i) in rows.iter().enumerate() {
                        res += weight(i) * (y[[i, j]] - a[[r, j]]).powi(2);
                        tot += weight(i) * (y[[i, j]] - mean).powi(2);
                    }
                    sum += if tot > 0.0 {
                        1.0 - res / tot
                    } else if res == 0.0 {
                        1.0
                    } else {
                        0.0
                    };
                }
                sum / y.ncols() as f64
            }
        }
    }
}

/// The class an output row predicts: a single unit above 1/2 is class 1, else the
/// largest unit.
fn class_of_outputs(out: &[f64]) -> usize {
    if out.len() == 1 {
        usize::from(out[0] > 0.5)
    } else {
        crate::numeric::argmax(out)
    }
}

impl Training {
    /// Whether the model depends on the order of the rows: mini-batches are runs of rows
    /// in the order given (shuffled by the seed), so the steps depend on it; L-BFGS sees
    /// all rows at once.
    fn depends_on_row_order(&self) -> bool {
        self.solver != Optimizer::Lbfgs
    }

    /// With `dtype=f32`, an error naming the first value of `x` (by row and column) beyond
    /// single precision's range, which would train on infinities.
    fn check_range(&self, x: &Features) -> Result<()> {
        if self.dtype != Dtype::F32 {
            return Ok(());
        }
        let found = x.first_stored(|v| v.is_finite() && (v as f32).is_infinite());
        match found {
            None => Ok(()),
            Some((i, j, v)) => Err(Error::param(
                "dtype",
                "f32",
                format!(
                    "row {} column {} holds {v:e}, beyond single precision's range (about 3.4e38); use dtype=f64 or scale the features",
                    i + 1,
                    j + 1
                ),
            )),
        }
    }

    /// Trains a network of these settings with `output` units on `x`, `y` (one column per
    /// output unit), sample weights `weights` (`None`: 1).
    fn fit_network(
        &self,
        x: &Features,
        y: ArrayView2<f64>,
        weights: Option<&[f64]>,
        output: Output,
        score: Score,
    ) -> Result<MlpModel> {
        self.check_range(x)?;
        let (network, mut rng, mut params) = self.initial(x.n_cols(), y.ncols(), output)?;
        let n = x.n_rows();
        let all: Vec<usize> = (0..n).collect();
        let mut model = MlpModel {
            classes: Vec::new(),
            network,
            params: Vec::new(),
            solver: self.solver,
            loss_curve: Vec::new(),
            validation_scores: Vec::new(),
            iterations: 0,
            stop: Stop::Converged,
        };
        let net = &model.network;
        if self.solver == Optimizer::Lbfgs {
            let batch = Batch {
                x,
                rows: &all,
                y,
                weights,
            };
            let mut curve = Vec::new();
            let mut gradient = Gradient::new(net, self.dtype);
            let mut f = Function::new(params.len(), |w: &[f64], g: &mut [f64]| {
                let v = gradient.loss_grad(w, self.alpha, &batch, g);
                curve.push(v);
                v
            });
            let settings = Settings {
                max_iter: self.max_iter,
                gtol: self.tol,
                norm: GradNorm::Max,
                ftol: LBFGS_FTOL,
                step: 1.0,
            };
            let (w, report) = optim::Solver::Lbfgs.minimize(&mut f, params, &settings)?;
            if let Some(ConvergenceWarning::Diverged { iteration }) = report.warning {
                return Err(diverged("iteration", iteration));
            }
            model.params = w;
            model.loss_curve = curve;
            model.iterations = report.iterations;
            model.stop = report.warning.map_or(Stop::Converged, Stop::Warning);
            return Ok(model);
        }
        let (train_rows, valid_rows) = if self.early_stopping {
            let strata = match score {
                Score::Accuracy(targets) => Some(targets),
                Score::R2 => None,
            };
            train_test_split(n, self.validation_fraction, strata, rng.next_u64()).map_err(
                |_| {
                    Error::param(
                        "validation_fraction",
                        self.validation_fraction,
                        format!(
                            "early stopping cannot split {n} rows into a training and a validation part; give more rows or set early_stopping=false"
                        ),
                    )
                },
            )?
        } else {
            (all, Vec::new())
        };
        let budget = Budget {
            batch_size: self.batch_rows(train_rows.len()),
            max_iter: self.max_iter,
            tol: self.tol,
            n_iter_no_change: self.n_iter_no_change,
        };
        let data = EpochData {
            x,
            rows: &train_rows,
            y,
            weights,
        };
        let mut validate = |p: &[f64]| {
            let a = net.predict_rows(p, x, &valid_rows);
            score.of(&a, &valid_rows, y, weights)
        };
        let watch = Watch {
            shuffle: self.shuffle.then_some(&mut rng),
            validation: self
                .early_stopping
                .then_some(&mut validate as &mut dyn FnMut(&[f64]) -> f64),
        };
        let mut gradient = Gradient::new(net, self.dtype);
        gradient.keep_rows_in_f32(x);
        gradient.order_rows_by_zeros(x);
        let trained = match self.dtype {
            Dtype::F64 => self.train_in::<f64>(&mut gradient, &mut params, &data, &budget, watch),
            Dtype::F32 => self.train_in::<f32>(&mut gradient, &mut params, &data, &budget, watch),
        };
        crate::context::checkpoint()?;
        if let Some(ConvergenceWarning::Diverged { iteration }) = trained.warning {
            return Err(diverged("epoch", iteration));
        }
        model.iterations = trained.loss_curve.len();
        model.stop = match (trained.warning, trained.best_epoch) {
            (Some(w), _) => Stop::Warning(w),
            (None, Some(best_epoch)) => Stop::ValidationStalled { best_epoch },
            (None, None) => Stop::LossStalled,
        };
        model.params = params;
        model.loss_curve = trained.loss_curve;
        model.validation_scores = trained.validation_scores;
        Ok(model)
    }
    /// The network of these settings for `n_in` inputs and `n_out` outputs, the seeded
    /// generator and Glorot's initial weights drawn from it; an error for settings out of
    /// range.
    fn initial(
        &self,
        n_in: usize,
        n_out: usize,
        output: Output,
    ) -> Result<(Network, Rng, Vec<f64>)> {
        for (name, v) in [("beta_1", self.beta_1), ("beta_2", self.beta_2)] {
            if v >= 1.0 {
                return Err(Error::param(name, v, "must be in [0, 1)"));
            }
        }
        if self.early_stopping && self.validation_fraction >= 1.0 {
            return Err(Error::param(
                "validation_fraction",
                self.validation_fraction,
                "must be in (0, 1): some rows must be left to train on",
            ));
        }
        let network = Network {
            layout: Layout::new(n_in, &self.hidden, n_out)?,
            activation: self.activation,
            output,
        };
        let n_params = network.layout.n_params();
        // the weights, their gradient and the solver's state (Adam's two moments; L-BFGS
        // keeps more, but as pairs of vectors of the same length)
        crate::memory::check(
            || {
                format!(
                    "the network {:?}: {n_params} weights and biases, each kept {STATE_COPIES} times",
                    network.layout.sizes
                )
            },
            &[n_params, STATE_COPIES],
            8,
        )?;
        let mut rng = Rng::new(self.seed);
        let params = network.layout.glorot(self.activation, &mut rng);
        Ok((network, rng, params))
    }

    /// Epochs of the stochastic solver ([`train`]) with the parameters, their gradient and
    /// the solver's state in the precision `T`; `params` and the validation score's
    /// parameters in `f64` (exact copies of those in `T`).
    fn train_in<T: Real>(
        &self,
        gradient: &mut Gradient,
        params: &mut [f64],
        data: &EpochData,
        budget: &Budget,
        watch: Watch<f64>,
    ) -> Trained {
        let mut rule = self.step_rule::<T>(params.len());
        let mut wide = Vec::new();
        let mut validation = watch.validation.map(|score| {
            move |p: &[T]| {
                wide.clear();
                wide.extend(p.iter().map(|v| v.wide()));
                score(&wide)
            }
        });
        let watch = Watch {
            shuffle: watch.shuffle,
            validation: (validation.as_mut()).map(|f| f as &mut dyn FnMut(&[T]) -> f64),
        };
        in_precision(params, |p: &mut [T]| {
            train(gradient, p, self.alpha, data, budget, rule.as_step(), watch)
        })
    }

    /// The stochastic solver's step rule for `n` parameters in the precision `T`, at rest.
    fn step_rule<T: Real>(&self, n: usize) -> Rule<T> {
        match self.solver {
            Optimizer::Sgd => Rule::Sgd(
                Sgd::new(n, self.learning_rate_init, self.momentum, self.nesterov)
                    .scheduled(self.learning_rate, self.power_t),
            ),
            _ => Rule::Adam(Adam::new(
                n,
                self.learning_rate_init,
                self.beta_1,
                self.beta_2,
                self.epsilon,
            )),
        }
    }

    /// Rows per mini-batch for `n` training rows.
    fn batch_rows(&self, n: usize) -> usize {
        self.batch_size.unwrap_or(AUTO_BATCH).clamp(1, n.max(1))
    }

    /// A state that trains by [`MlpState::partial_fit`]: the network for `n_features`
    /// inputs and `n_out` outputs at its initial weights. Only the stochastic solvers
    /// train batch by batch, and early stopping needs the whole data.
    fn start(
        &self,
        n_features: usize,
        n_out: usize,
        output: Output,
        classes: Vec<Label>,
        class_weights: Vec<f64>,
    ) -> Result<MlpState> {
        if self.solver == Optimizer::Lbfgs {
            return Err(Error::param(
                "solver",
                "lbfgs",
                "partial_fit trains by epochs of mini-batches; use solver=adam or solver=sgd",
            ));
        }
        if self.early_stopping {
            return Err(Error::param(
                "early_stopping",
                true,
                "needs the whole data set for its validation split; partial_fit trains without it",
            ));
        }
        if n_features == 0 {
            return Err(Error::data("X has 0 features; at least 1 is required"));
        }
        let (network, rng, params) = self.initial(n_features, n_out, output)?;
        let rule = match self.dtype {
            Dtype::F64 => Rules::F64(self.step_rule(params.len())),
            Dtype::F32 => Rules::F32(self.step_rule(params.len())),
        };
        Ok(MlpState {
            rule,
            training: self.clone(),
            class_weights,
            model: MlpModel {
                classes,
                network,
                params,
                solver: self.solver,
                loss_curve: Vec::new(),
                validation_scores: Vec::new(),
                iterations: 0,
                stop: Stop::Batches,
            },
            rng,
            seen: 0,
        })
    }
}

/// The step rule of a stochastic solver in the precision `T`, kept by value so that a
/// state can be copied.
#[derive(Clone, Debug)]
enum Rule<T> {
    Sgd(Sgd<T>),
    Adam(Adam<T>),
}

impl<T: Real> Rule<T> {
    fn as_step(&mut self) -> &mut dyn StepRule<T> {
        match self {
            Rule::Sgd(r) => r,
            Rule::Adam(r) => r,
        }
    }
}

/// The step rule of a stochastic solver at the precision of training, `dtype`.
#[derive(Clone, Debug)]
enum Rules {
    F64(Rule<f64>),
    F32(Rule<f32>),
}

impl Rules {
    /// One epoch over `order` ([`epoch`]) with the parameters in the rule's precision;
    /// `params` in `f64` before and after. Returns its loss.
    fn epoch(
        &mut self,
        gradient: &mut Gradient,
        params: &mut [f64],
        training: &Training,
        data: &EpochData,
        order: &[usize],
    ) -> f64 {
        let (alpha, batch) = (training.alpha, training.batch_rows(order.len()));
        match self {
            Rules::F64(r) => in_precision(params, |p| {
                epoch(gradient, p, alpha, data, order, batch, r.as_step())
            }),
            Rules::F32(r) => in_precision(params, |p| {
                epoch(gradient, p, alpha, data, order, batch, r.as_step())
            }),
        }
    }

    /// The epoch ended `seen` rows into training.
    fn epoch_ends(&mut self, seen: usize) {
        match self {
            Rules::F64(r) => r.as_step().epoch_ends(seen),
            Rules::F32(r) => r.as_step().epoch_ends(seen),
        }
    }
}

impl Mlp {
    /// A classifier that learns batch by batch (scikit-learn's `partial_fit`) over
    /// `classes` (every batch's labels must be among them) and `n_features` features.
    /// `class_weight=balanced` needs the whole data set and is refused here.
    pub fn start(&self, classes: Vec<Label>, n_features: usize) -> Result<MlpState> {
        self.check_params()?;
        let (classes, class_weights) = streaming_classes(classes, &self.class_weight, Self::KIND)?;
        let (output, n_out) = self.output(classes.len());
        self.training
            .start(n_features, n_out, output, classes, class_weights)
    }

    /// The output layer and its units for `k` classes.
    fn output(&self, k: usize) -> (Output, usize) {
        match self.loss {
            ClassLoss::CrossEntropy if k <= 2 => (Output::Logistic, 1),
            ClassLoss::CrossEntropy => (Output::Softmax, k),
            ClassLoss::Squared => (Output::SquaredSigmoid, if k <= 2 { 1 } else { k }),
        }
    }
}

impl MlpRegressor {
    /// A regressor that learns batch by batch (scikit-learn's `partial_fit`) with
    /// `n_features` inputs and `n_outputs` targets.
    pub fn start(&self, n_features: usize, n_outputs: usize) -> Result<MlpState> {
        self.check_params()?;
        self.training.start(
            n_features,
            n_outputs,
            Output::Identity,
            Vec::new(),
            Vec::new(),
        )
    }
}

/// A multilayer perceptron that keeps learning: the network and its weights, the step
/// rule's state (Adam's moments, SGD's velocity and schedule) and the generator of the row
/// orders. Each [`MlpState::partial_fit`] is one epoch over the batch given, so that
/// epochs over the same rows equal a fit of as many epochs.
#[derive(Clone, Debug)]
pub struct MlpState {
    training: Training,
    /// Weight of each class (empty for a regressor).
    class_weights: Vec<f64>,
    model: MlpModel,
    rule: Rules,
    rng: Rng,
    /// Rows trained on so far (the `invscaling` schedule's `t`).
    seen: usize,
}

impl MlpState {
    /// One epoch over `batch` in mini-batches (its rows shuffled when `shuffle`), the step
    /// rule going on where the last call left it. A classifier's labels must be among its
    /// classes; on error the state is unchanged.
    pub fn partial_fit(&mut self, batch: &Dataset) -> Result<()> {
        let x = batch.x();
        let n_in = self.model.network.layout.sizes[0];
        let n_out = self.model.network.layout.n_outputs();
        let (y, weights) = if self.model.classes.is_empty() {
            x.check_fit_input()?;
            let y = batch.require_values()?;
            if y.ncols() != n_out {
                return Err(Error::data(format!(
                    "the batch has {} target columns; the network was started with {n_out}",
                    y.ncols()
                )));
            }
            (y.to_owned(), batch.weights().map(<[f64]>::to_vec))
        } else {
            batch.check_fit()?;
            let index = class_index(batch, &self.model.classes)?;
            let targets: Vec<usize> = batch.targets().iter().map(|&t| index[t]).collect();
            let y = Array2::from_shape_fn((targets.len(), n_out), |(i, j)| {
                f64::from(if n_out == 1 {
                    targets[i] == 1
                } else {
                    targets[i] == j
                })
            });
            let w = (0..targets.len())
                .map(|i| batch.weight(i) * self.class_weights[targets[i]])
                .collect();
            (y, Some(w))
        };
        if x.n_cols() != n_in {
            return Err(Error::FeatureCount {
                expected: n_in,
                found: x.n_cols(),
            });
        }
        self.training.check_range(x)?;
        let n = x.n_rows();
        let mut order: Vec<usize> = (0..n).collect();
        let mut rng = self.rng.clone();
        if self.training.shuffle {
            rng.shuffle(&mut order);
        }
        let (mut params, mut rule) = (self.model.params.clone(), self.rule.clone());
        let data = EpochData {
            x,
            rows: &order,
            y: y.view(),
            weights: weights.as_deref(),
        };
        let mut gradient = Gradient::new(&self.model.network, self.training.dtype);
        gradient.order_rows_by_zeros(x);
        let loss = rule.epoch(&mut gradient, &mut params, &self.training, &data, &order);
        if !loss.is_finite() {
            return Err(diverged("epoch", self.model.iterations + 1));
        }
        self.seen += n;
        rule.epoch_ends(self.seen);
        (self.model.params, self.rule, self.rng) = (params, rule, rng);
        self.model.loss_curve.push(loss);
        self.model.iterations += 1;
        Ok(())
    }

    /// The model of the weights so far.
    pub fn model(&self) -> &MlpModel {
        &self.model
    }
}

/// The error of a loss that became non-finite.
fn diverged(what: &str, at: usize) -> Error {
    Error::data(format!(
        "training diverged: the loss became non-finite at {what} {at}; lower learning_rate_init (or scale the features)"
    ))
}

impl MlpModel {
    /// Checks that the parts agree: parameters of the layout, finite, classes unique and
    /// matched by the output layer.
    pub fn validate(&self) -> Result<()> {
        let bad = |field: &str, why: String| Err(Error::data(format!("MLP model: {field} {why}")));
        let layout = &self.network.layout;
        if layout.sizes.len() < 2 || layout.sizes.contains(&0) {
            return bad(
                "network.layout.sizes",
                format!("{:?} must be at least two sizes >= 1", layout.sizes),
            );
        }
        // the sizes must not overflow before the count below is trusted
        Layout::new(
            layout.sizes[0],
            &layout.sizes[1..layout.n_layers()],
            layout.n_outputs(),
        )?;
        if self.params.len() != layout.n_params() {
            return bad(
                "params",
                format!(
                    "hold {} numbers; the layers {:?} have {}",
                    self.params.len(),
                    layout.sizes,
                    layout.n_params()
                ),
            );
        }
        if let Some(p) = self.params.iter().position(|v| !v.is_finite()) {
            return bad("params", format!("entry {p} is {}", self.params[p]));
        }
        let k = self.classes.len();
        let n_out = layout.n_outputs();
        let fits = match self.network.output {
            Output::Identity => k == 0,
            Output::Logistic => (1..=2).contains(&k) && n_out == 1,
            Output::Softmax => k > 2 && n_out == k,
            Output::SquaredSigmoid => (1..=2).contains(&k) && n_out == 1 || k > 2 && n_out == k,
        };
        if !fits {
            return bad(
                "network.output",
                format!(
                    "{:?} with {n_out} units does not fit {k} classes",
                    self.network.output
                ),
            );
        }
        let mut sorted = self.classes.clone();
        sorted.sort();
        sorted.dedup();
        if sorted != self.classes {
            return bad("classes", "must be sorted and unique".into());
        }
        Ok(())
    }

    /// What `inspect` shows: the layers, the parameter count, the training and why it
    /// ended.
    pub fn details(&self) -> Vec<(String, String)> {
        let net = &self.network;
        let sizes = &net.layout.sizes;
        let output = match net.output {
            Output::Softmax => "softmax",
            Output::Logistic => "logistic",
            Output::Identity => "identity",
            Output::SquaredSigmoid => "sigmoid, squared loss",
        };
        let mut layers = vec![format!("{} inputs", sizes[0])];
        for &units in &sizes[1..net.layout.n_layers()] {
            layers.push(format!("{units} {}", net.activation));
        }
        layers.push(format!("{} {output}", net.layout.n_outputs()));
        let unit = match self.solver {
            Optimizer::Lbfgs => "iterations",
            _ => "epochs",
        };
        let mut lines = vec![
            ("layers".to_string(), layers.join(" -> ")),
            (
                "weights and biases".to_string(),
                self.params.len().to_string(),
            ),
            (
                "training".to_string(),
                format!("{}, {} {unit}", self.solver, self.iterations),
            ),
        ];
        if let Some(loss) = self.loss_curve.last() {
            lines.push(("final loss".to_string(), format!("{loss:.6}")));
        }
        if let Some(best) = self.validation_scores.iter().copied().reduce(f64::max) {
            lines.push(("best validation score".to_string(), format!("{best:.6}")));
        }
        let stop = match &self.stop {
            Stop::LossStalled => "the training loss stopped improving by tol".to_string(),
            Stop::ValidationStalled { best_epoch } => format!(
                "the validation score stopped improving by tol; the weights are those of epoch {best_epoch}"
            ),
            Stop::Converged => "converged (gradient or decrease below the tolerance)".to_string(),
            Stop::Batches => "trained batch by batch (partial_fit), one epoch per batch".to_string(),
            Stop::Warning(w) => w.to_string(),
        };
        lines.push(("stopped".to_string(), stop));
        lines
    }

    /// The output units' values on `x` (after checking its width and values).
    fn outputs(&self, x: &Features) -> Result<Array2<f64>> {
        x.check_predict_input(self.network.layout.sizes[0])?;
        Ok(self.network.predict(&self.params, x))
    }
}

impl Classifier for MlpModel {
    fn classes(&self) -> &[Label] {
        &self.classes
    }
    fn n_features(&self) -> usize {
        self.network.layout.sizes[0]
    }
    /// The probabilities (the most probable class has the largest).
    fn decision_function(&self, x: &Features) -> Result<Array2<f64>> {
        self.predict_proba(x)
    }
    fn predict_log_proba(&self, x: &Features) -> Result<Array2<f64>> {
        Ok(self.predict_proba(x)?.mapv_into(f64::ln))
    }
    /// One output unit `a` gives `(1 - a, a)` (a single class: probability 1); softmax
    /// outputs are the probabilities; `loss=squared`'s sigmoid units are normalised to sum
    /// to 1.
    fn predict_proba(&self, x: &Features) -> Result<Array2<f64>> {
        let a = self.outputs(x)?;
        let k = self.classes.len();
        Ok(match (k, a.ncols()) {
            (1, _) => Array2::ones((a.nrows(), 1)),
            (_, 1) => Array2::from_shape_fn((a.nrows(), 2), |(i, j)| {
                if j == 1 {
                    a[[i, 0]]
                } else {
                    1.0 - a[[i, 0]]
                }
            }),
            _ => {
                let mut p = a;
                for mut row in p.rows_mut() {
                    let total = row.sum();
                    if total > 0.0 {
                        row /= total;
                    } else {
                        row.fill(1.0 / k as f64);
                    }
                }
                p
            }
        })
    }
    fn predicts_most_probable(&self) -> bool {
        true
    }
}

impl Regressor for MlpModel {
    fn n_features(&self) -> usize {
        self.network.layout.sizes[0]
    }
    fn n_outputs(&self) -> usize {
        self.network.layout.n_outputs()
    }
    fn predict(&self, x: &Features) -> Result<Array2<f64>> {
        self.outputs(x)
    }
}

impl Body for MlpModel {
    const TAG: &'static str = "Mlp";
    fn validate(&self) -> Result<()> {
        MlpModel::validate(self)
    }
}

impl FittedModel for MlpModel {
    fn as_classifier(&self) -> Option<&dyn Classifier> {
        (!self.classes.is_empty()).then_some(self as &dyn Classifier)
    }
    fn as_regressor(&self) -> Option<&dyn Regressor> {
        self.classes.is_empty().then_some(self as &dyn Regressor)
    }
    fn summary(&self, _feature_names: &dyn Fn() -> Vec<String>) -> ModelSummary {
        ModelSummary {
            details: self.details(),
            ..ModelSummary::default()
        }
    }
    fn loss_curve(&self) -> Option<LossCurve> {
        let sizes: Vec<String> = self
            .network
            .layout
            .sizes
            .iter()
            .map(ToString::to_string)
            .collect();
        Some(LossCurve {
            loss_curve: self.loss_curve.clone(),
            validation_scores: self.validation_scores.clone(),
            stop: serde_json::to_value(&self.stop).unwrap_or(serde_json::Value::Null),
            title: format!(
                "Training of a {} network by {}",
                sizes.join("-"),
                self.solver
            ),
            step: match self.solver {
                Optimizer::Lbfgs => "evaluation of the objective",
                _ => "epoch",
            },
            validation: if self.classes.is_empty() {
                "validation 1 - R^2"
            } else {
                "validation error (1 - accuracy)"
            },
        })
    }
}
