//! Data file → folder.

use crate::Game;
use crate::error::{Error, Result};
use crate::fields::{Part, Walk};
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
    unpack_with(game, &UnpackOptions::default())
}

/// How to unpack: [`unpack_with`], [`unpack_to_dir_with`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnpackOptions {
    /// A names file for the game (its enums and macros, docs/names-file.md): copied into the
    /// folder as `names.gml` and used to decompile (numbers its places hold are printed as its
    /// names); pack then compiles edited `.gml` files with its declarations.
    pub names_file: Option<String>,
}

/// As [`unpack`], with options.
pub fn unpack_with(game: &Game, options: &UnpackOptions) -> Result<Folder> {
    let mut folder = unpack_deferred(game, options)?;
    folder.materialize()?;
    Ok(folder)
}

/// The folder of a game with its texture pages' PNGs deferred (produced when written).
fn unpack_deferred(game: &Game, options: &UnpackOptions) -> Result<Folder> {
    let mut folder = Folder::default();
    unpack_game_into(game, options, &mut folder)?;
    Ok(folder)
}

/// Unpacks a game (its data file, the names file of `options`, its audio groups) into `folder`.
pub(crate) fn unpack_game_into(
    game: &Game,
    options: &UnpackOptions,
    folder: &mut Folder,
) -> Result<()> {
    let names = match &options.names_file {
        None => None,
        Some(text) => Some(crate::gml::parse_names_file(text)?),
    };
    unpack_into_with(&game.data, "", folder, names.as_ref())?;
    if let Some(text) = &options.names_file {
        folder.insert(crate::gml::NAMES_FILE, text.clone().into_bytes());
    }
    for (name, g) in &game.audio_groups {
        unpack_into(g, &format!("{AUDIO_GROUPS}/{name}/"), folder)?;
    }
    Ok(())
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
/// bounded memory: every JSON, code and frame file is written as it is produced (into a
/// temporary directory beside `dir`, renamed to `dir` when complete: on any error nothing is
/// left behind), stored page images are written from the parsed model's bytes (no copy) and
/// each page's PNG is produced as it is written, one page per thread at a time.
pub fn unpack_to_dir(game: &Game, dir: impl AsRef<std::path::Path>) -> Result<Unpacked> {
    unpack_to_dir_with(game, dir, &UnpackOptions::default())
}

/// As [`unpack_to_dir`], with options.
pub fn unpack_to_dir_with(
    game: &Game,
    dir: impl AsRef<std::path::Path>,
    options: &UnpackOptions,
) -> Result<Unpacked> {
    let dir = dir.as_ref();
    let tmp = crate::folder::prepare(dir)?;
    let result = (|| {
        let mut folder = Folder::spilling(&tmp);
        unpack_game_into(game, options, &mut folder)?;
        let (files, bytes) = folder.write_into(&tmp)?;
        let notes = crate::frames::notes(&folder);
        crate::folder::place(&tmp, dir)?;
        Ok(Unpacked {
            files,
            bytes,
            notes,
        })
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
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
    unpack_into_with(file, prefix, out, None)
}

/// As [`unpack_into`], decompiling with `names_file` (see [`UnpackOptions::names_file`]).
pub fn unpack_into_with(
    file: &DataFile,
    prefix: &str,
    out: &mut Folder,
    names_file: Option<&gmkit_gml::names_file::NamesFile>,
) -> Result<()> {
    let empty = Strings::default();
    let strings = file.strings.as_ref().unwrap_or(&empty);
    let scope = StringScope::new(strings);
    let names = crate::names::of_file(file);
    let plan = crate::assets::plan(file);
    let mut sink = Sink {
        prefix,
        file,
        plan: &plan,
        scope: &scope,
        docs: Vec::new(),
        orders: Default::default(),
    };
    let mut manifest = Map::new();
    manifest.insert("gmkit_folder".into(), json!(FORMAT));
    let walked = names.enter(|| {
        scope.enter(|| {
            crate::fields::each(
                file,
                &["strings", "textures", "audio", "code"],
                &mut |part| -> Result<()> {
                    match part {
                        Part::Whole(field @ ("version" | "layout"), v) => {
                            manifest.insert(field.into(), v);
                        }
                        Part::Whole(field, v) => {
                            if !(v.is_null()
                                || (field == "unknown" && v.as_array().is_some_and(Vec::is_empty)))
                            {
                                whole(field, v, &mut sink)?;
                            }
                        }
                        Part::Element(field, i, item) => {
                            sink.element(field, i, item)?;
                        }
                        Part::Rest(field, rest) => {
                            sink.rest(field, rest)?;
                        }
                    }
                    if sink.docs.len() >= RENDER_BATCH {
                        render(&mut sink.docs, out);
                        out.spill_error()?;
                    }
                    Ok(())
                },
            )
        })
    });
    match walked {
        Ok(()) => {}
        Err(Walk::Stopped(e)) => return Err(e),
        Err(Walk::Json(e)) => return Err(ser_err("model", e)),
    }
    let Sink { mut docs, .. } = sink;
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
        for (i, p) in t.pages.iter().enumerate() {
            crate::pages::unpack(prefix, i, p.as_ref(), out, &mut docs)?;
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
            match e {
                // Compared where it lies: never copied for a diff.
                Some(b) if out.for_diff => {
                    out.defer(path, crate::folder::Deferred::Shared(b.clone()));
                }
                _ => out.insert(path, e.as_ref().map_or_else(Vec::new, |b| b.to_vec())),
            }
        }
    }
    crate::code::unpack(file, &scope, prefix, &plan.code, &mut docs, out, names_file)?;
    docs.push((format!("{prefix}{MANIFEST}"), Value::Object(manifest)));
    let dirs = image_dirs(&plan, prefix);
    crate::frames::unpack(file, &dirs, out)?;
    if let Some((_, sprites)) = dirs.first() {
        crate::masks::unpack(file, sprites, out)?;
    }
    render(&mut docs, out);
    out.spill_error()
}

/// The folder of every sprite, background and font (sprites first), for their images.
pub(crate) fn image_dirs(plan: &crate::assets::Plan, prefix: &str) -> crate::frames::Dirs {
    crate::frames::Kind::ALL
        .into_iter()
        .map(|kind| {
            let field = kind.field();
            let dirs = plan.dirs.get(field).map_or_else(Vec::new, |d| {
                d.iter()
                    .map(|d| d.as_ref().map(|d| format!("{prefix}{field}/{d}")))
                    .collect()
            });
            (kind, dirs)
        })
        .collect()
}

/// JSON files rendered at once: enough to keep both cores busy, few enough that their trees
/// stay small.
const RENDER_BATCH: usize = 512;

/// Renders `docs` (in parallel) into `out` and empties it.
pub(crate) fn render(docs: &mut Vec<(String, Value)>, out: &mut Folder) {
    let rendered: Vec<(String, Vec<u8>)> = std::mem::take(docs)
        .into_par_iter()
        .map(|(p, v)| {
            let b = pretty(&v);
            (p, b)
        })
        .collect();
    out.insert_all(rendered);
}

/// Where the parts of the model go while it is walked.
struct Sink<'a, 'f> {
    prefix: &'a str,
    file: &'f DataFile,
    plan: &'a crate::assets::Plan,
    scope: &'a std::sync::Arc<StringScope>,
    /// (path, value) of JSON files not yet rendered: rendered in parallel in batches, so the
    /// model is never held as one JSON tree.
    docs: Vec<(String, Value)>,
    /// Folder names of the elements of chunks written by name, in order.
    orders: std::collections::HashMap<&'static str, Vec<Value>>,
}

impl Sink<'_, '_> {
    /// Element `i` of split chunk `field`: `FIELD/NNNN_name.json`, or its folder for a chunk
    /// written by name ([`crate::assets`]).
    fn element(&mut self, field: &'static str, i: usize, mut item: Value) -> Result<()> {
        crate::frames::strip_items(field, &mut item);
        if field == "sprites" {
            crate::masks::name_files(self.file, i, &mut item);
        }
        if crate::assets::by_name(field) {
            let order = self.orders.entry(field).or_default();
            return crate::assets::unpack_element(
                self.file,
                self.plan,
                field,
                i,
                item,
                self.prefix,
                &mut self.docs,
                order,
            );
        }
        let name = item.get("name").and_then(|n| match n {
            Value::String(s) => Some(s.clone()),
            Value::Object(o) => o.get("text").and_then(|t| t.as_str()).map(str::to_owned),
            _ => None,
        });
        let stem = element_stem(i, name.as_deref());
        self.docs
            .push((format!("{}{field}/{stem}.json", self.prefix), item));
        Ok(())
    }

    /// The other fields of split chunk `field`: `FIELD/_chunk.json`.
    fn rest(&mut self, field: &'static str, mut rest: Map<String, Value>) -> Result<()> {
        if crate::assets::by_name(field) {
            let order = self.orders.remove(field).unwrap_or_default();
            crate::assets::finish_rest(self.file, self.scope, self.plan, field, &mut rest, order)?;
        }
        self.docs.push((
            format!("{}{field}/{CHUNK_REST}", self.prefix),
            Value::Object(rest),
        ));
        Ok(())
    }
}

/// A field serialized whole: a split chunk given whole (split here), or `FIELD.json`.
fn whole(field: &'static str, v: Value, sink: &mut Sink<'_, '_>) -> Result<()> {
    match (split_key(field), v) {
        (Some(key), Value::Object(mut rest)) => {
            let items = match rest.remove(key) {
                Some(Value::Array(a)) => a,
                other => {
                    return Err(ser_err(field, format!("list {key} is {other:?}")));
                }
            };
            for (i, item) in items.into_iter().enumerate() {
                sink.element(field, i, item)?;
            }
            sink.rest(field, rest)?;
        }
        (_, v) => sink.docs.push((format!("{}{field}.json", sink.prefix), v)),
    }
    Ok(())
}
