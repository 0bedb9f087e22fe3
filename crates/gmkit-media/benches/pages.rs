//! Decoding every texture page of the corpus: in parallel (rayon, both cores) and one by one.
//! Throughput is in encoded blob bytes. `cargo bench -p gmkit-media --bench pages`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gmkit_data::chunks::texture::Textures;

fn corpus_textures() -> Vec<Textures> {
    let Some(names) = gmkit_testdata::corpus_names() else {
        return Vec::new();
    };
    let opts = gmkit_data::ParseOptions {
        lenient: true,
        ..Default::default()
    };
    names
        .iter()
        .filter_map(|n| gmkit_data::parse_file_with(gmkit_testdata::corpus_path(n)?, &opts).ok())
        .filter_map(|(f, _)| f.textures)
        .collect()
}

fn bench(c: &mut Criterion) {
    let all = corpus_textures();
    if all.is_empty() {
        eprintln!("no corpus: nothing to benchmark");
        return;
    }
    let bytes: u64 = all
        .iter()
        .flat_map(|t| t.pages.iter().flatten())
        .filter_map(|p| p.blob())
        .map(|b| b.len() as u64)
        .sum();
    let mut g = c.benchmark_group("decode all corpus pages");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("parallel", |b| {
        b.iter(|| {
            for t in &all {
                for r in gmkit_media::decode_pages(t) {
                    let _ = r.unwrap();
                }
            }
        })
    });
    g.bench_function("one by one", |b| {
        b.iter(|| {
            for t in &all {
                for i in 0..t.pages.len() {
                    let _ = gmkit_media::decode_page(t, i).unwrap();
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
