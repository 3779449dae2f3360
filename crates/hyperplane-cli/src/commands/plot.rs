//! `hyperplane plot`: SVG pictures of models and of learning.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use hyperplane::data::Dataset;
use hyperplane::estimator::Classifier;
use hyperplane::linear::experiment::{self, LearningCurveSetup};
use hyperplane::linear::{Order, Perceptron};
use hyperplane::plot::{self, BoundaryOptions, LineChart, PlaOptions};
use hyperplane::select::TrainSizes;
use hyperplane::theory::HypothesisSet;
use hyperplane::{Error, Features, Result};
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
    /// The VC error bar and the single-hypothesis Hoeffding error bar against N.
    #[command(after_help = "\
Examples:
  hyperplane plot bounds --dvc 3 --delta 0.05 --out bounds.svg
  hyperplane plot bounds --dvc 3 --delta 0.1 --n-max 1000000 --binomial --eps 0.1,0.05 --json --out b.svg

With probability >= 1 - delta, |E_in - E_out| <= Omega = sqrt(8/N ln(4 m_H(2N)/delta)) for
every hypothesis of a set of VC dimension d_vc (m_H(N) <= N^d_vc + 1; --binomial adds the
tighter B(N, d_vc + 1)), against sqrt(ln(2/delta)/(2N)) for one hypothesis fixed before the
data. Each --eps draws a level line and prints the N the VC bound needs to reach it.")]
    Bounds(BoundsArgs),
    /// The growth function m_H(N) of a hypothesis set beside 2^N (log scale).
    #[command(after_help = "\
Examples:
  hyperplane plot growth --set perceptron --d 2 --n-max 40 --out growth.svg
  hyperplane plot growth --set convex --n-max 30 --out convex.svg

Sets: rays (N + 1), intervals (N(N+1)/2 + 1), convex (2^N), perceptron in --d dimensions
(2 sum_{k<=d} C(N-1, k)). With a finite VC dimension the bounds N^d_vc + 1 and B(N, d_vc + 1)
are drawn dashed. N goes from 1 to --n-max (at most 996: 2^N must fit a log axis of 300 decades).")]
    Growth(GrowthArgs),
    /// The simulated learning curve of linear regression beside sigma^2 (1 -/+ (d+1)/N).
    #[command(
        name = "linreg-curve",
        after_help = "\
Examples:
  hyperplane plot linreg-curve --d 5 --sigma 0.5 --out linreg.svg
  hyperplane plot linreg-curve --d 3 --sigma 1 --sizes 10,20,50,100,500 --runs 200 --seed 7 --json --out l.svg

Each run draws x ~ N(0, I_d), y = w_f.x + b_f + noise of variance sigma^2, fits least squares
and measures E_in on the sample and E_out on the same inputs with fresh noise; the means over
--runs runs are drawn beside the expected sigma^2 (1 - (d+1)/N) and sigma^2 (1 + (d+1)/N).
Every size must exceed d + 1."
    )]
    LinregCurve(LinregCurveArgs),
    /// The training curve of a neural network model: loss (and validation error) by epoch.
    #[command(
        name = "loss-curve",
        after_help = "\
Examples:
  hyperplane train --data digits.csv --model mlp --param hidden=64 --out net.json
  hyperplane plot loss-curve --model net.json --out loss.svg
  hyperplane train --data digits.csv --model mlp --param early_stopping=true --out es.json
  hyperplane plot loss-curve --model es.json --json --out es.svg

The training loss is the mean loss of each epoch's mini-batches (cross-entropy or squared
error, plus the L2 penalty), one point per epoch; for solver=lbfgs one point per evaluation
of the objective. With early_stopping the validation error 1 - score of the held-out rows
(accuracy for mlp, R^2 for mlp-regressor) is drawn beside it."
    )]
    LossCurve(LossCurveArgs),
    /// The perceptron learning algorithm's walk on 2-D binary data, update by update.
    #[command(after_help = "\
Examples:
  hyperplane plot pla --data separable.csv --out pla.svg
  hyperplane plot pla --data points.csv --label-col y --order random --seed 3 --every 5 --out pla.svg

