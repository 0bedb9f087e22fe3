//! The bounds-checked reader every chunk parser uses.
//!
//! A [`Reader`] walks the whole file (pointers are absolute) but is limited to the current chunk's
//! body. Every read is checked; errors carry the chunk, the element and the byte offset. When
//! coverage tracking is on, every consumed byte range is recorded, so a test can list the bytes of
//! a file that no field explains.

use crate::chunk::ChunkName;
use crate::error::{Error, ErrorKind, Location, Result, invalid};
use crate::options::ParseOptions;
use crate::refs::StringRef;
use crate::version::Version;
use bytes::Bytes;

/// Kinds of things other chunks refer to by pointer. Each has an address table filled while
/// reading (address → index) and while writing (index → address).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub(crate) enum Target {
    /// A STRG entry (pointer to its first character).
    String = 0,
    /// A TPAG item.
    TexturePageItem = 1,
}

/// Number of [`Target`] kinds.
pub(crate) const TARGETS: usize = 2;

/// A map from absolute addresses to element indices, built from the addresses of one list.
#[derive(Clone, Debug, Default)]
pub(crate) struct AddrMap {
    /// Number of addresses.
    len: usize,
    /// Sorted (address, index) pairs, when the dense table is not used.
    sorted: Vec<(u32, u32)>,
    /// Dense table for the common case: one slot per `1 << shift` bytes from `base`, where
    /// `1 << shift` is at most the smallest distance between two addresses, so that no two
    /// share a slot. A slot holds the element's index + 1 (0: none) above the low `shift` bits
    /// of its address (which the slot's position does not tell).
    base: u32,
    shift: u32,
    dense: Vec<u32>,
}

impl AddrMap {
    /// Builds the map from the address of each element, in element order. The lists published
    /// (strings, texture page items) are stored in address order: their dense table is filled
    /// straight from the list.
    pub(crate) fn new(addrs: &[u32]) -> Self {
        let (Some(&first), Some(&last)) = (addrs.first(), addrs.last()) else {
            return AddrMap::default();
        };
        let len = addrs.len();
        let mut ascending = true;
        let mut min_gap = u32::MAX;
        let mut prev = first;
        for &a in &addrs[1..] {
            ascending &= prev <= a;
            min_gap = min_gap.min(a.wrapping_sub(prev));
            prev = a;
        }
        let pairs = addrs.iter().copied().zip(0..);
        if ascending {
            return AddrMap::dense_or_sorted(len, first, last, min_gap, pairs);
        }
        let mut sorted: Vec<(u32, u32)> = pairs.collect();
        sorted.sort_unstable();
        let min_gap = sorted
            .windows(2)
            .map(|w| w[1].0 - w[0].0)
            .min()
            .unwrap_or(u32::MAX);
        let (first, last) = (sorted[0].0, sorted[len - 1].0);
        AddrMap::dense_or_sorted(len, first, last, min_gap, sorted.into_iter())
    }

    /// The map of `len` addresses from `first` to `last`, at least `min_gap` apart, given in
    /// ascending order by `pairs` (address, index): the dense table when it costs at most a few
    /// slots per element (the lowest index wins when an address repeats), else the sorted pairs.
    fn dense_or_sorted(
        len: usize,
        first: u32,
        last: u32,
        min_gap: u32,
        pairs: impl Iterator<Item = (u32, u32)>,
    ) -> Self {
        // The largest power of two at most `min_gap` (1 when addresses repeat).
        let shift = min_gap.max(1).ilog2();
        let slots = ((last - first) >> shift) as usize + 1;
        let low = (1u32 << shift) - 1;
        // Index + 1 must fit above the low bits (always, short of a 4 GiB list).
        if slots > len * 16 + 64 || (len as u64 + 1) > u64::from(u32::MAX >> shift) {
            return AddrMap {
                len,
                sorted: pairs.collect(),
                ..Default::default()
            };
        }
        // Not `vec![0; slots]`: that is glibc's calloc, which bypasses the per-thread cache of
        // small blocks (measured slower for the tables of small files).
        #[allow(clippy::slow_vector_initialization)]
        let mut dense = Vec::with_capacity(slots);
        dense.resize(slots, 0u32);
        for (a, i) in pairs {
            let off = a - first;
            if let Some(slot) = dense.get_mut((off >> shift) as usize)
                && *slot == 0
            {
                *slot = (i + 1) << shift | (off & low);
            }
        }
        AddrMap {
            len,
            sorted: Vec::new(),
            base: first,
            shift,
            dense,
        }
    }

