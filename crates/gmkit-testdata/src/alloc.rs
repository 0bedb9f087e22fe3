//! A counting global allocator for tests and examples that bound or report memory.
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;
//!
//! let (value, usage) = gmkit_testdata::alloc::measure(|| vec![0u8; 1000]);
//! assert!(usage.peak >= 1000 && usage.total >= 1000);
//! ```
//!
//! The counters are process-wide: tests that compare them must not run concurrently with other
//! allocating tests of the same binary (one test, or a mutex).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting live, peak and total allocated bytes.
pub struct Counting;

fn grow(by: usize) {
    TOTAL.fetch_add(by, Relaxed);
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: forwards every call to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grow(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

/// Bytes allocated and not yet freed.
pub fn live() -> usize {
    LIVE.load(Relaxed)
}

/// The highest [`live`] since the last [`reset_peak`].
pub fn peak() -> usize {
    PEAK.load(Relaxed)
}

/// Every byte ever allocated (a reallocation counts its growth).
pub fn total() -> usize {
    TOTAL.load(Relaxed)
}

/// Starts a new peak at the current [`live`], which it returns.
pub fn reset_peak() -> usize {
    let now = live();
    PEAK.store(now, Relaxed);
    now
}

/// What running one closure cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// The peak of live bytes above what was live before.
    pub peak: usize,
    /// Bytes allocated in all.
    pub total: usize,
    /// Live bytes left afterwards above what was live before (negative: freed more).
    pub retained: isize,
}

/// Runs `f` and reports its [`Usage`].
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Usage) {
    let before = reset_peak();
    let total = total();
    let out = f();
    let usage = Usage {
        peak: peak().saturating_sub(before),
        total: self::total() - total,
        retained: live() as isize - before as isize,
    };
    (out, usage)
}
