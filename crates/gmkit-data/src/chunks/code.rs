//! `CODE`: bytecode, decoded into [`Instruction`]s.
//!
//! Layout (§5.1 of the format notes):
//! - bc ≤ 14: pointer list of entries; entry = name, `u32` byte length, instructions inline.
//! - bc ≥ 15: pointer list; all instruction blobs (one per root entry, in entry order); then the
//!   entry headers (20 bytes each): name, `u32` byte length, `u16` locals count, `u16` arguments
//!   count (bit 15 a flag), `i32` offset from this field's own position to the blob, `u32`
//!   execution offset into the blob. From 2.3 several entries share one blob: a *child* entry
//!   points at an earlier root's blob (same length) and only the root stores instructions. Empty
//!   entries (length 0) point at the blob position reached so far.
//! - YYC games: the chunk is empty (bc ≤ 16) or absent (bc 17).
//!
//! Variable and function operands are bound to VARI/FUNC entries while reading, by walking the
//! occurrence chains that start at each entry's first-occurrence address (the VARI and FUNC
//! tables are read directly from the file, so the reading order of the three chunks does not
//! matter). Each root entry keeps its blob as stored ([`EncodedBlob`]: the bytes plus the
//! positions of its occurrences), validated while parsing and decoded on demand
//! ([`CodeEntries::instructions`], [`CodeEntries::instructions_mut`]).
//!
//! When writing, chains are linked on the fly: `WriteState` keeps, per VARI/FUNC entry, its
//! first and last occurrence written so far; each new occurrence patches the previous one with
//! the distance, and VARI and FUNC (written after CODE) patch each last occurrence with the
//! name and write the counts and first addresses.

pub mod asm;
pub(crate) mod chains;
mod check;
pub mod instruction;
pub mod opcode;

pub use instruction::{
    Disassembly, ExtOperand, FunctionId, Instruction, PushValue, VariableId, VariableRef,
};
pub use chains::ReadChains;
pub use opcode::{Comparison, DataType, ExtendedKind, InstanceType, Opcode, RefType};

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::{function, variable};
use crate::error::{ErrorKind, Result, invalid};
use crate::read::{Reader, Target};
use crate::refs::StringRef;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;
use bytes::Bytes;
use instruction::{LinkList, Links, StoredLinks};
use std::borrow::Cow;

/// Whether the file uses the bc ≥ 15 bytecode family (new opcodes, separate blobs).
#[inline]
pub(crate) fn new_bytecode(v: &Version) -> bool {
    v.bytecode >= 15
}

/// Whether function first-occurrence addresses point at the operand (instruction + 4): 2.3+.
#[inline]
pub(crate) fn function_first_is_operand(v: &Version) -> bool {
    v.at_least(2, 3)
}

/// The asset-type number of scripts in `pushref` operands (§5.6: renumbered in 2024.4).
#[inline]
fn script_asset_type(v: &Version) -> u8 {
    if v.at_least(2024, 4) { 5 } else { 6 }
}

/// Size of a bc ≥ 15 entry header.
const HEADER_SIZE: usize = 20;

/// What a code entry executes.
#[derive(Clone, Debug)]
pub enum CodeBody {
    /// A root entry whose instructions have been decoded (for editing: see
    /// [`CodeEntries::instructions_mut`]).
    Instructions(Vec<Instruction>),
    /// A root entry as read: its blob as stored, decoded on demand
    /// ([`CodeEntries::instructions`]) and written back by copying it and relinking its
    /// occurrences.
    Encoded(Box<EncodedBlob>),
    /// A child entry (2.3+): shares the blob of the root entry `parent` (an index into
    /// [`CodeEntries::entries`]) and starts at its execution offset.
    Shared {
        /// Index of the root entry.
        parent: u32,
    },
}

impl CodeBody {
    /// Whether this is a root entry (it owns a blob, possibly empty).
    pub fn is_root(&self) -> bool {
        !matches!(self, CodeBody::Shared { .. })
    }

    /// The instructions of a root entry (decoded on the fly when encoded); `None` for a child.
    pub fn instructions(&self) -> Option<Result<Cow<'_, [Instruction]>>> {
        match self {
            CodeBody::Instructions(v) => Some(Ok(Cow::Borrowed(v))),
            CodeBody::Encoded(b) => Some(b.decode().map(Cow::Owned)),
            CodeBody::Shared { .. } => None,
        }
    }
}

/// Two bodies are equal when they are the same child, or roots with the same instructions
/// (encoded blobs whose occurrence links differ only in chain distances compare equal).
impl PartialEq for CodeBody {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (CodeBody::Shared { parent: a }, CodeBody::Shared { parent: b }) => a == b,
            (CodeBody::Encoded(a), CodeBody::Encoded(b)) if a == b => true,
            (CodeBody::Instructions(a), CodeBody::Instructions(b)) => a == b,
            (a, b) => match (a.instructions(), b.instructions()) {
                (Some(Ok(x)), Some(Ok(y))) => x == y,
                _ => false,
            },
        }
    }
}

/// The instruction blob of a root entry as stored in the file: the bytes (a zero-copy view of
/// the input) and the sorted positions of its variable/function occurrences. The occurrence
/// operands in the bytes are links of the file they were read from; they are ignored when
/// decoding and rewritten when writing.
#[derive(Clone, Debug)]
pub struct EncodedBlob {
    bytes: Bytes,
    links: LinkList,
    new: bool,
    script_asset_type: u8,
}

impl PartialEq for EncodedBlob {
    /// Same bytes and same occurrences (a stricter test than same instructions).
    fn eq(&self, other: &Self) -> bool {
        self.new == other.new
            && self.script_asset_type == other.script_asset_type
            && self.links == other.links
            && self.bytes == other.bytes
    }
}

impl EncodedBlob {
    /// The stored bytes (occurrence operands as in the file read).
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// Size of the blob in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the blob is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Number of variable and function occurrences in the blob.
    pub fn occurrences(&self) -> usize {
        self.links.len()
    }

    /// Decodes the instructions (error offsets are relative to the blob).
    pub fn decode(&self) -> Result<Vec<Instruction>> {
        let mut out = Vec::new();
        self.decode_into(&mut out)?;
        Ok(out)
    }

