//! `gmkit import`: put strings, texture pages and sounds into a parsed data file.

use crate::error::{Error, Result};
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::{DataFile, GmString};
use gmkit_media::audio::{SoundLocation, sound_location};

/// Applies a strings JSON (`{"index": "text"}`, see [`crate::strings`]): entries present are
/// replaced, an index equal to the table length appends. Returns how many entries changed.
///
/// A replaced entry that is also a name (of a variable, function, asset, code entry, or any
/// other field that is not a string constant of code) is split as pack splits it (see
/// `docs/translation.md`): the entry keeps its index and takes the new text, which every code
/// constant pushing it now pushes, and the names move to the first entry that still has the old
/// text, or a new one at the end of the table.
pub fn strings(file: &mut DataFile, label: &str, json: &[u8]) -> Result<usize> {
    let entries = crate::strings::parse_entries(label, json)?;
    let table = file
        .strings
        .as_mut()
        .ok_or_else(|| Error::new(label, "", "expected a data file with a string table (STRG)"))?;
    let mut changed = 0;
    let mut replaced = Vec::new();
    for (i, s) in entries {
        let i = i as usize;
        if i < table.len() {
            let r = gmkit_data::StringRef(i as u32);
            if let Some(old) = table.get(r).filter(|t| t.as_bytes() != s.as_bytes()) {
                replaced.push((i as u32, GmString(old.as_bytes().to_vec().into())));
                table.set(r, s);
                changed += 1;
            }
        } else if i == table.len() {
            table.push(s);
            changed += 1;
        } else {
            return Err(Error::new(
                label,
                i.to_string(),
                format!(
                    "expected an index below {} (the next new entry)",
                    table.len() + 1
                ),
            ));
        }
    }
    if !replaced.is_empty() {
        split_names(file, label, replaced)?;
    }
    Ok(changed)
}

/// Text standing for entry `i` while names are counted and moved (no real text has it).
fn marker(i: usize) -> String {
    format!("\u{1}gmkit-string-{i}")
}

/// Moves the names that used the `replaced` entries (index, old text) to an entry with the
/// old text. The model's names are found by serializing it against a table of markers (one
/// per entry) and moved by reading it back with the markers rewritten: the same path as the
/// folder's JSON, so every field that names a string is covered.
fn split_names(file: &mut DataFile, label: &str, replaced: Vec<(u32, GmString)>) -> Result<()> {
    use gmkit_data::chunks::code::Instruction;
    use gmkit_data::serde_support::StringScope;
    use std::collections::HashMap;
    let fail = |e: &dyn std::fmt::Display| Error::new(label, "", format!("cannot move names: {e}"));
    let Some(table) = file.strings.as_ref() else {
        return Ok(());
    };
    let markers = |n: usize| {
        let mut t = Strings::default();
        for i in 0..n {
            t.push(GmString::from(marker(i)));
        }
        t
    };
    let mut skel = file.clone();
    skel.strings = None;
    skel.textures = None;
    skel.audio = None;
    skel.code = None;
    let scope = StringScope::new(&markers(table.len()));
    let mut value = scope
        .enter(|| serde_json::to_value(&skel))
        .map_err(|e| fail(&e))?;
    drop(skel);
    // Which replaced entries name something: the model's fields, code entry names, by-name calls.
    let wanted: HashMap<String, u32> = replaced
        .iter()
        .map(|(i, _)| (marker(*i as usize), *i))
        .collect();
    let mut used = std::collections::HashSet::new();
    walk_strings(&mut value, &mut |s| {
        if let Some(&i) = wanted.get(s.as_str()) {
            used.insert(i);
        }
    });
    if let Some(code) = file.code.as_ref() {
        for (k, e) in code.entries.iter().enumerate() {
            if replaced.iter().any(|r| r.0 == e.name.0) {
                used.insert(e.name.0);
            }
            if e.body.is_root()
                && let Ok(ins) = code.instructions(k)
            {
                for x in ins.iter() {
                    if let Instruction::CallByName { name, .. } = x
                        && replaced.iter().any(|r| r.0 == name.0)
                    {
                        used.insert(name.0);
                    }
                }
            }
        }
    }
    if used.is_empty() {
        return Ok(());
    }
    // Each used entry's names go to the first entry with the old text, else a new one.
    let mut moved: HashMap<u32, u32> = HashMap::new();
    for (i, old) in replaced.iter().filter(|r| used.contains(&r.0)) {
        let t = file.strings.get_or_insert_with(Default::default);
        let found = t.iter().position(|e| e.as_bytes() == old.as_bytes());
        let k = match found {
            Some(k) => k as u32,
            None => t.push(old.clone()).0,
        };
        moved.insert(*i, k);
    }
    let by_marker: HashMap<String, String> = moved
        .iter()
        .map(|(i, k)| (marker(*i as usize), marker(*k as usize)))
        .collect();
    walk_strings(&mut value, &mut |s| {
        if let Some(m) = by_marker.get(s.as_str()) {
            *s = m.clone();
        }
    });
    let n = file.strings.as_ref().map_or(0, Strings::len);
    let scope = StringScope::new(&markers(n));
    let mut back: DataFile = scope
        .enter(|| serde_json::from_value(value))
        .map_err(|e| fail(&e))?;
    if !scope.added().is_empty() {
        return Err(fail(&"a name did not read back"));
    }
    back.version = file.version;
    back.layout = std::mem::take(&mut file.layout);
    back.strings = file.strings.take();
    back.textures = file.textures.take();
    back.audio = file.audio.take();
    back.code = file.code.take();
    *file = back;
    if let Some(code) = file.code.as_mut() {
        for k in 0..code.entries.len() {
            if let Some(&to) = moved.get(&code.entries[k].name.0) {
                code.entries[k].name = gmkit_data::StringRef(to);
            }
            let by_name = code.entries[k].body.is_root()
                && code.instructions(k).is_ok_and(|ins| {
                    ins.iter().any(|x| {
                        matches!(x, Instruction::CallByName { name, .. } if moved.contains_key(&name.0))
                    })
                });
            if by_name && let Ok(ins) = code.instructions_mut(k) {
                for x in ins.iter_mut() {
                    if let Instruction::CallByName { name, .. } = x
                        && let Some(&to) = moved.get(&name.0)
                    {
                        *name = gmkit_data::StringRef(to);
                    }
                }
            }
        }
    }
    Ok(())
}

