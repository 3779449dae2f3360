//! The polynomial feature transform `Phi_Q`: every monomial `x_{i1} x_{i2} ... x_{ik}` of
//! degree `k <= Q` in the `d` inputs, so a linear model in `z = Phi_Q(x)` is a polynomial
//! of degree `Q` in `x` (the course's non-linear transform).
//!
//! Order (as scikit-learn's `PolynomialFeatures`): the bias `1`, then degree by degree, each
//! degree's index tuples `i1 <= i2 <= ... <= ik` in lexicographic order
//! (`itertools.combinations_with_replacement`; strictly increasing with
//! `interaction_only`). For `d = 2, Q = 2`: `1, x0, x1, x0^2, x0 x1, x1^2`.
//!
//! The output dimension is [`z_dimension`]: `C(Q + d, d)` for the full transform with the
//! bias, `sum_{k <= Q} C(d, k)` with `interaction_only`. It grows as `d^Q / Q!`, which is
//! the price of the transform in computation, storage and VC dimension (`d_vc <= C(Q + d, d)`).

use hyperplane_kernels::csr::Value;
use ndarray::{ArrayBase, Data, Ix2};
use serde::{Deserialize, Serialize};

use crate::data::Features;
use crate::error::{Error, Result};
use crate::transform::check_transform_input;

crate::params! {
    /// Polynomial features `Phi_Q(x)` (transform name `poly`).
    ///
    /// Dense input only: on sparse input `fit` is an [`Error::Unsupported`] (the products of a
    /// sparse matrix are built here densely, which sparse data must never be).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct PolynomialFeatures {
        pub degree: usize,
        pub interaction_only: bool,
        pub include_bias: bool,
    }
    schema "poly" {
        /// the largest degree `Q`
        degree = "2", "`>= 0` (`0` needs `include_bias`)" => degree;
        /// only products of distinct inputs (`x0 x1`, never `x0^2`)
        interaction_only = "false", bool => interaction_only;
        /// the constant feature `1` first
        include_bias = "true", bool => include_bias;
    }
}

impl Default for PolynomialFeatures {
    fn default() -> Self {
        PolynomialFeatures {
            degree: 2,
            interaction_only: false,
            include_bias: true,
        }
    }
}

/// `dim Phi_Q(R^d)`: `C(Q + d, d)` (full, with bias) or `sum_{k=0}^{Q} C(d, k)`
/// (`interaction_only`), minus 1 without the bias; `None` if it overflows `usize`.
pub fn z_dimension(
    d: usize,
    q: usize,
    interaction_only: bool,
    include_bias: bool,
) -> Option<usize> {
    let total = if interaction_only {
        (0..=q.min(d)).try_fold(0usize, |acc, k| acc.checked_add(binomial(d, k)?))?
    } else {
        binomial(q.checked_add(d)?, d)?
    };
    Some(total - usize::from(!include_bias))
}

/// `C(n, k)` for `k <= n`, with overflow checks (exact: each partial product is a binomial
/// coefficient).
fn binomial(n: usize, k: usize) -> Option<usize> {
    let k = k.min(n - k);
    (0..k).try_fold(1usize, |acc, i| Some(acc.checked_mul(n - i)? / (i + 1)))
}

impl PolynomialFeatures {
    /// The default params (`Q = 2`, with the bias).
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets the degree `Q`.
    pub fn degree(mut self, q: usize) -> Self {
        self.degree = q;
        self
    }
    /// Sets `interaction_only`.
    pub fn interaction_only(mut self, on: bool) -> Self {
        self.interaction_only = on;
        self
    }
    /// Sets `include_bias`.
    pub fn include_bias(mut self, on: bool) -> Self {
        self.include_bias = on;
        self
    }

    /// Records the input width; the transform itself has nothing to learn.
    pub fn fit(&self, x: &Features) -> Result<FittedPolynomialFeatures> {
        self.fit_weighted(x, None)
    }

    /// As [`fit`](Self::fit): weights do not change a polynomial map.
    pub fn fit_weighted(
        &self,
        x: &Features,
        _weights: Option<&[f64]>,
    ) -> Result<FittedPolynomialFeatures> {
        x.check_fit_input()?;
        if x.is_sparse() {
            return Err(sparse_error());
        }
        let d = x.n_cols();
        match z_dimension(d, self.degree, self.interaction_only, self.include_bias) {
            Some(0) => Err(Error::param(
                "degree",
                "0",
                "degree 0 without the bias gives no features",
            )),
            z => {
                check_memory(d, self.degree, z, x.n_rows())?;
                Ok(FittedPolynomialFeatures {
                    params: self.clone(),
                    n_features_in: d,
                })
            }
        }
    }
}

