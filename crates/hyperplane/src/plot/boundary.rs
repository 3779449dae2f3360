//! Decision regions of a fitted pipeline on 2-D input, with optional linear boundaries.
//!
//! The data range plus 5% padding on each side is cut into `resolution x resolution`
//! cells; the pipeline predicts the class at each cell centre (on raw input of the form
//! it was trained on, so its scaling or binning applies), runs of equal prediction along
//! a row are shaded as one rectangle, and the boundary is traced by marching squares over
//! the cell centres: in each 2 x 2 block of centres, the midpoints of the sides whose ends
//! are predicted differently are joined (two midpoints directly, three or four through
//! the block centre).

use ndarray::Array2;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::line::{frame, legend, Chart, LegendPosition};
use super::{check_size, colour, draw_error, font_sizes, pastel};
use crate::data::input::{Column, Table};
use crate::data::{labels, Features, Label, RawInput};
use crate::error::{Error, Result};
use crate::pipeline::{InputStage, Pipeline};
use crate::transform::FittedTransform;

/// A line `w . x + b = 0` to draw over the regions (a linear model's boundary, or PLA's
/// weight after an update), with its margins `w . x + b = ±1` dashed when `margins`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearBoundary {
    pub w: [f64; 2],
    pub b: f64,
    /// Legend entry.
    pub label: String,
    pub margins: bool,
}

/// How [`boundary_svg`] draws.
///
/// | field | default | meaning | valid range |
/// |---|---|---|---|
/// | `title` | `"Decision regions"` | caption | |
/// | `x_label`, `y_label` | `""` | axis descriptions; empty means the pipeline's feature names | |
/// | `width`, `height` | 800, 600 | pixels | `200..=10000` |
/// | `resolution` | 200 | grid cells per axis | `2..=1000` |
/// | `lines` | none | [`LinearBoundary`] lines drawn over the regions | `w != 0`, finite |
/// | `legend` | auto | corner of the legend box (auto: the one covering the fewest points) | |
#[derive(Clone, Debug, PartialEq)]
pub struct BoundaryOptions {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub width: u32,
    pub height: u32,
    pub resolution: usize,
    pub lines: Vec<LinearBoundary>,
    pub legend: LegendPosition,
}

impl Default for BoundaryOptions {
    fn default() -> Self {
        BoundaryOptions {
            title: "Decision regions".into(),
            x_label: String::new(),
            y_label: String::new(),
            width: 800,
            height: 600,
            resolution: 200,
            lines: Vec::new(),
            legend: LegendPosition::Auto,
        }
    }
}

/// The two numeric feature columns of raw input as an `n x 2` matrix: a LIBSVM matrix
/// with 2 columns, or a table of 2 numeric columns. Anything else is an error saying why.
pub fn input_points_2d(raw: &RawInput) -> Result<Array2<f64>> {
    let need = "a decision-region plot needs exactly 2 numeric feature columns";
    match raw {
        RawInput::Matrix(m) if m.n_cols() == 2 => Ok(m.to_dense()),
        RawInput::Matrix(m) => Err(Error::data(format!(
            "the data has {} feature columns; {need}",
            m.n_cols()
        ))),
        RawInput::Table(t) if t.columns.len() != 2 => {
            let mut names = t
                .names
                .iter()
                .take(4)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            if t.names.len() > 4 {
                names.push_str(", ...");
            }
            Err(Error::data(format!(
                "the data has {} feature columns ({names}); {need}",
                t.columns.len()
            )))
        }
        RawInput::Table(t) => {
            let mut x = Array2::zeros((t.n_rows(), 2));
            for (j, (c, name)) in t.columns.iter().zip(&t.names).enumerate() {
                match c {
                    Column::Numeric(v) => x.column_mut(j).assign(&ndarray::ArrayView1::from(v)),
                    Column::Categorical(_) => {
                        return Err(Error::data(format!(
                            "column {name:?} is categorical; {need}"
                        )))
                    }
                }
            }
            Ok(x)
        }
        RawInput::Text(_) | RawInput::Files(_) => {
            Err(Error::data(format!("the data is text documents; {need}")))
        }
    }
}

