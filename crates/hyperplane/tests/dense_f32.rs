//! Dense `f32` input fits the model of the same values held as `f64`: every kind of the
//! registry, at its defaults and at every other choice of each choice parameter (the
//! network's `dtype=f32` among them, where the network converts its input to `f32` itself),
//! on a matrix of `f32` lent row-major and column-major, against the same values widened
//! to `f64` in the same layout. The model files are the same bytes, and the model's
//! outputs on the `f32` rows are those on the `f64` rows. A kind that refuses the data
//! refuses both with the same words.

use crate::common;

use hyperplane::data::{Dataset, Features};
use hyperplane::estimator::Task;
use hyperplane::pipeline::{registry, Learner, Model};
use hyperplane::{Classifier, Params};
use ndarray::{Array2, ShapeBuilder};

/// Rows of the data sets: enough for every kind to find something, few enough that the
/// kernel machines and the networks fit quickly.
const ROWS: usize = 300;

/// What a fit gives: the model file and the model's outputs on the training rows (decision
/// values for classes, predictions for regressors), or the refusal.
type Outcome = Result<(Vec<u8>, Array2<f64>), String>;

fn outcome(learner: &Learner, task: Task, data: &Dataset, x: &Features) -> Outcome {
    let model = learner.fit(data).map_err(|e| e.to_string())?;
    let bytes = hyperplane::persist::to_bytes(learner.info().name, &model).unwrap();
    Ok((bytes, outputs(&model, task, x)?))
}

fn outputs(model: &Model, task: Task, x: &Features) -> Result<Array2<f64>, String> {
    match task {
        Task::Classifier | Task::Novelty => model.decision_function(x),
        Task::Regressor => model.predict_values(x),
    }
    .map_err(|e| e.to_string())
}

/// The data of a task as `f32` values (rounded from the vendored `f64` ones), with its
/// targets: the digits (counts 0..=16, and the same over 7, fractions `f32` rounds), or
/// scikit-learn's diabetes data for regressors.
fn data_in_f32(task: Task, name: &str, fractions: bool) -> (Array2<f32>, Dataset<'static>) {
    let base = match task {
        Task::Regressor => common::diabetes(ROWS),
        Task::Classifier | Task::Novelty => {
            let digits = common::csv("digits.csv", 0);
            let rows: Vec<usize> = match name {
                // the hard margin needs separable rows: digits 0 and 1
                "hard-margin-svm" => (0..digits.n_samples())
                    .filter(|&i| digits.targets()[i] < 2)
                    .take(ROWS)
                    .collect(),
                _ => (0..ROWS).collect(),
            };
            digits.select_rows(&rows)
        }
    };
    let scale = if fractions { 7.0 } else { 1.0 };
    let x32 = base.x().to_dense().mapv(|v| (v / scale) as f32);
    (x32, base)
}

/// `base`'s targets with other features.
fn with_features<'a>(base: &Dataset, x: Features<'a>) -> Dataset<'a> {
    match base.values() {
        Some(y) => Dataset::regression(x, y.to_owned()).unwrap(),
        None => Dataset::from_encoded(x, base.targets().to_vec(), base.classes().to_vec()).unwrap(),
    }
}

/// `x` in column-major order (numpy's `order="F"`).
fn column_major<T: Copy + num_traits::Zero>(x: &Array2<T>) -> Array2<T> {
    let mut f = Array2::zeros(x.dim().f());
    f.assign(x);
    f
}

/// Where fitting on `x32` (as it is, lent) and on its values in `f64` (same layout)
/// differ: in the model file or in the outputs on either matrix.
fn differences(learner: &Learner, task: Task, base: &Dataset, x32: &Array2<f32>) -> Vec<String> {
    let x64 = x32.mapv(f64::from);
    assert_eq!(x64.is_standard_layout(), x32.is_standard_layout());
    let (f32s, f64s) = (
        Features::DenseF32(x32.view().into()),
        Features::from(x64.view()),
    );
    let from_f32 = outcome(learner, task, &with_features(base, f32s.clone()), &f32s);
    let from_f64 = outcome(learner, task, &with_features(base, f64s.clone()), &f64s);
    let mut found = Vec::new();
    match (&from_f32, &from_f64) {
        (Ok((file32, out32)), Ok((file64, out64))) => {
            if file32 != file64 {
                found.push("the model files differ".to_string());
            }
            if out32 != out64 {
                found.push("the outputs of the two fits differ".to_string());
            }
        }
        (Err(a), Err(b)) if a == b => {}
        (a, b) => found.push(format!(
            "one fit failed: f32 {:?}, f64 {:?}",
            a.as_ref().err(),
            b.as_ref().err()
        )),
    }
    // one model, both inputs: the same outputs
    if let Ok(model) = learner.fit(&with_features(base, f64s.clone())) {
        if outputs(&model, task, &f32s) != outputs(&model, task, &f64s) {
            found.push("one model's outputs on f32 and f64 rows differ".to_string());
        }
    }
    found
}

