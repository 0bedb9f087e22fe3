//! Property tests: writer/reader symmetry, serde round trips, and a no-panic mutation run.

mod common;

use gmkit_value::ds::{
    self, DecodeOptions, DsData, DsKind, DsValue, Generation, Grid, QueueSlots,
    ds_data_from_tagged_json, ds_data_to_tagged_json,
};
use gmkit_value::{Array, Value};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<u64>().prop_map(|b| Value::Real(f64::from_bits(b))),
        any::<f64>().prop_map(Value::Real),
        any::<String>().prop_map(Value::String),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::Int32),
        any::<i64>().prop_map(Value::Int64),
        any::<u64>().prop_map(Value::Ptr),
        Just(Value::Undefined),
    ]
}

/// Values that a generation can hold and read back identically.
fn value(generation: Generation) -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 48, 6, move |inner| {
        let arrays =
            prop::collection::vec(inner.clone(), 0..6).prop_map(|v| Value::Array(Array::new(v)));
        match generation {
            Generation::Current => arrays.boxed(),
            // Legacy 2-D arrays: one row reads as a 1-D array, so use 2+ rows or one empty row.
            Generation::Legacy => prop_oneof![
                arrays,
                prop::collection::vec(prop::collection::vec(inner, 0..4), 2..4)
                    .prop_map(Value::Array2d),
                Just(Value::Array2d(vec![Vec::new()])),
            ]
            .boxed(),
        }
    })
}

