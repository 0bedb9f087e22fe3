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
//! matter). When writing, CODE records every occurrence in [`WriteState`]; VARI and FUNC (written
//! after CODE) then fill in the chain links, counts and first addresses.

pub mod instruction;
pub mod opcode;

pub use instruction::{
    Disassembly, ExtOperand, FunctionId, Instruction, PushValue, VariableId, VariableRef,
};
pub use opcode::{Comparison, DataType, ExtendedKind, InstanceType, Opcode, RefType};

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::{function, variable};
use crate::error::{ErrorKind, Result, invalid};
use crate::read::{Reader, Target};
use crate::refs::StringRef;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;
use instruction::{Links, Occurrence};

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
#[derive(Clone, Debug, PartialEq)]
pub enum CodeBody {
    /// A root entry: owns its instruction blob (possibly empty).
    Instructions(Vec<Instruction>),
    /// A child entry (2.3+): shares the blob of the root entry `parent` (an index into
    /// [`CodeEntries::entries`]) and starts at its execution offset.
    Shared {
        /// Index of the root entry.
        parent: u32,
    },
}

/// One code entry (a script, event, or function body).
#[derive(Clone, Debug, PartialEq)]
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
pub struct CodeEntries {
    /// The entries, in file order.
    pub entries: Vec<CodeEntry>,
    /// The chunk body is empty (YYC-compiled game before bc 17: no bytecode at all).
    pub empty_body: bool,
}

impl CodeEntries {
    /// The instructions `entry` executes: a root's own instructions, or for a child the shared
    /// blob from its execution offset on. Empty for an unknown entry or a bad offset.
    pub fn instructions(&self, entry: usize) -> &[Instruction] {
        let Some(e) = self.entries.get(entry) else {
            return &[];
        };
        let all: &[Instruction] = match &e.body {
            CodeBody::Instructions(v) => v,
            CodeBody::Shared { parent } => match self.entries.get(*parent as usize) {
                Some(CodeEntry {
                    body: CodeBody::Instructions(v),
                    ..
                }) => v,
                _ => return &[],
            },
        };
        let mut off = 0usize;
        for (i, ins) in all.iter().enumerate() {
            if off >= e.execution_offset as usize {
                return &all[i..];
            }
            off += ins.size();
        }
        &[]
    }

    /// Index of the entry named `name` (a STRG reference).
    pub fn find(&self, name: StringRef) -> Option<usize> {
        self.entries.iter().position(|e| e.name == name)
    }
}

/// Builds the occurrence-chain bindings from the VARI and FUNC tables.
struct Bindings {
    slots: Vec<u32>,
    var_names: Vec<u32>,
    func_names: Vec<u32>,
    total: usize,
}

