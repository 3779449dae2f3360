//! Probabilities from a kernel classifier's decision values (LIBSVM's `-b 1`).
//!
//! Each pair `(a, b)` gets Platt's sigmoid `P(a | f) = 1 / (1 + exp(A f + B))`, fitted to
//! decision values `f` that no row's own model saw (5-fold cross-validation inside the
//! pair's rows), with Platt's smoothed targets `t = (N_+ + 1) / (N_+ + 2)` for `a` and
//! `1 / (N_- + 2)` for `b`: `min_{A,B} -sum_i t_i log p_i + (1 - t_i) log(1 - p_i)` by
//! Newton's method with a backtracking line search, written in the numerically stable
//! form of Lin, Lin and Weng (2007). The pairwise estimates `r_ab` are then coupled into
//! one distribution over the classes by Wu, Lin and Weng's (2004) second method:
//!
//! ```text
//! min_p 1/2 sum_a sum_{b != a} (r_ba p_a - r_ab p_b)^2   s.t.  sum_a p_a = 1
//! ```

crate::params! {
    /// Probability estimates for a kernel classifier (`predict --proba`).
    #[derive(Clone, Debug, PartialEq, Default)]
    pub struct Calibration {
        pub probability: bool,
        pub seed: u64,
    }
    schema "svm-probability" {
        /// fit Platt's sigmoid for each pair of classes on 5-fold cross-validated decision values, for probabilities (five more fits per pair)
        probability = "false", bool => probability;
        /// the seed of the shuffle that deals each pair's rows into the five folds
        seed = "0", any => seed;
    }
}

/// The folds of the cross-validation that gives Platt's decision values.
pub(crate) const FOLDS: usize = 5;

/// The smallest pairwise probability the coupling takes (and 1 minus it the largest).
const MIN_PROB: f64 = 1e-7;

/// `1 / (1 + exp(z))`, without overflow for any `z`.
fn logistic_of_minus(z: f64) -> f64 {
    if z >= 0.0 {
        let e = (-z).exp();
        e / (1.0 + e)
    } else {
        1.0 / (1.0 + z.exp())
    }
}

/// `P(+1 | f) = 1 / (1 + exp(A f + B))`.
pub fn sigmoid_predict(f: f64, a: f64, b: f64) -> f64 {
    logistic_of_minus(f * a + b)
}

/// Platt's `(A, B)` for decision values `dec` of rows whose side is `positive`.
pub fn sigmoid_fit(dec: &[f64], positive: &[bool]) -> (f64, f64) {
    const MAX_ITER: usize = 100;
    const MIN_STEP: f64 = 1e-10;
    // keeps the Hessian positive definite
    const SIGMA: f64 = 1e-12;
    const EPS: f64 = 1e-5;
    let n_pos = positive.iter().filter(|&&p| p).count() as f64;
    let n_neg = positive.len() as f64 - n_pos;
    let high = (n_pos + 1.0) / (n_pos + 2.0);
    let low = 1.0 / (n_neg + 2.0);
    let target: Vec<f64> = positive
        .iter()
        .map(|&p| if p { high } else { low })
        .collect();
    // -sum t log p + (1 - t) log(1 - p) with p = 1 / (1 + exp(z)), z = A f + B
    let loss = |a: f64, b: f64| -> f64 {
        dec.iter()
            .zip(&target)
            .map(|(&f, &t)| {
                let z = f * a + b;
                if z >= 0.0 {
                    t * z + (-z).exp().ln_1p()
                } else {
                    (t - 1.0) * z + z.exp().ln_1p()
                }
            })
            .sum()
    };
    let (mut a, mut b) = (0.0, ((n_neg + 1.0) / (n_pos + 1.0)).ln());
    let mut value = loss(a, b);
    for _ in 0..MAX_ITER {
        let (mut h11, mut h22, mut h21, mut g1, mut g2) = (SIGMA, SIGMA, 0.0, 0.0, 0.0);
        for (&f, &t) in dec.iter().zip(&target) {
            let p = sigmoid_predict(f, a, b);
            let d2 = p * (1.0 - p);
            h11 += f * f * d2;
            h22 += d2;
            h21 += f * d2;
            let d1 = t - p;
            g1 += f * d1;
            g2 += d1;
        }
        if g1.abs() < EPS && g2.abs() < EPS {
            break;
        }
        let det = h11 * h22 - h21 * h21;
        let da = -(h22 * g1 - h21 * g2) / det;
        let db = -(-h21 * g1 + h11 * g2) / det;
        let slope = g1 * da + g2 * db;
        let mut step = 1.0;
        while step >= MIN_STEP {
            let (na, nb) = (a + step * da, b + step * db);
            let next = loss(na, nb);
            if next < value + 1e-4 * step * slope {
                (a, b, value) = (na, nb, next);
                break;
            }
            step /= 2.0;
        }
        if step < MIN_STEP {
            // no decrease along Newton's direction: as close as doubles get
            break;
        }
    }
    (a, b)
}

