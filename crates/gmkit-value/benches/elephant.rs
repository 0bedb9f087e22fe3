//! Elephant serde encode/decode of a ~10 MB save, next to postcard and serde_json.
//!
//! `cargo bench -p gmkit-value --bench elephant -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};
use std::hint::black_box;

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Item {
    id: String,
    count: f64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Entity {
    name: String,
    x: f64,
    y: f64,
    hp: f64,
    level: i32,
    inventory: Vec<Item>,
    flags: Vec<bool>,
    target: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Save {
    version: f64,
    seed: i64,
    entities: Vec<Entity>,
}

fn save() -> Save {
    let ids = [
        "sword",
        "shield",
        "potion_of_healing",
        "arrow",
        "gold_coin",
        "map",
    ];
    let mut state = 0x2545F491u64;
    let mut rnd = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // 65534 is Elephant's array limit: use chunks below it.
    let entities = (0..50_000)
        .map(|i| Entity {
            name: format!("entity_{i}"),
            x: (rnd() % 100_000) as f64 / 7.0,
            y: (rnd() % 100_000) as f64 / 3.0,
            hp: (rnd() % 1000) as f64,
            level: (rnd() % 100) as i32,
            inventory: (0..(rnd() % 6) as usize)
                .map(|k| Item {
                    id: ids[(k + i) % ids.len()].to_string(),
                    count: (rnd() % 99) as f64,
                })
                .collect(),
            flags: (0..8).map(|_| rnd() % 2 == 0).collect(),
            target: (i % 3 == 0).then(|| format!("entity_{}", i / 2)),
        })
        .collect();
    Save {
        version: 3.0,
        seed: 1234567890123,
        entities,
    }
}

fn bench(c: &mut Criterion) {
    let data = save();
    let eb = gmkit_value::elephant::to_bytes(&data).unwrap();
    let pb = postcard::to_allocvec(&data).unwrap();
    let jb = serde_json::to_vec(&data).unwrap();
    eprintln!(
        "sizes: elephant {} B, postcard {} B, serde_json {} B",
        eb.len(),
        pb.len(),
        jb.len()
    );
    assert_eq!(
        gmkit_value::elephant::from_bytes::<Save>(&eb).unwrap(),
        data
    );

    let mut g = c.benchmark_group("encode");
    g.throughput(Throughput::Bytes(eb.len() as u64));
    g.sample_size(10);
    g.bench_function("elephant", |b| {
        b.iter(|| gmkit_value::elephant::to_bytes(black_box(&data)).unwrap())
    });
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::to_allocvec(black_box(&data)).unwrap())
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| serde_json::to_vec(black_box(&data)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Bytes(eb.len() as u64));
    g.sample_size(10);
    g.bench_function("elephant", |b| {
        b.iter(|| gmkit_value::elephant::from_bytes::<Save>(black_box(&eb)).unwrap())
    });
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::from_bytes::<Save>(black_box(&pb)).unwrap())
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_slice::<Save>(black_box(&jb)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
