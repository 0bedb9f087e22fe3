//! serde support for the model (cargo feature `serde`).
//!
//! Every model type derives `Serialize` and `Deserialize`. The few that need a form of their own
//! are written here:
//!
//! - [`StringRef`] is written as the *text* of the entry it points to while a [`StringScope`] is
//!   active on the thread ([`StringScope::enter`]), so a person reads and edits names and texts,
//!   not indices. A reference that text cannot name unambiguously (a duplicate entry: the text
//!   names the first entry with it; bytes that are not UTF-8; an index past the table) is written
//!   in the lossless form `{"index": 12, "text": "..."}`. Reading accepts the text, that form, or
//!   a bare index; a text that is not in the table is added to it ([`StringScope::added`]).
//!   Without a scope a reference is its index.
//! - [`Id`] is its index outside a names scope (see [`NameScope`]); [`ChunkName`] its four letters.
//! - [`AssetRef`](crate::AssetRef) (a typed reference between assets) is written as the
//!   asset's *name* while a [`NameScope`] is active (`null` for none, `{"index": n}` where no
//!   name names it alone, `{"stored": v}` for a kept value); without one, as its index.
//! - Byte payloads ([`bytes::Bytes`]) are lowercase hex strings.
//! - A code entry body is always written as its instructions (an encoded blob is decoded);
//!   writing the model back re-encodes them, which gives the same bytes. Inside instructions,
//!   string references always take the `{"index", "text"}` form: code names the entry, so an
//!   entry translated in the table is what the code pushes (the text is for the reader).
//! - The string table ([`Strings`]) is `{aligned, end_align, entries}`, an entry being its text or
//!   `{"bytes": "<hex>"}` when it is not UTF-8.
//! - Every `f32`/`f64` of the model goes through one helper ([`float`]): a finite number is a
//!   JSON number, exactly as before; NaN and the infinities, which JSON numbers cannot hold, are
//!   the strings `"NaN"`, `"inf"` and `"-inf"`, and a NaN other than the default one (another
//!   payload, or the sign bit set) is `"NaN:0x7FC00001"` with its exact bits, as in the assembly
//!   text. No bit of a float is lost. A finite `f32` is written as its shortest text (`0.1`,
//!   not the `0.10000000149011612` of the widened `f64`), see [`float::shortest_f64`].

pub use crate::serde_names::NameScope;

use crate::chunk::ChunkName;
use crate::chunks::code::{CodeBody, Instruction};
use crate::chunks::string_table::Strings;
use crate::refs::StringRef;
use bytes::Bytes;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

/// The string table a thread resolves [`StringRef`]s against while (de)serializing.
///
/// Build one per file from its [`Strings`], then [`StringScope::enter`] it on every thread that
/// serializes or deserializes parts of that file (cheap: it is shared through an [`Arc`]).
#[derive(Debug)]
pub struct StringScope {
    texts: Vec<Bytes>,
    first: HashMap<Bytes, u32>,
    added: Mutex<(Vec<String>, HashMap<String, u32>)>,
}

thread_local! {
    static SCOPE: RefCell<Option<Arc<StringScope>>> = const { RefCell::new(None) };
    /// Set while writing instructions: code names strings by index (with the text beside it,
    /// for the reader), so that a translated entry of the table is what the code pushes.
    static BY_INDEX: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl StringScope {
    /// A scope over the entries of `strings`.
    pub fn new(strings: &Strings) -> Arc<StringScope> {
        let texts: Vec<Bytes> = strings
            .iter()
            .map(|s| Bytes::copy_from_slice(s.as_bytes()))
            .collect();
        let mut first = HashMap::with_capacity(texts.len());
        for (i, t) in texts.iter().enumerate() {
            first.entry(t.clone()).or_insert(i as u32);
        }
        Arc::new(StringScope {
            texts,
            first,
            added: Mutex::new((Vec::new(), HashMap::new())),
        })
    }

    /// Runs `f` with this scope active on the current thread (the previous one is restored).
    pub fn enter<R>(self: &Arc<Self>, f: impl FnOnce() -> R) -> R {
        let prev = SCOPE.with(|s| s.replace(Some(self.clone())));
        struct Restore(Option<Arc<StringScope>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let prev = self.0.take();
                SCOPE.with(|s| *s.borrow_mut() = prev);
            }
        }
        let _restore = Restore(prev);
        f()
    }

    /// Texts that deserialized references named but the table did not hold, in the order they
    /// were met; they were given the indices after the table's last entry. Push them onto the
    /// table ([`Strings::push`]) in this order.
    pub fn added(&self) -> Vec<String> {
        self.added.lock().map(|a| a.0.clone()).unwrap_or_default()
    }

    fn resolve(&self, text: &str) -> u32 {
        if let Some(&i) = self.first.get(text.as_bytes()) {
            return i;
        }
        let mut added = match self.added.lock() {
            Ok(a) => a,
            Err(p) => p.into_inner(),
        };
        if let Some(&i) = added.1.get(text) {
            return i;
        }
        let i = (self.texts.len() + added.0.len()) as u32;
        added.0.push(text.to_owned());
        added.1.insert(text.to_owned(), i);
        i
    }
}

