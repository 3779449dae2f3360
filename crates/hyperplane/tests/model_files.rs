//! Model files written before the registry of families (by hyperplane at commit 211b876,
//! whose `Model` was an enum) still load, and predict what that build predicted: the
//! labels, probabilities and values it printed with `predict --json` are in
//! `fixtures/model_files/*.jsonl` (how they were made: `fixtures/model_files/README.md`).

use std::path::{Path, PathBuf};

use hyperplane::data::read::{MissingPolicy, ReadOptions};
use hyperplane::pipeline::Pipeline;
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/model_files")
        .join(name)
}

fn lines(name: &str) -> Vec<Value> {
    std::fs::read_to_string(fixture(name))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Loads `model`, predicts on `data` and compares with what the earlier build printed.
fn same_as_before(model: &str, data: &str, missing: MissingPolicy) {
    let p = Pipeline::load(&fixture(&format!("{model}.json"))).unwrap();
    let opts = ReadOptions {
        missing,
        ..ReadOptions::default()
    };
    let input = p.read_input(&fixture(data), &opts, false).unwrap().input;
    let before = lines(&format!("{model}.predict.jsonl"));
    if p.is_regressor() {
        let values = p.predict_values(&input).unwrap();
        assert_eq!(values.nrows(), before.len());
        for (now, then) in values.column(0).iter().zip(&before) {
            let then = then.as_f64().unwrap();
            assert!(
                (now - then).abs() <= 1e-12 * then.abs().max(1.0),
                "{model}: {now} vs {then}"
            );
        }
        return;
    }
    let labels: Vec<Value> = p
        .predict(&input)
        .unwrap()
        .iter()
        .map(|l| serde_json::to_value(l).unwrap())
        .collect();
    assert_eq!(labels, before, "{model}: predicted labels");
    if !fixture(&format!("{model}.proba.jsonl")).exists() {
        return;
    }
    let proba = p.predict_proba(&input).unwrap();
    for (row, then) in proba
        .rows()
        .into_iter()
        .zip(lines(&format!("{model}.proba.jsonl")))
    {
        for (class, now) in p.classes().iter().zip(row) {
            let then = then[class.to_string()].as_f64().unwrap();
            assert!(
                (now - then).abs() <= 1e-12,
                "{model} P({class}): {now} vs {then}"
            );
        }
    }
}

#[test]
fn naive_bayes_files_load_and_predict_as_before() {
    same_as_before("multinomial_nb_text", "irbook.tsv", MissingPolicy::Error);
    same_as_before(
        "gaussian_nb_table",
        "adult40.csv",
        MissingPolicy::AsCategory,
    );
    same_as_before(
        "categorical_nb_table",
        "adult40.csv",
        MissingPolicy::AsCategory,
    );
}

#[test]
fn linear_files_and_reductions_load_and_predict_as_before() {
    same_as_before("perceptron_ova", "iris30.csv", MissingPolicy::Error);
    same_as_before("logistic_ovo", "iris30.csv", MissingPolicy::Error);
    same_as_before("softmax", "iris30.csv", MissingPolicy::Error);
    same_as_before("ridge", "diabetes40.csv", MissingPolicy::Error);
}

#[test]
fn a_file_is_written_back_as_it_was_read() {
    for model in [
        "multinomial_nb_text",
        "perceptron_ova",
        "logistic_ovo",
        "ridge",
    ] {
        let path = fixture(&format!("{model}.json"));
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let p = Pipeline::load(&path).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("m.json");
        p.save(&out).unwrap();
        let back: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(back["model"], file["model"], "{model}: the pipeline's body");
    }
}

#[test]
fn an_unknown_or_doubled_model_body_is_a_clear_error() {
    let text = std::fs::read_to_string(fixture("softmax.json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.json");
    let load = |content: String| {
        std::fs::write(&path, content).unwrap();
        Pipeline::load(&path).unwrap_err().to_string()
    };
    let e = load(text.replace("{\"Linear\":", "{\"Forest\":"));
    assert!(
        e.contains("unknown model body `Forest`") && e.contains("NaiveBayes"),
        "{e}"
    );
    let e = load(text.replace("}}},\"n_train\"", "}},\"Linear\":{}},\"n_train\""));
    assert!(e.contains("one body, found a second"), "{e}");
}
