//! The classic problems no linear model solves, solved by the `mlp` kind with a small
//! network of the course's sigmoid units trained by L-BFGS (seeded Glorot start): XOR, two
//! interleaved moons and a disc inside a ring.

use hyperplane::pipeline::Learner;
use hyperplane::rng::Rng;
use hyperplane::{Classifier, Dataset, Label, Params};
use ndarray::Array2;

/// Training accuracy of `mlp` with sigmoid units in `hidden` (`none`: no hidden layer, a
/// logistic model) on points `x`, classes 0/1 in `y`.
fn train_accuracy(x: Array2<f64>, y: &[usize], hidden: &str, seed: u64) -> f64 {
    let labels: Vec<Label> = y.iter().map(|&c| Label::Int(c as i64)).collect();
    let data = Dataset::new(x.into(), &labels).unwrap();
    let mut l = Learner::from_kind("mlp").unwrap();
    for (name, value) in [
        ("hidden", hidden),
        ("activation", "sigmoid"),
        ("solver", "lbfgs"),
        ("alpha", "1e-5"),
        ("tol", "1e-8"),
        ("max_iter", "2000"),
        ("seed", &seed.to_string()),
    ] {
        l.set_param(name, value).unwrap();
    }
    let model = l.fit(&data).unwrap();
    let predicted = model.predict(data.x()).unwrap();
    let right = predicted
        .iter()
        .zip(&labels)
        .filter(|(p, t)| p == t)
        .count();
    right as f64 / y.len() as f64
}

#[test]
fn xor_is_solved_by_two_sigmoid_units() {
    let x = ndarray::array![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]];
    assert_eq!(train_accuracy(x, &[0, 1, 1, 0], "3", 0), 1.0);
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
    assert!(train_accuracy(moons.clone(), &y_moons, "none", 0) < 0.95);
    assert!(train_accuracy(ring.clone(), &y_ring, "none", 0) < 0.7);
    assert!(train_accuracy(moons, &y_moons, "8", 0) >= 0.99);
    assert!(train_accuracy(ring, &y_ring, "8", 0) >= 0.99);
}
