//! Value records: a u32 kind code and its payload, in both format generations.
//!
//! | kind | value | payload |
//! |---:|---|---|
//! | 0 | real | f64 |
//! | 1 | string | u32 byte length, UTF-8 bytes |
//! | 2 | array | current: u32 n, n records; legacy: u32 rows, then (u32 n, n records) per row |
//! | 3 | ptr | 8 bytes |
//! | 5 | undefined | none |
//! | 7 | int32 | i32 |
//! | 10 | int64 | i64 |
//! | 13 | bool | f64, 1.0 or 0.0 (any non-zero reads as true) |
//!
//! Legacy arrays: `rows == 1` is a plain 1-D array, `rows == 0` an empty array, other row counts
//! a [`Value::Array2d`]. To keep every legacy string byte-exact, one empty row (`rows = 1, n = 0`)
//! reads as `Array2d([[]])`, and an empty 1-D array is written as `rows = 0`.

use super::{DecodeOptions, DsData, DsError, EncodeError, EncodeOptions, Generation};
use crate::{Array, Value};

/// Kind codes of value records.
pub mod kind {
    /// f64.
    pub const REAL: u32 = 0;
    /// Length-prefixed UTF-8.
    pub const STRING: u32 = 1;
    /// Array (layout depends on the generation).
    pub const ARRAY: u32 = 2;
    /// 8-byte pointer.
    pub const PTR: u32 = 3;
    /// No payload.
    pub const UNDEFINED: u32 = 5;
    /// A struct: written by the native runner with no payload, readable by no runner.
    pub const OBJECT: u32 = 6;
    /// i32.
    pub const INT32: u32 = 7;
    /// i64.
    pub const INT64: u32 = 10;
    /// f64 boolean.
    pub const BOOL: u32 = 13;
}

/// The smallest record (a kind word with no payload), used to bound counts before allocating.
pub const MIN_RECORD: usize = 4;

type Result<T> = std::result::Result<T, DsError>;

