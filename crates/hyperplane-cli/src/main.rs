//! `hyperplane`: train, evaluate, tune and inspect classical models from the command line.

mod commands;
mod output;
mod progress;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use hyperplane::context::Context;
use hyperplane::threads::Threads;

/// Classical machine learning from the command line: Naive Bayes, linear models and
/// regressors, learning theory and plots.
#[derive(Parser, Debug)]
#[command(name = "hyperplane", version, about, long_about = None)]
#[command(after_help = "Start with `hyperplane demo`, then `hyperplane <command> --help`.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Threads to use (default: all cores, or RAYON_NUM_THREADS); results are the same for
    /// any count.
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
    /// Memory budget for work sized by the input (files, parameters, arguments), checked
    /// before allocating: bytes or K, M, G, T (powers of 1024), e.g. 512M or 4G (default:
    /// half of the physical memory).
    #[arg(long, global = true, value_name = "SIZE")]
    max_memory: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Train a model on a labelled file or folder and save it.
    #[command(after_help = format!("\
Examples:
  hyperplane train --data mail/ --model multinomial-nb --out spam.json
  hyperplane train --data adult_train.csv --model categorical-nb --label-col income \\
      --missing category --out adult.json
  hyperplane train --data heart_scale --model gaussian-nb --param var_smoothing=1e-8 --out heart.json

  hyperplane train --data heart_scale --model perceptron --param order=random --out pla.json
  hyperplane train --data iris.csv --model logistic-regression --multiclass ovo --param scale=standard --out iris.json
  hyperplane train --data points.csv --model pocket --poly 2 --param init=linreg --out pocket.json
  hyperplane train --data diabetes.csv --model ridge --param alpha=0.1 --out ridge.json
  hyperplane train --data mail/ --model complement-nb --param vectorizer=tfidf --param vectorizer.norm=l1 --out m.json

Parameters (--param NAME=VALUE, repeatable, in any order) belong to the model, the text
vectorizer, the discretizer, the CSV encoder or the pipeline itself; write component.name
(model.norm, vectorizer.norm, pipeline.scale) when two components share a name.
`hyperplane kinds --model KIND` lists them with defaults and ranges; `hyperplane inspect`
shows what a model used.

{}", train_kinds()))]
    Train(TrainArgs),
    /// Print one predicted label per input row (or the class probabilities).
    #[command(after_help = "\
Examples:
  hyperplane predict --model spam.json --data new_mail/
  hyperplane predict --model adult.json --data adult_test.csv --proba

The input may be labelled like the training file (its label column is ignored) or not.")]
    Predict(PredictArgs),
    /// Accuracy, confusion matrix and per-class precision / recall / F1 on labelled data.
    #[command(after_help = "\
Examples:
  hyperplane evaluate --model spam.json --data test_mail/
  hyperplane evaluate --model adult.json --data adult_test.csv --json
  hyperplane evaluate --model fingerprint.json --data test.csv --costs \"0,1000;1,0\"")]
    Evaluate(EvaluateArgs),
    /// Choose parameters by cross-validation or on a validation split.
    #[command(after_help = "\
Examples:
  hyperplane tune --data mail/ --model multinomial-nb --grid alpha=0.01,0.1,1 --cv 5
  hyperplane tune --data train.csv --model categorical-nb --grid alpha=0.5,1 --grid n_bins=5,10 \\
      --valid-fraction 0.25 --out best.json")]
    Tune(TuneArgs),
    /// Show what a model file holds: kind, parameters, classes, priors, top features; for
    /// linear models the intercepts, weight norms, convergence and (with --data) margins,
    /// and for a perceptron its updates beside the PLA bound R^2/rho^2 on the data.
    #[command(
        after_help = "Examples:\n  hyperplane inspect --model spam.json --top 15\n  hyperplane inspect --model pla.json --data train.csv   # margins and the PLA bound on the training data"
    )]
    Inspect(InspectArgs),
    /// Write a model file in another tool's format (LIBSVM's own model format).
    #[command(after_help = "\
Examples:
  hyperplane train --data heart_scale --model svc --param gamma=auto --out heart.json
  hyperplane export --model heart.json --format libsvm --out heart.model
  svm-predict heart_scale heart.model out.txt        # LIBSVM reads it
  hyperplane predict --model heart.model --data heart_scale   # and so do we

LIBSVM's model format (what svm-train writes and svm-predict reads) is plain text: a header
(svm_type, kernel_type and its gamma / degree / coef0, nr_class, total_sv, rho per pair of
classes, label, probA / probB with probabilities, nr_sv per class), then one line per support
vector: its coefficients and its index:value entries, indices from 1.

It holds a kernel SVM alone: svc, nu-svc, svr, nu-svr and one-class-svm trained on
LIBSVM-format numeric rows, with integer class labels. It cannot hold a text vectorizer, a
CSV encoder, scaling, binning or polynomial features (nothing turns raw input into those
rows), nor linear models (linear-svm, hard-margin-svm, logistic regression...), nor what
training reported (objective, iterations): those models are refused with the reason.

