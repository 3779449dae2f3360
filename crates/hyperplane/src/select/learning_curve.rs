//! Learning curves: in-sample and out-of-sample error against the number of training rows.
//!
//! For each of `folds` stratified folds and each training size `n`, an *error closure*
//! `errors(train, test)` fits whatever it likes on the first `n` rows of the fold's
//! training part (in a seeded, stratified order, so every prefix of at least one row per
//! class holds every class in about its proportion, and the subsets of one fold are
//! nested) and returns its errors on those rows and on the fold's test rows, such as the
//! 0/1 error `(1 / |S|) sum_{i in S} [h(x_i) != y_i]` of the fitted `h`:
//!
//! | quantity | formula |
//! |---|---|
//! | `E_in(n, f)` | the error on the `n` training rows of fold `f` |
//! | `E_out(n, f)` | the error on the test rows `test_f` of fold `f` |
//! | mean | `(1 / k) sum_f E(n, f)` |
//! | std | `sqrt((1 / k) sum_f (E(n, f) - mean)^2)` (population) |
//!
//! The foundations courses' picture: `E_in` rises and `E_out` falls towards each other as
//! `n` grows; their gap is the generalisation error the VC bound controls.
//!
//! | scikit-learn | hyperplane |
//! |---|---|
//! | `learning_curve(est, X, y, train_sizes=[10, 50], cv=StratifiedKFold(5), scoring="accuracy")` | [`learning_curve`]`(&y, &TrainSizes::Rows(vec![10, 50]), 5, seed, \|train, test\| ...)` (errors, not accuracies) |

use rayon::prelude::*;
use serde::Serialize;

use crate::data::split::StratifiedKFold;
use crate::error::{Error, Result};
use crate::rng::Rng;

/// Which training sizes a learning curve measures.
#[derive(Clone, Debug, PartialEq)]
pub enum TrainSizes {
    /// These numbers of training rows (sorted, duplicates dropped).
    Rows(Vec<usize>),
    /// `steps` sizes evenly spaced from 10% of the largest available size (at least one
    /// row per class) to the largest: every training row of the smallest fold.
    Steps(usize),
}

/// In- and out-of-sample 0/1 error at each training size, mean and std over folds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LearningCurve {
    /// Training sizes, increasing.
    pub sizes: Vec<usize>,
    /// Number of folds averaged.
    pub folds: usize,
    pub e_in_mean: Vec<f64>,
    pub e_in_std: Vec<f64>,
    pub e_out_mean: Vec<f64>,
    pub e_out_std: Vec<f64>,
}

/// Population mean and standard deviation: `(1/k) sum s`, `sqrt((1/k) sum (s - mean)^2)`.
fn mean_std(values: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let k = values.clone().count() as f64;
    let mean = values.clone().sum::<f64>() / k;
    let var = values.map(|v| (v - mean).powi(2)).sum::<f64>() / k;
    (mean, var.sqrt())
}

