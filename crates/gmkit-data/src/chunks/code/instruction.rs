//! The instruction model, its decoder and encoder for both bytecode families (bc ≤ 14 and
//! bc ≥ 15), and a disassembly `Display`.
//!
//! An instruction is a 32-bit word (opcode in the top byte, type nibbles in byte 2, 16-bit
//! argument in the low half) plus, for some forms, an operand of 4 or 8 bytes. Variable and
//! function operands are stored in the file as links of occurrence chains; the model replaces
//! them by the index of the VARI/FUNC entry ([`VariableId`], [`FunctionId`]). The links are
//! recomputed when the file is written.

use super::opcode::{Comparison, DataType, ExtendedKind, InstanceType, Opcode, RefType};
use crate::chunks::function::Function;
use crate::chunks::variable::Variable;
use crate::error::{ErrorKind, invalid};
use crate::refs::{Id, StringRef};
use std::fmt;

/// A reference to a VARI entry (its index in [`Variables::variables`](crate::chunks::variable::Variables::variables)).
pub type VariableId = Id<Variable>;
/// A reference to a FUNC entry (its index in [`Functions::functions`](crate::chunks::function::Functions::functions)).
pub type FunctionId = Id<Function>;

/// A variable operand: which variable, on which instance, accessed how.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VariableRef {
    /// The variable.
    pub variable: VariableId,
    /// The instance type (low 16 bits of the instruction word).
    pub instance: InstanceType,
    /// The access kind (top bits of the operand word).
    pub ref_type: RefType,
}

/// The value a push instruction pushes.
#[derive(Clone, Copy, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PushValue {
    /// A 16-bit integer stored in the instruction word (`push.e` / `pushi.e`).
    Int16(i16),
    /// A 32-bit integer (`push.i`).
    Int32(i32),
    /// A 64-bit integer (`push.l`).
    Int64(i64),
    /// A double (`push.d`).
    Double(
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
        f64,
    ),
    /// A float (`push.f`).
    Float(
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
        f32,
    ),
    /// A string: a STRG entry, stored by index (`push.s`).
    String(StringRef),
    /// A variable (`push.v`, `pushloc.v`, `pushglb.v`, `pushbltn.v`).
    Variable(VariableRef),
    /// A function reference stored as a `push.i` operand (2.3+).
    Function(FunctionId),
    /// A variable reference stored as a `push.i` operand (its id, not its value).
    VariableId(VariableId),
    /// Another 4-byte operand type (boolean, instance, delete, undefined, unsigned), kept raw.
    Other {
        /// The operand type.
        t: DataType,
        /// The 4 operand bytes.
        value: u32,
    },
}

impl PushValue {
    /// The data type written in the instruction's type nibble.
    pub fn data_type(&self) -> DataType {
        match self {
            PushValue::Int16(_) => DataType::Int16,
            PushValue::Int32(_) | PushValue::Function(_) | PushValue::VariableId(_) => {
                DataType::Int32
            }
            PushValue::Int64(_) => DataType::Int64,
            PushValue::Double(_) => DataType::Double,
            PushValue::Float(_) => DataType::Float,
            PushValue::String(_) => DataType::String,
            PushValue::Variable(_) => DataType::Variable,
            PushValue::Other { t, .. } => *t,
        }
    }
}

/// The operand of an extended instruction whose type is `Int32` (2023.8+, `pushref`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ExtOperand {
    /// An asset reference: asset type (top byte, numbering of §5.6) and index (24 bits).
    Asset {
        /// Asset type number.
        asset_type: u8,
        /// Index in that asset list.
        index: u32,
    },
    /// A function reference (part of the function's occurrence chain). When it is the last
    /// occurrence, the file stores `asset_type << 24 | name` (the script asset type);
    /// `asset_type` is that byte (for other occurrences, the script type of the file's version).
    Function {
        /// The function.
        function: FunctionId,
        /// Asset type written when this occurrence ends the chain.
        asset_type: u8,
    },
}

