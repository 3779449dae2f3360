//! One function per subcommand: parse arguments into library calls, print the result.

mod demo;
pub mod kinds;
pub mod plot;
mod theory;

use std::path::Path;

use hyperplane::data::read::{read, Format, LabelColumn, MissingPolicy, ReadOptions};
use hyperplane::data::LabelledInput;
use hyperplane::linear::{Margins, PlaCheck};
use hyperplane::metrics::CostMatrix;
use hyperplane::pipeline::{
    Evaluation, LinearSummary, Pipeline, PipelineSpec, TrainingScore, Validation,
};
use hyperplane::select::ParamGrid;
use hyperplane::{Error, Result};
use serde_json::json;

use crate::outln;
use crate::output::{assignments, json_text, table};
use crate::progress::Step;
use crate::{DataArgs, EvaluateArgs, ExportArgs, InspectArgs, PredictArgs, TrainArgs, TuneArgs};

pub use demo::demo;
pub use theory::{theory, TheoryCommand};

/// Reader options from the command line.
fn read_options(a: &DataArgs) -> Result<ReadOptions> {
    let mut o = ReadOptions::default();
    if let Some(f) = &a.format {
        o.format = Some(f.parse::<Format>()?);
    }
    if let Some(l) = &a.label_col {
        o.label = l.parse::<LabelColumn>()?;
    }
    if let Some(d) = &a.delimiter {
        o.delimiter = Some(match d.as_str() {
            "," | "comma" => b',',
            ";" | "semicolon" => b';',
            "tab" | "\t" | "\\t" => b'\t',
            _ => return Err(Error::param("delimiter", d, "use `,`, `;` or `tab`")),
        });
    }
    if let Some(m) = &a.missing {
        o.missing = m.parse::<MissingPolicy>()?;
    }
    Ok(o)
}

fn read_training(a: &DataArgs) -> Result<LabelledInput> {
    let _s = Step::start(&format!("reading {}", a.data.display()));
    read(&a.data, &read_options(a)?)
}

/// Reads data for a fitted pipeline: when no label column is named, the pipeline decides
/// whether the file still has one.
fn read_for(pipeline: &Pipeline, a: &DataArgs) -> Result<LabelledInput> {
    let _s = Step::start(&format!("reading {}", a.data.display()));
    pipeline.read_input(&a.data, &read_options(a)?, a.label_col.is_some())
}

/// The pipeline of `kind` with every `--param NAME=VALUE` (and the flags that stand for
/// one, as `(name, value)` in `extra`), resolved together: their order does not matter.
/// A library's parameter error said with the command-line flag a user types (`n_max` is
/// `--n-max`), by `flags` of (library name, flag); other errors as they are.
pub(crate) fn as_flags(e: Error, flags: &[(&str, &str)]) -> Error {
    match e {
        Error::InvalidParameter {
            name,
            value,
            reason,
        } => Error::InvalidParameter {
            name: flags
                .iter()
                .find(|(library, _)| *library == name)
                .map_or(name, |(_, flag)| flag.to_string()),
            value,
            reason,
        },
        e => e,
    }
}

fn spec_with_params(
    kind: &str,
    params: &[String],
    extra: &[(&str, String)],
) -> Result<PipelineSpec> {
    let mut pairs = Vec::new();
    for p in params {
        let (name, value) = p.split_once('=').ok_or_else(|| {
            Error::param("param", p, "expected NAME=VALUE, for example alpha=0.5")
        })?;
        pairs.push((name.to_string(), value.to_string()));
    }
    pairs.extend(extra.iter().map(|(n, v)| (n.to_string(), v.clone())));
    let mut spec = PipelineSpec::new(kind)?;
    spec.set_params(&pairs)?;
    Ok(spec)
}

/// Refuses an `--out` that would overwrite the `--data` file or land inside the `--data`
/// folder (among the training documents), comparing canonical paths.
fn check_out_is_not_data(data: &Path, out: &Path) -> Result<()> {
    let Ok(data_path) = std::fs::canonicalize(data) else {
        return Ok(()); // reading it will say what is wrong
    };
    let out_path = std::fs::canonicalize(out).ok().or_else(|| {
        let dir = out.parent().filter(|d| !d.as_os_str().is_empty());
        Some(
            std::fs::canonicalize(dir.unwrap_or(Path::new(".")))
                .ok()?
                .join(out.file_name()?),
        )
    });
    let Some(out_path) = out_path else {
        return Ok(()); // saving will say what is wrong
    };
    let reason = if out_path == data_path {
        "it is the --data file; saving the model would overwrite the training data"
    } else if data_path.is_dir() && out_path.starts_with(&data_path) {
        "it is inside the --data folder, among the training documents; save the model outside it"
    } else {
        return Ok(());
    };
    Err(Error::param("out", out.display(), reason))
}

