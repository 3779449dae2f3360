//! A labelled data set: features, targets (encoded classes, or real values for a
//! regressor), optional sample weights and names.

use std::sync::{Arc, OnceLock};

use ndarray::{Array2, ArrayView2};

use crate::data::features::Features;
use crate::data::labels::{self, Label};
use crate::error::{Error, Result};

/// Features with one target per row: a class label, encoded once, or (for regressors,
/// [`Dataset::regression`]) one or more real values.
///
/// The features are owned (`Dataset<'static>`, as readers make them) or borrowed from the
/// caller for `'a` ([`Features`] over an `ArrayView2` or a [`CsrView`](crate::data::CsrView)):
/// fitting reads them in place. Targets, weights and names are always owned (`O(rows)`).
/// The lifetime is invariant (ndarray's views are), so owned and borrowed data sets do not
/// mix in one collection; functions take `&Dataset` and accept either.
///
/// ```
/// use hyperplane::data::{Dataset, Label};
/// use ndarray::array;
/// let ds = Dataset::new(array![[1.0, 0.0], [0.0, 1.0]].into(), &["ham".into(), "spam".into()]).unwrap();
/// assert_eq!(ds.classes(), &[Label::from("ham"), Label::from("spam")]);
/// assert_eq!(ds.targets(), &[0, 1]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset<'a> {
    x: Arc<SharedFeatures<'a>>,
    targets: Vec<usize>,
    classes: Vec<Label>,
    /// Real-valued targets, `n x outputs` (a regression data set, whose `targets` and
    /// `classes` are empty).
    values: Option<Arc<Array2<f64>>>,
    weights: Option<Vec<f64>>,
    feature_names: Option<Vec<String>>,
}

/// Features shared by the data sets over the same rows (the multiclass sub-problems), with
/// whether every value was found finite: scanned once, however many learners fit them, or
/// never when a reader has already rejected non-finite values.
#[derive(Debug)]
struct SharedFeatures<'a> {
    x: Features<'a>,
    finite: OnceLock<()>,
}

impl<'a> SharedFeatures<'a> {
    fn new(x: Features<'a>) -> Arc<Self> {
        Arc::new(SharedFeatures {
            x,
            finite: OnceLock::new(),
        })
    }
}

impl PartialEq for SharedFeatures<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.x == other.x
    }
}

impl<'a> Dataset<'a> {
    /// Features and one label per row; the labels are sorted into classes and encoded.
    pub fn new(x: Features<'a>, y: &[Label]) -> Result<Self> {
        check_len("y", y.len(), x.n_rows())?;
        let (classes, targets) = labels::encode(y);
        Ok(Dataset {
            x: SharedFeatures::new(x),
            targets,
            classes,
            values: None,
            weights: None,
            feature_names: None,
        })
    }

    /// Features with targets already encoded against `classes` (every target < classes.len()).
    pub fn from_encoded(x: Features<'a>, targets: Vec<usize>, classes: Vec<Label>) -> Result<Self> {
        check_len("y", targets.len(), x.n_rows())?;
        check_targets(&targets, &classes)?;
        Ok(Dataset {
            x: SharedFeatures::new(x),
            targets,
            classes,
            values: None,
            weights: None,
            feature_names: None,
        })
    }

    /// Features with real-valued targets `y` (`n x outputs`), for a regressor; NaN or
    /// infinite targets are rejected.
    pub fn regression(x: Features<'a>, y: Array2<f64>) -> Result<Self> {
        check_len("y", y.nrows(), x.n_rows())?;
        check_values(y.view())?;
        Ok(Dataset {
            x: SharedFeatures::new(x),
            targets: Vec::new(),
            classes: Vec::new(),
            values: Some(Arc::new(y)),
            weights: None,
            feature_names: None,
        })
    }

    /// The same features (shared, not copied) with real-valued targets `y` instead of
    /// classes. Sample weights and feature names are kept.
    pub fn with_values(&self, y: Array2<f64>) -> Result<Self> {
        check_len("y", y.nrows(), self.x().n_rows())?;
        check_values(y.view())?;
        Ok(Dataset {
            x: Arc::clone(&self.x),
            targets: Vec::new(),
            classes: Vec::new(),
            values: Some(Arc::new(y)),
            weights: self.weights.clone(),
            feature_names: self.feature_names.clone(),
        })
    }

    /// Features and floating-point labels; NaN or infinite labels are rejected.
    pub fn from_f64_labels(x: Features<'a>, y: &[f64]) -> Result<Self> {
        let labels = y
            .iter()
            .enumerate()
            .map(|(i, &v)| Label::from_f64(v, i))
            .collect::<Result<Vec<_>>>()?;
        Dataset::new(x, &labels)
    }

