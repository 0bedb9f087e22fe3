//! Serde serializer: Rust data → ds_* strings.
//!
//! The top level must be a map or struct (→ ds_map, field names as string keys) or a sequence
//! (→ ds_list). Inside:
//!
//! | Rust | record |
//! |---|---|
//! | integers within ±2⁵³, floats | REAL (GameMaker stores numbers as reals) |
//! | i64 / u64 beyond ±2⁵³ | INT64 (u64 above `i64::MAX` is an error) |
//! | bool | BOOL |
//! | char, str | STRING |
//! | `None`, `()`, unit structs | UNDEFINED |
//! | sequences, tuples, bytes | ARRAY |
//! | maps and structs | STRING holding that map's own ds_map string (GameMaker cannot nest structures; this is how games nest them) |
//! | unit enum variants | STRING with the variant name |
//! | other enum variants | a nested map `{variant: content}` (as a STRING, as above) |
//!
//! ```
//! use serde::Serialize;
//! #[derive(Serialize)]
//! struct Save { name: String, hp: f64, items: Vec<String> }
//! let s = gmkit_value::ds::to_string(&Save { name: "Kris".into(), hp: 90.0, items: vec![] })?;
//! assert!(s.starts_with("93010000")); // a ds_map
//! # Ok::<(), gmkit_value::ds::SerdeError>(())
//! ```

use super::{DsData, DsError, DsValue, EncodeError, encode};
use crate::path::{prefix, prepend_field, prepend_index};
use crate::{Array, Value};
use serde::ser::{self, Serialize};
use std::fmt;

/// Serde conversion to or from ds_* data failed.
///
/// Errors met inside the data name where: `path` holds field names and `[index]`es from the
/// root (`player.inventory[3].count`; a map key that is not a string shows as `[key]`).
///
/// ```
/// use gmkit_value::ds::{self, SerdeError};
/// #[derive(serde::Serialize)]
/// struct Item { count: String }
/// #[derive(serde::Deserialize, Debug)]
/// #[allow(dead_code)]
/// struct Good { count: i32 }
/// #[derive(serde::Serialize, serde::Deserialize, Debug)]
/// struct Save<T> { inventory: Vec<T> }
///
/// let hex = ds::to_string(&Save { inventory: vec![Item { count: "x".into() }] })?;
/// let err = ds::from_str::<Save<Good>>(&hex).unwrap_err();
/// assert!(matches!(&err, SerdeError::InvalidType { path, .. } if path == "inventory[0].count"));
/// assert_eq!(err.to_string(), r#"inventory[0].count: expected i32, found string "x""#);
/// # Ok::<(), SerdeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SerdeError {
    /// A value of the wrong type for the Rust type being deserialized.
    #[error("{}expected {expected}, found {found}", prefix(path))]
    InvalidType {
        /// Where in the Rust value (empty = the root).
        path: String,
        /// What the Rust type expects (serde's description).
        expected: String,
        /// What the data holds.
        found: String,
    },
    /// A message from serde or a `Serialize`/`Deserialize` impl (missing field, unknown
    /// variant, a number that fits no ds_* record, ...).
    #[error("{}{message}", prefix(path))]
    Message {
        /// Where in the Rust value (empty = the root, or unknown while serializing).
        path: String,
        /// The message.
        message: String,
    },
    /// The text (the input, or a string where a nested map is expected) is not a ds_* string
    /// of the kind needed.
    #[error("{}{source}", prefix(path))]
    Decode {
        /// Where in the Rust value (empty = the input itself).
        path: String,
        /// Why it could not be decoded.
        source: DsError,
    },
    /// The top level of a ds_* string is a map or a sequence.
    #[error("a ds_* string holds a map or a sequence at the top level, found {found}")]
    TopLevel {
        /// GML `typeof` of what the Rust value serialized to.
        found: &'static str,
    },
    /// The serialized value cannot be written as a ds_* string (e.g. arrays nested too deep).
    #[error(transparent)]
    Encode(#[from] EncodeError),
}

impl SerdeError {
    /// Where in the Rust value the error is (field names and `[index]`es), if known.
    ///
    /// ```
    /// let err = gmkit_value::ds::from_str::<Vec<String>>("2F0100000100000000000000000000000000F03F").unwrap_err();
    /// assert_eq!(err.path(), Some("[0]"));
    /// ```
    pub fn path(&self) -> Option<&str> {
        match self {
            SerdeError::InvalidType { path, .. }
            | SerdeError::Message { path, .. }
            | SerdeError::Decode { path, .. } => Some(path),
            _ => None,
        }
    }
    fn path_mut(&mut self) -> Option<&mut String> {
        match self {
            SerdeError::InvalidType { path, .. }
            | SerdeError::Message { path, .. }
            | SerdeError::Decode { path, .. } => Some(path),
            _ => None,
        }
    }
    pub(crate) fn msg(m: impl fmt::Display) -> Self {
        SerdeError::Message {
            path: String::new(),
            message: m.to_string(),
        }
    }
    pub(crate) fn invalid(expected: impl Into<String>, found: impl Into<String>) -> Self {
        SerdeError::InvalidType {
            path: String::new(),
            expected: expected.into(),
            found: found.into(),
        }
    }
    /// The error happened inside field (or string map key) `name`.
    pub(crate) fn in_field(mut self, name: &str) -> Self {
        if let Some(p) = self.path_mut() {
            prepend_field(p, name);
        }
        self
    }
    /// The error happened inside element (or non-string map key) `i`.
    pub(crate) fn in_element(mut self, i: impl fmt::Display) -> Self {
        if let Some(p) = self.path_mut() {
            prepend_index(p, i);
        }
        self
    }
}

