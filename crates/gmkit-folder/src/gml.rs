//! Code entries as GML text, beside their assembly.
//!
//! Unpack decompiles every root code entry of a VM game (YYC games have no code) and writes
//! `code/NNNN_name.gml` when the text compiles back to the entry's exact instructions and
//! child entry headers; the entry's JSON then records the FNV-1a 64-bit hashes of the `.gml`
//! and `.asm` texts as written (`"gml": {"fnv1a64": "…", "asm_fnv1a64": "…"}`). An entry whose
//! text would not compile back gets no `.gml`, and a one-line reason instead
//! (`"gml": {"skipped": "compiled code differs at instruction 12: expected pushi, got push"}`).
//! The `.asm` stays the exact record of every entry: pack reads the folder alone.
//!
//! Pack assembles the `.asm` files first, then compiles every `.gml` whose text no longer has
//! its recorded hash (a comment added is a change; the result is still the original code)
//! against the packed file, and replaces the entry's instructions and its nested functions'
//! headers with the result. An entry whose `.asm` and `.gml` were both edited is refused.

use crate::error::{Error, Result};
use crate::folder::Folder;
use gmkit_data::DataFile;
use gmkit_data::chunks::code::CodeBody;
use gmkit_gml::compile::{
    ChildEntry, CompileError, Names, compile_entry_with_children, compile_entry_with_source,
};
use gmkit_gml::names_file::NamesFile;
use gmkit_gml::{Game, decompile, parse, print};
use serde::{Deserialize, Serialize};

/// Extension of the GML text of a root entry.
pub const GML_EXT: &str = "gml";

/// The `"gml"` field of a root entry's JSON file.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GmlRecord {
    /// FNV-1a 64-bit hash (16 hex digits) of the `.gml` text as unpacked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fnv1a64: Option<String>,
    /// FNV-1a 64-bit hash of the `.asm` text as unpacked (to tell which of the two was edited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asm_fnv1a64: Option<String>,
    /// Why no `.gml` was written (one line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// FNV-1a, 64 bits, as 16 lowercase hex digits: the same on every platform and run.
pub fn fnv1a64(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The game's names file in the folder (its enums and macros, docs/names-file.md): unpack
/// `--names` copies it here and decompiles with it; pack compiles edited `.gml` files with its
/// declarations.
pub const NAMES_FILE: &str = "names.gml";

/// Reads a names file's text (unpack's `--names`, or the folder's [`NAMES_FILE`]); an error
/// names the file, the line and the column.
pub(crate) fn parse_names_file(text: &str) -> Result<NamesFile> {
    NamesFile::parse(text).map_err(|e| {
        Error::new(
            NAMES_FILE,
            format!("line {}, column {}", e.line, e.col),
            format!("expected {}, found {}", e.expected, e.found),
        )
    })
}

/// Checks the folder's names file, when it has one: UTF-8 text that reads as a names file.
/// Pack checks it once, before any `.gml` is compiled with it, so that a mistake in it is
/// reported in it (not at a line past the end of every edited `.gml`) and never ignored.
pub(crate) fn check_names_file(folder: &Folder) -> Result<()> {
    let Some(bytes) = folder.get(NAMES_FILE) else {
        return Ok(());
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Error::new(
            NAMES_FILE,
            "",
            format!(
                "expected UTF-8 text, found an invalid byte at offset {}",
                e.valid_up_to()
            ),
        )
    })?;
    parse_names_file(text).map(drop)
}

/// The text a `.gml` file of the folder compiles as: its own, followed by the declarations of
/// the folder's names file when it has one (GML enums and macros hold wherever they are
/// declared, so the file's line numbers stay those of the text).
pub(crate) fn with_names(folder: &Folder, text: String) -> String {
    match folder
        .get(NAMES_FILE)
        .and_then(|b| std::str::from_utf8(b).ok())
    {
        Some(names) => format!("{text}\n{names}\n"),
        None => text,
    }
}

/// Decompiles the root entries of one file (shared by the threads of unpack).
pub(crate) struct Decompiler<'a> {
    game: Game<'a>,
    names: Names,
    /// With a names file: the decompiler without it, for an entry whose text with the names
    /// does not compile back exactly.
    plain: Option<Box<Decompiler<'a>>>,
}

