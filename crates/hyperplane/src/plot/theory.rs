//! Pictures of learning theory: the VC and Hoeffding error bars against `N`, growth
//! functions beside `2^N`, and the linear-regression learning curve beside its theory.
//!
//! Each chart is built from a table ([`BoundsTable`], [`GrowthTable`],
//! [`LearningCurve`]) so that a caller can print the same numbers it draws.

use serde::Serialize;

use super::line::{LineChart, Series};
use crate::error::{Error, Result};
use crate::linear::experiment::{LearningCurve, LearningCurvePoint};
use crate::theory::{
    hoeffding_epsilon, vc_epsilon, vc_sample_size, BigUint, GrowthBound, HypothesisSet,
};

/// The error bars at one sample size `N`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoundsRow {
    pub n: u64,
    /// `Omega = sqrt(8/N ln(4 m_H(2N)/delta))` with `m_H(N) <= N^{d_vc} + 1`.
    pub eps_vc: f64,
    /// The same with `m_H(N) <= B(N, d_vc + 1)`, when asked for.
    pub eps_vc_binomial: Option<f64>,
    /// `sqrt(ln(2/delta) / (2N))`: one hypothesis fixed before the data.
    pub eps_hoeffding: f64,
}

/// A target tolerance `eps` and the VC sample size it needs (polynomial bound).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tolerance {
    pub eps: f64,
    pub n_vc: u64,
}

/// The VC and Hoeffding error bars over sample sizes, for one `d_vc` and `delta`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoundsTable {
    pub dvc: u64,
    pub delta: f64,
    pub rows: Vec<BoundsRow>,
    pub tolerances: Vec<Tolerance>,
}

/// About `count` sample sizes spaced evenly on a log scale from 1 to `n_max`, each once.
pub fn log_spaced(n_max: u64, count: usize) -> Vec<u64> {
    let top = (n_max.max(1) as f64).ln();
    let mut ns: Vec<u64> = (0..count.max(2))
        .map(|k| (top * k as f64 / (count.max(2) - 1) as f64).exp().round() as u64)
        .map(|n| n.clamp(1, n_max.max(1)))
        .collect();
    ns.dedup();
    ns
}

