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
    /// The entries whose text lives in an asset's folder (see [`crate::assets`]), by index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    in_assets: Vec<AssetEntry>,
}

/// One entry of `in_assets`: the header fields of [`EntryFile`], its index and its file stem.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AssetEntry {
    /// The entry's index in CODE.
    index: usize,
    /// The stem of its `.asm`/`.gml` files (`objects/obj_player/Create_0`); none for a child
    /// entry (a 2.3+ function inside its root's text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// A child entry: the index of its root entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    parent: Option<u32>,
    name: StringRef,
    locals_count: u16,
    arguments_count: u16,
    arguments_flag: bool,
    execution_offset: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gml: Option<crate::gml::GmlRecord>,
}

/// Where a code entry's files are: its index, the stem of its `.asm`/`.gml` texts
/// (`code/0003_gml_Script_foo`, or `objects/obj_player/Create_0` for an entry in an asset's
/// folder), and its header record as written (`name`, counts, `gml`; `parent` for a child).
#[derive(Clone, Debug)]
pub struct EntryFiles {
    /// The entry's index in CODE.
    pub index: usize,
    /// The stem of its texts (`.asm`, `.gml`), under the folder's prefix.
    pub stem: String,
    /// The header record (a `code/NNNN_name.json` file, or an element of `in_assets` of
    /// `code/_chunk.json`).
    pub header: Value,
}

/// The code entries of the data file under `prefix` (empty or ending in `/`), in index order
/// (entries whose header does not read are left out: pack reports them).
pub fn entry_files(folder: &Folder, prefix: &str) -> Vec<EntryFiles> {
    let dir = format!("{prefix}{DIR}");
    let mut out = Vec::new();
    for (p, b) in folder.under(&dir) {
        let name = &p[dir.len() + 1..];
        if name.contains('/') || !name.ends_with(".json") {
            continue;
        }
        let Ok(v) = serde_json::from_slice::<Value>(b) else {
            continue;
        };
        if name == CHUNK_REST {
            for a in v["in_assets"].as_array().into_iter().flatten() {
                // (A child entry has no file: its text is its root's.)
                if let (Some(i), Some(f)) = (a["index"].as_u64(), a["file"].as_str()) {
                    out.push(EntryFiles {
                        index: i as usize,
                        stem: format!("{prefix}{f}"),
                        header: a.clone(),
                    });
                }
            }
        } else if let Some(i) = leading_index(name) {
            out.push(EntryFiles {
                index: i,
                stem: p.trim_end_matches(".json").to_owned(),
                header: v,
            });
        }
    }
    out.sort_by_key(|e| e.index);
    out
}

/// The file stems (`objects/obj_player/Create_0`) of the code entries `code/_chunk.json` places
/// in asset folders, with their indices.
pub(crate) fn asset_files(
    folder: &Folder,
    prefix: &str,
) -> Result<std::collections::HashMap<String, usize>> {
    let rest_path = format!("{prefix}{DIR}/{CHUNK_REST}");
    let Some(rest) = folder.get(&rest_path) else {
        return Ok(Default::default());
    };
    #[derive(Deserialize)]
    struct Files {
        #[serde(default)]
        in_assets: Vec<FileOnly>,
    }
    #[derive(Deserialize)]
    struct FileOnly {
        index: usize,
        #[serde(default)]
        file: Option<String>,
    }
    let f: Files = parse(&rest_path, rest)?;
    Ok(f.in_assets
        .into_iter()
        .filter_map(|a| Some((a.file?, a.index)))
        .collect())
}

fn ser_err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(what, "", format!("cannot be written: {e}"))
}

/// Code entries decompiled at once by [`unpack`]: enough to keep both cores busy, few enough
/// that their texts stay small.
const BATCH: usize = 1024;