    /// Decodes the instructions into `out` (cleared first; capacity for the largest possible
    /// count reserved, so it never grows while decoding).
    fn decode_into(&self, out: &mut Vec<Instruction>) -> Result<()> {
        out.clear();
        out.reserve(self.bytes.len() / 4);
        let mut links = StoredLinks::new(&self.links, self.script_asset_type);
        instruction::decode(&self.bytes, 0, self.new, &mut links, out)
            .map_err(|(at, kind)| crate::error::Error::at(at, kind).in_chunk(CodeEntries::NAME))?;
        Ok(())
    }
}

/// One code entry (a script, event, or function body).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CodeEntry {
    /// Entry name (`gml_Object_obj_player_Step_0`, ...).
    pub name: StringRef,
    /// The instructions, or the root whose blob this entry shares.
    pub body: CodeBody,
    /// Number of locals (bc ≥ 15; 0 and not stored before).
    pub locals_count: u16,
    /// Number of arguments, low 15 bits (bc ≥ 15; 0 and not stored before).
    pub arguments_count: u16,
    /// Bit 15 of the arguments field (bc ≥ 15; kept as read).
    pub arguments_flag: bool,
    /// Byte offset into the blob where execution starts (bc ≥ 15; 0 for roots in practice).
    pub execution_offset: u32,
}

/// The `CODE` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CodeEntries {
    /// The entries, in file order.
    pub entries: Vec<CodeEntry>,
    /// The chunk body is empty (YYC-compiled game before bc 17: no bytecode at all).
    pub empty_body: bool,
}

impl CodeEntries {
    /// The instructions `entry` executes: a root's own instructions, or for a child the shared
    /// blob from its execution offset on; encoded blobs are decoded on the fly. Fails for an
    /// unknown entry, like [`CodeEntries::instructions_mut`]; empty for a child whose parent or
    /// offset is bad (which [`crate::DataFile::validate`] reports).
    ///
    /// ```
    /// use gmkit_data::chunks::code::asm::Assembler;
    /// use gmkit_data::code_entry::EntryTarget;
    /// let mut data = gmkit_data::sample();
    /// data.code.get_or_insert_with(Default::default); // the sample has no code yet
    /// data.scripts.get_or_insert_with(Default::default);
    /// let new = data.add_code_entry(&EntryTarget::Script { name: "scr_hello".into() })?;
    /// let text = "push.i 1\npopz.i\n";
    /// let code = Assembler::new(&mut data).assemble(text).unwrap().instructions;
    /// *data.code.as_mut().unwrap().instructions_mut(new.entry)? = code;
    /// let code = data.code.as_ref().unwrap();
    /// let name = data.strings.as_ref().unwrap().find(&new.name).unwrap();
    /// assert_eq!(code.find(name), Some(new.entry));
    /// assert_eq!(code.instructions(new.entry)?.len(), 2);
    /// assert!(code.instructions(9999).is_err());
    /// # Ok::<(), gmkit_data::Error>(())
    /// ```
    pub fn instructions(&self, entry: usize) -> Result<Cow<'_, [Instruction]>> {
        let Some(e) = self.entries.get(entry) else {
            return Err(no_entry(entry, self.entries.len()));
        };
        let root = match &e.body {
            CodeBody::Shared { parent } => match self.entries.get(*parent as usize) {
                Some(p) if p.body.is_root() => &p.body,
                _ => return Ok(Cow::Borrowed(&[])),
            },
            body => body,
        };
        let Some(all) = root.instructions() else {
            return Ok(Cow::Borrowed(&[]));
        };
        let all = all?;
        let mut off = 0usize;
        let mut skip = None;
        for (i, ins) in all.iter().enumerate() {
            if off >= e.execution_offset as usize {
                skip = Some(i);
                break;
            }
            off += ins.size();
        }
        Ok(match (skip, all) {
            (None, _) => Cow::Borrowed(&[]),
            (Some(0), all) => all,
            (Some(i), Cow::Borrowed(v)) => Cow::Borrowed(&v[i..]),
            (Some(i), Cow::Owned(mut v)) => {
                v.drain(..i);
                Cow::Owned(v)
            }
        })
    }

    /// The instructions of root entry `entry`, for editing: an encoded blob is decoded once and
    /// the entry switches to [`CodeBody::Instructions`] (it is then re-encoded when written).
    /// Fails for an unknown entry or a child entry (edit its parent).
    pub fn instructions_mut(&mut self, entry: usize) -> Result<&mut Vec<Instruction>> {
        let n = self.entries.len();
        let Some(e) = self.entries.get_mut(entry) else {
            return Err(no_entry(entry, n));
        };
        if let CodeBody::Encoded(b) = &e.body {
            let mut v = Vec::new();
            b.decode_into(&mut v)?;
            v.shrink_to_fit();
            e.body = CodeBody::Instructions(v);
        }
        match &mut e.body {
            CodeBody::Instructions(v) => Ok(v),
            _ => Err(crate::error::Error::at(
                0,
                invalid(
                    "code entry",
                    "a root entry (children share their parent's instructions)",
                    format!("child entry #{entry}"),
                ),
            )),
        }
    }

    /// Decodes every encoded entry (all roots become [`CodeBody::Instructions`]).
    pub fn decode_all(&mut self) -> Result<()> {
        for i in 0..self.entries.len() {
            if let CodeBody::Encoded(_) = self.entries[i].body {
                self.instructions_mut(i)?;
            }
        }
        Ok(())
    }

    /// Index of the entry named `name` (a STRG reference).
    pub fn find(&self, name: StringRef) -> Option<usize> {
        self.entries.iter().position(|e| e.name == name)
    }
}

/// The error for code entry `entry` of a chunk of `n` entries that has no such entry.
fn no_entry(entry: usize, n: usize) -> crate::error::Error {
    crate::error::Error::at(
        0,
        invalid("code entry", format!("an entry index below {n}"), entry),
    )
    .in_chunk(CodeEntries::NAME)
}

