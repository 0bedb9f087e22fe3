//! `STRG`: the string table every other chunk refers to.
//!
//! Layout: a pointer list of entries; each entry is a `u32` byte length, the bytes, and a zero
//! byte; entries are 4-aligned in files where every entry pointer is a multiple of 4; the body
//! ends aligned (128 bytes in every known file). References point to an entry's first character.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::{Reader, Target};
use crate::refs::StringRef;
use crate::string::{GmStr, GmString};
use bytes::Bytes;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The string table.
///
/// Entries read from a file stay views of the input (8 bytes of bookkeeping each); edited and
/// added entries are owned.
///
/// ```
/// use gmkit_data::chunks::string_table::Strings;
/// let mut s = Strings::default();
/// let r = s.push("hello");
/// assert_eq!(s.get(r).unwrap(), "hello");
/// ```
#[derive(Clone)]
pub struct Strings {
    /// The STRG body as read (entries point into it).
    source: Bytes,
    /// Where each entry's bytes are.
    spans: Vec<Span>,
    /// Entries edited or added since reading (`Span::owned` indexes here).
    owned: Vec<GmString>,
    /// Whether each entry starts on a 4-byte boundary.
    pub aligned: bool,
    /// Alignment of the end of the chunk content.
    pub end_align: usize,
}

/// An entry: `len` bytes at `start` of the source, or (top bit of `start` set) an owned string.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u32,
    len: u32,
}

const OWNED: u32 = 1 << 31;

impl Default for Strings {
    fn default() -> Self {
        Strings {
            source: Bytes::new(),
            spans: Vec::new(),
            owned: Vec::new(),
            aligned: true,
            end_align: 128,
        }
    }
}

impl Strings {
    fn text(&self, span: Span) -> &GmStr {
        if span.start & OWNED != 0 {
            return &self.owned[(span.start & !OWNED) as usize];
        }
        let (s, e) = (span.start as usize, (span.start + span.len) as usize);
        GmStr::new(&self.source[s..e])
    }
    fn own(&mut self, s: GmString) -> Span {
        self.owned.push(s);
        Span {
            start: OWNED | (self.owned.len() - 1) as u32,
            len: 0,
        }
    }
    /// The string an entry reference points to.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// let strings = data.strings.as_ref().unwrap();
    /// let r = strings.find("gmkit sample").unwrap();
    /// assert_eq!(strings.get(r).unwrap(), "gmkit sample");
    /// assert!(strings.get(gmkit_data::StringRef(u32::MAX)).is_none());
    /// ```
    pub fn get(&self, r: StringRef) -> Option<&GmStr> {
        self.spans.get(r.index()).map(|&s| self.text(s))
    }
    /// Appends a new entry and returns its reference.
    ///
    /// ```
    /// let mut data = gmkit_data::sample();
    /// let strings = data.strings.as_mut().unwrap();
    /// let r = strings.push("Hola");
    /// assert_eq!(strings.get(r).unwrap(), "Hola");
    /// assert_eq!(r.index(), strings.len() - 1);
    /// ```
    pub fn push(&mut self, s: impl Into<GmString>) -> StringRef {
        let span = self.own(s.into());
        self.spans.push(span);
        StringRef((self.spans.len() - 1) as u32)
    }
    /// Replaces the text of an entry: **every** field and instruction that refers to the entry
    /// sees the new text. Entries are shared: GameMaker writes each distinct text once, so an
    /// asset's name may be the same entry as a code string or another field (in some games
    /// GEN8's display name is the entry of its `name` and `file_name`, which decide the save
    /// directory). To change one field, point it at an entry of its own instead
    /// ([`crate::DataFile::intern`], or [`crate::DataFile::set_name`] for an asset's name).
    ///
    /// ```
    /// let mut data = gmkit_data::sample();
    /// let g = data.general.as_mut().unwrap();
    /// g.display_name = g.name; // one entry, two fields
    /// let entry = g.name;
    /// data.strings.as_mut().unwrap().set(entry, "Renamed");
    /// let g = data.general.as_ref().unwrap();
    /// assert_eq!(data.string(g.name).unwrap(), "Renamed");
    /// assert_eq!(data.string(g.display_name).unwrap(), "Renamed");
    /// ```
    pub fn set(&mut self, r: StringRef, s: impl Into<GmString>) -> Option<()> {
        let old = *self.spans.get(r.index())?;
        let s = s.into();
        let span = if old.start & OWNED != 0 {
            self.owned[(old.start & !OWNED) as usize] = s;
            old
        } else {
            self.own(s)
        };
        self.spans[r.index()] = span;
        Some(())
    }
    /// The first entry with this text.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// let strings = data.strings.as_ref().unwrap();
    /// let r = strings.find("gmkit sample").unwrap();
    /// assert_eq!(strings.get(r).unwrap(), "gmkit sample");
    /// assert_eq!(strings.find("no such text"), None);
    /// ```
    pub fn find(&self, s: &str) -> Option<StringRef> {
        self.iter().position(|e| e == s).map(|i| StringRef(i as u32))
    }
    /// The entries in order.
    ///
    /// ```
    /// let data = gmkit_data::sample();
    /// let strings = data.strings.as_ref().unwrap();
    /// assert_eq!(strings.iter().count(), strings.len());
    /// assert!(strings.iter().any(|s| s == "gmkit sample"));
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &GmStr> + '_ {
        self.spans.iter().map(|&s| self.text(s))
    }
    /// Removes the entries from `len` on (references to them become invalid).
    pub fn truncate(&mut self, len: usize) {
        self.spans.truncate(len);
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.spans.len()
    }
    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

