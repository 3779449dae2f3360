//! Growth functions `m_H(N)`: the most dichotomies a hypothesis set realises on `N` points.
//!
//! | set | `m_H(N)` | `d_vc` | break point `k` |
//! |---|---|---|---|
//! | positive rays `h(x) = sign(x - a)` | `N + 1` | 1 | 2 |
//! | positive intervals (`+1` inside `[l, r]`) | `N(N+1)/2 + 1` | 2 | 3 |
//! | convex sets in the plane (`+1` inside) | `2^N` | infinite | none |
//! | perceptrons `sign(w.x + b)` in `d` dimensions | `2 sum_{k=0}^{d} C(N-1, k)` (Cover, 1965) | `d + 1` | `d + 2` |
//!
//! Cover's count is for points in general position (the maximum); in 2-D it is
//! `N^2 - N + 2`. Every `m_H(0) = 1` (the empty dichotomy).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::theory::bigint::BigUint;
use crate::theory::bounding::bounding;

/// Largest perceptron dimension accepted (and largest `d_vc` in the VC tools): the exact
/// integers have `O(d log N)` digits and cost `O(d^2)` per evaluation.
pub const MAX_DIMENSION: u64 = 1000;

/// A hypothesis set of the course with a known growth function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "set")]
pub enum HypothesisSet {
    /// `h(x) = sign(x - a)` on the real line.
    PositiveRays,
    /// `h(x) = +1` for `x` in `[l, r]`, `-1` outside.
    PositiveIntervals,
    /// `h(x) = +1` inside a convex set of the plane.
    ConvexSets,
    /// `h(x) = sign(w.x + b)` for `x` in `R^d`.
    Perceptron { d: u64 },
}

impl HypothesisSet {
    /// The perceptrons of `R^d`, `1 <= d <= 1000`.
    pub fn perceptron(d: u64) -> Result<Self> {
        if !(1..=MAX_DIMENSION).contains(&d) {
            return Err(Error::param(
                "d",
                d,
                format!("the perceptron's dimension must be between 1 and {MAX_DIMENSION}"),
            ));
        }
        Ok(HypothesisSet::Perceptron { d })
    }

    /// A set by its command-line name (`rays`, `intervals`, `convex`, `perceptron`); `d` is
    /// the perceptron's dimension (2 when `None`) and is refused for the other sets.
    pub fn named(name: &str, d: Option<u64>) -> Result<Self> {
        let set = match name.trim().to_ascii_lowercase().as_str() {
            "rays" | "positive-rays" => HypothesisSet::PositiveRays,
            "intervals" | "positive-intervals" => HypothesisSet::PositiveIntervals,
            "convex" | "convex-sets" => HypothesisSet::ConvexSets,
            "perceptron" | "perceptrons" => return HypothesisSet::perceptron(d.unwrap_or(2)),
            _ => {
                return Err(Error::param(
                    "set",
                    name,
                    "expected one of rays, intervals, convex, perceptron",
                ))
            }
        };
        match d {
            Some(d) => Err(Error::param(
                "d",
                d,
                format!("a dimension applies only to perceptrons, not to {set}"),
            )),
            None => Ok(set),
        }
    }

    /// `m_H(N)`, exactly (for perceptrons, on points in general position).
    pub fn growth(&self, n: u64) -> BigUint {
        match *self {
            HypothesisSet::PositiveRays => BigUint::from(n as u128 + 1),
            HypothesisSet::PositiveIntervals => BigUint::from(n as u128 * (n as u128 + 1) / 2 + 1),
            HypothesisSet::ConvexSets => BigUint::pow2(n as usize),
            HypothesisSet::Perceptron { d } => match n {
                0 => BigUint::one(),
                _ => bounding(n - 1, d + 1) * 2,
            },
        }
    }

    /// The VC dimension, `None` when infinite.
    pub fn vc_dimension(&self) -> Option<u64> {
        match *self {
            HypothesisSet::PositiveRays => Some(1),
            HypothesisSet::PositiveIntervals => Some(2),
            HypothesisSet::ConvexSets => None,
            HypothesisSet::Perceptron { d } => Some(d + 1),
        }
    }

