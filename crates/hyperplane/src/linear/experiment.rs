//! The learning curve of linear regression (the course's "learning curve" experiment):
//! the in-sample and out-of-sample errors of least squares against the number of samples.
//!
//! Data: `x ~ N(0, I_d)`, `y = w_f.x + b_f + eps`, `eps ~ N(0, sigma^2)`. Least squares with
//! a bias fits `d + 1` parameters, and with the out-of-sample error measured as the course
//! does (the same inputs `X`, fresh noise `eps'`: `E_out = ||X w + b - y'||^2 / N`):
//!
//! ```text
//! E[E_in]  = sigma^2 (1 - (d + 1) / N)
//! E[E_out] = sigma^2 (1 + (d + 1) / N)
//! ```
//!
//! (`y_hat = H y` with the hat matrix `H` of trace `d + 1`: `E_in = eps^T (I - H) eps / N`
//! and `E_out = (eps'^T eps' + eps^T H eps) / N` in expectation.) The generalisation gap
//! `2 sigma^2 (d + 1) / N` closes as `N` grows, and both curves tend to `sigma^2`.

use ndarray::{Array1, Array2};
use serde::{Deserialize, Serialize};

use crate::data::Features;
use crate::error::{Error, Result};
use crate::estimator::Regressor;
use crate::linear::LinearRegression;
use crate::rng::Rng;

/// Standard normal draws by the Box-Muller transform: two uniforms `u1 in (0, 1]`, `u2`
/// give `sqrt(-2 ln u1) (cos 2 pi u2, sin 2 pi u2)`, two independent `N(0, 1)` values.
#[derive(Clone, Debug)]
pub struct StandardNormal {
    spare: Option<f64>,
}

impl StandardNormal {
    /// A sampler with no value in hand.
    pub fn new() -> Self {
        StandardNormal { spare: None }
    }
    /// The next `N(0, 1)` value from `rng`.
    pub fn sample(&mut self, rng: &mut Rng) -> f64 {
        if let Some(v) = self.spare.take() {
            return v;
        }
        let u1 = 1.0 - rng.next_f64();
        let u2 = rng.next_f64();
        let r = (-2.0 * u1.ln()).sqrt();
        let (s, c) = (2.0 * std::f64::consts::PI * u2).sin_cos();
        self.spare = Some(r * s);
        r * c
    }
}

impl Default for StandardNormal {
    fn default() -> Self {
        Self::new()
    }
}

/// The experiment's settings.
///
/// | name | default | meaning | valid range |
/// |---|---|---|---|
/// | `d` | `5` | input dimension | `>= 1` |
/// | `sigma` | `0.5` | noise standard deviation | `> 0` |
/// | `sizes` | `10, 20, 50, 100, 200` | the sample sizes `N` | each `> d + 1` |
/// | `runs` | `1000` | data sets drawn per size | `>= 1` |
/// | `seed` | `0` | the random seed | any |
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearningCurveSetup {
    pub d: usize,
    pub sigma: f64,
    pub sizes: Vec<usize>,
    pub runs: usize,
    pub seed: u64,
}

impl Default for LearningCurveSetup {
    fn default() -> Self {
        LearningCurveSetup {
            d: 5,
            sigma: 0.5,
            sizes: vec![10, 20, 50, 100, 200],
            runs: 1000,
            seed: 0,
        }
    }
}

/// One row of the learning curve: measured means beside the theory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearningCurvePoint {
    /// The sample size `N`.
    pub n: usize,
    /// Mean in-sample squared error over the runs.
    pub e_in: f64,
    /// Mean out-of-sample squared error over the runs.
    pub e_out: f64,
    /// `sigma^2 (1 - (d + 1) / N)`.
    pub e_in_theory: f64,
    /// `sigma^2 (1 + (d + 1) / N)`.
    pub e_out_theory: f64,
}

/// The learning-curve table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearningCurve {
    pub setup: LearningCurveSetup,
    pub points: Vec<LearningCurvePoint>,
}

