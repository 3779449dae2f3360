//! Bag of words: documents -> a sparse matrix of term counts, as scikit-learn's
//! `CountVectorizer`.
//!
//! `x_ij` = number of times term `j` of the vocabulary occurs in document `i` (or
//! `[count > 0]` when `binary`). The vocabulary is every term of the training documents
//! whose document frequency `df` satisfies `min_df <= df <= max_df`, then (optionally)
//! the `max_features` terms with the largest total count; columns are in alphabetical
//! (code point) order. Terms unseen at fit are dropped at transform.
//!
//! Fitting runs on parallel chunks of documents that share one sharded term table; each
//! thread answers most lookups from a small cache of its own, so locks are rare, and nothing
//! is allocated per token (a copy only for a new term). The terms are then pruned and
//! sorted, and every chunk writes its CSR rows in parallel.

use std::convert::Infallible;
use std::ops::Range;
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::data::{CsrBuilder, CsrMatrix};
use crate::error::{Error, Result};
use crate::intern::{fx_hash, TermIndex};
use crate::text::documents::{chunks, Documents};
use crate::text::tokenize::{CompiledTokenizer, Scanner, Tokenizer};
use crate::text::vocabulary::{select_terms, DocFreq, HotCache};

crate::params! {
    /// Counts terms per document.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct CountVectorizer {
        pub tokenizer: Tokenizer,
        pub binary: bool,
        pub min_df: DocFreq,
        pub max_df: DocFreq,
        pub max_features: Option<usize>,
    }
    schema "count vectorizer" {
        /// store 1 for a present term instead of its count (Bernoulli NB)
        binary = "false", bool => binary;
        /// drop terms in fewer documents than this
        min_df = "1", "a count, or a fraction in `[0, 1]` (written with a `.`)" => min_df;
        /// drop terms in more documents than this
        max_df = "1.0", "a count, or a fraction in `[0, 1]` (written with a `.`)" => max_df;
        /// keep only this many terms, the most frequent overall
        max_features = "none", "`none` or `>= 1`" => max_features;
        ..tokenizer: Tokenizer;
    }
}

impl Default for CountVectorizer {
    fn default() -> Self {
        CountVectorizer {
            tokenizer: Tokenizer::default(),
            binary: false,
            min_df: DocFreq::Count(1),
            max_df: DocFreq::Fraction(1.0),
            max_features: None,
        }
    }
}

impl CountVectorizer {
    /// The default vectorizer (see the table above).
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets `tokenizer`.
    pub fn tokenizer(mut self, tokenizer: Tokenizer) -> Self {
        self.tokenizer = tokenizer;
        self
    }
    /// Sets `binary`.
    pub fn binary(mut self, yes: bool) -> Self {
        self.binary = yes;
        self
    }
    /// Sets `min_df`.
    pub fn min_df(mut self, min_df: DocFreq) -> Self {
        self.min_df = min_df;
        self
    }
    /// Sets `max_df`.
    pub fn max_df(mut self, max_df: DocFreq) -> Self {
        self.max_df = max_df;
        self
    }
    /// Sets `max_features`.
    pub fn max_features(mut self, max_features: Option<usize>) -> Self {
        self.max_features = max_features;
        self
    }

    /// Learns the vocabulary of `docs`.
    pub fn fit<S: Documents + ?Sized>(&self, docs: &S) -> Result<FittedCountVectorizer> {
        Ok(self.fit_counts(docs, false)?.0)
    }

    /// Learns the vocabulary of `docs` and returns their count matrix, tokenizing once.
    pub fn fit_transform<S: Documents + ?Sized>(
        &self,
        docs: &S,
    ) -> Result<(FittedCountVectorizer, CsrMatrix)> {
        let (fitted, x) = self.fit_counts(docs, true)?;
        let x = x.ok_or_else(|| Error::data("internal: count matrix not built"))?;
        Ok((fitted, x))
    }

