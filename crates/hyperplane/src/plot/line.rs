//! Line charts: several series of `(x, y)` points against shared axes, linear or log.

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::{check_size, colour, draw_error, font_sizes, tick_text};
use crate::error::{Error, Result};

/// How a series is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum SeriesStyle {
    /// A solid line through the points, in x order as given.
    Line,
    /// A dashed line.
    Dashed,
    /// A marker at each point, no line.
    Points,
    /// A solid line with a marker at each point and a shaded band from `lower[i]` to
    /// `upper[i]` at each `x[i]` (for example mean ± one standard deviation).
    LineWithBand { lower: Vec<f64>, upper: Vec<f64> },
}

/// One named curve of a [`LineChart`]; its name is its legend entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub style: SeriesStyle,
}

impl Series {
    /// A solid line.
    pub fn line(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            name: name.into(),
            points,
            style: SeriesStyle::Line,
        }
    }
    /// A dashed line.
    pub fn dashed(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            style: SeriesStyle::Dashed,
            ..Series::line(name, points)
        }
    }
    /// Markers only.
    pub fn points(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series {
            style: SeriesStyle::Points,
            ..Series::line(name, points)
        }
    }
    /// A line with markers and a band `lower[i] ..= upper[i]` around each point.
    pub fn with_band(
        name: impl Into<String>,
        points: Vec<(f64, f64)>,
        lower: Vec<f64>,
        upper: Vec<f64>,
    ) -> Self {
        Series {
            style: SeriesStyle::LineWithBand { lower, upper },
            ..Series::line(name, points)
        }
    }

    /// Every y value the series draws (points and band edges).
    fn y_values(&self) -> impl Iterator<Item = f64> + '_ {
        let (lower, upper): (&[f64], &[f64]) = match &self.style {
            SeriesStyle::LineWithBand { lower, upper } => (lower, upper),
            _ => (&[], &[]),
        };
        self.points
            .iter()
            .map(|p| p.1)
            .chain(lower.iter().copied())
            .chain(upper.iter().copied())
    }
}

/// Where the legend box sits inside the plotting area.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LegendPosition {
    /// The corner whose box (40% of the width, 30% of the height) covers the fewest
    /// points; upper right on ties.
    #[default]
    Auto,
    UpperRight,
    UpperLeft,
    LowerRight,
    LowerLeft,
}

/// A chart of several series against shared axes.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `title` | `""` | caption above the plot |
/// | `x_label`, `y_label` | `""` | axis descriptions |
/// | `log_x`, `log_y` | `false` | base-10 log scale; every value on that axis must be `> 0` |
/// | `series` | none | at least one, each non-empty and finite, drawn in order, coloured in order |
/// | `legend` | auto | corner of the legend box (auto: the one covering the fewest points) |
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
    pub series: Vec<Series>,
    pub legend: LegendPosition,
}

impl LineChart {
    /// Checks every series and returns the data range `((x_min, x_max), (y_min, y_max))`.
    fn check(&self) -> Result<((f64, f64), (f64, f64))> {
        if self.series.is_empty() {
            return Err(Error::data(format!(
                "the chart {:?} has no series to draw",
                self.title
            )));
        }
        let mut xr = (f64::INFINITY, f64::NEG_INFINITY);
        let mut yr = (f64::INFINITY, f64::NEG_INFINITY);
        for s in &self.series {
            if s.points.is_empty() {
                return Err(Error::data(format!("series {:?} has no points", s.name)));
            }
            if let SeriesStyle::LineWithBand { lower, upper } = &s.style {
                if lower.len() != s.points.len() || upper.len() != s.points.len() {
                    return Err(Error::data(format!(
                        "series {:?} has {} points but its band has {} lower and {} upper values",
                        s.name,
                        s.points.len(),
                        lower.len(),
                        upper.len()
                    )));
                }
            }
            for (i, &(x, _)) in s.points.iter().enumerate() {
                check_value(&s.name, "x", i, x, self.log_x)?;
                xr = (xr.0.min(x), xr.1.max(x));
            }
            for (i, y) in s.y_values().enumerate() {
                check_value(&s.name, "y", i % s.points.len(), y, self.log_y)?;
                yr = (yr.0.min(y), yr.1.max(y));
            }
        }
        Ok((xr, yr))
    }
}

