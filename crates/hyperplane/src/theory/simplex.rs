//! Feasibility of `A x = b, x >= 0` by phase one of the dense simplex method with Bland's rule.
//!
//! Phase one minimises the sum of artificial variables `a` in `A x + a = b` (rows negated so
//! `b >= 0`); the system is feasible exactly when that minimum is 0. Bland's rule (enter the
//! lowest-index improving column, leave by the lowest-index row among ratio ties) cannot
//! cycle, so the method always stops, after at most `C(n + m, m)` pivots and in practice a few.
//!
//! Tolerance: entries are expected to be of order 1 (callers normalise their data). A pivot
//! element must exceed [`PIVOT_TOL`]; a reduced cost counts as negative below `-PIVOT_TOL`;
//! the system is declared feasible when the phase-one minimum is at most
//! `FEAS_TOL * max(1, sum |b|)`. Systems whose answer changes under perturbations of the
//! entries smaller than about `1e-9` (points almost on a separating line) may be misjudged.

/// Smallest pivot element and most negative reduced cost treated as zero.
pub const PIVOT_TOL: f64 = 1e-11;
/// Relative phase-one residual below which the system is feasible.
pub const FEAS_TOL: f64 = 1e-9;

/// Whether some `x >= 0` satisfies `A x = b`; `a` is `m x n`, row-major.
pub fn feasible(a: &[f64], b: &[f64], n: usize) -> bool {
    let m = b.len();
    debug_assert_eq!(a.len(), m * n);
    // Tableau rows: [A | I | b] with b >= 0; columns n..n+m are the artificials.
    let width = n + m + 1;
    let mut t = vec![0.0; m * width];
    for i in 0..m {
        let sign = if b[i] < 0.0 { -1.0 } else { 1.0 };
        let row = &mut t[i * width..(i + 1) * width];
        for j in 0..n {
            row[j] = sign * a[i * n + j];
        }
        row[n + i] = 1.0;
        row[width - 1] = sign * b[i];
    }
    let scale = b.iter().map(|v| v.abs()).sum::<f64>().max(1.0);
    // Reduced costs of the phase-one objective sum(a): c_j = -sum_i t_ij for the originals.
    let mut cost = vec![0.0; width];
    for i in 0..m {
        for j in 0..width {
            if j < n || j == width - 1 {
                cost[j] -= t[i * width + j];
            }
        }
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    loop {
        // Bland: the lowest-index column with a negative reduced cost enters (artificials
        // never re-enter: once out, they are dropped).
        let Some(enter) = (0..n).find(|&j| cost[j] < -PIVOT_TOL) else {
            return -cost[width - 1] <= FEAS_TOL * scale;
        };
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..m {
            let p = t[i * width + enter];
            if p > PIVOT_TOL {
                let ratio = t[i * width + width - 1] / p;
                let better = match leave {
                    None => true,
                    Some((l, r)) => ratio < r || (ratio == r && basis[i] < basis[l]),
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        // Unbounded direction: impossible in phase one (the objective is bounded below by 0),
        // but numerically a column may look so; then nothing can improve.
        let Some((r, _)) = leave else {
            return -cost[width - 1] <= FEAS_TOL * scale;
        };
        pivot(&mut t, &mut cost, width, r, enter);
        basis[r] = enter;
    }
}

/// Makes column `c` the unit vector of row `r` in the tableau and the cost row.
fn pivot(t: &mut [f64], cost: &mut [f64], width: usize, r: usize, c: usize) {
    let p = t[r * width + c];
    for v in &mut t[r * width..(r + 1) * width] {
        *v /= p;
    }
    let (before, rest) = t.split_at_mut(r * width);
    let (pivot_row, after) = rest.split_at_mut(width);
    for row in before
        .chunks_exact_mut(width)
        .chain(after.chunks_exact_mut(width))
        .chain(std::iter::once(&mut cost[..]))
    {
        let f = row[c];
        if f != 0.0 {
            for (v, &pv) in row.iter_mut().zip(pivot_row.iter()) {
                *v -= f * pv;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_systems() {
        // x1 + x2 = 1, x1 - x2 = 0: x = (1/2, 1/2).
        assert!(feasible(&[1.0, 1.0, 1.0, -1.0], &[1.0, 0.0], 2));
        // x1 + x2 = -1 has no non-negative solution.
        assert!(!feasible(&[1.0, 1.0], &[-1.0], 2));
        // x1 - x2 = -1 does (x2 = 1).
        assert!(feasible(&[1.0, -1.0], &[-1.0], 2));
        // x1 + x2 = 1 and x1 + x2 = 2 contradict.
        assert!(!feasible(&[1.0, 1.0, 1.0, 1.0], &[1.0, 2.0], 2));
        // Degenerate: b = 0 is always feasible (x = 0).
        assert!(feasible(&[1.0, -3.0, 2.0, 5.0], &[0.0, 0.0], 2));
    }

    #[test]
    fn degenerate_cycling_example_terminates() {
        // Beale's classic cycling example as equalities with slacks; feasible at x = 0, slack = b.
        let a = [
            0.25, -60.0, -0.04, 9.0, 1.0, 0.0, 0.0, //
            0.5, -90.0, -0.02, 3.0, 0.0, 1.0, 0.0, //
            0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0,
        ];
        assert!(feasible(&a, &[0.0, 0.0, 1.0], 7));
    }
}
