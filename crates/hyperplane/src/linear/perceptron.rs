//! The perceptron learning algorithm (PLA) and its update bound.
//!
//! With the bias folded in as `x_0 = 1` (`w_0 = b`), PLA visits the rows in a fixed
//! (`cyclic`) or freshly shuffled (`random`) order each pass and corrects every mistake:
//!
//! ```text
//! mistake on row n:  y_n (w_t . x_n + b_t) <= 0       (a score of 0 is a mistake)
//! update:            w_{t+1} = w_t + eta c_n y_n x_n,   b_{t+1} = b_t + eta c_n y_n
//! ```
//!
//! where `c_n = sample_weight_n * class_weight_{y_n}` (rows of weight 0 are skipped). It
//! halts when every row is on its side (a full cycle without a mistake), or when the update
//! or pass budget runs out; the report then carries
//! [`ConvergenceWarning::NotSeparated`] with the final weighted `E_in`. It never loops forever.
//!
//! On linearly separable data with `w_0 = 0` (Novikoff), PLA makes at most
//! `T <= R^2 / rho^2` updates whatever `eta`, with `R = max_n ||x_n||` and
//! `rho = min_n y_n (w_f . x_n) / ||w_f||` for any separating `w_f` (both with the folded
//! coordinate when there is an intercept): see [`pla_update_bound`].
//!
//! Sample weights: integer weights are *not* the same walk as repeated rows (one update of
//! `c_n y_n x_n` replaces up to `c_n` updates of the copies, which stop as soon as a copy is
//! correct). What does hold: the weighted 0/1 error of any weights equals their error on the
//! repeated rows, so "converged" (weighted `E_in = 0`) means exactly "separates the repeated
//! rows"; and multiplying every weight by `k > 0` multiplies every iterate by `k` (same
//! predictions at every step).

use serde::{Deserialize, Serialize};

use crate::data::{Dataset, Features, RowAccess};
use crate::error::{Error, Result};
use crate::estimator::{Fit, Kind, KindInfo, PlaStart};
use crate::linear::binary::{
    binary_model, check_eta, initial_weights, least_squares_start, BinaryFit, Step, Walk,
};
use crate::optim::{Convergence, ConvergenceWarning};
use crate::rng::Rng;
use crate::score::{LinearModel, Link};
use crate::weights::ClassWeight;
use crate::with_rows;

/// The order in which PLA visits the rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Rows `1..N` in their given order, pass after pass.
    #[default]
    Cyclic,
    /// A fresh seeded shuffle of the rows for every pass.
    Random,
}

impl std::str::FromStr for Order {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.trim() {
            "cyclic" => Ok(Order::Cyclic),
            "random" => Ok(Order::Random),
            _ => Err("unknown order; choose cyclic or random".into()),
        }
    }
}

impl std::fmt::Display for Order {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Order::Cyclic => "cyclic",
            Order::Random => "random",
        })
    }
}

crate::param::choice_value!(Order = ["cyclic", "random"]);

crate::params_struct! {
    /// Params of the perceptron learning algorithm.
    ///
    /// Either budget stops a walk that does not converge; the defaults are far above what
    /// separable course data needs (`R^2 / rho^2` is usually in the hundreds) and bound a
    /// non-separable run to about `100000 * nnz / N` multiply-adds of updates plus the passes.
    pub struct Perceptron as "perceptron" {
        /// row order of each pass
        pub order: Order = "cyclic", "`cyclic`, `random`";
        /// update budget
        pub max_updates: usize = "100000", "`>= 0`";
        /// pass budget
        pub max_epochs: usize = "1000", at_least_1;
        /// learning rate of each update
        pub eta: f64 = "1", positive;
        /// seed of the `random` order
        pub seed: u64 = "0", any;
        /// fold in `x_0 = 1` and learn `b = w_0`
        pub fit_intercept: bool = "true", bool;
        /// per-class weight multiplying the sample weights
        pub class_weight: ClassWeight = "none", "`none`, `balanced`, `LABEL:W,...`";
        /// initial `(w_0 = b, w_1, ..., w_d)` (`(w_1..w_d)` without an intercept); the pipeline passes linear regression's here
        pub init_weights: Option<Vec<f64>> = "none", "`none`, or `d + 1` (`d`) finite numbers";
    }
}

