//! The two products of a Fashion-MNIST batch's group through `hyperplane_kernels::gemm`, on the calling
//! thread: the forward product `X W` (rows x 784 x 100) and the weight gradient `X^T D`
//! (784 x rows x 100), `f32`, the median of 5 rounds of 3,000 products each.
//!
//! ```text
//! cargo run --release -p hyperplane --example gemm_bench -- DATA.npy [ROWS] [sorted|dense]
//! ```
//!
//! `DATA.npy`: a float64 array whose rows hold 784 features then the class (bench/mlp.py
//! leaves `fashion_train.csv.npy` in its cache); `ROWS` (default 104, a group of a batch of
//! 200) rows are taken from its first 4,000, spread out; `sorted` orders them as training
//! does (by where their nonzero values start and end), `dense` adds 0.5 to every value (no
//! step skipped). Prints microseconds a product and multiply-adds a second, counting the
//! skipped steps as done.

mod npy;

use std::time::Instant;

use hyperplane_kernels::gemm::product;
use ndarray::Array2;

/// The features of an image.
const FEATURES: usize = 784;
/// The hidden units.
const UNITS: usize = 100;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect("DATA.npy");
    let m: usize = args.get(1).map_or(104, |v| v.parse().expect("ROWS"));
    let data = npy::read_f64_matrix(path);
    assert!(
        data.nrows() >= 4000 && data.ncols() > FEATURES,
        "4,000 rows of 784 features"
    );
    let mut rows: Vec<usize> = (0..m).map(|i| (i * 2_654_435_761) % 4000).collect();
    if args.iter().any(|a| a == "sorted") {
        rows.sort_by_cached_key(|&i| {
            let row = data.row(i);
            let features = &row.as_slice().expect("C order")[..FEATURES];
            let first = features.iter().position(|&v| v != 0.0);
            (first, features.iter().rposition(|&v| v != 0.0))
        });
    }
    let shift = if args.iter().any(|a| a == "dense") {
        0.5
    } else {
        0.0
    };
    let x = Array2::from_shape_fn((m, FEATURES), |(r, j)| (data[[rows[r], j]] + shift) as f32);
    let w = Array2::from_shape_fn((FEATURES, UNITS), |(i, j)| {
        ((i * 31 + j * 17) % 97) as f32 / 100.0 - 0.48
    });
    let d = Array2::from_shape_fn((m, UNITS), |(i, j)| {
        // rectified units: half the deltas zero
        if (i + j) % 2 == 0 {
            0.0
        } else {
            ((i * 13 + j * 7) % 89) as f32 / 100.0 - 0.44
        }
    });
    let (mut z, mut g) = (Array2::zeros((m, UNITS)), Array2::zeros((FEATURES, UNITS)));
    let time = |f: &mut dyn FnMut()| {
        let mut rounds: Vec<f64> = (0..5)
            .map(|_| {
                let start = Instant::now();
                (0..3000).for_each(|_| f());
                start.elapsed().as_secs_f64() / 3000.0
            })
            .collect();
        rounds.sort_by(f64::total_cmp);
        rounds[2]
    };
    let forward = time(&mut || assert!(product(x.view(), w.view(), true, z.view_mut())));
    let gradient = time(&mut || assert!(product(x.t(), d.view(), false, g.view_mut())));
    let zeros = x.iter().filter(|&&v| v == 0.0).count() as f64 / x.len() as f64;
    let steps = (m * FEATURES * UNITS) as f64;
    println!("{m} rows, {:.0}% of X zero", 100.0 * zeros);
    for (name, t) in [("forward X W", forward), ("gradient X^T D", gradient)] {
        println!(
            "{name:>15}: {:6.1} us  {:5.1} G multiply-adds/s",
            t * 1e6,
            steps / t / 1e9
        );
    }
}
