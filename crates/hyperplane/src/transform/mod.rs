//! Feature transforms: learned maps from raw features to the features a model is fitted on.
//!
//! | transform | for | scikit-learn |
//! |---|---|---|
//! | [`TabularEncoder`] | a CSV [`Table`](crate::data::Table) (numeric and categorical columns) to a dense matrix: one-hot for linear models, ordinal for categorical Naive Bayes | `OneHotEncoder` / `OrdinalEncoder` in a `ColumnTransformer` |
//! | [`KBinsDiscretizer`] | continuous features to bin indices `0..k`, so they feed categorical Naive Bayes (the course's "discretise into k = 10 bins") | `KBinsDiscretizer(encode="ordinal")` |
//! | [`StandardScaler`] | zero mean, unit variance: gradient methods, SVMs and the perceptron converge faster and regularise evenly | `StandardScaler` |
//! | [`MinMaxScaler`] | each feature mapped linearly onto a range, `[0, 1]` by default | `MinMaxScaler` |
//! | [`PolynomialFeatures`] | every monomial of degree `<= Q`, `Phi_Q(x)`: a linear model in `z` is a polynomial in `x` | `PolynomialFeatures` |
//!
//! Every transform is a params struct (`Default`, builder setters, validated in `fit`)
//! whose `fit` learns from the **training data only** and returns a fitted struct. The
//! fitted struct is plain serde data and is saved inside the model file, so a saved model
//! applies exactly the statistics it was trained with: never refit a transform on test
//! data. Every fitted `transform` checks the input width ([`Error::FeatureCount`] naming
//! both counts) and rejects NaN and infinite values.
//!
//! [`Transform`] and [`FittedTransform`] wrap the matrix-to-matrix transforms so a pipeline
//! can hold a list of them and the CLI can build them by name:
//!
//! ```
//! use hyperplane::transform::Transform;
//! use hyperplane::{Features, Params};
//! use ndarray::array;
//!
//! let mut t = Transform::from_name("discretize")?;
//! t.set_param("n_bins", "2")?;
//! let x = Features::from(array![[1.0], [2.0], [3.0], [4.0]]);
//! let fitted = t.fit(&x)?;
//! assert_eq!(fitted.transform(&x)?.to_dense(), array![[0.0], [0.0], [1.0], [1.0]]);
//! # Ok::<(), hyperplane::Error>(())
//! ```

pub mod discretize;
pub mod encode;
pub mod poly;
pub mod scale;

pub use discretize::{BinStrategy, FittedKBinsDiscretizer, KBinsDiscretizer};
pub use encode::{CategoricalEncoding, FittedTabularEncoder, TabularEncoder};
pub use poly::{z_dimension, FittedPolynomialFeatures, PolynomialFeatures};
pub use scale::{FittedMinMaxScaler, FittedStandardScaler, MinMaxScaler, StandardScaler};

use serde::{Deserialize, Serialize};

use crate::data::Features;
use crate::error::{Error, Result};
use crate::param::{Composite, Params};

/// A matrix-to-matrix transform, unfitted: which one and its params.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Transform {
    /// [`KBinsDiscretizer`] (name `discretize`).
    Discretize(KBinsDiscretizer),
    /// [`StandardScaler`] (name `standard`).
    StandardScale(StandardScaler),
    /// [`MinMaxScaler`] (name `minmax`).
    MinMaxScale(MinMaxScaler),
    /// [`PolynomialFeatures`] (name `poly`).
    Poly(PolynomialFeatures),
}

/// The names [`Transform::from_name`] accepts.
pub const TRANSFORM_NAMES: [&str; 4] = ["discretize", "standard", "minmax", "poly"];

