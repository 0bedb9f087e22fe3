//! Unpack and pack throughput over the whole corpus, files in parallel on all cores (rayon),
//! in memory (no disk): `unpack` is parse + unpack to a [`gmkit_folder::Folder`], `pack` is
//! pack + build to bytes. Throughput is the sum of the data files' sizes.
//!
//! `GMKIT_CORPUS=../shared/corpus nice cargo bench -p gmkit-folder --bench corpus` (files that
//! do not parse are left out and named). The one-shot CLI timings and peak memory are in the
//! README (section "A game as a folder").

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gmkit_folder::{Folder, Game};
use rayon::prelude::*;
use std::hint::black_box;

fn game(bytes: &[u8]) -> Option<Game> {
    Some(Game {
        data: gmkit_data::parse_bytes(bytes.to_vec()).ok()?,
        audio_groups: Vec::new(),
    })
}

fn bench(c: &mut Criterion) {
    let Some(files) = gmkit_testdata::corpus() else {
        eprintln!("corpus not found: set GMKIT_CORPUS");
        return;
    };
    let files: Vec<(String, Vec<u8>)> = files
        .into_iter()
        .filter(|(name, b)| {
            let ok = game(b).is_some();
            if !ok {
                eprintln!("left out (does not parse): {name}");
            }
            ok
        })
        .collect();
    let total: usize = files.iter().map(|f| f.1.len()).sum();
    let folders: Vec<Folder> = files
        .par_iter()
        .map(|(_, b)| gmkit_folder::unpack(&game(b).unwrap()).unwrap())
        .collect();
    eprintln!(
        "{} files, {:.1} MB of data files, {:.1} MB of folders, {} threads",
        files.len(),
        total as f64 / 1e6,
        folders.iter().map(Folder::size).sum::<usize>() as f64 / 1e6,
        rayon::current_num_threads()
    );
    let mut g = c.benchmark_group("folder");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("unpack", |b| {
        b.iter(|| {
            files.par_iter().for_each(|(_, bytes)| {
                black_box(gmkit_folder::unpack(&game(bytes).unwrap()).unwrap());
            })
        })
    });
    g.bench_function("pack", |b| {
        b.iter(|| {
            folders.par_iter().for_each(|f| {
                let game = gmkit_folder::pack(f).unwrap();
                black_box(gmkit_data::build_bytes(&game.data).unwrap());
            })
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