/// Reads a model file: ours, or a LIBSVM model file.
fn load(path: &Path) -> Result<Pipeline> {
    Pipeline::load_any(path)
}

/// `hyperplane export`: a model file written in another tool's format.
pub fn export(a: ExportArgs) -> Result<String> {
    let pipeline = load(&a.model)?;
    match a.format.as_str() {
        "libsvm" => pipeline.save_libsvm(&a.out)?,
        other => {
            return Err(Error::param(
                "format",
                other,
                "the one export format is `libsvm` (LIBSVM's model format)",
            ))
        }
    }
    Ok(format!("wrote {} (LIBSVM model format)\n", a.out.display()))
}

pub fn train(a: TrainArgs) -> Result<String> {
    let mut out = String::new();
    let mut extra = Vec::new();
    if let Some(m) = &a.multiclass {
        extra.push(("pipeline.multiclass", m.clone()));
    }
    if let Some(q) = a.poly {
        extra.push(("pipeline.poly", q.to_string()));
    }
    check_out_is_not_data(&a.data.data, &a.out)?;
    let spec = spec_with_params(&a.model, &a.params, &extra)?;
    let (pipeline, score) = {
        let _s = Step::start(&format!(
            "reading {} and training {}",
            a.data.data.display(),
            a.model
        ));
        spec.fit_file_scored(&a.data.data, &read_options(&a.data)?)?
    };
    pipeline.save(&a.out)?;
    // the JSON key of the training score and its words in the summary line
    let (score_name, score, what) = match score {
        TrainingScore::Accuracy(s) => (
            "training_accuracy",
            s,
            format!(
                "{} classes; training accuracy {s:.4}",
                pipeline.classes().len()
            ),
        ),
        TrainingScore::R2(s) => ("training_r2", s, format!("training R^2 {s:.4}")),
        TrainingScore::InlierFraction(s) => (
            "training_inlier_fraction",
            s,
            format!("labels unused; training rows inside the boundary {s:.4}"),
        ),
    };
    if a.json {
        let mut v = json!({
            "model": pipeline.kind(),
            "out": a.out,
            "n_samples": pipeline.n_train(),
            "n_features": pipeline.model_n_features(),
            "classes": pipeline.classes(),
        });
        v[score_name] = json!(score);
        out.push_str(&json_text(&v));
    } else {
        outln!(
            out,
            "trained {} on {} rows x {} features, {what}",
            pipeline.kind(),
            pipeline.n_train(),
            pipeline.model_n_features(),
        );
        for l in pipeline.summary(0).model.linear {
            if let Some(w) = &l.convergence.warning {
                let name = if l.name.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", l.name)
                };
                outln!(out, "warning{name}: {w}");
            }
        }
        outln!(out, "saved {}", a.out.display());
    }
    Ok(out)
}

pub fn predict(a: PredictArgs) -> Result<String> {
    let mut out = String::new();
    let pipeline = load(&a.model)?;
    let data = read_for(&pipeline, &a.data)?;
    if pipeline.is_regressor() {
        let p = pipeline.predict_values(&data.input)?;
        for row in p.rows() {
            let cells: Vec<String> = row.iter().map(|v| format!("{v}")).collect();
            outln!(out, "{}", cells.join("\t"));
        }
        return Ok(out);
    }
    if a.proba {
        let p = pipeline.predict_proba(&data.input)?;
        if a.json {
            for row in p.rows() {
                let obj: serde_json::Map<String, serde_json::Value> = pipeline
                    .classes()
                    .iter()
                    .zip(row.iter())
                    .map(|(c, v)| (c.to_string(), json!(v)))
                    .collect();
                outln!(out, "{}", serde_json::Value::Object(obj));
            }
        } else {
            let header: Vec<String> = pipeline.classes().iter().map(|c| c.to_string()).collect();
            outln!(out, "{}", header.join("\t"));
            for row in p.rows() {
                let cells: Vec<String> = row.iter().map(|v| format!("{v:.6}")).collect();
                outln!(out, "{}", cells.join("\t"));
            }
        }
    } else {
        for label in pipeline.predict(&data.input)? {
            if a.json {
                outln!(out, "{}", json!(label));
            } else {
                outln!(out, "{label}");
            }
        }
    }
    Ok(out)
}

