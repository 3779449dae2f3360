//! The exact natural numbers of growth functions and binomial sums: a newtype over
//! [`num_bigint::BigUint`] that prints, parses and serialises as decimal text and gives the
//! `ln` and `f64` the bounds need.
//!
//! Growth functions outgrow `u128` quickly (`m_H(N) = 2^N` for convex sets; `B(N, k)` for
//! `N` in the thousands), and the theory tools must print them exactly. The newtype keeps
//! the project's forms: JSON carries a decimal string (JSON numbers lose digits beyond 2^53
//! in most readers), and only the digits 0-9 parse.

use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul};
use std::str::FromStr;

use crate::error::{Error, Result};

/// A natural number of any size.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BigUint(num_bigint::BigUint);

impl BigUint {
    /// Zero.
    pub fn zero() -> Self {
        BigUint::default()
    }

    /// One.
    pub fn one() -> Self {
        BigUint::from(1u64)
    }

    /// `2^n`.
    pub fn pow2(n: usize) -> Self {
        BigUint(num_bigint::BigUint::from(1u8) << n)
    }

    /// `base^e`.
    pub fn pow_small(base: u64, e: u32) -> Self {
        BigUint(num_bigint::BigUint::from(base).pow(e))
    }

    /// The value when it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        u64::try_from(&self.0).ok()
    }

    /// `(m, e)` with `self ~ m * 2^e`, `m` made of the top two 64-bit digits (relative
    /// error < 2^-52).
    fn mantissa_exponent(&self) -> (f64, i32) {
        const TWO64: f64 = 18_446_744_073_709_551_616.0;
        let mut digits = self.0.iter_u64_digits();
        let n = digits.len() as i32;
        match (digits.next_back(), digits.next_back()) {
            (Some(top), Some(next)) => (top as f64 * TWO64 + next as f64, 64 * (n - 2)),
            (top, _) => (top.map_or(0.0, |t| t as f64), 0),
        }
    }

    /// The nearest `f64` (to within rounding of the top 128 bits); `inf` beyond `f64::MAX`.
    pub fn to_f64(&self) -> f64 {
        let (m, e) = self.mantissa_exponent();
        m * 2f64.powi(e)
    }

    /// Natural logarithm, finite for every positive value however large; `-inf` for zero.
    pub fn ln(&self) -> f64 {
        let (m, e) = self.mantissa_exponent();
        m.ln() + e as f64 * std::f64::consts::LN_2
    }
}

impl From<u64> for BigUint {
    fn from(v: u64) -> Self {
        BigUint(v.into())
    }
}

impl From<u128> for BigUint {
    fn from(v: u128) -> Self {
        BigUint(v.into())
    }
}

impl AddAssign<&BigUint> for BigUint {
    fn add_assign(&mut self, other: &BigUint) {
        self.0 += &other.0;
    }
}

impl Add<&BigUint> for &BigUint {
    type Output = BigUint;
    fn add(self, other: &BigUint) -> BigUint {
        BigUint(&self.0 + &other.0)
    }
}

impl Mul<u64> for BigUint {
    type Output = BigUint;
    fn mul(self, m: u64) -> BigUint {
        BigUint(self.0 * m)
    }
}

impl Div<u64> for BigUint {
    type Output = BigUint;
    /// The quotient, rounded down; panics when `d` is zero.
    fn div(self, d: u64) -> BigUint {
        BigUint(self.0 / d)
    }
}

impl fmt::Display for BigUint {
    /// Decimal digits, no separators (width and fill as for a string).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0.to_string())
    }
}

impl FromStr for BigUint {
    type Err = Error;
    /// Decimal digits only (no sign, no separators).
    fn from_str(s: &str) -> Result<Self> {
        let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        digits
            .then(|| num_bigint::BigUint::parse_bytes(s.as_bytes(), 10))
            .flatten()
            .map(BigUint)
            .ok_or_else(|| Error::param("big integer", s, "expected decimal digits 0-9"))
    }
}

impl serde::Serialize for BigUint {
    /// As a decimal string.
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for BigUint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(v: u128) -> BigUint {
        BigUint::from(v)
    }

    #[test]
    fn decimal_text_of_large_powers_of_two() {
        assert_eq!(BigUint::zero().to_string(), "0");
        assert_eq!(BigUint::pow2(64).to_string(), "18446744073709551616");
        assert_eq!(
            BigUint::pow2(200).to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
        assert_eq!(
            BigUint::pow_small(10, 40).to_string(),
            format!("1{}", "0".repeat(40))
        );
        assert_eq!(format!("{:>5}", BigUint::from(42u64)), "   42");
    }

    #[test]
    fn ln_and_f64_of_huge_values() {
        let x = BigUint::pow2(5000);
        assert!((x.ln() - 5000.0 * std::f64::consts::LN_2).abs() < 1e-9);
        assert_eq!(x.to_f64(), f64::INFINITY);
        assert_eq!(BigUint::pow2(100).to_f64(), 2f64.powi(100));
        assert_eq!(BigUint::zero().ln(), f64::NEG_INFINITY);
        assert_eq!(BigUint::pow2(70).to_u64(), None);
        assert_eq!(BigUint::from(7u64).to_u64(), Some(7));
    }

    #[test]
    fn serde_as_decimal_string() {
        let x = BigUint::pow2(100);
        let j = serde_json::to_string(&x).unwrap();
        assert_eq!(j, "\"1267650600228229401496703205376\"");
        let back: BigUint = serde_json::from_str(&j).unwrap();
        assert_eq!(back, x);
        assert!(serde_json::from_str::<BigUint>("\"12a\"").is_err());
        // num-bigint alone would take a sign and underscores.
        for bad in ["", "+12", "1_000", "-1", " 1"] {
            assert!(bad.parse::<BigUint>().is_err(), "{bad:?}");
        }
    }

    proptest! {
        #[test]
        fn arithmetic_agrees_with_u128(a in any::<u64>(), b in any::<u64>(), m in 1u64..) {
            let (a, b) = (a as u128, b as u128);
            prop_assert_eq!(&big(a) + &big(b), big(a + b));
            prop_assert_eq!((big(a) * m).to_string(), (a * m as u128).to_string());
            prop_assert_eq!(big(a * m as u128 + b % m as u128) / m, big(a));
            prop_assert_eq!(big(a).cmp(&big(b)), a.cmp(&b));
            prop_assert_eq!(big(a).to_string().parse::<BigUint>().unwrap(), big(a));
        }

        #[test]
        fn carries_across_many_limbs(k in 1usize..300) {
            // (2^k - 1) + 1 = 2^k exercises a carry through every limb.
            let mut ones = BigUint::zero();
            for i in 0..k {
                ones += &BigUint::pow2(i);
            }
            prop_assert_eq!(&ones + &BigUint::one(), BigUint::pow2(k));
            prop_assert!(ones < BigUint::pow2(k));
            prop_assert_eq!(BigUint::pow2(k) / 2, BigUint::pow2(k - 1));
        }
    }
}
