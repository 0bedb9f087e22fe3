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
    for _ in 0..200 {
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
    Ok(())
}
