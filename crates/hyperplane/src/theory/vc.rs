//! The VC generalisation bound and the sample complexity it implies.
//!
//! ```text
//! P[ |E_in(g) - E_out(g)| > eps ] <= delta = 4 m_H(2N) exp(-eps^2 N / 8)
//! eps = Omega(N, H, delta) = sqrt( 8/N ln(4 m_H(2N) / delta) )
//! ```
//!
//! `m_H` is exact for a [`HypothesisSet`], or bounded from the VC dimension alone:
//! `m_H(N) <= N^{d_vc} + 1` (the course's polynomial bound, used here at `2N`), or the
//! tight `m_H(N) <= B(N, d_vc + 1)`.
//!
//! [`vc_sample_size`] returns the smallest `N` beyond which the bound holds for every larger
//! sample. Why the search finds it: write `G(N) = ln delta(N) = ln 4 + ln m_H(2N) - eps^2 N/8`.
//! Each supported `m_H(2N)` is log-concave in `N` (`ln((2N)^d + 1)` is concave for `N >= 1`;
//! `B(M, k)` is a log-concave sequence in `M`, since `B(M+1,k)/B(M,k) = 1 + B(M,k-1)/B(M,k)`
//! and `B(M,k)/B(M,k-1) = 1 + C(M,k-1)/B(M,k-1)` grows with `M`), so `G` is concave: it
//! rises to a peak `N_p` (the first `N` with `G(N+1) < G(N)`, found by doubling then bisection
//! on the sign of that difference) and falls for ever after, because `ln m_H(2N)` grows only
//! like `d_vc ln N`. If `G(N_p) <= ln delta` the bound holds for every `N >= 1`; otherwise the
//! answer is the first `N > N_p` with `G(N) <= ln delta`, found by doubling then bisection on
//! the falling branch — every `N` at or above it meets the bound and `N - 1` does not.

use crate::error::{Error, Result};
use crate::theory::bigint::BigUint;
use crate::theory::bounding::{binomial, bounding};
use crate::theory::growth::{HypothesisSet, MAX_DIMENSION};
use crate::theory::hoeffding::{check_delta, check_eps, check_n};

/// Largest sample size the VC tools consider (so that `2N` fits in 64 bits with room).
pub const MAX_N: u64 = 1 << 60;

/// What stands in for `m_H(N)` in the VC bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrowthBound {
    /// The exact growth function of a hypothesis set (finite VC dimension only).
    Exact(HypothesisSet),
    /// `N^{d_vc} + 1`.
    Polynomial { dvc: u64 },
    /// `B(N, d_vc + 1) = sum_{i <= d_vc} C(N, i)`.
    Binomial { dvc: u64 },
}

impl GrowthBound {
    /// `m_H(N)` or its bound, exactly.
    pub fn growth(&self, n: u64) -> BigUint {
        match *self {
            GrowthBound::Exact(set) => set.growth(n),
            GrowthBound::Polynomial { dvc } => &BigUint::pow_small(n, dvc as u32) + &BigUint::one(),
            GrowthBound::Binomial { dvc } => bounding(n, dvc + 1),
        }
    }

    /// The VC dimension the bound is built on (`None`: infinite).
    pub fn vc_dimension(&self) -> Option<u64> {
        match *self {
            GrowthBound::Exact(set) => set.vc_dimension(),
            GrowthBound::Polynomial { dvc } | GrowthBound::Binomial { dvc } => Some(dvc),
        }
    }

    /// A finite VC dimension of at most [`MAX_DIMENSION`]: without one the bound never falls.
    fn check(&self) -> Result<()> {
        match self.vc_dimension() {
            None => Err(Error::param(
                "set",
                match self {
                    GrowthBound::Exact(set) => set.to_string(),
                    _ => String::new(),
                },
                "the VC dimension is infinite (m_H(N) = 2^N): the VC bound never falls below 1",
            )),
            Some(d) if d > MAX_DIMENSION => Err(Error::param(
                "dvc",
                d,
                format!("must be at most {MAX_DIMENSION}"),
            )),
            Some(_) => Ok(()),
        }
    }

    /// `ln delta(N) = ln 4 + ln m_H(2N) - eps^2 N / 8`.
    fn ln_delta(&self, eps: f64, n: u64) -> f64 {
        4f64.ln() + self.growth(2 * n).ln() - eps * eps * n as f64 / 8.0
    }
}