/// The slot table of the fast reading (one `u32` a CODE word, all `u32::MAX` when unused),
/// kept between parses on the same thread instead of being allocated and filled each time.
///
/// A table is given back only after a fast reading bound every occurrence listed: each slot
/// it marked was then taken by an occurrence (a chain has one pending slot at a time and
/// reached its count), and the scan resets each slot it takes, so the table is all
/// `u32::MAX` again. Anything else (the exact reading, an error) drops its table.
mod spare_slots {
    use std::cell::Cell;

    /// Largest table kept (words of CODE: 1 MiB, more than any corpus file needs).
    const MAX_KEPT: usize = 1 << 18;

    thread_local! {
        static SPARE: Cell<Vec<u32>> = const { Cell::new(Vec::new()) };
    }

    /// A table of `words` unused slots (a kept one when `reuse`).
    pub(super) fn take(words: usize, reuse: bool) -> Vec<u32> {
        let mut v = if reuse { SPARE.take() } else { Vec::new() };
        v.truncate(words);
        v.resize(words, u32::MAX);
        v
    }

    /// Keeps a table whose slots are all unused again.
    pub(super) fn give_back(v: Vec<u32>) {
        // The unit tests (every corpus file, mutated CODE/VARI/FUNC) check the claim.
        #[cfg(test)]
        assert!(v.iter().all(|&s| s == u32::MAX), "a slot table given back dirty");
        if v.capacity() <= MAX_KEPT {
            SPARE.set(v);
        }
    }
}

/// Builds the occurrence-chain bindings from the VARI and FUNC tables.
struct Bindings {
    slots: Vec<u32>,
    var_names: Vec<u32>,
    func_names: Vec<u32>,
    total: usize,
    /// Forward binding, per variable (`[0]`) and per function (`[1]`): occurrences left, and
    /// the word index (from the CODE body) of the last one, filled in by the scan (see
    /// [`instruction::Links::left`]).
    left: [Vec<[u32; 2]>; 2],
    /// Forward binding: the VARI and FUNC occurrence tables (kept for `chains`).
    tables: [variable::OccurrenceTable; 2],
}

/// The STRG pointer list as stored, when the string addresses published by STRG are exactly
/// its pointers + 4 in increasing order (what reading STRG checks): then STRG index `i` is the
/// name at address `a` exactly when entry `i` of this list is `a - 4`, one load instead of a
/// search. `None` otherwise (the fast reading then gives way to the exact one).
fn strg_addresses<'a>(r: &Reader<'a>) -> Option<&'a [u8]> {
    let file = r.file();
    let (start, _) = r.ctx.chunk_range(b"STRG")?;
    let n = u32::from_le_bytes(file.get(start..start + 4)?.try_into().ok()?) as usize;
    if n != r.ctx.targets[Target::String as usize].len() {
        return None;
    }
    let list = file.get(start + 4..start.checked_add(4 + n.checked_mul(4)?)?)?;
    let mut prev = None;
    for c in list.chunks_exact(4) {
        let a = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        if prev.is_some_and(|p| p >= a) {
            return None;
        }
        prev = Some(a);
    }
    let at = |i: usize| list.get(4 * i..4 * i + 4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let published = n == 0
        || (r.resolve(Target::String, at(0)?.wrapping_add(4)) == Some(0)
            && r.resolve(Target::String, at(n - 1)?.wrapping_add(4)) == Some(n as u32 - 1));
    published.then_some(list)
}

/// Binds the occurrence chains of VARI and FUNC to CODE words.
///
/// Exact (`forward` false): every chain is walked here, each occurrence's slot marked (with
/// whether it is the last), and the names of function chains ending on a global script are
/// taken from the chain's end. Forward: the names of entries with occurrences are kept as the
/// STRG pointers stored (the scan checks them at each chain's end), and only each chain's
/// first occurrence is marked, with the count of occurrences left; the scan of the blobs ([`check::scan`]) follows each chain
/// forward as it reaches its occurrences in address order, which reads CODE once in order
/// instead of hopping along every chain.
fn bind_chains(r: &Reader, forward: bool) -> Result<Bindings> {
    let v = *r.version();
    let (start, end) = (r.chunk_start(), r.chunk_end());
    let words = (end - start) / 4 + 1;
    let mut b = Bindings {
        slots: spare_slots::take(words, forward),
        var_names: Vec::new(),
        func_names: Vec::new(),
        total: 0,
        left: Default::default(),
        tables: Default::default(),
    };
    let tables: [(bool, Option<variable::OccurrenceTable>); 2] = [
        (
            false,
            match r.ctx.chunk_range(b"VARI") {
                Some(range) => variable::occurrence_table(r.file(), range, &v),
                None => Some(Vec::new()),
            },
        ),
        (
            true,
            match r.ctx.chunk_range(b"FUNC") {
                Some(range) => function::occurrence_table(r.file(), range, &v),
                None => Some(Vec::new()),
            },
        ),
    ];
    for (is_func, table) in tables {
        let what = if is_func { "FUNC" } else { "VARI" };
        let table = table.ok_or_else(|| {
            r.error_at(
                start,
                invalid(
                    "occurrence table",
                    format!("a readable {what} chunk"),
                    "a truncated or malformed one",
                ),
            )
        })?;
        let names = if is_func {
            &mut b.func_names
        } else {
            &mut b.var_names
        };
        names.reserve(table.len());
        if forward {
            b.left[is_func as usize] = table.iter().map(|t| [t.1, 0]).collect();
        }
        for (idx, &(name_ptr, count, first)) in table.iter().enumerate() {
            let kind = if is_func { "function" } else { "variable" };
            // Forward binding: the scan checks each chain's last operand against the pointer
            // itself (see `Links::strg_addrs`); a name no chain checks is resolved here.
            let resolved = if forward && count > 0 {
                Some(name_ptr)
            } else {
                r.resolve(Target::String, name_ptr)
            };
            let name = resolved.ok_or_else(|| {
                r.error_at(
                    start,
                    ErrorKind::BadReference {
                        what: "VARI/FUNC entry name",
                        expected: "a STRG entry",
                        found: format!("0x{name_ptr:X} ({kind} #{idx})"),
                    },
                )
            })?;
            names.push(name);
            if count == 0 {
                continue;
            }
            let mut addr = first as i64;
            if is_func && function_first_is_operand(&v) {
                addr -= 4;
            }
            for k in 0..if forward { 1 } else { count } {
                let off = addr - start as i64;
                let slot = (off >= 0 && off % 4 == 0)
                    .then(|| b.slots.get_mut((off / 4) as usize))
                    .flatten()
                    .filter(|s| **s == u32::MAX && (off as usize) + 8 <= end - start);
                let Some(slot) = slot else {
                    return Err(r.error_at(
                        start,
                        ErrorKind::BadReference {
                            what: "occurrence chain",
                            expected: "an unshared instruction address inside CODE",
                            found: format!("0x{addr:X} (occurrence {k} of {kind} #{idx})"),
                        },
                    ));
                };
                let last = k + 1 == count && !forward;
                *slot = (idx as u32) << 2 | (is_func as u32) << 1 | last as u32;
                if !last && !forward {
                    let at = addr as usize + 4;
                    let operand = r
                        .file()
                        .get(at..at + 4)
                        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
                        .unwrap_or(0);
                    let dist = operand & 0x07FF_FFFF;
                    if dist == 0 {
                        return Err(r.error_at(
                            at,
                            invalid("occurrence link", "a positive distance", "0"),
                        ));
                    }
                    addr += dist as i64;
                }
            }
            if is_func && !forward {
                // 2024.13+: a script passed by value ends its chain on the name of its global
                // script (`gml_GlobalScript_<name>`) instead of the function's own name.
                if let Some(e) = chain_end_value(r.file(), addr as usize, new_bytecode(&v))
                    .filter(|&e| e != name && is_global_script_name(r, e))
                {
                    names[idx] = e;
                }
            }
            b.total += count as usize;
        }
        if forward {
            b.tables[is_func as usize] = table;
        }
    }
    Ok(b)
}

