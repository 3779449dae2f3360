//! Learning theory: is learning feasible, and how many samples does it take?
//!
//! A short tour, in the order of the course (NTU "Machine Learning Foundations" /
//! Learning From Data), with the formula each function computes.
//!
//! **1. One hypothesis: Hoeffding** ([`hoeffding`]). For `N` independent samples the
//! in-sample frequency `nu` is close to the true `mu`:
//! `P[|nu - mu| > eps] <= 2 exp(-2 eps^2 N)`; over `M` hypotheses, by the union bound,
//! `2 M exp(-2 eps^2 N)`. [`hoeffding_delta`], [`hoeffding_epsilon`] and
//! [`hoeffding_sample_size`] give each of `delta`, `eps`, `N` from the other two.
//! The [coin experiment](coins) shows why the hypothesis must be fixed before the data:
//! the coin with the fewest heads breaks the bound.
//!
//! **2. Infinitely many hypotheses: the growth function** ([`growth`]). Replace `M` by
//! `m_H(N)`, the number of dichotomies `H` realises on `N` points: `N + 1` for positive
//! rays, `N(N+1)/2 + 1` for intervals, `2^N` for convex sets, `2 sum_{k<=d} C(N-1, k)` for
//! perceptrons in `d` dimensions. A *break point* `k` is a size no `k` points of which are
//! shattered; the VC dimension `d_vc = k - 1`.
//!
//! **3. A break point bounds everything** ([`bounding()`]). With break point `k`,
//! `m_H(N) <= B(N, k) = sum_{i<k} C(N, i)`, a polynomial of degree `k - 1`
//! ([`BoundTable`] shows `B(N, k)` beside its recursion `B(N-1, k) + B(N-1, k-1)`).
//!
//! **4. Checking it on points** ([`shatter`]). [`count_dichotomies`] counts the dichotomies a
//! set realises on given points (an exact LP test per dichotomy for perceptrons);
//! [`is_shattered`] says whether all `2^N` are.
//!
//! **5. The VC bound** ([`vc`]). `P[|E_in - E_out| > eps] <= 4 m_H(2N) exp(-eps^2 N / 8)`:
//! [`vc_delta`], the error bar `Omega = sqrt(8/N ln(4 m_H(2N)/delta))` ([`vc_epsilon`]), and
//! the sample complexity [`vc_sample_size`] (`d_vc = 3`, `eps = delta = 0.1`: `N = 29,300`,
//! against the rule of thumb `N >= 10 d_vc`). A polynomial transform `Phi_Q` of `d` inputs
//! has [`poly_dimension`]` = C(Q + d, d)` coordinates, so `d_vc <= C(Q + d, d)`.
//!
//! ```
//! use hyperplane::theory::*;
//!
//! assert_eq!(HypothesisSet::PositiveIntervals.growth(5).to_string(), "16");
//! assert_eq!(bounding(4, 3).to_string(), "11");
//! let n = vc_sample_size(0.1, 0.1, &GrowthBound::Polynomial { dvc: 3 })?;
//! assert_eq!(n, 29_300);
//! let square = ndarray::array![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]];
//! let d = count_dichotomies(square.view(), &HypothesisSet::Perceptron { d: 2 })?;
//! assert_eq!((d.realised, d.possible), (14, 16)); // all but the two XOR labellings
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! Exact where the mathematics is exact: growth functions and `B(N, k)` are big integers
//! ([`BigUint`], `num-bigint`'s, printed and serialised in full as decimal text); bounds are
//! `f64` computed in log space (so `m_H(2N)` never overflows); the separability test is an
//! LP with documented tolerances ([`simplex`]).

pub mod bigint;
pub mod bounding;
pub mod coins;
pub mod growth;
pub mod hoeffding;
pub mod shatter;
pub mod simplex;
pub mod vc;

pub use bigint::BigUint;
pub use bounding::{binomial, bounding, bounding_row, BoundCell, BoundTable};
pub use coins::{CoinExperiment, CoinParams, CoinSummary, TailRow};
pub use growth::HypothesisSet;
pub use hoeffding::{hoeffding_delta, hoeffding_epsilon, hoeffding_sample_size};
pub use shatter::{count_dichotomies, is_shattered, Dichotomies};
pub use vc::{poly_dimension, vc_delta, vc_epsilon, vc_sample_size, GrowthBound};
