//! One decision rule on every path: `evaluate` scores the classes `predict` gives, also
//! where a kernel SVM's pairs tie in their votes and its scores (votes plus bounded
//! confidences) would pick another class.

use hyperplane::data::{LabelledInput, RawInput};
use hyperplane::pipeline::PipelineSpec;
use hyperplane::{Classifier, Features};

use crate::common;

#[test]
fn evaluate_counts_the_classes_predict_gives_on_tied_votes() {
    // ten classes, a small C: many rows whose pairs split their votes evenly
    let digits = common::csv("digits.csv", 0);
    let rows: Vec<usize> = (0..digits.n_samples()).step_by(3).collect();
    let digits = digits.select_rows(&rows);
    let labels = digits.labels();
    let x = Features::from(digits.x().to_dense());
    let mut tied_rows = 0;
    for c in ["0.001", "0.01", "0.1"] {
        let mut spec = PipelineSpec::new("svc").unwrap();
        spec.set_params(&[("c", c), ("gamma", "0.002")]).unwrap();
        let data = LabelledInput {
            input: RawInput::Matrix(x.clone()),
            labels: Some(labels.clone()),
            source: "digits".into(),
        };
        let pipeline = spec.fit(&data).unwrap();
        let predicted = pipeline.predict(&data.input).unwrap();
        let right = predicted
            .iter()
            .zip(&labels)
            .filter(|(p, t)| p == t)
            .count();
        let evaluation = pipeline.evaluate(&data).unwrap();
        assert_eq!(
            evaluation.accuracy,
            right as f64 / labels.len() as f64,
            "c={c}: evaluate and predict disagree"
        );
        // rows where the largest score is not the vote: the case this test is about
        let model = pipeline.model();
        let scores = model.decision_function(&x).unwrap();
        let votes = model.predict_index(&x).unwrap();
        tied_rows += scores
            .rows()
            .into_iter()
            .zip(&votes)
            .filter(|(r, &v)| r.iter().any(|&s| s > r[v]))
            .count();
    }
    assert!(tied_rows > 0, "no row where the scores and the vote differ");
}