/// Checks the memory of `Phi_Q` on `rows` rows of `d` features against the budget: the
/// output matrix (`z` columns; `None` when `z` overflows) and the monomials' index tuples.
fn check_memory(d: usize, q: usize, z: Option<usize>, rows: usize) -> Result<()> {
    let bytes = z.and_then(|z| {
        let per_column = (rows as u64).checked_add(5)?.checked_add(q as u64)?;
        (z as u64).checked_mul(per_column)?.checked_mul(8)
    });
    crate::memory::check_bytes(
        || {
            format!(
                "the polynomial features of {d} features to degree {q} (--poly {q}: {} features) on {rows} rows",
                z.map_or("over 2^64".into(), |z| z.to_string())
            )
        },
        bytes,
    )
}

/// What sparse input is: [`Error::Unsupported`].
fn sparse_error() -> Error {
    Error::Unsupported {
        model: "PolynomialFeatures".into(),
        what: "sparse input: its products are dense, so it takes dense features (a \
               pipeline makes CSV and LIBSVM rows dense for it, not text)"
            .into(),
    }
}

/// One monomial after the bias: `value = value[parent] * x[last]`, where `parent` indexes
/// the full list (index 0 is the bias `1`).
struct Monomial {
    parent: usize,
    last: usize,
}

/// The monomials in scikit-learn order, each extending a lower-degree one: degree `k`
/// appends `j >= last` (`j > last` with `interaction_only`) to each degree `k - 1` tuple,
/// which keeps the lexicographic order. Also returns each monomial's index tuple.
fn monomials(d: usize, q: usize, interaction_only: bool) -> (Vec<Monomial>, Vec<Vec<usize>>) {
    let mut tuples: Vec<Vec<usize>> = vec![vec![]];
    let mut list = Vec::new();
    let mut previous = 0..1;
    for _ in 0..q {
        let start = tuples.len();
        for parent in previous.clone() {
            let first = match tuples[parent].last() {
                None => 0,
                Some(&l) => l + usize::from(interaction_only),
            };
            for j in first..d {
                let mut t = tuples[parent].clone();
                t.push(j);
                tuples.push(t);
                list.push(Monomial { parent, last: j });
            }
        }
        previous = start..tuples.len();
    }
    (list, tuples)
}

/// A fitted [`PolynomialFeatures`]: the params and the input width.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedPolynomialFeatures {
    params: PolynomialFeatures,
    n_features_in: usize,
}

impl FittedPolynomialFeatures {
    /// Number of input features `d`.
    pub fn n_features_in(&self) -> usize {
        self.n_features_in
    }
    /// Number of output features, [`z_dimension`].
    pub fn n_features_out(&self) -> usize {
        let p = &self.params;
        z_dimension(
            self.n_features_in,
            p.degree,
            p.interaction_only,
            p.include_bias,
        )
        .unwrap_or(0)
    }