impl<'a> Decompiler<'a> {
    /// `None` when the file has no code entries (YYC, or no CODE chunk). With `names_file`,
    /// numbers held by its places are printed as its enum members and macros.
    pub(crate) fn new(file: &'a DataFile, names_file: Option<&NamesFile>) -> Option<Self> {
        file.code.as_ref().filter(|c| !c.entries.is_empty())?;
        let plain = || {
            let game = Game::new(file);
            let names = Names::new(&game);
            Decompiler {
                game,
                names,
                plain: None,
            }
        };
        Some(match names_file {
            None => plain(),
            Some(nf) => {
                let game = Game::new(file).with_names_file(nf.clone());
                let names = Names::new(&game);
                Decompiler {
                    game,
                    names,
                    plain: Some(Box::new(plain())),
                }
            }
        })
    }

    /// The GML text of root entry `entry` when it compiles back exactly, and the record for
    /// its JSON file (`asm` is the entry's assembly text as written).
    pub(crate) fn entry(&self, entry: usize, asm: &str) -> (Option<String>, GmlRecord) {
        let mut r = self.round_trip(entry);
        if let (Err(_), Some(p)) = (&r, &self.plain) {
            r = p.round_trip(entry);
        }
        match r {
            Ok(mut text) => {
                // A text file ends with a line break (editors add one anyway).
                if !text.ends_with('\n') {
                    text.push('\n');
                }
                let rec = GmlRecord {
                    fnv1a64: Some(fnv1a64(text.as_bytes())),
                    asm_fnv1a64: Some(fnv1a64(asm.as_bytes())),
                    skipped: None,
                };
                (Some(text), rec)
            }
            Err(why) => (
                None,
                GmlRecord {
                    skipped: Some(why),
                    asm_fnv1a64: Some(fnv1a64(asm.as_bytes())),
                    ..GmlRecord::default()
                },
            ),
        }
    }

    fn round_trip(&self, entry: usize) -> std::result::Result<String, String> {
        let game = &self.game;
        let Some(code) = game.file.code.as_ref() else {
            return Err("the file has no code".into());
        };
        let orig = code
            .instructions(entry)
            .map_err(|e| format!("the bytecode does not decode: {e}"))?;
        let d = decompile::decompile_entry(game, entry)
            .map_err(|e| one_line(&format!("decompile: {e}")))?;
        if d.failures > 0 {
            return Err(format!(
                "{} construct(s) could not be decompiled into structured GML",
                d.failures
            ));
        }
        // The version's own dialect (GMS 1.x strings have no escapes), read back as pack reads it.
        let text = print::print_for(&d.body, &game.features);
        let tree = match game.names_file() {
            Some(nf) => {
                nf.parse_code_for(&text, game.enum_int64(), game.features.escaped_strings())
            }
            None => parse::parse_for(&text, &game.features),
        }
        .map_err(|e| one_line(&format!("the decompiled text does not parse: {e}")))?;
        let (ins, children) = compile_entry_with_children(game, &self.names, entry, &tree)
            .map_err(|e| one_line(&format!("compile: {e}")))?;
        if ins.as_slice() != orig.as_ref() {
            let k = ins
                .iter()
                .zip(orig.iter())
                .position(|(a, b)| a != b)
                .unwrap_or(ins.len().min(orig.len()));
            return Err(match (orig.get(k), ins.get(k)) {
                // Same opcode, other operands: show both, as assembly (`push.v self.a`).
                (Some(o), Some(n)) if o.opcode() == n.opcode() => one_line(&format!(
                    "compiled code differs at instruction {k}: expected `{}`, got `{}`",
                    o.display(game.file),
                    n.display(game.file)
                )),
                (Some(o), Some(n)) => format!(
                    "compiled code differs at instruction {k}: expected {}, got {}",
                    o.opcode().mnemonic(),
                    n.opcode().mnemonic()
                ),
                (Some(_), None) => format!(
                    "compiled code is too short: {} instructions, expected {}",
                    ins.len(),
                    orig.len()
                ),
                _ => format!(
                    "compiled code is too long: {} instructions, expected {}",
                    ins.len(),
                    orig.len()
                ),
            });
        }
        let got: Vec<_> = children
            .iter()
            .map(|h| (h.name.as_str(), h.offset, h.arguments, h.locals))
            .collect();
        let want: Vec<_> = game
            .children(entry)
            .iter()
            .map(|&(off, e)| {
                let x = &code.entries[e];
                (game.code_name(e), off, x.arguments_count, x.locals_count)
            })
            .collect();
        if got != want {
            let what = match got.iter().zip(&want).find(|(a, b)| a != b) {
                Some((a, b)) if a.0 != b.0 || a.1 != b.1 => {
                    format!("{} at offset {} (expected {} at {})", a.0, a.1, b.0, b.1)
                }
                Some((a, b)) => format!(
                    "{}: arguments {} locals {} (expected {} and {})",
                    a.0, a.2, a.3, b.2, b.3
                ),
                None => format!("{} nested functions, expected {}", got.len(), want.len()),
            };
            return Err(format!("compiled nested function headers differ: {what}"));
        }
        Ok(text)
    }
}

