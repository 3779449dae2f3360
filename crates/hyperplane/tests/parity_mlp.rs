//! The multilayer perceptron against scikit-learn's MLPClassifier / MLPRegressor: with the
//! weights scikit-learn fitted, our forward pass gives its predict_proba / predict, and
//! backpropagation its loss and gradient (`_loss_grad_lbfgs`), with and without sample
//! weights, on dense and sparse rows; one epoch of SGD (plain, momentum, Nesterov) and of
//! Adam from those weights gives scikit-learn's weights and epoch loss, and so does a whole
//! stochastic fit (step schedules, stopping when the loss stalls). Fixtures made by `scripts/fixtures/gen_mlp_fixtures.py`.

use hyperplane::data::CsrMatrix;
use hyperplane::neural::{
    epoch, train, Activation, Adam, Batch, Budget, Dtype, EpochData, Gradient, Layout, Network,
    Output, Sgd, StepRule, Watch,
};
use hyperplane::Features;
use ndarray::Array2;
use serde_json::Value;

use crate::common;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn fixture() -> Value {
    let text = std::fs::read_to_string(format!("{DIR}/tests/fixtures/mlp_sklearn.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn matrix(v: &Value) -> Array2<f64> {
    let rows = v.as_array().unwrap();
    let flat = common::json_numbers(v);
    Array2::from_shape_vec((rows.len(), flat.len() / rows.len()), flat).unwrap()
}

fn close(ours: f64, theirs: f64, tol: f64) -> bool {
    (ours - theirs).abs() <= tol * theirs.abs().max(1.0)
}

/// The network of a case and its parameters in scikit-learn's `_pack` order.
fn network(case: &Value) -> (Network, Vec<f64>) {
    let x = matrix(&case["x"]);
    let targets = matrix(&case["targets"]);
    let hidden: Vec<usize> = common::json_numbers(&case["hidden"])
        .iter()
        .map(|&v| v as usize)
        .collect();
    let activation = match case["activation"].as_str().unwrap() {
        "logistic" => Activation::Sigmoid,
        other => other.parse().unwrap(),
    };
    let output = match case["output"].as_str().unwrap() {
        "softmax" => Output::Softmax,
        "logistic" => Output::Logistic,
        _ => Output::Identity,
    };
    let layout = Layout::new(x.ncols(), &hidden, targets.ncols()).unwrap();
    let mut params = common::json_numbers(&case["coefs"]);
    params.extend(common::json_numbers(&case["intercepts"]));
    assert_eq!(params.len(), layout.n_params());
    (
        Network {
            layout,
            activation,
            output,
        },
        params,
    )
}

#[test]
fn forward_pass_and_backprop_match_scikit_learn() {
    let doc = fixture();
    let mut names = Vec::new();
    for case in doc["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let (net, params) = network(case);
        let x = matrix(&case["x"]);
        let targets = matrix(&case["targets"]);
        let alpha = case["alpha"].as_f64().unwrap();
        let weights = common::json_numbers(&case["sample_weight"]);
        let rows: Vec<usize> = (0..x.nrows()).collect();
        let dense = Features::from(x.clone());
        let sparse = Features::from(CsrMatrix::from_dense(x.view()));
        for input in [&dense, &sparse] {
            let what = format!("{name} (sparse {})", input.is_sparse());
            let outputs = net.predict(&params, input);
            for (a, b) in outputs.iter().zip(common::json_numbers(&case["outputs"])) {
                assert!(close(*a, b, 1e-12), "{what}: output {a} vs {b}");
            }
            for (w, loss_key, grad_key) in [
                (None, "loss", "grad"),
                (Some(&weights[..]), "loss_weighted", "grad_weighted"),
            ] {
                let batch = Batch {
                    x: input,
                    rows: &rows,
                    y: targets.view(),
                    weights: w,
                };
                let mut grad = vec![0.0; params.len()];
                let loss = net.loss_grad(&params, alpha, &batch, &mut grad);
                let want = case[loss_key].as_f64().unwrap();
                assert!(
                    close(loss, want, 1e-12),
                    "{what}: {loss_key} {loss} vs {want}"
                );
                for (p, (a, b)) in grad
                    .iter()
                    .zip(common::json_numbers(&case[grad_key]))
                    .enumerate()
                {
                    assert!(close(*a, b, 1e-10), "{what}: {grad_key}[{p}] {a} vs {b}");
                }
            }
        }
        names.push(name);
    }
    assert_eq!(
        names,
        [
            "iris_tanh_softmax",
            "iris_sigmoid_binary",
            "iris_identity",
            "diabetes_relu"
        ]
    );
}

/// A case's parts: name, network, scikit-learn's fitted weights, rows, targets, alpha.
struct Case {
    name: String,
    net: Network,
    start: Vec<f64>,
    x: Array2<f64>,
    targets: Array2<f64>,
    alpha: f64,
}

fn case_of(case: &Value) -> Case {
    let (net, start) = network(case);
    Case {
        name: case["name"].as_str().unwrap().to_string(),
        net,
        start,
        x: matrix(&case["x"]),
        targets: matrix(&case["targets"]),
        alpha: case["alpha"].as_f64().unwrap(),
    }
}

/// The step rule scikit-learn's `settings` name, for `n` parameters (SGD's schedule
/// `constant` when not given).
fn rule(settings: &Value, n: usize) -> Box<dyn StepRule<f64>> {
    let eta = settings["learning_rate_init"].as_f64().unwrap();
    if settings["solver"] == "adam" {
        return Box::new(Adam::new(n, eta, 0.9, 0.999, 1e-8));
    }
    let sgd = Sgd::new(
        n,
        eta,
        settings["momentum"].as_f64().unwrap(),
        settings["nesterovs_momentum"].as_bool().unwrap(),
    );
    Box::new(match settings["learning_rate"].as_str() {
        Some(schedule) => sgd.scheduled(
            schedule.parse().unwrap(),
            settings["power_t"].as_f64().unwrap(),
        ),
        None => sgd,
    })
}

#[test]
fn one_epoch_of_sgd_and_adam_matches_scikit_learn() {
    let doc = fixture();
    let mut count = 0;
    for value in doc["cases"].as_array().unwrap() {
        let c = case_of(value);
        let weights = common::json_numbers(&value["sample_weight"]);
        let order: Vec<usize> = (0..c.x.nrows()).collect();
        let sparse = Features::from(CsrMatrix::from_dense(c.x.view()));
        let dense = Features::from(c.x.clone());
        for e in value["epochs"].as_array().unwrap() {
            let batch_size = e["batch_size"].as_u64().unwrap() as usize;
            let mut want = common::json_numbers(&e["coefs"]);
            want.extend(common::json_numbers(&e["intercepts"]));
            for input in [&dense, &sparse] {
                let what = format!("{} {e} (sparse {})", c.name, input.is_sparse());
                let data = EpochData {
                    x: input,
                    rows: &order,
                    y: c.targets.view(),
                    weights: e["weighted"].as_bool().unwrap().then_some(&weights[..]),
                };
                let mut params = c.start.clone();
                let mut r = rule(e, params.len());
                let loss = epoch(
                    &mut Gradient::new(&c.net, Dtype::F64),
                    &mut params,
                    c.alpha,
                    &data,
                    &order,
                    batch_size,
                    &mut *r,
                );
                let loss_want = e["loss"].as_f64().unwrap();
                assert!(
                    close(loss, loss_want, 1e-10),
                    "{what}: loss {loss} vs {loss_want}"
                );
                for (p, (a, b)) in params.iter().zip(&want).enumerate() {
                    assert!(close(*a, *b, 1e-10), "{what}: parameter {p} {a} vs {b}");
                }
            }
            count += 1;
        }
    }
    assert_eq!(count, 16);
}

#[test]
fn whole_stochastic_fits_match_scikit_learn() {
    let doc = fixture();
    let mut count = 0;
    for value in doc["cases"].as_array().unwrap() {
        let c = case_of(value);
        let dense = Features::from(c.x.clone());
        for f in value["fits"].as_array().unwrap() {
            let budget = Budget {
                batch_size: f["batch_size"].as_u64().unwrap() as usize,
                max_iter: f["max_iter"].as_u64().unwrap() as usize,
                tol: f["tol"].as_f64().unwrap(),
                n_iter_no_change: f["n_iter_no_change"].as_u64().unwrap() as usize,
            };
            let rows: Vec<usize> = (0..c.x.nrows()).collect();
            let data = EpochData {
                x: &dense,
                rows: &rows,
                y: c.targets.view(),
                weights: None,
            };
            let mut params = c.start.clone();
            let mut r = rule(f, params.len());
            let trained = train(
                &mut Gradient::new(&c.net, Dtype::F64),
                &mut params,
                c.alpha,
                &data,
                &budget,
                &mut *r,
                Watch::default(),
            );
            let what = format!("{} {}", c.name, f["learning_rate"]);
            let curve = common::json_numbers(&f["loss_curve"]);
            assert_eq!(trained.loss_curve.len(), curve.len(), "{what}: epochs");
            // stopped before the budget: the loss stalled, which is convergence
            if curve.len() < budget.max_iter {
                assert_eq!(trained.warning, None, "{what}");
            }
            for (e, (a, b)) in trained.loss_curve.iter().zip(&curve).enumerate() {
                assert!(close(*a, *b, 1e-8), "{what}: epoch {e} loss {a} vs {b}");
            }
            let mut want = common::json_numbers(&f["coefs"]);
            want.extend(common::json_numbers(&f["intercepts"]));
            for (p, (a, b)) in params.iter().zip(&want).enumerate() {
                assert!(close(*a, *b, 1e-8), "{what}: parameter {p} {a} vs {b}");
            }
            count += 1;
        }
    }
    assert_eq!(count, 12);
}