fn print_evaluation(out: &mut String, e: &Evaluation) {
    outln!(*out, "{} samples, accuracy {:.4}", e.n_samples, e.accuracy);
    if let Some(auc) = e.roc_auc {
        outln!(*out, "ROC AUC {auc:.4}");
    }
    if let Some(l) = e.log_loss {
        outln!(*out, "log loss {l:.4}");
    }
    if let Some(c) = e.cost_weighted_error {
        outln!(*out, "cost-weighted error {c:.4}");
    }
    outln!(*out);
    outln!(*out, "{}", e.report);
}

/// `"0,1;10,0"` -> a cost matrix.
fn parse_costs(text: &str) -> Result<CostMatrix> {
    let rows = text
        .split(';')
        .map(|row| {
            row.split(',')
                .map(|v| {
                    v.trim().parse::<f64>().map_err(|_| {
                        Error::param(
                            "costs",
                            text,
                            format!(
                                "{v:?} is not a number; write rows of numbers like \"0,1;10,0\""
                            ),
                        )
                    })
                })
                .collect::<Result<Vec<f64>>>()
        })
        .collect::<Result<Vec<_>>>()?;
    CostMatrix::new(rows)
}

pub fn evaluate(a: EvaluateArgs) -> Result<String> {
    let mut out = String::new();
    let pipeline = load(&a.model)?;
    let data = read_for(&pipeline, &a.data)?;
    if pipeline.is_regressor() {
        let e = pipeline.evaluate_regression(&data)?;
        if a.json {
            out.push_str(&json_text(
                &serde_json::to_value(&e).map_err(|err| Error::data(err.to_string()))?,
            ));
        } else {
            outln!(out, "{} samples", e.n_samples);
            outln!(out, "MSE  {:.6}", e.report.mse);
            outln!(out, "MAE  {:.6}", e.report.mae);
            outln!(out, "R^2  {:.6}", e.report.r2);
        }
        return Ok(out);
    }
    let e = {
        let _s = Step::start("evaluating");
        let costs = a.costs.as_deref().map(parse_costs).transpose()?;
        pipeline.evaluate_with_costs(&data, costs.as_ref())?
    };
    if a.json {
        out.push_str(&json_text(
            &serde_json::to_value(&e).map_err(|err| Error::data(err.to_string()))?,
        ));
    } else {
        print_evaluation(&mut out, &e);
    }
    Ok(out)
}

pub fn tune(a: TuneArgs) -> Result<String> {
    let mut out = String::new();
    if let Some(model) = &a.out {
        check_out_is_not_data(&a.data.data, model)?;
    }
    let spec = spec_with_params(&a.model, &a.params, &[])?;
    let grid = ParamGrid::parse(&a.grid)?;
    let data = read_training(&a.data)?;
    let validation = match a.valid_fraction {
        Some(f) => Validation::Holdout(f),
        None => Validation::KFold(a.cv.unwrap_or(5)),
    };
    let tuning = {
        let _s = Step::start(&format!("trying {} settings", grid.n_candidates()));
        spec.tune(&data, &grid, validation, a.seed)
            .map_err(|e| as_flags(e, &[("k", "--cv"), ("test_fraction", "--valid-fraction")]))?
    };
    let best = tuning.best_spec(&spec)?;
    let saved = match &a.out {
        Some(out) => {
            let _s = Step::start("refitting the best setting on all rows");
            best.fit(&data)?.save(out)?;
            Some(out.clone())
        }
        None => None,
    };
    if a.json {
        out.push_str(&json_text(&json!({
            "validation": validation.to_string(),
            "results": tuning.result,
            "best_params": tuning.best_params(),
            "saved": saved,
        })));
    } else {
        let (how, score) = if spec.is_regressor() {
            ("", "R^2")
        } else {
            ("stratified ", "accuracy")
        };
        outln!(
            out,
            "{how}{validation} ({} setting(s)), score: {score}\n",
            grid.n_candidates()
        );
        outln!(out, "{}", tuning.result);
        outln!(out, "best: {}", assignments(tuning.best_params()));
        if let Some(path) = saved {
            outln!(
                out,
                "saved the best setting, refitted on all rows, to {}",
                path.display()
            );
        }
    }
    Ok(out)
}