/// At most this many weight vectors are kept by [`Perceptron::fit_traced`].
pub const TRACE_CAP: usize = 10_000;

/// The weights after one PLA update (or the initial weights, `update = 0`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceStep {
    /// Updates made so far.
    pub update: usize,
    /// The row that was corrected (`None` for the initial weights).
    pub row: Option<usize>,
    /// `w` after the update.
    pub weights: Vec<f64>,
    /// `b` after the update.
    pub intercept: f64,
}

/// The weights after each update, for drawing the walk; the first [`TRACE_CAP`] are kept.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Trace {
    /// The initial weights, then one entry per update.
    pub steps: Vec<TraceStep>,
    /// Whether updates beyond the cap were left out.
    pub truncated: bool,
}

impl Trace {
    fn record(&mut self, update: usize, row: Option<usize>, w: &[f64], b: f64) {
        if self.steps.len() < TRACE_CAP {
            self.steps.push(TraceStep {
                update,
                row,
                weights: w.to_vec(),
                intercept: b,
            });
        } else {
            self.truncated = true;
        }
    }
}

impl Perceptron {
    fn validate(&self) -> Result<()> {
        check_eta(self.eta)?;
        if self.max_epochs == 0 {
            return Err(Error::param("max_epochs", 0, "must be >= 1"));
        }
        Ok(())
    }

    /// Fits and also returns the weights after each update (the first [`TRACE_CAP`]).
    pub fn fit_traced(&self, data: &Dataset) -> Result<(LinearModel, Trace)> {
        let mut trace = Trace::default();
        let model = self.run(data, Some(&mut trace))?;
        Ok((model, trace))
    }

    fn run(&self, data: &Dataset, mut trace: Option<&mut Trace>) -> Result<LinearModel> {
        self.validate()?;
        let fit = BinaryFit::new(data, &self.class_weight, Self::KIND)?;
        let start = initial_weights(
            self.init_weights.as_deref(),
            data.n_features(),
            self.fit_intercept,
        )?;
        let rng = (self.order == Order::Random).then(|| Rng::new(self.seed));
        let mut walk = Walk::new(&fit, self.eta, self.fit_intercept, start, rng);
        if let Some(t) = trace.as_deref_mut() {
            t.record(0, None, &walk.w, walk.b);
        }
        let (separated, e_in) = with_rows!(data.x(), |m| {
            let separated = loop {
                match walk.next_mistake(m, self.max_epochs) {
                    Step::Clean => break true,
                    Step::OutOfPasses => break false,
                    Step::Mistake(_) if walk.updates == self.max_updates => break false,
                    Step::Mistake(i) => {
                        walk.update(m, i);
                        if let Some(t) = trace.as_deref_mut() {
                            t.record(walk.updates, Some(i), &walk.w, walk.b);
                        }
                    }
                }
            };
            (separated, fit.weighted_error(m, &walk.w, walk.b))
        });
        crate::context::checkpoint()?;
        let convergence = Convergence {
            iterations: walk.passes,
            updates: Some(walk.updates),
            in_sample_error: Some(e_in),
            warning: (!separated).then_some(ConvergenceWarning::NotSeparated {
                updates: walk.updates,
                in_sample_error: e_in,
            }),
            ..Convergence::default()
        };
        binary_model(data, walk.w, walk.b, Link::Sign, convergence)
    }
}

impl Fit for Perceptron {
    type Model = LinearModel;
    fn fit(&self, data: &Dataset) -> Result<LinearModel> {
        self.run(data, None)
    }
}

