//! `hyperplane kinds`: the model kinds of the registry, and the parameters of one.

use clap::Args;
use hyperplane::estimator::Task;
use hyperplane::pipeline::{registry, PipelineSpec};
use hyperplane::Result;
use serde_json::json;

use super::spec_with_params;
use crate::output::{json_text, text_table};

/// The arguments of `hyperplane kinds`.
#[derive(Args, Debug)]
pub struct KindsArgs {
    /// List the parameters of this kind's pipeline, by component.
    #[arg(long, value_name = "KIND")]
    model: Option<String>,
    /// Settings that change which parameters exist (`vectorizer=tfidf` adds tf-idf's).
    #[arg(long = "param", value_name = "NAME=VALUE", requires = "model")]
    params: Vec<String>,
    /// Print the kind table as Markdown (the README's).
    #[arg(long, conflicts_with = "model")]
    markdown: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

fn task(t: Task) -> &'static str {
    match t {
        Task::Classifier => "classes",
        Task::Regressor => "numbers",
        Task::Novelty => "inlier 1 / outlier -1 (labels unused)",
    }
}

/// The kind table in Markdown, as the README shows it.
pub fn markdown() -> String {
    let mut out = String::from(
        "| kind | family | predicts | text read as | what it is |\n|---|---|---|---|---|\n",
    );
    for k in registry() {
        let counts = PipelineSpec::new(k.name).is_ok_and(|s| s.reads_text_counts());
        let text = if counts { "counts" } else { "presence" };
        let binary = if k.binary {
            " (two; more by ova / ovo)"
        } else {
            ""
        };
        out.push_str(&format!(
            "| `{}` | {} | {}{binary} | {text} | {} |\n",
            k.name,
            k.family,
            task(k.task),
            k.about
        ));
    }
    out
}

/// One line per kind after `train --help`.
pub fn help_list() -> String {
    let mut out = String::new();
    let mut family = "";
    for k in registry() {
        if k.family != family {
            family = k.family;
            out.push_str(&format!("\n  {family}:"));
        }
        out.push_str(&format!(" {}", k.name));
    }
    out
}

pub fn kinds(a: KindsArgs) -> Result<String> {
    let Some(kind) = &a.model else {
        if a.markdown {
            return Ok(markdown());
        }
        if a.json {
            let kinds: Vec<_> = registry().collect();
            return Ok(json_text(&json!(kinds)));
        }
        let mut rows = vec![vec![
            "kind".to_string(),
            "family".into(),
            "predicts".into(),
            "what it is".into(),
        ]];
        for k in registry() {
            let predicts = if k.binary {
                "two classes"
            } else {
                task(k.task)
            };
            rows.push(vec![
                k.name.into(),
                k.family.into(),
                predicts.into(),
                k.about.into(),
            ]);
        }
        let mut out = text_table(&rows);
        out.push_str("\nParameters of a kind: hyperplane kinds --model KIND\n");
        return Ok(out);
    };
    let spec = spec_with_params(kind, &a.params, &[])?;
    let params = spec.applicable_parameters()?;
    if a.json {
        let list: Vec<_> = params
            .iter()
            .map(|(name, component, p)| {
                json!({
                    "name": name, "component": component, "kind": p.kind,
                    "default": p.default, "range": p.range, "meaning": p.meaning,
                    "forms": p.forms, "bounds": p.check,
                })
            })
            .collect();
        return Ok(json_text(&json!(list)));
    }
    let mut out = format!(
        "Parameters of {kind} (--param NAME=VALUE; a name two components share is written component.name):\n"
    );
    let mut component = "";
    for (name, c, p) in &params {
        if *c != component {
            component = c;
            out.push_str(&format!("\n{component}\n"));
        }
        out.push_str(&format!(
            "  {name} = {}   ({}; {})\n      {}\n",
            p.default, p.kind, p.range, p.meaning
        ));
    }
    out.push_str("\nThe vectorizer's parameters are those of the chosen vectorizer (--param vectorizer=count|tfidf|hashing).\n");
    Ok(out)
}
