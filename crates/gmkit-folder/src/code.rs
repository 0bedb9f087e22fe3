//! Code entries as assembly text.
//!
//! Each entry of `CODE` gets `code/NNNN_name.json` with its header fields (name, locals and
//! arguments counts, execution offset; `parent` for a child entry), and each root entry
//! `code/NNNN_name.asm` with its instructions in the syntax of
//! [`gmkit_data::chunks::code::asm`]. The child entries of a root (2.3+ functions that live
//! inside their root's bytecode) are `.entry NAME` lines of the root's text: when the text is
//! edited, the markers give the children their new execution offsets. Pack assembles every
//! `.asm` file, on all cores.

use crate::error::{Error, Result};
use crate::folder::Folder;
use crate::layout::{CHUNK_REST, element_stem, leading_index};
use gmkit_data::DataFile;
use gmkit_data::StringRef;
use gmkit_data::chunks::code::asm::{Assembled, Assembler, Disassembler};
use gmkit_data::chunks::code::{CodeBody, CodeEntries, CodeEntry};
use gmkit_data::serde_support::StringScope;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

/// The folder directory of code entries.
pub const DIR: &str = "code";
/// Extension of the assembly text of a root entry.
pub const ASM_EXT: &str = "asm";

/// `code/NNNN_name.json`: the header fields of one code entry.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryFile {
    name: StringRef,
    locals_count: u16,
    arguments_count: u16,
    arguments_flag: bool,
    /// For a child: taken from its `.entry` line in the root's text when there is one.
    execution_offset: u32,
    /// A child entry: the index of the root entry whose text holds its instructions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    parent: Option<u32>,
    /// A root entry of a VM game: its `.gml` text's record (see [`crate::gml`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gml: Option<crate::gml::GmlRecord>,
}

/// `code/_chunk.json`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChunkFile {
    empty_body: bool,
}

fn ser_err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(what, "", format!("cannot be written: {e}"))
}

/// Writes the code entries of `file` under `prefix`: the JSON documents go to `docs` (rendered
/// by the caller), the `.asm` texts straight into `out`.
pub(crate) fn unpack(
    file: &DataFile,
    scope: &Arc<StringScope>,
    prefix: &str,
    docs: &mut Vec<(String, Value)>,
    out: &mut Folder,
) -> Result<()> {
    let Some(code) = &file.code else {
        return Ok(());
    };
    let dis = Disassembler::new(file);
    let gml = crate::gml::Decompiler::new(file);
    let rendered: Vec<(String, Value, Option<String>, Option<String>)> = code
        .entries
        .par_iter()
        .enumerate()
        .map(|(i, e)| {
            let name = file
                .strings
                .as_ref()
                .and_then(|s| s.get(e.name))
                .map(|s| String::from_utf8_lossy(s.as_bytes()).into_owned());
            let stem = format!("{prefix}{DIR}/{}", element_stem(i, name.as_deref()));
            let parent = match e.body {
                CodeBody::Shared { parent } => Some(parent),
                _ => None,
            };
            let text = match parent {
                Some(_) => None,
                None => Some(
                    dis.entry(i)
                        .map_err(|err| ser_err(&format!("{stem}.{ASM_EXT}"), err))?,
                ),
            };
            let (gml_text, gml) = match (&gml, &text) {
                (Some(g), Some(asm)) => {
                    let (t, r) = g.entry(i, asm);
                    (t, Some(r))
                }
                _ => (None, None),
            };
            let meta = EntryFile {
                name: e.name,
                locals_count: e.locals_count,
                arguments_count: e.arguments_count,
                arguments_flag: e.arguments_flag,
                execution_offset: e.execution_offset,
                parent,
                gml,
            };
            let v = scope
                .enter(|| serde_json::to_value(&meta))
                .map_err(|err| ser_err(&format!("{stem}.json"), err))?;
            Ok((stem, v, text, gml_text))
        })
        .collect::<Result<_>>()?;
    let chunk = serde_json::to_value(ChunkFile {
        empty_body: code.empty_body,
    })
    .map_err(|e| ser_err(DIR, e))?;
    docs.push((format!("{prefix}{DIR}/{CHUNK_REST}"), chunk));
    for (stem, v, text, gml_text) in rendered {
        if let Some(t) = text {
            out.insert(format!("{stem}.{ASM_EXT}"), t.into_bytes());
        }
        if let Some(t) = gml_text {
            out.insert(format!("{stem}.{}", crate::gml::GML_EXT), t.into_bytes());
        }
        docs.push((format!("{stem}.json"), v));
    }
    Ok(())
}

