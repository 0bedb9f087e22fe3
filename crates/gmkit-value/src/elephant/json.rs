//! `ElephantToJSON` / `ElephantFromJSON`: value graphs ↔ JSON-able trees, with shared and
//! circular references as `{"__Elephant_Circular_Ref__": path}`.

use super::callbacks::{Callbacks, NoCallbacks};
use super::error::{Error, Result};
use super::schema::{SchemaRegistry, VersionSchema};
use crate::value::{RefPool, StructMeta};
use crate::{Array, Struct, StructData, Value};
use serde_json::{Map, Value as Json};
use std::collections::HashMap;

/// Key naming the constructor of a struct in ToJSON output.
pub const CONSTRUCTOR_KEY: &str = "__Elephant_Constructor__";
/// Key holding the schema version of a constructed struct in ToJSON output.
pub const SCHEMA_VERSION_KEY: &str = "__Elephant_Schema_Version__";
/// Key of a reference placeholder struct.
pub const CIRCULAR_REF_KEY: &str = "__Elephant_Circular_Ref__";

const MAX_DEPTH: usize = 512;

/// `ElephantToJSON(value)`: a tree (no sharing, no cycles) of plain arrays and structs.
///
/// ```
/// use gmkit_value::{Array, Value, elephant};
/// // One array shared twice: the tree holds it once, then a placeholder naming its path.
/// let shared = Value::from(Array::new(vec![Value::Real(1.0)]));
/// let root = Value::from(vec![shared.clone(), shared]);
/// let tree = elephant::to_json(&root, None)?;
/// assert_eq!(tree.at(0).get(0), Some(Value::Real(1.0)));
/// assert!(tree.get(1).and_then(|p| p.get("__Elephant_Circular_Ref__")).is_some());
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn to_json(value: &Value, schemas: Option<&SchemaRegistry>) -> Result<Value> {
    to_json_with(value, schemas, &mut NoCallbacks)
}

/// [`to_json`] with callbacks (pre-/post-write run for constructed structs).
pub fn to_json_with(
    value: &Value,
    schemas: Option<&SchemaRegistry>,
    callbacks: &mut dyn Callbacks,
) -> Result<Value> {
    let mut t = ToJson {
        schemas,
        callbacks,
        paths: HashMap::new(),
    };
    t.value(value, String::new(), 0)
}

struct ToJson<'a> {
    schemas: Option<&'a SchemaRegistry>,
    callbacks: &'a mut dyn Callbacks,
    paths: HashMap<usize, String>,
}

fn circular(path: &str) -> Value {
    Value::Struct(Struct::new(vec![(
        CIRCULAR_REF_KEY.into(),
        Value::String(path.into()),
    )]))
}

fn sorted_by_name(fields: &mut [(String, Value)]) {
    fields.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
}

impl ToJson<'_> {
    fn value(&mut self, v: &Value, path: String, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                offset: 0,
                limit: MAX_DEPTH,
            });
        }
        match v {
            Value::Array(a) => {
                if let Some(p) = self.paths.get(&a.id()) {
                    return Ok(circular(p));
                }
                self.paths.insert(a.id(), path.clone());
                let items = a.read().clone();
                let mut out = Vec::with_capacity(items.len());
                for (i, x) in items.iter().enumerate() {
                    out.push(self.value(x, format!("{path}[{i}]"), depth + 1)?);
                }
                Ok(Value::Array(Array::new(out)))
            }
            Value::Struct(s) => {
                if let Some(p) = self.paths.get(&s.id()) {
                    return Ok(circular(p));
                }
                self.paths.insert(s.id(), path.clone());
                let d = s.read().clone();
                let mut members: Vec<(String, Value)> = match &d.constructor {
                    None => d.fields.clone(),
                    Some(c) => {
                        let cs = self.schemas.and_then(|r| r.get(c));
                        let version = match cs {
                            Some(cs) => cs.latest_version(c)?,
                            None => 0,
                        };
                        let vs = cs.and_then(|cs| cs.versions.get(&version));
                        self.callbacks.pre_write(s, (version & 0x7F) as u8);
                        let d = s.read().clone();
                        let members = match vs.filter(|vs| !vs.is_verbose()) {
                            Some(vs) => schema_members(vs, &d),
                            None => {
                                let ex = cs.map(|c| c.verbose_exclude.as_slice()).unwrap_or(&[]);
                                d.fields
                                    .iter()
                                    .filter(|(k, _)| !ex.contains(k))
                                    .cloned()
                                    .collect()
                            }
                        };
                        self.callbacks.post_write(s, (version & 0x7F) as u8);
                        let mut m: Vec<(String, Value)> = vec![
                            (CONSTRUCTOR_KEY.into(), Value::String(c.clone())),
                            (SCHEMA_VERSION_KEY.into(), Value::Real(version as f64)),
                        ];
                        m.extend(members);
                        m
                    }
                };
                let special = if d.constructor.is_some() { 2 } else { 0 };
                sorted_by_name(&mut members[special..]);
                let mut out = Vec::with_capacity(members.len());
                for (i, (k, x)) in members.into_iter().enumerate() {
                    let x = if i < special {
                        x
                    } else {
                        self.value(&x, format!("{path}.{k}"), depth + 1)?
                    };
                    out.push((k, x));
                }
                Ok(Value::Struct(Struct::new(out)))
            }
            Value::Array2d(rows) => Ok(Value::Array(Array::new(
                rows.iter()
                    .map(|r| Value::Array(Array::new(r.clone())))
                    .collect(),
            ))),
            scalar => Ok(scalar.clone()),
        }
    }
}

