//! Which features separate the classes: the scores behind `top_features`.

/// Evidence of each feature for each class against the others: its log-odds weighted by
/// how often it occurs in the class,
/// `s_cj = P(x_j | c) (ln P(x_j | c) - ln mean_{c' != c} P(x_j | c'))`,
/// the feature's term in the Kullback-Leibler divergence of the class from the others.
/// Plain log-odds would rank first the rarest words seen once in one class; the weight
/// ranks words that are both typical and discriminative. `p[c][j]` are class-conditional
/// probabilities. When both probabilities are 0 the score is 0. With a single class there
/// is nothing to compare with and every row is empty.
pub(crate) fn evidence(p: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let nc = p.len();
    if nc < 2 {
        return vec![Vec::new(); nc];
    }
    let nf = p[0].len();
    let total: Vec<f64> = (0..nf).map(|j| p.iter().map(|r| r[j]).sum()).collect();
    p.iter()
        .map(|row| {
            row.iter()
                .zip(&total)
                .map(|(&pc, &t)| {
                    let other = (t - pc).max(0.0) / (nc - 1) as f64;
                    if pc == other || pc == 0.0 {
                        0.0
                    } else {
                        pc * (pc.ln() - other.ln())
                    }
                })
                .collect()
        })
        .collect()
}

/// The `k` largest scores of each class as `(feature, score)`, best first (by `|score|`
/// when `by_magnitude`), ties broken by the lower feature index.
pub(crate) fn top_k(scores: &[Vec<f64>], k: usize, by_magnitude: bool) -> Vec<Vec<(usize, f64)>> {
    let key = |v: f64| if by_magnitude { v.abs() } else { v };
    scores
        .iter()
        .map(|row| {
            if k == 0 {
                return Vec::new();
            }
            // a total order (ties by index): select the first k, then sort only them
            let order = |a: &usize, b: &usize| key(row[*b]).total_cmp(&key(row[*a])).then(a.cmp(b));
            let mut idx: Vec<usize> = (0..row.len()).collect();
            if k < idx.len() {
                idx.select_nth_unstable_by(k, order);
                idx.truncate(k);
            }
            idx.sort_unstable_by(order);
            idx.into_iter().map(|j| (j, row[j])).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_against_the_mean_of_the_others() {
        let s = evidence(&[vec![0.5, 0.1], vec![0.1, 0.1], vec![0.3, 0.1]]);
        assert!((s[0][0] - 0.5 * (0.5f64.ln() - 0.2f64.ln())).abs() < 1e-12);
        assert!((s[1][0] - 0.1 * (0.1f64.ln() - 0.4f64.ln())).abs() < 1e-12);
        assert!(s[0][1].abs() < 1e-12);
        assert!(evidence(&[vec![1.0]])[0].is_empty());
        assert_eq!(
            evidence(&[vec![0.0], vec![0.0]]),
            vec![vec![0.0], vec![0.0]]
        );
    }

    #[test]
    fn top_k_orders_and_truncates() {
        let t = top_k(&[vec![1.0, -3.0, 2.0]], 2, false);
        assert_eq!(t, vec![vec![(2, 2.0), (0, 1.0)]]);
        let t = top_k(&[vec![1.0, -3.0, 2.0]], 2, true);
        assert_eq!(t, vec![vec![(1, -3.0), (2, 2.0)]]);
        // ties go to the lower index, whatever the selection does
        let row: Vec<f64> = (0..50).map(|j| f64::from(j % 5)).collect();
        let t = top_k(&[row], 4, false);
        assert_eq!(t, vec![vec![(4, 4.0), (9, 4.0), (14, 4.0), (19, 4.0)]]);
        assert_eq!(
            top_k(&[vec![1.0]], 0, false),
            vec![Vec::<(usize, f64)>::new()]
        );
        assert_eq!(top_k(&[vec![1.0]], 5, false), vec![vec![(0, 1.0)]]);
    }
}
