use hyperplane::linalg::gemm::product;
use ndarray::{s, Array2};
use std::time::Instant;

fn bench(name: &str, m: usize, k: usize, n: usize, ldb: usize, zeros: bool, transposed: bool) {
    let a = Array2::from_shape_fn(if transposed { (k, m) } else { (m, k) }, |(i, j)| {
        let v = ((i * 31 + j * 17) % 23) as f32 / 8.0 - 1.0;
        if zeros && (i * 7 + j * 3) % 2 == 0 {
            0.0
        } else {
            v
        }
    });
    let bfull = Array2::from_shape_fn((k, ldb), |(i, j)| ((i * 13 + j * 7) % 19) as f32 / 9.0);
    let b = bfull.slice(s![.., ..n]);
    let mut c = Array2::<f32>::zeros((m, n));
    let av = if transposed { a.t() } else { a.view() };
    let reps = 2000;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..reps {
            assert!(product(av, b, false, c.view_mut()));
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let gf = (m * k * n * reps) as f64 / best / 1e9;
    println!("{name}: {m}x{k}x{n} ldb {ldb} {:.1} GFMA/s", gf);
}

fn main() {
    for ldb in [100, 112, 128] {
        bench("fwd", 102, 784, 100, ldb, false, false);
    }
    for ldb in [100, 112, 128] {
        bench("wgrad", 784, 102, 100, ldb, false, true);
    }
    bench("fwd96", 102, 784, 96, 96, false, false);
    bench("fwd128", 102, 784, 128, 128, false, false);
}
