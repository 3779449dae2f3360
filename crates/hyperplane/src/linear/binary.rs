//! What the binary linear learners share: their checked inputs (`y_n` in {-1, +1} and the
//! row weights `c_n`), the params macro of PLA, pocket and SGD, and the mistake walk of PLA
//! and pocket with its weighted in-sample 0/1 error:
//!
//! ```text
//! mistake on row n:  y_n (w . x_n + b) <= 0
//! update:            w <- w + eta c_n y_n x_n,   b <- b + eta c_n y_n
//! E_in(w, b)       = sum_n c_n [sign(w . x_n + b) != y_n] / sum_n c_n
//! ```

use ndarray::{Array1, Array2};
use rayon::prelude::*;

use super::linear_regression_init;
use crate::data::{Dataset, RowAccess};
use crate::error::{Error, Result};
use crate::optim::Convergence;
use crate::rng::Rng;
use crate::score::{LinearModel, Link};
use crate::targets::signed_targets;
use crate::weights::{row_weights, ClassWeight};

/// What one step of a mistake walk found.
pub(super) enum Step {
    /// Row `n` is misclassified by the current weights.
    Mistake(usize),
    /// Every row is on its side.
    Clean,
    /// The pass budget ran out.
    OutOfPasses,
}

/// The walk of PLA and pocket: current weights and the position in the row order.
pub(super) struct Walk {
    /// `[y_n, c_n]`: label and weight side by side, one cache line for a shuffled visit.
    labels: Vec<[f64; 2]>,
    eta: f64,
    fit_intercept: bool,
    pub w: Vec<f64>,
    pub b: f64,
    order: Vec<usize>,
    pos: usize,
    rng: Option<Rng>,
    /// Passes started.
    pub passes: usize,
    /// Updates made.
    pub updates: usize,
    /// Visits since the last update that found the row correct.
    clean: usize,
}

impl Walk {
    /// A walk from `(w, b)`; `rng` shuffles every pass when given.
    pub fn new(
        fit: &BinaryFit,
        eta: f64,
        fit_intercept: bool,
        (w, b): (Vec<f64>, f64),
        rng: Option<Rng>,
    ) -> Self {
        let n = fit.y.len();
        Walk {
            labels: fit.y.iter().zip(&fit.c).map(|(&y, &c)| [y, c]).collect(),
            eta,
            fit_intercept,
            w,
            b,
            order: (0..n).collect(),
            pos: n,
            rng,
            passes: 0,
            updates: 0,
            clean: 0,
        }
    }

    /// The next misclassified row (`y_n s_n <= 0`, weight > 0) in the walk's order, starting
    /// no more than `max_passes` passes in all. Cyclic order is clean after `N` correct
    /// visits in a row; random order after a whole pass of them.
    pub fn next_mistake<M: RowAccess>(&mut self, m: &M, max_passes: usize) -> Step {
        let n = self.order.len();
        loop {
            if self.rng.is_none() && self.clean >= n {
                return Step::Clean;
            }
            if self.pos == n {
                if self.clean >= n {
                    return Step::Clean;
                }
                // a cancelled walk ends as one out of passes; its fit reports the cancellation
                if self.passes == max_passes || crate::context::cancelled() {
                    return Step::OutOfPasses;
                }
                self.passes += 1;
                self.pos = 0;
                if let Some(rng) = &mut self.rng {
                    rng.shuffle(&mut self.order);
                }
            }
            let i = self.order[self.pos];
            m.prefetch_ahead(&self.order, self.pos, &self.labels);
            self.pos += 1;
            let [y, c] = self.labels[i];
            if c > 0.0 && y * (m.dot_row(i, &self.w) + self.b) <= 0.0 {
                return Step::Mistake(i);
            }
            self.clean += 1;
        }
    }

    /// `w += eta c_n y_n x_n`, `b += eta c_n y_n`.
    pub fn update<M: RowAccess>(&mut self, m: &M, i: usize) {
        let [y, c] = self.labels[i];
        let step = self.eta * c * y;
        m.add_row_scaled(i, step, &mut self.w);
        if self.fit_intercept {
            self.b += step;
        }
        self.updates += 1;
        self.clean = 0;
    }
}

/// The checked inputs of a binary linear learner: signed targets and row weights.
pub(super) struct BinaryFit {
    /// `y_n` in {-1, +1}.
    pub y: Vec<f64>,
    /// `c_n = sample_weight_n * class_weight_{y_n}`.
    pub c: Vec<f64>,
}

