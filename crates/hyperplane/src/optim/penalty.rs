//! The regulariser of an objective `f(w) = r(w) + sum_n loss_n(w)`:
//!
//! ```text
//! None   r(w) = 0
//! L2     r(w) = lambda/2 sum_{j in S} w_j^2      grad_j = lambda w_j [j in S]      H = lambda I_S
//! ```
//!
//! with strength `lambda >= 0` over the penalised parameters `S`, a set of index ranges. The
//! linear models penalise their weights and not their intercepts with `lambda = 1`
//! (`S = 0..p`, the weights laid out first: [`Penalty::l2`]); a network's loss in
//! scikit-learn's convention, `alpha/2 ||W||^2 / n` over the weight matrices and not the
//! biases, is `Penalty::L2 { strength: alpha / n, penalised }` with one range per weight
//! matrix, whatever the order of its parameters.
//!
//! Along a line `w + a d`, `r(w + a d) = lambda/2 (w.w + 2 a w.d + a^2 d.d)` with the three
//! products over `S`: [`Penalty::line`] takes them once, and every trial step of a line
//! search costs `O(1)` for the penalty ([`PenaltyLine::at`]).
//!
//! Each method adds the penalty's terms after the data term's, in the order of the
//! parameters, so `f` is summed the same way for any objective.
//!
//! A function that is not a linear model's states its penalty itself, calling the same
//! methods around its data term:
//!
//! ```
//! use hyperplane::optim::{Differentiable, Function, Penalty};
//!
//! // parameters [W (2 values), b]: only W is penalised, with strength 0.5
//! let penalty = Penalty::L2 { strength: 0.5, penalised: vec![0..2] };
//! let mut f = Function::new(3, |w: &[f64], g: &mut [f64]| {
//!     // data term sum_j (w_j - 1)^2, then the penalty
//!     let mut data = 0.0;
//!     for (gj, wj) in g.iter_mut().zip(w) {
//!         *gj = 2.0 * (wj - 1.0);
//!         data += (wj - 1.0) * (wj - 1.0);
//!     }
//!     penalty.add_value_grad(data, w, g)
//! });
//! let mut g = vec![0.0; 3];
//! assert_eq!(f.value_grad(&[1.0, 2.0, 3.0], &mut g, false), 1.0 + 4.0 + 0.25 * (1.0 + 4.0));
//! assert_eq!(g, [0.5, 3.0, 4.0]);
//! ```

use std::ops::Range;

/// The regulariser `r(w)` of an objective (module doc).
#[derive(Clone, Debug, PartialEq)]
pub enum Penalty {
    /// `r(w) = 0`.
    None,
    /// `r(w) = lambda/2 sum_{j in S} w_j^2`.
    L2 {
        /// `lambda`.
        strength: f64,
        /// `S`: the penalised parameters, as index ranges.
        penalised: Vec<Range<usize>>,
    },
}

/// The penalty along the line `w + a d` of [`Penalty::line`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PenaltyLine {
    strength: f64,
    /// `w.w`, `w.d`, `d.d` over the penalised parameters.
    ww: f64,
    wd: f64,
    dd: f64,
}

impl Penalty {
    /// `1/2 sum_{j < p} w_j^2`: strength 1 over the first `p` parameters.
    pub fn l2(p: usize) -> Self {
        Penalty::L2 {
            strength: 1.0,
            penalised: std::iter::once(0..p).collect(),
        }
    }

    /// Adds `grad r(w)` to `grad`; returns `data + r(w)`, the terms of `r` added to `data`
    /// one by one in the order of the parameters.
    pub fn add_value_grad(&self, data: f64, w: &[f64], grad: &mut [f64]) -> f64 {
        let mut f = data;
        if let Penalty::L2 {
            strength,
            penalised,
        } = self
        {
            let half = 0.5 * strength;
            for r in penalised {
                for (g, &wj) in grad[r.clone()].iter_mut().zip(&w[r.clone()]) {
                    *g += strength * wj;
                    f += half * wj * wj;
                }
            }
        }
        f
    }

    /// Adds the penalty's Hessian times `v` to `out`.
    pub fn add_hess_vec(&self, v: &[f64], out: &mut [f64]) {
        if let Penalty::L2 {
            strength,
            penalised,
        } = self
        {
            for r in penalised {
                for (o, &vj) in out[r.clone()].iter_mut().zip(&v[r.clone()]) {
                    *o += strength * vj;
                }
            }
        }
    }