/// The name a function chain's last occurrence (its instruction at `addr`) holds: the operand,
/// without the asset-type byte of a `pushref`.
pub(crate) fn chain_end_value(file: &[u8], addr: usize, new: bool) -> Option<u32> {
    let word = |p: usize| Some(u32::from_le_bytes(file.get(p..p.checked_add(4)?)?.try_into().ok()?));
    let (w, operand) = (word(addr)?, word(addr.checked_add(4)?)?);
    Some(if new && (w >> 24) as u8 == Opcode::Extended.new_code() {
        operand & 0xFF_FFFF
    } else {
        operand
    })
}

/// Follows a function occurrence chain in the file alone: the address of the last occurrence's
/// instruction, from the first one's (`None` when a link leaves CODE or is not positive).
pub(crate) fn chain_last(file: &[u8], (start, end): (usize, usize), first: i64, count: u32) -> Option<usize> {
    // Occurrences are 8-byte instructions: a longer chain cannot fit.
    if count == 0 || count as usize > (end - start) / 8 {
        return None;
    }
    let inside = |a: i64| a >= start as i64 && a + 8 <= end as i64;
    let mut addr = first;
    for _ in 1..count {
        if !inside(addr) {
            return None;
        }
        let at = addr as usize + 4;
        let dist = u32::from_le_bytes(file.get(at..at + 4)?.try_into().ok()?) & 0x07FF_FFFF;
        if dist == 0 {
            return None;
        }
        addr += dist as i64;
    }
    inside(addr).then_some(addr as usize)
}

/// Whether STRG entry `index` is the name of a global script (`gml_GlobalScript_...`).
fn is_global_script_name(r: &Reader, index: u32) -> bool {
    is_global_script_name_in(r.file(), r.ctx.chunk_range(b"STRG"), index)
}

/// [`is_global_script_name`] given the file and the STRG body range.
pub(crate) fn is_global_script_name_in(file: &[u8], strg: Option<(usize, usize)>, index: u32) -> bool {
    let word = |p: usize| Some(u32::from_le_bytes(file.get(p..p.checked_add(4)?)?.try_into().ok()?));
    let Some((start, _)) = strg else {
        return false;
    };
    (|| {
        if index >= word(start)? {
            return None;
        }
        let p = word(start + 4 + 4 * index as usize)? as usize;
        let len = word(p)? as usize;
        Some(file.get(p + 4..(p + 4).checked_add(len)?)?.starts_with(b"gml_GlobalScript_"))
    })()
    .unwrap_or(false)
}

/// Reads and validates one blob, keeping it encoded: with forward binding by one scan over its
/// words ([`check::scan`]; `Err` without detail when it finds anything wrong, and the caller
/// reads the chunk again exactly), else by decoding every instruction (precise errors). The
/// blob's occurrence list is left in `links.found`: `pending` records where, for
/// [`CodeEntries::share_links`] (`entry` is the index the body gets).
fn decode_blob(
    r: &mut Reader,
    len: usize,
    new: bool,
    links: &mut Links,
    bound: &mut usize,
    (entry, pending): (usize, &mut Vec<(usize, std::ops::Range<usize>)>),
) -> Result<CodeBody> {
    let base = r.pos();
    let bytes = r.bytes(len, "instructions")?;
    links.found.clear();
    links.blob_base = base;
    if links.forward {
        match check::scan(&bytes, base, new, links) {
            Some(n) => *bound += n,
            None => return Err(r.error_at(base, invalid("instructions", "valid", "not"))),
        }
    } else {
        match instruction::decode(&bytes, base, new, links, &mut instruction::Discard) {
            Ok(n) => *bound += n,
            Err((at, kind)) => return Err(r.error_at(at, kind)),
        }
    }
    let range = links.found.finish();
    if !range.is_empty() {
        pending.push((entry, range));
    }
    Ok(CodeBody::Encoded(Box::new(EncodedBlob {
        bytes,
        links: LinkList::default(),
        new,
        script_asset_type: links.script_asset_type,
    })))
}

impl Chunk for CodeEntries {
    const NAME: ChunkName = ChunkName(*b"CODE");
    // Reads the VARI/FUNC tables from the file itself, so any phase ≥ 1 (after STRG) works.
    const PHASE: u8 = 2;

