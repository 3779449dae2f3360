//! Parity of `linear-svm` with LIBLINEAR 2.3's `-s 1` (squared hinge, dual), `-s 3`
//! (hinge, dual) and `-s 2` (squared hinge, primal Newton) on heart_scale, without and with
//! `-B 1`; fixture made by `scripts/fixtures/gen_svm_fixtures.py` (`svm_liblinear.json`,
//! its objectives recomputed in numpy from the model files' weights).
//!
//! LIBLINEAR's `w` scores its first label seen, `+1` on heart_scale; our binary weights
//! score `classes[1]`, which is `+1` too (classes sorted `[-1, 1]`), so the two compare
//! with the same sign; with `-B 1` its last weight is `w_B` and our intercept is `1 * w_B`.

use hyperplane::linear::{LinearModel, LinearSvm, SvmLoss, SvmSolver};
use hyperplane::{Classifier, Fit, Label};
use serde_json::Value;

use crate::common;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn cases() -> Vec<Value> {
    let path = format!("{DIR}/tests/fixtures/svm_liblinear.json");
    let text = std::fs::read_to_string(path).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["cases"].as_array().unwrap().clone()
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Asserts `|ours_j - theirs_j| <= tol max_k |theirs_k|` for every weight.
fn assert_close(what: &str, ours: &[f64], theirs: &[f64], tol: f64) {
    assert_eq!(ours.len(), theirs.len(), "{what}");
    let scale = theirs.iter().map(|v| v.abs()).fold(0.0, f64::max);
    for (j, (a, b)) in ours.iter().zip(theirs).enumerate() {
        assert!(
            (a - b).abs() <= tol * scale,
            "{what}: w_{j} = {a}, LIBLINEAR's {b}"
        );
    }
}

/// Our weights in LIBLINEAR's layout: `w`, then `w_B = b / B` with `-B`.
fn weights(m: &LinearModel, bias: bool) -> Vec<f64> {
    let mut w: Vec<f64> = m.coef().iter().copied().collect();
    if bias {
        w.push(m.intercept()[0]);
    }
    w
}

/// The learner of a case, solved far tighter than LIBLINEAR was.
fn ours(case: &Value) -> LinearSvm {
    let (loss, solver, tol) = match case["solver"].as_u64().unwrap() {
        1 => (SvmLoss::SquaredHinge, SvmSolver::Dual, 1e-10),
        3 => (SvmLoss::Hinge, SvmSolver::Dual, 1e-10),
        2 => (SvmLoss::SquaredHinge, SvmSolver::Primal, 1e-10),
        s => panic!("no solver {s}"),
    };
    let bias = case["bias"].as_f64().unwrap();
    LinearSvm::default()
        .c(case["c"].as_f64().unwrap())
        .loss(loss)
        .solver(solver)
        .bias((bias > 0.0).then_some(bias))
        .tol(Some(tol))
        .max_iter(100_000)
}

#[test]
fn the_classes_and_the_sign_of_w_are_liblinear_s() {
    let data = common::heart_scale();
    assert_eq!(data.n_features(), 13);
    assert_eq!(data.classes(), [Label::Int(-1), Label::Int(1)]);
    for case in cases() {
        assert_eq!(case["labels"][0], 1, "{}", case["name"]);
        assert_eq!(case["data"], "heart_scale");
    }
}

#[test]
fn squared_hinge_reaches_liblinear_s_optimum_by_both_solvers() {
    let data = common::heart_scale();
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        if case["loss"] != "squared_hinge" {
            continue;
        }
        let bias = case["bias"].as_f64().unwrap() > 0.0;
        let theirs = case["objective"].as_f64().unwrap();
        let w_theirs = numbers(&case["w"]);
        // their -s 1 and -s 2 optima agree with each other to 1e-12: the reference is firm
        for solver in [SvmSolver::Dual, SvmSolver::Primal] {
            let m = ours(&case).solver(solver).fit(&data).unwrap();
            let c = m.convergence();
            assert!(c.converged(), "{name} {solver}: {c:?}");
            let p = c.objective.unwrap();
            assert!(
                (p - theirs).abs() <= 1e-6 * theirs,
                "{name} {solver}: {p} vs LIBLINEAR's {theirs}"
            );
            // converged: at most rounding above their optimum
            assert!(
                p <= theirs * (1.0 + 1e-12),
                "{name} {solver}: {p} > {theirs}"
            );
            assert!(c.duality_gap.unwrap() < 1e-8 * p, "{name} {solver}: {c:?}");
            let what = format!("{name} {solver}");
            assert_close(&what, &weights(&m, bias), &w_theirs, 1e-3);
            let predicted = m.predict(data.x()).unwrap();
            let right = predicted
                .iter()
                .zip(data.labels())
                .filter(|(a, b)| *a == b)
                .count();
            let acc = right as f64 / data.n_samples() as f64;
            assert_eq!(acc, case["training_accuracy"].as_f64().unwrap(), "{name}");
        }
        if case["solver"] == 2 {
            // TRON takes LIBLINEAR's steps: its f before each step, to the printed digits
            let m = ours(&case).tol(Some(1e-8)).fit(&data).unwrap();
            let printed = numbers(&case["printed_f"]);
            let iterations = m.convergence().iterations;
            assert!(
                iterations.abs_diff(printed.len()) <= 1,
                "{name}: {iterations} Newton iterations, LIBLINEAR {}",
                printed.len()
            );
        }
    }
}

#[test]
fn hinge_converges_where_liblinear_ran_out_of_passes() {
    // LIBLINEAR's -s 3 at -e 1e-6 stops at its 1000-pass cap, between its dual and its
    // primal objective; the optimum is in that interval, and ours is certified by its gap
    let data = common::heart_scale();
    let mut seen = 0;
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        if case["loss"] != "hinge" {
            continue;
        }
        seen += 1;
        assert_eq!(case["reached_max_iter"], true, "{name}");
        let (primal, dual) = (
            case["objective"].as_f64().unwrap(),
            -case["printed_dual_objective"].as_f64().unwrap(),
        );
        let m = ours(&case).fit(&data).unwrap();
        let c = m.convergence();
        assert!(c.converged(), "{name}: {c:?}");
        let p = c.objective.unwrap();
        assert!(
            dual <= p && p <= primal,
            "{name}: {p} outside [{dual}, {primal}]"
        );
        assert!(c.duality_gap.unwrap() < 1e-6 * p, "{name}: {c:?}");
        assert!(c.dual_objective.unwrap() >= dual, "{name}: {c:?}");
        // their weights are those of an unfinished run: close, not equal
        let bias = case["bias"].as_f64().unwrap() > 0.0;
        assert_close(name, &weights(&m, bias), &numbers(&case["w"]), 0.05);
        // a run capped as theirs was stops with the typed warning
        let capped = ours(&case)
            .tol(Some(1e-6))
            .max_iter(1000)
            .fit(&data)
            .unwrap();
        let c = capped.convergence();
        if !c.converged() {
            assert_eq!(
                c.warning,
                Some(hyperplane::optim::ConvergenceWarning::MaxIterations { iterations: 1000 })
            );
        }
    }
    assert_eq!(seen, 2);
}