fn schema_members(vs: &VersionSchema, d: &StructData) -> Vec<(String, Value)> {
    vs.sorted_fields()
        .iter()
        .map(|(k, _)| (k.clone(), d.get(k).cloned().unwrap_or_default()))
        .collect()
}

/// `ElephantFromJSON(tree)`: rebuilds references from `__Elephant_Circular_Ref__` placeholders
/// (paths, or the legacy integer creation counter) and constructed structs from
/// `__Elephant_Constructor__` / `__Elephant_Schema_Version__`.
///
/// ```
/// use gmkit_value::{Array, Value, elephant::{self, NoCallbacks}};
/// let shared = Value::from(Array::new(vec![Value::Real(1.0)]));
/// let root = Value::from(vec![shared.clone(), shared]);
/// let back = elephant::from_json(&elephant::to_json(&root, None)?, &mut NoCallbacks)?;
/// assert_eq!(back.get(1).and_then(|a| a.get(0)), Some(Value::Real(1.0)));
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn from_json(tree: &Value, callbacks: &mut dyn Callbacks) -> Result<Value> {
    let mut f = FromJson {
        by_path: HashMap::new(),
        created: RefPool::default(),
        post_read: Vec::new(),
        callbacks,
    };
    let v = f.value(tree, String::new(), 0)?;
    for (s, ver) in std::mem::take(&mut f.post_read) {
        f.callbacks.post_read(&s, ver);
    }
    Ok(v)
}

struct FromJson<'a> {
    /// Index into `created` of the container made at each path.
    by_path: HashMap<String, usize>,
    created: RefPool,
    post_read: Vec<(Struct, u8)>,
    callbacks: &'a mut dyn Callbacks,
}

impl FromJson<'_> {
    /// Registers a container being filled; returns its slot (to [`RefPool::finish`]).
    fn register(&mut self, path: &str, v: &Value) -> usize {
        let slot = self.created.open(v.clone());
        self.by_path.insert(path.to_owned(), slot);
        slot
    }

    fn value(&mut self, v: &Value, path: String, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                offset: 0,
                limit: MAX_DEPTH,
            });
        }
        match v {
            Value::Array(a) => {
                let out = Array::default();
                let new = Value::Array(out.clone());
                let slot = self.register(&path, &new);
                let items = a.read().clone();
                let mut xs = Vec::with_capacity(items.len());
                for (i, x) in items.iter().enumerate() {
                    xs.push(self.value(x, format!("{path}[{i}]"), depth + 1)?);
                }
                *out.write() = xs;
                self.created.finish(slot);
                Ok(new)
            }
            Value::Struct(s) => {
                let d = s.read().clone();
                if let Some(r) = d.get(CIRCULAR_REF_KEY) {
                    return Ok(match r {
                        Value::String(p) => self
                            .by_path
                            .get(p)
                            .and_then(|&i| self.created.get(i))
                            .unwrap_or_default(),
                        n => n
                            .as_f64()
                            .and_then(|i| self.created.get(i as usize))
                            .unwrap_or_default(),
                    });
                }
                let ctor = match d.get(CONSTRUCTOR_KEY) {
                    None => None,
                    Some(Value::String(c)) => {
                        let ver = d
                            .get(SCHEMA_VERSION_KEY)
                            .and_then(Value::as_f64)
                            .ok_or_else(|| Error::Json {
                                path: if path.is_empty() {
                                    "root".into()
                                } else {
                                    path.clone()
                                },
                                message: format!("No schema version found (constructor \"{c}\")"),
                            })?;
                        Some((c.clone(), (ver as i64 & 0x7F) as u8))
                    }
                    Some(other) => {
                        return Err(Error::Json {
                            path,
                            message: format!(
                                "{CONSTRUCTOR_KEY} must be a string, found {}",
                                other.type_name()
                            ),
                        });
                    }
                };
                let out = Struct::from_data(StructData {
                    constructor: ctor.as_ref().map(|(c, _)| c.clone()),
                    fields: Vec::new(),
                    meta: StructMeta {
                        version: ctor.as_ref().map(|(_, v)| *v),
                        ..Default::default()
                    },
                });
                let new = Value::Struct(out.clone());
                let slot = self.register(&path, &new);
                if let Some((_, ver)) = &ctor {
                    self.callbacks.pre_read(&out, *ver);
                    self.post_read.push((out.clone(), *ver));
                }
                let mut fields: Vec<(String, Value)> = d
                    .fields
                    .into_iter()
                    .filter(|(k, _)| k != CONSTRUCTOR_KEY && k != SCHEMA_VERSION_KEY)
                    .collect();
                sorted_by_name(&mut fields);
                let mut xs = Vec::with_capacity(fields.len());
                for (k, x) in fields {
                    let x = self.value(&x, format!("{path}.{k}"), depth + 1)?;
                    xs.push((k, x));
                }
                out.write().fields = xs;
                self.created.finish(slot);
                Ok(new)
            }
            scalar => Ok(scalar.clone()),
        }
    }
}