fn check_n_max(n: u64) -> Result<()> {
    check_n(n)?;
    if n > MAX_N {
        return Err(Error::param(
            "n",
            n,
            format!("must be at most 2^60 = {MAX_N}"),
        ));
    }
    Ok(())
}

/// `delta = 4 m_H(2N) exp(-eps^2 N / 8)` (may exceed 1: the bound is then vacuous).
pub fn vc_delta(eps: f64, n: u64, growth: &GrowthBound) -> Result<f64> {
    check_eps(eps)?;
    check_n_max(n)?;
    growth.check()?;
    Ok(growth.ln_delta(eps, n).exp())
}

/// The generalisation error bar `Omega = sqrt(8/N ln(4 m_H(2N) / delta))`.
pub fn vc_epsilon(n: u64, delta: f64, growth: &GrowthBound) -> Result<f64> {
    check_n_max(n)?;
    check_delta(delta)?;
    growth.check()?;
    let ln = 4f64.ln() + growth.growth(2 * n).ln() - delta.ln();
    Ok((8.0 / n as f64 * ln).sqrt())
}

/// The smallest `N` such that `4 m_H(2N) exp(-eps^2 N / 8) <= delta` for `N` and every larger
/// sample size (see the module documentation for why the search is exact).
pub fn vc_sample_size(eps: f64, delta: f64, growth: &GrowthBound) -> Result<u64> {
    check_eps(eps)?;
    check_delta(delta)?;
    growth.check()?;
    let g = |n: u64| growth.ln_delta(eps, n);
    let peak = first_true(1, eps, |n| g(n + 1) < g(n))?;
    if g(peak) <= delta.ln() {
        return Ok(1);
    }
    first_true(peak, eps, |n| g(n) <= delta.ln())
}

