//! The pocket algorithm: PLA in random order that keeps "in its pocket" the weights with the
//! smallest weighted in-sample 0/1 error seen so far.
//!
//! ```text
//! w_pocket = w_0
//! repeat up to max_updates times:
//!     find the next mistake n of the random-order walk; w <- w + eta c_n y_n x_n
//!     if E_in(w) < E_in(w_pocket): w_pocket <- w
//! E_in(w) = sum_n c_n [sign(w.x_n + b) != y_n] / sum_n c_n
//! ```
//!
//! Cost: each update is followed by one pass over the data to compute `E_in`, so a fit costs
//! `O(max_updates * nnz)` (plus `O(d)` to copy an improving `w`). The walk stops early when
//! a pocketed `E_in` reaches 0. With integer weights `E_in` is exactly the error on the data
//! with each row repeated `c_n` times (the courses' "copy each -1 example 1000 times"), so
//! the pocket minimises the same criterion as on the repeated data (the random walk itself
//! differs).

use crate::data::Dataset;
use crate::error::Result;
use crate::estimator::{Fit, Kind, KindInfo};
use crate::linear::binary::{
    binary_model, check_eta, initial_weights, least_squares_start, BinaryFit, Step, Walk,
};
use crate::optim::{Convergence, ConvergenceWarning};
use crate::rng::Rng;
use crate::score::{LinearModel, Link};
use crate::weights::ClassWeight;
use crate::with_rows;

crate::params_struct! {
    /// Params of the pocket algorithm.
    ///
    /// 1000 updates is ten to twenty times the budgets of the courses' pocket exercises
    /// (50 and 100 updates) and keeps a fit at 1000 passes of `E_in`.
    pub struct Pocket as "pocket" {
        /// PLA updates (each followed by an `O(nnz)` check of `E_in`)
        pub max_updates: usize = "1000", "`>= 0`";
        /// learning rate of each update
        pub eta: f64 = "1", positive;
        /// seed of the random visiting order
        pub seed: u64 = "0", any;
        /// fold in `x_0 = 1` and learn `b = w_0`
        pub fit_intercept: bool = "true", bool;
        /// per-class weight multiplying the sample weights
        pub class_weight: ClassWeight = "none", "`none`, `balanced`, `LABEL:W,...`";
        /// initial `(w_0 = b, w_1, ..., w_d)` (`(w_1..w_d)` without an intercept); the pipeline passes linear regression's here
        pub init_weights: Option<Vec<f64>> = "none", "`none`, or `d + 1` (`d`) finite numbers";
    }
}

impl Fit for Pocket {
    type Model = LinearModel;
    /// The pocketed weights; `convergence().updates` counts the walk's updates and
    /// `in_sample_error` is the pocketed weights' `E_in` (a `NotSeparated` warning when > 0).
    fn fit(&self, data: &Dataset) -> Result<LinearModel> {
        check_eta(self.eta)?;
        let fit = BinaryFit::new(data, &self.class_weight, Self::KIND)?;
        let start = initial_weights(
            self.init_weights.as_deref(),
            data.n_features(),
            self.fit_intercept,
        )?;
        let rng = Some(Rng::new(self.seed));
        let mut walk = Walk::new(&fit, self.eta, self.fit_intercept, start, rng);
        let (best_w, best_b, best_e) = with_rows!(data.x(), |m| {
            let mut best_e = fit.weighted_error(m, &walk.w, walk.b);
            let (mut best_w, mut best_b) = (walk.w.clone(), walk.b);
            // each update costs a pass over the data (E_in), so each checks for cancellation
            while best_e > 0.0 && walk.updates < self.max_updates && !crate::context::cancelled() {
                let Step::Mistake(i) = walk.next_mistake(m, usize::MAX) else {
                    break;
                };
                walk.update(m, i);
                let e = fit.weighted_error(m, &walk.w, walk.b);
                if e < best_e {
                    best_e = e;
                    best_w.copy_from_slice(&walk.w);
                    best_b = walk.b;
                }
            }
            (best_w, best_b, best_e)
        });
        crate::context::checkpoint()?;
        let convergence = Convergence {
            iterations: walk.passes,
            updates: Some(walk.updates),
            in_sample_error: Some(best_e),
            warning: (best_e > 0.0).then_some(ConvergenceWarning::NotSeparated {
                updates: walk.updates,
                in_sample_error: best_e,
            }),
            ..Convergence::default()
        };
        binary_model(data, best_w, best_b, Link::Sign, convergence)
    }
}

