//! Vocabularies: a term -> id hash index, and pruning by document frequency.
//!
//! `TermIndex` maps term text to dense ids `0..n` (the id is the insertion order). It is an
//! open-addressing table probed linearly from the slot named by the top bits of the term's
//! `fx_hash`. A slot holds a 32-bit tag (hash bits and the length), the id, and the first 8
//! bytes of the term, so a term of at most 8 bytes (most words) is found without touching
//! the term list: one cache line per lookup. Lookups take `&str` and allocate nothing; only
//! a new term is copied. A model file stores only the term list; the index is rebuilt on load.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};
use crate::text::hash::{fx_hash, load_le};

/// One table slot; `meta == 0` is empty.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// `tag << 32 | (id + 1)`.
    meta: u64,
    /// The first 8 bytes of the term, zero-padded, little-endian.
    prefix: u64,
}

impl Slot {
    #[inline]
    fn new(hash: u64, term: &str, id: u32) -> Self {
        Slot {
            meta: tag(hash, term.len()) << 32 | u64::from(id + 1),
            prefix: prefix(term.as_bytes()),
        }
    }
}

/// The slot tag of a term: the top 28 bits of its hash and `min(len, 15)`.
#[inline]
fn tag(hash: u64, len: usize) -> u64 {
    (hash >> 32) & !0xf | len.min(15) as u64
}

/// The first 8 bytes of `term`, zero-padded.
#[inline]
fn prefix(term: &[u8]) -> u64 {
    load_le(&term[..term.len().min(8)])
}

/// A small direct-mapped cache of recent lookups in a [`TermIndex`], one per thread.
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

/// Term text -> dense id, with the terms kept in id order.
#[derive(Clone, Debug)]
pub(crate) struct TermIndex {
    terms: Vec<String>,
    /// Length is a power of two, at most half full while growing (3/4 when built by
    /// [`TermIndex::from_terms`]).
    slots: Vec<Slot>,
    /// `log2(slots.len())`, at most 28.
    bits: u32,
}

impl Default for TermIndex {
    fn default() -> Self {
        TermIndex::with_capacity(0)
    }
}

impl PartialEq for TermIndex {
    fn eq(&self, other: &Self) -> bool {
        self.terms == other.terms
    }
}

