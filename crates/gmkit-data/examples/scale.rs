//! One-shot `parse_file` (and optionally `build_file`) of one file, with times and peak heap:
//! for the generated 1 GB game (see `grow`). Run under `/usr/bin/time -v` for the peak RSS.
//!
//! ```text
//! /usr/bin/time -v target/release/examples/scale big.win            # parse only
//! /usr/bin/time -v target/release/examples/scale big.win out.win    # parse, then build_file
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// The system allocator, counting live and peak bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(input) = args.first() else {
        return Err("usage: scale FILE [OUT]".into());
    };
    let t = Instant::now();
    let file = gmkit_data::parse_file(input)?;
    let parse = t.elapsed();
    println!(
        "parse_file: {:.1} ms, peak heap {:.1} MB (model {:.1} MB)",
        parse.as_secs_f64() * 1e3,
        PEAK.load(Relaxed) as f64 / 1e6,
        LIVE.load(Relaxed) as f64 / 1e6
    );
    if let Some(out) = args.get(1) {
        PEAK.store(LIVE.load(Relaxed), Relaxed);
        let t = Instant::now();
        gmkit_data::build_file(&file, out)?;
        println!(
            "build_file: {:.1} ms, peak heap {:.1} MB",
            t.elapsed().as_secs_f64() * 1e3,
            PEAK.load(Relaxed) as f64 / 1e6
        );
    }
    Ok(())
}
