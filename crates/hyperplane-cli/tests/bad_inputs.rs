//! The bad-input catalogue: every reader, the model loader, every command and parameter,
//! given what a hostile or careless user might. Each case runs the binary under a memory cap
//! (`prlimit --as`) and a time limit and must end with the expected status, one line on
//! stderr that names the problem, and no panic.

use crate::common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{ok, s, write};
use serde_json::{json, Value};

/// Each case must end within this time.
const TIMEOUT: Duration = Duration::from_secs(15);
/// The address space each case may use (4 GiB).
const MEMORY_CAP: u64 = 4 << 30;

/// What a case must give.
enum Want {
    /// A non-zero exit and one line on stderr holding this text.
    Error(&'static str),
    /// Success, nothing on stderr.
    Success,
    /// Success with one warning line on stderr holding this text.
    Warning(&'static str),
}

struct Case {
    args: Vec<String>,
    want: Want,
}

/// The outcome of one run: exit code (`None`: killed by a signal), stdout, stderr.
struct Run {
    code: Option<i32>,
    stderr: String,
}

/// Runs the binary with `args` under the memory cap; `None` if it outlived [`TIMEOUT`]
/// (it is killed).
fn run(args: &[String]) -> Option<Run> {
    let mut child = Command::new("prlimit")
        .arg(format!("--as={MEMORY_CAP}"))
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_hyperplane"))
        .args(args)
        .env("RAYON_NUM_THREADS", "2")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit runs the binary");
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Some(Run {
        code: status.code(),
        stderr: reader.join().unwrap(),
    })
}

/// What is wrong with the outcome of `case`, if anything.
fn check(case: &Case) -> Option<String> {
    let Some(r) = run(&case.args) else {
        return Some(format!("did not finish within {TIMEOUT:?}"));
    };
    let err = r.stderr.trim_end();
    if err.contains("panicked")
        || err.contains("internal error")
        || err.contains("memory allocation")
    {
        return Some(format!("crashed: {err}"));
    }
    let lines = if err.is_empty() {
        0
    } else {
        err.lines().count()
    };
    match case.want {
        Want::Error(text) => {
            if r.code == Some(0) || r.code.is_none() {
                return Some(format!(
                    "exit {:?}, expected a failure; stderr: {err}",
                    r.code
                ));
            }
            if lines != 1 || !err.starts_with("error: ") || !err.contains(text) {
                return Some(format!(
                    "expected one line `error: ...{text}...`, got: {err}"
                ));
            }
        }
        Want::Success | Want::Warning(_) => {
            if r.code != Some(0) {
                return Some(format!(
                    "exit {:?}, expected success; stderr: {err}",
                    r.code
                ));
            }
            let warned = match case.want {
                Want::Warning(text) => {
                    lines == 1 && err.starts_with("warning: ") && err.contains(text)
                }
                _ => lines == 0,
            };
            if !warned {
                return Some(format!("unexpected stderr: {err}"));
            }
        }
    }
    None
}

/// The cases' files, made in a temporary folder.
struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn p(&self, name: &str) -> String {
        s(&self.path(name)).to_string()
    }
    fn write(&self, name: &str, content: impl AsRef<[u8]>) -> String {
        let p = self.path(name);
        std::fs::write(&p, content).unwrap();
        s(&p).to_string()
    }
    /// A copy of the model file `model` with its JSON changed by `edit`.
    fn edited(&self, model: &str, name: &str, edit: impl FnOnce(&mut Value)) -> String {
        let mut v: Value =
            serde_json::from_str(&std::fs::read_to_string(self.path(model)).unwrap()).unwrap();
        edit(&mut v);
        self.write(name, v.to_string())
    }
}

const CSV: &str = "x1,x2,label\n\
1.0,2.0,a\n1.5,1.8,a\n1.2,2.2,a\n0.9,2.1,a\n\
4.0,0.5,b\n4.2,0.7,b\n3.9,0.4,b\n4.4,0.6,b\n";
const SVM: &str = "1 1:1.0 2:2.0\n1 1:1.5 2:1.8\n1 1:1.2 2:2.2\n\
-1 1:4.0 2:0.5\n-1 1:4.2 2:0.7\n-1 1:3.9 2:0.4\n";
const TSV: &str = "spam\tcheap pills buy now\nham\tmeeting notes for the project\n\
spam\tbuy cheap watches now\nham\tproject review meeting tomorrow\n";

fn setup() -> Files {
    let f = Files {
        dir: tempfile::tempdir().unwrap(),
    };
    f.write("good.csv", CSV);
    f.write("good.svm", SVM);
    f.write("good.tsv", TSV);
    f.write(
        "three.csv",
        format!("{CSV}0.5,5.0,c\n0.4,5.2,c\n0.6,4.9,c\n"),
    );
    for (class, docs) in [
        ("ham", ["see you at lunch", "notes attached"]),
        ("spam", ["cheap pills", "win money now"]),
    ] {
        std::fs::create_dir_all(f.path("mail").join(class)).unwrap();
        for (i, d) in docs.iter().enumerate() {
            write(&f.path("mail").join(class), &format!("{i}.txt"), d);
        }
    }
    let train = |data: &str, kind: &str, out: &str, extra: &[&str]| {
        let mut args = vec!["train", "--data", data, "--model", kind, "--out", out];
        args.extend_from_slice(extra);
        ok(&args);
    };
    train(&f.p("good.csv"), "gaussian-nb", &f.p("gaussian.json"), &[]);
    train(
        &f.p("good.tsv"),
        "multinomial-nb",
        &f.p("multinomial.json"),
        &[],
    );
    train(
        &f.p("good.csv"),
        "categorical-nb",
        &f.p("categorical.json"),
        &[],
    );
    train(&f.p("good.csv"), "perceptron", &f.p("perceptron.json"), &[]);
    train(
        &f.p("good.csv"),
        "logistic-regression",
        &f.p("logistic.json"),
        &[],
    );
    train(&f.p("good.svm"), "svc", &f.p("svc.json"), &[]);
    train(&f.p("three.csv"), "perceptron", &f.p("ova.json"), &[]);
    train(
        &f.p("good.csv"),
        "mlp",
        &f.p("mlp.json"),
        &["--param", "hidden=3", "--param", "max_iter=5"],
    );
    f
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|a| a.to_string()).collect()
}

