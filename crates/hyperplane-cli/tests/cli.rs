//! The `hyperplane` binary end to end: every command, its JSON, and its errors on bad input.

use crate::common;

use common::{fails, ok, s, write};
use std::path::Path;

const TSV: &str = "spam\tcheap pills buy now\n\
ham\tmeeting notes for the project\n\
spam\tbuy cheap watches now\n\
ham\tproject review meeting tomorrow\n\
spam\twin money now cheap\n\
ham\tnotes from the review\n";

const CSV: &str = "age,colour,size,label\n\
30,red,1.5,yes\n\
40,blue,2.5,no\n\
35,red,1.0,yes\n\
50,blue,3.0,no\n\
32,red,1.2,yes\n\
45,green,2.8,no\n";

#[test]
fn train_predict_evaluate_inspect_on_text() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "mail.tsv", TSV);
    let model = dir.path().join("m.json");
    for kind in [
        "multinomial-nb",
        "bernoulli-nb",
        "complement-nb",
        "gaussian-nb",
        "categorical-nb",
    ] {
        ok(&[
            "train",
            "--data",
            s(&data),
            "--model",
            kind,
            "--out",
            s(&model),
        ]);
    }
    ok(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "multinomial-nb",
        "--param",
        "alpha=0.5",
        "--out",
        s(&model),
    ]);
    let pred = ok(&["predict", "--model", s(&model), "--data", s(&data)]);
    assert_eq!(pred, "spam\nham\nspam\nham\nspam\nham\n");

    let unlabelled = write(dir.path(), "new.tsv", "cheap pills now\nproject meeting\n");
    assert_eq!(
        ok(&[
            "predict",
            "--model",
            s(&model),
            "--data",
            s(&unlabelled),
            "--format",
            "tsv"
        ]),
        "spam\nham\n"
    );
    let proba = ok(&[
        "predict",
        "--model",
        s(&model),
        "--data",
        s(&unlabelled),
        "--format",
        "tsv",
        "--proba",
    ]);
    let lines: Vec<&str> = proba.lines().collect();
    assert_eq!(lines[0], "ham\tspam");
    let p: Vec<f64> = lines[1].split('\t').map(|v| v.parse().unwrap()).collect();
    assert!((p[0] + p[1] - 1.0).abs() < 1e-5 && p[1] > 0.5);

    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "evaluate",
        "--model",
        s(&model),
        "--data",
        s(&data),
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["accuracy"], 1.0);
    assert_eq!(json["n_samples"], 6);
    assert_eq!(json["classes"], serde_json::json!(["ham", "spam"]));
    assert_eq!(
        json["confusion_matrix"],
        serde_json::json!([[3, 0], [0, 3]])
    );

    // Costs: predicting ham for spam costs 10. The model is perfect here, so 0; a matrix
    // charging right answers 1 gives exactly 1.
    let costs: serde_json::Value = serde_json::from_str(&ok(&[
        "evaluate",
        "--model",
        s(&model),
        "--data",
        s(&data),
        "--json",
        "--costs",
        "1,1;10,1",
    ]))
    .unwrap();
    assert_eq!(costs["cost_weighted_error"], 1.0);
    let e = fails(&[
        "evaluate",
        "--model",
        s(&model),
        "--data",
        s(&data),
        "--costs",
        "0,1,2;1,0,2;1,1,0",
    ]);
    assert!(e.contains("[ham, spam]"), "{e}");
    let text = ok(&["evaluate", "--model", s(&model), "--data", s(&data)]);
    assert!(
        text.contains("accuracy") && text.contains("precision"),
        "{text}"
    );

    let inspect: serde_json::Value = serde_json::from_str(&ok(&[
        "inspect",
        "--model",
        s(&model),
        "--json",
        "--top",
        "3",
    ]))
    .unwrap();
    assert_eq!(inspect["kind"], "multinomial-nb");
    assert!(inspect["vocabulary_size"].as_u64().unwrap() > 10);
    let priors: Vec<f64> = serde_json::from_value(inspect["priors"].clone()).unwrap();
    assert!(priors.iter().all(|p| (p - 0.5).abs() < 1e-12), "{priors:?}");
    let spam_top = &inspect["top_features"][1];
    assert_eq!(spam_top[0], "spam");
    assert!(spam_top[1].to_string().contains("cheap"), "{spam_top}");
    let text = ok(&["inspect", "--model", s(&model)]);
    assert!(text.contains("alpha=0.5"), "{text}");
}