/// Points `grid` (`m x 2`) as raw input of the form `pipeline` was trained on.
fn grid_input(pipeline: &Pipeline, grid: Array2<f64>) -> Result<RawInput> {
    match pipeline.input_stage() {
        InputStage::Matrix { n_features } if *n_features != 2 => Err(Error::FeatureCount {
            expected: *n_features,
            found: 2,
        }),
        InputStage::Matrix { .. } => Ok(RawInput::Matrix(Features::from(grid))),
        InputStage::Table(enc) if enc.n_features_in() != 2 => Err(Error::FeatureCount {
            expected: enc.n_features_in(),
            found: 2,
        }),
        InputStage::Table(enc) => {
            if let Some((name, _)) = enc.categorical_columns().first() {
                return Err(Error::data(format!(
                    "the model reads column {name:?} as categorical; decision regions need 2 numeric columns"
                )));
            }
            Ok(RawInput::Table(Table {
                names: enc.column_names().iter().map(|s| s.to_string()).collect(),
                columns: grid
                    .columns()
                    .into_iter()
                    .map(|c| Column::Numeric(c.to_vec()))
                    .collect(),
                first_line: 1,
            }))
        }
        InputStage::Text(_) => Err(Error::data(
            "the model reads text documents; decision regions need a model of 2 numeric features",
        )),
    }
}

/// The boundary `s(x) = 0` of each binary linear model inside `pipeline` (the model
/// itself, or each one-vs-all / one-vs-one sub-model), in the raw input space of the 2-D
/// points `x`, with its margins `s(x) = ±1` when `margins`.
///
/// The model scores its features `z`: `s = w.z + b`. When every transform between the
/// input and `z` is affine (numeric columns, standard or min-max scaling), so is `s` in
/// the input `x`: `s(x) = w'.x + b'`, recovered exactly from three points,
/// `w'_j = (s(c + h_j e_j) - s(c)) / h_j` and `b' = s(c) - w'.c` (`c` the centre of the
/// data, `h_j` its span). Empty when the model is not linear or not binary (softmax), when
/// a transform is not affine (binning, `Phi_Q`: the boundary is then a curve, which the
/// regions show), or when `w' = 0`.
pub fn linear_boundaries(
    pipeline: &Pipeline,
    x: &Array2<f64>,
    margins: bool,
) -> Result<Vec<LinearBoundary>> {
    let models: Vec<_> = pipeline
        .model()
        .linear_models()
        .into_iter()
        .filter(|(_, m)| m.is_binary())
        .collect();
    let affine = pipeline.transforms().iter().all(|t| {
        matches!(
            t,
            FittedTransform::StandardScale(_) | FittedTransform::MinMaxScale(_)
        )
    });
    if models.is_empty() || !affine {
        return Ok(Vec::new());
    }
    let [(x0, x1), (y0, y1)] = points_box(x)?;
    let (c, h) = ([(x0 + x1) / 2.0, (y0 + y1) / 2.0], [x1 - x0, y1 - y0]);
    let probe = ndarray::array![[c[0], c[1]], [c[0] + h[0], c[1]], [c[0], c[1] + h[1]]];
    let z = pipeline.features(&grid_input(pipeline, probe)?)?;
    let mut lines = Vec::new();
    for (name, m) in models {
        let s = m.scores(&z)?;
        let w = [
            (s[[1, 0]] - s[[0, 0]]) / h[0],
            (s[[2, 0]] - s[[0, 0]]) / h[1],
        ];
        let b = s[[0, 0]] - w[0] * c[0] - w[1] * c[1];
        if w == [0.0, 0.0] || !(w.iter().all(|v| v.is_finite()) && b.is_finite()) {
            continue;
        }
        let label = match name.as_str() {
            "" => "w.x + b = 0".to_string(),
            n if n.contains(" vs ") => format!("{n}: w.x + b = 0"),
            n => format!("{n} vs rest: w.x + b = 0"),
        };
        lines.push(LinearBoundary {
            w,
            b,
            label,
            margins,
        });
    }
    Ok(lines)
}

