//! Parses and builds every file given, many times: a workload for profilers
//! (`perf record target/release/examples/profile ../shared/corpus/*.win`).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mode = std::env::var("MODE").unwrap_or_else(|_| "both".into());
    let files: Vec<bytes::Bytes> = std::env::args()
        .skip(1)
        .map(|p| std::fs::read(p).map(bytes::Bytes::from))
        .collect::<Result<_, _>>()?;
    let models: Vec<_> = files
        .iter()
        .map(|f| gmkit_data::parse_bytes(f.clone()))
        .collect::<Result<_, _>>()?;
    let iters: usize = std::env::var("ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let t = std::time::Instant::now();
    for _ in 0..iters {
        if mode != "build" {
            for f in &files {
                std::hint::black_box(gmkit_data::parse_bytes(f.clone())?);
            }
        }
        if mode != "parse" {
            for m in &models {
                std::hint::black_box(gmkit_data::build_bytes(m)?);
            }
        }
    }
    let total: usize = files.iter().map(|f| f.len()).sum();
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "{iters} rounds of {mode}: {:.3} µs a round, {:.0} MB/s",
        secs / iters as f64 * 1e6,
        (total * iters) as f64 / secs / 1e6
    );
    Ok(())
}