impl ser::Error for SerdeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerdeError::msg(msg)
    }
}
impl serde::de::Error for SerdeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerdeError::msg(msg)
    }
    fn invalid_type(unexp: serde::de::Unexpected, exp: &dyn serde::de::Expected) -> Self {
        SerdeError::invalid(exp.to_string(), unexp.to_string())
    }
}
impl From<DsError> for SerdeError {
    fn from(source: DsError) -> Self {
        SerdeError::Decode {
            path: String::new(),
            source,
        }
    }
}

/// Serializes to a ds_* string (current generation, native form): a Rust struct or map becomes
/// a ds_map, a sequence a ds_list.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Save { room: String, hp: f64 }
/// let hex = gmkit_value::ds::to_string(&Save { room: "rm_a".into(), hp: 3.0 })?;
/// assert!(hex.starts_with("93010000")); // ds_map, current generation
/// # Ok::<(), gmkit_value::ds::SerdeError>(())
/// ```
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, SerdeError> {
    Ok(encode(&DsData::new(to_ds_value(value)?))?)
}

/// Serializes to a ds_map (maps, structs) or ds_list (sequences).
///
/// ```
/// use gmkit_value::{Value, ds::{self, DsValue, SerdeError}};
/// assert_eq!(ds::to_ds_value(&vec!["a"])?, DsValue::List(vec![Value::from("a")]));
/// assert!(matches!(ds::to_ds_value(&1.0), Err(SerdeError::TopLevel { found: "number" })));
/// # Ok::<(), SerdeError>(())
/// ```
pub fn to_ds_value<T: Serialize + ?Sized>(value: &T) -> Result<DsValue, SerdeError> {
    match value.serialize(NodeSerializer)? {
        Node::Map(p) => Ok(DsValue::Map(p)),
        Node::Seq(s) => Ok(DsValue::List(s)),
        Node::Value(v) => Err(SerdeError::TopLevel {
            found: v.type_name(),
        }),
    }
}

/// Serializes to a single [`Value`] (maps become ds_map strings, sequences arrays).
///
/// ```
/// use gmkit_value::{Value, ds};
/// assert_eq!(ds::to_value(&3u8)?, Value::Real(3.0));
/// assert!(ds::to_value(&std::collections::BTreeMap::from([("k", 1)]))?.as_str().unwrap().starts_with("93010000"));
/// # Ok::<(), ds::SerdeError>(())
/// ```
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, SerdeError> {
    value.serialize(NodeSerializer)?.into_value()
}

/// What a Rust value serializes to, before knowing whether it is nested.
enum Node {
    Value(Value),
    Map(Vec<(Value, Value)>),
    Seq(Vec<Value>),
}

impl Node {
    fn into_value(self) -> Result<Value, SerdeError> {
        Ok(match self {
            Node::Value(v) => v,
            Node::Seq(s) => Value::Array(Array::new(s)),
            Node::Map(p) => Value::String(encode(&DsData::new(DsValue::Map(p)))?),
        })
    }
}

fn nested<T: Serialize + ?Sized>(v: &T) -> Result<Value, SerdeError> {
    v.serialize(NodeSerializer)?.into_value()
}

const MAX_SAFE: i64 = 1 << 53;

struct NodeSerializer;

impl ser::Serializer for NodeSerializer {
    type Ok = Node;
    type Error = SerdeError;
    type SerializeSeq = SeqSer;
    type SerializeTuple = SeqSer;
    type SerializeTupleStruct = SeqSer;
    type SerializeTupleVariant = VariantSer<SeqSer>;
    type SerializeMap = MapSer;
    type SerializeStruct = MapSer;
    type SerializeStructVariant = VariantSer<MapSer>;

