//! Class priors `P(y = c)` and the class bookkeeping shared by every statistics type.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::bayes::validate::{bad_field, check_values};
use crate::data::labels::format_classes;
use crate::data::Label;
use crate::error::{Error, Result};

/// How the class prior `P(y = c)` is chosen.
///
/// | variant | prior | scikit-learn |
/// |---|---|---|
/// | `Fitted` | `N_c / N` (weighted class counts) | `fit_prior=True` (GaussianNB default) |
/// | `Uniform` | `1 / n_classes` | `fit_prior=False` |
/// | `Given(p)` | `p_c`; one per class in sorted class order, `p_c >= 0`, `sum p = 1` within 1e-9 | `class_prior=p` / `priors=p` |
///
/// Text form (for `set_param`): `fitted`, `uniform`, or comma-separated numbers `0.3,0.7`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Priors {
    #[default]
    Fitted,
    Uniform,
    Given(Vec<f64>),
}

impl Priors {
    /// Checks a `Given` prior on its own: non-negative, finite, sums to 1 within 1e-9.
    pub fn validate(&self) -> Result<()> {
        if let Priors::Given(p) = self {
            if p.is_empty() {
                return Err(Error::param(
                    "priors",
                    self,
                    "at least one prior is required",
                ));
            }
            if p.iter().any(|v| !v.is_finite() || *v < 0.0) {
                return Err(Error::param(
                    "priors",
                    self,
                    "priors must be finite and >= 0",
                ));
            }
            let s: f64 = p.iter().sum();
            if (s - 1.0).abs() > 1e-9 {
                return Err(Error::param(
                    "priors",
                    self,
                    format!("priors must sum to 1 (within 1e-9), they sum to {s}"),
                ));
            }
        }
        Ok(())
    }

    /// `log P(y = c)` for the given weighted class counts: `ln N_c - ln N` when fitted
    /// (`-inf` for a class of weight 0), `-ln n_classes` when uniform, `ln p_c` when given.
    pub(crate) fn log_prior(&self, class_count: &[f64]) -> Result<Vec<f64>> {
        self.validate()?;
        let n = class_count.len();
        Ok(match self {
            Priors::Fitted => {
                let total: f64 = class_count.iter().sum();
                class_count.iter().map(|c| c.ln() - total.ln()).collect()
            }
            Priors::Uniform => vec![-(n as f64).ln(); n],
            Priors::Given(p) => {
                if p.len() != n {
                    return Err(Error::param(
                        "priors",
                        self,
                        format!("{} priors given for {n} classes", p.len()),
                    ));
                }
                p.iter().map(|v| v.ln()).collect()
            }
        })
    }
}

impl fmt::Display for Priors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Priors::Fitted => f.write_str("fitted"),
            Priors::Uniform => f.write_str("uniform"),
            Priors::Given(p) => {
                let s: Vec<String> = p.iter().map(|v| v.to_string()).collect();
                f.write_str(&s.join(","))
            }
        }
    }
}

impl FromStr for Priors {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim() {
            "fitted" => Ok(Priors::Fitted),
            "uniform" => Ok(Priors::Uniform),
            t => t
                .split(',')
                .map(|v| v.trim().parse::<f64>())
                .collect::<std::result::Result<Vec<_>, _>>()
                .map(Priors::Given)
                .map_err(|_| {
                    Error::param(
                        "priors",
                        s,
                        "expected fitted, uniform or comma-separated numbers",
                    )
                }),
        }
    }
}

/// The classes seen so far, sorted, with their weighted counts `N_c`.
///
/// Every statistics type embeds one; a batch's (or another part's) classes are unioned
/// into it by label, so a part may lack a class.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassCounts {
    /// The classes, sorted.
    pub classes: Vec<Label>,
    /// Weighted count `N_c` of each class.
    pub count: Vec<f64>,
}

impl ClassCounts {
    /// Unions `incoming` into the classes. Returns `(old_to_new, incoming_to_new)`.
    pub(crate) fn absorb(&mut self, incoming: &[Label]) -> (Vec<usize>, Vec<usize>) {
        let mut all = self.classes.clone();
        all.extend(incoming.iter().cloned());
        all.sort();
        all.dedup();
        let pos = |l: &Label| all.binary_search(l).unwrap_or(0);
        let old_to_new: Vec<usize> = self.classes.iter().map(pos).collect();
        let incoming_to_new: Vec<usize> = incoming.iter().map(pos).collect();
        self.count = remap(std::mem::take(&mut self.count), &old_to_new, all.len(), 0.0);
        self.classes = all;
        (old_to_new, incoming_to_new)
    }

    /// [`ClassCounts::absorb`], moving the per-class `rows` along (a new class gets
    /// `empty`). Returns where each incoming class lands.
    pub(crate) fn absorb_rows<T: Clone>(
        &mut self,
        incoming: &[Label],
        rows: &mut Vec<T>,
        empty: T,
    ) -> Vec<usize> {
        let (old_to_new, incoming_to_new) = self.absorb(incoming);
        *rows = remap(std::mem::take(rows), &old_to_new, self.len(), empty);
        incoming_to_new
    }

