//! serde deserialization straight from Elephant bytes (borrowing strings from the input).

use super::datatype::Datatype;
use super::error::{Boxed, Error};

type Result<T, E = Boxed> = std::result::Result<T, E>;
use super::FOOTER;
use super::export::{DEFAULT_MAX_DECOMPRESSED, decompress};
use super::read::{DEFAULT_MAX_DEPTH, Layout, read_header};
use super::schema::SchemaRegistry;
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};

const ANY: u8 = 204;
const ARRAY: u8 = 205;
const STRUCT: u8 = 206;
const UNDEFINED: u8 = 207;

/// Datatype byte → normalised code (0 = invalid), for 1.4.0+ data and for older data.
const fn code_table(legacy: bool) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 1;
    while i <= 13 {
        t[i] = i as u8;
        i += 1;
    }
    let base = if legacy { 14 } else { 204 };
    let mut k = 0;
    while k < 4 {
        t[base + k] = 204 + k as u8;
        k += 1;
    }
    t
}
static CODES: [u8; 256] = code_table(false);
static LEGACY_CODES: [u8; 256] = code_table(true);

/// Deserializes a Rust value from an Elephant buffer (1.2.0 … 1.5.1; verbose constructed structs
/// and plain structs only — see [`from_bytes_with`] for schema'd data).
///
/// Rust structs and maps read plain and constructed structs alike; map keys read as the key
/// type (`HashMap<i32, _>` from members named `"1"`, `"2"`, ...). Type errors name the field
/// path ([`Error::InvalidType`]).
///
/// ```
/// use std::collections::HashMap;
/// let bytes = gmkit_value::elephant::to_bytes(&HashMap::from([(7, "seven")]))?;
/// let back: HashMap<i32, String> = gmkit_value::elephant::from_bytes(&bytes)?;
/// assert_eq!(back[&7], "seven");
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn from_bytes<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, Error> {
    from_bytes_with(bytes, None)
}

/// [`from_bytes`] with a schema registry for non-verbose constructed structs.
///
/// ```
/// use gmkit_value::elephant::{self, SchemaRegistry};
/// let schemas = SchemaRegistry::new();
/// let bytes = elephant::to_bytes(&vec![1.0, 2.0])?;
/// let back: Vec<f64> = elephant::from_bytes_with(&bytes, Some(&schemas))?;
/// assert_eq!(back, [1.0, 2.0]);
/// # Ok::<(), elephant::Error>(())
/// ```
pub fn from_bytes_with<'de, T: Deserialize<'de>>(
    bytes: &'de [u8],
    schemas: Option<&SchemaRegistry>,
) -> Result<T, Error> {
    let header = read_header(bytes, false)?;
    if header.layout == Layout::V1 {
        return Err(Error::msg(
            "1.0.0 data is not supported by the serde reader; use elephant::read",
        ));
    }
    let mut de = Deserializer {
        buf: bytes,
        pos: 8,
        pending: None,
        depth: 0,
        legacy: header.legacy_codes,
        layout: header.layout,
        schemas,
        ctors: Vec::new(),
        containers: Vec::new(),
        record: false,
        table_built: false,
        replay_budget: bytes.len().saturating_mul(16).max(1 << 20),
        element_budget: element_budget(bytes.len()),
    };
    let v = T::deserialize(&mut de).map_err(|e| e.0.at(de.pos))?;
    let at = de.pos;
    if bytes.get(at..at + 4) != Some(&FOOTER.to_le_bytes()[..]) {
        return Err(Error::BadFooter {
            offset: at,
            found: super::error::hex_preview(
                &bytes[at.min(bytes.len())..(at + 4).min(bytes.len())],
            ),
        });
    }
    Ok(v)
}

/// Deserializes a Rust value from an Elephant export string.
///
/// ```
/// let s = gmkit_value::elephant::to_export_string(&("a", 1.5))?;
/// let back: (String, f64) = gmkit_value::elephant::from_export_string(&s)?;
/// assert_eq!(back, ("a".to_string(), 1.5));
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn from_export_string<T: DeserializeOwned>(s: &str) -> Result<T, Error> {
    let bytes = decompress(s, DEFAULT_MAX_DECOMPRESSED)?;
    from_bytes(&bytes)
}

