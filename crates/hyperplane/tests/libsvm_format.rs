//! LIBSVM's model file format both ways: models written by `svm-train` predict as
//! `svm-predict` does, our models written out equal `svm-train`'s, a written model reads
//! back predicting the same bits, and malformed files are refused naming the line.
//! Fixtures made by `scripts/fixtures/gen_libsvm_models.py`.

use std::path::{Path, PathBuf};

use hyperplane::data::read::{read, ReadOptions};
use hyperplane::data::{LabelledInput, RawInput};
use hyperplane::pipeline::{Learner, Model, Pipeline};
use hyperplane::svm::libsvm_format;
use hyperplane::svm::{SupportVectors, SvmModel};
use hyperplane::{Classifier, Dataset, Features, Label, Params};
use ndarray::Array2;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(format!("{DIR}/tests/fixtures/libsvm_models/{name}"))
}

fn data_path(name: &str) -> PathBuf {
    match name {
        "heart_scale" => PathBuf::from(format!("{DIR}/tests/data/heart_scale")),
        other => fixture(other),
    }
}

fn input(name: &str) -> LabelledInput {
    read(&data_path(name), &ReadOptions::default()).unwrap()
}

fn matrix(input: &LabelledInput) -> Features<'static> {
    match &input.input {
        RawInput::Matrix(x) => x.clone(),
        _ => panic!("LIBSVM reads to a matrix"),
    }
}

