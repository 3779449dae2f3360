//! The learning-curve picture: E_in and E_out against the training size, with ± std bands.

use super::line::{line_chart_svg, LineChart, Series};
use crate::error::Result;
use crate::select::LearningCurve;

/// `curve` as an SVG line chart of `width` x `height` pixels: `E_in` and `E_out` (mean
/// over folds) against the number of training rows, each in a band of ± one standard
/// deviation.
pub fn learning_curve_svg(
    curve: &LearningCurve,
    title: &str,
    width: u32,
    height: u32,
) -> Result<String> {
    let series = |name: &str, mean: &[f64], std: &[f64]| {
        let points = curve
            .sizes
            .iter()
            .map(|&n| n as f64)
            .zip(mean.iter().copied())
            .collect();
        let lower = mean.iter().zip(std).map(|(m, s)| m - s).collect();
        let upper = mean.iter().zip(std).map(|(m, s)| m + s).collect();
        Series::with_band(name, points, lower, upper)
    };
    let chart = LineChart {
        title: title.to_string(),
        x_label: "training rows N".into(),
        y_label: format!("0/1 error (mean ± std over {} folds)", curve.folds),
        series: vec![
            series("E_in (training rows)", &curve.e_in_mean, &curve.e_in_std),
            series("E_out (held-out fold)", &curve.e_out_mean, &curve.e_out_std),
        ],
        ..LineChart::default()
    };
    line_chart_svg(&chart, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::svg_check::{check_well_formed, count, has_text};

    #[test]
    fn a_curve_renders_both_errors_with_bands() {
        let curve = LearningCurve {
            sizes: vec![10, 20, 40, 80],
            folds: 5,
            e_in_mean: vec![0.0, 0.02, 0.05, 0.06],
            e_in_std: vec![0.0, 0.01, 0.01, 0.01],
            e_out_mean: vec![0.4, 0.2, 0.12, 0.1],
            e_out_std: vec![0.05, 0.04, 0.02, 0.02],
        };
        let svg = learning_curve_svg(&curve, "gaussian-nb on digits", 800, 600).unwrap();
        check_well_formed(&svg).unwrap();
        for text in [
            "gaussian-nb on digits",
            "E_in (training rows)",
            "E_out (held-out fold)",
            "training rows N",
            "0/1 error (mean ± std over 5 folds)",
        ] {
            assert!(has_text(&svg, text), "{text}");
        }
        assert_eq!(count(&svg, "<polygon"), 2);
        assert!(count(&svg, "<circle") >= 8);
        let empty = LearningCurve {
            sizes: vec![],
            e_in_mean: vec![],
            e_in_std: vec![],
            e_out_mean: vec![],
            e_out_std: vec![],
            ..curve
        };
        assert!(learning_curve_svg(&empty, "t", 800, 600).is_err());
    }
}
