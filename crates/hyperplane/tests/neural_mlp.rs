//! The `mlp` and `mlp-regressor` kinds end to end: the accuracy floor on digits, early
//! stopping's choice of epoch, the same bits on any thread count, and what a model file
//! must hold.

use hyperplane::neural::{MlpModel, Stop};
use hyperplane::pipeline::Learner;
use hyperplane::threads::Threads;
use hyperplane::{Dataset, Params};
use ndarray::Array2;

use crate::common;

use common::{csv, cv_accuracy, standardised};

fn learner(kind: &str, params: &[(&str, &str)]) -> Learner {
    let mut l = Learner::from_kind(kind).unwrap();
    for (name, value) in params {
        l.set_param(name, value).unwrap();
    }
    l
}

fn mlp_of(model: &hyperplane::pipeline::Model) -> MlpModel {
    model.downcast_ref::<MlpModel>().unwrap().clone()
}

/// scikit-learn's `MLPClassifier()` reaches 0.981 on standardised digits under 10-fold
/// cross-validation.
#[test]
fn mlp_on_digits_reaches_the_floor() {
    let data = standardised(csv("digits.csv", 0));
    let l = learner("mlp", &[]);
    let acc = cv_accuracy(&data, |d| l.fit(d).unwrap());
    assert!(acc >= 0.97, "digits 10-fold accuracy {acc:.4} < 0.97");
    // single-precision products: the same floor, within half a point of double precision
    let l32 = learner("mlp", &[("dtype", "f32")]);
    let acc32 = cv_accuracy(&data, |d| l32.fit(d).unwrap());
    assert!(
        acc32 >= 0.97 && (acc32 - acc).abs() <= 0.005,
        "digits 10-fold accuracy, dtype=f32 {acc32:.4}, f64 {acc:.4}"
    );
}

/// Early stopping keeps the weights of the epoch with the best validation score: the same
/// run cut at that epoch gives the same bits.
#[test]
fn early_stopping_returns_the_best_epoch() {
    let data = standardised(csv("iris.csv", 1));
    let settings = [
        ("hidden", "8"),
        ("early_stopping", "true"),
        ("validation_fraction", "0.2"),
        ("learning_rate_init", "0.01"),
        ("n_iter_no_change", "5"),
        ("seed", "3"),
    ];
    let m = mlp_of(&learner("mlp", &settings).fit(&data).unwrap());
    assert_eq!(m.validation_scores.len(), m.loss_curve.len());
    let Stop::ValidationStalled { best_epoch } = m.stop else {
        panic!("stopped by {:?}", m.stop)
    };
    let best = m.validation_scores[best_epoch - 1];
    assert!(m.validation_scores[..best_epoch - 1]
        .iter()
        .all(|&s| s < best));
    assert!(m.validation_scores.iter().all(|&s| s <= best));
    assert!(
        m.loss_curve.len() > best_epoch + 5,
        "{:?}",
        m.validation_scores
    );
    let cut = best_epoch.to_string();
    let mut shorter = settings.to_vec();
    shorter.push(("max_iter", &cut));
    let c = mlp_of(&learner("mlp", &shorter).fit(&data).unwrap());
    assert_eq!(c.params, m.params);
    // too few rows to hold any out: one clear error
    let two = data.select_rows(&[0, 60]);
    let e = learner("mlp", &settings).fit(&two).unwrap_err().to_string();
    assert!(
        e.contains("validation_fraction") && e.contains("early_stopping=false"),
        "{e}"
    );
}

/// A regressor's early stopping scores R^2 on the held-out rows.
#[test]
fn regressor_fits_and_stops_early_on_r2() {
    let x = Array2::from_shape_fn((200, 2), |(i, j)| ((i * (j + 3)) % 17) as f64 / 8.0 - 1.0);
    let y = Array2::from_shape_fn((200, 1), |(i, _)| (x[[i, 0]] * 2.0).sin() + x[[i, 1]]);
    let data = Dataset::regression(x.into(), y.clone()).unwrap();
    let l = learner(
        "mlp-regressor",
        &[
            ("hidden", "16"),
            ("activation", "tanh"),
            ("learning_rate_init", "0.01"),
            ("early_stopping", "true"),
        ],
    );
    let model = l.fit(&data).unwrap();
    let m = mlp_of(&model);
    assert!(m.validation_scores.iter().copied().fold(f64::MIN, f64::max) > 0.9);
    let p = model.predict_values(data.x()).unwrap();
    let mse = (&p - &y).mapv(|v| v * v).mean().unwrap();
    assert!(mse < 0.05, "training mse {mse}");
}

