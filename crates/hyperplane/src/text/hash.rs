//! The portable hash of the hashing trick: [`murmur3_32`] is MurmurHash3 x86_32, the hash
//! scikit-learn's `HashingVectorizer` uses. Its value depends only on the bytes and the seed,
//! so hashed columns are the same on every platform, in every version, and equal to
//! scikit-learn's. (The in-memory hash of term tables is [`crate::intern::fx_hash`].)

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
}
