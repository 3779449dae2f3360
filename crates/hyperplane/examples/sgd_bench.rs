//! Perceptron and SGD epoch speed on a LIBSVM file (the sparse set of `bench/linear.py`).
//!
//! ```text
//! cargo run --release -p hyperplane --example sgd_bench -- TRAIN.libsvm TEST.libsvm [EPOCHS]
//! ```
//!
//! Fits, with `EPOCHS` (default 5) shuffled passes and no early stopping, scikit-learn's
//! `Perceptron` (`perceptron`, random order, `eta = 1`) and `SGDClassifier` with the hinge
//! and log losses (`sgd`, `alpha = 1e-4`, learning rate `optimal`), and prints one JSON line
//! per learner: fit seconds, seconds per epoch, test accuracy.

use std::path::Path;
use std::time::Instant;

mod common;

use hyperplane::data::{libsvm, Dataset};
use hyperplane::linear::{Loss, Order, Perceptron, Sgd};
use hyperplane::{Classifier, Error, Fit, Result};

fn report<M: Classifier>(
    name: &str,
    epochs: usize,
    test: &Dataset,
    fit: impl FnOnce() -> Result<M>,
) -> Result<()> {
    let t = Instant::now();
    let model = fit()?;
    let seconds = t.elapsed().as_secs_f64();
    println!(
        "{{\"learner\": \"{name}\", \"fit_seconds\": {seconds}, \"epoch_seconds\": {}, \"accuracy\": {}}}",
        seconds / epochs as f64,
        common::accuracy(&model, test)?
    );
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err(Error::data(
            "usage: sgd_bench TRAIN.libsvm TEST.libsvm [EPOCHS]",
        ));
    }
    let epochs: usize = match args.get(3) {
        Some(e) => e
            .parse()
            .map_err(|_| Error::data("EPOCHS must be a positive integer"))?,
        None => 5,
    };
    let train = libsvm::read_dataset(Path::new(&args[1]), None)?;
    let test = libsvm::read_dataset(Path::new(&args[2]), Some(train.n_features()))?;
    report("perceptron", epochs, &test, || {
        Perceptron::default()
            .order(Order::Random)
            .max_epochs(epochs)
            .max_updates(usize::MAX)
            .fit(&train)
    })?;
    for (name, loss) in [("sgd hinge", Loss::Hinge), ("sgd log", Loss::Log)] {
        report(name, epochs, &test, || {
            Sgd::default()
                .loss(loss)
                .max_epochs(epochs)
                .tol(None)
                .fit(&train)
        })?;
    }
    Ok(())
}