fn current_scope() -> Option<Arc<StringScope>> {
    SCOPE.with(|s| s.borrow().clone())
}

#[derive(Serialize)]
struct IndexedRef<'a> {
    index: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<Cow<'a, str>>,
}

impl Serialize for StringRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Some(scope) = current_scope() else {
            return s.serialize_u32(self.0);
        };
        match scope.texts.get(self.index()) {
            Some(t) => match std::str::from_utf8(t) {
                Ok(text) if scope.first.get(t) == Some(&self.0) && !BY_INDEX.get() => {
                    s.serialize_str(text)
                }
                _ => IndexedRef {
                    index: self.0,
                    text: Some(String::from_utf8_lossy(t)),
                }
                .serialize(s),
            },
            None => IndexedRef {
                index: self.0,
                text: None,
            }
            .serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for StringRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StringRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string's text, {\"index\": N}, or an index")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<StringRef, E> {
                u32::try_from(v)
                    .map(StringRef)
                    .map_err(|_| E::custom(format!("string index {v} is too large")))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<StringRef, E> {
                u64::try_from(v)
                    .map_err(|_| E::custom(format!("string index {v} is negative")))
                    .and_then(|v| self.visit_u64(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StringRef, E> {
                match current_scope() {
                    Some(scope) => Ok(StringRef(scope.resolve(v))),
                    None => Err(E::custom(format!(
                        "string text {v:?} outside a string table scope"
                    ))),
                }
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<StringRef, A::Error> {
                let mut index = None;
                while let Some(k) = m.next_key::<Cow<'de, str>>()? {
                    match &*k {
                        "index" => index = Some(m.next_value::<u32>()?),
                        _ => {
                            m.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                index
                    .map(StringRef)
                    .ok_or_else(|| de::Error::missing_field("index"))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for ChunkName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.as_str())
    }
}
impl<'de> Deserialize<'de> for ChunkName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Cow::<str>::deserialize(d)?;
        let b: [u8; 4] = s.as_bytes().try_into().map_err(|_| {
            de::Error::invalid_value(de::Unexpected::Str(&s), &"a four-letter chunk name")
        })?;
        Ok(ChunkName(b))
    }
}

/// Lowercase hex of `b`.
pub fn to_hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(b.len() * 2);
    for &x in b {
        s.push(D[(x >> 4) as usize] as char);
        s.push(D[(x & 15) as usize] as char);
    }
    s
}

/// Bytes from hex (either case); `None` on an odd length or a non-hex digit.
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    fn digit(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let s = s.as_bytes();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.chunks_exact(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

/// `#[serde(with = "hex")]` for byte payloads: `Bytes`, `Option<Bytes>`, `Vec<Bytes>`,
/// `Vec<Option<Bytes>>`, written as hex strings.
pub(crate) mod hex {
    use super::*;

    /// A byte payload with a hex form.
    pub trait Repr: Sized {
        fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
        fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
    }

    pub fn serialize<T: Repr, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        v.ser(s)
    }
    pub fn deserialize<'de, T: Repr, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        T::de(d)
    }

    struct HexRef<'a>(&'a [u8]);
    impl Serialize for HexRef<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(&to_hex(self.0))
        }
    }
    struct Hex(Bytes);
    impl<'de> Deserialize<'de> for Hex {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let s = Cow::<str>::deserialize(d)?;
            from_hex(&s)
                .map(|v| Hex(Bytes::from(v)))
                .ok_or_else(|| de::Error::invalid_value(de::Unexpected::Str(&s), &"hex bytes"))
        }
    }

    impl Repr for Bytes {
        fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            HexRef(self).serialize(s)
        }
        fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Hex::deserialize(d).map(|h| h.0)
        }
    }
    impl Repr for Option<Bytes> {
        fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.as_deref().map(HexRef).serialize(s)
        }
        fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Option::<Hex>::deserialize(d).map(|o| o.map(|h| h.0))
        }
    }
    impl Repr for Vec<Bytes> {
        fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.iter().map(|b| HexRef(b)))
        }
        fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Vec::<Hex>::deserialize(d).map(|v| v.into_iter().map(|h| h.0).collect())
        }
    }
    impl Repr for Vec<Option<Bytes>> {
        fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.iter().map(|b| b.as_deref().map(HexRef)))
        }
        fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Vec::<Option<Hex>>::deserialize(d)
                .map(|v| v.into_iter().map(|o| o.map(|h| h.0)).collect())
        }
    }
    impl Repr for Vec<(ChunkName, Bytes)> {
        fn ser<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.iter().map(|(n, b)| (n, HexRef(b))))
        }
        fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Vec::<(ChunkName, Hex)>::deserialize(d)
                .map(|v| v.into_iter().map(|(n, h)| (n, h.0)).collect())
        }
    }
}