/// Reads the byte stream of a ds_* string.
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    generation: Generation,
    opts: &'a DecodeOptions,
    depth: usize,
    saw_cesu8: bool,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub fn new(buf: &'a [u8], opts: &'a DecodeOptions) -> Self {
        Reader {
            buf,
            pos: 0,
            generation: Generation::Current,
            opts,
            depth: 0,
            saw_cesu8: false,
        }
    }

    /// The options in force.
    pub fn opts(&self) -> &DecodeOptions {
        self.opts
    }
    /// Sets the generation (from the magic word).
    pub fn set_generation(&mut self, g: Generation) {
        self.generation = g;
    }
    /// Current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }
    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }
    /// Whether a CESU-8 surrogate pair was read.
    pub fn saw_cesu8(&self) -> bool {
        self.saw_cesu8
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n);
        match end.and_then(|end| self.buf.get(self.pos..end)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(DsError::Truncated {
                expected: what,
                needed: n,
                available: self.remaining(),
                offset: self.pos,
            }),
        }
    }

    fn array8(&mut self, what: &'static str) -> Result<[u8; 8]> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8, what)?);
        Ok(a)
    }

    /// A little-endian u32.
    pub fn u32(&mut self, what: &'static str) -> Result<u32> {
        let mut a = [0u8; 4];
        a.copy_from_slice(self.take(4, what)?);
        Ok(u32::from_le_bytes(a))
    }

    /// A count field (u32 written, s32 read) of items that take at least `min_each` bytes each.
    ///
    /// Negative counts are an error (zero in HTML5 mode); counts the remaining bytes cannot hold
    /// are an error, so a count never drives an allocation larger than the input.
    pub fn count(&mut self, what: &'static str, min_each: usize) -> Result<usize> {
        let offset = self.pos;
        let n = self.signed_count(what)?;
        self.check_fits(what, n as u64, min_each, offset)?;
        Ok(n)
    }

    /// A count field read as s32, not yet checked against the remaining data: negative is an
    /// error (zero in HTML5 mode).
    pub fn signed_count(&mut self, what: &'static str) -> Result<usize> {
        let offset = self.pos;
        let raw = self.u32(what)? as i32;
        if raw < 0 {
            if self.opts.html5_compat {
                return Ok(0);
            }
            return Err(DsError::NegativeCount {
                what,
                count: raw.into(),
                offset,
            });
        }
        Ok(raw as usize)
    }

    /// Fails unless `count` items of at least `min_each` bytes fit in the remaining bytes.
    pub fn check_fits(
        &self,
        what: &'static str,
        count: u64,
        min_each: usize,
        offset: usize,
    ) -> Result<()> {
        let remaining = self.remaining();
        let max = (remaining / min_each.max(1)) as u64;
        if count > max {
            return Err(DsError::CountTooLarge {
                what,
                count,
                max,
                remaining,
                offset,
            });
        }
        Ok(())
    }

    /// Reads `n` records (n already bounded by [`Reader::count`]).
    pub fn values(&mut self, n: usize) -> Result<Vec<Value>> {
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.value()?);
        }
        Ok(v)
    }

    /// Reads one value record.
    pub fn value(&mut self) -> Result<Value> {
        let offset = self.pos;
        let k = self.u32("value kind")?;
        Ok(match k {
            kind::REAL => Value::Real(f64::from_le_bytes(self.array8("real payload (f64)")?)),
            kind::STRING => Value::String(self.string()?),
            kind::ARRAY => self.array(offset)?,
            kind::PTR => Value::Ptr(u64::from_le_bytes(self.array8("ptr payload (8 bytes)")?)),
            kind::UNDEFINED => Value::Undefined,
            kind::INT32 => {
                let mut a = [0u8; 4];
                a.copy_from_slice(self.take(4, "int32 payload")?);
                Value::Int32(i32::from_le_bytes(a))
            }
            kind::INT64 => Value::Int64(i64::from_le_bytes(self.array8("int64 payload")?)),
            kind::BOOL => {
                Value::Bool(f64::from_le_bytes(self.array8("bool payload (f64)")?) != 0.0)
            }
            _ if self.opts.html5_compat => Value::Undefined,
            _ => return Err(DsError::UnknownKind { kind: k, offset }),
        })
    }

    fn string(&mut self) -> Result<String> {
        let n = self.count("string byte length", 1)?;
        let offset = self.pos;
        let bytes = self.take(n, "string bytes")?;
        let (s, cesu) = decode_str(bytes, offset, self.opts)?;
        self.saw_cesu8 |= cesu;
        Ok(s)
    }

    fn array(&mut self, offset: usize) -> Result<Value> {
        if self.depth >= self.opts.max_depth {
            return Err(DsError::TooDeep {
                limit: self.opts.max_depth,
                offset,
            });
        }
        self.depth += 1;
        let v = match self.generation {
            Generation::Current => {
                let n = self.count("array length", MIN_RECORD)?;
                self.values(n).map(|v| Value::Array(Array::new(v)))
            }
            Generation::Legacy => self.legacy_array(),
        };
        self.depth -= 1;
        v
    }

    fn legacy_array(&mut self) -> Result<Value> {
        let rows = self.count("legacy array row count", 4)?;
        match rows {
            0 => Ok(Value::Array(Array::default())),
            1 => {
                let n = self.count("legacy array row length", MIN_RECORD)?;
                if n == 0 {
                    return Ok(Value::Array2d(vec![Vec::new()]));
                }
                Ok(Value::Array(Array::new(self.values(n)?)))
            }
            _ => {
                let mut out = Vec::with_capacity(rows);
                for _ in 0..rows {
                    let n = self.count("legacy array row length", MIN_RECORD)?;
                    out.push(self.values(n)?);
                }
                Ok(Value::Array2d(out))
            }
        }
    }
}

/// Decodes a string payload: UTF-8, CESU-8 surrogate pairs if allowed (returned flag), HTML5's
/// cut at NUL and lossy replacement in compat mode.
fn decode_str(bytes: &[u8], offset: usize, opts: &DecodeOptions) -> Result<(String, bool)> {
    let bytes = if opts.html5_compat {
        bytes.split(|&b| b == 0).next().unwrap_or_default()
    } else {
        bytes
    };
    let bad = match std::str::from_utf8(bytes) {
        Ok(s) => return Ok((s.to_owned(), false)),
        Err(e) => e.valid_up_to(),
    };
    let bad = if opts.cesu8 {
        match decode_cesu8(bytes) {
            Ok(s) => return Ok((s, true)),
            Err(at) => at,
        }
    } else {
        bad
    };
    if opts.html5_compat {
        return Ok((String::from_utf8_lossy(bytes).into_owned(), false));
    }
    let found: Vec<String> = bytes
        .get(bad..)
        .unwrap_or_default()
        .iter()
        .take(6)
        .map(|b| format!("{b:02X}"))
        .collect();
    Err(DsError::InvalidUtf8 {
        detail: format!("the bytes {}", found.join(" ")),
        cesu8: opts.cesu8,
        offset: offset.saturating_add(bad),
    })
}

