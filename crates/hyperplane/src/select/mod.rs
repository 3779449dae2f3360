//! Model selection: cross-validation, grid search and learning curves, independent of any
//! model.
//!
//! The first two take folds of row indices (from [`crate::data::split`]) and a *score
//! closure* `score(train, test)` (grid search: `score(params, train, test)`) that fits
//! whatever it likes on the training rows and returns a score on the test rows, higher
//! being better (an accuracy, or a negated loss such as `-log_loss`); [`learning_curve`]
//! takes an error closure `errors(train, test)` over row indices in the same way. This
//! module never sees a model, so it serves every family, any input (tables, documents,
//! matrices) and pipelines alike.
//!
//! ## Formulas
//!
//! For a candidate with fold scores `s_1 .. s_k`:
//!
//! | quantity | formula |
//! |---|---|
//! | mean | `(1 / k) sum_f s_f` |
//! | std | `sqrt((1 / k) sum_f (s_f - mean)^2)` (population, as scikit-learn's `std_test_score`) |
//! | rank | `1 + #{candidates with a strictly higher mean}` (scikit-learn's `rank_test_score`) |
//! | best | the first candidate of rank 1 |
//!
//! ## Parallelism and errors
//!
//! The (candidate, fold) pairs are evaluated in parallel with rayon; scores are gathered
//! in candidate and fold order, so results do not depend on scheduling. An error is never
//! swallowed: the first error in (candidate, fold) order is returned, and a NaN or
//! infinite score is an error naming its candidate and fold.
//!
//! ## For scikit-learn users
//!
//! | scikit-learn | hyperplane |
//! |---|---|
//! | `cross_val_score(est, X, y, cv=KFold(5))` | [`cross_val_score`]`(&KFold::default().folds(n)?, \|train, test\| ...)` |
//! | `GridSearchCV(est, {"alpha": [0.1, 1]}, cv=cv).fit(X, y)` | [`grid_search`]`(&ParamGrid::parse(&["alpha=0.1,1"])?.candidates(), &folds, \|params, train, test\| ...)` |
//! | `search.best_params_`, `search.cv_results_` | [`GridSearchResult::best_params`], [`GridSearchResult::candidates`] |
//!
//! ## Example
//!
//! Choosing a threshold `t` for the rule "predict class 1 when x > t" by 3-fold
//! cross-validated accuracy:
//!
//! ```
//! use hyperplane::data::split::StratifiedKFold;
//! use hyperplane::metrics::accuracy;
//! use hyperplane::select::{grid_search, ParamGrid};
//!
//! let x = [0.1, 0.4, 0.35, 0.8, 0.9, 0.2, 0.7, 0.65, 0.3];
//! let y = [0, 0, 0, 1, 1, 0, 1, 1, 0];
//! let folds = StratifiedKFold { k: 3, seed: 0 }.folds(&y)?;
//! let grid = ParamGrid::parse(&["t=0.25,0.5,0.75"])?;
//! let result = grid_search(&grid.candidates(), &folds, |params, _train, test| {
//!     let t: f64 = params[0].1.parse().map_err(|_| hyperplane::Error::param("t", &params[0].1, "not a number"))?;
//!     let y_true: Vec<usize> = test.iter().map(|&i| y[i]).collect();
//!     let y_pred: Vec<usize> = test.iter().map(|&i| usize::from(x[i] > t)).collect();
//!     accuracy(&y_true, &y_pred, None)
//! })?;
//! assert_eq!(result.best_params(), [("t".to_string(), "0.5".to_string())]);
//! println!("{result}");
//! # Ok::<(), hyperplane::Error>(())
//! ```

pub mod cv;
pub mod grid;
mod learning_curve;

pub use cv::cross_val_score;
pub use grid::{grid_search, Candidate, CandidateScores, GridSearchResult, ParamGrid};
pub use learning_curve::{learning_curve, LearningCurve, TrainSizes};