    /// The index of the element at `addr`.
    #[inline]
    pub(crate) fn get(&self, addr: u32) -> Option<u32> {
        if !self.dense.is_empty() {
            let off = addr.wrapping_sub(self.base);
            let low = (1u32 << self.shift) - 1;
            return match self.dense.get((off >> self.shift) as usize) {
                Some(&slot) if slot >> self.shift != 0 && slot & low == off & low => {
                    Some((slot >> self.shift) - 1)
                }
                _ => None,
            };
        }
        self.sorted
            .binary_search_by_key(&addr, |&(a, _)| a)
            .ok()
            .map(|k| self.sorted[k].1)
    }

    /// Number of addresses.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

/// Lookups shared by all chunk readers: the version, options, and address maps published by
/// chunks of earlier phases.
pub(crate) struct ReadCtx {
    pub version: Version,
    pub options: ParseOptions,
    pub targets: [AddrMap; TARGETS],
    /// The chunk table (bodies by name).
    pub chunks: crate::container::ChunkTable,
    /// What the last occurrence of each function's chain holds (its name's STRG index, or
    /// another name: see `Function::chain_end`; `u32::MAX` without occurrences), left by CODE
    /// when its scan read every chain, so that FUNC need not walk them again.
    pub function_ends: std::sync::OnceLock<Vec<u32>>,
    /// The version features of all the bytecode (see `code::feature_flags`), left by CODE
    /// when its scan read every instruction.
    pub code_features: std::sync::OnceLock<u8>,
    /// The occurrence chains as CODE's scan read them (see `code::chains`).
    pub code_chains: std::sync::OnceLock<std::sync::Arc<crate::chunks::code::chains::Chains>>,
    /// The file being parsed, when it was mapped from disk: the few fields stored next to large
    /// payloads are read from it (see [`Reader::u32_cold`]).
    pub file: Option<std::fs::File>,
}

impl ReadCtx {
    /// The body range of a chunk, if present.
    #[inline]
    pub(crate) fn chunk_range(&self, name: &[u8; 4]) -> Option<(usize, usize)> {
        self.chunks.range(name)
    }
}

/// A non-fatal finding while parsing in lenient mode (or an oddity in strict mode).
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// What was odd.
    pub message: String,
    /// Where.
    pub location: Location,
}

/// The bounds-checked reader.
pub(crate) struct Reader<'a> {
    src: &'a Bytes,
    data: &'a [u8],
    /// `data` up to the chunk's end: one slice bound check covers a read.
    body: &'a [u8],
    pos: usize,
    start: usize,
    end: usize,
    chunk: ChunkName,
    element: Option<(&'static str, usize)>,
    pub(crate) ctx: &'a ReadCtx,
    coverage: Option<Vec<(u32, u32)>>,
    pub(crate) published: Vec<(Target, AddrMap)>,
    pub(crate) warnings: Vec<Warning>,
    depth: u32,
}

macro_rules! read_le {
    ($($name:ident: $t:ty),*) => {$(
        #[doc = concat!("Reads a little-endian `", stringify!($t), "`.")]
        #[inline(always)]
        pub fn $name(&mut self) -> Result<$t> {
            Ok(<$t>::from_le_bytes(*self.array(stringify!($t))?))
        }
    )*};
}

impl<'a> Reader<'a> {
    pub(crate) fn new(
        src: &'a Bytes,
        ctx: &'a ReadCtx,
        chunk: ChunkName,
        start: usize,
        end: usize,
        track: bool,
    ) -> Self {
        let end = end.min(src.len());
        Reader {
            src,
            data: &src[..],
            body: &src[..end],
            pos: start,
            start,
            end,
            chunk,
            element: None,
            ctx,
            coverage: track.then(Vec::new),
            published: Vec::new(),
            warnings: Vec::new(),
            depth: 0,
        }
    }

