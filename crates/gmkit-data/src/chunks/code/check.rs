//! The validation scan of a blob while parsing: one pass over its words that checks what
//! [`instruction::decode`] checks (known opcode and types, zero bits, operands present,
//! occurrence links and their last operands, string indices) and binds the occurrences, without
//! building [`Instruction`](super::Instruction)s.
//!
//! Each instruction word is classified by a table indexed by its top 16 bits, the opcode and
//! type bytes (computed at compile time from [`Opcode`] and [`DataType`]), that gives its size,
//! the bits of its low half that must be zero and what to check of its operand: the common
//! case is a table load, an `and` and a compare, and for variable and function operands one
//! slot lookup. It accepts a subset of what the full decoder accepts (exactly the same set on
//! well-formed code); on anything else it gives up and the caller runs the full decoder, which
//! reports the error with its offset.
//!
//! The same pass notes the version features its words show (`extended` and `dup.e` words,
//! marked in the table; see `code::feature_flags`), which lets version detection leave the
//! bytecode unread while parsing.

use super::instruction::{EncLink, Link, Links};
use super::opcode::{DataType, Opcode};

/// Not an instruction the scan accepts: run the full decoder.
const BAD: u8 = 0;
/// Two types, low half zero (arithmetic, `conv`).
const BINARY: u8 = 1;
/// One type, second type and low half zero (`neg`, `not`, `ret`, `exit`, `popz`).
const UNARY: u8 = 2;
/// bc ≥ 15 `cmp`: low byte zero, comparison kind 1–6 in the next byte.
const CMP_NEW: u8 = 3;
/// Two types, any low half (`pop.e` swap).
const TWO_TYPES_ANY: u8 = 4;
/// Second type zero, any low half (`dup`, `callv`, extended without operand, `push.e`).
const ONE_TYPE_ANY: u8 = 5;
/// Any type byte and low half (bc ≤ 14 branches: the offset takes 24 bits).
const ANY: u8 = 6;
/// bc ≥ 15 branch: bit 23 clear (a 23-bit offset).
const BRANCH_NEW: u8 = 7;
/// bc ≥ 15 `popenv`: a 23-bit offset or exactly 0xF00000.
const POPENV_NEW: u8 = 8;
/// `pop` to a variable: two types, operand on a variable occurrence chain.
const POP_VAR: u8 = 9;
/// `push.v`: operand on a variable occurrence chain.
const PUSH_VAR: u8 = 10;
/// A push with a plain 4-byte operand (low half zero).
const PUSH_4: u8 = 11;
/// A push with an 8-byte operand (`push.d`, `push.l`; low half zero).
const PUSH_8: u8 = 12;
/// `push.s`: a STRG index.
const PUSH_STRING: u8 = 13;
/// `push.i`: a plain value or an occurrence link.
const PUSH_INT32: u8 = 14;
/// `call`: a function occurrence or (stripped code) a STRG index; type 2 unchecked.
const CALL: u8 = 15;
/// Extended with an int32 operand (`pushref`): an asset or a function occurrence.
const EXTENDED_INT32: u8 = 16;
/// bc ≤ 14 `cmp` (kind in the opcode): low half zero.
const CMP_OLD: u8 = 17;

/// The class of an instruction word by its opcode byte and type-1 nibble.
const fn class_of(opb: u8, t1n: u8, new: bool) -> u8 {
    let (op, old_cmp) = if new {
        match Opcode::from_new(opb) {
            Some(op) => (op, false),
            None => return BAD,
        }
    } else {
        match Opcode::from_old(opb) {
            Some((op, cmp)) => (op, cmp.is_some()),
            None => return BAD,
        }
    };
    if op.is_branch() {
        return if !new {
            ANY
        } else if matches!(op, Opcode::PopEnv) {
            POPENV_NEW
        } else {
            BRANCH_NEW
        };
    }
    let Some(t) = DataType::from_nibble(t1n) else {
        return BAD;
    };
    if op.is_binary() {
        return BINARY;
    }
    if op.is_unary() {
        return UNARY;
    }
    if op.is_push() {
        return match t {
            DataType::Int16 => ONE_TYPE_ANY,
            DataType::Variable => PUSH_VAR,
            DataType::String => PUSH_STRING,
            DataType::Int32 => PUSH_INT32,
            DataType::Double | DataType::Int64 => PUSH_8,
            _ => PUSH_4,
        };
    }
    match op {
        Opcode::Cmp if old_cmp => CMP_OLD,
        Opcode::Cmp => CMP_NEW,
        Opcode::Pop if matches!(t, DataType::Int16) => TWO_TYPES_ANY,
        Opcode::Pop => POP_VAR,
        Opcode::Dup | Opcode::CallV => ONE_TYPE_ANY,
        Opcode::Call => CALL,
        Opcode::Extended if matches!(t, DataType::Int32) => EXTENDED_INT32,
        Opcode::Extended => ONE_TYPE_ANY,
        _ => BAD,
    }
}

