//! Closed-form linear regression speed: a dense 100,000 x 100 design with an intercept,
//! the best of 5 fits, beside `scripts/bench_lstsq_numpy.py` (numpy.linalg.lstsq on the
//! same shape).
//!
//! ```text
//! RAYON_NUM_THREADS=1 cargo run --release -p hyperplane --example lstsq_bench   # one thread
//! cargo run --release -p hyperplane --example lstsq_bench                       # all cores
//! cargo run --release -p hyperplane --example lstsq_bench -- 20000 50 qr        # n p method
//! ```

use std::time::Instant;

use hyperplane::linear::experiment::StandardNormal;
use hyperplane::linear::{LinearRegression, LstsqMethod};
use hyperplane::rng::Rng;
use hyperplane::Features;
use ndarray::Array2;

fn main() -> hyperplane::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().map_or(100_000, |a| a.parse().expect("n"));
    let p: usize = args.get(1).map_or(100, |a| a.parse().expect("p"));
    let method: LstsqMethod = args
        .get(2)
        .map_or(LstsqMethod::Svd, |a| a.parse().expect("svd or qr"));
    let (mut rng, mut normal) = (Rng::new(0), StandardNormal::new());
    let x = Array2::from_shape_simple_fn((n, p), || normal.sample(&mut rng));
    let w: Vec<f64> = (0..p).map(|_| normal.sample(&mut rng)).collect();
    let y = Array2::from_shape_fn((n, 1), |(i, _)| {
        x.row(i).iter().zip(&w).map(|(a, b)| a * b).sum::<f64>() + 0.1 * normal.sample(&mut rng)
    });
    let x = Features::from(x);
    let learner = LinearRegression::new().method(method);
    let mut best = f64::INFINITY;
    let mut rank = None;
    for _ in 0..5 {
        let t = Instant::now();
        let m = learner.fit_xy(&x, y.view(), None)?;
        best = best.min(t.elapsed().as_secs_f64());
        rank = m.rank();
    }
    println!(
        "hyperplane LinearRegression ({method}) {n} x {p} + intercept: best of 5 {:.1} ms (rank {rank:?}, {} threads)",
        best * 1e3,
        rayon::current_num_threads()
    );
    Ok(())
}