    fn read(r: &mut Reader) -> Result<Self> {
        if r.remaining() == 0 {
            return Ok(CodeEntries {
                entries: Vec::new(),
                empty_body: true,
            });
        }
        #[cfg(test)]
        if check::EXACT_ONLY.get() {
            return Self::read_entries(r, false);
        }
        // Fast first; anything wrong is read again exactly, for the precise error.
        let (pos, element) = (r.pos(), r.element());
        Self::read_entries(r, true).or_else(|_| {
            r.seek(pos)?;
            r.restore_element(element);
            Self::read_entries(r, false)
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        self.write_chunk(w)
    }
}

impl CodeEntries {
    /// Gives each blob read its occurrence list: a slice of the one buffer they were built in
    /// (one allocation for the chunk, not one per blob).
    fn share_links(
        entries: &mut [CodeEntry],
        found: instruction::LinkListBuilder,
        pending: Vec<(usize, std::ops::Range<usize>)>,
    ) {
        let shared = found.share();
        for (i, range) in pending {
            if let Some(CodeEntry {
                body: CodeBody::Encoded(b),
                ..
            }) = entries.get_mut(i)
            {
                b.links = LinkList::in_shared(&shared, range);
            }
        }
    }

    /// Reads the entries, binding the occurrence chains forward (fast) or exactly (see
    /// [`bind_chains`]).
    fn read_entries(r: &mut Reader, forward: bool) -> Result<Self> {
        let v = *r.version();
        let new = new_bytecode(&v);
        let ptrs = r.pointer_list("code entry")?;
        let strg_addrs = if forward {
            strg_addresses(r).ok_or_else(|| r.invalid("STRG", "a string table in order", "another"))?
        } else {
            &[]
        };
        let mut b = bind_chains(r, forward)?;
        let [var_left, func_left] = &mut b.left;
        let mut links = Links {
            code_start: r.chunk_start(),
            code_len: r.chunk_end() - r.chunk_start(),
            slots: &mut b.slots,
            var_names: &b.var_names,
            func_names: &b.func_names,
            strings: r.ctx.targets[Target::String as usize].len(),
            script_asset_type: script_asset_type(&v),
            blob_base: 0,
            // Every occurrence listed is an instruction of at least 8 bytes of CODE (a count
            // beyond that is refused after the scan).
            found: instruction::LinkListBuilder::with_capacity(b.total.min((r.chunk_end() - r.chunk_start()) / 8)),
            forward,
            left: [var_left, func_left],
            file: r.file(),
            strg: r.ctx.chunk_range(b"STRG"),
            strg_addrs,
            function_ends: if forward { vec![u32::MAX; b.func_names.len()] } else { Vec::new() },
            features: 0,
        };
        let mut bound = 0usize;
        // Where the first root blob starts (see `chains`).
        let mut region = None;
        let mut entries = Vec::with_capacity(ptrs.len());
        let mut pending = Vec::new();
        if new {
            // Headers first (they follow the blobs).
            let mut headers = Vec::with_capacity(ptrs.len());
            for (i, &p) in ptrs.iter().enumerate() {
                let prev = r.set_element("code entry", i);
                r.seek(p as usize)?;
                let name = r.string()?;
                let len = r.u32()? as usize;
                let locals = r.u16()?;
                let args = r.u16()?;
                let field = r.pos() as i64;
                let rel = r.i32()? as i64;
                let exec = r.u32()?;
                headers.push((name, len, locals, args, field + rel, exec));
                r.restore_element(prev);
            }
            let mut cursor = r.chunk_start() + 4 + 4 * ptrs.len();
            // (blob address, length, entry index) of every non-empty root, ascending.
            let mut roots: Vec<(usize, usize, u32)> = Vec::new();
            for (i, &(name, len, locals, args, blob, exec)) in headers.iter().enumerate() {
                let prev = r.set_element("code entry", i);
                let body = if len == 0 || blob == cursor as i64 {
                    if blob != cursor as i64 {
                        return Err(r.invalid(
                            "empty code entry blob address",
                            format!("the blob position reached so far ({cursor})"),
                            blob,
                        ));
                    }
                    r.seek(cursor)?;
                    region.get_or_insert(cursor);
                    let body = decode_blob(r, len, new, &mut links, &mut bound, (entries.len(), &mut pending))?;
                    cursor += len;
                    if len > 0 {
                        roots.push((blob as usize, len, i as u32));
                    }
                    body
                } else {
                    let root = roots
                        .binary_search_by_key(&blob, |x| x.0 as i64)
                        .ok()
                        .map(|k| roots[k]);
                    match root {
                        Some((_, rlen, parent)) if rlen == len => CodeBody::Shared { parent },
                        _ => {
                            return Err(r.invalid(
                                "code entry blob address",
                                "the next blob position or the blob of an earlier root entry of the same length",
                                format!("{blob} (length {len})"),
                            ));
                        }
                    }
                };
                entries.push(CodeEntry {
                    name,
                    body,
                    locals_count: locals,
                    arguments_count: args & 0x7FFF,
                    arguments_flag: args & 0x8000 != 0,
                    execution_offset: exec,
                });
                r.restore_element(prev);
            }
            for (i, &p) in ptrs.iter().enumerate() {
                if p as usize != cursor + HEADER_SIZE * i {
                    return Err(r.invalid(
                        "code entry pointer",
                        format!(
                            "headers stored in order right after the blobs (at {})",
                            cursor + HEADER_SIZE * i
                        ),
                        p,
                    ));
                }
            }
            r.seek(cursor + HEADER_SIZE * ptrs.len())?;
        } else {
            for (i, &p) in ptrs.iter().enumerate() {
                let prev = r.set_element("code entry", i);
                if p as usize != r.pos() {
                    return Err(r.invalid(
                        "code entry pointer",
                        format!("entries stored in pointer order (next at {})", r.pos()),
                        p,
                    ));
                }
                let name = r.string()?;
                let len = r.u32()? as usize;
                region.get_or_insert(r.pos());
                let body = decode_blob(r, len, new, &mut links, &mut bound, (entries.len(), &mut pending))?;
                entries.push(CodeEntry {
                    name,
                    body,
                    locals_count: 0,
                    arguments_count: 0,
                    arguments_flag: false,
                    execution_offset: 0,
                });
                r.restore_element(prev);
            }
        }
        if bound != b.total {
            return Err(r.invalid(
                "occurrence chains",
                format!(
                    "{} VARI/FUNC occurrences, each on a referencing instruction",
                    b.total
                ),
                format!("{bound} bound"),
            ));
        }
        if forward {
            // Every chain was read to its end: FUNC takes the ends from here.
            let _ = r.ctx.function_ends.set(std::mem::take(&mut links.function_ends));
            // Every instruction was scanned: what version detection left unchecked is known.
            let _ = r.ctx.code_features.set(links.features);
        }
        Self::share_links(&mut entries, links.found, pending);
        if forward {
            // Every occurrence took its slot back (see `spare_slots`).
            spare_slots::give_back(std::mem::take(&mut b.slots));
            // What writing back unedited code needs instead of relinking.
            if let Some(at) = region {
                let read = (std::mem::take(&mut b.tables), std::mem::take(&mut b.left));
                let first_offset = if function_first_is_operand(&v) { 4 } else { 0 };
                let c = chains::Chains::read(&entries, new, (at, r.chunk_start(), first_offset), read);
                let _ = r.ctx.code_chains.set(std::sync::Arc::new(c));
            }
        }
        Ok(CodeEntries {
            entries,
            empty_body: false,
        })
    }

    fn write_chunk(&self, w: &mut Writer) -> Result<()> {
        if self.empty_body {
            if !self.entries.is_empty() {
                return Err(w.unwritable("CODE", "an empty-body (YYC) chunk cannot hold entries"));
            }
            w.ctx.code.code_written = true;
            return Ok(());
        }
        if w.ctx.code.vari_written || w.ctx.code.func_written {
            return Err(w.unwritable(
                "CODE",
                "CODE must come before VARI and FUNC in the chunk order",
            ));
        }
        let new = new_bytecode(w.version());
        let mut st = std::mem::take(&mut w.ctx.code);
        let res = self.write_body(w, new, &mut st);
        st.code_written = true;
        w.ctx.code = st;
        res
    }
}

impl CodeEntries {
    fn write_instructions(
        w: &mut Writer,
        ins: &[Instruction],
        new: bool,
        st: &mut WriteState,
    ) -> Result<()> {
        w.reserve(ins.len() * 8);
        for i in ins {
            let at = w.pos32();
            let e = instruction::encode(i, new).map_err(|m| w.unwritable("instruction", m))?;
            w.u32(e.word);
            match e.operand_len {
                4 => w.u32(e.operand as u32),
                8 => w.u64(e.operand),
                _ => {}
            }
            if let Some((is_func, occ)) = e.link {
                st.occurrence(w, is_func, occ.index, at, occ.always, occ.last_tag)?;
            }
        }
        Ok(())
    }

    /// Writes a root entry's instructions: an encoded blob is copied and its occurrences
    /// relinked (unless `relink` is false: every root blob as read, see [`chains`]); decoded
    /// instructions are encoded.
    fn write_root(w: &mut Writer, body: &CodeBody, new: bool, st: &mut WriteState, relink: bool) -> Result<()> {
        match body {
            CodeBody::Instructions(ins) => Self::write_instructions(w, ins, new, st),
            CodeBody::Encoded(b) if b.new != new => {
                // Written for the other bytecode family: re-encode.
                Self::write_instructions(w, &b.decode()?, new, st)
            }
            CodeBody::Encoded(b) if !relink => {
                w.bytes(&b.bytes);
                Ok(())
            }
            CodeBody::Encoded(b) => {
                let start = w.pos32();
                w.bytes(&b.bytes);
                let bytes: &[u8] = &b.bytes;
                for l in b.links.iter() {
                    let off = l.pos() as usize;
                    let Some(ins) = bytes.get(off..).and_then(|x| x.first_chunk::<8>()) else {
                        return Err(outside_blob(w));
                    };
                    let word = u32::from_le_bytes([ins[0], ins[1], ins[2], ins[3]]);
                    let operand = u32::from_le_bytes([ins[4], ins[5], ins[6], ins[7]]);
                    let (always, last_tag) =
                        link_tags(word, operand, l.function(), new, l.was_last(), b.script_asset_type);
                    st.occurrence(w, l.function(), l.index, start + off as u32, always, last_tag)?;
                }
                Ok(())
            }
            CodeBody::Shared { .. } => Ok(()),
        }
    }

    fn write_body(&self, w: &mut Writer, new: bool, st: &mut WriteState) -> Result<()> {
        let n = self.entries.len();
        // Every root blob as read: copied as stored, the chains placed from the reading.
        let read = w
            .ctx
            .read_chains
            .clone()
            .filter(|c| c.unchanged(&self.entries, new, st.variables.len(), st.functions.len()));
        let relink = read.is_none();
        let mut region = None;
        let slots = w.pointer_slots(n);
        if !new {
            for (i, e) in self.entries.iter().enumerate() {
                if !e.body.is_root() {
                    return Err(w.unwritable(
                        "code entry",
                        format!("entry #{i} shares a blob, which needs bytecode 15+"),
                    ));
                }
                w.fill_slot(slots, i);
                w.string(e.name);
                let len_at = w.pos();
                w.u32(0);
                region.get_or_insert(w.pos32());
                Self::write_root(w, &e.body, new, st, relink)?;
                let len = (w.pos() - len_at - 4) as u32;
                w.patch_u32(len_at, len);
            }
            if let (Some(c), Some(region)) = (read, region) {
                c.place(w, region, &mut st.variables, &mut st.functions);
            }
            return Ok(());
        }
        let mut blob = vec![(0u32, 0u32); n];
        for (i, e) in self.entries.iter().enumerate() {
            if e.body.is_root() {
                let at = w.pos32();
                region.get_or_insert(at);
                Self::write_root(w, &e.body, new, st, relink)?;
                blob[i] = (at, w.pos32() - at);
            }
        }
        if let (Some(c), Some(region)) = (read, region) {
            c.place(w, region, &mut st.variables, &mut st.functions);
        }
        for (i, e) in self.entries.iter().enumerate() {
            if let CodeBody::Shared { parent } = e.body {
                let p = parent as usize;
                match self.entries.get(p) {
                    Some(root) if root.body.is_root() && blob[p].1 > 0 => blob[i] = blob[p],
                    _ => {
                        return Err(w.unwritable(
                            "code entry",
                            format!("entry #{i} shares the blob of #{p}, which is not a non-empty root entry"),
                        ));
                    }
                }
            }
        }
        for (i, e) in self.entries.iter().enumerate() {
            w.fill_slot(slots, i);
            w.string(e.name);
            w.u32(blob[i].1);
            w.u16(e.locals_count);
            if e.arguments_count > 0x7FFF {
                return Err(w.unwritable("code entry", "arguments count above 32767"));
            }
            w.u16(e.arguments_count | (e.arguments_flag as u16) << 15);
            let field = w.pos32();
            w.i32(blob[i].0.wrapping_sub(field) as i32);
            w.u32(e.execution_offset);
        }
        Ok(())
    }
}

/// What the version scan of the bytecode saw.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CodeFlags {
    /// The features found (`NULLISH`, `PUSHREF`, `RENUMBERED`, `DUP_E`).
    pub found: u8,
    /// Features looked for but not scanned for (parsing): taken as absent, which the CODE
    /// reader confirms (see `container::parse_from`).
    pub unverified: u8,
}

/// Layout checks that CODE decides (bc ≥ 15 files only): 2.3.7 `chknullish`, 2023.8 `pushref`
/// with an int32 operand, 2024.4 `pushref` asset types of the renumbered table, 2024.14.4
/// `dup.e`.
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    let flags = d
        .code_flags
        .get_or_init(|| scan_features(d, wanted_features(v), d.scan_code))
        .found;
    if flags & NULLISH != 0 {
        v.raise(FormatVersion::new(2, 3, 7, 0));
    }
    if flags & PUSHREF != 0 && v.at_least(2023, 2) {
        v.raise(FormatVersion::new(2023, 8, 0, 0));
    }
    if flags & RENUMBERED != 0 && v.at_least(2023, 8) {
        v.raise(FormatVersion::new(2024, 4, 0, 0));
    }
    if flags & DUP_E != 0 {
        v.raise(FormatVersion::new(2024, 14, 4, 0));
    }
}