fn fails(list: &[&str], text: &'static str) -> Case {
    Case {
        args: args(list),
        want: Want::Error(text),
    }
}

fn succeeds(list: &[&str]) -> Case {
    Case {
        args: args(list),
        want: Want::Success,
    }
}

/// `train --data DATA --model KIND --out (a fresh path) EXTRA...` failing with `text`.
fn train_fails(f: &Files, data: &str, kind: &str, extra: &[&str], text: &'static str) -> Case {
    let mut a = vec!["train", "--data", data, "--model", kind];
    let out = f.p("out.json");
    a.extend(["--out", &out]);
    a.extend_from_slice(extra);
    fails(&a, text)
}

/// `tune --data DATA --model gaussian-nb --grid var_smoothing=1e-9` with `extra` failing
/// with `text`.
fn tune_fails(data: &str, extra: &[&str], text: &'static str) -> Case {
    let mut a = vec!["tune", "--data", data, "--model", "gaussian-nb"];
    a.extend(["--grid", "var_smoothing=1e-9"]);
    a.extend_from_slice(extra);
    fails(&a, text)
}

/// `predict --model MODEL --data DATA` failing with `text`.
fn predict_fails(model: &str, data: &str, text: &'static str) -> Case {
    fails(&["predict", "--model", model, "--data", data], text)
}

