//! The perceptron's walk on 2-D data: the line `w_t . x + b_t = 0` after each update.
//!
//! Older lines are fainter (opacity rising linearly from 0.12 for the oldest line drawn to
//! 0.6 for the newest), the final line is bold, and the points are coloured by class.

use ndarray::Array2;
use plotters::prelude::*;

use super::boundary::{check_points, clip_line, draw_points_and_legend};
use super::line::{frame, LegendPosition};
use super::{check_size, draw_error};
use crate::data::{labels, Label};
use crate::error::{Error, Result};
use crate::estimator::Classifier;
use crate::linear::{Trace, TraceStep};
use crate::score::LinearModel;

/// How [`pla_svg`] draws.
///
/// | field | default | meaning | valid range |
/// |---|---|---|---|
/// | `title` | `"PLA"` | caption, followed by the number of updates and whether PLA converged | |
/// | `x_label`, `y_label` | `"x1"`, `"x2"` | axis descriptions | |
/// | `width`, `height` | 800, 600 | pixels | `200..=10000` |
/// | `every` | 1 | draw the line after every `every`-th update (the final one always) | `>= 1` |
/// | `max_lines` | 50 | most intermediate lines drawn (the latest ones) | `>= 0` |
/// | `legend` | auto | corner of the legend box | |
#[derive(Clone, Debug, PartialEq)]
pub struct PlaOptions {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub width: u32,
    pub height: u32,
    pub every: usize,
    pub max_lines: usize,
    pub legend: LegendPosition,
}

impl Default for PlaOptions {
    fn default() -> Self {
        PlaOptions {
            title: "PLA".into(),
            x_label: "x1".into(),
            y_label: "x2".into(),
            width: 800,
            height: 600,
            every: 1,
            max_lines: 50,
            legend: LegendPosition::Auto,
        }
    }
}

/// The intermediate steps to draw: updates `>= 1` that are multiples of `every`, before
/// the last update, the latest `max_lines` of them.
fn chosen_steps(trace: &Trace, every: usize, max_lines: usize) -> Vec<&TraceStep> {
    let last = trace.steps.last().map_or(0, |s| s.update);
    let mut steps: Vec<&TraceStep> = trace
        .steps
        .iter()
        .filter(|s| s.update >= 1 && s.update < last && s.update % every == 0)
        .collect();
    let skip = steps.len().saturating_sub(max_lines);
    steps.drain(..skip);
    steps
}