    fn fit_counts<S: Documents + ?Sized>(
        &self,
        docs: &S,
        build_matrix: bool,
    ) -> Result<(FittedCountVectorizer, Option<CsrMatrix>)> {
        self.min_df.validate("min_df")?;
        self.max_df.validate("max_df")?;
        if self.max_features == Some(0) {
            return Err(Error::param("max_features", 0, "must be at least 1"));
        }
        let tokenizer = self.tokenizer.compile()?;
        if docs.is_empty() {
            return Err(Error::data(
                "no documents to fit on; at least 1 is required",
            ));
        }

        // 1. Count each chunk of documents, sharing one sharded term table. The counts are
        // kept only when the values are counts (not binary).
        let keep_counts = !self.binary;
        let shared = SharedTerms::new();
        let chunks: Vec<IdRows> = chunks(docs.len(), 4)
            .map_init(
                || Worker::new(&tokenizer, 0),
                |w, range| shared.count(w, docs, range, keep_counts),
            )
            .collect::<std::result::Result<_, S::Error>>()
            .map_err(Into::into)?;
        let terms = shared.into_terms();

        // 2. Document frequency and (when kept) total count of each term id: one sequential
        // pass, a few milliseconds, with no per-thread copies of the arrays.
        let mut df = vec![0u32; terms.len()];
        let mut tf = vec![0u64; if keep_counts { terms.len() } else { 0 }];
        for rows in &chunks {
            rows.ids.iter().for_each(|&id| df[id as usize] += 1);
            for (&id, &c) in rows.ids.iter().zip(&rows.counts) {
                tf[id as usize] += u64::from(c);
            }
        }

        // With binary values a term's total is its document frequency, as in scikit-learn
        // (which sets counts to 1 before `max_features` ranks the terms).
        if !keep_counts && self.max_features.is_some() {
            tf = df.iter().map(|&d| u64::from(d)).collect();
        }

        // 3. Prune and sort: term id -> column.
        let kept = select_terms(
            &terms,
            &df,
            &tf,
            docs.len(),
            (self.min_df, self.max_df),
            self.max_features,
        )?;
        let mut column = vec![DROPPED; terms.len()];
        for (j, &g) in kept.iter().enumerate() {
            column[g as usize] = j as u32;
        }
        let mut terms = terms;
        let vocabulary: Vec<String> = kept
            .iter()
            .map(|&g| std::mem::take(&mut terms[g as usize]))
            .collect();
        drop((terms, df, tf, kept));
        let n_features = vocabulary.len();

        // 4. Write the rows, then index the vocabulary: one after the other, so the id rows
        // are freed before the index table is allocated (a lower peak than side by side).
        let binary = self.binary;
        let x = build_matrix
            .then(|| write_columns(chunks, &column, n_features, binary))
            .transpose()?;
        let vocabulary = TermIndex::from_terms(vocabulary);
        let fitted = FittedCountVectorizer {
            tokenizer,
            binary,
            vocabulary: vocabulary?,
        };
        Ok((fitted, x))
    }
}

/// A fitted [`CountVectorizer`]: the tokenizer and the vocabulary (column `j` is term
/// `vocabulary()[j]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FittedCountVectorizer {
    tokenizer: CompiledTokenizer,
    binary: bool,
    vocabulary: TermIndex,
}

impl FittedCountVectorizer {
    /// The count matrix of in-memory `docs` (`n_docs x n_features`); unknown terms are
    /// dropped.
    pub fn transform<S: Documents<Error = Infallible> + ?Sized>(&self, docs: &S) -> CsrMatrix {
        let Ok(x) = self.try_transform(docs);
        x
    }

