//! The tagged JSON notation of the test vectors and of `gmkit elephant decode`:
//! `{"f64":1.5}`, `{"u8":200}`, `{"string":"hi"}`, `{"u64":"-2"}`, `{"undefined":null}`,
//! `{"array":[…]}`, `{"struct":[[name,value],…]}`,
//! `{"constructed":{"constructor":…,"version":…,"verbose":…,"fields":[…],"skipped":[…]}}` and
//! `{"ref":id}` for a container seen before (ids count arrays and structs in pre-order).

use super::datatype::Datatype;
use super::error::{Error, Result};
use super::schema::SchemaRegistry;
use crate::value::{RefPool, StructMeta};
use crate::{Array, Struct, StructData, Value};
use serde_json::{Map, Value as Json, json};
use std::collections::HashMap;

/// Converts a value to the tagged JSON form. With `schemas`, the fields of non-verbose
/// constructed structs are tagged with their schema datatype (`{"u8":200}` rather than
/// `{"f64":200}`), which is what the data holds.
pub fn to_tagged(v: &Value, schemas: Option<&SchemaRegistry>) -> Json {
    let mut t = ToTagged {
        ids: HashMap::new(),
        schemas,
    };
    t.value(v, None)
}

struct ToTagged<'a> {
    ids: HashMap<usize, usize>,
    schemas: Option<&'a SchemaRegistry>,
}

/// A real in tagged JSON. NaNs keep their bits: the canonical quiet NaN is `"NaN"`, any other
/// (a negative NaN, a payload) its bits as `"0x"` + 16 hex digits, as in [`crate::json`].
fn real(x: f64) -> Json {
    if x.is_nan() {
        crate::json::real_to_json(x)
    } else if x.is_infinite() {
        json!(if x > 0.0 { "Infinity" } else { "-Infinity" })
    } else {
        json!(x)
    }
}

fn tag(t: &str, v: Json) -> Json {
    let mut m = Map::new();
    m.insert(t.into(), v);
    Json::Object(m)
}

impl ToTagged<'_> {
    fn seen(&mut self, key: usize) -> Option<Json> {
        if let Some(id) = self.ids.get(&key) {
            return Some(tag("ref", json!(id)));
        }
        let n = self.ids.len();
        self.ids.insert(key, n);
        None
    }

    fn value(&mut self, v: &Value, dt: Option<Datatype>) -> Json {
        use Datatype as D;
        match (v, dt) {
            (Value::Real(x), Some(d @ (D::U8 | D::S8 | D::U16 | D::S16 | D::U32)))
                if x.fract() == 0.0 =>
            {
                tag(d.tag(), json!(*x as i64))
            }
            (Value::Real(x), Some(d @ (D::F16 | D::F32))) => tag(d.tag(), real(*x)),
            (Value::Undefined, _) => tag("undefined", Json::Null),
            (Value::Bool(b), _) => tag("bool", json!(b)),
            (Value::Real(x), _) => tag("f64", real(*x)),
            (Value::Int32(i), _) => tag("s32", json!(i)),
            (Value::Int64(i), _) => tag("u64", json!(i.to_string())),
            (Value::Ptr(p), _) => tag("u64", json!((*p as i64).to_string())),
            (Value::String(s), _) => tag("string", json!(s)),
            (Value::Array2d(rows), _) => {
                self.ids.insert(usize::MAX - self.ids.len(), 0);
                let rows: Vec<Json> = rows
                    .iter()
                    .map(|r| {
                        self.ids.insert(usize::MAX - self.ids.len(), 0);
                        tag(
                            "array",
                            Json::Array(r.iter().map(|x| self.value(x, None)).collect()),
                        )
                    })
                    .collect();
                tag("array", Json::Array(rows))
            }
            (Value::Array(a), _) => {
                if let Some(r) = self.seen(a.id()) {
                    return r;
                }
                let items = a.read().clone();
                tag(
                    "array",
                    Json::Array(items.iter().map(|x| self.value(x, None)).collect()),
                )
            }
            (Value::Struct(s), _) => {
                if let Some(r) = self.seen(s.id()) {
                    return r;
                }
                let d = s.read().clone();
                match &d.constructor {
                    None => tag("struct", self.pairs(&d.fields, None)),
                    Some(c) => {
                        let version = d.meta.version.unwrap_or(0);
                        let verbose = d.meta.verbose.unwrap_or(true);
                        let schema = if verbose {
                            None
                        } else {
                            self.schemas
                                .and_then(|r| r.get(c))
                                .and_then(|cs| cs.versions.get(&(version as u32)))
                                .map(|vs| vs.sorted_fields().to_vec())
                        };
                        let mut m = Map::new();
                        m.insert("constructor".into(), json!(c));
                        m.insert("version".into(), json!(version));
                        m.insert("verbose".into(), json!(verbose));
                        m.insert("fields".into(), self.pairs(&d.fields, schema.as_deref()));
                        if !d.meta.skipped.is_empty() {
                            m.insert("skipped".into(), json!(d.meta.skipped));
                        }
                        tag("constructed", Json::Object(m))
                    }
                }
            }
        }
    }

    fn pairs(&mut self, fields: &[(String, Value)], schema: Option<&[(String, Datatype)]>) -> Json {
        Json::Array(
            fields
                .iter()
                .map(|(k, v)| {
                    let dt = schema
                        .and_then(|s| s.iter().find(|(n, _)| n == k))
                        .map(|(_, d)| *d);
                    json!([k, self.value(v, dt)])
                })
                .collect(),
        )
    }
}