const NULLISH: u8 = 1;
const PUSHREF: u8 = 2;
const RENUMBERED: u8 = 4;
const DUP_E: u8 = 8;

/// The features whose finding can still raise `v` (the flags are looked for once, with the
/// version known so far: it only rises, so a feature whose version is already reached never
/// matters again).
fn wanted_features(v: &Version) -> u8 {
    [
        (NULLISH, FormatVersion::new(2, 3, 7, 0)),
        (PUSHREF, FormatVersion::new(2023, 8, 0, 0)),
        (RENUMBERED, FormatVersion::new(2024, 4, 0, 0)),
        (DUP_E, FormatVersion::new(2024, 14, 4, 0)),
    ]
    .iter()
    .filter(|(_, f)| *f > v.format)
    .fold(0, |m, (flag, _)| m | flag)
}

/// The features a bc ≥ 15 instruction shows: word `w`, next word `next` (its operand when it
/// has one). Only `extended` and `dup.e` words show any (the scan tables mark them).
#[inline]
pub(crate) fn feature_flags(w: u32, next: Option<u32>) -> u8 {
    let op = (w >> 24) as u8;
    let t1 = (w >> 16) as u8 & 0xF;
    let mut flags = 0;
    if op == Opcode::Extended.new_code() {
        let kind = w as u16 as i16;
        if kind == ExtendedKind::CHKNULLISH.0 {
            flags |= NULLISH;
        }
        if t1 == DataType::Int32 as u8 {
            flags |= PUSHREF;
            // Asset type 9 (sequence) only exists in the 2024.4 numbering.
            if kind == ExtendedKind::PUSHREF.0 && next.is_some_and(|x| x >> 24 == 9) {
                flags |= RENUMBERED;
            }
        }
    } else if op == Opcode::Dup.new_code() && t1 == DataType::Int16 as u8 {
        flags |= DUP_E;
    }
    flags
}

