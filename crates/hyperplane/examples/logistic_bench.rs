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

mod common;

use hyperplane::data::libsvm;
use hyperplane::linear::LogisticRegression;
use hyperplane::{Error, Fit, Result};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err(Error::data(
            "usage: logistic_bench TRAIN.libsvm TEST.libsvm [C] [TOL] [SOLVER]",
        ));
    }
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_string());
    let t = Instant::now();
    let train = libsvm::read_dataset(Path::new(&args[1]), None)?;
    let read_seconds = t.elapsed().as_secs_f64();
    let params = LogisticRegression::default()
        .c(arg(3, "1").parse().map_err(|_| Error::data("C"))?)
        .tol(arg(4, "0.01").parse().map_err(|_| Error::data("TOL"))?)
        .solver(arg(5, "newton").parse().map_err(Error::data)?)
        .fit_intercept(false);
    let t = Instant::now();
    let model = params.fit(&train)?;
    let fit_seconds = t.elapsed().as_secs_f64();
    let test = libsvm::read_dataset(Path::new(&args[2]), Some(train.n_features()))?;
    let accuracy = common::accuracy(&model, &test)?;
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
