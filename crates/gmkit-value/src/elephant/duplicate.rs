//! `ElephantDuplicate`: a deep copy that keeps sharing and cycles and obeys schemas.

use super::callbacks::{Callbacks, NoCallbacks};
use super::datatype::Datatype;
use super::error::{Error, Result};
use super::schema::SchemaRegistry;
use crate::value::RefPool;
use crate::{Array, Struct, StructData, Value};
use std::collections::HashMap;

const MAX_DEPTH: usize = 512;

/// `ElephantDuplicate(value)`: deep copy; shared containers stay shared, cycles stay cycles.
///
/// ```
/// use gmkit_value::{Array, Value, elephant};
/// let inner = Value::from(Array::new(vec![Value::Real(1.0)]));
/// let root = Value::from(vec![inner.clone(), inner]);
/// let copy = elephant::duplicate(&root, None)?;
/// assert_eq!(copy.get(0), Some(Value::from(vec![Value::Real(1.0)])));
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn duplicate(value: &Value, schemas: Option<&SchemaRegistry>) -> Result<Value> {
    duplicate_with(value, schemas, false, &mut NoCallbacks)
}

/// `ElephantDuplicate(value, force_verbose)` with callbacks.
///
/// Constructed structs keep the members §5.1 selects: the latest schema version's fields
/// (strings coerced with GML `string()`, containers type-checked, `undefined`-typed fields
/// emptied, other scalars copied unconverted) unless the version is verbose or `force_verbose`,
/// in which case all members minus `ELEPHANT_VERBOSE_EXCLUDE`.
pub fn duplicate_with(
    value: &Value,
    schemas: Option<&SchemaRegistry>,
    force_verbose: bool,
    callbacks: &mut dyn Callbacks,
) -> Result<Value> {
    let mut d = Dup {
        schemas,
        force_verbose,
        callbacks,
        memo: HashMap::new(),
        copies: RefPool::default(),
        post_read: Vec::new(),
    };
    let v = d.value(value, 0)?;
    for (s, ver) in std::mem::take(&mut d.post_read) {
        d.callbacks.post_read(&s, ver);
    }
    Ok(v)
}

struct Dup<'a> {
    schemas: Option<&'a SchemaRegistry>,
    force_verbose: bool,
    callbacks: &'a mut dyn Callbacks,
    /// Source container id → slot of its copy in `copies`.
    memo: HashMap<usize, usize>,
    copies: RefPool,
    post_read: Vec<(Struct, u8)>,
}

/// GML `string(x)` for scalars.
fn gml_string(v: &Value) -> Value {
    Value::String(match v {
        Value::String(s) => s.clone(),
        Value::Undefined => "undefined".into(),
        Value::Bool(b) => b.to_string(),
        Value::Real(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{}", *x as i64),
        Value::Real(x) => format!("{x}"),
        Value::Int32(i) => i.to_string(),
        Value::Int64(i) => i.to_string(),
        Value::Ptr(p) => format!("{p:016X}"),
        other => format!("{other:?}"),
    })
}

impl Dup<'_> {
    fn value(&mut self, v: &Value, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                offset: 0,
                limit: MAX_DEPTH,
            });
        }
        match v {
            Value::Array(a) => {
                if let Some(c) = self.memo.get(&a.id()).and_then(|&i| self.copies.get(i)) {
                    return Ok(c);
                }
                let out = Array::default();
                let slot = self.copies.open(Value::Array(out.clone()));
                self.memo.insert(a.id(), slot);
                let items = a.read().clone();
                let mut xs = Vec::with_capacity(items.len());
                for x in &items {
                    xs.push(self.value(x, depth + 1)?);
                }
                *out.write() = xs;
                self.copies.finish(slot);
                Ok(Value::Array(out))
            }
            Value::Struct(s) => {
                if let Some(c) = self.memo.get(&s.id()).and_then(|&i| self.copies.get(i)) {
                    return Ok(c);
                }
                let src = s.read().clone();
                let out = Struct::from_data(StructData {
                    constructor: src.constructor.clone(),
                    fields: Vec::new(),
                    meta: src.meta.clone(),
                });
                let slot = self.copies.open(Value::Struct(out.clone()));
                self.memo.insert(s.id(), slot);
                let Some(c) = &src.constructor else {
                    let mut xs = Vec::with_capacity(src.fields.len());
                    for (k, x) in &src.fields {
                        xs.push((k.clone(), self.value(x, depth + 1)?));
                    }
                    out.write().fields = xs;
                    self.copies.finish(slot);
                    return Ok(Value::Struct(out));
                };
                let cs = self.schemas.and_then(|r| r.get(c));
                let version = match cs {
                    Some(cs) => cs.latest_version(c)?,
                    None => 0,
                };
                let ver = (version & 0x7F) as u8;
                let vs = cs.and_then(|cs| cs.versions.get(&version));
                self.callbacks.pre_write(s, ver);
                self.callbacks.pre_read(&out, ver);
                self.post_read.push((out.clone(), ver));
                let src = s.read().clone();
                let mut xs = Vec::new();
                match vs {
                    Some(vs) if !vs.is_verbose() && !self.force_verbose => {
                        for (k, dt) in vs.sorted_fields() {
                            let x = src.get(k).cloned().unwrap_or_default();
                            let x = match dt {
                                Datatype::String | Datatype::Text => gml_string(&x),
                                Datatype::Undefined => Value::Undefined,
                                Datatype::Array | Datatype::Struct => {
                                    let ok = matches!(
                                        (dt, &x),
                                        (Datatype::Array, Value::Array(_) | Value::Array2d(_))
                                            | (Datatype::Struct, Value::Struct(_))
                                    );
                                    if !ok {
                                        return Err(Error::TypeMismatch {
                                            offset: 0,
                                            expected: dt.name(),
                                            found: x.type_name(),
                                            constructor: c.clone(),
                                            field: k.clone(),
                                        });
                                    }
                                    self.value(&x, depth + 1)?
                                }
                                _ => self.value(&x, depth + 1)?,
                            };
                            xs.push((k.clone(), x));
                        }
                    }
                    _ => {
                        let ex = cs.map(|c| c.verbose_exclude.as_slice()).unwrap_or(&[]);
                        let pairs: Vec<(String, Value)> = match vs {
                            Some(vs) if !self.force_verbose => vs
                                .verbose_names()
                                .into_iter()
                                .map(|k| (k.to_owned(), src.get(k).cloned().unwrap_or_default()))
                                .collect(),
                            _ => src.fields.clone(),
                        };
                        for (k, x) in pairs.into_iter().filter(|(k, _)| !ex.contains(k)) {
                            xs.push((k, self.value(&x, depth + 1)?));
                        }
                    }
                }
                out.write().fields = xs;
                self.copies.finish(slot);
                self.callbacks.post_write(s, ver);
                Ok(Value::Struct(out))
            }
            scalar => Ok(scalar.clone()),
        }
    }
}
