//! String interning: `TermIndex`, a hash index from text to dense ids `0..n` (the id is the
//! insertion order), shared by the text vectorizers and stop-word sets (terms), the
//! categorical columns of a table and the tabular encoder (categories).
//!
//! It is an open-addressing table probed linearly from the slot named by the top bits of the
//! text's [`fx_hash`]. A slot holds a 32-bit tag (hash bits and the length), the id, and the
//! first 8 bytes of the text, so a text of at most 8 bytes (most words) is found without
//! touching the term list: one cache line per lookup. Lookups take `&str` and allocate
//! nothing; only a new term is copied. A model file stores only the term list; the index is
//! rebuilt on load.
//!
//! [`fx_hash`] is an FxHash-style multiply-rotate hash over 8-byte little-endian words,
//! finished with a xor-shift so that both the high bits (table index) and the low bits are
//! usable. It only has to be fast and well spread *within one process*; it is never written
//! to a model file.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};

/// The FxHash multiplier (from Firefox / rustc).
const FX_K: u64 = 0x517c_c1b7_2722_0a95;

/// Bytes `b` (at most 8) as a little-endian word, zero-padded; no call to `memcpy`.
#[inline(always)]
pub(crate) fn load_le(b: &[u8]) -> u64 {
    let n = b.len();
    let u32_at = |i: usize| u64::from(u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]));
    match n {
        0 => 0,
        1..=3 => {
            u64::from(b[0])
                | u64::from(b[n / 2]) << (8 * (n / 2))
                | u64::from(b[n - 1]) << (8 * (n - 1))
        }
        // Two overlapping 4-byte reads.
        4..=7 => u32_at(0) | u32_at(n - 4) << (8 * (n - 4)),
        _ => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
    }
}

/// FxHash-style hash of `bytes`: `h = (rotl(h, 5) ^ w) * K` for each 8-byte word `w`
/// (the last one zero-padded), then the length, then `h ^ (h >> 32)`.
#[inline]
pub(crate) fn fx_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h.rotate_left(5) ^ load_le(c)).wrapping_mul(FX_K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        h = (h.rotate_left(5) ^ load_le(rest)).wrapping_mul(FX_K);
    }
    h = (h.rotate_left(5) ^ bytes.len() as u64).wrapping_mul(FX_K);
    h ^ (h >> 32)
}

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
pub(crate) fn prefix(term: &[u8]) -> u64 {
    load_le(&term[..term.len().min(8)])
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
            match index.probe(term.as_bytes(), hash) {
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

    /// The slot holding the term of bytes `bytes`, or the empty slot where it would go.
    #[inline]
    fn probe(&self, bytes: &[u8], hash: u64) -> (usize, Option<u32>) {
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
        self.probe(term.as_bytes(), hash).1
    }

    /// The id of `term`, inserting a copy if absent.
    #[inline]
    pub(crate) fn get_or_insert(&mut self, term: &str) -> u32 {
        self.get_or_insert_hashed(term, fx_hash(term.as_bytes()))
    }

    /// The id of `term` whose [`fx_hash`] is `hash`, inserting a copy if absent.
    #[inline]
    pub(crate) fn get_or_insert_hashed(&mut self, term: &str, hash: u64) -> u32 {
        match self.probe(term.as_bytes(), hash) {
            (_, Some(id)) => id,
            (slot, None) => self.insert_at(slot, hash, term.to_owned()),
        }
    }

    /// The id of the term of bytes `bytes`, inserting it if absent; `None` when it is
    /// absent and not UTF-8. A term present is text already, so only a new one is checked:
    /// a column of categories pays the check once per category, not once per row.
    #[inline]
    pub(crate) fn get_or_insert_bytes(&mut self, bytes: &[u8]) -> Option<u32> {
        let hash = fx_hash(bytes);
        match self.probe(bytes, hash) {
            (_, Some(id)) => Some(id),
            (slot, None) => {
                let term = std::str::from_utf8(bytes).ok()?;
                Some(self.insert_at(slot, hash, term.to_owned()))
            }
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
    fn load_le_zero_pads_every_length() {
        let bytes = b"abcdefghij";
        for n in 0..=8 {
            let mut padded = [0u8; 8];
            padded[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(
                load_le(&bytes[..n]),
                u64::from_le_bytes(padded),
                "length {n}"
            );
        }
        assert_eq!(load_le(bytes), u64::from_le_bytes(*b"abcdefgh"));
    }

    #[test]
    fn fx_hash_is_deterministic_and_spreads() {
        assert_eq!(fx_hash(b"spam"), fx_hash(b"spam"));
        assert_ne!(fx_hash(b"a"), fx_hash(b"a\0"));
        assert_ne!(fx_hash(b"abcdefgh"), fx_hash(b"abcdefgi"));
        // High bits (the table index) differ for short near-identical keys.
        let tops: std::collections::HashSet<u64> = (0..1000u32)
            .map(|i| fx_hash(i.to_string().as_bytes()) >> 54)
            .collect();
        assert!(
            tops.len() > 400,
            "only {} distinct top-10-bit values",
            tops.len()
        );
    }
}