// What the scan does with an instruction word, by its top 16 bits (opcode byte and type byte):
// a descriptor `kind << 24 | size << 16 | mask`, where `mask` holds the bits of the low half
// that must be zero. Everything the classes ask of the type byte (known types, a zero second
// type, bit 23 of a branch offset) is decided by the index, so the common case is one table
// load, one `and` with the word and a compare.

/// No operand to look at: the instruction is accepted once its low half passes the mask.
const K_PLAIN: u32 = 0;
/// Refused (or left to the full decoder).
const K_BAD: u32 = 1;
/// bc ≥ 15 `cmp`: comparison kind 1–6 in bits 8–10 (the mask clears the others).
const K_CMP: u32 = 2;
/// `push.s`: a STRG index.
const K_STRING: u32 = 3;
/// `pop`/`push.v`: a variable occurrence.
const K_VAR: u32 = 4;
/// `push.i`: a plain value or an occurrence.
const K_INT32: u32 = 5;
/// `call`: a function occurrence or a STRG index.
const K_CALL: u32 = 6;
/// Extended with an int32 operand: an asset or a function occurrence.
const K_EXT_INT32: u32 = 7;

const fn desc(kind: u32, size: u32, mask: u32) -> u32 {
    kind << 24 | size << 16 | mask
}

/// The refused descriptor.
const D_BAD: u32 = desc(K_BAD, 0, 0);

/// The descriptor of an instruction word by its top 16 bits.
const fn descriptor(top: u32, new: bool) -> u32 {
    let class = class_of((top >> 8) as u8, (top & 0xF) as u8, new);
    let t2 = (top >> 4) & 0xF;
    let t2_valid = DataType::from_nibble(t2 as u8).is_some();
    let t2_zero = t2 == 0;
    let (ok, d) = match class {
        BINARY | CMP_OLD => (t2_valid, desc(K_PLAIN, 4, 0xFFFF)),
        UNARY => (t2_zero, desc(K_PLAIN, 4, 0xFFFF)),
        CMP_NEW => (t2_valid, desc(K_CMP, 4, 0xF8FF)),
        TWO_TYPES_ANY => (t2_valid, desc(K_PLAIN, 4, 0)),
        ONE_TYPE_ANY => (t2_zero, desc(K_PLAIN, 4, 0)),
        ANY => (true, desc(K_PLAIN, 4, 0)),
        BRANCH_NEW => (t2 & 8 == 0, desc(K_PLAIN, 4, 0)),
        // Bit 23 set: only 0xF00000 (type byte 0xF0, low half zero).
        POPENV_NEW if t2 & 8 == 0 => (true, desc(K_PLAIN, 4, 0)),
        POPENV_NEW => (top & 0xFF == 0xF0, desc(K_PLAIN, 4, 0xFFFF)),
        PUSH_4 => (t2_zero, desc(K_PLAIN, 8, 0xFFFF)),
        PUSH_8 => (t2_zero, desc(K_PLAIN, 12, 0xFFFF)),
        PUSH_STRING => (t2_zero, desc(K_STRING, 8, 0xFFFF)),
        POP_VAR => (t2_valid, desc(K_VAR, 8, 0)),
        PUSH_VAR => (t2_zero, desc(K_VAR, 8, 0)),
        PUSH_INT32 => (t2_zero, desc(K_INT32, 8, 0xFFFF)),
        // The second type of a call is unused (the decoder refuses it too).
        CALL => (t2_zero, desc(K_CALL, 8, 0)),
        EXTENDED_INT32 => (t2_zero, desc(K_EXT_INT32, 8, 0)),
        _ => (false, D_BAD),
    };
    if ok { d } else { D_BAD }
}