fn ds_data() -> impl Strategy<Value = DsData> {
    (
        prop_oneof![Just(Generation::Current), Just(Generation::Legacy)],
        any::<bool>(),
    )
        .prop_flat_map(|(generation, cesu8)| {
            let v = move || value(generation);
            let items = move || prop::collection::vec(v(), 0..6);
            let pairs = move || prop::collection::vec((v(), v()), 0..6);
            let structure = prop_oneof![
                pairs().prop_map(|p| (DsValue::Map(p), None)),
                items().prop_map(|i| (DsValue::List(i), None)),
                items().prop_map(|i| (DsValue::Stack(i), None)),
                pairs().prop_map(|p| (DsValue::Priority(p), None)),
                (0usize..4, 0usize..4)
                    .prop_flat_map(move |(w, h)| {
                        prop::collection::vec(v(), w * h)
                            .prop_map(move |c| Grid::from_cells(w, h, c).unwrap())
                    })
                    .prop_map(|g| (DsValue::Grid(g), None)),
                (items(), items(), items()).prop_map(|(before, live, after)| {
                    let slots = (!before.is_empty() || !after.is_empty())
                        .then_some(QueueSlots { before, after });
                    (DsValue::Queue(live), slots)
                }),
            ];
            structure.prop_map(move |(value, queue_slots)| DsData {
                value,
                generation,
                cesu8,
                queue_slots,
                magic: None,
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn encode_decode_encode_is_identical(d in ds_data()) {
        let hex = ds::encode(&d).unwrap();
        let back = ds::decode(&hex, None).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back.value, &d.value);
        prop_assert_eq!(back.generation, d.generation);
        prop_assert_eq!(&back.queue_slots, &d.queue_slots);
        prop_assert_eq!(ds::encode(&back).unwrap(), hex.clone());
        // and through the tagged JSON text
        let text = ds_data_to_tagged_json(&back).to_string();
        let j: serde_json::Value = serde_json::from_str(&text).unwrap();
        let again = ds_data_from_tagged_json(&j).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(ds::encode(&again).unwrap(), hex);
    }

    #[test]
    fn html5_form_reads_back(d in ds_data()) {
        let opts = ds::EncodeOptions { html5: true, ..Default::default() };
        let hex = ds::encode_with(&d, &opts).unwrap();
        let back = ds::decode(&hex, Some(d.value.kind()))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back.value, &d.value);
        prop_assert_eq!(ds::encode_with(&back, &opts).unwrap(), hex);
    }

    #[test]
    fn serde_round_trip(save in save()) {
        let hex = ds::to_string(&save).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back: Save = ds::from_str(&hex).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, save);
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Inner {
    name: String,
    score: f64,
    flags: Vec<bool>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Mode {
    Easy,
    Timed(f64),
    Custom { lives: u8, label: String },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Save {
    name: String,
    hp: f64,
    alive: bool,
    level: i32,
    gold: u64,
    tags: Vec<String>,
    pos: Option<f64>,
    nickname: Option<String>,
    inventory: HashMap<String, f64>,
    best: Inner,
    party: Vec<Inner>,
    rival: Option<Inner>,
    map: Vec<Vec<f64>>,
    mode: Mode,
    unit: (),
}

fn finite() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("finite", |f| f.is_finite())
}

fn inner() -> impl Strategy<Value = Inner> {
    (
        any::<String>(),
        finite(),
        prop::collection::vec(any::<bool>(), 0..4),
    )
        .prop_map(|(name, score, flags)| Inner { name, score, flags })
}

fn save() -> impl Strategy<Value = Save> {
    let mode = prop_oneof![
        Just(Mode::Easy),
        finite().prop_map(Mode::Timed),
        (any::<u8>(), any::<String>()).prop_map(|(lives, label)| Mode::Custom { lives, label }),
    ];
    (
        (
            any::<String>(),
            finite(),
            any::<bool>(),
            any::<i32>(),
            0..=i64::MAX as u64,
        ),
        (
            prop::collection::vec(any::<String>(), 0..4),
            prop::option::of(finite()),
            prop::option::of(any::<String>()),
            prop::collection::hash_map(any::<String>(), finite(), 0..4),
        ),
        (
            inner(),
            prop::collection::vec(inner(), 0..3),
            prop::option::of(inner()),
            prop::collection::vec(prop::collection::vec(finite(), 0..3), 0..3),
            mode,
        ),
    )
        .prop_map(
            |(
                (name, hp, alive, level, gold),
                (tags, pos, nickname, inventory),
                (best, party, rival, map, mode),
            )| Save {
                name,
                hp,
                alive,
                level,
                gold,
                tags,
                pos,
                nickname,
                inventory,
                best,
                party,
                rival,
                map,
                mode,
                unit: (),
            },
        )
}

/// A small deterministic xorshift64* generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const HEX: &[u8] = b"0123456789ABCDEFabcdef";

fn mutate(rng: &mut Rng, base: &str) -> String {
    let mut b = base.as_bytes().to_vec();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        match rng.below(7) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = HEX[rng.below(HEX.len())];
            }
            1 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.next() as u8;
            }
            2 => b.truncate(rng.below(b.len() + 1)),
            3 => {
                let i = rng.below(b.len() + 1);
                let n = 1 + rng.below(16);
                let ins: Vec<u8> = (0..n).map(|_| HEX[rng.below(16)]).collect();
                b.splice(i..i, ins);
            }
            4 => {
                // a count or length field set to a large or negative value
                if b.len() >= 16 {
                    let i = 8 * rng.below(b.len() / 8);
                    let big = ["FFFFFFFF", "FFFFFF7F", "00000080", "10000000"][rng.below(4)];
                    b.splice(i..(i + 8).min(b.len()), big.bytes());
                }
            }
            5 => {
                // random hex after a valid magic
                let magic = [
                    "93010000", "2F010000", "5B020000", "CB000000", "67000000", "F7010000",
                    "92010000", "2E010000", "5A020000", "CA000000", "66000000", "F6010000",
                ];
                let mut s = magic[rng.below(magic.len())].as_bytes().to_vec();
                let n = rng.below(64) * 2;
                s.extend((0..n).map(|_| HEX[rng.below(16)]));
                b = s;
            }
            _ => {
                // splice in a real record sequence from elsewhere in the input
                if b.len() > 8 {
                    let i = rng.below(b.len());
                    let j = rng.below(b.len());
                    let (lo, hi) = (i.min(j), i.max(j));
                    let chunk = b[lo..hi].to_vec();
                    let at = rng.below(b.len() + 1);
                    b.splice(at..at, chunk);
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn mutated_vectors_never_panic() {
    let mut corpus: Vec<String> = gmkit_testdata::need!(common::ds_vectors())
        .into_iter()
        .map(|v| v.hex)
        .collect();
    let nested = DsData {
        value: DsValue::List(vec![Value::from(vec![
            Value::from(vec![Value::Real(1.0), Value::from("x")]),
            Value::Array2d(vec![vec![Value::Bool(true)], vec![]]),
        ])]),
        generation: Generation::Legacy,
        cesu8: false,
        queue_slots: None,
        magic: None,
    };
    corpus.push(ds::encode(&nested).unwrap());
    // the hostile inputs of ../shared/repro (skipped with the vectors when absent)
    for name in ["ds-grid-width-2pow30-height0.txt", "ds-grid-bomb.ini"] {
        let text = std::fs::read_to_string(gmkit_testdata::need!(gmkit_testdata::repro_path(name)))
            .expect("repro input");
        let hex = text
            .lines()
            .map(|l| {
                l.split_once('=')
                    .map_or(l, |(_, v)| v)
                    .trim()
                    .trim_matches('"')
            })
            .find(|l| ds::detect(l).is_some())
            .expect("a ds_* string");
        corpus.push(hex.to_owned());
    }
    // legacy grid magic 601 and a string with a stray character
    corpus.push("59020000020000000100000000000000000000000000F03F010000000100000061".into());
    corpus.push("\u{feff}2F0100000100000000000000000000000000F03F".into());
    let html5 = DecodeOptions::html5();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut err) = (0usize, 0usize);
    for i in 0..100_000 {
        let base = &corpus[i % corpus.len()];
        let text = mutate(&mut rng, base);
        let kind = if i % 3 == 0 {
            None
        } else {
            Some(DsKind::ALL[rng.below(6)])
        };
        match ds::decode(&text, kind) {
            Ok(d) => {
                ok += 1;
                // whatever decodes strictly re-encodes to the same contents
                let again =
                    ds::decode(&ds::encode(&d).unwrap(), kind).expect("re-decode of own output");
                assert_eq!(again, d, "input {text}");
            }
            Err(e) => {
                err += 1;
                assert!(!e.to_string().is_empty());
            }
        }
        if let Ok(d) = ds::decode_with(&text, kind, &html5) {
            // whatever decodes (leniently too) encodes: encode never fails on decoded data
            ds::encode(&d).expect("decoded data encodes");
        }
    }
    eprintln!("mutations: {ok} decoded, {err} rejected");
    assert!(ok > 1000 && err > 1000);
}

#[test]
fn deep_nesting_is_rejected_not_overflowed() {
    // 100,000 nested arrays: a decoder without a depth limit would overflow the stack.
    let mut hex = String::from("2F01000001000000");
    for _ in 0..100_000 {
        hex.push_str("0200000001000000");
    }
    hex.push_str("05000000");
    let e = ds::decode(&hex, None).unwrap_err();
    assert!(e.to_string().contains("nesting too deep"), "{e}");
}

#[test]
fn huge_counts_do_not_allocate() {
    for hex in [
        "2F010000FFFFFF7F",
        "5B020000FFFFFF7FFFFFFF7F",
        "CB000000FFFFFF7F00000000FFFFFF7F",
        "F7010000FFFFFF7F",
        "2F010000010000000100000000FFFF7F",
    ] {
        let e = ds::decode(hex, None).unwrap_err();
        assert!(e.to_string().contains("byte"), "{e}");
    }
}
