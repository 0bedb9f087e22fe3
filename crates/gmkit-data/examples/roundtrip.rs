//! Parses a data file, rebuilds it and compares, reporting the peak heap use of parse + build
//! (input buffer, model and output together) next to the file size.
//!
//! `cargo run --release -p gmkit-data --example roundtrip -- FILE...`; for the whole-process view,
//! `/usr/bin/time -v target/release/examples/roundtrip FILE`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

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
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        return Err("usage: roundtrip FILE...".into());
    }
    let (mut worst, mut worst_name) = (0.0f64, String::new());
    for path in paths {
        let before = LIVE.load(Relaxed);
        PEAK.store(before, Relaxed);
        let original = bytes::Bytes::from(std::fs::read(&path)?);
        let file = gmkit_data::parse_bytes(original.clone())?;
        if std::env::var_os("GMKIT_DEBUG_MEM").is_some() {
            eprintln!(
                "after parse: live {} peak {}",
                LIVE.load(Relaxed) - before,
                PEAK.load(Relaxed) - before
            );
        }
        let built = gmkit_data::build_bytes(&file)?;
        let identical = built[..] == original[..];
        let peak = PEAK.load(Relaxed) - before;
        let ratio = peak as f64 / original.len() as f64;
        println!(
            "{path}: {} bytes, identical: {identical}, peak heap {} bytes = {ratio:.2}x the file",
            original.len(),
            peak
        );
        if ratio > worst {
            (worst, worst_name) = (ratio, path);
        }
    }
    println!("largest ratio: {worst:.2}x ({worst_name})");
    Ok(())
}
