//! The coin experiment (Learning From Data, exercise 1.10): Hoeffding holds for a coin fixed
//! in advance, not for a coin chosen after looking at the flips.
//!
//! Each run flips `coins` fair coins `flips` times each and records three frequencies of
//! heads: `nu_1` (the first coin), `nu_rand` (a coin picked at random) and `nu_min` (the coin
//! with the fewest heads, the first such on ties). Over `runs` runs it reports the mean of
//! each and, for each `eps`, the empirical `P[|nu - 0.5| > eps]` beside Hoeffding's bound
//! `2 exp(-2 eps^2 flips)`. `nu_1` and `nu_rand` respect the bound; `nu_min` does not.
//!
//! Speed: flips are bits of the generator's 64-bit words, a coin's heads a popcount. Each run
//! has its own generator seeded from `(seed, run)`, so runs go in parallel and the result
//! does not depend on the number of threads.

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::rng::Rng;

/// The coin experiment's parameters.
///
/// | name | default | meaning | valid range |
/// |---|---|---|---|
/// | `coins` | 1000 | coins per run | 1 ..= 10^7 |
/// | `flips` | 10 | flips per coin (`N` in Hoeffding) | 1 ..= 10^6 |
/// | `runs` | 10000 | independent repetitions | 1 ..= 10^9 |
/// | `seed` | 0 | seed of the whole experiment | any |
/// | `eps` | 0, 0.1, ..., 0.5 | deviations to report | each `>= 0`, finite |
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CoinParams {
    pub coins: usize,
    pub flips: u32,
    pub runs: u64,
    pub seed: u64,
    pub eps: Vec<f64>,
}

impl Default for CoinParams {
    fn default() -> Self {
        CoinParams {
            coins: 1000,
            flips: 10,
            runs: 10_000,
            seed: 0,
            eps: vec![0.0, 0.1, 0.2, 0.3, 0.4, 0.5],
        }
    }
}

impl CoinParams {
    /// Sets `coins`.
    pub fn coins(mut self, v: usize) -> Self {
        self.coins = v;
        self
    }
    /// Sets `flips`.
    pub fn flips(mut self, v: u32) -> Self {
        self.flips = v;
        self
    }
    /// Sets `runs`.
    pub fn runs(mut self, v: u64) -> Self {
        self.runs = v;
        self
    }
    /// Sets `seed`.
    pub fn seed(mut self, v: u64) -> Self {
        self.seed = v;
        self
    }
    /// Sets the deviations `eps` to report.
    pub fn eps(mut self, v: Vec<f64>) -> Self {
        self.eps = v;
        self
    }

    fn validate(&self) -> Result<()> {
        let ranges: [(&str, u64, u64); 3] = [
            ("coins", self.coins as u64, 10_000_000),
            ("flips", self.flips as u64, 1_000_000),
            ("runs", self.runs, 1_000_000_000),
        ];
        for (name, v, max) in ranges {
            if !(1..=max).contains(&v) {
                return Err(Error::param(
                    name,
                    v,
                    format!("must be between 1 and {max}"),
                ));
            }
        }
        if let Some(&e) = self.eps.iter().find(|e| !(e.is_finite() && **e >= 0.0)) {
            return Err(Error::param(
                "eps",
                e,
                "each eps must be a finite number >= 0",
            ));
        }
        Ok(())
    }

    /// Runs the experiment.
    pub fn run(&self) -> Result<CoinExperiment> {
        self.validate()?;
        let f = self.flips as usize;
        let histograms = (0..self.runs)
            .into_par_iter()
            .fold(
                || [vec![0u64; f + 1], vec![0u64; f + 1], vec![0u64; f + 1]],
                |mut h, run| {
                    let [first, random, min] = self.one_run(run);
                    h[0][first as usize] += 1;
                    h[1][random as usize] += 1;
                    h[2][min as usize] += 1;
                    h
                },
            )
            .reduce(
                || [vec![0u64; f + 1], vec![0u64; f + 1], vec![0u64; f + 1]],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(&b) {
                        for (u, v) in x.iter_mut().zip(y) {
                            *u += v;
                        }
                    }
                    a
                },
            );
        let coins = ["first", "random", "min"]
            .into_iter()
            .zip(histograms)
            .map(|(name, heads)| CoinSummary {
                name: name.to_string(),
                mean_nu: heads
                    .iter()
                    .enumerate()
                    .map(|(h, &c)| h as f64 * c as f64)
                    .sum::<f64>()
                    / (self.runs as f64 * self.flips as f64),
                heads,
            })
            .collect::<Vec<_>>();
        let rows = self
            .eps
            .iter()
            .map(|&eps| TailRow {
                eps,
                probability: coins
                    .iter()
                    .map(|c| tail(&c.heads, self.flips, eps, self.runs))
                    .collect(),
                hoeffding: 2.0 * (-2.0 * eps * eps * self.flips as f64).exp(),
            })
            .collect();
        Ok(CoinExperiment {
            params: self.clone(),
            coins,
            rows,
        })
    }

    /// Heads of the first coin, a random coin and the coin with the fewest heads in run `run`.
    fn one_run(&self, run: u64) -> [u32; 3] {
        let mut rng = Rng::new(self.seed ^ run.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let chosen = rng.below(self.coins);
        let (mut bits, mut left) = (0u64, 0u32);
        let (mut first, mut random, mut min) = (0, 0, u32::MAX);
        for coin in 0..self.coins {
            let mut heads = 0;
            let mut need = self.flips;
            while need > 0 {
                if left == 0 {
                    bits = rng.next_u64();
                    left = 64;
                }
                let take = need.min(left);
                let mask = if take == 64 {
                    u64::MAX
                } else {
                    (1u64 << take) - 1
                };
                heads += (bits & mask).count_ones();
                bits = bits.checked_shr(take).unwrap_or(0);
                left -= take;
                need -= take;
            }
            if coin == 0 {
                first = heads;
            }
            if coin == chosen {
                random = heads;
            }
            min = min.min(heads);
        }
        [first, random, min]
    }
}