/// Calls `f` on every JSON string of `v` (not on object keys); stack-safe.
fn walk_strings(v: &mut serde_json::Value, f: &mut impl FnMut(&mut String)) {
    use serde_json::Value;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => f(s),
            Value::Array(a) => stack.extend(a.iter_mut()),
            Value::Object(o) => stack.extend(o.values_mut()),
            _ => {}
        }
    }
}

/// Replaces texture page `n` with a PNG image of the same size, re-encoded in the page's format.
pub fn page(file: &mut DataFile, n: usize, label: &str, png: &[u8]) -> Result<()> {
    let page = file
        .textures
        .as_mut()
        .and_then(|t| t.pages.get_mut(n))
        .and_then(Option::as_mut)
        .ok_or_else(|| Error::new(label, "", format!("expected texture page {n} to exist")))?;
    let old = page.blob().ok_or_else(|| {
        Error::new(
            label,
            "",
            format!("texture page {n} is external: not in the data file"),
        )
    })?;
    let (w, h) = (page.width().unwrap_or(0), page.height().unwrap_or(0));
    // The size in the PNG's header is checked before it is decoded.
    let img = gmkit_media::decode_png_sized(png, w, h, "the page").map_err(|e| match e {
        gmkit_media::Error::Size {
            found_w, found_h, ..
        } => Error::new(
            label,
            "",
            format!("expected a {w}×{h} image (the page's size), found {found_w}×{found_h}"),
        ),
        e => Error::new(label, "", format!("expected a PNG: {e}")),
    })?;
    let enc = gmkit_media::Encoding::of(old).map_err(|e| Error::new(label, "", e.to_string()))?;
    let blob = gmkit_media::encode(&img, enc).map_err(|e| Error::new(label, "", e.to_string()))?;
    page.set_blob(blob.into());
    Ok(())
}

/// The sound named `name`, or an error saying a sound's name was expected.
fn sound_named<'a>(file: &'a DataFile, name: &str) -> Result<&'a gmkit_data::chunks::sound::Sound> {
    let strings = file.strings.as_ref();
    file.sounds
        .as_ref()
        .and_then(|s| {
            s.sounds.iter().flatten().find(|s| {
                strings
                    .and_then(|t| t.get(s.name))
                    .is_some_and(|t| t == name)
            })
        })
        .ok_or_else(|| Error::new(name, "", "expected the name of a sound"))
}