/// Scans the instruction blobs once for the instructions that reveal a version, among
/// `wanted` (it stops once all of them are found). Without `scan` (parsing) it reads none and
/// leaves every wanted feature unverified: the CODE reader checks every instruction anyway and
/// reports the features it saw; only a file where one of them would raise the version (no other
/// evidence settles it) is parsed again, with this scan first (see `container::parse_from`).
/// In the corpus no file needs that, while scanning even 16 KiB ahead cost 10–15 % of the parse
/// of code-dense files (a serial walk, one instruction size after the other).
pub(crate) fn scan_features(d: &Detect, wanted: u8, scan: bool) -> CodeFlags {
    let none = CodeFlags::default();
    if wanted == 0 {
        return none;
    }
    let Some((start, end)) = d.chunk(b"CODE") else {
        return none;
    };
    let (Some(n), Some(blobs_end)) = (d.u32(start), d.u32(start + 4)) else {
        return none;
    };
    if d.data.get(start + 1).is_none() || n == 0 || d.bytecode() < 15 {
        return none;
    }
    let blobs = start + 4 + 4 * n as usize;
    let blobs_end = blobs_end as usize;
    if blobs_end > end || blobs_end < blobs {
        return none;
    }
    let Some(code) = d.data.get(blobs..blobs_end) else {
        return none;
    };
    if !scan {
        return CodeFlags {
            found: 0,
            unverified: wanted,
        };
    }
    let sizes = instruction::size_table_new();
    let word = |p: usize| code.get(p..p + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    // The instruction at `p`: the flags it shows and its size (`None`: the end, or not an
    // instruction).
    let step = |p: usize, flags: &mut u8| -> Option<usize> {
        let w = word(p)?;
        *flags |= feature_flags(w, word(p + 4));
        match sizes[(w >> 24) as usize][((w >> 16) & 0xF) as usize] {
            0 => None,
            s => Some(s as usize),
        }
    };
    // Most words are neither `extended` nor `dup.e`, with a size the scan's table knows (4, 8
    // or 12; 0 for the others): two of them at a time while 16 bytes are left.
    let plain = |w: &[u8]| {
        let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        check::PLAIN_SIZES_NEW[(w >> 16) as usize] as usize & 12
    };
    let mut flags = 0;
    let mut p = 0;
    loop {
        if let Some(Ok(win)) = code.get(p..p + 16).map(<&[u8; 16]>::try_from) {
            let s0 = plain(&win[..4]);
            if s0 != 0 {
                let s1 = plain(&win[s0..s0 + 4]);
                p += s0 + s1;
                if s1 != 0 {
                    continue;
                }
            }
        }
        match step(p, &mut flags) {
            Some(s) if flags & wanted != wanted => p += s,
            _ => break,
        }
    }
    CodeFlags {
        found: flags & wanted,
        unverified: 0,
    }
}

/// The occurrence chain of one VARI/FUNC entry, as far as CODE has been written.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Chain {
    /// Absolute position of the first occurrence's instruction.
    first: u32,
    /// Absolute position of the last occurrence's instruction so far.
    last: u32,
    /// Number of occurrences so far.
    count: u32,
    /// Top-byte bits of the last occurrence merged into its operand in any case.
    always: u8,
    /// Top byte of the last occurrence written only when it ends the chain.
    last_tag: u8,
}