/// The error bars at each `N` of `ns`: the VC bound (polynomial, and binomial when
/// `binomial`) and the single-hypothesis Hoeffding bound, plus the VC sample size of each
/// tolerance in `eps`.
pub fn bounds_table(
    dvc: u64,
    delta: f64,
    ns: &[u64],
    binomial: bool,
    eps: &[f64],
) -> Result<BoundsTable> {
    if ns.is_empty() {
        return Err(Error::param("n", "none", "give at least one sample size"));
    }
    let poly = GrowthBound::Polynomial { dvc };
    let binom = GrowthBound::Binomial { dvc };
    let rows = ns
        .iter()
        .map(|&n| {
            Ok(BoundsRow {
                n,
                eps_vc: vc_epsilon(n, delta, &poly)?,
                eps_vc_binomial: binomial.then(|| vc_epsilon(n, delta, &binom)).transpose()?,
                eps_hoeffding: hoeffding_epsilon(n, delta, 1)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let tolerances = eps
        .iter()
        .map(|&e| {
            Ok(Tolerance {
                eps: e,
                n_vc: vc_sample_size(e, delta, &poly)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(BoundsTable {
        dvc,
        delta,
        rows,
        tolerances,
    })
}

/// The error bars against `N`, both axes logarithmic: the VC bound, the binomial VC
/// bound dashed (when in the table), Hoeffding for one hypothesis, and a dashed level
/// line per tolerance.
pub fn bounds_chart(t: &BoundsTable) -> LineChart {
    let curve = |f: &dyn Fn(&BoundsRow) -> Option<f64>| -> Vec<(f64, f64)> {
        t.rows
            .iter()
            .filter_map(|r| f(r).map(|v| (r.n as f64, v)))
            .collect()
    };
    let mut series = vec![Series::line(
        format!("VC: m_H(N) <= N^{} + 1", t.dvc),
        curve(&|r| Some(r.eps_vc)),
    )];
    let binomial = curve(&|r| r.eps_vc_binomial);
    if !binomial.is_empty() {
        series.push(Series::dashed(
            format!("VC: m_H(N) <= B(N, {})", t.dvc + 1),
            binomial,
        ));
    }
    series.push(Series::line(
        "Hoeffding, one hypothesis",
        curve(&|r| Some(r.eps_hoeffding)),
    ));
    let (first, last) = (
        t.rows.first().map_or(1.0, |r| r.n as f64),
        t.rows.last().map_or(1.0, |r| r.n as f64),
    );
    for tol in &t.tolerances {
        series.push(Series::dashed(
            format!("eps = {} (VC needs N = {})", tol.eps, tol.n_vc),
            vec![(first, tol.eps), (last, tol.eps)],
        ));
    }
    LineChart {
        title: format!(
            "Generalisation error bars, d_vc = {}, delta = {}",
            t.dvc, t.delta
        ),
        x_label: "sample size N".into(),
        y_label: "eps: |E_in - E_out| <= eps w.p. 1 - delta".into(),
        log_x: true,
        log_y: true,
        series,
        ..LineChart::default()
    }
}

/// The growth function of a set at one `N`, beside `2^N` and the bounds from its VC
/// dimension.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GrowthRow {
    pub n: u64,
    /// `m_H(N)`.
    pub growth: BigUint,
    /// `2^N`.
    pub two_to_n: BigUint,
    /// `N^{d_vc} + 1` (none for an infinite VC dimension).
    pub polynomial: Option<BigUint>,
    /// `B(N, d_vc + 1)` (none for an infinite VC dimension).
    pub binomial: Option<BigUint>,
}

/// `m_H(N)` of a hypothesis set for `N = 1..=n_max`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GrowthTable {
    pub set: HypothesisSet,
    pub vc_dimension: Option<u64>,
    pub break_point: Option<u64>,
    pub rows: Vec<GrowthRow>,
}

/// Largest `N` a growth chart takes: `2^N` and `N^{d_vc}` must fit a log axis of at most
/// 300 decades (`2^996 < 10^300`).
pub const GROWTH_N_MAX: u64 = 996;

/// The growth table of `set` for `N = 1..=n_max` (`1 <= n_max <= 996`).
pub fn growth_table(set: HypothesisSet, n_max: u64) -> Result<GrowthTable> {
    if !(1..=GROWTH_N_MAX).contains(&n_max) {
        return Err(Error::param(
            "n_max",
            n_max,
            format!("must be between 1 and {GROWTH_N_MAX} (2^N must fit a log axis)"),
        ));
    }
    let dvc = set.vc_dimension();
    let rows = (1..=n_max)
        .map(|n| GrowthRow {
            n,
            growth: set.growth(n),
            two_to_n: BigUint::pow2(n as usize),
            polynomial: dvc.map(|d| GrowthBound::Polynomial { dvc: d }.growth(n)),
            binomial: dvc.map(|d| GrowthBound::Binomial { dvc: d }.growth(n)),
        })
        .collect();
    Ok(GrowthTable {
        set,
        vc_dimension: dvc,
        break_point: set.break_point(),
        rows,
    })
}

/// `m_H(N)` beside `2^N` on a log y axis, with the polynomial bound `N^{d_vc} + 1` and
/// `B(N, k)` dashed when the VC dimension is finite.
pub fn growth_chart(t: &GrowthTable) -> LineChart {
    let curve = |f: &dyn Fn(&GrowthRow) -> Option<&BigUint>| -> Vec<(f64, f64)> {
        t.rows
            .iter()
            .filter_map(|r| f(r).map(|v| (r.n as f64, v.to_f64())))
            .collect()
    };
    let mut series = vec![
        Series::line("2^N (all dichotomies)", curve(&|r| Some(&r.two_to_n))),
        Series::line(format!("m_H(N), {}", t.set), curve(&|r| Some(&r.growth))),
    ];
    if let (Some(d), Some(k)) = (t.vc_dimension, t.break_point) {
        series.push(Series::dashed(
            format!("N^{d} + 1"),
            curve(&|r| r.polynomial.as_ref()),
        ));
        series.push(Series::dashed(
            format!("B(N, {k})"),
            curve(&|r| r.binomial.as_ref()),
        ));
    }
    let vc = match (t.vc_dimension, t.break_point) {
        (Some(d), Some(k)) => format!("d_vc = {d}, break point {k}"),
        _ => "d_vc infinite, no break point".to_string(),
    };
    LineChart {
        title: format!("Growth function of {}: {vc}", t.set),
        x_label: "number of points N".into(),
        y_label: "dichotomies".into(),
        log_y: true,
        series,
        ..LineChart::default()
    }
}

/// The linear-regression learning curve: measured `E_in` and `E_out` as markers, the
/// theory `sigma^2 (1 -/+ (d + 1)/N)` dashed (on a fine grid of `N`), and the noise level
/// `sigma^2` as a line. The x axis is logarithmic when the sizes span a factor of 100.
pub fn linreg_curve_chart(curve: &LearningCurve) -> Result<LineChart> {
    let s = &curve.setup;
    let (lo, hi) = match (curve.points.first(), curve.points.last()) {
        (Some(a), Some(b)) => (a.n as f64, b.n as f64),
        _ => return Err(Error::data("the learning curve has no points")),
    };
    let log_x = hi >= 100.0 * lo;
    let grid: Vec<f64> = (0..=100)
        .map(|k| {
            let t = k as f64 / 100.0;
            if log_x {
                lo * (hi / lo).powf(t)
            } else {
                lo + t * (hi - lo)
            }
        })
        .collect();
    let sigma2 = s.sigma * s.sigma;
    let p = (s.d + 1) as f64;
    let theory = |sign: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .map(|&n| (n, sigma2 * (1.0 + sign * p / n)))
            .collect()
    };
    let measured = |f: fn(&LearningCurvePoint) -> f64| -> Vec<(f64, f64)> {
        curve.points.iter().map(|pt| (pt.n as f64, f(pt))).collect()
    };
    Ok(LineChart {
        title: format!(
            "Linear regression learning curve: d = {}, sigma = {}, {} runs",
            s.d, s.sigma, s.runs
        ),
        x_label: "sample size N".into(),
        y_label: "mean squared error".into(),
        log_x,
        series: vec![
            Series::points("E_in measured", measured(|pt| pt.e_in)),
            Series::points("E_out measured", measured(|pt| pt.e_out)),
            Series::dashed("sigma^2 (1 - (d+1)/N)", theory(-1.0)),
            Series::dashed("sigma^2 (1 + (d+1)/N)", theory(1.0)),
            Series::line("sigma^2 (noise level)", vec![(lo, sigma2), (hi, sigma2)]),
        ],
        ..LineChart::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::experiment::{learning_curve, LearningCurveSetup};
    use crate::plot::line_chart_svg;
    use crate::plot::svg_check::{check_well_formed, has_text};

    #[test]
    fn bounds_table_matches_the_formulas_and_renders() {
        let ns = log_spaced(100_000, 40);
        assert_eq!((ns[0], *ns.last().unwrap()), (1, 100_000));
        assert!(ns.windows(2).all(|w| w[0] < w[1]));
        let t = bounds_table(3, 0.05, &ns, true, &[0.1]).unwrap();
        let r = t.rows.iter().find(|r| r.n == 100_000).unwrap();
        let want = (8.0 / 1e5 * (4.0 * (2e5f64.powi(3) + 1.0) / 0.05).ln()).sqrt();
        assert!((r.eps_vc / want - 1.0).abs() < 1e-12, "{}", r.eps_vc);
        assert!(((r.eps_hoeffding) / ((2.0f64 / 0.05).ln() / 2e5).sqrt() - 1.0).abs() < 1e-12);
        // Binomial is tighter than polynomial; both are far above Hoeffding.
        for r in &t.rows {
            let b = r.eps_vc_binomial.unwrap();
            assert!(b <= r.eps_vc && r.eps_hoeffding < b, "{r:?}");
        }
        assert_eq!(
            t.tolerances[0].n_vc,
            vc_sample_size(0.1, 0.05, &GrowthBound::Polynomial { dvc: 3 }).unwrap()
        );
        let svg = line_chart_svg(&bounds_chart(&t), 800, 600).unwrap();
        check_well_formed(&svg).unwrap();
        for text in [
            "Generalisation error bars, d_vc = 3, delta = 0.05",
            "sample size N",
            // `<` is escaped in SVG text.
            "VC: m_H(N) &lt;= N^3 + 1",
            "VC: m_H(N) &lt;= B(N, 4)",
            "Hoeffding, one hypothesis",
        ] {
            assert!(has_text(&svg, text), "{text}");
        }
        assert!(bounds_table(3, 1.5, &ns, false, &[]).is_err());
        assert!(bounds_table(3, 0.05, &[], false, &[]).is_err());
    }

    #[test]
    fn growth_table_and_chart() {
        let t = growth_table(HypothesisSet::Perceptron { d: 2 }, 30).unwrap();
        assert_eq!(t.rows.len(), 30);
        assert_eq!(t.rows[4].growth.to_u64(), Some(22)); // N = 5: 25 - 5 + 2
        assert_eq!(t.rows[4].two_to_n.to_u64(), Some(32));
        assert_eq!(t.rows[4].polynomial.as_ref().unwrap().to_u64(), Some(126));
        assert_eq!(t.rows[4].binomial.as_ref().unwrap().to_u64(), Some(26));
        let svg = line_chart_svg(&growth_chart(&t), 800, 600).unwrap();
        check_well_formed(&svg).unwrap();
        for text in [
            "Growth function of perceptrons in 2-D: d_vc = 3, break point 4",
            "2^N (all dichotomies)",
            "N^3 + 1",
            "B(N, 4)",
            "dichotomies",
        ] {
            assert!(has_text(&svg, text), "{text}");
        }
        let convex = growth_chart(&growth_table(HypothesisSet::ConvexSets, 996).unwrap());
        assert_eq!(convex.series.len(), 2);
        check_well_formed(&line_chart_svg(&convex, 800, 600).unwrap()).unwrap();
        assert!(growth_table(HypothesisSet::PositiveRays, 997).is_err());
        assert!(growth_table(HypothesisSet::PositiveRays, 0).is_err());
    }

    #[test]
    fn linreg_curve_renders_measured_and_theory() {
        let setup = LearningCurveSetup {
            d: 3,
            sigma: 0.5,
            sizes: vec![10, 20, 40, 80, 1280],
            runs: 50,
            seed: 1,
        };
        let curve = learning_curve(&setup).unwrap();
        let chart = linreg_curve_chart(&curve).unwrap();
        assert!(chart.log_x);
        let svg = line_chart_svg(&chart, 800, 600).unwrap();
        check_well_formed(&svg).unwrap();
        for text in [
            "Linear regression learning curve: d = 3, sigma = 0.5, 50 runs",
            "E_in measured",
            "E_out measured",
            "sigma^2 (1 + (d+1)/N)",
            "sigma^2 (noise level)",
            "mean squared error",
        ] {
            assert!(has_text(&svg, text), "{text}");
        }
        let empty = LearningCurve {
            setup,
            points: vec![],
        };
        assert!(linreg_curve_chart(&empty).is_err());
    }
}
