//! Decodes a cyclic Elephant buffer many times and prints the process's resident memory before
//! and after, to show that cyclic values are freed (issue 6, "Value cycles leak").
//!
//! `cargo run --release -p gmkit-value --example cycles_rss -- [FILE] [COUNT]`
//! (default: a self-referencing array and a self-referencing struct, 100,000 decodes each;
//! run under `/usr/bin/time -v` for the peak RSS).

use gmkit_value::elephant;

/// `[<the array itself>]` (Elephant 1.5.1).
const ARRAY_CYCLE: &[u8] = &[
    0x50, 0x45, 0x4C, 0x45, 0x01, 0x05, 0x01, 0x00, 0xCD, 0x01, 0x00, 0xCD, 0xFF, 0xFF, 0x00, 0x00,
    0x54, 0x4E, 0x41, 0x48,
];
/// `{hp: 3, self: <the struct itself>}` (Elephant 1.5.1).
const STRUCT_CYCLE: &[u8] = &[
    0x50, 0x45, 0x4C, 0x45, 0x01, 0x05, 0x01, 0x00, 0xCE, 0x02, 0x00, 0x68, 0x70, 0x00, 0x09, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x40, 0x73, 0x65, 0x6C, 0x66, 0x00, 0xCE, 0xFF, 0xFF, 0x00,
    0x00, 0x54, 0x4E, 0x41, 0x48,
];

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next();
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let mut buffers = Vec::new();
    match file {
        Some(f) => buffers.push((f.clone(), std::fs::read(&f).expect("read FILE"))),
        None => {
            buffers.push(("self-referencing array".into(), ARRAY_CYCLE.to_vec()));
            buffers.push(("self-referencing struct".into(), STRUCT_CYCLE.to_vec()));
        }
    }
    for (name, buf) in &buffers {
        let v = elephant::read(buf).expect("decodes");
        drop(v);
        let before = rss_kib();
        for _ in 0..count {
            let v = elephant::read(buf).unwrap();
            std::hint::black_box(&v);
        }
        let after = rss_kib();
        println!(
            "{name}: RSS {before} KiB before, {after} KiB after {count} decodes ({:+} KiB)",
            after as i64 - before as i64
        );
    }
}