/// The class probabilities from pairwise ones: `r[a][b]` estimates `P(a | a or b)`
/// (`r[b][a] = 1 - r[a][b]`), each clipped to `[1e-7, 1 - 1e-7]` by the caller.
/// Coordinate descent on Wu, Lin and Weng's quadratic `p^T Q p` with `Q_aa = sum_{b != a}
/// r_ba^2`, `Q_ab = -r_ba r_ab`, until every `|(Qp)_a - p^T Q p| < 0.005 / k`.
/// Two classes need no coupling: `p = (r_01, r_10)`.
pub fn couple(r: &[Vec<f64>]) -> Vec<f64> {
    let k = r.len();
    if k == 2 {
        return vec![r[0][1], r[1][0]];
    }
    let max_iter = k.max(100);
    let eps = 0.005 / k as f64;
    let mut q = vec![vec![0.0; k]; k];
    for t in 0..k {
        for j in 0..k {
            if j != t {
                q[t][t] += r[j][t] * r[j][t];
                q[t][j] = -r[j][t] * r[t][j];
            }
        }
    }
    let mut p = vec![1.0 / k as f64; k];
    let mut qp = vec![0.0; k];
    for _ in 0..max_iter {
        // recomputed each sweep for accuracy
        let mut pqp = 0.0;
        for t in 0..k {
            qp[t] = (0..k).map(|j| q[t][j] * p[j]).sum();
            pqp += p[t] * qp[t];
        }
        if qp.iter().all(|&v| (v - pqp).abs() < eps) {
            break;
        }
        for t in 0..k {
            let diff = (pqp - qp[t]) / q[t][t];
            p[t] += diff;
            pqp = (pqp + diff * (diff * q[t][t] + 2.0 * qp[t])) / ((1.0 + diff) * (1.0 + diff));
            for j in 0..k {
                qp[j] = (qp[j] + diff * q[t][j]) / (1.0 + diff);
                p[j] /= 1.0 + diff;
            }
        }
    }
    p
}

/// The pairwise estimate `P(a | f_ab)` of one pair, clipped for the coupling.
pub(crate) fn pair_probability(f: f64, a: f64, b: f64) -> f64 {
    sigmoid_predict(f, a, b).clamp(MIN_PROB, 1.0 - MIN_PROB)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigmoid_fit_is_a_stationary_point_of_platts_loss() {
        let dec = [-2.0, -1.2, -0.3, 0.1, 0.4, 0.9, 1.5, -0.8, 0.2, 2.2];
        let pos = [
            false, false, true, false, true, true, true, false, false, true,
        ];
        let (a, b) = sigmoid_fit(&dec, &pos);
        assert!(a < 0.0, "larger f must mean more likely +1: A = {a}");
        let (n_pos, n_neg) = (5.0, 5.0);
        let (g1, g2) = dec.iter().zip(&pos).fold((0.0, 0.0), |(g1, g2), (&f, &p)| {
            let t = if p {
                (n_pos + 1.0) / (n_pos + 2.0)
            } else {
                1.0 / (n_neg + 2.0)
            };
            let d = t - sigmoid_predict(f, a, b);
            (g1 + f * d, g2 + d)
        });
        assert!(g1.abs() < 1e-5 && g2.abs() < 1e-5, "gradient {g1} {g2}");
    }

    #[test]
    fn coupling_two_classes_returns_the_pair() {
        assert_eq!(couple(&[vec![0.0, 0.8], vec![0.2, 0.0]]), [0.8, 0.2]);
    }

    #[test]
    fn coupling_consistent_pairs_recovers_the_distribution() {
        // r_ab = p_a / (p_a + p_b) exactly: the minimum is p itself
        let truth = [0.5, 0.3, 0.2];
        let r: Vec<Vec<f64>> = (0..3)
            .map(|a| {
                (0..3)
                    .map(|b| {
                        if a == b {
                            0.0
                        } else {
                            truth[a] / (truth[a] + truth[b])
                        }
                    })
                    .collect()
            })
            .collect();
        let p = couple(&r);
        for (x, y) in p.iter().zip(truth) {
            assert!((x - y).abs() < 1e-3, "{p:?}");
        }
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