/// One instruction.
///
/// Operations sharing a layout share a variant, with the operation in `op` (only the opcodes
/// listed for each variant are valid there; writing another fails). Branch offsets are in 4-byte
/// words, relative to the branch instruction, as in the file.
#[derive(Clone, Copy, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Instruction {
    /// Two-type operations: `conv`, `mul`, `div`, `rem`, `mod`, `add`, `sub`, `and`, `or`, `xor`,
    /// `shl`, `shr` (e.g. `add.i.v`).
    Binary {
        /// The operation.
        op: Opcode,
        /// First type (low nibble).
        t1: DataType,
        /// Second type (high nibble).
        t2: DataType,
    },
    /// One-type operations without operand: `neg`, `not`, `ret`, `exit`, `popz`.
    Unary {
        /// The operation.
        op: Opcode,
        /// The type.
        t: DataType,
    },
    /// A comparison (`cmp.i.v LT`).
    Compare {
        /// The comparison.
        cmp: Comparison,
        /// First type.
        t1: DataType,
        /// Second type.
        t2: DataType,
    },
    /// Stores the top of the stack into a variable (`pop.v.i self.x`).
    Pop {
        /// First type (destination).
        t1: DataType,
        /// Second type (value).
        t2: DataType,
        /// The variable.
        var: VariableRef,
    },
    /// The swap form of `pop` (first type int16, no operand: `pop.e.v 5`).
    PopSwap {
        /// Second type.
        t2: DataType,
        /// The 16-bit argument.
        arg: u16,
    },
    /// Duplicates stack entries (`dup.v 0`; 2.3+ "swap" forms carry an extra byte; 2024.14.4
    /// `dup.e`).
    Dup {
        /// The type.
        t: DataType,
        /// Byte 0: number of extra entries.
        count: u8,
        /// Byte 1: extra (swap) form marker and size.
        extra: u8,
    },
    /// Calls the function on the stack (`callv.v 2`).
    CallV {
        /// The type.
        t: DataType,
        /// Argument count.
        argc: u16,
    },
    /// Branches: `b`, `bt`, `bf`, `pushenv`, `popenv`.
    Branch {
        /// The operation.
        op: Opcode,
        /// Offset in words from this instruction.
        offset: i32,
    },
    /// `popenv` with the special "exit the with-loop" target (bc ≥ 15, 0xF00000).
    PopEnvExit,
    /// Pushes: `push`, `pushloc`, `pushglb`, `pushbltn`, `pushi`.
    Push {
        /// The operation.
        op: Opcode,
        /// What is pushed.
        value: PushValue,
    },
    /// Calls a function (`call.i show_message(argc=1)`).
    Call {
        /// The type (int32 in practice).
        t: DataType,
        /// Argument count.
        argc: u16,
        /// The function.
        function: FunctionId,
    },
    /// A call whose operand is the function's name (a STRG index) rather than a link of a
    /// FUNC occurrence chain: code of objects the build stripped (their object slots are null;
    /// seen in 2025 builds), whose callees have no FUNC entry. The operand is kept as read.
    CallByName {
        /// The type (int32 in practice).
        t: DataType,
        /// Argument count.
        argc: u16,
        /// The function's name.
        name: StringRef,
    },
    /// Extended operations (`chkindex.e`, `pushref.i ...`).
    Extended {
        /// The subtype.
        kind: ExtendedKind,
        /// The type (int16 usually; int32 when an operand follows).
        t: DataType,
        /// The operand (present exactly when `t` is int32).
        operand: Option<ExtOperand>,
    },
}

impl Instruction {
    /// Size in bytes in the file.
    #[inline]
    pub fn size(&self) -> usize {
        match self {
            Instruction::Push { value, .. } => 4 + value.data_type().push_operand_size(),
            Instruction::Pop { .. } | Instruction::Call { .. } | Instruction::CallByName { .. } => 8,
            Instruction::Extended { operand: Some(_), .. } => 8,
            _ => 4,
        }
    }

    /// The opcode.
    pub fn opcode(&self) -> Opcode {
        match self {
            Instruction::Binary { op, .. }
            | Instruction::Unary { op, .. }
            | Instruction::Branch { op, .. }
            | Instruction::Push { op, .. } => *op,
            Instruction::Compare { .. } => Opcode::Cmp,
            Instruction::Pop { .. } | Instruction::PopSwap { .. } => Opcode::Pop,
            Instruction::Dup { .. } => Opcode::Dup,
            Instruction::CallV { .. } => Opcode::CallV,
            Instruction::PopEnvExit => Opcode::PopEnv,
            Instruction::Call { .. } | Instruction::CallByName { .. } => Opcode::Call,
            Instruction::Extended { .. } => Opcode::Extended,
        }
    }

    /// The variable access (instance type, variable, reference type) of a `pop` or a `push`
    /// of a variable.
    pub fn variable_ref(&self) -> Option<&VariableRef> {
        match self {
            Instruction::Pop { var, .. }
            | Instruction::Push {
                value: PushValue::Variable(var),
                ..
            } => Some(var),
            _ => None,
        }
    }

    /// The variable this instruction refers to, if any.
    pub fn variable(&self) -> Option<VariableId> {
        if let Some(var) = self.variable_ref() {
            return Some(var.variable);
        }
        match self {
            Instruction::Push {
                value: PushValue::VariableId(v),
                ..
            } => Some(*v),
            _ => None,
        }
    }

    /// The function this instruction refers to, if any.
    pub fn function(&self) -> Option<FunctionId> {
        match self {
            Instruction::Call { function, .. }
            | Instruction::Push {
                value: PushValue::Function(function),
                ..
            }
            | Instruction::Extended {
                operand: Some(ExtOperand::Function { function, .. }),
                ..
            } => Some(*function),
            _ => None,
        }
    }

    /// A disassembly view that names variables, functions and strings from a data file.
    pub fn display<'a>(&'a self, file: &'a crate::DataFile) -> Disassembly<'a> {
        Disassembly {
            ins: self,
            file: Some(file),
        }
    }
}

/// Instruction sizes by first byte and type-1 nibble for bytecode 15+ (0 = not an instruction),
/// for fast scans (computed at compile time: nothing to set up in a fresh process).
pub(crate) fn size_table_new() -> &'static [[u8; 16]; 256] {
    static TABLE: [[u8; 16]; 256] = {
        let mut t = [[0u8; 16]; 256];
        let mut op = 0;
        while op < 256 {
            let mut t1 = 0;
            while t1 < 16 {
                let w = (op as u32) << 24 | (t1 as u32) << 16;
                t[op][t1] = match size_of_word(w, true) {
                    Some(s) => s as u8,
                    None => 0,
                };
                t1 += 1;
            }
            op += 1;
        }
        t
    };
    &TABLE
}

/// Instruction size from its first word alone (`None` for an unknown opcode). Used by scans
/// that do not build the model.
pub(crate) const fn size_of_word(w: u32, new: bool) -> Option<usize> {
    let op = (w >> 24) as u8;
    let t1 = ((w >> 16) & 0xF) as u8;
    let op = if new {
        match Opcode::from_new(op) {
            Some(op) => op,
            None => return None,
        }
    } else {
        match Opcode::from_old(op) {
            Some((op, _)) => op,
            None => return None,
        }
    };
    Some(match op {
        op if op.is_push() => match DataType::from_nibble(t1) {
            Some(t) => 4 + t.push_operand_size(),
            None => return None,
        },
        Opcode::Pop if t1 != DataType::Int16 as u8 => 8,
        Opcode::Call => 8,
        Opcode::Extended if t1 == DataType::Int32 as u8 => 8,
        _ => 4,
    })
}

