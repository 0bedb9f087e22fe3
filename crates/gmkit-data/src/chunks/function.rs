//! `FUNC`: the functions bytecode calls, and (before 2024.8) the local variable names of each
//! code entry.
//!
//! Layout (§5.3): bc ≥ 15: simple list of functions (name, `u32` occurrence count, `i32` first
//! occurrence address), then [< 2024.8] a simple list of code locals: `u32` local count, code
//! entry name, then (`u32` index, name) per local. bc ≤ 14: 12-byte function entries to the
//! chunk end, no count and no locals. YYC games before bc 17: empty body.
//!
//! As in VARI, occurrence counts and first addresses are recomputed from CODE when writing.
//! First addresses point at the instruction before 2.3 and at its operand (instruction + 4) from
//! 2.3 on.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::code::{
    Chain, chain_end_value, chain_last, check_chains, end_chain, function_first_is_operand,
    new_bytecode,
};
use crate::chunks::variable::{OccurrenceTable, code_checks_chains, read_occurrences};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;

/// One function (a builtin or a script function).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Function {
    /// The name.
    pub name: StringRef,
    /// The STRG index the last occurrence of the function's chain holds when it is not `name`:
    /// in 2024.13+ a script passed by value (a menu callback, say) ends its chain on
    /// `gml_GlobalScript_<name>`. `None` in the usual case. Written as read, whichever
    /// occurrence ends the chain after an edit.
    pub chain_end: Option<StringRef>,
}

impl Function {
    /// A function named by `name`, with the usual chain end (its own name).
    pub fn new(name: StringRef) -> Self {
        Function {
            name,
            chain_end: None,
        }
    }
}

/// One local variable of a code entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Local {
    /// Slot index (in 2.3+ the local named `arguments` uses its name's STRG index).
    pub index: u32,
    /// The name.
    pub name: StringRef,
}

/// The locals of one code entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CodeLocals {
    /// Name of the code entry.
    pub code_name: StringRef,
    /// Its locals.
    pub locals: Vec<Local>,
}

/// The `FUNC` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Functions {
    /// The functions; CODE refers to them by index.
    pub functions: Vec<Function>,
    /// Code locals (bc ≥ 15 before 2024.8; `None` when the layout has no such list).
    pub code_locals: Option<Vec<CodeLocals>>,
    /// The chunk body is empty (YYC-compiled game before bc 17).
    pub empty_body: bool,
}

/// Whether functions are a counted list (bc ≥ 15) rather than a bare run of entries.
#[inline]
fn counted(v: &Version) -> bool {
    v.bytecode >= 15
}

/// Whether the code-locals list follows the functions (bc ≥ 15, before 2024.8).
#[inline]
fn has_code_locals(v: &Version) -> bool {
    counted(v) && !v.at_least(2024, 8)
}