/// Deserializes a Rust value from a [`Value`](crate::Value) graph (as [`super::write()`] then
/// [`from_bytes`] would): plain and constructed structs read as Rust structs and maps.
///
/// ```
/// use gmkit_value::{Struct, Value};
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Player { name: String, hp: i32 }
/// let v = Value::from(Struct::new(vec![
///     ("name".into(), Value::from("Ada")),
///     ("hp".into(), Value::Real(3.0)),
/// ]));
/// let p: Player = gmkit_value::elephant::from_value(&v)?;
/// assert_eq!(p, Player { name: "Ada".into(), hp: 3 });
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn from_value<T: DeserializeOwned>(value: &crate::Value) -> Result<T, Error> {
    from_value_with(value, None)
}

/// [`from_value`] with a schema registry, for values holding non-verbose constructed structs
/// (as read from schema'd data).
///
/// ```
/// use gmkit_value::{Value, elephant::{self, SchemaRegistry}};
/// let schemas = SchemaRegistry::new();
/// let n: f64 = elephant::from_value_with(&Value::Real(2.5), Some(&schemas))?;
/// assert_eq!(n, 2.5);
/// # Ok::<(), elephant::Error>(())
/// ```
pub fn from_value_with<T: DeserializeOwned>(
    value: &crate::Value,
    schemas: Option<&SchemaRegistry>,
) -> Result<T, Error> {
    let opts = super::WriteOptions {
        schemas,
        ..Default::default()
    };
    let bytes = super::write_with(value, &opts, &mut super::NoCallbacks)?;
    from_bytes_with(&bytes, schemas)
}