    /// [`FittedCountVectorizer::transform`] of documents whose reading can fail
    /// ([`DocumentFiles`](crate::text::DocumentFiles)).
    pub fn try_transform<S: Documents + ?Sized>(
        &self,
        docs: &S,
    ) -> std::result::Result<CsrMatrix, S::Error> {
        let n = self.n_features();
        let parts: Vec<CsrPart> = chunks(docs.len(), 4)
            .map_init(
                || Worker::new(&self.tokenizer, n),
                |w, range| {
                    let Worker {
                        scanner,
                        cache,
                        counter,
                        buf,
                    } = w;
                    let mut part = CsrPart::default();
                    for i in range {
                        docs.with_text(i, buf, |text| {
                            scanner.for_each_token(text, |t| {
                                let lookup = |t: &str, h| self.vocabulary.get_hashed(t, h);
                                if let Some(j) = cache.get_or(t, fx_hash(t.as_bytes()), lookup) {
                                    counter.add(j);
                                }
                            })
                        })?;
                        counter.touched.sort_unstable();
                        counter.drain(|j, c| part.push(j, value(c, self.binary)));
                        part.end_row();
                    }
                    Ok(part)
                },
            )
            .collect::<std::result::Result<_, S::Error>>()?;
        Ok(concat_parts(n, parts))
    }

    /// The terms, in column order (alphabetical).
    pub fn vocabulary(&self) -> &[String] {
        self.vocabulary.terms()
    }
    /// The column of `term`, if it is in the vocabulary.
    pub fn column(&self, term: &str) -> Option<usize> {
        self.vocabulary.get(term).map(|j| j as usize)
    }
    /// Number of columns (vocabulary size).
    pub fn n_features(&self) -> usize {
        self.vocabulary.len()
    }
    /// The tokenizer params.
    pub fn tokenizer(&self) -> &Tokenizer {
        self.tokenizer.params()
    }
    /// True when the values are 0/1 presence flags.
    pub fn binary(&self) -> bool {
        self.binary
    }
}

/// Column of a term outside the vocabulary.
const DROPPED: u32 = u32::MAX;

/// The stored value of a term counted `c` times.
#[inline]
fn value(c: u32, binary: bool) -> f64 {
    if binary {
        1.0
    } else {
        f64::from(c)
    }
}

/// What a thread needs to count terms, reused across the chunks it takes (rayon's
/// `map_init`): the cache then stays warm and the buffers are allocated once per thread.
/// `buf` holds the document being read from a file.
struct Worker<'a> {
    scanner: Scanner<'a>,
    cache: HotCache,
    counter: Counter,
    buf: Vec<u8>,
}

impl<'a> Worker<'a> {
    /// A worker whose counter starts with room for ids below `n_ids`.
    fn new(tokenizer: &'a CompiledTokenizer, n_ids: usize) -> Self {
        Worker {
            scanner: tokenizer.scanner(),
            cache: HotCache::new(),
            counter: Counter::with_len(n_ids),
            buf: Vec::new(),
        }
    }
}

/// Per-document term counts: dense counters plus the ids touched, reset by `drain`.
struct Counter {
    counts: Vec<u32>,
    touched: Vec<u32>,
}

impl Counter {
    fn with_len(n: usize) -> Self {
        Counter {
            counts: vec![0; n],
            touched: Vec::new(),
        }
    }

    #[inline]
    fn add(&mut self, id: u32) {
        let i = id as usize;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        if self.counts[i] == 0 {
            self.touched.push(id);
        }
        self.counts[i] += 1;
    }

    /// Calls `f(id, count)` for each touched id (in `touched` order) and resets.
    #[inline]
    fn drain(&mut self, mut f: impl FnMut(u32, u32)) {
        for &id in &self.touched {
            f(id, std::mem::take(&mut self.counts[id as usize]));
        }
        self.touched.clear();
    }
}

/// The term table the counting threads share: `SHARDS` tables, each behind its own lock.
/// A term lives in the shard named by bits 13..19 of its hash, and its id is
/// `index in shard * SHARDS + shard`: ids are unique, nearly dense, and stable once given.
/// Each thread answers most lookups from its [`HotCache`] and locks a shard only on a miss.
struct SharedTerms {
    shards: Vec<Mutex<TermIndex>>,
}