/// PLA's walk as SVG: the points `x` (`n x 2`) coloured by `labels`, the line after each
/// chosen update of `trace` (faded, older fainter) and the final line of `model` bold. The
/// title reports the number of updates and whether PLA converged (else its `E_in`).
///
/// Errors: a model that is not binary with 2 features, bad points or labels (see
/// [`boundary_svg`](super::boundary_svg)), a label the model does not know, `every = 0`,
/// and a bad size.
pub fn pla_svg(
    x: &Array2<f64>,
    labels: &[Label],
    model: &LinearModel,
    trace: &Trace,
    options: &PlaOptions,
) -> Result<String> {
    check_size(options.width, options.height)?;
    if options.every == 0 {
        return Err(Error::param("every", 0, "must be >= 1"));
    }
    if !model.is_binary() || model.coef().ncols() != 2 {
        return Err(Error::data(format!(
            "a PLA plot needs a binary model of 2 features, not {} classes and {} features",
            model.classes().len(),
            model.coef().ncols()
        )));
    }
    let bx = check_points(x, labels)?;
    let truth = labels::encode_with(model.classes(), labels)?;
    let conv = model.convergence();
    let updates = conv
        .updates
        .unwrap_or_else(|| trace.steps.last().map_or(0, |s| s.update));
    let outcome = match (&conv.warning, conv.in_sample_error) {
        (None, _) => "converged".to_string(),
        (Some(_), Some(e)) => format!("did not converge, E_in = {e:.4}"),
        (Some(_), None) => "did not converge".to_string(),
    };
    let title = format!("{}: {updates} updates, {outcome}", options.title);
    let steps = chosen_steps(trace, options.every, options.max_lines);

    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (options.width, options.height)).into_drawing_area();
        let [(x0, x1), (y0, y1)] = bx;
        let mut ctx = frame(
            &root,
            [&title, &options.x_label, &options.y_label],
            [false, false],
            x0..x1,
            y0..y1,
        )?;
        let n = steps.len();
        let faded = steps.iter().enumerate().filter_map(|(k, s)| {
            let w = [s.weights[0], s.weights[1]];
            let alpha = 0.12 + 0.48 * (k + 1) as f64 / n as f64;
            clip_line(w, s.intercept, 0.0, bx)
                .map(|seg| PathElement::new(seg.to_vec(), BLACK.mix(alpha).stroke_width(1)))
        });
        let drawn = ctx.draw_series(faded).map_err(draw_error)?;
        if let (Some(a), Some(b)) = (steps.first(), steps.last()) {
            let style = BLACK.mix(0.35).stroke_width(1);
            drawn
                .label(format!(
                    "after updates {}..{} (older fainter)",
                    a.update, b.update
                ))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        }
        let w = model.weights(0);
        let (w, b) = ([w[0], w[1]], model.intercept()[0]);
        let bold = RGBColor(180, 20, 20).stroke_width(3);
        ctx.draw_series(clip_line(w, b, 0.0, bx).map(|seg| PathElement::new(seg.to_vec(), bold)))
            .map_err(draw_error)?
            .label(format!(
                "final: {:.3} x1 + {:.3} x2 + {:.3} = 0",
                w[0], w[1], b
            ))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], bold));
        draw_points_and_legend(
            &mut ctx,
            x,
            &truth,
            model.classes(),
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
    use crate::data::{Dataset, Features};
    use crate::linear::Perceptron;
    use crate::plot::svg_check::{check_well_formed, count, has_text};

    /// Separable 2-D points, uniform in the square `[-1, 1]^2` and at least 0.02 away from
    /// the line `x1 + 2 x2 = 0.2`: class 1 above it, -1 below.
    fn points(n: usize) -> (Array2<f64>, Vec<Label>) {
        let mut rng = crate::rng::Rng::new(7);
        let (mut x, mut y) = (Array2::zeros((n, 2)), Vec::new());
        while y.len() < n {
            let p = [2.0 * rng.next_f64() - 1.0, 2.0 * rng.next_f64() - 1.0];
            let s = p[0] + 2.0 * p[1] - 0.2;
            if s.abs() >= 0.02 * 5f64.sqrt() {
                x.row_mut(y.len()).assign(&ndarray::ArrayView1::from(&p));
                y.push(Label::Int(if s > 0.0 { 1 } else { -1 }));
            }
        }
        (x, y)
    }

    #[test]
    fn the_walk_renders_with_faded_and_final_lines() {
        let (x, y) = points(40);
        let data = Dataset::new(Features::from(x.clone()), &y).unwrap();
        let (model, trace) = Perceptron::default().fit_traced(&data).unwrap();
        let updates = trace.steps.last().unwrap().update;
        assert!(updates >= 3, "{updates}");
        let svg = pla_svg(&x, &y, &model, &trace, &PlaOptions::default()).unwrap();
        check_well_formed(&svg).unwrap();
        for text in [
            &format!("PLA: {updates} updates, converged"),
            "x1",
            "x2",
            "-1",
            "1",
            // The latest 50 of updates 1..updates-1.
            &format!(
                "after updates {}..{} (older fainter)",
                updates.saturating_sub(50).max(1),
                updates - 1
            ),
        ] {
            assert!(has_text(&svg, text), "{text}");
        }
        assert!(svg.contains("final: "));
        assert_eq!(count(&svg, "<circle"), 40 + 2);
        // Capped: only the last line plus the final one.
        let capped = PlaOptions {
            max_lines: 1,
            ..PlaOptions::default()
        };
        let svg1 = pla_svg(&x, &y, &model, &trace, &capped).unwrap();
        assert!(count(&svg1, "<polyline") < count(&svg, "<polyline"));
        assert!(has_text(
            &svg1,
            &format!("after updates {0}..{0} (older fainter)", updates - 1)
        ));
    }

    #[test]
    fn chosen_steps_respect_every_and_the_cap() {
        let steps = (0..=10)
            .map(|u| TraceStep {
                update: u,
                row: (u > 0).then_some(u),
                weights: vec![1.0, u as f64],
                intercept: 0.0,
            })
            .collect();
        let trace = Trace {
            steps,
            truncated: false,
        };
        let ups = |every, cap| -> Vec<usize> {
            chosen_steps(&trace, every, cap)
                .iter()
                .map(|s| s.update)
                .collect()
        };
        assert_eq!(ups(1, 100), (1..10).collect::<Vec<_>>());
        assert_eq!(ups(3, 100), vec![3, 6, 9]);
        assert_eq!(ups(1, 2), vec![8, 9]);
        assert_eq!(ups(1, 0), Vec::<usize>::new());
    }

    #[test]
    fn bad_inputs_are_errors() {
        let (x, y) = points(20);
        let data = Dataset::new(Features::from(x.clone()), &y).unwrap();
        let (model, trace) = Perceptron::default().fit_traced(&data).unwrap();
        let zero = PlaOptions {
            every: 0,
            ..PlaOptions::default()
        };
        assert!(pla_svg(&x, &y, &model, &trace, &zero).is_err());
        let e = pla_svg(&x, &y[..5], &model, &trace, &PlaOptions::default()).unwrap_err();
        assert!(e.to_string().contains("20 points but 5 labels"), "{e}");
        let mut other = y.clone();
        other[3] = Label::Int(7);
        assert!(pla_svg(&x, &other, &model, &trace, &PlaOptions::default()).is_err());
        let wide = Array2::from_shape_fn((20, 3), |(i, j)| (i + j) as f64);
        let data3 = Dataset::new(Features::from(wide), &y).unwrap();
        let (m3, t3) = Perceptron::default()
            .max_epochs(2)
            .fit_traced(&data3)
            .unwrap();
        let e = pla_svg(&x, &y, &m3, &t3, &PlaOptions::default()).unwrap_err();
        assert!(e.to_string().contains("2 features"), "{e}");
    }
}