/// The learning curve of the rows whose classes are `codes` (`0..k`, every class present),
/// with `errors(train, test)` giving `(E_in, E_out)` of a fit on the rows `train` (see the
/// module docs); the (size, fold) pairs run in parallel and the result does not depend on
/// scheduling.
///
/// Errors: fewer than 2 folds or more folds than rows, a size below the number of classes
/// or above the training rows of the smallest fold, no sizes, and any error of `errors`
/// (the first in (size, fold) order).
pub fn learning_curve(
    codes: &[usize],
    sizes: &TrainSizes,
    folds: usize,
    seed: u64,
    errors: impl Fn(&[usize], &[usize]) -> Result<(f64, f64)> + Sync,
) -> Result<LearningCurve> {
    let n_classes = codes.iter().max().map_or(0, |&c| c + 1);
    let fold_rows = StratifiedKFold { k: folds, seed }.folds(codes)?;
    let max_rows = fold_rows.iter().map(|(tr, _)| tr.len()).min().unwrap_or(0);
    let sizes = check_sizes(sizes, n_classes, max_rows, codes.len(), folds)?;
    // Each fold's training rows in a seeded stratified order; prefixes are the subsets.
    let orders: Vec<Vec<usize>> = fold_rows
        .iter()
        .enumerate()
        .map(|(f, (train, _))| stratified_order(train, codes, seed.wrapping_add(f as u64 + 1)))
        .collect();
    let k = fold_rows.len();
    let results: Vec<Result<(f64, f64)>> = (0..sizes.len() * k)
        .into_par_iter()
        .map(|j| {
            let (n, f) = (sizes[j / k], j % k);
            errors(&orders[f][..n], &fold_rows[f].1)
        })
        .collect();
    let errors = results.into_iter().collect::<Result<Vec<_>>>()?;
    let mut curve = LearningCurve {
        sizes,
        folds: k,
        e_in_mean: Vec::new(),
        e_in_std: Vec::new(),
        e_out_mean: Vec::new(),
        e_out_std: Vec::new(),
    };
    for at_size in errors.chunks(k) {
        let (m, s) = mean_std(at_size.iter().map(|e| e.0));
        curve.e_in_mean.push(m);
        curve.e_in_std.push(s);
        let (m, s) = mean_std(at_size.iter().map(|e| e.1));
        curve.e_out_mean.push(m);
        curve.e_out_std.push(s);
    }
    Ok(curve)
}

/// Validated, sorted, distinct sizes.
fn check_sizes(
    sizes: &TrainSizes,
    n_classes: usize,
    max_rows: usize,
    n_rows: usize,
    folds: usize,
) -> Result<Vec<usize>> {
    let mut sizes = match sizes {
        TrainSizes::Rows(rows) => rows.clone(),
        &TrainSizes::Steps(steps) => {
            if steps == 0 {
                return Err(Error::param("steps", 0, "need at least one training size"));
            }
            if steps > max_rows {
                return Err(Error::param(
                    "steps",
                    steps,
                    format!("at most {max_rows}, the rows the smallest fold trains on (each step is a distinct size)"),
                ));
            }
            let lo = (max_rows as f64 * 0.1).round().max(n_classes as f64);
            let hi = max_rows as f64;
            (0..steps)
                .map(|i| {
                    let t = if steps == 1 {
                        1.0
                    } else {
                        i as f64 / (steps - 1) as f64
                    };
                    (lo + t * (hi - lo)).round() as usize
                })
                .collect()
        }
    };
    sizes.sort_unstable();
    sizes.dedup();
    let Some(&largest) = sizes.last() else {
        return Err(Error::param(
            "sizes",
            "[]",
            "need at least one training size",
        ));
    };
    if sizes[0] < n_classes {
        return Err(Error::param(
            "sizes",
            sizes[0],
            format!("a training size must be at least the number of classes ({n_classes}), so that every class has a row"),
        ));
    }
    if largest > max_rows {
        return Err(Error::param(
            "sizes",
            largest,
            format!("with {folds} folds of {n_rows} rows the smallest fold trains on {max_rows} rows; use sizes up to {max_rows}"),
        ));
    }
    Ok(sizes)
}

/// `rows` in a seeded order where the first rows hold one row of each class and the rest
/// interleave the classes in proportion: within class `c` (`m_c` rows, shuffled), the
/// row of rank `r >= 1` sorts by `(r + 0.5) / m_c`.
fn stratified_order(rows: &[usize], codes: &[usize], seed: u64) -> Vec<usize> {
    let mut shuffled = rows.to_vec();
    Rng::new(seed).shuffle(&mut shuffled);
    let n_classes = codes.iter().max().map_or(0, |&c| c + 1);
    let mut size = vec![0usize; n_classes];
    for &i in &shuffled {
        size[codes[i]] += 1;
    }
    let mut rank = vec![0usize; n_classes];
    let mut keyed: Vec<(f64, usize, usize)> = shuffled
        .iter()
        .enumerate()
        .map(|(pos, &i)| {
            let c = codes[i];
            let r = rank[c];
            rank[c] += 1;
            let key = if r == 0 {
                -1.0
            } else {
                (r as f64 + 0.5) / size[c] as f64
            };
            (key, pos, i)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, _, i)| i).collect()
}

