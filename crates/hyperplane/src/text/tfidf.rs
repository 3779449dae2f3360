//! Term frequency - inverse document frequency weighting, as scikit-learn's
//! `TfidfTransformer`.
//!
//! For a count matrix with `n` documents, where term `j` occurs in `df_j` of them:
//!
//! ```text
//! idf_j = ln((1 + n) / (1 + df_j)) + 1     (smooth_idf = true)
//! idf_j = ln(n / df_j) + 1                 (smooth_idf = false)
//! tf    = count, or 1 + ln(count)          (sublinear_tf)
//! x_ij  = tf_ij * idf_j, then each row divided by its L2 (or L1) norm (a zero row stays zero)
//! ```
//!
//! The `+ 1` keeps terms present in every document (idf would be 0) from vanishing.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::data::{CsrMatrix, RowAccess};
use crate::error::{Error, Result};
use crate::param::ParamValue;

/// A vector norm for row normalisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Norm {
    /// `sum |x_j|`.
    L1,
    /// `sqrt(sum x_j^2)`.
    L2,
}

/// `l1`, `l2` or `none`.
impl ParamValue for Option<Norm> {
    const KIND: &'static str = "choice";
    fn forms() -> Vec<crate::param::Form> {
        use crate::param::Form;
        vec![
            Form::Absent { word: "none" },
            Form::Choice {
                words: vec!["l1", "l2"],
            },
        ]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        match text.trim() {
            "l1" => Ok(Some(Norm::L1)),
            "l2" => Ok(Some(Norm::L2)),
            "none" => Ok(None),
            _ => Err(Error::param(name, text, "expected l1, l2 or none")),
        }
    }
    fn to_text(&self) -> String {
        match self {
            Some(Norm::L1) => "l1",
            Some(Norm::L2) => "l2",
            None => "none",
        }
        .into()
    }
}

crate::params! {
    /// Re-weights a count matrix by tf-idf.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct TfidfTransformer {
        pub norm: Option<Norm>,
        pub use_idf: bool,
        pub smooth_idf: bool,
        pub sublinear_tf: bool,
    }
    schema "tfidf" {
        /// divide each row by this norm
        norm = "l2", "`l1`, `l2`, `none`" => norm;
        /// multiply by the idf weights
        use_idf = "true", bool => use_idf;
        /// add 1 to `n` and every `df` (as if one document held every term)
        smooth_idf = "true", bool => smooth_idf;
        /// replace a count `c` by `1 + ln(c)`
        sublinear_tf = "false", bool => sublinear_tf;
    }
}

impl Default for TfidfTransformer {
    fn default() -> Self {
        TfidfTransformer {
            norm: Some(Norm::L2),
            use_idf: true,
            smooth_idf: true,
            sublinear_tf: false,
        }
    }
}

impl TfidfTransformer {
    /// The default transformer (see the table above).
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets `norm`.
    pub fn norm(mut self, norm: Option<Norm>) -> Self {
        self.norm = norm;
        self
    }
    /// Sets `use_idf`.
    pub fn use_idf(mut self, yes: bool) -> Self {
        self.use_idf = yes;
        self
    }
    /// Sets `smooth_idf`.
    pub fn smooth_idf(mut self, yes: bool) -> Self {
        self.smooth_idf = yes;
        self
    }
    /// Sets `sublinear_tf`.
    pub fn sublinear_tf(mut self, yes: bool) -> Self {
        self.sublinear_tf = yes;
        self
    }

    /// Learns the idf weights of a count matrix (non-negative, finite, at least 1 row).
    pub fn fit(&self, counts: &CsrMatrix) -> Result<FittedTfidf> {
        check_counts(counts, "counts")?;
        if counts.n_rows() == 0 {
            return Err(Error::data(
                "counts have 0 documents; at least 1 is required",
            ));
        }
        let idf = self.use_idf.then(|| {
            let mut df = vec![0usize; counts.n_cols()];
            counts.indices().iter().for_each(|&j| df[j as usize] += 1);
            let s = usize::from(self.smooth_idf);
            let n = (counts.n_rows() + s) as f64;
            df.iter()
                .map(|&d| (n / (d + s) as f64).ln() + 1.0)
                .collect()
        });
        Ok(FittedTfidf {
            n_features: counts.n_cols(),
            idf,
            norm: self.norm,
            sublinear_tf: self.sublinear_tf,
        })
    }

