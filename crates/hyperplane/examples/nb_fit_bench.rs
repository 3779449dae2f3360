//! MultinomialNB fit speed on a CSR matrix: 100,000 rows x 100,000 features, 100 non-zeros
//! per row (10 million), 20 classes. Prints the fit time and non-zeros per second.
//!
//! ```text
//! cargo run --release -p hyperplane --example nb_fit_bench
//! ```
//!
//! The scikit-learn side (single-threaded), on a matrix of the same shape:
//!
//! ```text
//! env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 -c "
//! import time, numpy as np, scipy.sparse as sp; from sklearn.naive_bayes import MultinomialNB
//! r = np.random.default_rng(0); n, f, k = 100_000, 100_000, 100
//! ind = np.sort(np.stack([r.choice(f, k, replace=False) for _ in range(n)]), axis=1).ravel()
//! X = sp.csr_matrix((r.integers(1, 4, n * k).astype(float), ind, np.arange(0, n * k + 1, k)), shape=(n, f))
//! y = r.integers(0, 20, n); t = time.perf_counter(); MultinomialNB().fit(X, y); s = time.perf_counter() - t
//! print(f'sklearn {s:.3f} s, {X.nnz / s:.3e} nnz/s')"
//! ```

use std::time::Instant;

use hyperplane::bayes::MultinomialNB;
use hyperplane::data::{CsrBuilder, Dataset, Label};
use hyperplane::rng::Rng;
use hyperplane::Fit;

fn main() -> hyperplane::Result<()> {
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
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        let model = MultinomialNB::default().fit(&data)?;
        best = best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(model);
    }
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
