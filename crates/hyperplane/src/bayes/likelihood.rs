//! Joint log-likelihoods with explicit zero probabilities, and the posterior rule.
//!
//! With `alpha = 0` some `log P(x_j | c)` are `-inf`. Adding them as floats gives
//! `0 * -inf = NaN` and `-inf - -inf = NaN`; instead every score is kept as a pair
//! `(impossible, finite)`: `impossible` is the weight of the events of probability 0
//! (the sum of `x_j` over features with `P = 0`, plus 1 for a class prior of 0), `finite`
//! is the sum of the finite terms. A term `x_j * log P` with `x_j = 0` is 0 (`0 log 0 = 0`).
//! A weight of `+inf` (ComplementNB: a word never seen outside class `c`) counts as
//! impossible weight `-x_j`, so it favours the class.
//!
//! **Posterior rule.** For a sample, the candidate classes are those with the smallest
//! impossible weight; they share the posterior by `softmax(finite)` (max-shifted), every
//! other class gets probability 0. When no event is impossible this is the ordinary
//! `P(c | x) = exp(jll_c - logsumexp(jll))`; when a sample is impossible under every class
//! it still gets a prediction and probabilities. The rule is the `alpha -> 0+` limit of the
//! smoothed model in its leading term: there `jll_c ~ impossible_c * ln(alpha) + ...`.

use ndarray::Array2;

use crate::data::RowAccess;
use crate::numeric;

/// Splits a log-value into `(impossible weight, finite part)`: `-inf -> (1, 0)`,
/// `+inf -> (-1, 0)`, finite `v -> (0, v)`.
#[inline]
pub(crate) fn split(v: f64) -> (f64, f64) {
    if v == f64::NEG_INFINITY {
        (1.0, 0.0)
    } else if v == f64::INFINITY {
        (-1.0, 0.0)
    } else {
        (0.0, v)
    }
}

/// Sums log-values as `(impossible weight, finite part)`, counting each infinity.
pub(crate) fn split_sum(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    values.into_iter().fold((0.0, 0.0), |(k, f), v| {
        let (dk, df) = split(v);
        (k + dk, f + df)
    })
}

/// Joint log-likelihoods `log P(c) + log P(x | c)` of a batch, shape `(n_samples, n_classes)`,
/// as impossible weight and finite part.
#[derive(Clone, Debug)]
pub struct JointLogLikelihood {
    pub(crate) impossible: Array2<f64>,
    pub(crate) finite: Array2<f64>,
}

impl JointLogLikelihood {
    /// The scores of `n` rows and `nc` classes, row `i` written by
    /// `row(scratch, i, finite_i, impossible_i)` into zeroed slices; blocks of rows in
    /// parallel, each with a `scratch` from `init`. Every row is computed alone, so the
    /// bits are the same on any thread count.
    pub(crate) fn by_rows<S>(
        n: usize,
        nc: usize,
        init: impl Fn() -> S + Sync + Send,
        row: impl Fn(&mut S, usize, &mut [f64], &mut [f64]) + Sync + Send,
    ) -> Self {
        use rayon::prelude::*;
        const ROWS: usize = 256;
        let mut finite = Array2::zeros((n, nc));
        let mut impossible = Array2::zeros((n, nc));
        if nc > 0 && n > 0 {
            let block = ROWS * nc;
            let f = finite.as_slice_mut().expect("standard layout");
            let k = impossible.as_slice_mut().expect("standard layout");
            f.par_chunks_mut(block)
                .zip(k.par_chunks_mut(block))
                .enumerate()
                .for_each_init(&init, |scratch, (b, (fs, ks))| {
                    for (r, (f, k)) in fs.chunks_mut(nc).zip(ks.chunks_mut(nc)).enumerate() {
                        row(scratch, b * ROWS + r, f, k);
                    }
                });
        }
        JointLogLikelihood { impossible, finite }
    }

    /// The scores as plain floats: the finite part, or `-inf` / `+inf` where the impossible
    /// weight is positive / negative.
    pub(crate) fn decision(self) -> Array2<f64> {
        let mut out = self.finite;
        out.zip_mut_with(&self.impossible, |f, &k| {
            if k > 0.0 {
                *f = f64::NEG_INFINITY;
            } else if k < 0.0 {
                *f = f64::INFINITY;
            }
        });
        out
    }

    /// `log P(c | x)` by the posterior rule of the module doc.
    pub(crate) fn log_proba(self) -> Array2<f64> {
        let mut out = self.finite;
        for (mut f, k) in out.rows_mut().into_iter().zip(self.impossible.rows()) {
            let kmin = k.iter().copied().fold(f64::INFINITY, f64::min);
            for (v, &kc) in f.iter_mut().zip(k) {
                if kc != kmin {
                    *v = f64::NEG_INFINITY;
                }
            }
            // shift by the maximum first and subtract the (small) log-sum afterwards, so a
            // score of -1e9 loses no digits: log p_c = (s_c - m) - ln sum_c' exp(s_c' - m)
            let row = f.as_slice_mut().expect("standard layout");
            let m = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            row.iter_mut().for_each(|v| *v -= m);
            let lse = numeric::logsumexp(row);
            row.iter_mut().for_each(|v| *v -= lse);
        }
        out
    }
}

