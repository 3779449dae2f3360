//! The model-file loader (`Pipeline::load_any_bytes`: our JSON envelope and body, or a
//! LIBSVM model file) on any bytes. A file it accepts must then be usable: `inspect`'s
//! summary, the feature names (of a width up to 65,536), and predictions on two rows of the input it takes (a
//! sparse matrix of its width, two documents, or a CSV table with its columns) give
//! results or errors, never a panic.
#![no_main]

use std::path::Path;

use hyperplane::data::csv;
use hyperplane::data::read::{LabelColumn, ReadOptions};
use hyperplane::data::{CsrMatrix, Features, RawInput};
use hyperplane::pipeline::{InputStage, Pipeline};
use libfuzzer_sys::fuzz_target;

/// Two rows of the input `pipeline` takes.
fn input(pipeline: &Pipeline) -> Option<RawInput> {
    Some(match pipeline.input_stage() {
        InputStage::Matrix { n_features } => {
            let n = *n_features;
            let row = |v: f64| {
                if n == 0 {
                    Vec::new()
                } else {
                    vec![(0, v), (n - 1, -v)]
                }
            };
            let rows = [row(1.0), row(0.5)];
            RawInput::Matrix(Features::Sparse(CsrMatrix::from_rows(n, &rows).ok()?))
        }
        InputStage::Text(_) => RawInput::Text(vec![
            "free money now".into(),
            "the meeting is at noon".into(),
        ]),
        InputStage::Table(encoder) => {
            let names = encoder.column_names();
            let quoted: Vec<String> = names
                .iter()
                .map(|n| format!("\"{}\"", n.replace('"', "\"\"")))
                .collect();
            let ones = vec!["1"; names.len()];
            let text = format!(
                "{}\n{}\n{}\n",
                quoted.join(","),
                ones.join(","),
                ones.join(",")
            );
            let opts = ReadOptions {
                delimiter: Some(b','),
                header: Some(true),
                label: LabelColumn::None,
                ..ReadOptions::default()
            };
            let (table, _) = csv::parse(text.as_bytes(), Path::new("rows.csv"), &opts).ok()?;
            RawInput::Table(table)
        }
    })
}

fuzz_target!(|data: &[u8]| {
    hyperplane_fuzz::init();
    let Ok(pipeline) = Pipeline::load_any_bytes(data, Path::new("fuzz.json")) else {
        return;
    };
    let _ = pipeline.summary(3);
    // every name of the width, which a LIBSVM index or hashing can make billions
    if pipeline.model_n_features() <= 1 << 16 {
        let _ = pipeline.feature_names();
    }
    let _ = pipeline.top_features(3);
    if let Some(raw) = input(&pipeline) {
        if pipeline.is_regressor() {
            let _ = pipeline.predict_values(&raw);
        } else {
            let _ = pipeline.predict(&raw);
            let _ = pipeline.predict_proba(&raw);
        }
    }
});
