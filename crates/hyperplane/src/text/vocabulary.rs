//! Vocabularies: pruning by document frequency, and a cache in front of the term index
//! (`TermIndex`, in the crate's `intern` module) for the lookups of the vectorizers.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::intern::{load_le, prefix};

/// A small direct-mapped cache of recent lookups in a [`TermIndex`](crate::intern::TermIndex),
/// one per thread.
///
/// Text is Zipfian (on SpamAssassin the 8,192 most frequent terms are 91% of the tokens),
/// but in a table of 100,000+ terms even frequent terms sit on scattered pages, so nearly
/// every lookup misses the TLB and the cache. This 192 KiB table, indexed by the low bits of
/// the hash, answers most lookups of terms of at most [`HotCache::MAX_LEN`] bytes without
/// touching the big one. A slot holds the whole term (length and two 8-byte words), so a hit
/// is exact without reading the term list.
#[derive(Clone, Debug)]
pub(crate) struct HotCache {
    slots: Vec<CacheSlot>,
}

/// One [`HotCache`] entry; `id1 == 0` is empty.
#[derive(Clone, Copy, Debug, Default)]
struct CacheSlot {
    /// The term's id + 1.
    id1: u32,
    /// The term's length in bytes.
    len: u32,
    /// Bytes 0..8 and 8..16 of the term, zero-padded, little-endian.
    words: [u64; 2],
}

/// The bytes of a term of at most 16 bytes as two zero-padded words.
#[inline]
fn words16(bytes: &[u8]) -> [u64; 2] {
    let split = bytes.len().min(8);
    [load_le(&bytes[..split]), load_le(&bytes[split..])]
}

impl HotCache {
    /// Longest term (in bytes) the cache holds; on SpamAssassin 99% of the tokens.
    pub(crate) const MAX_LEN: usize = 16;

    pub(crate) fn new() -> Self {
        HotCache {
            slots: vec![CacheSlot::default(); 1 << 13],
        }
    }

    /// The id of `term` (hash `hash`): from the cache, else from `lookup` (then cached).
    #[inline]
    pub(crate) fn get_or(
        &mut self,
        term: &str,
        hash: u64,
        lookup: impl FnOnce(&str, u64) -> Option<u32>,
    ) -> Option<u32> {
        let bytes = term.as_bytes();
        if bytes.len() > Self::MAX_LEN {
            return lookup(term, hash);
        }
        let words = words16(bytes);
        let mask = self.slots.len() - 1;
        let e = &mut self.slots[hash as usize & mask];
        if e.len as usize == bytes.len() && e.words == words && e.id1 != 0 {
            return Some(e.id1 - 1);
        }
        let id = lookup(term, hash)?;
        *e = CacheSlot {
            id1: id + 1,
            len: bytes.len() as u32,
            words,
        };
        Some(id)
    }
}

/// A document-frequency bound: an absolute number of documents or a fraction of them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum DocFreq {
    /// At least / at most this many documents.
    Count(usize),
    /// At least / at most this fraction of the documents, in `[0, 1]`.
    Fraction(f64),
}

impl DocFreq {
    /// Rejects a fraction outside `[0, 1]`.
    pub(crate) fn validate(self, name: &str) -> Result<()> {
        match self {
            DocFreq::Fraction(f) if !(0.0..=1.0).contains(&f) => Err(Error::param(
                name,
                self,
                "a fraction of the documents must be in [0, 1] (write an integer for a count)",
            )),
            _ => Ok(()),
        }
    }

    /// The bound in documents: `k`, or `f * n_docs` unrounded (as scikit-learn).
    pub(crate) fn documents(self, n_docs: usize) -> f64 {
        match self {
            DocFreq::Count(k) => k as f64,
            DocFreq::Fraction(f) => f * n_docs as f64,
        }
    }

    /// Parses `"5"` as a count and `"0.5"`, `"1.0"`, `"1e-3"` as a fraction.
    pub(crate) fn parse(name: &str, value: &str) -> Result<Self> {
        let v = value.trim();
        let d = if v.contains(['.', 'e', 'E']) {
            DocFreq::Fraction(crate::param::parse_param(name, v)?)
        } else {
            DocFreq::Count(crate::param::parse_param(name, v)?)
        };
        d.validate(name)?;
        Ok(d)
    }
}

impl crate::param::ParamValue for DocFreq {
    const KIND: &'static str = "count or fraction";
    /// An integer is a count of documents, a number in `[0, 1]` a fraction of them.
    fn forms() -> Vec<crate::param::Form> {
        use crate::param::Form;
        vec![Form::Int, Form::Float]
    }
    fn parse_value(name: &str, text: &str) -> Result<Self> {
        DocFreq::parse(name, text)
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
}

impl std::fmt::Display for DocFreq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DocFreq::Count(k) => write!(f, "{k}"),
            DocFreq::Fraction(x) => write!(f, "{x:?}"),
        }
    }
}