/// (name, data file, svm-train arguments) of every generated case.
fn cases() -> Vec<(String, String, String)> {
    std::fs::read_to_string(fixture("cases.tsv"))
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

fn svm(p: &Pipeline) -> &SvmModel {
    p.model().downcast_ref::<SvmModel>().unwrap()
}

fn lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(fixture(name))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn libsvm_models_predict_svm_predicts_labels_and_values() {
    let all = cases();
    assert_eq!(all.len(), 11);
    for (name, data, _) in &all {
        let p = Pipeline::from_libsvm_model(&fixture(&format!("{name}.model"))).unwrap();
        let x = input(data);
        let want = lines(&format!("{name}.predict"));
        assert_eq!(want.len(), x.input.n_rows(), "{name}");
        if p.is_regressor() {
            let got = p.predict_values(&x.input).unwrap();
            for (i, w) in want.iter().enumerate() {
                let w: f64 = w.parse().unwrap();
                let g = got[[i, 0]];
                // svm-predict prints %.17g; its kernel sums run in another order
                assert!(
                    (g - w).abs() <= 1e-12 * w.abs().max(1.0),
                    "{name} row {i}: {g} vs svm-predict {w}"
                );
            }
        } else {
            let got = p.predict(&x.input).unwrap();
            for (i, w) in want.iter().enumerate() {
                let w: i64 = w.parse().unwrap();
                assert_eq!(got[i], Label::Int(w), "{name} row {i}");
            }
        }
    }
}

#[test]
fn libsvm_probabilities_match_svm_predict_b_1() {
    for (name, data) in [
        ("heart_prob", "heart_scale"),
        ("iris_prob", "iris_reordered.txt"),
    ] {
        let p = Pipeline::from_libsvm_model(&fixture(&format!("{name}.model"))).unwrap();
        let x = input(data);
        let got = p.predict_proba(&x.input).unwrap();
        let rows = lines(&format!("{name}.proba"));
        // header: `labels L1 L2 ...` in LIBSVM's order; ours are sorted
        let order: Vec<usize> = rows[0]
            .split_whitespace()
            .skip(1)
            .map(|l| {
                let l = Label::Int(l.parse().unwrap());
                p.classes().iter().position(|c| *c == l).unwrap()
            })
            .collect();
        let mut worst = 0.0f64;
        for (i, row) in rows[1..].iter().enumerate() {
            let values: Vec<f64> = row
                .split_whitespace()
                .skip(1)
                .map(|v| v.parse().unwrap())
                .collect();
            for (c, v) in order.iter().zip(values) {
                // printed with %g: 6 significant digits, so within 5e-7 of the value
                let d = (got[[i, *c]] - v).abs();
                worst = worst.max(d);
                assert!(
                    d < 1e-6,
                    "{name} row {i} class {c}: {} vs {v}",
                    got[[i, *c]]
                );
            }
        }
        assert!(worst > 0.0, "{name}: compared");
    }
}

/// svm-predict breaks a tie of votes by its label order (the first label of the file);
/// we break it by the sorted classes (the smallest), as for every model of ours.
#[test]
fn a_three_way_tie_goes_to_the_smallest_class_where_svm_predict_takes_its_first_label() {
    let p = Pipeline::from_libsvm_model(&fixture("tie3.model")).unwrap();
    assert_eq!(p.classes(), [Label::Int(1), Label::Int(2), Label::Int(3)]);
    let x = Features::from(Array2::from_elem((1, 1), 1.0));
    let ours = p.model().predict(&x).unwrap();
    assert_eq!(ours, [Label::Int(1)]);
    assert_eq!(lines("tie3.predict"), ["3"]);
    // each pair votes as in the file: 3 over 1, 2 over 3, 1 over 2
    let ovo = svm(&p).decision_values_ovo(&x).unwrap();
    // our pairs (1, 2), (1, 3), (2, 3): rho_12 = -1 (file pair (1, 2)), rho_13 = +1 (the
    // file's pair (3, 1) reversed), rho_23 = -1 (the file's (3, 2) = 1, reversed)
    assert_eq!(ovo.row(0).to_vec(), [1.0, -1.0, 1.0]);
}

/// The support vectors' rows as (index, value) lists, one per support vector.
fn sv_rows(m: &SvmModel) -> Vec<Vec<(usize, f64)>> {
    (0..m.support.len())
        .map(|s| match &m.support_vectors {
            SupportVectors::Dense { n_cols, values, .. } => values[s * n_cols..(s + 1) * n_cols]
                .iter()
                .enumerate()
                .filter(|(_, v)| **v != 0.0)
                .map(|(j, v)| (j, *v))
                .collect(),
            SupportVectors::Sparse(c) => {
                let (i, v) = c.row(s);
                i.iter()
                    .map(|&j| j as usize)
                    .zip(v.iter().copied())
                    .collect()
            }
        })
        .collect()
}

fn read_text(text: &str) -> hyperplane::Result<SvmModel> {
    libsvm_format::read(text.as_bytes(), Path::new("m.model"))
}

#[test]
fn our_svc_on_heart_scale_exported_equals_svm_trains_model_file() {
    let x = input("heart_scale");
    let data = Dataset::new(matrix(&x), x.labels.as_ref().unwrap()).unwrap();
    let mut l = Learner::from_kind("svc").unwrap();
    l.set_param("gamma", "auto").unwrap();
    let model = l.fit(&data).unwrap();
    let ours_text = model
        .downcast_ref::<SvmModel>()
        .unwrap()
        .to_libsvm()
        .unwrap();
    let theirs_text = std::fs::read_to_string(fixture("heart_rbf.model")).unwrap();
    // svm-train keeps the labels as first seen (1 -1), we write them sorted (-1 1): the
    // one pair is reversed, so its rho is the negative of svm-train's
    let rho = |t: &str| -> f64 {
        let line = t.lines().find(|l| l.starts_with("rho ")).unwrap();
        line[4..].trim().parse().unwrap()
    };
    assert!((rho(&ours_text) + rho(&theirs_text)).abs() < 1e-6);
    assert!(ours_text.contains("\nlabel -1 1\n") && theirs_text.contains("\nlabel 1 -1\n"));
    let (ours, theirs) = (
        read_text(&ours_text).unwrap(),
        read_text(&theirs_text).unwrap(),
    );
    assert_eq!(ours.n_support, theirs.n_support);
    assert_eq!(ours.n_support, [68, 64]);
    assert!((ours.duals[0].rho - theirs.duals[0].rho).abs() < 1e-6);
    // the same support vectors (svm-train prints %.8g of values that have 6 digits), in
    // the same order, with the same coefficients
    assert_eq!(sv_rows(&ours), sv_rows(&theirs));
    for (a, b) in ours.dual_coef[0].iter().zip(&theirs.dual_coef[0]) {
        assert!((a - b).abs() < 1e-6, "{a} vs {b}");
    }
}

/// Every type, kernel and storage: fit, write as LIBSVM text, read back.
fn round_trip_cases() -> Vec<(&'static str, Model, Features<'static>)> {
    let heart = input("heart_scale");
    let hx = matrix(&heart);
    let hy = heart.labels.clone().unwrap();
    let iris = input("iris_reordered.txt");
    let ix = Features::from(matrix(&iris).to_dense());
    let iy = iris.labels.clone().unwrap();
    let classes = |x: &Features<'static>, y: &[Label]| Dataset::new(x.clone(), y).unwrap();
    let targets = Array2::from_shape_fn((hy.len(), 1), |(i, _)| match hy[i] {
        Label::Int(v) => v as f64,
        _ => unreachable!(),
    });
    let regression = Dataset::regression(hx.clone(), targets).unwrap();
    let fit = |kind: &str, params: &[(&str, &str)], data: &Dataset| {
        let mut l = Learner::from_kind(kind).unwrap();
        for (n, v) in params {
            l.set_param(n, v).unwrap();
        }
        l.fit(data).unwrap()
    };
    let heart_classes = classes(&hx, &hy);
    let iris_classes = classes(&ix, &iy);
    vec![
        (
            "svc rbf sparse",
            fit("svc", &[], &heart_classes),
            hx.clone(),
        ),
        (
            "svc poly",
            fit("svc", &[("kernel", "poly"), ("coef0", "1")], &heart_classes),
            hx.clone(),
        ),
        (
            "svc sigmoid",
            fit("svc", &[("kernel", "sigmoid")], &heart_classes),
            hx.clone(),
        ),
        (
            "svc linear",
            fit("svc", &[("kernel", "linear")], &heart_classes),
            hx.clone(),
        ),
        (
            "svc probability",
            fit("svc", &[("probability", "true")], &heart_classes),
            hx.clone(),
        ),
        ("nu-svc", fit("nu-svc", &[], &heart_classes), hx.clone()),
        (
            "one-class",
            fit("one-class-svm", &[], &heart_classes),
            hx.clone(),
        ),
        ("svr", fit("svr", &[], &regression), hx.clone()),
        ("nu-svr", fit("nu-svr", &[], &regression), hx.clone()),
        (
            "iris dense probability",
            fit("svc", &[("probability", "true")], &iris_classes),
            ix.clone(),
        ),
    ]
}

#[test]
fn export_then_import_predicts_the_same_bits_for_every_type() {
    for (name, model, x) in round_trip_cases() {
        let ours = model.downcast_ref::<SvmModel>().unwrap();
        let text = ours.to_libsvm().unwrap();
        let back = read_text(&text).unwrap();
        assert_eq!(back.classes, ours.classes, "{name}");
        assert_eq!(
            matches!(back.support_vectors, SupportVectors::Dense { .. }),
            matches!(ours.support_vectors, SupportVectors::Dense { .. }),
            "{name}: storage"
        );
        let bits = |a: Array2<f64>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(back.decision_values_ovo(&x).unwrap()),
            bits(ours.decision_values_ovo(&x).unwrap()),
            "{name}: decision values"
        );
        if ours.probability.is_some() {
            assert_eq!(
                bits(back.predict_proba(&x).unwrap()),
                bits(ours.predict_proba(&x).unwrap()),
                "{name}: probabilities"
            );
        }
        // written again, the same text
        assert_eq!(back.to_libsvm().unwrap(), text, "{name}");
    }
}