/// A kind's learners: its defaults, every other choice of each choice parameter, and for
/// networks the paths of `dtype=f32` (each solver; batches in order; early stopping).
fn settings(kind: &str) -> Vec<(String, Learner)> {
    let default = Learner::from_kind(kind).unwrap();
    let mut settings: Vec<Vec<(&str, &str)>> = vec![vec![]];
    for p in default.schema() {
        for &c in &p.choices {
            if c != p.default {
                settings.push(vec![(p.name, c)]);
            }
        }
    }
    if default.info().family == "neural networks" {
        for extra in [
            vec![("solver", "lbfgs")],
            vec![("solver", "sgd")],
            vec![("shuffle", "false")],
            vec![("early_stopping", "true")],
        ] {
            settings.push([vec![("dtype", "f32")], extra.clone()].concat());
            settings.push(extra);
        }
    }
    settings.sort();
    settings.dedup();
    settings
        .into_iter()
        .map(|s| {
            let mut l = default.clone();
            let mut name = kind.to_string();
            for (p, v) in s {
                l.set_param(p, v).unwrap();
                name += &format!(" {p}={v}");
            }
            if l.info().family == "neural networks" {
                // a few epochs show the path; the first epochs differ most
                l.set_param("max_iter", "20").unwrap();
            }
            (name, l)
        })
        .collect()
}

#[test]
fn every_kind_fits_the_same_model_on_f32_as_on_the_same_values_in_f64() {
    let mut failed = Vec::new();
    let mut checked = 0;
    for info in registry() {
        for (name, learner) in settings(info.name) {
            // the defaults on every data set and layout; the other choices on fractions,
            // column-major (the layout read element by element)
            let cases: &[(bool, bool)] = if name == info.name {
                &[(false, false), (false, true), (true, false), (true, true)]
            } else {
                &[(true, true)]
            };
            for &(fractions, fortran) in cases {
                let (x32, base) = data_in_f32(info.task, info.name, fractions);
                let x32 = if fortran { column_major(&x32) } else { x32 };
                for d in differences(&learner, info.task, &base, &x32) {
                    failed.push(format!(
                        "{name} (fractions {fractions}, column-major {fortran}): {d}"
                    ));
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 2 * registry().count(), "{checked} fits");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// A NaN in `f32` input is refused as in `f64` input, by row (from 1) and feature, by
/// every kind at fit and at predict, in either layout.
#[test]
fn a_nan_in_f32_input_is_refused_naming_where() {
    for info in registry() {
        let learner = Learner::from_kind(info.name).unwrap();
        if info.name == "hard-margin-svm" {
            continue; // its data are other rows; the check is the same
        }
        // counts, which every kind takes (categories among them)
        let (x32, base) = data_in_f32(info.task, info.name, false);
        let model = learner
            .fit(&with_features(&base, Features::DenseF32(x32.view().into())))
            .unwrap();
        for fortran in [false, true] {
            let mut bad = if fortran {
                column_major(&x32)
            } else {
                x32.clone()
            };
            bad[[41, 3]] = f32::NAN;
            let x = Features::DenseF32(bad.view().into());
            let fit = learner.fit(&with_features(&base, x.clone())).unwrap_err();
            let predict = outputs(&model, info.task, &x).unwrap_err();
            for e in [fit.to_string(), predict] {
                assert!(
                    e.contains("NaN") && e.contains("row 42") && e.contains("feature 3"),
                    "{}: {e}",
                    info.name
                );
            }
        }
    }
}
