//! Draws the pictures in docs/images from vendored data sets:
//!
//! ```text
//! cargo run --release --example plot_gallery -- docs/images
//! ```
//!
//! - `boundary.svg`: Gaussian Naive Bayes decision regions on two columns of heart_scale
//!   (maximum heart rate and ST depression, both scaled to [-1, 1]).
//! - `learning_curve.svg`: E_in and E_out of Gaussian Naive Bayes on the digits, 5 folds.
//! - `boundary_linear.svg`: logistic regression (standardised inputs) on iris versicolor
//!   against virginica by petal length and width, its line `w.x + b = 0` and margins.
//! - `pla.svg`: PLA's walk on iris setosa against versicolor by sepal length and width.
//! - `bounds.svg`: the VC error bar (polynomial and binomial) beside Hoeffding, `d_vc = 3`.
//! - `growth.svg`: `m_H(N)` of 2-D perceptrons beside `2^N`, `N^3 + 1` and `B(N, 4)`.
//! - `linreg_curve.svg`: the linear-regression learning curve, `d = 5`, `sigma = 0.5`.

use std::path::{Path, PathBuf};

use hyperplane::data::read::{read, ReadOptions};
use hyperplane::data::{Dataset, Label, LabelledInput, RawInput};
use hyperplane::linear::experiment::{self, LearningCurveSetup};
use hyperplane::linear::Perceptron;
use hyperplane::pipeline::PipelineSpec;
use hyperplane::plot::{self, BoundaryOptions, LineChart, PlaOptions};
use hyperplane::select::TrainSizes;
use hyperplane::theory::HypothesisSet;
use hyperplane::{Error, Features, Result};
use ndarray::{Array2, Axis};

fn data(name: &str) -> Result<LabelledInput> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    read(&path, &ReadOptions::default())
}

/// Two columns of the iris rows of two species (0 setosa, 1 versicolor, 2 virginica),
/// labelled by species name.
fn iris(columns: [usize; 2], species: [usize; 2]) -> Result<(Array2<f64>, Vec<Label>)> {
    const NAMES: [&str; 3] = ["setosa", "versicolor", "virginica"];
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/iris.csv");
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    let (mut values, mut labels) = (Vec::new(), Vec::new());
    for line in text.lines().skip(1) {
        let cells: Vec<f64> = line
            .split(',')
            .map(|c| c.trim().parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| Error::data(format!("iris.csv: {e}")))?;
        let class = cells[4] as usize;
        if species.contains(&class) {
            values.extend(columns.map(|j| cells[j]));
            labels.push(Label::from(NAMES[class]));
        }
    }
    let x = Array2::from_shape_vec((labels.len(), 2), values)
        .map_err(|e| Error::data(e.to_string()))?;
    Ok((x, labels))
}

fn save(out: &Path, name: &str, svg: &str) -> Result<()> {
    let path = out.join(name);
    plot::write_svg(&path, svg)?;
    println!("wrote {} ({} KB)", path.display(), svg.len() / 1024);
    Ok(())
}

fn chart(out: &Path, name: &str, chart: &LineChart) -> Result<()> {
    save(out, name, &plot::line_chart_svg(chart, 800, 600)?)
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
        input: RawInput::Matrix(Features::from(x.clone())),
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
    let curve = spec.learning_curve(&digits, &TrainSizes::Steps(10), 5, 0)?;
    let svg = plot::learning_curve_svg(&curve, "Learning curve: Gaussian NB on digits", 800, 600)?;
    let path = out.join("learning_curve.svg");
    plot::write_svg(&path, &svg)?;
    println!("wrote {}", path.display());

    // Petal length and width (columns 2, 3) of versicolor and virginica.
    let (x, labels) = iris([2, 3], [1, 2])?;
    let two = LabelledInput {
        input: RawInput::Matrix(Features::from(x.clone())),
        labels: Some(labels.clone()),
        source: "iris.csv".into(),
    };
    let mut spec = PipelineSpec::new("logistic-regression")?;
    spec.set_param("scale", "standard")?;
    let model = spec.fit(&two)?;
    let options = BoundaryOptions {
        title: "Logistic regression on iris: w.x + b = 0 and margins ±1".into(),
        x_label: "petal length (cm)".into(),
        y_label: "petal width (cm)".into(),
        resolution: 120,
        lines: plot::linear_boundaries(&model, &x, true)?,
        ..BoundaryOptions::default()
    };
    save(
        &out,
        "boundary_linear.svg",
        &plot::boundary_svg(&model, &x, &labels, &options)?,
    )?;

    // Sepal length and width (columns 0, 1) of setosa and versicolor: separable.
    let (x, labels) = iris([0, 1], [0, 1])?;
    let data = Dataset::new(Features::from(x.clone()), &labels)?;
    let (model, trace) = Perceptron::default().fit_traced(&data)?;
    let options = PlaOptions {
        title: "PLA on iris setosa vs versicolor".into(),
        x_label: "sepal length (cm)".into(),
        y_label: "sepal width (cm)".into(),
        max_lines: 40,
        ..PlaOptions::default()
    };
    save(
        &out,
        "pla.svg",
        &plot::pla_svg(&x, &labels, &model, &trace, &options)?,
    )?;

    let ns = plot::log_spaced(1_000_000, 60);
    let bounds = plot::bounds_table(3, 0.05, &ns, true, &[0.1])?;
    chart(&out, "bounds.svg", &plot::bounds_chart(&bounds))?;

    let growth = plot::growth_table(HypothesisSet::Perceptron { d: 2 }, 40)?;
    chart(&out, "growth.svg", &plot::growth_chart(&growth))?;

    let setup = LearningCurveSetup {
        d: 5,
        sigma: 0.5,
        sizes: vec![8, 10, 15, 20, 30, 50, 100, 200],
        runs: 2000,
        seed: 0,
    };
    let curve = experiment::learning_curve(&setup)?;
    chart(&out, "linreg_curve.svg", &plot::linreg_curve_chart(&curve)?)?;
    Ok(())
}