struct Deserializer<'de, 'r> {
    buf: &'de [u8],
    pos: usize,
    /// Datatype of the next value when already known (array common datatype, peeked byte).
    pending: Option<u8>,
    depth: usize,
    legacy: bool,
    layout: Layout,
    schemas: Option<&'r SchemaRegistry>,
    /// Constructor index → (name, offset where the name is stored).
    ctors: Vec<(u16, &'de str, usize)>,
    /// Container id → (kind, offset of its marker, end offset or 0 if never closed). Only built
    /// when a reference is met (by a second, recording pass over the whole buffer), so data
    /// without references pays nothing for it.
    containers: Vec<(u8, usize, usize)>,
    /// This is the recording pass: fill `containers`, do not follow references.
    record: bool,
    table_built: bool,
    replay_budget: usize,
    /// Array elements that may still be visited (see [`element_budget`]).
    element_budget: usize,
}

/// Array elements a deserializer visits at most: `max(16 × input bytes, 16 Mi)`. Elements of
/// datatype `undefined` cost no input bytes, so without a bound a few KB of arrays of
/// `undefined` would keep a deserializer (even into `IgnoredAny`) busy for minutes.
fn element_budget(len: usize) -> usize {
    len.saturating_mul(16).max(16 << 20)
}

enum Num {
    U(u64),
    I(i64),
    F(f64),
}

impl<'de, 'r> Deserializer<'de, 'r> {
    #[cold]
    fn truncated(&self, n: usize, what: &'static str) -> Boxed {
        Error::Truncated {
            offset: self.pos,
            expected: what,
            available: self.buf.len().saturating_sub(self.pos).min(n),
        }
        .into()
    }
    #[inline]
    fn bytes<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N]> {
        match self.buf.get(self.pos..self.pos + N) {
            Some(s) => {
                self.pos += N;
                Ok(s.try_into().expect("length checked"))
            }
            None => Err(self.truncated(N, what)),
        }
    }
    #[inline]
    fn u8(&mut self, what: &'static str) -> Result<u8> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.truncated(1, what)),
        }
    }
    #[inline]
    fn u16(&mut self, what: &'static str) -> Result<u16> {
        self.bytes::<2>(what).map(u16::from_le_bytes)
    }
    #[inline]
    fn str(&mut self) -> Result<&'de str> {
        let start = self.pos;
        let rest = self.buf.get(start..).unwrap_or_default();
        // Fast path: ASCII strings (member names, most values), eight bytes at a time.
        const LO: u64 = 0x0101_0101_0101_0101;
        const HI: u64 = 0x8080_8080_8080_8080;
        let mut i = 0;
        while let Some(chunk) = rest.get(i..i + 8) {
            let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            // The lowest set bit marks the first zero byte exactly.
            let zero = w.wrapping_sub(LO) & !w & HI;
            let high = w & HI;
            if zero != 0 {
                let k = zero.trailing_zeros() as usize / 8;
                if high & ((1u64 << (k * 8)) - 1) == 0 {
                    self.pos = start + i + k + 1;
                    // SAFETY: every byte before the terminator is ASCII, which is valid UTF-8.
                    return Ok(unsafe { std::str::from_utf8_unchecked(&rest[..i + k]) });
                }
                break;
            }
            if high != 0 {
                break;
            }
            i += 8;
        }
        let Some(n) = memchr::memchr(0, rest) else {
            return Err(Error::MissingTerminator { offset: start }.into());
        };
        let s = std::str::from_utf8(&rest[..n]).map_err(|e| Error::InvalidUtf8 {
            offset: start + e.valid_up_to(),
        })?;
        self.pos = start + n + 1;
        Ok(s)
    }

    /// Normalises a datatype byte to the 1.4.0+ codes, rejecting unknown ones.
    #[inline(always)]
    fn norm(&self, code: u8, at: usize) -> Result<u8> {
        let table = if self.legacy { &LEGACY_CODES } else { &CODES };
        match table[code as usize] {
            0 => Err(self.unknown(code, at)),
            d => Ok(d),
        }
    }

    #[cold]
    fn unknown(&self, code: u8, at: usize) -> Boxed {
        Error::UnknownDatatype {
            offset: at,
            code,
            containers: if self.legacy { "14-17" } else { "204-207" },
        }
        .into()
    }

    /// The datatype of the next value (reading `buffer_any` bytes as needed).
    #[inline(always)]
    fn dt(&mut self) -> Result<u8> {
        let mut dt = match self.pending.take() {
            Some(d) => d,
            None => {
                let at = self.pos;
                let c = self.u8("datatype byte")?;
                self.norm(c, at)?
            }
        };
        while dt == ANY {
            let at = self.pos;
            let c = self.u8("datatype byte")?;
            dt = self.norm(c, at)?;
        }
        Ok(dt)
    }

    fn number(&mut self, dt: u8) -> Result<Option<Num>> {
        Ok(Some(match dt {
            1 => Num::U(self.u8("u8")? as u64),
            2 => Num::I(self.u8("s8")? as i8 as i64),
            3 => Num::U(self.u16("u16")? as u64),
            4 => Num::I(self.u16("s16")? as i16 as i64),
            5 => Num::U(u32::from_le_bytes(self.bytes("u32")?) as u64),
            6 => Num::I(i32::from_le_bytes(self.bytes("s32")?) as i64),
            7 => Num::F(half::f16::from_le_bytes(self.bytes("f16")?).to_f64()),
            8 => Num::F(f32::from_le_bytes(self.bytes("f32")?) as f64),
            9 => Num::F(f64::from_le_bytes(self.bytes("f64")?)),
            10 => Num::U(self.u8("bool")? as u64),
            12 => Num::I(i64::from_le_bytes(self.bytes("u64")?)),
            _ => return Ok(None),
        }))
    }

    fn enter(&mut self) -> Result<()> {
        if self.depth >= DEFAULT_MAX_DEPTH {
            return Err(Error::TooDeep {
                offset: self.pos,
                limit: DEFAULT_MAX_DEPTH,
            }
            .into());
        }
        self.depth += 1;
        Ok(())
    }

    /// An array or struct (datatype byte already consumed).
    fn container<V: Visitor<'de>>(&mut self, kind: u8, visitor: V) -> Result<V::Value> {
        self.enter()?;
        let r = self.container_inner(kind, visitor);
        self.depth -= 1;
        r
    }

    fn container_inner<V: Visitor<'de>>(&mut self, kind: u8, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        let marker = self.u16(if kind == ARRAY {
            "array length"
        } else {
            "struct marker"
        })?;
        if marker == 0xFFFF && self.layout >= Layout::V2 {
            let id = self.u16("reference id")?;
            if self.record {
                return visitor.visit_unit();
            }
            return self.replay(start, id, visitor);
        }
        let id = if self.record {
            Some(self.open_container(kind, start))
        } else {
            None
        };
        let r = if kind == ARRAY {
            self.array_body(marker, visitor)
        } else if marker == 0xFFFE && self.layout >= Layout::V2 {
            let (_, access) = self.constructed_head()?;
            self.visit_struct_body(access, visitor)
        } else {
            let v = visitor.visit_map(MapAcc {
                de: &mut *self,
                left: marker,
                key: "",
            })?;
            Ok(v)
        }?;
        if let Some(id) = id {
            self.containers[id].2 = self.pos;
        }
        Ok(r)
    }

    /// Recording pass: gives the container starting at `start` the next id.
    fn open_container(&mut self, kind: u8, start: usize) -> usize {
        self.containers.push((kind, start, 0));
        self.containers.len() - 1
    }

    /// Builds the container table with a recording pass over the whole buffer (ids are given
    /// in the order containers start, so the table agrees with this pass's ids). A recording
    /// pass that stops at an error keeps the containers seen so far.
    #[cold]
    #[inline(never)]
    fn build_table(&mut self) {
        let mut rec = Deserializer {
            buf: self.buf,
            pos: 8,
            pending: None,
            depth: 0,
            legacy: self.legacy,
            layout: self.layout,
            schemas: self.schemas,
            ctors: Vec::new(),
            containers: Vec::new(),
            record: true,
            table_built: true,
            replay_budget: 0,
            element_budget: element_budget(self.buf.len()),
        };
        let _ = de::IgnoredAny::deserialize(&mut rec);
        self.containers = rec.containers;
        self.table_built = true;
    }

    /// A reference at `at` to container `id`: reads that container again.
    fn replay<V: Visitor<'de>>(&mut self, at: usize, id: u16, visitor: V) -> Result<V::Value> {
        if !self.table_built {
            self.build_table();
        }
        // Only containers that started before the reference have an id yet.
        let entry = self
            .containers
            .get(id as usize)
            .copied()
            .filter(|c| c.1 < at);
        let Some((kind, start, end)) = entry else {
            return Err(Error::DanglingReference {
                offset: at,
                id,
                next_id: self.containers.partition_point(|c| c.1 < at),
            }
            .into());
        };
        // A container that has not ended before the reference encloses it.
        if end == 0 || end > at {
            return Err(Error::Message {
                path: String::new(),
                message: format!(
                    "circular reference to container {id} cannot be deserialized into Rust types \
                     (use elephant::read for cyclic data)"
                ),
                offset: Some(at),
            }
            .into());
        }
        self.replay_budget =
            self.replay_budget
                .checked_sub(end - start)
                .ok_or_else(|| Error::TooManyValues {
                    offset: at,
                    what: "shared containers read again",
                    limit: self.buf.len().saturating_mul(16).max(1 << 20),
                    unit: "bytes read again (16 per input byte, at least 1 MiB)",
                    input: self.buf.len(),
                })?;
        let saved = self.pos;
        self.pos = start;
        let r = self.container_inner(kind, visitor);
        self.pos = saved;
        r
    }

    fn array_body<V: Visitor<'de>>(&mut self, len: u16, visitor: V) -> Result<V::Value> {
        let common = if len == 0 {
            UNDEFINED
        } else {
            let at = self.pos;
            let c = self.u8("array datatype byte")?;
            self.norm(c, at)?
        };
        let mut acc = SeqAcc {
            de: &mut *self,
            left: len,
            common,
            index: 0,
        };
        let v = visitor.visit_seq(&mut acc)?;
        if acc.left != 0 {
            return Err(Error::msg(format!(
                "array has {} more element(s) than the Rust type takes",
                acc.left
            ))
            .into());
        }
        Ok(v)
    }

    /// After `0xFFFE`: index, name, flags. Returns the constructor name and how to read the body.
    fn constructed_head(&mut self) -> Result<(&'de str, Body<'r>)> {
        let index = self.u16("constructor index")?;
        // Writers number constructors in order of first use, so index i is usually entry i.
        let known = match self.ctors.get(index as usize) {
            Some(c) if c.0 == index => Some(*c),
            _ => self.ctors.iter().find(|c| c.0 == index).copied(),
        };
        let name = match known {
            Some((_, name, at)) => {
                if at == self.pos {
                    self.pos += name.len() + 1;
                }
                name
            }
            None => {
                let at = self.pos;
                let name = self.str()?;
                self.ctors.push((index, name, at));
                name
            }
        };
        let at = self.pos;
        let flags = self.u8("constructed struct flags")?;
        let (verbose, version) = match self.layout {
            Layout::V1 | Layout::V2 => (flags == 0, flags),
            _ => (flags & 0x80 != 0, flags & 0x7F),
        };
        if verbose {
            let n = self.u16("member count")?;
            return Ok((name, Body::Verbose(n)));
        }
        let vs = self
            .schemas
            .and_then(|r| r.get(name))
            .filter(|cs| !cs.versions.is_empty())
            .ok_or_else(|| Error::MissingSchema {
                offset: at,
                constructor: name.into(),
            })?
            .versions
            .get(&(version as u32))
            .ok_or_else(|| Error::MissingSchemaVersion {
                offset: at,
                constructor: name.into(),
                version: version as u32,
            })?;
        let fields = vs.sorted_fields();
        let mut skip = vec![false; fields.len()];
        if self.layout >= Layout::V5 {
            loop {
                let e_at = self.pos;
                let e = self.u16("skip-list entry")?;
                if e == 0 {
                    break;
                }
                *skip
                    .get_mut(e as usize - 1)
                    .ok_or_else(|| Error::BadSkipEntry {
                        offset: e_at,
                        entry: e,
                        fields: fields.len(),
                        constructor: name.into(),
                    })? = true;
            }
        }
        Ok((name, Body::Schema(fields, skip)))
    }

    fn visit_struct_body<V: Visitor<'de>>(
        &mut self,
        body: Body<'r>,
        visitor: V,
    ) -> Result<V::Value> {
        match body {
            Body::Verbose(n) => visitor.visit_map(MapAcc {
                de: &mut *self,
                left: n,
                key: "",
            }),
            Body::Schema(fields, skip) => visitor.visit_map(SchemaAcc {
                de: &mut *self,
                fields,
                skip,
                i: 0,
            }),
        }
    }
}

