//! Grid search: every combination of parameter values, scored by cross-validation.

use std::collections::HashSet;
use std::fmt;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::cv::score_grid;
use crate::data::split::Fold;
use crate::error::{Error, Result};

/// One point of a grid: `(parameter name, value)` pairs, in the grid's name order.
pub type Candidate = Vec<(String, String)>;

const SYNTAX: &str = "expected NAME=V1,V2,... (for example alpha=0.1,1,10)";

/// Values to try for each parameter, parsed from `NAME=V1,V2,...` strings. The
/// candidates are the Cartesian product in a fixed order: names in the order given, the
/// last name varying fastest. Values stay text, handed to the model's `Params::set_param`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ParamGrid {
    axes: Vec<(String, Vec<String>)>,
}

impl ParamGrid {
    /// Parses one `NAME=V1,V2,...` per parameter. Names and values are trimmed; a name
    /// may not repeat, nor a value within a name. No specs at all is the grid of one
    /// empty candidate (the model's defaults).
    pub fn parse<S: AsRef<str>>(specs: &[S]) -> Result<Self> {
        let mut axes: Vec<(String, Vec<String>)> = Vec::with_capacity(specs.len());
        for spec in specs {
            let spec = spec.as_ref();
            let bad = |reason: String| Error::param("grid", spec, format!("{SYNTAX}: {reason}"));
            let (name, values) = spec
                .split_once('=')
                .ok_or_else(|| bad("there is no '='".into()))?;
            let name = name.trim();
            if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ',') {
                return Err(bad(format!(
                    "the parameter name {name:?} must be non-empty, without spaces or commas"
                )));
            }
            if axes.iter().any(|(n, _)| n == name) {
                return Err(bad(format!("parameter {name} is given twice")));
            }
            let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
            if let Some(i) = values.iter().position(|v| v.is_empty()) {
                return Err(bad(format!("value {} of {name} is empty", i + 1)));
            }
            let mut seen = HashSet::new();
            if let Some(v) = values.iter().find(|v| !seen.insert(v.as_str())) {
                return Err(bad(format!("value {v} of {name} is listed twice")));
            }
            axes.push((name.to_string(), values));
        }
        Ok(ParamGrid { axes })
    }

    /// The parameters and their values, in order.
    pub fn axes(&self) -> &[(String, Vec<String>)] {
        &self.axes
    }

    /// Number of candidates: the product of the numbers of values (1 for an empty grid).
    pub fn n_candidates(&self) -> usize {
        self.axes.iter().map(|(_, v)| v.len()).product()
    }

    /// Every combination, the last parameter varying fastest.
    pub fn candidates(&self) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = vec![Vec::with_capacity(self.axes.len())];
        for (name, values) in &self.axes {
            out = out
                .into_iter()
                .flat_map(|prefix| {
                    values.iter().map(move |v| {
                        let mut c = prefix.clone();
                        c.push((name.clone(), v.clone()));
                        c
                    })
                })
                .collect();
        }
        out
    }
}

/// The cross-validated scores of one candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CandidateScores {
    /// Serialised as a JSON object `{name: value}` in order.
    #[serde(serialize_with = "pairs_as_map")]
    pub params: Candidate,
    /// Mean of the fold scores, `(1 / k) sum_f s_f`.
    pub mean: f64,
    /// Population standard deviation of the fold scores, `sqrt((1 / k) sum_f (s_f - mean)^2)`.
    pub std: f64,
    /// One score per fold, in fold order.
    pub fold_scores: Vec<f64>,
    /// 1 + the number of candidates with a strictly higher mean (ties share a rank).
    pub rank: usize,
}

/// Every candidate's scores, in candidate order, and the best one.
///
/// `Display` prints a table (rank, mean, std, parameters) in candidate order; the
/// formatter's precision sets the decimals (4 by default).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GridSearchResult {
    pub candidates: Vec<CandidateScores>,
    /// Index into `candidates` of the highest mean (the first on ties).
    pub best: usize,
}

impl GridSearchResult {
    /// The candidate with the highest mean score.
    pub fn best(&self) -> &CandidateScores {
        &self.candidates[self.best]
    }

    /// The parameters of the best candidate.
    pub fn best_params(&self) -> &[(String, String)] {
        &self.best().params
    }
}