fn reader_cases(f: &Files) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut csv = |name: &str, content: &[u8], extra: &[&str], text: &'static str| {
        let data = f.write(name, content);
        cases.push(train_fails(f, &data, "gaussian-nb", extra, text));
    };
    csv("empty.csv", b"", &[], "empty");
    // found by fuzzing: two byte-order marks and nothing else
    csv(
        "two_boms.csv",
        b"\xef\xbb\xbf\xef\xbb\xbf",
        &[],
        "two_boms.csv is empty",
    );
    csv("header_only.csv", b"x1,x2,label\n", &[], "no data rows");
    csv(
        "ragged.csv",
        b"x1,x2,label\n1,2,a\n1,2\n3,4,b\n",
        &[],
        "ragged.csv:3",
    );
    csv(
        "nul.csv",
        b"x1,x2,label\n1,2,a\n1,\x002,b\n",
        &[],
        "nul.csv:3:2: expected text, found a NUL byte",
    );
    csv(
        "nan.csv",
        b"x1,x2,label\n1,nan,a\n2,3,b\n",
        &[],
        "nan.csv:2:2: expected a finite number",
    );
    csv(
        "inf.csv",
        b"x1,x2,label\n1,2,a\ninf,3,b\n",
        &[],
        "inf.csv:3:1: expected a finite number",
    );
    csv(
        "missing.csv",
        b"x1,x2,label\n1,,a\n2,3,b\n",
        &[],
        "missing value",
    );
    csv(
        "label_missing.csv",
        b"x1,x2,label\n1,2,?\n2,3,b\n",
        &[],
        "expected a label",
    );
    csv(
        "label_far.csv",
        CSV.as_bytes(),
        &["--label-col", "9"],
        "label",
    );
    csv(
        "label_name.csv",
        CSV.as_bytes(),
        &["--label-col", "colour"],
        "colour",
    );
    csv(
        "delim.csv",
        CSV.as_bytes(),
        &["--delimiter", "|"],
        "delimiter",
    );
    csv(
        "policy.csv",
        CSV.as_bytes(),
        &["--missing", "guess"],
        "missing",
    );
    csv(
        "format.csv",
        CSV.as_bytes(),
        &["--format", "parquet"],
        "parquet",
    );
    csv("one_col.csv", b"label\na\nb\n", &[], "no feature columns");
    csv(
        "dup_names.csv",
        b"x,x,label\n1,2,a\n3,4,b\n",
        &[],
        "appears twice",
    );
    csv(
        "quote.csv",
        b"x1,x2,label\n1,\"2,a\n3,4,b\n",
        &[],
        "quote.csv",
    );
    let mut garbage = Vec::new();
    let mut x: u64 = 7;
    for _ in 0..4096 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        garbage.push((x % 255 + 1) as u8);
    }
    csv("garbage.csv", &garbage, &[], "garbage.csv");

    // a million columns is data, read in seconds
    let wide: String = (0..1_000_000).map(|j| format!("{j},")).collect::<String>();
    let wide = f.write("wide.csv", format!("{wide}a\n{wide}b\n"));
    cases.push(succeeds(&[
        "train",
        "--data",
        &wide,
        "--model",
        "gaussian-nb",
        "--out",
        &f.p("wide.json"),
    ]));

    let mut svm = |name: &str, content: &str, kind: &'static str, text: &'static str| {
        let data = f.write(name, content);
        cases.push(train_fails(f, &data, kind, &["--format", "libsvm"], text));
    };
    svm("zero.svm", "1 0:1\n-1 1:2\n", "perceptron", "zero.svm:1:3");
    svm(
        "negative.svm",
        "1 -3:1\n-1 1:2\n",
        "perceptron",
        "negative.svm:1:3",
    );
    svm(
        "order.svm",
        "1 3:1 2:1\n-1 1:2\n",
        "perceptron",
        "order.svm:1",
    );
    svm(
        "colon.svm",
        "1 1:1 2\n-1 1:2\n",
        "perceptron",
        "colon.svm:1",
    );
    svm(
        "value.svm",
        "1 1:abc\n-1 1:2\n",
        "perceptron",
        "value.svm:1",
    );
    svm("nan.svm", "1 1:nan\n-1 1:2\n", "perceptron", "nan.svm:1");
    svm(
        "huge_index.svm",
        "1 4294967295:1\n-1 1:2\n",
        "perceptron",
        "would take",
    );
    svm(
        "billion.svm",
        "1 1000000000:1\n-1 1:2\n",
        "multinomial-nb",
        "would take",
    );
    svm(
        "over_u32.svm",
        "1 4294967296:1\n-1 1:2\n",
        "perceptron",
        "over_u32.svm:1",
    );
    svm(
        "overflow.svm",
        "1 99999999999999999999999:1\n-1 1:2\n",
        "perceptron",
        "overflow.svm:1",
    );
    svm("mixed.svm", "1 1:1\n2:1\n", "perceptron", "mixed.svm:2");
    svm("empty.svm", "", "perceptron", "empty");
    svm(
        "comments.svm",
        "# nothing\n\n",
        "perceptron",
        "no data lines",
    );

    let mut tsv = |name: &str, content: &str, text: &'static str| {
        let data = f.write(name, content);
        cases.push(train_fails(
            f,
            &data,
            "multinomial-nb",
            &["--format", "tsv"],
            text,
        ));
    };
    tsv("no_tab.tsv", "spam\tbuy\nham meeting\n", "no_tab.tsv:2:1");
    tsv(
        "no_label.tsv",
        "spam\tbuy\n\tmeeting\n",
        "no_label.tsv:2:1: expected a label",
    );
    tsv("blank.tsv", "\n\n  \n", "no documents");

    let folder = |name: &str| {
        let p = f.path(name);
        std::fs::create_dir_all(&p).unwrap();
        s(&p).to_string()
    };
    let empty = folder("empty_dir");
    cases.push(train_fails(
        f,
        &empty,
        "multinomial-nb",
        &[],
        "holds no documents",
    ));
    let hidden = folder("hidden_dir");
    write(Path::new(&hidden), ".secret", "x");
    cases.push(train_fails(
        f,
        &hidden,
        "multinomial-nb",
        &[],
        "holds no documents",
    ));
    cases
}