/// UTF-8 where characters outside the BMP may also be CESU-8 surrogate pairs
/// (`ED A0..AF xx ED B0..BF xx`). Returns the offset of the first invalid byte on failure.
fn decode_cesu8(mut bytes: &[u8]) -> std::result::Result<String, usize> {
    let mut out = String::with_capacity(bytes.len());
    let mut base = 0usize;
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return Ok(out);
            }
            Err(e) => {
                let good = e.valid_up_to();
                let (head, rest) = bytes.split_at(good);
                out.push_str(std::str::from_utf8(head).map_err(|_| base)?);
                match rest {
                    [
                        0xED,
                        h1 @ 0xA0..=0xAF,
                        h2 @ 0x80..=0xBF,
                        0xED,
                        l1 @ 0xB0..=0xBF,
                        l2 @ 0x80..=0xBF,
                        ..,
                    ] => {
                        let hi = (u32::from(h1 & 0x0F) << 6) | u32::from(h2 & 0x3F);
                        let lo = (u32::from(l1 & 0x0F) << 6) | u32::from(l2 & 0x3F);
                        let cp = 0x10000 + (hi << 10) + lo;
                        out.push(char::from_u32(cp).ok_or(base + good)?);
                        bytes = &rest[6..];
                        base += good + 6;
                    }
                    _ => return Err(base + good),
                }
            }
        }
    }
}

/// Writes the byte stream of a ds_* string.
pub struct Writer {
    out: Vec<u8>,
    generation: Generation,
    html5: bool,
    cesu8: bool,
    strict: bool,
    stack: Vec<usize>,
    /// Where the current top-level record is, for error messages (`("list", 3)` = `list[3]`).
    pub at: (&'static str, usize),
}

/// Deepest array nesting the writer produces (deeper arrays are undefined or an error).
pub const MAX_WRITE_DEPTH: usize = 256;

impl Writer {
    /// A writer for `data`; `strict` makes unsupported values an error instead of GameMaker's
    /// substitutes.
    pub fn new(data: &DsData, opts: &EncodeOptions, strict: bool) -> Self {
        Writer {
            out: Vec::new(),
            generation: opts.generation.unwrap_or(data.generation),
            html5: opts.html5,
            cesu8: opts.html5 || data.cesu8,
            strict,
            stack: Vec::new(),
            at: ("", 0),
        }
    }

    /// The generation being written.
    pub fn generation(&self) -> Generation {
        self.generation
    }
    /// Whether the HTML5 form is being written.
    pub fn html5(&self) -> bool {
        self.html5
    }
    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }

    /// Writes a little-endian u32.
    pub fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    /// Writes a count.
    pub fn count(&mut self, n: usize) -> std::result::Result<(), EncodeError> {
        match u32::try_from(n) {
            Ok(v) if v <= i32::MAX as u32 => {
                self.u32(v);
                Ok(())
            }
            _ if self.strict => Err(EncodeError::TooMany {
                path: self.path(),
                count: n,
            }),
            _ => {
                self.u32(i32::MAX as u32);
                Ok(())
            }
        }
    }

    /// Writes records.
    pub fn values(&mut self, vs: &[Value]) -> std::result::Result<(), EncodeError> {
        vs.iter().try_for_each(|v| self.value(v))
    }

    /// Writes one value record.
    pub fn value(&mut self, v: &Value) -> std::result::Result<(), EncodeError> {
        match v {
            Value::Real(r) => {
                self.u32(kind::REAL);
                self.out.extend_from_slice(&r.to_le_bytes());
            }
            Value::String(s) => {
                self.u32(kind::STRING);
                self.string(s)?;
            }
            Value::Array(a) => self.array(a)?,
            Value::Array2d(rows) => self.array2d(rows)?,
            Value::Ptr(p) => {
                self.u32(kind::PTR);
                self.out.extend_from_slice(&p.to_le_bytes());
            }
            Value::Undefined => self.u32(kind::UNDEFINED),
            Value::Int32(i) => {
                self.u32(kind::INT32);
                self.out.extend_from_slice(&i.to_le_bytes());
            }
            Value::Int64(i) => {
                self.u32(kind::INT64);
                self.out.extend_from_slice(&i.to_le_bytes());
            }
            Value::Bool(b) => {
                self.u32(kind::BOOL);
                let f: f64 = if *b { 1.0 } else { 0.0 };
                self.out.extend_from_slice(&f.to_le_bytes());
            }
            Value::Struct(_) => {
                if self.strict {
                    return Err(EncodeError::Struct { path: self.path() });
                }
                self.u32(if self.html5 {
                    kind::UNDEFINED
                } else {
                    kind::OBJECT
                });
            }
        }
        Ok(())
    }

