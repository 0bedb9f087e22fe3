//! The occurrence chains as read, so that a CODE chunk whose root blobs are still the ones read
//! is written back by copying them, without relinking every occurrence.
//!
//! Relinking recomputes each occurrence operand from where the next occurrence of its chain is
//! written. When the root blobs are the ones read, in the same order and bytecode family, each
//! lands at the same distance from the first as in the file read, so every operand but a
//! chain's last comes out as stored (distances), and the last one is patched with its entry's
//! name by VARI and FUNC as always (a renamed variable still ends its chain on the new name).
//! What VARI and FUNC need of each chain is then its first and last positions, kept here from
//! the reading and shifted with the chunk. Any edit of the code (a blob decoded for editing,
//! added, removed, moved or re-encoded, or a VARI/FUNC entry added or removed) falls back to
//! relinking, which gives the same bytes for unedited code: a test builds every corpus file
//! both ways.

use super::{Chain, CodeBody, CodeEntry, link_tags};
use crate::chunks::variable::OccurrenceTable;
use crate::write::Writer;
use std::sync::Arc;

/// What reading CODE saw of its occurrence chains: an opaque part of
/// [`Layout`](crate::Layout) that lets an unedited CODE chunk be written without relinking.
/// Empty for models not read from a file (or read by the exact decoder); never serialized,
/// and not shown by `Debug` (like the layout's equality, which ignores it).
#[derive(Clone, Default)]
pub struct ReadChains(pub(crate) Option<Arc<Chains>>);

impl std::fmt::Debug for ReadChains {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReadChains")
    }
}

/// The chains of one CODE chunk as read, as the scan left them (nothing is computed from them
/// unless the chunk is written back unedited).
#[derive(Debug)]
pub(crate) struct Chains {
    /// Bytecode family the blobs were read as.
    new: bool,
    /// Root entries read.
    roots: usize,
    /// Where the first root blob's bytes are in the buffer read (the blobs are views of it,
    /// each following the previous one as in the file: see [`Chains::unchanged`]); `None`
    /// when every root blob is empty.
    first: Option<usize>,
    /// Absolute positions of the first root blob and of the CODE body in the file read.
    region: usize,
    code_start: usize,
    /// What FUNC stores of a chain's first occurrence beyond its instruction's address (4 in
    /// 2.3+: the operand's).
    first_offset: u32,
    /// The VARI and FUNC occurrence tables as read (name, occurrences, first occurrence).
    tables: [OccurrenceTable; 2],
    /// Per VARI entry and per FUNC entry: `[_, last]`, the last occurrence as a word index from
    /// `code_start` (see the scan's `Links::left`).
    lasts: [Vec<[u32; 2]>; 2],
}

/// Bytes between two root blobs in the file: none for bc ≥ 15 (blobs first, headers after
/// them), the next entry's name and length before.
fn gap(new: bool) -> usize {
    if new { 0 } else { 8 }
}

impl Chains {
    /// The chains of `entries` as just read (every root an encoded blob), `region` being the
    /// absolute position of the first root blob, `code_start` that of the CODE body and
    /// `first_offset` what FUNC adds to a first occurrence's address; with the occurrence
    /// tables and the last occurrences the scan found.
    pub(crate) fn read(
        entries: &[CodeEntry],
        new: bool,
        (region, code_start, first_offset): (usize, usize, u32),
        (tables, lasts): ([OccurrenceTable; 2], [Vec<[u32; 2]>; 2]),
    ) -> Self {
        let (mut roots, mut offset, mut first) = (0, 0, None);
        for e in entries {
            if let CodeBody::Encoded(b) = &e.body {
                // An empty blob is no view of the buffer: the first one that is tells where
                // the first root is.
                if first.is_none() && !b.bytes.is_empty() {
                    first = Some((b.bytes.as_ptr() as usize).wrapping_sub(offset));
                }
                offset += b.bytes.len() + gap(new);
            }
            roots += e.body.is_root() as usize;
        }
        Chains {
            new,
            roots,
            first,
            region,
            code_start,
            first_offset,
            tables,
            lasts,
        }
    }

    /// Whether `entries`, written for bytecode family `new` with `variables` VARI and
    /// `functions` FUNC entries, hold exactly the root blobs read, in the order read: every
    /// root an encoded blob of that family whose bytes follow the previous one's as they did in
    /// the file (a blob's bytes are a view of the buffer read, made only by reading, so their
    /// address tells which blob it is).
    pub(crate) fn unchanged(&self, entries: &[CodeEntry], new: bool, variables: usize, functions: usize) -> bool {
        let [v, f] = &self.lasts;
        if self.new != new || v.len() != variables || f.len() != functions {
            return false;
        }
        let (mut roots, mut at) = (0, self.first);
        for e in entries {
            match &e.body {
                CodeBody::Shared { .. } => {}
                CodeBody::Encoded(b) if b.new == new => {
                    if !b.bytes.is_empty() && at != Some(b.bytes.as_ptr() as usize) {
                        return false;
                    }
                    at = at.map(|a| a.wrapping_add(b.bytes.len() + gap(new)));
                    roots += 1;
                }
                _ => return false,
            }
        }
        roots == self.roots
    }

