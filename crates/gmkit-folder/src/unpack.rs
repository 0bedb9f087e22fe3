//! Data file → folder.

use crate::Game;
use crate::error::{Error, Result};
use crate::folder::Folder;
use crate::layout::*;
use gmkit_data::DataFile;
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::serde_support::StringScope;
use rayon::prelude::*;
use serde_json::{Map, Value, json};

/// Unpacks a game (data file and audio group files) into a folder held in memory, texture
/// pages' PNGs included. To write the folder to disk with bounded memory, use
/// [`unpack_to_dir`].
pub fn unpack(game: &Game) -> Result<Folder> {
    let mut folder = unpack_deferred(game)?;
    folder.materialize()?;
    Ok(folder)
}

/// The folder of a game with its texture pages' PNGs deferred (produced when written).
fn unpack_deferred(game: &Game) -> Result<Folder> {
    let mut folder = Folder::default();
    unpack_into(&game.data, "", &mut folder)?;
    for (name, g) in &game.audio_groups {
        unpack_into(g, &format!("{AUDIO_GROUPS}/{name}/"), &mut folder)?;
    }
    Ok(folder)
}

/// What [`unpack_to_dir`] wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unpacked {
    /// Files written.
    pub files: usize,
    /// Bytes written.
    pub bytes: u64,
    /// (sprite folder, note) of every sprite whose frames stay stored texture items (see
    /// [`crate::frames::notes`]).
    pub notes: Vec<(String, String)>,
}

/// Unpacks a game straight to `dir` (a new or empty directory, see [`Folder::write_dir`]) with
/// bounded memory: stored page images are written from the parsed model's bytes (no copy) and
/// each page's PNG is produced as it is written, one page per thread at a time.
pub fn unpack_to_dir(game: &Game, dir: impl AsRef<std::path::Path>) -> Result<Unpacked> {
    let folder = unpack_deferred(game)?;
    let notes = crate::frames::notes(&folder);
    let (files, bytes) = folder.write_dir_counted(dir)?;
    Ok(Unpacked {
        files,
        bytes,
        notes,
    })
}

fn ser_err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(what, "", format!("cannot be written: {e}"))
}

/// Pretty JSON with a final newline.
pub(crate) fn pretty(v: &Value) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(v).unwrap_or_default();
    out.push(b'\n');
    out
}

/// Unpacks one data file under `prefix` (empty or ending in `/`).
pub fn unpack_into(file: &DataFile, prefix: &str, out: &mut Folder) -> Result<()> {
    let empty = Strings::default();
    let strings = file.strings.as_ref().unwrap_or(&empty);
    let scope = StringScope::new(strings);
    let mut skel = file.clone();
    skel.strings = None;
    skel.textures = None;
    skel.audio = None;
    skel.code = None;
    let value = scope
        .enter(|| serde_json::to_value(&skel))
        .map_err(|e| ser_err("model", e))?;
    drop(skel);
    let Value::Object(mut top) = value else {
        return Err(ser_err("model", "not an object"));
    };
    // (path, value) of every JSON file, rendered in parallel at the end.
    let mut docs: Vec<(String, Value)> = Vec::new();
    let mut manifest = Map::new();
    manifest.insert("gmkit_folder".into(), json!(FORMAT));
    manifest.insert(
        "version".into(),
        top.remove("version").unwrap_or(Value::Null),
    );
    manifest.insert("layout".into(), top.remove("layout").unwrap_or(Value::Null));
    if let Some(s) = &file.strings {
        manifest.insert(
            "strings".into(),
            json!({"aligned": s.aligned, "end_align": s.end_align}),
        );
        out.insert(format!("{prefix}{STRINGS}"), crate::strings::to_json(s));
    }
    if let Some(t) = &file.textures {
        manifest.insert("textures".into(), json!({"end_align": t.end_align}));
        for (i, p) in t.pages.iter().enumerate() {
            crate::pages::unpack(prefix, i, p.as_ref(), out, &mut docs)?;
        }
    }
    if let Some(a) = &file.audio {
        manifest.insert("audio".into(), json!({ "entries": a.entries.len() }));
        for (i, e) in a.entries.iter().enumerate() {
            let path = match e {
                Some(b) => format!("{prefix}{AUDIO}/{}.{}", index_name(i), audio_ext(b)),
                None => format!("{prefix}{AUDIO}/{}.null", index_name(i)),
            };
            out.insert(path, e.as_ref().map_or_else(Vec::new, |b| b.to_vec()));
        }
    }
    let mut sprite_stems: Vec<String> = Vec::new();
    for (field, v) in top {
        if v.is_null() || (field == "unknown" && v.as_array().is_some_and(Vec::is_empty)) {
            continue;
        }
        match (split_key(&field), v) {
            (Some(key), Value::Object(mut rest)) => {
                let items = match rest.remove(key) {
                    Some(Value::Array(a)) => a,
                    other => {
                        return Err(ser_err(&field, format!("list {key} is {other:?}")));
                    }
                };
                let record_stems = field == "sprites";
                for (i, mut item) in items.into_iter().enumerate() {
                    let name = item.get("name").and_then(|n| match n {
                        Value::String(s) => Some(s.clone()),
                        Value::Object(o) => {
                            o.get("text").and_then(|t| t.as_str()).map(str::to_owned)
                        }
                        _ => None,
                    });
                    let stem = element_stem(i, name.as_deref());
                    if record_stems {
                        sprite_stems.push(stem.clone());
                        crate::masks::name_files(file, i, &mut item);
                    }
                    docs.push((format!("{prefix}{field}/{stem}.json"), item));
                }
                docs.push((format!("{prefix}{field}/{CHUNK_REST}"), Value::Object(rest)));
            }
            (_, v) => docs.push((format!("{prefix}{field}.json"), v)),
        }
    }
    crate::code::unpack(file, &scope, prefix, &mut docs, out)?;
    docs.push((format!("{prefix}{MANIFEST}"), Value::Object(manifest)));
    crate::frames::unpack(file, prefix, &sprite_stems, out)?;
    crate::masks::unpack(file, prefix, &sprite_stems, out)?;
    let rendered: Vec<(String, Vec<u8>)> = docs
        .into_par_iter()
        .map(|(p, v)| {
            let b = pretty(&v);
            (p, b)
        })
        .collect();
    for (p, b) in rendered {
        out.insert(p, b);
    }
    Ok(())
}
