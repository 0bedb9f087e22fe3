//! Serde deserializer: ds_* strings → Rust data, mirroring [`super::to_string`].
//!
//! A ds_map reads as a map or struct; a list, stack or queue as a sequence; a priority queue as a
//! sequence of `(priority, value)` pairs; a grid as a sequence of columns. Inside, reals read as
//! any Rust number when they fit (integers must be integral), reals also read as `bool`
//! (non-zero = true, as GML does), undefined reads as `None` / `()`, and a string read where a
//! map or struct is expected is decoded as a nested ds_map string.
//!
//! ```
//! use serde::Deserialize;
//! #[derive(Deserialize, Debug, PartialEq)]
//! struct Tree { x: u32, object_name: String, y: u32 }
//! let hex = "9201000003000000010000000100000078000000000000000000000000010000000B0000006F626A\
//!            6563745F6E616D65010000000E0000006F626A5F6368756E6B5F73697A650100000001000000790000\
//!            00000000000000000000";
//! let t: Tree = gmkit_value::ds::from_str(hex)?;
//! assert_eq!(t, Tree { x: 0, object_name: "obj_chunk_size".into(), y: 0 });
//! # Ok::<(), gmkit_value::ds::SerdeError>(())
//! ```

use super::{DsKind, DsValue, SerdeError, decode};
use crate::{Array, Value};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};

/// Deserializes a ds_* string of any structure. Errors ([`SerdeError`]) name the field path.
///
/// ```
/// let v: Vec<f64> = gmkit_value::ds::from_str("2F0100000100000000000000000000000000F03F")?;
/// assert_eq!(v, [1.0]);
/// # Ok::<(), gmkit_value::ds::SerdeError>(())
/// ```
pub fn from_str<T: DeserializeOwned>(s: &str) -> Result<T, SerdeError> {
    from_ds_value(decode(s, None)?.value)
}

/// Deserializes decoded contents.
///
/// ```
/// use gmkit_value::{Value, ds::{self, DsValue}};
/// let pairs = DsValue::Priority(vec![(Value::Real(1.0), Value::from("low"))]);
/// let v: Vec<(f64, String)> = ds::from_ds_value(pairs)?;
/// assert_eq!(v, [(1.0, "low".to_string())]);
/// # Ok::<(), ds::SerdeError>(())
/// ```
pub fn from_ds_value<T: DeserializeOwned>(v: DsValue) -> Result<T, SerdeError> {
    let content = match v {
        DsValue::Map(p) => Content::Pairs(p),
        DsValue::List(v) | DsValue::Queue(v) | DsValue::Stack(v) => array(v),
        DsValue::Priority(p) => array(p.into_iter().map(|(k, v)| array(vec![k, v])).collect()),
        // Columns; a grid with no cells is an empty sequence (its width costs no input bytes,
        // so `width` empty columns could be any number).
        DsValue::Grid(g) if g.cells().is_empty() => array(Vec::new()),
        DsValue::Grid(g) => array(
            (0..g.width())
                .map(|x| array(g.column(x).unwrap_or_default().to_vec()))
                .collect(),
        ),
    };
    T::deserialize(De(content))
}

/// Deserializes one value, as found inside a ds_* structure (a string where a map or struct
/// is expected is read as a nested ds_map string). The inverse of [`super::to_value`].
///
/// ```
/// use gmkit_value::{Value, ds};
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Door { x: f64, locked: bool }
/// let v = ds::to_value(&Door { x: 4.0, locked: true })?; // a nested ds_map string
/// assert!(v.as_str().is_some());
/// assert_eq!(ds::from_value::<Door>(v)?, Door { x: 4.0, locked: true });
/// assert_eq!(ds::from_value::<u8>(Value::Real(7.0))?, 7);
/// # Ok::<(), ds::SerdeError>(())
/// ```
pub fn from_value<T: DeserializeOwned>(v: Value) -> Result<T, SerdeError> {
    T::deserialize(De::value(v))
}

