//! The classic problems no linear model solves, solved by a small network of the course's
//! sigmoid units trained by L-BFGS on backpropagation's gradient (seeded Glorot start):
//! XOR, two interleaved moons and a disc inside a ring.

use hyperplane::neural::{Activation, Batch, Layout, Network, Output};
use hyperplane::optim::{Function, GradNorm, Settings, Solver};
use hyperplane::rng::Rng;
use hyperplane::Features;
use ndarray::Array2;

/// Training accuracy of a sigmoid network with `hidden` units on points `x`, classes 0/1
/// in `y`, after L-BFGS from a Glorot start seeded by `seed`.
fn train_accuracy(x: Array2<f64>, y: &[usize], hidden: &[usize], seed: u64) -> f64 {
    let net = Network {
        layout: Layout::new(x.ncols(), hidden, 1).unwrap(),
        activation: Activation::Sigmoid,
        output: Output::Logistic,
    };
    let targets = Array2::from_shape_fn((y.len(), 1), |(i, _)| y[i] as f64);
    let features = Features::from(x);
    let rows: Vec<usize> = (0..y.len()).collect();
    let batch = Batch {
        x: &features,
        rows: &rows,
        y: targets.view(),
        weights: None,
    };
    let start = net.layout.glorot(net.activation, &mut Rng::new(seed));
    let mut f = Function::new(start.len(), |w: &[f64], g: &mut [f64]| {
        net.loss_grad(w, 1e-5, &batch, g)
    });
    let settings = Settings {
        max_iter: 2000,
        gtol: 1e-8,
        norm: GradNorm::Max,
        ftol: 0.0,
        step: 1.0,
    };
    let (w, _) = Solver::Lbfgs.minimize(&mut f, start, &settings).unwrap();
    let p = net.predict(&w, &features);
    let right = (0..y.len())
        .filter(|&i| (p[[i, 0]] > 0.5) == (y[i] == 1))
        .count();
    right as f64 / y.len() as f64
}

#[test]
fn xor_is_solved_by_two_sigmoid_units() {
    let x = ndarray::array![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]];
    assert_eq!(train_accuracy(x, &[0, 1, 1, 0], &[3], 0), 1.0);
}

#[test]
fn two_moons_and_a_disc_in_a_ring_are_solved() {
    let mut rng = Rng::new(7);
    let n = 200;
    let mut moons = Array2::zeros((n, 2));
    let mut ring = Array2::zeros((n, 2));
    let (mut y_moons, mut y_ring) = (Vec::new(), Vec::new());
    for i in 0..n {
        let class = i % 2;
        let t = std::f64::consts::PI * rng.next_f64();
        let noise = |rng: &mut Rng| 0.1 * (rng.next_f64() - 0.5);
        let (cx, cy) = if class == 0 {
            (t.cos(), t.sin())
        } else {
            (1.0 - t.cos(), 0.5 - t.sin())
        };
        moons[[i, 0]] = cx + noise(&mut rng);
        moons[[i, 1]] = cy + noise(&mut rng);
        y_moons.push(class);
        let angle = 2.0 * std::f64::consts::PI * rng.next_f64();
        let r = if class == 0 { 0.5 } else { 1.0 } + noise(&mut rng);
        ring[[i, 0]] = r * angle.cos();
        ring[[i, 1]] = r * angle.sin();
        y_ring.push(class);
    }
    // a logistic model alone cannot: its boundary is a line
    assert!(train_accuracy(moons.clone(), &y_moons, &[], 0) < 0.95);
    assert!(train_accuracy(ring.clone(), &y_ring, &[], 0) < 0.7);
    assert!(train_accuracy(moons, &y_moons, &[8], 0) >= 0.99);
    assert!(train_accuracy(ring, &y_ring, &[8], 0) >= 0.99);
}