impl Kind for Perceptron {
    const INFO: &'static KindInfo = &KindInfo::binary(
        Self::KIND,
        super::CLASSIFIER_GROUP,
        "the perceptron learning algorithm (PLA), cyclic or random order",
    )
    .starting_from_least_squares();
    fn depends_on_row_order(&self) -> bool {
        true
    }
    fn class_weight_mut(&mut self) -> Option<&mut ClassWeight> {
        Some(&mut self.class_weight)
    }
    fn warm_started(&self, data: &Dataset) -> Result<Option<Self>> {
        let w = least_squares_start(data, &self.class_weight, self.fit_intercept)?;
        Ok(Some(self.clone().init_weights(Some(w))))
    }
    fn pla_start(&self) -> Option<PlaStart> {
        Some(PlaStart {
            fit_intercept: self.fit_intercept,
            from_zero: self.init_weights.is_none(),
        })
    }
}

/// Novikoff's bound on the number of PLA updates for a separating `(w_f, b_f)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PlaBound {
    /// `R = max_n ||x_n||` (with `x_0 = 1` when there is an intercept).
    pub r: f64,
    /// `rho = min_n y_n (w_f . x_n + b_f) / ||(b_f, w_f)||`, the geometric margin of `w_f`.
    pub rho: f64,
    /// `R^2 / rho^2`: PLA from `w = 0` makes at most this many updates.
    pub bound: f64,
}

