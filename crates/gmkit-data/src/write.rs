//! The writer every chunk uses: a growing buffer, back-patched pointer lists, and fixups for
//! references whose addresses are known only once their target is written.

use crate::error::{Error, ErrorKind, Result};
use crate::read::{TARGETS, Target, target_name};
use crate::refs::StringRef;
use crate::version::Version;
use bytes::Bytes;

/// The largest alignment a model may ask for (chunk headers, string-table and texture-chunk
/// ends). Real files use 1, 4, 16 and 128; a larger value would only pad the file with zeros
/// (an alignment of 2^30 asks for a gigabyte of them).
pub const MAX_ALIGN: usize = 4096;

/// Shared state available to chunk writers.
pub(crate) struct WriteCtx {
    pub version: Version,
    /// Bytecode layout computed by CODE, used by VARI and FUNC.
    pub code: crate::chunks::code::WriteState,
    /// The occurrence chains as read (see `code::chains`).
    pub read_chains: Option<std::sync::Arc<crate::chunks::code::chains::Chains>>,
}

/// Number of fixups per allocated block.
const FIXUP_BLOCK: usize = 1024;

// Fixups keep the target kind in 3 bits.
const _: () = assert!(TARGETS <= 8);

/// Payloads at least this large are kept by reference when building to parts.
pub(crate) const SEGMENT_MIN: usize = 4096;

/// A payload written by reference: where it goes in the output.
struct Segment {
    /// Output position where it starts.
    at: usize,
    /// Payload bytes written up to and including this one.
    through: usize,
    /// Position in the writer's own buffer where it is inserted.
    own_at: usize,
    bytes: Bytes,
}

/// The output buffer with its pending references.
pub(crate) struct Writer {
    /// The output, less the payloads kept by reference in `segments`.
    buf: Vec<u8>,
    /// Payloads kept by reference (building to parts), in output order.
    segments: Vec<Segment>,
    /// Whether large payloads are kept by reference instead of copied.
    by_reference: bool,
    /// Position of every pointer still to fill in, in blocks of up to [`FIXUP_BLOCK`] (never
    /// copied to grow: a large file has many). Until then the output holds
    /// `index << 3 | target kind` at that position.
    fixups: Vec<Vec<u32>>,
    /// (position, target kind, index) of pointers whose index does not fit in 29 bits.
    big_fixups: Vec<(u32, u8, u32)>,
    /// For each target kind, the address of each index (0 = not written yet).
    addrs: [Vec<u32>; TARGETS],
    pub(crate) ctx: WriteCtx,
    chunk: crate::chunk::ChunkName,
}

macro_rules! write_le {
    ($($name:ident: $t:ty),*) => {$(
        #[doc = concat!("Writes a little-endian `", stringify!($t), "`.")]
        #[inline]
        pub fn $name(&mut self, v: $t) {
            self.buf.extend_from_slice(&v.to_le_bytes());
        }
    )*};
}

impl Writer {
    /// A writer building one contiguous buffer of about `capacity` bytes, or (`by_reference`)
    /// its own bytes with large payloads kept as views (see [`Built`]).
    /// The first `expected` bytes are made present at once (see [`prefault`]).
    pub(crate) fn new(capacity: usize, expected: usize, ctx: WriteCtx, by_reference: bool) -> Self {
        let mut buf = Vec::with_capacity(capacity);
        prefault(&mut buf, expected);
        Writer {
            buf,
            segments: Vec::new(),
            by_reference,
            fixups: Vec::new(),
            big_fixups: Vec::new(),
            addrs: Default::default(),
            ctx,
            chunk: crate::chunk::ChunkName(*b"FORM"),
        }
    }

    /// The version being written.
    #[inline]
    pub fn version(&self) -> &Version {
        &self.ctx.version
    }
    /// Current position (= bytes written so far).
    #[inline]
    pub fn pos(&self) -> usize {
        self.buf.len() + self.segments.last().map_or(0, |s| s.through)
    }
    /// The index in the own buffer of output position `at` (never inside a payload kept by
    /// reference: pointers and lengths are only ever patched in own bytes).
    #[inline]
    fn own(&self, at: usize) -> usize {
        match self.segments.first() {
            Some(first) if at >= first.at => {
                let k = self.segments.partition_point(|s| s.at <= at);
                at - self.segments[k - 1].through
            }
            _ => at,
        }
    }
    pub(crate) fn set_chunk(&mut self, c: crate::chunk::ChunkName) {
        self.chunk = c;
    }
    /// An error about the chunk being written.
    pub fn unwritable(&self, what: &'static str, reason: impl Into<String>) -> Error {
        Error::at(
            self.pos(),
            ErrorKind::Unwritable {
                what,
                reason: reason.into(),
            },
        )
        .in_chunk(self.chunk)
    }