/// The audio group whose `audiogroupN.dat` holds the audio of the sound named `name`
/// (`None`: the data file itself, or a sound that is not embedded), so that a front end can
/// open that file before [`game_sound`].
pub fn sound_group(file: &DataFile, name: &str) -> Result<Option<u32>> {
    let sound = sound_named(file, name)?;
    Ok(match sound_location(file, sound) {
        SoundLocation::Group { group, .. } => Some(group),
        _ => None,
    })
}

/// Replaces the audio of the sound named `name` (embedded in the data file); its stored length
/// (2024.6+) becomes the new audio's ([`crate::audio::duration`]).
pub fn sound(file: &mut DataFile, name: &str, bytes: Vec<u8>) -> Result<()> {
    let sound = sound_named(file, name)?;
    let index = match sound_location(file, sound) {
        SoundLocation::Builtin { index } => index,
        SoundLocation::Group { group, .. } => {
            return Err(Error::new(
                name,
                "",
                format!(
                    "the sound lives in audiogroup{group}.dat: import it into the game with its audio groups (gmkit_folder::import::game_sound), or unpack and pack the game folder"
                ),
            ));
        }
        SoundLocation::NotEmbedded => {
            return Err(Error::new(
                name,
                "",
                "the sound is not embedded (streamed from a file beside the game)",
            ));
        }
    };
    let length = put_audio(file, index, name, "", bytes)?;
    set_length(file, name, length);
    Ok(())
}

/// Puts `bytes` as AUDO entry `index` of `file` (`within`: where that file is, for the error,
/// e.g. " in audiogroup1.dat") and returns the audio's length, for the sound named `name`.
fn put_audio(
    file: &mut DataFile,
    index: usize,
    name: &str,
    within: &str,
    bytes: Vec<u8>,
) -> Result<Option<f64>> {
    let entry = file
        .audio
        .as_mut()
        .and_then(|a| a.entries.get_mut(index))
        .ok_or_else(|| {
            Error::new(
                name,
                "audio_id",
                format!("expected AUDO entry {index} to exist{within}"),
            )
        })?;
    let length = crate::audio::duration(&bytes);
    *entry = Some(bytes.into());
    Ok(length)
}

/// Replaces the audio of the sound named `name` of a game: embedded in the data file (as
/// [`sound`]) or in the audio group file (`audiogroupN.dat`) that holds it, entry of its AUDO,
/// as pack applies a changed sound file of an audio group; the sound's stored length (2024.6+)
/// becomes the new audio's. [`crate::Game::write`] (or stage/commit) then writes the data file
/// and the audio group files. On error nothing changes.
pub fn game_sound(game: &mut crate::Game, name: &str, bytes: Vec<u8>) -> Result<()> {
    let file = &game.data;
    let found = sound_named(file, name)?;
    let SoundLocation::Group { group, index } = sound_location(file, found) else {
        return sound(&mut game.data, name, bytes);
    };
    let stem = format!("audiogroup{group}");
    let group_file = &mut game
        .audio_groups
        .iter_mut()
        .find(|(s, _)| crate::audio_group_number(s) == Some(group))
        .ok_or_else(|| {
            Error::new(
                name,
                "audio_group",
                format!("expected {stem}.dat beside the game (the sound lives in it)"),
            )
        })?
        .1;
    let length = put_audio(group_file, index, name, &format!(" in {stem}.dat"), bytes)?;
    set_length(&mut game.data, name, length);
    Ok(())
}

/// The stored length (2024.6+) of the sound named `name` follows its new audio (`length`
/// seconds, when known).
fn set_length(file: &mut DataFile, name: &str, length: Option<f64>) {
    if let Some(l) = length {
        let strings = file.strings.as_ref();
        if let Some(s) = file.sounds.as_mut().and_then(|s| {
            s.sounds.iter_mut().flatten().find(|s| {
                strings
                    .and_then(|t| t.get(s.name))
                    .is_some_and(|t| t == name)
            })
        }) && s.audio_length.is_some()
        {
            s.audio_length = Some(((l * 100.0).round() / 100.0) as f32);
        }
    }
}