impl BinaryFit {
    /// Checks the data (rows, columns, finite values, at most two classes, positive total
    /// weight) and computes `y` and `c`.
    pub fn new(data: &Dataset, class_weight: &ClassWeight, model: &str) -> Result<Self> {
        data.check_fit()?;
        let y = signed_targets(data, model)?;
        let c = row_weights(data, class_weight)?;
        if c.iter().sum::<f64>() <= 0.0 {
            return Err(Error::data(format!(
                "{model}: every row has weight 0 (sample weight x class weight); at least one must be positive"
            )));
        }
        Ok(BinaryFit { y, c })
    }

    /// The weighted 0/1 error `sum_n c_n [sign(s_n) != y_n] / sum_n c_n` of `(w, b)`,
    /// predicting `+1` exactly when `s_n > 0` (as the fitted model does). One pass, O(nnz),
    /// over fixed chunks of rows (in parallel when there are several), summed in chunk
    /// order: the same on any number of threads. Pocket makes one after every update.
    pub fn weighted_error<M: RowAccess>(&self, m: &M, w: &[f64], b: f64) -> f64 {
        /// Rows per chunk: on adult's rows (14 entries) about 0.1 ms of work, well above the
        /// cost of a parallel step.
        const CHUNK: usize = 8192;
        let n = self.y.len();
        let chunk = |k: usize| {
            let (mut wrong, mut total) = (0.0, 0.0);
            for i in k * CHUNK..((k + 1) * CHUNK).min(n) {
                let (y, c) = (self.y[i], self.c[i]);
                if (m.dot_row(i, w) + b > 0.0) != (y > 0.0) {
                    wrong += c;
                }
                total += c;
            }
            (wrong, total)
        };
        // one thread: no parallel step (handing the chunks to the pool's one thread and
        // waiting for it costs more than they save); the same chunks and sums either way
        let chunks = n.div_ceil(CHUNK).max(1);
        let parts: Vec<(f64, f64)> = if chunks == 1 || rayon::current_num_threads() == 1 {
            (0..chunks).map(chunk).collect()
        } else {
            (0..chunks).into_par_iter().map(chunk).collect()
        };
        let (wrong, total) = parts
            .iter()
            .fold((0.0, 0.0), |(a, t), &(pa, pt)| (a + pa, t + pt));
        wrong / total
    }
}

/// Checks `eta > 0` and the budget of passes.
pub(super) fn check_eta(eta: f64) -> Result<()> {
    if !(eta.is_finite() && eta > 0.0) {
        return Err(Error::param("eta", eta, "must be finite and > 0"));
    }
    Ok(())
}

/// The least-squares start of a walk, in its layout: `(b, w_1..w_d)` with an intercept,
/// `(w_1..w_d)` without (the courses' initialisation, [`linear_regression_init`]).
pub(super) fn least_squares_start(
    data: &Dataset,
    class_weight: &ClassWeight,
    fit_intercept: bool,
) -> Result<Vec<f64>> {
    let (w, b) = linear_regression_init(data, class_weight)?;
    Ok(if fit_intercept {
        std::iter::once(b).chain(w).collect()
    } else {
        w
    })
}

/// The initial `(w, b)`: zeros, or `init = (w_0 = b, w_1..w_d)` (`(w_1..w_d)` without an
/// intercept).
pub(super) fn initial_weights(
    init: Option<&[f64]>,
    n_features: usize,
    fit_intercept: bool,
) -> Result<(Vec<f64>, f64)> {
    let Some(init) = init else {
        return Ok((vec![0.0; n_features], 0.0));
    };
    let expected = n_features + usize::from(fit_intercept);
    if init.len() != expected {
        return Err(Error::param(
            "init_weights",
            format!("{} numbers", init.len()),
            format!(
                "needs {expected}: {}one per feature",
                if fit_intercept { "w_0 = b, then " } else { "" }
            ),
        ));
    }
    if let Some(v) = init.iter().find(|v| !v.is_finite()) {
        return Err(Error::param("init_weights", v, "must be finite"));
    }
    Ok(if fit_intercept {
        (init[1..].to_vec(), init[0])
    } else {
        (init.to_vec(), 0.0)
    })
}