/// The distinct descriptors of one bytecode family and, by the top 16 bits of a word, the
/// index of its descriptor (a 64 KiB table of bytes rather than one of words). Bit 7 of an
/// index marks the words version detection looks at (`extended`, `dup.e`: see
/// `code::scan_features`).
///
/// The size of an instruction comes from a second, 4 KiB table by opcode and type-1 nibble
/// (what it depends on), which stays in the L1 cache: the scan's loop-carried dependency is
/// where the next instruction starts, and taking its size from the descriptor (two dependent
/// loads, one from the 64 KiB table) made every instruction wait for them. The descriptor
/// check is then off that path: the processor goes on to the next instruction while it is
/// pending (parse of code-dense files 12–24 % faster with the change of the same
/// commit, measured by interleaved runs).
pub(crate) struct Table {
    descriptors: [u32; 32],
    index: [u8; 65536],
    /// Size by opcode byte and type-1 nibble (that of the descriptor for every word the scan
    /// accepts; anything for the others, which the descriptor refuses).
    sizes: [[u8; 16]; 256],
}

/// Bit of [`Table::index`] entries marking the words version detection looks at.
const FEATURE: u8 = 0x80;

const fn table(new: bool) -> Table {
    let mut t = Table {
        descriptors: [D_BAD; 32],
        index: [0; 65536],
        sizes: [[0; 16]; 256],
    };
    // Descriptor 0 is D_BAD.
    let mut n = 1;
    let mut top = 0;
    while top < 65536 {
        let d = descriptor(top as u32, new);
        let mut k = 0;
        while k < n && t.descriptors[k] != d {
            k += 1;
        }
        if k == n {
            // The scan masks the index with 31.
            assert!(n < 32, "more than 32 instruction descriptors");
            t.descriptors[n] = d;
            n += 1;
        }
        let op = (top >> 8) as u8;
        let feature = new
            && (op == Opcode::Extended.new_code()
                || (op == Opcode::Dup.new_code() && top & 0xF == DataType::Int16 as usize));
        t.index[top] = k as u8 | if feature { FEATURE } else { 0 };
        if d != D_BAD {
            t.sizes[top >> 8][top & 0xF] = ((d >> 16) & 0xFF) as u8;
        }
        top += 1;
    }
    t
}

impl Table {
    /// The size of the instruction whose first word is `w`, when it is one the scan accepts
    /// (by its top 16 bits) and version detection need not look at; else `None`.
    #[cfg(test)]
    pub(crate) fn plain_size(&self, w: u32) -> Option<usize> {
        let x = self.index[(w >> 16) as usize];
        if x & FEATURE != 0 || x == 0 {
            return None;
        }
        Some(((self.descriptors[(x & 31) as usize] >> 16) & 0xFF) as usize)
    }
}

/// For version detection (bc ≥ 15), by the top 16 bits of an instruction word: its size when
/// the scan accepts it (by those bits) and detection need not look at it, else 0.
pub(crate) static PLAIN_SIZES_NEW: [u8; 65536] = {
    let mut s = [0u8; 65536];
    let mut top = 0;
    while top < 65536 {
        let x = TABLE_NEW.index[top];
        if x & FEATURE == 0 && x != 0 {
            s[top] = ((TABLE_NEW.descriptors[(x & 31) as usize] >> 16) & 0xFF) as u8;
        }
        top += 1;
    }
    s
};

static TABLE_NEW: Table = table(true);
static TABLE_OLD: Table = table(false);