    /// The file's version.
    #[inline]
    pub fn version(&self) -> &Version {
        &self.ctx.version
    }
    /// Current absolute position.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }
    /// Start of the current chunk body.
    pub fn chunk_start(&self) -> usize {
        self.start
    }
    /// End of the current chunk body.
    #[inline]
    pub fn chunk_end(&self) -> usize {
        self.end
    }
    /// Bytes left in the chunk from the current position.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.end.saturating_sub(self.pos)
    }
    /// The whole file.
    pub fn file(&self) -> &'a [u8] {
        self.data
    }
    /// The current chunk's name.
    pub fn chunk_name(&self) -> ChunkName {
        self.chunk
    }

    /// Sets the element being read (for error locations); returns the previous one.
    pub fn set_element(
        &mut self,
        kind: &'static str,
        index: usize,
    ) -> Option<(&'static str, usize)> {
        self.element.replace((kind, index))
    }
    /// The element being read.
    pub fn element(&self) -> Option<(&'static str, usize)> {
        self.element
    }
    /// Restores an element returned by [`Reader::set_element`].
    pub fn restore_element(&mut self, prev: Option<(&'static str, usize)>) {
        self.element = prev;
    }

    /// Where the reader is now, for errors.
    pub fn location(&self) -> Location {
        Location {
            chunk: Some(self.chunk),
            element: self.element,
            offset: self.pos,
        }
    }
    /// An error at the current position.
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.location())
    }
    /// An error at a given absolute offset.
    pub fn error_at(&self, offset: usize, kind: ErrorKind) -> Error {
        let mut loc = self.location();
        loc.offset = offset;
        Error::new(kind, loc)
    }
    /// An [`ErrorKind::Invalid`] at the current position.
    pub fn invalid(
        &self,
        what: &'static str,
        expected: impl std::fmt::Display,
        found: impl std::fmt::Display,
    ) -> Error {
        self.error(invalid(what, expected, found))
    }
    /// Records a warning (lenient mode) or fails (strict mode).
    pub fn check(
        &mut self,
        ok: bool,
        what: &'static str,
        expected: impl std::fmt::Display,
        found: impl std::fmt::Display,
    ) -> Result<()> {
        if ok {
            return Ok(());
        }
        let e = self.invalid(what, expected, found);
        if self.ctx.options.lenient {
            self.warnings.push(Warning {
                message: e.kind.to_string(),
                location: e.location,
            });
            Ok(())
        } else {
            Err(e)
        }
    }

    /// Records `n` bytes at `pos` as consumed when coverage is tracked (only a test on the
    /// hot path otherwise).
    #[inline(always)]
    fn mark(&mut self, pos: usize, n: usize) {
        if let Some(cov) = &mut self.coverage {
            mark_range(cov, pos, n);
        }
    }

    /// Takes the recorded coverage ranges.
    pub(crate) fn take_coverage(&mut self) -> Vec<(u32, u32)> {
        self.coverage.take().unwrap_or_default()
    }

    /// Moves to an absolute position inside the current chunk (the end itself is allowed).
    #[inline]
    pub fn seek(&mut self, pos: usize) -> Result<()> {
        if pos < self.start || pos > self.end {
            return Err(self.bad_seek(pos));
        }
        self.pos = pos;
        Ok(())
    }

    /// The error for a pointer outside the chunk.
    #[cold]
    #[inline(never)]
    fn bad_seek(&self, pos: usize) -> Error {
        self.error(ErrorKind::BadReference {
            what: "pointer",
            expected: "a position inside this chunk",
            found: format!("{pos} (chunk body is {}..{})", self.start, self.end),
        })
    }

    /// Borrows the next `n` bytes of the chunk and advances.
    #[inline]
    pub fn bytes_ref(&mut self, n: usize, what: &'static str) -> Result<&'a [u8]> {
        let pos = self.pos;
        match self.body.get(pos..).and_then(|s| s.get(..n)) {
            Some(b) => {
                self.pos = pos + n;
                self.mark(pos, n);
                Ok(b)
            }
            None => Err(self.truncated(what, n)),
        }
    }

    /// Borrows the next `N` bytes of the chunk as an array and advances: one bounds check for
    /// a whole fixed-size record (see [`Reader::fields`]).
    #[inline(always)]
    pub fn array<const N: usize>(&mut self, what: &'static str) -> Result<&'a [u8; N]> {
        let pos = self.pos;
        match self.body.get(pos..).and_then(|s| s.first_chunk::<N>()) {
            Some(b) => {
                self.pos = pos + N;
                self.mark(pos, N);
                Ok(b)
            }
            None => Err(self.truncated(what, N)),
        }
    }

    /// Reads a fixed-size record of `N` bytes with one bounds check; its fields are then
    /// decoded in order from the returned [`Fields`] (errors still name the field's offset).
    #[inline(always)]
    pub fn fields<const N: usize>(&mut self, what: &'static str) -> Result<Fields<'_, 'a, N>> {
        let at = self.pos;
        let b = self.array::<N>(what)?;
        Ok(Fields {
            r: self,
            b,
            at,
            k: 0,
        })
    }

    /// The error for a read of `n` bytes past the chunk's end (kept out of the hot paths).
    #[cold]
    #[inline(never)]
    fn truncated(&self, what: &'static str, n: usize) -> Error {
        self.error(ErrorKind::Truncated {
            what,
            needed: n,
            available: self.remaining(),
        })
    }

    /// The next `n` bytes as a zero-copy [`Bytes`] view of the input.
    pub fn bytes(&mut self, n: usize, what: &'static str) -> Result<Bytes> {
        let pos = self.pos;
        self.bytes_ref(n, what)?;
        Ok(self.src.slice(pos..pos + n))
    }

    /// A zero-copy view of an absolute range of the file (not recorded as consumed).
    pub fn slice(&self, start: usize, end: usize) -> Result<Bytes> {
        if start > end || end > self.data.len() {
            return Err(self.error(ErrorKind::BadReference {
                what: "range",
                expected: "a range inside the file",
                found: format!("{start}..{end}"),
            }));
        }
        Ok(self.src.slice(start..end))
    }

    /// Records an absolute range as explained by a field without reading it (e.g. a blob whose
    /// bytes were sliced with [`Reader::slice`]).
    pub fn mark_range(&mut self, start: usize, end: usize) {
        if end > start {
            self.mark(start, end - start);
        }
    }

    read_le!(u8: u8, u16: u16, i16: i16, u32: u32, i32: i32, u64: u64, i64: i64, f32: f32);

    /// The `u32` at the current position without consuming it (`None` past the chunk's end).
    #[inline]
    pub fn peek_u32(&self) -> Option<u32> {
        let b = self.body.get(self.pos..)?.first_chunk::<4>()?;
        Some(u32::from_le_bytes(*b))
    }

    /// Reads a 4-byte boolean that must be 0 or 1.
    #[inline(always)]
    pub fn bool32(&mut self) -> Result<bool> {
        let at = self.pos;
        match self.u32()? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(self.bad_bool32(at, v)),
        }
    }

    /// The error for a bool32 that is neither 0 nor 1.
    #[cold]
    #[inline(never)]
    fn bad_bool32(&self, at: usize, v: u32) -> Error {
        self.error_at(at, invalid("bool32", "0 or 1", v))
    }

    /// Skips zero padding up to an alignment, failing if a padding byte is not zero.
    #[inline]
    pub fn align(&mut self, to: usize) -> Result<()> {
        let at = self.pos;
        let pad = (to - at % to) % to;
        match self.body.get(at..).and_then(|s| s.get(..pad)) {
            Some(b) if b.iter().all(|&x| x == 0) => {
                self.pos = at + pad;
                self.mark(at, pad);
                Ok(())
            }
            _ => self.align_slow(to),
        }
    }

    /// [`Reader::align`] when the padding is truncated or not zero: reports which.
    #[cold]
    #[inline(never)]
    fn align_slow(&mut self, to: usize) -> Result<()> {
        let pad = (to - self.pos % to) % to;
        let at = self.pos;
        let b = self.bytes_ref(pad, "alignment padding")?;
        if b.iter().any(|&x| x != 0) {
            return Err(self.error_at(
                at,
                invalid("alignment padding", "zero bytes", format!("{b:02X?}")),
            ));
        }
        Ok(())
    }

    /// Copies the file's bytes at `at` into `buf` (inside the file: the caller checked), from
    /// the file on disk when it is at hand, so that the map's pages there are not touched.
    fn read_cold<'b>(&self, at: usize, buf: &'b mut [u8]) -> &'b [u8] {
        #[cfg(unix)]
        if let Some(f) = &self.ctx.file {
            use std::os::unix::fs::FileExt;
            if f.read_exact_at(buf, at as u64).is_ok() {
                return buf;
            }
        }
        buf.copy_from_slice(&self.data[at..at + buf.len()]);
        buf
    }

    /// [`Reader::u32`] for a field stored next to a large payload (an audio length). When a
    /// file from disk is parsed, it is read with `pread` rather than through the map: every
    /// page touched in the map counts in the process's resident set (and the kernel maps up to
    /// 64 KiB around it), so reading one word beside each payload would bring most of a large
    /// game's payloads into memory.
    pub fn u32_cold(&mut self) -> Result<u32> {
        let at = self.pos;
        self.bytes_ref(4, "u32")?;
        let mut buf = [0u8; 4];
        Ok(u32::from_le_bytes(
            self.read_cold(at, &mut buf).try_into().unwrap_or([0; 4]),
        ))
    }

    /// [`Reader::align`] for the padding after a large payload: read like [`Reader::u32_cold`].
    pub fn align_cold(&mut self, to: usize) -> Result<()> {
        let pad = (to - self.pos % to) % to;
        let mut buf = [0u8; 256];
        if pad == 0 || pad > buf.len() {
            return self.align(to);
        }
        let at = self.pos;
        self.bytes_ref(pad, "alignment padding")?;
        let b = self.read_cold(at, &mut buf[..pad]);
        if b.iter().any(|&x| x != 0) {
            return Err(self.error_at(
                at,
                invalid("alignment padding", "zero bytes", format!("{b:02X?}")),
            ));
        }
        Ok(())
    }

    /// Whether the next `to`-alignment padding is all zeros and inside the chunk.
    pub fn is_zero_padding(&self, to: usize) -> bool {
        let pad = (to - self.pos % to) % to;
        self.pos + pad <= self.end && self.data[self.pos..self.pos + pad].iter().all(|&x| x == 0)
    }

    /// Reads a count and checks that `count * min_size` bytes can follow, so that the count is safe
    /// to allocate from.
    #[inline(always)]
    pub fn count(&mut self, what: &'static str, min_size: usize) -> Result<usize> {
        let at = self.pos;
        let n = self.u32()? as usize;
        self.check_count(at, what, n, min_size)?;
        Ok(n)
    }

    /// Checks that `n` elements of at least `min_size` bytes fit in what is left of the chunk.
    #[inline]
    pub fn check_count(
        &self,
        at: usize,
        what: &'static str,
        n: usize,
        min_size: usize,
    ) -> Result<()> {
        if n.saturating_mul(min_size.max(1)) > self.end.saturating_sub(self.pos) {
            return Err(self.count_too_large(at, what, n));
        }
        Ok(())
    }

    /// The error for a count that the rest of the chunk cannot hold.
    #[cold]
    #[inline(never)]
    fn count_too_large(&self, at: usize, what: &'static str, n: usize) -> Error {
        self.error_at(
            at,
            ErrorKind::CountTooLarge {
                what,
                count: n as u64,
                available: self.remaining(),
            },
        )
    }

    /// Reads a pointer list header: count, then that many absolute pointers.
    pub fn pointer_list(&mut self, what: &'static str) -> Result<Vec<u32>> {
        Ok(self.pointers(what)?.collect())
    }

    /// Reads a pointer list header (count, then that many absolute pointers) without copying
    /// it: the pointers are decoded from the file as they are iterated.
    #[inline]
    pub fn pointers(&mut self, what: &'static str) -> Result<Pointers<'a>> {
        // [`Reader::count`] then [`Reader::bytes_ref`], with one bounds check each.
        let at = self.pos;
        let Some((head, rest)) = self.body.get(at..).and_then(|s| s.split_first_chunk::<4>())
        else {
            return Err(self.truncated("u32", 4));
        };
        let n = u32::from_le_bytes(*head) as usize;
        let Some(list) = rest.get(..n.saturating_mul(4)) else {
            self.pos = at + 4;
            self.mark(at, 4);
            return Err(self.count_too_large(at, what, n));
        };
        self.pos = at + 4 + list.len();
        self.mark(at, 4 + list.len());
        Ok(Pointers(list.chunks_exact(4)))
    }

    /// Reads the elements of a pointer list, visiting each pointer in order. A null pointer yields
    /// `None` (stripped assets, 2024.11+).
    pub fn pointer_list_elements<T>(
        &mut self,
        what: &'static str,
        mut read: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Vec<Option<T>>> {
        let ptrs = self.pointers(what)?;
        let mut out = Vec::with_capacity(ptrs.len());
        let prev = self.element;
        for (i, p) in ptrs.enumerate() {
            if p == 0 {
                out.push(None);
                continue;
            }
            self.element = Some((what, i));
            self.seek(p as usize)?;
            out.push(Some(read(self)?));
        }
        self.element = prev;
        Ok(out)
    }

    /// Reads a string reference (pointer to the first character of a STRG entry); 0 is `None`.
    #[inline(always)]
    pub fn string_opt(&mut self) -> Result<Option<StringRef>> {
        let at = self.pos;
        let p = self.u32()?;
        self.string_opt_at(at, p)
    }

    /// Reads a string reference that must not be null.
    #[inline(always)]
    pub fn string(&mut self) -> Result<StringRef> {
        let at = self.pos;
        let p = self.u32()?;
        self.string_at(at, p)
    }

    /// Resolves a string reference `p` read at `at`; 0 is `None`.
    #[inline(always)]
    fn string_opt_at(&self, at: usize, p: u32) -> Result<Option<StringRef>> {
        if p == 0 {
            return Ok(None);
        }
        match self.ctx.targets[Target::String as usize].get(p) {
            Some(i) => Ok(Some(StringRef(i))),
            None => Err(self.bad_string(at, p)),
        }
    }

    /// Resolves a string reference `p` read at `at` that must not be null.
    #[inline(always)]
    fn string_at(&self, at: usize, p: u32) -> Result<StringRef> {
        match self.ctx.targets[Target::String as usize].get(p) {
            Some(i) if p != 0 => Ok(StringRef(i)),
            _ => Err(self.bad_string(at, p)),
        }
    }

    /// The error for a string reference that is null or not the start of a STRG entry.
    #[cold]
    #[inline(never)]
    fn bad_string(&self, at: usize, p: u32) -> Error {
        if p == 0 {
            return self.error_at(
                at,
                invalid("string reference", "a STRG entry", "null pointer"),
            );
        }
        self.error_at(
            at,
            ErrorKind::BadReference {
                what: "string reference",
                expected: "the start of a STRG entry",
                found: format!("0x{p:X}"),
            },
        )
    }

    /// Reads a pointer to an element of another list (e.g. a TPAG item) and resolves it to that
    /// element's index; 0 is `None`.
    #[inline]
    pub fn target_opt(&mut self, target: Target, what: &'static str) -> Result<Option<u32>> {
        let at = self.pos;
        let p = self.u32()?;
        self.target_opt_at(at, p, target, what)
    }

    /// Resolves a pointer `p` read at `at` (an absolute offset, for the error) to an element of
    /// another list; 0 is `None` (see [`Reader::target_opt`]).
    #[inline]
    pub fn target_opt_at(
        &self,
        at: usize,
        p: u32,
        target: Target,
        what: &'static str,
    ) -> Result<Option<u32>> {
        if p == 0 {
            return Ok(None);
        }
        match self.ctx.targets[target as usize].get(p) {
            Some(i) => Ok(Some(i)),
            None => Err(self.bad_target(at, p, target, what)),
        }
    }

    /// The error for a pointer that does not lead to an element of its target list.
    #[cold]
    #[inline(never)]
    fn bad_target(&self, at: usize, p: u32, target: Target, what: &'static str) -> Error {
        self.error_at(
            at,
            ErrorKind::BadReference {
                what,
                expected: target_name(target),
                found: format!("0x{p:X}"),
            },
        )
    }

    /// Resolves an address through a published address map.
    pub fn resolve(&self, target: Target, addr: u32) -> Option<u32> {
        self.ctx.targets[target as usize].get(addr)
    }

    /// Publishes the addresses of a list's elements so that chunks of later phases can resolve
    /// pointers to them.
    pub fn publish(&mut self, target: Target, addrs: &[u32]) {
        self.published.push((target, AddrMap::new(addrs)));
    }

    /// Enters a nested structure; fails past a fixed depth (guards against pointer cycles).
    pub fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(self.invalid(
                "nesting",
                "at most 64 levels",
                "deeper nesting (pointer cycle?)",
            ));
        }
        Ok(())
    }
    /// Leaves a nested structure.
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Reads the elements of a pointer list whose pointers must all be non-null (nested lists
    /// such as events and actions), visiting each pointer in order.
    pub fn pointer_list_required<T>(
        &mut self,
        what: &'static str,
        mut read: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Vec<T>> {
        let at = self.pos;
        let ptrs = self.pointers(what)?;
        let mut out = Vec::with_capacity(ptrs.len());
        let prev = self.element;
        for (i, p) in ptrs.enumerate() {
            if p == 0 {
                return Err(self.null_pointer(at + 4 + 4 * i, what));
            }
            self.element = Some((what, i));
            self.seek(p as usize)?;
            out.push(read(self)?);
        }
        self.element = prev;
        Ok(out)
    }

    /// The error for a null entry in a list whose pointers must all be non-null.
    #[cold]
    #[inline(never)]
    fn null_pointer(&self, at: usize, what: &'static str) -> Error {
        self.error_at(at, invalid(what, "a non-null pointer", "a null pointer"))
    }

    /// Reads a pointer list whose elements follow it one after another in pointer order (the
    /// layout [`crate::write::Writer::pointer_list`] writes): `before` runs before each element
    /// (alignment), then the element must start where its pointer says. Null pointers are `None`.
    pub fn elements_in_order<T>(
        &mut self,
        what: &'static str,
        mut before: impl FnMut(&mut Self) -> Result<()>,
        mut read: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Vec<Option<T>>> {
        let ptrs = self.pointers(what)?;
        let mut out = Vec::with_capacity(ptrs.len());
        let prev = self.element;
        for (i, p) in ptrs.enumerate() {
            if p == 0 {
                out.push(None);
                continue;
            }
            self.element = Some((what, i));
            before(self)?;
            self.expect_element_at(p, what)?;
            out.push(Some(read(self)?));
        }
        self.element = prev;
        Ok(out)
    }

    /// Checks that the element a pointer list points at starts at the current position: elements
    /// are stored one after another in pointer order, which is the layout the writer reproduces.
    #[inline]
    pub fn expect_element_at(&self, p: u32, what: &'static str) -> Result<()> {
        if p as usize == self.pos {
            return Ok(());
        }
        Err(self.out_of_order(p, what))
    }

    /// The error for an element that does not start where its pointer says.
    #[cold]
    #[inline(never)]
    fn out_of_order(&self, p: u32, what: &'static str) -> Error {
        self.invalid(
            what,
            format!("elements stored in pointer order (next at {})", self.pos),
            p,
        )
    }

    /// Rejects null entries of an asset pointer list in files older than 2024.11 (strict mode:
    /// error; lenient mode: warning). From 2024.11 null entries are stripped assets.
    pub fn check_nulls<T>(&mut self, what: &'static str, items: &[Option<T>]) -> Result<()> {
        if self.version().allows_null_slots() {
            return Ok(());
        }
        if let Some(i) = items.iter().position(Option::is_none) {
            self.check(
                false,
                what,
                "no null pointers before 2024.11",
                format!("a null pointer at entry #{i}"),
            )?;
        }
        Ok(())
    }
}

/// Appends a consumed range to the coverage record, merging it with the previous one when they
/// touch.
#[inline(never)]
fn mark_range(cov: &mut Vec<(u32, u32)>, pos: usize, n: usize) {
    let (s, e) = (pos as u32, (pos + n) as u32);
    match cov.last_mut() {
        Some(last) if last.1 == s => last.1 = e,
        _ => cov.push((s, e)),
    }
}

/// The pointers of a pointer list, decoded from the file as they are iterated
/// ([`Reader::pointers`]).
#[derive(Clone)]
pub(crate) struct Pointers<'a>(std::slice::ChunksExact<'a, u8>);

impl Iterator for Pointers<'_> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        self.0
            .next()
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Pointers<'_> {}

/// A fixed-size record of `N` bytes read with one bounds check ([`Reader::fields`]); its fields
/// are decoded in order. Reading past `N` bytes is a bug of the caller (caught in debug builds;
/// yields zeros otherwise, and the corpus round trip would fail).
pub(crate) struct Fields<'r, 'a, const N: usize> {
    r: &'r Reader<'a>,
    b: &'a [u8; N],
    /// Absolute offset of the record.
    at: usize,
    /// Offset of the next field in the record.
    k: usize,
}

impl<'r, 'a, const N: usize> Fields<'r, 'a, N> {
    /// The next `M` bytes of the record.
    #[inline(always)]
    fn take<const M: usize>(&mut self) -> [u8; M] {
        let k = self.k;
        debug_assert!(k + M <= N, "record of {N} bytes read past its end");
        self.k = k + M;
        match self.b.get(k..).and_then(|s| s.first_chunk::<M>()) {
            Some(b) => *b,
            None => [0; M],
        }
    }
    /// Absolute offset of the next field.
    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.at + self.k
    }
    /// The reader (for its version and errors).
    #[inline(always)]
    pub fn reader(&self) -> &'r Reader<'a> {
        self.r
    }
    /// A little-endian `u8`.
    #[inline(always)]
    pub fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }
    /// A little-endian `u16`.
    #[inline(always)]
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    /// A little-endian `i16`.
    #[inline(always)]
    pub fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    /// A little-endian `u32`.
    #[inline(always)]
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    /// A little-endian `i32`.
    #[inline(always)]
    pub fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    /// A little-endian `f32`.
    #[inline(always)]
    pub fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.take())
    }
    /// A 4-byte boolean that must be 0 or 1 (see [`Reader::bool32`]).
    #[inline(always)]
    pub fn bool32(&mut self) -> Result<bool> {
        let at = self.pos();
        match self.u32() {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(self.r.bad_bool32(at, v)),
        }
    }
    /// A string reference; 0 is `None` (see [`Reader::string_opt`]).
    #[inline(always)]
    pub fn string_opt(&mut self) -> Result<Option<StringRef>> {
        let at = self.pos();
        let p = self.u32();
        self.r.string_opt_at(at, p)
    }
    /// A pointer to an element of another list; 0 is `None` (see [`Reader::target_opt`]).
    #[inline(always)]
    pub fn target_opt(&mut self, target: Target, what: &'static str) -> Result<Option<u32>> {
        let at = self.pos();
        let p = self.u32();
        self.r.target_opt_at(at, p, target, what)
    }
    /// A string reference that must not be null (see [`Reader::string`]).
    #[inline(always)]
    pub fn string(&mut self) -> Result<StringRef> {
        let at = self.pos();
        let p = self.u32();
        self.r.string_at(at, p)
    }
}