fn special_file_cases(f: &Files) -> Vec<Case> {
    let fifo = f.p("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let socket = f.p("socket");
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    std::mem::forget(listener); // the socket file stays while the test runs
                                // a class folder with a FIFO among its documents: skipped with a warning
    let mail = f.path("mail_fifo");
    for class in ["ham", "spam"] {
        std::fs::create_dir_all(mail.join(class)).unwrap();
        write(&mail.join(class), "a.txt", &format!("{class} words here"));
    }
    assert!(Command::new("mkfifo")
        .arg(mail.join("spam/pipe"))
        .status()
        .unwrap()
        .success());
    let gaussian = f.p("gaussian.json");
    let csv = f.p("good.csv");
    let out = f.p("out.json");
    vec![
        train_fails(
            f,
            "/dev/zero",
            "gaussian-nb",
            &[],
            "/dev/zero is a character device",
        ),
        train_fails(
            f,
            "/dev/urandom",
            "gaussian-nb",
            &["--format", "csv"],
            "/dev/urandom is a character device",
        ),
        train_fails(f, &fifo, "gaussian-nb", &[], "is a FIFO"),
        train_fails(
            f,
            &fifo,
            "multinomial-nb",
            &["--format", "tsv"],
            "is a FIFO",
        ),
        train_fails(f, &socket, "gaussian-nb", &[], "is a socket"),
        train_fails(f, &f.p("absent.csv"), "gaussian-nb", &[], "absent.csv"),
        predict_fails(&fifo, &csv, "is a FIFO"),
        predict_fails("/dev/zero", &csv, "/dev/zero is a character device"),
        predict_fails(&socket, &csv, "is a socket"),
        predict_fails(
            &gaussian,
            "/dev/urandom",
            "/dev/urandom is a character device",
        ),
        predict_fails(&f.p("absent.json"), &csv, "absent.json"),
        fails(&["evaluate", "--model", &fifo, "--data", &csv], "is a FIFO"),
        fails(&["inspect", "--model", "/dev/zero"], "character device"),
        fails(
            &["inspect", "--model", &gaussian, "--data", &fifo],
            "is a FIFO",
        ),
        fails(
            &[
                "export", "--model", &fifo, "--format", "libsvm", "--out", &out,
            ],
            "is a FIFO",
        ),
        fails(
            &[
                "theory",
                "shatter",
                "--points",
                "/dev/zero",
                "--set",
                "perceptron",
            ],
            "character device",
        ),
        fails(
            &[
                "theory",
                "shatter",
                "--points",
                &fifo,
                "--set",
                "perceptron",
            ],
            "is a FIFO",
        ),
        fails(
            &[
                "plot",
                "boundary",
                "--model",
                &gaussian,
                "--data",
                &fifo,
                "--out",
                &f.p("b.svg"),
            ],
            "is a FIFO",
        ),
        fails(
            &[
                "plot",
                "loss-curve",
                "--model",
                &fifo,
                "--out",
                &f.p("l.svg"),
            ],
            "is a FIFO",
        ),
        fails(
            &["plot", "pla", "--data", "/dev/zero", "--out", &f.p("p.svg")],
            "character device",
        ),
        fails(
            &[
                "plot",
                "learning-curve",
                "--data",
                &fifo,
                "--model",
                "gaussian-nb",
                "--out",
                &f.p("c.svg"),
            ],
            "is a FIFO",
        ),
        fails(
            &[
                "tune",
                "--data",
                &fifo,
                "--model",
                "gaussian-nb",
                "--grid",
                "var_smoothing=1e-9",
            ],
            "is a FIFO",
        ),
        Case {
            args: args(&[
                "train",
                "--data",
                s(&mail),
                "--model",
                "multinomial-nb",
                "--out",
                &out,
            ]),
            want: Want::Warning("pipe: a FIFO (named pipe), not a document file"),
        },
    ]
}

fn model_cases(f: &Files) -> Vec<Case> {
    let csv = f.p("good.csv");
    let tsv = f.p("good.tsv");
    let svm = f.p("good.svm");
    let three = f.p("three.csv");
    let mut cases = Vec::new();
    let mut file = |name: &str, content: &[u8], text: &'static str| {
        let model = f.write(name, content);
        cases.push(predict_fails(&model, &csv, text));
    };
    file("empty.json", b"", "the file is empty");
    file(
        "truncated.json",
        b"{\"format\": \"hyperplane-model\", \"format_",
        "truncated",
    );
    file(
        "binary.json",
        b"\x7fELF\x02\x01\x01\x00",
        "not a hyperplane model file",
    );
    file("array.json", b"[1, 2, 3]", "not a hyperplane model file");
    file(
        "foreign.json",
        br#"{"format": "onnx", "format_version": 1}"#,
        "format \"onnx\"",
    );
    file(
        "newer.json",
        br#"{"format": "hyperplane-model", "format_version": 99, "model_kind": "x"}"#,
        "newer hyperplane",
    );
    file(
        "no_kind.json",
        br#"{"format": "hyperplane-model", "format_version": 1}"#,
        "no model_kind",
    );
    file(
        "no_body.json",
        br#"{"format": "hyperplane-model", "format_version": 1, "model_kind": "gaussian-nb", "crate_version": "0.1.0"}"#,
        "missing field `model`",
    );
    file(
        "libsvm.model",
        b"svm_type c_svc\nkernel_type rbf\nnr_class 2\n",
        "libsvm.model",
    );

    // (model, data, JSON pointer, new value, what the error names)
    let body = |model: &str| -> Value {
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(f.path(model)).unwrap()).unwrap();
        v["model"]["model"].clone()
    };
    const G: &str = "/model/model/NaiveBayes/Gaussian/stats";
    const M: &str = "/model/model/NaiveBayes/Multinomial/stats";
    const C: &str = "/model/model/NaiveBayes/Categorical/stats";
    let edits: Vec<(&str, &str, String, Value, &'static str)> = vec![
        (
            "gaussian.json",
            &csv,
            format!("{G}/class_moments/0/mean"),
            json!([1.0]),
            "class_moments.mean has 1 values",
        ),
        (
            "gaussian.json",
            &csv,
            format!("{G}/class_moments/0/var"),
            json!([-1.0, 1.0]),
            "class_moments.var holds -1",
        ),
        (
            "gaussian.json",
            &csv,
            format!("{G}/classes/classes"),
            json!(["a", "b", "c"]),
            "class_moments has 2 entries for 3 classes",
        ),
        (
            "gaussian.json",
            &csv,
            format!("{G}/n_features"),
            json!(5),
            "class_moments.mean has 2 values, not 5",
        ),
        (
            "gaussian.json",
            &csv,
            format!("{G}/classes/classes"),
            json!(["a", "a"]),
            "sorted and distinct",
        ),
        (
            "gaussian.json",
            &csv,
            format!("{G}/class_moments"),
            json!([]),
            "class_moments has 0 entries for 2 classes",
        ),
        (
            "gaussian.json",
            &csv,
            "/model_kind".into(),
            json!("perceptron"),
            "the envelope's model_kind is \"perceptron\"",
        ),
        (
            "gaussian.json",
            &csv,
            "/model/model".into(),
            body("perceptron.json"),
            "the model body is a Linear model, not the NaiveBayes model",
        ),
        (
            "multinomial.json",
            &tsv,
            format!("{M}/feature_count/0/0"),
            json!(-5.0),
            "feature_count holds -5",
        ),
        (
            "multinomial.json",
            &tsv,
            format!("{M}/classes/count/1"),
            json!(-1.0),
            "classes.count holds -1",
        ),
        (
            "categorical.json",
            &csv,
            format!("{C}/counts/0"),
            json!([[0.0]]),
            "counts has 1 features, not n_features = 2",
        ),
        (
            "categorical.json",
            &csv,
            format!("{C}/counts/1/0"),
            json!([0.0, -2.0]),
            "counts holds -2",
        ),
        (
            "perceptron.json",
            &csv,
            "/model/model/Linear/classes".into(),
            json!(["a", "b", "c"]),
            "perceptron is binary",
        ),
        (
            "perceptron.json",
            &csv,
            "/model/model/Linear/coef/dim".into(),
            json!([2, 1]),
            "n_features: the model takes 1 features but its input stage",
        ),
        (
            "perceptron.json",
            &csv,
            "/model/model/Linear/intercept".into(),
            json!(null),
            "expected ndarray representation",
        ),
        (
            "logistic.json",
            &csv,
            "/model/model/Linear/coef/data/0".into(),
            json!("NaN"),
            "expected f64",
        ),
        (
            "ova.json",
            &three,
            "/model/model/OneVsRest/models/2".into(),
            json!(null),
            "expected a fitted model",
        ),
        (
            "ova.json",
            &three,
            "/model/model/OneVsRest/classes/2".into(),
            json!("a"),
            "sorted and distinct",
        ),
        (
            "svc.json",
            &svm,
            "/model/model/Svm/dual_coef/0".into(),
            json!([1.0]),
            "dual_coef",
        ),
        (
            "svc.json",
            &svm,
            "/model/model/Svm/n_features".into(),
            json!(7),
            "support_vectors",
        ),
        (
            "mlp.json",
            &csv,
            "/model/model/Mlp/params".into(),
            json!([0.5]),
            "params",
        ),
    ];
    for (i, (model, data, pointer, value, text)) in edits.into_iter().enumerate() {
        let path = f.edited(model, &format!("edited{i}.json"), |v| {
            *v.pointer_mut(&pointer)
                .unwrap_or_else(|| panic!("{model} has no {pointer}")) = value;
        });
        cases.push(predict_fails(&path, data, text));
    }
    cases
}

