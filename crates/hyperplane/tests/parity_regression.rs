//! Least squares against scikit-learn 1.9.1 and numpy (fixtures from
//! `scripts/fixtures/gen_regression_fixtures.py`), and the properties every least-squares
//! solution has whatever the solver.

use hyperplane::linear::{
    linear_regression_init, ClassWeight, LinearRegression, LinearRegressionClassifier,
    LinearRegressionModel, LstsqMethod, Ridge,
};
use hyperplane::pipeline::Learner;
use hyperplane::{Classifier, CsrMatrix, Dataset, Features, Fit, Label, Params, Regressor};
use ndarray::{array, Array1, Array2, Axis};
use proptest::prelude::*;
use serde_json::Value;

const FIXTURE: &str = include_str!("fixtures/regression_sklearn.json");
const DIABETES_X: &str = include_str!("data/diabetes_data_raw.csv");
const DIABETES_Y: &str = include_str!("data/diabetes_target.csv");

fn num(v: &Value) -> f64 {
    v.as_str().unwrap().parse().unwrap()
}
fn vector(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(num).collect()
}
fn matrix(v: &Value) -> Array2<f64> {
    let rows: Vec<Vec<f64>> = v.as_array().unwrap().iter().map(vector).collect();
    Array2::from_shape_vec((rows.len(), rows[0].len()), rows.concat()).unwrap()
}
fn parse_rows(text: &str) -> Array2<f64> {
    let rows: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect();
    Array2::from_shape_vec((rows.len(), rows[0].len()), rows.concat()).unwrap()
}