PLA starts from w = 0 and corrects one mistake at a time. The picture draws the line
w.x + b = 0 after each update (every --every-th, the latest --max-lines of them, older ones
fainter) and the final line bold; the title says how many updates it made and whether it
converged (separable data) or stopped at its budget.")]
    Pla(PlaArgs),
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
pub struct LossCurveArgs {
    /// A model file of kind mlp or mlp-regressor, written by `train`.
    #[arg(long, value_name = "MODEL.json")]
    model: PathBuf,
    #[command(flatten)]
    picture: PictureArgs,
    /// Print the numbers as JSON instead of a summary.
    #[arg(long)]
    json: bool,
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
    /// Do not draw the margins w.x + b = ±1 of a linear model (its line is still drawn).
    #[arg(long)]
    no_margins: bool,
}

#[derive(Args, Debug)]
pub struct BoundsArgs {
    /// VC dimension d_vc.
    #[arg(long)]
    dvc: u64,
    /// Probability delta in (0, 1) that the bound fails.
    #[arg(long, allow_negative_numbers = true)]
    delta: f64,
    /// Largest sample size N drawn.
    #[arg(long, default_value_t = 100_000)]
    n_max: u64,
    /// Number of sample sizes, log-spaced from 1 to --n-max.
    #[arg(long, default_value_t = 60)]
    points: usize,
    /// Also draw the VC bound with m_H(N) <= B(N, d_vc + 1).
    #[arg(long)]
    binomial: bool,
    /// Target tolerances: a level line each, with the N the VC bound needs.
    #[arg(
        long,
        value_name = "E1,E2,...",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    eps: Vec<f64>,
    #[command(flatten)]
    picture: PictureArgs,
    /// Print the numbers as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct GrowthArgs {
    /// rays, intervals, convex or perceptron.
    #[arg(long)]
    set: String,
    /// The perceptron's dimension (default 2).
    #[arg(long)]
    d: Option<u64>,
    /// Largest N (at most 996).
    #[arg(long, default_value_t = 30)]
    n_max: u64,
    #[command(flatten)]
    picture: PictureArgs,
    /// Print the numbers as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct LinregCurveArgs {
    /// Input dimension d.
    #[arg(long, default_value_t = 5)]
    d: usize,
    /// Noise standard deviation sigma.
    #[arg(long, default_value_t = 0.5, allow_negative_numbers = true)]
    sigma: f64,
    /// Sample sizes N, comma-separated, each > d + 1 (default: 2(d+1), 3(d+1), 5(d+1),
    /// 10(d+1), 20(d+1), 50(d+1)).
    #[arg(long, value_name = "N1,N2,...", value_delimiter = ',')]
    sizes: Vec<usize>,
    /// Data sets drawn per size.
    #[arg(long, default_value_t = 1000)]
    runs: usize,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    picture: PictureArgs,
    /// Print the numbers as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct PlaArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Row order of each pass: cyclic or random.
    #[arg(long, default_value = "cyclic")]
    order: String,
    /// Seed of the random order.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Draw the line after every K-th update (the final one always).
    #[arg(long, value_name = "K", default_value_t = 1)]
    every: usize,
    /// Most intermediate lines drawn (the latest ones).
    #[arg(long, default_value_t = 50)]
    max_lines: usize,
    /// Update budget of PLA.
    #[arg(long, default_value_t = 10_000)]
    max_updates: usize,
    #[command(flatten)]
    picture: PictureArgs,
    /// Print the walk as JSON (updates, converged, final weights, the trace drawn).
    #[arg(long)]
    json: bool,
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
        PlotCommand::Bounds(b) => bounds(b),
        PlotCommand::Growth(g) => growth(g),
        PlotCommand::LinregCurve(l) => linreg_curve(l),
        PlotCommand::LossCurve(l) => loss_curve(l),
        PlotCommand::Pla(p) => pla(p),
    }
}

/// Renders `chart` (with the title of `--title` when given) and writes it to `--out`.
fn write_chart(mut chart: LineChart, p: &PictureArgs) -> Result<()> {
    if let Some(t) = &p.title {
        chart.title = t.clone();
    }
    let svg = plot::line_chart_svg(&chart, p.width, p.height)?;
    plot::write_svg(&p.out, &svg)
}

