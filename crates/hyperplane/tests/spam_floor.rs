//! Accuracy floor on real data: the text pipeline of `hyperplane demo` on the built-in
//! SpamAssassin corpus. scikit-learn's CountVectorizer + MultinomialNB defaults reach 96.4% on an 80/20
//! split of this corpus; ours must reach at least 97.5%.

use hyperplane::data::labels;
use hyperplane::data::split::train_test_split;
use hyperplane::datasets;
use hyperplane::pipeline::{PipelineSpec, Validation};
use hyperplane::select::ParamGrid;

#[test]
fn validated_text_pipeline_beats_the_floor_on_spamassassin() {
    let data = datasets::spamassassin().unwrap().into_input("spamassassin");
    let (_, codes) = labels::encode(data.labels.as_ref().unwrap());
    let (train_rows, test_rows) = train_test_split(codes.len(), 0.2, Some(&codes), 0).unwrap();
    let (train, test) = (data.select_rows(&train_rows), data.select_rows(&test_rows));

    // What `hyperplane demo` does: the multinomial-nb text pipeline, with token counts or
    // presence and the smoothing strength chosen on a validation split of the training
    // messages only.
    let spec = PipelineSpec::new("multinomial-nb").unwrap();
    let grid = ParamGrid::parse(&["binary=false,true", "alpha=0.01,0.03,0.1,0.3,1"]).unwrap();
    let tuning = spec
        .tune(&train, &grid, Validation::Holdout(0.25), 0)
        .unwrap();
    let model = tuning.best_spec(&spec).unwrap().fit(&train).unwrap();
    let accuracy = model.evaluate(&test).unwrap().accuracy;
    assert!(accuracy >= 0.975, "test accuracy {accuracy:.4} < 0.975");
}