    write_le!(u8: u8, u16: u16, i16: i16, u32: u32, i32: i32, u64: u64, i64: i64, f32: f32);

    /// Writes a 4-byte boolean.
    #[inline]
    pub fn bool32(&mut self, v: bool) {
        self.u32(v as u32)
    }
    /// Writes raw bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    /// Writes a payload (texture or audio data): copied, or when building to parts and large,
    /// kept as a view.
    pub fn payload(&mut self, b: &Bytes) {
        if !self.by_reference || b.len() < SEGMENT_MIN {
            return self.bytes(b);
        }
        let at = self.pos();
        let through = self.segments.last().map_or(0, |s| s.through) + b.len();
        self.segments.push(Segment {
            at,
            through,
            own_at: self.buf.len(),
            bytes: b.clone(),
        });
    }
    /// Writes `n` zero bytes.
    pub fn zeros(&mut self, n: usize) {
        self.buf.resize(self.buf.len() + n, 0);
    }
    /// Pads with zeros to an alignment (0 and 1 mean none). Alignments taken from a model are
    /// checked against [`MAX_ALIGN`] before writing starts ([`crate::DataFile::validate`] and the
    /// container writer), so the padding is bounded.
    pub fn align(&mut self, to: usize) {
        let to = to.max(1);
        let pad = (to - self.pos() % to) % to;
        self.zeros(pad);
    }
    /// The u32 written at an earlier position (0 past the end: callers read what they wrote).
    pub fn u32_at(&self, at: usize) -> u32 {
        let at = self.own(at);
        self.buf
            .get(at..at + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    /// Overwrites a u32 at an earlier position.
    #[inline]
    pub fn patch_u32(&mut self, at: usize, v: u32) {
        let at = self.own(at);
        self.buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    /// A position as a u32 pointer value; files are limited to 4 GiB.
    #[inline]
    pub fn pos32(&self) -> u32 {
        self.pos() as u32
    }

    /// Writes a count and `n` placeholder pointers; returns the position of the first slot. Fill
    /// slot `i` with [`Writer::fill_slot`] when element `i` is written.
    pub fn pointer_slots(&mut self, n: usize) -> usize {
        self.u32(n as u32);
        let at = self.pos();
        self.zeros(n * 4);
        at
    }
    /// Points slot `i` of a pointer list at the current position.
    #[inline]
    pub fn fill_slot(&mut self, slots: usize, i: usize) {
        let p = self.pos32();
        self.patch_u32(slots + i * 4, p);
    }

    /// Writes a pointer list of optional elements (None = null pointer), each written by `write`
    /// at its own position. `before` runs before each element (alignment).
    pub fn pointer_list<T>(
        &mut self,
        items: &[Option<T>],
        mut before: impl FnMut(&mut Self),
        mut write: impl FnMut(&mut Self, &T) -> Result<()>,
    ) -> Result<()> {
        let slots = self.pointer_slots(items.len());
        for (i, item) in items.iter().enumerate() {
            if let Some(item) = item {
                before(self);
                self.fill_slot(slots, i);
                write(self, item)?;
            }
        }
        Ok(())
    }

    /// Writes a pointer list whose elements are all present, each written by `write` at its
    /// own position.
    pub fn pointer_list_required<T>(
        &mut self,
        items: &[T],
        mut write: impl FnMut(&mut Self, &T) -> Result<()>,
    ) -> Result<()> {
        let slots = self.pointer_slots(items.len());
        for (i, item) in items.iter().enumerate() {
            self.fill_slot(slots, i);
            write(self, item)?;
        }
        Ok(())
    }

    /// Writes a string reference (filled in when the string table is written).
    #[inline]
    pub fn string(&mut self, s: StringRef) {
        self.target(Target::String, Some(s.0));
    }
    /// Writes an optional string reference (0 when `None`).
    #[inline]
    pub fn string_opt(&mut self, s: Option<StringRef>) {
        self.target(Target::String, s.map(|s| s.0));
    }

    /// Writes a pointer to element `index` of a target list (0 when `None`).
    #[inline]
    pub fn target(&mut self, target: Target, index: Option<u32>) {
        let Some(i) = index else {
            return self.u32(0);
        };
        if i < 1 << 29 {
            let at = self.pos32();
            match self.fixups.last_mut() {
                Some(block) if block.len() < block.capacity() => block.push(at),
                _ => {
                    // Blocks of 16, 32, ... up to FIXUP_BLOCK fixups.
                    let cap = (16usize << self.fixups.len().min(8)).min(FIXUP_BLOCK);
                    let mut block = Vec::with_capacity(cap);
                    block.push(at);
                    self.fixups.push(block);
                }
            }
            self.u32(i << 3 | target as u32);
        } else {
            self.big_fixups.push((self.pos32(), target as u8, i));
            self.u32(0);
        }
    }

    /// Records that element `index` of a target list starts at the current position.
    #[inline]
    pub fn define(&mut self, target: Target, index: u32) {
        let p = self.pos32();
        self.define_at(target, index, p);
    }
    /// Records the address of element `index` of a target list.
    pub fn define_at(&mut self, target: Target, index: u32, addr: u32) {
        let t = &mut self.addrs[target as usize];
        let i = index as usize;
        if t.len() <= i {
            t.resize(i + 1, 0);
        }
        t[i] = addr;
    }
    /// Reserves room for `n` more bytes.
    pub fn reserve(&mut self, n: usize) {
        self.buf.reserve(n);
    }
    /// Reserves room for `n` addresses of a target list.
    pub fn reserve_targets(&mut self, target: Target, n: usize) {
        self.addrs[target as usize].reserve(n);
    }

    /// Resolves every pending reference and returns the bytes (payloads kept by reference are
    /// copied in).
    pub(crate) fn finish(self) -> Result<Vec<u8>> {
        Ok(self.finish_parts()?.into_vec())
    }

    /// Resolves every pending reference and returns the output in parts.
    pub(crate) fn finish_parts(mut self) -> Result<Built> {
        let fixups = std::mem::take(&mut self.fixups);
        for &at in fixups.iter().flatten() {
            let at = at as usize;
            let own = self.own(at);
            let b = &self.buf[own..own + 4];
            let key = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            self.resolve(at, (key & 7) as u8, key >> 3)?;
        }
        for (at, kind, index) in std::mem::take(&mut self.big_fixups) {
            self.resolve(at as usize, kind, index)?;
        }
        Ok(Built {
            own: self.buf,
            segments: self
                .segments
                .into_iter()
                .map(|s| (s.own_at, s.bytes))
                .collect(),
            source: None,
        })
    }

    /// Fills in the pointer at `at` with the address of element `index` of a target list.
    fn resolve(&mut self, at: usize, kind: u8, index: u32) -> Result<()> {
        let addr = match self
            .addrs
            .get(kind as usize)
            .and_then(|t| t.get(index as usize))
        {
            Some(&a) if a != 0 => a,
            _ => {
                let t = if kind == Target::String as u8 {
                    Target::String
                } else {
                    Target::TexturePageItem
                };
                return Err(Error::at(
                    at,
                    ErrorKind::Unwritable {
                        what: "reference",
                        reason: format!(
                            "{} #{index} does not exist or was not written",
                            target_name(t)
                        ),
                    },
                ));
            }
        };
        let own = self.own(at);
        self.buf[own..own + 4].copy_from_slice(&addr.to_le_bytes());
        Ok(())
    }
}

/// Buffers at least this large are made present at once by [`prefault`].
const PREFAULT_MIN: usize = 1 << 18;

/// Makes the first `len` bytes of `buf`'s spare capacity present before they are written: a
/// fresh multi-megabyte output buffer otherwise takes one page fault per 4 KiB page as it
/// fills, which costs more than writing it (≈ 2.7 µs a fault measured on a VM, against 0.1 µs
/// to write the page). Asks for 2 MiB pages (transparent huge pages, where the system allows
/// them on request) and populates the range in one call (Linux 5.14+; older kernels refuse
/// and the pages fault in as before). Contents are unchanged: only page tables are filled in.
/// Skipped when the range is already present (re-used memory: populating it again costs
/// ≈ 0.2 µs a page for nothing).
fn prefault(buf: &mut Vec<u8>, len: usize) {
    #[cfg(target_os = "linux")]
    {
        let spare = buf.spare_capacity_mut();
        let len = len.min(spare.len());
        if len < PREFAULT_MIN {
            return;
        }
        const PAGE: usize = 4096;
        let start = spare.as_mut_ptr() as usize;
        let (from, to) = (start.next_multiple_of(PAGE), (start + len) / PAGE * PAGE);
        if to <= from {
            return;
        }
        // Memory the allocator hands back again (a loop building many files) is usually
        // present already: then advising costs more than it saves. Its last page tells.
        let mut resident = 0u8;
        // SAFETY: mincore only reads the page tables of the page-aligned page [to - PAGE, to),
        // which lies inside `buf`'s allocation, and writes one byte to `resident`.
        let r = unsafe { libc::mincore((to - PAGE) as *mut libc::c_void, PAGE, &mut resident) };
        if r == 0 && resident & 1 != 0 {
            return;
        }
        // SAFETY: [from, to) lies inside `buf`'s allocation (page-aligned inward from its spare
        // capacity, which this function borrows mutably), so no other object's memory is
        // advised. MADV_HUGEPAGE and MADV_POPULATE_WRITE change how the range is backed, never
        // its contents (populating private anonymous memory write-faults it as a write would,
        // keeping its bytes), and their failure is harmless: the advice is only a hint.
        unsafe {
            let (p, n) = (from as *mut libc::c_void, to - from);
            libc::madvise(p, n, libc::MADV_HUGEPAGE);
            libc::madvise(p, n, MADV_POPULATE_WRITE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (buf, len);
}

/// `MADV_POPULATE_WRITE` (Linux 5.14; not in every libc crate version's constants).
#[cfg(target_os = "linux")]
const MADV_POPULATE_WRITE: libc::c_int = 23;

/// A built data file in parts: the bytes gmkit wrote, with the large texture and audio payloads
/// left as views of where they came from (usually the input), so that nothing is copied until
/// the parts are written out or compared.
///
/// ```no_run
/// let data = gmkit_data::parse_file("data.win")?;
/// let built = gmkit_data::build(&data)?;
/// assert!(built.eq_bytes(&std::fs::read("data.win")?));
/// built.write_to(&mut std::fs::File::create("copy.win")?)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Built {
    /// Written bytes, less the payloads.
    own: Vec<u8>,
    /// (position in `own` where it is inserted, payload), in order.
    segments: Vec<(usize, Bytes)>,
    /// The file the payloads are views of, when the model was parsed from one.
    pub(crate) source: Option<std::sync::Arc<crate::Source>>,
}

impl Built {
    /// The output as consecutive slices.
    pub fn parts(&self) -> impl Iterator<Item = &[u8]> {
        let mut from = 0;
        self.segments
            .iter()
            .flat_map(move |(at, payload)| {
                let own = &self.own[from..*at];
                from = *at;
                [own, &payload[..]]
            })
            .chain(std::iter::once(
                &self.own[self.segments.last().map_or(0, |s| s.0)..],
            ))
            .filter(|p| !p.is_empty())
    }

    /// The size of the output in bytes.
    pub fn len(&self) -> usize {
        self.own.len() + self.segments.iter().map(|s| s.1.len()).sum::<usize>()
    }

    /// Whether the output is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the output equals `other` (payloads that are views of `other` itself at the same
    /// position compare without being read).
    pub fn eq_bytes(&self, other: &[u8]) -> bool {
        if self.len() != other.len() {
            return false;
        }
        let mut at = 0;
        for part in self.parts() {
            let theirs = &other[at..at + part.len()];
            if !std::ptr::eq(part.as_ptr(), theirs.as_ptr()) && part != theirs {
                return false;
            }
            at += part.len();
        }
        true
    }

    /// Writes the output to `out`, part by part; fails when the file the model was parsed from
    /// changed on disk before or while the payloads were read from it (see
    /// [`crate::parse_file`]), since what was written is then not what was read.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        self.check_source().map_err(std::io::Error::other)?;
        for part in self.parts() {
            out.write_all(part)?;
        }
        self.check_source().map_err(std::io::Error::other)
    }

    /// `Ok` unless the payloads are views of a file that changed on disk since it was parsed
    /// ([`crate::Source::check`]); [`Built::parts`], [`Built::eq_bytes`] and
    /// [`Built::into_vec`] do not check it: call this after them.
    ///
    /// ```
    /// let built = gmkit_data::build(&gmkit_data::sample()).unwrap();
    /// assert!(built.check_source().is_ok());
    /// ```
    pub fn check_source(&self) -> crate::Result<()> {
        self.source.as_ref().map_or(Ok(()), |s| s.check())
    }

    /// The output as one buffer.
    pub fn into_vec(self) -> Vec<u8> {
        if self.segments.is_empty() {
            return self.own;
        }
        let mut v = Vec::with_capacity(self.len());
        for part in self.parts() {
            v.extend_from_slice(part);
        }
        v
    }
}