#[test]
fn an_imported_model_takes_wider_and_narrower_rows_as_svm_predict_does() {
    let p = Pipeline::from_libsvm_model(&fixture("heart_rbf.model")).unwrap();
    let m = svm(&p);
    assert_eq!(m.n_features, 13);
    // one row with an entry beyond the support vectors' width, and one narrower row
    let wide = Features::from(
        Array2::from_shape_vec((1, 15), {
            let mut v = vec![0.25; 13];
            v.extend([0.0, 0.75]);
            v
        })
        .unwrap(),
    );
    let narrow = Features::from(Array2::from_elem((1, 2), 0.5));
    for x in [wide, narrow] {
        let got = m.decision_values_ovo(&x).unwrap()[[0, 0]];
        let row = x.to_dense();
        let mut want = -m.duals[0].rho;
        for (s, sv) in sv_rows(m).iter().enumerate() {
            let mut full = vec![0.0; row.ncols().max(13)];
            for &(j, v) in sv {
                full[j] = v;
            }
            let dist: f64 = full
                .iter()
                .enumerate()
                .map(|(j, v)| (row.get((0, j)).copied().unwrap_or(0.0) - v).powi(2))
                .sum();
            want += m.dual_coef[0][s] * (-m.kernel.gamma * dist).exp();
        }
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
}

#[test]
fn inspect_says_what_a_libsvm_model_file_does_not_record() {
    let p = Pipeline::from_libsvm_model(&fixture("iris_rbf.model")).unwrap();
    let s = p.summary(3);
    assert_eq!(s.kind, "svc");
    assert_eq!(s.n_train, 0);
    let details: Vec<String> = s
        .model
        .details
        .iter()
        .map(|(a, b)| format!("{a} {b}"))
        .collect();
    let text = details.join("\n");
    assert!(text.contains("not recorded"), "{text}");
    assert!(text.contains("dual 0 vs 1 rho"), "{text}");
    let m = svm(&p);
    assert!(m
        .duals
        .iter()
        .all(|d| d.objective.is_nan() && d.iterations == 0));
    // saved as our own file and loaded again: the same model
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.json");
    p.save(&path).unwrap();
    let back = Pipeline::load_any(&path).unwrap();
    let x = matrix(&input("iris_reordered.txt"));
    assert_eq!(
        svm(&back).decision_values_ovo(&x).unwrap(),
        m.decision_values_ovo(&x).unwrap()
    );
    assert!(svm(&back).duals[0].objective.is_nan());
}

#[test]
fn malformed_model_files_are_refused_naming_the_line() {
    let good = std::fs::read_to_string(fixture("heart_rbf.model")).unwrap();
    assert!(read_text(&good).is_ok());
    let rho_line = good.lines().find(|l| l.starts_with("rho ")).unwrap();
    let cut_at_sv = |t: &str| t[..t.find("\nSV\n").unwrap() + 4].to_string();
    let mut cases: Vec<(&str, String, &str)> = vec![
        (
            "truncated SV section",
            good[..good.len() / 2]
                .rsplit_once('\n')
                .unwrap()
                .0
                .to_string(),
            "truncated",
        ),
        (
            "no SV line",
            good[..good.find("SV\n").unwrap()].to_string(),
            "before the `SV`",
        ),
        (
            "nr_sv sum",
            good.replace("nr_sv 64 68", "nr_sv 64 69"),
            "line 8: nr_sv 64 69 does not add up",
        ),
        (
            "huge total_sv",
            good.replace("total_sv 132", "total_sv 18446744073709551615"),
            "does not add up",
        ),
        (
            "huge total_sv and nr_sv",
            cut_at_sv(&good)
                .replace("total_sv 132", "total_sv 4000000000")
                .replace("nr_sv 64 68", "nr_sv 2000000000 2000000000"),
            "ends after 0 support vectors",
        ),
        (
            "huge nr_class",
            good.replace("nr_class 2", "nr_class 99999999999"),
            "nr_class",
        ),
        (
            "missing rho",
            good.replace(&format!("{rho_line}\n"), ""),
            "no `rho` line",
        ),
        (
            "NaN rho",
            good.replace(rho_line, "rho nan"),
            "not a finite number",
        ),
        (
            "NaN coefficient",
            good.replacen("\n1 1:", "\nNaN 1:", 1),
            "coefficient 1 `NaN` is not a finite number",
        ),
        (
            "index order",
            good.replacen(" 2:1 3:1 ", " 3:1 2:1 ", 1),
            "index 2 after 3",
        ),
        (
            "index 0",
            good.replacen(" 1:0.708333 ", " 0:0.708333 ", 1),
            "index 0 after 0",
        ),
        (
            "bad pair",
            good.replacen(" 1:0.708333 ", " 1=0.708333 ", 1),
            "expected index:value",
        ),
        (
            "unknown key",
            good.replace("nr_class 2", "nr_class 2\nweights 1 2"),
            "unknown keyword `weights`",
        ),
        (
            "repeated key",
            good.replace("nr_class 2", "nr_class 2\nnr_class 2"),
            "a second `nr_class`",
        ),
        (
            "rho length",
            good.replace(rho_line, "rho 1 2"),
            "must hold 1 values",
        ),
        (
            "bad type",
            good.replace("svm_type c_svc", "svm_type d_svc"),
            "line 1: svm_type `d_svc`",
        ),
        (
            "no gamma",
            good.replace("gamma 0.076923076923076927\n", ""),
            "needs a `gamma` line",
        ),
        (
            "extra SV",
            format!("{good}1 1:1\n"),
            "more support vectors than total_sv 132",
        ),
        (
            "label twice",
            good.replace("label 1 -1", "label 1 1"),
            "lists a class twice",
        ),
        (
            "probA alone",
            good.replace("label 1 -1", "label 1 -1\nprobA 1"),
            "probA and probB",
        ),
        (
            "not text",
            "svm_type c_svc\n\u{0}\u{ff}".to_string(),
            "line",
        ),
    ];
    // a precomputed kernel's support vector is `0:ID` alone
    let pre = std::fs::read_to_string(fixture("precomputed_heart_split.model")).unwrap();
    assert!(read_text(&pre).is_ok());
    let sv = |line: &str| pre.replacen("\n1 0:3 \n", &format!("\n{line}\n"), 1);
    cases.extend([
        (
            "precomputed ID 0",
            sv("1 0:0"),
            "line 9: a kernel_type precomputed",
        ),
        ("precomputed ID", sv("1 0:x"), "found `0:x`"),
        ("precomputed extra", sv("1 0:3 1:2"), "found `1:2` after it"),
        ("precomputed nothing", sv("1"), "found nothing"),
        ("precomputed value", sv("1 3:0.5"), "found `3:0.5`"),
    ]);
    for (what, text, expected) in cases {
        let err = match std::panic::catch_unwind(|| read_text(&text)) {
            Ok(Err(e)) => e.to_string(),
            Ok(Ok(_)) => panic!("{what}: read"),
            Err(_) => panic!("{what}: panicked"),
        };
        assert!(err.contains("m.model"), "{what}: {err}");
        assert!(err.contains(expected), "{what}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
    }
    // bytes that are not UTF-8
    let e = libsvm_format::read(b"svm_type c_svc\n\xff\n", Path::new("m.model")).unwrap_err();
    assert!(e.to_string().contains("line 2: not UTF-8"), "{e}");
}

#[test]
fn models_the_format_cannot_hold_are_refused_on_export() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.model");
    let text = "x,y,label\n0,0,a\n1,1,b\n0,1,a\n1,0,b\n0.2,0.1,a\n0.9,1,b\n";
    let csv = dir.path().join("t.csv");
    std::fs::write(&csv, text).unwrap();
    let raw = read(&csv, &ReadOptions::default()).unwrap();
    let table = hyperplane::pipeline::PipelineSpec::new("svc")
        .unwrap()
        .fit(&raw)
        .unwrap();
    let e = table.save_libsvm(&out).unwrap_err().to_string();
    assert!(e.contains("a CSV table") && e.contains("m.model"), "{e}");
    let heart = input("heart_scale");
    let mut spec = hyperplane::pipeline::PipelineSpec::new("svc").unwrap();
    spec.set_params(&[("scale".to_string(), "standard".to_string())])
        .unwrap();
    let dense = LabelledInput {
        input: RawInput::Matrix(Features::from(matrix(&heart).to_dense())),
        ..heart.clone()
    };
    let e = spec
        .fit(&dense)
        .unwrap()
        .save_libsvm(&out)
        .unwrap_err()
        .to_string();
    assert!(e.contains("transform (standard scaler"), "{e}");
    for kind in ["hard-margin-svm", "linear-svm", "gaussian-nb"] {
        let spec = hyperplane::pipeline::PipelineSpec::new(kind).unwrap();
        let p = spec.fit(&heart);
        let Ok(p) = p else { continue };
        let e = p.save_libsvm(&out).unwrap_err().to_string();
        assert!(e.contains("not a kernel SVM") && e.contains(kind), "{e}");
    }
    // a text-labelled svc on numeric rows: LIBSVM's labels are integers
    let x = matrix(&heart);
    let y: Vec<Label> = heart
        .labels
        .unwrap()
        .iter()
        .map(|l| Label::from(if *l == Label::Int(1) { "yes" } else { "no" }))
        .collect();
    let m = Learner::from_kind("svc")
        .unwrap()
        .fit(&Dataset::new(x, &y).unwrap())
        .unwrap();
    let e = m
        .downcast_ref::<SvmModel>()
        .unwrap()
        .to_libsvm()
        .unwrap_err();
    assert!(e.to_string().contains("integers"), "{e}");
}