/// Parses the tagged JSON form. `{"ref":id}` must name a container that appears earlier in
/// pre-order (a container still being filled is allowed: that is how cycles are written).
pub fn from_tagged(j: &Json) -> Result<Value> {
    let mut f = FromTagged {
        pool: RefPool::default(),
    };
    f.value(j, "$", 0)
}

struct FromTagged {
    pool: RefPool,
}

fn err(path: &str, message: impl Into<String>) -> Error {
    Error::Json {
        path: path.into(),
        message: message.into(),
    }
}

fn num(j: &Json, path: &str) -> Result<f64> {
    match j {
        Json::Number(n) => n.as_f64().ok_or_else(|| err(path, "expected a number")),
        Json::String(s) => match s.as_str() {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            _ if s.starts_with("0x") => crate::json::real_from_json(j).map_err(|_| {
                err(
                    path,
                    format!("expected \"0x\" + 16 hex digits, found \"{s}\""),
                )
            }),
            _ => Err(err(path, format!("expected a number, found \"{s}\""))),
        },
        _ => Err(err(path, format!("expected a number, found {j}"))),
    }
}

impl FromTagged {
    fn value(&mut self, j: &Json, path: &str, depth: usize) -> Result<Value> {
        if depth > 512 {
            return Err(err(path, "nesting deeper than 512 levels"));
        }
        let obj = j
            .as_object()
            .filter(|o| o.len() == 1)
            .ok_or_else(|| err(path, format!("expected a one-key tagged object, found {j}")))?;
        let (t, v) = obj.iter().next().expect("one key");
        let p = format!("{path}.{t}");
        Ok(match t.as_str() {
            "undefined" => Value::Undefined,
            "bool" => Value::Bool(v.as_bool().ok_or_else(|| err(&p, "expected true/false"))?),
            "f64" | "f32" | "f16" | "u8" | "s8" | "u16" | "s16" | "u32" => Value::Real(num(v, &p)?),
            "s32" => Value::Int32(
                v.as_i64()
                    .and_then(|i| i32::try_from(i).ok())
                    .ok_or_else(|| err(&p, "expected a 32-bit integer"))?,
            ),
            "u64" => {
                let i = match v {
                    Json::String(s) => s.parse::<i64>().ok(),
                    Json::Number(n) => n.as_i64(),
                    _ => None,
                };
                Value::Int64(i.ok_or_else(|| err(&p, "expected a decimal int64 string"))?)
            }
            "string" => Value::String(
                v.as_str()
                    .ok_or_else(|| err(&p, "expected a string"))?
                    .to_owned(),
            ),
            "ref" => {
                let id = v
                    .as_u64()
                    .ok_or_else(|| err(&p, "expected a container id"))?;
                self.pool
                    .get(id as usize)
                    .ok_or_else(|| err(&p, format!("reference to unknown container id {id}")))?
            }
            "array" => {
                let items = v.as_array().ok_or_else(|| err(&p, "expected an array"))?;
                let a = Array::default();
                let slot = self.pool.open(Value::Array(a.clone()));
                let mut out = Vec::with_capacity(items.len());
                for (i, x) in items.iter().enumerate() {
                    out.push(self.value(x, &format!("{p}[{i}]"), depth + 1)?);
                }
                *a.write() = out;
                self.pool.finish(slot);
                Value::Array(a)
            }
            "struct" => {
                let s = Struct::default();
                let slot = self.pool.open(Value::Struct(s.clone()));
                let fields = self.pairs(v, &p, depth)?;
                s.write().fields = fields;
                self.pool.finish(slot);
                Value::Struct(s)
            }
            "constructed" => {
                let o = v.as_object().ok_or_else(|| err(&p, "expected an object"))?;
                let name = o
                    .get("constructor")
                    .and_then(Json::as_str)
                    .ok_or_else(|| err(&p, "expected \"constructor\": name"))?;
                let version = o.get("version").and_then(Json::as_u64).unwrap_or(0);
                let version =
                    u8::try_from(version).map_err(|_| err(&p, "version must be 0-127"))?;
                let verbose = o.get("verbose").and_then(Json::as_bool).unwrap_or(true);
                let skipped = match o.get("skipped") {
                    None => Vec::new(),
                    Some(Json::Array(a)) => a
                        .iter()
                        .map(|n| n.as_str().map(str::to_owned))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| err(&p, "\"skipped\" must hold names"))?,
                    Some(_) => return Err(err(&p, "\"skipped\" must be an array")),
                };
                let s = Struct::from_data(StructData {
                    constructor: Some(name.to_owned()),
                    fields: Vec::new(),
                    meta: StructMeta {
                        version: Some(version),
                        verbose: Some(verbose),
                        skipped,
                    },
                });
                let slot = self.pool.open(Value::Struct(s.clone()));
                let fields = match o.get("fields") {
                    Some(f) => self.pairs(f, &format!("{p}.fields"), depth)?,
                    None => Vec::new(),
                };
                s.write().fields = fields;
                self.pool.finish(slot);
                Value::Struct(s)
            }
            _ => return Err(err(path, format!("unknown tag \"{t}\""))),
        })
    }

    fn pairs(&mut self, j: &Json, p: &str, depth: usize) -> Result<Vec<(String, Value)>> {
        let items = j
            .as_array()
            .ok_or_else(|| err(p, "expected [[name, value], …]"))?;
        let mut out = Vec::with_capacity(items.len());
        for (i, pair) in items.iter().enumerate() {
            let pp = format!("{p}[{i}]");
            let (k, v) = match pair.as_array().map(Vec::as_slice) {
                Some([Json::String(k), v]) => (k, v),
                _ => return Err(err(&pp, "expected [name, value]")),
            };
            out.push((k.clone(), self.value(v, &pp, depth + 1)?));
        }
        Ok(out)
    }
}