impl Transform {
    /// The transform called `name` (`discretize`, `standard`, `minmax` or `poly`) with default params.
    pub fn from_name(name: &str) -> Result<Self> {
        match name.trim() {
            "discretize" => Ok(Transform::Discretize(KBinsDiscretizer::default())),
            "standard" => Ok(Transform::StandardScale(StandardScaler::default())),
            "minmax" => Ok(Transform::MinMaxScale(MinMaxScaler::default())),
            "poly" => Ok(Transform::Poly(PolynomialFeatures::default())),
            _ => Err(Error::param(
                "transform",
                name,
                format!(
                    "unknown transform; valid names: {}",
                    TRANSFORM_NAMES.join(", ")
                ),
            )),
        }
    }

    /// The name [`Transform::from_name`] accepts for this transform.
    pub fn name(&self) -> &'static str {
        match self {
            Transform::Discretize(_) => "discretize",
            Transform::StandardScale(_) => "standard",
            Transform::MinMaxScale(_) => "minmax",
            Transform::Poly(_) => "poly",
        }
    }

    /// Learns the transform from training features.
    pub fn fit(&self, x: &Features) -> Result<FittedTransform> {
        self.fit_weighted(x, None)
    }

    /// Learns the transform from training features with optional sample weights (one
    /// non-negative finite weight per row; integer weights act as repeated rows).
    pub fn fit_weighted(&self, x: &Features, weights: Option<&[f64]>) -> Result<FittedTransform> {
        Ok(match self {
            Transform::Discretize(p) => FittedTransform::Discretize(p.fit_weighted(x, weights)?),
            Transform::StandardScale(p) => {
                FittedTransform::StandardScale(p.fit_weighted(x, weights)?)
            }
            Transform::MinMaxScale(p) => FittedTransform::MinMaxScale(p.fit_weighted(x, weights)?),
            Transform::Poly(p) => FittedTransform::Poly(p.fit_weighted(x, weights)?),
        })
    }
}

impl Composite for Transform {
    fn component(&self) -> String {
        "the transform".into()
    }
    fn parts(&self) -> Vec<&dyn Params> {
        vec![match self {
            Transform::Discretize(p) => p as &dyn Params,
            Transform::StandardScale(p) => p,
            Transform::MinMaxScale(p) => p,
            Transform::Poly(p) => p,
        }]
    }
    fn parts_mut(&mut self) -> Vec<&mut dyn Params> {
        vec![match self {
            Transform::Discretize(p) => p as &mut dyn Params,
            Transform::StandardScale(p) => p,
            Transform::MinMaxScale(p) => p,
            Transform::Poly(p) => p,
        }]
    }
}

/// A fitted [`Transform`], saved inside model files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FittedTransform {
    Discretize(FittedKBinsDiscretizer),
    StandardScale(FittedStandardScaler),
    MinMaxScale(FittedMinMaxScaler),
    Poly(FittedPolynomialFeatures),
}

impl FittedTransform {
    /// Applies the fitted transform; checks the width and rejects NaN and infinity.
    pub fn transform(&self, x: &Features) -> Result<Features<'static>> {
        match self {
            FittedTransform::Discretize(t) => t.transform(x),
            FittedTransform::StandardScale(t) => t.transform(x),
            FittedTransform::MinMaxScale(t) => t.transform(x),
            FittedTransform::Poly(t) => t.transform(x),
        }
    }
    /// Number of features the transform was fitted on.
    pub fn n_features_in(&self) -> usize {
        match self {
            FittedTransform::Discretize(t) => t.n_features_in(),
            FittedTransform::StandardScale(t) => t.n_features_in(),
            FittedTransform::MinMaxScale(t) => t.n_features_in(),
            FittedTransform::Poly(t) => t.n_features_in(),
        }
    }
    /// Number of features the transform produces (the input count, except for `poly`).
    pub fn n_features_out(&self) -> usize {
        match self {
            FittedTransform::Poly(t) => t.n_features_out(),
            _ => self.n_features_in(),
        }
    }
    /// Names of the output features: the input names, except `poly`'s monomials (`x0^2 x1`).
    pub fn feature_names_out(&self, input_names: &[String]) -> Vec<String> {
        match self {
            FittedTransform::Poly(t) => t.feature_names_out(input_names),
            _ => input_names.to_vec(),
        }
    }
}