/// The code entries read from the folder, their instructions not yet assembled.
pub(crate) struct Unassembled {
    entries: Vec<CodeEntry>,
    empty_body: bool,
    /// Per root entry: (entry index, `.asm` path).
    roots: Vec<(usize, String)>,
    /// Per root entry: its `.asm` text has the hash recorded at unpack (it follows
    /// `strings.json`, see [`crate::strings::Follow`]).
    unchanged: Vec<bool>,
    /// Root entries whose `.gml` text was edited: compiled after the assembly.
    gml: Vec<crate::gml::Pending>,
    /// `.gml` files with no entry yet (no `.json` beside them): new entries, added after
    /// the others are compiled, in path order.
    new: Vec<String>,
}

/// Reads `code/*.json` (names are resolved in `scope`, so call it inside the pack's scope
/// before the scope's added strings are taken). `None` when the folder has no code chunk.
pub(crate) fn read(
    folder: &Folder,
    prefix: &str,
    scope: &Arc<StringScope>,
) -> Result<Option<Unassembled>> {
    let dir = format!("{prefix}{DIR}");
    let rest_path = format!("{dir}/{CHUNK_REST}");
    let Some(rest) = folder.get(&rest_path) else {
        return Ok(None);
    };
    let chunk: ChunkFile = parse(&rest_path, rest)?;
    let mut metas: Vec<(usize, &str)> = Vec::new();
    let mut new = Vec::new();
    for (p, _) in folder.under(&dir) {
        let name = &p[dir.len() + 1..];
        if let Some(stem) = p.strip_suffix(&format!(".{}", crate::gml::GML_EXT))
            && !name.contains('/')
            && folder.get(&format!("{stem}.json")).is_none()
        {
            new.push(p.to_owned());
            continue;
        }
        if let Some(stem) = p.strip_suffix(&format!(".{ASM_EXT}"))
            && folder.get(&format!("{stem}.json")).is_none()
        {
            return Err(Error::new(
                p,
                "",
                format!(
                    "expected {stem}.json beside it (the entry's name and header; copy another entry's)"
                ),
            ));
        }
        if name.contains('/') || name == CHUNK_REST || !name.ends_with(".json") {
            continue;
        }
        let i = leading_index(name).ok_or_else(|| {
            Error::new(
                p,
                "",
                "expected a file name starting with its index (0003_name.json)",
            )
        })?;
        metas.push((i, p));
    }
    metas.sort_by_key(|m| m.0);
    let mut entries = Vec::with_capacity(metas.len());
    let mut roots = Vec::new();
    let mut unchanged = Vec::new();
    let mut gml = Vec::new();
    for (n, (i, p)) in metas.iter().enumerate() {
        if *i != n {
            return Err(Error::new(
                *p,
                "",
                format!(
                    "expected index {n} here (file names start with indices 0, 1, 2, ... without gaps or repeats)"
                ),
            ));
        }
        let bytes = folder.get(p).unwrap_or_default();
        let m: EntryFile = scope.enter(|| parse(p, bytes))?;
        let body = match m.parent {
            Some(parent) => CodeBody::Shared { parent },
            None => {
                let asm = format!("{}.{ASM_EXT}", p.trim_end_matches(".json"));
                if folder.get(&asm).is_none() {
                    return Err(Error::new(
                        &asm,
                        "",
                        "expected the entry's assembly text (missing; a child entry names its root with \"parent\")",
                    ));
                }
                gml.extend(crate::gml::pending(folder, n, &asm, m.gml.as_ref())?);
                let recorded = m.gml.as_ref().and_then(|r| r.asm_fnv1a64.as_deref());
                unchanged.push(
                    recorded.is_some()
                        && recorded == folder.get(&asm).map(crate::gml::fnv1a64).as_deref(),
                );
                roots.push((n, asm));
                CodeBody::Instructions(Vec::new())
            }
        };
        entries.push(CodeEntry {
            name: m.name,
            body,
            locals_count: m.locals_count,
            arguments_count: m.arguments_count,
            arguments_flag: m.arguments_flag,
            execution_offset: m.execution_offset,
        });
    }
    for (k, e) in entries.iter().enumerate() {
        if let CodeBody::Shared { parent } = e.body
            && !entries
                .get(parent as usize)
                .is_some_and(|p| p.body.is_root())
        {
            return Err(Error::new(
                metas[k].1,
                "parent",
                format!(
                    "expected the index of a root entry (one with an .asm file), found {parent}"
                ),
            ));
        }
    }
    Ok(Some(Unassembled {
        entries,
        empty_body: chunk.empty_body,
        roots,
        unchanged,
        gml,
        new,
    }))
}

impl Unassembled {
    /// The name reference of each entry, in order (for the names layer).
    pub(crate) fn names(&self) -> Vec<StringRef> {
        self.entries.iter().map(|e| e.name).collect()
    }
}

fn parse<T: serde::de::DeserializeOwned>(path: &str, bytes: &[u8]) -> Result<T> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let field = e.path().to_string();
        let field = if field == "." { String::new() } else { field };
        Error::new(path, field, e.inner().to_string())
    })
}