fn array<T: From<Value>>(v: Vec<Value>) -> T {
    T::from(Value::Array(Array::new(v)))
}

/// What is being deserialized: a value, or the pairs of a map.
enum Content {
    Value(Value),
    Pairs(Vec<(Value, Value)>),
}

impl From<Value> for Content {
    fn from(v: Value) -> Self {
        Content::Value(v)
    }
}

struct De(Content);

fn err(expected: &str, found: &Value) -> SerdeError {
    SerdeError::invalid(expected, found.type_name())
}

impl De {
    fn value(v: Value) -> Self {
        De(Content::Value(v))
    }

    /// The map pairs this content stands for: a map, a struct, or a nested ds_map string.
    fn pairs(self) -> Result<Vec<(Value, Value)>, SerdeError> {
        match self.0 {
            Content::Pairs(p) => Ok(p),
            Content::Value(Value::Struct(s)) => Ok(s
                .read()
                .fields
                .iter()
                .map(|(k, v)| (Value::from(k.as_str()), v.clone()))
                .collect()),
            Content::Value(Value::String(s)) => match decode(&s, Some(DsKind::Map)) {
                Ok(d) => match d.value {
                    DsValue::Map(p) => Ok(p),
                    _ => Err(SerdeError::invalid(
                        "a nested ds_map string",
                        "another ds_* string",
                    )),
                },
                Err(e) => Err(SerdeError::from(e)),
            },
            Content::Value(v) => Err(err("a map", &v)),
        }
    }

    fn number(&self) -> Option<f64> {
        match &self.0 {
            Content::Value(v) => v.as_f64(),
            Content::Pairs(_) => None,
        }
    }

    fn integer<'de, V: Visitor<'de>>(self, v: V, signed: bool) -> Result<V::Value, SerdeError> {
        match self.0 {
            Content::Value(Value::Int32(i)) => v.visit_i64(i.into()),
            Content::Value(Value::Int64(i)) => v.visit_i64(i),
            Content::Value(Value::Ptr(p)) => v.visit_u64(p),
            Content::Value(Value::Real(r)) => {
                let in_range =
                    r.fract() == 0.0 && (-9.223372036854776e18..1.8446744073709552e19).contains(&r);
                if !in_range {
                    return Err(SerdeError::invalid("an integer", format!("the real {r}")));
                }
                if signed || r < 0.0 {
                    v.visit_i64(r as i64)
                } else {
                    v.visit_u64(r as u64)
                }
            }
            other => De(other).deserialize_any_impl(v),
        }
    }

    fn deserialize_any_impl<'de, V: Visitor<'de>>(self, v: V) -> Result<V::Value, SerdeError> {
        match self.0 {
            Content::Pairs(p) => v.visit_map(Pairs::new(p)),
            Content::Value(x) => match x {
                Value::Undefined => v.visit_unit(),
                Value::Bool(b) => v.visit_bool(b),
                Value::Real(r) => v.visit_f64(r),
                Value::Int32(i) => v.visit_i32(i),
                Value::Int64(i) => v.visit_i64(i),
                Value::Ptr(p) => v.visit_u64(p),
                Value::String(s) => v.visit_string(s),
                Value::Array(a) => v.visit_seq(Seq::new(a.read().clone())),
                Value::Array2d(rows) => {
                    v.visit_seq(Seq::new(rows.into_iter().map(array::<Value>).collect()))
                }
                s @ Value::Struct(_) => v.visit_map(Pairs::new(De::value(s).pairs()?)),
            },
        }
    }
}

