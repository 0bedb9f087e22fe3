//! Colours as `"#RRGGBB"` / `"#AARRGGBB"`.
//!
//! GameMaker keeps a colour in an int as `0xAABBGGRR`: red in the low byte (`c_red` is 255),
//! alpha (where the field has one, e.g. an instance's blend colour) in the high byte. The text is
//! the colour as a person sees it, red first: `c_red` is `"#FF0000"`, an opaque white blend is
//! `"#FFFFFFFF"`. Six digits mean the alpha byte is 0 (exactly the int `0x00BBGGRR`); eight
//! digits give it first. Reading also takes the int itself (`16777215`, or a negative one for a
//! colour with the high bit set).

use super::{NumberOrText, u32_bits};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

/// The text of a colour int.
pub fn to_text(v: u32) -> String {
    let [r, g, b, a] = v.to_le_bytes();
    if a == 0 {
        format!("#{r:02X}{g:02X}{b:02X}")
    } else {
        format!("#{a:02X}{r:02X}{g:02X}{b:02X}")
    }
}

/// The colour int of a text (`"#RRGGBB"` or `"#AARRGGBB"`, upper or lower case), `None` when
/// it is neither.
pub fn from_text(t: &str) -> Option<u32> {
    let hex = t.trim().strip_prefix('#')?;
    if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let n = u32::from_str_radix(hex, 16).ok()?;
    let [b, g, r, a] = n.to_le_bytes();
    match hex.len() {
        6 => Some(u32::from_le_bytes([r, g, b, 0])),
        8 => Some(u32::from_le_bytes([r, g, b, a])),
        _ => None,
    }
}

/// A value made of colours.
pub trait Repr: Sized {
    /// The serialized form.
    type Wire: Serialize;
    /// The serialized form of `self`.
    fn to_wire(&self) -> Self::Wire;
    /// Reads the value.
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// One colour on the wire (reading).
struct One(u32);

impl<'de> Deserialize<'de> for One {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = NumberOrText::deserialize(d)?;
        if let NumberOrText::Text(t) = &n {
            return from_text(t).map(One).ok_or_else(|| {
                de::Error::custom(format!(
                    "expected a colour \"#RRGGBB\" or \"#AARRGGBB\" (or its int), found {t:?}"
                ))
            });
        }
        u32_bits(&n)
            .map(One)
            .ok_or_else(|| de::Error::custom("expected a colour, found a number outside 32 bits"))
    }
}

impl Repr for u32 {
    type Wire = String;
    fn to_wire(&self) -> String {
        to_text(*self)
    }
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        One::deserialize(d).map(|c| c.0)
    }
}

impl<const N: usize> Repr for [u32; N] {
    type Wire = Vec<String>;
    fn to_wire(&self) -> Vec<String> {
        self.iter().map(|&c| to_text(c)).collect()
    }
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<One>::deserialize(d)?;
        let n = v.len();
        let v: Vec<u32> = v.into_iter().map(|c| c.0).collect();
        v.try_into()
            .map_err(|_| de::Error::custom(format!("expected {N} colours, found {n}")))
    }
}

impl Repr for Vec<u32> {
    type Wire = Vec<String>;
    fn to_wire(&self) -> Vec<String> {
        self.iter().map(|&c| to_text(c)).collect()
    }
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<One>::deserialize(d)?
            .into_iter()
            .map(|c| c.0)
            .collect())
    }
}

/// Serializes a colour (or colours) as text.
pub fn serialize<T: Repr, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    v.to_wire().serialize(s)
}

/// Deserializes a colour (or colours) from text or the int.
pub fn deserialize<'de, T: Repr, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    T::read(d)
}