const SHARDS: usize = 64;

impl SharedTerms {
    fn new() -> Self {
        SharedTerms {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(TermIndex::with_capacity(1024)))
                .collect(),
        }
    }

    fn get_or_insert(&self, term: &str, hash: u64) -> u32 {
        let s = (hash >> 13) as usize % SHARDS;
        let mut shard = self.shards[s].lock().unwrap_or_else(|e| e.into_inner());
        shard.get_or_insert_hashed(term, hash) * SHARDS as u32 + s as u32
    }

    /// Rows of the term ids of documents `range` of `docs`, with their counts if
    /// `keep_counts`.
    fn count<S: Documents + ?Sized>(
        &self,
        w: &mut Worker<'_>,
        docs: &S,
        range: Range<usize>,
        keep_counts: bool,
    ) -> std::result::Result<IdRows, S::Error> {
        let Worker {
            scanner,
            cache,
            counter,
            buf,
        } = w;
        let mut rows = IdRows {
            row_ends: Vec::with_capacity(range.len()),
            ..IdRows::default()
        };
        for i in range {
            docs.with_text(i, buf, |text| {
                scanner.for_each_token(text, |t| {
                    let insert = |t: &str, h| Some(self.get_or_insert(t, h));
                    if let Some(id) = cache.get_or(t, fx_hash(t.as_bytes()), insert) {
                        counter.add(id);
                    }
                })
            })?;
            counter.drain(|id, c| {
                rows.ids.push(id);
                if keep_counts {
                    rows.counts.push(c);
                }
            });
            rows.row_ends.push(rows.ids.len());
        }
        Ok(rows)
    }

    /// The terms indexed by id; ids never given are empty strings.
    fn into_terms(self) -> Vec<String> {
        let shards: Vec<Vec<String>> = self
            .shards
            .into_iter()
            .map(|m| {
                m.into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .into_terms()
            })
            .collect();
        let per_shard = shards.iter().map(Vec::len).max().unwrap_or(0);
        let mut terms = vec![String::new(); per_shard * SHARDS];
        for (s, shard) in shards.into_iter().enumerate() {
            for (i, term) in shard.into_iter().enumerate() {
                terms[i * SHARDS + s] = term;
            }
        }
        terms
    }
}

/// Rows of term ids with their counts (`counts` is empty when they are not needed: binary
/// values and no `max_features`), unsorted within a row.
#[derive(Default)]
struct IdRows {
    row_ends: Vec<usize>,
    ids: Vec<u32>,
    counts: Vec<u32>,
}

impl IdRows {
    /// Number of entries of each row whose term has a column.
    fn kept_lens(&self, column: &[u32]) -> Vec<usize> {
        let mut start = 0;
        self.row_ends
            .iter()
            .map(|&end| {
                let ids = &self.ids[start..end];
                start = end;
                ids.iter()
                    .filter(|&&id| column[id as usize] != DROPPED)
                    .count()
            })
            .collect()
    }

    /// Writes the rows with ids mapped to columns (dropped ones removed), sorted by column,
    /// into `indices` and `values` (exactly the kept entries, in row order).
    fn write_columns(&self, column: &[u32], binary: bool, indices: &mut [u32], values: &mut [f64]) {
        // `column << 32 | count`: sorting the packed words sorts by column. Without stored
        // counts the values are binary and the count is never read.
        let count = |i: usize| self.counts.get(i).copied().unwrap_or(1);
        let mut row: Vec<u64> = Vec::new();
        let (mut start, mut k) = (0, 0);
        for &end in &self.row_ends {
            row.clear();
            row.extend((start..end).filter_map(|i| {
                let j = column[self.ids[i] as usize];
                (j != DROPPED).then(|| u64::from(j) << 32 | u64::from(count(i)))
            }));
            row.sort_unstable();
            for &e in &row {
                indices[k] = (e >> 32) as u32;
                values[k] = value(e as u32, binary);
                k += 1;
            }
            start = end;
        }
    }
}

