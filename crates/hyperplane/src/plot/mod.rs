//! Plots as SVG text: line charts (curves against N, log scales, bands), learning curves
//! and decision regions of any fitted pipeline on 2-D data.
//!
//! Every function renders into an in-memory `String` of SVG (drawn with `plotters`' SVG
//! backend, no font or system library involved) and [`write_svg`] saves it atomically.
//! Every plot has a title, axis labels and a legend, and is sized in pixels (800 x 600
//! reads well). Bad input is an [`Error`], never a panic: an empty or
//! non-finite series, a log axis with a value `<= 0`, a model that does not take 2
//! numeric features.
//!
//! | plot | function | shows |
//! |---|---|---|
//! | line chart | [`line_chart_svg`] | several [`Series`] against one x: lines, dashed lines, points, mean ± std bands; optional log x / log y |
//! | learning curve | [`learning_curve_svg`] | E_in and E_out (mean ± std over folds) against the training size, from [`crate::select::learning_curve`] |
//! | decision regions | [`boundary_svg`] | a grid shaded by predicted class, the boundary between regions, the points by true class, optional lines `w.x + b = 0` (and margins `w.x + b = ±1`, from [`linear_boundaries`] for linear models) |
//! | PLA's walk | [`pla_svg`] | the perceptron's line after each update (older fainter), the final line bold |
//! | error bars against N | [`bounds_chart`] | the VC bound `sqrt(8/N ln(4 m_H(2N)/delta))` (polynomial, binomial) beside Hoeffding for one hypothesis, log-log |
//! | growth functions | [`growth_chart`] | `m_H(N)` beside `2^N` and the bounds `N^d_vc + 1`, `B(N, k)`, log y |
//! | linear-regression learning curve | [`linreg_curve_chart`] | measured `E_in`, `E_out` beside `sigma^2 (1 -/+ (d+1)/N)` |
//! | a network's training | [`loss_curve_chart`] | the loss after each epoch, with early stopping the validation error `1 - score` |
//!
//! ## A bound against N on a log scale
//!
//! ```
//! use hyperplane::plot::{line_chart_svg, LineChart, Series};
//!
//! let n: Vec<f64> = (1..=20).map(|k| 100.0 * k as f64).collect();
//! // Hoeffding: P[|nu - mu| > eps] <= 2 exp(-2 eps^2 N), eps = 0.1
//! let hoeffding = n.iter().map(|&n| (n, 2.0 * (-2.0 * 0.01 * n).exp())).collect();
//! let chart = LineChart {
//!     title: "Hoeffding bound, eps = 0.1".into(),
//!     x_label: "N".into(),
//!     y_label: "bound on P[|nu - mu| > eps]".into(),
//!     log_y: true,
//!     series: vec![Series::line("2 exp(-2 eps^2 N)", hoeffding)],
//!     ..LineChart::default()
//! };
//! let svg = line_chart_svg(&chart, 800, 600)?;
//! assert!(svg.starts_with("<svg") && svg.contains("Hoeffding bound"));
//! // hyperplane::plot::write_svg("hoeffding.svg".as_ref(), &svg)?;
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! PNG is not offered: plotters' bitmap backend needs a font rasteriser (`ttf` with system
//! fonts, or `ab_glyph` with a bundled font file) to draw any text; SVG leaves text to the
//! viewer.

mod boundary;
mod learning_curve;
mod line;
mod loss_curve;
mod pla;
mod theory;

pub use boundary::{
    boundary_svg, input_points_2d, linear_boundaries, BoundaryOptions, LinearBoundary,
};
pub use learning_curve::learning_curve_svg;
pub use line::{line_chart_svg, LegendPosition, LineChart, Series, SeriesStyle};
pub use loss_curve::loss_curve_chart;
pub use pla::{pla_svg, PlaOptions};
pub use theory::{
    bounds_chart, bounds_table, growth_chart, growth_table, linreg_curve_chart, log_spaced,
    BoundsRow, BoundsTable, GrowthRow, GrowthTable, Tolerance, GROWTH_N_MAX,
};

