//! Parse and build throughput over the whole corpus (sum of sizes / sum of times, in process).
//!
//! `GMKIT_CORPUS=../shared/corpus cargo bench -p gmkit-data --bench corpus`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

fn corpus() -> Vec<bytes::Bytes> {
    let dir = std::env::var_os("GMKIT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("corpus not found at {}: set GMKIT_CORPUS", dir.display());
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "win"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| bytes::Bytes::from(std::fs::read(p).unwrap()))
        .collect()
}

fn bench(c: &mut Criterion) {
    let files = corpus();
    if files.is_empty() {
        return;
    }
    let total: usize = files.iter().map(|f| f.len()).sum();
    let models: Vec<_> = files
        .iter()
        .map(|f| gmkit_data::parse_bytes(f.clone()).unwrap())
        .collect();
    let mut g = c.benchmark_group("corpus");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for f in &files {
                black_box(gmkit_data::parse_bytes(f.clone()).unwrap());
            }
        })
    });
    g.bench_function("build", |b| {
        b.iter(|| {
            for m in &models {
                black_box(gmkit_data::build_bytes(m).unwrap());
            }
        })
    });
    // The two parts of `build`: the checks it runs first, and the writing alone.
    g.bench_function("validate", |b| {
        b.iter(|| {
            for m in &models {
                black_box(m.validate()).unwrap();
            }
        })
    });
    g.bench_function("build_unchecked", |b| {
        b.iter(|| {
            for m in &models {
                black_box(gmkit_data::build_bytes_unchecked(m).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