/// `#[serde(with = "float")]` for every float of the model: `f32`, `f64` and the containers the
/// model holds them in (`Option`, `Vec`, arrays, pairs with integers).
///
/// A finite value is written as a JSON number (the same number as without this helper); a
/// non-finite one as a string a person can read: `"NaN"` (the default quiet NaN, the bits of
/// `f32::NAN` / `f64::NAN`), `"NaN:0x<bits>"` (any other NaN: its bits in hex, 8 digits for an
/// `f32`, 16 for an `f64`, the same form the assembly text uses), `"inf"` and `"-inf"`. Reading
/// accepts these (case-insensitive), numbers, and numbers written as strings.
pub mod float {
    use super::*;

    /// A value made of floats (and integers beside them) with a lossless serialized form.
    pub trait Repr: Sized {
        /// The serialized form.
        type Wire: Serialize + de::DeserializeOwned;
        /// The serialized form of `self`.
        fn to_wire(&self) -> Self::Wire;
        /// The value of a serialized form.
        fn from_wire(w: Self::Wire) -> Self;
    }

    /// Serializes a float (or container of floats) losslessly.
    pub fn serialize<T: Repr, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        v.to_wire().serialize(s)
    }

    /// Deserializes a float (or container of floats) from its lossless form.
    pub fn deserialize<'de, T: Repr, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        T::Wire::deserialize(d).map(T::from_wire)
    }

    /// The text of a non-finite float (`None` for a finite one): `"inf"`, `"-inf"`, `"NaN"`
    /// for the default NaN, `"NaN:0x<bits>"` for any other.
    pub fn non_finite_text(bits: u64, width: Width) -> Option<String> {
        let (exp_mask, frac_mask, sign, default_nan, digits) = match width {
            Width::F32 => (
                0x7F80_0000u64,
                0x007F_FFFFu64,
                1u64 << 31,
                f32::NAN.to_bits() as u64,
                8,
            ),
            Width::F64 => (
                0x7FF0_0000_0000_0000,
                0x000F_FFFF_FFFF_FFFF,
                1 << 63,
                f64::NAN.to_bits(),
                16,
            ),
        };
        if bits & exp_mask != exp_mask {
            return None;
        }
        Some(if bits & frac_mask == 0 {
            if bits & sign != 0 { "-inf" } else { "inf" }.to_owned()
        } else if bits == default_nan {
            "NaN".to_owned()
        } else {
            format!("NaN:0x{bits:0digits$X}")
        })
    }

    /// The bits a float's text denotes (the forms [`non_finite_text`] writes, or a number),
    /// `None` when it is none of them.
    pub fn parse_text(text: &str, width: Width) -> Option<u64> {
        let t = text.trim();
        let hex = t
            .get(..6)
            .filter(|p| p.eq_ignore_ascii_case("nan:0x"))
            .map(|_| &t[6..]);
        if let Some(h) = hex {
            let digits = match width {
                Width::F32 => 8,
                Width::F64 => 16,
            };
            if h.is_empty() || h.len() > digits || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            let bits = u64::from_str_radix(h, 16).ok()?;
            // The bits must be a NaN's: any other value is written as a number.
            return non_finite_text(bits, width)
                .filter(|t| t.starts_with("NaN"))
                .map(|_| bits);
        }
        match width {
            Width::F32 => t.parse::<f32>().ok().map(|v| v.to_bits() as u64),
            Width::F64 => t.parse::<f64>().ok().map(f64::to_bits),
        }
    }

    /// The width of a float.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Width {
        /// `f32`.
        F32,
        /// `f64`.
        F64,
    }

    /// An `f32` in its lossless form.
    #[derive(Clone, Copy, Debug)]
    pub struct F32(pub f32);
    /// An `f64` in its lossless form.
    #[derive(Clone, Copy, Debug)]
    pub struct F64(pub f64);

    impl Serialize for F32 {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match non_finite_text(self.0.to_bits() as u64, Width::F32) {
                None => s.serialize_f64(shortest_f64(self.0)),
                Some(t) => s.serialize_str(&t),
            }
        }
    }
    impl Serialize for F64 {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match non_finite_text(self.0.to_bits(), Width::F64) {
                None => s.serialize_f64(self.0),
                Some(t) => s.serialize_str(&t),
            }
        }
    }

    /// The `f64` whose shortest text is the shortest text of `v` (`0.1f32` → `0.1`, not
    /// `0.10000000149011612`), so a JSON value tree (which holds `f64`s) prints a 32-bit float
    /// as people write it. Reading it back as `f32` gives `v`'s exact bits; where the decimal
    /// would not (a double rounding case), `v` widened exactly is returned instead.
    pub fn shortest_f64(v: f32) -> f64 {
        match format!("{v}").parse::<f64>() {
            Ok(d) if (d as f32).to_bits() == v.to_bits() => d,
            _ => f64::from(v),
        }
    }

    /// Reads a number or a float's text as the bits of a float of `width`.
    struct BitsVisitor(Width);
    impl Visitor<'_> for BitsVisitor {
        type Value = u64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            let digits = match self.0 {
                Width::F32 => 8,
                Width::F64 => 16,
            };
            write!(
                f,
                "a number, \"NaN\", \"inf\", \"-inf\" or \"NaN:0x<{digits} hex digits of a NaN>\""
            )
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
            Ok(match self.0 {
                Width::F32 => (v as f32).to_bits() as u64,
                Width::F64 => v.to_bits(),
            })
        }
        fn visit_f32<E: de::Error>(self, v: f32) -> Result<u64, E> {
            Ok(match self.0 {
                Width::F32 => v.to_bits() as u64,
                Width::F64 => (v as f64).to_bits(),
            })
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            self.visit_f64(v as f64)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            self.visit_f64(v as f64)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            parse_text(v, self.0).ok_or_else(|| {
                let shown: String = v
                    .chars()
                    .take(40)
                    .collect::<String>()
                    .escape_debug()
                    .to_string();
                E::invalid_value(
                    de::Unexpected::Other(&format!("the text \"{shown}\"")),
                    &self,
                )
            })
        }
    }

    impl<'de> Deserialize<'de> for F32 {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(BitsVisitor(Width::F32))
                .map(|b| F32(f32::from_bits(b as u32)))
        }
    }
    impl<'de> Deserialize<'de> for F64 {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(BitsVisitor(Width::F64))
                .map(|b| F64(f64::from_bits(b)))
        }
    }

    impl Repr for f32 {
        type Wire = F32;
        fn to_wire(&self) -> F32 {
            F32(*self)
        }
        fn from_wire(w: F32) -> f32 {
            w.0
        }
    }
    impl Repr for f64 {
        type Wire = F64;
        fn to_wire(&self) -> F64 {
            F64(*self)
        }
        fn from_wire(w: F64) -> f64 {
            w.0
        }
    }
    macro_rules! plain {
        ($($t:ty),*) => {$(
            impl Repr for $t {
                type Wire = $t;
                fn to_wire(&self) -> $t {
                    *self
                }
                fn from_wire(w: $t) -> $t {
                    w
                }
            }
        )*};
    }
    plain!(i32, u32);
    impl<T: Repr> Repr for Option<T> {
        type Wire = Option<T::Wire>;
        fn to_wire(&self) -> Self::Wire {
            self.as_ref().map(T::to_wire)
        }
        fn from_wire(w: Self::Wire) -> Self {
            w.map(T::from_wire)
        }
    }
    impl<T: Repr> Repr for Vec<T> {
        type Wire = Vec<T::Wire>;
        fn to_wire(&self) -> Self::Wire {
            self.iter().map(T::to_wire).collect()
        }
        fn from_wire(w: Self::Wire) -> Self {
            w.into_iter().map(T::from_wire).collect()
        }
    }
    impl<T: Repr, const N: usize> Repr for [T; N]
    where
        [T::Wire; N]: Serialize + de::DeserializeOwned,
    {
        type Wire = [T::Wire; N];
        fn to_wire(&self) -> Self::Wire {
            std::array::from_fn(|i| self[i].to_wire())
        }
        fn from_wire(w: Self::Wire) -> Self {
            w.map(T::from_wire)
        }
    }
    impl<A: Repr, B: Repr> Repr for (A, B) {
        type Wire = (A::Wire, B::Wire);
        fn to_wire(&self) -> Self::Wire {
            (self.0.to_wire(), self.1.to_wire())
        }
        fn from_wire(w: Self::Wire) -> Self {
            (A::from_wire(w.0), B::from_wire(w.1))
        }
    }
}