macro_rules! ints {
    ($($name:ident => $signed:expr),*) => {$(
        fn $name<V: Visitor<'de>>(self, v: V) -> Result<V::Value, SerdeError> {
            self.integer(v, $signed)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for De {
    type Error = SerdeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, SerdeError> {
        self.deserialize_any_impl(v)
    }

    ints!(deserialize_i8 => true, deserialize_i16 => true, deserialize_i32 => true,
          deserialize_i64 => true, deserialize_u8 => false, deserialize_u16 => false,
          deserialize_u32 => false, deserialize_u64 => false);

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, SerdeError> {
        self.deserialize_f64(v)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, SerdeError> {
        match (&self.0, self.number()) {
            (Content::Value(Value::Bool(_)), _) | (_, None) => self.deserialize_any_impl(v),
            (_, Some(f)) => v.visit_f64(f),
        }
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, SerdeError> {
        match self.0 {
            Content::Value(Value::Real(r)) => v.visit_bool(r != 0.0),
            other => De(other).deserialize_any_impl(v),
        }
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, SerdeError> {
        match self.0 {
            Content::Value(Value::Undefined) => v.visit_none(),
            other => v.visit_some(De(other)),
        }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, SerdeError> {
        self.deserialize_any_impl(v)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, SerdeError> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, SerdeError> {
        v.visit_map(Pairs::new(self.pairs()?))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, SerdeError> {
        self.deserialize_map(v)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, SerdeError> {
        if let Content::Value(Value::String(s)) = &self.0
            && super::detect(s).map(|d| d.0) != Some(DsKind::Map)
        {
            let s: String = s.clone();
            return v.visit_enum(s.into_deserializer());
        }
        let mut pairs = self.pairs()?;
        match (pairs.pop(), pairs.is_empty()) {
            (Some((Value::String(variant), content)), true) => {
                v.visit_enum(Enum { variant, content })
            }
            _ => Err(SerdeError::invalid(
                "an enum: a variant name or a map with one variant entry",
                "a map with another number of entries",
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char str string bytes byte_buf unit_struct seq tuple tuple_struct identifier
        ignored_any
    }
}

/// The elements of a sequence and the index of the next one (for error paths).
struct Seq(std::vec::IntoIter<Value>, usize);

impl Seq {
    fn new(items: Vec<Value>) -> Self {
        Seq(items.into_iter(), 0)
    }
}

impl<'de> SeqAccess<'de> for Seq {
    type Error = SerdeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, SerdeError> {
        let i = self.1;
        self.1 += 1;
        self.0
            .next()
            .map(|x| seed.deserialize(De::value(x)).map_err(|e| e.in_element(i)))
            .transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Pairs {
    iter: std::vec::IntoIter<(Value, Value)>,
    value: Option<Value>,
    /// The key of `value` (for error paths).
    key: Option<Value>,
}

impl Pairs {
    fn new(p: Vec<(Value, Value)>) -> Self {
        Pairs {
            iter: p.into_iter(),
            value: None,
            key: None,
        }
    }
}

impl<'de> MapAccess<'de> for Pairs {
    type Error = SerdeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, SerdeError> {
        match self.iter.next() {
            None => Ok(None),
            Some((k, v)) => {
                self.value = Some(v);
                self.key = Some(k.clone());
                seed.deserialize(De::value(k)).map(Some)
            }
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, SerdeError> {
        let v = self
            .value
            .take()
            .ok_or_else(|| SerdeError::msg("map value requested before its key"))?;
        let key = self.key.take();
        seed.deserialize(De::value(v)).map_err(|e| match key {
            Some(Value::String(name)) => e.in_field(&name),
            Some(other) => e.in_element(other),
            None => e,
        })
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct Enum {
    variant: String,
    content: Value,
}

impl<'de> EnumAccess<'de> for Enum {
    type Error = SerdeError;
    type Variant = VariantContent;
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, VariantContent), SerdeError> {
        let name: de::value::StringDeserializer<SerdeError> = self.variant.into_deserializer();
        Ok((seed.deserialize(name)?, VariantContent(self.content)))
    }
}

/// The content of an enum variant.
struct VariantContent(Value);

impl<'de> VariantAccess<'de> for VariantContent {
    type Error = SerdeError;
    fn unit_variant(self) -> Result<(), SerdeError> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, SerdeError> {
        seed.deserialize(De::value(self.0))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, SerdeError> {
        de::Deserializer::deserialize_seq(De::value(self.0), v)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, SerdeError> {
        de::Deserializer::deserialize_map(De::value(self.0), v)
    }
}
