//! The learning curve of a pipeline: [`select::learning_curve`](crate::select::learning_curve)
//! with the whole pipeline fitted on each training subset and scored by 0/1 error,
//! `(1 / |S|) sum_{i in S} [h(x_i) != y_i]`, on those rows (`E_in`) and on the fold's test
//! rows (`E_out`).

use crate::data::{labels, LabelledInput};
use crate::error::Result;
use crate::metrics::zero_one_error;
use crate::select::{self, LearningCurve, TrainSizes};

use super::PipelineSpec;

impl PipelineSpec {
    /// The learning curve of this pipeline on `data` over `folds` stratified folds (see
    /// [`select::learning_curve`]); every fit and score runs in parallel over (size, fold)
    /// and the result does not depend on scheduling.
    ///
    /// Errors: unlabelled data, those of [`select::learning_curve`], and any error of
    /// fitting or predicting (the first in (size, fold) order).
    pub fn learning_curve(
        &self,
        data: &LabelledInput,
        sizes: &TrainSizes,
        folds: usize,
        seed: u64,
    ) -> Result<LearningCurve> {
        let y = data.require_labels("a learning curve needs them")?;
        let (classes, codes) = labels::encode(y);
        select::learning_curve(&codes, sizes, folds, seed, |train_rows, test_rows| {
            let train = data.select_rows(train_rows);
            let test = data.select_rows(test_rows);
            let fitted = self.fit(&train)?;
            let error = |part: &LabelledInput, rows: &[usize]| {
                let predicted = labels::encode_with(&classes, &fitted.predict(&part.input)?)?;
                let truth: Vec<usize> = rows.iter().map(|&i| codes[i]).collect();
                zero_one_error(&truth, &predicted, None)
            };
            Ok((error(&train, train_rows)?, error(&test, test_rows)?))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::read::{read, ReadOptions};
    use std::path::Path;

    fn digits() -> LabelledInput {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/digits.csv");
        read(&path, &ReadOptions::default()).unwrap()
    }

    #[test]
    fn gaussian_nb_on_digits_generalises_as_expected() {
        let data = digits();
        let spec = PipelineSpec::new("gaussian-nb").unwrap();
        let sizes = TrainSizes::Rows(vec![400, 30, 100]);
        let curve = spec.learning_curve(&data, &sizes, 3, 0).unwrap();
        assert_eq!(curve.sizes, vec![30, 100, 400]);
        assert_eq!(curve.folds, 3);
        let last = curve.sizes.len() - 1;
        assert!(curve.e_out_mean[last] >= curve.e_in_mean[last], "{curve:?}");
        for v in curve.rows().iter().flat_map(|r| r[1..].to_vec()) {
            assert!((0.0..=1.0).contains(&v), "{curve:?}");
        }
        // Deterministic whatever the scheduling, and the seed matters.
        assert_eq!(curve, spec.learning_curve(&data, &sizes, 3, 0).unwrap());
        assert_ne!(curve, spec.learning_curve(&data, &sizes, 3, 1).unwrap());
    }

    #[test]
    fn unlabelled_data_is_a_clear_error() {
        let spec = PipelineSpec::new("gaussian-nb").unwrap();
        let unlabelled = LabelledInput {
            labels: None,
            ..digits()
        };
        let e = spec
            .learning_curve(&unlabelled, &TrainSizes::Steps(2), 3, 0)
            .unwrap_err();
        assert!(e.to_string().contains("no labels"), "{e}");
    }
}
