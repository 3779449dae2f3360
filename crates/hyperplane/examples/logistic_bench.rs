//! L2 logistic regression speed: LIBLINEAR's `-s 0` problem on a LIBSVM file.
//!
//! ```text
//! cargo run --release -p hyperplane --example logistic_bench -- TRAIN.libsvm TEST.libsvm [C] [TOL] [SOLVER]
//! ```
//!
//! Fits `LogisticRegression` with `C` (default 1), no intercept (as `liblinear-train -s 0`
//! without `-B`), tolerance `TOL` (default 0.01, LIBLINEAR's `-e`) and `SOLVER` (default
//! `newton`), and prints one JSON line: reading and fitting seconds, the objective
//! `1/2 ||w||^2 + C sum_n ln(1 + exp(-y_n w.x_n))`, iterations and test accuracy
//! (`bench/linear.py` reads it).

use std::path::Path;
use std::time::Instant;

use hyperplane::data::{libsvm, Dataset, RawInput};
use hyperplane::linear::LogisticRegression;
use hyperplane::{Classifier, Error, Fit, Result};

fn load(path: &str, n_features: Option<usize>) -> Result<Dataset> {
    let input = libsvm::read(Path::new(path), n_features)?;
    let labels = input.require_labels("training")?.to_vec();
    let RawInput::Matrix(x) = input.input else {
        return Err(Error::data("a LIBSVM file reads to a matrix"));
    };
    Dataset::new(x, &labels)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err(Error::data(
            "usage: logistic_bench TRAIN.libsvm TEST.libsvm [C] [TOL] [SOLVER]",
        ));
    }
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_string());
    let t = Instant::now();
    let train = load(&args[1], None)?;
    let read_seconds = t.elapsed().as_secs_f64();
    let params = LogisticRegression::default()
        .c(arg(3, "1").parse().map_err(|_| Error::data("C"))?)
        .tol(arg(4, "0.01").parse().map_err(|_| Error::data("TOL"))?)
        .solver(arg(5, "newton").parse().map_err(Error::data)?)
        .fit_intercept(false);
    let t = Instant::now();
    let model = params.fit(&train)?;
    let fit_seconds = t.elapsed().as_secs_f64();
    let test = load(&args[2], Some(train.n_features()))?;
    let predicted = model.predict(test.x())?;
    let labels = test.labels();
    let hits = predicted
        .iter()
        .zip(&labels)
        .filter(|(a, b)| a == b)
        .count();
    let accuracy = hits as f64 / labels.len() as f64;
    let c = model.convergence();
    println!(
        "{{\"read_seconds\": {read_seconds}, \"fit_seconds\": {fit_seconds}, \"objective\": {}, \"iterations\": {}, \"grad_norm\": {}, \"accuracy\": {accuracy}, \"warning\": {}}}",
        c.objective.unwrap_or(f64::NAN),
        c.iterations,
        c.grad_norm.unwrap_or(f64::NAN),
        c.warning.as_ref().map_or("null".to_string(), |w| format!("\"{w}\""))
    );
    Ok(())
}
