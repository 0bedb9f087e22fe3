//! The model as JSON one part at a time, so unpack never holds the whole game as a JSON tree.
//!
//! [`each`] serializes a [`DataFile`] field by field; a split chunk (see
//! [`crate::layout::SPLIT`]) goes element by element: its list's elements one at a time, then
//! the chunk's other fields. A type serde presents in another shape falls back to one JSON value
//! for the field, so the output is the same as serializing the whole model.

use crate::layout::split_key;
use gmkit_data::DataFile;
use serde::Serialize;
use serde::ser::{self, Impossible};
use serde_json::{Map, Value};

/// One part of the model, in order.
pub(crate) enum Part {
    /// A field that is not split (or a split chunk given whole): (field, value).
    Whole(&'static str, Value),
    /// Element `index` of a split chunk's list: (field, index, value).
    Element(&'static str, usize, Value),
    /// The other fields of a split chunk, after its elements: (field, fields).
    Rest(&'static str, Map<String, Value>),
}

/// Serializes `file`'s fields except those in `skip`, handing each part to `f` as soon as it
/// is made. Errors of `f` stop the walk and are returned.
pub(crate) fn each<E>(
    file: &DataFile,
    skip: &[&str],
    f: &mut dyn FnMut(Part) -> Result<(), E>,
) -> Result<(), Walk<E>> {
    let mut sink = Sink {
        f,
        skip,
        stop: None,
    };
    match file.serialize(Top(&mut sink)) {
        Ok(()) => Ok(()),
        Err(e) => Err(match sink.stop.take() {
            Some(stop) => Walk::Stopped(stop),
            None => Walk::Json(e),
        }),
    }
}

/// Why [`each`] stopped.
pub(crate) enum Walk<E> {
    /// The model could not be serialized.
    Json(serde_json::Error),
    /// The callback returned an error.
    Stopped(E),
}

struct Sink<'a, 'f, E> {
    f: &'f mut dyn FnMut(Part) -> Result<(), E>,
    skip: &'a [&'a str],
    stop: Option<E>,
}

impl<E> Sink<'_, '_, E> {
    fn give(&mut self, part: Part) -> Result<(), serde_json::Error> {
        (self.f)(part).map_err(|e| {
            self.stop = Some(e);
            ser::Error::custom("stopped")
        })
    }
}

/// The marker error of a shape the element-wise walk does not handle (the field is then
/// serialized whole).
const OTHER_SHAPE: &str = "gmkit: other shape";

fn other<T>() -> Result<T, serde_json::Error> {
    Err(ser::Error::custom(OTHER_SHAPE))
}

fn is_other(e: &serde_json::Error) -> bool {
    e.to_string() == OTHER_SHAPE
}

/// Refuses every shape its owner does not handle (as [`OTHER_SHAPE`]).
macro_rules! only {
    () => {
        fn serialize_bool(self, _: bool) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_i8(self, _: i8) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_i16(self, _: i16) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_i32(self, _: i32) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_i64(self, _: i64) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_u8(self, _: u8) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_u16(self, _: u16) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_u32(self, _: u32) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_u64(self, _: u64) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_f32(self, _: f32) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_f64(self, _: f64) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_char(self, _: char) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_str(self, _: &str) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_unit(self) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
        ) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_newtype_struct<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), serde_json::Error> {
            other()
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, serde_json::Error> {
            other()
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, serde_json::Error> {
            other()
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, serde_json::Error> {
            other()
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, serde_json::Error> {
            other()
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, serde_json::Error> {
            other()
        }
    };
}

/// The model itself: a struct whose fields are handed out one by one.
struct Top<'s, 'a, 'f, E>(&'s mut Sink<'a, 'f, E>);

impl<'s, 'a, 'f, E> ser::Serializer for Top<'s, 'a, 'f, E> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Impossible<(), serde_json::Error>;
    type SerializeTuple = Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = Impossible<(), serde_json::Error>;
    type SerializeMap = Impossible<(), serde_json::Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), serde_json::Error>;
    only!();
    fn serialize_none(self) -> Result<(), serde_json::Error> {
        other()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), serde_json::Error> {
        other()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, serde_json::Error> {
        other()
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, serde_json::Error> {
        Ok(self)
    }
}

impl<E> ser::SerializeStruct for Top<'_, '_, '_, E> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), serde_json::Error> {
        if self.0.skip.contains(&key) {
            return Ok(());
        }
        if let Some(list) = split_key(key) {
            match value.serialize(Chunk {
                sink: &mut *self.0,
                field: key,
                list,
            }) {
                Err(e) if is_other(&e) => {}
                r => return r,
            }
        }
        let v = serde_json::to_value(value)?;
        self.0.give(Part::Whole(key, v))
    }
    fn end(self) -> Result<(), serde_json::Error> {
        Ok(())
    }
}

/// A split chunk (`Option<Chunk>`): its list element by element, then its other fields.
struct Chunk<'s, 'a, 'f, E> {
    sink: &'s mut Sink<'a, 'f, E>,
    field: &'static str,
    list: &'static str,
}

/// A split chunk's struct being walked: its other fields so far.
struct ChunkFields<'s, 'a, 'f, E> {
    chunk: Chunk<'s, 'a, 'f, E>,
    rest: Map<String, Value>,
    seen_list: bool,
}

