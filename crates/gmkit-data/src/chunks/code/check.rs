//! The validation scan of a blob while parsing: one pass over its words that checks what
//! [`instruction::decode`] checks (known opcode and types, zero bits, operands present,
//! occurrence links and their last operands, string indices) and binds the occurrences, without
//! building [`Instruction`](super::Instruction)s.
//!
//! Each instruction word is classified by a table indexed by its opcode byte and type-1 nibble
//! (computed at compile time from [`Opcode`] and [`DataType`]), so the scan is a table load, a
//! few bit tests and, for variable and function operands, one slot lookup. It accepts a subset
//! of what the full decoder accepts (exactly the same set on well-formed code); on anything else
//! it gives up and the caller runs the full decoder, which reports the error with its offset.

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

/// The type nibbles [`DataType::from_nibble`] accepts, as a bit set.
const VALID_TYPES: u32 = {
    let mut m = 0;
    let mut n = 0;
    while n < 16 {
        if DataType::from_nibble(n).is_some() {
            m |= 1 << n;
        }
        n += 1;
    }
    m
};

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

/// Classes by `opcode byte << 4 | type-1 nibble`.
const fn table(new: bool) -> [u8; 4096] {
    let mut t = [BAD; 4096];
    let mut i = 0;
    while i < 4096 {
        t[i] = class_of((i >> 4) as u8, (i & 0xF) as u8, new);
        i += 1;
    }
    t
}

static CLASSES_NEW: [u8; 4096] = table(true);
static CLASSES_OLD: [u8; 4096] = table(false);

#[inline(always)]
fn word(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?))
}

/// Scans one blob (`bytes` starts at absolute offset `base` of the file) with forward binding
/// (see `bind_chains`): each occurrence reached takes its chain's slot, and unless it is the
/// last one, marks the slot of the next occurrence (its operand is the distance to it). The
/// occurrences are recorded in `links.found` like the full decoder does. Returns the number of
/// occurrences bound, or `None` when the full decoder must decide (an error, or a form the scan
/// leaves to it).
pub(crate) fn scan(bytes: &[u8], base: usize, new: bool, links: &mut Links) -> Option<usize> {
    let classes = if new { &CLASSES_NEW } else { &CLASSES_OLD };
    let off = base.checked_sub(links.code_start)?;
    if off % 4 != 0 {
        return None;
    }
    let first_word = off / 4;
    let mut bound = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        let w = word(bytes, i)?;
        let class = classes[((w >> 20) & 0xFF0 | (w >> 16) & 0xF) as usize];
        let t2 = (w >> 20) & 0xF;
        let lo = w & 0xFFFF;
        let t2_valid = VALID_TYPES >> t2 & 1 != 0;
        let size = match class {
            BINARY | CMP_OLD if lo == 0 && t2_valid => 4,
            UNARY if lo == 0 && t2 == 0 => 4,
            CMP_NEW if lo & 0xFF == 0 && (1..=6).contains(&(lo >> 8)) && t2_valid => 4,
            TWO_TYPES_ANY if t2_valid => 4,
            ONE_TYPE_ANY if t2 == 0 => 4,
            ANY => 4,
            BRANCH_NEW if w & 0x80_0000 == 0 => 4,
            POPENV_NEW if w & 0x80_0000 == 0 || w & 0xFF_FFFF == 0xF0_0000 => 4,
            PUSH_4 if lo == 0 && t2 == 0 => {
                word(bytes, i + 4)?;
                8
            }
            PUSH_8 if lo == 0 && t2 == 0 => {
                word(bytes, i + 8)?;
                12
            }
            PUSH_STRING if lo == 0 && t2 == 0 => {
                if word(bytes, i + 4)? as usize >= links.strings {
                    return None;
                }
                8
            }
            POP_VAR | PUSH_VAR if (class == POP_VAR && t2_valid) || t2 == 0 => {
                let v = word(bytes, i + 4)?;
                let l = occurrence(links, first_word + i / 4, v)?.filter(|l| !l.function)?;
                if l.last && Some(v & 0x07FF_FFFF) != links.var_names.get(l.index as usize).copied() {
                    return None;
                }
                links.found.push(EncLink::new(i as u32, l));
                bound += 1;
                8
            }
            PUSH_INT32 | CALL | EXTENDED_INT32
                if class == CALL || (t2 == 0 && (class == EXTENDED_INT32 || lo == 0)) =>
            {
                let v = word(bytes, i + 4)?;
                match occurrence(links, first_word + i / 4, v)? {
                    Some(l) => {
                        if class != PUSH_INT32 && !l.function {
                            return None;
                        }
                        let value = if class == EXTENDED_INT32 { v & 0xFF_FFFF } else { v };
                        if l.last {
                            if Some(value) != last_name(links, l, w, v, new) {
                                return None;
                            }
                        } else if v >> 27 != 0 {
                            return None;
                        }
                        links.found.push(EncLink::new(i as u32, l));
                        bound += 1;
                    }
                    None if class == CALL && v as usize >= links.strings => return None,
                    None => {}
                }
                8
            }
            _ => return None,
        };
        i += size;
    }
    Some(bound)
}

/// The occurrence whose instruction is at CODE word `word` (operand `v`), if any, marking the
/// next occurrence of its chain. `None` when the chain leaves CODE or steps by zero or a
/// non-multiple of 4: the exact binding reports it.
///
/// The next slot is written without looking (a load there would miss the cache on every
/// link): each chain has one pending slot at a time, so a chain that meets another one loses
/// its pending slot or takes the other's, and either way some chain never reaches its count,
/// which the caller's final count (occurrences bound = occurrences listed) catches.
#[inline(always)]
fn occurrence(links: &mut Links, word: usize, v: u32) -> Option<Option<Link>> {
    let s = *links.slots.get(word)?;
    if s == u32::MAX {
        return Some(None);
    }
    let (function, index) = (s & 2 != 0, s >> 2);
    let left = links.left[function as usize].get_mut(index as usize)?;
    *left = left.checked_sub(1)?;
    let last = *left == 0;
    if !last {
        let dist = (v & 0x07FF_FFFF) as usize;
        if dist == 0 || !dist.is_multiple_of(4) || word * 4 + dist + 8 > links.code_len {
            return None;
        }
        *links.slots.get_mut(word + dist / 4)? = s;
    }
    Some(Some(Link {
        function,
        index,
        last,
    }))
}

/// The name the last occurrence of a chain must hold: the entry's name, or for a function
/// chain ending on the name of a global script (2024.13+, a script passed by value), that name.
/// Records what a function chain ends on in `links.function_ends`.
#[inline]
fn last_name(links: &mut Links, l: Link, w: u32, v: u32, new: bool) -> Option<u32> {
    if !l.function {
        return links.var_names.get(l.index as usize).copied();
    }
    let name = links.func_names.get(l.index as usize).copied();
    // What `chain_end_value` reads: the operand, without a pushref's asset-type byte.
    let end = if new && (w >> 24) as u8 == Opcode::Extended.new_code() {
        v & 0xFF_FFFF
    } else {
        v
    };
    if let Some(e) = links.function_ends.get_mut(l.index as usize) {
        *e = end;
    }
    if Some(end) != name && super::is_global_script_name_in(links.file, links.strg, end) {
        Some(end)
    } else {
        name
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: read CODE with the exact binding and decoder only.
    pub(crate) static EXACT_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
mod tests {
    use super::EXACT_ONLY;

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
