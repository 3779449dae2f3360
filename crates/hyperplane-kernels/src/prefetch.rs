//! Hints that memory is read soon: the processor starts loading it into a cache while the
//! caller works on something else. A prefetch reads nothing into the program and cannot
//! fault, so these functions are safe for any slice; off x86-64 they do nothing.

/// The bytes of a cache line.
const LINE: usize = 64;

/// Which cache a prefetch fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The first-level cache (and those below it): for data read within a few hundred cycles.
    L1,
    /// The second-level cache: for data read later, or too much for the first level.
    L2,
}

/// Asks for the first `max_lines` cache lines of `values` (all of them with `usize::MAX`).
#[inline(always)]
pub fn slice<T>(values: &[T], level: Level, max_lines: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0, _MM_HINT_T1};
        let start = values.as_ptr().cast::<i8>();
        let bytes = std::mem::size_of_val(values);
        for offset in (0..bytes).step_by(LINE).take(max_lines) {
            // SAFETY: `offset < bytes`, so the address lies inside `values`; a prefetch
            // reads nothing and cannot fault.
            unsafe {
                let at = start.add(offset);
                match level {
                    Level::L1 => _mm_prefetch::<_MM_HINT_T0>(at),
                    Level::L2 => _mm_prefetch::<_MM_HINT_T1>(at),
                }
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (values, level, max_lines);
}

/// Asks for `values[i]` into the first-level cache (nothing when `i` is out of range).
#[inline(always)]
pub fn entry<T>(values: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(p) = values.get(i) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: the address is that of an element of `values`; a prefetch reads nothing.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(p).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (values, i);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_slice_and_index_is_accepted() {
        let v: Vec<f64> = (0..1000).map(f64::from).collect();
        for level in [Level::L1, Level::L2] {
            slice(&v, level, usize::MAX);
            slice(&v[3..5], level, 16);
            slice::<f64>(&[], level, 16);
        }
        entry(&v, 999);
        entry(&v, 1000);
        entry::<u8>(&[], 0);
        assert_eq!(v[999], 999.0);
    }
}