A LIBSVM model file is read wherever a model file is (predict, evaluate, inspect, plot); its
classes are listed sorted, as ours are, whatever order LIBSVM kept them in.")]
    Export(ExportArgs),
    /// Train a spam filter on the built-in SpamAssassin corpus, end to end, in seconds.
    #[command(after_help = "Examples:
  hyperplane demo --out spam-model.json
  hyperplane demo --unpack mail      # the e-mails as files, to train on yourself:
  hyperplane train --data mail --model multinomial-nb --out spam.json")]
    Demo(DemoArgs),
    /// Learning theory: Hoeffding, growth functions, B(N, k), shattering, VC bound, coins.
    #[command(subcommand)]
    Theory(commands::TheoryCommand),
    /// The model kinds, or the parameters of one (by component, with defaults and ranges).
    #[command(after_help = "\
Examples:
  hyperplane kinds
  hyperplane kinds --model logistic-regression
  hyperplane kinds --model complement-nb --param vectorizer=tfidf")]
    Kinds(commands::kinds::KindsArgs),
    /// Draw SVG plots: decision regions of a model, learning curves.
    #[command(
        after_help = "See `hyperplane plot boundary --help` and `hyperplane plot learning-curve --help`."
    )]
    Plot(commands::plot::PlotArgs),
}

/// Where the data comes from and how to read it.
#[derive(Args, Debug, Clone)]
struct DataArgs {
    /// Data file or folder (CSV, LIBSVM, TSV `label<TAB>text`, or a folder with one
    /// sub-folder of documents per class).
    #[arg(long, value_name = "FILE_OR_DIR")]
    data: PathBuf,
    /// Input format; guessed from the extension, the folder or the content when omitted.
    #[arg(long, value_name = "csv|libsvm|tsv|dir")]
    format: Option<String>,
    /// CSV label column: a header name, a 0-based index, `last` (default) or `none`.
    #[arg(long, value_name = "NAME_OR_INDEX")]
    label_col: Option<String>,
    /// CSV field delimiter: `,` `;` or `tab` (sniffed when omitted).
    #[arg(long, value_name = "CHAR")]
    delimiter: Option<String>,
    /// CSV missing values (empty, `?`, `NA`): `error` (default), `drop` rows, or `category`
    /// (a missing categorical value becomes its own category).
    #[arg(long, value_name = "POLICY")]
    missing: Option<String>,
}

#[derive(Args, Debug)]
struct TrainArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Model kind, e.g. multinomial-nb.
    #[arg(long, value_name = "KIND")]
    model: String,
    /// A parameter as NAME=VALUE; repeat for several.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// How a binary kind ("two classes" in `hyperplane kinds`) meets more than two classes:
    /// one-vs-all (default) or one-vs-one. Same as --param multiclass=...
    #[arg(long, value_name = "ova|ovo")]
    multiclass: Option<String>,
    /// Map the features through the polynomial transform Phi_Q (every monomial of degree
    /// <= Q; C(Q + d, d) features with the constant) before the model. Same as --param poly=Q.
    #[arg(long, value_name = "Q")]
    poly: Option<usize>,
    /// Where to write the model file.
    #[arg(long, value_name = "MODEL.json")]
    out: PathBuf,
    /// Print a JSON summary instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct PredictArgs {
    /// A model file written by `train`, `tune` or `demo`, or a LIBSVM model file.
    #[arg(long, value_name = "MODEL.json")]
    model: PathBuf,
    #[command(flatten)]
    data: DataArgs,
    /// Print the class probabilities (one column per class) instead of labels.
    #[arg(long)]
    proba: bool,
    /// Print JSON lines instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct EvaluateArgs {
    /// A model file written by `train`, `tune` or `demo`, or a LIBSVM model file.
    #[arg(long, value_name = "MODEL.json")]
    model: PathBuf,
    #[command(flatten)]
    data: DataArgs,
    /// Also report the mean cost under a cost matrix: rows = true class, columns =
    /// predicted class, in the model's class order (see `inspect`), rows separated by `;`.
    /// Example for classes [-1, 1] with false accepts costing 1000: `--costs "0,1000;1,0"`.
    #[arg(long, value_name = "MATRIX")]
    costs: Option<String>,
    /// Print one JSON object (keys include accuracy, n_samples, confusion_matrix, classes).
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct TuneArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Model kind, e.g. multinomial-nb.
    #[arg(long, value_name = "KIND")]
    model: String,
    /// Values to try as NAME=V1,V2,...; repeat for a grid over several parameters.
    #[arg(long, value_name = "NAME=V1,V2,...", required = true)]
    grid: Vec<String>,
    /// Fixed parameters as NAME=VALUE.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Stratified k-fold cross-validation with K folds (default 5).
    #[arg(long, value_name = "K", conflicts_with = "valid_fraction")]
    cv: Option<usize>,
    /// Score on a stratified validation split holding this fraction of the rows instead.
    #[arg(long, value_name = "F")]
    valid_fraction: Option<f64>,
    /// Seed for the folds or the split.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Refit the best setting on all rows and save it here.
    #[arg(long, value_name = "MODEL.json")]
    out: Option<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct InspectArgs {
    /// A model file (ours, or a LIBSVM model file).
    #[arg(long, value_name = "MODEL.json")]
    model: PathBuf,
    /// How many top features to show per class.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Labelled data on which to report the margins of a linear model: per data set the
    /// smallest functional margin y(w.x + b) and geometric margin y(w.x + b)/||w||.
    #[arg(long, value_name = "FILE")]
    data: Option<PathBuf>,
    /// Label column of --data (CSV), as for the other commands.
    #[arg(long, value_name = "NAME_OR_INDEX")]
    label_col: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct ExportArgs {
    /// The model file to convert (ours, or a LIBSVM model file).
    #[arg(long, value_name = "MODEL.json")]
    model: PathBuf,
    /// The format to write: `libsvm` (LIBSVM's model format, read by svm-predict).
    #[arg(long, value_name = "libsvm")]
    format: String,
    /// Where to write it.
    #[arg(long, value_name = "FILE.model")]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct DemoArgs {
    /// Where to save the trained spam filter.
    #[arg(long, value_name = "MODEL.json", default_value = "spam-model.json")]
    out: PathBuf,
    /// Seed of the train / validation / test split.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print JSON instead of a report.
    #[arg(long)]
    json: bool,
    /// Write the corpus to DIR as a class folder (DIR/ham, DIR/spam: one file per e-mail,
    /// the layout `train --data DIR` reads) instead of running the demo. DIR must be new or
    /// empty.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "seed", "json"])]
    unpack: Option<PathBuf>,
}

/// The kinds after the examples of `train --help`, from the registry.
fn train_kinds() -> String {
    format!("Model kinds:{}", commands::kinds::help_list())
}

/// Runs one command; its whole output, or the error.
fn run(command: Command) -> hyperplane::Result<String> {
    match command {
        Command::Train(a) => commands::train(a),
        Command::Predict(a) => commands::predict(a),
        Command::Evaluate(a) => commands::evaluate(a),
        Command::Tune(a) => commands::tune(a),
        Command::Inspect(a) => commands::inspect(a),
        Command::Export(a) => commands::export(a),
        Command::Demo(a) => commands::demo(a),
        Command::Theory(c) => commands::theory(c),
        Command::Kinds(a) => commands::kinds::kinds(a),
        Command::Plot(a) => commands::plot::plot(a),
    }
}

/// The exit status of a command-line usage error (clap's).
const USAGE_ERROR: u8 = 2;
/// The exit status of an internal error, a panic (`EX_SOFTWARE` of `sysexits.h`).
const INTERNAL_ERROR: u8 = 70;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(report_panic));
    hyperplane::memory::keep_freed_memory();
    match std::panic::catch_unwind(run_cli) {
        Ok(code) => code,
        Err(_) => ExitCode::from(INTERNAL_ERROR),
    }
}