impl Kind for Pocket {
    const INFO: &'static KindInfo = &KindInfo::binary(
        Self::KIND,
        super::CLASSIFIER_GROUP,
        "PLA keeping the weights of least in-sample error",
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Features, Label};
    use crate::estimator::Classifier;
    use crate::linear::binary::tests::separable;
    use crate::linear::Perceptron;
    use crate::param::Params;
    use ndarray::Array2;
    use proptest::prelude::*;

    /// A noisy set: separable points with a fraction of labels flipped.
    fn noisy(seed: u64, n: usize) -> Dataset<'static> {
        let (clean, _, _) = separable(seed, n, 3, 0.0);
        let mut rng = crate::rng::Rng::new(seed ^ 0xABCD);
        let labels: Vec<Label> = clean
            .labels()
            .into_iter()
            .map(|l| match (&l, rng.next_f64() < 0.15) {
                (Label::Int(v), true) => Label::Int(-v),
                _ => l,
            })
            .collect();
        Dataset::new(clean.x().clone(), &labels).unwrap()
    }

    fn error_on(m: &LinearModel, data: &Dataset) -> f64 {
        let p = m.predict(data.x()).unwrap();
        let wrong = p.iter().zip(data.labels()).filter(|(a, b)| *a != b).count();
        wrong as f64 / data.n_samples() as f64
    }

    #[test]
    fn integer_weights_give_the_error_on_repeated_rows() {
        let data = noisy(11, 60);
        let weights: Vec<f64> = (0..60).map(|i| 1.0 + (i % 3) as f64).collect();
        let weighted = data.clone().with_weights(weights.clone()).unwrap();
        let m = Pocket::default().max_updates(200).fit(&weighted).unwrap();
        let repeated: Vec<usize> = (0..60)
            .flat_map(|i| std::iter::repeat_n(i, weights[i] as usize))
            .collect();
        let rep = data.select_rows(&repeated);
        let e = m.convergence().in_sample_error.unwrap();
        assert!(e > 0.0);
        assert!((e - error_on(&m, &rep)).abs() < 1e-15, "{e}");
        // and the cost-sensitive weights move the pocket: +1 errors cost 10 times more
        let costly = Pocket::default()
            .max_updates(200)
            .class_weight("1:10".parse().unwrap())
            .fit(&data)
            .unwrap();
        let plus: Vec<usize> = (0..60).filter(|&i| data.targets()[i] == 1).collect();
        let plus_data = data.select_rows(&plus);
        let plain = Pocket::default().max_updates(200).fit(&data).unwrap();
        assert!(error_on(&costly, &plus_data) <= error_on(&plain, &plus_data));
    }

    #[test]
    fn pocket_is_no_worse_than_plas_final_weights() {
        // Same seed and budget: the pocket walks exactly PLA's random walk, so PLA's final
        // weights are among the candidates the pocket compared.
        for seed in 0..5 {
            let data = noisy(seed, 80);
            let pocket = Pocket::default().seed(seed).fit(&data).unwrap();
            let pla = Perceptron::default()
                .order(crate::linear::Order::Random)
                .seed(seed)
                .max_updates(1000)
                .max_epochs(usize::MAX)
                .fit(&data)
                .unwrap();
            assert_eq!(pla.convergence().updates, pocket.convergence().updates);
            let e = pocket.convergence().in_sample_error.unwrap();
            assert!(e <= pla.convergence().in_sample_error.unwrap());
            assert!(matches!(
                pocket.convergence().warning,
                Some(ConvergenceWarning::NotSeparated { .. })
            ));
            assert!((e - error_on(&pocket, &data)).abs() < 1e-15);
        }
    }

    #[test]
    fn separable_data_is_separated_and_stops_early() {
        let (data, _, _) = separable(4, 50, 2, 0.1);
        let m = Pocket::default().fit(&data).unwrap();
        assert!(m.convergence().converged());
        assert!(m.convergence().updates.unwrap() < 1000);
        assert_eq!(m.predict(data.x()).unwrap(), data.labels());
        let mut p = Pocket::default();
        p.set_param("max_updates", "7").unwrap();
        assert_eq!(p.max_updates, 7);
        assert!(p.set_param("order", "cyclic").is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]
        #[test]
        fn never_worse_than_the_initial_weights(seed in 0u64..1000, scale in -3.0f64..3.0) {
            let data = noisy(seed, 40);
            let init = vec![0.1 * scale, scale, -scale, 0.5];
            let m = Pocket::default().seed(seed).max_updates(30).init_weights(Some(init.clone())).fit(&data).unwrap();
            let x0: Features = data.x().clone();
            let start = LinearModel::new(
                data.classes().to_vec(),
                Array2::from_shape_vec((1, 3), init[1..].to_vec()).unwrap(),
                ndarray::Array1::from_elem(1, init[0]),
                Link::Sign,
                Convergence::default(),
            ).unwrap();
            prop_assert!(m.convergence().in_sample_error.unwrap() <= error_on(&start, &Dataset::new(x0, &data.labels()).unwrap()));
        }
    }
}