/// Scans one blob (`bytes` starts at absolute offset `base` of the file) with forward binding
/// (see `bind_chains`): each occurrence reached takes its chain's slot, and unless it is the
/// last one, marks the slot of the next occurrence (its operand is the distance to it). The
/// occurrences are recorded in `links.found` like the full decoder does. Returns the number of
/// occurrences bound, or `None` when the full decoder must decide (an error, or a form the scan
/// leaves to it).
///
/// The next slot is written without looking (a load there would miss the cache on every
/// link): each chain has one pending slot at a time, so a chain that meets another one loses
/// its pending slot or takes the other's, and either way some chain never reaches its count,
/// which the caller's final count (occurrences bound = occurrences listed) catches.
pub(crate) fn scan(bytes: &[u8], base: usize, new: bool, links: &mut Links) -> Option<usize> {
    if new {
        scan_with::<true>(bytes, base, links)
    } else {
        scan_with::<false>(bytes, base, links)
    }
}

/// [`scan`] for one bytecode family (its table at a fixed address).
#[inline(never)]
fn scan_with<const NEW: bool>(bytes: &[u8], base: usize, links: &mut Links) -> Option<usize> {
    let (table, new) = if NEW { (&TABLE_NEW, true) } else { (&TABLE_OLD, false) };
    let off = base.checked_sub(links.code_start)?;
    // Instructions are whole words: a blob with a partial word ends in a truncated one.
    if off % 4 != 0 || !bytes.len().is_multiple_of(4) {
        return None;
    }
    let first_word = off / 4;
    // The state the loop uses, in locals (not reloaded after each store).
    let code_len = links.code_len;
    let strings = links.strings;
    let names = Names {
        strg_addrs: links.strg_addrs,
        var_names: links.var_names,
        func_names: links.func_names,
        file: links.file,
        strg: links.strg,
    };
    let (strg_addrs, var_names) = (names.strg_addrs, names.var_names);
    let function_ends = &mut links.function_ends[..];
    let slots = &mut *links.slots;
    let [left_v, left_f] = &mut links.left;
    let found = &mut links.found;
    let mut bound = 0usize;
    let mut features = 0u8;
    let n = bytes.len();
    let mut rest = bytes;
    let mut pad;
    while !rest.is_empty() {
        // Every instruction is at most 12 bytes: while 12 bytes are left, one length check
        // covers the instruction and its operands; the last few words are padded with zeros.
        let ins: &[u8; 12] = match rest.first_chunk::<12>() {
            Some(c) => c,
            None => {
                pad = [0; 12];
                pad[..rest.len()].copy_from_slice(rest);
                &pad
            }
        };
        let w = u32::from_le_bytes(ins[0..4].try_into().ok()?);
        let x = table.index[(w >> 16) as usize];
        if NEW && x & FEATURE != 0 {
            features |= super::feature_flags(w, Some(u32::from_le_bytes(ins[4..8].try_into().ok()?)));
        }
        let size = table.sizes[(w >> 24) as usize][((w >> 16) & 0xF) as usize] as usize;
        let d = table.descriptors[(x & 31) as usize];
        if w & d & 0xFFFF != 0 {
            return None;
        }
        let i = n - rest.len();
        // The instruction must end inside the blob.
        rest = rest.get(size..)?;
        let kind = d >> 24;
        if kind != K_PLAIN {
            let v = u32::from_le_bytes(ins[4..8].try_into().ok()?);
            match kind {
                K_CMP => {
                    let cmp = (w >> 8) & 7;
                    if cmp == 0 || cmp == 7 {
                        return None;
                    }
                }
                K_STRING => {
                    if v as usize >= strings {
                        return None;
                    }
                }
                K_VAR | K_INT32 | K_CALL | K_EXT_INT32 => {
                    // The occurrence at this word, if any: it takes its chain's slot.
                    let word = first_word + i / 4;
                    let slot = slots.get_mut(word)?;
                    let s = *slot;
                    // Taken: the table is clean again once every chain is bound (see
                    // `code::spare_slots`).
                    *slot = u32::MAX;
                    if s == u32::MAX {
                        if kind == K_VAR || (kind == K_CALL && v as usize >= strings) {
                            return None;
                        }
                    } else {
                        let (function, index) = (s & 2 != 0, s >> 2);
                        let left = if function { &mut **left_f } else { &mut **left_v };
                        let chain = left.get_mut(index as usize)?;
                        chain[0] = chain[0].checked_sub(1)?;
                        let last = chain[0] == 0;
                        if last {
                            // Where the chain ends (see `chains`).
                            chain[1] = word as u32;
                        } else {
                            // Mark the next occurrence of the chain (inside CODE, whole words
                            // ahead).
                            let dist = (v & 0x07FF_FFFF) as usize;
                            if dist == 0 || !dist.is_multiple_of(4) || word * 4 + dist + 8 > code_len {
                                return None;
                            }
                            *slots.get_mut(word + dist / 4)? = s;
                        }
                        if kind == K_VAR {
                            if function
                                || (last && !is_name(strg_addrs, v & 0x07FF_FFFF, *var_names.get(index as usize)?))
                            {
                                return None;
                            }
                        } else {
                            if kind != K_INT32 && !function {
                                return None;
                            }
                            if last {
                                let value = if kind == K_EXT_INT32 { v & 0xFF_FFFF } else { v };
                                if !last_ok(&names, function_ends, (function, index), value, (w, v), new)? {
                                    return None;
                                }
                            } else if v >> 27 != 0 {
                                return None;
                            }
                        }
                        found.push(EncLink::new(
                            i as u32,
                            Link {
                                function,
                                index,
                                last,
                            },
                        ));
                        bound += 1;
                    }
                }
                _ => return None,
            }
        }
    }
    links.features |= features;
    Some(bound)
}

