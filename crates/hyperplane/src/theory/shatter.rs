//! Empirical shattering: which of the `2^N` dichotomies of given points a hypothesis set
//! realises.
//!
//! - Positive rays and intervals (1-D): by enumerating every threshold / interval between
//!   consecutive distinct values.
//! - Perceptrons `sign(w.x + b)` in `d` dimensions: a dichotomy `y` is realised iff the
//!   points are strictly linearly separable, `y_i (w.x_i + b) >= 1` for some `(w, b)`. By
//!   Gordan's theorem that holds iff no convex combination of the `y_i (x_i, 1)` is zero:
//!   `sum_i l_i y_i (x_i, 1) = 0, sum_i l_i = 1, l >= 0` is infeasible — an exact LP test,
//!   solved by [`simplex::feasible`](super::simplex::feasible).
//! - Convex sets: a dichotomy is realised iff no `-1` point lies in the convex hull of the
//!   `+1` points (the hull is the smallest convex set holding them): one LP per `-1` point.
//!
//! Coordinates are first centred and scaled into `[-1, 1]` per column (an affine map, which
//! changes neither separability nor hull membership), so the simplex's tolerances are
//! relative to the spread of the data. A dichotomy and its complement are realised together
//! by perceptrons, so only half are tested.

use ndarray::{Array2, ArrayView2};
use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::theory::growth::HypothesisSet;
use crate::theory::simplex::feasible;

/// Most points accepted: every one of the `2^N` dichotomies is tested.
pub const MAX_POINTS: usize = 20;

/// What [`count_dichotomies`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dichotomies {
    pub n_points: usize,
    /// Coordinates per point.
    pub dimension: usize,
    /// Dichotomies the set realises on the points.
    pub realised: u64,
    /// `2^N`.
    pub possible: u64,
    /// `realised == 2^N`.
    pub shattered: bool,
}

/// Counts the dichotomies `set` realises on `points` (one point per row).
///
/// Rays and intervals need one column; perceptrons in `d` dimensions need `d` columns;
/// convex sets take any number. At most [`MAX_POINTS`] points.
pub fn count_dichotomies(points: ArrayView2<f64>, set: &HypothesisSet) -> Result<Dichotomies> {
    let (n, dim) = points.dim();
    if n > MAX_POINTS {
        return Err(Error::param(
            "points",
            n,
            format!("at most {MAX_POINTS} points: all 2^N dichotomies are tested"),
        ));
    }
    if let Some(((row, feature), &value)) = points.indexed_iter().find(|(_, v)| !v.is_finite()) {
        return Err(Error::NonFinite {
            what: "points".into(),
            row,
            feature,
            value,
        });
    }
    let needed = match *set {
        HypothesisSet::PositiveRays | HypothesisSet::PositiveIntervals => Some(1),
        HypothesisSet::Perceptron { d } => Some(d as usize),
        HypothesisSet::ConvexSets => None,
    };
    if let Some(d) = needed {
        if dim != d {
            return Err(Error::data(format!(
                "{set} need points with {d} coordinate(s), found {dim}"
            )));
        }
    }
    let realised = match *set {
        HypothesisSet::PositiveRays | HypothesisSet::PositiveIntervals => {
            one_dimensional(points, set)
        }
        HypothesisSet::Perceptron { .. } => perceptron_count(&normalised(points)),
        HypothesisSet::ConvexSets => convex_count(&normalised(points)),
    };
    let possible = 1u64 << n;
    Ok(Dichotomies {
        n_points: n,
        dimension: dim,
        realised,
        possible,
        shattered: realised == possible,
    })
}

/// Whether `set` realises all `2^N` dichotomies of `points`.
pub fn is_shattered(points: ArrayView2<f64>, set: &HypothesisSet) -> Result<bool> {
    Ok(count_dichotomies(points, set)?.shattered)
}