/// Checks the inputs and returns the padded data box `((x0, x1), (y0, y1))`.
fn check(x: &Array2<f64>, labels: &[Label], o: &BoundaryOptions) -> Result<[(f64, f64); 2]> {
    check_size(o.width, o.height)?;
    if !(2..=1000).contains(&o.resolution) {
        return Err(Error::param(
            "resolution",
            o.resolution,
            "must be in 2..=1000",
        ));
    }
    for l in &o.lines {
        if !(l.w.iter().all(|v| v.is_finite()) && l.b.is_finite()) {
            return Err(Error::param("lines", &l.label, "w and b must be finite"));
        }
        if l.w == [0.0, 0.0] {
            return Err(Error::param(
                "lines",
                &l.label,
                "w = [0, 0] defines no line w.x + b = 0",
            ));
        }
    }
    check_points(x, labels)
}

/// Checks 2-D points and their labels; returns the padded box of [`points_box`].
pub(super) fn check_points(x: &Array2<f64>, labels: &[Label]) -> Result<[(f64, f64); 2]> {
    if labels.len() != x.nrows() {
        return Err(Error::data(format!(
            "{} points but {} labels",
            x.nrows(),
            labels.len()
        )));
    }
    points_box(x)
}

/// Checks 2-D points (`n x 2`, `n >= 1`, finite) and returns their box padded by 5% of its
/// span on each side, `[(x0, x1), (y0, y1)]`.
fn points_box(x: &Array2<f64>) -> Result<[(f64, f64); 2]> {
    if x.ncols() != 2 {
        return Err(Error::data(format!(
            "the points have {} columns; a 2-D plot needs exactly 2",
            x.ncols()
        )));
    }
    if x.nrows() == 0 {
        return Err(Error::data("there are no points to plot"));
    }
    Features::from(x.clone()).check_finite("the points")?;
    let range = |j: usize| {
        let c = x.column(j);
        let (lo, hi) = c
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        let pad = if hi > lo {
            0.05 * (hi - lo)
        } else {
            0.5 * lo.abs().max(1.0)
        };
        (lo - pad, hi + pad)
    };
    Ok([range(0), range(1)])
}

/// Draws the points `x` as dots coloured by class (`truth[i]` indexes `classes`), one
/// legend entry per class that has points, then the legend box at `position` (placed
/// clear of the points when `Auto`) for a plot `height` pixels high.
pub(super) fn draw_points_and_legend<'a, 'b: 'a, X, Y>(
    ctx: &mut Chart<'a, 'b, X, Y>,
    x: &Array2<f64>,
    truth: &[usize],
    classes: &[Label],
    position: LegendPosition,
    height: u32,
) -> Result<()>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (c, class) in classes.iter().enumerate() {
        let style = colour(c).filled();
        let points = x
            .rows()
            .into_iter()
            .zip(truth)
            .filter(|(_, &t)| t == c)
            .map(|(p, _)| (p[0], p[1]))
            .collect::<Vec<_>>();
        if points.is_empty() {
            continue;
        }
        ctx.draw_series(points.into_iter().map(|p| Circle::new(p, 4, style)))
            .map_err(draw_error)?
            .label(class.to_string())
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, style));
    }
    let points = x.rows().into_iter().map(|p| (p[0], p[1]));
    legend(ctx, position, font_sizes(height).2, points)
}

/// The segment of the line `w . x + b = c` inside the box, if it crosses it.
pub(super) fn clip_line(
    w: [f64; 2],
    b: f64,
    c: f64,
    bx: [(f64, f64); 2],
) -> Option<[(f64, f64); 2]> {
    let [(x0, x1), (y0, y1)] = bx;
    let mut pts: Vec<(f64, f64)> = Vec::new();
    if w[1] != 0.0 {
        for x in [x0, x1] {
            let y = (c - b - w[0] * x) / w[1];
            if (y0..=y1).contains(&y) {
                pts.push((x, y));
            }
        }
    }
    if w[0] != 0.0 {
        for y in [y0, y1] {
            let x = (c - b - w[1] * y) / w[0];
            if (x0..=x1).contains(&x) {
                pts.push((x, y));
            }
        }
    }
    let first = *pts.first()?;
    let far = pts
        .iter()
        .copied()
        .max_by(|p, q| dist2(first, *p).total_cmp(&dist2(first, *q)))?;
    (dist2(first, far) > 0.0).then_some([first, far])
}

