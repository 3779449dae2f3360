//! Small numerical kernels shared by every family: log-sum-exp, softmax, argmax.

use ndarray::Array2;

/// `log(sum_k exp(a_k))`, shifted by the maximum so it neither overflows nor underflows.
/// Returns `-inf` for an empty slice or when every entry is `-inf`.
pub fn logsumexp(a: &[f64]) -> f64 {
    let m = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !m.is_finite() {
        return m;
    }
    m + a.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

/// Replaces each row `s` by `s - logsumexp(s)`: log-probabilities from scores.
pub fn log_softmax_rows(mut scores: Array2<f64>) -> Array2<f64> {
    for mut row in scores.rows_mut() {
        let lse = logsumexp(row.as_slice().expect("standard layout"));
        row.mapv_inplace(|v| v - lse);
    }
    scores
}

/// `log(1 + exp(x))` without overflow or loss of precision at either end.
#[inline]
pub fn log1pexp(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// `(log(1 + exp(x)), 1 / (1 + exp(-x)))`: [`log1pexp`] and [`sigmoid`] (the same values)
/// from one exponential, `e = exp(-|x|)`, for the log loss and its derivative together.
#[inline]
pub fn log1pexp_sigmoid(x: f64) -> (f64, f64) {
    let e = (-x.abs()).exp();
    if x > 0.0 {
        (x + e.ln_1p(), 1.0 / (1.0 + e))
    } else {
        (e.ln_1p(), e / (1.0 + e))
    }
}

/// The logistic function `1 / (1 + exp(-x))`, evaluated so that it never overflows.
#[inline]
pub fn sigmoid<T: num_traits::Float>(x: T) -> T {
    let one = T::one();
    if x >= T::zero() {
        one / (one + (-x).exp())
    } else {
        let e = x.exp();
        e / (one + e)
    }
}

/// Index of the first maximum (0 for an empty slice); NaN never wins.
pub fn argmax(a: &[f64]) -> usize {
    let mut best = 0;
    for (i, &v) in a.iter().enumerate() {
        if v > a[best] || a[best].is_nan() {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn logsumexp_is_shifted() {
        assert!((logsumexp(&[1000.0, 1000.0]) - (1000.0 + 2f64.ln())).abs() < 1e-12);
        assert!((logsumexp(&[-1000.0, -1000.0]) - (-1000.0 + 2f64.ln())).abs() < 1e-12);
        assert_eq!(
            logsumexp(&[f64::NEG_INFINITY, f64::NEG_INFINITY]),
            f64::NEG_INFINITY
        );
    }

    #[test]
    fn log_softmax_rows_sum_to_one() {
        let p = log_softmax_rows(array![[1.0, 2.0, 3.0], [-5e5, 0.0, 5e5]]).mapv(f64::exp);
        for r in p.rows() {
            assert!((r.sum() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn log1pexp_and_sigmoid_are_stable() {
        assert_eq!(log1pexp(800.0), 800.0);
        assert!((log1pexp(-800.0)).abs() < 1e-300);
        assert!((log1pexp(0.0) - 2f64.ln()).abs() < 1e-15);
        assert!((sigmoid(2.0f64) + sigmoid(-2.0f64) - 1.0).abs() < 1e-15);
        assert_eq!(sigmoid(-800.0), 0.0);
        assert_eq!(sigmoid(800.0), 1.0);
        for x in [-800.0, -20.0, -1.5, -1e-300, 0.0, 1e-300, 0.3, 7.0, 800.0] {
            assert_eq!(log1pexp_sigmoid(x), (log1pexp(x), sigmoid(x)), "at {x}");
        }
    }

    #[test]
    fn argmax_takes_first_maximum() {
        assert_eq!(argmax(&[1.0, 3.0, 3.0]), 1);
        assert_eq!(argmax(&[f64::NAN, 0.0]), 1);
    }
}