    /// `Phi_Q(x)` row by row, each monomial one multiplication from its parent.
    pub fn transform(&self, x: &Features) -> Result<Features<'static>> {
        check_transform_input(x, self.n_features_in)?;
        match x {
            Features::Dense(a) => self.expand(a),
            Features::DenseF32(a) => self.expand(a),
            Features::Sparse(_) | Features::SparseView(_) => Err(sparse_error()),
        }
    }

    /// [`transform`](Self::transform) of a dense matrix (values read as `f64`).
    fn expand<S: Data>(&self, a: &ArrayBase<S, Ix2>) -> Result<Features<'static>>
    where
        S::Elem: Value,
    {
        let p = &self.params;
        check_memory(
            self.n_features_in,
            p.degree,
            Some(self.n_features_out()),
            a.nrows(),
        )?;
        let (list, _) = monomials(self.n_features_in, p.degree, p.interaction_only);
        let skip = usize::from(!p.include_bias);
        let mut out = ndarray::Array2::zeros((a.nrows(), list.len() + 1 - skip));
        let mut values = vec![0.0; list.len() + 1];
        for (row, mut z) in a.rows().into_iter().zip(out.rows_mut()) {
            values[0] = 1.0;
            for (m, mono) in list.iter().enumerate() {
                values[m + 1] = values[mono.parent] * row[mono.last].get();
            }
            z.iter_mut().zip(&values[skip..]).for_each(|(o, v)| *o = *v);
        }
        Ok(Features::from(out))
    }

    /// Output names as scikit-learn writes them: `1`, `x0`, `x0^2 x1`, ...
    pub fn feature_names_out(&self, input_names: &[String]) -> Vec<String> {
        let p = &self.params;
        let (_, tuples) = monomials(self.n_features_in, p.degree, p.interaction_only);
        let skip = usize::from(!p.include_bias);
        tuples[skip..]
            .iter()
            .map(|t| {
                if t.is_empty() {
                    return "1".to_string();
                }
                let mut parts: Vec<String> = Vec::new();
                let mut i = 0;
                while i < t.len() {
                    let power = t[i..].iter().take_while(|&&j| j == t[i]).count();
                    let name = input_names
                        .get(t[i])
                        .cloned()
                        .unwrap_or_else(|| format!("x{}", t[i]));
                    parts.push(if power == 1 {
                        name
                    } else {
                        format!("{name}^{power}")
                    });
                    i += power;
                }
                parts.join(" ")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::param::Params;
    use ndarray::{array, Array2};
    use serde_json::Value;

    #[test]
    fn dimension_is_the_binomial_coefficient() {
        // C(Q + d, d)
        assert_eq!(z_dimension(2, 2, false, true), Some(6));
        assert_eq!(z_dimension(3, 3, false, true), Some(20));
        assert_eq!(z_dimension(10, 4, false, false), Some(1000));
        assert_eq!(z_dimension(3, 2, true, true), Some(7));
        assert_eq!(z_dimension(3, 5, true, true), Some(8));
        assert_eq!(z_dimension(usize::MAX / 2, 3, false, true), None);
        for d in 1..6 {
            for q in 0..5 {
                for (io, bias) in [(false, true), (true, false), (false, false)] {
                    let (list, _) = monomials(d, q, io);
                    assert_eq!(
                        z_dimension(d, q, io, bias),
                        Some(list.len() + usize::from(bias))
                    );
                }
            }
        }
    }

    #[test]
    fn sparse_input_and_empty_output_are_errors() {
        let x = Features::Sparse(crate::data::CsrMatrix::from_dense(
            array![[1.0, 0.0]].view(),
        ));
        assert!(matches!(
            PolynomialFeatures::new().fit(&x),
            Err(Error::Unsupported { .. })
        ));
        let dense = Features::from(array![[1.0, 2.0]]);
        assert!(PolynomialFeatures::new()
            .degree(0)
            .include_bias(false)
            .fit(&dense)
            .is_err());
        let fitted = PolynomialFeatures::new().fit(&dense).unwrap();
        assert!(matches!(
            fitted.transform(&Features::from(array![[1.0]])),
            Err(Error::FeatureCount {
                expected: 2,
                found: 1
            })
        ));
    }

    #[test]
    fn params_by_name() {
        let mut p = PolynomialFeatures::new();
        p.set_param("degree", "3").unwrap();
        p.set_param("interaction_only", "true").unwrap();
        assert_eq!(
            p,
            PolynomialFeatures::new().degree(3).interaction_only(true)
        );
        assert!(p
            .set_param("alpha", "1")
            .unwrap_err()
            .to_string()
            .contains("include_bias"));
        assert!(p.param_values().contains(&("degree".into(), "3".into())));
    }

    #[test]
    fn composes_as_a_named_saved_transform() {
        use crate::transform::{FittedTransform, Transform};
        let mut t = Transform::from_name("poly").unwrap();
        t.set_param("degree", "3").unwrap();
        let x = Features::from(array![[1.0, 2.0], [-1.0, 0.5]]);
        let fitted = t.fit(&x).unwrap();
        assert_eq!((fitted.n_features_in(), fitted.n_features_out()), (2, 10));
        let back: FittedTransform =
            serde_json::from_str(&serde_json::to_string(&fitted).unwrap()).unwrap();
        let z = back.transform(&x).unwrap().to_dense();
        // 1, x0, x1, x0^2, x0 x1, x1^2, x0^3, x0^2 x1, x0 x1^2, x1^3 at (1, 2)
        assert_eq!(
            z.row(0).to_vec(),
            vec![1.0, 1.0, 2.0, 1.0, 2.0, 4.0, 1.0, 2.0, 4.0, 8.0]
        );
        let names = back.feature_names_out(&["a".into(), "b".into()]);
        assert_eq!(names[7], "a^2 b");
    }

    /// Parity with scikit-learn 1.9.1 `PolynomialFeatures` (`scripts/fixtures/gen_regression_fixtures.py`).
    #[test]
    fn matches_scikit_learn() {
        let f: Value =
            serde_json::from_str(include_str!("../../tests/fixtures/poly_sklearn.json")).unwrap();
        let num = |v: &Value| v.as_str().unwrap().parse::<f64>().unwrap();
        let matrix = |v: &Value| {
            let rows: Vec<Vec<f64>> = v
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_array().unwrap().iter().map(num).collect())
                .collect();
            Array2::from_shape_vec((rows.len(), rows[0].len()), rows.concat()).unwrap()
        };
        let x = Features::from(matrix(&f["x"]));
        let names: Vec<String> = (0..3).map(|j| format!("x{j}")).collect();
        let cases = f["cases"].as_array().unwrap();
        assert_eq!(cases.len(), 12);
        for case in cases {
            let p = PolynomialFeatures::new()
                .degree(case["degree"].as_u64().unwrap() as usize)
                .interaction_only(case["interaction_only"].as_bool().unwrap())
                .include_bias(case["include_bias"].as_bool().unwrap());
            let fitted = p.fit(&x).unwrap();
            let out = fitted.transform(&x).unwrap().to_dense();
            let expected = matrix(&case["out"]);
            assert_eq!(fitted.n_features_out(), expected.ncols(), "{p:?}");
            for (a, b) in out.iter().zip(expected.iter()) {
                assert!(
                    (a - b).abs() <= 1e-14 * b.abs().max(1.0),
                    "{p:?}: {a} vs {b}"
                );
            }
            let theirs: Vec<String> = case["names"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            assert_eq!(fitted.feature_names_out(&names), theirs, "{p:?}");
        }
    }
}