fn bind_chains(r: &Reader) -> Result<Bindings> {
    let v = *r.version();
    let (start, end) = (r.chunk_start(), r.chunk_end());
    let words = (end - start) / 4 + 1;
    let mut b = Bindings {
        slots: vec![u32::MAX; words],
        var_names: Vec::new(),
        func_names: Vec::new(),
        total: 0,
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
        for (idx, &(name_ptr, count, first)) in table.iter().enumerate() {
            let kind = if is_func { "function" } else { "variable" };
            let name = r.resolve(Target::String, name_ptr).ok_or_else(|| {
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
            for k in 0..count {
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
                let last = k + 1 == count;
                *slot = (idx as u32) << 2 | (is_func as u32) << 1 | last as u32;
                if !last {
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
            b.total += count as usize;
        }
    }
    Ok(b)
}

fn decode_blob(
    r: &mut Reader,
    len: usize,
    new: bool,
    links: &Links,
    bound: &mut usize,
) -> Result<Vec<Instruction>> {
    let base = r.pos();
    let bytes = r.bytes_ref(len, "instructions")?;
    let mut out = Vec::new();
    match instruction::decode(bytes, base, new, links, &mut out) {
        Ok(n) => {
            *bound += n;
            Ok(out)
        }
        Err((at, kind)) => Err(r.error_at(at, kind)),
    }
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
        let v = *r.version();
        let new = new_bytecode(&v);
        let ptrs = r.pointer_list("code entry")?;
        let b = bind_chains(r)?;
        let links = Links {
            code_start: r.chunk_start(),
            slots: &b.slots,
            var_names: &b.var_names,
            func_names: &b.func_names,
            strings: r.ctx.targets[Target::String as usize].len(),
            script_asset_type: script_asset_type(&v),
        };
        let mut bound = 0usize;
        let mut entries = Vec::with_capacity(ptrs.len());
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
                    let ins = decode_blob(r, len, new, &links, &mut bound)?;
                    cursor += len;
                    if len > 0 {
                        roots.push((blob as usize, len, i as u32));
                    }
                    CodeBody::Instructions(ins)
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
                let ins = decode_blob(r, len, new, &links, &mut bound)?;
                entries.push(CodeEntry {
                    name,
                    body: CodeBody::Instructions(ins),
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
        Ok(CodeEntries {
            entries,
            empty_body: false,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
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
            if let Some((is_func, mut occ)) = e.link {
                occ.pos = at;
                if is_func {
                    st.functions.push(occ);
                } else {
                    st.variables.push(occ);
                }
            }
            match e.operand_len {
                4 => w.u32(e.operand as u32),
                8 => w.u64(e.operand),
                _ => {}
            }
        }
        Ok(())
    }

    fn write_body(&self, w: &mut Writer, new: bool, st: &mut WriteState) -> Result<()> {
        let n = self.entries.len();
        let slots = w.pointer_slots(n);
        if !new {
            for (i, e) in self.entries.iter().enumerate() {
                let CodeBody::Instructions(ins) = &e.body else {
                    return Err(w.unwritable(
                        "code entry",
                        format!("entry #{i} shares a blob, which needs bytecode 15+"),
                    ));
                };
                w.fill_slot(slots, i);
                w.string(e.name);
                let len_at = w.pos();
                w.u32(0);
                Self::write_instructions(w, ins, new, st)?;
                let len = (w.pos() - len_at - 4) as u32;
                w.patch_u32(len_at, len);
            }
            return Ok(());
        }
        let mut blob = vec![(0u32, 0u32); n];
        for (i, e) in self.entries.iter().enumerate() {
            if let CodeBody::Instructions(ins) = &e.body {
                let at = w.pos32();
                Self::write_instructions(w, ins, new, st)?;
                blob[i] = (at, w.pos32() - at);
            }
        }
        for (i, e) in self.entries.iter().enumerate() {
            if let CodeBody::Shared { parent } = e.body {
                let p = parent as usize;
                match self.entries.get(p) {
                    Some(CodeEntry {
                        body: CodeBody::Instructions(_),
                        ..
                    }) if blob[p].1 > 0 => blob[i] = blob[p],
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

/// Layout checks that CODE decides (bc ≥ 15 files only): 2.3.7 `chknullish`, 2023.8 `pushref`
/// with an int32 operand, 2024.4 `pushref` asset types of the renumbered table, 2024.14.4
/// `dup.e`.
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    let flags = *d.code_flags.get_or_init(|| scan_features(d));
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

/// Scans the instruction blobs once for the instructions that reveal a version.
fn scan_features(d: &Detect) -> u8 {
    let mut flags = 0;
    let Some((start, end)) = d.chunk(b"CODE") else {
        return 0;
    };
    let (Some(n), Some(blobs_end)) = (d.u32(start), d.u32(start + 4)) else {
        return 0;
    };
    if d.data.get(start + 1).is_none() || n == 0 || d.bytecode() < 15 {
        return 0;
    }
    let blobs = start + 4 + 4 * n as usize;
    let blobs_end = blobs_end as usize;
    if blobs_end > end || blobs_end < blobs {
        return 0;
    }
    let Some(code) = d.data.get(blobs..blobs_end) else {
        return 0;
    };
    let sizes = instruction::size_table_new();
    let word = |p: usize| code.get(p..p + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let mut p = 0;
    while let Some(w) = word(p) {
        let op = (w >> 24) as u8;
        let t1 = (w >> 16) as u8 & 0xF;
        if op == Opcode::Extended.new_code() {
            let kind = w as u16 as i16;
            if kind == ExtendedKind::CHKNULLISH.0 {
                flags |= NULLISH;
            }
            if t1 == DataType::Int32 as u8 {
                flags |= PUSHREF;
                // Asset type 9 (sequence) only exists in the 2024.4 numbering.
                if kind == ExtendedKind::PUSHREF.0 && word(p + 4).is_some_and(|x| x >> 24 == 9) {
                    flags |= RENUMBERED;
                }
            }
        } else if op == Opcode::Dup.new_code() && t1 == DataType::Int16 as u8 {
            flags |= DUP_E;
        }
        match sizes[op as usize][t1 as usize] {
            0 => break,
            s => p += s as usize,
        }
    }
    flags
}

/// Bytecode state shared between CODE, VARI and FUNC while reading. Empty: a chunk reader
/// cannot hand state to later chunks through [`crate::read::ReadCtx`], so CODE reads the VARI
/// and FUNC occurrence tables straight from the file instead.
#[derive(Debug, Default)]
pub(crate) struct ReadState {}

/// Bytecode layout computed while writing CODE, used by VARI and FUNC.
#[derive(Debug, Default)]
pub(crate) struct WriteState {
    /// CODE has been written (its occurrences below are final).
    pub code_written: bool,
    /// VARI has been written.
    pub vari_written: bool,
    /// FUNC has been written.
    pub func_written: bool,
    /// Every variable occurrence, in CODE order.
    pub variables: Vec<Occurrence>,
    /// Every function occurrence, in CODE order.
    pub functions: Vec<Occurrence>,
}

/// Writes the occurrence chains of one kind (VARI or FUNC): for each entry, patches its
/// occurrences' operands in CODE and returns `(count, first address)` per entry. `names` are the
/// STRG indices of the entry names; `first_offset` is added to first addresses (4 for functions
/// in 2.3+).
pub(crate) fn link_chains(
    w: &mut Writer,
    occurrences: &mut [Occurrence],
    names: &[u32],
    first_offset: u32,
    what: &'static str,
) -> Result<Vec<(u32, i32)>> {
    // Group the occurrences by entry, keeping address order inside each group. They were
    // recorded in write order (increasing addresses), so a stable counting sort does it in O(n).
    if let Some(o) = occurrences.iter().find(|o| o.index as usize >= names.len()) {
        return Err(w.unwritable(
            what,
            format!("CODE refers to entry #{}, but there are only {}", o.index, names.len()),
        ));
    }
    if !occurrences.windows(2).all(|p| p[0].pos < p[1].pos) {
        occurrences.sort_unstable_by_key(|o| o.pos);
    }
    let mut start = vec![0u32; names.len() + 1];
    for o in occurrences.iter() {
        start[o.index as usize + 1] += 1;
    }
    for i in 0..names.len() {
        start[i + 1] += start[i];
    }
    let mut grouped = vec![
        Occurrence {
            index: 0,
            pos: 0,
            always: 0,
            last_tag: 0
        };
        occurrences.len()
    ];
    let mut next = start.clone();
    for o in occurrences.iter() {
        let slot = &mut next[o.index as usize];
        grouped[*slot as usize] = *o;
        *slot += 1;
    }
    let mut out = vec![(0u32, -1i32); names.len()];
    for (idx, &name) in names.iter().enumerate() {
        let group = &grouped[start[idx] as usize..start[idx + 1] as usize];
        let Some(first) = group.first() else { continue };
        if name > 0xFF_FFFF {
            return Err(w.unwritable(what, "a name's STRG index does not fit in 24 bits"));
        }
        for (j, o) in group.iter().enumerate() {
            let value = match group.get(j + 1) {
                Some(next) => {
                    let dist = next.pos - o.pos;
                    if dist > 0x07FF_FFFF {
                        return Err(w.unwritable(what, "occurrences more than 128 MiB apart"));
                    }
                    dist | (o.always as u32) << 24
                }
                None => name | ((o.always | o.last_tag) as u32) << 24,
            };
            w.patch_u32(o.pos as usize + 4, value);
        }
        out[idx] = (group.len() as u32, (first.pos + first_offset) as i32);
    }
    Ok(out)
}