impl<'s, 'a, 'f, E> ser::Serializer for Chunk<'s, 'a, 'f, E> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Impossible<(), serde_json::Error>;
    type SerializeTuple = Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = Impossible<(), serde_json::Error>;
    type SerializeMap = Impossible<(), serde_json::Error>;
    type SerializeStruct = ChunkFields<'s, 'a, 'f, E>;
    type SerializeStructVariant = Impossible<(), serde_json::Error>;
    only!();
    fn serialize_none(self) -> Result<(), serde_json::Error> {
        self.sink.give(Part::Whole(self.field, Value::Null))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<(), serde_json::Error> {
        v.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, serde_json::Error> {
        other()
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, serde_json::Error> {
        Ok(ChunkFields {
            chunk: self,
            rest: Map::new(),
            seen_list: false,
        })
    }
}

impl<E> ser::SerializeStruct for ChunkFields<'_, '_, '_, E> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), serde_json::Error> {
        if key == self.chunk.list && !self.seen_list {
            self.seen_list = true;
            return value.serialize(List {
                sink: &mut *self.chunk.sink,
                field: self.chunk.field,
            });
        }
        self.rest
            .insert(key.to_owned(), serde_json::to_value(value)?);
        Ok(())
    }
    fn end(self) -> Result<(), serde_json::Error> {
        if !self.seen_list {
            return Err(ser::Error::custom(format!(
                "chunk {} has no list {}",
                self.chunk.field, self.chunk.list
            )));
        }
        self.chunk
            .sink
            .give(Part::Rest(self.chunk.field, self.rest))
    }
}

/// A split chunk's list: each element is handed out as it is serialized.
struct List<'s, 'a, 'f, E> {
    sink: &'s mut Sink<'a, 'f, E>,
    field: &'static str,
}

/// The list being walked, with the next element's index.
struct Elements<'s, 'a, 'f, E> {
    list: List<'s, 'a, 'f, E>,
    next: usize,
}

impl<'s, 'a, 'f, E> ser::Serializer for List<'s, 'a, 'f, E> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Elements<'s, 'a, 'f, E>;
    type SerializeTuple = Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = Impossible<(), serde_json::Error>;
    type SerializeMap = Impossible<(), serde_json::Error>;
    type SerializeStruct = Impossible<(), serde_json::Error>;
    type SerializeStructVariant = Impossible<(), serde_json::Error>;
    only!();
    fn serialize_none(self) -> Result<(), serde_json::Error> {
        Err(ser::Error::custom("a split chunk's list is null"))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<(), serde_json::Error> {
        v.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, serde_json::Error> {
        Ok(Elements {
            list: self,
            next: 0,
        })
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, serde_json::Error> {
        Err(ser::Error::custom("a split chunk's list is not a list"))
    }
}

impl<E> ser::SerializeSeq for Elements<'_, '_, '_, E> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), serde_json::Error> {
        let v = serde_json::to_value(v)?;
        let i = self.next;
        self.next += 1;
        self.list.sink.give(Part::Element(self.list.field, i, v))
    }
    fn end(self) -> Result<(), serde_json::Error> {
        Ok(())
    }
}
