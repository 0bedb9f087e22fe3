//! One-shot `parse_file` (and optionally `build_file`) of one file, with times and peak heap:
//! for the generated 1 GB game (see `grow`). Run under `/usr/bin/time -v` for the peak RSS.
//!
//! ```text
//! /usr/bin/time -v target/release/examples/scale big.win            # parse only
//! /usr/bin/time -v target/release/examples/scale big.win out.win    # parse, then build_file
//! ```

use std::time::Instant;

#[global_allocator]
static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;

/// The resident set now (anonymous and file-backed, from `/proc/self/status`; Linux only).
fn rss() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or("?".to_string(), |kb| format!("{:.1} MB", kb / 1e3))
    };
    format!(
        "RSS {} (anonymous {}, file {}), peak {}",
        field("VmRSS:"),
        field("RssAnon:"),
        field("RssFile:"),
        field("VmHWM:")
    )
}

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
        gmkit_testdata::alloc::peak() as f64 / 1e6,
        gmkit_testdata::alloc::live() as f64 / 1e6
    );
    println!("after parse: {}", rss());
    if let Some(out) = args.get(1) {
        gmkit_testdata::alloc::reset_peak();
        let t = Instant::now();
        gmkit_data::build_file(&file, out)?;
        println!(
            "build_file: {:.1} ms, peak heap {:.1} MB",
            t.elapsed().as_secs_f64() * 1e3,
            gmkit_testdata::alloc::peak() as f64 / 1e6
        );
        println!("after build: {}", rss());
    }
    Ok(())
}
