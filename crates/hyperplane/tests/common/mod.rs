//! Helpers shared by the library's integration tests: the vendored data sets, their
//! standardisation, and cross-validated accuracy.
#![allow(dead_code)] // each test file uses its own subset

use hyperplane::data::split::StratifiedKFold;
use hyperplane::transform::StandardScaler;
use hyperplane::{Classifier, Dataset, Label};
use ndarray::Array2;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

/// LIBSVM's example `heart_scale` (270 x 13, labels +1 / -1), vendored.
pub fn heart_scale() -> Dataset<'static> {
    let path = format!("{DIR}/tests/data/heart_scale");
    hyperplane::data::libsvm::read_dataset(std::path::Path::new(&path), None).unwrap()
}

/// A vendored file of rows of comma-separated numbers, the last one the class; `skip`
/// header lines (scikit-learn's bundled copies have one, digits none).
pub fn csv(name: &str, skip: usize) -> Dataset<'static> {
    let text = std::fs::read_to_string(format!("{DIR}/tests/data/{name}")).unwrap();
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(skip)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    let d = rows[0].len() - 1;
    let x = Array2::from_shape_fn((rows.len(), d), |(i, j)| rows[i][j]);
    let y: Vec<Label> = rows.iter().map(|r| Label::Int(r[d] as i64)).collect();
    Dataset::new(x.into(), &y).unwrap()
}

/// scikit-learn's diabetes data (the first `rows` of 442 rows x 10, unscaled), vendored.
pub fn diabetes(rows: usize) -> Dataset<'static> {
    let read = |name: &str| -> Vec<Vec<f64>> {
        std::fs::read_to_string(format!("{DIR}/tests/data/{name}"))
            .unwrap()
            .lines()
            .take(rows)
            .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
            .collect()
    };
    let (x, y) = (read("diabetes_data_raw.csv"), read("diabetes_target.csv"));
    let x = Array2::from_shape_fn((x.len(), x[0].len()), |(i, j)| x[i][j]);
    let y = Array2::from_shape_fn((y.len(), 1), |(i, _)| y[i][0]);
    Dataset::regression(x.into(), y).unwrap()
}

/// The data set with its features standardised (population standard deviation).
pub fn standardised(data: Dataset) -> Dataset<'static> {
    let x = StandardScaler::new()
        .fit(data.x())
        .unwrap()
        .transform(data.x())
        .unwrap();
    Dataset::from_encoded(x, data.targets().to_vec(), data.classes().to_vec()).unwrap()
}

/// Mean accuracy of 10-fold stratified CV, standardising within each fold.
pub fn cv_accuracy<M: Classifier>(data: &Dataset, fit: impl Fn(&Dataset) -> M) -> f64 {
    let folds = StratifiedKFold { k: 10, seed: 0 }
        .folds(data.targets())
        .unwrap();
    let mut correct = 0;
    for (train, test) in &folds {
        let (tr, te) = (data.select_rows(train), data.select_rows(test));
        let scaler = StandardScaler::new().fit(tr.x()).unwrap();
        let model = fit(&standardised(tr));
        let predicted = model
            .predict_index(&scaler.transform(te.x()).unwrap())
            .unwrap();
        correct += predicted
            .iter()
            .zip(te.targets())
            .filter(|(a, b)| a == b)
            .count();
    }
    correct as f64 / data.n_samples() as f64
}

/// Every number of a JSON value (a number, or arrays of them at any depth), in order.
pub fn json_numbers(v: &serde_json::Value) -> Vec<f64> {
    match v {
        serde_json::Value::Array(a) => a.iter().flat_map(json_numbers).collect(),
        _ => vec![v.as_f64().unwrap()],
    }
}
