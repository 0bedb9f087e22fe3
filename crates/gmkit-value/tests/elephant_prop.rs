//! Property tests: value graphs with shared and cyclic references, serde round trips, and a
//! decoder robustness run over mutated vectors.

use gmkit_value::elephant::{self, NoCallbacks, ReadOptions, SchemaRegistry};
use gmkit_value::{Array, Struct, Value};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------------
// Value graphs

#[derive(Debug, Clone)]
enum Slot {
    Scalar(Value),
    /// An edge to container `i % pool size`: may point back (cycles) or share.
    Edge(usize),
}

#[derive(Debug, Clone)]
enum Node {
    Array(Vec<Slot>),
    Plain(Vec<(String, Slot)>),
    Constructed(u8, Vec<(String, Slot)>),
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Undefined),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(|b| Value::Real(f64::from_bits(b))),
        (-1000i32..1000).prop_map(|x| Value::Real(x as f64)),
        any::<i32>().prop_map(Value::Int32),
        any::<i64>().prop_map(Value::Int64),
        "[a-zA-Z0-9 éß€]{0,8}".prop_map(Value::String),
    ]
}

fn slot() -> impl Strategy<Value = Slot> {
    prop_oneof![
        3 => scalar().prop_map(Slot::Scalar),
        2 => any::<usize>().prop_map(Slot::Edge),
    ]
}

fn node() -> impl Strategy<Value = Node> {
    let name = "[a-z_]{0,6}";
    prop_oneof![
        prop::collection::vec(slot(), 0..6).prop_map(Node::Array),
        prop::collection::vec((name, slot()), 0..5).prop_map(Node::Plain),
        (0u8..3, prop::collection::vec((name, slot()), 0..4))
            .prop_map(|(c, f)| Node::Constructed(c, f)),
    ]
}

fn build(nodes: &[Node]) -> Value {
    let handles: Vec<Value> = nodes
        .iter()
        .map(|n| match n {
            Node::Array(_) => Value::Array(Array::default()),
            Node::Plain(_) => Value::Struct(Struct::default()),
            Node::Constructed(c, _) => Value::Struct(Struct::constructed(format!("C{c}"), vec![])),
        })
        .collect();
    let resolve = |s: &Slot| match s {
        Slot::Scalar(v) => v.clone(),
        Slot::Edge(i) => handles[i % handles.len()].clone(),
    };
    for (n, h) in nodes.iter().zip(&handles) {
        match (n, h) {
            (Node::Array(items), Value::Array(a)) => {
                *a.write() = items.iter().map(resolve).collect()
            }
            (Node::Plain(f) | Node::Constructed(_, f), Value::Struct(s)) => {
                s.write().fields = f.iter().map(|(k, v)| (k.clone(), resolve(v))).collect()
            }
            _ => unreachable!(),
        }
    }
    handles[0].clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn graphs_round_trip(nodes in prop::collection::vec(node(), 1..12)) {
        let v = build(&nodes);
        let bytes = elephant::write(&v).unwrap();
        let back = elephant::read(&bytes).unwrap();
        prop_assert_eq!(&back, &v);
        let again = elephant::write(&back).unwrap();
        prop_assert_eq!(again, bytes.clone());
        // Tagged JSON and export strings keep the graph too.
        let t = elephant::tagged::from_tagged(&elephant::tagged::to_tagged(&back, None)).unwrap();
        prop_assert_eq!(elephant::write(&t).unwrap(), bytes.clone());
        let s = elephant::export_string(&v).unwrap();
        prop_assert_eq!(elephant::write(&elephant::import_string(&s).unwrap()).unwrap(), bytes);
        // Duplicate keeps sharing and cycles.
        let d = elephant::duplicate(&v, None).unwrap();
        prop_assert_eq!(&d, &v);
    }
}

// ---------------------------------------------------------------------------------------------
// serde

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum Shape {
    Dot,
    Circle(f64),
    Line(f64, f64),
    Rect { w: f64, h: f64 },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Inner {
    tag: String,
    n: i32,
    big: u64,
    neg: i64,
    small: u8,
    ratio: f32,
    maybe: Option<Vec<Option<f64>>>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Outer {
    name: String,
    flag: bool,
    letter: char,
    inners: Vec<Inner>,
    map: BTreeMap<String, Vec<i16>>,
    shapes: Vec<Shape>,
    pair: (u16, String),
    nested: Vec<Vec<f64>>,
    unit: (),
}

fn inner() -> impl Strategy<Value = Inner> {
    (
        "[a-z]{0,5}",
        any::<i32>(),
        any::<u64>(),
        any::<i64>(),
        any::<u8>(),
        -1e6f32..1e6,
        prop::option::of(prop::collection::vec(prop::option::of(-1e9f64..1e9), 0..4)),
    )
        .prop_map(|(tag, n, big, neg, small, ratio, maybe)| Inner {
            tag,
            n,
            big,
            neg,
            small,
            ratio,
            maybe,
        })
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Dot),
        any::<f64>()
            .prop_filter("no NaN", |x| !x.is_nan())
            .prop_map(Shape::Circle),
        (-1e3f64..1e3, -1e3f64..1e3).prop_map(|(a, b)| Shape::Line(a, b)),
        (0f64..1e3, 0f64..1e3).prop_map(|(w, h)| Shape::Rect { w, h }),
    ]
}

