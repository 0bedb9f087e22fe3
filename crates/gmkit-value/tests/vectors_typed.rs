//! Every Elephant and ds vector of the shared test vectors through a matching Rust type and
//! back to the same bytes: a typed model (named structs, `Constructed<T>`, tuples, scalars,
//! or the schemaless typed enum [`Gml`]) where serde can express the data, `Value` (read →
//! write) where it cannot (shared and circular references, schema'd non-verbose structs,
//! typed-integer records the serde mapping writes as reals). The split is asserted by name, so a
//! vector moving from typed to `Value` (or failing) is a test failure.
//!
//! "The same bytes" is the vector's own bytes for data written by Elephant 1.5.1's writer and by
//! GameMaker's ds writers (upper-case hex, nothing after the structure); older Elephant formats
//! (1.2.1 – 1.5.0) are compared with their 1.5.1 re-encoding (the only version written), and ds
//! inputs that GameMaker reads but never writes (lower-case hex, trailing bytes, HTML5-reader
//! cases) with the re-encoding of their decoded data.

use gmkit_value::ds::{self, DecodeOptions, DsData, DsKind, DsValue, Grid};
use gmkit_value::elephant::{self, Constructed, NoCallbacks, ReadOptions, SchemaRegistry};
use gmkit_value::{Value, elephant::WriteOptions};
use serde::de::{DeserializeOwned, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::fmt;

/// A GML value as a typed Rust enum (no shared handles): what a schemaless save maps to.
/// Each variant keeps the record type it was read from, so it writes the same record back.
#[derive(Debug, Clone, PartialEq)]
enum Gml {
    Undefined,
    Bool(bool),
    Int32(i32),
    Int64(i64),
    Real(f64),
    Str(String),
    Array(Vec<Gml>),
    /// A map or plain struct, members in order.
    Map(Vec<(Gml, Gml)>),
}

impl Serialize for Gml {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Gml::Undefined => s.serialize_unit(),
            Gml::Bool(b) => s.serialize_bool(*b),
            Gml::Int32(i) => s.serialize_i32(*i),
            Gml::Int64(i) => s.serialize_i64(*i),
            Gml::Real(r) => s.serialize_f64(*r),
            Gml::Str(x) => s.serialize_str(x),
            Gml::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for i in items {
                    seq.serialize_element(i)?;
                }
                seq.end()
            }
            Gml::Map(pairs) => {
                let mut m = s.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Gml {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Gml;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a GML value")
            }
            fn visit_unit<E>(self) -> Result<Gml, E> {
                Ok(Gml::Undefined)
            }
            fn visit_none<E>(self) -> Result<Gml, E> {
                Ok(Gml::Undefined)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Gml, E> {
                Ok(Gml::Bool(b))
            }
            fn visit_i32<E>(self, i: i32) -> Result<Gml, E> {
                Ok(Gml::Int32(i))
            }
            fn visit_i64<E>(self, i: i64) -> Result<Gml, E> {
                Ok(Gml::Int64(i))
            }
            fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<Gml, E> {
                Err(E::custom(format!("unsigned record {u} has no typed model")))
            }
            fn visit_f64<E>(self, r: f64) -> Result<Gml, E> {
                Ok(Gml::Real(r))
            }
            fn visit_str<E>(self, s: &str) -> Result<Gml, E> {
                Ok(Gml::Str(s.to_owned()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Gml, A::Error> {
                let mut items = Vec::new();
                while let Some(x) = a.next_element()? {
                    items.push(x);
                }
                Ok(Gml::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Gml, A::Error> {
                let mut pairs = Vec::new();
                while let Some(kv) = a.next_entry()? {
                    pairs.push(kv);
                }
                Ok(Gml::Map(pairs))
            }
        }
        d.deserialize_any(V)
    }
}

// ---- Elephant models -------------------------------------------------------------------

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Empty {}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct One {
    a: f64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Readme {
    a: f64,
    b: f64,
    c: (f64, f64, f64, f64, f64, String),
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Vec2 {
    x: f64,
    y: f64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename = "Vec2")]
struct Vec2Undefined {
    x: Option<f64>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct P {
    v: f64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct A {}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct B {}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename = "TestVerboseExclude")]
struct VerboseExclude {
    b: f64,
    c: f64,
}

/// bytes → `T` → bytes.
fn el<T: Serialize + DeserializeOwned>(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let t: T = elephant::from_bytes(bytes).map_err(|e| format!("from_bytes: {e}"))?;
    elephant::to_bytes(&t).map_err(|e| format!("to_bytes: {e}"))
}

type Typed = fn(&[u8]) -> Result<Vec<u8>, String>;

/// The typed model of each Elephant vector that has one.
fn elephant_model(name: &str) -> Option<(&'static str, Typed)> {
    let name = name
        .strip_prefix("export_html5_")
        .or_else(|| name.strip_prefix("export_zlib6_"))
        .unwrap_or(name);
    Some(match name {
        "root_f64" | "root_f64_infinity" | "root_f64_nan" | "v121_root_real_readable" => {
            ("f64", el::<f64>)
        }
        "root_string" | "root_string_utf8" | "root_empty_string" => ("String", el::<String>),
        "root_undefined" | "root_method_as_undefined" => ("Option<f64>", el::<Option<f64>>),
        "root_bool_true" | "root_bool_false" => ("bool", el::<bool>),
        "root_int32" => ("i32", el::<i32>),
        "root_int64" | "root_int64_negative" => ("i64", el::<i64>),
        "array_empty" | "array_common_f64" => ("Vec<f64>", el::<Vec<f64>>),
        "array_mixed_any" => ("(f64, String, ())", el::<(f64, String, ())>),
        "array_all_undefined" => ("Vec<()>", el::<Vec<()>>),
        "array_nested_common_array" => ("Vec<Vec<f64>>", el::<Vec<Vec<f64>>>),
        "struct_empty" => ("struct Empty", el::<Empty>),
        "struct_one" | "v140_struct_one" | "v150_struct_one" | "v130_struct_one_codes_14_17" => {
            ("struct One", el::<One>)
        }
        "struct_readme_example" => ("struct Readme", el::<Readme>),
        "constructor_no_schema_verbose" | "v121_constructor_no_schema" => {
            ("Constructed<Vec2>", el::<Constructed<Vec2>>)
        }
        "v130_constructor_verbose_codes_14_17" => (
            "Constructed<Vec2Undefined>",
            el::<Constructed<Vec2Undefined>>,
        ),
        "constructor_index_reuse" => ("Vec<Constructed<P>>", el::<Vec<Constructed<P>>>),
        "constructor_two_constructors" => (
            "(Constructed<A>, Constructed<B>, Constructed<A>)",
            el::<(Constructed<A>, Constructed<B>, Constructed<A>)>,
        ),
        "constructor_verbose_exclude" => (
            "Constructed<VerboseExclude>",
            el::<Constructed<VerboseExclude>>,
        ),
        _ => return None,
    })
}

/// Elephant vectors whose data only `Value` can carry, and why.
const ELEPHANT_VALUE_ONLY: &[(&str, &str)] = &[
    ("struct_self_reference", "circular reference"),
    ("array_self_reference", "circular reference"),
    ("array_shared_child", "shared reference"),
    ("struct_ids_preorder", "shared reference"),
    ("v121_array_shared_ref", "shared reference"),
    ("testloop_parent_child_cycle", "circular reference"),
    (
        "export_html5_testloop_parent_child_cycle",
        "circular reference",
    ),
    (
        "export_zlib6_testloop_parent_child_cycle",
        "circular reference",
    ),
    ("constructor_schema_v1", "schema'd (non-verbose) struct"),
    (
        "v140_constructor_schema_no_skiplist",
        "schema'd (non-verbose) struct",
    ),
    (
        "constructor_schema_all_datatypes",
        "schema'd struct with u8..f16 records",
    ),
    (
        "constructor_schema_diffs_only",
        "schema'd struct with a skip list",
    ),
    (
        "constructor_force_version",
        "schema'd struct, forced version",
    ),
    (
        "constructor_version_verbose",
        "verbose struct with a schema version",
    ),
];

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn read_lines(file: &str) -> Option<Vec<Json>> {
    let path = gmkit_testdata::vectors_dir()?.join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e})", path.display()));
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("vector line is JSON"))
            .collect(),
    )
}

#[derive(Default)]
struct Tally {
    typed: Vec<String>,
    value: Vec<String>,
    /// Compared with the vector's own bytes (not a re-encoding).
    exact: usize,
    skipped: Vec<String>,
    failures: Vec<String>,
}

#[test]
fn elephant_vectors_through_rust_types() {
    let lines = gmkit_testdata::need!(read_lines("elephant.jsonl"));
    let mut t = Tally::default();
    for line in &lines {
        let name = line["name"].as_str().unwrap_or("?").to_owned();
        let kind = line["kind"].as_str().unwrap_or("");
        if line["error"].as_bool().unwrap_or(false) || !matches!(kind, "buffer" | "export_string") {
            // Error vectors and ToJSON/FromJSON trees hold no data to round-trip.
            t.skipped.push(name);
            continue;
        }
        let bytes = unhex(line["hex"].as_str().expect("hex"));
        let schemas = match line.get("schemas") {
            Some(s) => SchemaRegistry::from_json(s).expect("schemas"),
            None => SchemaRegistry::new(),
        };
        let ropts = ReadOptions::with_schemas(&schemas);
        let wopts = WriteOptions::with_schemas(&schemas);
        let read = |b: &[u8]| elephant::read_with(b, &ropts, &mut NoCallbacks).map(|r| r.0);
        // The bytes to reproduce: the vector's own for 1.5.1 data, else its 1.5.1 re-encoding.
        let own = line["format"].as_str() == Some("1.5.1");
        let target = if own {
            bytes.clone()
        } else {
            let v = read(&bytes).expect("vector decodes");
            elephant::write_with(&v, &wopts, &mut NoCallbacks).expect("re-encode")
        };
        let result = match elephant_model(&name) {
            Some((ty, f)) => {
                t.typed.push(format!("{name} ({ty})"));
                f(&bytes)
            }
            None => {
                t.value.push(name.clone());
                read(&bytes)
                    .and_then(|v| elephant::write_with(&v, &wopts, &mut NoCallbacks))
                    .map_err(|e| e.to_string())
            }
        };
        match result {
            Ok(out) if out == target => t.exact += own as usize,
            Ok(out) => t.failures.push(format!(
                "{name}: wrote {out:02X?}\n   expected {target:02X?}"
            )),
            Err(e) => t.failures.push(format!("{name}: {e}")),
        }
        // The export string of a typed model is the vector's export string's data.
        if kind == "export_string"
            && let Some((_, f)) = elephant_model(&name)
        {
            let s = line["export_string"].as_str().expect("export_string");
            let raw = elephant::decompress(s, elephant::DEFAULT_MAX_DECOMPRESSED).unwrap();
            assert_eq!(f(&raw).unwrap(), raw, "{name}");
        }
    }
    assert!(t.failures.is_empty(), "{}", t.failures.join("\n"));
    let value_only: BTreeSet<&str> = ELEPHANT_VALUE_ONLY.iter().map(|v| v.0).collect();
    let value: BTreeSet<&str> = t.value.iter().map(String::as_str).collect();
    assert_eq!(value, value_only, "vectors without a typed model");
    println!(
        "Elephant vectors: {} typed, {} through Value ({} compared with the vector's own bytes), \
         {} without data (errors, ToJSON/FromJSON)",
        t.typed.len(),
        t.value.len(),
        t.exact,
        t.skipped.len()
    );
    for x in &t.typed {
        println!("  typed: {x}");
    }
    assert_eq!(t.typed.len() + t.value.len() + t.skipped.len(), lines.len());
}

// ---- ds models ---------------------------------------------------------------------------

/// A map written by the cabin game (legacy ds_map, hash order).
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Tree {
    x: f64,
    object_name: String,
    y: f64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Door {
    image_yscale: f64,
    door_id: String,
    x: f64,
    image_xscale: f64,
    object_name: String,
    y: f64,
}

/// The structure a typed value serializes to, laid out as the decoded `d` (kind, generation,
/// queue slots, magic).
fn ds_relayout(d: &DsData, typed: DsValue) -> Result<DsData, String> {
    let items = |v: DsValue| match v {
        DsValue::List(items) => Ok(items),
        other => Err(format!("expected a list, got {other:?}")),
    };
    let arrays = |items: Vec<Value>| -> Result<Vec<Vec<Value>>, String> {
        items
            .into_iter()
            .map(|v| {
                v.as_array()
                    .map(|a| a.read().clone())
                    .ok_or_else(|| format!("expected an array, got {v:?}"))
            })
            .collect()
    };
    let value = match &d.value {
        DsValue::Map(_) => typed,
        DsValue::List(_) => DsValue::List(items(typed)?),
        DsValue::Queue(_) => DsValue::Queue(items(typed)?),
        DsValue::Stack(_) => DsValue::Stack(items(typed)?),
        DsValue::Priority(_) => DsValue::Priority(
            arrays(items(typed)?)?
                .into_iter()
                .map(|mut pv| {
                    let v = pv.pop().unwrap_or_default();
                    (pv.pop().unwrap_or_default(), v)
                })
                .collect(),
        ),
        DsValue::Grid(g) => DsValue::Grid(
            Grid::from_columns(g.height(), arrays(items(typed)?)?).ok_or("ragged grid")?,
        ),
    };
    Ok(DsData { value, ..d.clone() })
}

fn ds_typed<T: Serialize + DeserializeOwned>(d: &DsData) -> Result<String, String> {
    let t: T = ds::from_ds_value(d.value.clone()).map_err(|e| format!("from_ds_value: {e}"))?;
    let typed = ds::to_ds_value(&t).map_err(|e| format!("to_ds_value: {e}"))?;
    ds::encode(&ds_relayout(d, typed)?).map_err(|e| format!("encode: {e}"))
}

/// The typed model of a ds vector: a named struct where the vector is a known record, else
/// the schemaless typed model of its structure.
type DsTyped = fn(&DsData) -> Result<String, String>;

fn ds_model(name: &str, kind: DsKind) -> (&'static str, DsTyped) {
    match (name, kind) {
        ("cabin_map402_tower_2_0" | "cabin_map402_cabin_1_0", _) => {
            ("struct Tree", ds_typed::<Tree>)
        }
        ("cabin_map402_cabin_1_1", _) => ("struct Door", ds_typed::<Door>),
        (_, DsKind::Map) => ("Gml::Map", ds_typed::<Gml>),
        (_, DsKind::List | DsKind::Queue | DsKind::Stack) => ("Vec<Gml>", ds_typed::<Vec<Gml>>),
        (_, DsKind::Grid) => ("Vec<Vec<Gml>> (columns)", ds_typed::<Vec<Vec<Gml>>>),
        (_, DsKind::Priority) => ("Vec<(Gml, Gml)>", ds_typed::<Vec<(Gml, Gml)>>),
    }
}

/// ds vectors whose data only `Value` (the decoded `DsData`) carries, and why.
const DS_VALUE_ONLY: &[(&str, &str)] = &[
    ("map402_legacy_2d_array", "legacy 2-D array"),
    (
        "list303_int32_kind7",
        "int32 record (serde writes numbers as reals)",
    ),
    (
        "xtiled_list302_int32_template",
        "int32 record (serde writes numbers as reals)",
    ),
    (
        "list303_int64_kind10_small",
        "int64 record within 2^53 (serde writes a real)",
    ),
    (
        "list303_int64_kind10_large",
        "int64 record within 2^53 (serde writes a real)",
    ),
    ("list303_ptr_kind3", "ptr record"),
];

#[test]
fn ds_vectors_through_rust_types() {
    let lines = gmkit_testdata::need!(read_lines("ds.jsonl"));
    let value_only: BTreeSet<&str> = DS_VALUE_ONLY.iter().map(|v| v.0).collect();
    let mut t = Tally::default();
    for line in &lines {
        let name = line["name"].as_str().unwrap_or("?").to_owned();
        if line["error"].as_bool().unwrap_or(false) {
            t.skipped.push(name);
            continue;
        }
        let kind: DsKind = line["kind"].as_str().expect("kind").parse().expect("kind");
        let hex = line["hex"].as_str().expect("hex");
        let opts = if line["profile"].as_str() == Some("html5-reader") {
            DecodeOptions::html5()
        } else {
            DecodeOptions::default()
        };
        let d = ds::decode_with(hex, Some(kind), &opts).expect("vector decodes");
        let target = ds::encode(&d).expect("decoded data encodes");
        let own = target == hex;
        let (ty, f) = ds_model(&name, kind);
        let result = match f(&d) {
            Ok(out) if out == target => {
                t.typed.push(format!("{name} ({ty})"));
                Ok(out)
            }
            _ => {
                // No typed model writes these records: through the decoded data (`Value`s).
                t.value.push(name.clone());
                let back = ds::decode_with(&target, Some(kind), &opts).expect("re-decode");
                ds::encode(&back).map_err(|e| e.to_string())
            }
        };
        match result {
            Ok(out) if out == target => t.exact += own as usize,
            Ok(out) => t
                .failures
                .push(format!("{name}: wrote {out}\n   expected {target}")),
            Err(e) => t.failures.push(format!("{name}: {e}")),
        }
    }
    let value: BTreeSet<&str> = t.value.iter().map(String::as_str).collect();
    assert_eq!(value, value_only, "vectors without a typed model");
    assert!(t.failures.is_empty(), "{}", t.failures.join("\n"));
    println!(
        "ds vectors: {} typed, {} through Value ({} equal to the vector's own text), {} error \
         vectors",
        t.typed.len(),
        t.value.len(),
        t.exact,
        t.skipped.len()
    );
    for x in &t.typed {
        println!("  typed: {x}");
    }
    assert_eq!(t.typed.len() + t.value.len() + t.skipped.len(), lines.len());
}
