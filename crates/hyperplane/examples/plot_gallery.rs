//! Draws the pictures in docs/images from vendored data sets:
//!
//! ```text
//! cargo run --release --example plot_gallery -- docs/images
//! ```
//!
//! - `boundary.svg`: Gaussian Naive Bayes decision regions on two columns of heart_scale
//!   (maximum heart rate and ST depression, both scaled to [-1, 1]).
//! - `learning_curve.svg`: E_in and E_out of Gaussian Naive Bayes on the digits, 5 folds.

use std::path::{Path, PathBuf};

use hyperplane::data::read::{read, ReadOptions};
use hyperplane::data::{LabelledInput, RawInput};
use hyperplane::pipeline::PipelineSpec;
use hyperplane::plot::{self, BoundaryOptions};
use hyperplane::select::{learning_curve, TrainSizes};
use hyperplane::{Error, Features, Result};
use ndarray::Axis;

fn data(name: &str) -> Result<LabelledInput> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    read(&path, &ReadOptions::default())
}

fn main() -> Result<()> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "docs/images".into()),
    );

    // Two of heart_scale's 13 features: 8 = maximum heart rate, 10 = ST depression.
    let heart = data("heart_scale")?;
    let RawInput::Matrix(x) = &heart.input else {
        return Err(Error::data("heart_scale is a LIBSVM file"));
    };
    let x = x.to_dense().select(Axis(1), &[7, 9]);
    let labels = heart.labels.clone().unwrap_or_default();
    let two = LabelledInput {
        input: RawInput::Matrix(Features::Dense(x.clone())),
        ..heart
    };
    let model = PipelineSpec::new("gaussian-nb")?.fit(&two)?;
    let svg = plot::boundary_svg(
        &model,
        &x,
        &labels,
        &BoundaryOptions {
            title: "Gaussian NB on heart_scale: heart disease (+1) or not (-1)".into(),
            x_label: "maximum heart rate (scaled)".into(),
            y_label: "ST depression (scaled)".into(),
            ..BoundaryOptions::default()
        },
    )?;
    let path = out.join("boundary.svg");
    plot::write_svg(&path, &svg)?;
    println!("wrote {}", path.display());

    let digits = data("digits.csv")?;
    let spec = PipelineSpec::new("gaussian-nb")?;
    let curve = learning_curve(&spec, &digits, &TrainSizes::Steps(10), 5, 0)?;
    let svg = plot::learning_curve_svg(&curve, "Learning curve: Gaussian NB on digits", 800, 600)?;
    let path = out.join("learning_curve.svg");
    plot::write_svg(&path, &svg)?;
    println!("wrote {}", path.display());
    Ok(())
}