/// Table sizes an assembly may grow: strings, variables, functions.
fn tables(f: &DataFile) -> (usize, usize, usize) {
    (
        f.strings.as_ref().map_or(0, |s| s.len()),
        f.variables.as_ref().map_or(0, |v| v.variables.len()),
        f.functions.as_ref().map_or(0, |v| v.functions.len()),
    )
}

fn asm_error(path: &str, e: gmkit_data::chunks::code::asm::AsmError) -> Error {
    Error::new(
        path,
        format!("line {}, column {}", e.line, e.column),
        format!("expected {}, found {}", e.expected, e.found),
    )
}

/// Assembles the `.asm` files into `file.code` (adding the strings, variables and functions
/// they name that the file lacks). Texts are assembled on all cores against copies of the
/// file's name tables; a text that adds names (or fails) is assembled again in entry order on
/// the file itself, so additions get the same indices whatever the number of threads.
///
/// With `follow` (entries of `strings.json` edited), the texts left as unpacked name the
/// edited entries by index first, so they push the table's new texts.
pub(crate) fn assemble(
    folder: &Folder,
    file: &mut DataFile,
    u: Unassembled,
    follow: Option<&crate::strings::Follow>,
) -> Result<()> {
    let Unassembled {
        mut entries,
        empty_body,
        roots,
        unchanged,
        gml,
        new,
    } = u;
    let texts: Vec<(usize, &str, std::borrow::Cow<str>)> = roots
        .par_iter()
        .zip(unchanged.par_iter())
        .map(|((i, p), &same)| {
            let bytes = folder.get(p).unwrap_or_default();
            let t = std::str::from_utf8(bytes)
                .map_err(|e| Error::new(p, "", format!("expected UTF-8 text: {e}")))?;
            let t = match follow.filter(|_| same).and_then(|f| f.rewrite(t)) {
                Some(r) => std::borrow::Cow::Owned(r),
                None => std::borrow::Cow::Borrowed(t),
            };
            Ok((*i, p.as_str(), t))
        })
        .collect::<Result<_>>()?;
    let threads = rayon::current_num_threads().max(1);
    let mut done: Vec<Option<Assembled>> = if threads > 1 && texts.len() >= 64 {
        let base: &DataFile = file;
        let before = tables(base);
        let per = texts.len().div_ceil(threads);
        texts
            .par_chunks(per)
            .flat_map_iter(|part| {
                let mut mine = base.clone();
                let mut out = Vec::with_capacity(part.len());
                let mut asm = Assembler::new(&mut mine);
                for (_, _, text) in part {
                    match asm.assemble(text) {
                        Ok(a) if tables(asm.file()) == before => out.push(Some(a)),
                        Ok(_) => {
                            // It added names: redo it in order on the file; start afresh.
                            out.push(None);
                            drop(asm);
                            mine = base.clone();
                            asm = Assembler::new(&mut mine);
                        }
                        Err(_) => out.push(None),
                    }
                }
                out
            })
            .collect()
    } else {
        texts.iter().map(|_| None).collect()
    };
    {
        let mut asm = Assembler::new(file);
        for ((_, path, text), slot) in texts.iter().zip(done.iter_mut()) {
            if slot.is_none() {
                *slot = Some(asm.assemble(text).map_err(|e| asm_error(path, e))?);
            }
        }
    }
    // Children take their execution offsets from their root's `.entry` lines.
    let names: Vec<Option<Vec<u8>>> = entries
        .iter()
        .map(|e| {
            file.strings
                .as_ref()
                .and_then(|s| s.get(e.name))
                .map(|s| s.as_bytes().to_vec())
        })
        .collect();
    let mut markers: Vec<Vec<(Vec<u8>, u32, bool)>> = vec![Vec::new(); entries.len()];
    for ((i, _, _), a) in texts.iter().zip(done) {
        let Some(a) = a else { continue };
        markers[*i] = a
            .entries
            .iter()
            .map(|(n, off)| (n.0.to_vec(), *off, false))
            .collect();
        entries[*i].body = CodeBody::Instructions(a.instructions);
    }
    for (k, e) in entries.iter_mut().enumerate() {
        let CodeBody::Shared { parent } = e.body else {
            continue;
        };
        let Some(name) = &names[k] else { continue };
        if let Some(m) = markers
            .get_mut(parent as usize)
            .and_then(|ms| ms.iter_mut().find(|m| !m.2 && &m.0 == name))
        {
            m.2 = true;
            e.execution_offset = m.1;
        }
    }
    file.code = Some(CodeEntries {
        entries,
        empty_body,
    });
    crate::gml::compile(folder, file, &gml)?;
    crate::gml::add_new(folder, file, &new)
}