fn one_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_owned()
}

/// A root entry whose `.gml` must be compiled at pack.
pub(crate) struct Pending {
    /// Entry index.
    pub entry: usize,
    /// The `.gml` path.
    pub path: String,
    /// The entry's `.asm` was edited too: the two must give the same instructions (a
    /// search-and-replace over the folder changes both the same way).
    pub asm_edited: Option<String>,
}

/// Decides, for root entry `entry` (its JSON's `"gml"` record `rec`, its `.asm` at `asm_path`),
/// whether its `.gml` file must be compiled: when the file exists and its text hash differs
/// from the recorded one. When its `.asm` was edited too, [`compile`] takes the two only when
/// they give the same instructions.
pub(crate) fn pending(
    folder: &Folder,
    entry: usize,
    asm_path: &str,
    rec: Option<&GmlRecord>,
) -> Result<Option<Pending>> {
    let stem = asm_path
        .strip_suffix(&format!(".{}", crate::code::ASM_EXT))
        .unwrap_or(asm_path);
    let path = format!("{stem}.{GML_EXT}");
    let Some(text) = folder.get(&path) else {
        return Ok(None);
    };
    let recorded = rec.and_then(|r| r.fnv1a64.as_deref());
    if recorded == Some(fnv1a64(text).as_str()) {
        return Ok(None);
    }
    let asm_edited = match rec.and_then(|r| r.asm_fnv1a64.as_deref()) {
        Some(h) => folder.get(asm_path).map(fnv1a64).as_deref() != Some(h),
        // No record of the assembly as unpacked: the `.gml` is new and wins.
        None => false,
    };
    Ok(Some(Pending {
        entry,
        path,
        asm_edited: asm_edited.then(|| asm_path.to_owned()),
    }))
}

/// Compiles the pending `.gml` files against `file` (whose code holds the assembled `.asm`
/// texts) and puts the results in place: instructions of the root entry, execution offsets,
/// argument and local counts of its nested functions' entries.
///
/// Text that compiles with the names the file has is compiled as it is (in parallel). Text
/// that needs new names (a new variable, string, built-in function or script call; `enum`,
/// `#macro`) is compiled afterwards one entry at a time with the growing compiler
/// ([`gmkit_gml::compile::compile_text`]), each entry's additions appended to the file before
/// the next entry compiles, so that two entries adding the same name share one entry.
pub(crate) fn compile(folder: &Folder, file: &mut DataFile, pending: &[Pending]) -> Result<()> {
    if pending.is_empty() {
        return Ok(());
    }
    use rayon::prelude::*;
    let outcomes: Vec<std::result::Result<Option<Compiled>, Error>> = {
        let game = Game::new(file);
        let names = Names::new(&game);
        pending
            .par_iter()
            .map(|p| compile_existing(folder, &game, &names, p))
            .collect()
    };
    let mut grow = Vec::new();
    let mut done = Vec::with_capacity(outcomes.len());
    for (o, p) in outcomes.into_iter().zip(pending) {
        match o? {
            Some(c) => done.push(c),
            None => grow.push(p),
        }
    }
    // The growing compiles only append to STRG, VARI and FUNC: the indices of `done` stay.
    for p in grow {
        let text = pending_text(folder, p)?;
        let c = compile_into(file, p.entry, &p.path, &text)?;
        done.push(c);
    }
    for p in pending.iter().filter(|p| p.asm_edited.is_some()) {
        if let Some(c) = done.iter().find(|c| c.0 == p.entry) {
            both_agree(file, p, &c.1)?;
        }
    }
    put_in_place(file, done);
    Ok(())
}

