//! Model files written before the registry of families (by hyperplane at commit 211b876,
//! whose `Model` was an enum) still load, and predict what that build predicted: the
//! labels, probabilities and values it printed with `predict --json` are in
//! `fixtures/model_files/*.jsonl` (how they were made: `fixtures/model_files/README.md`).

use std::path::{Path, PathBuf};

use hyperplane::data::read::{MissingPolicy, ReadOptions};
use hyperplane::pipeline::Pipeline;
use serde_json::{json, Value};

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

/// Every kind's model file as the build at 508270e wrote it (`fixtures/model_files/kinds`,
/// made as the README there says) loads, predicts what that build printed, and is written
/// back byte for byte: the body of every kind keeps its form.
#[test]
fn every_kind_loads_predicts_and_is_written_back_byte_for_byte() {
    let mut kinds: Vec<String> = std::fs::read_dir(fixture("kinds"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            Some(name.strip_suffix(".json")?.to_string())
        })
        .collect();
    kinds.sort();
    assert!(kinds.len() >= 22, "{kinds:?}");
    let dir = tempfile::tempdir().unwrap();
    for kind in kinds {
        let info = hyperplane::pipeline::kind_info(&kind).unwrap();
        let data = match info.task {
            hyperplane::estimator::Task::Regressor => "diabetes40.csv",
            _ if kind == "hard-margin-svm" => "iris20_separable.csv",
            _ => "iris30.csv",
        };
        same_as_before(&format!("kinds/{kind}"), data, MissingPolicy::Error);
        let path = fixture(&format!("kinds/{kind}.json"));
        let p = Pipeline::load(&path).unwrap();
        assert_eq!(p.kind(), kind);
        let out = dir.path().join(format!("{kind}.json"));
        p.save(&out).unwrap();
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(&path).unwrap(),
            "{kind}: written back with other bytes"
        );
    }
}

#[test]
fn bytes_in_memory_load_as_the_file_does() {
    for model in ["multinomial_nb_text", "softmax", "ridge"] {
        let path = fixture(&format!("{model}.json"));
        let bytes = std::fs::read(&path).unwrap();
        let (file, memory) = (
            Pipeline::load_any(&path).unwrap(),
            Pipeline::load_any_bytes(&bytes, &path).unwrap(),
        );
        assert_eq!(memory.kind(), file.kind(), "{model}");
        assert_eq!(memory.classes(), file.classes(), "{model}");
        let e = Pipeline::load_any_bytes(&bytes[..bytes.len() / 2], &path)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("{model}.json")) && e.contains("truncated"),
            "{e}"
        );
    }
}

#[test]
fn a_pipeline_in_bytes_is_its_model_file() {
    for model in ["multinomial_nb_text", "perceptron_ova", "ridge"] {
        let p = Pipeline::load(&fixture(&format!("{model}.json"))).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("m.json");
        p.save(&out).unwrap();
        let bytes = p.to_bytes().unwrap();
        assert_eq!(
            bytes,
            std::fs::read(&out).unwrap(),
            "{model}: to_bytes is the file"
        );
        let back = Pipeline::from_bytes(&bytes).unwrap();
        assert_eq!(
            back.to_bytes().unwrap(),
            bytes,
            "{model}: read and written again"
        );
        let e = Pipeline::from_bytes(&bytes[..bytes.len() - 9])
            .unwrap_err()
            .to_string();
        assert!(e.contains("<in memory>") && e.contains("truncated"), "{e}");
    }
}

