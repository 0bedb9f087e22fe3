//! Data file → folder.

use crate::Game;
use crate::error::{Error, Result};
use crate::folder::Folder;
use crate::layout::*;
use bytes::Bytes;
use gmkit_data::DataFile;
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::chunks::texture::PageData;
use gmkit_data::serde_support::StringScope;
use rayon::prelude::*;
use serde_json::{Map, Value, json};

/// Unpacks a game (data file and audio group files) into a folder.
pub fn unpack(game: &Game) -> Result<Folder> {
    let mut folder = Folder::default();
    unpack_into(&game.data, "", &mut folder)?;
    for (name, g) in &game.audio_groups {
        unpack_into(g, &format!("{AUDIO_GROUPS}/{name}/"), &mut folder)?;
    }
    Ok(folder)
}

fn ser_err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(what, "", format!("cannot be written: {e}"))
}

/// A page record's JSON path and value, and its image file (path, bytes).
type PageFiles = (String, Value, Option<(String, Bytes)>);

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
    let names = crate::names::of_file(file);
    let plan = crate::assets::plan(file);
    let value = names
        .enter(|| scope.enter(|| serde_json::to_value(&skel)))
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
        let mut section = json!({"aligned": s.aligned, "end_align": s.end_align});
        if let Some(r) = crate::strings::code_texts_record(file) {
            section[crate::strings::CODE_TEXTS] = r.into();
        }
        manifest.insert("strings".into(), section);
        out.insert(format!("{prefix}{STRINGS}"), crate::strings::to_json(s));
    }
    if let Some(t) = &file.textures {
        manifest.insert("textures".into(), json!({"end_align": t.end_align}));
        let pages: Vec<PageFiles> = t
            .pages
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let stem = format!("{prefix}{TEXTURES}/{}", index_name(i));
                let Some(p) = p else {
                    return Ok((format!("{stem}.json"), Value::Null, None));
                };
                let mut meta = p.clone();
                let blob = match &p.data {
                    PageData::Embedded(b) => {
                        meta.data = PageData::Embedded(Bytes::new());
                        Some(b.clone())
                    }
                    PageData::External { .. } => None,
                };
                let mut v = serde_json::to_value(&meta).map_err(|e| ser_err(&stem, e))?;
                let file = blob.map(|b| {
                    let name = format!("{}.{}", index_name(i), texture_ext(&b));
                    v["data"] = json!({ "file": name });
                    (format!("{prefix}{TEXTURES}/{name}"), b)
                });
                Ok((format!("{stem}.json"), v, file))
            })
            .collect::<Result<_>>()?;
        for (path, v, blob) in pages {
            docs.push((path, v));
            if let Some((path, b)) = blob {
                out.insert(path, b.to_vec());
            }
        }
    }
    if let Some(a) = &file.audio {
        let in_sounds: Map<String, Value> = plan
            .audio
            .iter()
            .map(|(i, stem)| (i.to_string(), json!(stem.trim_start_matches("sounds/"))))
            .collect();
        manifest.insert(
            "audio".into(),
            json!({
                "entries": a.entries.len(),
                "in_sounds": in_sounds,
                crate::audio::RECORD: crate::audio::record(&a.entries),
            }),
        );
        for (i, e) in a.entries.iter().enumerate() {
            let path = match (e, plan.audio.get(&i)) {
                (Some(b), Some(stem)) => format!("{prefix}{stem}.{}", audio_ext(b)),
                (Some(b), None) => format!("{prefix}{AUDIO}/{}.{}", index_name(i), audio_ext(b)),
                (None, _) => format!("{prefix}{AUDIO}/{}.null", index_name(i)),
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
                if crate::assets::by_name(&field) {
                    let dirs = plan.dirs.get(field.as_str()).cloned().unwrap_or_default();
                    crate::assets::unpack_chunk(
                        file, &scope, &plan, &field, items, &dirs, &mut rest, prefix, &mut docs,
                    )?;
                    docs.push((format!("{prefix}{field}/{CHUNK_REST}"), Value::Object(rest)));
                    continue;
                }
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
    crate::code::unpack(file, &scope, prefix, &plan.code, &mut docs, out)?;
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