    fn serialize_bool(self, v: bool) -> Result<Node, SerdeError> {
        Ok(Node::Value(Value::Bool(v)))
    }
    fn serialize_i8(self, v: i8) -> Result<Node, SerdeError> {
        self.serialize_f64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<Node, SerdeError> {
        self.serialize_f64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<Node, SerdeError> {
        self.serialize_f64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Node, SerdeError> {
        if (-MAX_SAFE..=MAX_SAFE).contains(&v) {
            self.serialize_f64(v as f64)
        } else {
            Ok(Node::Value(Value::Int64(v)))
        }
    }
    fn serialize_u8(self, v: u8) -> Result<Node, SerdeError> {
        self.serialize_f64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<Node, SerdeError> {
        self.serialize_f64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<Node, SerdeError> {
        self.serialize_f64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<Node, SerdeError> {
        let v = i64::try_from(v).map_err(|_| {
            SerdeError::msg(format!("{v} does not fit a ds_* number (real or int64)"))
        })?;
        self.serialize_i64(v)
    }
    fn serialize_f32(self, v: f32) -> Result<Node, SerdeError> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<Node, SerdeError> {
        Ok(Node::Value(Value::Real(v)))
    }
    fn serialize_char(self, v: char) -> Result<Node, SerdeError> {
        Ok(Node::Value(Value::String(v.to_string())))
    }
    fn serialize_str(self, v: &str) -> Result<Node, SerdeError> {
        Ok(Node::Value(Value::String(v.to_owned())))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Node, SerdeError> {
        Ok(Node::Seq(
            v.iter().map(|&b| Value::Real(b.into())).collect(),
        ))
    }
    fn serialize_none(self) -> Result<Node, SerdeError> {
        Ok(Node::Value(Value::Undefined))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Node, SerdeError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Node, SerdeError> {
        Ok(Node::Value(Value::Undefined))
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Node, SerdeError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Node, SerdeError> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Node, SerdeError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Node, SerdeError> {
        Ok(Node::Map(vec![(Value::from(variant), nested(v)?)]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer, SerdeError> {
        Ok(SeqSer(Vec::with_capacity(len.unwrap_or(0).min(4096))))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer, SerdeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqSer, SerdeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSer<SeqSer>, SerdeError> {
        Ok(VariantSer(variant, self.serialize_seq(Some(len))?))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapSer, SerdeError> {
        Ok(MapSer::default())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<MapSer, SerdeError> {
        Ok(MapSer::default())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<VariantSer<MapSer>, SerdeError> {
        Ok(VariantSer(variant, MapSer::default()))
    }
}

struct SeqSer(Vec<Value>);

impl ser::SerializeSeq for SeqSer {
    type Ok = Node;
    type Error = SerdeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerdeError> {
        let i = self.0.len();
        self.0.push(nested(v).map_err(|e| e.in_element(i))?);
        Ok(())
    }
    fn end(self) -> Result<Node, SerdeError> {
        Ok(Node::Seq(self.0))
    }
}
impl ser::SerializeTuple for SeqSer {
    type Ok = Node;
    type Error = SerdeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerdeError> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Node, SerdeError> {
        ser::SerializeSeq::end(self)
    }
}
impl ser::SerializeTupleStruct for SeqSer {
    type Ok = Node;
    type Error = SerdeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerdeError> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Node, SerdeError> {
        ser::SerializeSeq::end(self)
    }
}

#[derive(Default)]
struct MapSer {
    pairs: Vec<(Value, Value)>,
    key: Option<Value>,
}

impl ser::SerializeMap for MapSer {
    type Ok = Node;
    type Error = SerdeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), SerdeError> {
        self.key = Some(nested(k)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerdeError> {
        let k = self
            .key
            .take()
            .ok_or_else(|| SerdeError::msg("map value without a key"))?;
        let v = nested(v).map_err(|e| match &k {
            Value::String(name) => e.in_field(name),
            other => e.in_element(other),
        })?;
        self.pairs.push((k, v));
        Ok(())
    }
    fn end(self) -> Result<Node, SerdeError> {
        Ok(Node::Map(self.pairs))
    }
}
impl ser::SerializeStruct for MapSer {
    type Ok = Node;
    type Error = SerdeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), SerdeError> {
        let v = nested(v).map_err(|e| e.in_field(name))?;
        self.pairs.push((Value::from(name), v));
        Ok(())
    }
    fn end(self) -> Result<Node, SerdeError> {
        Ok(Node::Map(self.pairs))
    }
}

/// An enum variant with content: serialized as the nested map `{variant: content}`.
struct VariantSer<S>(&'static str, S);

impl ser::SerializeTupleVariant for VariantSer<SeqSer> {
    type Ok = Node;
    type Error = SerdeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerdeError> {
        ser::SerializeSeq::serialize_element(&mut self.1, v)
    }
    fn end(self) -> Result<Node, SerdeError> {
        let inner = ser::SerializeSeq::end(self.1)?.into_value()?;
        Ok(Node::Map(vec![(Value::from(self.0), inner)]))
    }
}
impl ser::SerializeStructVariant for VariantSer<MapSer> {
    type Ok = Node;
    type Error = SerdeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        v: &T,
    ) -> Result<(), SerdeError> {
        ser::SerializeStruct::serialize_field(&mut self.1, name, v)
    }
    fn end(self) -> Result<Node, SerdeError> {
        let inner = ser::SerializeStruct::end(self.1)?.into_value()?;
        Ok(Node::Map(vec![(Value::from(self.0), inner)]))
    }
}
