//! Errors of the ds_* reader and writer.
//!
//! Every decoding error names what was expected, what was found and where: the offset is given
//! in the decoded byte stream and as the matching character offset in the hex text (two hex
//! characters per byte, so `hex char = 2 × byte`).

use super::DsKind;

/// A ds_* string could not be decoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DsError {
    /// The input string is empty.
    #[error("empty input: expected a ds_* hex string, found nothing")]
    Empty,
    /// The input does not start with a pair of hex digits.
    #[error("not a ds_* hex string: expected two hex digits at hex char 0, found {found:?}")]
    NotHex {
        /// The first characters of the input.
        found: String,
    },
    /// A character that is not a hex digit stops the hex before the data is complete (a BOM,
    /// a space, a stray letter inside the string).
    #[error(
        "bad character {ch:?} at position {position}: expected a hex digit{}",
        match after { Some(e) => format!(" (the hex before it ends early: {e})"), None => String::new() }
    )]
    BadCharacter {
        /// The character.
        ch: char,
        /// Its position in the text, in characters from 0.
        position: usize,
        /// What reading the hex before it ran into.
        after: Option<Box<DsError>>,
    },
    /// The magic word names no structure (or not the one asked for).
    #[error(
        "unknown magic at byte 0 (hex char 0): expected {expected}, found {found} (0x{found:08X})"
    )]
    BadMagic {
        /// What was acceptable, in words.
        expected: String,
        /// The magic word read.
        found: u32,
    },
    /// The data ends inside a field.
    #[error(
        "truncated data at byte {offset} (hex char {}): expected {expected} ({needed} bytes), \
         found only {available} bytes left",
        2 * offset
    )]
    Truncated {
        /// The field being read.
        expected: &'static str,
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left in the stream.
        available: usize,
        /// Byte offset of the field.
        offset: usize,
    },
    /// A value record has a kind code that is not supported.
    #[error(
        "unsupported value kind at byte {offset} (hex char {}): expected one of 0 (real), \
         1 (string), 2 (array), 3 (ptr), 5 (undefined), 7 (int32), 10 (int64), 13 (bool), \
         found {kind}{}",
        2 * offset,
        match kind {
            6 => " (a struct: the native runner writes it with no payload and cannot read it back)",
            15 => " (a reference: no runner layout for it in ds_* strings is known)",
            _ => "",
        }
    )]
    UnknownKind {
        /// The kind code read.
        kind: u32,
        /// Byte offset of the kind word.
        offset: usize,
    },
    /// A count field is negative when read as a signed 32-bit integer.
    #[error(
        "negative count at byte {offset} (hex char {}): expected a {what} >= 0, found {count}",
        2 * offset
    )]
    NegativeCount {
        /// The count field.
        what: &'static str,
        /// The value read.
        count: i64,
        /// Byte offset of the field.
        offset: usize,
    },
    /// A count field promises more elements than the remaining data can hold.
    #[error(
        "count too large at byte {offset} (hex char {}): expected a {what} of at most {max} \
         (the {remaining} bytes left), found {count}",
        2 * offset
    )]
    CountTooLarge {
        /// The count field.
        what: &'static str,
        /// The value read.
        count: u64,
        /// The largest count the remaining bytes allow.
        max: u64,
        /// Bytes left after the field.
        remaining: usize,
        /// Byte offset of the field.
        offset: usize,
    },
    /// A string payload is not valid UTF-8.
    #[error(
        "invalid string at byte {offset} (hex char {}): expected UTF-8{}, found {detail}",
        2 * offset,
        if *cesu8 { " (or CESU-8 surrogate pairs)" } else { "" }
    )]
    InvalidUtf8 {
        /// What is wrong.
        detail: String,
        /// Whether CESU-8 pairs were accepted.
        cesu8: bool,
        /// Byte offset of the offending byte.
        offset: usize,
    },
    /// The queue header is inconsistent.
    #[error(
        "bad queue header at byte {offset} (hex char {}): expected 0 <= first <= last <= slots, \
         found last={last}, first={first}, slots={slots}",
        2 * offset
    )]
    BadQueueHeader {
        /// The `last` field (end of the live slots).
        last: i64,
        /// The `first` field (head slot).
        first: i64,
        /// The number of slot records.
        slots: i64,
        /// Byte offset of the header.
        offset: usize,
    },
    /// Arrays are nested deeper than the reader allows.
    #[error(
        "nesting too deep at byte {offset} (hex char {}): expected at most {limit} nested arrays, \
         found more",
        2 * offset
    )]
    TooDeep {
        /// The nesting limit.
        limit: usize,
        /// Byte offset of the array record that went over it.
        offset: usize,
    },
    /// Bytes follow the structure and [`DecodeOptions::reject_trailing`](super::DecodeOptions)
    /// is set.
    #[error(
        "trailing data at byte {offset} (hex char {}): expected the end of the structure, \
         found {count} more bytes",
        2 * offset
    )]
    Trailing {
        /// Number of extra bytes.
        count: usize,
        /// Byte offset of the first extra byte.
        offset: usize,
    },
    /// The legacy HTML5 JSON form could not be read.
    #[error("JSON fallback for {kind}: expected {expected}, found {found}")]
    Json {
        /// The structure being read.
        kind: DsKind,
        /// What was expected.
        expected: String,
        /// What was found.
        found: String,
    },
    /// The input starts with `{` (legacy HTML5 JSON form) but that form is disabled or cannot
    /// apply.
    #[error("input starts with '{{' (legacy HTML5 JSON form): expected hex digits; {hint}")]
    JsonNotEnabled {
        /// How to read it anyway.
        hint: &'static str,
    },
}

/// A value cannot be written as a ds_* record (see [`encode`](super::encode)).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// Structs have no ds_* record (GameMaker writes kind 6 and cannot read it back).
    #[error(
        "cannot write a struct into a ds_* string (at {path}): expected a real, string, bool, int32, int64, ptr, undefined or array"
    )]
    Struct {
        /// Where the value is, e.g. `list[3][0]`.
        path: String,
    },
    /// An array contains itself.
    #[error("cannot write a cyclic array into a ds_* string (at {path})")]
    Cycle {
        /// Where the reference back is.
        path: String,
    },
    /// Arrays are nested deeper than the writer allows.
    #[error("arrays nested deeper than {limit} levels (at {path})")]
    TooDeep {
        /// The nesting limit.
        limit: usize,
        /// Where the limit was hit.
        path: String,
    },
    /// A count does not fit the u32 fields of the format.
    #[error("too many elements at {path}: {count} does not fit a 32-bit count")]
    TooMany {
        /// Where.
        path: String,
        /// The element count.
        count: usize,
    },
}