/// What checking the last occurrence of a chain reads.
struct Names<'a> {
    strg_addrs: &'a [u8],
    var_names: &'a [u32],
    func_names: &'a [u32],
    file: &'a [u8],
    strg: Option<(usize, usize)>,
}

/// Whether STRG entry `index` is the string a VARI or FUNC name pointer `ptr` refers to
/// (`strg_addrs`: see `Links::strg_addrs`).
#[inline(always)]
fn is_name(strg_addrs: &[u8], index: u32, ptr: u32) -> bool {
    let i = index as usize * 4;
    match strg_addrs.get(i..i + 4) {
        Some(a) => u32::from_le_bytes([a[0], a[1], a[2], a[3]]).wrapping_add(4) == ptr,
        None => false,
    }
}

/// Whether `value` is what the last occurrence of chain `(function, index)` (instruction word
/// `w`, operand `v`) must hold: the entry's name, or for a function chain ending on the name of
/// a global script (2024.13+, a script passed by value), that name. Records what a function
/// chain ends on in `function_ends`.
#[inline(never)]
fn last_ok(
    names: &Names,
    function_ends: &mut [u32],
    (function, index): (bool, u32),
    value: u32,
    (w, v): (u32, u32),
    new: bool,
) -> Option<bool> {
    if !function {
        return Some(is_name(names.strg_addrs, value, *names.var_names.get(index as usize)?));
    }
    let name = *names.func_names.get(index as usize)?;
    // What `chain_end_value` reads: the operand, without a pushref's asset-type byte.
    let end = if new && (w >> 24) as u8 == Opcode::Extended.new_code() {
        v & 0xFF_FFFF
    } else {
        v
    };
    if let Some(e) = function_ends.get_mut(index as usize) {
        *e = end;
    }
    // The exact binding's rule: the chain ends on the name, unless it ends on another string
    // that names a global script.
    Some(
        if is_name(names.strg_addrs, end, name)
            || super::is_global_script_name_in(names.file, names.strg, end)
        {
            value == end
        } else {
            is_name(names.strg_addrs, value, name)
        },
    )
}