    /// The same features (shared, not copied) with other targets: the sub-problems of the
    /// multiclass reductions. Sample weights and feature names are kept.
    pub fn with_targets(&self, targets: Vec<usize>, classes: Vec<Label>) -> Result<Self> {
        check_len("y", targets.len(), self.x().n_rows())?;
        check_targets(&targets, &classes)?;
        Ok(Dataset {
            x: Arc::clone(&self.x),
            targets,
            classes,
            values: None,
            weights: self.weights.clone(),
            feature_names: self.feature_names.clone(),
        })
    }

    /// Attaches one non-negative, finite weight per row.
    pub fn with_weights(mut self, weights: Vec<f64>) -> Result<Self> {
        check_len("sample weights", weights.len(), self.x().n_rows())?;
        if let Some((row, &w)) = weights
            .iter()
            .enumerate()
            .find(|(_, w)| !w.is_finite() || **w < 0.0)
        {
            return Err(Error::data(format!(
                "sample weight {w} at row {} must be finite and non-negative",
                row + 1
            )));
        }
        self.weights = Some(weights);
        Ok(self)
    }

    /// Attaches one name per feature column.
    pub fn with_feature_names(mut self, names: Vec<String>) -> Result<Self> {
        check_len("feature names", names.len(), self.x().n_cols())?;
        self.feature_names = Some(names);
        Ok(self)
    }

    /// The feature matrix.
    pub fn x(&self) -> &Features<'a> {
        &self.x.x
    }
    /// The real-valued targets (`n x outputs`) of a regression data set; `None` when the
    /// targets are classes.
    pub fn values(&self) -> Option<ArrayView2<'_, f64>> {
        self.values.as_deref().map(|y| y.view())
    }
    /// Class index of each row (empty for a regression data set).
    pub fn targets(&self) -> &[usize] {
        &self.targets
    }
    /// The sorted classes (empty for a regression data set).
    pub fn classes(&self) -> &[Label] {
        &self.classes
    }
    /// Sample weights, when given.
    pub fn weights(&self) -> Option<&[f64]> {
        self.weights.as_deref()
    }
    /// Weight of row `i` (1 when no weights were given).
    #[inline]
    pub fn weight(&self, i: usize) -> f64 {
        self.weights.as_ref().map_or(1.0, |w| w[i])
    }
    /// Feature names, when known.
    pub fn feature_names(&self) -> Option<&[String]> {
        self.feature_names.as_deref()
    }
    /// Number of rows.
    pub fn n_samples(&self) -> usize {
        self.x().n_rows()
    }
    /// Number of feature columns.
    pub fn n_features(&self) -> usize {
        self.x().n_cols()
    }
    /// The label of each row.
    pub fn labels(&self) -> Vec<Label> {
        self.targets
            .iter()
            .map(|&t| self.classes[t].clone())
            .collect()
    }

    /// The rows `rows` as a new data set with the same class list (so codes stay comparable).
    pub fn select_rows(&self, rows: &[usize]) -> Dataset<'static> {
        let x = SharedFeatures::new(self.x.x.select_rows(rows));
        if self.x.finite.get().is_some() {
            let _ = x.finite.set(());
        }
        Dataset {
            x,
            targets: if self.values.is_some() {
                Vec::new()
            } else {
                rows.iter().map(|&i| self.targets[i]).collect()
            },
            classes: self.classes.clone(),
            values: self
                .values
                .as_ref()
                .map(|y| Arc::new(y.select(ndarray::Axis(0), rows))),
            weights: self
                .weights
                .as_ref()
                .map(|w| rows.iter().map(|&i| w[i]).collect()),
            feature_names: self.feature_names.clone(),
        }
    }

    /// Checks what every classifier needs: class targets, rows, columns, finite values
    /// (scanned for at the first check of these features only).
    pub fn check_fit(&self) -> Result<()> {
        self.require_classes()?;
        self.check_features()
    }

    /// An error unless the targets are classes (a classifier cannot fit real values).
    pub fn require_classes(&self) -> Result<()> {
        match self.values {
            Some(_) => Err(Error::data(
                "the targets are real values, not classes: fit a regressor (linear-regression, ridge)",
            )),
            None => Ok(()),
        }
    }

    /// The real-valued targets a regressor fits, or an error saying the targets are classes.
    pub fn require_values(&self) -> Result<ArrayView2<'_, f64>> {
        self.values().ok_or_else(|| {
            Error::data(
                "the targets are classes, not real values: a regressor needs Dataset::regression",
            )
        })
    }

    fn check_features(&self) -> Result<()> {
        self.x.x.check_fit_shape()?;
        if self.x.finite.get().is_none() {
            self.x.x.check_finite("X")?;
            let _ = self.x.finite.set(());
        }
        Ok(())
    }

    /// Records that every value of X is finite, as a reader that rejects the others knows.
    pub(crate) fn known_finite(self) -> Self {
        let _ = self.x.finite.set(());
        self
    }
}

