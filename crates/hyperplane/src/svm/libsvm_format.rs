//! LIBSVM's own model file format (what `svm-train` writes and `svm-predict` reads), both
//! ways: [`SvmModel::to_libsvm`] writes a model as LIBSVM model text, [`read()`] one back.
//!
//! ```text
//! svm_type c_svc                      c_svc | nu_svc | one_class | epsilon_svr | nu_svr
//! kernel_type rbf                     linear | polynomial | rbf | sigmoid | precomputed
//! gamma 0.076923076923076927          poly, rbf, sigmoid (degree: poly; coef0: poly, sigmoid)
//! nr_class 2                          classes (2 for one_class and the regressions)
//! total_sv 132                        support vectors (the lines after `SV`)
//! rho 0.42446200893054362             one per pair (i, j), i < j: (0,1), (0,2), ..., (1,2), ...
//! label 1 -1                          integer labels in LIBSVM's order (classifiers only)
//! probA -3.0241 ...                   Platt's sigmoids, one per pair (with -b 1)
//! probB 0.1377 ...
//! nr_sv 64 68                         support vectors per class, in label order (classifiers only)
//! SV
//! 1 1:0.166667 2:1 3:-0.333333 ...    nr_class - 1 coefficients, then index:value (from 1)
//! ```
//!
//! The support vectors are grouped by class in label order. For the pair `(i, j)` the
//! coefficients of class `i`'s support vectors are in column `j - 1` and those of class
//! `j`'s in column `i`, and `f_ij(x) = sum coef K(x_s, x) - rho_ij > 0` votes for `label[i]`.
//! This is [`SvmModel`]'s layout, but LIBSVM keeps its labels in the order it first saw
//! them and our model keeps them sorted. Reading converts: where `label[i]` sorts after
//! `label[j]`, our pair is the reverse one, `f` negates, so its `rho` and coefficients
//! negate, `probB` negates and `probA` stays (`P(a | f) = 1 / (1 + exp(A f + B))`), and
//! the support vectors and their coefficients regroup by sorted class. Writing uses the
//! sorted order, which is a valid LIBSVM file.
//!
//! Under `kernel_type precomputed` a support vector line holds its coefficients and then
//! `0:ID` alone: `ID` is the support vector's training row from 1, so the column (from 1)
//! of the rows to predict that holds their kernel values against it. Our model keeps the
//! support vectors as those training rows (`support`, from 0) and writes `support + 1`.
//! `svm-train` writes there the `0:` value of its training file, which is the row number
//! when the file numbers its rows from 1, as LIBSVM's documentation asks.
//!
//! Numbers are written in Rust's shortest form that reads back to the same `f64` (LIBSVM
//! itself prints `%.17g` for coefficients and `%.8g` for support vector values; it reads
//! any form), so a written model predicts bit for bit as the model it was written from.
//! Dense support vectors are written with every index, zeros included, and a file whose
//! every support vector lists each index from 1 to the largest is read back dense; any
//! other file is read as sparse rows (so a sparse model whose support vectors store every
//! column comes back dense, and its decision values may differ in the last bits).
//!
//! What the format does not hold: a model's objective, bounded support vector counts and
//! iterations (read back as NaN, 0 and 0, see [`Provenance::LibsvmFile`]), the training
//! rows of the support vectors (but for a precomputed kernel's), class labels other than integers (such models cannot be
//! written), and an SVR's `probA` (LIBSVM's Laplace noise scale: read and dropped; it does
//! not change a prediction). A model read from a file takes input of any width, as
//! `svm-predict` does.
//!
//! The reader checks every count against the others before building anything from it
//! (a `total_sv` the SV section does not hold, `nr_sv` that does not add up, a `rho` line
//! of the wrong length), and rejects non-finite numbers, indices that are not increasing,
//! unknown or repeated keywords: each error names the line and what is wrong.

use std::fmt::Write as _;
use std::path::Path;