/// Parses the arguments, runs the command and prints its output or its one-line error.
fn run_cli() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(), // --help, --version
        Err(e) => {
            eprintln!("{}", one_line_usage_error(&e.render().to_string()));
            return ExitCode::from(USAGE_ERROR);
        }
    };
    let result = context(&cli).and_then(|c| c.run(|| run(cli.command)).and_then(|r| r));
    match result {
        Ok(text) => match output::emit(&text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: writing the output: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("error: {}", e.to_string().replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

/// The context every command runs in: the global flags and the spinner's progress.
fn context(cli: &Cli) -> hyperplane::Result<Context> {
    let mut context = Context::new()
        .threads(Threads::from_setting(cli.threads))
        .progress(progress::show);
    if let Some(size) = &cli.max_memory {
        context = context.memory_budget(hyperplane::memory::parse_size(size)?);
    }
    Ok(context)
}

/// clap's usage error on one line: its message and tips, without the usage block.
fn one_line_usage_error(rendered: &str) -> String {
    let words: Vec<&str> = rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    format!("{} (see --help)", words.join(" "))
}

/// The panic hook: one line naming the panic and where it happened, asking for a report
/// (the first panic only, when several threads panic).
fn report_panic(info: &std::panic::PanicHookInfo) {
    static REPORTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if REPORTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    let place = info
        .location()
        .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
    eprintln!("{}", internal_error(message, &place));
}

/// The one line of an internal error.
fn internal_error(message: &str, place: &str) -> String {
    format!(
        "error: internal error: {}{place}; please report it at {}/issues",
        message.replace('\n', " "),
        env!("CARGO_PKG_REPOSITORY")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_are_one_line_naming_the_panic() {
        let line = internal_error("index out of bounds\nsecond", " at src/x.rs:3");
        assert!(!line.contains('\n'), "{line}");
        assert!(line.contains("internal error: index out of bounds second at src/x.rs:3"));
        assert!(line.contains("please report it at https://"), "{line}");
    }

    #[test]
    fn usage_errors_are_one_line() {
        let e = Cli::try_parse_from(["hyperplane", "plot", "bounds", "--points", "1e9"])
            .unwrap_err()
            .render()
            .to_string();
        let line = one_line_usage_error(&e);
        assert!(!line.contains('\n') && line.contains("'1e9'"), "{line}");
    }
}