/// The count matrix of all chunks, written in place: the row lengths are counted first,
/// then the result arrays are allocated once and every chunk fills its own slice of them
/// in parallel, its id rows freed as soon as they are written. No intermediate per-chunk
/// matrix, so the peak is the id rows plus the result.
fn write_columns(
    chunks: Vec<IdRows>,
    column: &[u32],
    n_cols: usize,
    binary: bool,
) -> Result<CsrMatrix> {
    let lens: Vec<Vec<usize>> = chunks.par_iter().map(|r| r.kept_lens(column)).collect();
    let n_rows = lens.iter().map(Vec::len).sum::<usize>();
    let mut indptr = Vec::with_capacity(n_rows + 1);
    let mut nnz = 0;
    indptr.push(0);
    for &len in lens.iter().flatten() {
        nnz += len;
        indptr.push(nnz);
    }
    let mut indices = vec![0u32; nnz];
    let mut data = vec![0.0; nnz];
    let mut jobs = Vec::with_capacity(chunks.len());
    let (mut rest_i, mut rest_d) = (&mut indices[..], &mut data[..]);
    for (rows, lens) in chunks.into_iter().zip(&lens) {
        let n: usize = lens.iter().sum();
        let (i, ri) = rest_i.split_at_mut(n);
        let (d, rd) = rest_d.split_at_mut(n);
        (rest_i, rest_d) = (ri, rd);
        jobs.push((rows, i, d));
    }
    jobs.into_par_iter()
        .for_each(|(rows, i, d)| rows.write_columns(column, binary, i, d));
    CsrMatrix::new(n_cols, indptr, indices, data)
}

/// CSR rows of a chunk of documents, columns sorted within each row.
#[derive(Default)]
pub(crate) struct CsrPart {
    row_ends: Vec<usize>,
    indices: Vec<u32>,
    data: Vec<f64>,
}

impl CsrPart {
    #[inline]
    pub(crate) fn push(&mut self, column: u32, value: f64) {
        self.indices.push(column);
        self.data.push(value);
    }
    #[inline]
    pub(crate) fn end_row(&mut self) {
        self.row_ends.push(self.indices.len());
    }
}

