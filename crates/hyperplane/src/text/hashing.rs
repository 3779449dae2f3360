//! The hashing trick: documents -> counts in a fixed number of hashed columns, as
//! scikit-learn's `HashingVectorizer(norm=None)`.
//!
//! A term `t` goes to column and sign
//!
//! ```text
//! h = MurmurHash3_x86_32(utf8(t), seed 0) read as i32
//! column = |h| mod n_features        sign = +1 if h >= 0 else -1
//! ```
//!
//! and `x_ij` is the sum of the (signed, when `alternate_sign`) occurrences hashed to `j`.
//! There is no vocabulary: nothing to fit, constant memory, any number of documents, but
//! colliding terms share a column and columns have no names. The hash is portable and fixed
//! forever, and equal to scikit-learn's, so columns agree across platforms, versions and
//! with a scikit-learn model. Sums that cancel to 0 are not stored.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::data::CsrMatrix;
use crate::error::{Error, Result};
use crate::text::documents::{chunks, Documents};
use crate::text::hash::murmur3_32;
use crate::text::tokenize::Tokenizer;
use crate::text::vectorize::{concat_parts, CsrPart};

crate::params! {
    /// Hashes terms into a fixed number of columns.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct HashingVectorizer {
        pub tokenizer: Tokenizer,
        pub n_features: usize,
        pub binary: bool,
        pub alternate_sign: bool,
    }
    schema "hashing vectorizer" {
        /// number of columns
        n_features = "1048576", "`1 ..= 2^31 - 1`" => n_features;
        /// store 1 for every nonzero column instead of the sum
        binary = "false", bool => binary;
        /// add `sign(h)` instead of 1, so collisions cancel in expectation
        alternate_sign = "false", bool => alternate_sign;
        ..tokenizer: Tokenizer;
    }
}

impl Default for HashingVectorizer {
    fn default() -> Self {
        HashingVectorizer {
            tokenizer: Tokenizer::default(),
            n_features: 1 << 20,
            binary: false,
            alternate_sign: false,
        }
    }
}

impl HashingVectorizer {
    /// The default vectorizer (see the table above).
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets `tokenizer`.
    pub fn tokenizer(mut self, tokenizer: Tokenizer) -> Self {
        self.tokenizer = tokenizer;
        self
    }
    /// Sets `n_features`.
    pub fn n_features(mut self, n: usize) -> Self {
        self.n_features = n;
        self
    }
    /// Sets `binary`.
    pub fn binary(mut self, yes: bool) -> Self {
        self.binary = yes;
        self
    }
    /// Sets `alternate_sign`.
    pub fn alternate_sign(mut self, yes: bool) -> Self {
        self.alternate_sign = yes;
        self
    }

    /// Rejects an `n_features` outside `1 ..= 2^31 - 1`.
    pub fn validate(&self) -> Result<()> {
        if !(1..=i32::MAX as usize).contains(&self.n_features) {
            return Err(Error::param(
                "n_features",
                self.n_features,
                "must be in 1 ..= 2147483647",
            ));
        }
        Ok(())
    }

    /// The column of `term` and the sign it adds with (`+1` or `-1`).
    pub fn column(&self, term: &str) -> (usize, f64) {
        let h = murmur3_32(term.as_bytes(), 0) as i32;
        let column = i64::from(h).unsigned_abs() % self.n_features.max(1) as u64;
        (column as usize, if h >= 0 { 1.0 } else { -1.0 })
    }

