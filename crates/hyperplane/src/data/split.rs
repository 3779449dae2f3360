//! Seeded splits of row indices: hold-out (train / test, train / validation / test) and
//! k-fold cross-validation, plain or stratified by class.
//!
//! Every function works on row *indices* `0..n`, so one split serves any input (a table,
//! a list of documents, a matrix): select the rows afterwards (`Dataset::select_rows`,
//! `Features::select_rows`, or indexing a `Vec`). Every index list returned is sorted
//! ascending, so selecting rows keeps the original order; learners that need a random
//! order shuffle with their own seed. The only source of randomness is
//! [`crate::rng::Rng`], so the same seed gives the same split on every platform.
//!
//! Part sizes round to the nearest integer: a fraction `f` of `n` rows is `round(f * n)`
//! rows (half away from zero). Stratified splits round *per class*: a class with
//! `m` members contributes `round(f * m)` rows to each held-out part, clamped so that
//! the class appears in every part when it has enough members (two for a hold-out split,
//! three for train / validation / test; train first, then test, then validation). The
//! held-out total can therefore differ from `round(f * n)` by up to one row per class.
//!
//! | scikit-learn | hyperplane |
//! |---|---|
//! | `train_test_split(range(n), test_size=f, stratify=y)` | [`train_test_split`]`(n, f, Some(&y), seed)` |
//! | `KFold(k, shuffle=True, random_state=s).split(X)` | [`KFold`]` { k, shuffle: true, seed: s }.folds(n)` |
//! | `StratifiedKFold(k, shuffle=True, random_state=s).split(X, y)` | [`StratifiedKFold`]` { k, seed: s }.folds(&y)` |

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::rng::Rng;

/// One cross-validation fold: `(train rows, test rows)`, each sorted ascending.
pub type Fold = (Vec<usize>, Vec<usize>);

/// Splits rows `0..n` into `(train, test)` with `round(test_fraction * n)` test rows
/// (per class when `stratify` gives each row's class; see the module docs).
///
/// Errors: `test_fraction` outside `(0, 1)` or leaving a part empty, and `stratify` of a
/// length other than `n`.
pub fn train_test_split(
    n: usize,
    test_fraction: f64,
    stratify: Option<&[usize]>,
    seed: u64,
) -> Result<(Vec<usize>, Vec<usize>)> {
    check_fraction("test_fraction", test_fraction)?;
    let part = assign_parts(n, &[("test_fraction", test_fraction)], stratify, seed)?;
    let mut parts = collect_parts(&part, 2);
    let test = parts.pop().unwrap_or_default();
    let train = parts.pop().unwrap_or_default();
    Ok((train, test))
}

/// Splits rows `0..n` into `(train, validation, test)` with `round(valid_fraction * n)`
/// validation and `round(test_fraction * n)` test rows (per class when stratified).
///
/// Errors: a fraction outside `(0, 1)`, fractions summing to 1 or more, a part left
/// empty, and `stratify` of a length other than `n`.
pub fn train_valid_test_split(
    n: usize,
    valid_fraction: f64,
    test_fraction: f64,
    stratify: Option<&[usize]>,
    seed: u64,
) -> Result<(Vec<usize>, Vec<usize>, Vec<usize>)> {
    check_fraction("valid_fraction", valid_fraction)?;
    check_fraction("test_fraction", test_fraction)?;
    if valid_fraction + test_fraction >= 1.0 {
        return Err(Error::param(
            "valid_fraction",
            valid_fraction,
            format!(
                "valid_fraction + test_fraction ({valid_fraction} + {test_fraction}) must be below 1 to leave rows for training"
            ),
        ));
    }
    let part = assign_parts(
        n,
        &[
            ("test_fraction", test_fraction),
            ("valid_fraction", valid_fraction),
        ],
        stratify,
        seed,
    )?;
    let mut parts = collect_parts(&part, 3);
    let valid = parts.pop().unwrap_or_default();
    let test = parts.pop().unwrap_or_default();
    let train = parts.pop().unwrap_or_default();
    Ok((train, valid, test))
}

