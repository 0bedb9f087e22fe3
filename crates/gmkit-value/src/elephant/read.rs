//! Reading Elephant buffers into [`Value`]s.

use super::callbacks::{Callbacks, NoCallbacks};
use super::datatype::Datatype;
use super::error::{Error, Result, hex_preview};
use super::schema::SchemaRegistry;
use super::{FOOTER, HEADER, LEGACY_HEADER};
use crate::value::{RefPool, StructMeta};
use crate::{Array, Struct, StructData, Value};
use std::collections::HashMap;

/// Default nesting limit of readers and writers.
pub const DEFAULT_MAX_DEPTH: usize = 512;

/// Options of [`read_with`].
#[derive(Debug, Clone, Copy)]
pub struct ReadOptions<'a> {
    /// Schemas for non-verbose constructed structs.
    pub schemas: Option<&'a SchemaRegistry>,
    /// Accept 1.0.0 / 1.1.0 data (header "ATMC", no footer), which the 1.5.1 reader rejects.
    pub legacy_atmc: bool,
    /// Require every constructor to be registered in `schemas`, as GameMaker requires every
    /// constructor name to resolve to a function (default: keep unknown names as data).
    pub require_constructors: bool,
    /// Maximum nesting of arrays and structs.
    pub max_depth: usize,
}

impl Default for ReadOptions<'_> {
    fn default() -> Self {
        ReadOptions {
            schemas: None,
            legacy_atmc: false,
            require_constructors: false,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

impl<'a> ReadOptions<'a> {
    /// Default options with these schemas.
    pub fn with_schemas(schemas: &'a SchemaRegistry) -> Self {
        ReadOptions {
            schemas: Some(schemas),
            ..Default::default()
        }
    }
}

/// Which of the 1.5.1 reader's functions (v1–v5) a version word selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layout {
    /// 1.0.0: constructor index as datatype byte, no references.
    V1,
    /// 1.1.0–1.2.1: references, `0xFFFE` constructors, version byte (0 = named pairs).
    V2,
    /// 1.3.0: flags byte with the verbose bit.
    V3,
    /// 1.4.0: container codes 204–207, deferred post-read.
    V4,
    /// 1.5.0, 1.5.1: skip list before schema fields.
    V5,
}

/// What [`read_header`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The version word, `(major << 16) | (minor << 8) | patch`.
    pub version: u32,
    /// The reader layout it selects.
    pub layout: Layout,
    /// Container codes are 14–17 (data written before the 1.4.0 tag).
    pub legacy_codes: bool,
    /// "ATMC" header without footer (1.0.0 / 1.1.0).
    pub atmc: bool,
}

/// Reads the header and version word at the start of `buf`.
pub fn read_header(buf: &[u8], legacy_atmc: bool) -> Result<Header> {
    let mut c = Cursor { buf, pos: 0 };
    let magic = c.u32("header")?;
    let atmc = magic == LEGACY_HEADER && legacy_atmc;
    if magic != HEADER && !atmc {
        return Err(Error::BadHeader {
            offset: 0,
            found: hex_preview(&buf[..4]),
        });
    }
    let version = c.u32("version word")?;
    let (major, minor, patch) = (version >> 16, (version >> 8) & 0xFF, version & 0xFF);
    let layout = match (major, minor, patch) {
        (1, 0, 0) => Layout::V1,
        (1, 1, 0) | (1, 2, 0) | (1, 2, 1) => Layout::V2,
        (1, 3, 0) => Layout::V3,
        (1, 4, 0) => Layout::V4,
        (1, 5, 0) | (1, 5, 1) => Layout::V5,
        _ => {
            return Err(Error::UnsupportedVersion {
                offset: 4,
                word: version,
                major,
                minor,
                patch,
            });
        }
    };
    if atmc && layout > Layout::V2 {
        return Err(Error::BadHeader {
            offset: 0,
            found: format!(
                "{} (\"ATMC\" with version {major}.{minor}.{patch})",
                hex_preview(&buf[..4])
            ),
        });
    }
    Ok(Header {
        version,
        layout,
        legacy_codes: layout <= Layout::V3,
        atmc,
    })
}

