//! One tokenizing pass: `fit_transform` builds the vocabulary and the matrix that `fit`
//! then `transform` build, and `PipelineSpec::fit_scored` the model and the training score
//! that `fit` then `evaluate` give, on real mail read from class folders.

use std::path::Path;

use hyperplane::data::read::{read, ReadOptions};
use hyperplane::data::{Label, LabelledInput};
use hyperplane::datasets;
use hyperplane::pipeline::{PipelineSpec, TrainingScore};
use hyperplane::text::{
    CountVectorizer, DocFreq, DocumentFiles, HashingVectorizer, Tokenizer, Vectorizer,
};

/// Every 10th message of the built-in SpamAssassin corpus (605 messages, both classes).
fn sample() -> (Vec<String>, Vec<Label>) {
    let corpus = datasets::spamassassin().unwrap();
    let docs = corpus.docs.into_iter().step_by(10).collect();
    let labels = corpus.labels.into_iter().step_by(10).collect();
    (docs, labels)
}

/// The messages as files in one folder per class; returns the files in reading order.
fn write_folders(dir: &Path, docs: &[String], labels: &[Label]) -> LabelledInput {
    for (i, (d, l)) in docs.iter().zip(labels).enumerate() {
        let class = dir.join(l.to_string());
        std::fs::create_dir_all(&class).unwrap();
        std::fs::write(class.join(format!("{i:05}.txt")), d).unwrap();
    }
    read(dir, &ReadOptions::default()).unwrap()
}

#[test]
fn fit_transform_is_fit_then_transform_on_mail() {
    let (docs, labels) = sample();
    let dir = tempfile::tempdir().unwrap();
    let data = write_folders(dir.path(), &docs, &labels);
    let hyperplane::data::RawInput::Files(files) = &data.input else {
        panic!("class folders are read as files");
    };
    let count = CountVectorizer::new();
    let vectorizers = [
        Vectorizer::Count(count.clone()),
        Vectorizer::Count(count.clone().binary(true)),
        Vectorizer::Count(
            count
                .clone()
                .min_df(DocFreq::Count(2))
                .max_df(DocFreq::Fraction(0.5))
                .max_features(Some(5000))
                .tokenizer(Tokenizer::new().ngram_range(1, 2)),
        ),
        Vectorizer::tfidf(),
        Vectorizer::Hashing(HashingVectorizer::new().n_features(1 << 12)),
    ];
    for v in vectorizers {
        let source = DocumentFiles(files);
        let (fitted, x) = v.fit_transform(&source).unwrap();
        let separate = v.fit(&source).unwrap();
        assert_eq!(separate, fitted, "{}: the same vocabulary", v.kind());
        let y = separate.transform(&source).unwrap();
        // the same rows, columns and value bits
        assert_eq!(y.indptr(), x.indptr(), "{}", v.kind());
        assert_eq!(y.indices(), x.indices(), "{}", v.kind());
        let bits = |m: &hyperplane::data::CsrMatrix| -> Vec<u64> {
            m.data().iter().map(|v| v.to_bits()).collect()
        };
        assert_eq!(bits(&y), bits(&x), "{}", v.kind());
        assert!(x.nnz() > 10_000, "{}: {} non-zeros", v.kind(), x.nnz());
    }
}

#[test]
fn fit_scored_is_fit_then_evaluate_on_class_folders() {
    let (docs, labels) = sample();
    let dir = tempfile::tempdir().unwrap();
    let data = write_folders(dir.path(), &docs, &labels);
    for (kind, params) in [
        ("multinomial-nb", vec![]),
        ("multinomial-nb", vec![("binary", "true"), ("alpha", "0.1")]),
        ("bernoulli-nb", vec![]),
        ("complement-nb", vec![("vectorizer", "tfidf")]),
        ("logistic-regression", vec![]),
    ] {
        let mut spec = PipelineSpec::new(kind).unwrap();
        spec.set_params(&params).unwrap();
        let (scored, score) = spec.fit_scored(data.clone()).unwrap();
        let fitted = spec.fit(&data).unwrap();
        assert_eq!(
            serde_json::to_string(&scored).unwrap(),
            serde_json::to_string(&fitted).unwrap(),
            "{kind} {params:?}: the same model bits"
        );
        let accuracy = fitted.evaluate(&data).unwrap().accuracy;
        assert_eq!(
            score,
            TrainingScore::Accuracy(accuracy),
            "{kind} {params:?}"
        );
    }
}

#[test]
fn the_training_score_by_blocks_of_rows_is_evaluate_on_the_training_data() {
    use hyperplane::data::{CsrMatrix, Features, RawInput};
    use ndarray::Array2;
    // wide sparse rows (scored 64 rows at a time: five blocks) and many dense ones (4,096
    // at a time: two blocks)
    let sparse = CsrMatrix::from_rows(
        2000,
        &(0..300)
            .map(|i| {
                (0..1000)
                    .map(|k| ((i * 7 + k * 2) % 2000, ((i + k) % 5) as f64))
                    .collect()
            })
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let labels = |n: usize| (0..n).map(|i| Label::from((i % 3 % 2) as i64)).collect();
    let dense = Array2::from_shape_fn((5000, 3), |(i, j)| ((i * (j + 3)) % 11) as f64);
    for (x, kinds) in [
        (
            Features::Sparse(sparse),
            ["multinomial-nb", "logistic-regression"],
        ),
        (
            Features::from(dense),
            ["gaussian-nb", "logistic-regression"],
        ),
    ] {
        let data = LabelledInput {
            labels: Some(labels(x.n_rows())),
            input: RawInput::Matrix(x),
            source: "matrix".into(),
        };
        for kind in kinds {
            let spec = PipelineSpec::new(kind).unwrap();
            let (fitted, score) = spec.fit_scored(data.clone()).unwrap();
            let accuracy = fitted.evaluate(&data).unwrap().accuracy;
            assert_eq!(score, TrainingScore::Accuracy(accuracy), "{kind}");
            assert!(accuracy > 0.6, "{kind}: {accuracy}");
        }
    }
}