    /// The smallest break point `k = d_vc + 1` (`m_H(k) < 2^k`), `None` when there is none.
    pub fn break_point(&self) -> Option<u64> {
        self.vc_dimension().map(|d| d + 1)
    }
}

impl FromStr for HypothesisSet {
    type Err = Error;
    /// `rays`, `intervals`, `convex` or `perceptron` (2-D).
    fn from_str(s: &str) -> Result<Self> {
        HypothesisSet::named(s, None)
    }
}

impl fmt::Display for HypothesisSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HypothesisSet::PositiveRays => f.write_str("positive rays"),
            HypothesisSet::PositiveIntervals => f.write_str("positive intervals"),
            HypothesisSet::ConvexSets => f.write_str("convex sets"),
            HypothesisSet::Perceptron { d } => write!(f, "perceptrons in {d}-D"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn m(set: HypothesisSet, n: u64) -> u64 {
        set.growth(n).to_u64().unwrap()
    }

    #[test]
    fn hand_computed_growth() {
        use HypothesisSet::*;
        assert_eq!(m(PositiveIntervals, 5), 16);
        assert_eq!(m(PositiveRays, 5), 6);
        assert_eq!(m(ConvexSets, 5), 32);
        let p2 = Perceptron { d: 2 };
        let by_hand = [1, 2, 4, 8, 14, 22, 32, 44];
        for (n, &v) in by_hand.iter().enumerate() {
            assert_eq!(m(p2, n as u64), v, "2-D perceptron, N = {n}");
            if n > 0 {
                assert_eq!(v, (n * n - n + 2) as u64);
            }
        }
        // 1-D perceptrons are positive and negative rays: 2N.
        assert_eq!(m(Perceptron { d: 1 }, 6), 12);
        assert_eq!(m(Perceptron { d: 3 }, 5), 30);
        for set in [PositiveRays, PositiveIntervals, ConvexSets, p2] {
            assert_eq!(m(set, 0), 1);
        }
    }

    #[test]
    fn vc_dimension_and_break_points() {
        use HypothesisSet::*;
        assert_eq!(PositiveRays.break_point(), Some(2));
        assert_eq!(PositiveIntervals.vc_dimension(), Some(2));
        assert_eq!(ConvexSets.break_point(), None);
        assert_eq!(Perceptron { d: 2 }.vc_dimension(), Some(3));
        for set in [
            PositiveRays,
            PositiveIntervals,
            Perceptron { d: 1 },
            Perceptron { d: 4 },
        ] {
            let k = set.break_point().unwrap();
            assert!(
                set.growth(k) < BigUint::pow2(k as usize),
                "{set}: k is a break point"
            );
            assert_eq!(
                set.growth(k - 1),
                BigUint::pow2(k as usize - 1),
                "{set}: k - 1 is not"
            );
        }
    }

    #[test]
    fn names() {
        assert_eq!(
            "rays".parse::<HypothesisSet>().unwrap(),
            HypothesisSet::PositiveRays
        );
        assert_eq!(
            " Convex ".parse::<HypothesisSet>().unwrap(),
            HypothesisSet::ConvexSets
        );
        assert_eq!(
            HypothesisSet::named("perceptron", Some(3)).unwrap(),
            HypothesisSet::Perceptron { d: 3 }
        );
        assert_eq!(
            "perceptron".parse::<HypothesisSet>().unwrap(),
            HypothesisSet::Perceptron { d: 2 }
        );
        assert!(HypothesisSet::named("rays", Some(2)).is_err());
        assert!(HypothesisSet::named("circles", None).is_err());
        assert!(HypothesisSet::perceptron(0).is_err());
        assert_eq!(
            serde_json::to_string(&HypothesisSet::Perceptron { d: 2 }).unwrap(),
            r#"{"set":"perceptron","d":2}"#
        );
    }

    proptest! {
        #[test]
        fn growth_is_below_two_to_the_n_and_the_bounding_function(n in 0u64..300, d in 1u64..12) {
            for set in [HypothesisSet::PositiveRays, HypothesisSet::PositiveIntervals, HypothesisSet::Perceptron { d }] {
                let g = set.growth(n);
                prop_assert!(g <= BigUint::pow2(n as usize));
                prop_assert!(g <= bounding(n, set.break_point().unwrap()));
            }
        }
    }
}
