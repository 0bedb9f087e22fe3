//! Values as people write them in the model's serde form (cargo feature `serde`).
//!
//! The binary reader and writer never see these forms: each helper is used through
//! `#[serde(with = ...)]` on a model field, writes the readable form, and reads it back to the
//! same bits. Every helper also reads the plain number the field held before (a hand-written
//! `16777215` still works).
//!
//! - [`colour`]: a GameMaker colour (`0xAABBGGRR` in the int) as `"#RRGGBB"` (alpha byte 0) or
//!   `"#AARRGGBB"`.
//! - [`flags`]: a bit set (`u32` or `u64`) as a list of names, bits without a name kept as one
//!   number in the list.
//! - [`kinds`]: an enumerated value by name, the number where no name exists.

pub mod colour;
pub mod flags;
pub mod kinds;

use serde::Deserialize;

/// A JSON number (of either sign) or a text: what the helpers accept on read.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum NumberOrText {
    /// A non-negative number.
    Unsigned(u64),
    /// A negative number.
    Signed(i64),
    /// A text.
    Text(String),
}

/// The bits of a number written as either an unsigned or a signed value of `width` bits (1 to
/// 64): a negative number is taken as its two's complement in that width.
pub(crate) fn bits(n: &NumberOrText, width: u32) -> Option<u64> {
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    match *n {
        NumberOrText::Unsigned(u) => (u <= mask).then_some(u),
        NumberOrText::Signed(i) => {
            let min = if width >= 64 {
                i64::MIN
            } else {
                -(1i64 << (width - 1))
            };
            (i >= min).then_some(i as u64 & mask)
        }
        NumberOrText::Text(_) => None,
    }
}

/// The `u32` bits of a number written as either an unsigned or a signed 32-bit value.
pub(crate) fn u32_bits(n: &NumberOrText) -> Option<u32> {
    bits(n, 32).map(|b| b as u32)
}

/// The value of one item read from the JSON: `name` (after `prefix`, when it has it) looked up
/// in `table`, or a number's bits (`width` 1 to 64). An unknown name or a number outside
/// `width` bits is an error saying what `what` expects.
pub(crate) fn by_name_or_number<E: serde::de::Error, V: Copy + Into<u64>>(
    table: &[(&str, V)],
    prefix: &str,
    what: &str,
    width: u32,
    item: NumberOrText,
) -> Result<u64, E> {
    match item {
        NumberOrText::Text(t) => {
            let name = t.strip_prefix(prefix).unwrap_or(&t);
            table
                .iter()
                .find(|(n, _)| *n == name)
                .map(|&(_, v)| v.into())
                .ok_or_else(|| {
                    let known: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
                    E::custom(format!(
                        "unknown {what} {t:?}: expected one of {} or a number",
                        known.join(", ")
                    ))
                })
        }
        n => bits(&n, width)
            .ok_or_else(|| E::custom(format!("{what}: a number outside {width} bits"))),
    }
}