fn dist2(p: (f64, f64), q: (f64, f64)) -> f64 {
    (p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)
}

/// Boundary segments by marching squares over the `r x r` predicted classes
/// (`class[i * r + j]` at the centre of cell `(row i, column j)`), in cell units where
/// centre `(i, j)` is at `(j + 0.5, i + 0.5)`.
fn boundary_segments(class: &[usize], r: usize) -> Vec<[(f64, f64); 2]> {
    let mut segments = Vec::new();
    for i in 0..r - 1 {
        for j in 0..r - 1 {
            let (a, b) = (class[i * r + j], class[i * r + j + 1]);
            let (c, d) = (class[(i + 1) * r + j], class[(i + 1) * r + j + 1]);
            let (x, y) = (j as f64 + 0.5, i as f64 + 0.5);
            let mut mids = Vec::with_capacity(4);
            if a != b {
                mids.push((x + 0.5, y));
            }
            if c != d {
                mids.push((x + 0.5, y + 1.0));
            }
            if a != c {
                mids.push((x, y + 0.5));
            }
            if b != d {
                mids.push((x + 1.0, y + 0.5));
            }
            match mids[..] {
                [] => {}
                [p, q] => segments.push([p, q]),
                _ => segments.extend(mids.iter().map(|&p| [p, (x + 0.5, y + 0.5)])),
            }
        }
    }
    segments
}