/// k-fold cross-validation: rows are cut into `k` consecutive blocks (after a seeded
/// shuffle when `shuffle`), the first `n mod k` blocks one row larger; block `i` is the
/// test set of fold `i` and the other rows its training set. Without shuffling the folds
/// are those of scikit-learn's `KFold(k)`.
///
/// | name | default | meaning | valid range |
/// |---|---|---|---|
/// | `k` | 5 | number of folds | `2..=n` |
/// | `shuffle` | `true` | shuffle rows before cutting blocks | |
/// | `seed` | 0 | seed of the shuffle | any |
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KFold {
    pub k: usize,
    pub shuffle: bool,
    pub seed: u64,
}

impl Default for KFold {
    fn default() -> Self {
        KFold {
            k: 5,
            shuffle: true,
            seed: 0,
        }
    }
}

impl KFold {
    /// The `k` folds of rows `0..n`; every row is in exactly one test set.
    pub fn folds(&self, n: usize) -> Result<Vec<Fold>> {
        check_k(self.k, n)?;
        let mut order: Vec<usize> = (0..n).collect();
        if self.shuffle {
            Rng::new(self.seed).shuffle(&mut order);
        }
        let mut fold_of = vec![0; n];
        let (base, extra) = (n / self.k, n % self.k);
        let mut start = 0;
        for fold in 0..self.k {
            let size = base + usize::from(fold < extra);
            for &row in &order[start..start + size] {
                fold_of[row] = fold;
            }
            start += size;
        }
        Ok(folds_from_assignment(&fold_of, self.k))
    }
}

/// Stratified k-fold cross-validation: each class's rows are shuffled (seeded) and dealt
/// round-robin to the folds, continuing from the fold where the previous class stopped.
/// So each fold holds `floor(m_c / k)` or `ceil(m_c / k)` rows of a class with `m_c`
/// rows (class proportions within one sample per class) and fold sizes differ by at
/// most one row.
///
/// A class with fewer than `k` rows is allowed: some test folds then lack it (and the
/// models trained on the other folds see all of it). Callers that want to warn about it
/// can ask [`classes_smaller_than`].
///
/// | name | default | meaning | valid range |
/// |---|---|---|---|
/// | `k` | 5 | number of folds | `2..=n` |
/// | `seed` | 0 | seed of the within-class shuffles | any |
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StratifiedKFold {
    pub k: usize,
    pub seed: u64,
}

impl Default for StratifiedKFold {
    fn default() -> Self {
        StratifiedKFold { k: 5, seed: 0 }
    }
}

impl StratifiedKFold {
    /// The `k` folds of rows `0..y.len()`, stratified by the class indices `y`.
    pub fn folds(&self, y: &[usize]) -> Result<Vec<Fold>> {
        let n = y.len();
        check_k(self.k, n)?;
        let mut rng = Rng::new(self.seed);
        let mut fold_of = vec![0; n];
        let mut next = 0;
        for mut members in class_members(y).into_values() {
            rng.shuffle(&mut members);
            for row in members {
                fold_of[row] = next;
                next = (next + 1) % self.k;
            }
        }
        Ok(folds_from_assignment(&fold_of, self.k))
    }
}

/// The classes of `y` with fewer than `k` rows, as `(class, count)` in class order: the
/// classes a stratified `k`-fold split cannot put in every test fold.
pub fn classes_smaller_than(y: &[usize], k: usize) -> Vec<(usize, usize)> {
    class_members(y)
        .into_iter()
        .filter(|(_, m)| m.len() < k)
        .map(|(c, m)| (c, m.len()))
        .collect()
}

fn check_fraction(name: &str, f: f64) -> Result<()> {
    if f.is_finite() && f > 0.0 && f < 1.0 {
        Ok(())
    } else {
        Err(Error::param(name, f, "must be strictly between 0 and 1"))
    }
}

fn check_k(k: usize, n: usize) -> Result<()> {
    if k < 2 || k > n {
        return Err(Error::param(
            "k",
            k,
            format!("the number of folds must be at least 2 and at most the number of rows ({n})"),
        ));
    }
    Ok(())
}

/// Rows of each class, in row order, keyed by class (so iteration order is deterministic).
fn class_members(y: &[usize]) -> BTreeMap<usize, Vec<usize>> {
    let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (row, &c) in y.iter().enumerate() {
        members.entry(c).or_default().push(row);
    }
    members
}