/// `T <= R^2 / rho^2` for PLA from zero weights on `x` with labels `y` in {-1, +1}, given a
/// separating `(w_f, b_f)`. With `fit_intercept` the bias is folded in: `x_n` gains the
/// coordinate `x_0 = 1` (so `R^2 = 1 + max ||x_n||^2`) and `w_f` gains `w_0 = b_f`; without
/// it, `b_f` must be 0. Unit sample weights are assumed. An error when `w_f` does not
/// separate the data (some `y_n (w_f . x_n + b_f) <= 0`).
pub fn pla_update_bound(
    x: &Features,
    y: &[f64],
    w_f: &[f64],
    b_f: f64,
    fit_intercept: bool,
) -> Result<PlaBound> {
    if y.len() != x.n_rows() || w_f.len() != x.n_cols() {
        return Err(Error::data(format!(
            "pla_update_bound needs one label per row and one weight per feature: {} labels, {} weights for a {} x {} matrix",
            y.len(),
            w_f.len(),
            x.n_rows(),
            x.n_cols()
        )));
    }
    if x.n_rows() == 0 {
        return Err(Error::data("X has 0 samples; at least 1 is required"));
    }
    if !fit_intercept && b_f != 0.0 {
        return Err(Error::param(
            "b_f",
            b_f,
            "must be 0 without an intercept (fit_intercept = false)",
        ));
    }
    let x0 = if fit_intercept { 1.0 } else { 0.0 };
    let norm_f = (b_f * b_f + w_f.iter().map(|v| v * v).sum::<f64>()).sqrt();
    let (mut r2, mut min_margin) = (0.0f64, f64::INFINITY);
    with_rows!(x, |m| {
        for (i, &yi) in y.iter().enumerate() {
            r2 = r2.max(x0 + m.row_norm_sq(i));
            let margin = yi * (m.dot_row(i, w_f) + b_f);
            if margin <= 0.0 || margin.is_nan() {
                return Err(Error::data(format!(
                    "(w_f, b_f) does not separate the data: y (w_f.x + b_f) = {margin} at row {}",
                    i + 1
                )));
            }
            min_margin = min_margin.min(margin);
        }
        Ok::<(), Error>(())
    })?;
    let rho = min_margin / norm_f;
    Ok(PlaBound {
        r: r2.sqrt(),
        rho,
        bound: r2 / (rho * rho),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimator::Classifier;
    use crate::linear::binary::tests::{separable, sparse_copy};
    use crate::param::Params;
    use crate::targets::signed_targets;
    use ndarray::array;
    use proptest::prelude::*;

    fn signed(data: &Dataset) -> Vec<f64> {
        signed_targets(data, "test").unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn pla_stops_within_the_novikoff_bound(seed in 0u64..10_000, d in 1usize..6, random in any::<bool>()) {
            let (data, w_f, b_f) = separable(seed, 60, d, 0.05);
            let bound = pla_update_bound(data.x(), &signed(&data), &w_f, b_f, true).unwrap();
            let order = if random { Order::Random } else { Order::Cyclic };
            let m = Perceptron::default().order(order).seed(seed).max_updates(usize::MAX).max_epochs(usize::MAX).fit(&data).unwrap();
            let c = m.convergence();
            prop_assert!(c.converged(), "{c:?}");
            prop_assert_eq!(c.in_sample_error, Some(0.0));
            prop_assert!(c.updates.unwrap() as f64 <= bound.bound, "{} > {}", c.updates.unwrap(), bound.bound);
            prop_assert_eq!(m.predict(data.x()).unwrap(), data.labels());
        }
    }

    #[test]
    fn xor_is_reported_not_separated_within_the_budget() {
        let x = array![[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]];
        let d = Dataset::new(x.into(), &[0.into(), 0.into(), 1.into(), 1.into()]).unwrap();
        for order in [Order::Cyclic, Order::Random] {
            let m = Perceptron::default()
                .order(order)
                .max_updates(50)
                .fit(&d)
                .unwrap();
            let c = m.convergence();
            assert_eq!(c.updates, Some(50));
            match &c.warning {
                Some(ConvergenceWarning::NotSeparated {
                    updates: 50,
                    in_sample_error,
                }) => {
                    assert!(*in_sample_error > 0.0);
                    assert_eq!(Some(*in_sample_error), c.in_sample_error);
                }
                w => panic!("{w:?}"),
            }
        }
        let m = Perceptron::default().max_epochs(3).fit(&d).unwrap();
        assert_eq!(m.convergence().iterations, 3);
        assert!(!m.convergence().converged());
    }

    #[test]
    fn cyclic_walk_by_hand_with_zero_score_as_mistake() {
        // x_1 = (1, 0) y=+1; x_2 = (0, 1) y=-1. From 0: row 0 is a mistake (s = 0):
        // w = (1, 0), b = 1; row 1: s = 1 > 0, y = -1: w = (1, -1), b = 0; then clean.
        let x = array![[1.0, 0.0], [0.0, 1.0]];
        let d = Dataset::new(x.into(), &[1.into(), (-1).into()]).unwrap();
        let (m, trace) = Perceptron::default().fit_traced(&d).unwrap();
        assert_eq!(m.coef(), &array![[1.0, -1.0]]);
        assert_eq!(m.intercept()[0], 0.0);
        assert_eq!(m.convergence().updates, Some(2));
        assert_eq!(m.convergence().iterations, 2);
        let rows: Vec<_> = trace.steps.iter().map(|s| s.row).collect();
        assert_eq!(rows, vec![None, Some(0), Some(1)]);
        assert_eq!(trace.steps[1].weights, vec![1.0, 0.0]);
        assert_eq!(trace.steps[1].intercept, 1.0);
        assert!(!trace.truncated);
        // without an intercept the bias stays 0
        let m = Perceptron::default().fit_intercept(false).fit(&d).unwrap();
        assert_eq!(m.intercept()[0], 0.0);
    }

    #[test]
    fn dense_and_sparse_walks_agree_and_seed_fixes_the_random_walk() {
        let (data, _, _) = separable(3, 80, 4, 0.02);
        let sparse = sparse_copy(&data);
        for order in [Order::Cyclic, Order::Random] {
            let p = Perceptron::default().order(order).seed(9);
            assert_eq!(p.fit(&data).unwrap(), p.fit(&sparse).unwrap());
        }
        let a = Perceptron::default().order(Order::Random).seed(1);
        let b = a.clone().seed(2);
        assert_ne!(
            a.fit(&data).unwrap().convergence(),
            b.fit(&data).unwrap().convergence()
        );
    }

    #[test]
    fn integer_weights_converge_to_weights_that_separate_the_repeated_rows() {
        let (data, _, _) = separable(5, 40, 3, 0.05);
        let weights: Vec<f64> = (0..40).map(|i| (i % 4) as f64).collect();
        let weighted = data.clone().with_weights(weights.clone()).unwrap();
        let m = Perceptron::default().fit(&weighted).unwrap();
        assert!(m.convergence().converged());
        let repeated: Vec<usize> = (0..40)
            .flat_map(|i| std::iter::repeat_n(i, weights[i] as usize))
            .collect();
        let rep = data.select_rows(&repeated);
        assert_eq!(m.predict(rep.x()).unwrap(), rep.labels());
        // a constant weight k scales every iterate by k: the same walk
        let unit = Perceptron::default().fit(&data).unwrap();
        let fours = Perceptron::default()
            .fit(&data.clone().with_weights(vec![4.0; 40]).unwrap())
            .unwrap();
        assert_eq!(fours.coef(), &(unit.coef() * 4.0));
        assert_eq!(fours.convergence().updates, unit.convergence().updates);
    }

    #[test]
    fn initial_weights_and_params_are_checked() {
        let (data, w_f, b_f) = separable(2, 30, 2, 0.1);
        // starting at a separating w makes no update
        let mut init = vec![b_f];
        init.extend(&w_f);
        let m = Perceptron::default()
            .init_weights(Some(init.clone()))
            .fit(&data)
            .unwrap();
        assert_eq!(m.convergence().updates, Some(0));
        assert_eq!(m.weights(0).to_vec(), w_f);
        assert!(Perceptron::default()
            .init_weights(Some(w_f.clone()))
            .fit(&data)
            .is_err());
        assert!(Perceptron::default().eta(0.0).fit(&data).is_err());
        assert!(Perceptron::default().max_epochs(0).fit(&data).is_err());
        let mut p = Perceptron::default();
        p.set_param("order", "random").unwrap();
        p.set_param("init_weights", "0.5,1,-1").unwrap();
        p.set_param("class_weight", "1:2").unwrap();
        assert_eq!(p.order, Order::Random);
        assert_eq!(p.init_weights, Some(vec![0.5, 1.0, -1.0]));
        assert!(p.set_param("order", "sideways").is_err());
        assert!(p.set_param("nope", "1").is_err());
        let values = p.param_values();
        assert!(values.contains(&("init_weights".into(), "0.5,1,-1".into())));
        // three classes are refused with the multiclass hint
        let three = Dataset::new(
            array![[0.0], [1.0], [2.0]].into(),
            &[0.into(), 1.into(), 2.into()],
        )
        .unwrap();
        assert!(Perceptron::default()
            .fit(&three)
            .unwrap_err()
            .to_string()
            .contains("multiclass"));
        let zero = data.clone().with_weights(vec![0.0; 30]).unwrap();
        assert!(Perceptron::default().fit(&zero).is_err());
    }

    #[test]
    fn bound_needs_a_separator_and_folds_the_bias() {
        let x: Features = array![[3.0, 4.0], [-3.0, -4.0]].into();
        let y = [1.0, -1.0];
        let b = pla_update_bound(&x, &y, &[3.0, 4.0], 0.0, false).unwrap();
        assert_eq!((b.r, b.rho, b.bound), (5.0, 5.0, 1.0));
        let b = pla_update_bound(&x, &y, &[3.0, 4.0], 0.0, true).unwrap();
        assert_eq!(b.r, 26f64.sqrt());
        assert!(pla_update_bound(&x, &y, &[1.0, -1.0], 0.0, true).is_err());
        assert!(pla_update_bound(&x, &y, &[3.0, 4.0], 1.0, false).is_err());
        assert!(pla_update_bound(&x, &[1.0], &[3.0, 4.0], 0.0, true).is_err());
    }
}