/// Reads an Elephant buffer (any version the 1.5.1 reader accepts, plus pre-1.4.0 container
/// codes) with default options: no schemas, so non-verbose constructed structs are an error.
pub fn read(buf: &[u8]) -> Result<Value> {
    read_with(buf, &ReadOptions::default(), &mut NoCallbacks).map(|(v, _)| v)
}

/// Reads an Elephant buffer; returns the root value and the number of bytes consumed
/// (bytes after the footer are never looked at).
pub fn read_with(
    buf: &[u8],
    opts: &ReadOptions<'_>,
    callbacks: &mut dyn Callbacks,
) -> Result<(Value, usize)> {
    let header = read_header(buf, opts.legacy_atmc)?;
    let mut r = Reader {
        c: Cursor { buf, pos: 8 },
        layout: header.layout,
        legacy_codes: header.legacy_codes,
        opts,
        callbacks,
        pool: RefPool::default(),
        ctors: HashMap::new(),
        post_read: Vec::new(),
        depth: 0,
        budget: value_budget(buf.len()),
    };
    let root = r.any()?;
    if !header.atmc {
        let at = r.c.pos;
        let rest = &buf[at.min(buf.len())..];
        if rest.len() < 4 || rest[..4] != FOOTER.to_le_bytes() {
            return Err(Error::BadFooter {
                offset: at,
                found: hex_preview(&rest[..rest.len().min(4)]),
            });
        }
        r.c.pos += 4;
    }
    let consumed = r.c.pos;
    let post = std::mem::take(&mut r.post_read);
    for (s, v) in &post {
        r.callbacks.post_read(s, *v);
    }
    Ok((root, consumed))
}

/// A bounds-checked little-endian cursor.
pub(crate) struct Cursor<'a> {
    pub buf: &'a [u8],
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    #[inline]
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8]> {
        match self.buf.get(self.pos..self.pos + n) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(Error::Truncated {
                offset: self.pos,
                expected: what,
                available: self.buf.len().saturating_sub(self.pos),
            }),
        }
    }
    #[inline]
    pub fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N]> {
        let s = self.take(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    #[inline]
    pub fn u8(&mut self, what: &'static str) -> Result<u8> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(Error::Truncated {
                offset: self.pos,
                expected: what,
                available: 0,
            }),
        }
    }
    #[inline]
    pub fn u16(&mut self, what: &'static str) -> Result<u16> {
        self.array::<2>(what).map(u16::from_le_bytes)
    }
    #[inline]
    pub fn u32(&mut self, what: &'static str) -> Result<u32> {
        self.array::<4>(what).map(u32::from_le_bytes)
    }
    /// A NUL-terminated UTF-8 string, borrowed from the input.
    #[inline]
    pub fn str(&mut self) -> Result<&'a str> {
        let start = self.pos;
        let rest = self.buf.get(start..).unwrap_or_default();
        let Some(n) = memchr::memchr(0, rest) else {
            return Err(Error::MissingTerminator { offset: start });
        };
        let s = std::str::from_utf8(&rest[..n]).map_err(|e| Error::InvalidUtf8 {
            offset: start + e.valid_up_to(),
        })?;
        self.pos = start + n + 1;
        Ok(s)
    }
    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }
}