fn check_targets(targets: &[usize], classes: &[Label]) -> Result<()> {
    match targets
        .iter()
        .enumerate()
        .find(|(_, &t)| t >= classes.len())
    {
        Some((row, t)) => Err(Error::data(format!(
            "target {t} at row {} is not an index into the {} classes",
            row + 1,
            classes.len()
        ))),
        None => Ok(()),
    }
}

fn check_values(y: ArrayView2<f64>) -> Result<()> {
    match y.indexed_iter().find(|(_, v)| !v.is_finite()) {
        Some(((row, output), v)) => Err(Error::data(format!(
            "target {v} at row {}, output {output}, must be finite",
            row + 1
        ))),
        None => Ok(()),
    }
}

fn check_len(what: &str, got: usize, rows: usize) -> Result<()> {
    if got != rows {
        return Err(Error::data(format!(
            "{what} has {got} entries but X has {rows} rows"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn lengths_and_weights_are_checked() {
        let x: Features = array![[1.0], [2.0]].into();
        assert!(Dataset::new(x.clone(), &[Label::Int(1)]).is_err());
        let ds = Dataset::new(x.clone(), &[Label::Int(1), Label::Int(-1)]).unwrap();
        assert!(ds.clone().with_weights(vec![1.0, -1.0]).is_err());
        assert!(ds.clone().with_weights(vec![1.0, f64::NAN]).is_err());
        assert_eq!(ds.labels(), vec![Label::Int(1), Label::Int(-1)]);
        assert!(Dataset::from_f64_labels(x, &[1.0, f64::INFINITY]).is_err());
    }

    #[test]
    fn regression_targets_are_checked_kept_and_not_classes() {
        let x: Features = array![[1.0], [2.0], [3.0]].into();
        assert!(Dataset::regression(x.clone(), array![[1.0], [2.0]]).is_err());
        let e = Dataset::regression(x.clone(), array![[1.0], [f64::NAN], [0.0]]).unwrap_err();
        assert!(e.to_string().contains("row 2"), "{e}");
        let ds = Dataset::regression(x.clone(), array![[1.0, 0.5], [2.0, 0.0], [3.0, 1.0]])
            .unwrap()
            .with_weights(vec![1.0, 2.0, 3.0])
            .unwrap();
        assert_eq!(
            ds.require_values().unwrap(),
            array![[1.0, 0.5], [2.0, 0.0], [3.0, 1.0]]
        );
        assert!(ds
            .check_fit()
            .unwrap_err()
            .to_string()
            .contains("regressor"));
        let sub = ds.select_rows(&[2, 0]);
        assert_eq!(sub.values().unwrap(), array![[3.0, 1.0], [1.0, 0.5]]);
        assert_eq!(sub.weights(), Some(&[3.0, 1.0][..]));
        assert!(sub.targets().is_empty() && sub.classes().is_empty());
        let classes = Dataset::new(x, &[1.into(), 2.into(), 1.into()]).unwrap();
        assert!(classes.require_values().is_err());
        let both = classes.with_values(array![[0.0], [1.0], [0.0]]).unwrap();
        assert!(both.classes().is_empty());
        both.require_values().unwrap();
    }

    #[test]
    fn select_rows_keeps_classes() {
        let x: Features = array![[1.0], [2.0], [3.0]].into();
        let ds = Dataset::new(x, &["a".into(), "b".into(), "c".into()]).unwrap();
        let sub = ds.select_rows(&[2]);
        assert_eq!(sub.classes().len(), 3);
        assert_eq!(sub.targets(), &[2]);
    }

    #[test]
    fn non_finite_values_fail_every_check_and_finite_ones_are_scanned_once() {
        let labels = [Label::Int(0), Label::Int(1)];
        let bad = Dataset::new(array![[1.0, 2.0], [f64::NAN, 0.0]].into(), &labels).unwrap();
        for _ in 0..2 {
            let e = bad.check_fit().unwrap_err().to_string();
            assert!(e.contains("row 2") && e.contains("feature 0"), "{e}");
        }
        let shared = bad.with_targets(vec![1, 0], labels.to_vec()).unwrap();
        assert!(shared.check_fit().is_err());
        assert!(bad.select_rows(&[1]).check_fit().is_err());

        let good = Dataset::new(array![[1.0, 2.0], [3.0, 0.0]].into(), &labels).unwrap();
        assert!(good.x.finite.get().is_none());
        good.check_fit().unwrap();
        assert!(good.x.finite.get().is_some());
        // shared features and subsets of checked ones need no second scan
        let sub = good.with_targets(vec![1, 0], labels.to_vec()).unwrap();
        assert!(sub.x.finite.get().is_some());
        assert!(good.select_rows(&[0]).x.finite.get().is_some());
        // the shape is checked every time
        let empty = good.select_rows(&[]);
        assert!(empty.check_fit().is_err());
    }
}