    /// Adds the diagonal of the penalty's Hessian to `out`.
    pub fn add_hess_diag(&self, out: &mut [f64]) {
        if let Penalty::L2 {
            strength,
            penalised,
        } = self
        {
            for r in penalised {
                out[r.clone()].iter_mut().for_each(|o| *o += strength);
            }
        }
    }

    /// The largest eigenvalue of the penalty's Hessian, at most: `lambda` (0 for `None`).
    pub fn curvature_bound(&self) -> f64 {
        match self {
            Penalty::None => 0.0,
            Penalty::L2 { strength, .. } => *strength,
        }
    }

    /// The penalty along `w + a d`: the products `w.w`, `w.d`, `d.d` over the penalised
    /// parameters, taken once.
    pub fn line(&self, w: &[f64], d: &[f64]) -> PenaltyLine {
        match self {
            Penalty::None => PenaltyLine::default(),
            Penalty::L2 {
                strength,
                penalised,
            } => {
                let over = |a: &[f64], b: &[f64]| -> f64 {
                    penalised
                        .iter()
                        .flat_map(|r| a[r.clone()].iter().zip(&b[r.clone()]))
                        .map(|(x, y)| x * y)
                        .sum()
                };
                PenaltyLine {
                    strength: *strength,
                    ww: over(w, w),
                    wd: over(w, d),
                    dd: over(d, d),
                }
            }
        }
    }
}

impl PenaltyLine {
    /// `(r(w + a d), d.grad r(w + a d))`: `lambda/2 (w.w + 2 a w.d + a^2 d.d)` and
    /// `lambda (w.d + a d.d)`.
    pub fn at(&self, a: f64) -> (f64, f64) {
        let PenaltyLine {
            strength,
            ww,
            wd,
            dd,
        } = *self;
        if strength == 0.0 {
            // no penalty: 0 for any step, even one whose a^2 overflows
            return (0.0, 0.0);
        }
        (
            0.5 * strength * (ww + 2.0 * a * wd + a * a * dd),
            strength * (wd + a * dd),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l2_follows_its_formula_over_its_ranges() {
        let p = Penalty::L2 {
            strength: 3.0,
            penalised: vec![0..1, 2..4],
        };
        let (w, d) = ([1.0, 2.0, -1.0, 0.5], [0.5, 1.0, 2.0, -2.0]);
        let mut g = [1.0; 4];
        // 10 + 3/2 (1 + 1 + 0.25), gradient 3 w_j on {0, 2, 3}
        assert_eq!(p.add_value_grad(10.0, &w, &mut g), 13.375);
        assert_eq!(g, [4.0, 1.0, -2.0, 2.5]);
        let (mut hv, mut diag) = ([0.0; 4], [0.0; 4]);
        p.add_hess_vec(&d, &mut hv);
        p.add_hess_diag(&mut diag);
        assert_eq!((hv, diag), ([1.5, 0.0, 6.0, -6.0], [3.0, 0.0, 3.0, 3.0]));
        assert_eq!(p.curvature_bound(), 3.0);
        let line = p.line(&w, &d);
        for a in [0.0, 0.5, -2.0] {
            let point: Vec<f64> = w.iter().zip(&d).map(|(w, d)| w + a * d).collect();
            let mut g = [0.0; 4];
            let r = p.add_value_grad(0.0, &point, &mut g);
            let slope: f64 = g.iter().zip(&d).map(|(g, d)| g * d).sum();
            let (r_line, slope_line) = line.at(a);
            assert!((r - r_line).abs() < 1e-12 && (slope - slope_line).abs() < 1e-12);
        }
    }

    #[test]
    fn none_penalises_nothing() {
        let (w, d) = ([1.0, -2.0], [3.0, 1.0]);
        let mut g = [0.5, 0.25];
        assert_eq!(Penalty::None.add_value_grad(7.0, &w, &mut g), 7.0);
        let (mut hv, mut diag) = ([0.0; 2], [0.0; 2]);
        Penalty::None.add_hess_vec(&d, &mut hv);
        Penalty::None.add_hess_diag(&mut diag);
        assert_eq!((g, hv, diag), ([0.5, 0.25], [0.0; 2], [0.0; 2]));
        assert_eq!(Penalty::None.curvature_bound(), 0.0);
        assert_eq!(Penalty::None.line(&w, &d).at(1e300), (0.0, 0.0));
    }
}