/// The dichotomy (bit `i` set = `+1`) that labels `x_i` by `positive(x_i)`.
fn mask(x: &[f64], positive: impl Fn(f64) -> bool) -> u64 {
    x.iter()
        .enumerate()
        .filter(|(_, &v)| positive(v))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// Rays `x > a` for `a` below every point or at each distinct value; intervals
/// `v_i <= x <= v_j` over pairs of distinct values, plus the empty interval.
fn one_dimensional(points: ArrayView2<f64>, set: &HypothesisSet) -> u64 {
    let x: Vec<f64> = points.column(0).to_vec();
    let mut v = x.clone();
    v.sort_by(f64::total_cmp);
    v.dedup();
    let mut seen = std::collections::HashSet::new();
    if *set == HypothesisSet::PositiveRays {
        seen.insert(mask(&x, |_| true));
        for &a in &v {
            seen.insert(mask(&x, |xi| xi > a));
        }
    } else {
        seen.insert(0);
        for (i, &lo) in v.iter().enumerate() {
            for &hi in &v[i..] {
                seen.insert(mask(&x, |xi| lo <= xi && xi <= hi));
            }
        }
    }
    seen.len() as u64
}

/// Each column mapped affinely onto `[-1, 1]` (a constant column onto 0).
fn normalised(points: ArrayView2<f64>) -> Array2<f64> {
    let mut p = points.to_owned();
    for mut col in p.columns_mut() {
        let (lo, hi) = col
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                (l.min(v), h.max(v))
            });
        let (mid, half) = ((lo + hi) / 2.0, (hi - lo) / 2.0);
        col.mapv_inplace(|v| if half > 0.0 { (v - mid) / half } else { 0.0 });
    }
    p
}

/// Whether the points with `y_i = +1` (bit `i` of `labels`) and the rest are strictly
/// linearly separable: Gordan's alternative, `sum l_i y_i (x_i, 1) = 0, sum l_i = 1, l >= 0`
/// infeasible.
fn separable(p: &Array2<f64>, labels: u64) -> bool {
    let (n, d) = p.dim();
    // Rows 0..d: coordinates, row d: the constant 1, row d + 1: sum l = 1.
    let mut a = vec![0.0; (d + 2) * n];
    for (i, x) in p.rows().into_iter().enumerate() {
        let y = if labels >> i & 1 == 1 { 1.0 } else { -1.0 };
        for (r, &v) in x.iter().enumerate() {
            a[r * n + i] = y * v;
        }
        a[d * n + i] = y;
        a[(d + 1) * n + i] = 1.0;
    }
    let mut b = vec![0.0; d + 2];
    b[d + 1] = 1.0;
    !feasible(&a, &b, n)
}

/// Dichotomies realised by `sign(w.x + b)`: a dichotomy and its complement are separable
/// together, so only those with the last point at `-1` are tested.
fn perceptron_count(p: &Array2<f64>) -> u64 {
    let n = p.nrows();
    if n == 0 {
        return 1;
    }
    let half = 1u64 << (n - 1);
    2 * (0..half)
        .into_par_iter()
        .filter(|&labels| separable(p, labels))
        .count() as u64
}

/// Whether `z` lies in the convex hull of the rows of `p` selected by `members`:
/// `sum l_i x_i = z, sum l_i = 1, l >= 0` feasible.
fn in_hull(p: &Array2<f64>, members: &[usize], z: ndarray::ArrayView1<f64>) -> bool {
    let (k, d) = (members.len(), p.ncols());
    let mut a = vec![0.0; (d + 1) * k];
    for (c, &i) in members.iter().enumerate() {
        for r in 0..d {
            a[r * k + c] = p[[i, r]];
        }
        a[d * k + c] = 1.0;
    }
    let mut b = z.to_vec();
    b.push(1.0);
    feasible(&a, &b, k)
}

