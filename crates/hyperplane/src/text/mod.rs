//! Text vectorizers: documents -> sparse feature matrices.
//!
//! A text model sees a document as a bag of *terms* (words, or word n-grams), found by a
//! [`Tokenizer`] exactly as scikit-learn's `CountVectorizer` finds them. A vectorizer turns a
//! list of documents into a [`CsrMatrix`] with one row per document and one column per term:
//!
//! | vectorizer | value of `x_ij` | fitted state | use it for |
//! |---|---|---|---|
//! | [`CountVectorizer`] | count of term `j` in document `i` | vocabulary | multinomial NB (the multinomial event model), complement NB |
//! | [`CountVectorizer`] with `binary = true` | 1 if term `j` occurs in document `i` | vocabulary | Bernoulli NB (the multi-variate Bernoulli event model) |
//! | [`Vectorizer::Tfidf`] ([`CountVectorizer`] + [`TfidfTransformer`]) | `count * idf_j`, rows of unit L2 norm | vocabulary, idf | linear models, SVMs, logistic regression; also complement NB |
//! | [`HashingVectorizer`] | count of the terms hashed to column `j` | none | streams, huge or open vocabularies, tight memory |
//!
//! Trade-offs. A vocabulary gives named columns (explain a model by its top words) and
//! exact columns, but costs memory and must be fitted on the training documents only (terms
//! first seen at prediction are ignored). Pruning with `min_df` (drop rare terms: typos,
//! ids) and `max_df` (drop terms in nearly every document) shrinks it and often helps. The
//! hashing trick needs no fit and no memory per term, so it works on data that does not fit
//! in memory, but colliding terms share a column and columns have no names. Tf-idf weighting
//! discounts terms common to many documents; it suits geometric learners, whereas Naive
//! Bayes models counts and wants the raw counts.
//!
//! ```
//! use hyperplane::text::{CountVectorizer, DocFreq, Tokenizer};
//!
//! let docs = ["Win money now", "Meeting moved to noon", "win a free phone now"];
//! let cv = CountVectorizer::new()
//!     .tokenizer(Tokenizer::new().stop_words(Some(Tokenizer::english_stop_words())))
//!     .min_df(DocFreq::Count(1));
//! let (fitted, x) = cv.fit_transform(&docs)?;
//! assert_eq!(fitted.vocabulary(), ["free", "meeting", "money", "moved", "noon", "phone", "win"]);
//! assert_eq!(x.row(2).0, [0, 5, 6]); // "free", "phone", "win"
//! let x_new = fitted.transform(&["free money!"]); // same columns; unknown words dropped
//! assert_eq!(x_new.row(0), (&[0u32, 2][..], &[1.0, 1.0][..]));
//! # Ok::<(), hyperplane::Error>(())
//! ```
//!
//! For scikit-learn users:
//!
//! | scikit-learn | hyperplane |
//! |---|---|
//! | `CountVectorizer(min_df=2, max_df=0.9)` | `CountVectorizer::new().min_df(DocFreq::Count(2)).max_df(DocFreq::Fraction(0.9))` |
//! | `CountVectorizer(binary=True, stop_words="english")` | `CountVectorizer::new().binary(true).tokenizer(Tokenizer::new().stop_words(Some(Tokenizer::english_stop_words())))` |
//! | `CountVectorizer(ngram_range=(1, 2))` | `CountVectorizer::new().tokenizer(Tokenizer::new().ngram_range(1, 2))` |
//! | `cv.fit_transform(docs)` / `cv.transform(docs)` | `let (fitted, x) = cv.fit_transform(&docs)?` / `fitted.transform(&docs)` |
//! | `cv.get_feature_names_out()` | `fitted.vocabulary()` |
//! | `TfidfVectorizer()` | `Vectorizer::Tfidf { count: CountVectorizer::new(), tfidf: TfidfTransformer::new() }` |
//! | `TfidfTransformer(sublinear_tf=True).fit(X)` | `TfidfTransformer::new().sublinear_tf(true).fit(&x)?` |
//! | `HashingVectorizer(norm=None, alternate_sign=False)` | `HashingVectorizer::new()` (same hash, same columns) |
//!
//! Differences: hyperplane's word characters are Rust's `char::is_alphanumeric` plus `_`,
//! which unlike Python's `\w` include combining marks of the `Other_Alphabetic` property
//! (Indic vowel signs, Arabic harakat): hyperplane keeps such words whole where
//! scikit-learn splits them. Custom patterns use Rust `regex` syntax.
//!
//! [`Vectorizer`] is the one type a pipeline stores: any of the above, with its knobs settable
//! by name ([`Params`]) for the command line and grid search, fitted into a
//! [`FittedVectorizer`].