#[derive(Serialize)]
enum CodeBodyOut<'a> {
    Instructions(Cow<'a, [Instruction]>),
    Shared { parent: u32 },
}
#[derive(Deserialize)]
enum CodeBodyIn {
    Instructions(Vec<Instruction>),
    Shared { parent: u32 },
}

impl Serialize for CodeBody {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            CodeBody::Shared { parent } => CodeBodyOut::Shared { parent: *parent }.serialize(s),
            body => match body.instructions() {
                Some(Ok(v)) => {
                    let prev = BY_INDEX.replace(true);
                    let r = CodeBodyOut::Instructions(v).serialize(s);
                    BY_INDEX.set(prev);
                    r
                }
                Some(Err(e)) => Err(serde::ser::Error::custom(e)),
                None => Err(serde::ser::Error::custom("code body without instructions")),
            },
        }
    }
}
impl<'de> Deserialize<'de> for CodeBody {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match CodeBodyIn::deserialize(d)? {
            CodeBodyIn::Instructions(v) => CodeBody::Instructions(v),
            CodeBodyIn::Shared { parent } => CodeBody::Shared { parent },
        })
    }
}

/// An entry of the string table in its serialized form.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Entry<'a> {
    Text(Cow<'a, str>),
    Bytes { bytes: String },
}