// ---------------------------------------------------------------------------------------------
// Decoding

/// Where a decoder finds the occurrence links (variable and function operands) of a blob.
pub(crate) trait LinkSource {
    /// The occurrence at absolute address `addr`, if any (called with increasing addresses,
    /// at most once per instruction).
    fn at(&mut self, addr: usize) -> Option<Link>;
    /// The STRG indices of the variable or function names, when last occurrences are checked.
    fn names(&self, function: bool) -> Option<&[u32]>;
    /// Number of STRG entries, when `push.s` operands are checked.
    fn strings(&self) -> Option<usize>;
    /// Asset type number of scripts in this version (for `pushref` function operands).
    fn script_asset_type(&self) -> u8;
}

/// Occurrence-chain bindings for decoding while parsing: for each 4-byte word of the CODE
/// chunk, which variable or function occurrence (if any) sits there. Every occurrence found is
/// also recorded, relative to `blob_base`, in `found`.
pub(crate) struct Links<'a> {
    /// Start of the CODE chunk body.
    pub code_start: usize,
    /// Size of the CODE chunk body.
    pub code_len: usize,
    /// Per word: `u32::MAX` = none, else `index << 2 | is_function << 1 | is_last` (forward
    /// binding: `is_last` unused, see `left`).
    pub slots: &'a mut [u32],
    /// STRG index of each variable's name (forward binding: the pointer stored in VARI, see
    /// `strg_addrs`).
    pub var_names: &'a [u32],
    /// STRG index of each function's name (forward binding: the pointer stored in FUNC).
    pub func_names: &'a [u32],
    /// Number of STRG entries.
    pub strings: usize,
    /// Asset type number of scripts in this version (for `pushref` function operands).
    pub script_asset_type: u8,
    /// Absolute start of the blob being decoded.
    pub blob_base: usize,
    /// The occurrences found in the blob being decoded.
    pub found: LinkListBuilder,
    /// Forward binding ([`super::check::scan`]): `slots` holds the next occurrence of each
    /// chain only, and `left` how many occurrences each variable and function has left.
    pub forward: bool,
    /// Forward binding, per variable (`[0]`) and function (`[1]`): `[occurrences left, word
    /// of the last occurrence]` (counted from `code_start`; the scan fills it in).
    pub left: [&'a mut [[u32; 2]]; 2],
    /// The whole file (forward binding: names of global scripts).
    pub file: &'a [u8],
    /// The STRG body range.
    pub strg: Option<(usize, usize)>,
    /// Forward binding: the STRG pointer list as stored (`u32` each), entry `i` + 4 being the
    /// address of string `i` (see `code::strg_addresses`).
    pub strg_addrs: &'a [u8],
    /// Forward binding: what each function chain's last occurrence holds (see
    /// `ReadCtx::function_ends`).
    pub function_ends: Vec<u32>,
    /// Forward binding: the version features the scanned instructions show (see
    /// `code::feature_flags`).
    pub features: u8,
}

/// What a link slot says.
#[derive(Clone, Copy)]
pub(crate) struct Link {
    pub(crate) function: bool,
    pub(crate) index: u32,
    pub(crate) last: bool,
}

impl LinkSource for Links<'_> {
    #[inline]
    fn at(&mut self, addr: usize) -> Option<Link> {
        let off = addr.checked_sub(self.code_start)?;
        if off % 4 != 0 {
            return None;
        }
        match self.slots.get(off / 4) {
            Some(&s) if s != u32::MAX => {
                let l = Link {
                    function: s & 2 != 0,
                    index: s >> 2,
                    last: s & 1 != 0,
                };
                self.found
                    .push(EncLink::new(addr.wrapping_sub(self.blob_base) as u32, l));
                Some(l)
            }
            _ => None,
        }
    }
    #[inline]
    fn names(&self, function: bool) -> Option<&[u32]> {
        Some(if function {
            self.func_names
        } else {
            self.var_names
        })
    }
    #[inline]
    fn strings(&self) -> Option<usize> {
        Some(self.strings)
    }
    #[inline]
    fn script_asset_type(&self) -> u8 {
        self.script_asset_type
    }
}

/// One occurrence link of an encoded blob: where it is and which entry it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EncLink {
    /// Byte offset of the instruction in the blob (a multiple of 4), bit 0 = function
    /// occurrence, bit 1 = last occurrence of its chain in the file read.
    tagged_pos: u32,
    /// VARI/FUNC index.
    pub index: u32,
}

impl EncLink {
    #[inline]
    pub(crate) fn new(pos: u32, l: Link) -> Self {
        EncLink {
            tagged_pos: (pos & !3) | l.function as u32 | (l.last as u32) << 1,
            index: l.index,
        }
    }
    /// Byte offset of the instruction in the blob.
    #[inline]
    pub fn pos(self) -> u32 {
        self.tagged_pos & !3
    }
    /// A function (not a variable) occurrence.
    #[inline]
    pub fn function(self) -> bool {
        self.tagged_pos & 1 != 0
    }
    /// The last occurrence of its chain in the file it was read from.
    #[inline]
    pub fn was_last(self) -> bool {
        self.tagged_pos & 2 != 0
    }
}