/// `load_diabetes()` (scaled=True): each column centred, divided by its population standard
/// deviation and by `sqrt(n)`.
fn diabetes() -> (Array2<f64>, Array2<f64>) {
    let mut x = parse_rows(DIABETES_X);
    let n = x.nrows() as f64;
    for mut col in x.columns_mut() {
        let mean = col.sum() / n;
        let std = (col.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
        col.mapv_inplace(|v| (v - mean) / std / n.sqrt());
    }
    let y = parse_rows(DIABETES_Y);
    let y = y.into_shape_with_order((442, 1)).unwrap();
    (x, y)
}

fn assert_rel(ours: &[f64], theirs: &[f64], tol: f64, what: &str) {
    assert_eq!(ours.len(), theirs.len(), "{what}");
    let scale = theirs.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (a, b) in ours.iter().zip(theirs) {
        assert!(
            (a - b).abs() <= tol * scale.max(1e-300),
            "{what}: {a} vs {b} (scale {scale})"
        );
    }
}

fn assert_model(m: &LinearRegressionModel, expected: &Value, tol: f64, what: &str) {
    let coef = matrix(&expected["coef"]);
    assert_rel(
        m.coef().as_slice().unwrap(),
        coef.as_slice().unwrap(),
        tol,
        &format!("{what} coef"),
    );
    assert_rel(
        m.intercept().as_slice().unwrap(),
        &vector(&expected["intercept"]),
        tol,
        &format!("{what} intercept"),
    );
}

#[test]
fn diabetes_matches_scikit_learn() {
    let f: Value = serde_json::from_str(FIXTURE).unwrap();
    let (x, y) = diabetes();
    let weights = vector(&f["diabetes_weights"]);
    let dense = Features::from(x.clone());
    let sparse = Features::Sparse(CsrMatrix::from_dense(x.view()));
    let cases = f["diabetes"].as_array().unwrap();
    assert_eq!(cases.len(), 10);
    for case in cases {
        let alpha = case["alpha"].as_f64().unwrap();
        let intercept = case["fit_intercept"].as_bool().unwrap();
        let w = case["weighted"]
            .as_bool()
            .unwrap()
            .then_some(weights.as_slice());
        let name = format!(
            "{} weighted={}",
            case["name"].as_str().unwrap(),
            w.is_some()
        );
        for method in [LstsqMethod::Svd, LstsqMethod::Qr] {
            let m = if alpha == 0.0 {
                LinearRegression::new()
                    .fit_intercept(intercept)
                    .method(method)
                    .fit_xy(&dense, y.view(), w)
            } else {
                Ridge::new()
                    .alpha(alpha)
                    .fit_intercept(intercept)
                    .method(method)
                    .fit_xy(&dense, y.view(), w)
            }
            .unwrap();
            assert_model(&m, case, 1e-8, &format!("{name} {method}"));
            assert_eq!(m.rank(), Some(10));
            assert_rel(
                m.singular_values().unwrap(),
                &vector(&case["singular_values"]),
                1e-10,
                &name,
            );
        }
        // Sparse input: LSQR (damped for ridge) to the same solution.
        let m = if alpha == 0.0 {
            LinearRegression::new()
                .fit_intercept(intercept)
                .tol(1e-14)
                .fit_xy(&sparse, y.view(), w)
        } else {
            Ridge::new()
                .alpha(alpha)
                .fit_intercept(intercept)
                .tol(1e-14)
                .fit_xy(&sparse, y.view(), w)
        }
        .unwrap();
        let c = m.convergence().unwrap();
        assert!(c.converged() && c.iterations > 0, "{name}: {c:?}");
        assert_model(&m, case, 1e-8, &format!("{name} sparse"));
    }
}

#[test]
fn multi_output_matches_scikit_learn() {
    let f: Value = serde_json::from_str(FIXTURE).unwrap();
    let (x, _) = diabetes();
    let y = matrix(&f["multi_output"]["y"]);
    let x = Features::from(x);
    let lr = LinearRegression::new().fit_xy(&x, y.view(), None).unwrap();
    assert_eq!(lr.n_outputs(), 3);
    assert_model(&lr, &f["multi_output"]["linear"], 1e-8, "multi linear");
    let ridge = Ridge::new().fit_xy(&x, y.view(), None).unwrap();
    assert_model(&ridge, &f["multi_output"]["ridge_1"], 1e-8, "multi ridge");
    // each output alone gives the same column
    for k in 0..3 {
        let one = y.column(k).to_owned().insert_axis(Axis(1));
        let m = LinearRegression::new()
            .fit_xy(&x, one.view(), None)
            .unwrap();
        assert_rel(
            m.coef().row(0).as_slice().unwrap(),
            lr.coef().row(k).to_vec().as_slice(),
            1e-12,
            "output",
        );
    }
    let pred = lr.predict(&x).unwrap();
    assert_eq!(pred.dim(), (442, 3));
    assert!(lr
        .predict(&Features::from(Array2::<f64>::zeros((2, 9))))
        .is_err());
}

/// Fewer rows than columns, every column zero but one: the QR of `[X y]` leaves a zero row
/// of `R` for each zero column, so the data of a late column lands below row `n` (found by
/// `sparse_and_dense_agree`: the fit dropped the last column and predicted the mean).
#[test]
fn a_wide_design_keeps_a_column_after_zero_columns() {
    let y = array![[0.0], [0.0], [-3.6604715465393607]];
    for col in 0..4 {
        let mut x = Array2::zeros((3, 4));
        x[[2, col]] = -4.768808012708298;
        let dense = Features::from(x.clone());
        for method in [LstsqMethod::Svd, LstsqMethod::Qr] {
            let m = LinearRegression::new()
                .method(method)
                .fit_xy(&dense, y.view(), None)
                .unwrap();
            // an exact fit: b = 0 and w = y_3 / x_3 on the column
            let mut want = [0.0; 4];
            want[col] = -3.6604715465393607 / -4.768808012708298;
            assert_rel(
                m.coef().as_slice().unwrap(),
                &want,
                1e-12,
                &format!("{method} column {col}"),
            );
            assert!(m.intercept()[0].abs() < 1e-15, "{method} column {col}");
            assert_eq!(m.rank(), Some(1));
            assert_eq!(m.singular_values().unwrap().len(), 3, "min(n, p) values");
        }
        let sparse = Features::Sparse(CsrMatrix::from_dense(x.view()));
        for alpha in [0.0, 0.5] {
            let r = Ridge::new().alpha(alpha).tol(1e-14);
            let (a, b) = (
                r.fit_xy(&dense, y.view(), None).unwrap(),
                r.fit_xy(&sparse, y.view(), None).unwrap(),
            );
            let what = format!("ridge alpha {alpha}, column {col}: dense vs sparse");
            assert_rel(
                a.coef().as_slice().unwrap(),
                b.coef().as_slice().unwrap(),
                1e-10,
                &what,
            );
            assert!(a.coef()[[0, col]].abs() > 0.1, "{what}");
        }
    }
}

#[test]
fn rank_deficient_design_gives_the_minimum_norm_solution() {
    let f: Value = serde_json::from_str(FIXTURE).unwrap();
    let d = &f["rank_deficient"];
    let x = matrix(&d["x"]);
    let y = Array1::from(vector(&d["y"])).insert_axis(Axis(1));
    let dense = Features::from(x.clone());
    for method in [LstsqMethod::Svd, LstsqMethod::Qr] {
        let m = LinearRegression::new()
            .fit_intercept(false)
            .method(method)
            .fit_xy(&dense, y.view(), None)
            .unwrap();
        assert_eq!(
            m.rank(),
            Some(d["lstsq_rank"].as_u64().unwrap() as usize),
            "{method}"
        );
        assert_rel(
            m.coef().as_slice().unwrap(),
            &vector(&d["lstsq_coef"]),
            1e-10,
            &format!("{method} lstsq"),
        );
        assert_rel(
            m.singular_values().unwrap(),
            &vector(&d["lstsq_singular_values"]),
            1e-10,
            "singular values",
        );
        let with_b = LinearRegression::new()
            .method(method)
            .fit_xy(&dense, y.view(), None)
            .unwrap();
        assert_eq!(
            with_b.rank(),
            Some(d["sklearn_rank"].as_u64().unwrap() as usize)
        );
        assert_model(&with_b, &d["sklearn"], 1e-9, &format!("{method} sklearn"));
    }
    // LSQR from w = 0 stays in the row space: the same minimum-norm solution.
    let sparse = Features::Sparse(CsrMatrix::from_dense(x.view()));
    let m = LinearRegression::new()
        .fit_intercept(false)
        .tol(1e-14)
        .fit_xy(&sparse, y.view(), None)
        .unwrap();
    assert_rel(
        m.coef().as_slice().unwrap(),
        &vector(&d["lstsq_coef"]),
        1e-8,
        "lsqr",
    );
}

#[test]
fn linear_regression_classifies_and_initialises() {
    let x = ndarray::array![
        [0.0, 1.0],
        [1.0, 0.0],
        [3.0, 4.0],
        [4.0, 3.0],
        [0.5, 0.5],
        [3.5, 3.5]
    ];
    let labels: Vec<Label> = ["no", "no", "yes", "yes", "no", "yes"]
        .iter()
        .map(|&s| s.into())
        .collect();
    let data = Dataset::new(Features::from(x.clone()), &labels).unwrap();
    let model = LinearRegressionClassifier::default().fit(&data).unwrap();
    assert_eq!(model.predict(data.x()).unwrap(), labels);
    assert!(
        model.predict_proba(data.x()).is_err(),
        "a sign link has no probabilities"
    );
    let (w, b) = linear_regression_init(&data, &ClassWeight::Uniform).unwrap();
    assert_eq!(w, model.coef().row(0).to_vec());
    assert_eq!(b, model.intercept()[0]);
    // it is the regression on y in {-1, +1}
    let y = Array2::from_shape_fn((6, 1), |(i, _)| {
        if labels[i] == Label::from("yes") {
            1.0
        } else {
            -1.0
        }
    });
    let direct = LinearRegression::new()
        .fit_xy(data.x(), y.view(), None)
        .unwrap();
    assert_rel(&w, direct.coef().as_slice().unwrap(), 1e-12, "init");
    let three = Dataset::new(
        Features::from(x),
        &["a", "b", "c", "a", "b", "c"].map(Label::from),
    )
    .unwrap();
    assert!(LinearRegressionClassifier::default()
        .fit(&three)
        .unwrap_err()
        .to_string()
        .contains("multiclass"));
}

/// `(w_1, .., w_d, b)` of a binary linear model.
fn params_of(m: &hyperplane::linear::LinearModel) -> Vec<f64> {
    m.coef().iter().chain(m.intercept()).copied().collect()
}

#[test]
fn class_weight_equals_integer_sample_weights_and_copied_rows() {
    // the courses' cost-sensitive trick: copy each -1 example 1000 times
    let x = Array2::from_shape_fn((8, 2), |(i, j)| ((i * (j + 2)) % 7) as f64 * 0.5 + j as f64);
    let y = [-1, -1, 1, 1, -1, 1, -1, 1];
    let labels: Vec<Label> = y.iter().map(|&v| Label::Int(v)).collect();
    let copies: Vec<usize> = y.iter().map(|&v| if v < 0 { 1000 } else { 1 }).collect();
    for sparse in [false, true] {
        let features = if sparse {
            Features::Sparse(CsrMatrix::from_dense(x.view()))
        } else {
            Features::from(x.clone())
        };
        let data = Dataset::new(features, &labels).unwrap();
        let params = LinearRegressionClassifier::default();
        let by_class = params
            .clone()
            .class_weight("-1:1000".parse().unwrap())
            .fit(&data)
            .unwrap();
        let weights = copies.iter().map(|&k| k as f64).collect();
        let by_weight = params
            .fit(&data.clone().with_weights(weights).unwrap())
            .unwrap();
        let rows: Vec<usize> = (0..8)
            .flat_map(|i| std::iter::repeat_n(i, copies[i]))
            .collect();
        let by_copies = params.fit(&data.select_rows(&rows)).unwrap();
        let what = if sparse { "sparse" } else { "dense" };
        let tol = if sparse { 1e-7 } else { 1e-10 };
        let w = params_of(&by_class);
        assert_rel(&w, &params_of(&by_weight), tol, what);
        assert_rel(&w, &params_of(&by_copies), tol, what);
        // the cost moved the line: the unweighted fit is far from it
        let plain = params_of(&params.fit(&data).unwrap());
        let gap = w
            .iter()
            .zip(&plain)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(gap > 1e-2, "{what}: class weights ignored ({gap})");
        // balanced is N / (2 n_k): on the first 7 rows (4 of -1, 3 of +1), 7/8 and 7/6
        let balanced = params
            .clone()
            .class_weight(ClassWeight::Balanced)
            .fit(&data.select_rows(&[0, 1, 2, 3, 4, 5, 6]))
            .unwrap();
        let given = params
            .clone()
            .class_weight(ClassWeight::Given(vec![
                (Label::Int(-1), 7.0 / 8.0),
                (Label::Int(1), 7.0 / 6.0),
            ]))
            .fit(&data.select_rows(&[0, 1, 2, 3, 4, 5, 6]))
            .unwrap();
        assert_rel(&params_of(&balanced), &params_of(&given), 1e-7, what);
    }
}

#[test]
fn the_classifier_kind_takes_class_weight_by_name() {
    let mut p = Learner::from_kind("linear-regression-classifier").unwrap();
    p.set_param("class_weight", "spam:5").unwrap();
    p.set_param("method", "qr").unwrap();
    let values = p.param_values();
    assert!(values.contains(&("class_weight".into(), "spam:5".into())));
    assert!(values.contains(&("method".into(), "qr".into())));
    let e = p.set_param("alpha", "1").unwrap_err().to_string();
    assert!(
        e.contains("linear-regression-classifier") && e.contains("class_weight"),
        "{e}"
    );
    assert!(p.set_param("class_weight", "spam").is_err());
    // the regressor kind has no class weights
    let mut r = Learner::from_kind("linear-regression").unwrap();
    assert!(r.set_param("class_weight", "spam:5").is_err());
}

#[test]
fn bad_input_is_a_clear_error() {
    let x = Features::from(ndarray::array![[1.0], [2.0]]);
    let y = ndarray::array![[1.0], [2.0]];
    assert!(LinearRegression::new()
        .fit_xy(&x, ndarray::array![[1.0]].view(), None)
        .is_err());
    let e = LinearRegression::new()
        .fit_xy(&x, ndarray::array![[1.0], [f64::NAN]].view(), None)
        .unwrap_err();
    assert!(e.to_string().contains('y'), "{e}");
    assert!(LinearRegression::new()
        .fit_xy(&x, y.view(), Some(&[1.0]))
        .is_err());
    assert!(LinearRegression::new()
        .fit_xy(&x, y.view(), Some(&[0.0, 0.0]))
        .is_err());
    assert!(Ridge::new().alpha(-1.0).fit_xy(&x, y.view(), None).is_err());
    assert!(LinearRegression::new()
        .rcond(Some(f64::NAN))
        .fit_xy(&x, y.view(), None)
        .is_err());
}

/// `X^T c r = 0` for every column (and `sum c r = 0` with an intercept).
fn assert_normal_equations(
    x: &Array2<f64>,
    y: &Array2<f64>,
    c: &[f64],
    m: &LinearRegressionModel,
    with_b: bool,
) {
    let r = y - &m.predict(&Features::from(x.clone())).unwrap();
    let scale = x.iter().map(|v| v.abs()).fold(1.0, f64::max)
        * y.iter().map(|v| v.abs()).fold(1.0, f64::max)
        * x.nrows() as f64;
    for col in x.columns() {
        let g: f64 = col
            .iter()
            .zip(r.column(0))
            .zip(c)
            .map(|((a, b), w)| a * b * w)
            .sum();
        assert!(g.abs() <= 1e-9 * scale, "X^T r = {g}");
    }
    if with_b {
        let s: f64 = r.column(0).iter().zip(c).map(|(a, w)| a * w).sum();
        assert!(s.abs() <= 1e-9 * scale, "sum r = {s}");
    }
}

fn problem() -> impl Strategy<Value = (Array2<f64>, Array2<f64>, Vec<u32>)> {
    (3usize..20, 1usize..5).prop_flat_map(|(n, p)| {
        (
            proptest::collection::vec(-5.0f64..5.0, n * p),
            proptest::collection::vec(-5.0f64..5.0, n),
            proptest::collection::vec(1u32..4, n),
        )
            .prop_map(move |(x, y, w)| {
                (
                    Array2::from_shape_vec((n, p), x).unwrap(),
                    Array2::from_shape_vec((n, 1), y).unwrap(),
                    w,
                )
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn residuals_are_orthogonal_to_the_columns((x, y, w) in problem(), with_b in any::<bool>()) {
        let c: Vec<f64> = w.iter().map(|&v| v as f64).collect();
        let m = LinearRegression::new().fit_intercept(with_b).fit_xy(&Features::from(x.clone()), y.view(), Some(&c)).unwrap();
        assert_normal_equations(&x, &y, &c, &m, with_b);
    }

    #[test]
    fn integer_weights_equal_repeated_rows((x, y, w) in problem(), alpha in prop_oneof![Just(0.0), 0.1f64..3.0]) {
        let c: Vec<f64> = w.iter().map(|&v| v as f64).collect();
        let rows: Vec<usize> = w.iter().enumerate().flat_map(|(i, &k)| std::iter::repeat_n(i, k as usize)).collect();
        let (xr, yr) = (x.select(Axis(0), &rows), y.select(Axis(0), &rows));
        let fit = |x: &Array2<f64>, y: &Array2<f64>, c: Option<&[f64]>| {
            Ridge::new().alpha(alpha).fit_xy(&Features::from(x.clone()), y.view(), c).unwrap()
        };
        let (a, b) = (fit(&x, &y, Some(&c)), fit(&xr, &yr, None));
        // compare predictions: with a rank-deficient design the weights are the same
        // minimum-norm solution, and predictions are well conditioned either way
        let (pa, pb) = (a.predict(&Features::from(x.clone())).unwrap(), b.predict(&Features::from(x.clone())).unwrap());
        for (u, v) in pa.iter().zip(pb.iter()) {
            prop_assert!((u - v).abs() <= 1e-8 * (1.0 + v.abs()), "{u} vs {v}");
        }
    }

    #[test]
    fn sparse_and_dense_agree((x, y, w) in problem(), alpha in prop_oneof![Just(0.0), 0.1f64..3.0]) {
        let x = x.mapv(|v| if v.abs() < 2.0 { 0.0 } else { v });
        let c: Vec<f64> = w.iter().map(|&v| v as f64).collect();
        let p = Ridge::new().alpha(alpha).tol(1e-14).max_iter(Some(5000));
        let dense = p.fit_xy(&Features::from(x.clone()), y.view(), Some(&c)).unwrap();
        let sparse = p.fit_xy(&Features::Sparse(CsrMatrix::from_dense(x.view())), y.view(), Some(&c)).unwrap();
        let (pa, pb) = (dense.predict(&Features::from(x.clone())).unwrap(), sparse.predict(&Features::from(x.clone())).unwrap());
        for (u, v) in pa.iter().zip(pb.iter()) {
            prop_assert!((u - v).abs() <= 1e-7 * (1.0 + v.abs()), "{u} vs {v}");
        }
    }
}

#[test]
fn model_round_trips_through_serde() {
    let (x, y) = diabetes();
    let m = Ridge::new()
        .alpha(0.5)
        .fit_xy(&Features::from(x), y.view(), None)
        .unwrap();
    let back: LinearRegressionModel =
        serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
    assert_eq!(back, m);
}
