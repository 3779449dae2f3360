use super::*;
use crate::rng::Rng;

fn random(rows: usize, cols: usize, seed: u64) -> Matrix {
    let mut rng = Rng::new(seed);
    Matrix::from_fn(rows, cols, |_, _| rng.next_f64() * 2.0 - 1.0)
}

fn max_abs_diff(a: &Matrix, b: &Matrix) -> f64 {
    assert_eq!((a.rows(), a.cols()), (b.rows(), b.cols()));
    let mut m = 0.0f64;
    for i in 0..a.rows() {
        for j in 0..a.cols() {
            m = m.max((a[(i, j)] - b[(i, j)]).abs());
        }
    }
    m
}

/// `Q` as an explicit `m x m` matrix.
fn explicit_q(qr: &Qr, m: usize) -> Matrix {
    let mut q = Matrix::identity(m);
    qr.apply_q(&mut q);
    q
}

/// `R` padded with zero rows to `m x n`.
fn padded(r: &Matrix, m: usize) -> Matrix {
    Matrix::from_fn(
        m,
        r.cols(),
        |i, j| if i < r.rows() { r[(i, j)] } else { 0.0 },
    )
}

#[test]
fn qr_is_orthogonal_and_reconstructs() {
    for (m, n) in [(30, 7), (7, 7), (5, 9)] {
        let a = random(m, n, 1);
        let qr = Qr::new(a.clone());
        let q = explicit_q(&qr, m);
        let r = qr.r();
        for i in 0..r.rows() {
            for j in 0..i {
                assert_eq!(r[(i, j)], 0.0);
            }
        }
        assert!(max_abs_diff(&q.transpose().matmul(&q), &Matrix::identity(m)) < 1e-12);
        assert!(
            max_abs_diff(&q.matmul(&padded(&r, m)), &a) < 1e-12,
            "{m} x {n}"
        );
        let mut qta = a.clone();
        qr.apply_qt(&mut qta);
        assert!(max_abs_diff(&qta, &padded(&r, m)) < 1e-12);
    }
}

#[test]
fn pivoted_qr_reconstructs_the_permuted_matrix_with_a_falling_diagonal() {
    let a = random(12, 6, 2);
    let qr = Qr::with_column_pivoting(a.clone());
    let ap = Matrix::from_fn(12, 6, |i, j| a[(i, qr.perm()[j])]);
    let r = qr.r();
    assert!(max_abs_diff(&explicit_q(&qr, 12).matmul(&padded(&r, 12)), &ap) < 1e-12);
    for i in 1..6 {
        assert!(r[(i, i)].abs() <= r[(i - 1, i - 1)].abs());
    }
    let mut sorted = qr.perm().to_vec();
    sorted.sort();
    assert_eq!(sorted, (0..6).collect::<Vec<_>>());
}

/// `R` with each row's sign chosen so the diagonal is non-negative.
fn sign_normalised(r: &Matrix) -> Matrix {
    Matrix::from_fn(r.rows(), r.cols(), |i, j| {
        r[(i, j)] * if r[(i, i)] < 0.0 { -1.0 } else { 1.0 }
    })
}

#[test]
fn tsqr_equals_plain_qr_up_to_row_signs() {
    // More rows than one parallel chunk, and blocks of uneven size.
    let (n, c) = (20_001, 6);
    let a = random(n, c, 3);
    let tall = tall_r(n, c, |start, block| {
        for j in 0..c {
            for (i, v) in block.col_mut(j).iter_mut().enumerate() {
                *v = a[(start + i, j)];
            }
        }
    });
    let plain = Qr::new(a).r();
    let scale = plain[(0, 0)].abs();
    let diff = max_abs_diff(&sign_normalised(&tall), &sign_normalised(&plain));
    assert!(diff < 1e-12 * scale, "{diff}");
}

#[test]
fn row_qr_keeps_the_gram_matrix() {
    let (a, b) = (random(9, 4, 4), random(3, 4, 5));
    let mut acc = RowQr::new(4);
    acc.absorb(&mut a.clone());
    let mut other = RowQr::new(4);
    other.absorb(&mut b.clone());
    acc.merge(other);
    let r = acc.into_r();
    let gram = a.transpose().matmul(&a);
    let gram = Matrix::from_fn(4, 4, |i, j| gram[(i, j)] + b.transpose().matmul(&b)[(i, j)]);
    assert!(max_abs_diff(&r.transpose().matmul(&r), &gram) < 1e-12);
}

