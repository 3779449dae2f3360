//! Cross-validation: one score per fold, folds evaluated in parallel.

use rayon::prelude::*;

use crate::data::split::Fold;
use crate::error::{Error, Result};

/// Scores each fold: `score(train, test)` fits on the training rows and returns a score
/// (higher is better) on the test rows. Folds run in parallel (rayon); the scores come
/// back in fold order. The first error in fold order is returned, as is a non-finite
/// score.
pub fn cross_val_score(
    folds: &[Fold],
    score: impl Fn(&[usize], &[usize]) -> Result<f64> + Sync,
) -> Result<Vec<f64>> {
    let mut scores = score_grid(
        1,
        folds,
        |_| String::new(),
        |_, (train, test)| score(train, test),
    )?;
    Ok(scores.pop().unwrap_or_default())
}

/// Scores every (candidate, fold) pair in parallel and returns `scores[candidate][fold]`.
/// Errors, in (candidate, fold) order: no folds, a fold with an empty part, the first
/// error of `score`, a non-finite score (`describe(candidate)` names the candidate in the
/// message).
pub(super) fn score_grid(
    n_candidates: usize,
    folds: &[Fold],
    describe: impl Fn(usize) -> String,
    score: impl Fn(usize, &Fold) -> Result<f64> + Sync,
) -> Result<Vec<Vec<f64>>> {
    if folds.is_empty() {
        return Err(Error::param("folds", 0, "need at least one fold"));
    }
    if let Some((i, (train, _))) = folds
        .iter()
        .enumerate()
        .find(|(_, (train, test))| train.is_empty() || test.is_empty())
    {
        let part = if train.is_empty() { "training" } else { "test" };
        return Err(Error::data(format!("fold {i} has an empty {part} set")));
    }
    let k = folds.len();
    let results: Vec<Result<f64>> = (0..n_candidates * k)
        .into_par_iter()
        .map(|j| score(j / k, &folds[j % k]))
        .collect();
    let mut scores: Vec<Vec<f64>> = (0..n_candidates).map(|_| Vec::with_capacity(k)).collect();
    for (j, result) in results.into_iter().enumerate() {
        let s = result?;
        if !s.is_finite() {
            let what = describe(j / k);
            let sep = if what.is_empty() { "" } else { " of " };
            return Err(Error::data(format!(
                "the score{sep}{what} on fold {} is {s}: scores must be finite",
                j % k
            )));
        }
        scores[j / k].push(s);
    }
    Ok(scores)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::split::KFold;

    #[test]
    fn scores_come_back_in_fold_order() {
        let folds = KFold {
            k: 4,
            shuffle: false,
            seed: 0,
        }
        .folds(8)
        .unwrap();
        // The score is the first test row, so fold order is visible.
        let scores = cross_val_score(&folds, |train, test| {
            assert_eq!(train.len() + test.len(), 8);
            Ok(test[0] as f64)
        })
        .unwrap();
        assert_eq!(scores, vec![0.0, 2.0, 4.0, 6.0]);
    }

    #[test]
    fn first_error_in_fold_order_is_returned() {
        let folds = KFold {
            k: 5,
            shuffle: false,
            seed: 0,
        }
        .folds(10)
        .unwrap();
        for _ in 0..20 {
            let e = cross_val_score(&folds, |_, test| {
                if test[0] >= 4 {
                    Err(Error::param("fold", test[0], "failed"))
                } else {
                    Ok(1.0)
                }
            })
            .unwrap_err();
            assert!(e.to_string().contains("fold = 4"), "{e}");
        }
    }

    #[test]
    fn bad_folds_and_scores_are_rejected() {
        let e = cross_val_score(&[], |_, _| Ok(1.0)).unwrap_err();
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        let folds = vec![(vec![0, 1], vec![2]), (vec![0], vec![])];
        let e = cross_val_score(&folds, |_, _| Ok(1.0)).unwrap_err();
        assert!(
            e.to_string().contains("fold 1 has an empty test set"),
            "{e}"
        );
        let folds = vec![(vec![0], vec![1]), (vec![1], vec![0])];
        let e = cross_val_score(&folds, |train, _| {
            Ok(if train[0] == 1 { f64::NAN } else { 0.5 })
        })
        .unwrap_err();
        assert!(e.to_string().contains("the score on fold 1 is NaN"), "{e}");
    }
}