/// Reads a scalar of datatype `dt` (1–13) as the [`Value`] GameMaker's `buffer_read` gives.
///
/// u8 … u32, f16, f32, f64 → `Real`; s32 → `Int32`; u64 → `Int64` (signed, like GameMaker);
/// bool → `Bool` (any non-zero byte is true); string/text → `String`.
pub(crate) fn read_scalar(c: &mut Cursor<'_>, dt: Datatype) -> Result<Value> {
    use Datatype::*;
    Ok(match dt {
        U8 => Value::Real(c.u8("u8")? as f64),
        S8 => Value::Real(c.u8("s8")? as i8 as f64),
        U16 => Value::Real(c.u16("u16")? as f64),
        S16 => Value::Real(c.u16("s16")? as i16 as f64),
        U32 => Value::Real(c.u32("u32")? as f64),
        S32 => Value::Int32(c.u32("s32")? as i32),
        F16 => Value::Real(half::f16::from_le_bytes(c.array("f16")?).to_f64()),
        F32 => Value::Real(f32::from_le_bytes(c.array("f32")?) as f64),
        F64 => Value::Real(f64::from_le_bytes(c.array("f64")?)),
        Bool => Value::Bool(c.u8("bool")? != 0),
        String | Text => Value::String(c.str()?.to_owned()),
        U64 => Value::Int64(i64::from_le_bytes(c.array("u64")?)),
        Undefined => Value::Undefined,
        Any | Array | Struct => unreachable!("containers are not scalars"),
    })
}

/// Struct members in order.
type Fields = Vec<(String, Value)>;

struct Reader<'a, 'o> {
    c: Cursor<'a>,
    layout: Layout,
    legacy_codes: bool,
    opts: &'o ReadOptions<'o>,
    callbacks: &'o mut dyn Callbacks,
    pool: RefPool,
    ctors: HashMap<u16, String>,
    post_read: Vec<(Struct, u8)>,
    depth: usize,
    /// Bytes the decoded values may still take (see [`value_budget`]).
    budget: usize,
}

/// Memory the decoded values of a buffer may take, per input byte.
pub const BUDGET_PER_INPUT_BYTE: usize = 48;
/// The smallest value budget, whatever the input size.
pub const BUDGET_FLOOR: usize = 48 << 20;

/// The memory budget of decoding `len` input bytes: `max(48 × len, 48 MiB)`.
///
/// Every array element, struct member and container is charged what it takes in memory
/// ([`VALUE_COST`], [`FIELD_COST`], [`CONTAINER_COST`]), so that data which costs (almost) no
/// input bytes per value, such as arrays of `undefined` or of empty structs, cannot expand
/// without bound. Real data stays far below: an array of `u8` takes 32 bytes per input byte,
/// reals, strings and named members much less.
pub fn value_budget(len: usize) -> usize {
    len.saturating_mul(BUDGET_PER_INPUT_BYTE).max(BUDGET_FLOOR)
}

/// Budget charge of an array element.
pub const VALUE_COST: usize = std::mem::size_of::<Value>();
/// Budget charge of a struct member (name and value).
pub const FIELD_COST: usize = std::mem::size_of::<(String, Value)>();
/// Budget charge of a container: its shared allocation and its slot in the reference pool
/// (counted twice for the pool's growth).
pub const CONTAINER_COST: usize = 24 + std::mem::size_of::<StructData>() + 2 * 40;

/// What a datatype byte means in the data being read.
enum Code {
    Dt(Datatype),
    /// 1.0.0 only: a constructed struct whose constructor index is the byte itself.
    LegacyConstructor(u8),
}

impl Reader<'_, '_> {
    fn decode_code(&self, code: u8, at: usize) -> Result<Code> {
        let dt = if self.legacy_codes {
            Datatype::from_legacy_code(code)
        } else {
            Datatype::from_code(code)
        };
        match dt {
            Some(d) => Ok(Code::Dt(d)),
            None if self.layout == Layout::V1 && code >= 32 => Ok(Code::LegacyConstructor(code)),
            None => Err(Error::UnknownDatatype {
                offset: at,
                code,
                containers: if self.legacy_codes {
                    "14-17"
                } else {
                    "204-207"
                },
            }),
        }
    }

    /// A `buffer_any` value: datatype byte, then the value.
    fn any(&mut self) -> Result<Value> {
        loop {
            let at = self.c.pos;
            let code = self.c.u8("datatype byte")?;
            match self.decode_code(code, at)? {
                Code::Dt(Datatype::Any) => continue,
                Code::Dt(d) => return self.value(d),
                Code::LegacyConstructor(i) => return self.legacy_constructed(i, at),
            }
        }
    }