/// Runs the experiment: for each `N`, `runs` data sets, least squares on each, mean errors.
pub fn learning_curve(setup: &LearningCurveSetup) -> Result<LearningCurve> {
    let d = setup.d;
    if d == 0 {
        return Err(Error::param("d", "0", "the input dimension must be >= 1"));
    }
    if !(setup.sigma > 0.0 && setup.sigma.is_finite()) {
        return Err(Error::param(
            "sigma",
            setup.sigma.to_string(),
            "must be finite and > 0",
        ));
    }
    if setup.runs == 0 {
        return Err(Error::param("runs", "0", "must be >= 1"));
    }
    if let Some(&n) = setup.sizes.iter().find(|&&n| n <= d + 1) {
        return Err(Error::param(
            "sizes",
            n.to_string(),
            format!(
                "each N must exceed d + 1 = {} parameters (else E_in = 0)",
                d + 1
            ),
        ));
    }
    let mut rng = Rng::new(setup.seed);
    let mut normal = StandardNormal::new();
    let w_f: Vec<f64> = (0..=d).map(|_| normal.sample(&mut rng)).collect();
    let sigma2 = setup.sigma * setup.sigma;
    let learner = LinearRegression::default();
    let mut points = Vec::with_capacity(setup.sizes.len());
    for &n in &setup.sizes {
        let (mut e_in, mut e_out) = (0.0, 0.0);
        for _ in 0..setup.runs {
            let x = Array2::from_shape_simple_fn((n, d), || normal.sample(&mut rng));
            let clean: Array1<f64> = x.dot(&Array1::from(w_f[..d].to_vec())) + w_f[d];
            let y = Array2::from_shape_fn((n, 1), |(i, _)| {
                clean[i] + setup.sigma * normal.sample(&mut rng)
            });
            let x = Features::from(x);
            let y_hat = learner.fit_xy(&x, y.view(), None)?.predict(&x)?;
            for i in 0..n {
                let fresh = clean[i] + setup.sigma * normal.sample(&mut rng);
                e_in += (y_hat[[i, 0]] - y[[i, 0]]).powi(2);
                e_out += (y_hat[[i, 0]] - fresh).powi(2);
            }
        }
        let total = (n * setup.runs) as f64;
        let ratio = (d + 1) as f64 / n as f64;
        points.push(LearningCurvePoint {
            n,
            e_in: e_in / total,
            e_out: e_out / total,
            e_in_theory: sigma2 * (1.0 - ratio),
            e_out_theory: sigma2 * (1.0 + ratio),
        });
    }
    Ok(LearningCurve {
        setup: setup.clone(),
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_muller_has_zero_mean_and_unit_variance() {
        let (mut rng, mut normal) = (Rng::new(11), StandardNormal::new());
        let v: Vec<f64> = (0..200_000).map(|_| normal.sample(&mut rng)).collect();
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / v.len() as f64;
        assert!(
            mean.abs() < 0.01 && (var - 1.0).abs() < 0.01,
            "{mean} {var}"
        );
        let tail = v.iter().filter(|a| a.abs() > 1.96).count() as f64 / v.len() as f64;
        assert!((tail - 0.05).abs() < 0.003, "{tail}");
    }

    #[test]
    fn measured_errors_match_the_theory() {
        let setup = LearningCurveSetup {
            d: 4,
            sigma: 0.3,
            sizes: vec![8, 15, 40],
            runs: 3000,
            seed: 5,
        };
        let curve = learning_curve(&setup).unwrap();
        for p in &curve.points {
            for (measured, theory) in [(p.e_in, p.e_in_theory), (p.e_out, p.e_out_theory)] {
                assert!((measured / theory - 1.0).abs() < 0.03, "{p:?}");
            }
        }
        // the generalisation gap closes as N grows
        let gap = |p: &LearningCurvePoint| p.e_out - p.e_in;
        assert!(gap(&curve.points[0]) > gap(&curve.points[2]));
        let json = serde_json::to_string(&curve).unwrap();
        assert_eq!(serde_json::from_str::<LearningCurve>(&json).unwrap(), curve);
        assert_eq!(
            learning_curve(&setup).unwrap(),
            curve,
            "same seed, same table"
        );
    }

    #[test]
    fn too_few_samples_is_an_error() {
        let setup = LearningCurveSetup {
            sizes: vec![6],
            ..Default::default()
        };
        assert!(learning_curve(&setup)
            .unwrap_err()
            .to_string()
            .contains("d + 1 = 6"));
    }
}