/// Assigns each row to part 0 (train) or part `1 + i` (held-out part `i`, with its
/// fraction), shuffling within each stratum; errors when a part ends up empty.
fn assign_parts(
    n: usize,
    held_out: &[(&str, f64)],
    stratify: Option<&[usize]>,
    seed: u64,
) -> Result<Vec<usize>> {
    let strata: Vec<Vec<usize>> = match stratify {
        Some(y) => {
            if y.len() != n {
                return Err(Error::data(format!(
                    "stratify has {} labels but there are {n} rows",
                    y.len()
                )));
            }
            class_members(y).into_values().collect()
        }
        None => vec![(0..n).collect()],
    };
    let fractions: Vec<f64> = held_out.iter().map(|&(_, f)| f).collect();
    let mut rng = Rng::new(seed);
    let mut part = vec![0; n];
    let mut sizes = vec![0usize; held_out.len() + 1];
    for mut members in strata {
        rng.shuffle(&mut members);
        let counts = if stratify.is_some() {
            allocate_with_minimums(members.len(), &fractions)
        } else {
            fractions
                .iter()
                .map(|f| (f * members.len() as f64).round() as usize)
                .collect()
        };
        let mut rows = members.into_iter();
        for (i, &count) in counts.iter().enumerate() {
            for row in rows.by_ref().take(count) {
                part[row] = i + 1;
                sizes[i + 1] += 1;
            }
        }
        sizes[0] += rows.count();
    }
    if let Some(empty) = sizes.iter().position(|&s| s == 0) {
        let (name, f) = held_out[empty.saturating_sub(1)];
        let which = if empty == 0 {
            "the training part".to_string()
        } else {
            format!("the part of {name}")
        };
        return Err(Error::param(
            name,
            f,
            format!("with {n} rows {which} would be empty"),
        ));
    }
    Ok(part)
}

/// Held-out counts for a stratum of `m` rows: `round(f_i * m)`, raised so that every part
/// (train first, then the held-out parts in order) gets a row while rows remain, then
/// lowered, largest first, until training keeps its share.
fn allocate_with_minimums(m: usize, fractions: &[f64]) -> Vec<usize> {
    let minimum = |part: usize| usize::from(m > part);
    let mut counts: Vec<usize> = fractions
        .iter()
        .enumerate()
        .map(|(i, f)| ((f * m as f64).round() as usize).max(minimum(i + 1)))
        .collect();
    let budget = m - minimum(0);
    while counts.iter().sum::<usize>() > budget {
        let (i, _) = counts
            .iter()
            .enumerate()
            .filter(|&(i, &c)| c > minimum(i + 1))
            .max_by_key(|&(i, &c)| (c, i))
            .expect("minimums never exceed the stratum size");
        counts[i] -= 1;
    }
    counts
}

/// Sorted row lists of each part `0..n_parts` from a per-row assignment.
fn collect_parts(part: &[usize], n_parts: usize) -> Vec<Vec<usize>> {
    let mut parts = vec![Vec::new(); n_parts];
    for (row, &p) in part.iter().enumerate() {
        parts[p].push(row);
    }
    parts
}

