//! ds_* decode/encode throughput on a realistic ~10 MB save, compared with postcard and
//! serde_json on the same data.
//!
//! Run: `cargo bench -p gmkit-value --bench ds -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gmkit_value::ds::{self, DsData, DsValue};
use gmkit_value::{Array, Value};
use serde::{Deserialize, Serialize};
use std::hint::black_box;

/// One save entry, as a Rust type for the serde formats.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
enum Item {
    Real(f64),
    Str(String),
    Reals(Vec<f64>),
    Strs(Vec<String>),
    Rows(Vec<Vec<f64>>),
}

impl Item {
    fn to_value(&self) -> Value {
        let reals =
            |v: &[f64]| Value::Array(Array::new(v.iter().map(|&r| Value::Real(r)).collect()));
        match self {
            Item::Real(r) => Value::Real(*r),
            Item::Str(s) => Value::from(s.as_str()),
            Item::Reals(v) => reals(v),
            Item::Strs(v) => Value::Array(Array::new(
                v.iter().map(|s| Value::from(s.as_str())).collect(),
            )),
            Item::Rows(rows) => Value::Array(Array::new(rows.iter().map(|r| reals(r)).collect())),
        }
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn word(&mut self) -> String {
        const SYL: [&str; 12] = [
            "ka", "ri", "so", "obj_", "tree", "_", "lv", "door", "x", "q", "e", "n",
        ];
        (0..2 + self.below(6))
            .map(|_| SYL[self.below(12) as usize])
            .collect()
    }
}

/// A save of about `target` hex characters: string keys → reals, strings, arrays.
fn save(target: usize) -> (Vec<(String, Item)>, DsData) {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut items = Vec::new();
    let mut pairs = Vec::new();
    let mut bytes = 8usize;
    let mut i = 0u64;
    while bytes * 2 < target {
        let key = format!("{}_{i}", rng.word());
        let item = match rng.below(10) {
            0..=3 => Item::Real((rng.below(100_000) as f64) / 8.0),
            4..=5 => Item::Str(rng.word().repeat(1 + rng.below(4) as usize)),
            6..=7 => Item::Reals((0..rng.below(40)).map(|x| x as f64 * 1.5).collect()),
            8 => Item::Strs((0..rng.below(10)).map(|_| rng.word()).collect()),
            _ => Item::Rows(
                (0..rng.below(6))
                    .map(|r| (0..8).map(|c| (r * c) as f64).collect())
                    .collect(),
            ),
        };
        let v = item.to_value();
        pairs.push((Value::from(key.as_str()), v));
        bytes += 8 + key.len() + 16;
        if let Some((_, v)) = pairs.last() {
            bytes += approx_size(v);
        }
        items.push((key, item));
        i += 1;
    }
    (items, DsData::new(DsValue::Map(pairs)))
}

fn approx_size(v: &Value) -> usize {
    match v {
        Value::String(s) => 8 + s.len(),
        Value::Array(a) => 8 + a.read().iter().map(approx_size).sum::<usize>(),
        _ => 12,
    }
}

fn bench(c: &mut Criterion) {
    let (items, data) = save(10_000_000);
    let hex = ds::encode(&data).unwrap();
    let post = postcard::to_allocvec(&items).expect("postcard");
    let json = serde_json::to_vec(&items).expect("json");
    eprintln!(
        "save: {} entries; ds hex {} bytes, postcard {} bytes, serde_json {} bytes",
        items.len(),
        hex.len(),
        post.len(),
        json.len()
    );
    assert_eq!(ds::decode(&hex, None).unwrap(), data);

    let mut g = c.benchmark_group("save_10MB");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(hex.len() as u64));
    g.bench_function("ds_decode", |b| {
        b.iter_with_large_drop(|| ds::decode(black_box(&hex), None).unwrap())
    });
    g.bench_function("ds_encode", |b| {
        b.iter(|| ds::encode(black_box(&data)).unwrap())
    });
    g.bench_function("ds_hex_layer_decode", |b| {
        b.iter_with_large_drop(|| ds::hex::decode_prefix(black_box(hex.as_bytes())))
    });
    g.throughput(Throughput::Bytes(post.len() as u64));
    g.bench_function("postcard_decode", |b| {
        b.iter_with_large_drop(|| {
            postcard::from_bytes::<Vec<(String, Item)>>(black_box(&post)).unwrap()
        })
    });
    g.bench_function("postcard_encode", |b| {
        b.iter(|| postcard::to_allocvec(black_box(&items)).unwrap())
    });
    g.throughput(Throughput::Bytes(json.len() as u64));
    g.bench_function("serde_json_decode", |b| {
        b.iter_with_large_drop(|| {
            serde_json::from_slice::<Vec<(String, Item)>>(black_box(&json)).unwrap()
        })
    });
    g.bench_function("serde_json_encode", |b| {
        b.iter(|| serde_json::to_vec(black_box(&items)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
