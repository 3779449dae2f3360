//! Linear SVM speed: LIBLINEAR's `-s 1` / `-s 3` problem on a LIBSVM file.
//!
//! ```text
//! cargo run --release -p hyperplane --example linear_svm_bench -- TRAIN.libsvm TEST.libsvm [LOSS] [TOL] [C]
//! ```
//!
//! Fits `LinearSvm` with `LOSS` (`squared_hinge`, the default, or `hinge`), dual coordinate
//! descent at tolerance `TOL` (default 0.1, LIBLINEAR's `-e`) and `C` (default 1), no
//! intercept (as `liblinear-train` without `-B`), and prints one JSON line: reading and
//! fitting seconds, the primal objective `1/2 ||w||^2 + C sum_n xi(y_n w.x_n)`, the dual
//! objective, passes and test accuracy (`bench/linear.py` reads it).

use std::path::Path;
use std::time::Instant;

mod common;

use hyperplane::data::libsvm;
use hyperplane::linear::LinearSvm;
use hyperplane::{Error, Fit, Result};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err(Error::data(
            "usage: linear_svm_bench TRAIN.libsvm TEST.libsvm [LOSS] [TOL] [C]",
        ));
    }
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_string());
    let t = Instant::now();
    let train = libsvm::read_dataset(Path::new(&args[1]), None)?;
    let read_seconds = t.elapsed().as_secs_f64();
    let params = LinearSvm::default()
        .loss(arg(3, "squared_hinge").parse().map_err(Error::data)?)
        .tol(Some(arg(4, "0.1").parse().map_err(|_| Error::data("TOL"))?))
        .c(arg(5, "1").parse().map_err(|_| Error::data("C"))?)
        .bias(None);
    let t = Instant::now();
    let model = params.fit(&train)?;
    let fit_seconds = t.elapsed().as_secs_f64();
    let test = libsvm::read_dataset(Path::new(&args[2]), Some(train.n_features()))?;
    let accuracy = common::accuracy(&model, &test)?;
    let c = model.convergence();
    let number = |v: Option<f64>| v.map_or("null".to_string(), |v| v.to_string());
    println!(
        "{{\"read_seconds\": {read_seconds}, \"fit_seconds\": {fit_seconds}, \"objective\": {}, \"dual_objective\": {}, \"iterations\": {}, \"accuracy\": {accuracy}, \"warning\": {}}}",
        number(c.objective),
        number(c.dual_objective),
        c.iterations,
        c.warning.as_ref().map_or("null".to_string(), |w| format!("\"{w}\""))
    );
    Ok(())
}