/// The occurrence links of a blob in increasing position order: 8 bytes a link, the
/// little-endian `u32`s `tagged_pos` and `index` of [`EncLink`] (a fixed width: appending
/// one while scanning is a single store, and reading them back while writing is two loads).
///
/// The lists of all blobs read from one CODE chunk share one buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LinkList(bytes::Bytes);

/// Bytes of one link in a [`LinkList`].
const LINK_SIZE: usize = 8;

impl LinkList {
    /// The list at `range` of a buffer from [`LinkListBuilder::share`].
    pub(crate) fn in_shared(shared: &bytes::Bytes, range: std::ops::Range<usize>) -> Self {
        if range.is_empty() {
            LinkList::default()
        } else {
            LinkList(shared.slice(range))
        }
    }
    /// The number of links.
    pub fn len(&self) -> usize {
        self.0.len() / LINK_SIZE
    }
    /// The links, in order.
    pub fn iter(&self) -> LinkIter<'_> {
        LinkIter {
            links: self.0.as_chunks::<LINK_SIZE>().0.iter(),
        }
    }
}

/// Builds [`LinkList`]s, one after the other in one buffer (see [`LinkListBuilder::share`]).
#[derive(Default)]
pub(crate) struct LinkListBuilder {
    buf: Vec<u8>,
    start: usize,
}

impl LinkListBuilder {
    /// A builder with room for `links` links.
    pub fn with_capacity(links: usize) -> Self {
        LinkListBuilder {
            buf: Vec::with_capacity(links * LINK_SIZE),
            start: 0,
        }
    }
    /// Starts a new list.
    pub fn clear(&mut self) {
        self.start = self.buf.len();
    }
    /// Appends a link (positions strictly increasing, multiples of 4).
    #[inline]
    pub fn push(&mut self, l: EncLink) {
        let [a, b, c, d] = l.tagged_pos.to_le_bytes();
        let [e, f, g, h] = l.index.to_le_bytes();
        self.buf.extend_from_slice(&[a, b, c, d, e, f, g, h]);
    }
    /// Where the list built since the last [`clear`](Self::clear) is in the buffer.
    pub fn finish(&self) -> std::ops::Range<usize> {
        self.start..self.buf.len()
    }
    /// The buffer of all lists built, for [`LinkList::in_shared`].
    pub fn share(self) -> bytes::Bytes {
        bytes::Bytes::from(self.buf)
    }
}

/// Iterator over a [`LinkList`].
pub(crate) struct LinkIter<'a> {
    links: std::slice::Iter<'a, [u8; LINK_SIZE]>,
}

impl Iterator for LinkIter<'_> {
    type Item = EncLink;
    #[inline]
    fn next(&mut self) -> Option<EncLink> {
        let [a, b, c, d, e, f, g, h] = *self.links.next()?;
        Some(EncLink {
            tagged_pos: u32::from_le_bytes([a, b, c, d]),
            index: u32::from_le_bytes([e, f, g, h]),
        })
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.links.size_hint()
    }
}

/// The links of an already validated blob, for decoding it again (offsets relative to the
/// blob).
pub(crate) struct StoredLinks<'a> {
    pub next: Option<EncLink>,
    pub links: LinkIter<'a>,
    pub script_asset_type: u8,
}

impl<'a> StoredLinks<'a> {
    pub fn new(links: &'a LinkList, script_asset_type: u8) -> Self {
        let mut links = links.iter();
        StoredLinks {
            next: links.next(),
            links,
            script_asset_type,
        }
    }
}

impl LinkSource for StoredLinks<'_> {
    #[inline]
    fn at(&mut self, addr: usize) -> Option<Link> {
        let first = self.next?;
        if first.pos() as usize != addr {
            return None;
        }
        self.next = self.links.next();
        Some(Link {
            function: first.function(),
            index: first.index,
            last: first.was_last(),
        })
    }
    #[inline]
    fn names(&self, _function: bool) -> Option<&[u32]> {
        None
    }
    #[inline]
    fn strings(&self) -> Option<usize> {
        None
    }
    #[inline]
    fn script_asset_type(&self) -> u8 {
        self.script_asset_type
    }
}

/// Where a decoder puts the instructions it decodes.
pub(crate) trait Sink {
    /// Takes one instruction.
    fn put(&mut self, ins: Instruction);
}

impl Sink for Vec<Instruction> {
    #[inline]
    fn put(&mut self, ins: Instruction) {
        self.push(ins);
    }
}

/// A sink that drops the instructions (decoding only to validate).
pub(crate) struct Discard;

impl Sink for Discard {
    #[inline]
    fn put(&mut self, _ins: Instruction) {}
}

/// A decoding failure: absolute offset and what was wrong.
pub(crate) type DecodeError = (usize, ErrorKind);

#[inline]
fn word(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?))
}

#[inline]
fn data_type(n: u8, at: usize) -> Result<DataType, DecodeError> {
    DataType::from_nibble(n).ok_or_else(|| (at, invalid("data type", "0-10 or 15", n)))
}

