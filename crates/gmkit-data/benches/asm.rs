//! Disassembler and assembler throughput over every code entry of the VM corpus files, in
//! entries per second (one iteration = every entry of every file).
//!
//! `GMKIT_CORPUS=../shared/corpus cargo bench -p gmkit-data --bench asm`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gmkit_data::chunks::code::asm::{Assembler, Disassembler};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let Some(files) = gmkit_testdata::corpus() else {
        return;
    };
    // Parsed VM files (with code) and each entry's text.
    let mut models = Vec::new();
    for (_, bytes) in files {
        let Ok(f) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        if f.code.as_ref().is_some_and(|c| !c.entries.is_empty()) {
            models.push(f);
        }
    }
    let texts: Vec<Vec<String>> = models
        .iter()
        .map(|f| {
            let d = Disassembler::new(f);
            (0..f.code.as_ref().unwrap().entries.len())
                .map(|i| d.entry(i).unwrap())
                .collect()
        })
        .collect();
    let entries: usize = texts.iter().map(|t| t.len()).sum();
    let mut g = c.benchmark_group("asm");
    g.sample_size(10);
    g.throughput(Throughput::Elements(entries as u64));
    g.bench_function("disassemble", |b| {
        b.iter(|| {
            for f in &models {
                let d = Disassembler::new(f);
                for i in 0..f.code.as_ref().unwrap().entries.len() {
                    black_box(d.entry(i).unwrap());
                }
            }
        })
    });
    let mut copies = models.clone();
    g.bench_function("assemble", |b| {
        b.iter(|| {
            for (f, t) in copies.iter_mut().zip(&texts) {
                let mut a = Assembler::new(f);
                for text in t {
                    black_box(a.assemble(text).unwrap());
                }
            }
        })
    });
    g.bench_function("disassemble+assemble", |b| {
        b.iter(|| {
            for (f, copy) in models.iter().zip(copies.iter_mut()) {
                let d = Disassembler::new(f);
                let mut a = Assembler::new(copy);
                for i in 0..f.code.as_ref().unwrap().entries.len() {
                    black_box(a.assemble(&d.entry(i).unwrap()).unwrap());
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