enum Body<'r> {
    Verbose(u16),
    Schema(&'r [(String, Datatype)], Vec<bool>),
}

struct SeqAcc<'a, 'de, 'r> {
    de: &'a mut Deserializer<'de, 'r>,
    left: u16,
    common: u8,
    /// Index of the next element (for error paths).
    index: usize,
}

impl<'de> de::SeqAccess<'de> for SeqAcc<'_, 'de, '_> {
    type Error = Boxed;
    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.de.element_budget = match self.de.element_budget.checked_sub(1) {
            Some(b) => b,
            None => {
                return Err(Error::TooManyValues {
                    offset: self.de.pos,
                    what: "array elements",
                    limit: element_budget(self.de.buf.len()),
                    unit: "array elements (16 per input byte, at least 16 Mi)",
                    input: self.de.buf.len(),
                }
                .into());
            }
        };
        if self.common != ANY {
            self.de.pending = Some(self.common);
        }
        let i = self.index;
        self.index += 1;
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(e.in_element(i)),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

struct MapAcc<'a, 'de, 'r> {
    de: &'a mut Deserializer<'de, 'r>,
    left: u16,
    /// The last key read (for error paths).
    key: &'de str,
}

impl<'de> de::MapAccess<'de> for MapAcc<'_, 'de, '_> {
    type Error = Boxed;
    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let k = self.de.str()?;
        self.key = k;
        seed.deserialize(KeyDeserializer(k))
            .map(Some)
            .map_err(|e| e.in_field(k))
    }
    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
            .map_err(|e| e.in_field(self.key))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

