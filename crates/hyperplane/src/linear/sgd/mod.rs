//! Stochastic gradient descent for binary linear classifiers: one engine for the hinge
//! ("soft PLA"), log (logistic regression), squared, modified Huber and perceptron losses.
//!
//! [`Sgd`] fits a whole data set; [`SgdState`] keeps learning from batches (`partial_fit`,
//! one epoch per batch); [`minimize`] is the engine itself, for other learners (logistic
//! regression's `solver=sgd`). The mathematics, the `O(nnz)` step and the stopping rule are
//! in [`engine`].
//!
//! Differences from scikit-learn's `SGDClassifier`: our squared loss is `(s - y)^2` (theirs
//! is half of it); the intercept of sparse input takes full steps (scikit-learn damps it by
//! 0.01); rows of weight 0 are skipped rather than visited; the stopping objective weighs the
//! loss by the row weights; only the L2 penalty is offered.

pub mod engine;

pub use engine::{minimize, objective, LearningRate, SgdProblem, SgdWeights, Stopping};

use crate::data::{Dataset, Features, Label};
use crate::error::{Error, Result};
use crate::estimator::{Fit, Kind, KindInfo};
use crate::linear::binary::{binary_model, BinaryFit};
use crate::linear::Loss;
use crate::optim::Convergence;
use crate::score::{LinearModel, Link};
use crate::weights::ClassWeight;

crate::params_struct! {
    /// Params of the SGD classifier (binary; wrap it for more classes). The defaults are
    /// scikit-learn's `SGDClassifier` (penalty `l2`).
    pub struct Sgd as "sgd" {
        /// pointwise loss `err(s, y)`
        pub loss: Loss = "hinge", "`hinge`, `log`, `scaled_log`, `squared`, `modified_huber`, `perceptron`";
        /// L2 strength in `(1/N) sum c_n err + alpha/2 ||w||^2`
        pub alpha: f64 = "0.0001", non_negative;
        /// step schedule
        pub learning_rate: LearningRate = "optimal", "`constant`, `optimal`, `invscaling`";
        /// step of `constant`, first step of `invscaling`
        pub eta0: f64 = "0.01", positive;
        /// exponent of `invscaling`
        pub power_t: f64 = "0.5", finite;
        /// passes over the data at most
        pub max_epochs: usize = "1000", at_least_1;
        /// stop when the epoch objective has not dropped by `tol` for `n_iter_no_change` epochs; `none`: run every epoch
        pub tol: Option<f64> = "0.001", finite;
        /// see `tol`
        pub n_iter_no_change: usize = "5", at_least_1;
        /// a new seeded row order every epoch
        pub shuffle: bool = "true", bool;
        /// seed of the shuffles
        pub seed: u64 = "0", any;
        /// return the average of the iterates (ASGD)
        pub average: bool = "false", bool;
        /// learn `b`
        pub fit_intercept: bool = "true", bool;
        /// per-class weight multiplying the sample weights
        pub class_weight: ClassWeight = "none", "`none`, `balanced`, `LABEL:W,...`";
    }
}

impl Sgd {
    /// The problem these params define.
    pub fn problem(&self) -> SgdProblem {
        SgdProblem {
            loss: self.loss,
            alpha: self.alpha,
            learning_rate: self.learning_rate,
            eta0: self.eta0,
            power_t: self.power_t,
            fit_intercept: self.fit_intercept,
            average: self.average,
        }
    }

    /// The stopping rule these params define.
    pub fn stopping(&self) -> Stopping {
        Stopping {
            max_epochs: self.max_epochs,
            tol: self.tol,
            n_iter_no_change: self.n_iter_no_change,
            shuffle: self.shuffle,
            seed: self.seed,
        }
    }

    /// `Logistic` for the log losses (so the model has `predict_proba`), `Sign` otherwise.
    pub fn link(&self) -> Link {
        match self.loss {
            Loss::Log | Loss::ScaledLog => Link::Logistic,
            _ => Link::Sign,
        }
    }

    fn validate(&self) -> Result<()> {
        self.problem().validate()?;
        if self.n_iter_no_change == 0 {
            return Err(Error::param("n_iter_no_change", 0, "must be >= 1"));
        }
        Ok(())
    }

    /// A state for streaming training over `classes` (at most two, sorted as the fitted
    /// model keeps them; `classes[1]` is +1) and `n_features` features: every batch given to
    /// [`SgdState::partial_fit`] must use only these classes. `class_weight=balanced` needs
    /// the whole data set and is refused here.
    pub fn start(&self, classes: Vec<Label>, n_features: usize) -> Result<SgdState> {
        self.validate()?;
        if n_features == 0 {
            return Err(Error::data("X has 0 features; at least 1 is required"));
        }
        let (classes, class_weights) =
            crate::weights::streaming_classes(classes, &self.class_weight, Self::KIND)?;
        let one_per_class = crate::targets::one_row_per_class(&classes)?;
        crate::targets::signed_targets(&one_per_class, Self::KIND)?;
        Ok(SgdState {
            params: self.clone(),
            classes,
            class_weights,
            weights: SgdWeights::zeros(n_features, self.average),
            convergence: Convergence::default(),
        })
    }
}

