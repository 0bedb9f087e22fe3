//! Parses a data file, rebuilds it and compares: for measuring peak memory of parse + build,
//! e.g. `/usr/bin/time -v target/release/examples/roundtrip data.win`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: roundtrip FILE")?;
    let original = bytes::Bytes::from(std::fs::read(&path)?);
    let file = gmkit_data::parse_bytes(original.clone())?;
    let built = gmkit_data::build_bytes(&file)?;
    println!(
        "{path}: {} bytes, identical: {}",
        original.len(),
        built[..] == original[..]
    );
    Ok(())
}
