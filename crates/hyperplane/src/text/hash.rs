//! String hashes: a fast in-memory hash for term tables and the portable hash of the
//! hashing trick.
//!
//! * [`fx_hash`] is an FxHash-style multiply-rotate hash over 8-byte little-endian words,
//!   finished with a xor-shift so that both the high bits (table index) and the low bits
//!   are usable. It only has to be fast and well spread *within one process*; it is never
//!   written to a model file.
//! * [`murmur3_32`] is MurmurHash3 x86_32, the hash scikit-learn's `HashingVectorizer`
//!   uses. Its value depends only on the bytes and the seed, so hashed columns are the same
//!   on every platform, in every version, and equal to scikit-learn's.

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

/// MurmurHash3 x86_32 of `bytes` with `seed` (Austin Appleby's reference algorithm).
pub(crate) fn murmur3_32(bytes: &[u8], seed: u32) -> u32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mix = |k: u32| k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    let mut h = seed;
    let mut chunks = bytes.chunks_exact(4);
    for c in &mut chunks {
        let k = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        h ^= mix(k);
        h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut k = 0u32;
        for (i, &b) in rest.iter().enumerate() {
            k ^= u32::from(b) << (8 * i);
        }
        h ^= mix(k);
    }
    h ^= bytes.len() as u32;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murmur3_matches_reference_values() {
        // Values from scikit-learn's `murmurhash3_32` (signed) and the reference test vectors.
        assert_eq!(murmur3_32(b"foo", 0) as i32, -156_908_512);
        assert_eq!(murmur3_32(b"foo", 42) as i32, -1_322_301_282);
        assert_eq!(murmur3_32(b"spam", 0) as i32, -1_581_447_336);
        assert_eq!(murmur3_32(b"hello", 0), 613_153_351);
        assert_eq!(murmur3_32(b"", 0), 0);
        assert_eq!(murmur3_32(b"", 1), 0x514e_28b7);
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
