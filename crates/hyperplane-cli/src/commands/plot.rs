//! `hyperplane plot`: SVG pictures of models and of learning.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use hyperplane::plot::{self, BoundaryOptions};
use hyperplane::select::{learning_curve, TrainSizes};
use hyperplane::{Error, Result};
use serde_json::json;

use super::{load, read_for, read_training, spec_with_params};
use crate::outln;
use crate::output::{json_text, table};
use crate::progress::Step;
use crate::DataArgs;

/// The arguments of `hyperplane plot`.
#[derive(Args, Debug)]
pub struct PlotArgs {
    #[command(subcommand)]
    command: PlotCommand,
}

/// What to draw.
#[derive(Subcommand, Debug)]
pub enum PlotCommand {
    /// Decision regions of a saved model over data with 2 numeric feature columns.
    #[command(after_help = "\
Examples:
  hyperplane train --data blobs.csv --model gaussian-nb --out blobs.json
  hyperplane plot boundary --model blobs.json --data blobs.csv --out regions.svg

The picture shades a 200 x 200 grid over the data range (plus 5%) by the class the model
predicts there, draws the boundary between the regions, and the points coloured by their
true class. The model must take exactly 2 numeric input columns (a CSV of two numeric
columns plus the label, or a LIBSVM file with 2 features); the data is read like the
training file, so it must have labels.")]
    Boundary(BoundaryArgs),
    /// In-sample and out-of-sample error against the number of training rows.
    #[command(after_help = "\
Examples:
  hyperplane plot learning-curve --data digits.csv --model gaussian-nb --out curve.svg
  hyperplane plot learning-curve --data mail/ --model multinomial-nb --param alpha=0.1 \\
      --sizes 50,100,200,400 --folds 5 --json --out curve.svg

For each of K stratified folds and each training size N, the model is trained on N rows of
the other folds: E_in is its 0/1 error on those N rows, E_out on the held-out fold. The plot
shows the means with a band of one standard deviation; E_out - E_in is the generalisation
gap. Sizes must be at least the number of classes and at most the training rows of a fold.")]
    LearningCurve(LearningCurveArgs),
}

/// Picture size and title.
#[derive(Args, Debug)]
struct PictureArgs {
    /// Where to write the SVG file.
    #[arg(long, value_name = "FILE.svg")]
    out: PathBuf,
    /// Title above the plot (a default names the model and the data).
    #[arg(long)]
    title: Option<String>,
    /// Width in pixels.
    #[arg(long, default_value_t = 800)]
    width: u32,
    /// Height in pixels.
    #[arg(long, default_value_t = 600)]
    height: u32,
}

#[derive(Args, Debug)]
pub struct BoundaryArgs {
    /// A model file written by `train`, `tune` or `demo`.
    #[arg(long, value_name = "MODEL.json")]
    model: PathBuf,
    #[command(flatten)]
    data: DataArgs,
    #[command(flatten)]
    picture: PictureArgs,
    /// Grid cells per axis.
    #[arg(long, default_value_t = 200)]
    resolution: usize,
}

#[derive(Args, Debug)]
pub struct LearningCurveArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Model kind, e.g. gaussian-nb.
    #[arg(long, value_name = "KIND")]
    model: String,
    /// A parameter as NAME=VALUE; repeat for several.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Number of stratified folds.
    #[arg(long, default_value_t = 5)]
    folds: usize,
    /// Training sizes, comma-separated (rows).
    #[arg(
        long,
        value_name = "N1,N2,...",
        value_delimiter = ',',
        conflicts_with = "steps"
    )]
    sizes: Vec<usize>,
    /// Number of sizes evenly spaced from 10% to 100% of a fold's training rows
    /// (default 8 when --sizes is not given).
    #[arg(long, value_name = "S")]
    steps: Option<usize>,
    /// Seed of the folds and of the row order within them.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    picture: PictureArgs,
    /// Print the numbers as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn plot(a: PlotArgs) -> Result<String> {
    match a.command {
        PlotCommand::Boundary(b) => boundary(b),
        PlotCommand::LearningCurve(l) => learning_curve_plot(l),
    }
}

fn boundary(a: BoundaryArgs) -> Result<String> {
    let pipeline = load(&a.model)?;
    let data = read_for(&pipeline, &a.data)?;
    let labels = data.require_labels("the plot colours each point by its true class")?;
    let x = plot::input_points_2d(&data.input)?;
    let title = a.picture.title.clone().unwrap_or_else(|| {
        format!(
            "{} on {}",
            pipeline.kind(),
            a.data
                .data
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
        )
    });
    let options = BoundaryOptions {
        title,
        width: a.picture.width,
        height: a.picture.height,
        resolution: a.resolution,
        ..BoundaryOptions::default()
    };
    let svg = {
        let _s = Step::start("predicting over the grid");
        plot::boundary_svg(&pipeline, &x, labels, &options)?
    };
    plot::write_svg(&a.picture.out, &svg)?;
    let mut out = String::new();
    outln!(
        out,
        "wrote {} (decision regions of {} over {}, {} points)",
        a.picture.out.display(),
        pipeline.kind(),
        pipeline.feature_names().join(", "),
        x.nrows()
    );
    Ok(out)
}

fn learning_curve_plot(a: LearningCurveArgs) -> Result<String> {
    let spec = spec_with_params(&a.model, &a.params)?;
    let sizes = match (a.sizes.is_empty(), a.steps) {
        (false, _) => TrainSizes::Rows(a.sizes.clone()),
        (true, steps) => TrainSizes::Steps(steps.unwrap_or(8)),
    };
    let data = read_training(&a.data)?;
    let curve = {
        let _s = Step::start(&format!("fitting {} on every size and fold", a.model));
        learning_curve(&spec, &data, &sizes, a.folds, a.seed)?
    };
    let title = a.picture.title.clone().unwrap_or_else(|| {
        format!(
            "Learning curve of {} on {}",
            a.model,
            a.data
                .data
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
        )
    });
    let svg = plot::learning_curve_svg(&curve, &title, a.picture.width, a.picture.height)?;
    plot::write_svg(&a.picture.out, &svg)?;
    let mut out = String::new();
    if a.json {
        let mut value = serde_json::to_value(&curve).map_err(|e| Error::data(e.to_string()))?;
        value["out"] = json!(a.picture.out);
        out.push_str(&json_text(&value));
        return Ok(out);
    }
    let mut rows = vec![["N", "E_in mean", "E_in std", "E_out mean", "E_out std"]
        .map(String::from)
        .to_vec()];
    for r in curve.rows() {
        let mut row = vec![format!("{}", r[0])];
        row.extend(r[1..].iter().map(|v| format!("{v:.4}")));
        rows.push(row);
    }
    outln!(
        out,
        "{} on {}: 0/1 error over {} stratified folds\n",
        a.model,
        a.data.data.display(),
        curve.folds
    );
    out.push_str(&table(&rows));
    outln!(out, "\nwrote {}", a.picture.out.display());
    Ok(out)
}