    /// Fits on `counts` and returns their tf-idf matrix.
    pub fn fit_transform(&self, counts: &CsrMatrix) -> Result<(FittedTfidf, CsrMatrix)> {
        let fitted = self.fit(counts)?;
        let x = fitted.transform(counts)?;
        Ok((fitted, x))
    }
}

/// Rejects non-finite and negative values, naming the row and feature.
fn check_counts(x: &CsrMatrix, what: &str) -> Result<()> {
    for i in 0..x.n_rows() {
        let (idx, val) = x.row(i);
        if let Some((&j, &v)) = idx
            .iter()
            .zip(val)
            .find(|(_, v)| !(**v >= 0.0 && v.is_finite()))
        {
            if !v.is_finite() {
                return Err(Error::NonFinite {
                    what: what.to_string(),
                    row: i,
                    feature: j as usize,
                    value: v,
                });
            }
            return Err(Error::Unsupported {
                model: "TfidfTransformer".into(),
                what: format!(
                    "the negative value {v} at row {}, feature {j} (it needs counts)",
                    i + 1
                ),
            });
        }
    }
    Ok(())
}

/// A fitted [`TfidfTransformer`]: the idf weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedTfidf {
    n_features: usize,
    idf: Option<Vec<f64>>,
    norm: Option<Norm>,
    sublinear_tf: bool,
}

impl FittedTfidf {
    /// The tf-idf matrix of `counts` (same shape and sparsity).
    pub fn transform(&self, counts: &CsrMatrix) -> Result<CsrMatrix> {
        if counts.n_cols() != self.n_features {
            return Err(Error::FeatureCount {
                expected: self.n_features,
                found: counts.n_cols(),
            });
        }
        check_counts(counts, "counts at transform")?;
        let indptr = counts.indptr();
        let mut data = counts.data().to_vec();
        let mut rows: Vec<(&[u32], &mut [f64])> = Vec::with_capacity(counts.n_rows());
        let mut rest = data.as_mut_slice();
        for (i, w) in indptr.windows(2).enumerate() {
            let (row, tail) = rest.split_at_mut(w[1] - w[0]);
            rows.push((counts.row(i).0, row));
            rest = tail;
        }
        rows.into_par_iter()
            .with_min_len(256)
            .for_each(|(idx, vals)| self.weigh_row(idx, vals));
        CsrMatrix::new(
            self.n_features,
            indptr.to_vec(),
            counts.indices().to_vec(),
            data,
        )
    }

    fn weigh_row(&self, idx: &[u32], vals: &mut [f64]) {
        if self.sublinear_tf {
            vals.iter_mut()
                .filter(|v| **v > 0.0)
                .for_each(|v| *v = v.ln() + 1.0);
        }
        if let Some(idf) = &self.idf {
            for (v, &j) in vals.iter_mut().zip(idx) {
                *v *= idf[j as usize];
            }
        }
        let norm = match self.norm {
            None => return,
            Some(Norm::L1) => vals.iter().map(|v| v.abs()).sum::<f64>(),
            Some(Norm::L2) => vals.iter().map(|v| v * v).sum::<f64>().sqrt(),
        };
        if norm > 0.0 {
            vals.iter_mut().for_each(|v| *v /= norm);
        }
    }