use super::kernel::{Kernel, KernelKind};
use super::model::{
    one_class_labels, DualSummary, Platt, Provenance, SupportVectors, SvmModel, SvmType,
};
use crate::data::{CsrMatrix, Label};
use crate::error::{Error, Result};

/// Whether `bytes` look like a LIBSVM model file: the first line starts with `svm_type `.
pub fn is_libsvm_model(bytes: &[u8]) -> bool {
    bytes.starts_with(b"svm_type ")
}

fn type_name(t: SvmType) -> &'static str {
    match t {
        SvmType::CSvc => "c_svc",
        SvmType::NuSvc => "nu_svc",
        SvmType::OneClass => "one_class",
        SvmType::EpsilonSvr => "epsilon_svr",
        SvmType::NuSvr => "nu_svr",
    }
}

fn kernel_name(k: KernelKind) -> &'static str {
    match k {
        KernelKind::Linear => "linear",
        KernelKind::Poly => "polynomial",
        KernelKind::Rbf => "rbf",
        KernelKind::Sigmoid => "sigmoid",
        KernelKind::Precomputed => "precomputed",
    }
}

/// `v` in the shortest text that reads back to the same bits (plain where that is short,
/// else with an exponent).
fn num(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 || (1e-5..1e16).contains(&a) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

fn line_of(out: &mut String, key: &str, values: impl IntoIterator<Item = String>) {
    out.push_str(key);
    for v in values {
        out.push(' ');
        out.push_str(&v);
    }
    out.push('\n');
}

/// What this module adds to the model: its LIBSVM text (`export --format libsvm`).
impl SvmModel {
    /// The model as LIBSVM model text, classes in sorted order; an error for a model the
    /// format cannot hold (class labels that are not integers).
    pub fn to_libsvm(&self) -> Result<String> {
        let model = self;
        model.validate()?;
        let refuse = |what: String| Error::Unsupported {
            model: "a LIBSVM model file".into(),
            what,
        };
        let mut labels = Vec::new();
        for c in &model.classes {
            match c {
                Label::Int(v) if i32::try_from(*v).is_ok() => labels.push(v.to_string()),
                other => {
                    return Err(refuse(format!(
                        "the class label `{other}` (LIBSVM's labels are integers)"
                    )))
                }
            }
        }
        let k = &model.kernel;
        let mut out = String::new();
        line_of(
            &mut out,
            "svm_type",
            [type_name(model.svm_type).to_string()],
        );
        line_of(&mut out, "kernel_type", [kernel_name(k.kind).to_string()]);
        if k.kind == KernelKind::Poly {
            line_of(&mut out, "degree", [k.degree.to_string()]);
        }
        if k.uses_gamma() {
            line_of(&mut out, "gamma", [num(k.gamma)]);
        }
        if matches!(k.kind, KernelKind::Poly | KernelKind::Sigmoid) {
            line_of(&mut out, "coef0", [num(k.coef0)]);
        }
        let single = model.svm_type.single_dual();
        let nr_class = if single { 2 } else { model.classes.len() };
        line_of(&mut out, "nr_class", [nr_class.to_string()]);
        line_of(&mut out, "total_sv", [model.support.len().to_string()]);
        line_of(&mut out, "rho", model.duals.iter().map(|d| num(d.rho)));
        if !single {
            line_of(&mut out, "label", labels);
            if let Some(p) = &model.probability {
                line_of(&mut out, "probA", p.prob_a.iter().map(|&v| num(v)));
                line_of(&mut out, "probB", p.prob_b.iter().map(|&v| num(v)));
            }
            line_of(
                &mut out,
                "nr_sv",
                model.n_support.iter().map(|n| n.to_string()),
            );
        }
        out.push_str("SV\n");
        for s in 0..model.support.len() {
            let coefs: Vec<String> = model.dual_coef.iter().map(|row| num(row[s])).collect();
            out.push_str(&coefs.join(" "));
            if k.is_precomputed() {
                let _ = write!(out, " 0:{}", model.support[s] + 1);
                out.push('\n');
                continue;
            }
            match &model.support_vectors {
                SupportVectors::Dense { n_cols, values, .. } => {
                    for (j, v) in values[s * n_cols..(s + 1) * n_cols].iter().enumerate() {
                        let _ = write!(out, " {}:{}", j + 1, num(*v));
                    }
                }
                SupportVectors::Sparse(m) => {
                    let (idx, val) = m.row(s);
                    for (j, v) in idx.iter().zip(val) {
                        let _ = write!(out, " {}:{}", j + 1, num(*v));
                    }
                }
            }
            out.push('\n');
        }
        Ok(out)
    }
}

/// The keywords of the header, in the order LIBSVM writes them.
const KEYS: [&str; 12] = [
    "svm_type",
    "kernel_type",
    "degree",
    "gamma",
    "coef0",
    "nr_class",
    "total_sv",
    "rho",
    "label",
    "probA",
    "probB",
    "nr_sv",
];

/// One header line: its number (from 1) and its values.
struct Entry<'t> {
    line: usize,
    values: Vec<&'t str>,
}