/// `value` as JSON with the output path added.
fn json_with_out(value: &impl serde::Serialize, out: &std::path::Path) -> Result<String> {
    let mut value = serde_json::to_value(value).map_err(|e| Error::data(e.to_string()))?;
    value["out"] = json!(out);
    Ok(json_text(&value))
}

/// The most sample sizes `plot bounds` draws.
const MAX_POINTS: usize = 10_000;
/// The most multiply-adds `plot linreg-curve` may spend: `runs x sum of N (d + 1)^2` over
/// the sizes (about a minute; the defaults take 2 x 10^7).
const MAX_LINREG_WORK: f64 = 1e11;
/// The largest PLA update budget `plot pla` takes.
const MAX_PLA_UPDATES: usize = 10_000_000;

fn bounds(a: BoundsArgs) -> Result<String> {
    if !(2..=MAX_POINTS).contains(&a.points) {
        return Err(Error::param(
            "points",
            a.points,
            format!("must be between 2 and {MAX_POINTS}"),
        ));
    }
    let ns = plot::log_spaced(a.n_max, a.points);
    let t = plot::bounds_table(a.dvc, a.delta, &ns, a.binomial, &a.eps)?;
    write_chart(plot::bounds_chart(&t), &a.picture)?;
    if a.json {
        return json_with_out(&t, &a.picture.out);
    }
    let mut head = vec!["N", "eps_VC"];
    if a.binomial {
        head.push("eps_VC binomial");
    }
    head.push("eps_Hoeffding");
    let mut rows = vec![head.into_iter().map(String::from).collect::<Vec<_>>()];
    for r in &t.rows {
        let mut row = vec![r.n.to_string(), format!("{:.6}", r.eps_vc)];
        row.extend(r.eps_vc_binomial.map(|v| format!("{v:.6}")));
        row.push(format!("{:.6}", r.eps_hoeffding));
        rows.push(row);
    }
    let mut out = String::new();
    outln!(
        out,
        "error bars with probability >= 1 - {}: VC sqrt(8/N ln(4 m_H(2N)/delta)), m_H(N) <= N^{} + 1; Hoeffding sqrt(ln(2/delta)/(2N))\n",
        a.delta,
        a.dvc
    );
    out.push_str(&table(&rows));
    for tol in &t.tolerances {
        outln!(
            out,
            "eps = {}: the VC bound needs N >= {}",
            tol.eps,
            tol.n_vc
        );
    }
    outln!(out, "\nwrote {}", a.picture.out.display());
    Ok(out)
}