pub mod documents;
mod hash;
pub mod hashing;
pub mod tfidf;
pub mod tokenize;
pub mod vectorize;
pub mod vocabulary;

use serde::{Deserialize, Serialize};

pub use documents::{DocumentFiles, Documents};
pub use hashing::HashingVectorizer;
pub use tfidf::{FittedTfidf, Norm, TfidfTransformer};
pub use tokenize::{CompiledTokenizer, Scanner, Tokenizer};
pub use vectorize::{CountVectorizer, FittedCountVectorizer};
pub use vocabulary::DocFreq;

use crate::data::CsrMatrix;
use crate::error::Result;
use crate::param::{Composite, Params};

/// Any text vectorizer, as a pipeline stores it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Vectorizer {
    /// Term counts (or 0/1 with `binary`).
    Count(CountVectorizer),
    /// Term counts re-weighted by tf-idf.
    Tfidf {
        count: CountVectorizer,
        tfidf: TfidfTransformer,
    },
    /// Hashed term counts.
    Hashing(HashingVectorizer),
}

impl Default for Vectorizer {
    fn default() -> Self {
        Vectorizer::Count(CountVectorizer::default())
    }
}

impl Vectorizer {
    /// Tf-idf with default params (scikit-learn's `TfidfVectorizer()`).
    pub fn tfidf() -> Self {
        Vectorizer::Tfidf {
            count: CountVectorizer::default(),
            tfidf: TfidfTransformer::default(),
        }
    }

    /// `"count"`, `"tfidf"` or `"hashing"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Vectorizer::Count(_) => "count",
            Vectorizer::Tfidf { .. } => "tfidf",
            Vectorizer::Hashing(_) => "hashing",
        }
    }

    /// Fits on the training documents.
    pub fn fit<S: Documents + ?Sized>(&self, docs: &S) -> Result<FittedVectorizer> {
        Ok(match self {
            Vectorizer::Count(cv) => FittedVectorizer::Count(cv.fit(docs)?),
            Vectorizer::Tfidf { .. } => self.fit_transform(docs)?.0,
            Vectorizer::Hashing(hv) => {
                hv.validate()?;
                hv.tokenizer.compile()?;
                FittedVectorizer::Hashing(hv.clone())
            }
        })
    }

    /// Fits on the training documents and returns their matrix, tokenizing once.
    pub fn fit_transform<S: Documents + ?Sized>(
        &self,
        docs: &S,
    ) -> Result<(FittedVectorizer, CsrMatrix)> {
        Ok(match self {
            Vectorizer::Count(cv) => {
                let (fitted, x) = cv.fit_transform(docs)?;
                (FittedVectorizer::Count(fitted), x)
            }
            Vectorizer::Tfidf { count, tfidf } => {
                let (count, counts) = count.fit_transform(docs)?;
                let (tfidf, x) = tfidf.fit_transform(&counts)?;
                (FittedVectorizer::Tfidf { count, tfidf }, x)
            }
            Vectorizer::Hashing(hv) => {
                let x = hv.transform(docs)?;
                (FittedVectorizer::Hashing(hv.clone()), x)
            }
        })
    }
}

impl Composite for Vectorizer {
    fn component(&self) -> String {
        format!("the {} vectorizer", self.kind())
    }
    fn parts(&self) -> Vec<&dyn Params> {
        match self {
            Vectorizer::Count(cv) => vec![cv],
            Vectorizer::Tfidf { count, tfidf } => vec![count, tfidf],
            Vectorizer::Hashing(hv) => vec![hv],
        }
    }
    fn parts_mut(&mut self) -> Vec<&mut dyn Params> {
        match self {
            Vectorizer::Count(cv) => vec![cv],
            Vectorizer::Tfidf { count, tfidf } => vec![count, tfidf],
            Vectorizer::Hashing(hv) => vec![hv],
        }
    }
}