/// Decodes the instructions of one blob (`bytes` starts at absolute offset `base`), passing
/// them to `out`. Returns how many occurrence links were bound.
pub(crate) fn decode<L: LinkSource, S: Sink>(
    bytes: &[u8],
    base: usize,
    new: bool,
    links: &mut L,
    out: &mut S,
) -> Result<usize, DecodeError> {
    let mut i = 0;
    let mut bound = 0;
    while i < bytes.len() {
        let at = base + i;
        let w = word(bytes, i).ok_or_else(|| {
            (
                at,
                ErrorKind::Truncated {
                    what: "instruction",
                    needed: 4,
                    available: bytes.len() - i,
                },
            )
        })?;
        let opb = (w >> 24) as u8;
        let tb = (w >> 16) as u8;
        let lo = w as u16;
        let (op, old_cmp) = if new {
            (Opcode::from_new(opb), None)
        } else {
            match Opcode::from_old(opb) {
                Some((o, c)) => (Some(o), c),
                None => (None, None),
            }
        };
        let op = op.ok_or_else(|| (at, invalid("opcode", "a known opcode", format!("0x{opb:02X}"))))?;
        let t1n = tb & 0xF;
        let t2n = tb >> 4;
        let need_zero = |v: u32, what: &'static str| -> Result<(), DecodeError> {
            if v != 0 {
                Err((at, invalid(what, "zero", format!("0x{v:X} in 0x{w:08X}"))))
            } else {
                Ok(())
            }
        };
        let operand = |k: usize| -> Result<u32, DecodeError> {
            word(bytes, i + k).ok_or_else(|| {
                (
                    at,
                    ErrorKind::Truncated {
                        what: "instruction operand",
                        needed: k + 4,
                        available: bytes.len() - i,
                    },
                )
            })
        };
        let ins = match op {
            op if op.is_binary() => {
                need_zero(lo as u32, "unused bits of an arithmetic instruction")?;
                Instruction::Binary {
                    op,
                    t1: data_type(t1n, at)?,
                    t2: data_type(t2n, at)?,
                }
            }
            op if op.is_unary() => {
                need_zero(lo as u32 | (t2n as u32) << 16, "unused bits of an instruction")?;
                Instruction::Unary {
                    op,
                    t: data_type(t1n, at)?,
                }
            }
            Opcode::Cmp => {
                let cmp = match old_cmp {
                    Some(c) => {
                        need_zero(lo as u32, "unused bits of a comparison")?;
                        c
                    }
                    None => {
                        need_zero((lo & 0xFF) as u32, "unused bits of a comparison")?;
                        Comparison::from_u8((lo >> 8) as u8).ok_or_else(|| {
                            (at, invalid("comparison kind", "1-6", lo >> 8))
                        })?
                    }
                };
                Instruction::Compare {
                    cmp,
                    t1: data_type(t1n, at)?,
                    t2: data_type(t2n, at)?,
                }
            }
            Opcode::Pop => {
                let t1 = data_type(t1n, at)?;
                let t2 = data_type(t2n, at)?;
                if t1 == DataType::Int16 {
                    Instruction::PopSwap { t2, arg: lo }
                } else {
                    let var = var_operand(links, at, operand(4)?, lo)?;
                    bound += 1;
                    Instruction::Pop { t1, t2, var }
                }
            }
            Opcode::Dup => {
                need_zero(t2n as u32, "second type of dup")?;
                Instruction::Dup {
                    t: data_type(t1n, at)?,
                    count: lo as u8,
                    extra: (lo >> 8) as u8,
                }
            }
            Opcode::CallV => {
                need_zero(t2n as u32, "second type of callv")?;
                Instruction::CallV {
                    t: data_type(t1n, at)?,
                    argc: lo,
                }
            }
            op if op.is_branch() => {
                let v = w & 0xFF_FFFF;
                if !new {
                    Instruction::Branch {
                        op,
                        offset: ((v << 8) as i32) >> 8,
                    }
                } else if v & 0x80_0000 != 0 {
                    if op == Opcode::PopEnv && v == 0xF0_0000 {
                        Instruction::PopEnvExit
                    } else {
                        return Err((
                            at,
                            invalid(
                                "branch offset",
                                "a 23-bit offset (or 0xF00000 on popenv)",
                                format!("0x{v:06X}"),
                            ),
                        ));
                    }
                } else {
                    Instruction::Branch {
                        op,
                        offset: ((v << 9) as i32) >> 9,
                    }
                }
            }
            op if op.is_push() => {
                need_zero(t2n as u32, "second type of push")?;
                let t = data_type(t1n, at)?;
                let value = match t {
                    DataType::Int16 => PushValue::Int16(lo as i16),
                    DataType::Variable => {
                        let var = var_operand(links, at, operand(4)?, lo)?;
                        bound += 1;
                        PushValue::Variable(var)
                    }
                    _ => {
                        need_zero(lo as u32, "argument of a push")?;
                        match t {
                            DataType::Double => {
                                let a = operand(4)? as u64;
                                let b = operand(8)? as u64;
                                PushValue::Double(f64::from_bits(a | b << 32))
                            }
                            DataType::Int64 => {
                                let a = operand(4)? as u64;
                                let b = operand(8)? as u64;
                                PushValue::Int64((a | b << 32) as i64)
                            }
                            DataType::Float => PushValue::Float(f32::from_bits(operand(4)?)),
                            DataType::String => {
                                let s = operand(4)?;
                                if links.strings().is_some_and(|n| s as usize >= n) {
                                    return Err((
                                        at,
                                        ErrorKind::BadReference {
                                            what: "push.s operand",
                                            expected: "a STRG entry index",
                                            found: s.to_string(),
                                        },
                                    ));
                                }
                                PushValue::String(StringRef(s))
                            }
                            DataType::Int32 => {
                                let v = operand(4)?;
                                match links.at(at) {
                                    Some(l) => {
                                        plain_link(links, at, v, l)?;
                                        bound += 1;
                                        if l.function {
                                            PushValue::Function(Id::new(l.index))
                                        } else {
                                            PushValue::VariableId(Id::new(l.index))
                                        }
                                    }
                                    None => PushValue::Int32(v as i32),
                                }
                            }
                            t => PushValue::Other {
                                t,
                                value: operand(4)?,
                            },
                        }
                    }
                };
                Instruction::Push { op, value }
            }
            Opcode::Call => {
                // The second type is unused: a stray value would not survive decoding.
                need_zero(t2n as u32, "second type of call")?;
                let v = operand(4)?;
                let t = data_type(t1n, at)?;
                match links.at(at) {
                    Some(l) if l.function => {
                        plain_link(links, at, v, l)?;
                        bound += 1;
                        Instruction::Call {
                            t,
                            argc: lo,
                            function: Id::new(l.index),
                        }
                    }
                    Some(_) => {
                        return Err((
                            at,
                            ErrorKind::BadReference {
                                what: "call operand",
                                expected: "an occurrence of a FUNC entry or a function name",
                                found: "a variable occurrence".into(),
                            },
                        ));
                    }
                    // Stripped code: the operand names the function directly.
                    None => {
                        if links.strings().is_some_and(|n| v as usize >= n) {
                            return Err((
                                at,
                                ErrorKind::BadReference {
                                    what: "call operand",
                                    expected: "an occurrence of a FUNC entry or a STRG index (a function name)",
                                    found: format!("0x{v:08X}, on no function occurrence chain"),
                                },
                            ));
                        }
                        Instruction::CallByName {
                            t,
                            argc: lo,
                            name: StringRef(v),
                        }
                    }
                }
            }
            Opcode::Extended => {
                need_zero(t2n as u32, "second type of an extended instruction")?;
                let t = data_type(t1n, at)?;
                let operand = if t == DataType::Int32 {
                    let v = operand(4)?;
                    Some(match links.at(at) {
                        Some(l) if l.function => {
                            bound += 1;
                            if l.last {
                                if let Some(names) = links.names(true) {
                                    let name = names.get(l.index as usize).copied();
                                    if Some(v & 0xFF_FFFF) != name {
                                        return Err(last_mismatch(at, v, name));
                                    }
                                }
                                ExtOperand::Function {
                                    function: Id::new(l.index),
                                    asset_type: (v >> 24) as u8,
                                }
                            } else {
                                need_zero(v >> 27, "top bits of a function occurrence link")?;
                                ExtOperand::Function {
                                    function: Id::new(l.index),
                                    asset_type: links.script_asset_type(),
                                }
                            }
                        }
                        Some(_) => {
                            return Err((
                                at,
                                invalid(
                                    "extended instruction operand",
                                    "an asset or function reference",
                                    "a variable occurrence",
                                ),
                            ));
                        }
                        None => ExtOperand::Asset {
                            asset_type: (v >> 24) as u8,
                            index: v & 0xFF_FFFF,
                        },
                    })
                } else {
                    None
                };
                Instruction::Extended {
                    kind: ExtendedKind(lo as i16),
                    t,
                    operand,
                }
            }
            // Every opcode is one of the families above.
            other => {
                return Err((at, invalid("opcode", "a known instruction form", other.mnemonic())));
            }
        };
        i += ins.size();
        out.put(ins);
    }
    Ok(bound)
}

