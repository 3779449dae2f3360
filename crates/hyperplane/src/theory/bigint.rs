//! An unsigned big integer with just what exact growth functions and binomial sums need:
//! add, multiply and divide by a machine word, shift, compare, decimal text, `ln` and `f64`.
//!
//! Growth functions outgrow `u128` quickly (`m_H(N) = 2^N` for convex sets; `B(N, k)` for
//! `N` in the thousands), and the theory tools must print them exactly. Our own type rather
//! than a big-number crate: a hundred lines, no new dependency.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Shl};
use std::str::FromStr;

use crate::error::{Error, Result};

/// A natural number of any size: 64-bit limbs, least significant first, with no trailing zero
/// limb (zero is the empty vector), so equal numbers have equal representations.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BigUint {
    limbs: Vec<u64>,
}

/// `10^19`, the largest power of ten in a `u64`: decimal text is made 19 digits at a time.
const TEN19: u64 = 10_000_000_000_000_000_000;

impl BigUint {
    /// Zero.
    pub fn zero() -> Self {
        BigUint { limbs: Vec::new() }
    }

    /// One.
    pub fn one() -> Self {
        BigUint::from(1u64)
    }

    /// `2^n`.
    pub fn pow2(n: usize) -> Self {
        &BigUint::one() << n
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    fn trim(mut self) -> Self {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
        self
    }

    /// `self * m`.
    pub fn mul_small(&self, m: u64) -> Self {
        let mut carry = 0u128;
        let mut limbs = Vec::with_capacity(self.limbs.len() + 1);
        for &l in &self.limbs {
            let p = l as u128 * m as u128 + carry;
            limbs.push(p as u64);
            carry = p >> 64;
        }
        limbs.push(carry as u64);
        BigUint { limbs }.trim()
    }

    /// `(self / d, self % d)`; `d` must be positive.
    pub fn div_rem_small(&self, d: u64) -> (Self, u64) {
        assert!(d > 0, "BigUint::div_rem_small by zero");
        let mut limbs = vec![0u64; self.limbs.len()];
        let mut rem = 0u128;
        for (q, &l) in limbs.iter_mut().zip(&self.limbs).rev() {
            let cur = (rem << 64) | l as u128;
            *q = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        (BigUint { limbs }.trim(), rem as u64)
    }

    /// `self^e` for a machine-word base: `e` multiplications by `base`.
    pub fn pow_small(base: u64, e: u32) -> Self {
        (0..e).fold(BigUint::one(), |acc, _| acc.mul_small(base))
    }

    /// The value when it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        match self.limbs.len() {
            0 => Some(0),
            1 => Some(self.limbs[0]),
            _ => None,
        }
    }

    /// `(m, e)` with `self ~ m * 2^e`, `m` made of the top two limbs (relative error < 2^-52).
    fn mantissa_exponent(&self) -> (f64, i32) {
        const TWO64: f64 = 18_446_744_073_709_551_616.0;
        match self.limbs.len() {
            0 => (0.0, 0),
            1 => (self.limbs[0] as f64, 0),
            n => {
                let m = self.limbs[n - 1] as f64 * TWO64 + self.limbs[n - 2] as f64;
                (m, 64 * (n as i32 - 2))
            }
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
        BigUint { limbs: vec![v] }.trim()
    }
}

impl From<u128> for BigUint {
    fn from(v: u128) -> Self {
        BigUint {
            limbs: vec![v as u64, (v >> 64) as u64],
        }
        .trim()
    }
}

impl AddAssign<&BigUint> for BigUint {
    fn add_assign(&mut self, other: &BigUint) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = false;
        for (i, a) in self.limbs.iter_mut().enumerate() {
            let b = other.limbs.get(i).copied().unwrap_or(0);
            if b == 0 && !carry && i >= other.limbs.len() {
                break;
            }
            let (s1, c1) = a.overflowing_add(b);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *a = s2;
            carry = c1 || c2;
        }
        if carry {
            self.limbs.push(1);
        }
    }
}

impl Add<&BigUint> for &BigUint {
    type Output = BigUint;
    fn add(self, other: &BigUint) -> BigUint {
        let mut s = self.clone();
        s += other;
        s
    }
}

impl Shl<usize> for &BigUint {
    type Output = BigUint;
    /// `self * 2^bits`.
    fn shl(self, bits: usize) -> BigUint {
        if self.is_zero() {
            return BigUint::zero();
        }
        let (words, r) = (bits / 64, bits % 64);
        let mut limbs = vec![0u64; words];
        let mut carry = 0u64;
        for &l in &self.limbs {
            if r == 0 {
                limbs.push(l);
            } else {
                limbs.push((l << r) | carry);
                carry = l >> (64 - r);
            }
        }
        limbs.push(carry);
        BigUint { limbs }.trim()
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for BigUint {
    /// Decimal digits, no separators.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut chunks = Vec::new();
        let mut rest = self.clone();
        while !rest.is_zero() {
            let (q, r) = rest.div_rem_small(TEN19);
            chunks.push(r);
            rest = q;
        }
        let mut s = match chunks.pop() {
            None => "0".to_string(),
            Some(top) => top.to_string(),
        };
        for c in chunks.iter().rev() {
            s.push_str(&format!("{c:019}"));
        }
        f.pad(&s)
    }
}

impl FromStr for BigUint {
    type Err = Error;
    /// Decimal digits only.
    fn from_str(s: &str) -> Result<Self> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Error::param(
                "big integer",
                s,
                "expected decimal digits 0-9",
            ));
        }
        Ok(s.bytes().fold(BigUint::zero(), |acc, b| {
            let mut next = acc.mul_small(10);
            next += &BigUint::from((b - b'0') as u64);
            next
        }))
    }
}

impl serde::Serialize for BigUint {
    /// As a decimal string: JSON numbers lose digits beyond 2^53 in most readers.
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
        assert!("".parse::<BigUint>().is_err());
    }

    proptest! {
        #[test]
        fn arithmetic_agrees_with_u128(a in any::<u64>(), b in any::<u64>(), m in 1u64.., s in 0usize..63) {
            let (a, b) = (a as u128, b as u128);
            prop_assert_eq!(&big(a) + &big(b), big(a + b));
            prop_assert_eq!(big(a).mul_small(m).to_string(), (a * m as u128).to_string());
            let (q, r) = big(a * m as u128 + b % m as u128).div_rem_small(m);
            prop_assert_eq!((q, r), (big(a), (b % m as u128) as u64));
            prop_assert_eq!(&big(a) << s, big(a << s));
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
            prop_assert_eq!(BigUint::pow2(k).div_rem_small(2), (BigUint::pow2(k - 1), 0));
        }
    }
}
