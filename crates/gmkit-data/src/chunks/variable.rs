//! `VARI`: the variables bytecode refers to.
//!
//! Layout (§5.3): bc ≥ 15: three `u32` header values, then 20-byte entries to the chunk end
//! (name, `i32` instance type, `i32` variable id, `u32` occurrence count, `i32` first-occurrence
//! address, -1 when unused); bc ≤ 14: 12-byte entries (name, count, first address), no header.
//! YYC games before bc 17: empty body.
//!
//! The occurrence count and first address are not stored in the model: they are recomputed
//! from CODE when writing (CODE must be written first), and the chain links inside CODE's
//! instructions are filled in at the same time.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::code::{Chain, check_chains, end_chain};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The three header values of VARI (bc ≥ 15), kept as read (semantics only partly known).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VariablesHeader {
    /// First count (instance/global variable count in most files).
    pub count_a: u32,
    /// Second count (usually equal to the first).
    pub count_b: u32,
    /// Maximum number of locals of any code entry.
    pub max_locals: u32,
}

/// One variable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Variable {
    /// The name.
    pub name: StringRef,
    /// Instance type (bc ≥ 15; 0 and not stored before).
    pub instance_type: i32,
    /// Variable id (bc ≥ 15; 0 and not stored before).
    pub variable_id: i32,
}

/// The `VARI` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Variables {
    /// Header values (bc ≥ 15).
    pub header: Option<VariablesHeader>,
    /// The variables; CODE refers to them by index.
    pub variables: Vec<Variable>,
    /// The chunk body is empty (YYC-compiled game before bc 17).
    pub empty_body: bool,
}

/// Whether VARI has the header and 20-byte entries (bc ≥ 15).
#[inline]
fn long_layout(v: &Version) -> bool {
    v.bytecode >= 15
}

/// `(name pointer, occurrence count, first address)` of each VARI or FUNC entry, as stored.
pub(crate) type OccurrenceTable = Vec<(u32, u32, i32)>;

/// Reads the [`OccurrenceTable`] of VARI straight from the file (used by CODE to bind its
/// operands). `None` when the table is malformed.
pub(crate) fn occurrence_table(
    file: &[u8],
    (start, end): (usize, usize),
    v: &Version,
) -> Option<OccurrenceTable> {
    if start == end {
        return Some(Vec::new());
    }
    // The chunk table keeps every chunk inside the file.
    let (p, size) = if long_layout(v) { (start + 12, 20) } else { (start, 12) };
    let entries = file.get(p..end.max(p))?;
    let mut out = Vec::with_capacity(entries.len() / size);
    // Each entry: name pointer, [instance type, variable id,] count, first address.
    let rd = |e: &[u8], at: usize| u32::from_le_bytes([e[at], e[at + 1], e[at + 2], e[at + 3]]);
    for e in entries.chunks_exact(size) {
        let name = rd(e, 0);
        if name == 0 {
            break;
        }
        out.push((name, rd(e, size - 8), rd(e, size - 4) as i32));
    }
    Some(out)
}

/// Whether a VARI/FUNC reader may accept non-zero occurrence counts (CODE is present with a
/// body, and checks the chains itself).
pub(crate) fn code_checks_chains(r: &Reader) -> bool {
    r.ctx.chunk_range(b"CODE").is_some_and(|(s, e)| e > s)
}

/// Reads the derived `(count, first address)` pair of an entry, checks it can be rebuilt and
/// returns it.
#[inline]
pub(crate) fn read_occurrences(r: &mut Reader, code: bool) -> Result<(u32, i32)> {
    let count = r.u32()?;
    let at = r.pos();
    let first = r.i32()?;
    if count == 0 && first != -1 {
        return Err(r.error_at(
            at,
            crate::error::invalid("first occurrence address", "-1 (no occurrences)", first),
        ));
    }
    if count > 0 && !code {
        return Err(r.error_at(
            at,
            crate::error::invalid("occurrence count", "0 (no CODE chunk)", count),
        ));
    }
    Ok((count, first))
}

impl Chunk for Variables {
    const NAME: ChunkName = ChunkName(*b"VARI");
    // Independent of CODE while reading (CODE reads this table from the file itself).
    const PHASE: u8 = 2;

    fn read(r: &mut Reader) -> Result<Self> {
        if r.remaining() == 0 {
            return Ok(Variables {
                empty_body: true,
                ..Default::default()
            });
        }
        let long = long_layout(r.version());
        let header = if long {
            Some(VariablesHeader {
                count_a: r.u32()?,
                count_b: r.u32()?,
                max_locals: r.u32()?,
            })
        } else {
            None
        };
        let size = if long { 20 } else { 12 };
        let code = code_checks_chains(r);
        let mut variables = Vec::with_capacity(r.remaining() / size);
        while r.remaining() >= size {
            // Entries run to the chunk end; a zero name pointer is the start of the padding.
            let p = r.pos();
            if r.file().get(p..p + 4) == Some(&[0, 0, 0, 0]) {
                break;
            }
            let prev = r.set_element("variable", variables.len());
            let name = r.string()?;
            let (instance_type, variable_id) = if long {
                (r.i32()?, r.i32()?)
            } else {
                (0, 0)
            };
            read_occurrences(r, code)?;
            variables.push(Variable {
                name,
                instance_type,
                variable_id,
            });
            r.restore_element(prev);
        }
        Ok(Variables {
            header,
            variables,
            empty_body: false,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.ctx.code.vari_written = true;
        if self.empty_body {
            if !self.variables.is_empty() {
                return Err(w.unwritable("VARI", "an empty-body (YYC) chunk cannot hold variables"));
            }
            return Ok(());
        }
        let long = long_layout(w.version());
        if long {
            let h = self.header.unwrap_or_default();
            w.u32(h.count_a);
            w.u32(h.count_b);
            w.u32(h.max_locals);
        }
        let chains = std::mem::take(&mut w.ctx.code.variables);
        let res = self.write_entries(w, &chains, long);
        w.ctx.code.variables = chains;
        res
    }
}

impl Variables {
    fn write_entries(&self, w: &mut Writer, chains: &[Chain], long: bool) -> Result<()> {
        const WHAT: &str = "variable reference";
        check_chains(w, chains, self.variables.len(), WHAT)?;
        for (i, v) in self.variables.iter().enumerate() {
            let (count, first) = end_chain(w, chains.get(i), v.name, 0, WHAT)?;
            w.string(v.name);
            if long {
                w.i32(v.instance_type);
                w.i32(v.variable_id);
            }
            w.u32(count);
            w.i32(first);
        }
        Ok(())
    }
}

/// No layout checks depend on VARI.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