fn last_mismatch(at: usize, v: u32, name: Option<u32>) -> DecodeError {
    (
        at,
        invalid(
            "last occurrence operand",
            format!("the name's STRG index {name:?}"),
            format!("0x{v:08X}"),
        ),
    )
}

/// Checks a link operand without extra bits (call, push.i).
#[inline]
fn plain_link<L: LinkSource>(links: &L, at: usize, v: u32, l: Link) -> Result<(), DecodeError> {
    if l.last {
        if let Some(names) = links.names(l.function) {
            let name = names.get(l.index as usize).copied();
            if Some(v) != name {
                return Err(last_mismatch(at, v, name));
            }
        }
    } else if v >> 27 != 0 {
        return Err((
            at,
            invalid("occurrence link", "a 27-bit distance", format!("0x{v:08X}")),
        ));
    }
    Ok(())
}

/// Resolves a variable operand (push.v / pop).
#[inline]
fn var_operand<L: LinkSource>(
    links: &mut L,
    at: usize,
    v: u32,
    lo: u16,
) -> Result<VariableRef, DecodeError> {
    let l = links.at(at).filter(|l| !l.function).ok_or_else(|| {
        (
            at,
            ErrorKind::BadReference {
                what: "variable operand",
                expected: "an occurrence of a VARI entry",
                found: "an instruction on no variable occurrence chain".into(),
            },
        )
    })?;
    if l.last
        && let Some(names) = links.names(false)
    {
        let name = names.get(l.index as usize).copied();
        if Some(v & 0x07FF_FFFF) != name {
            return Err(last_mismatch(at, v, name));
        }
    }
    Ok(VariableRef {
        variable: Id::new(l.index),
        instance: InstanceType(lo as i16),
        ref_type: RefType((v >> 24) as u8 & 0xF8),
    })
}

// ---------------------------------------------------------------------------------------------
// Encoding

/// One occurrence of a variable or function written to CODE: the bits to merge into its
/// operand once the chain is known.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Occurrence {
    /// VARI/FUNC index.
    pub index: u32,
    /// Top byte bits always merged into the operand (variable ref type).
    pub always: u8,
    /// Top byte written only when this is the last occurrence (`pushref` asset type).
    pub last_tag: u8,
}

/// Why an instruction cannot be encoded.
pub(crate) type EncodeError = String;

/// The encoded first word and operand of an instruction.
pub(crate) struct Encoded {
    pub word: u32,
    /// Operand bytes (0, 4 or 8 significant).
    pub operand: u64,
    pub operand_len: u8,
    /// (is_function, occurrence) when the operand is a link to fill in later.
    pub link: Option<(bool, Occurrence)>,
}