impl Fit for Sgd {
    type Model = LinearModel;
    fn fit(&self, data: &Dataset) -> Result<LinearModel> {
        self.validate()?;
        let fit = BinaryFit::new(data, &self.class_weight, Self::KIND)?;
        let mut weights = SgdWeights::zeros(data.n_features(), self.average);
        let convergence = minimize(
            data.x(),
            &fit.y,
            &fit.c,
            &self.problem(),
            &self.stopping(),
            &mut weights,
        )?;
        let (w, b) = weights.solution();
        binary_model(data, w, b, self.link(), convergence)
    }
}

impl Kind for Sgd {
    const INFO: &'static KindInfo = &KindInfo::binary(
        Self::KIND,
        super::CLASSIFIER_GROUP,
        "stochastic gradient descent on hinge, log, squared, modified Huber or perceptron loss",
    );
    fn depends_on_row_order(&self) -> bool {
        true
    }
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        Some(&mut self.class_weight)
    }
}

/// SGD that keeps learning: the weights, the step counter `t` and the classes.
#[derive(Clone, Debug, PartialEq)]
pub struct SgdState {
    params: Sgd,
    classes: Vec<Label>,
    class_weights: Vec<f64>,
    weights: SgdWeights,
    convergence: Convergence,
}

impl SgdState {
    /// One epoch over `batch` (in a seeded random order when `shuffle`), continuing the
    /// schedule where the last batch left it. Labels must be among the state's classes;
    /// on error the state is unchanged.
    pub fn partial_fit(&mut self, batch: &Dataset) -> Result<()> {
        batch.check_fit()?;
        let x: &Features = batch.x();
        if x.n_cols() != self.weights.n_features() {
            return Err(Error::FeatureCount {
                expected: self.weights.n_features(),
                found: x.n_cols(),
            });
        }
        let index = crate::targets::class_index(batch, &self.classes)?;
        let single = self.classes.len() == 1;
        let (mut y, mut c) = (
            Vec::with_capacity(x.n_rows()),
            Vec::with_capacity(x.n_rows()),
        );
        for (i, &t) in batch.targets().iter().enumerate() {
            let k = index[t];
            y.push(if k == 1 || single { 1.0 } else { -1.0 });
            c.push(batch.weight(i) * self.class_weights[k]);
        }
        let stopping = Stopping {
            max_epochs: 1,
            tol: None,
            ..self.params.stopping()
        };
        let mut weights = self.weights.clone();
        let run = minimize(x, &y, &c, &self.params.problem(), &stopping, &mut weights)?;
        self.weights = weights;
        self.convergence = Convergence {
            iterations: self.weights.epochs,
            updates: Some(self.weights.updates),
            objective: run.objective,
            warning: run.warning,
            ..Convergence::default()
        };
        Ok(())
    }

    /// The model of the weights so far (averaged when `average`).
    pub fn model(&self) -> Result<LinearModel> {
        let (w, b) = self.weights.solution();
        let dummy = crate::targets::one_row_per_class(&self.classes)?;
        binary_model(&dummy, w, b, self.params.link(), self.convergence.clone())
    }

    /// The engine state (weights, step counter, epochs, updates).
    pub fn weights(&self) -> &SgdWeights {
        &self.weights
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimator::Classifier;
    use crate::linear::binary::tests::{separable, sparse_copy};
    use crate::param::Params;
    use crate::rng::Rng;
    use ndarray::Array2;

    /// A noisy logistic problem: `P(y = +1 | x) = sigma(w_f . x + b_f)`.
    fn logistic_data(seed: u64, n: usize) -> Dataset<'static> {
        let mut rng = Rng::new(seed);
        let w_f = [1.5, -2.0, 0.5];
        let x = Array2::from_shape_fn((n, 3), |_| rng.next_f64() * 2.0 - 1.0);
        let labels: Vec<Label> = x
            .rows()
            .into_iter()
            .map(|r| {
                let s: f64 = r.iter().zip(&w_f).map(|(a, b)| a * b).sum::<f64>() + 0.3;
                let p = 1.0 / (1.0 + (-s).exp());
                Label::Int(if rng.next_f64() < p { 1 } else { -1 })
            })
            .collect();
        Dataset::new(x.into(), &labels).unwrap()
    }