fn growth(a: GrowthArgs) -> Result<String> {
    let set = HypothesisSet::named(&a.set, a.d)?;
    let t = plot::growth_table(set, a.n_max)
        .map_err(|e| super::as_flags(e, &[("n_max", "--n-max")]))?;
    write_chart(plot::growth_chart(&t), &a.picture)?;
    if a.json {
        return json_with_out(&t, &a.picture.out);
    }
    let bounded = t.vc_dimension.is_some();
    let mut head: Vec<String> = ["N", "m_H(N)", "2^N"].map(String::from).to_vec();
    if let (Some(d), Some(k)) = (t.vc_dimension, t.break_point) {
        head.push(format!("N^{d} + 1"));
        head.push(format!("B(N, {k})"));
    }
    let mut rows = vec![head];
    for r in &t.rows {
        let mut row = vec![
            r.n.to_string(),
            r.growth.to_string(),
            r.two_to_n.to_string(),
        ];
        if bounded {
            row.extend(r.polynomial.iter().map(|v| v.to_string()));
            row.extend(r.binomial.iter().map(|v| v.to_string()));
        }
        rows.push(row);
    }
    let mut out = String::new();
    outln!(
        out,
        "growth function of {}: {}\n",
        t.set,
        match (t.vc_dimension, t.break_point) {
            (Some(d), Some(k)) => format!("d_vc = {d}, break point {k}"),
            _ => "infinite VC dimension".to_string(),
        }
    );
    out.push_str(&table(&rows));
    outln!(out, "\nwrote {}", a.picture.out.display());
    Ok(out)
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
    let lines = plot::linear_boundaries(&pipeline, &x, !a.no_margins)?;
    let options = BoundaryOptions {
        title,
        width: a.picture.width,
        height: a.picture.height,
        resolution: a.resolution,
        lines,
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
    for l in &options.lines {
        outln!(
            out,
            "{}: {:.6} x1 + {:.6} x2 + {:.6} = 0{}",
            l.label,
            l.w[0],
            l.w[1],
            l.b,
            if l.margins {
                ", margins at ±1 dashed"
            } else {
                ""
            }
        );
    }
    Ok(out)
}

fn loss_curve(a: LossCurveArgs) -> Result<String> {
    let pipeline = load(&a.model)?;
    let curve = pipeline
        .model()
        .loss_curve()
        .ok_or_else(|| Error::Unsupported {
            model: pipeline.kind().to_string(),
            what: "a loss curve (only neural network models, mlp and mlp-regressor, keep one)"
                .into(),
        })?;
    write_chart(plot::loss_curve_chart(&curve)?, &a.picture)?;
    if a.json {
        return json_with_out(&curve, &a.picture.out);
    }
    let mut out = String::new();
    let last = curve.loss_curve.last().copied().unwrap_or(f64::NAN);
    outln!(
        out,
        "{}: {} points, loss {:.6} -> {last:.6}",
        pipeline.kind(),
        curve.loss_curve.len(),
        curve.loss_curve[0]
    );
    if let Some(best) = curve.validation_scores.iter().copied().reduce(f64::max) {
        outln!(out, "best validation score {best:.6}");
    }
    outln!(out, "wrote {}", a.picture.out.display());
    Ok(out)
}

fn learning_curve_plot(a: LearningCurveArgs) -> Result<String> {
    let spec = spec_with_params(&a.model, &a.params, &[])?;
    let sizes = match (a.sizes.is_empty(), a.steps) {
        (false, _) => TrainSizes::Rows(a.sizes.clone()),
        (true, steps) => TrainSizes::Steps(steps.unwrap_or(8)),
    };
    let data = read_training(&a.data)?;
    let curve = {
        let _s = Step::start(&format!("fitting {} on every size and fold", a.model));
        spec.learning_curve(&data, &sizes, a.folds, a.seed)?
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

fn linreg_curve(a: LinregCurveArgs) -> Result<String> {
    let p = a.d.saturating_add(1);
    let sizes = if a.sizes.is_empty() {
        [2usize, 3, 5, 10, 20, 50]
            .map(|k| k.saturating_mul(p))
            .to_vec()
    } else {
        a.sizes.clone()
    };
    check_linreg_size(&a, &sizes)?;
    let setup = LearningCurveSetup {
        d: a.d,
        sigma: a.sigma,
        sizes,
        runs: a.runs,
        seed: a.seed,
    };
    let curve = {
        let _s = Step::start("fitting least squares on every size and run");
        experiment::learning_curve(&setup)?
    };
    write_chart(plot::linreg_curve_chart(&curve)?, &a.picture)?;
    if a.json {
        return json_with_out(&curve, &a.picture.out);
    }
    let mut rows = vec![[
        "N",
        "E_in",
        "sigma^2 (1 - (d+1)/N)",
        "E_out",
        "sigma^2 (1 + (d+1)/N)",
    ]
    .map(String::from)
    .to_vec()];
    for pt in &curve.points {
        rows.push(vec![
            pt.n.to_string(),
            format!("{:.5}", pt.e_in),
            format!("{:.5}", pt.e_in_theory),
            format!("{:.5}", pt.e_out),
            format!("{:.5}", pt.e_out_theory),
        ]);
    }
    let mut out = String::new();
    outln!(
        out,
        "linear regression, d = {}, sigma = {} (sigma^2 = {}), mean squared errors over {} runs\n",
        a.d,
        a.sigma,
        a.sigma * a.sigma,
        a.runs
    );
    out.push_str(&table(&rows));
    outln!(out, "\nwrote {}", a.picture.out.display());
    Ok(out)
}

/// Refuses a simulation of `plot linreg-curve` whose largest sample does not fit the memory
/// budget or whose work is over [`MAX_LINREG_WORK`].
fn check_linreg_size(a: &LinregCurveArgs, sizes: &[usize]) -> Result<()> {
    let p = a.d.saturating_add(1);
    let largest = sizes.iter().copied().max().unwrap_or(0);
    // a sample, its targets and the least-squares factor
    hyperplane::memory::check(
        || format!("a sample of N = {largest} rows x d + 1 = {p} columns"),
        &[largest, p, 3],
        8,
    )?;
    let work = a.runs as f64 * sizes.iter().map(|&n| n as f64).sum::<f64>() * (p as f64).powi(2);
    if work > MAX_LINREG_WORK {
        return Err(Error::param(
            "runs",
            a.runs,
            format!(
                "{} runs of these sizes with d = {} take about {work:.1e} multiply-adds, over the limit of {MAX_LINREG_WORK:.0e}; lower --runs, --sizes or --d",
                a.runs, a.d
            ),
        ));
    }
    Ok(())
}

fn pla(a: PlaArgs) -> Result<String> {
    if a.max_updates > MAX_PLA_UPDATES {
        return Err(Error::param(
            "max-updates",
            a.max_updates,
            format!("must be at most {MAX_PLA_UPDATES}"),
        ));
    }
    let order: Order = a
        .order
        .parse()
        .map_err(|e: String| Error::param("order", &a.order, e))?;
    let data = read_training(&a.data)?;
    let labels = data.require_labels("PLA learns from labelled points")?;
    let x = plot::input_points_2d(&data.input)?;
    let set = Dataset::new(Features::from(x.clone()), labels)?;
    if set.classes().len() != 2 {
        return Err(Error::data(format!(
            "PLA needs exactly 2 classes; {} has {}",
            a.data.data.display(),
            set.classes().len()
        )));
    }
    let learner = Perceptron {
        order,
        seed: a.seed,
        max_updates: a.max_updates,
        ..Perceptron::default()
    };
    let (model, trace) = learner.fit_traced(&set)?;
    let names = match &data.input {
        hyperplane::data::RawInput::Table(t) => t.names.clone(),
        _ => vec!["x1".into(), "x2".into()],
    };
    let file = a
        .data
        .data
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let options = PlaOptions {
        title: a
            .picture
            .title
            .clone()
            .unwrap_or_else(|| format!("PLA ({order}) on {file}")),
        x_label: names[0].clone(),
        y_label: names[1].clone(),
        width: a.picture.width,
        height: a.picture.height,
        every: a.every,
        max_lines: a.max_lines,
        ..PlaOptions::default()
    };
    let svg = plot::pla_svg(&x, labels, &model, &trace, &options)?;
    plot::write_svg(&a.picture.out, &svg)?;
    let conv = model.convergence();
    let converged = conv.warning.is_none();
    let updates = conv.updates.unwrap_or(0);
    let (w, b) = (model.weights(0), model.intercept()[0]);
    if a.json {
        return Ok(json_text(&json!({
            "updates": updates,
            "converged": converged,
            "in_sample_error": conv.in_sample_error,
            "weights": [w[0], w[1]],
            "intercept": b,
            "classes": model.classes(),
            "trace": trace,
            "out": a.picture.out,
        })));
    }
    let mut out = String::new();
    outln!(
        out,
        "PLA ({order}) on {}: {updates} updates, {}",
        a.data.data.display(),
        if converged {
            "converged (every point on its side)".to_string()
        } else {
            format!(
                "did not converge (E_in = {:.4})",
                conv.in_sample_error.unwrap_or(f64::NAN)
            )
        }
    );
    outln!(
        out,
        "final line: {:.6} {} + {:.6} {} + {:.6} = 0 (+1 side: {})",
        w[0],
        names[0],
        w[1],
        names[1],
        b,
        model.classes()[1]
    );
    if trace.truncated {
        outln!(
            out,
            "(the trace keeps the first {} updates)",
            trace.steps.len() - 1
        );
    }
    outln!(out, "wrote {}", a.picture.out.display());
    Ok(out)
}
