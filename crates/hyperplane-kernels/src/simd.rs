//! A closure compiled for the widest vector registers the processor has.

/// `f()` compiled for the widest vector registers the processor has, AVX-512's or AVX's,
/// else for the baseline. The caller writes plain loops (no fused multiply-add, each lane
/// rounding as the scalar operation does), so the results are the same bits on any
/// processor; only their speed changes. `f` must be inlined into the wrappers below for
/// their features to apply to it: pass a closure, not a function pointer.
#[inline(always)]
pub fn with_widest<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            #[target_feature(enable = "avx512f,avx2,avx")]
            fn avx512<R>(f: impl FnOnce() -> R) -> R {
                f()
            }
            // SAFETY: the processor has AVX-512F (and so AVX2 and AVX), checked just above.
            return unsafe { avx512(f) };
        }
        if std::arch::is_x86_feature_detected!("avx") {
            #[target_feature(enable = "avx")]
            fn avx<R>(f: impl FnOnce() -> R) -> R {
                f()
            }
            // SAFETY: the processor has AVX, checked just above.
            return unsafe { avx(f) };
        }
    }
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closure_runs_once_and_its_value_comes_back() {
        let mut calls = 0;
        let sum = with_widest(|| {
            calls += 1;
            (1..=100).map(f64::from).map(f64::sqrt).sum::<f64>()
        });
        assert_eq!(calls, 1);
        assert_eq!(sum, (1..=100).map(f64::from).map(f64::sqrt).sum::<f64>());
    }
}
