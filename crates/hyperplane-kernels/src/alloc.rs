//! A global allocator that counts: the system allocator, with the bytes live now and the
//! most live since a reset. Tests install it to show that borrowed data is not copied.
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: hyperplane_kernels::alloc::Counting = hyperplane_kernels::alloc::Counting;
//! let (_, peak) = hyperplane_kernels::alloc::Counting::extra_peak(|| vec![0u8; 1 << 20]);
//! assert!(peak >= 1 << 20);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting (install with `#[global_allocator]`).
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

impl Counting {
    /// The most bytes allocated at once while `f` runs, beyond those live when it started
    /// (counters are process-wide: callers measuring at once must take turns).
    pub fn extra_peak<T>(f: impl FnOnce() -> T) -> (T, usize) {
        let start = LIVE.load(Ordering::Relaxed);
        PEAK.store(start, Ordering::Relaxed);
        let out = f();
        (out, PEAK.load(Ordering::Relaxed).saturating_sub(start))
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator, which keeps
// `GlobalAlloc`'s contract; the counters only observe the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's `layout` is passed on as `GlobalAlloc::alloc` requires.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: `p` was allocated by `alloc` above (the system allocator) with `layout`.
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}