    /// The idf weight of each column (`None` when `use_idf` was false).
    pub fn idf(&self) -> Option<&[f64]> {
        self.idf.as_deref()
    }
    /// Number of columns it was fitted on.
    pub fn n_features(&self) -> usize {
        self.n_features
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::param::Params;
    use approx::assert_abs_diff_eq;

    /// Counts of 3 documents over 3 terms: df = [2, 2, 1], n = 3.
    fn counts() -> CsrMatrix {
        CsrMatrix::from_rows(
            3,
            &[
                vec![(0, 2.0), (1, 1.0)],
                vec![(0, 1.0)],
                vec![(1, 1.0), (2, 3.0)],
            ],
        )
        .unwrap()
    }

    fn check(t: &TfidfTransformer, idf: Option<[f64; 3]>, rows: [[f64; 3]; 3]) {
        let (fitted, x) = t.fit_transform(&counts()).unwrap();
        match idf {
            Some(idf) => {
                for (a, b) in fitted.idf().unwrap().iter().zip(idf) {
                    assert_abs_diff_eq!(*a, b, epsilon = 1e-15);
                }
            }
            None => assert!(fitted.idf().is_none()),
        }
        let dense = x.to_dense();
        for (i, row) in rows.iter().enumerate() {
            for (j, &v) in row.iter().enumerate() {
                assert_abs_diff_eq!(dense[[i, j]], v, epsilon = 1e-15);
            }
        }
    }

    #[test]
    fn smooth_idf_l2_by_hand() {
        // idf = ln(4/3) + 1 = 1.2876820724517808 (df 2), ln(4/2) + 1 = 1.6931471805599454 (df 1).
        // Row 0: (2, 1) * 1.28768 -> normalised (2, 1)/sqrt(5) = (0.894427191, 0.447213595).
        // Row 2: (1.28768, 3 * 1.69315 = 5.07944) / 5.24012 = (0.245735253, 0.969336982).
        // (scikit-learn 1.9.1 gives the same numbers.)
        check(
            &TfidfTransformer::new(),
            Some([1.2876820724517808, 1.2876820724517808, 1.6931471805599454]),
            [
                [0.8944271909999159, 0.4472135954999579, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 0.24573525337873806, 0.9693369822960886],
            ],
        );
    }

    #[test]
    fn raw_idf_sublinear_l1_and_plain() {
        // smooth_idf = false: idf = ln(3/2) + 1 = 1.4054651081081644, ln(3/1) + 1 = 2.09861228866811.
        check(
            &TfidfTransformer::new().smooth_idf(false),
            Some([1.4054651081081644, 1.4054651081081644, 2.09861228866811]),
            [
                [0.894427190999916, 0.447213595499958, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 0.2178743518668476, 0.9759768269782848],
            ],
        );
        // sublinear_tf: counts (2, 1) -> (1 + ln 2, 1), 3 -> 1 + ln 3.
        check(
            &TfidfTransformer::new().sublinear_tf(true),
            Some([1.2876820724517808, 1.2876820724517808, 1.6931471805599454]),
            [
                [0.8610369959439763, 0.5085423203783267, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 0.3407117433703762, 0.9401678083882254],
            ],
        );
        // L1: row 0 = (2, 1) / 3.
        check(
            &TfidfTransformer::new().norm(Some(Norm::L1)),
            Some([1.2876820724517808, 1.2876820724517808, 1.6931471805599454]),
            [
                [2.0 / 3.0, 1.0 / 3.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 0.20223921357421326, 0.7977607864257867],
            ],
        );
        // Neither idf nor norm: the counts themselves.
        check(
            &TfidfTransformer::new().use_idf(false).norm(None),
            None,
            [[2.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 3.0]],
        );
    }

    #[test]
    fn checks_shape_and_values() {
        let fitted = TfidfTransformer::new().fit(&counts()).unwrap();
        let wide = CsrMatrix::from_rows(4, &[vec![(3, 1.0)]]).unwrap();
        assert!(matches!(
            fitted.transform(&wide),
            Err(Error::FeatureCount {
                expected: 3,
                found: 4
            })
        ));
        let negative = CsrMatrix::from_rows(3, &[vec![(1, -1.0)]]).unwrap();
        let err = fitted.transform(&negative).unwrap_err().to_string();
        assert!(err.contains("row 1, feature 1"), "{err}");
        let nan = CsrMatrix::from_rows(3, &[vec![(2, f64::NAN)]]).unwrap();
        assert!(matches!(
            TfidfTransformer::new().fit(&nan),
            Err(Error::NonFinite { feature: 2, .. })
        ));
        let empty = CsrMatrix::from_rows(3, &[]).unwrap();
        assert!(TfidfTransformer::new().fit(&empty).is_err());
        // A zero row stays zero.
        let zero = CsrMatrix::from_rows(3, &[vec![]]).unwrap();
        assert_eq!(fitted.transform(&zero).unwrap().nnz(), 0);
    }

    #[test]
    fn params_by_name_and_round_trip() {
        let mut t = TfidfTransformer::new();
        t.set_param("norm", "none").unwrap();
        t.set_param("smooth_idf", "false").unwrap();
        assert_eq!(t, TfidfTransformer::new().norm(None).smooth_idf(false));
        assert!(t.set_param("norm", "l3").is_err());
        assert!(t.set_param("idf", "true").is_err());
        let fitted = t.fit(&counts()).unwrap();
        let back: FittedTfidf =
            serde_json::from_str(&serde_json::to_string(&fitted).unwrap()).unwrap();
        assert_eq!(back, fitted);
    }
}