pub(crate) fn target_name(t: Target) -> &'static str {
    match t {
        Target::String => "a STRG entry",
        Target::TexturePageItem => "a TPAG item",
    }
}

#[cfg(test)]
mod addr_map_tests {
    use super::AddrMap;

    /// Every address finds its element and nothing else is found, for lists in address order
    /// or not, dense or sparse, 4-aligned or not.
    #[test]
    fn every_address_finds_its_element() {
        let mut rng = gmkit_testdata::Rng(0xADD7_E55E_5000_0001);
        for round in 0..400 {
            let n = rng.below(60);
            // Step 0: gaps of 4 or 100,000 bytes (too sparse for the dense table).
            let step = [1, 4, 5, 8, 400, 0][round % 6];
            let mut addrs: Vec<u32> = Vec::with_capacity(n);
            let mut a = 1000 + rng.below(4) as u32;
            for _ in 0..n {
                addrs.push(a);
                a += match step {
                    0 => [4, 100_000][rng.below(2)],
                    _ => step * (1 + rng.below(3) as u32),
                };
            }
            if round % 3 == 1 {
                for i in (1..n).rev() {
                    addrs.swap(i, rng.below(i + 1));
                }
            }
            let map = AddrMap::new(&addrs);
            assert_eq!(map.len(), n);
            for (i, &a) in addrs.iter().enumerate() {
                assert_eq!(map.get(a), Some(i as u32), "{addrs:?}");
                for miss in [a + 1, a.wrapping_sub(1), a + 2] {
                    if !addrs.contains(&miss) {
                        assert_eq!(map.get(miss), None, "{miss} in {addrs:?}");
                    }
                }
            }
            assert_eq!(map.get(0), None);
            assert_eq!(map.get(u32::MAX), None);
        }
    }

    /// A repeated address maps to its first element when the table is dense.
    #[test]
    fn a_repeated_address_finds_the_first_element() {
        for addrs in [[8, 12, 12, 16], [12, 8, 16, 12], [12, 9, 12, 13]] {
            let map = AddrMap::new(&addrs);
            let first = addrs.iter().position(|&a| a == 12).unwrap() as u32;
            assert_eq!(map.get(12), Some(first));
            assert!(!map.dense.is_empty());
        }
    }
}