/// Bytecode layout computed while writing CODE, used by VARI and FUNC.
#[derive(Debug, Default)]
pub(crate) struct WriteState {
    /// CODE has been written (the chains below are final).
    pub code_written: bool,
    /// VARI has been written.
    pub vari_written: bool,
    /// FUNC has been written.
    pub func_written: bool,
    /// The chain of each VARI entry.
    pub variables: Vec<Chain>,
    /// The chain of each FUNC entry.
    pub functions: Vec<Chain>,
}

impl WriteState {
    /// A state with one (empty) chain per VARI and FUNC entry of `file`.
    pub(crate) fn for_file(file: &crate::DataFile) -> Self {
        WriteState {
            variables: vec![Chain::default(); file.variables.as_ref().map_or(0, |v| v.variables.len())],
            functions: vec![Chain::default(); file.functions.as_ref().map_or(0, |f| f.functions.len())],
            ..Default::default()
        }
    }

    /// Records an occurrence written at `pos` (increasing positions), linking the previous
    /// occurrence of the same chain to it.
    #[inline(always)]
    fn occurrence(
        &mut self,
        w: &mut Writer,
        function: bool,
        index: u32,
        pos: u32,
        always: u8,
        last_tag: u8,
    ) -> Result<()> {
        let chains = if function {
            &mut self.functions
        } else {
            &mut self.variables
        };
        let n = chains.len();
        let Some(c) = chains.get_mut(index as usize) else {
            return Err(no_such_entry(w, function, index, n));
        };
        if c.count == 0 {
            c.first = pos;
        } else {
            let dist = pos.wrapping_sub(c.last);
            if dist == 0 || dist > 0x07FF_FFFF {
                return Err(chain_out_of_reach(w));
            }
            w.patch_u32(c.last as usize + 4, dist | (c.always as u32) << 24);
        }
        c.last = pos;
        c.count += 1;
        c.always = always;
        c.last_tag = last_tag;
        Ok(())
    }
}

/// The top-byte bits an occurrence (instruction word `word`, operand `operand`) keeps when
/// relinked: `(always, last_tag)` of [`Chain`]. A variable keeps its operand's top 5 bits in any
/// case; a function `pushref` (bc ≥ 15 `extended`) ends its chain with its own asset-type byte
/// when it ended it in the file read (`was_last`), else with the version's script type.
#[inline(always)]
fn link_tags(word: u32, operand: u32, function: bool, new: bool, was_last: bool, script_asset_type: u8) -> (u8, u8) {
    let top = (operand >> 24) as u8;
    if !function {
        (top & 0xF8, 0)
    } else if new && (word >> 24) as u8 == Opcode::Extended.new_code() {
        (0, if was_last { top } else { script_asset_type })
    } else {
        (0, 0)
    }
}

/// The error of an occurrence link outside its blob.
#[cold]
#[inline(never)]
fn outside_blob(w: &Writer) -> crate::error::Error {
    w.unwritable("code entry", "an occurrence outside its blob")
}

/// The error of an occurrence of VARI/FUNC entry `index` when there are only `n`.
#[cold]
#[inline(never)]
fn no_such_entry(w: &Writer, function: bool, index: u32, n: usize) -> crate::error::Error {
    let what = if function { "function reference" } else { "variable reference" };
    w.unwritable(what, format!("CODE refers to entry #{index}, but there are only {n}"))
}

/// The error of two occurrences of a chain too far apart (or out of order).
#[cold]
#[inline(never)]
fn chain_out_of_reach(w: &Writer) -> crate::error::Error {
    w.unwritable("occurrence chain", "occurrences more than 128 MiB apart or out of order")
}

/// Ends the occurrence chain of one VARI or FUNC entry: patches its last occurrence with the
/// name's STRG index and returns `(count, first address)` (`first_offset` is added to it: 4 for
/// functions in 2.3+).
pub(crate) fn end_chain(
    w: &mut Writer,
    chain: Option<&Chain>,
    name: StringRef,
    first_offset: u32,
    what: &'static str,
) -> Result<(u32, i32)> {
    let Some(c) = chain.filter(|c| c.count > 0) else {
        return Ok((0, -1));
    };
    if name.0 > 0xFF_FFFF {
        return Err(w.unwritable(what, "a name's STRG index does not fit in 24 bits"));
    }
    w.patch_u32(
        c.last as usize + 4,
        name.0 | ((c.always | c.last_tag) as u32) << 24,
    );
    Ok((c.count, c.first.wrapping_add(first_offset) as i32))
}

/// Checks that CODE refers to no entry beyond the `n` of VARI or FUNC.
pub(crate) fn check_chains(w: &Writer, chains: &[Chain], n: usize, what: &'static str) -> Result<()> {
    match chains.iter().skip(n).position(|c| c.count > 0) {
        Some(k) => Err(w.unwritable(
            what,
            format!("CODE refers to entry #{}, but there are only {n}", n + k),
        )),
        None => Ok(()),
    }
}