/// Index of the most probable class of each row of log-probabilities.
pub(crate) fn argmax_rows(log_proba: &Array2<f64>) -> Vec<usize> {
    log_proba
        .rows()
        .into_iter()
        .map(|r| numeric::argmax(r.as_slice().expect("standard layout")))
        .collect()
}

/// A joint log-likelihood linear in (mapped) features:
/// `jll_c(x) = bias_c + sum_j map(x_j) * w_jc`, with `w` stored feature-major so each
/// stored entry of a row touches `n_classes` contiguous weights.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LinearScore {
    n_classes: usize,
    bias_impossible: Vec<f64>,
    bias_finite: Vec<f64>,
    w_finite: Vec<f64>,
    /// `None` when every weight is finite (the fast path).
    w_impossible: Option<Vec<f64>>,
}

impl LinearScore {
    /// From per-class biases, given as `(impossible weight, finite part)` (see
    /// [`split_sum`]), and class-major weights `w[c][j]` (which may hold `+-inf`).
    pub(crate) fn new(bias_impossible: Vec<f64>, bias_finite: Vec<f64>, w: &[Vec<f64>]) -> Self {
        let n_classes = bias_finite.len();
        let n_features = w.first().map_or(0, Vec::len);
        // the class-major -> feature-major transpose of `split(w)`, tile by tile so the
        // reads of every class and the writes of the tile stay in cache
        const TILE: usize = 512;
        let transpose = |part: fn(f64) -> f64| {
            let mut out = vec![0.0; n_classes * n_features];
            for lo in (0..n_features).step_by(TILE) {
                let hi = (lo + TILE).min(n_features);
                for (c, row) in w.iter().enumerate() {
                    for (o, &v) in out[lo * n_classes..hi * n_classes]
                        .iter_mut()
                        .skip(c)
                        .step_by(n_classes)
                        .zip(&row[lo..hi])
                    {
                        *o = part(v);
                    }
                }
            }
            out
        };
        let w_finite = transpose(|v| split(v).1);
        // a branch-free test per row (it vectorizes)
        let any = w
            .iter()
            .any(|r| r.iter().fold(false, |a, v| a | v.is_infinite()));
        let w_impossible = any.then(|| transpose(|v| split(v).0));
        LinearScore {
            n_classes,
            bias_impossible,
            bias_finite,
            w_finite,
            w_impossible,
        }
    }

    /// Scores every row of `m`, applying `map` to each stored value first.
    pub(crate) fn score<M: RowAccess, F: Fn(f64) -> f64 + Sync>(
        &self,
        m: &M,
        map: F,
    ) -> JointLogLikelihood {
        let nc = self.n_classes;
        JointLogLikelihood::by_rows(
            m.n_rows(),
            nc,
            || (),
            |_, i, f, k| {
                m.for_each_in_row(i, |j, v| {
                    let x = map(v);
                    let w = &self.w_finite[j * nc..(j + 1) * nc];
                    for (a, &b) in f.iter_mut().zip(w) {
                        *a += x * b;
                    }
                    if let Some(wk) = &self.w_impossible {
                        for (a, &b) in k.iter_mut().zip(&wk[j * nc..(j + 1) * nc]) {
                            *a += x * b;
                        }
                    }
                });
                for c in 0..nc {
                    f[c] += self.bias_finite[c];
                    k[c] += self.bias_impossible[c];
                }
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn impossible_everywhere_still_gives_probabilities() {
        // class 0: 2 impossible events, class 1: 1, class 2: 1 with a better finite part.
        let jll = JointLogLikelihood {
            impossible: array![[2.0, 1.0, 1.0]],
            finite: array![[0.0, -3.0, -1.0]],
        };
        let p = jll.clone().log_proba().mapv(f64::exp);
        assert_eq!(p[[0, 0]], 0.0);
        let e = (-1.0f64).exp() / ((-1.0f64).exp() + (-3.0f64).exp());
        assert!((p[[0, 2]] - e).abs() < 1e-15);
        assert!((p.sum() - 1.0).abs() < 1e-15);
        assert!(p.iter().all(|v| v.is_finite()));
        assert_eq!(argmax_rows(&jll.clone().log_proba()), vec![2]);
        let d = jll.decision();
        assert!(d.iter().all(|v| *v == f64::NEG_INFINITY));
    }

    #[test]
    fn plus_infinity_favours_the_class() {
        let jll = JointLogLikelihood {
            impossible: array![[0.0, -1.0]],
            finite: array![[100.0, 0.0]],
        };
        let p = jll.log_proba().mapv(f64::exp);
        assert_eq!(p.row(0).to_vec(), vec![0.0, 1.0]);
    }

    #[test]
    fn linear_score_treats_zero_times_minus_infinity_as_zero() {
        let s = LinearScore::new(
            vec![0.0, 1.0],
            vec![0.0, 0.0],
            &[vec![f64::NEG_INFINITY, -1.0], vec![-2.0, -3.0]],
        );
        let jll = s.score(&array![[0.0, 2.0], [1.0, 0.0]], |v| v);
        assert_eq!(jll.finite, array![[-2.0, -6.0], [0.0, -2.0]]);
        assert_eq!(jll.impossible, array![[0.0, 1.0], [1.0, 1.0]]);
    }
}