    /// Sets the chains as written, the first root blob having been written at `region`; `w`
    /// holds the copied blobs (each last occurrence's tags are read back from it).
    pub(crate) fn place(&self, w: &Writer, region: u32, variables: &mut [Chain], functions: &mut [Chain]) {
        // From the file read to the file written.
        let moved = |at: u32| at.wrapping_sub(self.region as u32).wrapping_add(region);
        let word_at = |word: u32| moved((self.code_start as u32).wrapping_add(word.wrapping_mul(4)));
        let [tv, tf] = &self.tables;
        let [lv, lf] = &self.lasts;
        for (function, to, table, lasts) in [(false, variables, tv, lv), (true, functions, tf, lf)] {
            let offset = if function { self.first_offset } else { 0 };
            for ((t, &(_, count, first)), &[_, last]) in to.iter_mut().zip(table).zip(lasts) {
                if count == 0 {
                    continue;
                }
                let last = word_at(last);
                let word = w.u32_at(last as usize);
                let operand = w.u32_at(last as usize + 4);
                // The last occurrence as read: its tags are its own (no asset type to add).
                let (always, last_tag) = link_tags(word, operand, function, self.new, true, 0);
                *t = Chain {
                    first: moved((first as u32).wrapping_sub(offset)),
                    last,
                    count,
                    always,
                    last_tag,
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::chunks::code::ReadChains;
    use bytes::Bytes;

    /// Every corpus file read by the scan keeps its chains, and writing its unedited code from
    /// them gives exactly what relinking gives: as read, after an edit that moves CODE (a tail
    /// after the first chunk), and after renaming every variable and function as well; editing
    /// one entry's instructions makes the writer relink.
    #[test]
    fn writing_from_the_chains_read_gives_what_relinking_gives() {
        let corpus = gmkit_testdata::need!(gmkit_testdata::corpus());
        let mut kept = 0;
        for (name, bytes) in &corpus {
            let m = crate::parse_bytes(bytes.clone()).unwrap();
            let Some(chains) = m.layout.code_chains.0.clone() else {
                continue;
            };
            kept += 1;
            let code = m.code.as_ref().unwrap();
            let vars = m.variables.as_ref().map_or(0, |v| v.variables.len());
            let funcs = m.functions.as_ref().map_or(0, |f| f.functions.len());
            assert!(chains.unchanged(&code.entries, chains.new, vars, funcs), "{name}");

            let mut moved = m.clone();
            let first = moved.layout.order[0];
            moved.layout.tails.push((first, Bytes::from(vec![0xA5u8; 16])));
            let mut renamed = moved.clone();
            if let Some(v) = renamed.variables.as_mut() {
                let names: Vec<_> = v.variables.iter().map(|x| x.name).collect();
                for (i, x) in v.variables.iter_mut().enumerate() {
                    x.name = names[(i + 1) % names.len()];
                }
            }
            if let Some(f) = renamed.functions.as_mut() {
                let names: Vec<_> = f.functions.iter().map(|x| x.name).collect();
                for (i, x) in f.functions.iter_mut().enumerate() {
                    x.name = names[(i + 1) % names.len()];
                }
            }
            for (what, e) in [("as read", &m), ("moved", &moved), ("renamed", &renamed)] {
                let fast = crate::build_bytes(e).unwrap();
                let mut slow = e.clone();
                slow.layout.code_chains = ReadChains::default();
                assert!(fast == crate::build_bytes(&slow).unwrap(), "{name}, {what}");
                if what == "as read" {
                    assert!(fast == bytes[..], "{name}");
                } else {
                    assert!(fast != bytes[..] && crate::parse_bytes(fast).is_ok(), "{name}, {what}");
                }
            }

            // Two root blobs swapped, or one removed: written by relinking.
            let blobs: Vec<usize> = (code.entries.iter().enumerate())
                .filter(|(_, e)| matches!(&e.body, super::CodeBody::Encoded(b) if !b.bytes.is_empty()))
                .map(|(i, _)| i)
                .collect();
            if let [a, .., b] = blobs[..] {
                let mut swapped = code.entries.clone();
                let body = swapped[a].body.clone();
                swapped[a].body = std::mem::replace(&mut swapped[b].body, body);
                assert!(!chains.unchanged(&swapped, chains.new, vars, funcs), "{name}");
                let mut fewer = code.entries.clone();
                fewer.remove(b);
                assert!(!chains.unchanged(&fewer, chains.new, vars, funcs), "{name}");
            }

            let mut edited = m.clone();
            let code = edited.code.as_mut().unwrap();
            if (0..code.entries.len()).any(|i| code.instructions_mut(i).is_ok()) {
                let code = edited.code.as_ref().unwrap();
                assert!(!chains.unchanged(&code.entries, chains.new, vars, funcs), "{name}");
            }
        }
        eprintln!("{kept} of {} corpus files kept their chains", corpus.len());
        assert!(kept > 0, "no corpus file kept its chains");
    }
}
