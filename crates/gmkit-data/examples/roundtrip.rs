//! Parses a data file, rebuilds it and compares, reporting the peak heap use of parse + build
//! (input buffer, model and output together) next to the file size.
//!
//! `cargo run --release -p gmkit-data --example roundtrip -- FILE...`; for the whole-process view,
//! `/usr/bin/time -v target/release/examples/roundtrip FILE`.

#[global_allocator]
static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        return Err("usage: roundtrip FILE...".into());
    }
    let (mut worst, mut worst_name) = (0.0f64, String::new());
    for path in paths {
        let before = gmkit_testdata::alloc::live();
        gmkit_testdata::alloc::reset_peak();
        let original = bytes::Bytes::from(std::fs::read(&path)?);
        let file = gmkit_data::parse_bytes(original.clone())?;
        if std::env::var_os("GMKIT_DEBUG_MEM").is_some() {
            eprintln!(
                "after parse: live {} peak {}",
                gmkit_testdata::alloc::live() - before,
                gmkit_testdata::alloc::peak() - before
            );
        }
        let built = gmkit_data::build_bytes(&file)?;
        let identical = built[..] == original[..];
        let peak = gmkit_testdata::alloc::peak() - before;
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