/// `P[|h / F - 1/2| > eps]` from a histogram of heads, compared as `|2h - F| > 2 eps F`.
fn tail(heads: &[u64], flips: u32, eps: f64, runs: u64) -> f64 {
    let f = flips as i64;
    let hits: u64 = heads
        .iter()
        .enumerate()
        .filter(|&(h, _)| (2 * h as i64 - f).abs() as f64 > 2.0 * eps * f as f64)
        .map(|(_, &c)| c)
        .sum();
    hits as f64 / runs as f64
}

/// One of the three coins over all runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CoinSummary {
    /// `first`, `random` or `min`.
    pub name: String,
    /// Mean frequency of heads over the runs.
    pub mean_nu: f64,
    /// `heads[h]`: runs in which this coin showed `h` heads.
    pub heads: Vec<u64>,
}

/// Empirical tail probabilities at one `eps`, beside the Hoeffding bound.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TailRow {
    pub eps: f64,
    /// `P[|nu - 0.5| > eps]` for the first, random and min coins, in that order.
    pub probability: Vec<f64>,
    /// `2 exp(-2 eps^2 flips)`.
    pub hoeffding: f64,
}

/// The result of [`CoinParams::run`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CoinExperiment {
    pub params: CoinParams,
    /// First, random and min coin.
    pub coins: Vec<CoinSummary>,
    pub rows: Vec<TailRow>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> CoinParams {
        CoinParams::default().runs(2000).seed(42)
    }

    #[test]
    fn fixed_and_random_coins_respect_hoeffding_min_coin_does_not() {
        let e = small().run().unwrap();
        let [first, random, min] = [&e.coins[0], &e.coins[1], &e.coins[2]];
        // Mean of 20,000 fair flips: standard deviation 0.0035.
        assert!((first.mean_nu - 0.5).abs() < 0.015, "{}", first.mean_nu);
        assert!((random.mean_nu - 0.5).abs() < 0.015, "{}", random.mean_nu);
        // The minimum of 1000 coins is almost always 0 or 1 heads out of 10: mean ~ 0.038.
        assert!((0.02..0.06).contains(&min.mean_nu), "{}", min.mean_nu);
        for row in &e.rows {
            assert!(row.probability[0] <= row.hoeffding, "{row:?}");
            assert!(row.probability[1] <= row.hoeffding, "{row:?}");
        }
        // eps = 0.3: bound 2 e^-1.8 = 0.33, but nu_min <= 0.1 in nearly every run.
        let r = e.rows.iter().find(|r| r.eps == 0.3).unwrap();
        assert!(r.probability[2] > 0.9 && r.hoeffding < 0.34, "{r:?}");
        // eps = 0.1 exactly: |nu - 0.5| > 0.1 means 0..=3 or 7..=10 heads: P = 352/1024.
        let r = e.rows.iter().find(|r| r.eps == 0.1).unwrap();
        assert!((r.probability[0] - 352.0 / 1024.0).abs() < 0.04, "{r:?}");
        assert_eq!(e.coins[0].heads.iter().sum::<u64>(), 2000);
    }

    #[test]
    fn same_seed_same_result_whatever_the_thread_count() {
        let p = small().runs(300).flips(70);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let three = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let a = one.install(|| p.run().unwrap());
        let b = three.install(|| p.run().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, p.clone().seed(43).run().unwrap());
        // 70 flips span two words: the means still centre on 0.5.
        assert!((a.coins[0].mean_nu - 0.5).abs() < 0.03);
    }

    #[test]
    fn invalid_parameters() {
        assert!(CoinParams::default().coins(0).run().is_err());
        assert!(CoinParams::default().flips(0).run().is_err());
        assert!(CoinParams::default().runs(0).run().is_err());
        assert!(CoinParams::default().eps(vec![-0.1]).run().is_err());
    }
}