/// Found by fuzzing: `inspect`'s summary named all the columns of a LIBSVM model to pick
/// its top features, billions of strings for one index of 3e9 (an abort).
#[test]
fn a_libsvm_model_of_a_huge_width_is_summarised_without_naming_every_column() {
    let text = "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho 0\n\
                label 1 -1\nnr_sv 1 1\nSV\n1 1:1 3000000000:0.5\n-1 2:1\n";
    let p = Pipeline::load_any_bytes(text.as_bytes(), Path::new("wide.model")).unwrap();
    let summary = p.summary(3);
    assert_eq!(summary.n_features, 3_000_000_000);
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

/// One change to a model file's JSON, at a JSON pointer.
enum Edit {
    /// Sets the value there.
    Set(String, Value),
    /// Removes the key from the object there.
    Remove(String, &'static str),
    /// Keeps the first `n` entries of the array there.
    Truncate(String, usize),
    /// Appends to the array there.
    Push(String, Value),
}

/// Loading `file` after `edits` fails, naming `field`.
fn edited_fails(file: &Value, edits: &[Edit], field: &str) {
    let mut v = file.clone();
    for edit in edits {
        let (Edit::Set(p, _) | Edit::Remove(p, _) | Edit::Truncate(p, _) | Edit::Push(p, _)) = edit;
        let at = v
            .pointer_mut(p.as_str())
            .unwrap_or_else(|| panic!("no {p}"));
        match edit {
            Edit::Set(_, value) => *at = value.clone(),
            Edit::Remove(_, key) => {
                at.as_object_mut().unwrap().remove(*key);
            }
            Edit::Truncate(_, n) => at.as_array_mut().unwrap().truncate(*n),
            Edit::Push(_, value) => at.as_array_mut().unwrap().push(value.clone()),
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.json");
    std::fs::write(&path, v.to_string()).unwrap();
    let e = Pipeline::load(&path)
        .err()
        .unwrap_or_else(|| panic!("an edited file naming {field} loaded"))
        .to_string();
    assert!(e.contains(field), "expected {field:?} in: {e}");
}

fn fixture_json(model: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture(&format!("{model}.json"))).unwrap())
        .unwrap()
}

/// A pipeline of `kind` fitted on `iris30.csv`, as saved.
fn fitted_json(kind: &str) -> Value {
    let data =
        hyperplane::data::read::read(&fixture("iris30.csv"), &ReadOptions::default()).unwrap();
    let p = hyperplane::pipeline::PipelineSpec::new(kind)
        .unwrap()
        .fit(&data)
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.json");
    p.save(&path).unwrap();
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn edited_naive_bayes_files_are_refused_naming_the_field() {
    use Edit::*;
    let g = fixture_json("gaussian_nb_table");
    const S: &str = "/model/model/NaiveBayes/Gaussian/stats";
    let at = |rest: &str| format!("{S}{rest}");
    let first_class = g.pointer(&at("/classes/classes/0")).unwrap().clone();
    let cases: Vec<(Vec<Edit>, &str)> = vec![
        (
            vec![Set(at("/class_moments/0/var/0"), json!(-1.0))],
            "class_moments.var holds -1",
        ),
        (
            vec![Set(at("/class_moments/1/mean"), json!([0.5]))],
            "class_moments.mean has 1 values, not 54",
        ),
        (vec![Set(at("/total/count"), json!(-3.0))], "total.count"),
        (vec![Set(at("/n_features"), json!(60))], "not 60"),
        (
            vec![Set(at("/classes/classes/1"), first_class)],
            "classes must be sorted and distinct",
        ),
        (
            vec![
                Set(at("/classes/classes"), json!([])),
                Set(at("/classes/count"), json!([])),
                Set(at("/class_moments"), json!([])),
            ],
            "classes is empty",
        ),
        (
            vec![
                Push(at("/classes/classes"), json!("zzz")),
                Push(at("/classes/count"), json!(1.0)),
            ],
            "class_moments has 2 entries for 3 classes",
        ),
    ];
    for (edits, field) in &cases {
        edited_fails(&g, edits, field);
    }
    let m = fixture_json("multinomial_nb_text");
    const M: &str = "/model/model/NaiveBayes/Multinomial/stats";
    edited_fails(
        &m,
        &[Set(format!("{M}/feature_count/0/2"), json!(-4.0))],
        "feature_count holds -4",
    );
    edited_fails(
        &m,
        &[Set(format!("{M}/classes/count/0"), json!(-1.0))],
        "classes.count",
    );
    let c = fixture_json("categorical_nb_table");
    const C: &str = "/model/model/NaiveBayes/Categorical/stats";
    edited_fails(
        &c,
        &[Truncate(format!("{C}/counts/0"), 13)],
        "counts has 13 features, not n_features = 14",
    );
    edited_fails(
        &c,
        &[Set(format!("{C}/counts/1/0/1"), json!(-2.0))],
        "counts holds -2",
    );
}

#[test]
fn edited_linear_files_and_reductions_are_refused_naming_the_field() {
    use Edit::*;
    let s = fixture_json("softmax");
    const L: &str = "/model/model/Linear";
    let coef = |rows: usize, cols: usize| {
        vec![
            Set("/model/model/Linear/coef/dim".into(), json!([rows, cols])),
            Truncate("/model/model/Linear/coef/data".into(), rows * cols),
        ]
    };
    edited_fails(
        &s,
        &coef(2, 4),
        "a linear model of 3 classes needs 3 weight rows",
    );
    edited_fails(&s, &coef(3, 3), "n_features: the model takes 3 features");
    edited_fails(&s, &[Remove(L.into(), "intercept")], "intercept");
    // JSON has no NaN: a weight written as one is a type error at its place
    edited_fails(
        &s,
        &[Set(format!("{L}/coef/data/0"), json!("NaN"))],
        "invalid type: string \"NaN\", expected f64 at line 1",
    );

    let p = fixture_json("perceptron_ova");
    edited_fails(
        &p,
        &[Truncate("/model/model/OneVsRest/models".into(), 2)],
        "holds 2 models, not 3",
    );
    edited_fails(
        &p,
        &[Set(
            "/model/model/OneVsRest/classes/2".into(),
            json!("setosa"),
        )],
        "sorted and distinct",
    );
    let o = fixture_json("logistic_ovo");
    edited_fails(
        &o,
        &[Set("/model/model/OneVsOne/pairs/0".into(), json!([1, 0]))],
        "pairs must be every pair",
    );
    edited_fails(
        &o,
        &[Set("/model/model/OneVsOne/n_features".into(), json!(7))],
        "takes 4 features, not 7",
    );
    let r = fixture_json("ridge");
    edited_fails(
        &r,
        &[
            Set("/model/model/Regression/coef/dim".into(), json!([1, 9])),
            Truncate("/model/model/Regression/coef/data".into(), 9),
        ],
        "n_features: the model takes 9 features",
    );
}

#[test]
fn edited_envelopes_kernel_svm_and_network_files_are_refused_naming_the_field() {
    use Edit::*;
    let s = fixture_json("softmax");
    edited_fails(
        &s,
        &[Set("/model_kind".into(), json!("perceptron"))],
        "the envelope's model_kind is \"perceptron\"",
    );
    edited_fails(&s, &[Remove("".into(), "model")], "missing field `model`");
    let nb = fixture_json("gaussian_nb_table")["model"]["model"].clone();
    edited_fails(
        &s,
        &[Set("/model/model".into(), nb)],
        "the model body is a NaiveBayes model, not the Linear model",
    );
    let svc = fitted_json("svc");
    edited_fails(
        &svc,
        &[Push("/model/model/Svm/dual_coef/0".into(), json!(1.0))],
        "dual_coef",
    );
    edited_fails(
        &svc,
        &[Set("/model/model/Svm/n_features".into(), json!(3))],
        "support_vectors",
    );
    let mlp = fitted_json("mlp");
    edited_fails(
        &mlp,
        &[Truncate("/model/model/Mlp/params".into(), 5)],
        "params",
    );
    edited_fails(
        &mlp,
        &[Set(
            "/model/model/Mlp/classes".into(),
            json!(["a", "b", "c", "d"]),
        )],
        "classes",
    );
}

/// A model alone (what a host fitting on a matrix keeps) goes to bytes in the envelope,
/// with its kind, and back unchanged; a body that is not of the kind its envelope names is
/// refused, and a model without a kind cannot be written.
#[test]
fn a_model_alone_in_bytes_keeps_its_kind_and_its_body() {
    for kind in [
        "multinomial-nb",
        "perceptron",
        "svc",
        "mlp",
        "ridge",
        "hard-margin-svm",
    ] {
        let p = Pipeline::load(&fixture(&format!("kinds/{kind}.json"))).unwrap();
        let model = p.model();
        assert_eq!(model.kind(), Some(kind));
        let bytes = model.to_bytes().unwrap();
        let back = hyperplane::pipeline::Model::from_bytes(&bytes).unwrap();
        assert_eq!(back.kind(), Some(kind));
        assert_eq!(
            back.to_bytes().unwrap(),
            bytes,
            "{kind}: read and written again"
        );
        let envelope: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(envelope["model_kind"], kind);
        assert_eq!(
            envelope["model"],
            fixture_json(&format!("kinds/{kind}"))["model"]["model"]
        );
        let mut foreign = envelope.clone();
        foreign["model_kind"] = json!(if kind == "svc" {
            "logistic-regression"
        } else {
            "svc"
        });
        let e = hyperplane::pipeline::Model::from_bytes(&serde_json::to_vec(&foreign).unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("<in memory>") && e.contains("not a"),
            "{kind}: {e}"
        );
    }
    // hostile bytes: truncated, an unknown kind, a pipeline file, not JSON at all
    let bytes = Pipeline::load(&fixture("kinds/svc.json"))
        .unwrap()
        .model()
        .to_bytes()
        .unwrap();
    let mut unknown: Value = serde_json::from_slice(&bytes).unwrap();
    unknown["model_kind"] = json!("quantum-svm");
    let pipeline_file = std::fs::read(fixture("kinds/svc.json")).unwrap();
    for hostile in [
        bytes[..bytes.len() / 2].to_vec(),
        serde_json::to_vec(&unknown).unwrap(),
        pipeline_file,
        b"\x00\xffnot json".to_vec(),
        Vec::new(),
    ] {
        let e = hyperplane::pipeline::Model::from_bytes(&hostile)
            .unwrap_err()
            .to_string();
        assert!(e.contains("<in memory>"), "{e}");
    }
    // a model finished from one-pass statistics has no kind until given one
    let learner = hyperplane::pipeline::Learner::from_kind("gaussian-nb").unwrap();
    let mut part = learner.incremental().unwrap().start(2);
    let x = ndarray::array![[0.0, 1.0], [1.0, 0.5], [3.0, 2.0]];
    let y = [0, 0, 1].map(hyperplane::Label::Int);
    part.partial_fit(&hyperplane::Dataset::new(x.into(), &y).unwrap())
        .unwrap();
    let without = hyperplane::pipeline::Model::new(part.finish().unwrap());
    assert!(without
        .to_bytes()
        .unwrap_err()
        .to_string()
        .contains("with_kind"));
    assert_eq!(
        without.clone().with_kind("gaussian-nb").unwrap().kind(),
        Some("gaussian-nb")
    );
    let e = without.with_kind("linear-svm").unwrap_err().to_string();
    assert!(e.contains("not a linear-svm model"), "{e}");
}