/// Manning, Raghavan and Schuetze, Introduction to Information Retrieval, example 13.1: the
/// multinomial event model with add-one smoothing gives P(china | d5) = 0.68976.
#[test]
fn multinomial_nb_on_text_is_the_multinomial_event_model_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let train = write(
        dir.path(),
        "irbook.tsv",
        "china\tChinese Beijing Chinese\n\
         china\tChinese Chinese Shanghai\n\
         china\tChinese Macao\n\
         japan\tTokyo Japan Chinese\n",
    );
    let query = write(
        dir.path(),
        "d5.tsv",
        "Chinese Chinese Chinese Tokyo Japan\n",
    );
    let model = dir.path().join("irbook.json");
    ok(&[
        "train",
        "--data",
        s(&train),
        "--model",
        "multinomial-nb",
        "--out",
        s(&model),
    ]);
    let proba = ok(&[
        "predict",
        "--model",
        s(&model),
        "--data",
        s(&query),
        "--format",
        "tsv",
        "--proba",
        "--json",
    ]);
    let p: serde_json::Value = serde_json::from_str(proba.trim()).unwrap();
    let (china, japan) = (p["china"].as_f64().unwrap(), p["japan"].as_f64().unwrap());
    assert!((china - 0.68976).abs() < 1e-5, "P(china) = {china}");
    assert!((japan - 0.31024).abs() < 1e-5, "P(japan) = {japan}");
}

#[test]
fn csv_with_categorical_columns_round_trips_and_ignores_the_label_column() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "t.csv", CSV);
    let model = dir.path().join("c.json");
    for kind in ["categorical-nb", "gaussian-nb", "multinomial-nb"] {
        // the discretizer bins the numeric columns of a categorical kind only
        let bins: &[&str] = match kind {
            "categorical-nb" => &["--param", "n_bins=2"],
            _ => &[],
        };
        let (input, out) = (s(&data), s(&model));
        let args = [
            &["train", "--data", input, "--model", kind],
            bins,
            &["--out", out],
        ];
        ok(&args.concat());
        let with_label = ok(&["predict", "--model", s(&model), "--data", s(&data)]);
        let without = write(
            dir.path(),
            "u.csv",
            "age,colour,size\n30,red,1.5\n45,green,2.8\n",
        );
        let unlabelled = ok(&["predict", "--model", s(&model), "--data", s(&without)]);
        assert_eq!(with_label.lines().count(), 6, "{kind}");
        assert_eq!(unlabelled.lines().count(), 2, "{kind}");
    }
    ok(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "categorical-nb",
        "--out",
        s(&model),
    ]);
    let inspect = ok(&["inspect", "--model", s(&model)]);
    assert!(inspect.contains("colour: blue, green, red"), "{inspect}");
}

#[test]
fn tune_reports_every_setting_and_saves_the_best() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "mail.tsv", &TSV.repeat(3));
    let best = dir.path().join("best.json");
    let out = ok(&[
        "tune",
        "--data",
        s(&data),
        "--model",
        "multinomial-nb",
        "--grid",
        "alpha=0.1,1,10",
        "--cv",
        "3",
        "--out",
        s(&best),
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["results"]["candidates"].as_array().unwrap().len(), 3);
    assert!(json["best_params"].is_object() || json["best_params"].is_array());
    assert!(best.exists());
    let table = ok(&[
        "tune",
        "--data",
        s(&data),
        "--model",
        "bernoulli-nb",
        "--grid",
        "alpha=0.5,1",
        "--valid-fraction",
        "0.34",
    ]);
    assert!(table.contains("best: alpha="), "{table}");
}