fn check_value(series: &str, axis: &str, i: usize, v: f64, log: bool) -> Result<()> {
    if !v.is_finite() {
        return Err(Error::data(format!(
            "series {series:?} has a non-finite {axis} value ({v}) at point {i}"
        )));
    }
    if log && v <= 0.0 {
        return Err(Error::data(format!(
            "series {series:?} has {axis} = {v} at point {i}, but the {axis} axis is logarithmic and needs values > 0"
        )));
    }
    Ok(())
}

/// Widest span of a log axis, in powers of ten.
const MAX_DECADES: f64 = 300.0;

/// The axis range: `[lo, hi]` widened by 5% of its span each side (by a factor on a log
/// axis); a single value gets a span around it.
fn axis_range((lo, hi): (f64, f64), log: bool) -> (f64, f64) {
    if log {
        // The padded ends and their ratio stay finite (at most 306 decades apart, within
        // 1e-307 ..= 1e307): an infinite ratio hangs plotters' tick search.
        let (l, h) = (lo.log10(), hi.log10());
        let pad = if h > l {
            (0.05 * (h - l)).min((306.0 - (h - l)) / 2.0).max(0.0)
        } else {
            0.5
        };
        (
            10f64.powf((l - pad).max(-307.0)),
            10f64.powf((h + pad).min(307.0)),
        )
    } else {
        let pad = if hi > lo {
            0.05 * (hi - lo)
        } else {
            0.5 * lo.abs().max(1.0)
        };
        (lo - pad, hi + pad)
    }
}

/// Renders `chart` as an SVG document of `width` x `height` pixels.
///
/// Errors: no series, an empty series, a non-finite value, a band of another length than
/// its series, a value `<= 0` on a log axis, a side outside `200..=10000` pixels.
pub fn line_chart_svg(chart: &LineChart, width: u32, height: u32) -> Result<String> {
    check_size(width, height)?;
    let (xr, yr) = chart.check()?;
    for (axis, (lo, hi), log) in [("x", xr, chart.log_x), ("y", yr, chart.log_y)] {
        if log && (hi / lo).log10() > MAX_DECADES {
            return Err(Error::data(format!(
                "the {axis} values span {lo:e} to {hi:e}, more than {MAX_DECADES} decades: too wide for a log axis"
            )));
        }
    }
    let (x0, x1) = axis_range(xr, chart.log_x);
    let (y0, y1) = axis_range(yr, chart.log_y);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        match (chart.log_x, chart.log_y) {
            (false, false) => draw(chart, &root, x0..x1, y0..y1),
            (true, false) => draw(chart, &root, (x0..x1).log_scale(), y0..y1),
            (false, true) => draw(chart, &root, x0..x1, (y0..y1).log_scale()),
            (true, true) => draw(chart, &root, (x0..x1).log_scale(), (y0..y1).log_scale()),
        }?;
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

/// A chart drawn into an SVG string.
pub(super) type Chart<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

/// The frame of a chart over `x` and `y` (`log` says which are logarithmic), ready for
/// series: `[title, x label, y label]`, mesh and ticks.
pub(super) fn frame<'a, 'b, X, Y>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    [title, x_label, y_label]: [&str; 3],
    log: [bool; 2],
    x: X,
    y: Y,
) -> Result<Chart<'a, 'b, X::CoordDescType, Y::CoordDescType>>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let (_, h) = root.dim_in_pixel();
    let (title_px, desc_px, tick_px) = font_sizes(h);
    root.fill(&WHITE).map_err(draw_error)?;
    let mut ctx = ChartBuilder::on(root)
        .caption(title, ("sans-serif", title_px))
        .margin(16)
        .x_label_area_size(desc_px * 3)
        .y_label_area_size(desc_px * 4)
        .build_cartesian_2d(x, y)
        .map_err(draw_error)?;
    // Rounding noise on a linear axis prints as 0.
    let zero = |r: std::ops::Range<f64>, log: bool| {
        if log {
            0.0
        } else {
            1e-9 * (r.end - r.start).abs()
        }
    };
    let (x_zero, y_zero) = (zero(ctx.x_range(), log[0]), zero(ctx.y_range(), log[1]));
    let x_fmt = |v: &f64| tick_text(*v, x_zero);
    let y_fmt = |v: &f64| tick_text(*v, y_zero);
    ctx.configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style(("sans-serif", desc_px))
        .label_style(("sans-serif", tick_px))
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .light_line_style(BLACK.mix(0.05))
        .draw()
        .map_err(draw_error)?;
    Ok(ctx)
}