/// A struct member name read as a map key: a string, or (for integer, real and bool keys,
/// which the serializer writes as their decimal text) the number or bool it spells, so that
/// `HashMap<i32, _>` round-trips.
struct KeyDeserializer<'de>(&'de str);

impl KeyDeserializer<'_> {
    fn parse<T: std::str::FromStr>(&self, what: &'static str) -> Result<T> {
        self.0.parse().map_err(|_| {
            Error::InvalidType {
                path: String::new(),
                expected: format!("{what} (a member name holding one)"),
                found: format!("member name {:?}", self.0),
                offset: None,
            }
            .into()
        })
    }
}

macro_rules! key_parse {
    ($($name:ident $visit:ident $t:ty;)*) => {$(
        fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(self.parse::<$t>(stringify!($t))?)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for KeyDeserializer<'de> {
    type Error = Boxed;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.0)
    }
    key_parse! {
        deserialize_i8 visit_i8 i8; deserialize_i16 visit_i16 i16; deserialize_i32 visit_i32 i32;
        deserialize_i64 visit_i64 i64; deserialize_u8 visit_u8 u8; deserialize_u16 visit_u16 u16;
        deserialize_u32 visit_u32 u32; deserialize_u64 visit_u64 u64; deserialize_i128 visit_i128 i128;
        deserialize_u128 visit_u128 u128; deserialize_f32 visit_f32 f32; deserialize_f64 visit_f64 f64;
        deserialize_bool visit_bool bool; deserialize_char visit_char char;
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(self.0.into_deserializer())
    }
    serde::forward_to_deserialize_any! {
        str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// [`MapAcc`] for a Rust struct: member names are first matched against the field the struct
/// declares next (members are usually written in declaration order), which skips scanning for
/// the terminator and hands serde the field's own name.
struct StructAcc<'a, 'de, 'r> {
    de: &'a mut Deserializer<'de, 'r>,
    left: u16,
    fields: &'static [&'static str],
    next: usize,
    /// The last member name read (for error paths).
    key: &'de str,
}