    /// Adds another part: its classes, their counts, and its per-class rows by
    /// `add(row, other_row)` (a class new to `self` starts from `empty`).
    pub(crate) fn merge_rows<T: Clone>(
        &mut self,
        other: &ClassCounts,
        rows: &mut Vec<T>,
        other_rows: &[T],
        empty: T,
        add: impl Fn(&mut T, &T),
    ) {
        let incoming_to_new = self.absorb_rows(&other.classes, rows, empty);
        for (k, &c) in incoming_to_new.iter().enumerate() {
            self.count[c] += other.count[k];
            add(&mut rows[c], &other_rows[k]);
        }
    }

    /// Number of classes.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// True before any class was seen.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// Checks classes read from a model file: non-empty, sorted and distinct, with one
    /// finite count `>= 0` each, and the field `field` (`rows`) with one entry per class.
    pub(crate) fn validate<T>(&self, field: &str, rows: &[T]) -> Result<()> {
        if rows.len() != self.classes.len() {
            return Err(bad_field(
                field,
                format!(
                    "has {} entries for {} classes",
                    rows.len(),
                    self.classes.len()
                ),
            ));
        }
        if self.classes.is_empty() {
            return Err(bad_field(
                "classes",
                "is empty: a model has at least one class",
            ));
        }
        if let Some(w) = self.classes.windows(2).find(|w| w[0] >= w[1]) {
            return Err(bad_field(
                "classes",
                format!(
                    "must be sorted and distinct; found {} before {}",
                    w[0], w[1]
                ),
            ));
        }
        check_values("classes.count", &self.count, self.classes.len(), true)
    }

    /// Total weight `N = sum_c N_c`; an error when it is 0 (no model can be fitted).
    pub(crate) fn check_total(&self) -> Result<f64> {
        let total: f64 = self.count.iter().sum();
        if total > 0.0 {
            Ok(total)
        } else {
            Err(Error::data(format!(
                "the sample weights of classes {} sum to 0",
                format_classes(&self.classes)
            )))
        }
    }
}

/// Moves per-class rows to their new positions `map[old]` among `n` classes; classes
/// without a row get `empty`.
fn remap<T: Clone>(rows: Vec<T>, map: &[usize], n: usize, empty: T) -> Vec<T> {
    let mut out = vec![empty; n];
    for (row, &to) in rows.into_iter().zip(map) {
        out[to] = row;
    }
    out
}

/// Checks a smoothing strength: finite and `>= 0`.
pub(crate) fn check_alpha(alpha: f64) -> Result<()> {
    if alpha.is_finite() && alpha >= 0.0 {
        Ok(())
    } else {
        Err(Error::param("alpha", alpha, "must be finite and >= 0"))
    }
}

/// Checks that a batch has the feature count of the statistics it updates.
pub(crate) fn check_batch(n_features: usize, found: usize) -> Result<()> {
    if n_features == found {
        Ok(())
    } else {
        Err(Error::FeatureCount {
            expected: n_features,
            found,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_priors_are_validated() {
        assert!(Priors::Given(vec![0.5, 0.5]).validate().is_ok());
        assert!(Priors::Given(vec![0.5, 0.6]).validate().is_err());
        assert!(Priors::Given(vec![-0.5, 1.5]).validate().is_err());
        let e = Priors::Given(vec![0.5, 0.5])
            .log_prior(&[1.0, 1.0, 1.0])
            .unwrap_err()
            .to_string();
        assert!(e.contains("2 priors given for 3 classes"), "{e}");
    }

    #[test]
    fn priors_round_trip_as_text() {
        for p in [
            Priors::Fitted,
            Priors::Uniform,
            Priors::Given(vec![0.25, 0.75]),
        ] {
            assert_eq!(p.to_string().parse::<Priors>().unwrap(), p);
        }
        assert!("bogus".parse::<Priors>().is_err());
    }

    #[test]
    fn absorb_unions_by_label() {
        let mut c = ClassCounts {
            classes: vec![Label::Int(1), Label::Int(3)],
            count: vec![2.0, 5.0],
        };
        let (old, inc) = c.absorb(&[Label::Int(2), Label::Int(3)]);
        assert_eq!(c.classes, vec![Label::Int(1), Label::Int(2), Label::Int(3)]);
        assert_eq!(old, vec![0, 2]);
        assert_eq!(inc, vec![1, 2]);
        assert_eq!(c.count, vec![2.0, 0.0, 5.0]);
    }

    #[test]
    fn fitted_prior_of_an_empty_class_is_minus_infinity() {
        let lp = Priors::Fitted.log_prior(&[0.0, 2.0]).unwrap();
        assert_eq!(lp[0], f64::NEG_INFINITY);
        assert_eq!(lp[1], 0.0);
    }
}