/// The fitted binary model of `(w, b)`.
pub(super) fn binary_model(
    data: &Dataset,
    w: Vec<f64>,
    b: f64,
    link: Link,
    convergence: Convergence,
) -> Result<LinearModel> {
    let d = w.len();
    let coef = Array2::from_shape_vec((1, d), w).map_err(|e| Error::data(e.to_string()))?;
    LinearModel::new(
        data.classes().to_vec(),
        coef,
        Array1::from_elem(1, b),
        link,
        convergence,
    )
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::data::{CsrMatrix, Label};
    use crate::with_rows;

    /// A seeded separable set: `n` points in `[-1, 1]^d` labelled by `(w_f, b_f)`, keeping
    /// only points with `|w_f.x + b_f| >= margin`, half of each class.
    pub fn separable(
        seed: u64,
        n: usize,
        d: usize,
        margin: f64,
    ) -> (Dataset<'static>, Vec<f64>, f64) {
        let mut rng = crate::rng::Rng::new(seed);
        // ||w_f||_1 = 1 and |b_f| < 0.5: both sides are reachable beyond a margin < 0.5
        let w_f: Vec<f64> = (0..d).map(|_| rng.next_f64() * 2.0 - 1.0).collect();
        let l1: f64 = w_f.iter().map(|v| v.abs()).sum();
        let w_f: Vec<f64> = w_f.iter().map(|v| v / l1).collect();
        let b_f = rng.next_f64() - 0.5;
        let (mut rows, mut labels) = (Vec::new(), Vec::new());
        while rows.len() < n {
            let x: Vec<f64> = (0..d).map(|_| rng.next_f64() * 2.0 - 1.0).collect();
            let s: f64 = x.iter().zip(&w_f).map(|(a, b)| a * b).sum::<f64>() + b_f;
            let positive = labels.iter().filter(|l| **l == Label::Int(1)).count();
            let room = if s > 0.0 {
                positive < n / 2
            } else {
                rows.len() - positive < n - n / 2
            };
            if s.abs() >= margin && room {
                labels.push(Label::Int(if s > 0.0 { 1 } else { -1 }));
                rows.push(x);
            }
        }
        let x = Array2::from_shape_fn((n, d), |(i, j)| rows[i][j]);
        (Dataset::new(x.into(), &labels).unwrap(), w_f, b_f)
    }

    /// The same data set with CSR features.
    pub fn sparse_copy(data: &Dataset) -> Dataset<'static> {
        let x = CsrMatrix::from_dense(data.x().to_dense().view());
        Dataset::new(x.into(), &data.labels()).unwrap()
    }

    #[test]
    fn weighted_error_is_the_same_on_any_number_of_threads() {
        // 100,000 rows make 13 chunks; random weights make the order of the sums show
        let n = 100_000;
        let mut rng = crate::rng::Rng::new(5);
        let x = Array2::from_shape_fn((n, 3), |_| rng.next_f64() * 2.0 - 1.0);
        let side = |i: usize| x[[i, 0]] - 0.2 * x[[i, 1]] > 0.1;
        let labels: Vec<Label> = (0..n)
            .map(|i| Label::Int(2 * i64::from(side(i)) - 1))
            .collect();
        let data = Dataset::new(x.into(), &labels).unwrap();
        let weights: Vec<f64> = (0..n).map(|_| 0.01 + rng.next_f64()).collect();
        let data = data.with_weights(weights.clone()).unwrap();
        let fit = BinaryFit::new(&data, &ClassWeight::Uniform, "test").unwrap();
        let (w, b) = (vec![0.3, -1.0, 0.2], 0.1);
        let on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| with_rows!(data.x(), |m| fit.weighted_error(m, &w, b)))
        };
        let one = on(1);
        for threads in [2, 3] {
            assert_eq!(one.to_bits(), on(threads).to_bits(), "{threads} threads");
        }
        // the definition, row by row
        let x = data.x().to_dense();
        let y = signed_targets(&data, "test").unwrap();
        let wrong: f64 = (0..n)
            .filter(|&i| (x.row(i).dot(&Array1::from(w.clone())) + b > 0.0) != (y[i] > 0.0))
            .map(|i| weights[i])
            .sum();
        let expected = wrong / weights.iter().sum::<f64>();
        assert!((one - expected).abs() < 1e-12, "{one} vs {expected}");
        assert!(one > 0.05 && one < 0.95, "{one}");
    }
}