impl<'de> de::MapAccess<'de> for StructAcc<'_, 'de, '_> {
    type Error = Boxed;
    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let de = &mut *self.de;
        if let Some(&f) = self.fields.get(self.next) {
            let n = f.len();
            if let Some(b) = de.buf.get(de.pos..de.pos + n + 1)
                && name_is(b, f.as_bytes())
            {
                de.pos += n + 1;
                self.next += 1;
                self.key = f;
                return seed
                    .deserialize(de::value::BorrowedStrDeserializer::new(f))
                    .map(Some);
            }
        }
        let k = de.str()?;
        self.key = k;
        if let Some(i) = self.fields.iter().position(|f| *f == k) {
            self.next = i + 1;
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(k))
            .map(Some)
    }
    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
            .map_err(|e| e.in_field(self.key))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

/// `b` is `name` and its NUL terminator (`b.len() == name.len() + 1`). Short names are compared
/// with two overlapping words instead of a `memcmp` call.
#[inline(always)]
fn name_is(b: &[u8], name: &[u8]) -> bool {
    let n = name.len();
    if b.len() != n + 1 || b[n] != 0 {
        return false;
    }
    macro_rules! words {
        ($t:ty, $w:expr) => {{
            let w = |s: &[u8]| <$t>::from_le_bytes(s.try_into().expect("length checked"));
            w(&b[..$w]) == w(&name[..$w]) && w(&b[n - $w..n]) == w(&name[n - $w..])
        }};
    }
    match n {
        0 => true,
        1..=3 => b[0] == name[0] && b[n / 2] == name[n / 2] && b[n - 1] == name[n - 1],
        4..=7 => words!(u32, 4),
        8..=16 => words!(u64, 8),
        _ => b[..n] == *name,
    }
}

struct SchemaAcc<'a, 'de, 'r> {
    de: &'a mut Deserializer<'de, 'r>,
    fields: &'r [(String, Datatype)],
    skip: Vec<bool>,
    i: usize,
}

impl<'de> de::MapAccess<'de> for SchemaAcc<'_, 'de, '_> {
    type Error = Boxed;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        while self.i < self.fields.len() && self.skip[self.i] {
            self.i += 1;
        }
        match self.fields.get(self.i) {
            None => Ok(None),
            Some((k, _)) => seed.deserialize(k.as_str().into_deserializer()).map(Some),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let (name, dt) = &self.fields[self.i];
        let dt = *dt;
        self.i += 1;
        self.de.pending = match dt {
            Datatype::Any => None,
            Datatype::Text => Some(Datatype::String.code()),
            d => Some(d.code()),
        };
        seed.deserialize(&mut *self.de)
            .map_err(|e| e.in_field(name))
    }
}