/// Replaces the instructions of the root code entry named `name` with assembly text (the
/// syntax of [`gmkit_data::chunks::code::asm`], as `gmkit unpack` writes `code/*.asm`); strings,
/// variables and functions the text names that the file lacks are added, and child entries
/// marked with `.entry NAME` lines take their new execution offsets. A `label` ending in
/// `.gml` makes `text` GML source instead, compiled by [`crate::gml::compile_gml_into`] (new
/// variables, strings, built-in functions and scripts are added as GameMaker adds them).
/// On error nothing changes.
pub fn code(file: &mut DataFile, name: &str, label: &str, text: &str) -> Result<()> {
    use gmkit_data::chunks::code::CodeBody;
    use gmkit_data::chunks::code::asm::Assembler;
    let entry = file
        .strings
        .as_ref()
        .and_then(|s| {
            let code = file.code.as_ref()?;
            code.entries
                .iter()
                .position(|e| s.get(e.name).map(|t| t.as_bytes()) == Some(name.as_bytes()))
        })
        .ok_or_else(|| {
            Error::new(
                label,
                "",
                format!("expected the name of a code entry, found {name:?}"),
            )
        })?;
    if !file
        .code
        .as_ref()
        .is_some_and(|c| c.entries[entry].body.is_root())
    {
        return Err(Error::new(
            label,
            "",
            format!(
                "expected a root code entry, found {name:?} (a child entry: import its root's text)"
            ),
        ));
    }
    if label.ends_with(".gml") {
        // GML text: compiled with the growing compiler (new names are added as GameMaker
        // adds them).
        return crate::gml::compile_gml_into(file, entry, label, text);
    }
    let assembled = Assembler::new(file).assemble(text).map_err(|e| {
        Error::new(
            label,
            format!("line {}, column {}", e.line, e.column),
            format!("expected {}, found {}", e.expected, e.found),
        )
    })?;
    let names: Vec<Option<Vec<u8>>> = file
        .code
        .iter()
        .flat_map(|c| &c.entries)
        .map(|e| {
            file.strings
                .as_ref()
                .and_then(|s| s.get(e.name))
                .map(|t| t.as_bytes().to_vec())
        })
        .collect();
    let Some(code) = file.code.as_mut() else {
        return Ok(());
    };
    let mut used = vec![false; assembled.entries.len()];
    for (k, e) in code.entries.iter_mut().enumerate() {
        if !matches!(e.body, CodeBody::Shared { parent } if parent as usize == entry) {
            continue;
        }
        let found = assembled
            .entries
            .iter()
            .enumerate()
            .find(|(m, (n, _))| !used[*m] && names[k].as_deref() == Some(&n.0[..]));
        if let Some((m, (_, off))) = found {
            used[m] = true;
            e.execution_offset = *off;
        }
    }
    code.entries[entry].body = CodeBody::Instructions(assembled.instructions);
    Ok(())
}

/// Replaces frame `frame` of sprite `sprite` with a PNG of the sprite's width × height, as pack
/// applies an edited `sprites/<sprite>/<frame>.png` ([`crate::frames::pack`]): the frame's
/// pixels go back into its texture page (re-encoded in the page's own format) when its item is
/// used by that frame alone and the new pixels fit its trimmed area, else the frame gets a page
/// and texture page item of its own; `frame` equal to the sprite's frame count adds a frame.
/// `label` names the PNG in errors. On error nothing changes.
pub fn frame(
    file: &mut DataFile,
    sprite: usize,
    frame: usize,
    label: &str,
    png: &[u8],
) -> Result<()> {
    let count = file
        .sprites
        .as_ref()
        .and_then(|s| s.sprites.get(sprite)?.as_ref())
        .map(|s| s.frames.len())
        .ok_or_else(|| Error::new(label, "", format!("expected sprite {sprite} to exist")))?;
    if frame > count {
        return Err(Error::new(
            label,
            "",
            format!("expected a frame number at most {count} (the sprite has {count} frames)"),
        ));
    }
    // A folder holding this one PNG, with no record of unpack's hashes: the PNG counts as edited.
    let n = file.sprites.as_ref().map_or(0, |s| s.sprites.len());
    let dirs: crate::frames::Dirs = vec![(
        crate::frames::Kind::Sprite,
        (0..n).map(|i| Some(format!("sprites/{i}"))).collect(),
    )];
    let mut folder = crate::Folder::default();
    folder.insert(format!("sprites/{sprite}/{frame}.png"), png.to_vec());
    let mut changed = file.clone();
    crate::frames::pack(
        &mut changed,
        &folder,
        "",
        &dirs,
        &crate::pages::Touched::new(),
    )
    .map_err(|e| Error::new(label, e.field, e.message))?;
    *file = changed;
    Ok(())
}
