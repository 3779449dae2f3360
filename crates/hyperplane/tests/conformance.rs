//! The conformance suite: `hyperplane::check` (scikit-learn's estimator checks, translated)
//! run on every kind of the registry, with its default settings and with every other
//! choice of each of its choice parameters (solvers, losses, orders, methods), so a new
//! kind or a new solver joins by being declared.

use hyperplane::check::{check_classifier, check_novelty, check_regressor, Outcome, Report};
use hyperplane::data::{Dataset, Features};
use hyperplane::estimator::Task;
use hyperplane::pipeline::{registry, Learner};
use hyperplane::{Error, Params};
use ndarray::Array2;

/// A kind's learner with one setting (and what the setting needs to be checked).
fn learner(kind: &str, setting: Option<(&str, &str)>) -> Learner {
    let mut l = Learner::from_kind(kind).unwrap();
    if let Some((name, value)) = setting {
        l.set_param(name, value).unwrap();
    }
    if (kind, setting) == ("sgd", Some(("loss", "squared"))) {
        // Squared loss at the `optimal` schedule diverges on unscaled counts, as in
        // scikit-learn (SGDClassifier(loss="squared_error") on these data: |w| ~ 1e13,
        // accuracy 1/3); checked at a small constant step instead.
        l.set_param("learning_rate", "constant").unwrap();
        l.set_param("eta0", "0.001").unwrap();
    }
    if kind == "linear-svm" {
        // The dual coordinate descent stops when the projected gradients span less than
        // `tol` (0.1 by default, LIBLINEAR's: weights within a few percent); the refit
        // checks compare to 1e-6, so it is solved tightly (the primal solver too).
        l.set_param("tol", "1e-10").unwrap();
        l.set_param("max_iter", "100000").unwrap();
    }
    if l.info().family == "neural networks" && setting == Some(("solver", "lbfgs")) {
        // The objective of a network is not convex: a change of rounding (rows in another
        // order, weights for repeats, CSR rows) moves L-BFGS's path, and a wide network
        // (100 units for 90 rows) has many minima it can end in. The refit checks compare
        // within 1e-6, so they run on a network of one basin, solved tightly; the
        // stochastic solvers are order-dependent and checked at the defaults.
        l.set_param("hidden", "3").unwrap();
        l.set_param("tol", "1e-8").unwrap();
        l.set_param("max_iter", "2000").unwrap();
    }
    if l.info().family == "support vector machines" {
        // SMO stops within `tol` of the optimum (1e-3 by default: decision values within
        // about 1e-3); the refit checks compare to 1e-6, so the dual is solved tightly.
        l.set_param("tol", "1e-10").unwrap();
    }
    l
}

/// Whether the setting is refused on valid data (a choice that needs another setting).
fn refused(l: &Learner, task: Task) -> Option<String> {
    let x = Features::from(Array2::from_shape_fn((6, 2), |(i, j)| {
        (i * (j + 1) % 5) as f64
    }));
    let ds = match task {
        Task::Classifier | Task::Novelty => Dataset::new(x, &[0, 1, 0, 1, 0, 1].map(Into::into)),
        Task::Regressor => Dataset::regression(x, Array2::from_shape_fn((6, 1), |(i, _)| i as f64)),
    };
    match l.fit(&ds.unwrap()) {
        Err(e @ (Error::InvalidParameter { .. } | Error::Unsupported { .. })) => {
            Some(e.to_string())
        }
        _ => None,
    }
}