/// Equal when the entries have the same text in the same order (however they are stored).
impl PartialEq for Strings {
    fn eq(&self, o: &Self) -> bool {
        self.aligned == o.aligned
            && self.end_align == o.end_align
            && self.len() == o.len()
            && self.iter().zip(o.iter()).all(|(a, b)| a == b)
    }
}

impl std::fmt::Debug for Strings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Strings")
            .field("entries", &self.iter().collect::<Vec<_>>())
            .field("aligned", &self.aligned)
            .field("end_align", &self.end_align)
            .finish()
    }
}

/// The entry whose pointer is `p`, when it is well-formed at `at`: zero padding to 4 bytes
/// when `aligned`, then (at `p`) a `u32` length, the bytes and a zero byte, all inside `body`.
/// Returns where the bytes start and their length.
#[inline]
fn entry_at(body: &[u8], at: usize, p: usize, aligned: bool) -> Option<(usize, usize)> {
    let q = if aligned { at.next_multiple_of(4) } else { at };
    if p != q || !body.get(at..q)?.iter().all(|&b| b == 0) {
        return None;
    }
    let len = u32::from_le_bytes(*body.get(q..)?.first_chunk::<4>()?) as usize;
    let start = q + 4;
    (*body.get(start.checked_add(len)?)? == 0).then_some((start, len))
}

impl Chunk for Strings {
    const NAME: ChunkName = ChunkName(*b"STRG");
    const PHASE: u8 = 0;

    fn read(r: &mut Reader) -> Result<Self> {
        let base = r.chunk_start();
        let source = r.slice(base, r.chunk_end())?;
        let ptrs = r.pointers("string")?;
        let aligned = ptrs.clone().all(|p| p % 4 == 0);
        let mut spans = Vec::with_capacity(ptrs.len());
        let mut addrs = Vec::with_capacity(ptrs.len());
        // Well-formed entries are checked in one pass over the bytes; the first entry that is
        // not (and every one after it) goes through the reader below, which reports exactly
        // what is wrong and where.
        let first = r.pos();
        let body = r.file().get(..r.chunk_end()).unwrap_or(&[]);
        let mut at = first;
        for p in ptrs.clone() {
            let Some((start, len)) = entry_at(body, at, p as usize, aligned) else {
                break;
            };
            spans.push(Span {
                start: (start - base) as u32,
                len: len as u32,
            });
            addrs.push(p + 4);
            at = start + len + 1;
        }
        r.bytes_ref(at - first, "string entries")?;
        for (i, p) in ptrs.enumerate().skip(spans.len()) {
            let prev = r.set_element("string", i);
            if aligned {
                r.align(4)?;
            }
            r.expect_element_at(p, "string entry pointer")?;
            let at = r.pos();
            let len = r.u32()? as usize;
            let start = r.pos();
            r.bytes_ref(len, "string bytes")?;
            let term = r.u8()?;
            if term != 0 {
                return Err(r.error_at(
                    at + 4 + len,
                    crate::error::invalid("string terminator", "a zero byte", term),
                ));
            }
            spans.push(Span {
                start: (start - base) as u32,
                len: len as u32,
            });
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
            source,
            spans,
            owned: Vec::new(),
            aligned,
            end_align,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let slots = w.pointer_slots(self.len());
        w.reserve_targets(Target::String, self.len());
        for (i, s) in self.iter().enumerate() {
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
