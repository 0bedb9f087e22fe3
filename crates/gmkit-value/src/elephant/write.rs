//! Writing [`Value`]s as Elephant 1.5.1 buffers.

use super::callbacks::{Callbacks, NoCallbacks};
use super::datatype::{Datatype, datatype_of};
use super::error::{Error, Result};
use super::read::DEFAULT_MAX_DEPTH;
use super::schema::{ConstructorSchema, SchemaRegistry, VersionSchema};
use super::{FOOTER, HEADER, VERSION_1_5_1};
use crate::{Array, Struct, Value};
use std::collections::HashMap;

/// Options of [`write_with`].
#[derive(Debug, Clone, Copy)]
pub struct WriteOptions<'a> {
    /// Schemas deciding how constructed structs are written.
    pub schemas: Option<&'a SchemaRegistry>,
    /// Diffs-only mode (`ElephantWrite(target, buffer, true)`): members equal to the constructor's
    /// template ([`ConstructorSchema::template`]) are left out.
    pub diffs_only: bool,
    /// Reproduce what a reader recorded in [`crate::value::StructMeta`] (version, verbose flag,
    /// skip list) instead of choosing by the schemas. On by default so that read → write gives
    /// the same bytes; turn off to re-encode with the registry's latest versions.
    pub respect_meta: bool,
    /// Maximum nesting of arrays and structs.
    pub max_depth: usize,
}