/// The header, keyword by keyword, with errors naming the file and line.
struct Header<'t> {
    file: &'t Path,
    entries: Vec<Option<Entry<'t>>>,
}

impl<'t> Header<'t> {
    fn fail(&self, line: usize, reason: String) -> Error {
        fail(self.file, line, reason)
    }
    fn get(&self, key: &str) -> Option<&Entry<'t>> {
        let i = KEYS.iter().position(|k| *k == key)?;
        self.entries[i].as_ref()
    }
    /// The one value of a required keyword.
    fn one(&self, key: &str, header_end: usize) -> Result<(usize, &'t str)> {
        let e = self.get(key).ok_or_else(|| {
            self.fail(
                header_end,
                format!("the header has no `{key}` line before `SV`"),
            )
        })?;
        match e.values[..] {
            [v] => Ok((e.line, v)),
            _ => Err(self.fail(
                e.line,
                format!("`{key}` takes one value, found {}", e.values.len()),
            )),
        }
    }
    /// The numbers of a keyword's line; `n` of them when given.
    fn numbers<T: std::str::FromStr>(
        &self,
        key: &str,
        n: Option<usize>,
        what: &str,
    ) -> Result<Option<(usize, Vec<T>)>> {
        let Some(e) = self.get(key) else {
            return Ok(None);
        };
        if let Some(n) = n {
            if e.values.len() != n {
                return Err(self.fail(
                    e.line,
                    format!(
                        "`{key}` must hold {n} values ({what}), found {}",
                        e.values.len()
                    ),
                ));
            }
        }
        let values = e
            .values
            .iter()
            .map(|v| {
                v.parse::<T>()
                    .map_err(|_| self.fail(e.line, format!("`{key}`: `{v}` is not {what}")))
            })
            .collect::<Result<Vec<T>>>()?;
        Ok(Some((e.line, values)))
    }
}

fn fail(file: &Path, line: usize, reason: String) -> Error {
    Error::ModelFile {
        path: file.to_path_buf(),
        reason: format!("line {line}: {reason}"),
    }
}

fn finite(h: &Header, key: &str, line: usize, values: &[f64]) -> Result<()> {
    match values.iter().find(|v| !v.is_finite()) {
        Some(v) => Err(h.fail(line, format!("`{key}` holds {v}, not a finite number"))),
        None => Ok(()),
    }
}

/// The position of pair `(i, j)`, `i < j`, among `k` classes: `(0,1), (0,2), ..., (1,2)...`.
fn pair_index(i: usize, j: usize, k: usize) -> usize {
    i * (2 * k - i - 1) / 2 + (j - i - 1)
}

/// The parameters a LIBSVM model file records of its kind, as the kind's schema writes
/// them: the kernel with the settings it uses, and whether it has probabilities.
pub fn recorded_params(model: &SvmModel) -> Vec<(String, String)> {
    let k = model.kernel;
    let mut params = vec![("kernel".to_string(), k.kind.to_string())];
    if k.uses_gamma() {
        params.push(("gamma".to_string(), k.gamma.to_string()));
    }
    if k.kind == KernelKind::Poly {
        params.push(("degree".to_string(), k.degree.to_string()));
    }
    if matches!(k.kind, KernelKind::Poly | KernelKind::Sigmoid) {
        params.push(("coef0".to_string(), k.coef0.to_string()));
    }
    params.push((
        "probability".to_string(),
        model.probability.is_some().to_string(),
    ));
    params
}