/// Whether the kind is a novelty detector (labels unused; predicts inlier `1` / outlier `-1`).
fn is_novelty(kind: &str) -> bool {
    hyperplane::pipeline::registry()
        .any(|k| k.name == kind && k.task == hyperplane::estimator::Task::Novelty)
}

pub fn inspect(a: InspectArgs) -> Result<String> {
    let mut out = String::new();
    let p = load(&a.model)?;
    let summary = p.summary(a.top);
    let (margins, pla) = match &a.data {
        Some(path) => {
            let args = DataArgs {
                data: path.clone(),
                format: None,
                label_col: a.label_col.clone(),
                delimiter: None,
                missing: None,
            };
            let data = read_for(&p, &args)?;
            (p.margins(&data)?, p.pla_checks(&data)?)
        }
        None => (Vec::new(), Vec::new()),
    };
    if a.json {
        let mut v = serde_json::to_value(&summary).map_err(|err| Error::data(err.to_string()))?;
        if a.data.is_some() {
            v["margins"] = json!(margins
                .iter()
                .map(|(name, m)| json!({
                    "name": name,
                    "min_functional": m.min_functional,
                    "min_geometric": m.min_geometric,
                    "weight_norm": m.weight_norm,
                    "misclassified": m.functional.iter().filter(|&&f| f <= 0.0).count(),
                }))
                .collect::<Vec<_>>());
        }
        if !pla.is_empty() {
            v["pla_bound"] = json!(pla
                .iter()
                .map(|(name, c)| {
                    let mut o = json!(c);
                    o["name"] = json!(name);
                    o
                })
                .collect::<Vec<_>>());
        }
        out.push_str(&json_text(&v));
        return Ok(out);
    }
    outln!(out, "model        {}", summary.kind);
    outln!(out, "parameters   {}", assignments(&summary.params));
    if !summary.preprocessing.is_empty() {
        outln!(out, "input stage  {}", assignments(&summary.preprocessing));
    }
    outln!(out, "input        {}", summary.input);
    outln!(out, "features     {}", summary.n_features);
    if let Some(v) = summary.vocabulary_size {
        outln!(out, "vocabulary   {v} terms");
    }
    if summary.n_train == 0 {
        outln!(out, "trained on   (not recorded in a LIBSVM model file)");
    } else {
        outln!(out, "trained on   {} rows", summary.n_train);
    }
    for t in &summary.transforms {
        outln!(out, "transform    {t}");
    }
    for (col, cats) in &summary.categorical_columns {
        outln!(out, "categorical  {col}: {}", cats.join(", "));
    }
    for (what, value) in &summary.model.details {
        outln!(out, "{what:<12} {value}");
    }
    outln!(out);
    if let Some(r) = &summary.model.regression {
        outln!(out, "intercept    {:.6}", r.intercept);
        if let Some(rank) = r.rank {
            outln!(out, "rank         {rank} of {}", r.weights.len());
        }
        let mut rows = vec![vec!["feature".to_string(), "weight".to_string()]];
        rows.extend(
            r.weights
                .iter()
                .map(|(n, w)| vec![n.clone(), format!("{w:.6}")]),
        );
        out.push_str(&table(&rows));
        return Ok(out);
    }
    if is_novelty(&summary.kind) {
        outln!(
            out,
            "predicts     1 inside the boundary, -1 outside (labels unused)"
        );
        return Ok(out);
    }
    let mut rows = vec![vec!["class".to_string(), "prior".to_string()]];
    for (i, c) in summary.classes.iter().enumerate() {
        let prior = summary
            .priors
            .as_ref()
            .map_or("-".to_string(), |p| format!("{:.4}", p[i]));
        rows.push(vec![c.to_string(), prior]);
    }
    out.push_str(&table(&rows));
    print_linear(&mut out, &summary.model.linear, &margins);
    print_pla(&mut out, &pla);
    for (class, top) in &summary.top_features {
        outln!(
            out,
            "\ntop features of class {class} (score: {}):",
            summary.top_feature_score
        );
        let words: Vec<String> = top.iter().map(|(n, s)| format!("{n} ({s:.2e})")).collect();
        if words.is_empty() {
            outln!(
                out,
                "  (none: no feature's weight points towards this class)"
            );
        } else {
            outln!(out, "  {}", words.join(", "));
        }
    }
    Ok(out)
}