/// Writes the code entries of `file` under `prefix`: the JSON documents go to `docs` (rendered
/// by the caller), the `.asm` texts straight into `out`.
pub(crate) fn unpack(
    file: &DataFile,
    scope: &Arc<StringScope>,
    prefix: &str,
    owned: &std::collections::HashMap<usize, String>,
    docs: &mut Vec<(String, Value)>,
    out: &mut Folder,
    names_file: Option<&gmkit_gml::names_file::NamesFile>,
) -> Result<()> {
    let Some(code) = &file.code else {
        return Ok(());
    };
    let dis = Disassembler::new(file);
    let gml = crate::gml::Decompiler::new(file, names_file);
    let mut in_assets = Vec::new();
    // In batches, each written before the next is made: the texts never all wait in memory.
    for start in (0..code.entries.len()).step_by(BATCH) {
        let end = (start + BATCH).min(code.entries.len());
        let rendered: Vec<(String, Value, Option<String>, Option<String>)> = code.entries
            [start..end]
            .par_iter()
            .enumerate()
            .map(|(k, e)| {
                let i = start + k;
                let name = file
                    .strings
                    .as_ref()
                    .and_then(|s| s.get(e.name))
                    .map(|s| String::from_utf8_lossy(s.as_bytes()).into_owned());
                let stem = match owned.get(&i) {
                    Some(s) => format!("{prefix}{s}"),
                    None => format!("{prefix}{DIR}/{}", element_stem(i, name.as_deref())),
                };
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
        let mut texts = Vec::with_capacity(2 * rendered.len());
        for (k, (stem, v, text, gml_text)) in rendered.into_iter().enumerate() {
            let i = start + k;
            if let Some(t) = text {
                texts.push((format!("{stem}.{ASM_EXT}"), t.into_bytes()));
            }
            if let Some(t) = gml_text {
                texts.push((format!("{stem}.{}", crate::gml::GML_EXT), t.into_bytes()));
            }
            // A root in an asset's folder, or a child of one: listed in `in_assets`.
            let file = owned.get(&i);
            let child_of_owned = match code.entries[i].body {
                CodeBody::Shared { parent } => owned.contains_key(&(parent as usize)),
                _ => false,
            };
            if file.is_some() || child_of_owned {
                let Value::Object(mut m) = v else {
                    return Err(ser_err(&stem, "not an object"));
                };
                m.insert("index".into(), i.into());
                if let Some(f) = file {
                    m.insert("file".into(), f.clone().into());
                }
                in_assets.push(Value::Object(m));
            } else {
                docs.push((format!("{stem}.json"), v));
            }
        }
        out.insert_all(texts);
        crate::unpack::render(docs, out);
        out.spill_error()?;
    }
    let mut chunk = serde_json::to_value(ChunkFile {
        empty_body: code.empty_body,
        in_assets: Vec::new(),
    })
    .map_err(|e| ser_err(DIR, e))?;
    if !in_assets.is_empty() {
        chunk["in_assets"] = Value::Array(in_assets);
    }
    docs.push((format!("{prefix}{DIR}/{CHUNK_REST}"), chunk));
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
    /// `.gml` files with no entry yet (no `.json` beside them, or in an asset's folder and
    /// listed nowhere): new entries, added after the others are compiled, in path order, with
    /// the entry name an asset folder gives them.
    new: Vec<(String, Option<String>)>,
}

/// Reads `code/*.json` and the entries `code/_chunk.json` places in asset folders (names are
/// resolved in `scope`, so call it inside the pack's scope before the scope's added strings are
/// taken). `assets` maps each asset folder (`objects/obj_player`, under `prefix`) to its asset's
/// name: a `.gml` there that no entry names is a new entry of that asset. `None` when the folder
/// has no code chunk.
pub(crate) fn read(
    folder: &Folder,
    prefix: &str,
    scope: &Arc<StringScope>,
    assets: &std::collections::BTreeMap<String, (String, String)>,
) -> Result<Option<Unassembled>> {
    let dir = format!("{prefix}{DIR}");
    let rest_path = format!("{dir}/{CHUNK_REST}");
    let Some(rest) = folder.get(&rest_path) else {
        return Ok(None);
    };
    let chunk: ChunkFile = scope.enter(|| parse(&rest_path, rest))?;
    // (index, file naming the header, header, stem of the texts)
    let mut metas: Vec<(usize, String, EntryFile, String)> = Vec::new();
    let mut new: Vec<(String, Option<String>)> = Vec::new();
    for (p, _) in folder.under(&dir) {
        let name = &p[dir.len() + 1..];
        if let Some(stem) = p.strip_suffix(&format!(".{}", crate::gml::GML_EXT))
            && !name.contains('/')
            && folder.get(&format!("{stem}.json")).is_none()
        {
            new.push((p.to_owned(), None));
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
        let bytes = folder.get(p).unwrap_or_default();
        let m: EntryFile = scope.enter(|| parse(p, bytes))?;
        metas.push((i, p.to_owned(), m, p.trim_end_matches(".json").to_owned()));
    }
    let mut stems = std::collections::HashSet::new();
    for (k, a) in chunk.in_assets.into_iter().enumerate() {
        let stem = match (&a.file, a.parent) {
            (Some(f), None) => format!("{prefix}{f}"),
            (None, Some(_)) => String::new(),
            _ => {
                return Err(Error::new(
                    &rest_path,
                    format!("in_assets[{k}]"),
                    "expected either \"file\" (a root entry's texts) or \"parent\" (a child entry)",
                ));
            }
        };
        if a.file.is_some() && !stems.insert(stem.clone()) {
            return Err(Error::new(
                &rest_path,
                format!("in_assets[{k}].file"),
                format!(
                    "expected each file once, found {} again",
                    crate::quote(&stem)
                ),
            ));
        }
        metas.push((
            a.index,
            format!("{rest_path} (in_assets[{k}])"),
            EntryFile {
                name: a.name,
                locals_count: a.locals_count,
                arguments_count: a.arguments_count,
                arguments_flag: a.arguments_flag,
                execution_offset: a.execution_offset,
                parent: a.parent,
                gml: a.gml,
            },
            stem,
        ));
    }
    // Texts in asset folders that no entry names: new entries of the asset.
    for (adir, (kind, asset)) in assets {
        for (p, _) in folder.under(adir) {
            let file = &p[adir.len() + 1..];
            if file.contains('/') {
                continue;
            }
            let (stem, ext) = match p.rsplit_once('.') {
                Some(x) => x,
                None => continue,
            };
            if stems.contains(stem) {
                continue;
            }
            if ext == ASM_EXT {
                return Err(Error::new(
                    p,
                    "",
                    format!(
                        "expected a .gml for a new entry (an .asm is only read for an entry listed in {rest_path})"
                    ),
                ));
            }
            if ext != crate::gml::GML_EXT {
                continue;
            }
            let fstem = &file[..file.len() - ext.len() - 1];
            let entry = match kind.as_str() {
                "objects" => format!("gml_Object_{asset}_{}", fstem.replace('-', "_")),
                "rooms" if fstem == crate::assets::ROOM_CODE => format!("gml_Room_{asset}_Create"),
                "scripts" => format!("gml_GlobalScript_{fstem}"),
                _ => {
                    return Err(Error::new(
                        p,
                        "",
                        format!(
                            "expected no new code file here (new code goes in an object's folder as EVENT_N.gml, a room's as {}.gml, a script's as NAME.gml, or in {DIR}/)",
                            crate::assets::ROOM_CODE
                        ),
                    ));
                }
            };
            new.push((p.to_owned(), Some(entry)));
        }
    }
    metas.sort_by_key(|m| m.0);
    let mut entries = Vec::with_capacity(metas.len());
    let mut roots = Vec::new();
    let mut unchanged = Vec::new();
    let mut gml = Vec::new();
    for (n, (i, p, m, stem)) in metas.iter().enumerate() {
        if *i != n {
            return Err(Error::new(
                p,
                "",
                format!(
                    "expected index {n} here (code entries are numbered 0, 1, 2, ... without gaps or repeats, by file name in {DIR}/ and by \"index\" in {rest_path})"
                ),
            ));
        }
        let body = match m.parent {
            Some(parent) => CodeBody::Shared { parent },
            None => {
                let asm = format!("{stem}.{ASM_EXT}");
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
                &metas[k].1,
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
        // Each thread assembles against its own copy of the name tables only (what assembling
        // reads and adds to), asset names resolved against the model: no copy of the model.
        let tables_only = DataFile {
            version: base.version,
            strings: base.strings.clone(),
            variables: base.variables.clone(),
            functions: base.functions.clone(),
            ..DataFile::default()
        };
        texts
            .par_chunks(per)
            .flat_map_iter(|part| {
                let mut mine = tables_only.clone();
                let mut out = Vec::with_capacity(part.len());
                let mut asm = Assembler::with_assets_of(&mut mine, base);
                for (_, _, text) in part {
                    match asm.assemble(text) {
                        Ok(a) if tables(asm.file()) == before => out.push(Some(a)),
                        Ok(_) => {
                            // It added names: redo it in order on the file; start afresh.
                            out.push(None);
                            drop(asm);
                            mine = tables_only.clone();
                            asm = Assembler::with_assets_of(&mut mine, base);
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
    crate::gml::add_new(folder, file, &new)?;
    crate::gml::remove_dropped(file, &gml)
}
