//! Shared set-up of the fuzz targets.

use std::sync::Once;

/// The memory budget every target runs under: an input that asks for more is an error,
/// not an allocation (libFuzzer's `-malloc_limit_mb` catches any that slips through).
pub const BUDGET: u64 = 512 << 20;

/// Sets the memory budget and one worker thread, once per process.
pub fn init() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        hyperplane::memory::set_budget(BUDGET);
        std::env::set_var("RAYON_NUM_THREADS", "1");
    });
}

/// The first byte of `data` (0 when empty) and the rest: options chosen by the fuzzer.
pub fn split_first(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((&b, rest)) => (b, rest),
        None => (0, data),
    }
}
