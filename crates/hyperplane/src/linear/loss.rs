//! Pointwise losses of a score `s` against a label `y` in {-1, +1}.
//!
//! | loss | err(s, y) | d err / d s |
//! |---|---|---|
//! | 0/1 | `[sign(s) != y]` (`s = 0` counts as -1) | — |
//! | perceptron | `max(0, -y s)` | `-y` if `y s <= 0` |
//! | hinge ("soft PLA") | `max(0, 1 - y s)` | `-y` if `y s < 1` |
//! | squared | `(s - y)^2` | `2 (s - y)` |
//! | cross-entropy (log) | `ln(1 + exp(-y s))` | `-y sigma(-y s)` |
//! | scaled cross-entropy | `log2(1 + exp(-y s))` | `-y sigma(-y s) / ln 2` |
//! | modified Huber | `max(0, 1 - y s)^2` if `y s >= -1`, else `-4 y s` | `-2 y max(0, 1 - y s)`, or `-4 y` |
//!
//! The scaled cross-entropy, squared, hinge and modified Huber losses are upper bounds on
//! the 0/1 error, which is what lets minimising them bound the classification error.

use serde::{Deserialize, Serialize};

use crate::numeric::{log1pexp, log1pexp_sigmoid, sigmoid};

/// A pointwise error measure / training loss on the margin `y s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loss {
    ZeroOne,
    Perceptron,
    Hinge,
    Squared,
    Log,
    ScaledLog,
    ModifiedHuber,
}

impl Loss {
    /// Every loss with its name, as `--param loss=NAME` spells it.
    pub const NAMES: [(&'static str, Loss); 7] = [
        ("zero_one", Loss::ZeroOne),
        ("perceptron", Loss::Perceptron),
        ("hinge", Loss::Hinge),
        ("squared", Loss::Squared),
        ("log", Loss::Log),
        ("scaled_log", Loss::ScaledLog),
        ("modified_huber", Loss::ModifiedHuber),
    ];

    /// The name of the loss.
    pub fn name(self) -> &'static str {
        Loss::NAMES
            .iter()
            .find(|(_, l)| *l == self)
            .map_or("?", |(n, _)| n)
    }

    /// `err(s, y)` for a score `s` and a label `y` in {-1, +1}.
    #[inline]
    pub fn value(self, s: f64, y: f64) -> f64 {
        let z = y * s;
        match self {
            Loss::ZeroOne => {
                if (s > 0.0) == (y > 0.0) {
                    0.0
                } else {
                    1.0
                }
            }
            Loss::Perceptron => (-z).max(0.0),
            Loss::Hinge => (1.0 - z).max(0.0),
            Loss::Squared => (s - y) * (s - y),
            Loss::Log => log1pexp(-z),
            Loss::ScaledLog => log1pexp(-z) / std::f64::consts::LN_2,
            Loss::ModifiedHuber => {
                if z >= -1.0 {
                    (1.0 - z).max(0.0).powi(2)
                } else {
                    -4.0 * z
                }
            }
        }
    }

    /// `d err / d s` (a subgradient where the loss has a kink; 0 for the 0/1 loss).
    #[inline]
    pub fn derivative(self, s: f64, y: f64) -> f64 {
        let z = y * s;
        match self {
            Loss::ZeroOne => 0.0,
            Loss::Perceptron => {
                if z <= 0.0 {
                    -y
                } else {
                    0.0
                }
            }
            Loss::Hinge => {
                if z < 1.0 {
                    -y
                } else {
                    0.0
                }
            }
            Loss::Squared => 2.0 * (s - y),
            Loss::Log => -y * sigmoid(-z),
            Loss::ScaledLog => -y * sigmoid(-z) / std::f64::consts::LN_2,
            Loss::ModifiedHuber => {
                if z >= -1.0 {
                    -2.0 * y * (1.0 - z).max(0.0)
                } else {
                    -4.0 * y
                }
            }
        }
    }

    /// `(err(s, y), d err / d s)`: [`Loss::value`] and [`Loss::derivative`], the log losses'
    /// from one exponential.
    #[inline]
    pub fn value_and_derivative(self, s: f64, y: f64) -> (f64, f64) {
        match self {
            Loss::Log | Loss::ScaledLog => {
                let (value, sig) = log1pexp_sigmoid(-y * s);
                let unit = if self == Loss::Log {
                    1.0
                } else {
                    std::f64::consts::LN_2
                };
                (value / unit, -y * sig / unit)
            }
            _ => (self.value(s, y), self.derivative(s, y)),
        }
    }
}

impl std::str::FromStr for Loss {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let t = s.trim();
        Loss::NAMES
            .iter()
            .find(|(n, _)| *n == t)
            .map(|(_, l)| *l)
            .ok_or_else(|| {
                let names: Vec<&str> = Loss::NAMES.iter().map(|(n, _)| *n).collect();
                format!("unknown loss; choose one of {}", names.join(", "))
            })
    }
}

impl std::fmt::Display for Loss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

crate::param::choice_value!(Loss = Loss::NAMES.map(|(n, _)| n));

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn upper_bounds_hold_everywhere(s in -50.0f64..50.0, positive in any::<bool>()) {
            let y = if positive { 1.0 } else { -1.0 };
            let e01 = Loss::ZeroOne.value(s, y);
            for l in [Loss::ScaledLog, Loss::Squared, Loss::Hinge, Loss::ModifiedHuber] {
                prop_assert!(e01 <= l.value(s, y) + 1e-12, "{:?} at s={s} y={y}", l);
            }
        }

        #[test]
        fn value_and_derivative_are_the_two_alone(s in -50.0f64..50.0, positive in any::<bool>()) {
            let y = if positive { 1.0 } else { -1.0 };
            for (_, loss) in Loss::NAMES {
                prop_assert_eq!(loss.value_and_derivative(s, y), (loss.value(s, y), loss.derivative(s, y)));
            }
        }

        #[test]
        fn derivatives_match_finite_differences(s in -5.0f64..5.0, positive in any::<bool>()) {
            let y = if positive { 1.0 } else { -1.0 };
            let h = 1e-6;
            for l in [Loss::Squared, Loss::Log, Loss::ScaledLog, Loss::ModifiedHuber] {
                let numeric = (l.value(s + h, y) - l.value(s - h, y)) / (2.0 * h);
                prop_assert!((numeric - l.derivative(s, y)).abs() < 1e-5, "{:?} at s={s}", l);
            }
        }
    }

    #[test]
    fn names_round_trip_and_zero_counts_as_negative() {
        for (name, loss) in Loss::NAMES {
            assert_eq!(name.parse::<Loss>().unwrap(), loss);
            assert_eq!(loss.name(), name);
        }
        assert!("huber"
            .parse::<Loss>()
            .unwrap_err()
            .contains("modified_huber"));
        assert_eq!(Loss::ZeroOne.value(0.0, -1.0), 0.0);
        assert_eq!(Loss::ZeroOne.value(0.0, 1.0), 1.0);
        assert_eq!(Loss::ScaledLog.value(0.0, 1.0), 1.0);
    }
}