impl Serialize for Strings {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Entries<'a>(&'a Strings);
        impl Serialize for Entries<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().map(|e| match e.to_str() {
                    Ok(t) => Entry::Text(Cow::Borrowed(t)),
                    Err(_) => Entry::Bytes {
                        bytes: to_hex(e.as_bytes()),
                    },
                }))
            }
        }
        let mut st = s.serialize_struct("Strings", 3)?;
        st.serialize_field("aligned", &self.aligned)?;
        st.serialize_field("end_align", &self.end_align)?;
        st.serialize_field("entries", &Entries(self))?;
        st.end()
    }
}

impl<'de> Deserialize<'de> for Strings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Repr<'a> {
            aligned: bool,
            end_align: usize,
            #[serde(borrow)]
            entries: Vec<Entry<'a>>,
        }
        let r = Repr::deserialize(d)?;
        let mut out = Strings::default();
        out.aligned = r.aligned;
        out.end_align = r.end_align;
        for e in r.entries {
            match e {
                Entry::Text(t) => out.push(t.into_owned()),
                Entry::Bytes { bytes } => {
                    let b = from_hex(&bytes).ok_or_else(|| {
                        de::Error::invalid_value(de::Unexpected::Str(&bytes), &"hex bytes")
                    })?;
                    out.push(crate::GmString(Bytes::from(b)))
                }
            };
        }
        Ok(out)
    }
}