    /// The hashed count matrix of `docs` (`n_docs x n_features`).
    pub fn transform<S: Documents + ?Sized>(&self, docs: &S) -> Result<CsrMatrix> {
        self.validate()?;
        let tokenizer = self.tokenizer.compile()?;
        let parts: Vec<CsrPart> = chunks(docs.len(), 4)
            .map(|range| {
                let mut scanner = tokenizer.scanner();
                let mut entries: Vec<(u32, f64)> = Vec::new();
                let mut buf = Vec::new();
                let mut part = CsrPart::default();
                for i in range {
                    entries.clear();
                    docs.with_text(i, &mut buf, |text| {
                        scanner.for_each_token(text, |t| {
                            let (j, sign) = self.column(t);
                            let v = if self.alternate_sign { sign } else { 1.0 };
                            entries.push((j as u32, v));
                        })
                    })?;
                    entries.sort_unstable_by_key(|e| e.0);
                    for run in entries.chunk_by(|a, b| a.0 == b.0) {
                        let sum: f64 = run.iter().map(|e| e.1).sum();
                        if sum != 0.0 {
                            part.push(run[0].0, if self.binary { 1.0 } else { sum });
                        }
                    }
                    part.end_row();
                }
                Ok(part)
            })
            .collect::<std::result::Result<_, S::Error>>()
            .map_err(Into::into)?;
        Ok(concat_parts(self.n_features, parts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::RowAccess;
    use crate::param::Params;
    use proptest::prelude::*;

    #[test]
    fn columns_are_fixed_and_equal_scikit_learn() {
        // scikit-learn 1.9.1 HashingVectorizer(norm=None): "spam" -> column 194728 of 2^20;
        // with alternate_sign, "spam" -1, "foo" (670688) -1, "hello" (784967) +1.
        let h = HashingVectorizer::new();
        assert_eq!(h.column("spam"), (194_728, -1.0));
        assert_eq!(h.column("foo"), (670_688, -1.0));
        assert_eq!(h.column("hello"), (784_967, 1.0));
        let x = h.transform(&["Spam spam ham"]).unwrap();
        assert_eq!(x.row(0).1.iter().sum::<f64>(), 3.0);
        assert!(x.row(0).0.contains(&194_728));
        let signed = h
            .clone()
            .alternate_sign(true)
            .transform(&["spam foo hello"])
            .unwrap();
        assert_eq!(
            signed.row(0),
            (&[194_728u32, 670_688, 784_967][..], &[-1.0, -1.0, 1.0][..])
        );
    }

    #[test]
    fn small_width_matches_scikit_learn() {
        // HashingVectorizer(n_features=16, norm=None, alternate_sign=False)
        let x = HashingVectorizer::new()
            .n_features(16)
            .transform(&["the cat sat on the mat"])
            .unwrap();
        let mut expected = vec![0.0; 16];
        expected[4] = 1.0;
        expected[7] = 2.0;
        expected[11] = 1.0;
        expected[14] = 2.0;
        assert_eq!(x.to_dense().row(0).to_vec(), expected);
        let binary = HashingVectorizer::new().n_features(16).binary(true);
        let x = binary.transform(&["the cat sat on the mat"]).unwrap();
        assert_eq!(x.data(), [1.0; 4]);
    }

    #[test]
    fn rejects_bad_width_and_pattern() {
        assert!(HashingVectorizer::new()
            .n_features(0)
            .transform(&["a"])
            .is_err());
        assert!(HashingVectorizer::new()
            .n_features(1 << 31)
            .transform(&["a"])
            .is_err());
        let bad = Tokenizer::new().pattern(Some("(".into()));
        assert!(HashingVectorizer::new()
            .tokenizer(bad)
            .transform(&["a"])
            .is_err());
        let mut h = HashingVectorizer::new();
        h.set_param("n_features", "64").unwrap();
        h.set_param("alternate_sign", "true").unwrap();
        assert_eq!((h.n_features, h.alternate_sign), (64, true));
        assert!(h.set_param("max_df", "3").is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Each row sums to the number of tokens, and each token lands on its column.
        #[test]
        fn rows_count_the_tokens(docs in prop::collection::vec("[a-e ]{0,40}", 1..20),
                                 width in 1usize..50) {
            let h = HashingVectorizer::new().n_features(width);
            let x = h.transform(&docs).unwrap();
            prop_assert_eq!((x.n_rows(), x.n_cols()), (docs.len(), width));
            for (i, doc) in docs.iter().enumerate() {
                let tokens = h.tokenizer.tokens(doc).unwrap();
                let mut expected = vec![0.0; width];
                tokens.iter().for_each(|t| expected[h.column(t).0] += 1.0);
                prop_assert_eq!(x.to_dense().row(i).to_vec(), expected);
            }
        }
    }
}