/// Reads LIBSVM model text (`file` names it in errors) into a model with sorted classes.
pub fn read(text: &[u8], file: &Path) -> Result<SvmModel> {
    let text = std::str::from_utf8(text).map_err(|e| {
        let line = 1 + text[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        fail(file, line, "not UTF-8 text".into())
    })?;
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut header = Header {
        file,
        entries: (0..KEYS.len()).map(|_| None).collect(),
    };
    let mut header_end = 0;
    let mut saw_sv = false;
    for (n, line) in lines.by_ref() {
        header_end = n;
        let mut words = line.split_whitespace();
        let Some(key) = words.next() else {
            return Err(header.fail(n, "an empty line in the header".into()));
        };
        if key == "SV" {
            saw_sv = true;
            break;
        }
        let Some(i) = KEYS.iter().position(|k| *k == key) else {
            return Err(header.fail(
                n,
                format!(
                    "unknown keyword `{key}` (a LIBSVM model header has {} and then `SV`)",
                    KEYS.join(", ")
                ),
            ));
        };
        if let Some(first) = &header.entries[i] {
            return Err(header.fail(
                n,
                format!("a second `{key}` line (the first is line {})", first.line),
            ));
        }
        header.entries[i] = Some(Entry {
            line: n,
            values: words.collect(),
        });
    }
    if !saw_sv {
        return Err(header.fail(
            header_end.max(1),
            "the file ends before the `SV` line that starts the support vectors (truncated?)"
                .into(),
        ));
    }
    let (type_line, type_text) = header.one("svm_type", header_end)?;
    let svm_type = match type_text {
        "c_svc" => SvmType::CSvc,
        "nu_svc" => SvmType::NuSvc,
        "one_class" => SvmType::OneClass,
        "epsilon_svr" => SvmType::EpsilonSvr,
        "nu_svr" => SvmType::NuSvr,
        other => {
            return Err(header.fail(
                type_line,
                format!(
                    "svm_type `{other}`: expected c_svc, nu_svc, one_class, epsilon_svr or nu_svr"
                ),
            ))
        }
    };
    let kernel = read_kernel(&header, header_end)?;
    let (nr_line, nr_text) = header.one("nr_class", header_end)?;
    let k: usize = nr_text
        .parse()
        .map_err(|_| header.fail(nr_line, format!("nr_class `{nr_text}` is not a count")))?;
    let single = svm_type.single_dual();
    if single && k != 2 {
        return Err(header.fail(
            nr_line,
            format!("nr_class of a {type_text} model is 2 (as LIBSVM writes it), found {k}"),
        ));
    }
    if k == 0 {
        return Err(header.fail(nr_line, "nr_class must be at least 1".into()));
    }
    let (total_line, total_text) = header.one("total_sv", header_end)?;
    let total: usize = total_text.parse().map_err(|_| {
        header.fail(
            total_line,
            format!("total_sv `{total_text}` is not a count"),
        )
    })?;
    // the rho line bounds k: k (k - 1) / 2 values must be written on it
    let n_pairs = k
        .checked_mul(k - 1)
        .map(|v| v / 2)
        .filter(|&p| p <= text.len())
        .ok_or_else(|| header.fail(nr_line, format!("nr_class {k} is larger than any file")))?;
    let (rho_line, rho) = header
        .numbers::<f64>("rho", Some(n_pairs), "one per pair of classes")?
        .ok_or_else(|| header.fail(header_end, "the header has no `rho` line".into()))?;
    finite(&header, "rho", rho_line, &rho)?;
    let prob_a = header.numbers::<f64>("probA", None, "a number")?;
    let prob_b = header.numbers::<f64>("probB", None, "a number")?;
    let (labels, nr_sv) = if single {
        for key in ["label", "nr_sv", "probB"] {
            if let Some(e) = header.get(key) {
                return Err(header.fail(
                    e.line,
                    format!("a {type_text} model has no `{key}` line (LIBSVM writes none)"),
                ));
            }
        }
        if let (SvmType::OneClass, Some((line, _))) = (svm_type, &prob_a) {
            return Err(header.fail(
                *line,
                "a one_class model has no `probA` line (LIBSVM 3.24 writes none)".into(),
            ));
        }
        (Vec::new(), vec![total])
    } else {
        let (label_line, labels) = header
            .numbers::<i32>("label", Some(k), "an integer label per class")?
            .ok_or_else(|| {
                header.fail(
                    header_end,
                    format!("a {type_text} model needs a `label` line"),
                )
            })?;
        let mut sorted = labels.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(header.fail(label_line, "`label` lists a class twice".into()));
        }
        let (sv_line, nr_sv) = header
            .numbers::<usize>("nr_sv", Some(k), "a count per class")?
            .ok_or_else(|| {
                header.fail(
                    header_end,
                    format!("a {type_text} model needs an `nr_sv` line"),
                )
            })?;
        let sum = nr_sv.iter().try_fold(0usize, |s, &n| s.checked_add(n));
        if sum != Some(total) {
            return Err(header.fail(
                sv_line,
                format!(
                    "nr_sv {} does not add up to total_sv {total} (line {total_line})",
                    nr_sv
                        .iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            ));
        }
        for (key, p) in [("probA", &prob_a), ("probB", &prob_b)] {
            if let Some((line, values)) = p {
                if values.len() != n_pairs {
                    return Err(header.fail(
                        *line,
                        format!(
                            "`{key}` must hold {n_pairs} values (one per pair of classes), found {}",
                            values.len()
                        ),
                    ));
                }
                finite(&header, key, *line, values)?;
            }
        }
        if let (Some((line, _)), None) | (None, Some((line, _))) = (&prob_a, &prob_b) {
            return Err(header.fail(
                *line,
                "probA and probB come together (Platt's sigmoids, -b 1)".into(),
            ));
        }
        (labels, nr_sv)
    };
    let coefs_per_line = if single { 1 } else { k - 1 };
    let sv = read_support_vectors(
        file,
        lines,
        coefs_per_line,
        total,
        header_end,
        kernel.is_precomputed(),
    )?;
    build(
        svm_type,
        kernel,
        &labels,
        &nr_sv,
        &rho,
        prob_a.filter(|_| !single).map(|p| p.1),
        prob_b.map(|p| p.1),
        sv,
    )
    .map_err(|e| match e {
        e @ Error::ModelFile { .. } => e,
        other => Error::ModelFile {
            path: file.to_path_buf(),
            reason: other.to_string(),
        },
    })
}

fn read_kernel(h: &Header, header_end: usize) -> Result<Kernel> {
    let (line, text) = h.one("kernel_type", header_end)?;
    let kind = match text {
        "linear" => KernelKind::Linear,
        "polynomial" => KernelKind::Poly,
        "rbf" => KernelKind::Rbf,
        "sigmoid" => KernelKind::Sigmoid,
        "precomputed" => KernelKind::Precomputed,
        other => {
            let expected = "linear, polynomial, rbf, sigmoid or precomputed";
            return Err(h.fail(line, format!("kernel_type `{other}`: expected {expected}")));
        }
    };
    let needs = |key: &str| -> bool {
        match key {
            "degree" => kind == KernelKind::Poly,
            "gamma" => !matches!(kind, KernelKind::Linear | KernelKind::Precomputed),
            _ => matches!(kind, KernelKind::Poly | KernelKind::Sigmoid),
        }
    };
    let number = |key: &str| -> Result<f64> {
        if !needs(key) {
            return Ok(0.0);
        }
        let (line, v) = h
            .one(key, header_end)
            .map_err(|_| h.fail(line, format!("kernel_type {text} needs a `{key}` line")))?;
        let value: f64 = v
            .parse()
            .map_err(|_| h.fail(line, format!("`{key}`: `{v}` is not a number")))?;
        if !value.is_finite() {
            return Err(h.fail(line, format!("`{key}` is {value}, not a finite number")));
        }
        Ok(value)
    };
    let degree = if needs("degree") {
        let (dline, v) = h
            .one("degree", header_end)
            .map_err(|_| h.fail(line, "kernel_type polynomial needs a `degree` line".into()))?;
        v.parse::<u32>().map_err(|_| {
            h.fail(
                dline,
                format!("`degree`: `{v}` is not a non-negative integer"),
            )
        })?
    } else {
        3
    };
    Ok(Kernel {
        kind,
        gamma: number("gamma")?,
        degree,
        coef0: number("coef0")?,
    })
}

/// The SV section as read: coefficients (one row per column of coefficients) and rows;
/// under a precomputed kernel, rows of no entries and each line's `0:ID` as `ID - 1`.
struct SvSection {
    coef: Vec<Vec<f64>>,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    values: Vec<f64>,
    serials: Vec<usize>,
    n_features: usize,
}

/// A precomputed kernel's support vector: the one entry `0:ID`, `ID` the support vector's
/// training row from 1 (the column of its kernel values in the rows to predict).
fn serial<'t>(file: &Path, n: usize, mut words: impl Iterator<Item = &'t str>) -> Result<usize> {
    let expected = "a kernel_type precomputed support vector is `0:ID` after its coefficients";
    let w = words
        .next()
        .ok_or_else(|| fail(file, n, format!("{expected}, found nothing")))?;
    let id = w
        .strip_prefix("0:")
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&id| id >= 1 && id <= u32::MAX as usize)
        .ok_or_else(|| {
            fail(
                file,
                n,
                format!("{expected} with ID a training row from 1, found `{w}`"),
            )
        })?;
    if let Some(extra) = words.next() {
        return Err(fail(
            file,
            n,
            format!("{expected} alone, found `{extra}` after it"),
        ));
    }
    Ok(id - 1)
}

