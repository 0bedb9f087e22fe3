//! The model's JSON as pack assembles it, with element files read when the model reaches them.
//!
//! Pack used to parse every JSON file of the folder into one [`Value`] tree before building the
//! model, which costs several times the folder's text. A [`Part`] is that tree with its large
//! leaves left as file paths: deserializing the model through [`deserialize`] reads and parses
//! each element file only when its element is next, and drops its [`Value`] once the element is
//! typed, so pack holds the typed model plus one element's JSON at a time. Deserialization
//! errors are those a whole [`Value`] tree gives (the same messages, the same paths, which
//! `pack` turns into the file and field at fault).

use crate::folder::Folder;
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess};
use serde::de::{IntoDeserializer, Visitor};
use serde_json::Value;

/// A part of the model's JSON.
#[derive(Debug)]
pub(crate) enum Part {
    /// A value held in memory (a small chunk, or an element pack edits before the model is read).
    Value(Value),
    /// A JSON file of the folder (its path), parsed when the model reaches it.
    File(String),
    /// An object whose fields are parts (read in key order; of a key given twice, the first).
    Map(Vec<(String, Part)>),
    /// A list of parts.
    List(Vec<Part>),
}

/// Deserializes `T` from `part`, reading its files from `folder` one at a time; errors carry
/// the path of the field at fault (see [`serde_path_to_error`]).
pub(crate) fn deserialize<T: DeserializeOwned>(
    folder: &Folder,
    part: Part,
) -> Result<T, serde_path_to_error::Error<serde_json::Error>> {
    serde_path_to_error::deserialize(De { folder, part })
}

/// Reads and parses a JSON file of the folder (errors as pack's: `expected JSON: ...`).
pub(crate) fn load(folder: &Folder, path: &str) -> Result<Value, serde_json::Error> {
    let bytes = folder
        .read(path)
        .map_err(|e| de::Error::custom(e.message))?
        .ok_or_else(|| de::Error::custom("expected this file (missing)"))?;
    serde_json::from_slice(&bytes).map_err(|e| de::Error::custom(format!("expected JSON: {e}")))
}

/// A [`Part`] being deserialized.
struct De<'f> {
    folder: &'f Folder,
    part: Part,
}

impl De<'_> {
    /// The part as a value: a file read and parsed, a map or list of parts assembled (only for
    /// a type that asks for an enum of them: none of the model's chunks or elements do).
    fn into_value(self) -> Result<Value, serde_json::Error> {
        into_value(self.folder, self.part)
    }
}

fn into_value(folder: &Folder, part: Part) -> Result<Value, serde_json::Error> {
    Ok(match part {
        Part::Value(v) => v,
        Part::File(p) => load(folder, &p)?,
        Part::Map(m) => Value::Object(
            m.into_iter()
                .map(|(k, p)| into_value(folder, p).map(|v| (k, v)))
                .collect::<Result<_, _>>()?,
        ),
        Part::List(l) => Value::Array(
            l.into_iter()
                .map(|p| into_value(folder, p))
                .collect::<Result<_, _>>()?,
        ),
    })
}

/// Forwards a `deserialize_*` method to the value of a [`Part::Value`] or [`Part::File`], and
/// to `deserialize_any` for a map or list of parts.
macro_rules! forward {
    ($($method:ident $(($($arg:ident : $ty:ty),*))?),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, $($($arg: $ty,)*)? visitor: V) -> Result<V::Value, Self::Error> {
            match self.part {
                Part::Value(v) => v.$method($($($arg,)*)? visitor),
                Part::File(p) => load(self.folder, &p)?.$method($($($arg,)*)? visitor),
                _ => self.deserialize_any(visitor),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for De<'_> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let folder = self.folder;
        match self.part {
            Part::Value(v) => v.deserialize_any(visitor),
            Part::File(p) => load(folder, &p)?.deserialize_any(visitor),
            Part::Map(mut m) => {
                // In key order, as a `serde_json::Map` gives them: the order in which texts new
                // to the string table are met (and added) stays that of a whole value.
                m.sort_by(|a, b| a.0.cmp(&b.0));
                m.dedup_by(|later, first| later.0 == first.0);
                visitor.visit_map(Fields {
                    folder,
                    fields: m.into_iter(),
                    next: None,
                })
            }
            Part::List(l) => visitor.visit_seq(Items {
                folder,
                items: l.into_iter(),
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.part {
            Part::Value(v) => v.deserialize_option(visitor),
            Part::File(p) => load(self.folder, &p)?.deserialize_option(visitor),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.part {
            Part::Value(v) => v.deserialize_newtype_struct(name, visitor),
            Part::File(p) => load(self.folder, &p)?.deserialize_newtype_struct(name, visitor),
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.into_value()?.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.part {
            Part::Value(v) => v.deserialize_ignored_any(visitor),
            // An element file nothing reads: not parsed.
            _ => visitor.visit_unit(),
        }
    }

    forward! {
        deserialize_bool, deserialize_i8, deserialize_i16, deserialize_i32, deserialize_i64,
        deserialize_i128, deserialize_u8, deserialize_u16, deserialize_u32, deserialize_u64,
        deserialize_u128, deserialize_f32, deserialize_f64, deserialize_char, deserialize_str,
        deserialize_string, deserialize_bytes, deserialize_byte_buf, deserialize_unit,
        deserialize_seq, deserialize_map, deserialize_identifier,
        deserialize_unit_struct(name: &'static str),
        deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize),
        deserialize_struct(name: &'static str, fields: &'static [&'static str]),
    }
}

/// The fields of a [`Part::Map`], each deserialized from its part.
struct Fields<'f> {
    folder: &'f Folder,
    fields: std::vec::IntoIter<(String, Part)>,
    next: Option<Part>,
}

impl<'de> MapAccess<'de> for Fields<'_> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        match self.fields.next() {
            Some((k, p)) => {
                self.next = Some(p);
                seed.deserialize(k.into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let part = self
            .next
            .take()
            .ok_or_else(|| de::Error::custom("a value asked for before its key"))?;
        seed.deserialize(De {
            folder: self.folder,
            part,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

/// The items of a [`Part::List`], each deserialized from its part (an element file is read
/// when its turn comes, and its value dropped once deserialized).
struct Items<'f> {
    folder: &'f Folder,
    items: std::vec::IntoIter<Part>,
}

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = serde_json::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        match self.items.next() {
            Some(part) => seed
                .deserialize(De {
                    folder: self.folder,
                    part,
                })
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}