fn outer() -> impl Strategy<Value = Outer> {
    (
        "[ -~]{0,12}",
        any::<bool>(),
        any::<char>().prop_filter("no NUL", |c| *c != '\0'),
        prop::collection::vec(inner(), 0..4),
        prop::collection::btree_map(
            "[a-z0-9]{1,4}",
            prop::collection::vec(any::<i16>(), 0..4),
            0..4,
        ),
        prop::collection::vec(shape(), 0..6),
        (any::<u16>(), "[a-z]{0,3}"),
        prop::collection::vec(prop::collection::vec(-1e3f64..1e3, 0..3), 0..3),
    )
        .prop_map(
            |(name, flag, letter, inners, map, shapes, pair, nested)| Outer {
                name,
                flag,
                letter,
                inners,
                map,
                shapes,
                pair,
                nested,
                unit: (),
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn serde_round_trips(o in outer()) {
        let bytes = elephant::to_bytes(&o).unwrap();
        let back: Outer = elephant::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &o);
        // The generic reader agrees, and re-writing the value graph gives the same bytes.
        let v = elephant::read(&bytes).unwrap();
        prop_assert_eq!(elephant::write(&v).unwrap(), bytes.clone());
        let s = elephant::to_export_string(&o).unwrap();
        prop_assert_eq!(elephant::from_export_string::<Outer>(&s).unwrap(), o);
    }
}

#[test]
fn serde_reads_shared_references_and_rejects_cycles() {
    // [[1], ref 1]: the shared child is read twice.
    let bytes = hex("50454C4501050100CD0200CD010009000000000000F03FFFFF0100544E4148");
    let v: Vec<Vec<f64>> = elephant::from_bytes(&bytes).unwrap();
    assert_eq!(v, vec![vec![1.0], vec![1.0]]);
    // r[0] = r: a cycle cannot become a Rust value.
    let bytes = hex("50454C4501050100CD0100CDFFFF0000544E4148");
    assert!(elephant::from_bytes::<serde_json::Value>(&bytes).is_err());
}

#[test]
fn serde_accepts_any_numeric_datatype_and_schemas() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct AllTypes {
        a_u8: f64,
        b_s8: i32,
        c_u16: u32,
        e_u32: f64,
        f_s32: i64,
        g_f16: f64,
        h_f32: f32,
        j_bool: bool,
        k_string: String,
        l_u64: u64,
        m_text: String,
        o_array: Vec<f64>,
        q_undef: Option<f64>,
    }
    let schemas = SchemaRegistry::from_json_str(
        r#"{"AllTypes": {"v3": {"a_u8": 1, "b_s8": 2, "c_u16": 3, "d_s16": 4, "e_u32": 5,
        "f_s32": 6, "g_f16": 7, "h_f32": 8, "i_f64": 9, "j_bool": 10, "k_string": 11,
        "l_u64": 12, "m_text": 13, "n_any": 204, "o_array": 205, "p_struct": 206,
        "q_undef": 207}}}"#,
    )
    .unwrap();
    let bytes = hex(
        "50454C4501050100CEFEFF0000416C6C547970657300030000C8FBFFFFFEFF00286BEE6079FEFF003E0000803E000000000000E0BF0173747200000000000001000074787400090000000000001C40010009000000000000F03F0000544E4148",
    );
    let v: AllTypes = elephant::from_bytes_with(&bytes, Some(&schemas)).unwrap();
    assert_eq!(v.a_u8, 200.0);
    assert_eq!(v.b_s8, -5);
    assert_eq!(v.c_u16, 65535);
    assert_eq!(v.e_u32, 4e9);
    assert_eq!(v.f_s32, -100000);
    assert_eq!(v.g_f16, 1.5);
    assert!(v.j_bool);
    assert_eq!(v.l_u64, 1 << 40);
    assert_eq!(v.m_text, "txt");
    assert_eq!(v.o_array, vec![1.0]);
    assert_eq!(v.q_undef, None);
    assert!(
        elephant::from_bytes::<AllTypes>(&bytes).is_err(),
        "needs the schema"
    );
}

#[test]
fn writer_limits_are_errors() {
    let big = Value::Array(Array::new(vec![Value::Undefined; 65535]));
    assert!(matches!(
        elephant::write(&big),
        Err(elephant::Error::ArrayTooLong { .. })
    ));
    let ok = Value::Array(Array::new(vec![Value::Undefined; 65534]));
    assert!(elephant::write(&ok).is_ok());
    assert!(elephant::to_bytes(&vec![0u8; 65535]).is_err());
    assert!(elephant::to_bytes(&"a\0b").is_err());
    // Deep nesting is an error, not a stack overflow.
    let mut v = Value::Undefined;
    for _ in 0..600 {
        v = Value::Array(Array::new(vec![v]));
    }
    assert!(matches!(
        elephant::write(&v),
        Err(elephant::Error::TooDeep { .. })
    ));
    let mut deep = hex("50454C4501050100");
    for _ in 0..100_000 {
        deep.extend_from_slice(&[0xCD, 0x01, 0x00]);
    }
    assert!(matches!(
        elephant::read(&deep),
        Err(elephant::Error::TooDeep { .. })
    ));
    assert!(elephant::from_bytes::<serde_json::Value>(&deep).is_err());
}

