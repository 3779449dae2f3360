//! The multilayer perceptron against scikit-learn's MLPClassifier / MLPRegressor: with the
//! weights scikit-learn fitted, our forward pass gives its predict_proba / predict, and
//! backpropagation its loss and gradient (`_loss_grad_lbfgs`), with and without sample
//! weights, on dense and sparse rows; one epoch of SGD (plain, momentum, Nesterov) and of
//! Adam from those weights gives scikit-learn's weights and epoch loss. Fixtures made by `scripts/fixtures/gen_mlp_fixtures.py`.

use hyperplane::data::CsrMatrix;
use hyperplane::neural::{
    epoch, Activation, Adam, Batch, EpochData, Layout, Network, Output, Sgd, StepRule,
};
use hyperplane::Features;
use ndarray::Array2;
use serde_json::Value;

mod common;

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

#[test]
fn one_epoch_of_sgd_and_adam_matches_scikit_learn() {
    let doc = fixture();
    let mut count = 0;
    for case in doc["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let (net, start) = network(case);
        let x = matrix(&case["x"]);
        let targets = matrix(&case["targets"]);
        let alpha = case["alpha"].as_f64().unwrap();
        let weights = common::json_numbers(&case["sample_weight"]);
        let order: Vec<usize> = (0..x.nrows()).collect();
        let sparse = Features::from(CsrMatrix::from_dense(x.view()));
        let dense = Features::from(x.clone());
        for e in case["epochs"].as_array().unwrap() {
            let eta = e["learning_rate_init"].as_f64().unwrap();
            let batch_size = e["batch_size"].as_u64().unwrap() as usize;
            let n = start.len();
            let rule = || -> Box<dyn StepRule> {
                match e["solver"].as_str().unwrap() {
                    "sgd" => Box::new(Sgd::new(
                        n,
                        eta,
                        e["momentum"].as_f64().unwrap(),
                        e["nesterovs_momentum"].as_bool().unwrap(),
                    )),
                    _ => Box::new(Adam::new(n, eta, 0.9, 0.999, 1e-8)),
                }
            };
            let mut want = common::json_numbers(&e["coefs"]);
            want.extend(common::json_numbers(&e["intercepts"]));
            for input in [&dense, &sparse] {
                let what = format!("{name} {e} (sparse {})", input.is_sparse());
                let data = EpochData {
                    x: input,
                    y: targets.view(),
                    weights: e["weighted"].as_bool().unwrap().then_some(&weights[..]),
                };
                let mut params = start.clone();
                let mut r = rule();
                let loss = epoch(&net, &mut params, alpha, &data, &order, batch_size, &mut *r);
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