fn read_support_vectors<'t>(
    file: &Path,
    lines: impl Iterator<Item = (usize, &'t str)>,
    n_coef: usize,
    total: usize,
    header_end: usize,
    precomputed: bool,
) -> Result<SvSection> {
    let mut sv = SvSection {
        coef: vec![Vec::new(); n_coef],
        indptr: vec![0],
        indices: Vec::new(),
        values: Vec::new(),
        serials: Vec::new(),
        n_features: 0,
    };
    let mut last_line = header_end;
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let count = sv.indptr.len() - 1;
        if count == total {
            return Err(fail(
                file,
                n,
                format!("more support vectors than total_sv {total}"),
            ));
        }
        last_line = n;
        let mut words = line.split_whitespace();
        for (c, column) in sv.coef.iter_mut().enumerate() {
            let w = words.next().ok_or_else(|| {
                fail(
                    file,
                    n,
                    format!("a support vector line starts with {n_coef} coefficients, found {c}"),
                )
            })?;
            match w.parse::<f64>() {
                Ok(v) if v.is_finite() => column.push(v),
                _ => {
                    return Err(fail(
                        file,
                        n,
                        format!("coefficient {} `{w}` is not a finite number", c + 1),
                    ))
                }
            }
        }
        if precomputed {
            let s = serial(file, n, words)?;
            sv.serials.push(s);
            sv.n_features = sv.n_features.max(s + 1);
            sv.indptr.push(0);
            continue;
        }
        let mut previous = 0usize;
        for w in words {
            let parsed = w
                .split_once(':')
                .and_then(|(i, v)| Some((i.parse::<usize>().ok()?, v.parse::<f64>().ok()?)));
            let Some((index, value)) = parsed else {
                return Err(fail(file, n, format!("expected index:value, found `{w}`")));
            };
            if index <= previous {
                return Err(fail(
                    file,
                    n,
                    format!(
                        "index {index} after {previous}: indices start at 1 and increase along a line"
                    ),
                ));
            }
            if index > u32::MAX as usize {
                return Err(fail(file, n, format!("index {index} is too large")));
            }
            if !value.is_finite() {
                return Err(fail(
                    file,
                    n,
                    format!("the value of index {index} is {value}, not a finite number"),
                ));
            }
            previous = index;
            sv.indices.push((index - 1) as u32);
            sv.values.push(value);
        }
        sv.n_features = sv.n_features.max(previous);
        sv.indptr.push(sv.indices.len());
    }
    let count = sv.indptr.len() - 1;
    if count < total {
        return Err(fail(
            file,
            last_line.max(1),
            format!(
                "the SV section ends after {count} support vectors, total_sv says {total} (truncated?)"
            ),
        ));
    }
    Ok(sv)
}