    #[test]
    fn log_loss_approaches_the_logistic_regression_optimum() {
        let data = logistic_data(1, 400);
        let fit = BinaryFit::new(&data, &ClassWeight::Uniform, "t").unwrap();
        let alpha = 0.01;
        let f = |m: &LinearModel| {
            objective(
                data.x(),
                &fit.y,
                &fit.c,
                Loss::Log,
                alpha,
                m.weights(0).as_slice().unwrap(),
                m.intercept()[0],
            )
        };
        // a long averaged run with a decaying step is the reference optimum
        let long = Sgd::default()
            .loss(Loss::Log)
            .alpha(alpha)
            .average(true)
            .tol(None)
            .max_epochs(2000)
            .fit(&data)
            .unwrap();
        let short = Sgd::default()
            .loss(Loss::Log)
            .alpha(alpha)
            .fit(&data)
            .unwrap();
        let (f_long, f_short) = (f(&long), f(&short));
        assert!(f_long <= f_short + 1e-9, "{f_long} > {f_short}");
        assert!(f_short - f_long < 2e-3, "{f_short} vs optimum {f_long}");
        // at the optimum the gradient vanishes: (1/N) sum -y sigma(-y s) x + alpha w = 0
        let w = long.weights(0).to_vec();
        let mut grad = [0.0; 3];
        let mut gb = 0.0;
        let xd = data.x().to_dense();
        for i in 0..400 {
            let s = xd.row(i).iter().zip(&w).map(|(a, b)| a * b).sum::<f64>() + long.intercept()[0];
            let g = Loss::Log.derivative(s, fit.y[i]) / 400.0;
            for j in 0..3 {
                grad[j] += g * xd[[i, j]];
            }
            gb += g;
        }
        for j in 0..3 {
            grad[j] += alpha * w[j];
        }
        let norm = (grad.iter().map(|g| g * g).sum::<f64>() + gb * gb).sqrt();
        assert!(norm < 1e-3, "gradient norm {norm}");
        assert_eq!(long.link(), Link::Logistic);
        let p = long.predict_proba(data.x()).unwrap();
        assert!((p.row(0).sum() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn hinge_separates_separable_data_dense_and_sparse_alike() {
        let (data, _, _) = separable(7, 100, 3, 0.1);
        let sparse = sparse_copy(&data);
        let p = Sgd::default().alpha(1e-5);
        let (a, b) = (p.fit(&data).unwrap(), p.fit(&sparse).unwrap());
        assert_eq!(a.coef(), b.coef());
        assert_eq!(a.predict(data.x()).unwrap(), data.labels());
        assert!(a.predict_proba(data.x()).is_err());
        assert!(a.convergence().converged(), "{:?}", a.convergence());
    }

    #[test]
    fn partial_fit_streams_batches_like_epochs() {
        let data = logistic_data(2, 200);
        let params = Sgd::default().loss(Loss::Log).shuffle(false).tol(None);
        let mut state = params.start(data.classes().to_vec(), 3).unwrap();
        for _ in 0..3 {
            state.partial_fit(&data).unwrap();
        }
        let whole = params.clone().max_epochs(3).fit(&data).unwrap();
        let streamed = state.model().unwrap();
        assert_eq!(streamed.coef(), whole.coef());
        assert_eq!(state.weights().epochs, 3);
        // batches of one class only, then an unknown class
        let first: Vec<usize> = (0..200).filter(|&i| data.targets()[i] == 0).collect();
        let mut s = params.start(data.classes().to_vec(), 3).unwrap();
        s.partial_fit(&data.select_rows(&first)).unwrap();
        assert!(s.model().unwrap().intercept()[0] < 0.0);
        let other = Dataset::new(Array2::<f64>::zeros((1, 3)).into(), &[Label::Int(7)]).unwrap();
        let before = s.clone();
        assert!(matches!(
            s.partial_fit(&other),
            Err(Error::UnknownClass { .. })
        ));
        assert_eq!(s, before);
        let wide = Dataset::new(Array2::<f64>::zeros((1, 4)).into(), &[Label::Int(1)]).unwrap();
        assert!(s.partial_fit(&wide).is_err());
        assert!(params
            .clone()
            .class_weight(ClassWeight::Balanced)
            .start(data.classes().to_vec(), 3)
            .is_err());
        assert!(params
            .start(vec![Label::Int(0), Label::Int(1), Label::Int(2)], 3)
            .is_err());
    }

    #[test]
    fn weights_and_params() {
        let data = logistic_data(3, 120);
        let unit = Sgd::default().shuffle(false).tol(None).max_epochs(3);
        let a = unit.fit(&data).unwrap();
        // zero-weight rows are as if absent
        let keep: Vec<usize> = (0..120).filter(|i| i % 5 != 0).collect();
        let w: Vec<f64> = (0..120)
            .map(|i| if i % 5 == 0 { 0.0 } else { 1.0 })
            .collect();
        let with_zeros = unit.fit(&data.clone().with_weights(w).unwrap()).unwrap();
        let without = unit.fit(&data.select_rows(&keep)).unwrap();
        assert_eq!(with_zeros.coef(), without.coef());
        assert_ne!(a.coef(), without.coef());
        let mut p = Sgd::default();
        p.set_param("loss", "modified_huber").unwrap();
        p.set_param("learning_rate", "invscaling").unwrap();
        p.set_param("tol", "none").unwrap();
        assert_eq!(
            (p.loss, p.learning_rate, p.tol),
            (Loss::ModifiedHuber, LearningRate::InvScaling, None)
        );
        assert!(p.set_param("learning_rate", "adaptive").is_err());
        assert!(Sgd::default().loss(Loss::ZeroOne).fit(&data).is_err());
        assert!(Sgd::default().n_iter_no_change(0).fit(&data).is_err());
        assert!(Sgd::default().alpha(-1.0).fit(&data).is_err());
    }
}
