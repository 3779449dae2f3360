//! `--param` across the components of a pipeline, and the registry behind `hyperplane kinds`.

use crate::common;

use common::*;

const MAIL: &str = "spam\tcheap pills buy now\nham\tmeeting notes attached\nspam\tbuy cheap watches now\nham\tnotes from the meeting\n";

#[test]
fn a_parameter_two_components_share_must_be_qualified() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "mail.tsv", MAIL);
    let out = dir.path().join("m.json");
    let (d, o) = (s(&data), s(&out));
    // complement-nb's `norm` and tf-idf's: bare is an error naming both spellings, in
    // either order
    for params in [
        ["vectorizer=tfidf", "norm=l1"],
        ["norm=l1", "vectorizer=tfidf"],
    ] {
        let e = fails(&[
            "train",
            "--data",
            d,
            "--model",
            "complement-nb",
            "--param",
            params[0],
            "--param",
            params[1],
            "--out",
            o,
        ]);
        assert!(
            e.contains("write model.norm=l1 or vectorizer.norm=l1"),
            "{e}"
        );
    }
    train(
        &data,
        "complement-nb",
        &["vectorizer.norm=l1", "vectorizer=tfidf", "model.norm=true"],
        &out,
    );
    let summary = json_of(&["inspect", "--model", o, "--json"]);
    let has = |key: &str, name: &str, value: &str| {
        summary[key]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p[0] == name && p[1] == value)
    };
    assert!(has("preprocessing", "norm", "l1"), "{summary}");
    assert!(has("params", "norm", "true"), "{summary}");
}

#[test]
fn the_order_of_param_flags_never_matters() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "mail.tsv", MAIL);
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    train(
        &data,
        "multinomial-nb",
        &["norm=l1", "vectorizer=tfidf"],
        &a,
    );
    train(
        &data,
        "multinomial-nb",
        &["vectorizer=tfidf", "norm=l1"],
        &b,
    );
    let proba =
        |m: &std::path::Path| ok(&["predict", "--model", s(m), "--data", s(&data), "--proba"]);
    assert_eq!(proba(&a), proba(&b));
    let inspect = |m: &std::path::Path| json_of(&["inspect", "--model", s(m), "--json"]);
    assert_eq!(inspect(&a)["preprocessing"], inspect(&b)["preprocessing"]);
    // --multiclass and --poly are pipeline settings like any other
    let e = fails(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "perceptron",
        "--multiclass",
        "ovx",
        "--out",
        s(&a),
    ]);
    assert!(
        e.contains("pipeline.multiclass") && e.contains("ovo"),
        "{e}"
    );
}

#[test]
fn sgd_settings_are_refused_with_another_solver() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "mail.tsv", MAIL);
    let out = dir.path().join("m.json");
    let e = fails(&[
        "train",
        "--data",
        s(&data),
        "--model",
        "logistic-regression",
        "--param",
        "eta0=0.5",
        "--out",
        s(&out),
    ]);
    assert!(
        e.contains("applies to solver=sgd only") && e.contains("solver=auto"),
        "{e}"
    );
    train(
        &data,
        "logistic-regression",
        &["eta0=0.5", "solver=sgd"],
        &out,
    );
}

#[test]
fn kinds_lists_the_registry_and_the_readme_table_is_its_output() {
    let table = ok(&["kinds"]);
    for kind in [
        "multinomial-nb",
        "perceptron",
        "softmax-regression",
        "ridge",
    ] {
        assert!(table.contains(kind), "{table}");
    }
    let markdown = ok(&["kinds", "--markdown"]);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    assert!(
        readme.contains(&markdown),
        "README's kind table differs from `hyperplane kinds --markdown`:\n{markdown}"
    );
    let list: serde_json::Value = json_of(&["kinds", "--json"]);
    assert_eq!(list.as_array().unwrap().len(), markdown.lines().count() - 2);
    let help = ok(&["train", "--help"]);
    assert!(help.contains("linear-regression-classifier"), "{help}");
}

#[test]
fn kinds_lists_the_parameters_of_a_kind_by_component() {
    let text = ok(&[
        "kinds",
        "--model",
        "complement-nb",
        "--param",
        "vectorizer=tfidf",
    ]);
    for needle in [
        "model\n",
        "vectorizer\n",
        "pipeline\n",
        "model.norm = false",
        "vectorizer.norm = l2",
        "binary = false",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let count = json_of(&["kinds", "--model", "bernoulli-nb", "--json"]);
    let binary = count
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "binary")
        .unwrap();
    assert_eq!(
        (&binary["component"], &binary["default"]),
        (&"vectorizer".into(), &"true".into())
    );
    // typed forms and bounds, for a host building a form
    assert_eq!(binary["forms"], serde_json::json!([{"form": "bool"}]));
    let e = fails(&["kinds", "--model", "svm"]);
    assert!(e.contains("unknown model kind"), "{e}");
}

#[test]
fn a_kind_lists_only_the_parameters_it_uses() {
    let names = |kind: &str| -> Vec<String> {
        json_of(&["kinds", "--model", kind, "--json"])
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                format!(
                    "{}.{}",
                    p["component"].as_str().unwrap(),
                    p["name"].as_str().unwrap()
                )
            })
            .collect()
    };
    let svc = names("svc");
    assert!(
        !svc.iter().any(|n| n.starts_with("discretizer.")),
        "{svc:?}"
    );
    assert!(!svc.contains(&"pipeline.multiclass".to_string()), "{svc:?}");
    assert!(svc.contains(&"model.gamma".to_string()), "{svc:?}");
    assert!(names("categorical-nb").contains(&"discretizer.n_bins".to_string()));
    assert!(names("perceptron").contains(&"pipeline.multiclass".to_string()));
}

#[test]
fn parameter_help_is_plain_text_for_every_kind() {
    let kinds = json_of(&["kinds", "--json"]);
    for kind in kinds.as_array().unwrap() {
        let name = kind["name"].as_str().unwrap();
        let text = ok(&["kinds", "--model", name]);
        // rustdoc's links (`[`Type`]`) mean nothing in a terminal
        assert!(!text.contains("[`"), "{name}: {text}");
    }
}

#[test]
fn the_thread_count_changes_nothing_but_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("a,b,c,y\n");
    for i in 0..3000 {
        let (a, b, c) = (i % 17, (i * 7) % 13, (i * 3) % 11);
        csv.push_str(&format!(
            "{a},{b},{c},{}\n",
            u8::from(a + 2 * b > 3 * c + 5)
        ));
    }
    let data = write(dir.path(), "t.csv", &csv);
    let model = |threads: &str| {
        let out = dir.path().join(format!("m{threads}.json"));
        ok(&[
            "--threads",
            threads,
            "train",
            "--data",
            s(&data),
            "--model",
            "logistic-regression",
            "--param",
            "scale=standard",
            "--out",
            s(&out),
        ]);
        std::fs::read_to_string(out).unwrap()
    };
    assert_eq!(model("1"), model("3"));
    let e = fails(&[
        "train",
        "--threads",
        "0",
        "--data",
        s(&data),
        "--model",
        "gaussian-nb",
        "--out",
        "x.json",
    ]);
    assert!(e.contains("threads"), "{e}");
}
