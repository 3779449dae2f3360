//! MultinomialNB fit speed on a CSR matrix: 100,000 rows x 100,000 features, 100 non-zeros
//! per row (10 million), 20 classes.
//!
//! ```text
//! cargo run --release -p hyperplane --example nb_fit_bench            # own matrix, readable lines
//! cargo run --release -p hyperplane --example nb_fit_bench -- X.libsvm  # one JSON line
//! ```
//!
//! With a LIBSVM file it times `MultinomialNB::default().fit` alone (reading excluded), the
//! median of 5 runs in-process, and prints `{"seconds": S, "nnz": N}` (what `bench/run.py`
//! reads; the scikit-learn side and the matrix generator are in that script). Without an
//! argument it generates the matrix itself and prints the best of 5 fits and where the time
//! goes (statistics update, then the log tables).

use std::path::Path;
use std::time::Instant;

use hyperplane::bayes::MultinomialNB;
use hyperplane::data::{libsvm, CsrBuilder, Dataset, Label, RawInput};
use hyperplane::rng::Rng;
use hyperplane::{Error, Fit};

/// Seconds of each of `runs` fits of `data`, sorted.
fn fit_times(data: &Dataset, runs: usize) -> hyperplane::Result<Vec<f64>> {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        let model = MultinomialNB::default().fit(data)?;
        times.push(t.elapsed().as_secs_f64());
        std::hint::black_box(model);
    }
    times.sort_by(f64::total_cmp);
    Ok(times)
}

fn from_file(path: &Path) -> hyperplane::Result<()> {
    let read = libsvm::read(path, None)?;
    let labels = read
        .labels
        .ok_or_else(|| Error::data(format!("{} has no labels", path.display())))?;
    let RawInput::Matrix(x) = read.input else {
        return Err(Error::data("a LIBSVM file reads as a matrix"));
    };
    let data = Dataset::new(x, &labels)?;
    let times = fit_times(&data, 5)?;
    println!(
        "{{\"seconds\": {}, \"nnz\": {}}}",
        times[times.len() / 2],
        data.x().nnz()
    );
    Ok(())
}

fn generated() -> hyperplane::Result<()> {
    let (n, f, k, classes) = (100_000usize, 100_000usize, 100usize, 20usize);
    let mut rng = Rng::new(0);
    let mut b = CsrBuilder::new(f);
    b.reserve(n * k);
    let mut cols = Vec::with_capacity(k);
    for _ in 0..n {
        cols.clear();
        while cols.len() < k {
            let j = rng.below(f);
            if !cols.contains(&j) {
                cols.push(j);
            }
        }
        cols.sort_unstable();
        b.push_sorted_row(cols.iter().map(|&j| (j, 1.0 + rng.below(3) as f64)));
    }
    let x = b.finish();
    let y: Vec<Label> = (0..n)
        .map(|_| Label::Int(rng.below(classes) as i64))
        .collect();
    let data = Dataset::new(x.into(), &y)?;
    let nnz = data.x().nnz();
    let best = fit_times(&data, 5)?[0];
    println!(
        "hyperplane MultinomialNB fit: {nnz} non-zeros, {classes} classes, {f} features: best of 5 {best:.3} s, {:.3e} nnz/s",
        nnz as f64 / best
    );
    // where the time goes: one pass of statistics, then the log tables
    let params = MultinomialNB::default();
    let t = Instant::now();
    let mut stats = params.statistics(f);
    stats.update(&data, "MultinomialNB")?;
    let update = t.elapsed().as_secs_f64();
    let t = Instant::now();
    std::hint::black_box(params.finish(stats)?);
    println!(
        "  statistics update {update:.3} s, finish {:.3} s",
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> hyperplane::Result<()> {
    match std::env::args_os().nth(1) {
        Some(path) => from_file(Path::new(&path)),
        None => generated(),
    }
}
