//! `Serialize` / `Deserialize` for [`Value`]: the plain, natural mapping.
//!
//! | Value | serde |
//! |---|---|
//! | undefined | unit / none |
//! | bool | bool |
//! | real | f64 |
//! | int32, int64 | i32, i64 |
//! | ptr | u64 |
//! | string | str |
//! | array | sequence |
//! | 2-D array | sequence of sequences |
//! | struct | map of its fields (the constructor name is not kept) |
//!
//! Deserializing: every number becomes a real (GML's number type), sequences arrays, maps
//! structs (keys must be strings), none and unit undefined. Serializing a cyclic value fails.
//!
//! ```
//! use gmkit_value::Value;
//! let v: Value = serde_json::from_str(r#"{"hp": 3, "tags": ["a", null]}"#).unwrap();
//! assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"hp":3.0,"tags":["a",null]}"#);
//! ```

use crate::{Array, Struct, Value};
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::ser::{self, SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cell::RefCell;
use std::fmt;

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let stack = RefCell::new(Vec::new());
        Guarded {
            v: self,
            stack: &stack,
        }
        .serialize(s)
    }
}

/// A value being serialized, with the containers around it (to detect cycles).
struct Guarded<'a> {
    v: &'a Value,
    stack: &'a RefCell<Vec<usize>>,
}

impl Guarded<'_> {
    fn enter<E: ser::Error>(&self, id: usize) -> Result<(), E> {
        let mut st = self.stack.borrow_mut();
        if st.contains(&id) {
            return Err(E::custom("cannot serialize a cyclic value"));
        }
        st.push(id);
        Ok(())
    }
    fn leave(&self) {
        self.stack.borrow_mut().pop();
    }
    fn child<'b>(&'b self, v: &'b Value) -> Guarded<'b> {
        Guarded {
            v,
            stack: self.stack,
        }
    }
}

impl Serialize for Guarded<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.v {
            Value::Undefined => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Real(r) => s.serialize_f64(*r),
            Value::Int32(i) => s.serialize_i32(*i),
            Value::Int64(i) => s.serialize_i64(*i),
            Value::Ptr(p) => s.serialize_u64(*p),
            Value::String(x) => s.serialize_str(x),
            Value::Array2d(rows) => {
                let mut seq = s.serialize_seq(Some(rows.len()))?;
                for r in rows {
                    seq.serialize_element(&Row(r, self))?;
                }
                seq.end()
            }
            Value::Array(a) => {
                self.enter(a.id())?;
                // Holding the read lock is safe: a cycle is refused above before it could
                // re-enter this array's lock.
                let items = a.read();
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for x in items.iter() {
                    seq.serialize_element(&self.child(x))?;
                }
                self.leave();
                seq.end()
            }
            Value::Struct(st) => {
                self.enter(st.id())?;
                let data = st.read();
                let mut m = s.serialize_map(Some(data.fields.len()))?;
                for (k, x) in &data.fields {
                    m.serialize_entry(k, &self.child(x))?;
                }
                self.leave();
                m.end()
            }
        }
    }
}

struct Row<'a>(&'a [Value], &'a Guarded<'a>);
impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for x in self.0 {
            seq.serialize_element(&self.1.child(x))?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a GML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Real(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Real(v as f64))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Real(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Array(Array::new(
            v.iter().map(|&b| Value::Real(b.into())).collect(),
        )))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Undefined)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Undefined)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        // Never trust a size hint for allocation.
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(x) = seq.next_element()? {
            items.push(x);
        }
        Ok(Value::Array(Array::new(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields: Vec<(String, Value)> = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            fields.push((k, v));
        }
        Ok(Value::Struct(Struct::new(fields)))
    }
}