/// Which terms form the vocabulary, as term ids sorted by term text (the column order).
///
/// A term is kept when `df > 0` (ids that were never used have `df = 0`) and
/// `min_df.documents(n) <= df <= max_df.documents(n)`; then, if more
/// than `max_features` remain, the `max_features` with the largest total count `tf` (ties to
/// the alphabetically first), as scikit-learn's `CountVectorizer`.
pub(crate) fn select_terms(
    terms: &[String],
    df: &[u32],
    tf: &[u64],
    n_docs: usize,
    (min_df, max_df): (DocFreq, DocFreq),
    max_features: Option<usize>,
) -> Result<Vec<u32>> {
    use rayon::slice::ParallelSliceMut;

    if df.iter().all(|&d| d == 0) {
        return Err(Error::data(
            "empty vocabulary: the documents contain no tokens (perhaps only stop words)",
        ));
    }
    let (low, high) = (min_df.documents(n_docs), max_df.documents(n_docs));
    if high < low {
        return Err(Error::param(
            "max_df",
            max_df,
            format!("it allows fewer documents ({high}) than min_df = {min_df} requires ({low})"),
        ));
    }
    let kept: Vec<u32> = (0..terms.len() as u32)
        .filter(|&t| df[t as usize] > 0 && (low..=high).contains(&f64::from(df[t as usize])))
        .collect();
    // Sort by the first 8 bytes read big-endian (their lexicographic order, no pointer
    // chase), then by the whole text.
    let mut keyed: Vec<(u64, u32)> = kept
        .iter()
        .map(|&t| (prefix(terms[t as usize].as_bytes()).swap_bytes(), t))
        .collect();
    keyed.par_sort_unstable_by(|a, b| {
        (a.0.cmp(&b.0)).then_with(|| terms[a.1 as usize].cmp(&terms[b.1 as usize]))
    });
    let mut kept: Vec<u32> = keyed.into_iter().map(|(_, t)| t).collect();
    if let Some(limit) = max_features.filter(|&m| kept.len() > m) {
        let mut by_count: Vec<usize> = (0..kept.len()).collect();
        by_count.sort_by_key(|&i| std::cmp::Reverse(tf[kept[i] as usize]));
        by_count.truncate(limit);
        by_count.sort_unstable();
        kept = by_count.into_iter().map(|i| kept[i]).collect();
    }
    if kept.is_empty() {
        return Err(Error::data(format!(
            "after pruning no terms remain (min_df = {min_df}, max_df = {max_df}, {n_docs} documents); \
             lower min_df or raise max_df"
        )));
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intern::TermIndex;

    #[test]
    fn hot_cache_is_exact_for_every_length() {
        // Terms differing only in length, in their last byte or in a NUL padding byte, of
        // every length around the word boundaries, all forced into one slot (hash 0).
        let mut index = TermIndex::with_capacity(0);
        let mut terms: Vec<String> = Vec::new();
        for n in 1..=20 {
            let base: String = "abcdefghijklmnopqrst"[..n].into();
            terms.push(format!("{base}\0"));
            terms.push(base.clone());
            terms.push(format!("{}z", &base[..n - 1]));
        }
        for t in &terms {
            index.get_or_insert(t);
        }
        let mut cache = HotCache::new();
        for _ in 0..2 {
            for t in &terms {
                let id = cache.get_or(t, 0, |t, _| index.get(t));
                assert_eq!(id, index.get(t), "{t:?}");
            }
        }
        assert_eq!(cache.get_or("absent", 0, |t, _| index.get(t)), None);
    }

    #[test]
    fn doc_freq_parses_counts_and_fractions() {
        assert_eq!(DocFreq::parse("min_df", "3").unwrap(), DocFreq::Count(3));
        assert_eq!(
            DocFreq::parse("max_df", "1.0").unwrap(),
            DocFreq::Fraction(1.0)
        );
        assert_eq!(
            DocFreq::parse("max_df", "5e-1").unwrap(),
            DocFreq::Fraction(0.5)
        );
        assert!(DocFreq::parse("max_df", "1.5").is_err());
        assert!(DocFreq::parse("max_df", "-1").is_err());
        assert_eq!(DocFreq::Fraction(1.0).to_string(), "1.0");
        assert_eq!(DocFreq::Count(2).documents(10), 2.0);
        assert_eq!(DocFreq::Fraction(0.25).documents(10), 2.5);
    }

    #[test]
    fn select_terms_prunes_by_df_then_keeps_most_frequent() {
        let terms: Vec<String> = ["d", "b", "a", "c"].map(String::from).to_vec();
        let df = [1, 3, 2, 2];
        let tf = [5, 3, 4, 4];
        let all = (DocFreq::Count(1), DocFreq::Fraction(1.0));
        // Sorted by text: a(2) b(1) c(3) d(0).
        assert_eq!(
            select_terms(&terms, &df, &tf, 3, all, None).unwrap(),
            [2, 1, 3, 0]
        );
        let mid = (DocFreq::Count(2), DocFreq::Fraction(0.7));
        assert_eq!(
            select_terms(&terms, &df, &tf, 3, mid, None).unwrap(),
            [2, 3]
        );
        // Top 2 by count: d (5), then a and c tie at 4 -> a (alphabetically first).
        assert_eq!(
            select_terms(&terms, &df, &tf, 3, all, Some(2)).unwrap(),
            [2, 0]
        );
        let none = (DocFreq::Count(4), DocFreq::Fraction(1.0));
        let err = select_terms(&terms, &df, &tf, 5, none, None).unwrap_err();
        assert!(err.to_string().contains("no terms remain"), "{err}");
        let crossed = (DocFreq::Count(3), DocFreq::Count(2));
        assert!(select_terms(&terms, &df, &tf, 3, crossed, None).is_err());
        assert!(select_terms(&[], &[], &[], 3, all, None).is_err());
    }
}