/// Reads `(name pointer, occurrence count, first address)` of every function straight from
/// the file (used by CODE). `None` when the table is malformed.
pub(crate) fn occurrence_table(
    file: &[u8],
    (start, end): (usize, usize),
    v: &Version,
) -> Option<OccurrenceTable> {
    let rd = |p: usize| -> Option<u32> {
        Some(u32::from_le_bytes(file.get(p..p.checked_add(4)?)?.try_into().ok()?))
    };
    if start == end {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    if counted(v) {
        let n = rd(start)? as usize;
        if n.checked_mul(12)? > end.checked_sub(start)?.checked_sub(4)? {
            return None;
        }
        for i in 0..n {
            let p = start + 4 + 12 * i;
            out.push((rd(p)?, rd(p + 4)?, rd(p + 8)? as i32));
        }
    } else {
        let mut p = start;
        while p + 12 <= end && rd(p)? != 0 {
            out.push((rd(p)?, rd(p + 4)?, rd(p + 8)? as i32));
            p += 12;
        }
    }
    Some(out)
}

impl Chunk for Functions {
    const NAME: ChunkName = ChunkName(*b"FUNC");
    // Independent of CODE while reading (CODE reads this table from the file itself).
    const PHASE: u8 = 2;

    fn read(r: &mut Reader) -> Result<Self> {
        if r.remaining() == 0 {
            return Ok(Functions {
                empty_body: true,
                ..Default::default()
            });
        }
        let v = *r.version();
        let code = code_checks_chains(r);
        let code_range = r.ctx.chunk_range(b"CODE");
        let first_offset = if function_first_is_operand(&v) { 4 } else { 0 };
        let mut functions = Vec::new();
        let read_fn = |r: &mut Reader, functions: &mut Vec<Function>| -> Result<()> {
            let prev = r.set_element("function", functions.len());
            let name = r.string()?;
            let (count, first) = read_occurrences(r, code)?;
            // CODE checks the chain; a malformed one is its error, not ours. When CODE has
            // been read, its scan left where each chain ends.
            let index = functions.len();
            let chain_end = match r.ctx.function_ends.get() {
                Some(ends) if code && count > 0 => ends.get(index).copied().filter(|&e| e != u32::MAX),
                _ => code_range
                    .filter(|_| code && count > 0)
                    .and_then(|range| chain_last(r.file(), range, first as i64 - first_offset, count))
                    .and_then(|last| chain_end_value(r.file(), last, new_bytecode(&v))),
            }
            .filter(|&e| e != name.0)
            .map(StringRef);
            functions.push(Function { name, chain_end });
            r.restore_element(prev);
            Ok(())
        };
        if counted(&v) {
            let n = r.count("function", 12)?;
            functions.reserve(n);
            for _ in 0..n {
                read_fn(r, &mut functions)?;
            }
        } else {
            while r.remaining() >= 12 {
                let p = r.pos();
                if r.file().get(p..p + 4) == Some(&[0, 0, 0, 0]) {
                    break;
                }
                read_fn(r, &mut functions)?;
            }
        }
        let code_locals = if has_code_locals(&v) {
            let n = r.count("code locals", 8)?;
            let mut list = Vec::with_capacity(n);
            for i in 0..n {
                let prev = r.set_element("code locals", i);
                let count = r.count("local", 8)?;
                let code_name = r.string()?;
                let mut locals = Vec::with_capacity(count);
                for _ in 0..count {
                    locals.push(Local {
                        index: r.u32()?,
                        name: r.string()?,
                    });
                }
                list.push(CodeLocals { code_name, locals });
                r.restore_element(prev);
            }
            Some(list)
        } else {
            None
        };
        Ok(Functions {
            functions,
            code_locals,
            empty_body: false,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.ctx.code.func_written = true;
        if self.empty_body {
            if !self.functions.is_empty() {
                return Err(w.unwritable("FUNC", "an empty-body (YYC) chunk cannot hold functions"));
            }
            return Ok(());
        }
        let chains = std::mem::take(&mut w.ctx.code.functions);
        let res = self.write_body(w, &chains);
        w.ctx.code.functions = chains;
        res
    }
}

impl Functions {
    fn write_body(&self, w: &mut Writer, chains: &[Chain]) -> Result<()> {
        const WHAT: &str = "function reference";
        let v = *w.version();
        let first_offset = if function_first_is_operand(&v) { 4 } else { 0 };
        check_chains(w, chains, self.functions.len(), WHAT)?;
        if counted(&v) {
            w.u32(self.functions.len() as u32);
        }
        for (i, f) in self.functions.iter().enumerate() {
            let end = f.chain_end.unwrap_or(f.name);
            let (count, first) = end_chain(w, chains.get(i), end, first_offset, WHAT)?;
            w.string(f.name);
            w.u32(count);
            w.i32(first);
        }
        if has_code_locals(&v) {
            let list = self.code_locals.as_deref().unwrap_or(&[]);
            w.u32(list.len() as u32);
            for c in list {
                w.u32(c.locals.len() as u32);
                w.string(c.code_name);
                for l in &c.locals {
                    w.u32(l.index);
                    w.string(l.name);
                }
            }
        } else if self.code_locals.as_ref().is_some_and(|l| !l.is_empty()) {
            return Err(w.unwritable(
                "FUNC",
                "code locals exist only in bytecode 15+ files before 2024.8",
            ));
        }
        Ok(())
    }
}

/// Layout checks of FUNC: 2024.8 (the code-locals list is gone: the function list reaches the
/// chunk end, or is followed only by zero padding when CODE has entries, or by fewer than 4
/// padding bytes) and 2023.11 (a `gml_Script_` function name containing `@`).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    if v.bytecode < 15 {
        return;
    }
    let Some((start, end)) = d.chunk(b"FUNC") else {
        return;
    };
    if start == end {
        return;
    }
    let Some(n) = d.u32(start).map(|n| n as usize) else {
        return;
    };
    let Some(list_end) = n.checked_mul(12).and_then(|x| x.checked_add(start + 4)) else {
        return;
    };
    if list_end > end {
        return;
    }
    if v.at_least(2023, 8) && !v.at_least(2023, 11) {
        let at_sign = (0..n).any(|i| {
            let Some(p) = d.u32(start + 4 + 12 * i).map(|p| p as usize) else {
                return false;
            };
            let Some(len) = p.checked_sub(4).and_then(|q| d.u32(q)) else {
                return false;
            };
            d.data
                .get(p..p.saturating_add(len as usize))
                .is_some_and(|s| s.starts_with(b"gml_Script_") && s.contains(&b'@'))
        });
        if at_sign {
            v.raise(FormatVersion::new(2023, 11, 0, 0));
        }
    }
    if !v.at_least(2024, 8) {
        let rest = end - list_end;
        let zeros = d
            .data
            .get(list_end..end)
            .is_some_and(|s| s.iter().all(|&b| b == 0));
        let code_has_entries = d
            .chunk(b"CODE")
            .and_then(|(s, _)| d.u32(s))
            .is_some_and(|c| c > 0);
        if rest < 4 || (zeros && rest < 16 && code_has_entries) {
            v.raise(FormatVersion::new(2024, 8, 0, 0));
        }
    }
}