impl Default for WriteOptions<'_> {
    fn default() -> Self {
        WriteOptions {
            schemas: None,
            diffs_only: false,
            respect_meta: true,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

impl<'a> WriteOptions<'a> {
    /// Default options with these schemas.
    pub fn with_schemas(schemas: &'a SchemaRegistry) -> Self {
        WriteOptions {
            schemas: Some(schemas),
            ..Default::default()
        }
    }
}

/// Writes `value` as an Elephant 1.5.1 buffer with default options (no schemas: constructed
/// structs without recorded metadata are written verbose, version 0).
pub fn write(value: &Value) -> Result<Vec<u8>> {
    write_with(value, &WriteOptions::default(), &mut NoCallbacks)
}

/// Writes `value` as an Elephant 1.5.1 buffer.
pub fn write_with(
    value: &Value,
    opts: &WriteOptions<'_>,
    callbacks: &mut dyn Callbacks,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_into(&mut out, value, opts, callbacks)?;
    Ok(out)
}

/// Appends an Elephant 1.5.1 buffer for `value` to `out`.
pub fn write_into(
    out: &mut Vec<u8>,
    value: &Value,
    opts: &WriteOptions<'_>,
    callbacks: &mut dyn Callbacks,
) -> Result<()> {
    out.extend_from_slice(&HEADER.to_le_bytes());
    out.extend_from_slice(&VERSION_1_5_1.to_le_bytes());
    let mut w = Writer {
        out,
        opts,
        callbacks,
        ids: HashMap::new(),
        next_id: 0,
        ctors: HashMap::new(),
        depth: 0,
    };
    w.encode(value, Datatype::Any, None)?;
    w.out.extend_from_slice(&FOOTER.to_le_bytes());
    Ok(())
}

/// Converts a GML number the way `buffer_write` does for integer types: truncate toward zero,
/// then wrap.
fn to_int(v: &Value) -> Option<i64> {
    Some(match *v {
        Value::Real(r) => r as i64,
        Value::Int32(i) => i as i64,
        Value::Int64(i) => i,
        Value::Ptr(p) => p as i64,
        Value::Bool(b) => b as i64,
        _ => return None,
    })
}

fn to_float(v: &Value) -> Option<f64> {
    match *v {
        Value::Ptr(p) => Some(p as f64),
        _ => v.as_f64(),
    }
}

/// GML `==` as Elephant's diffs-only mode uses it: numbers by value, containers by identity.
pub(crate) fn gml_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Undefined, Value::Undefined) => true,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.ptr_eq(y),
        (Value::Struct(x), Value::Struct(y)) => x.ptr_eq(y),
        _ => match (to_float(a), to_float(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

/// Where a schema-typed value lives, for error messages.
type Field<'f> = Option<(&'f str, &'f str)>;

struct Writer<'w, 'o> {
    out: &'w mut Vec<u8>,
    opts: &'o WriteOptions<'o>,
    callbacks: &'o mut dyn Callbacks,
    ids: HashMap<usize, usize>,
    next_id: usize,
    ctors: HashMap<String, u16>,
    depth: usize,
}

impl Writer<'_, '_> {
    fn string(&mut self, s: &str) -> Result<()> {
        if memchr::memchr(0, s.as_bytes()).is_some() {
            return Err(Error::NulInString {
                offset: self.out.len(),
            });
        }
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(0);
        Ok(())
    }

    fn mismatch(&self, v: &Value, dt: Datatype, field: Field<'_>) -> Error {
        let (c, f) = field.unwrap_or(("", ""));
        Error::TypeMismatch {
            offset: self.out.len(),
            expected: dt.name(),
            found: v.type_name(),
            constructor: c.into(),
            field: f.into(),
        }
    }

    /// `encode(value, dt)` of the spec (§3).
    fn encode(&mut self, v: &Value, dt: Datatype, field: Field<'_>) -> Result<()> {
        use Datatype::*;
        let bad = |w: &Self| w.mismatch(v, dt, field);
        match dt {
            Any => {
                let d = datatype_of(v);
                self.out.push(d.code());
                self.encode(v, d, field)
            }
            Undefined => Ok(()),
            Array => match v {
                Value::Array(a) => self.nested(|w| w.array(a)),
                Value::Array2d(rows) => self.nested(|w| w.array2d(rows)),
                _ => Err(bad(self)),
            },
            Struct => match v {
                Value::Struct(s) => self.nested(|w| w.structure(s)),
                _ => Err(bad(self)),
            },
            String | Text => match v {
                Value::String(s) => self.string(s),
                _ => Err(bad(self)),
            },
            Bool => match v {
                Value::Bool(b) => {
                    self.out.push(*b as u8);
                    Ok(())
                }
                _ => {
                    let x = to_float(v).ok_or_else(|| bad(self))?;
                    self.out.push((x > 0.5) as u8);
                    Ok(())
                }
            },
            F64 => {
                let x = to_float(v).ok_or_else(|| bad(self))?;
                self.out.extend_from_slice(&x.to_le_bytes());
                Ok(())
            }
            F32 => {
                let x = to_float(v).ok_or_else(|| bad(self))?;
                self.out.extend_from_slice(&(x as f32).to_le_bytes());
                Ok(())
            }
            F16 => {
                let x = to_float(v).ok_or_else(|| bad(self))?;
                self.out
                    .extend_from_slice(&half::f16::from_f64(x).to_le_bytes());
                Ok(())
            }
            U8 | S8 | U16 | S16 | U32 | S32 | U64 => {
                let i = to_int(v).ok_or_else(|| bad(self))?;
                let n = dt.fixed_size().unwrap_or(8);
                self.out.extend_from_slice(&i.to_le_bytes()[..n]);
                Ok(())
            }
        }
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        if self.depth >= self.opts.max_depth {
            return Err(Error::TooDeep {
                offset: self.out.len(),
                limit: self.opts.max_depth,
            });
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// Writes a reference if the container was written before; else registers it.
    fn reference(&mut self, key: usize) -> Result<bool> {
        if let Some(&id) = self.ids.get(&key) {
            if id > 0xFFFF {
                return Err(Error::IdOverflow {
                    offset: self.out.len(),
                    id,
                });
            }
            self.out.extend_from_slice(&[0xFF, 0xFF]);
            self.out.extend_from_slice(&(id as u16).to_le_bytes());
            return Ok(true);
        }
        self.ids.insert(key, self.next_id);
        self.next_id += 1;
        Ok(false)
    }

    fn len16(&mut self, len: usize) -> Result<()> {
        if len >= 0xFFFF {
            return Err(Error::ArrayTooLong {
                offset: self.out.len(),
                len,
            });
        }
        self.out.extend_from_slice(&(len as u16).to_le_bytes());
        Ok(())
    }

    fn elements(&mut self, items: &[Value]) -> Result<()> {
        self.len16(items.len())?;
        let Some(first) = items.first() else {
            return Ok(());
        };
        let d0 = datatype_of(first);
        let common = if items.iter().all(|v| datatype_of(v) == d0) {
            d0
        } else {
            Datatype::Any
        };
        self.out.push(common.code());
        for v in items {
            self.encode(v, common, None)?;
        }
        Ok(())
    }

    fn array(&mut self, a: &Array) -> Result<()> {
        if self.reference(a.id())? {
            return Ok(());
        }
        let items = a.read();
        self.elements(&items)
    }

    /// A legacy 2D array: written as an array of row arrays (what GameMaker 2.3+ holds).
    fn array2d(&mut self, rows: &[Vec<Value>]) -> Result<()> {
        self.next_id += 1;
        self.len16(rows.len())?;
        if rows.is_empty() {
            return Ok(());
        }
        self.out.push(Datatype::Array.code());
        for r in rows {
            self.next_id += 1;
            self.elements(r)?;
        }
        Ok(())
    }

    fn structure(&mut self, s: &Struct) -> Result<()> {
        if self.reference(s.id())? {
            return Ok(());
        }
        let ctor = s.read().constructor.clone();
        match ctor {
            None => {
                let d = s.read();
                let n = d.fields.len();
                if n >= 0xFFFE {
                    return Err(Error::StructTooLarge {
                        offset: self.out.len(),
                        len: n,
                        limit: 0xFFFE,
                    });
                }
                self.out.extend_from_slice(&(n as u16).to_le_bytes());
                for (k, v) in &d.fields {
                    self.string(k)?;
                    self.encode(v, Datatype::Any, None)?;
                }
                Ok(())
            }
            Some(name) => self.constructed(s, &name),
        }
    }

    fn constructor_index(&mut self, name: &str) -> Result<()> {
        self.out.extend_from_slice(&[0xFE, 0xFF]);
        if let Some(&i) = self.ctors.get(name) {
            self.out.extend_from_slice(&i.to_le_bytes());
            return Ok(());
        }
        let i = u16::try_from(self.ctors.len()).map_err(|_| Error::TooManyConstructors {
            offset: self.out.len(),
        })?;
        self.ctors.insert(name.to_owned(), i);
        self.out.extend_from_slice(&i.to_le_bytes());
        self.string(name)
    }

    fn constructed(&mut self, s: &Struct, name: &str) -> Result<()> {
        let opts = self.opts;
        let cs: Option<&ConstructorSchema> = opts.schemas.and_then(|r| r.get(name));
        let (meta_version, meta_verbose, meta_skipped) = {
            let d = s.read();
            (d.meta.version, d.meta.verbose, d.meta.skipped.clone())
        };
        let (version, verbose, from_meta) = match (meta_version, meta_verbose) {
            (Some(v), Some(b)) if opts.respect_meta => (v as u32, b, true),
            _ => {
                let v = match cs {
                    Some(cs) => cs.latest_version(name)?,
                    None => 0,
                };
                let vs = cs.and_then(|cs| cs.versions.get(&v));
                (
                    v,
                    v == 0 || vs.is_some_and(VersionSchema::is_verbose),
                    false,
                )
            }
        };
        let vs = if version == 0 {
            None
        } else {
            cs.and_then(|cs| cs.versions.get(&version))
        };
        if !verbose && vs.is_none() {
            return Err(if cs.is_none_or(|cs| cs.versions.is_empty()) {
                Error::MissingSchema {
                    offset: self.out.len(),
                    constructor: name.into(),
                }
            } else {
                Error::MissingSchemaVersion {
                    offset: self.out.len(),
                    constructor: name.into(),
                    version,
                }
            });
        }
        let flag_version = (version & 0x7F) as u8;
        self.constructor_index(name)?;
        self.out.push(((verbose as u8) << 7) | flag_version);
        let template = if opts.diffs_only {
            cs.filter(|cs| cs.template.is_some())
        } else {
            None
        };
        if verbose {
            // The member list is taken before pre-write runs.
            let names: Vec<String> = if from_meta {
                s.read().fields.iter().map(|(k, _)| k.clone()).collect()
            } else {
                let exclude = cs.map(|c| c.verbose_exclude.as_slice()).unwrap_or(&[]);
                let all: Vec<String> = match vs {
                    Some(vs) => vs.verbose_names().into_iter().map(str::to_owned).collect(),
                    None => s.read().fields.iter().map(|(k, _)| k.clone()).collect(),
                };
                all.into_iter().filter(|n| !exclude.contains(n)).collect()
            };
            self.callbacks.pre_write(s, flag_version);
            let d = s.read();
            let mut members: Vec<(&str, &Value)> = Vec::with_capacity(names.len());
            let undefined = Value::Undefined;
            for (i, n) in names.iter().enumerate() {
                let v = match d.fields.get(i) {
                    Some((k, v)) if k == n => v,
                    _ => d.get(n).unwrap_or(&undefined),
                };
                if let Some(t) = template.and_then(|cs| cs.template_value(n))
                    && gml_eq(v, t)
                {
                    continue;
                }
                members.push((n, v));
            }
            if members.len() > 0xFFFF {
                return Err(Error::StructTooLarge {
                    offset: self.out.len(),
                    len: members.len(),
                    limit: 0x10000,
                });
            }
            self.out
                .extend_from_slice(&(members.len() as u16).to_le_bytes());
            for (k, v) in members {
                self.string(k)?;
                self.encode(v, Datatype::Any, None)?;
            }
        } else {
            let vs = vs.expect("checked above");
            self.callbacks.pre_write(s, flag_version);
            let d = s.read();
            let sorted = vs.sorted_fields();
            let mut skip = vec![false; sorted.len()];
            for (i, (f, _)) in sorted.iter().enumerate() {
                skip[i] = if from_meta && !meta_skipped.is_empty() {
                    meta_skipped.contains(f)
                } else if let Some(t) = template.and_then(|cs| cs.template_value(f)) {
                    d.get(f).is_some_and(|v| gml_eq(v, t))
                } else {
                    false
                };
            }
            for (i, _) in skip.iter().enumerate().filter(|(_, s)| **s) {
                self.out.extend_from_slice(&(i as u16 + 1).to_le_bytes());
            }
            self.out.extend_from_slice(&[0, 0]);
            for (i, (f, dt)) in sorted.iter().enumerate() {
                if skip[i] {
                    continue;
                }
                let v = d.get(f).ok_or_else(|| Error::MissingField {
                    offset: self.out.len(),
                    constructor: name.into(),
                    field: f.clone(),
                    version,
                })?;
                self.encode(v, *dt, Some((name, f)))?;
            }
        }
        self.callbacks.post_write(s, flag_version);
        Ok(())
    }
}
