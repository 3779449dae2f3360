//! The bounding function `B(N, k)`: the most dichotomies on `N` points of any hypothesis set
//! with break point `k`,
//!
//! ```text
//! B(N, k) = sum_{i=0}^{k-1} C(N, i)        (exact: Sauer's lemma is tight)
//! B(N, k) <= B(N-1, k) + B(N-1, k-1)       (the course's recursion; equality holds for the sum)
//! ```
//!
//! with the boundary values `B(N, 1) = 1` and `B(N, k) = 2^N` for `k > N`.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::theory::bigint::BigUint;

/// `[C(n, 0), C(n, 1), ..., C(n, len-1)]`, exactly, by `C(n, i+1) = C(n, i) (n - i) / (i + 1)`
/// (each division is exact). Entries with `i > n` are zero.
fn binomial_row(n: u64, len: usize) -> Vec<BigUint> {
    let mut row = Vec::with_capacity(len);
    let mut c = BigUint::one();
    for i in 0..len as u64 {
        row.push(c.clone());
        if i >= n {
            c = BigUint::zero();
        } else {
            c = c * (n - i) / (i + 1);
        }
    }
    row
}

/// The binomial coefficient `C(n, k)`, exactly.
pub fn binomial(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k) as usize;
    binomial_row(n, k + 1).pop().unwrap_or_default()
}

/// `[B(n, 1), B(n, 2), ..., B(n, k_max)]`: prefix sums of one row of Pascal's triangle.
pub fn bounding_row(n: u64, k_max: usize) -> Vec<BigUint> {
    let mut sum = BigUint::zero();
    binomial_row(n, k_max)
        .iter()
        .map(|c| {
            sum += c;
            sum.clone()
        })
        .collect()
}

/// `B(N, k) = sum_{i<k} C(N, i)`, exactly. `B(N, 0) = 0` (the empty sum).
pub fn bounding(n: u64, k: u64) -> BigUint {
    if k == 0 {
        return BigUint::zero();
    }
    // Terms with i > N are zero, so no more than N + 1 of them are summed.
    let k = k.min(n.saturating_add(1)) as usize;
    bounding_row(n, k).pop().unwrap_or_default()
}

/// One cell of [`BoundTable`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoundCell {
    pub n: u64,
    pub k: u64,
    /// `B(N, k)`.
    pub value: BigUint,
    /// `B(N-1, k) + B(N-1, k-1)`, for `N >= 1`, `k >= 2` (where the recursion applies).
    pub recursion: Option<BigUint>,
}

/// `B(N, k)` for `N = 1..=n_max`, `k = 1..=k_max`, each beside the recursion's right side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoundTable {
    pub n_max: u64,
    pub k_max: u64,
    /// Row-major: `cells[(N-1) * k_max + (k-1)]`.
    pub cells: Vec<BoundCell>,
}

/// Largest `n_max` and `k_max` a table accepts.
pub const TABLE_LIMIT: u64 = 10_000;

impl BoundTable {
    /// Computes every cell directly from the sum (so the recursion column is a real check).
    ///
    /// `1 <= n_max, k_max <= 10000`.
    pub fn new(n_max: u64, k_max: u64) -> Result<Self> {
        for (name, v) in [("n_max", n_max), ("k_max", k_max)] {
            if !(1..=TABLE_LIMIT).contains(&v) {
                return Err(Error::param(
                    name,
                    v,
                    format!("must be between 1 and {TABLE_LIMIT}"),
                ));
            }
        }
        let km = k_max as usize;
        let mut previous = bounding_row(0, km);
        let mut cells = Vec::with_capacity(n_max as usize * km);
        for n in 1..=n_max {
            let row = bounding_row(n, km);
            for k in 1..=km {
                let recursion = (k >= 2).then(|| &previous[k - 1] + &previous[k - 2]);
                cells.push(BoundCell {
                    n,
                    k: k as u64,
                    value: row[k - 1].clone(),
                    recursion,
                });
            }
            previous = row;
        }
        Ok(BoundTable {
            n_max,
            k_max,
            cells,
        })
    }

    /// The cell `(N, k)`, when inside the table.
    pub fn get(&self, n: u64, k: u64) -> Option<&BoundCell> {
        if n == 0 || k == 0 || n > self.n_max || k > self.k_max {
            return None;
        }
        self.cells.get(((n - 1) * self.k_max + (k - 1)) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `B(N, k)` for `N, k <= 10` by Pascal's triangle in `u128`, independent of the library.
    fn pascal_b(n: usize, k: usize) -> u128 {
        let mut c = vec![vec![0u128; 12]; 12];
        for i in 0..12 {
            c[i][0] = 1;
            for j in 1..=i {
                c[i][j] = c[i - 1][j - 1] + c[i - 1][j];
            }
        }
        (0..k).map(|i| c[n][i]).sum()
    }

    #[test]
    fn hand_checked_values() {
        assert_eq!(bounding(4, 3).to_string(), "11");
        assert_eq!(bounding(3, 2).to_string(), "4");
        assert_eq!(bounding(5, 1).to_string(), "1");
        assert_eq!(bounding(3, 9).to_string(), "8"); // k > N: 2^N
        assert_eq!(bounding(7, 0).to_string(), "0");
        assert_eq!(binomial(10, 3).to_string(), "120");
        assert_eq!(binomial(3, 5), BigUint::zero());
        assert_eq!(
            binomial(100, 50).to_string(),
            "100891344545564193334812497256"
        );
        assert_eq!(bounding(200, 201), BigUint::pow2(200));
    }

    #[test]
    fn table_to_ten_matches_pascal_and_the_recursion_is_equality() {
        let t = BoundTable::new(10, 10).unwrap();
        assert_eq!(t.cells.len(), 100);
        // The first rows written out by hand (course table: rows N, columns k).
        let hand: [[u128; 5]; 4] = [
            [1, 2, 2, 2, 2],
            [1, 3, 4, 4, 4],
            [1, 4, 7, 8, 8],
            [1, 5, 11, 15, 16],
        ];
        for (n, row) in hand.iter().enumerate() {
            for (k, &v) in row.iter().enumerate() {
                assert_eq!(
                    t.get(n as u64 + 1, k as u64 + 1).unwrap().value,
                    BigUint::from(v)
                );
            }
        }
        for n in 1..=10u64 {
            for k in 1..=10u64 {
                let cell = t.get(n, k).unwrap();
                assert_eq!(
                    cell.value,
                    BigUint::from(pascal_b(n as usize, k as usize)),
                    "B({n},{k})"
                );
                match &cell.recursion {
                    Some(r) => assert_eq!(r, &cell.value),
                    None => assert_eq!(k, 1),
                }
            }
        }
        assert!(t.get(11, 1).is_none() && t.get(0, 1).is_none());
    }

    #[test]
    fn table_limits() {
        assert!(BoundTable::new(0, 3).is_err());
        assert!(BoundTable::new(3, TABLE_LIMIT + 1).is_err());
    }

    proptest! {
        #[test]
        fn recursion_and_limits(n in 1u64..400, k in 1u64..60) {
            let b = bounding(n, k);
            prop_assert_eq!(&b, &(&bounding(n - 1, k) + &bounding(n - 1, k - 1)));
            prop_assert!(b <= BigUint::pow2(n as usize));
            prop_assert_eq!(b == BigUint::pow2(n as usize), k > n);
            if k <= n {
                prop_assert_eq!(binomial(n, k), binomial(n, n - k));
            }
        }
    }
}
