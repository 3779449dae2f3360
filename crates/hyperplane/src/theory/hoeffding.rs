//! Hoeffding's inequality with the union bound over `M` hypotheses:
//!
//! ```text
//! P[ |nu - mu| > eps ] <= delta = 2 M exp(-2 eps^2 N)
//! eps = sqrt( ln(2M / delta) / (2N) )
//! N  >= ln(2M / delta) / (2 eps^2)
//! ```
//!
//! `nu` is the in-sample frequency over `N` independent samples, `mu` the out-of-sample
//! probability. The bound may exceed 1 (it is then vacuous); it is returned as computed.

use crate::error::{Error, Result};

/// `eps > 0` and finite.
pub(crate) fn check_eps(eps: f64) -> Result<()> {
    if eps > 0.0 && eps.is_finite() {
        Ok(())
    } else {
        Err(Error::param("eps", eps, "must be a finite number > 0"))
    }
}

/// `0 < delta < 1`.
pub(crate) fn check_delta(delta: f64) -> Result<()> {
    if delta > 0.0 && delta < 1.0 {
        Ok(())
    } else {
        Err(Error::param("delta", delta, "must be in (0, 1)"))
    }
}

/// `N >= 1`.
pub(crate) fn check_n(n: u64) -> Result<()> {
    if n >= 1 {
        Ok(())
    } else {
        Err(Error::param("n", n, "the sample size must be at least 1"))
    }
}

fn check_m(m: u64) -> Result<()> {
    if m >= 1 {
        Ok(())
    } else {
        Err(Error::param(
            "m",
            m,
            "the number of hypotheses must be at least 1",
        ))
    }
}

/// `delta = 2 M exp(-2 eps^2 N)`.
pub fn hoeffding_delta(eps: f64, n: u64, m: u64) -> Result<f64> {
    check_eps(eps)?;
    check_n(n)?;
    check_m(m)?;
    Ok(bound(eps, n, m))
}

fn bound(eps: f64, n: u64, m: u64) -> f64 {
    2.0 * m as f64 * (-2.0 * eps * eps * n as f64).exp()
}

/// `eps = sqrt(ln(2M / delta) / (2N))`: the deviation that holds with probability `1 - delta`.
pub fn hoeffding_epsilon(n: u64, delta: f64, m: u64) -> Result<f64> {
    check_n(n)?;
    check_delta(delta)?;
    check_m(m)?;
    Ok(((2.0 * m as f64 / delta).ln() / (2.0 * n as f64)).sqrt())
}

/// The smallest integer `N` with `2 M exp(-2 eps^2 N) <= delta`, i.e.
/// `ceil(ln(2M / delta) / (2 eps^2))`, corrected by one step either way so that the
/// returned `N` meets the bound as [`hoeffding_delta`] computes it and `N - 1` does not.
pub fn hoeffding_sample_size(eps: f64, delta: f64, m: u64) -> Result<u64> {
    check_eps(eps)?;
    check_delta(delta)?;
    check_m(m)?;
    let exact = (2.0 * m as f64 / delta).ln() / (2.0 * eps * eps);
    if exact >= u64::MAX as f64 / 2.0 {
        return Err(Error::param(
            "eps",
            eps,
            "the sample size needed does not fit in 64 bits",
        ));
    }
    let mut n = (exact.ceil() as u64).max(1);
    while bound(eps, n, m) > delta {
        n += 1;
    }
    while n > 1 && bound(eps, n - 1, m) <= delta {
        n -= 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn hand_computed_values() {
        // 2 exp(-2 * 0.01 * 1000) = 2 e^-20.
        assert_relative_eq!(hoeffding_delta(0.1, 1000, 1).unwrap(), 2.0 * (-20f64).exp());
        assert_relative_eq!(
            hoeffding_delta(0.1, 1000, 10).unwrap(),
            20.0 * (-20f64).exp()
        );
        // eps = sqrt(ln(2 / 0.05) / 200) = sqrt(ln 40 / 200).
        assert_relative_eq!(
            hoeffding_epsilon(100, 0.05, 1).unwrap(),
            (40f64.ln() / 200.0).sqrt()
        );
        // N >= ln(2 / 0.03) / (2 * 0.0025) = 839.9..., so 840 (Learning From Data, ex. 1.11-style).
        assert_eq!(hoeffding_sample_size(0.05, 0.03, 1).unwrap(), 840);
        // With M = 100: ln(200 / 0.03) / 0.005 = 1761.0...
        assert_eq!(hoeffding_sample_size(0.05, 0.03, 100).unwrap(), 1761);
    }

    #[test]
    fn solvers_are_inverse_to_the_bound() {
        for &(eps, delta, m) in &[(0.1, 0.05, 1u64), (0.02, 0.001, 1000), (0.3, 0.5, 7)] {
            let n = hoeffding_sample_size(eps, delta, m).unwrap();
            assert!(hoeffding_delta(eps, n, m).unwrap() <= delta);
            assert!(n == 1 || hoeffding_delta(eps, n - 1, m).unwrap() > delta);
            let e = hoeffding_epsilon(n, delta, m).unwrap();
            assert!(e <= eps + 1e-12);
            assert_relative_eq!(
                hoeffding_delta(e, n, m).unwrap(),
                delta,
                max_relative = 1e-9
            );
        }
    }

    #[test]
    fn invalid_parameters() {
        assert!(hoeffding_delta(0.0, 10, 1).is_err());
        assert!(hoeffding_delta(f64::NAN, 10, 1).is_err());
        assert!(hoeffding_delta(0.1, 0, 1).is_err());
        assert!(hoeffding_delta(0.1, 10, 0).is_err());
        assert!(hoeffding_epsilon(10, 1.0, 1).is_err());
        assert!(hoeffding_epsilon(10, 0.0, 1).is_err());
        assert!(hoeffding_sample_size(-0.1, 0.1, 1).is_err());
        assert!(hoeffding_sample_size(1e-300, 0.1, 1).is_err());
    }
}