/// Decision regions of `pipeline` over the 2-D points `x` (`n x 2`, raw input space),
/// the points coloured by their true `labels`, and `options.lines`, as SVG.
///
/// Errors: `x` without exactly 2 columns, no points, labels of another length, a
/// non-finite point, a model that does not take 2 numeric input features
/// ([`Error::FeatureCount`] when it takes another number), a degenerate line, and a bad
/// size or resolution.
pub fn boundary_svg(
    pipeline: &Pipeline,
    x: &Array2<f64>,
    labels: &[Label],
    options: &BoundaryOptions,
) -> Result<String> {
    let bx = check(x, labels, options)?;
    let r = options.resolution;
    let [(x0, x1), (y0, y1)] = bx;
    let (dx, dy) = ((x1 - x0) / r as f64, (y1 - y0) / r as f64);
    let grid = Array2::from_shape_fn((r * r, 2), |(k, c)| {
        if c == 0 {
            x0 + ((k % r) as f64 + 0.5) * dx
        } else {
            y0 + ((k / r) as f64 + 0.5) * dy
        }
    });
    let predicted = pipeline.predict(&grid_input(pipeline, grid)?)?;
    // Colours: the model's classes, then any point label it never saw.
    let mut classes = pipeline.classes().to_vec();
    for l in labels {
        if !classes.contains(l) {
            classes.push(l.clone());
        }
    }
    let region = labels::encode_with(&classes, &predicted)?;
    let truth = labels::encode_with(&classes, labels)?;
    let names = pipeline.feature_names();
    let name = |given: &str, j: usize| {
        if given.is_empty() {
            names.get(j).cloned().unwrap_or_default()
        } else {
            given.to_string()
        }
    };

    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (options.width, options.height)).into_drawing_area();
        let mut ctx = frame(
            &root,
            [
                &options.title,
                &name(&options.x_label, 0),
                &name(&options.y_label, 1),
            ],
            [false, false],
            x0..x1,
            y0..y1,
        )?;
        // Regions: one rectangle per run of equal prediction along a grid row.
        let mut cells = Vec::new();
        for i in 0..r {
            let row = &region[i * r..(i + 1) * r];
            let mut start = 0;
            for j in 1..=r {
                if j == r || row[j] != row[start] {
                    let (ya, yb) = (y0 + i as f64 * dy, y0 + (i + 1) as f64 * dy);
                    let (xa, xb) = (x0 + start as f64 * dx, x0 + j as f64 * dx);
                    cells.push(Rectangle::new(
                        [(xa, ya), (xb, yb)],
                        pastel(row[start]).filled(),
                    ));
                    start = j;
                }
            }
        }
        ctx.draw_series(cells).map_err(draw_error)?;
        let to_data = |(u, v): (f64, f64)| (x0 + u * dx, y0 + v * dy);
        let edge = BLACK.mix(0.75).stroke_width(2);
        ctx.draw_series(
            boundary_segments(&region, r)
                .into_iter()
                .map(|[p, q]| PathElement::new(vec![to_data(p), to_data(q)], edge)),
        )
        .map_err(draw_error)?
        .label("decision boundary")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], edge));

        for (k, line) in options.lines.iter().enumerate() {
            let RGBColor(red, green, blue) = colour(classes.len() + k);
            let dark = RGBColor(red / 2, green / 2, blue / 2).stroke_width(3);
            let thin = RGBColor(red / 2, green / 2, blue / 2).stroke_width(2);
            let main = clip_line(line.w, line.b, 0.0, bx);
            ctx.draw_series(main.map(|s| PathElement::new(s.to_vec(), dark)))
                .map_err(draw_error)?
                .label(line.label.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], dark));
            if line.margins {
                let margins = [-1.0, 1.0]
                    .into_iter()
                    .filter_map(|c| clip_line(line.w, line.b, c, bx))
                    .map(|s| DashedPathElement::new(s.to_vec(), 8, 6, thin));
                ctx.draw_series(margins).map_err(draw_error)?;
            }
        }
        draw_points_and_legend(
            &mut ctx,
            x,
            &truth,
            &classes,
            options.legend,
            options.height,
        )?;
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::LabelledInput;
    use crate::pipeline::PipelineSpec;
    use crate::plot::svg_check::{check_well_formed, count, has_text};
    use crate::rng::Rng;

    /// Two Gaussian blobs around (-1, -1) ("left") and (1, 1) ("right").
    fn blobs(n: usize) -> (Array2<f64>, Vec<Label>) {
        let mut rng = Rng::new(3);
        let mut x = Array2::zeros((2 * n, 2));
        let mut y = Vec::new();
        for i in 0..2 * n {
            let centre = if i < n { -1.0 } else { 1.0 };
            for j in 0..2 {
                // A sum of uniforms: roughly normal, spread 0.5.
                let u: f64 = (0..6).map(|_| rng.next_f64()).sum::<f64>() - 3.0;
                x[[i, j]] = centre + 0.5 * u;
            }
            y.push(Label::from(if i < n { "left" } else { "right" }));
        }
        (x, y)
    }

    fn fit(x: &Array2<f64>, y: &[Label]) -> Pipeline {
        let data = LabelledInput {
            input: RawInput::Matrix(Features::from(x.clone())),
            labels: Some(y.to_vec()),
            source: "blobs".into(),
        };
        PipelineSpec::new("gaussian-nb")
            .unwrap()
            .fit(&data)
            .unwrap()
    }

    #[test]
    fn regions_boundary_points_and_lines_render() {
        let (x, y) = blobs(30);
        let p = fit(&x, &y);
        let options = BoundaryOptions {
            title: "gaussian-nb on blobs".into(),
            lines: vec![LinearBoundary {
                w: [1.0, 1.0],
                b: 0.0,
                label: "x1 + x2 = 0".into(),
                margins: true,
            }],
            resolution: 50,
            ..BoundaryOptions::default()
        };
        let svg = boundary_svg(&p, &x, &y, &options).unwrap();
        check_well_formed(&svg).unwrap();
        for text in [
            "gaussian-nb on blobs",
            "left",
            "right",
            "x1 + x2 = 0",
            "decision boundary",
            "x1",
            "x2",
        ] {
            assert!(has_text(&svg, text), "{text}");
        }
        // 60 points + 2 legend markers; regions as rectangles; the boundary crosses the
        // grid, so it has at least `resolution` segments.
        assert!(count(&svg, "<circle") >= 62);
        assert!(count(&svg, "<rect") >= 50);
        assert!(
            count(&svg, "<polyline") >= 50 + 3,
            "{}",
            count(&svg, "<polyline")
        );
    }

    #[test]
    fn a_table_model_is_drawn_in_its_own_columns() {
        let (x, y) = blobs(20);
        let table = Table {
            names: vec!["height".into(), "weight".into()],
            columns: vec![
                Column::Numeric(x.column(0).to_vec()),
                Column::Numeric(x.column(1).to_vec()),
            ],
            first_line: 2,
        };
        let raw = RawInput::Table(table);
        let data = LabelledInput {
            input: raw.clone(),
            labels: Some(y.clone()),
            source: "t.csv".into(),
        };
        let mut spec = PipelineSpec::new("gaussian-nb").unwrap();
        spec.set_param("scale", "standard").unwrap();
        let p = spec.fit(&data).unwrap();
        let points = input_points_2d(&raw).unwrap();
        assert_eq!(points, x);
        let svg = boundary_svg(&p, &points, &y, &BoundaryOptions::default()).unwrap();
        check_well_formed(&svg).unwrap();
        assert!(has_text(&svg, "height") && has_text(&svg, "weight"));
    }

    #[test]
    fn wrong_shapes_are_clear_errors() {
        let (x, y) = blobs(10);
        let p = fit(&x, &y);
        let o = BoundaryOptions::default();
        let three = Array2::zeros((20, 3));
        let e = boundary_svg(&p, &three, &y, &o).unwrap_err();
        assert!(e.to_string().contains("have 3 columns"), "{e}");
        let e = boundary_svg(&p, &Array2::zeros((0, 2)), &[], &o).unwrap_err();
        assert!(e.to_string().contains("no points"), "{e}");
        let e = boundary_svg(&p, &x, &y[..3], &o).unwrap_err();
        assert!(e.to_string().contains("20 points but 3 labels"), "{e}");
        let mut nan = x.clone();
        nan[[4, 1]] = f64::NAN;
        let e = boundary_svg(&p, &nan, &y, &o).unwrap_err();
        assert!(
            matches!(
                e,
                Error::NonFinite {
                    row: 4,
                    feature: 1,
                    ..
                }
            ),
            "{e}"
        );
        let mut bad = o.clone();
        bad.lines.push(LinearBoundary {
            w: [0.0, 0.0],
            b: 1.0,
            label: "zero".into(),
            margins: false,
        });
        assert!(boundary_svg(&p, &x, &y, &bad)
            .unwrap_err()
            .to_string()
            .contains("defines no line"));
        // A model of 3 features cannot be drawn in 2-D.
        let wide = fit(&Array2::from_shape_fn((20, 3), |(i, j)| (i * j) as f64), &y);
        let e = boundary_svg(&wide, &x, &y, &o).unwrap_err();
        assert!(
            matches!(
                e,
                Error::FeatureCount {
                    expected: 3,
                    found: 2
                }
            ),
            "{e}"
        );
        let e = input_points_2d(&RawInput::Text(vec!["a".into()])).unwrap_err();
        assert!(e.to_string().contains("text documents"), "{e}");
        let e = input_points_2d(&RawInput::Matrix(Features::from(three))).unwrap_err();
        assert!(e.to_string().contains("has 3 feature columns"), "{e}");
    }

    #[test]
    fn lines_are_clipped_to_the_box() {
        let bx = [(0.0, 1.0), (0.0, 1.0)];
        let s = clip_line([1.0, -1.0], 0.0, 0.0, bx).unwrap();
        assert_eq!(s, [(0.0, 0.0), (1.0, 1.0)]);
        let s = clip_line([1.0, 0.0], -0.5, 0.0, bx).unwrap();
        assert_eq!(s, [(0.5, 0.0), (0.5, 1.0)]);
        assert!(clip_line([1.0, 1.0], 5.0, 0.0, bx).is_none());
    }

    #[test]
    fn marching_squares_traces_a_vertical_boundary() {
        // 3 x 3 grid, column 0 is class 0, columns 1-2 class 1.
        let class = [0, 1, 1, 0, 1, 1, 0, 1, 1];
        let segs = boundary_segments(&class, 3);
        assert_eq!(
            segs,
            vec![[(1.0, 0.5), (1.0, 1.5)], [(1.0, 1.5), (1.0, 2.5)]]
        );
        // Three classes meeting in one block go through its centre.
        let segs = boundary_segments(&[0, 1, 2, 2], 2);
        assert_eq!(segs.len(), 3);
        assert!(segs.iter().all(|s| s[1] == (1.0, 1.0)));
    }
}