// ---------------------------------------------------------------------------------------------
// Robustness: mutated vectors never panic or hang.

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn vector_corpus() -> Option<Vec<(Vec<u8>, SchemaRegistry)>> {
    let dir = gmkit_testdata::vectors_dir()?;
    let text = std::fs::read_to_string(dir.join("elephant.jsonl")).expect("elephant.jsonl");
    let vectors = text
        .lines()
        .filter_map(|l| {
            let j: serde_json::Value = serde_json::from_str(l).ok()?;
            let bytes = hex(j["hex"].as_str()?);
            let reg = j
                .get("schemas")
                .and_then(|s| SchemaRegistry::from_json(s).ok())
                .unwrap_or_default();
            Some((bytes, reg))
        })
        .collect();
    Some(vectors)
}

/// The Elephant inputs of `../shared/repro` below 64 KiB (mutated like the vectors) and above
/// (mutated a few times each: every decode of those runs into the value budget).
/// Small buffers, big buffers and export strings.
type ReproCorpus = (Vec<Vec<u8>>, Vec<Vec<u8>>, Vec<String>);

fn repro_corpus() -> Option<ReproCorpus> {
    let dir = gmkit_testdata::repro_dir()?;
    let (mut small, mut big, mut strings) = (Vec::new(), Vec::new(), Vec::new());
    for e in std::fs::read_dir(&dir).expect("repro dir") {
        let path = e.expect("repro entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("elephant-") && name.ends_with(".bin") {
            let b = std::fs::read(&path).expect("repro input");
            if b.len() < 64 << 10 {
                small.push(b)
            } else {
                big.push(b)
            }
        } else if name.starts_with("export-string-") {
            strings.push(
                std::fs::read_to_string(&path)
                    .expect("repro input")
                    .trim()
                    .to_owned(),
            );
        }
    }
    assert!(!small.is_empty() && !big.is_empty() && !strings.is_empty());
    Some((small, big, strings))
}

#[test]
fn mutated_vectors_never_panic() {
    let mut corpus = gmkit_testdata::need!(vector_corpus());
    assert!(corpus.len() > 50);
    let (small, big, strings) = gmkit_testdata::need!(repro_corpus());
    corpus.extend(small.into_iter().map(|b| (b, SchemaRegistry::default())));
    for s in &strings {
        let v = elephant::import_string(s).expect("the repro export strings are valid");
        corpus.push((elephant::write(&v).unwrap(), SchemaRegistry::default()));
    }
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut rnd = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut decoded = 0;
    for i in 0..100_000 {
        let (base, reg) = &corpus[i % corpus.len()];
        let mut b = base.clone();
        for _ in 0..1 + rnd() % 4 {
            let at = (rnd() as usize) % (b.len() + 1);
            match rnd() % 5 {
                0 if at < b.len() => b[at] ^= 1 << (rnd() % 8),
                1 if at < b.len() => b[at] = rnd() as u8,
                2 => b.truncate(at),
                3 => b.insert(at, rnd() as u8),
                _ => {
                    let w = [0xFF, 0xFE, 0xCC, 0xCD, 0xCE, 0x00][(rnd() % 6) as usize];
                    b.insert(at, w)
                }
            }
        }
        let opts = ReadOptions {
            schemas: Some(reg),
            legacy_atmc: i % 2 == 0,
            ..Default::default()
        };
        if let Ok((v, _)) = elephant::read_with(&b, &opts, &mut NoCallbacks) {
            decoded += 1;
            let _ = elephant::write(&v);
            let _ = elephant::tagged::to_tagged(&v, Some(reg));
        }
        let _ = elephant::from_bytes_with::<serde::de::IgnoredAny>(&b, Some(reg));
        if i % 16 == 0 {
            let s = elephant::compress(&b);
            let cut = &s[..(rnd() as usize) % (s.len() + 1)];
            let _ = elephant::import_string(cut);
            let s = &strings[i % strings.len()];
            let cut = &s[..(rnd() as usize) % (s.len() + 1)];
            let _ = elephant::import_string(cut);
        }
    }
    assert!(decoded > 0);
    for base in &big {
        for _ in 0..2 {
            let mut b = base.clone();
            let at = (rnd() as usize) % b.len();
            b[at] ^= 1 << (rnd() % 8);
            let _ = elephant::read(&b);
            let _ = elephant::from_bytes::<serde::de::IgnoredAny>(&b);
        }
    }
}