/// The perceptrons beside the PLA bound `T <= R^2 / rho^2` on the data, with their own
/// `(w, b)` as the separator; a plain sentence where they do not separate it.
fn print_pla(out: &mut String, checks: &[(String, PlaCheck)]) {
    if checks.is_empty() {
        return;
    }
    outln!(
        *out,
        "\nPLA update bound on the data: T <= R^2/rho^2 with the model's own (w, b) as w_f:"
    );
    let mut rows = vec![["model", "updates T", "R", "rho", "R^2/rho^2"]
        .map(String::from)
        .to_vec()];
    let mut notes = Vec::new();
    for (name, c) in checks {
        let name = if name.is_empty() { "-" } else { name };
        let updates = c.updates.map_or("-".into(), |u| u.to_string());
        match &c.bound {
            Some(b) => rows.push(vec![
                name.to_string(),
                updates,
                format!("{:.6}", b.r),
                format!("{:.6e}", b.rho),
                format!("{:.2}", b.bound),
            ]),
            None => notes.push(format!(
                "{name}: (w, b) does not separate the data: {} row(s) on the wrong side or on the boundary{}, so there is no bound",
                c.misclassified,
                if c.converged {
                    ""
                } else {
                    " (training did not converge)"
                }
            )),
        }
        if !c.from_zero {
            notes.push(format!(
                "{name}: training started from non-zero weights; the bound is for PLA from w = 0"
            ));
        }
    }
    if rows.len() > 1 {
        out.push_str(&table(&rows));
    }
    for note in notes {
        outln!(*out, "{note}");
    }
}

/// The linear models' table: intercept, ||w||, how training ended, margins.
fn print_linear(out: &mut String, linear: &[LinearSummary], margins: &[(String, Margins)]) {
    if linear.is_empty() {
        return;
    }
    let fmt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.4e}"));
    let mut rows = vec![[
        "model",
        "b",
        "||w||",
        "iterations",
        "updates",
        "objective",
        "||grad||",
        "ended",
        "solver",
    ]
    .map(String::from)
    .to_vec()];
    for l in linear {
        let c = &l.convergence;
        rows.push(vec![
            if l.name.is_empty() {
                "-".into()
            } else {
                l.name.clone()
            },
            l.intercept
                .iter()
                .map(|b| format!("{b:.4}"))
                .collect::<Vec<_>>()
                .join(" "),
            l.weight_norm
                .iter()
                .map(|w| format!("{w:.4}"))
                .collect::<Vec<_>>()
                .join(" "),
            c.iterations.to_string(),
            c.updates.map_or("-".into(), |u| u.to_string()),
            fmt(c.objective),
            fmt(c.grad_norm),
            if c.converged() {
                "converged"
            } else {
                "NOT converged"
            }
            .into(),
            c.solver.map_or("-".into(), |s| s.to_string()),
        ]);
    }
    outln!(*out, "\nlinear model ({:?} output):", linear[0].link);
    out.push_str(&table(&rows));
    for l in linear {
        let named = if l.name.is_empty() {
            String::new()
        } else {
            format!("{}: ", l.name)
        };
        if let Some(d) = &l.duality {
            outln!(
                *out,
                "{named}primal objective {:.6e}, dual objective {:.6e}, duality gap {:.3e}",
                d.primal_objective,
                d.dual_objective,
                d.duality_gap
            );
        }
        if let Some(w) = &l.convergence.warning {
            outln!(*out, "{named}{w}");
        }
    }
    if !margins.is_empty() {
        let mut rows = vec![[
            "model",
            "min y(w.x+b)",
            "min y(w.x+b)/||w||",
            "misclassified",
        ]
        .map(String::from)
        .to_vec()];
        for (name, m) in margins {
            rows.push(vec![
                if name.is_empty() {
                    "-".into()
                } else {
                    name.clone()
                },
                format!("{:.6}", m.min_functional),
                format!("{:.6}", m.min_geometric),
                m.functional
                    .iter()
                    .filter(|&&f| f <= 0.0)
                    .count()
                    .to_string(),
            ]);
        }
        outln!(*out, "\nmargins on the data (functional, geometric):");
        out.push_str(&table(&rows));
    }
}