/// The model in our sorted class order from the file's parts in LIBSVM's order.
#[allow(clippy::too_many_arguments)]
fn build(
    svm_type: SvmType,
    kernel: Kernel,
    labels: &[i32],
    nr_sv: &[usize],
    rho: &[f64],
    prob_a: Option<Vec<f64>>,
    prob_b: Option<Vec<f64>>,
    sv: SvSection,
) -> Result<SvmModel> {
    let n_sv = sv.indptr.len() - 1;
    let single = svm_type.single_dual();
    // our class a is LIBSVM's class perm[a]
    let k = nr_sv.len().max(labels.len());
    let mut perm: Vec<usize> = (0..labels.len()).collect();
    perm.sort_by_key(|&u| labels[u]);
    let mut start = vec![0; k];
    for u in 1..k {
        start[u] = start[u - 1] + nr_sv[u - 1];
    }
    // the file's support vector at each of our positions, grouped by sorted class
    let order: Vec<usize> = if single {
        (0..n_sv).collect()
    } else {
        perm.iter()
            .flat_map(|&u| start[u]..start[u] + nr_sv[u])
            .collect()
    };
    let (dual_coef, duals, n_support, probability) = if single {
        let summary = DualSummary {
            classes: None,
            objective: f64::NAN,
            rho: rho[0],
            n_support: sv.coef[0].iter().filter(|&&c| c != 0.0).count(),
            n_bounded_support: 0,
            iterations: 0,
            warning: None,
        };
        (sv.coef, vec![summary], vec![n_sv], None)
    } else {
        let mut class_of = vec![0; n_sv];
        for (a, &u) in perm.iter().enumerate() {
            class_of[start[u]..start[u] + nr_sv[u]].fill(a);
        }
        let mut dual_coef = vec![vec![0.0; n_sv]; k - 1];
        for (t, &s) in order.iter().enumerate() {
            let a = class_of[s];
            let u = perm[a];
            for b in (0..k).filter(|&b| b != a) {
                let v = perm[b];
                let theirs = if u < v { v - 1 } else { v };
                let ours = if a < b { b - 1 } else { b };
                let sign = if (a < b) == (u < v) { 1.0 } else { -1.0 };
                dual_coef[ours][t] = sign * sv.coef[theirs][s];
            }
        }
        let mut duals = Vec::new();
        let mut platt = Platt {
            prob_a: Vec::new(),
            prob_b: Vec::new(),
        };
        let our_start: Vec<usize> = perm
            .iter()
            .scan(0, |s, &u| {
                let here = *s;
                *s += nr_sv[u];
                Some(here)
            })
            .collect();
        for a in 0..k {
            for b in a + 1..k {
                let (u, v) = (perm[a], perm[b]);
                let p = pair_index(u.min(v), u.max(v), k);
                let sign = if u < v { 1.0 } else { -1.0 };
                let in_pair = |c: usize, row: usize| {
                    dual_coef[row][our_start[c]..our_start[c] + nr_sv[perm[c]]]
                        .iter()
                        .filter(|&&x| x != 0.0)
                        .count()
                };
                duals.push(DualSummary {
                    classes: Some((a, b)),
                    objective: f64::NAN,
                    rho: sign * rho[p],
                    n_support: in_pair(a, b - 1) + in_pair(b, a),
                    n_bounded_support: 0,
                    iterations: 0,
                    warning: None,
                });
                if let (Some(pa), Some(pb)) = (&prob_a, &prob_b) {
                    platt.prob_a.push(pa[p]);
                    platt.prob_b.push(sign * pb[p]);
                }
            }
        }
        let n_support = perm.iter().map(|&u| nr_sv[u]).collect();
        let probability = prob_a.is_some().then_some(platt);
        (dual_coef, duals, n_support, probability)
    };
    let classes = match svm_type {
        SvmType::OneClass => one_class_labels().to_vec(),
        SvmType::EpsilonSvr | SvmType::NuSvr => Vec::new(),
        SvmType::CSvc | SvmType::NuSvc => perm
            .iter()
            .map(|&u| Label::Int(i64::from(labels[u])))
            .collect(),
    };
    // LIBSVM's class u is our class rank[u]
    let mut label_order = vec![0; perm.len()];
    for (a, &u) in perm.iter().enumerate() {
        label_order[u] = a;
    }
    let (support, support_vectors) = if kernel.is_precomputed() {
        (
            order.iter().map(|&s| sv.serials[s]).collect(),
            SupportVectors::Dense {
                n_rows: order.len(),
                n_cols: 0,
                values: Vec::new(),
            },
        )
    } else {
        let rows = regrouped(&sv.indptr, &sv.indices, &sv.values, &order, sv.n_features)?;
        (order, rows)
    };
    let model = SvmModel {
        svm_type,
        kernel,
        classes,
        n_features: sv.n_features,
        support,
        support_vectors,
        n_support,
        dual_coef,
        duals,
        probability,
        provenance: Provenance::LibsvmFile { label_order },
    };
    model.validate()?;
    Ok(model)
}