#[test]
fn every_kind_and_every_choice_passes_every_check() {
    let mut checked = Vec::new();
    let mut skipped = Vec::new();
    let mut failed: Vec<Report> = Vec::new();
    for info in registry() {
        let default = Learner::from_kind(info.name).unwrap();
        let mut settings: Vec<Option<(&str, &str)>> = vec![None];
        let schema = default.schema();
        for p in &schema {
            for &c in &p.choices {
                if c != p.default {
                    settings.push(Some((p.name, c)));
                }
            }
        }
        if schema.iter().any(|p| p.name == "probability") {
            // the kernel classifiers' probabilities come from a fit of their own
            settings.push(Some(("probability", "true")));
        }
        for setting in settings {
            let l = learner(info.name, setting);
            let name = match setting {
                None => info.name.to_string(),
                Some((n, v)) => format!("{} {n}={v}", info.name),
            };
            if let Some(why) = refused(&l, info.task) {
                skipped.push(name.clone());
                assert!(why.contains(setting.map_or("?", |s| s.0)), "{name}: {why}");
                continue;
            }
            let report = match info.task {
                Task::Classifier => check_classifier(&name, &l),
                Task::Regressor => check_regressor(&name, &l),
                Task::Novelty => check_novelty(&name, &l),
            };
            assert!(
                report.results.len() >= 17,
                "{name}: {} checks",
                report.results.len()
            );
            if !report.passed() {
                failed.push(report);
            }
            checked.push(name);
        }
    }
    // every kind is checked at its defaults, and some at other choices too
    for info in registry() {
        assert!(
            checked.iter().any(|c| c == info.name),
            "{} not checked",
            info.name
        );
    }
    assert!(checked.len() > registry().count(), "{checked:?}");
    let text: Vec<String> = failed.iter().map(|r| r.to_string()).collect();
    assert!(failed.is_empty(), "{}", text.join("\n"));
    // the choices refused on their own: the SGD schedules of logistic regression need
    // solver=sgd, the 0/1 loss has no gradient to step on, softmax regression has no SGD
    // or Cholesky solver, and kernel=precomputed takes the n x n kernel matrix, not the rows the checks
    // make (tests/svm_precomputed.rs checks it against LIBSVM, scikit-learn and the kernel
    // the matrix was computed from)
    skipped.sort();
    assert_eq!(
        skipped,
        [
            "logistic-regression learning_rate=constant",
            "logistic-regression learning_rate=invscaling",
            "nu-svc kernel=precomputed",
            "nu-svr kernel=precomputed",
            "one-class-svm kernel=precomputed",
            "sgd loss=zero_one",
            "softmax-regression solver=newton-cholesky",
            "softmax-regression solver=sgd",
            "svc kernel=precomputed",
            "svr kernel=precomputed",
        ]
    );
    for must in [
        "logistic-regression solver=newton",
        "logistic-regression solver=newton-ls",
        "logistic-regression solver=newton-cholesky",
        "logistic-regression solver=lbfgs",
        "logistic-regression solver=gd",
        "logistic-regression solver=sgd",
        "softmax-regression solver=newton",
        "sgd loss=log",
        "sgd loss=modified_huber",
        "sgd learning_rate=invscaling",
        "perceptron order=random",
        "ridge method=qr",
        "linear-regression",
        "linear-svm loss=hinge",
        "linear-svm solver=primal",
        "svc probability=true",
        "nu-svc probability=true",
    ] {
        assert!(
            checked.iter().any(|c| c == must),
            "{must} not checked: {checked:?}"
        );
    }
}

#[test]
fn the_checks_fail_a_learner_that_breaks_the_contract() {
    // no update at all: w = 0 predicts one class, so labels do not come back
    let stuck = learner("pocket", Some(("max_updates", "0")));
    let report = check_classifier("pocket max_updates=0", &stuck);
    assert!(!report.passed());
    let failed: Vec<&str> = report.failures().iter().map(|r| r.check).collect();
    assert!(failed.contains(&"labels_round_trip"), "{report}");
    // a classifier is not a regressor: every check fails, none panics
    let report = check_regressor("gaussian-nb as a regressor", &learner("gaussian-nb", None));
    assert!(
        report.results.iter().all(|r| r.outcome != Outcome::Passed),
        "{report}"
    );
    let text = report.to_string();
    assert!(
        text.starts_with("gaussian-nb as a regressor: 0 of"),
        "{text}"
    );
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["results"][0]["outcome"], "failed");
    assert!(json["results"][0]["detail"]
        .as_str()
        .unwrap()
        .contains("real values, not classes"));
}