#[inline]
fn tb(t1: DataType, t2: DataType) -> u32 {
    ((t1 as u32) | (t2 as u32) << 4) << 16
}

/// Encodes one instruction for the given family.
#[inline(always)]
pub(crate) fn encode(ins: &Instruction, new: bool) -> Result<Encoded, EncodeError> {
    let opbyte = |op: Opcode| -> Result<u32, EncodeError> {
        if new {
            Ok(op.new_code() as u32)
        } else {
            op.old_code()
                .map(|b| b as u32)
                .ok_or_else(|| format!("{} does not exist before bytecode 15", op.mnemonic()))
        }
    };
    let mut e = Encoded {
        word: 0,
        operand: 0,
        operand_len: 0,
        link: None,
    };
    let link = |function: bool, index: u32, always: u8, last_tag: u8| {
        Some((
            function,
            Occurrence {
                index,
                always,
                last_tag,
            },
        ))
    };
    match *ins {
        Instruction::Binary { op, t1, t2 } => {
            if !op.is_binary() {
                return Err(format!("{} is not a binary operation", op.mnemonic()));
            }
            e.word = opbyte(op)? << 24 | tb(t1, t2);
        }
        Instruction::Unary { op, t } => {
            if !op.is_unary() {
                return Err(format!("{} is not a one-type operation", op.mnemonic()));
            }
            e.word = opbyte(op)? << 24 | tb(t, DataType::Double);
        }
        Instruction::Compare { cmp, t1, t2 } => {
            e.word = if new {
                (Opcode::Cmp.new_code() as u32) << 24 | tb(t1, t2) | (cmp as u32) << 8
            } else {
                (0x10 + cmp as u32) << 24 | tb(t1, t2)
            };
        }
        Instruction::Pop { t1, t2, var } => {
            if t1 == DataType::Int16 {
                return Err("pop with first type int16 is the swap form (PopSwap)".into());
            }
            e.word = opbyte(Opcode::Pop)? << 24 | tb(t1, t2) | var.instance.0 as u16 as u32;
            e.operand_len = 4;
            e.link = link(false, var.variable.0, var.ref_type.0 & 0xF8, 0);
        }
        Instruction::PopSwap { t2, arg } => {
            e.word = opbyte(Opcode::Pop)? << 24 | tb(DataType::Int16, t2) | arg as u32;
        }
        Instruction::Dup { t, count, extra } => {
            e.word = opbyte(Opcode::Dup)? << 24
                | tb(t, DataType::Double)
                | (extra as u32) << 8
                | count as u32;
        }
        Instruction::CallV { t, argc } => {
            e.word = opbyte(Opcode::CallV)? << 24 | tb(t, DataType::Double) | argc as u32;
        }
        Instruction::Branch { op, offset } => {
            if !op.is_branch() {
                return Err(format!("{} is not a branch", op.mnemonic()));
            }
            let bits = if new {
                if !(-(1 << 22)..(1 << 22)).contains(&offset) {
                    return Err(format!("branch offset {offset} does not fit in 23 bits"));
                }
                offset as u32 & 0x7F_FFFF
            } else {
                if !(-(1 << 23)..(1 << 23)).contains(&offset) {
                    return Err(format!("branch offset {offset} does not fit in 24 bits"));
                }
                offset as u32 & 0xFF_FFFF
            };
            e.word = opbyte(op)? << 24 | bits;
        }
        Instruction::PopEnvExit => {
            if !new {
                return Err("the popenv exit form does not exist before bytecode 15".into());
            }
            e.word = (Opcode::PopEnv.new_code() as u32) << 24 | 0xF0_0000;
        }
        Instruction::Push { op, value } => {
            if !op.is_push() {
                return Err(format!("{} is not a push", op.mnemonic()));
            }
            let t = value.data_type();
            e.word = opbyte(op)? << 24 | tb(t, DataType::Double);
            e.operand_len = t.push_operand_size() as u8;
            match value {
                PushValue::Int16(v) => e.word |= v as u16 as u32,
                PushValue::Int32(v) => e.operand = v as u32 as u64,
                PushValue::Int64(v) => e.operand = v as u64,
                PushValue::Double(v) => e.operand = v.to_bits(),
                PushValue::Float(v) => e.operand = v.to_bits() as u64,
                PushValue::String(s) => e.operand = s.0 as u64,
                PushValue::Variable(var) => {
                    e.word |= var.instance.0 as u16 as u32;
                    e.link = link(false, var.variable.0, var.ref_type.0 & 0xF8, 0);
                }
                PushValue::Function(f) => e.link = link(true, f.0, 0, 0),
                PushValue::VariableId(v) => e.link = link(false, v.0, 0, 0),
                PushValue::Other { t, value } => {
                    if t.push_operand_size() != 4
                        || matches!(
                            t,
                            DataType::Int32 | DataType::Float | DataType::String | DataType::Variable
                        )
                    {
                        return Err(format!(
                            "PushValue::Other cannot carry type {}",
                            t.suffix()
                        ));
                    }
                    e.operand = value as u64;
                }
            }
        }
        Instruction::Call { t, argc, function } => {
            e.word = opbyte(Opcode::Call)? << 24 | tb(t, DataType::Double) | argc as u32;
            e.operand_len = 4;
            e.link = link(true, function.0, 0, 0);
        }
        Instruction::CallByName { t, argc, name } => {
            e.word = opbyte(Opcode::Call)? << 24 | tb(t, DataType::Double) | argc as u32;
            e.operand_len = 4;
            e.operand = name.0 as u64;
        }
        Instruction::Extended { kind, t, operand } => {
            if (t == DataType::Int32) != operand.is_some() {
                return Err("an extended instruction has an operand exactly when its type is int32".into());
            }
            e.word = opbyte(Opcode::Extended)? << 24 | tb(t, DataType::Double) | kind.0 as u16 as u32;
            match operand {
                None => {}
                Some(ExtOperand::Asset { asset_type, index }) => {
                    if index > 0xFF_FFFF {
                        return Err(format!("asset index {index} does not fit in 24 bits"));
                    }
                    e.operand_len = 4;
                    e.operand = ((asset_type as u32) << 24 | index) as u64;
                }
                Some(ExtOperand::Function {
                    function,
                    asset_type,
                }) => {
                    e.operand_len = 4;
                    e.link = link(true, function.0, 0, asset_type);
                }
            }
        }
    }
    if e.link.is_some() && e.operand_len == 0 {
        e.operand_len = 4;
    }
    Ok(e)
}