/// The rows in `order`: dense when every row lists each index from 1 to `n_cols`, else CSR.
fn regrouped(
    indptr: &[usize],
    indices: &[u32],
    values: &[f64],
    order: &[usize],
    n_cols: usize,
) -> Result<SupportVectors> {
    let full = n_cols > 0
        && indptr.windows(2).all(|w| {
            w[1] - w[0] == n_cols
                && indices[w[0]..w[1]]
                    .iter()
                    .enumerate()
                    .all(|(j, &i)| i as usize == j)
        });
    let mut new_indptr = vec![0];
    let mut new_indices = Vec::with_capacity(indices.len());
    let mut new_values = Vec::with_capacity(values.len());
    for &s in order {
        let r = indptr[s]..indptr[s + 1];
        new_indices.extend_from_slice(&indices[r.clone()]);
        new_values.extend_from_slice(&values[r]);
        new_indptr.push(new_values.len());
    }
    if full {
        return Ok(SupportVectors::Dense {
            n_rows: order.len(),
            n_cols,
            values: new_values,
        });
    }
    Ok(SupportVectors::Sparse(CsrMatrix::new(
        n_cols,
        new_indptr,
        new_indices,
        new_values,
    )?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_index_counts_pairs_in_libsvms_order() {
        let k = 4;
        let mut p = 0;
        for i in 0..k {
            for j in i + 1..k {
                assert_eq!(pair_index(i, j, k), p);
                p += 1;
            }
        }
    }

    #[test]
    fn numbers_round_trip_to_the_same_bits() {
        for v in [0.0, -0.0, 1.0 / 3.0, 1e-300, -2.5e20, 123456.789, 5e-324] {
            let back: f64 = num(v).parse().unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{v}: {}", num(v));
        }
    }

    #[test]
    fn the_sniff_reads_the_first_keyword() {
        assert!(is_libsvm_model(b"svm_type c_svc\nkernel_type rbf\n"));
        assert!(!is_libsvm_model(b"{\"format\": \"hyperplane-model\"}"));
        assert!(!is_libsvm_model(b""));
    }
}