/// A JSON document as a plain value tree: `null` → undefined, numbers → reals, objects →
/// plain structs (key order as parsed), arrays → arrays.
///
/// ```
/// use gmkit_value::{Value, elephant};
/// let v = elephant::from_plain_json(&serde_json::json!({"hp": 3, "tags": ["a", null]}));
/// assert_eq!(v.get("hp"), Some(Value::Real(3.0)));
/// assert_eq!(v.at("tags").get(1), Some(Value::Undefined));
/// ```
pub fn from_plain_json(j: &Json) -> Value {
    match j {
        Json::Null => Value::Undefined,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Real(n.as_f64().unwrap_or(f64::NAN)),
        Json::String(s) => Value::String(s.clone()),
        Json::Array(a) => Value::Array(Array::new(a.iter().map(from_plain_json).collect())),
        Json::Object(o) => Value::Struct(Struct::new(
            o.iter()
                .map(|(k, v)| (k.clone(), from_plain_json(v)))
                .collect(),
        )),
    }
}

/// A value tree as plain JSON: undefined → `null`, numbers → numbers (non-finite → `null`),
/// structs → objects. Shared containers are repeated; cycles are an error.
///
/// ```
/// use gmkit_value::{Struct, Value, elephant};
/// let v = Value::from(Struct::new(vec![("hp".into(), Value::Real(3.0)), ("name".into(), Value::from("Ann"))]));
/// assert_eq!(elephant::to_plain_json(&v)?, serde_json::json!({"hp": 3.0, "name": "Ann"}));
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn to_plain_json(v: &Value) -> Result<Json> {
    plain(v, 0)
}

fn plain(v: &Value, depth: usize) -> Result<Json> {
    if depth > MAX_DEPTH {
        return Err(Error::TooDeep {
            offset: 0,
            limit: MAX_DEPTH,
        });
    }
    Ok(match v {
        Value::Undefined => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Real(x) => serde_json::Number::from_f64(*x).map_or(Json::Null, Json::Number),
        Value::Int32(i) => Json::from(*i),
        Value::Int64(i) => Json::from(*i),
        Value::Ptr(p) => Json::from(*p),
        Value::String(s) => Json::String(s.clone()),
        Value::Array(a) => Json::Array(
            a.read()
                .iter()
                .map(|x| plain(x, depth + 1))
                .collect::<Result<_>>()?,
        ),
        Value::Array2d(rows) => Json::Array(
            rows.iter()
                .map(|r| {
                    r.iter()
                        .map(|x| plain(x, depth + 2))
                        .collect::<Result<_>>()
                        .map(Json::Array)
                })
                .collect::<Result<_>>()?,
        ),
        Value::Struct(s) => {
            let mut m = Map::new();
            for (k, x) in &s.read().fields {
                m.insert(k.clone(), plain(x, depth + 1)?);
            }
            Json::Object(m)
        }
    })
}