#[cfg(test)]
thread_local! {
    /// Tests: read CODE with the exact binding and decoder only.
    pub(crate) static EXACT_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
mod tests {
    use super::EXACT_ONLY;
    use super::{D_BAD, FEATURE, K_BAD, TABLE_NEW, TABLE_OLD};
    use crate::chunks::code::instruction::size_of_word;

    /// Every word the table accepts has the size the decoder gives it, and version detection's
    /// fast step skips only words it does not look at.
    #[test]
    fn table_sizes_agree_with_the_decoder() {
        for (table, new) in [(&TABLE_NEW, true), (&TABLE_OLD, false)] {
            for top in 0..65536u32 {
                let x = table.index[top as usize];
                let d = table.descriptors[(x & 31) as usize];
                let w = top << 16;
                if x & 31 == 0 {
                    assert_eq!(d, D_BAD);
                    continue;
                }
                assert_ne!(d >> 24, K_BAD);
                assert_eq!(Some(((d >> 16) & 0xFF) as usize), size_of_word(w, new), "{w:08X}");
                let size = table.sizes[(top >> 8) as usize][(top & 0xF) as usize];
                assert_eq!(size as u32, (d >> 16) & 0xFF, "{w:08X}");
                let op = (top >> 8) as u8;
                let feature = new && (op == 0xFF || (op == 0x86 && top & 0xF == 0xF));
                assert_eq!(x & FEATURE != 0, feature, "{w:08X}");
                assert_eq!(table.plain_size(w).is_some(), !feature, "{w:08X}");
                if new {
                    let s = super::PLAIN_SIZES_NEW[top as usize] as usize;
                    assert_eq!(table.plain_size(w).unwrap_or(0), s);
                }
            }
        }
    }

    /// Parses with the fast scan (falling back to the exact reading) and with the exact reading
    /// only: both must accept the same files and give the same code and functions.
    fn same_both_ways(data: &[u8]) -> bool {
        let fast = crate::parse_bytes(data.to_vec());
        EXACT_ONLY.set(true);
        let exact = crate::parse_bytes(data.to_vec());
        EXACT_ONLY.set(false);
        match (&fast, &exact) {
            (Ok(a), Ok(b)) => {
                assert!(a.code == b.code && a.functions == b.functions, "models differ");
                true
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string());
                false
            }
            _ => panic!(
                "fast {:?} / exact {:?}",
                fast.as_ref().err(),
                exact.as_ref().err()
            ),
        }
    }

    /// Every corpus file, then mutated words of CODE (instruction words, operands, chain
    /// links) and of the VARI/FUNC occurrence fields: the fast scan never accepts what the exact
    /// reading refuses, and never binds differently.
    #[test]
    fn fast_scan_agrees_with_exact_decoding() {
        let corpus = gmkit_testdata::need!(gmkit_testdata::corpus());
        let mut rng = gmkit_testdata::Rng(0x5EED_C0DE_0BAD_F00D);
        let (mut accepted, mut refused) = (0, 0);
        for (name, data) in &corpus {
            assert!(same_both_ways(data), "{name} does not parse");
            let Ok((chunks, _)) = crate::container::scan(data, false) else {
                continue;
            };
            let ranges: Vec<(usize, usize)> = chunks
                .iter()
                .filter(|c| [*b"CODE", *b"VARI", *b"FUNC"].contains(&c.0.0) && c.2 >= c.1 + 8)
                .map(|c| (c.1, c.2))
                .collect();
            if ranges.is_empty() {
                continue;
            }
            for _ in 0..40 {
                let mut m = data.clone();
                let (s, e) = ranges[rng.below(ranges.len())];
                let at = s + rng.below((e - s) / 4) * 4;
                match rng.below(4) {
                    // One bit of the word.
                    0 => m[at + rng.below(4)] ^= 1 << rng.below(8),
                    // The top byte (opcode) or the type byte.
                    1 => m[at + 2 + rng.below(2)] = rng.below(256) as u8,
                    // A small change of a value (a link distance, a count, an address).
                    2 => {
                        let w = u32::from_le_bytes(m[at..at + 4].try_into().unwrap());
                        let w = w.wrapping_add([4u32, 8, 0xFFFF_FFFC, 1][rng.below(4)]);
                        m[at..at + 4].copy_from_slice(&w.to_le_bytes());
                    }
                    // Another word of the same chunk.
                    _ => {
                        let from = s + rng.below((e - s) / 4) * 4;
                        m.copy_within(from..from + 4, at);
                    }
                }
                if same_both_ways(&m) {
                    accepted += 1;
                } else {
                    refused += 1;
                }
            }
        }
        // The sweep reaches both outcomes.
        assert!(accepted > 0 && refused > 0, "{accepted} accepted, {refused} refused");
    }
}