// ---------------------------------------------------------------------------------------------
// Display

/// Disassembly of an instruction; with a data file, variables, functions and strings are shown
/// by name.
pub struct Disassembly<'a> {
    ins: &'a Instruction,
    file: Option<&'a crate::DataFile>,
}

impl Disassembly<'_> {
    fn string(&self, s: StringRef) -> Option<String> {
        let t = self.file?.strings.as_ref()?;
        Some(t.get(s)?.to_string())
    }
    fn var_name(&self, v: VariableId) -> String {
        self.file
            .and_then(|f| f.variables.as_ref())
            .and_then(|vs| vs.variables.get(v.index()))
            .and_then(|var| self.string(var.name))
            .unwrap_or_else(|| format!("var#{}", v.0))
    }
    fn func_name(&self, v: FunctionId) -> String {
        self.file
            .and_then(|f| f.functions.as_ref())
            .and_then(|fs| fs.functions.get(v.index()))
            .and_then(|func| self.string(func.name))
            .unwrap_or_else(|| format!("func#{}", v.0))
    }
    fn var(&self, f: &mut fmt::Formatter<'_>, v: &VariableRef) -> fmt::Result {
        if let Some(n) = v.ref_type.name() {
            write!(f, "[{n}]")?;
        }
        write!(f, "{}.{}", v.instance, self.var_name(v.variable))
    }
}

impl fmt::Display for Disassembly<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mn = self.ins.opcode().mnemonic();
        match *self.ins {
            Instruction::Binary { t1, t2, .. } => write!(f, "{mn}.{}.{}", t1.suffix(), t2.suffix()),
            Instruction::Unary { t, .. } => write!(f, "{mn}.{}", t.suffix()),
            Instruction::Compare { cmp, t1, t2 } => {
                write!(f, "{mn}.{}.{} {}", t1.suffix(), t2.suffix(), cmp.name())
            }
            Instruction::Pop { t1, t2, ref var } => {
                write!(f, "{mn}.{}.{} ", t1.suffix(), t2.suffix())?;
                self.var(f, var)
            }
            Instruction::PopSwap { t2, arg } => write!(f, "{mn}.e.{} {arg}", t2.suffix()),
            Instruction::Dup { t, count, extra } => {
                write!(f, "{mn}.{} {count}", t.suffix())?;
                if extra != 0 {
                    write!(f, " {extra}")?;
                }
                Ok(())
            }
            Instruction::CallV { t, argc } => write!(f, "{mn}.{} {argc}", t.suffix()),
            Instruction::Branch { offset, .. } => write!(f, "{mn} [{offset:+}]"),
            Instruction::PopEnvExit => write!(f, "{mn} [exit]"),
            Instruction::Push { value, .. } => {
                write!(f, "{mn}.{} ", value.data_type().suffix())?;
                match value {
                    PushValue::Int16(v) => write!(f, "{v}"),
                    PushValue::Int32(v) => write!(f, "{v}"),
                    PushValue::Int64(v) => write!(f, "{v}"),
                    PushValue::Double(v) => write!(f, "{v:?}"),
                    PushValue::Float(v) => write!(f, "{v:?}"),
                    PushValue::String(s) => match self.string(s) {
                        Some(t) => write!(f, "{t:?}"),
                        None => write!(f, "string#{}", s.0),
                    },
                    PushValue::Variable(ref v) => self.var(f, v),
                    PushValue::Function(func) => write!(f, "[function]{}", self.func_name(func)),
                    PushValue::VariableId(v) => write!(f, "[variable]{}", self.var_name(v)),
                    PushValue::Other { value, .. } => write!(f, "{value}"),
                }
            }
            Instruction::Call { t, argc, function } => {
                write!(f, "{mn}.{} {}(argc={argc})", t.suffix(), self.func_name(function))
            }
            Instruction::CallByName { t, argc, name } => match self.string(name) {
                Some(n) => write!(f, "{mn}.{} [name]{n}(argc={argc})", t.suffix()),
                None => write!(f, "{mn}.{} [name]string#{}(argc={argc})", t.suffix(), name.0),
            },
            Instruction::Extended { kind, t, operand } => {
                match kind.name() {
                    Some(n) => write!(f, "{n}.{}", t.suffix())?,
                    None => write!(f, "ext{}.{}", kind.0, t.suffix())?,
                }
                match operand {
                    None => Ok(()),
                    Some(ExtOperand::Asset { asset_type, index }) => {
                        write!(f, " [asset type {asset_type}]{index}")
                    }
                    Some(ExtOperand::Function { function, .. }) => {
                        write!(f, " [function]{}", self.func_name(function))
                    }
                }
            }
        }
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Disassembly { ins: self, file: None }, f)
    }
}