/// Draws the legend of the series labelled so far, at `position` (for `Auto`, the corner
/// covering the fewest of `points`).
pub(super) fn legend<'a, 'b: 'a, X, Y>(
    ctx: &mut Chart<'a, 'b, X, Y>,
    position: LegendPosition,
    font_px: u32,
    points: impl Iterator<Item = (f64, f64)>,
) -> Result<()>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let position = match position {
        LegendPosition::Auto => {
            let (xs, ys) = ctx.plotting_area().get_pixel_range();
            let (w, h) = ((xs.end - xs.start) as f64, (ys.end - ys.start) as f64);
            let mut covered = [0usize; 4]; // upper right, upper left, lower right, lower left
            for p in points {
                let (px, py) = ctx.backend_coord(&p);
                let (u, v) = ((px - xs.start) as f64 / w, (py - ys.start) as f64 / h);
                let (left, right, top, bottom) = (u < 0.4, u > 0.6, v < 0.3, v > 0.7);
                for (k, inside) in [right && top, left && top, right && bottom, left && bottom]
                    .into_iter()
                    .enumerate()
                {
                    covered[k] += usize::from(inside);
                }
            }
            let best = (0..4).min_by_key(|&k| covered[k]).unwrap_or(0);
            [
                LegendPosition::UpperRight,
                LegendPosition::UpperLeft,
                LegendPosition::LowerRight,
                LegendPosition::LowerLeft,
            ][best]
        }
        p => p,
    };
    let position = match position {
        LegendPosition::Auto | LegendPosition::UpperRight => SeriesLabelPosition::UpperRight,
        LegendPosition::UpperLeft => SeriesLabelPosition::UpperLeft,
        LegendPosition::LowerRight => SeriesLabelPosition::LowerRight,
        LegendPosition::LowerLeft => SeriesLabelPosition::LowerLeft,
    };
    ctx.configure_series_labels()
        .position(position)
        .label_font(("sans-serif", font_px))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.5))
        .draw()
        .map_err(draw_error)
}