macro_rules! int_hint {
    ($($name:ident)*) => {$(
        fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let dt = self.dt()?;
            match self.number(dt)? {
                Some(Num::U(u)) => visitor.visit_u64(u),
                Some(Num::I(i)) => visitor.visit_i64(i),
                Some(Num::F(f)) if f.fract() == 0.0 && (-9.2e18..=1.8e19).contains(&f) => {
                    if f < 0.0 { visitor.visit_i64(f as i64) } else { visitor.visit_u64(f as u64) }
                }
                Some(Num::F(f)) => visitor.visit_f64(f),
                None => { self.pending = Some(dt); self.deserialize_any(visitor) }
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de, '_> {
    type Error = Boxed;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let dt = self.dt()?;
        match dt {
            1 => visitor.visit_u8(self.u8("u8")?),
            2 => visitor.visit_i8(self.u8("s8")? as i8),
            3 => visitor.visit_u16(self.u16("u16")?),
            4 => visitor.visit_i16(self.u16("s16")? as i16),
            5 => visitor.visit_u32(u32::from_le_bytes(self.bytes("u32")?)),
            6 => visitor.visit_i32(i32::from_le_bytes(self.bytes("s32")?)),
            7 => visitor.visit_f32(half::f16::from_le_bytes(self.bytes("f16")?).to_f32()),
            8 => visitor.visit_f32(f32::from_le_bytes(self.bytes("f32")?)),
            9 => visitor.visit_f64(f64::from_le_bytes(self.bytes("f64")?)),
            10 => visitor.visit_bool(self.u8("bool")? != 0),
            11 | 13 => visitor.visit_borrowed_str(self.str()?),
            12 => visitor.visit_i64(i64::from_le_bytes(self.bytes("u64")?)),
            UNDEFINED => visitor.visit_unit(),
            ARRAY | STRUCT => self.container(dt, visitor),
            _ => unreachable!("dt() returns known codes"),
        }
    }

    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // Fast path: a datatype byte 9 (the same code in every version) and its f64.
        if self.pending.is_none()
            && let Some(&[9, a, b, c, d, e, f, g, h]) = self.buf.get(self.pos..self.pos + 9)
        {
            self.pos += 9;
            return visitor.visit_f64(f64::from_le_bytes([a, b, c, d, e, f, g, h]));
        }
        let dt = self.dt()?;
        if dt == 9 {
            return visitor.visit_f64(f64::from_le_bytes(self.bytes("f64")?));
        }
        match self.number(dt)? {
            Some(Num::U(u)) => visitor.visit_f64(u as f64),
            Some(Num::I(i)) => visitor.visit_f64(i as f64),
            Some(Num::F(f)) => visitor.visit_f64(f),
            None => {
                self.pending = Some(dt);
                self.deserialize_any(visitor)
            }
        }
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_f64(visitor)
    }

    int_hint!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_u8 deserialize_u16 deserialize_u32);

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let dt = self.dt()?;
        if dt == 12 {
            return visitor.visit_i64(i64::from_le_bytes(self.bytes("u64")?));
        }
        self.pending = Some(dt);
        self.deserialize_i32(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let dt = self.dt()?;
        if dt == 12 {
            return visitor.visit_u64(u64::from_le_bytes(self.bytes("u64")?));
        }
        self.pending = Some(dt);
        self.deserialize_u32(visitor)
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // Fast path: an element of a bool array.
        if self.pending == Some(10)
            && let Some(&b) = self.buf.get(self.pos)
        {
            self.pending = None;
            self.pos += 1;
            return visitor.visit_bool(b != 0);
        }
        let dt = self.dt()?;
        if dt == 10 {
            return visitor.visit_bool(self.u8("bool")? != 0);
        }
        match self.number(dt)? {
            Some(Num::U(u)) => visitor.visit_bool(u != 0),
            Some(Num::I(i)) => visitor.visit_bool(i > 0),
            Some(Num::F(f)) => visitor.visit_bool(f > 0.5),
            None => {
                self.pending = Some(dt);
                self.deserialize_any(visitor)
            }
        }
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let dt = self.dt()?;
        if dt == UNDEFINED {
            visitor.visit_none()
        } else {
            self.pending = Some(dt);
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let dt = self.dt()?;
        match dt {
            11 | 13 => visitor.visit_enum(self.str()?.into_deserializer()),
            STRUCT => {
                self.enter()?;
                let start = self.pos;
                let marker = self.u16("struct marker")?;
                let id = if self.record {
                    self.open_container(STRUCT, start)
                } else {
                    0
                };
                let r = match marker {
                    0xFFFF => Err(Error::msg("references to enum values are not supported").into()),
                    0xFFFE => {
                        let (name, body) = self.constructed_head()?;
                        visitor.visit_enum(Enum {
                            de: &mut *self,
                            variant: name,
                            body: Some(body),
                        })
                    }
                    1 => {
                        let name = self.str()?;
                        visitor.visit_enum(Enum {
                            de: &mut *self,
                            variant: name,
                            body: None,
                        })
                    }
                    n => Err(Error::msg(format!(
                        "expected an enum: a string, a one-member struct or a constructed struct, \
                         found a struct with {n} members"
                    ))
                    .into()),
                };
                if self.record {
                    self.containers[id].2 = self.pos;
                }
                self.depth -= 1;
                r
            }
            _ => Err(Error::msg(format!(
                "expected an enum (string or struct), found datatype {dt}"
            ))
            .into()),
        }
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let dt = self.dt()?;
        let marker = match self.buf.get(self.pos..self.pos + 2) {
            Some(&[a, b]) if dt == STRUCT && !self.record => u16::from_le_bytes([a, b]),
            _ => {
                self.pending = Some(dt);
                return self.deserialize_any(visitor);
            }
        };
        let v2 = self.layout >= Layout::V2;
        if marker == 0xFFFF && v2 {
            self.pending = Some(dt);
            return self.deserialize_any(visitor);
        }
        self.enter()?;
        self.pos += 2;
        let r = if marker == 0xFFFE && v2 {
            match self.constructed_head() {
                Ok((_, Body::Verbose(left))) => visitor.visit_map(StructAcc {
                    de: &mut *self,
                    left,
                    fields,
                    next: 0,
                    key: "",
                }),
                Ok((_, body)) => self.visit_struct_body(body, visitor),
                Err(e) => Err(e),
            }
        } else {
            visitor.visit_map(StructAcc {
                de: &mut *self,
                left: marker,
                fields,
                next: 0,
                key: "",
            })
        };
        self.depth -= 1;
        r
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let dt = self.dt()?;
        let len = match self.buf.get(self.pos..self.pos + 2) {
            Some(&[a, b]) if dt == ARRAY && !self.record => u16::from_le_bytes([a, b]),
            _ => {
                self.pending = Some(dt);
                return self.deserialize_any(visitor);
            }
        };
        if len == 0xFFFF && self.layout >= Layout::V2 {
            self.pending = Some(dt);
            return self.deserialize_any(visitor);
        }
        self.enter()?;
        self.pos += 2;
        let r = self.array_body(len, visitor);
        self.depth -= 1;
        r
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // Fast path: a datatype byte 11 (the same code in every version).
        if self.pending.is_none() && self.buf.get(self.pos) == Some(&11) {
            self.pos += 1;
            return visitor.visit_borrowed_str(self.str()?);
        }
        let dt = self.dt()?;
        if dt == 11 || dt == 13 {
            return visitor.visit_borrowed_str(self.str()?);
        }
        self.pending = Some(dt);
        self.deserialize_any(visitor)
    }
    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct tuple
        tuple_struct map identifier
    }
}

