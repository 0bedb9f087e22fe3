//! What `DataFile::validate` adds to `build_bytes`, per file and summed: the fastest of many
//! runs of each (the minimum is the cost without preemption on a busy machine).
//!
//! `cargo run --release -p gmkit-data --example validate_cost -- FILE...`

use std::time::{Duration, Instant};

fn fastest(runs: u32, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let (mut total_v, mut total_b, mut total_c) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for path in std::env::args().skip(1) {
        let Ok(f) = gmkit_data::parse_file(&path) else {
            eprintln!("{path}: does not parse, skipped");
            continue;
        };
        let all = f.references();
        let refs = all.len();
        if std::env::var_os("REF_KINDS").is_some() {
            let mut m = std::collections::BTreeMap::new();
            for r in &all {
                let field: String = r.field.chars().filter(|c| !c.is_ascii_digit()).collect();
                *m.entry((r.chunk.to_string(), field)).or_insert(0usize) += 1;
            }
            let mut v: Vec<_> = m.into_iter().collect();
            v.sort_by_key(|e| std::cmp::Reverse(e.1));
            for e in v.iter().take(12) {
                println!("    {e:?}");
            }
        }
        let v = fastest(500, || {
            std::hint::black_box(f.validate()).ok();
        });
        let b = fastest(50, || {
            std::hint::black_box(gmkit_data::build_bytes_unchecked(&f)).ok();
        });
        let c = fastest(50, || {
            std::hint::black_box(gmkit_data::build_bytes(&f)).ok();
        });
        total_v += v;
        total_b += b;
        total_c += c;
        println!("{path}: {refs} references, validate {v:?}, build without it {b:?}, build {c:?}");
    }
    println!(
        "total: validate {total_v:?}, build without it {total_b:?}, build {total_c:?} ({:+.2} %)",
        100.0 * (total_c.as_secs_f64() / total_b.as_secs_f64().max(1e-12) - 1.0)
    );
}