/// The first `n >= start` where `pred` holds, for `pred` false then true for ever:
/// doubling steps until it holds, then bisection. Past [`MAX_N`] the tolerance `eps` is
/// blamed: it is what makes the sample size grow.
fn first_true(start: u64, eps: f64, pred: impl Fn(u64) -> bool) -> Result<u64> {
    if pred(start) {
        return Ok(start);
    }
    let (mut lo, mut step) = (start, 1u64);
    let mut hi = start + step;
    while !pred(hi) {
        lo = hi;
        step *= 2;
        hi = start + step;
        if hi > MAX_N {
            return Err(Error::param(
                "eps",
                eps,
                format!("too small: the sample size needed exceeds 2^60 = {MAX_N}"),
            ));
        }
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}

/// Dimension of the polynomial transform `Phi_Q` of `d` inputs, constant included:
/// `C(Q + d, d)`. Perceptrons in that Z-space have `d_vc <= C(Q + d, d)` (the plain
/// perceptron, `Q = 1`, has `d + 1`).
pub fn poly_dimension(d: u64, q: u64) -> Result<u64> {
    if d == 0 {
        return Err(Error::param(
            "d",
            d,
            "the number of inputs must be at least 1",
        ));
    }
    let total = q
        .checked_add(d)
        .ok_or_else(|| Error::param("q", q, "Q + d overflows 64 bits"))?;
    binomial(total, d).to_u64().ok_or_else(|| {
        Error::param(
            "q",
            q,
            format!("C(Q + d, d) for d = {d} does not fit in 64 bits"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    const POLY3: GrowthBound = GrowthBound::Polynomial { dvc: 3 };

    #[test]
    fn delta_and_epsilon_by_hand() {
        // N = 1000, d_vc = 3: 4 (2000^3 + 1) exp(-0.01 * 1000 / 8).
        let want = 4.0 * (2000f64.powi(3) + 1.0) * (-1.25f64).exp();
        assert_relative_eq!(
            vc_delta(0.1, 1000, &POLY3).unwrap(),
            want,
            max_relative = 1e-12
        );
        let want = (8.0 / 1000.0 * (4.0 * (2000f64.powi(3) + 1.0) / 0.05).ln()).sqrt();
        assert_relative_eq!(
            vc_epsilon(1000, 0.05, &POLY3).unwrap(),
            want,
            max_relative = 1e-12
        );
        // Exact growth of 2-D perceptrons: m_H(2N) = (2N)^2 - 2N + 2.
        let p2 = GrowthBound::Exact(HypothesisSet::Perceptron { d: 2 });
        let want = 4.0 * (4e6 - 2000.0 + 2.0) * (-1.25f64).exp();
        assert_relative_eq!(
            vc_delta(0.1, 1000, &p2).unwrap(),
            want,
            max_relative = 1e-12
        );
        // Binomial bound: B(2000, 4) = 1 + 2000 + C(2000, 2) + C(2000, 3).
        let b = GrowthBound::Binomial { dvc: 3 };
        let m = 1.0 + 2000.0 + 1999000.0 + 1331334000.0;
        assert_relative_eq!(
            vc_delta(0.1, 1000, &b).unwrap(),
            4.0 * m * (-1.25f64).exp(),
            max_relative = 1e-12
        );
    }

    #[test]
    fn the_courses_sample_size_example() {
        // d_vc = 3, eps = delta = 0.1: the course iterates N = 8/eps^2 ln(4((2N)^3 + 1)/delta)
        // to about 29,299; the smallest integer meeting the bound is the next one up.
        let n = vc_sample_size(0.1, 0.1, &POLY3).unwrap();
        assert_eq!(n, 29_300);
        assert!(vc_delta(0.1, n, &POLY3).unwrap() <= 0.1);
        assert!(vc_delta(0.1, n - 1, &POLY3).unwrap() > 0.1);
        // The fixed-point iteration lands just below.
        let mut x = 1000.0f64;
        for _ in 0..100 {
            x = 800.0 * (4.0 * ((2.0 * x).powi(3) + 1.0) / 0.1).ln();
        }
        assert!((x - 29_299.5).abs() < 1.0, "{x}");
        assert!(n as f64 >= x && (n as f64) < x + 1.0);
    }

    #[test]
    fn sample_size_is_the_threshold_for_every_bound() {
        let bounds = [
            POLY3,
            GrowthBound::Polynomial { dvc: 0 },
            GrowthBound::Binomial { dvc: 5 },
            GrowthBound::Exact(HypothesisSet::PositiveRays),
            GrowthBound::Exact(HypothesisSet::Perceptron { d: 10 }),
        ];
        for g in bounds {
            for &(eps, delta) in &[(0.05, 0.05), (0.3, 0.01), (0.5, 0.5)] {
                let n = vc_sample_size(eps, delta, &g).unwrap();
                assert!(vc_delta(eps, n, &g).unwrap() <= delta, "{g:?}");
                assert!(n == 1 || vc_delta(eps, n - 1, &g).unwrap() > delta, "{g:?}");
                // The bound keeps holding beyond n.
                for m in [n + 1, n + 17, 2 * n, 10 * n] {
                    assert!(vc_delta(eps, m, &g).unwrap() <= delta, "{g:?} at {m}");
                }
            }
        }
        // The binomial bound is tighter than the polynomial one, so needs fewer samples.
        let b = vc_sample_size(0.1, 0.1, &GrowthBound::Binomial { dvc: 3 }).unwrap();
        assert!(b < 29_300);
    }

    #[test]
    fn refusals() {
        assert!(vc_sample_size(0.1, 0.1, &GrowthBound::Exact(HypothesisSet::ConvexSets)).is_err());
        assert!(vc_delta(0.0, 10, &POLY3).is_err());
        assert!(vc_epsilon(10, 1.0, &POLY3).is_err());
        assert!(vc_epsilon(0, 0.1, &POLY3).is_err());
        assert!(vc_delta(0.1, 10, &GrowthBound::Polynomial { dvc: 5000 }).is_err());
        assert!(vc_sample_size(1e-9, 0.1, &POLY3).is_err());
    }

    #[test]
    fn polynomial_transform_dimension() {
        assert_eq!(poly_dimension(2, 1).unwrap(), 3);
        assert_eq!(poly_dimension(2, 2).unwrap(), 6); // 1, x1, x2, x1^2, x1 x2, x2^2
        assert_eq!(poly_dimension(2, 3).unwrap(), 10);
        assert_eq!(poly_dimension(5, 0).unwrap(), 1);
        assert_eq!(poly_dimension(10, 4).unwrap(), 1001);
        assert!(poly_dimension(0, 2).is_err());
        assert!(poly_dimension(1000, 1000).is_err());
    }
}