impl TermIndex {
    /// An empty index with room for `n` terms before it grows.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Self::with_slots((2 * n.max(8)).next_power_of_two(), Vec::with_capacity(n))
    }

    /// The index of `slots` empty slots (a power of two) over `terms`.
    fn with_slots(slots: usize, terms: Vec<String>) -> Self {
        let bits = slots.trailing_zeros();
        TermIndex {
            terms,
            slots: vec![Slot::default(); 1 << bits],
            bits,
        }
    }

    /// The index of `terms` (id = position); a repeated term is an error.
    ///
    /// Terms are placed in the order of their home slots, so the table is written front to
    /// back rather than at random. A fitted vocabulary is only looked up, so its table may
    /// be up to 3/4 full rather than half: the smallest power of two `>= 4n/3` slots, half
    /// the memory of the growing table for most `n` (4 MiB instead of 8 for the 157,466
    /// terms of the SpamAssassin corpus) at about one more probe per unknown term. It grows
    /// as usual if a term is ever inserted.
    pub(crate) fn from_terms(terms: Vec<String>) -> Result<Self> {
        use rayon::prelude::*;
        let slots = (terms.len().max(8) * 4).div_ceil(3).next_power_of_two();
        let mut index = TermIndex::with_slots(slots, Vec::new());
        let hashes: Vec<u64> = terms.par_iter().map(|t| fx_hash(t.as_bytes())).collect();
        let mut order: Vec<(u32, u32)> = (0..terms.len())
            .map(|id| (index.start(tag(hashes[id], 0)) as u32, id as u32))
            .collect();
        order.par_sort_unstable();
        index.terms = terms;
        for (_, id) in order {
            let (term, hash) = (&index.terms[id as usize], hashes[id as usize]);
            match index.probe(term, hash) {
                (_, Some(_)) => {
                    return Err(Error::data(format!(
                        "the vocabulary lists the term {term:?} twice"
                    )))
                }
                (slot, None) => index.slots[slot] = Slot::new(hash, term, id),
            }
        }
        Ok(index)
    }

    /// Number of terms.
    pub(crate) fn len(&self) -> usize {
        self.terms.len()
    }

    /// The terms, in id order.
    pub(crate) fn terms(&self) -> &[String] {
        &self.terms
    }

    /// The terms, in id order, giving up the index.
    pub(crate) fn into_terms(self) -> Vec<String> {
        self.terms
    }

    /// The first slot to probe for a tag.
    #[inline]
    fn start(&self, tag: u64) -> usize {
        (tag >> (32 - self.bits)) as usize
    }

    /// The slot holding `term`, or the empty slot where it would go.
    #[inline]
    fn probe(&self, term: &str, hash: u64) -> (usize, Option<u32>) {
        let bytes = term.as_bytes();
        let (tag, prefix) = (tag(hash, bytes.len()), prefix(bytes));
        let mask = self.slots.len() - 1;
        let mut i = self.start(tag);
        loop {
            let s = self.slots[i];
            if s.meta == 0 {
                return (i, None);
            }
            if s.meta >> 32 == tag && s.prefix == prefix {
                let id = (s.meta as u32) - 1;
                // Equal tags imply equal lengths below 15 bytes.
                if bytes.len() <= 8 || self.terms[id as usize].as_bytes()[8..] == bytes[8..] {
                    return (i, Some(id));
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// The id of `term`, if present.
    #[inline]
    pub(crate) fn get(&self, term: &str) -> Option<u32> {
        self.get_hashed(term, fx_hash(term.as_bytes()))
    }

    /// The id of `term` whose [`fx_hash`] is `hash`, if present.
    #[inline]
    pub(crate) fn get_hashed(&self, term: &str, hash: u64) -> Option<u32> {
        self.probe(term, hash).1
    }

    /// The id of `term`, inserting a copy if absent.
    #[inline]
    pub(crate) fn get_or_insert(&mut self, term: &str) -> u32 {
        self.get_or_insert_hashed(term, fx_hash(term.as_bytes()))
    }

    /// The id of `term` whose [`fx_hash`] is `hash`, inserting a copy if absent.
    #[inline]
    pub(crate) fn get_or_insert_hashed(&mut self, term: &str, hash: u64) -> u32 {
        match self.probe(term, hash) {
            (_, Some(id)) => id,
            (slot, None) => self.insert_at(slot, hash, term.to_owned()),
        }
    }

    fn insert_at(&mut self, slot: usize, hash: u64, term: String) -> u32 {
        let id = self.terms.len() as u32;
        self.slots[slot] = Slot::new(hash, &term, id);
        self.terms.push(term);
        if 2 * self.terms.len() > self.slots.len() {
            self.grow();
        }
        id
    }

    /// Doubles the table; each slot's tag gives its new position.
    fn grow(&mut self) {
        self.bits += 1;
        assert!(self.bits <= 28, "a term index holds at most 2^27 terms");
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); 1 << self.bits]);
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.meta != 0) {
            let mut i = self.start(s.meta >> 32);
            while self.slots[i].meta != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

impl Serialize for TermIndex {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.terms.serialize(s)
    }
}

impl<'de> Deserialize<'de> for TermIndex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let terms = Vec::<String>::deserialize(d)?;
        TermIndex::from_terms(terms).map_err(serde::de::Error::custom)
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

    #[test]
    fn a_fitted_index_is_at_most_three_quarters_full() {
        let terms: Vec<String> = (0..3000).map(|i| format!("term{i}")).collect();
        let mut index = TermIndex::from_terms(terms.clone()).unwrap();
        assert_eq!(index.slots.len(), 4096); // a growing index would have 8192
        for (id, t) in terms.iter().enumerate() {
            assert_eq!(index.get(t), Some(id as u32));
        }
        assert_eq!(index.get("term3000"), None);
        assert_eq!(index.get_or_insert("term3000"), 3000);
        assert_eq!(index.slots.len(), 8192);
        assert_eq!(index.get("term17"), Some(17));
    }

    #[test]
    fn term_index_maps_terms_to_insertion_order_and_grows() {
        let mut t = TermIndex::with_capacity(0);
        let words: Vec<String> = (0..5000).map(|i| format!("w{i}")).collect();
        for (i, w) in words.iter().enumerate() {
            assert_eq!(t.get_or_insert(w), i as u32);
        }
        for (i, w) in words.iter().enumerate() {
            assert_eq!(t.get(w), Some(i as u32));
            assert_eq!(t.get_or_insert(w), i as u32);
        }
        assert_eq!(t.get("w5000"), None);
        assert_eq!(t.get(""), None);
        assert_eq!(t.len(), 5000);
        assert_eq!(t.terms()[17], "w17");
    }

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
    fn term_index_round_trips_and_rejects_duplicates() {
        let t = TermIndex::from_terms(vec!["b".into(), "a".into()]).unwrap();
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, r#"["b","a"]"#);
        let back: TermIndex = serde_json::from_str(&json).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.get("a"), Some(1));
        let err = serde_json::from_str::<TermIndex>(r#"["a","b","a"]"#).unwrap_err();
        assert!(err.to_string().contains("\"a\" twice"), "{err}");
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