/// Scores every candidate on every fold: `score(params, train, test)` fits with `params`
/// on the training rows and returns a score (higher is better) on the test rows. The
/// (candidate, fold) pairs run in parallel (rayon); results are in candidate and fold
/// order whatever the scheduling. The first error in that order is returned (as is a
/// non-finite score); none is skipped.
pub fn grid_search(
    candidates: &[Candidate],
    folds: &[Fold],
    score: impl Fn(&[(String, String)], &[usize], &[usize]) -> Result<f64> + Sync,
) -> Result<GridSearchResult> {
    if candidates.is_empty() {
        return Err(Error::param(
            "candidates",
            0,
            "a grid search needs at least one candidate",
        ));
    }
    let scores = score_grid(
        candidates.len(),
        folds,
        |c| format!("candidate {}", format_params(&candidates[c])),
        |c, (train, test)| score(&candidates[c], train, test),
    )?;
    let mut results: Vec<CandidateScores> = candidates
        .iter()
        .zip(scores)
        .map(|(params, fold_scores)| {
            let k = fold_scores.len() as f64;
            let mean = fold_scores.iter().sum::<f64>() / k;
            let var = fold_scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / k;
            CandidateScores {
                params: params.clone(),
                mean,
                std: var.sqrt(),
                fold_scores,
                rank: 0,
            }
        })
        .collect();
    let means: Vec<f64> = results.iter().map(|r| r.mean).collect();
    for r in &mut results {
        r.rank = 1 + means.iter().filter(|&&m| m > r.mean).count();
    }
    let best = results.iter().position(|r| r.rank == 1).unwrap_or(0);
    Ok(GridSearchResult {
        candidates: results,
        best,
    })
}

/// `a=1 b=x`, or `(defaults)` for an empty candidate.
fn format_params(params: &[(String, String)]) -> String {
    if params.is_empty() {
        return "(defaults)".into();
    }
    let parts: Vec<String> = params.iter().map(|(n, v)| format!("{n}={v}")).collect();
    parts.join(" ")
}

fn pairs_as_map<S: Serializer>(pairs: &Candidate, s: S) -> std::result::Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