/// An entry whose `.gml` and `.asm` were both edited: taken when the compiled text gives the
/// instructions the assembly gave (`compiled`), else refused naming the first difference.
fn both_agree(
    file: &DataFile,
    p: &Pending,
    compiled: &[gmkit_data::chunks::code::Instruction],
) -> Result<()> {
    let asm_path = p.asm_edited.as_deref().unwrap_or_default();
    let assembled = file
        .code
        .as_ref()
        .and_then(|c| c.instructions(p.entry).ok());
    let Some(assembled) = assembled else {
        return Ok(());
    };
    if assembled.as_ref() == compiled {
        return Ok(());
    }
    let k = assembled
        .iter()
        .zip(compiled)
        .position(|(a, b)| a != b)
        .unwrap_or(assembled.len().min(compiled.len()));
    Err(Error::new(
        &p.path,
        "",
        format!(
            "both this file and {asm_path} were edited and they differ (at instruction {k}); \
             expected only one of them edited, or both the same way (undo the edits of one, \
             or delete the .gml to keep the assembly)"
        ),
    ))
}

fn put_in_place(file: &mut DataFile, results: Vec<Compiled>) {
    let Some(code) = file.code.as_mut() else {
        return;
    };
    for (entry, ins, children) in results {
        code.entries[entry].body = CodeBody::Instructions(ins);
        for (k, h) in children {
            let e = &mut code.entries[k];
            e.execution_offset = h.offset;
            e.arguments_count = h.arguments;
            e.locals_count = h.locals;
        }
    }
}

/// The last step of compiling the `.gml` files: the child entries of functions an edited
/// `.gml` no longer defines leave the file with their SCPT and FUNC entries, every reference
/// renumbered ([`gmkit_gml::entries::remove_dropped_functions`]; one that other code still
/// uses stays, returning at once).
pub(crate) fn remove_dropped(file: &mut DataFile, pending: &[Pending]) -> Result<()> {
    let roots: Vec<usize> = pending.iter().map(|p| p.entry).collect();
    gmkit_gml::entries::remove_dropped_functions(file, &roots)
        .map(|_| ())
        .map_err(|e| {
            let label = pending.first().map_or("code", |p| p.path.as_str());
            Error::new(label, "", one_line(&e.to_string()))
        })
}

/// Compiles GML `text` into root entry `entry` of `file` with the growing compiler and puts
/// the result in place: the names it needs are appended first (strings, VARI and FUNC
/// entries, the entry's locals), then the entry's instructions and its nested functions'
/// headers replace the old ones; the entries of functions the text no longer defines leave
/// the file ([`gmkit_gml::entries::remove_dropped_functions`]: code entry and function indices
/// after them move down). `label` names the text in errors (a file path).
pub fn compile_gml_into(file: &mut DataFile, entry: usize, label: &str, text: &str) -> Result<()> {
    let c = compile_into(file, entry, label, text)?;
    put_in_place(file, vec![c]);
    gmkit_gml::entries::remove_dropped_functions(file, &[entry])
        .map(|_| ())
        .map_err(|e| Error::new(label, "", one_line(&e.to_string())))
}

/// The growing compile of one entry through [`gmkit_gml::entries::replace_code`]: names
/// added, headers of its nested functions updated, new nested functions added as child
/// entries, the code put in place (returned too, for [`put_in_place`]).
fn compile_into(file: &mut DataFile, entry: usize, label: &str, text: &str) -> Result<Compiled> {
    gmkit_gml::entries::replace_code(file, entry, text).map_err(|e| {
        Error::new(
            label,
            if e.line > 0 {
                format!("line {}, column {}", e.line, e.col)
            } else {
                String::new()
            },
            one_line(&e.message),
        )
    })?;
    let ins = file
        .code
        .as_ref()
        .and_then(|c| c.instructions(entry).ok())
        .map(|i| i.into_owned())
        .unwrap_or_default();
    Ok((entry, ins, Vec::new()))
}

type Compiled = (
    usize,
    Vec<gmkit_data::chunks::code::Instruction>,
    Vec<(usize, ChildEntry)>,
);

fn pending_text(folder: &Folder, p: &Pending) -> Result<String> {
    let bytes = folder.get(&p.path).unwrap_or_default();
    std::str::from_utf8(bytes)
        .map(|t| with_names(folder, t.to_owned()))
        .map_err(|e| Error::new(&p.path, "", format!("expected UTF-8 text: {e}")))
}