fn command_cases(f: &Files) -> Vec<Case> {
    let csv = f.p("good.csv");
    let tsv = f.p("good.tsv");
    let gaussian = f.p("gaussian.json");
    let perceptron = f.p("perceptron.json");
    let multinomial = f.p("multinomial.json");
    let mlp = f.p("mlp.json");
    let svg = f.p("x.svg");
    let wide_row: String = (0..100).map(|j| format!("{}.5,", j % 7)).collect();
    let wide = f.write("wide100.csv", format!("{wide_row}a\n{wide_row}b\n"));
    // values whose squares overflow f64: every fit must refuse them, not save NaN weights
    let rows = |label: &dyn Fn(usize) -> String| -> String {
        (1..40)
            .map(|i| format!("{i}e200,{}e250,{}\n", (i * 7) % 5, label(i)))
            .collect()
    };
    let overflow_classes = f.write(
        "overflow_c.csv",
        format!("x,z,y\n{}", rows(&|i| ["a", "b"][i % 2].into())),
    );
    let overflow_values = f.write(
        "overflow_r.csv",
        format!("x,z,y\n{}", rows(&|i| (3 * i).to_string())),
    );
    // 200 features each holding category 1,000,000: counts of 2 x 200 x 10^6 numbers
    let big_row: String = (1..=200).map(|j| format!(" {j}:1000000")).collect();
    let huge_categories = f.write("categories.libsvm", format!("1{big_row}\n2{big_row}\n"));
    let three = f.write("four.csv", "x1,x2,x3,x4\n1,2,3,4\n");
    let unseen = f.write("unseen.csv", "x1,x2,label\n1,2,zzz\n");
    let out = f.p("out.json");
    vec![
        // train and its parameters
        train_fails(f, &csv, "random-forest", &[], "random-forest"),
        train_fails(
            f,
            &csv,
            "gaussian-nb",
            &["--param", "var_smoothing"],
            "NAME=VALUE",
        ),
        train_fails(f, &csv, "gaussian-nb", &["--param", "depth=3"], "depth"),
        train_fails(
            f,
            &csv,
            "gaussian-nb",
            &["--param", "var_smoothing=-1"],
            "var_smoothing",
        ),
        train_fails(
            f,
            &csv,
            "gaussian-nb",
            &["--param", "var_smoothing=abc"],
            "var_smoothing",
        ),
        train_fails(
            f,
            &csv,
            "categorical-nb",
            &["--param", "n_bins=18446744073709551615"],
            "would take",
        ),
        train_fails(
            f,
            &csv,
            "categorical-nb",
            &["--param", "n_bins=1000000000000"],
            "would take",
        ),
        train_fails(
            f,
            &csv,
            "categorical-nb",
            &["--param", "n_bins=1"],
            "n_bins",
        ),
        train_fails(
            f,
            &wide,
            "categorical-nb",
            &["--param", "min_categories=1048576", "--max-memory", "100M"],
            "probability tables",
        ),
        train_fails(
            f,
            &overflow_classes,
            "gaussian-nb",
            &[],
            "fitting gaussian-nb overflowed",
        ),
        train_fails(f, &overflow_classes, "perceptron", &[], "too large for f64"),
        train_fails(f, &overflow_classes, "nu-svc", &[], "too large for f64"),
        train_fails(
            f,
            &overflow_values,
            "linear-regression",
            &[],
            "weights are not finite",
        ),
        train_fails(f, &overflow_values, "ridge", &[], "weights are not finite"),
        train_fails(
            f,
            &huge_categories,
            "categorical-nb",
            &["--max-memory", "100M"],
            "category counts",
        ),
        train_fails(
            f,
            &wide,
            "perceptron",
            &["--poly", "5", "--label-col", "last"],
            "would take",
        ),
        train_fails(
            f,
            &csv,
            "perceptron",
            &["--poly", "100000000"],
            "would take",
        ),
        train_fails(
            f,
            &csv,
            "perceptron",
            &["--multiclass", "all"],
            "multiclass",
        ),
        train_fails(
            f,
            &wide,
            "gaussian-nb",
            &["--max-memory", "1K"],
            "over the budget of 1.0 KiB",
        ),
        train_fails(
            f,
            &csv,
            "gaussian-nb",
            &["--max-memory", "lots"],
            "max-memory",
        ),
        train_fails(f, &csv, "gaussian-nb", &["--threads", "0"], "threads"),
        train_fails(f, &csv, "svc", &["--param", "cache_mb=-5"], "cache_mb"),
        train_fails(f, &csv, "mlp", &["--param", "hidden=0"], "hidden"),
        train_fails(
            f,
            &csv,
            "mlp",
            &["--param", "hidden=1000000000"],
            "weights and biases, each kept 5 times",
        ),
        train_fails(
            f,
            &csv,
            "mlp",
            &["--param", "hidden=100000,100000", "--param", "solver=lbfgs"],
            "over the budget",
        ),
        fails(
            &[
                "train",
                "--data",
                &csv,
                "--model",
                "gaussian-nb",
                "--out",
                &csv,
            ],
            "overwrite the training data",
        ),
        fails(
            &[
                "train",
                "--data",
                &csv,
                "--model",
                "gaussian-nb",
                "--out",
                &f.p("no/such/dir/m.json"),
            ],
            "m.json",
        ),
        fails(
            &["train", "--data", &csv, "--model", "gaussian-nb"],
            "--out",
        ),
        fails(
            &[
                "train",
                "--data",
                &csv,
                "--model",
                "gaussian-nb",
                "--out",
                &out,
                "--bogus",
            ],
            "--bogus",
        ),
        // predict, evaluate, inspect, export
        predict_fails(&gaussian, &three, "feature"),
        predict_fails(&multinomial, &csv, "trained on text documents"),
        fails(
            &["evaluate", "--model", &gaussian, "--data", &unseen],
            "zzz",
        ),
        fails(
            &[
                "evaluate", "--model", &gaussian, "--data", &csv, "--costs", "0,x;1,0",
            ],
            "costs",
        ),
        fails(
            &[
                "evaluate",
                "--model",
                &gaussian,
                "--data",
                &csv,
                "--costs",
                "0,1,2;1,0,3;4,5,0",
            ],
            "cost",
        ),
        fails(
            &[
                "export", "--model", &gaussian, "--format", "onnx", "--out", &out,
            ],
            "onnx",
        ),
        fails(
            &[
                "export",
                "--model",
                &perceptron,
                "--format",
                "libsvm",
                "--out",
                &out,
            ],
            "LIBSVM",
        ),
        succeeds(&[
            "inspect",
            "--model",
            &gaussian,
            "--top",
            "18446744073709551615",
        ]),
        // tune
        fails(
            &[
                "tune",
                "--data",
                &csv,
                "--model",
                "gaussian-nb",
                "--grid",
                "var_smoothing",
            ],
            "grid",
        ),
        tune_fails(&csv, &["--cv", "0"], "--cv = 0: the number of folds"),
        tune_fails(&csv, &["--cv", "1000"], "number of folds"),
        tune_fails(&csv, &["--valid-fraction", "2"], "--valid-fraction = 2"),
        // plots
        fails(
            &[
                "plot",
                "bounds",
                "--dvc",
                "3",
                "--delta",
                "0.05",
                "--points",
                "1000000000",
                "--out",
                &svg,
            ],
            "points",
        ),
        fails(
            &[
                "plot", "bounds", "--dvc", "3", "--delta", "0.05", "--points", "1e9", "--out", &svg,
            ],
            "1e9",
        ),
        fails(
            &[
                "plot", "bounds", "--dvc", "3", "--delta", "2", "--out", &svg,
            ],
            "delta",
        ),
        fails(
            &[
                "plot",
                "bounds",
                "--dvc",
                "1000000000000",
                "--delta",
                "0.05",
                "--binomial",
                "--out",
                &svg,
            ],
            "dvc",
        ),
        fails(
            &[
                "plot",
                "bounds",
                "--dvc",
                "3",
                "--delta",
                "0.05",
                "--width",
                "1000000000",
                "--out",
                &svg,
            ],
            "width",
        ),
        fails(
            &["plot", "linreg-curve", "--d", "1000000000", "--out", &svg],
            "d",
        ),
        fails(
            &[
                "plot",
                "linreg-curve",
                "--runs",
                "1000000000000",
                "--out",
                &svg,
            ],
            "runs",
        ),
        fails(
            &[
                "plot",
                "linreg-curve",
                "--sizes",
                "1000000000",
                "--out",
                &svg,
            ],
            "rows x d + 1",
        ),
        fails(
            &["plot", "linreg-curve", "--sizes", "2", "--out", &svg],
            "sizes",
        ),
        fails(
            &[
                "plot", "growth", "--set", "rays", "--n-max", "100000", "--out", &svg,
            ],
            "between 1 and 996",
        ),
        fails(
            &["plot", "growth", "--set", "circles", "--out", &svg],
            "circles",
        ),
        fails(
            &[
                "plot",
                "boundary",
                "--model",
                &gaussian,
                "--data",
                &csv,
                "--resolution",
                "1000000",
                "--out",
                &svg,
            ],
            "resolution",
        ),
        fails(
            &[
                "plot",
                "learning-curve",
                "--data",
                &csv,
                "--model",
                "gaussian-nb",
                "--folds",
                "0",
                "--out",
                &svg,
            ],
            "folds",
        ),
        fails(
            &[
                "plot",
                "learning-curve",
                "--data",
                &csv,
                "--model",
                "gaussian-nb",
                "--steps",
                "1000000000",
                "--out",
                &svg,
            ],
            "steps",
        ),
        fails(
            &[
                "plot",
                "pla",
                "--data",
                &csv,
                "--max-updates",
                "1000000000000",
                "--out",
                &svg,
            ],
            "max-updates",
        ),
        fails(
            &["plot", "loss-curve", "--model", &gaussian, "--out", &svg],
            "mlp",
        ),
        // theory
        fails(&["theory", "coins", "--runs", "1000000000000"], "runs"),
        fails(&["theory", "coins", "--coins", "1000000000000"], "coins"),
        fails(
            &[
                "theory",
                "bound-table",
                "--n-max",
                "1000000000",
                "--k-max",
                "1000000000",
            ],
            "--n-max = 1000000000: must be between 1 and 10000",
        ),
        fails(&["theory", "hoeffding", "--eps", "-1", "--n", "10"], "eps"),
        fails(
            &["theory", "growth", "--set", "rays", "--n", "1000000000"],
            "n",
        ),
        fails(
            &[
                "theory",
                "growth",
                "--set",
                "perceptron",
                "--d",
                "1000000000000",
                "--n",
                "10",
                "--q",
                "1000000000",
            ],
            "dimension",
        ),
        fails(
            &[
                "theory",
                "sample-size",
                "--dvc",
                "3",
                "--eps",
                "0",
                "--delta",
                "0.1",
            ],
            "eps",
        ),
        fails(
            &[
                "theory", "vc-bound", "--dvc", "3", "--n", "100", "--delta", "0",
            ],
            "delta",
        ),
        // good controls
        succeeds(&["predict", "--model", &gaussian, "--data", &csv]),
        succeeds(&["predict", "--model", &multinomial, "--data", &tsv]),
        succeeds(&["evaluate", "--model", &perceptron, "--data", &csv]),
        succeeds(&["inspect", "--model", &mlp]),
        succeeds(&[
            "train",
            "--data",
            &csv,
            "--model",
            "gaussian-nb",
            "--max-memory",
            "512M",
            "--out",
            &out,
        ]),
        succeeds(&["kinds"]),
    ]
}

/// What went wrong in `cases`, one line per failed case.
fn failures_of(cases: &[Case]) -> Vec<String> {
    cases
        .iter()
        .filter_map(|c| check(c).map(|why| format!("hyperplane {}: {why}", c.args.join(" "))))
        .collect()
}

#[test]
fn every_bad_input_gets_one_clear_line() {
    let f = setup();
    let mut cases = reader_cases(&f);
    cases.extend(special_file_cases(&f));
    cases.extend(model_cases(&f));
    cases.extend(command_cases(&f));
    assert!(cases.len() >= 100, "{} cases", cases.len());
    let (a, b) = cases.split_at(cases.len() / 2);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let other = scope.spawn(|| failures_of(b));
        let mut failures = failures_of(a);
        failures.extend(other.join().unwrap());
        failures
    });
    assert!(
        failures.is_empty(),
        "{} of {} cases:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