struct Enum<'a, 'de, 'r> {
    de: &'a mut Deserializer<'de, 'r>,
    variant: &'de str,
    body: Option<Body<'r>>,
}

impl<'de, 'a, 'r> de::EnumAccess<'de> for Enum<'a, 'de, 'r> {
    type Error = Boxed;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<Boxed>::new(
            self.variant,
        ))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for Enum<'_, 'de, '_> {
    type Error = Boxed;
    fn unit_variant(self) -> Result<()> {
        match self.body {
            Some(body) => self.de.visit_struct_body(body, de::IgnoredAny).map(|_| ()),
            None => de::Deserialize::deserialize(&mut *self.de).map(|_: de::IgnoredAny| ()),
        }
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        match self.body {
            Some(_) => {
                Err(Error::msg("expected a newtype variant, found a constructed struct").into())
            }
            None => seed.deserialize(&mut *self.de),
        }
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        match self.body {
            Some(_) => {
                Err(Error::msg("expected a tuple variant, found a constructed struct").into())
            }
            None => de::Deserializer::deserialize_seq(&mut *self.de, visitor),
        }
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.body {
            Some(body) => self.de.visit_struct_body(body, visitor),
            None => de::Deserializer::deserialize_map(&mut *self.de, visitor),
        }
    }
}