/// Compiles one `.gml` with the names the file has (`None`: it needs new ones, or
/// preprocessing: compile it with the growing compiler).
fn compile_existing(
    folder: &Folder,
    game: &Game,
    names: &Names,
    p: &Pending,
) -> std::result::Result<Option<Compiled>, Error> {
    let text = pending_text(folder, p)?;
    let Ok(tree) = parse::parse_for(&text, &game.features) else {
        // `enum`, `#macro` or a syntax error: the growing compile reports where.
        return Ok(None);
    };
    let (ins, children) = match compile_entry_with_source(game, names, p.entry, &tree, &text) {
        Ok(r) => r,
        Err(CompileError::UnknownName { .. }) => return Ok(None),
        Err(e) => {
            let at = e
                .place(&text, game.features.escaped_strings())
                .map(|(line, col)| format!("line {line}, column {col}"))
                .unwrap_or_default();
            return Err(Error::new(&p.path, at, one_line(&e.to_string())));
        }
    };
    // Nested functions added, dropped or renamed: the growing compile
    // ([`gmkit_gml::entries::replace_code`]) adds and keeps their child entries.
    let Ok(out) = match_children(game, &p.path, p.entry, children) else {
        return Ok(None);
    };
    Ok(Some((p.entry, ins, out)))
}

/// Pairs the compiled nested functions with the root's child entries (by name).
fn match_children(
    game: &Game,
    label: &str,
    entry: usize,
    children: Vec<ChildEntry>,
) -> Result<Vec<(usize, ChildEntry)>> {
    let code = game.file.code.as_ref();
    let kids: Vec<usize> = code.map_or(Vec::new(), |c| {
        c.entries
            .iter()
            .enumerate()
            .filter(
                |(_, e)| matches!(e.body, CodeBody::Shared { parent } if parent as usize == entry),
            )
            .map(|(k, _)| k)
            .collect()
    });
    let mut taken = vec![false; kids.len()];
    let mut out = Vec::with_capacity(children.len());
    for h in children {
        let Some(j) = (0..kids.len()).find(|&j| !taken[j] && game.code_name(kids[j]) == h.name)
        else {
            return Err(Error::new(
                label,
                "",
                format!(
                    "expected the nested functions the entry has, found a new one ({}; adding code entries is not supported yet)",
                    h.name
                ),
            ));
        };
        taken[j] = true;
        out.push((kids[j], h));
    }
    if let Some(j) = taken.iter().position(|t| !t) {
        return Err(Error::new(
            label,
            "",
            format!(
                "expected every nested function of the entry, missing {} (removing code entries is not supported yet)",
                game.code_name(kids[j])
            ),
        ));
    }
    Ok(out)
}

/// The entry name a new `.gml` file stands for: its file stem, without a leading index
/// (`0042_gml_Script_foo.gml` and `gml_Script_foo.gml` both name `gml_Script_foo`).
fn new_entry_name(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.strip_suffix(&format!(".{GML_EXT}")).unwrap_or(file);
    match stem.split_once('_') {
        Some((digits, rest))
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) =>
        {
            rest
        }
        _ => stem,
    }
}

/// Adds a code entry for each new `.gml` file (one without a `.json` beside it), named like
/// the entry GameMaker would make (`gml_Script_NAME`, `gml_GlobalScript_NAME`,
/// `gml_Object_OBJECT_EVENT_N`, `gml_Room_ROOM_Create`), through
/// [`gmkit_gml::entries::add_entry`]: the entry is compiled from the text and wired into the
/// script table, the object's events or the room. A name no entry kind takes is refused with
/// one line saying which names are accepted.
pub(crate) fn add_new(
    folder: &Folder,
    file: &mut DataFile,
    paths: &[(String, Option<String>)],
) -> Result<()> {
    use gmkit_gml::entries::{AddEntryError, add_entry};
    for (path, entry) in paths {
        let bytes = folder.get(path).unwrap_or_default();
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Error::new(path, "", format!("expected UTF-8 text: {e}")))?;
        let script = entry
            .as_deref()
            .and_then(|e| e.strip_prefix("gml_GlobalScript_"));
        let old_script = script
            .filter(|_| !file.version.at_least(2, 3))
            .map(|s| format!("gml_Script_{s}"));
        let name = old_script
            .as_deref()
            .or(entry.as_deref())
            .unwrap_or_else(|| new_entry_name(path));
        let target = file
            .parse_entry_name(name)
            .map_err(|why| Error::new(path, "", why))?;
        add_entry(file, &target, &with_names(folder, text.to_owned())).map_err(|e| match e {
            AddEntryError::Parse {
                line,
                col,
                expected,
                found,
            } => Error::new(
                path,
                format!("line {line}, column {col}"),
                one_line(&format!("expected {expected}, found {found}")),
            ),
            e => Error::new(path, "", one_line(&e.to_string())),
        })?;
    }
    Ok(())
}