/// Dichotomies realised by convex sets: no `-1` point inside the hull of the `+1` points.
fn convex_count(p: &Array2<f64>) -> u64 {
    let n = p.nrows();
    (0..1u64 << n)
        .into_par_iter()
        .filter(|&labels| {
            let (pos, neg): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| labels >> i & 1 == 1);
            pos.is_empty() || neg.iter().all(|&j| !in_hull(p, &pos, p.row(j)))
        })
        .count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use ndarray::{array, Array2};

    fn random_points(rng: &mut Rng, n: usize, d: usize) -> Array2<f64> {
        Array2::from_shape_fn((n, d), |_| rng.next_f64() * 2.0 - 1.0)
    }

    fn count(points: &Array2<f64>, set: HypothesisSet) -> u64 {
        count_dichotomies(points.view(), &set).unwrap().realised
    }

    #[test]
    fn rays_and_intervals_on_distinct_points() {
        let mut rng = Rng::new(3);
        for n in 0..=12usize {
            let pts = random_points(&mut rng, n, 1);
            let n = n as u64;
            assert_eq!(count(&pts, HypothesisSet::PositiveRays), n + 1);
            assert_eq!(
                count(&pts, HypothesisSet::PositiveIntervals),
                n * (n + 1) / 2 + 1
            );
        }
        // Repeated values realise fewer: two distinct values only.
        let pts = array![[1.0], [1.0], [2.0]];
        assert_eq!(count(&pts, HypothesisSet::PositiveRays), 3);
        assert_eq!(count(&pts, HypothesisSet::PositiveIntervals), 4);
        assert!(is_shattered(array![[0.5]].view(), &HypothesisSet::PositiveRays).unwrap());
        assert!(is_shattered(
            array![[0.5], [2.0]].view(),
            &HypothesisSet::PositiveIntervals
        )
        .unwrap());
    }

    #[test]
    fn perceptron_counts_equal_covers_formula_in_2d() {
        let mut rng = Rng::new(11);
        for n in 0..=8usize {
            for _ in 0..3 {
                let pts = random_points(&mut rng, n, 2);
                let set = HypothesisSet::Perceptron { d: 2 };
                let cover = set.growth(n as u64).to_u64().unwrap();
                assert_eq!(count(&pts, set), cover, "N = {n}: {pts}");
            }
        }
    }

    #[test]
    fn d_plus_one_points_shattered_d_plus_two_not() {
        let mut rng = Rng::new(5);
        for d in 1..=3usize {
            let set = HypothesisSet::Perceptron { d: d as u64 };
            for _ in 0..4 {
                assert!(is_shattered(random_points(&mut rng, d + 1, d).view(), &set).unwrap());
                let pts = random_points(&mut rng, d + 2, d);
                let c = count_dichotomies(pts.view(), &set).unwrap();
                assert!(!c.shattered, "d = {d}: {pts}");
                assert_eq!(c.realised, set.growth(d as u64 + 2).to_u64().unwrap());
            }
        }
    }

    #[test]
    fn degenerate_configurations() {
        let p2 = HypothesisSet::Perceptron { d: 2 };
        // Three collinear points: the middle one cannot differ from both ends (XOR-like).
        let line = array![[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]];
        assert_eq!(count(&line, p2), 6);
        // The XOR square: 14 of 16.
        let square = array![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]];
        assert_eq!(count(&square, p2), 14);
        // A duplicated point can only be labelled one way.
        let dup = array![[0.3, 0.1], [0.3, 0.1]];
        assert_eq!(count(&dup, p2), 2);
        // Huge and tiny coordinates are normalised first.
        let scaled = square.mapv(|v| 1e9 + v * 1e-3);
        assert_eq!(count(&scaled, p2), 14);
    }

    #[test]
    fn convex_sets_shatter_points_on_a_circle_only() {
        let n = 7;
        let circle = Array2::from_shape_fn((n, 2), |(i, j)| {
            let t = i as f64 * std::f64::consts::TAU / n as f64;
            if j == 0 {
                t.cos()
            } else {
                t.sin()
            }
        });
        assert!(is_shattered(circle.view(), &HypothesisSet::ConvexSets).unwrap());
        // A point at the centre: any dichotomy with it -1 and all others +1 (and more) fail.
        let mut with_centre = circle.clone();
        with_centre.push_row(ndarray::aview1(&[0.0, 0.0])).unwrap();
        let c = count_dichotomies(with_centre.view(), &HypothesisSet::ConvexSets).unwrap();
        assert!(!c.shattered && c.realised < 256);
    }

    #[test]
    fn bad_input() {
        let p2 = HypothesisSet::Perceptron { d: 2 };
        assert!(count_dichotomies(array![[1.0, 2.0, 3.0]].view(), &p2).is_err());
        assert!(
            count_dichotomies(array![[1.0, 2.0]].view(), &HypothesisSet::PositiveRays).is_err()
        );
        assert!(count_dichotomies(array![[f64::NAN, 2.0]].view(), &p2).is_err());
        assert!(count_dichotomies(Array2::zeros((21, 2)).view(), &p2).is_err());
    }
}
