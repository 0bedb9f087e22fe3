//! Parse and build throughput over the whole corpus (group `corpus`: sum of sizes / sum of
//! times, in process) and, with `GMKIT_BENCH_PER_FILE=1`, per file (group `file`:
//! `parse/NAME`, `build/NAME`, short runs; about 10 minutes on a busy 2-core machine).
//!
//! `GMKIT_CORPUS=../shared/corpus cargo bench -p gmkit-data --bench corpus` (files that do not
//! parse are left out and named; `-- corpus/` or `-- file/` for one group). Peak heap and
//! one-shot runs (fresh processes): the `speed` example. `build_parts` is [`gmkit_data::build`]
//! (payloads as views, as `gmkit check` does). Each parse or build is timed alone and its
//! output freed after the clock stops (`drop` times freeing the parsed models).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn corpus() -> Vec<(String, bytes::Bytes)> {
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
        .zip(&files)
        .filter(|(b, p)| {
            let ok = gmkit_data::parse_bytes(b.clone()).is_ok();
            if !ok {
                eprintln!("left out (does not parse): {}", p.display());
            }
            ok
        })
        .map(|(b, p)| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            (name.unwrap_or_default(), b)
        })
        .collect()
}

/// `iters` rounds of `f` over `items`, timing each call alone: what it returns is freed after
/// the clock stops. A parse is timed to its model and a build to its output, as `gmkit check`
/// times them (freeing a model is not part of parsing it: the `drop` bench times that).
fn each<T, R>(iters: u64, items: &[T], mut f: impl FnMut(&T) -> R) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        for item in items {
            let t = Instant::now();
            let out = black_box(f(item));
            total += t.elapsed();
            drop(out);
        }
    }
    total
}

fn bench(c: &mut Criterion) {
    let named = corpus();
    if named.is_empty() {
        return;
    }
    let files: Vec<bytes::Bytes> = named.iter().map(|(_, b)| b.clone()).collect();
    let total: usize = files.iter().map(|f| f.len()).sum();
    let models: Vec<_> = files
        .iter()
        .map(|f| gmkit_data::parse_bytes(f.clone()).unwrap())
        .collect();
    let mut g = c.benchmark_group("corpus");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("parse", |b| {
        b.iter_custom(|n| each(n, &files, |f| gmkit_data::parse_bytes(f.clone()).unwrap()))
    });
    g.bench_function("drop", |b| {
        b.iter_custom(|n| {
            let mut total = Duration::ZERO;
            for _ in 0..n {
                for f in &files {
                    let m = gmkit_data::parse_bytes(f.clone()).unwrap();
                    let t = Instant::now();
                    drop(black_box(m));
                    total += t.elapsed();
                }
            }
            total
        })
    });
    g.bench_function("build", |b| {
        b.iter_custom(|n| each(n, &models, |m| gmkit_data::build_bytes(m).unwrap()))
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
    g.bench_function("build_parts", |b| {
        b.iter_custom(|n| each(n, &models, |m| gmkit_data::build(m).unwrap()))
    });
    g.finish();

    // Per file: the floor of the speed bar (every file ≥ 1,000 MB/s parsing).
    if std::env::var_os("GMKIT_BENCH_PER_FILE").is_none() {
        return;
    }
    let mut g = c.benchmark_group("file");
    g.sample_size(10)
        .warm_up_time(std::time::Duration::from_millis(100))
        .measurement_time(std::time::Duration::from_millis(300));
    for ((name, f), m) in named.iter().zip(&models) {
        g.throughput(Throughput::Bytes(f.len() as u64));
        g.bench_function(format!("parse/{name}"), |b| {
            b.iter_custom(|n| {
                each(n, std::slice::from_ref(f), |f| {
                    gmkit_data::parse_bytes(f.clone()).unwrap()
                })
            })
        });
        g.bench_function(format!("build/{name}"), |b| {
            b.iter_custom(|n| {
                each(n, std::slice::from_ref(m), |m| {
                    gmkit_data::build_bytes(m).unwrap()
                })
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