impl LearningCurve {
    /// Rows `[size, E_in mean, E_in std, E_out mean, E_out std]`, for tables.
    pub fn rows(&self) -> Vec<[f64; 5]> {
        (0..self.sizes.len())
            .map(|i| {
                [
                    self.sizes[i] as f64,
                    self.e_in_mean[i],
                    self.e_in_std[i],
                    self.e_out_mean[i],
                    self.e_out_std[i],
                ]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::labels;
    use crate::data::read::{read, ReadOptions};
    use std::path::Path;

    /// The class codes of the digits (1797 rows, 10 classes).
    fn digit_codes() -> Vec<usize> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/digits.csv");
        let data = read(&path, &ReadOptions::default()).unwrap();
        labels::encode(data.labels.as_deref().unwrap()).1
    }

    fn none(_: &[usize], _: &[usize]) -> Result<(f64, f64)> {
        Ok((0.0, 0.0))
    }

    #[test]
    fn each_size_and_fold_is_one_call_on_disjoint_rows() {
        let codes: Vec<usize> = (0..30).map(|i| i % 3).collect();
        let sizes = TrainSizes::Rows(vec![6, 3, 12]);
        let curve = learning_curve(&codes, &sizes, 3, 0, |train, test| {
            assert!(train.iter().all(|i| !test.contains(i)));
            Ok((train.len() as f64, test.len() as f64))
        })
        .unwrap();
        assert_eq!(curve.sizes, vec![3, 6, 12]);
        assert_eq!(curve.folds, 3);
        assert_eq!(curve.e_in_mean, vec![3.0, 6.0, 12.0]);
        assert_eq!(curve.e_in_std, vec![0.0; 3]);
        assert_eq!(curve.e_out_mean, vec![10.0; 3]);
        let e = learning_curve(&codes, &TrainSizes::Steps(2), 3, 0, |train, _| {
            if train.len() > 5 {
                Err(Error::data("too many rows"))
            } else {
                Ok((0.0, 0.0))
            }
        })
        .unwrap_err();
        assert!(e.to_string().contains("too many rows"), "{e}");
    }

    #[test]
    fn steps_span_ten_percent_to_all_training_rows() {
        let curve = learning_curve(&digit_codes(), &TrainSizes::Steps(3), 2, 0, none).unwrap();
        // 1797 rows in 2 folds: the smaller training part has 898 rows.
        assert_eq!(curve.sizes, vec![90, 494, 898]);
        assert!(curve.sizes.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn bad_sizes_and_folds_are_clear_errors() {
        let codes = digit_codes();
        let curve = |sizes: TrainSizes, folds| learning_curve(&codes, &sizes, folds, 0, none);
        let e = curve(TrainSizes::Rows(vec![5]), 3).unwrap_err();
        assert!(e.to_string().contains("number of classes (10)"), "{e}");
        let e = curve(TrainSizes::Rows(vec![10, 5000]), 3).unwrap_err();
        assert!(e.to_string().contains("use sizes up to 1198"), "{e}");
        let e = curve(TrainSizes::Rows(vec![]), 3).unwrap_err();
        assert!(e.to_string().contains("at least one training size"), "{e}");
        assert!(curve(TrainSizes::Steps(0), 3).is_err());
        assert!(curve(TrainSizes::Rows(vec![10]), 1).is_err());
    }

    #[test]
    fn stratified_order_starts_with_every_class_then_interleaves() {
        let codes = [0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2];
        let rows: Vec<usize> = (0..12).collect();
        let order = stratified_order(&rows, &codes, 7);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, rows);
        let mut first: Vec<usize> = order[..3].iter().map(|&i| codes[i]).collect();
        first.sort_unstable();
        assert_eq!(first, vec![0, 1, 2]);
        // Class 0 holds half the rows, so about half of any longer prefix.
        let zeros = order[..8].iter().filter(|&&i| codes[i] == 0).count();
        assert!((3..=5).contains(&zeros), "{order:?}");
    }

    #[test]
    fn mean_std_is_the_population_formula() {
        let (m, s) = mean_std([1.0, 3.0].into_iter());
        assert_eq!((m, s), (2.0, 1.0));
    }
}