    fn string(&mut self, s: &str) -> std::result::Result<(), EncodeError> {
        if self.cesu8 && s.chars().any(|c| c.len_utf16() == 2) {
            let mut buf = Vec::with_capacity(s.len() + 8);
            let mut tmp = [0u16; 2];
            for c in s.chars() {
                for unit in c.encode_utf16(&mut tmp) {
                    push_utf16_unit(&mut buf, *unit);
                }
            }
            self.count(buf.len())?;
            self.out.extend_from_slice(&buf);
        } else {
            self.count(s.len())?;
            self.out.extend_from_slice(s.as_bytes());
        }
        Ok(())
    }

    /// Enters an array (`id` = its identity; `None` for a 2-D array, which cannot be shared).
    /// Returns whether to write it: a cycle or too deep nesting is an error when strict, else
    /// written as undefined.
    fn enter(&mut self, id: Option<usize>) -> std::result::Result<bool, EncodeError> {
        let err = if id.is_some_and(|id| self.stack.contains(&id)) {
            EncodeError::Cycle { path: self.path() }
        } else if self.stack.len() >= MAX_WRITE_DEPTH {
            EncodeError::TooDeep {
                limit: MAX_WRITE_DEPTH,
                path: self.path(),
            }
        } else {
            // 0 is never the address of a live array.
            self.stack.push(id.unwrap_or(0));
            return Ok(true);
        };
        if self.strict {
            return Err(err);
        }
        self.u32(kind::UNDEFINED);
        Ok(false)
    }

    fn array(&mut self, a: &Array) -> std::result::Result<(), EncodeError> {
        if !self.enter(Some(a.id()))? {
            return Ok(());
        }
        let items = a.read();
        self.u32(kind::ARRAY);
        let r = match self.generation {
            Generation::Current => self.count(items.len()).and_then(|_| self.values(&items)),
            Generation::Legacy if items.is_empty() => self.count(0),
            Generation::Legacy => self
                .count(1)
                .and_then(|_| self.count(items.len()))
                .and_then(|_| self.values(&items)),
        };
        self.stack.pop();
        r
    }

    fn array2d(&mut self, rows: &[Vec<Value>]) -> std::result::Result<(), EncodeError> {
        if !self.enter(None)? {
            return Ok(());
        }
        self.u32(kind::ARRAY);
        let r = match self.generation {
            Generation::Legacy => self.count(rows.len()).and_then(|_| {
                rows.iter().try_for_each(|row| {
                    self.count(row.len())?;
                    self.values(row)
                })
            }),
            // The current format has no 2-D arrays: an array of row arrays, as GameMaker 2.3
            // converts them.
            Generation::Current => self.count(rows.len()).and_then(|_| {
                rows.iter().try_for_each(|row| {
                    self.u32(kind::ARRAY);
                    self.count(row.len())?;
                    self.values(row)
                })
            }),
        };
        self.stack.pop();
        r
    }

    fn path(&self) -> String {
        format!(
            "{}[{}] (array depth {})",
            self.at.0,
            self.at.1,
            self.stack.len()
        )
    }
}

/// Encodes one UTF-16 code unit as 1–3 UTF-8-style bytes (surrogates included: CESU-8).
fn push_utf16_unit(buf: &mut Vec<u8>, u: u16) {
    match u {
        0..=0x7F => buf.push(u as u8),
        0x80..=0x7FF => buf.extend_from_slice(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]),
        _ => buf.extend_from_slice(&[
            0xE0 | (u >> 12) as u8,
            0x80 | ((u >> 6) & 0x3F) as u8,
            0x80 | (u & 0x3F) as u8,
        ]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cesu8_pairs_join() {
        let b = [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, b'x'];
        assert_eq!(decode_cesu8(&b).as_deref(), Ok("\u{1F600}x"));
        assert_eq!(decode_cesu8(&[b'a', 0xED, 0xA0, 0xBD]), Err(1));
        let mut buf = Vec::new();
        for u in "\u{1F600}".encode_utf16() {
            push_utf16_unit(&mut buf, u);
        }
        assert_eq!(buf, &b[..6]);
    }
}
