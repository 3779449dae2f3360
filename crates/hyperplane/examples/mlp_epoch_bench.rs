//! MLP training time in-process, reading excluded: one fit of `mlp` (defaults, no stop before
//! `max_iter`) per count of epochs given, so the difference of two fits is the epochs' time.
//!
//! ```text
//! cargo run --release -p hyperplane --example mlp_epoch_bench -- DATA.npy THREADS DTYPE EPOCHS...
//! ```
//!
//! `DATA.npy`: a float64 array of rows whose last column is the class (bench/mlp.py leaves
//! `fashion_train.csv.npy` in its cache); `DTYPE`: `f64` or `f32`.

mod npy;

use std::time::Instant;

use hyperplane::data::{Dataset, Features};
use hyperplane::neural::Mlp;
use hyperplane::param::Params;
use hyperplane::threads::Threads;
use hyperplane::Fit;
use ndarray::s;

fn main() {
    hyperplane::memory::keep_freed_memory();
    let args: Vec<String> = std::env::args().collect();
    let a = npy::read_f64_matrix(&args[1]);
    let dims = a.dim();
    let x = a.slice(s![.., ..dims.1 - 1]).to_owned();
    let y: Vec<f64> = a.column(dims.1 - 1).to_vec();
    let data = Dataset::from_f64_labels(Features::from(x), &y).unwrap();
    let threads: usize = args[2].parse().unwrap();
    for epochs in &args[4..] {
        let mut p = Mlp::default();
        p.set_param("dtype", &args[3]).unwrap();
        p.set_param("max_iter", epochs).unwrap();
        p.set_param("n_iter_no_change", "1000000").unwrap();
        let t = Instant::now();
        let m = Threads::Count(threads)
            .run(|| p.fit(&data))
            .unwrap()
            .unwrap();
        println!(
            "{} {} epochs {:.3} s loss {:?}",
            args[3],
            epochs,
            t.elapsed().as_secs_f64(),
            m.loss_curve.last()
        );
    }
}