#[test]
fn svd_reconstructs_with_orthonormal_factors() {
    for (m, n) in [(9, 6), (6, 6), (4, 7)] {
        let a = random(m, n, 6);
        let svd = Svd::new(&a);
        let k = m.min(n);
        assert_eq!(svd.s.len(), k);
        assert!(svd.s.windows(2).all(|w| w[0] >= w[1]));
        let us = Matrix::from_fn(m, k, |i, j| svd.u[(i, j)] * svd.s[j]);
        assert!(
            max_abs_diff(&us.matmul(&svd.v.transpose()), &a) < 1e-12,
            "{m} x {n}"
        );
        let eye = Matrix::identity(k);
        assert!(max_abs_diff(&svd.u.transpose().matmul(&svd.u), &eye) < 1e-12);
        assert!(max_abs_diff(&svd.v.transpose().matmul(&svd.v), &eye) < 1e-12);
    }
}

#[test]
fn singular_values_of_known_matrices() {
    let cases: [(Matrix, Vec<f64>); 3] = [
        (
            Matrix::from_fn(2, 2, |i, j| [[3.0, 0.0], [4.0, 5.0]][i][j]),
            vec![45f64.sqrt(), 5f64.sqrt()],
        ),
        (Matrix::from_fn(2, 2, |_, _| 1.0), vec![2.0, 0.0]),
        (
            Matrix::from_fn(3, 3, |i, j| {
                [[0.0, -2.0, 0.0], [0.0, 0.0, 1e-20], [3.0, 0.0, 0.0]][i][j]
            }),
            vec![3.0, 2.0, 1e-20],
        ),
    ];
    for (a, expected) in cases {
        let s = Svd::new(&a).s;
        for (x, e) in s.iter().zip(&expected) {
            assert!(
                (x - e).abs() <= 1e-15 * expected[0] + 1e-15 * e.abs(),
                "{x} vs {e}"
            );
        }
    }
}

#[test]
fn rank_deficient_least_squares_is_minimum_norm() {
    // A = [a, a, a2] with a2 = 2 a: rank 1, min-norm w = t (1, 1, 2) / 6, t = a.b / a.a.
    let a = random(8, 1, 7);
    let x = Matrix::from_fn(8, 3, |i, j| a[(i, 0)] * [1.0, 1.0, 2.0][j]);
    let b = random(8, 1, 8);
    let t = (0..8).map(|i| a[(i, 0)] * b[(i, 0)]).sum::<f64>()
        / (0..8).map(|i| a[(i, 0)] * a[(i, 0)]).sum::<f64>();
    let expected = [t / 6.0, t / 6.0, t / 3.0];
    let (w, rank) = min_norm_lstsq(&x, &b, 1e-12);
    assert_eq!(rank, 1);
    for (j, e) in expected.iter().enumerate() {
        assert!((w[(j, 0)] - e).abs() < 1e-12, "{} vs {e}", w[(j, 0)]);
    }
    let svd = Svd::new(&x);
    assert!(svd.s[1] < 1e-14 * svd.s[0]);
    assert_eq!(
        min_norm_lstsq(&Matrix::zeros(3, 2), &b.block(0..3, 0..1), 1e-12).1,
        0
    );
}

#[test]
fn triangular_solves_invert_r_and_its_transpose() {
    let r = Qr::new(random(6, 5, 9)).r();
    let b = random(5, 2, 10);
    let mut x = b.clone();
    solve_upper(&r, &mut x);
    assert!(max_abs_diff(&r.matmul(&x), &b) < 1e-12);
    let mut y = b.clone();
    solve_upper_transposed(&r, &mut y);
    assert!(max_abs_diff(&r.transpose().matmul(&y), &b) < 1e-12);
}

/// `A` itself as an operator.
impl LinearOperator for Matrix {
    fn n_cols(&self) -> usize {
        self.cols()
    }
    fn apply(&self, v: &[f64], out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = (0..self.cols()).map(|j| self[(i, j)] * v[j]).sum();
        }
    }
    fn apply_transpose(&self, u: &[f64], out: &mut [f64]) {
        for (j, o) in out.iter_mut().enumerate() {
            *o = self.col(j).iter().zip(u).map(|(a, b)| a * b).sum();
        }
    }
}