use std::path::Path;

use plotters::style::RGBColor;

use crate::error::{Error, Result};

/// Writes SVG text to `path` atomically (temporary file, fsync, rename), as model files are.
pub fn write_svg(path: &Path, svg: &str) -> Result<()> {
    crate::persist::write_atomically(path, svg.as_bytes())
}

/// Smallest and largest plot sides accepted, in pixels.
const MIN_SIDE: u32 = 200;
const MAX_SIDE: u32 = 10_000;

fn check_size(width: u32, height: u32) -> Result<()> {
    for (name, v) in [("width", width), ("height", height)] {
        if !(MIN_SIDE..=MAX_SIDE).contains(&v) {
            return Err(Error::param(
                name,
                v,
                format!("plot sides must be between {MIN_SIDE} and {MAX_SIDE} pixels"),
            ));
        }
    }
    Ok(())
}

/// A drawing error of the SVG backend (writing into a `String` does not fail in practice).
fn draw_error(e: impl std::fmt::Display) -> Error {
    Error::data(format!("drawing the plot failed: {e}"))
}

/// Tableau 10: distinct colours, cycled past ten series or classes.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// `colour(i)` mixed with white: `c + t (255 - c)` per channel, `t = 0.7`.
fn pastel(i: usize) -> RGBColor {
    let RGBColor(r, g, b) = colour(i);
    let mix = |c: u8| (c as f64 + 0.7 * (255.0 - c as f64)).round() as u8;
    RGBColor(mix(r), mix(g), mix(b))
}

/// Tick text: plain decimals for moderate magnitudes, `1e6` style otherwise; `|v| <= zero`
/// prints `0` (a linear axis passes a tiny fraction of its span, hiding rounding noise
/// such as `2.2e-16`).
fn tick_text(v: f64, zero: f64) -> String {
    let a = v.abs();
    if a <= zero {
        "0".to_string()
    } else if !(1e-3..1e5).contains(&a) {
        let s = format!("{v:e}");
        // 1.0e6 -> 1e6
        s.replacen(".0e", "e", 1)
    } else {
        let s = format!("{v:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" {
            "0".to_string()
        } else {
            s.to_string()
        }
    }
}

/// Font sizes for a plot of this height: title, axis descriptions, ticks and legend
/// (plotters draws text at 1 / 1.24 of the size asked, so 30 gives 24 px at 600 px high).
fn font_sizes(height: u32) -> (u32, u32, u32) {
    let h = height as f64 / 600.0;
    let px = |base: f64| (base * h).round().max(10.0) as u32;
    (px(30.0), px(22.0), px(18.0))
}

#[cfg(test)]
pub(crate) mod svg_check;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick_text(0.0, 0.0), "0");
        assert_eq!(tick_text(0.25, 0.0), "0.25");
        assert_eq!(tick_text(100.0, 0.0), "100");
        assert_eq!(tick_text(1e6, 0.0), "1e6");
        assert_eq!(tick_text(2.5e-5, 0.0), "2.5e-5");
        assert_eq!(tick_text(-2.2e-16, 1e-9), "0");
        assert_eq!(tick_text(1e-20, 0.0), "1e-20");
    }

    #[test]
    fn sizes_and_pastels() {
        assert!(check_size(800, 600).is_ok());
        assert!(check_size(10, 600).is_err());
        assert!(check_size(800, 20_000).is_err());
        let RGBColor(r, g, b) = pastel(0);
        assert!(r > 180 && g > 180 && b > 180, "{r} {g} {b}");
        assert_eq!(colour(10), colour(0));
    }

    #[test]
    fn svg_is_written_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.svg");
        write_svg(&p, "<svg></svg>").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "<svg></svg>");
        let e = write_svg(&dir.path().join("no/such/dir/a.svg"), "<svg/>").unwrap_err();
        assert!(matches!(e, Error::Io { .. }), "{e}");
    }
}