/// Same seed, same bits, on one thread and on two, for every solver.
#[test]
fn same_seed_same_bits_on_any_thread_count() {
    let data = standardised(csv("iris.csv", 1));
    for (solver, dtype) in [
        ("adam", "f64"),
        ("sgd", "f64"),
        ("lbfgs", "f64"),
        ("adam", "f32"),
        ("lbfgs", "f32"),
    ] {
        let l = learner(
            "mlp",
            &[("hidden", "20,10"), ("solver", solver), ("dtype", dtype)],
        );
        let one = Threads::Count(1).run(|| l.fit(&data)).unwrap().unwrap();
        let two = Threads::Count(2).run(|| l.fit(&data)).unwrap().unwrap();
        let (a, b) = (mlp_of(&one), mlp_of(&two));
        assert_eq!(a, b, "{solver} {dtype}");
        assert_eq!(
            serde_json::to_string(&one).unwrap(),
            serde_json::to_string(&two).unwrap()
        );
        let other = learner(
            "mlp",
            &[
                ("hidden", "20,10"),
                ("solver", solver),
                ("dtype", dtype),
                ("seed", "1"),
            ],
        );
        assert_ne!(mlp_of(&other.fit(&data).unwrap()).params, a.params);
    }
}

/// A model body that does not hold together is refused when read, naming the field.
#[test]
fn inconsistent_model_bodies_are_refused() {
    let data = standardised(csv("iris.csv", 1));
    let m = mlp_of(
        &learner("mlp", &[("hidden", "4"), ("max_iter", "5")])
            .fit(&data)
            .unwrap(),
    );
    assert!(m.validate().is_ok());
    let mut short = m.clone();
    short.params.pop();
    let mut nan = m.clone();
    nan.params[3] = f64::NAN;
    let mut two = m.clone();
    two.classes.pop();
    let mut zero = m.clone();
    zero.network.layout.sizes[1] = 0;
    let mut huge = m.clone();
    huge.network.layout.sizes[1] = usize::MAX / 2;
    for (bad, field) in [
        (short, "params"),
        (nan, "params"),
        (two, "network.output"),
        (zero, "sizes"),
        (huge, "too many weights"),
    ] {
        let e = bad.validate().unwrap_err().to_string();
        assert!(e.contains(field), "{field}: {e}");
    }
}

