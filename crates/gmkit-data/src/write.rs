//! The writer every chunk uses: a growing buffer, back-patched pointer lists, and fixups for
//! references whose addresses are known only once their target is written.

use crate::error::{Error, ErrorKind, Result};
use crate::read::{TARGETS, Target, target_name};
use crate::refs::StringRef;
use crate::version::Version;

/// Shared state available to chunk writers.
pub(crate) struct WriteCtx {
    pub version: Version,
    /// Bytecode layout computed by CODE, used by VARI and FUNC.
    pub code: crate::chunks::code::WriteState,
}

/// Number of fixups per allocated block.
const FIXUP_BLOCK: usize = 1024;

// Fixups keep the target kind in 3 bits.
const _: () = assert!(TARGETS <= 8);

/// The output buffer with its pending references.
pub(crate) struct Writer {
    buf: Vec<u8>,
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
    pub(crate) fn new(capacity: usize, ctx: WriteCtx) -> Self {
        Writer {
            buf: Vec::with_capacity(capacity),
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
        self.buf.len()
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
    /// Writes `n` zero bytes.
    pub fn zeros(&mut self, n: usize) {
        self.buf.resize(self.buf.len() + n, 0);
    }
    /// Pads with zeros to an alignment.
    pub fn align(&mut self, to: usize) {
        let pad = (to - self.pos() % to) % to;
        self.zeros(pad);
    }
    /// Overwrites a u32 at an earlier position.
    #[inline]
    pub fn patch_u32(&mut self, at: usize, v: u32) {
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

    /// Resolves every pending reference and returns the bytes.
    pub(crate) fn finish(mut self) -> Result<Vec<u8>> {
        let fixups = std::mem::take(&mut self.fixups);
        for &at in fixups.iter().flatten() {
            let at = at as usize;
            let b = &self.buf[at..at + 4];
            let key = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            self.resolve(at, (key & 7) as u8, key >> 3)?;
        }
        for (at, kind, index) in std::mem::take(&mut self.big_fixups) {
            self.resolve(at as usize, kind, index)?;
        }
        Ok(self.buf)
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
        self.buf[at..at + 4].copy_from_slice(&addr.to_le_bytes());
        Ok(())
    }
}