/// `(train, test)` for each fold from each row's test fold.
fn folds_from_assignment(fold_of: &[usize], k: usize) -> Vec<Fold> {
    (0..k)
        .map(|fold| {
            let (test, train): (Vec<usize>, Vec<usize>) =
                (0..fold_of.len()).partition(|&row| fold_of[row] == fold);
            (train, test)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn counts_per_class(rows: &[usize], y: &[usize], n_classes: usize) -> Vec<usize> {
        let mut c = vec![0; n_classes];
        for &r in rows {
            c[y[r]] += 1;
        }
        c
    }

    fn assert_partition(parts: &[&[usize]], n: usize) {
        let mut all: Vec<usize> = parts.iter().flat_map(|p| p.iter().copied()).collect();
        for p in parts {
            assert!(p.windows(2).all(|w| w[0] < w[1]), "not sorted: {p:?}");
        }
        all.sort_unstable();
        assert_eq!(all, (0..n).collect::<Vec<_>>());
    }

    #[test]
    fn train_test_split_is_deterministic_and_sized() {
        let a = train_test_split(100, 0.25, None, 42).unwrap();
        let b = train_test_split(100, 0.25, None, 42).unwrap();
        let c = train_test_split(100, 0.25, None, 43).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!((a.0.len(), a.1.len()), (75, 25));
        assert_partition(&[&a.0, &a.1], 100);
        // Not simply the first or last rows.
        assert_ne!(a.1, (75..100).collect::<Vec<_>>());
        assert_ne!(a.1, (0..25).collect::<Vec<_>>());
    }

    #[test]
    fn fractions_are_validated_and_named() {
        for bad in [0.0, 1.0, -0.1, 1.5, f64::NAN] {
            let e = train_test_split(10, bad, None, 0).unwrap_err();
            assert!(
                matches!(&e, Error::InvalidParameter { name, .. } if name == "test_fraction"),
                "{e}"
            );
        }
        // 0.01 of 10 rows rounds to an empty test part.
        let e = train_test_split(10, 0.01, None, 0).unwrap_err();
        assert!(e.to_string().contains("test_fraction = 0.01"), "{e}");
        assert!(e.to_string().contains("empty"), "{e}");
        // 0.99 of 10 rows leaves no training rows.
        let e = train_test_split(10, 0.99, None, 0).unwrap_err();
        assert!(e.to_string().contains("training part"), "{e}");
        let e = train_valid_test_split(10, 0.5, 0.5, None, 0).unwrap_err();
        assert!(
            matches!(&e, Error::InvalidParameter { name, .. } if name == "valid_fraction"),
            "{e}"
        );
        let e = train_valid_test_split(10, 0.2, 1.0, None, 0).unwrap_err();
        assert!(
            matches!(&e, Error::InvalidParameter { name, .. } if name == "test_fraction"),
            "{e}"
        );
        let e = train_test_split(3, 0.5, Some(&[0, 1]), 0).unwrap_err();
        assert!(
            e.to_string().contains("2 labels") && e.to_string().contains("3 rows"),
            "{e}"
        );
    }

    #[test]
    fn stratified_split_keeps_proportions_and_every_class_in_both_parts() {
        // 60 / 30 / 8 / 2 rows of four classes.
        let y: Vec<usize> = [(0, 60), (1, 30), (2, 8), (3, 2)]
            .iter()
            .flat_map(|&(c, m)| std::iter::repeat_n(c, m))
            .collect();
        let (train, test) = train_test_split(y.len(), 0.2, Some(&y), 7).unwrap();
        assert_partition(&[&train, &test], y.len());
        assert_eq!(counts_per_class(&test, &y, 4), vec![12, 6, 2, 1]);
        assert_eq!(counts_per_class(&train, &y, 4), vec![48, 24, 6, 1]);
        // A singleton class stays in training.
        let y1 = [0, 0, 0, 0, 1];
        let (train, test) = train_test_split(5, 0.4, Some(&y1), 1).unwrap();
        assert!(train.contains(&4));
        assert_eq!(test.len(), 2);
        // Every class a singleton: nothing can be held out.
        let e = train_test_split(3, 0.5, Some(&[0, 1, 2]), 1).unwrap_err();
        assert!(e.to_string().contains("empty"), "{e}");
    }

    #[test]
    fn three_way_split_sizes_and_strata() {
        let (train, valid, test) = train_valid_test_split(50, 0.2, 0.1, None, 3).unwrap();
        assert_eq!((train.len(), valid.len(), test.len()), (35, 10, 5));
        assert_partition(&[&train, &valid, &test], 50);
        let y: Vec<usize> = (0..30).map(|i| usize::from(i >= 27)).collect(); // 27 / 3
        let (train, valid, test) = train_valid_test_split(30, 0.2, 0.1, Some(&y), 3).unwrap();
        assert_eq!(counts_per_class(&train, &y, 2), vec![19, 1]);
        assert_eq!(counts_per_class(&valid, &y, 2), vec![5, 1]);
        assert_eq!(counts_per_class(&test, &y, 2), vec![3, 1]);
    }

    #[test]
    fn allocation_prefers_train_then_test_then_valid() {
        assert_eq!(allocate_with_minimums(1, &[0.5, 0.4]), vec![0, 0]);
        assert_eq!(allocate_with_minimums(2, &[0.5, 0.4]), vec![1, 0]);
        assert_eq!(allocate_with_minimums(3, &[0.5, 0.4]), vec![1, 1]);
        assert_eq!(allocate_with_minimums(10, &[0.5, 0.45]), vec![5, 4]);
        assert_eq!(allocate_with_minimums(4, &[0.9]), vec![3]);
    }

    #[test]
    fn kfold_without_shuffle_matches_scikit_learn() {
        let folds = KFold {
            k: 3,
            shuffle: false,
            seed: 0,
        }
        .folds(7)
        .unwrap();
        let tests: Vec<Vec<usize>> = folds.iter().map(|f| f.1.clone()).collect();
        assert_eq!(tests, vec![vec![0, 1, 2], vec![3, 4], vec![5, 6]]);
        assert_eq!(folds[1].0, vec![0, 1, 2, 5, 6]);
    }

    #[test]
    fn k_is_validated() {
        for k in [0, 1, 11] {
            let e = KFold {
                k,
                ..KFold::default()
            }
            .folds(10)
            .unwrap_err();
            assert!(
                matches!(&e, Error::InvalidParameter { name, .. } if name == "k"),
                "{e}"
            );
            let e = StratifiedKFold { k, seed: 0 }.folds(&[0; 10]).unwrap_err();
            assert!(
                e.to_string().contains("at most the number of rows (10)"),
                "{e}"
            );
        }
    }

    #[test]
    fn stratified_kfold_reports_and_tolerates_small_classes() {
        let y = [0, 0, 0, 0, 0, 0, 1, 1, 2];
        assert_eq!(classes_smaller_than(&y, 3), vec![(1, 2), (2, 1)]);
        let folds = StratifiedKFold { k: 3, seed: 5 }.folds(&y).unwrap();
        for (_, test) in &folds {
            assert_eq!(counts_per_class(test, &y, 3)[0], 2);
            assert_eq!(test.len(), 3);
        }
    }

    proptest! {
        #[test]
        fn kfold_partitions_rows(n in 2usize..200, k in 2usize..12, shuffle: bool, seed: u64) {
            prop_assume!(k <= n);
            let folds = KFold { k, shuffle, seed }.folds(n).unwrap();
            prop_assert_eq!(folds.len(), k);
            let tests: Vec<&[usize]> = folds.iter().map(|f| f.1.as_slice()).collect();
            assert_partition(&tests, n);
            for (train, test) in &folds {
                assert_partition(&[train, test], n);
                prop_assert!(test.len() == n / k || test.len() == n / k + 1);
            }
            prop_assert_eq!(&folds, &KFold { k, shuffle, seed }.folds(n).unwrap());
        }

        #[test]
        fn stratified_kfold_partitions_and_balances(
            y in prop::collection::vec(0usize..4, 2..200), k in 2usize..8, seed: u64,
        ) {
            let n = y.len();
            prop_assume!(k <= n);
            let folds = StratifiedKFold { k, seed }.folds(&y).unwrap();
            let tests: Vec<&[usize]> = folds.iter().map(|f| f.1.as_slice()).collect();
            assert_partition(&tests, n);
            let total = counts_per_class(&(0..n).collect::<Vec<_>>(), &y, 4);
            for (train, test) in &folds {
                assert_partition(&[train, test], n);
                prop_assert!(test.len() == n / k || test.len() == n / k + 1);
                for (c, &m) in counts_per_class(test, &y, 4).iter().enumerate() {
                    prop_assert!(m == total[c] / k || m == total[c].div_ceil(k));
                }
            }
            prop_assert_eq!(&folds, &StratifiedKFold { k, seed }.folds(&y).unwrap());
        }

        #[test]
        fn stratified_split_partitions_and_covers_classes(
            y in prop::collection::vec(0usize..5, 4..150), f in 0.05f64..0.95, seed: u64,
        ) {
            let n = y.len();
            let total = counts_per_class(&(0..n).collect::<Vec<_>>(), &y, 5);
            if let Ok((train, test)) = train_test_split(n, f, Some(&y), seed) {
                assert_partition(&[&train, &test], n);
                let (tr, te) = (counts_per_class(&train, &y, 5), counts_per_class(&test, &y, 5));
                for c in 0..5 {
                    if total[c] >= 2 {
                        prop_assert!(tr[c] >= 1 && te[c] >= 1);
                    }
                    let want = (f * total[c] as f64).round() as usize;
                    prop_assert!(te[c].abs_diff(want) <= 1);
                }
            }
        }

        #[test]
        fn three_way_split_partitions(n in 3usize..300, v in 0.05f64..0.45, t in 0.05f64..0.45, seed: u64) {
            if let Ok((train, valid, test)) = train_valid_test_split(n, v, t, None, seed) {
                assert_partition(&[&train, &valid, &test], n);
                prop_assert_eq!(valid.len(), (v * n as f64).round() as usize);
                prop_assert_eq!(test.len(), (t * n as f64).round() as usize);
            }
        }
    }
}