fn draw<X, Y>(
    chart: &LineChart,
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    x: X,
    y: Y,
) -> Result<()>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut ctx = frame(
        root,
        [&chart.title, &chart.x_label, &chart.y_label],
        [chart.log_x, chart.log_y],
        x,
        y,
    )?;
    for (i, s) in chart.series.iter().enumerate() {
        let c = colour(i);
        let line = c.stroke_width(2);
        let marker = c.filled();
        let pts = s.points.clone();
        let anno = match &s.style {
            SeriesStyle::Line => ctx.draw_series(std::iter::once(PathElement::new(pts, line))),
            SeriesStyle::Dashed => {
                ctx.draw_series(std::iter::once(DashedPathElement::new(pts, 8, 5, line)))
            }
            SeriesStyle::Points => {
                ctx.draw_series(pts.into_iter().map(|p| Circle::new(p, 4, marker)))
            }
            SeriesStyle::LineWithBand { lower, upper } => {
                let band: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .zip(upper)
                    .map(|(p, &u)| (p.0, u))
                    .chain(s.points.iter().zip(lower).rev().map(|(p, &l)| (p.0, l)))
                    .collect();
                ctx.draw_series(std::iter::once(Polygon::new(band, c.mix(0.18).filled())))
                    .map_err(draw_error)?;
                ctx.draw_series(pts.iter().map(|&p| Circle::new(p, 4, marker)))
                    .map_err(draw_error)?;
                ctx.draw_series(std::iter::once(PathElement::new(pts, line)))
            }
        }
        .map_err(draw_error)?;
        match s.style {
            SeriesStyle::Points => anno
                .label(s.name.as_str())
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, marker)),
            SeriesStyle::Dashed => anno.label(s.name.as_str()).legend(move |(x, y)| {
                DashedPathElement::new(vec![(x, y), (x + 20, y)], 6, 4, line)
            }),
            _ => anno
                .label(s.name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], line)),
        };
    }
    let (_, h) = root.dim_in_pixel();
    let points = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0).cycle().zip(s.y_values()));
    legend(&mut ctx, chart.legend, font_sizes(h).2, points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::svg_check::{check_well_formed, count, has_text};

    fn chart(series: Vec<Series>) -> LineChart {
        LineChart {
            title: "Bounds against N".into(),
            x_label: "N".into(),
            y_label: "probability".into(),
            series,
            ..LineChart::default()
        }
    }

    fn curve(f: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
        (1..=30)
            .map(|k| (k as f64 * 10.0, f(k as f64 * 10.0)))
            .collect()
    }

    #[test]
    fn every_style_renders_with_title_axes_and_legend() {
        let mut c = chart(vec![
            Series::line("hoeffding", curve(|n| 2.0 * (-0.02 * n).exp())),
            Series::dashed("vc bound", curve(|n| 1.0 / n.sqrt())),
            Series::points("measured", curve(|n| 0.5 / n.sqrt())),
            Series::with_band(
                "band",
                curve(|n| 0.3 / n.sqrt()),
                curve(|n| 0.2 / n.sqrt()).into_iter().map(|p| p.1).collect(),
                curve(|n| 0.4 / n.sqrt()).into_iter().map(|p| p.1).collect(),
            ),
        ]);
        for (log_x, log_y) in [(false, false), (true, false), (false, true), (true, true)] {
            c.log_x = log_x;
            c.log_y = log_y;
            let svg = line_chart_svg(&c, 800, 600).unwrap();
            check_well_formed(&svg).unwrap();
            for text in [
                "Bounds against N",
                "N",
                "probability",
                "hoeffding",
                "vc bound",
                "measured",
                "band",
            ] {
                assert!(has_text(&svg, text), "{text} missing ({log_x}, {log_y})");
            }
            // 30 measured markers + 30 band markers + the legend marker of "measured".
            assert_eq!(count(&svg, "<circle"), 61);
            assert!(count(&svg, "<polygon") >= 1);
        }
    }

    #[test]
    fn log_ticks_are_powers_of_ten() {
        let mut c = chart(vec![Series::line("2^N", curve(|n| 2f64.powf(n / 10.0)))]);
        c.log_y = true;
        let svg = line_chart_svg(&c, 800, 600).unwrap();
        for tick in ["1", "10", "100", "1000", "1e5", "1e9"] {
            assert!(has_text(&svg, tick), "{tick}");
        }
        // Values near f64::MAX: the padded range stays finite.
        c.series = vec![Series::line("huge", vec![(1.0, 1e10), (2.0, 1e306)])];
        check_well_formed(&line_chart_svg(&c, 800, 600).unwrap()).unwrap();
        c.series = vec![Series::line("huge", vec![(1.0, 1e-10), (2.0, 1e300)])];
        let e = line_chart_svg(&c, 800, 600).unwrap_err();
        assert!(e.to_string().contains("more than 300 decades"), "{e}");
    }

    #[test]
    fn bad_series_are_errors_not_panics() {
        let e = line_chart_svg(&chart(vec![]), 800, 600).unwrap_err();
        assert!(e.to_string().contains("no series"), "{e}");
        let e = line_chart_svg(&chart(vec![Series::line("empty", vec![])]), 800, 600).unwrap_err();
        assert!(
            e.to_string().contains("series \"empty\" has no points"),
            "{e}"
        );
        let e = line_chart_svg(
            &chart(vec![Series::line("nan", vec![(1.0, 1.0), (2.0, f64::NAN)])]),
            800,
            600,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("non-finite y value (NaN) at point 1"),
            "{e}"
        );
        let mut c = chart(vec![Series::line("zero", vec![(1.0, 1.0), (2.0, 0.0)])]);
        c.log_y = true;
        let e = line_chart_svg(&c, 800, 600).unwrap_err();
        assert!(e.to_string().contains("y = 0 at point 1"), "{e}");
        assert!(e.to_string().contains("logarithmic"), "{e}");
        let c = chart(vec![Series::with_band(
            "b",
            vec![(1.0, 1.0)],
            vec![],
            vec![2.0],
        )]);
        let e = line_chart_svg(&c, 800, 600).unwrap_err();
        assert!(e.to_string().contains("its band has 0 lower"), "{e}");
        let c = chart(vec![Series::line("ok", vec![(1.0, 1.0)])]);
        assert!(line_chart_svg(&c, 0, 600).is_err());
        // A single point still gets a visible range.
        check_well_formed(&line_chart_svg(&c, 800, 600).unwrap()).unwrap();
    }
}