/// A fitted [`Vectorizer`]: turns documents into the matrix a model was trained on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FittedVectorizer {
    Count(FittedCountVectorizer),
    Tfidf {
        count: FittedCountVectorizer,
        tfidf: FittedTfidf,
    },
    Hashing(HashingVectorizer),
}

impl FittedVectorizer {
    /// The matrix of `docs` (`n_docs x n_features`).
    pub fn transform<S: Documents + ?Sized>(&self, docs: &S) -> Result<CsrMatrix> {
        match self {
            FittedVectorizer::Count(cv) => cv.try_transform(docs).map_err(Into::into),
            FittedVectorizer::Tfidf { count, tfidf } => {
                tfidf.transform(&count.try_transform(docs).map_err(Into::into)?)
            }
            FittedVectorizer::Hashing(hv) => hv.transform(docs),
        }
    }

    /// Number of columns.
    pub fn n_features(&self) -> usize {
        match self {
            FittedVectorizer::Count(cv) | FittedVectorizer::Tfidf { count: cv, .. } => {
                cv.n_features()
            }
            FittedVectorizer::Hashing(hv) => hv.n_features,
        }
    }

    /// The term of each column; `None` for hashing (columns have no names).
    pub fn feature_names(&self) -> Option<&[String]> {
        match self {
            FittedVectorizer::Count(cv) | FittedVectorizer::Tfidf { count: cv, .. } => {
                Some(cv.vocabulary())
            }
            FittedVectorizer::Hashing(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::RowAccess;

    const DOCS: [&str; 4] = [
        "the cat sat on the mat",
        "the dog ate my homework",
        "Cats and dogs!",
        "the the the",
    ];

    #[test]
    fn every_kind_fits_transforms_and_round_trips() {
        let kinds = [
            Vectorizer::default(),
            Vectorizer::tfidf(),
            Vectorizer::Hashing(HashingVectorizer::new().n_features(32)),
        ];
        for v in kinds {
            let (fitted, x) = v.fit_transform(&DOCS).unwrap();
            assert_eq!(x.n_rows(), 4, "{}", v.kind());
            assert_eq!(fitted.n_features(), x.n_cols());
            assert_eq!(fitted.transform(&DOCS).unwrap(), x, "{}", v.kind());
            assert_eq!(v.fit(&DOCS).unwrap(), fitted);
            let json = serde_json::to_string(&fitted).unwrap();
            let back: FittedVectorizer = serde_json::from_str(&json).unwrap();
            assert_eq!(back, fitted);
            assert_eq!(back.transform(&DOCS).unwrap(), x);
            let params: Vectorizer =
                serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
            assert_eq!(params, v);
        }
    }

    /// `DOCS` (plus a non-UTF-8 one), each in its own file, and the same text as strings.
    fn docs_as_files(dir: &std::path::Path) -> (Vec<std::path::PathBuf>, Vec<String>) {
        let mut bytes: Vec<Vec<u8>> = DOCS.iter().map(|d| d.as_bytes().to_vec()).collect();
        bytes.push(b"the caf\xe9 cat \xff\xfe".to_vec());
        let files: Vec<_> = (0..bytes.len()).map(|i| dir.join(format!("{i}"))).collect();
        for (f, b) in files.iter().zip(&bytes) {
            std::fs::write(f, b).unwrap();
        }
        let text = bytes
            .iter()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .collect();
        (files, text)
    }

    #[test]
    fn files_give_the_vocabulary_and_matrix_of_their_text() {
        let dir = tempfile::tempdir().unwrap();
        let (files, text) = docs_as_files(dir.path());
        let kinds = [
            Vectorizer::default(),
            Vectorizer::tfidf(),
            Vectorizer::Hashing(HashingVectorizer::new().n_features(32)),
        ];
        for v in kinds {
            let (fitted, x) = v.fit_transform(&text).unwrap();
            let (from_files, x_files) = v.fit_transform(&DocumentFiles(&files)).unwrap();
            assert_eq!(from_files, fitted, "{}", v.kind());
            assert_eq!(x_files, x, "{}", v.kind());
            assert_eq!(v.fit(&DocumentFiles(&files)).unwrap(), fitted);
            assert_eq!(fitted.transform(&DocumentFiles(&files)).unwrap(), x);
        }
        let (fitted, _) = CountVectorizer::new().fit_transform(&text).unwrap();
        assert!(fitted.column("\u{fffd}").is_none() && fitted.column("cat").is_some());
    }

    #[test]
    fn an_unreadable_file_is_an_io_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let (mut files, _) = docs_as_files(dir.path());
        let fitted = Vectorizer::default().fit(&DocumentFiles(&files)).unwrap();
        let missing = dir.path().join("missing.txt");
        files.insert(2, missing.clone());
        for v in [
            Vectorizer::default(),
            Vectorizer::tfidf(),
            Vectorizer::Hashing(HashingVectorizer::new()),
        ] {
            let e = v.fit_transform(&DocumentFiles(&files)).unwrap_err();
            assert!(matches!(e, crate::Error::Io { .. }), "{e}");
            assert!(
                e.to_string().contains(&missing.display().to_string()),
                "{e}"
            );
        }
        let e = fitted.transform(&DocumentFiles(&files)).unwrap_err();
        assert!(e.to_string().contains("missing.txt"), "{e}");
    }

    #[test]
    fn feature_names_only_with_a_vocabulary() {
        let fitted = Vectorizer::default().fit(&DOCS).unwrap();
        let names = fitted.feature_names().unwrap();
        assert_eq!(names.len(), fitted.n_features());
        assert_eq!(&names[..3], ["and", "ate", "cat"]);
        let hashing = Vectorizer::Hashing(HashingVectorizer::new());
        let fitted = hashing.fit(&DOCS).unwrap();
        assert_eq!(fitted.feature_names(), None);
        assert_eq!(fitted.n_features(), 1 << 20);
    }

    #[test]
    fn tfidf_rows_have_unit_norm() {
        let (_, x) = Vectorizer::tfidf().fit_transform(&DOCS).unwrap();
        for i in 0..x.n_rows() {
            let norm: f64 = x.row(i).1.iter().map(|v| v * v).sum();
            assert!((norm - 1.0).abs() < 1e-12, "row {i}: {norm}");
        }
    }

    #[test]
    fn set_param_reaches_every_knob() {
        let mut v = Vectorizer::tfidf();
        for (name, value) in [
            ("lowercase", "false"),
            ("ngram_max", "2"),
            ("min_df", "2"),
            ("max_df", "0.9"),
            ("max_features", "100"),
            ("binary", "true"),
            ("stop_words", "english"),
            ("norm", "l1"),
            ("sublinear_tf", "true"),
        ] {
            v.set_param(name, value).unwrap();
            let values = v.param_values();
            assert!(
                values.contains(&(name.to_string(), value.to_string())),
                "{name}: {values:?}"
            );
        }
        let Vectorizer::Tfidf { count, tfidf } = &v else {
            unreachable!()
        };
        assert_eq!(count.min_df, DocFreq::Count(2));
        assert_eq!(count.max_df, DocFreq::Fraction(0.9));
        assert_eq!(tfidf.norm, Some(Norm::L1));
        let err = v.set_param("n_features", "10").unwrap_err().to_string();
        assert!(
            err.contains("tfidf vectorizer") && err.contains("sublinear_tf"),
            "{err}"
        );

        let mut h = Vectorizer::Hashing(HashingVectorizer::new());
        h.set_param("n_features", "1024").unwrap();
        h.set_param("ngram_max", "3").unwrap();
        assert!(h.set_param("min_df", "2").is_err());
        let Vectorizer::Hashing(hv) = &h else {
            unreachable!()
        };
        assert_eq!((hv.n_features, hv.tokenizer.ngram_range), (1024, (1, 3)));

        let mut c = Vectorizer::default();
        assert!(c.set_param("max_df", "2.0").is_err());
        assert!(c.set_param("binary", "maybe").is_err());
        assert!(c.set_param("norm", "l2").is_err());
    }

    #[test]
    fn bad_params_are_reported_at_fit() {
        let mut v = Vectorizer::default();
        v.set_param("ngram_min", "3").unwrap();
        let err = v.fit(&DOCS).unwrap_err();
        assert!(err.to_string().contains("ngram_range"), "{err}");
        let v = Vectorizer::Hashing(HashingVectorizer::new().n_features(0));
        assert!(v.fit(&DOCS).is_err());
    }
}