#[test]
fn lsqr_reaches_the_minimum_norm_solution() {
    // full rank, then rank 1 (columns a, a, 2a): the same answers as the direct solver
    let a = random(8, 1, 7);
    for x in [
        random(30, 4, 3),
        Matrix::from_fn(8, 3, |i, j| a[(i, 0)] * [1.0, 1.0, 2.0][j]),
    ] {
        let b = random(x.rows(), 1, 9);
        let (w, iterations, converged) = lsqr(&x, b.col(0), 0.0, 1e-12, 100);
        assert!(converged && iterations <= x.cols() + 1, "{iterations}");
        let (direct, _) = min_norm_lstsq(&x, &b, 1e-12);
        for (j, v) in w.iter().enumerate() {
            assert!(
                (v - direct[(j, 0)]).abs() < 1e-9,
                "{v} vs {}",
                direct[(j, 0)]
            );
        }
    }
}

#[test]
fn cholesky_solves_a_positive_definite_system_and_names_a_failed_pivot() {
    // A = B^T B + I is positive definite; only its upper triangle is read
    let b = random(12, 6, 7);
    let mut a = b.transpose().matmul(&b);
    for j in 0..6 {
        a[(j, j)] += 1.0;
    }
    let x_true: Vec<f64> = (0..6).map(|j| 1.0 - 0.3 * j as f64).collect();
    let rhs: Vec<f64> = (0..6)
        .map(|i| (0..6).map(|j| a[(i, j)] * x_true[j]).sum())
        .collect();
    let mut upper = a.clone();
    for j in 0..6 {
        for i in j + 1..6 {
            upper[(i, j)] = f64::NAN;
        }
    }
    let mut x = rhs.clone();
    Cholesky::factor(upper).unwrap().solve(&mut x);
    for (got, want) in x.iter().zip(&x_true) {
        assert!((got - want).abs() < 1e-12, "{x:?}");
    }
    // singular (rank 5: a zero row and column) and indefinite matrices are refused
    let mut singular = a.clone();
    for k in 0..6 {
        singular[(3, k)] = 0.0;
        singular[(k, 3)] = 0.0;
    }
    assert_eq!(
        Cholesky::factor(singular).unwrap_err(),
        NotPositiveDefinite { column: 3 }
    );
    let mut indefinite = a;
    indefinite[(0, 0)] = -1.0;
    assert_eq!(
        Cholesky::factor(indefinite).unwrap_err(),
        NotPositiveDefinite { column: 0 }
    );
}

#[test]
fn weighted_gram_is_the_same_from_sparse_and_dense_rows() {
    use crate::data::CsrMatrix;
    use ndarray::Array2;
    // 300 rows over 40 columns: the first 150 with 3 entries (scattered updates), the
    // rest full (the blocked product); weights with zeros
    let mut rng = Rng::new(3);
    let x = Array2::from_shape_fn((300, 40), |(i, j)| {
        if i >= 150 || (i + j) % 13 == 0 {
            rng.next_f64() - 0.5
        } else {
            0.0
        }
    });
    let c: Vec<f64> = (0..300).map(|i| (i % 4) as f64 * 0.5).collect();
    let sparse = CsrMatrix::from_dense(x.view());
    for extra in [None, Some(2.0)] {
        let p = 40 + usize::from(extra.is_some());
        let mut exact = Matrix::zeros(p, p);
        for n in 0..300 {
            let row = |j: usize| if j < 40 { x[[n, j]] } else { extra.unwrap() };
            for a in 0..p {
                for b in 0..p {
                    exact[(a, b)] += c[n] * row(a) * row(b);
                }
            }
        }
        let (mut dense_g, mut sparse_g) = (Matrix::zeros(p, p), Matrix::zeros(p, p));
        add_weighted_gram(&x, 0..300, &c, extra, &mut dense_g);
        add_weighted_gram(&sparse, 10..300, &c[10..], extra, &mut sparse_g);
        add_weighted_gram(&sparse, 0..10, &c[..10], extra, &mut sparse_g);
        for b in 0..p {
            for a in 0..=b {
                assert!((dense_g[(a, b)] - exact[(a, b)]).abs() < 1e-12);
                assert!((sparse_g[(a, b)] - exact[(a, b)]).abs() < 1e-12);
            }
        }
    }
}