impl fmt::Display for GridSearchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = f.precision().unwrap_or(4);
        let cell = 10.max(digits + 4);
        writeln!(
            f,
            "{:>4}  {:>cell$}  {:>cell$}  params",
            "rank", "mean", "std"
        )?;
        for (i, c) in self.candidates.iter().enumerate() {
            let mark = if i == self.best { "  <- best" } else { "" };
            writeln!(
                f,
                "{:>4}  {:>cell$.digits$}  {:>cell$.digits$}  {}{mark}",
                c.rank,
                c.mean,
                c.std,
                format_params(&c.params)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::split::KFold;

    fn pairs(p: &[(&str, &str)]) -> Candidate {
        p.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn grid_is_the_cartesian_product_in_order() {
        let g = ParamGrid::parse(&["alpha = 0.1, 1 ,10", "fit_prior=true,false"]).unwrap();
        assert_eq!(g.n_candidates(), 6);
        let c = g.candidates();
        assert_eq!(c.len(), 6);
        assert_eq!(c[0], pairs(&[("alpha", "0.1"), ("fit_prior", "true")]));
        assert_eq!(c[1], pairs(&[("alpha", "0.1"), ("fit_prior", "false")]));
        assert_eq!(c[5], pairs(&[("alpha", "10"), ("fit_prior", "false")]));
        let empty = ParamGrid::parse::<&str>(&[]).unwrap();
        assert_eq!(empty.candidates(), vec![Vec::new()]);
        assert_eq!(empty.n_candidates(), 1);
    }

    #[test]
    fn bad_grid_syntax_explains_itself() {
        for (spec, reason) in [
            ("alpha", "no '='"),
            ("=1,2", "name \"\""),
            ("my alpha=1", "without spaces"),
            ("alpha=1,,2", "value 2 of alpha is empty"),
            ("alpha=", "value 1 of alpha is empty"),
            ("alpha=1,1", "listed twice"),
        ] {
            let e = ParamGrid::parse(&[spec]).unwrap_err();
            let msg = e.to_string();
            assert!(matches!(e, Error::InvalidParameter { .. }), "{msg}");
            assert!(msg.contains("NAME=V1,V2,..."), "{msg}");
            assert!(msg.contains(reason), "{spec}: {msg}");
        }
        let e = ParamGrid::parse(&["a=1", "a=2"]).unwrap_err();
        assert!(e.to_string().contains("given twice"), "{e}");
    }

    fn folds() -> Vec<Fold> {
        KFold {
            k: 3,
            shuffle: true,
            seed: 9,
        }
        .folds(30)
        .unwrap()
    }

    #[test]
    fn grid_search_scores_ranks_and_picks_the_first_best() {
        // Hand-made candidates may repeat a value; the two "a=3" tie.
        let candidates: Vec<Candidate> = ["1", "3", "2", "3"]
            .iter()
            .map(|a| pairs(&[("a", a)]))
            .collect();
        let folds = folds();
        // Score: a minus a per-fold offset (the test set's first row / 100).
        let result = grid_search(&candidates, &folds, |p, _, test| {
            let a: f64 = p[0].1.parse().unwrap();
            Ok(a - test[0] as f64 / 100.0)
        })
        .unwrap();
        let offsets: Vec<f64> = folds.iter().map(|f| f.1[0] as f64 / 100.0).collect();
        let mean_offset = offsets.iter().sum::<f64>() / 3.0;
        assert_eq!(result.best, 1);
        assert_eq!(result.best_params(), pairs(&[("a", "3")]).as_slice());
        let ranks: Vec<usize> = result.candidates.iter().map(|c| c.rank).collect();
        assert_eq!(ranks, vec![4, 1, 3, 1]);
        let c = &result.candidates[2];
        assert!((c.mean - (2.0 - mean_offset)).abs() < 1e-12);
        let var = offsets
            .iter()
            .map(|o| (o - mean_offset).powi(2))
            .sum::<f64>()
            / 3.0;
        assert!((c.std - var.sqrt()).abs() < 1e-12);
        assert_eq!(c.fold_scores.len(), 3);
        assert!((c.fold_scores[1] - (2.0 - offsets[1])).abs() < 1e-12);
    }

    #[test]
    fn grid_search_is_deterministic_and_reports_the_first_error() {
        let candidates = ParamGrid::parse(&["a=1,2,3", "b=x,y"])
            .unwrap()
            .candidates();
        let folds = folds();
        let run = || {
            grid_search(&candidates, &folds, |p, train, _| {
                Ok(p[0].1.len() as f64 + train.iter().sum::<usize>() as f64)
            })
            .unwrap()
        };
        assert_eq!(run(), run());
        for _ in 0..10 {
            let e = grid_search(&candidates, &folds, |p, _, test| {
                if p[0].1 != "1" && test == folds[1].1.as_slice() {
                    Err(Error::param("a", &p[0].1, "boom"))
                } else {
                    Ok(0.0)
                }
            })
            .unwrap_err();
            assert!(e.to_string().contains("a = 2"), "{e}");
        }
        let e = grid_search(&candidates, &folds, |p, _, _| {
            Ok(if p[1].1 == "y" { f64::NAN } else { 1.0 })
        })
        .unwrap_err();
        assert!(
            e.to_string().contains("candidate a=1 b=y on fold 0 is NaN"),
            "{e}"
        );
        let e = grid_search(&[], &folds, |_, _, _| Ok(0.0)).unwrap_err();
        assert!(e.to_string().contains("at least one candidate"), "{e}");
    }

    #[test]
    fn result_serialises_params_as_an_object_and_displays_a_table() {
        let candidates = ParamGrid::parse(&["alpha=0.5,1"]).unwrap().candidates();
        let folds = vec![(vec![0], vec![1]), (vec![1], vec![0])];
        let result = grid_search(&candidates, &folds, |p, _, test| {
            Ok(if p[0].1 == "1" {
                0.75
            } else {
                0.5 + test[0] as f64 / 10.0
            })
        })
        .unwrap();
        let json = serde_json::to_value(&result).unwrap();
        assert_eq!(json["candidates"][0]["params"]["alpha"], "0.5");
        assert_eq!(json["candidates"][0]["fold_scores"][0], 0.6);
        assert_eq!(json["best"], 1);
        let expected = "\
rank        mean         std  params
   2      0.5500      0.0500  alpha=0.5
   1      0.7500      0.0000  alpha=1  <- best
";
        assert_eq!(result.to_string(), expected);
        assert!(format!("{result:.2}").contains("      0.55"));
    }
}