/// The chunks' rows, in order, as one matrix. Each part is freed as soon as it is copied,
/// so the peak is about one matrix plus one part, not two matrices.
pub(crate) fn concat_parts(n_cols: usize, parts: Vec<CsrPart>) -> CsrMatrix {
    let mut b = CsrBuilder::new(n_cols);
    b.reserve(parts.iter().map(|p| p.indices.len()).sum());
    for p in parts {
        let mut start = 0;
        for &end in &p.row_ends {
            b.push_sorted_row(
                p.indices[start..end]
                    .iter()
                    .zip(&p.data[start..end])
                    .map(|(&j, &v)| (j as usize, v)),
            );
            start = end;
        }
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::RowAccess;
    use crate::param::Params;
    use proptest::prelude::*;

    const DOCS: [&str; 4] = [
        "The cat sat on the mat.",
        "The dog sat on the log!",
        "Cats and dogs: the café naïve",
        "the THE the",
    ];

    fn dense(x: &CsrMatrix) -> Vec<Vec<f64>> {
        x.to_dense()
            .rows()
            .into_iter()
            .map(|r| r.to_vec())
            .collect()
    }

    #[test]
    fn counts_match_scikit_learn() {
        // scikit-learn 1.9.1: CountVectorizer().fit_transform(DOCS)
        let (fitted, x) = CountVectorizer::new().fit_transform(&DOCS).unwrap();
        assert_eq!(
            fitted.vocabulary(),
            [
                "and", "café", "cat", "cats", "dog", "dogs", "log", "mat", "naïve", "on", "sat",
                "the"
            ]
        );
        let expected: Vec<Vec<f64>> = [
            [0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1, 2],
            [0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 2],
            [1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1],
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3],
        ]
        .iter()
        .map(|r| r.iter().map(|&v| f64::from(v)).collect())
        .collect();
        assert_eq!(dense(&x), expected);
        assert_eq!(fitted.n_features(), 12);
        assert_eq!(fitted.column("naïve"), Some(8));
        assert_eq!(fitted.column("zebra"), None);
        assert_eq!(fitted.transform(&DOCS), x);
        let binary = CountVectorizer::new()
            .binary(true)
            .fit_transform(&DOCS)
            .unwrap()
            .1;
        assert!(binary.data().iter().all(|&v| v == 1.0));
        assert_eq!(binary.indices(), x.indices());
    }

    #[test]
    fn pruning_matches_scikit_learn() {
        // CountVectorizer(min_df=2, max_df=0.75) -> ['on', 'sat'], rows [1,1],[1,1],[0,0],[0,0]
        let cv = CountVectorizer::new()
            .min_df(DocFreq::Count(2))
            .max_df(DocFreq::Fraction(0.75));
        let (fitted, x) = cv.fit_transform(&DOCS).unwrap();
        assert_eq!(fitted.vocabulary(), ["on", "sat"]);
        assert_eq!(dense(&x), [[1.0, 1.0], [1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]);
        // CountVectorizer(max_features=3) -> ['on', 'sat', 'the']
        let fitted = CountVectorizer::new()
            .max_features(Some(3))
            .fit(&DOCS)
            .unwrap();
        assert_eq!(fitted.vocabulary(), ["on", "sat", "the"]);
        // CountVectorizer(binary=True, max_features=1) ranks by document frequency:
        // ['b2'] (the total count would pick 'a1').
        let docs = ["a1 a1 a1 a1 b2", "b2 c3", "c3 d4", "b2"];
        let fitted = CountVectorizer::new()
            .binary(true)
            .max_features(Some(1))
            .fit(&docs)
            .unwrap();
        assert_eq!(fitted.vocabulary(), ["b2"]);
        // CountVectorizer(ngram_range=(1, 2), min_df=2) -> ['on', 'on the', 'sat', 'sat on', 'the']
        let cv = CountVectorizer::new()
            .tokenizer(Tokenizer::new().ngram_range(1, 2))
            .min_df(DocFreq::Count(2));
        let fitted = cv.fit(&DOCS).unwrap();
        assert_eq!(
            fitted.vocabulary(),
            ["on", "on the", "sat", "sat on", "the"]
        );
    }

    #[test]
    fn bad_input_and_params_give_clear_errors() {
        let err = CountVectorizer::new()
            .min_df(DocFreq::Count(5))
            .fit(&DOCS)
            .unwrap_err();
        assert!(err.to_string().contains("max_df"), "{err}");
        let err = CountVectorizer::new()
            .min_df(DocFreq::Count(2))
            .fit(&["aa bb", "cc dd", "ee"])
            .unwrap_err();
        assert!(err.to_string().contains("no terms remain"), "{err}");
        let err = CountVectorizer::new().fit(&["a b c", "!"]).unwrap_err();
        assert!(err.to_string().contains("empty vocabulary"), "{err}");
        let stop = Tokenizer::new().stop_words(Some(vec!["the".into()]));
        let err = CountVectorizer::new()
            .tokenizer(stop)
            .fit(&["the the"])
            .unwrap_err();
        assert!(err.to_string().contains("stop words"), "{err}");
        let none: [&str; 0] = [];
        assert!(CountVectorizer::new().fit(&none).is_err());
        assert!(CountVectorizer::new()
            .max_features(Some(0))
            .fit(&DOCS)
            .is_err());
        assert!(CountVectorizer::new()
            .max_df(DocFreq::Fraction(1.5))
            .fit(&DOCS)
            .is_err());
        let bad_pattern = Tokenizer::new().pattern(Some("[".into()));
        assert!(matches!(
            CountVectorizer::new().tokenizer(bad_pattern).fit(&DOCS),
            Err(Error::InvalidParameter { .. })
        ));
    }

    #[test]
    fn transform_of_nothing_and_of_unknown_words() {
        let fitted = CountVectorizer::new().fit(&DOCS).unwrap();
        let none: [&str; 0] = [];
        let x = fitted.transform(&none);
        assert_eq!((x.n_rows(), x.n_cols()), (0, 12));
        let x = fitted.transform(&["zebra quagga", ""]);
        assert_eq!((x.n_rows(), x.nnz()), (2, 0));
    }

    #[test]
    fn fitted_round_trips_through_json() {
        let cv = CountVectorizer::new().tokenizer(Tokenizer::new().ngram_range(1, 2));
        let (fitted, x) = cv.fit_transform(&DOCS).unwrap();
        let json = serde_json::to_string(&fitted).unwrap();
        let back: FittedCountVectorizer = serde_json::from_str(&json).unwrap();
        assert_eq!(back, fitted);
        assert_eq!(back.transform(&DOCS), x);
    }

    #[test]
    fn params_by_name() {
        let mut cv = CountVectorizer::new();
        cv.set_param("min_df", "2").unwrap();
        cv.set_param("max_features", "10").unwrap();
        cv.set_param("ngram_max", "2").unwrap();
        assert_eq!(cv.min_df, DocFreq::Count(2));
        assert_eq!(cv.max_features, Some(10));
        assert_eq!(cv.tokenizer.ngram_range, (1, 2));
        cv.set_param("max_features", "none").unwrap();
        assert_eq!(cv.max_features, None);
        let err = cv.set_param("n_features", "3").unwrap_err().to_string();
        assert!(
            err.contains("max_features") && err.contains("ngram_max"),
            "{err}"
        );
    }

    /// Documents over a small vocabulary, so that terms repeat within and across documents.
    fn docs_strategy() -> impl Strategy<Value = Vec<String>> {
        let word = prop::sample::select(vec!["ab", "Ab", "cd", "éf", "x", "gh", "ij_k", "12"]);
        let doc = prop::collection::vec(word, 0..30).prop_map(|w| w.join(" "));
        prop::collection::vec(doc, 1..40)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Row `i` counts exactly the tokens of document `i`, whatever the chunking.
        #[test]
        fn rows_count_the_tokens(
            docs in docs_strategy(),
            bigrams in any::<bool>(),
            binary in any::<bool>(),
        ) {
            let tokenizer = Tokenizer::new().ngram_range(1, if bigrams { 2 } else { 1 });
            let cv = CountVectorizer::new().tokenizer(tokenizer.clone()).binary(binary);
            let Ok((fitted, x)) = cv.fit_transform(&docs) else {
                // Only when no document has a token.
                prop_assert!(docs.iter().all(|d| tokenizer.tokens(d).unwrap().is_empty()));
                return Ok(());
            };
            prop_assert!(fitted.vocabulary().windows(2).all(|w| w[0] < w[1]));
            for (i, doc) in docs.iter().enumerate() {
                let mut expected = vec![0.0; fitted.n_features()];
                for t in tokenizer.tokens(doc).unwrap() {
                    let v = &mut expected[fitted.column(&t).unwrap()];
                    *v = if binary { 1.0 } else { *v + 1.0 };
                }
                let mut row = vec![0.0; fitted.n_features()];
                x.for_each_in_row(i, |j, v| row[j] = v);
                prop_assert_eq!(&row, &expected);
                // Transforming one document alone gives the same row.
                prop_assert_eq!(&fitted.transform(&docs[i..=i]).to_dense().row(0).to_vec(), &row);
            }
            prop_assert_eq!(fitted.transform(&docs), x);
        }
    }
}