#[test]
fn bad_input_gives_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let model = d.join("m.json");
    let tsv = write(d, "mail.tsv", TSV);
    ok(&[
        "train",
        "--data",
        s(&tsv),
        "--model",
        "multinomial-nb",
        "--out",
        s(&model),
    ]);

    // A malformed LIBSVM line names file, line and column.
    let bad = write(d, "bad.libsvm", "1 1:0.5 2:1\n-1 3:x\n");
    let e = fails(&[
        "train",
        "--data",
        s(&bad),
        "--model",
        "gaussian-nb",
        "--out",
        s(&model),
    ]);
    assert!(e.contains("bad.libsvm:2:"), "{e}");

    // An empty file.
    let empty = write(d, "empty.csv", "");
    let e = fails(&[
        "train",
        "--data",
        s(&empty),
        "--model",
        "gaussian-nb",
        "--out",
        s(&model),
    ]);
    assert!(e.contains("empty.csv"), "{e}");

    // A missing label column.
    let csv = write(d, "t.csv", CSV);
    let e = fails(&[
        "train",
        "--data",
        s(&csv),
        "--model",
        "gaussian-nb",
        "--label-col",
        "target",
        "--out",
        s(&model),
    ]);
    assert!(e.contains("target") && e.contains("colour"), "{e}");

    // Classes the model never saw, at evaluate.
    let other = write(d, "other.tsv", "eggs\tcheap pills\n");
    let e = fails(&["evaluate", "--model", s(&model), "--data", s(&other)]);
    assert!(e.contains("eggs") && e.contains("[ham, spam]"), "{e}");

    // Negative counts for multinomial NB.
    let neg = write(d, "neg.libsvm", "1 1:2 2:-1\n-1 1:1\n");
    let e = fails(&[
        "train",
        "--data",
        s(&neg),
        "--model",
        "multinomial-nb",
        "--out",
        s(&model),
    ]);
    assert!(e.contains("negative"), "{e}");

    // A truncated model file.
    let text = std::fs::read_to_string(&model).unwrap();
    let cut = write(d, "cut.json", &text[..text.len() / 2]);
    let e = fails(&["predict", "--model", s(&cut), "--data", s(&tsv)]);
    assert!(e.contains("truncated") && e.contains("cut.json"), "{e}");

    // A model file that is not one.
    let foreign = write(d, "foreign.json", "{\"weights\": [1, 2]}");
    let e = fails(&["inspect", "--model", s(&foreign)]);
    assert!(e.contains("not a hyperplane model"), "{e}");

    // An unknown parameter lists the valid ones; an unknown kind lists the kinds.
    let e = fails(&[
        "train",
        "--data",
        s(&tsv),
        "--model",
        "multinomial-nb",
        "--param",
        "alfa=1",
        "--out",
        s(&model),
    ]);
    assert!(e.contains("alfa") && e.contains("alpha"), "{e}");
    let e = fails(&[
        "train",
        "--data",
        s(&tsv),
        "--model",
        "svm",
        "--out",
        s(&model),
    ]);
    assert!(e.contains("multinomial-nb"), "{e}");

    // Model trained on text, given a table.
    let e = fails(&["predict", "--model", s(&model), "--data", s(&csv)]);
    assert!(e.contains("text") && e.contains("CSV"), "{e}");
}

#[test]
fn every_command_has_help_with_an_example() {
    for cmd in [
        "train", "predict", "evaluate", "tune", "inspect", "demo", "kinds",
    ] {
        let help = ok(&[cmd, "--help"]);
        assert!(help.contains("Example"), "{cmd}: {help}");
    }
}

#[test]
fn uci_adult_trains_straight_from_its_csv() {
    let adult =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../hyperplane/tests/data/adult_sample.csv");
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("adult.json");
    // Missing values (`?`) are refused unless a policy is given.
    let e = fails(&[
        "train",
        "--data",
        s(&adult),
        "--model",
        "categorical-nb",
        "--out",
        s(&model),
    ]);
    assert!(
        e.contains("adult_sample.csv:") && e.contains("missing"),
        "{e}"
    );
    for kind in ["categorical-nb", "gaussian-nb", "bernoulli-nb"] {
        ok(&[
            "train",
            "--data",
            s(&adult),
            "--model",
            kind,
            "--label-col",
            "income",
            "--missing",
            "category",
            "--out",
            s(&model),
        ]);
        let json: serde_json::Value = serde_json::from_str(&ok(&[
            "evaluate",
            "--model",
            s(&model),
            "--data",
            s(&adult),
            "--missing",
            "category",
            "--json",
        ]))
        .unwrap();
        assert_eq!(json["n_samples"], 299, "{kind}");
        assert!(json["accuracy"].as_f64().unwrap() > 0.75, "{kind}: {json}");
    }
    let inspect: serde_json::Value =
        serde_json::from_str(&ok(&["inspect", "--model", s(&model), "--json"])).unwrap();
    let columns = inspect["categorical_columns"].to_string();
    assert!(
        columns.contains("workclass") && columns.contains("Private"),
        "{columns}"
    );
}