/// Checks a matrix given to a fitted transform: `expected` columns, finite values.
fn check_transform_input(x: &Features, expected: usize) -> Result<()> {
    if x.n_cols() != expected {
        return Err(Error::FeatureCount {
            expected,
            found: x.n_cols(),
        });
    }
    x.check_finite("X at transform")
}

/// Checks optional sample weights: one per row, finite, non-negative, positive sum.
pub(crate) fn check_weights(weights: Option<&[f64]>, n_rows: usize) -> Result<()> {
    let Some(w) = weights else { return Ok(()) };
    if w.len() != n_rows {
        return Err(Error::data(format!(
            "{} sample weights given for {n_rows} rows",
            w.len()
        )));
    }
    if let Some((row, v)) = w
        .iter()
        .enumerate()
        .find(|(_, v)| !v.is_finite() || **v < 0.0)
    {
        return Err(Error::data(format!(
            "sample weight {v} at row {} must be finite and non-negative",
            row + 1
        )));
    }
    if w.iter().sum::<f64>() <= 0.0 {
        return Err(Error::data("sample weights sum to 0"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn from_name_and_set_param_build_each_transform() {
        let mut d = Transform::from_name("discretize").unwrap();
        d.set_param("n_bins", "3").unwrap();
        d.set_param("strategy", "uniform").unwrap();
        assert_eq!(
            d,
            Transform::Discretize(
                KBinsDiscretizer::new()
                    .n_bins(3)
                    .strategy(BinStrategy::Uniform)
            )
        );
        let mut s = Transform::from_name("standard").unwrap();
        s.set_param("with_mean", "false").unwrap();
        assert_eq!(
            s,
            Transform::StandardScale(StandardScaler::new().with_mean(false))
        );
        let mut m = Transform::from_name("minmax").unwrap();
        m.set_param("range", "-1,1").unwrap();
        assert_eq!(
            m,
            Transform::MinMaxScale(MinMaxScaler::new().range(-1.0, 1.0))
        );
        assert!(m
            .param_values()
            .contains(&("range".to_string(), "-1,1".to_string())));
        assert_eq!(m.name(), "minmax");
    }

    #[test]
    fn unknown_names_are_clear_errors() {
        let e = Transform::from_name("pca").unwrap_err().to_string();
        assert!(
            e.contains("pca") && e.contains("discretize, standard, minmax"),
            "{e}"
        );
        let mut s = Transform::from_name("standard").unwrap();
        let e = s.set_param("n_bins", "3").unwrap_err().to_string();
        assert!(e.contains("with_mean"), "{e}");
        let e = s.set_param("with_std", "maybe").unwrap_err().to_string();
        assert!(e.contains("maybe"), "{e}");
    }

    #[test]
    fn fitted_transform_dispatches_and_round_trips_through_serde() {
        let x = Features::from(array![[1.0, 10.0], [2.0, 20.0], [3.0, 40.0]]);
        // poly changes the width: its own tests cover it (transform/poly.rs)
        for name in TRANSFORM_NAMES.into_iter().filter(|n| *n != "poly") {
            let fitted = Transform::from_name(name).unwrap().fit(&x).unwrap();
            assert_eq!(fitted.n_features_in(), 2);
            assert_eq!(fitted.n_features_out(), 2);
            let json = serde_json::to_string(&fitted).unwrap();
            let back: FittedTransform = serde_json::from_str(&json).unwrap();
            assert_eq!(back, fitted);
            assert_eq!(
                back.transform(&x).unwrap(),
                fitted.transform(&x).unwrap(),
                "{name}"
            );
            let e = fitted
                .transform(&Features::from(array![[1.0, 2.0, 3.0]]))
                .unwrap_err();
            assert!(
                matches!(
                    e,
                    Error::FeatureCount {
                        expected: 2,
                        found: 3
                    }
                ),
                "{name}: {e}"
            );
            let e = fitted
                .transform(&Features::from(array![[1.0, f64::INFINITY]]))
                .unwrap_err();
            assert!(matches!(e, Error::NonFinite { .. }), "{name}: {e}");
            let names = vec!["a".to_string(), "b".to_string()];
            assert_eq!(fitted.feature_names_out(&names), names);
        }
    }

    /// Every transform fits and transforms `f32` input (row- and column-major) as the same
    /// values in `f64`, and refuses a NaN in it by row and feature.
    #[test]
    fn f32_input_transforms_as_the_same_values_in_f64() {
        use ndarray::{Array2, ShapeBuilder};
        let x64 = Array2::from_shape_fn((7, 3), |(i, j)| {
            f64::from(((i * 5 + j * 3) % 7) as f32 / 3.0 - 1.0)
        });
        let x32 = x64.mapv(|v| v as f32);
        let mut fortran = Array2::zeros((7, 3).f());
        fortran.assign(&x32);
        let weights = [1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 0.0];
        for name in TRANSFORM_NAMES {
            let t = Transform::from_name(name).unwrap();
            let wide = Features::from(x64.view());
            let want = t.fit(&wide).unwrap();
            for x in [x32.view(), fortran.view()] {
                let x = Features::DenseF32(x.into());
                let fitted = t.fit(&x).unwrap();
                assert_eq!(fitted, want, "{name}");
                assert_eq!(
                    fitted.transform(&x).unwrap(),
                    want.transform(&wide).unwrap()
                );
                let weighted = t.fit_weighted(&x, Some(&weights)).unwrap();
                assert_eq!(weighted, t.fit_weighted(&wide, Some(&weights)).unwrap());
            }
            let mut bad = fortran.clone();
            bad[[4, 2]] = f32::NAN;
            let bad = Features::DenseF32(bad.view().into());
            for e in [t.fit(&bad).unwrap_err(), want.transform(&bad).unwrap_err()] {
                let e = e.to_string();
                assert!(e.contains("row 5, feature 2"), "{name}: {e}");
            }
        }
    }

    #[test]
    fn weights_are_checked() {
        assert!(check_weights(None, 3).is_ok());
        assert!(check_weights(Some(&[1.0, 2.0]), 3).is_err());
        assert!(check_weights(Some(&[1.0, -1.0]), 2).is_err());
        assert!(check_weights(Some(&[1.0, f64::NAN]), 2).is_err());
        assert!(check_weights(Some(&[0.0, 0.0]), 2)
            .unwrap_err()
            .to_string()
            .contains("sum to 0"));
    }

    /// Parity with scikit-learn 1.9.1 (`scripts/fixtures/gen_transform_fixtures.py`):
    /// floats are stored as repr strings and parsed exactly.
    mod sklearn_parity {
        use super::*;
        use ndarray::Array2;
        use serde_json::Value;

        const FIXTURE: &str = include_str!("../../tests/fixtures/transforms_sklearn.json");

        fn fixture() -> Value {
            serde_json::from_str(FIXTURE).unwrap()
        }
        fn num(v: &Value) -> f64 {
            v.as_str().unwrap().parse().unwrap()
        }
        fn vec(v: &Value) -> Vec<f64> {
            v.as_array().unwrap().iter().map(num).collect()
        }
        fn matrix(v: &Value) -> Array2<f64> {
            let rows: Vec<Vec<f64>> = v.as_array().unwrap().iter().map(vec).collect();
            let n_cols = rows[0].len();
            Array2::from_shape_vec((rows.len(), n_cols), rows.concat()).unwrap()
        }
        fn weights(case: &Value) -> Option<Vec<f64>> {
            (!case["weights"].is_null()).then(|| vec(&case["weights"]))
        }
        fn close(a: f64, b: f64, what: &str) {
            let tol = 1e-12 * a.abs().max(b.abs()).max(1.0);
            assert!((a - b).abs() <= tol, "{what}: {a} vs scikit-learn {b}");
        }

        #[test]
        fn discretizer_edges_and_bins_match() {
            let f = fixture();
            let cases = f["discretize"].as_array().unwrap();
            assert!(cases.len() >= 40);
            for case in cases {
                let data = case["data"].as_str().unwrap();
                let x = Features::from(matrix(&f["data"][data]));
                let strategy: BinStrategy = case["strategy"].as_str().unwrap().parse().unwrap();
                let n_bins = case["n_bins"].as_u64().unwrap() as usize;
                let w = weights(case);
                let label = format!("{data} {strategy} k={n_bins} weighted={}", w.is_some());
                let fitted = KBinsDiscretizer::new()
                    .n_bins(n_bins)
                    .strategy(strategy)
                    .fit_weighted(&x, w.as_deref())
                    .unwrap();
                for (j, (ours, theirs)) in fitted
                    .bin_edges()
                    .iter()
                    .zip(case["edges"].as_array().unwrap())
                    .enumerate()
                {
                    let ours = ours.as_ref().unwrap();
                    let theirs = vec(theirs);
                    assert_eq!(ours.len(), theirs.len(), "{label} feature {j}");
                    for (a, b) in ours.iter().zip(&theirs) {
                        close(*a, *b, &format!("{label} feature {j} edge"));
                    }
                }
                let probe = Features::from(matrix(&f["probes"][data]));
                let out = fitted.transform(&probe).unwrap().to_dense();
                let expected: Vec<Vec<f64>> = case["out"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        r.as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.as_f64().unwrap())
                            .collect()
                    })
                    .collect();
                for (i, row) in expected.iter().enumerate() {
                    assert_eq!(out.row(i).to_vec(), *row, "{label} row {i}");
                }
            }
        }

        #[test]
        fn standard_scaler_matches() {
            let f = fixture();
            for case in f["standard"].as_array().unwrap() {
                let data = case["data"].as_str().unwrap();
                let dense = matrix(&f["data"][data]);
                let x = if case["sparse"].as_bool().unwrap() {
                    Features::Sparse(crate::data::CsrMatrix::from_dense(dense.view()))
                } else {
                    Features::from(dense)
                };
                let p = StandardScaler::new()
                    .with_mean(case["with_mean"].as_bool().unwrap())
                    .with_std(case["with_std"].as_bool().unwrap());
                let w = weights(case);
                let label = format!("{data} {p:?} weighted={}", w.is_some());
                let fitted = p.fit_weighted(&x, w.as_deref()).unwrap();
                for (ours, key) in [(fitted.mean(), "mean"), (fitted.scale(), "scale")] {
                    match ours {
                        None => assert!(case[key].is_null(), "{label} {key}"),
                        Some(ours) => {
                            for (a, b) in ours.iter().zip(vec(&case[key])) {
                                close(*a, b, &format!("{label} {key}"));
                            }
                        }
                    }
                }
                let out = fitted.transform(&x).unwrap().to_dense();
                for (a, b) in out.iter().zip(matrix(&case["out"]).iter()) {
                    close(*a, *b, &format!("{label} output"));
                }
            }
        }

        #[test]
        fn minmax_scaler_matches() {
            let f = fixture();
            for case in f["minmax"].as_array().unwrap() {
                let data = case["data"].as_str().unwrap();
                let x = Features::from(matrix(&f["data"][data]));
                let r = vec(&case["range"]);
                let fitted = MinMaxScaler::new().range(r[0], r[1]).fit(&x).unwrap();
                assert_eq!(fitted.data_min(), vec(&case["data_min"]), "{data}");
                assert_eq!(fitted.data_max(), vec(&case["data_max"]), "{data}");
                let out = fitted.transform(&x).unwrap().to_dense();
                for (a, b) in out.iter().zip(matrix(&case["out"]).iter()) {
                    close(*a, *b, &format!("{data} {r:?} output"));
                }
            }
        }
    }
}
