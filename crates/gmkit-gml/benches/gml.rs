//! Decompile (+ print) throughput over every code entry of the corpus, and decompile + print +
//! parse + recompile over the root entries, in entries per second, on all cores (rayon).
//!
//! `GMKIT_CORPUS=/work/shared/corpus nice -n 10 cargo bench -p gmkit-gml --bench gml`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gmkit_gml::compile::{Names, compile_entry};
use gmkit_gml::{Game, decompile, parse, print};
use rayon::prelude::*;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let Some(corpus) = gmkit_testdata::corpus() else {
        eprintln!("corpus not found: set GMKIT_CORPUS");
        return;
    };
    let files: Vec<_> = corpus
        .into_iter()
        .filter_map(|(_, b)| gmkit_data::parse_bytes(b).ok())
        .filter(|f| f.code.as_ref().is_some_and(|c| !c.entries.is_empty()))
        .collect();
    let games: Vec<Game> = files.iter().map(Game::new).collect();
    // Root entries (children are decompiled in place inside them).
    let work: Vec<(usize, usize)> = games
        .iter()
        .enumerate()
        .flat_map(|(g, game)| {
            let code = game.file.code.as_ref().expect("filtered");
            (0..code.entries.len())
                .filter(move |&i| code.entries[i].body.is_root())
                .map(move |i| (g, i))
        })
        .collect();
    let all: usize = games.iter().map(|g| g.code_count()).sum();
    eprintln!(
        "{} files, {} root entries ({} entries with nested functions)",
        games.len(),
        work.len(),
        all
    );
    let mut g = c.benchmark_group("gml");
    g.sample_size(10);
    g.throughput(Throughput::Elements(all as u64));
    g.bench_function("decompile_print_all_entries", |b| {
        b.iter(|| {
            let n: usize = work
                .par_iter()
                .map(|&(gi, i)| match decompile::decompile_entry(&games[gi], i) {
                    Ok(d) => print::print_stmts(&d.body).len(),
                    Err(_) => 0,
                })
                .sum();
            black_box(n)
        })
    });
    let names: Vec<Names> = games.iter().map(Names::new).collect();
    g.throughput(Throughput::Elements(work.len() as u64));
    g.bench_function("decompile_print_parse_compile_root_entries", |b| {
        b.iter(|| {
            let n: usize = work
                .par_iter()
                .map(|&(gi, i)| {
                    let Ok(d) = decompile::decompile_entry(&games[gi], i) else {
                        return 0;
                    };
                    let text = print::print_stmts(&d.body);
                    let Ok(tree) = parse::parse(&text) else {
                        return 0;
                    };
                    compile_entry(&games[gi], &names[gi], i, &tree).map_or(0, |v| v.len())
                })
                .sum();
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
