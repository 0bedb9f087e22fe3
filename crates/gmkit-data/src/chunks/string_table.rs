//! `STRG`: the string table every other chunk refers to.
//!
//! Layout: a pointer list of entries; each entry is a `u32` byte length, the bytes, and a zero
//! byte; entries are 4-aligned in files where every entry pointer is a multiple of 4; the body
//! ends aligned (128 bytes in every known file). References point to an entry's first character.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::{Reader, Target};
use crate::refs::StringRef;
use crate::string::GmString;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The string table.
///
/// ```
/// use gmkit_data::chunks::string_table::Strings;
/// let mut s = Strings::default();
/// let r = s.push("hello");
/// assert_eq!(s.get(r).unwrap(), "hello");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Strings {
    /// The entries, in file order. Duplicates are distinct entries.
    pub entries: Vec<GmString>,
    /// Whether each entry starts on a 4-byte boundary.
    pub aligned: bool,
    /// Alignment of the end of the chunk content.
    pub end_align: usize,
}

impl Default for Strings {
    fn default() -> Self {
        Strings {
            entries: Vec::new(),
            aligned: true,
            end_align: 128,
        }
    }
}

impl Strings {
    /// The string an entry reference points to.
    pub fn get(&self, r: StringRef) -> Option<&GmString> {
        self.entries.get(r.index())
    }
    /// Appends a new entry and returns its reference.
    pub fn push(&mut self, s: impl Into<GmString>) -> StringRef {
        self.entries.push(s.into());
        StringRef((self.entries.len() - 1) as u32)
    }
    /// Replaces the text of an entry (every reference to it sees the new text).
    pub fn set(&mut self, r: StringRef, s: impl Into<GmString>) -> Option<()> {
        *self.entries.get_mut(r.index())? = s.into();
        Some(())
    }
    /// The first entry with this text.
    pub fn find(&self, s: &str) -> Option<StringRef> {
        self.entries.iter().position(|e| e == s).map(|i| StringRef(i as u32))
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Chunk for Strings {
    const NAME: ChunkName = ChunkName(*b"STRG");
    const PHASE: u8 = 0;

    fn read(r: &mut Reader) -> Result<Self> {
        let ptrs = r.pointer_list("string")?;
        let aligned = ptrs.iter().all(|p| p % 4 == 0);
        let mut entries = Vec::with_capacity(ptrs.len());
        let mut addrs = Vec::with_capacity(ptrs.len());
        for (i, &p) in ptrs.iter().enumerate() {
            let prev = r.set_element("string", i);
            if aligned {
                r.align(4)?;
            }
            r.expect_element_at(p, "string entry pointer")?;
            let at = r.pos();
            let len = r.u32()? as usize;
            let bytes = r.bytes(len, "string bytes")?;
            let term = r.u8()?;
            if term != 0 {
                return Err(r.error_at(
                    at + 4 + len,
                    crate::error::invalid("string terminator", "a zero byte", term),
                ));
            }
            entries.push(GmString(bytes));
            addrs.push(p + 4);
            r.restore_element(prev);
        }
        r.publish(Target::String, &addrs);
        // GameMaker pads the table to 128 bytes; files where that padding does not fit keep none.
        let end_align = if r.pos().next_multiple_of(128) <= r.chunk_end() && r.is_zero_padding(128) {
            128
        } else {
            1
        };
        r.align(end_align)?;
        Ok(Strings {
            entries,
            aligned,
            end_align,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let slots = w.pointer_slots(self.entries.len());
        w.reserve_targets(Target::String, self.entries.len());
        for (i, s) in self.entries.iter().enumerate() {
            if self.aligned {
                w.align(4);
            }
            w.fill_slot(slots, i);
            w.define_at(Target::String, i as u32, w.pos32() + 4);
            let len = u32::try_from(s.len()).map_err(|_| w.unwritable("string", "longer than 4 GiB"))?;
            w.u32(len);
            w.bytes(s.as_bytes());
            w.u8(0);
        }
        w.align(self.end_align);
        Ok(())
    }
}

/// No layout checks depend on the string table.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
