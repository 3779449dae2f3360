//! Every logistic solver reaches the optimum of the stated objective on a nearly separable,
//! unscaled pair (digits 1 and 8, pixels 0-100), where the intercept's direction is nearly
//! flat; the optimum comes from `scripts/fixtures/gen_logistic_optimum_fixtures.py` (a
//! full-Hessian Newton method in numpy, checked against scikit-learn's newton-cholesky).

use hyperplane::linear::LogisticRegression;
use hyperplane::optim::{ConvergenceWarning, Solver};
use hyperplane::{Dataset, Features, Fit, Label};
use ndarray::Array2;
use serde_json::Value;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn fixture() -> Value {
    let text =
        std::fs::read_to_string(format!("{DIR}/tests/fixtures/logistic_optimum.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The rows of `digits.csv` (64 pixels, then the class) of the fixture's two classes,
/// pixels times its scale.
fn pair(f: &Value) -> Dataset<'static> {
    let text = std::fs::read_to_string(format!("{DIR}/tests/data/digits.csv")).unwrap();
    let classes = [
        f["negative"].as_i64().unwrap(),
        f["positive"].as_i64().unwrap(),
    ];
    let scale = f["scale"].as_f64().unwrap();
    let (mut values, mut labels) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let v: Vec<f64> = line.split(',').map(|t| t.parse().unwrap()).collect();
        let class = v[64] as i64;
        if classes.contains(&class) {
            values.extend(v[..64].iter().map(|p| p * scale));
            labels.push(Label::Int(class));
        }
    }
    let x = Array2::from_shape_vec((labels.len(), 64), values).unwrap();
    Dataset::new(Features::from(x), &labels).unwrap()
}

/// `(max_j |w_j - w*_j| / max_j |w*_j|, |b - b*| / |b*|)` of a fit on the fixture's pair.
fn errors(model: &hyperplane::linear::LinearModel, f: &Value) -> (f64, f64) {
    let coef: Vec<f64> = f["coef"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let intercept = f["intercept"].as_f64().unwrap();
    let scale = coef.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let w = model
        .coef()
        .iter()
        .zip(&coef)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
    let b = (model.intercept()[0] - intercept).abs() / intercept.abs();
    (w / scale, b)
}

#[test]
fn every_solver_reaches_the_optimum_in_w_and_b() {
    let f = fixture();
    let data = pair(&f);
    let fit = |solver, tol, max_iter| {
        LogisticRegression::default()
            .c(f["c"].as_f64().unwrap())
            .solver(solver)
            .tol(tol)
            .max_iter(max_iter)
            .fit(&data)
            .unwrap()
    };
    // at tol 1e-11 (the intercept's Hessian entry is about 0.05 against 1 for the
    // weights): Cholesky 16 iterations, TRON 32, newton-ls 39, L-BFGS about 530.
    // The second-order solvers stop on the gradient and land within 1e-8. L-BFGS stops
    // earlier, on scikit-learn's relative decrease of 64 eps: an objective gap of about
    // 3e-13 along the flat intercept direction leaves |b - b*| ~ sqrt(2 gap / h_bb), a
    // few 1e-6 (the bound 5e-6 is that, not a tolerance of the solver's accuracy).
    for solver in [
        Solver::Auto,
        Solver::NewtonCholesky,
        Solver::Newton,
        Solver::NewtonLs,
        Solver::Lbfgs,
    ] {
        let model = fit(solver, 1e-11, 10_000);
        let c = model.convergence();
        assert!(c.converged(), "{solver:?}: {c:?}");
        let (w, b) = errors(&model, &f);
        let bound = if solver == Solver::Lbfgs { 5e-6 } else { 1e-7 };
        assert!(
            w < bound && b < bound,
            "{solver:?}: w {w:e}, b {b:e}, {c:?}"
        );
    }
    // the exact Newton step reaches rounding: a few iterations more for 1e-12
    let tight = fit(Solver::NewtonCholesky, 1e-12, 100);
    let (w, b) = errors(&tight, &f);
    assert!(w < 1e-12 && b < 1e-12, "w {w:e}, b {b:e}");
    assert!(
        tight.convergence().iterations <= 20,
        "{:?}",
        tight.convergence()
    );
    // gradient descent needs about cond(H) = 5e7 steps here: not feasible, and said so
    // rather than stopping early
    let gd = fit(Solver::GdArmijo, 1e-10, 2_000);
    assert_eq!(
        gd.convergence().warning,
        Some(ConvergenceWarning::MaxIterations { iterations: 2_000 })
    );
}