/// `partial_fit` over the same rows, epoch after epoch, is `fit` of as many epochs (both
/// solvers, rows in order); a batch of one class, an unknown label, a wrong width and the
/// settings that need the whole data are handled.
#[test]
fn partial_fit_epochs_equal_a_fit() {
    use hyperplane::neural::{Mlp, MlpRegressor, Optimizer};
    use hyperplane::{Error, Fit, Label};
    let data = standardised(csv("iris.csv", 1));
    for solver in [Optimizer::Adam, Optimizer::Sgd] {
        let mut p = Mlp::default();
        p.training.hidden = vec![6];
        p.training.solver = solver;
        p.training.shuffle = false;
        p.training.max_iter = 4;
        p.training.n_iter_no_change = 100;
        p.training.learning_rate_init = 0.01;
        p.training.batch_size = Some(32);
        let whole = p.fit(&data).unwrap();
        let mut state = p.start(data.classes().to_vec(), 4).unwrap();
        for _ in 0..4 {
            state.partial_fit(&data).unwrap();
        }
        let streamed = state.model();
        assert_eq!(streamed.params, whole.params, "{solver:?}");
        assert_eq!(streamed.loss_curve, whole.loss_curve, "{solver:?}");
        assert_eq!(streamed.stop, Stop::Batches);
        // one class at a time, then labels and widths it cannot take
        let first: Vec<usize> = (0..data.n_samples())
            .filter(|&i| data.targets()[i] == 0)
            .collect();
        state.partial_fit(&data.select_rows(&first)).unwrap();
        let before = state.model().clone();
        let other = Dataset::new(Array2::<f64>::zeros((1, 4)).into(), &[Label::Int(7)]).unwrap();
        assert!(matches!(
            state.partial_fit(&other),
            Err(Error::UnknownClass { .. })
        ));
        let wide = Dataset::new(
            Array2::<f64>::zeros((1, 5)).into(),
            &[data.classes()[0].clone()],
        )
        .unwrap();
        assert!(state.partial_fit(&wide).is_err());
        assert_eq!(state.model(), &before);
    }
    let mut p = Mlp::default();
    p.training.solver = Optimizer::Lbfgs;
    assert!(p.start(data.classes().to_vec(), 4).is_err());
    let mut p = Mlp::default();
    p.training.early_stopping = true;
    assert!(p.start(data.classes().to_vec(), 4).is_err());
    // a regressor streams its targets
    let y = Array2::from_shape_fn((data.n_samples(), 1), |(i, _)| data.targets()[i] as f64);
    let reg = Dataset::regression(data.x().clone(), y).unwrap();
    let mut r = MlpRegressor::default();
    r.training.hidden = vec![4];
    let mut state = r.start(4, 1).unwrap();
    state.partial_fit(&reg).unwrap();
    state.partial_fit(&reg).unwrap();
    assert_eq!(state.model().loss_curve.len(), 2);
    assert!(state.model().loss_curve[1] < state.model().loss_curve[0]);
}

/// With `dtype=f32` a value beyond single precision's range is refused by name and place
/// (dense and sparse, by fit and by `partial_fit`); `f64` trains on it.
#[test]
fn values_beyond_single_precision_are_refused_in_f32() {
    use hyperplane::neural::Mlp;
    use hyperplane::{CsrMatrix, Features, Fit, Label};
    let mut x = Array2::<f64>::from_shape_fn((6, 3), |(i, j)| (i + j) as f64);
    x[[4, 1]] = -1e300;
    let labels: Vec<Label> = (0..6).map(|i| Label::Int(i % 2)).collect();
    for features in [
        Features::from(x.clone()),
        Features::from(CsrMatrix::from_dense(x.view())),
    ] {
        let data = Dataset::new(features, &labels).unwrap();
        let mut p = Mlp::default();
        p.training.max_iter = 2;
        p.training.dtype = hyperplane::neural::Dtype::F32;
        let e = p.fit(&data).unwrap_err().to_string();
        assert!(e.contains("dtype") && e.contains("row 5 column 2"), "{e}");
        let mut state = p.start(data.classes().to_vec(), 3).unwrap();
        let e = state.partial_fit(&data).unwrap_err().to_string();
        assert!(e.contains("row 5 column 2"), "{e}");
        p.training.dtype = hyperplane::neural::Dtype::F64;
        assert!(p.fit(&data).is_ok());
    }
}

#[test]
fn a_step_too_large_is_reported_as_divergence_not_saved() {
    use hyperplane::{CsrMatrix, Features, Label};
    // mostly zeros (the products skip their steps) and large values
    let x = Array2::<f64>::from_shape_fn((40, 8), |(i, j)| {
        if (i + 2 * j) % 3 == 0 {
            1e4 * ((i * 7 + j) % 5) as f64
        } else {
            0.0
        }
    });
    let labels: Vec<Label> = (0..40).map(|i| Label::Int(i % 3)).collect();
    for features in [
        Features::from(x.clone()),
        Features::from(CsrMatrix::from_dense(x.view())),
    ] {
        let data = Dataset::new(features, &labels).unwrap();
        for dtype in ["f64", "f32"] {
            let settings = [
                ("solver", "sgd"),
                ("learning_rate_init", "1e30"),
                ("momentum", "0.9"),
                ("max_iter", "200"),
                ("dtype", dtype),
            ];
            let e = learner("mlp", &settings)
                .fit(&data)
                .unwrap_err()
                .to_string();
            assert!(e.contains("training diverged"), "{dtype}: {e}");
        }
    }
}
