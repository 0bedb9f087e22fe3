//! Per-file parse and build speed and peak heap, warm (repeated in one process) or one-shot (the
//! first parse and build of a fresh process, as every CLI command does).
//!
//! ```text
//! cargo build --release -p gmkit-data --example speed
//! target/release/examples/speed ../shared/corpus/*.win            # warm: best of repeated runs
//! for f in ../shared/corpus/*.win; do target/release/examples/speed --once "$f"; done
//! ```
//!
//! Prints one tab-separated line per file (name, size, parse and `build_bytes` ms and MB/s, peak
//! heap of parse + build in bytes and as a multiple of the file (the input buffer included),
//! whether both builds were identical, and `build` (in parts) ms and MB/s), then the corpus sums (total bytes
//! over total time) when more than one file is given. Warm figures are the fastest of repeated
//! runs (at least 5 and 0.3 s per file), which is the least disturbed by other processes.

use std::time::Instant;

#[global_allocator]
static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;

/// The fastest of repeated runs of `f`, in seconds.
fn best(mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut best = f64::INFINITY;
    let mut runs = 0;
    while runs < 5 || start.elapsed().as_secs_f64() < 0.3 {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
        runs += 1;
    }
    best
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let once = args.first().is_some_and(|a| a == "--once");
    if once {
        args.remove(0);
    }
    if args.is_empty() {
        return Err("usage: speed [--once] FILE...".into());
    }
    println!(
        "file\tsize\tparse_ms\tbuild_ms\tparse_MBps\tbuild_MBps\tpeak_heap\tpeak_x\tidentical"
    );
    let (mut total, mut parse_s, mut build_s, mut parts_s) = (0usize, 0.0f64, 0.0f64, 0.0f64);
    for path in &args {
        let input = bytes::Bytes::from(std::fs::read(path)?);
        let name = std::path::Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let before = gmkit_testdata::alloc::live();
        gmkit_testdata::alloc::reset_peak();
        let t = Instant::now();
        let file = gmkit_data::parse_bytes(input.clone())?;
        let mut p = t.elapsed().as_secs_f64();
        // `build` (in parts, as `gmkit check` and `build_file` do) first, as a one-shot command
        // would, then `build_bytes` (one buffer).
        let t = Instant::now();
        let parts = gmkit_data::build(&file)?;
        let mut q = t.elapsed().as_secs_f64();
        let parts_identical = parts.eq_bytes(&input);
        drop(parts);
        let t = Instant::now();
        let built = gmkit_data::build_bytes(&file)?;
        let mut b = t.elapsed().as_secs_f64();
        let peak = gmkit_testdata::alloc::peak() - before;
        let identical = built[..] == input[..] && parts_identical;
        drop(built);
        if !once {
            p = best(|| {
                std::hint::black_box(gmkit_data::parse_bytes(input.clone()).unwrap());
            });
            b = best(|| {
                std::hint::black_box(gmkit_data::build_bytes(&file).unwrap());
            });
            q = best(|| {
                std::hint::black_box(gmkit_data::build(&file).unwrap());
            });
        }
        let size = input.len() as f64;
        println!(
            "{name}\t{}\t{:.3}\t{:.3}\t{:.0}\t{:.0}\t{peak}\t{:.2}\t{identical}\t{:.3}\t{:.0}",
            input.len(),
            p * 1e3,
            b * 1e3,
            size / p / 1e6,
            size / b / 1e6,
            peak as f64 / size,
            q * 1e3,
            size / q / 1e6,
        );
        parts_s += q;
        total += input.len();
        parse_s += p;
        build_s += b;
    }
    if args.len() > 1 {
        println!(
            "sum\t{total}\t{:.3}\t{:.3}\t{:.0}\t{:.0}\t\t\t\t{:.3}\t{:.0}",
            parse_s * 1e3,
            build_s * 1e3,
            total as f64 / parse_s / 1e6,
            total as f64 / build_s / 1e6,
            parts_s * 1e3,
            total as f64 / parts_s / 1e6
        );
    }
    Ok(())
}