    fn value(&mut self, dt: Datatype) -> Result<Value> {
        match dt {
            Datatype::Any => self.any(),
            Datatype::Array => self.nested(Self::array),
            Datatype::Struct => self.nested(Self::structure),
            d => read_scalar(&mut self.c, d),
        }
    }

    fn nested(&mut self, f: fn(&mut Self) -> Result<Value>) -> Result<Value> {
        if self.depth >= self.opts.max_depth {
            return Err(Error::TooDeep {
                offset: self.c.pos,
                limit: self.opts.max_depth,
            });
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// Charges `bytes` against the value budget.
    fn charge(&mut self, bytes: usize, at: usize, what: &'static str) -> Result<()> {
        match self.budget.checked_sub(bytes) {
            Some(left) => {
                self.budget = left;
                Ok(())
            }
            None => Err(Error::TooManyValues {
                offset: at,
                what,
                limit: value_budget(self.c.buf.len()),
                unit: "bytes of decoded values (48 per input byte, at least 48 MiB)",
                input: self.c.buf.len(),
            }),
        }
    }

    fn reference(&mut self, at: usize) -> Result<Value> {
        let id = self.c.u16("reference id")?;
        match self.pool.get(id as usize) {
            Some(v) => Ok(v),
            None => Err(Error::DanglingReference {
                offset: at,
                id,
                next_id: self.pool.len(),
            }),
        }
    }

    fn array(&mut self) -> Result<Value> {
        let at = self.c.pos;
        let len = self.c.u16("array length")?;
        if len == 0xFFFF && self.layout >= Layout::V2 {
            return self.reference(at);
        }
        self.charge(CONTAINER_COST, at, "array")?;
        let arr = Array::default();
        let slot = self.pool.open(Value::Array(arr.clone()));
        if len == 0 {
            self.pool.finish(slot);
            return Ok(Value::Array(arr));
        }
        let dt_at = self.c.pos;
        let code = self.c.u8("array datatype byte")?;
        let code = self.decode_code(code, dt_at)?;
        let min = match &code {
            Code::Dt(d) => d.min_size(),
            Code::LegacyConstructor(_) => 1,
        };
        self.charge(len as usize * VALUE_COST, at, "array elements")?;
        let cap = (len as usize).min(self.c.remaining() / min.max(1) + 1);
        let mut items = Vec::with_capacity(if min == 0 { len as usize } else { cap });
        for _ in 0..len {
            let v = match code {
                Code::Dt(d) => self.value(d)?,
                Code::LegacyConstructor(i) => self.legacy_constructed(i, self.c.pos)?,
            };
            items.push(v);
        }
        *arr.write() = items;
        self.pool.finish(slot);
        Ok(Value::Array(arr))
    }

    fn structure(&mut self) -> Result<Value> {
        let at = self.c.pos;
        let marker = self.c.u16("struct marker")?;
        if self.layout >= Layout::V2 {
            if marker == 0xFFFF {
                return self.reference(at);
            }
            if marker == 0xFFFE {
                return self.constructed(at);
            }
        }
        self.charge(CONTAINER_COST, at, "struct")?;
        let s = Struct::default();
        let slot = self.pool.open(Value::Struct(s.clone()));
        let fields = self.pairs(marker as usize)?;
        s.write().fields = fields;
        self.pool.finish(slot);
        Ok(Value::Struct(s))
    }

    fn pairs(&mut self, n: usize) -> Result<Vec<(String, Value)>> {
        let cap = n.min(self.c.remaining() / 2);
        self.charge(cap * FIELD_COST, self.c.pos, "struct members")?;
        let mut fields = Vec::with_capacity(cap);
        for _ in 0..n {
            let name = self.c.str()?.to_owned();
            let v = self.any()?;
            fields.push((name, v));
        }
        Ok(fields)
    }

    fn constructor_name(&mut self, index: u16) -> Result<String> {
        if let Some(n) = self.ctors.get(&index) {
            return Ok(n.clone());
        }
        let name = self.c.str()?.to_owned();
        self.ctors.insert(index, name.clone());
        Ok(name)
    }

    fn constructed(&mut self, at: usize) -> Result<Value> {
        let index = self.c.u16("constructor index")?;
        let name = self.constructor_name(index)?;
        self.constructed_body(name, at)
    }

    /// 1.0.0: the datatype byte was the constructor index.
    fn legacy_constructed(&mut self, index: u8, at: usize) -> Result<Value> {
        if self.depth >= self.opts.max_depth {
            return Err(Error::TooDeep {
                offset: at,
                limit: self.opts.max_depth,
            });
        }
        self.depth += 1;
        let r = self
            .constructor_name(index as u16)
            .and_then(|name| self.constructed_body(name, at));
        self.depth -= 1;
        r
    }

    fn constructed_body(&mut self, name: String, at: usize) -> Result<Value> {
        if self.opts.require_constructors && !self.opts.schemas.is_some_and(|s| s.contains(&name)) {
            return Err(Error::UnknownConstructor { offset: at, name });
        }
        self.charge(CONTAINER_COST, at, "constructed struct")?;
        let flags = self.c.u8("constructed struct flags")?;
        let (verbose, version) = match self.layout {
            Layout::V1 | Layout::V2 => (flags == 0, flags),
            _ => (flags & 0x80 != 0, flags & 0x7F),
        };
        let s = Struct::from_data(StructData {
            constructor: Some(name),
            fields: Vec::new(),
            meta: StructMeta {
                version: Some(version),
                verbose: Some(verbose),
                skipped: Vec::new(),
            },
        });
        let slot = self.pool.open(Value::Struct(s.clone()));
        let deferred = self.layout >= Layout::V4;
        if deferred {
            self.post_read.push((s.clone(), version));
        }
        self.callbacks.pre_read(&s, version);
        let (fields, skipped) = if verbose {
            let n = self.c.u16("member count")? as usize;
            (self.pairs(n)?, Vec::new())
        } else {
            self.schema_fields(&s, version, at)?
        };
        {
            let mut d = s.write();
            d.fields = fields;
            d.meta.skipped = skipped;
        }
        self.pool.finish(slot);
        if !deferred {
            self.callbacks.post_read(&s, version);
        }
        Ok(Value::Struct(s))
    }

    fn schema_fields(
        &mut self,
        s: &Struct,
        version: u8,
        at: usize,
    ) -> Result<(Fields, Vec<String>)> {
        let name = s.read().constructor.clone().unwrap_or_default();
        let cs = self
            .opts
            .schemas
            .and_then(|r| r.get(&name))
            .filter(|cs| !cs.versions.is_empty())
            .ok_or_else(|| Error::MissingSchema {
                offset: at,
                constructor: name.clone(),
            })?;
        let vs = cs
            .versions
            .get(&(version as u32))
            .ok_or_else(|| Error::MissingSchemaVersion {
                offset: at,
                constructor: name.clone(),
                version: version as u32,
            })?;
        let sorted = vs.sorted_fields();
        let mut skip = vec![false; sorted.len()];
        let mut skipped = Vec::new();
        if self.layout >= Layout::V5 {
            loop {
                let e_at = self.c.pos;
                let e = self.c.u16("skip-list entry")?;
                if e == 0 {
                    break;
                }
                let i = e as usize - 1;
                if i >= sorted.len() {
                    return Err(Error::BadSkipEntry {
                        offset: e_at,
                        entry: e,
                        fields: sorted.len(),
                        constructor: name,
                    });
                }
                if !skip[i] {
                    skip[i] = true;
                    skipped.push(sorted[i].0.clone());
                }
            }
        }
        self.charge(sorted.len() * FIELD_COST, at, "schema members")?;
        let mut fields = Vec::with_capacity(sorted.len());
        for (i, (field, dt)) in sorted.iter().enumerate() {
            if !skip[i] {
                let v = self.value(*dt)?;
                fields.push((field.clone(), v));
            }
        }
        Ok((fields, skipped))
    }
}
