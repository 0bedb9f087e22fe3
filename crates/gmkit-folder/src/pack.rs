//! Folder → data file.

use crate::Game;
use crate::error::{Error, Result};
use crate::folder::Folder;
use crate::layout::*;
use crate::lazy::Part;
use bytes::Bytes;
use gmkit_data::DataFile;
use gmkit_data::chunks::audio::EmbeddedAudio;
use gmkit_data::chunks::texture::PageData;
use gmkit_data::serde_support::StringScope;
use rayon::prelude::*;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Packs a folder made by [`crate::unpack`] (and edited) back into a game. Every data file is
/// checked ([`DataFile::validate`]) with errors naming the folder file at fault; audio groups
/// come from `audiogroups/audiogroupN/` folders only (see [`audio_group_number`]).
pub fn pack(folder: &Folder) -> Result<Game> {
    let data = pack_from(folder, "")?;
    let table = data.audio_groups.as_ref().map(|g| g.groups.len());
    let mut groups: Vec<(u32, String)> = Vec::new();
    for p in folder.paths_under(AUDIO_GROUPS) {
        let rest = &p[AUDIO_GROUPS.len() + 1..];
        let Some((name, file)) = rest.split_once('/') else {
            return Err(Error::new(
                p,
                "",
                "expected only folders (audiogroups/audiogroupN/) here, found a file",
            ));
        };
        if file != MANIFEST {
            continue;
        }
        let dir = format!("{AUDIO_GROUPS}/{name}");
        let n = audio_group_number(name).ok_or_else(|| {
            Error::new(
                &dir,
                "",
                format!(
                    "expected a folder named audiogroupN (N = 1, 2, ... without leading zeros: it becomes audiogroupN.dat beside the output), found {}",
                    crate::quote(name)
                ),
            )
        })?;
        if let Some(len) = table
            && n as usize >= len
        {
            let listed = match len {
                0 | 1 => "lists no group beside the built-in group 0".to_owned(),
                2 => "lists audiogroup1 only".to_owned(),
                _ => format!("lists audiogroup1 to audiogroup{}", len - 1),
            };
            return Err(Error::new(
                &dir,
                "",
                format!(
                    "expected a group of the audio group table (audio_groups/ {listed}), found audiogroup{n}"
                ),
            ));
        }
        groups.push((n, name.to_owned()));
    }
    // Every folder under audiogroups/ must be a packed group (no files silently left out).
    if let Some(p) = folder.paths_under(AUDIO_GROUPS).into_iter().find(|p| {
        let name = p[AUDIO_GROUPS.len() + 1..].split('/').next().unwrap_or("");
        !groups.iter().any(|g| g.1 == name)
    }) {
        let name = p[AUDIO_GROUPS.len() + 1..].split('/').next().unwrap_or("");
        return Err(Error::new(
            format!("{AUDIO_GROUPS}/{name}/{MANIFEST}"),
            "",
            "expected the audio group's manifest (missing: every folder under audiogroups/ is an unpacked audiogroupN.dat)",
        ));
    }
    groups.sort();
    let audio_groups = groups
        .into_iter()
        .map(|(_, g)| pack_from(folder, &format!("{AUDIO_GROUPS}/{g}/")).map(|d| (g, d)))
        .collect::<Result<_>>()?;
    let mut game = Game { data, audio_groups };
    crate::audio::update_sounds(folder, &mut game);
    Ok(game)
}

/// `N` of an audio group file stem `audiogroupN` (N ≥ 1, decimal, no leading zeros, below
/// 2^31): the only names pack writes beside its output (`audiogroupN.dat`).
pub fn audio_group_number(stem: &str) -> Option<u32> {
    let digits = stem.strip_prefix("audiogroup")?;
    if digits.is_empty()
        || digits.len() > 10
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    digits
        .parse::<u32>()
        .ok()
        .filter(|&n| n >= 1 && n <= i32::MAX as u32)
}

/// An alignment from the manifest (`section.key`): an integer from 1 to [`gmkit_data::MAX_ALIGN`].
fn manifest_align(
    manifest: &Map<String, Value>,
    path: &str,
    section: &str,
    key: &str,
    default: usize,
) -> Result<usize> {
    let Some(v) = manifest.get(section).and_then(|s| s.get(key)) else {
        return Ok(default);
    };
    match v.as_u64() {
        Some(n) if n >= 1 && n <= gmkit_data::MAX_ALIGN as u64 => Ok(n as usize),
        _ => Err(Error::new(
            path,
            format!("{section}.{key}"),
            format!(
                "expected an alignment from 1 to {} bytes, found {}",
                gmkit_data::MAX_ALIGN,
                crate::one_line(&v.to_string(), 40)
            ),
        )),
    }
}

/// Files of the folder for a part the manifest does not list: an error naming the first.
fn not_in_manifest(manifest: &str, part: &str, first: Option<&str>) -> Result<()> {
    match first {
        Some(f) => Err(Error::new(
            manifest,
            "",
            format!(
                "expected an entry \"{part}\": the folder has {} but the manifest does not list {part} (restore the entry from the unpacked manifest, or delete the files)",
                crate::quote(f)
            ),
        )),
        None => Ok(()),
    }
}

fn parse_json(path: &str, bytes: &[u8]) -> Result<Value> {
    serde_json::from_slice(bytes).map_err(|e| Error::new(path, "", format!("expected JSON: {e}")))
}

fn field_names() -> Vec<String> {
    match serde_json::to_value(DataFile::default()) {
        Ok(Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

fn take<'a>(m: &'a Map<String, Value>, file: &str, key: &str) -> Result<&'a Value> {
    m.get(key)
        .ok_or_else(|| Error::new(file, key, "expected this field (missing)"))
}

/// Where each deserialized part came from: field → (list key, file per element, rest file).
type Sources = HashMap<String, (Option<&'static str>, Vec<String>, String)>;

/// Packs one data file from the files under `prefix` (empty or ending in `/`), as a short
/// pipeline: the manifest, the chunk files listed (each element's name read, nothing else
/// kept), the strings, the texture pages, the image records, the code, then the model read
/// element by element ([`crate::lazy`]: one element file's JSON in memory at a time) inside
/// the names of every asset, and the payloads (audio, pages, frames) joined to it.
pub fn pack_from(folder: &Folder, prefix: &str) -> Result<DataFile> {
    let manifest_path = format!("{prefix}{MANIFEST}");
    let manifest = read_manifest(folder, &manifest_path)?;
    if prefix.is_empty() {
        crate::gml::check_names_file(folder)?;
    }
    manifest_align(&manifest, &manifest_path, "layout", "chunk_align", 16)?;
    let strings_end_align = manifest_align(&manifest, &manifest_path, "strings", "end_align", 128)?;
    let textures_end_align = manifest_align(&manifest, &manifest_path, "textures", "end_align", 4)?;
    check_parts_listed(folder, prefix, &manifest, &manifest_path)?;
    let mut jsons = list_json(folder, prefix, &manifest_path)?;
    let mut chunks = read_chunks(folder, prefix, &manifest, &manifest_path, &mut jsons)?;
    // Strings first: references in every other file are resolved against them.
    let strings = read_strings(folder, prefix, &manifest, strings_end_align)?;
    let follow = follow_strings(&manifest, &manifest_path, strings.as_ref())?;
    let pages = read_pages(
        folder,
        prefix,
        &manifest,
        &manifest_path,
        textures_end_align,
        &mut jsons,
        &mut chunks,
    )?;
    refuse_unread(prefix, &jsons)?;
    let masks = fill_image_records(folder, &mut chunks)?;
    let scope = StringScope::new(strings.as_ref().unwrap_or(&Default::default()));
    // Code entries first: references name them (the names layer resolves every reference).
    let code = crate::code::read(folder, prefix, &scope, &chunks.assets)?;
    let names = crate::names::of_folder(
        &chunks.names,
        code.as_ref().map(|c| c.names()).as_deref(),
        strings.as_ref(),
        &scope.added(),
    );
    let Chunks {
        top,
        sources,
        new_objects,
        ..
    } = chunks;
    let mut file: DataFile = names.enter(|| {
        scope.enter(|| {
            crate::lazy::deserialize(folder, Part::Map(top))
                .map_err(|e| locate(&sources, &manifest_path, e))
        })
    })?;
    if let Some(mut s) = strings {
        for t in scope.added() {
            s.push(t);
        }
        file.strings = Some(s);
    } else if !scope.added().is_empty() {
        return Err(Error::new(
            &manifest_path,
            "strings",
            "expected a string table: files name strings by text but the folder has no strings.json",
        ));
    }
    add_new_objects(&mut file, prefix, &new_objects)?;
    let page_edits = pages.map_or_else(Vec::new, |p| p.join(&mut file));
    read_audio_part(folder, prefix, &manifest, &manifest_path, &mut file)?;
    let dirs = image_dirs(&sources);
    crate::masks::pack(&mut file, folder, masks)?;
    // Page edits first, then frame edits over them: frames win (see crate::pages).
    let touched = crate::pages::apply(&mut file, page_edits, folder)?;
    crate::frames::pack(&mut file, folder, prefix, &dirs, &touched)?;
    if let Some(code) = code {
        crate::code::assemble(folder, &mut file, code, follow.as_ref())?;
    }
    file.layout.size_hint = folder.size();
    file.validate()
        .map_err(|e| invalid(&sources, &manifest_path, prefix, &e))?;
    Ok(file)
}

/// The manifest (`manifest.json`), checked to be of this folder format.
fn read_manifest(folder: &Folder, manifest_path: &str) -> Result<Map<String, Value>> {
    let manifest = folder.get(manifest_path).ok_or_else(|| {
        Error::new(
            manifest_path,
            "",
            "expected the folder's manifest (missing: is this a folder made by `gmkit unpack`?)",
        )
    })?;
    let Value::Object(manifest) = parse_json(manifest_path, manifest)? else {
        return Err(Error::new(manifest_path, "", "expected an object"));
    };
    match manifest.get("gmkit_folder").and_then(Value::as_u64) {
        Some(v) if v == FORMAT as u64 => Ok(manifest),
        Some(v) if v <= FORMAT_PREVIOUS as u64 => Err(Error::new(
            manifest_path,
            "gmkit_folder",
            format!(
                "expected folder format {FORMAT}, found {v}: this folder was unpacked by an older gmkit; pack it with that version, or run `gmkit unpack` again on the game and redo the edits there"
            ),
        )),
        other => Err(Error::new(
            manifest_path,
            "gmkit_folder",
            format!("expected folder format {FORMAT}, found {other:?}"),
        )),
    }
}

/// A part the manifest omits while the folder has its files is an error, not a silent drop.
fn check_parts_listed(
    folder: &Folder,
    prefix: &str,
    manifest: &Map<String, Value>,
    manifest_path: &str,
) -> Result<()> {
    let strings_path = format!("{prefix}{STRINGS}");
    if !manifest.contains_key("strings") {
        let f = folder
            .contains(&strings_path)
            .then_some(strings_path.as_str());
        not_in_manifest(manifest_path, "strings", f)?;
    }
    for part in [TEXTURES, AUDIO] {
        if !manifest.contains_key(part) {
            let under = folder.paths_under(&format!("{prefix}{part}"));
            let mut first = under.first().copied();
            let sounds = folder.paths_under(&format!("{prefix}sounds"));
            if part == AUDIO && first.is_none() {
                // A sound's audio beside its JSON (`sounds/snd_jump.wav`).
                first = sounds.iter().copied().find(|p| !p.ends_with(".json"));
            }
            not_in_manifest(manifest_path, part, first)?;
        }
    }
    Ok(())
}

/// The chunk files not yet taken (paths relative to the prefix) and each one's `name` field
/// (read, the rest of the file skipped: the names layer needs every asset's name before any
/// element is read).
type Jsons = BTreeMap<String, Option<Value>>;

/// Every chunk JSON file below the prefix (nested audio group folders excluded), each parsed
/// once in parallel to check it is JSON and to read its name, nothing else kept.
fn list_json(folder: &Folder, prefix: &str, manifest_path: &str) -> Result<Jsons> {
    let nested = format!("{prefix}{AUDIO_GROUPS}/");
    let paths: Vec<&str> = folder
        .paths()
        .into_iter()
        .filter(|p| {
            p.starts_with(prefix)
                && !p.starts_with(&nested)
                && p.ends_with(".json")
                && *p != manifest_path
        })
        .filter(|p| {
            // Chunk files sit at the top or directly in a chunk's directory; deeper ones
            // (`sprites/S/frames.json`) belong to the element's own reader.
            let rel = &p[prefix.len()..];
            !rel.starts_with(STRINGS)
                && !rel.starts_with(crate::code::DIR)
                && rel.matches('/').count() <= 1
        })
        .collect();
    paths
        .par_iter()
        .map(|p| {
            let bytes = folder
                .read(p)?
                .ok_or_else(|| Error::new(*p, "", "expected this file (missing)"))?;
            Ok((p[prefix.len()..].to_owned(), name_of(p, &bytes)?))
        })
        .collect()
}

/// The `name` field of a JSON file (`None`: no such field, or not an object); an error when
/// the file is not JSON (the message [`parse_json`] gives).
fn name_of(path: &str, bytes: &[u8]) -> Result<Option<Value>> {
    match serde_json::from_slice::<NameOnly>(bytes) {
        Ok(n) => Ok(n.0),
        // (A duplicate field, ...: read as a whole, as the model will.)
        Err(_) => Ok(parse_json(path, bytes)?.get("name").cloned()),
    }
}

/// The `name` field of a JSON object, every other field skipped unparsed.
struct NameOnly(Option<Value>);

impl<'de> serde::Deserialize<'de> for NameOnly {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(NameOnlyVisitor)
    }
}

/// Reads a [`NameOnly`]: a value that is not an object has no name.
struct NameOnlyVisitor;

impl<'de> serde::de::Visitor<'de> for NameOnlyVisitor {
    type Value = NameOnly;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<NameOnly, A::Error> {
        let mut name = None;
        while let Some(k) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if k == "name" {
                name = Some(map.next_value::<Value>()?);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(NameOnly(name))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<NameOnly, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(NameOnly(None))
    }

    fn visit_bool<E>(self, _: bool) -> std::result::Result<NameOnly, E> {
        Ok(NameOnly(None))
    }

    fn visit_i64<E>(self, _: i64) -> std::result::Result<NameOnly, E> {
        Ok(NameOnly(None))
    }

    fn visit_u64<E>(self, _: u64) -> std::result::Result<NameOnly, E> {
        Ok(NameOnly(None))
    }

    fn visit_f64<E>(self, _: f64) -> std::result::Result<NameOnly, E> {
        Ok(NameOnly(None))
    }

    fn visit_str<E>(self, _: &str) -> std::result::Result<NameOnly, E> {
        Ok(NameOnly(None))
    }

    fn visit_unit<E>(self) -> std::result::Result<NameOnly, E> {
        Ok(NameOnly(None))
    }
}

/// Takes a listed JSON file and parses it whole (for a part pack reads or edits as a value).
fn take_value(
    folder: &Folder,
    prefix: &str,
    jsons: &mut Jsons,
    rel: &str,
) -> Result<Option<Value>> {
    if jsons.remove(rel).is_none() {
        return Ok(None);
    }
    let path = format!("{prefix}{rel}");
    let bytes = folder
        .read(&path)?
        .ok_or_else(|| Error::new(&path, "", "expected this file (missing)"))?;
    parse_json(&path, &bytes).map(Some)
}

/// Chunks whose elements pack edits as values before the model is read (events named, image
/// records filled): read whole; every other chunk's elements are read when the model reaches
/// them.
pub(crate) const EDITED_BEFORE_READ: &[&str] = &["objects", "sprites", "backgrounds", "fonts"];

/// What pack gathers from the chunk files before the model is read.
struct Chunks {
    /// The model's JSON, field by field (element files left as paths).
    top: Vec<(String, Part)>,
    /// Where each part came from.
    sources: Sources,
    /// Each asset folder and its asset's (kind, name), for new code files there.
    assets: BTreeMap<String, (String, String)>,
    /// Objects made of event files alone, added after the model is read.
    new_objects: Vec<String>,
    /// Every named chunk's element names, as [`crate::names::of_folder`] reads them
    /// (`{field: {key: [{"name": ...}, ...]}}`).
    names: Map<String, Value>,
}

impl Chunks {
    /// The value of a chunk read whole ([`EDITED_BEFORE_READ`]).
    fn value_mut(&mut self, field: &str) -> Option<&mut Value> {
        self.top
            .iter_mut()
            .find(|(f, _)| f == field)
            .and_then(|(_, p)| match p {
                Part::Value(v) => Some(v),
                _ => None,
            })
    }

    /// Records the element names of a split chunk for the names layer.
    fn add_names(
        &mut self,
        field: &str,
        key: &str,
        names: impl IntoIterator<Item = Option<Value>>,
    ) {
        let list = names
            .into_iter()
            .map(|n| match n {
                Some(n) => serde_json::json!({ "name": n }),
                None => Value::Null,
            })
            .collect();
        let mut m = Map::new();
        m.insert(key.to_owned(), Value::Array(list));
        self.names.insert(field.to_owned(), Value::Object(m));
    }
}

/// Every chunk of the model but strings, textures, audio and code, from its files: a chunk
/// file (`general.json`), a split chunk (`_chunk.json` and one file per element) or a chunk
/// written by name ([`named_chunk`]).
fn read_chunks(
    folder: &Folder,
    prefix: &str,
    manifest: &Map<String, Value>,
    manifest_path: &str,
    jsons: &mut Jsons,
) -> Result<Chunks> {
    let mut chunks = Chunks {
        top: Vec::new(),
        sources: HashMap::new(),
        assets: BTreeMap::new(),
        new_objects: Vec::new(),
        names: Map::new(),
    };
    for key in ["version", "layout"] {
        let v = take(manifest, manifest_path, key)?.clone();
        chunks.top.push((key.into(), Part::Value(v)));
    }
    let code_files = crate::code::asset_files(folder, prefix)?;
    for field in field_names() {
        if matches!(
            field.as_str(),
            "version" | "layout" | "strings" | "textures" | "audio" | "code"
        ) {
            continue;
        }
        if crate::assets::by_name(&field) {
            named_chunk(folder, prefix, &field, jsons, &code_files, &mut chunks)?;
            continue;
        }
        let single = format!("{field}.json");
        if let Some(key) = split_key(&field)
            && let Some(v) = take_value(folder, prefix, jsons, &single)?
        {
            // (A split chunk in one file: its names are read from it.)
            let names: Vec<Option<Value>> = v
                .get(key)
                .and_then(Value::as_array)
                .map(|l| l.iter().map(|e| e.get("name").cloned()).collect())
                .unwrap_or_default();
            chunks.add_names(&field, key, names);
            chunks.top.push((field.clone(), Part::Value(v)));
            chunks
                .sources
                .insert(field, (None, Vec::new(), format!("{prefix}{single}")));
            continue;
        }
        if jsons.remove(&single).is_some() {
            chunks
                .top
                .push((field.clone(), Part::File(format!("{prefix}{single}"))));
            chunks
                .sources
                .insert(field, (None, Vec::new(), format!("{prefix}{single}")));
            continue;
        }
        let Some(key) = split_key(&field) else {
            // Absent: no chunk (the list of unknown chunks: empty).
            let none = if field == "unknown" {
                Value::Array(Vec::new())
            } else {
                Value::Null
            };
            chunks.top.push((field, Part::Value(none)));
            continue;
        };
        let rest_path = format!("{field}/{CHUNK_REST}");
        let Some(rest) = take_value(folder, prefix, jsons, &rest_path)? else {
            missing_rest(folder, prefix, &field)?;
            chunks.top.push((field, Part::Value(Value::Null)));
            continue;
        };
        let Value::Object(mut rest) = rest else {
            return Err(Error::new(
                format!("{prefix}{rest_path}"),
                "",
                "expected an object",
            ));
        };
        let dir = format!("{field}/");
        let keys: Vec<String> = jsons
            .range(dir.clone()..)
            .take_while(|(p, _)| p.starts_with(&dir))
            .map(|(p, _)| p.clone())
            .filter(|p| !p[dir.len()..].contains('/') && p[dir.len()..] != *CHUNK_REST)
            .collect();
        let mut items: Vec<(usize, String, (Part, Option<Value>))> = Vec::with_capacity(keys.len());
        for p in keys {
            let i = leading_index(&p[dir.len()..]).ok_or_else(|| {
                Error::new(
                    format!("{prefix}{p}"),
                    "",
                    "expected a file name starting with its index (0003_name.json)",
                )
            })?;
            let name = jsons.remove(&p).flatten();
            items.push((i, p.clone(), (Part::File(format!("{prefix}{p}")), name)));
        }
        items.sort_by_key(|x| x.0);
        let (list, files) = ordered(prefix, items)?;
        let (parts, names): (Vec<Part>, Vec<Option<Value>>) = list.into_iter().unzip();
        chunks.add_names(&field, key, names);
        rest.remove(key);
        let mut fields: Vec<(String, Part)> =
            rest.into_iter().map(|(k, v)| (k, Part::Value(v))).collect();
        fields.push((key.into(), Part::List(parts)));
        chunks.top.push((field.clone(), Part::Map(fields)));
        chunks
            .sources
            .insert(field, (Some(key), files, format!("{prefix}{rest_path}")));
    }
    Ok(chunks)
}

/// A chunk directory without its `_chunk.json`: an error when the directory has files (the
/// chunk would be dropped), otherwise no chunk.
fn missing_rest(folder: &Folder, prefix: &str, field: &str) -> Result<()> {
    let dir = format!("{prefix}{field}");
    match folder.paths_under(&dir).first() {
        Some(f) => Err(Error::new(
            format!("{dir}/{CHUNK_REST}"),
            "",
            format!(
                "expected the chunk's own fields (missing, while the folder has {}: without it the chunk would be dropped)",
                crate::quote(f)
            ),
        )),
        None => Ok(()),
    }
}

/// The string table (`strings.json`), when the manifest lists one.
fn read_strings(
    folder: &Folder,
    prefix: &str,
    manifest: &Map<String, Value>,
    end_align: usize,
) -> Result<Option<gmkit_data::chunks::string_table::Strings>> {
    let Some(Value::Object(sm)) = manifest.get("strings") else {
        return Ok(None);
    };
    let path = format!("{prefix}{STRINGS}");
    let aligned = sm.get("aligned").and_then(Value::as_bool).unwrap_or(true);
    let bytes = folder
        .get(&path)
        .ok_or_else(|| Error::new(&path, "", "expected the string table (missing)"))?;
    crate::strings::from_json(&path, bytes, aligned, end_align).map(Some)
}

/// The texture pages' stored bytes and edited PNGs, joined to the model once it is read.
struct Pages {
    /// Each page's stored bytes, by page index.
    blobs: Vec<(usize, Bytes)>,
    /// The pages whose PNG changed.
    edits: Vec<crate::pages::PageEdit>,
}

impl Pages {
    /// Puts the stored bytes into the model's pages; returns the page edits.
    fn join(self, file: &mut DataFile) -> Vec<crate::pages::PageEdit> {
        if let Some(t) = file.textures.as_mut() {
            for (i, b) in self.blobs {
                if let Some(Some(p)) = t.pages.get_mut(i) {
                    p.data = PageData::Embedded(b);
                }
            }
        }
        self.edits
    }
}

/// Texture pages: records from JSON (into the model's JSON), images from their files.
fn read_pages(
    folder: &Folder,
    prefix: &str,
    manifest: &Map<String, Value>,
    manifest_path: &str,
    end_align: usize,
    jsons: &mut Jsons,
    chunks: &mut Chunks,
) -> Result<Option<Pages>> {
    if !manifest.contains_key("textures") {
        return Ok(None);
    }
    let dir = format!("{TEXTURES}/");
    let keys: Vec<String> = jsons
        .range(dir.clone()..)
        .take_while(|(p, _)| p.starts_with(&dir))
        .map(|(p, _)| p.clone())
        .collect();
    let mut items: Vec<(usize, String, Value)> = Vec::with_capacity(keys.len());
    for p in keys {
        let i = leading_index(&p[dir.len()..]).ok_or_else(|| {
            Error::new(
                format!("{prefix}{p}"),
                "",
                "expected a file name starting with its index (0003.json)",
            )
        })?;
        let v = take_value(folder, prefix, jsons, &p)?.unwrap_or(Value::Null);
        items.push((i, p, v));
    }
    items.sort_by_key(|x| x.0);
    let (mut pages, files) = ordered(prefix, items)?;
    // Each page's stored bytes, and whether its PNG changed (pages in parallel, one image
    // per thread at a time).
    let read: Vec<Option<(Bytes, Option<crate::pages::PageEdit>)>> = pages
        .par_iter()
        .enumerate()
        .map(|(i, page)| match page.get("data") {
            Some(d) if d.get("file").is_some_and(Value::is_string) => {
                crate::pages::read(folder, prefix, i, d, &files[i]).map(Some)
            }
            _ => Ok(None),
        })
        .collect::<Result<_>>()?;
    let mut out = Pages {
        blobs: Vec::new(),
        edits: Vec::new(),
    };
    for (i, r) in read.into_iter().enumerate() {
        let Some((blob, edit)) = r else { continue };
        out.blobs.push((i, blob));
        out.edits.extend(edit);
        pages[i]["data"] = serde_json::json!({ "Embedded": "" });
    }
    let mut obj = Map::new();
    obj.insert("pages".into(), Value::Array(pages));
    obj.insert("end_align".into(), end_align.into());
    chunks
        .top
        .push(("textures".into(), Part::Value(Value::Object(obj))));
    chunks.sources.insert(
        "textures".into(),
        (Some("pages"), files, manifest_path.to_owned()),
    );
    Ok(Some(out))
}

/// A JSON file at the top or directly in a chunk's directory that no part took: an error (a
/// file the manifest or layout does not explain would otherwise be dropped).
fn refuse_unread(prefix: &str, jsons: &Jsons) -> Result<()> {
    match jsons.keys().next() {
        Some(p) => Err(Error::new(
            format!("{prefix}{p}"),
            "",
            "expected a file of the folder layout (no chunk reads this file: is its directory's _chunk.json or the manifest entry missing?)",
        )),
        None => Ok(()),
    }
}

/// The texture page items of sprites, backgrounds and fonts, from the records beside them;
/// returns the sprites' mask files.
fn fill_image_records(
    folder: &Folder,
    chunks: &mut Chunks,
) -> Result<Vec<(usize, usize, String, String)>> {
    for kind in crate::frames::Kind::ALL {
        let field = kind.field();
        let Some((Some(key), files, _)) = chunks.sources.get(field).cloned() else {
            continue;
        };
        if let Some(v) = chunks.value_mut(field) {
            crate::frames::fill_items(field, v, key, &files, folder)?;
        }
    }
    let files = match chunks.sources.get("sprites") {
        Some((_, files, _)) => files.clone(),
        None => return Ok(Vec::new()),
    };
    Ok(chunks
        .value_mut("sprites")
        .map_or_else(Vec::new, |v| crate::masks::take_files(v, &files)))
}

/// The audio entries the manifest lists (`audio/NNNN.ext`, sounds' own files).
fn read_audio_part(
    folder: &Folder,
    prefix: &str,
    manifest: &Map<String, Value>,
    manifest_path: &str,
    file: &mut DataFile,
) -> Result<()> {
    let Some(a) = manifest.get("audio") else {
        return Ok(());
    };
    let n = match a.get("entries") {
        None => 0,
        Some(v) => v.as_u64().ok_or_else(|| {
            Error::new(
                manifest_path,
                "audio.entries",
                format!(
                    "expected a count of audio entries, found {}",
                    crate::one_line(&v.to_string(), 40)
                ),
            )
        })?,
    };
    let in_sounds = a.get("in_sounds").unwrap_or(&Value::Null);
    file.audio = Some(read_audio(folder, prefix, manifest_path, n, in_sounds)?);
    Ok(())
}

/// Adds the objects made of event files alone (`objects/obj_new/Create_0.gml` with no
/// `object.json`), in name order after the chunk's others, with GameMaker's defaults
/// ([`DataFile::add_object`]: visible, no sprite, no parent, ...); their events are the new
/// entries of their folder, wired when the code is assembled.
fn add_new_objects(file: &mut DataFile, prefix: &str, names: &[String]) -> Result<()> {
    for n in names {
        let path = format!("{prefix}objects/{n}");
        if file.objects.is_none() {
            return Err(Error::new(
                &path,
                "",
                "expected a game with an object chunk (OBJT) for a new object",
            ));
        }
        file.add_object(n)
            .map_err(|e| Error::new(&path, "", crate::one_line(&e.to_string(), 200)))?;
    }
    Ok(())
}

/// The folder of every sprite, background and font, from the files their JSON came from (a
/// stripped element's, its chunk file, has no images: the model has no element there).
fn image_dirs(sources: &Sources) -> crate::frames::Dirs {
    crate::frames::Kind::ALL
        .into_iter()
        .map(|kind| {
            let field = kind.field();
            let dirs = sources.get(field).map_or_else(Vec::new, |s| {
                s.1.iter()
                    .map(|p| Some(crate::frames::asset_dir(field, p).to_owned()))
                    .collect()
            });
            (kind, dirs)
        })
        .collect()
}

/// The edits of `strings.json` that code left as unpacked follows (`None`: no entry that code
/// pushes was edited, or the manifest has no record of them).
fn follow_strings(
    manifest: &Map<String, Value>,
    path: &str,
    table: Option<&gmkit_data::chunks::string_table::Strings>,
) -> Result<Option<crate::strings::Follow>> {
    let key = crate::strings::CODE_TEXTS;
    let (Some(table), Some(record)) = (table, manifest.get("strings").and_then(|s| s.get(key)))
    else {
        return Ok(None);
    };
    let field = format!("strings.{key}");
    let Some(record) = record.as_str() else {
        return Err(Error::new(
            path,
            field,
            "expected a text of INDEX:HASH items",
        ));
    };
    crate::strings::Follow::new(path, &field, record, table)
}

/// Turns a model check's error into one naming the folder file of the element at fault.
fn invalid(sources: &Sources, manifest: &str, prefix: &str, e: &gmkit_data::Error) -> Error {
    let gmkit_data::ErrorKind::InvalidModel(p) = &e.kind else {
        return Error::new(manifest, "", e.to_string());
    };
    let message = format!("{}: expected {}, found {}", p.element, p.expected, p.found);
    let field = e.location.chunk.and_then(DataFile::chunk_field);
    let file = match field.and_then(|f| sources.get(f).map(|s| (f, s))) {
        Some((_, (Some(_), files, rest))) => e
            .location
            .element
            .and_then(|(_, i)| files.get(i))
            .unwrap_or(rest)
            .clone(),
        Some((_, (None, _, file))) => file.clone(),
        None => match field {
            Some("code") => format!("{prefix}{}", crate::code::DIR),
            Some("general" | "layout") | None => manifest.to_owned(),
            Some(f) => format!("{prefix}{f}"),
        },
    };
    Error::new(file, p.field.clone(), message)
}

/// Elements sorted by index, checked to run 0..n; returns them and their file paths.
fn ordered<T>(prefix: &str, items: Vec<(usize, String, T)>) -> Result<(Vec<T>, Vec<String>)> {
    let mut list = Vec::with_capacity(items.len());
    let mut files = Vec::with_capacity(items.len());
    for (n, (i, p, v)) in items.into_iter().enumerate() {
        if i != n {
            return Err(Error::new(
                format!("{prefix}{p}"),
                "",
                format!(
                    "expected index {n} here (file names start with indices 0, 1, 2, ... without gaps or repeats)"
                ),
            ));
        }
        list.push(v);
        files.push(format!("{prefix}{p}"));
    }
    Ok((list, files))
}

/// Audio entries `audio/NNNN.<ext>` (`NNNN.null`: stripped), indices 0..n; files past the
/// manifest's count are added entries.
fn read_audio(
    folder: &Folder,
    prefix: &str,
    manifest: &str,
    n: u64,
    in_sounds: &Value,
) -> Result<EmbeddedAudio> {
    let dir = format!("{prefix}{AUDIO}");
    // (index, path): each file is read once it is known to be taken, one at a time (a folder
    // read by `Folder::read_dir_lazy` keeps audio on disk until then).
    let mut items: Vec<(usize, String)> = Vec::new();
    match in_sounds {
        Value::Null => {}
        Value::Object(m) => {
            let sounds = folder.paths_under(&format!("{prefix}sounds"));
            for (k, v) in m {
                let field = format!("audio.in_sounds.{k}");
                let (Ok(i), Some(name)) = (k.parse::<usize>(), v.as_str()) else {
                    return Err(Error::new(
                        manifest,
                        field,
                        "expected an audio entry index naming a sound's file name (\"3\": \"snd_jump\")",
                    ));
                };
                let stem = format!("{prefix}sounds/{name}.");
                let found: Vec<&str> = sounds
                    .iter()
                    .copied()
                    .filter(|p| {
                        p.strip_prefix(&stem)
                            .is_some_and(|ext| ext != "json" && !ext.contains(['/', '.']))
                    })
                    .collect();
                match found.as_slice() {
                    [p] => items.push((i, (*p).to_owned())),
                    [] => {
                        return Err(Error::new(
                            manifest,
                            field,
                            format!(
                                "expected the sound's audio file {stem}<wav|ogg|mp3> (missing)"
                            ),
                        ));
                    }
                    [a, b, ..] => {
                        return Err(Error::new(
                            manifest,
                            field,
                            format!("expected one audio file for the sound, found {a} and {b}"),
                        ));
                    }
                }
            }
        }
        other => {
            return Err(Error::new(
                manifest,
                "audio.in_sounds",
                format!(
                    "expected an object of audio entry index -> sound, found {}",
                    crate::one_line(&other.to_string(), 40)
                ),
            ));
        }
    }
    for p in folder.paths_under(&dir) {
        let name = &p[dir.len() + 1..];
        let i = leading_index(name).ok_or_else(|| {
            Error::new(
                p,
                "",
                "expected a file name starting with its index (0003.wav)",
            )
        })?;
        items.push((i, p.to_owned()));
    }
    // The count is bounded by the files the folder holds (never allocated from the manifest).
    if n > items.len() as u64 {
        return Err(Error::new(
            manifest,
            "audio.entries",
            format!(
                "expected at most {} audio entries (the files in {dir}/), found {n}",
                items.len()
            ),
        ));
    }
    items.sort_by_key(|x| x.0);
    for (k, (i, p)) in items.iter().enumerate() {
        if *i != k {
            return Err(Error::new(
                p,
                "",
                format!("expected audio index {k} here (no gaps or repeats)"),
            ));
        }
    }
    let mut entries = Vec::with_capacity(items.len());
    for (_, p) in items {
        let b = folder
            .read_bytes(&p)?
            .ok_or_else(|| Error::new(&p, "", "expected this audio file (missing)"))?;
        crate::audio::check_file(&p, &b)?;
        entries.push((!p.ends_with(".null")).then_some(b));
    }
    Ok(EmbeddedAudio { entries })
}

/// Turns a deserialization error at `sprites.sprites[3].width` into one naming the file.
fn locate(
    sources: &Sources,
    manifest: &str,
    e: serde_path_to_error::Error<serde_json::Error>,
) -> Error {
    use serde_path_to_error::Segment;
    let segs: Vec<String> = e
        .path()
        .iter()
        .map(|s| match s {
            Segment::Seq { index } => format!("[{index}]"),
            Segment::Map { key } => key.clone(),
            Segment::Enum { variant } => variant.clone(),
            Segment::Unknown => "?".into(),
        })
        .collect();
    let message = e.inner().to_string();
    let join = |s: &[String]| {
        let mut out = String::new();
        for p in s {
            if !p.starts_with('[') && !out.is_empty() {
                out.push('.');
            }
            out.push_str(p);
        }
        out
    };
    let Some(field) = segs.first() else {
        return Error::new(manifest, "", message);
    };
    match sources.get(field) {
        Some((Some(key), files, rest)) => {
            let index = segs
                .get(2)
                .and_then(|s| s.trim_matches(['[', ']']).parse::<usize>().ok());
            if let (true, Some(f)) = (
                segs.get(1).map(String::as_str) == Some(key),
                index.and_then(|i| files.get(i)),
            ) {
                return Error::new(f, join(&segs[3..]), message);
            }
            Error::new(rest, join(&segs[1..]), message)
        }
        Some((None, _, file)) => Error::new(file, join(&segs[1..]), message),
        None => Error::new(manifest, join(&segs), message),
    }
}

/// A chunk written by name ([`crate::assets`]) into `chunks` (its part, element files and
/// `_chunk.json` path; nothing when the folder has no such chunk). Adds each asset folder and
/// its asset's name to `chunks.assets` (for new code files there).
fn named_chunk(
    folder: &Folder,
    prefix: &str,
    field: &str,
    jsons: &mut Jsons,
    code_files: &HashMap<String, usize>,
    chunks: &mut Chunks,
) -> Result<()> {
    use crate::assets::*;
    let rest_path = format!("{field}/{CHUNK_REST}");
    let Some(rest) = take_value(folder, prefix, jsons, &rest_path)? else {
        missing_rest(folder, prefix, field)?;
        chunks
            .top
            .push((field.to_owned(), Part::Value(Value::Null)));
        return Ok(());
    };
    let full_rest = format!("{prefix}{rest_path}");
    let Value::Object(mut rest) = rest else {
        return Err(Error::new(&full_rest, "", "expected an object"));
    };
    let mut names = element_names(&mut rest, &full_rest)?;
    // Elements by name, then folders (files) the list does not name: new ones, in name order.
    let listed: HashSet<String> = names.iter().flatten().cloned().collect();
    let dir = format!("{prefix}{field}/");
    let under = folder.paths_under(&format!("{prefix}{field}"));
    let mut extra: Vec<String> = Vec::new();
    match folder_file(field) {
        Some(file) => {
            for p in &under {
                if let Some((d, f)) = p[dir.len()..].split_once('/')
                    && f == file
                    && !listed.contains(d)
                {
                    extra.push(d.to_owned());
                }
            }
        }
        None => {
            for p in jsons.keys() {
                if let Some(n) = p
                    .strip_prefix(&format!("{field}/"))
                    .and_then(|n| n.strip_suffix(".json"))
                    && !n.contains('/')
                    && !listed.contains(n)
                {
                    extra.push(n.to_owned());
                }
            }
        }
    }
    extra.sort();
    extra.dedup();
    names.extend(extra.into_iter().map(Some));
    let bare = if field == "objects" {
        bare_objects(&under, &dir, &listed)
    } else {
        Vec::new()
    };
    let whole = EDITED_BEFORE_READ.contains(&field);
    // (name of the folder or file, path, the element's part, its `name` field)
    let mut items: Vec<(Option<String>, String, Part, Option<Value>)> =
        Vec::with_capacity(names.len());
    let mut seen = HashSet::new();
    for (k, n) in names.into_iter().enumerate() {
        let Some(n) = n else {
            items.push((None, full_rest.clone(), Part::Value(Value::Null), None));
            continue;
        };
        if !seen.insert(n.clone()) {
            return Err(Error::new(
                &full_rest,
                format!("{ORDER}[{k}]"),
                format!("expected each name once, found {} again", crate::quote(&n)),
            ));
        }
        let rel = element_path(field, &n);
        let path = format!("{prefix}{rel}");
        let name = match jsons.remove(&rel) {
            Some(name) => name,
            // (A folder's element file sits below the chunk files listed.)
            None => {
                let bytes = folder.read(&path)?.ok_or_else(|| {
                    Error::new(
                        &full_rest,
                        format!("{ORDER}[{k}]"),
                        format!("expected the file {path} (missing; remove the name from the list to delete the element)"),
                    )
                })?;
                name_of(&path, &bytes)?
            }
        };
        let part = if whole {
            let bytes = folder
                .read(&path)?
                .ok_or_else(|| Error::new(&path, "", "expected this file (missing)"))?;
            Part::Value(parse_json(&path, &bytes)?)
        } else {
            Part::File(path.clone())
        };
        items.push((Some(n), path, part, name));
    }
    if field == "objects" {
        name_events(&mut items, &bare, &mut rest, field, code_files)?;
    }
    for d in &bare {
        chunks.assets.insert(
            format!("{prefix}{field}/{d}"),
            (field.to_owned(), d.clone()),
        );
    }
    chunks.new_objects.extend(bare.iter().cloned());
    if folder_file(field).is_some() {
        for (n, _, _, name) in &items {
            if let Some(n) = n {
                let name = name.as_ref().and_then(Value::as_str).unwrap_or(n);
                chunks.assets.insert(
                    format!("{prefix}{field}/{n}"),
                    (field.to_owned(), name.to_owned()),
                );
            }
        }
    }
    let key = split_key(field).unwrap_or(field);
    let mut files = Vec::with_capacity(items.len());
    let mut parts = Vec::with_capacity(items.len());
    let mut element_names = Vec::with_capacity(items.len());
    for (_, p, part, name) in items {
        files.push(p);
        parts.push(part);
        element_names.push(name);
    }
    // Objects of event files alone are named too (at the indices they are added at), so that
    // other files of the same pack can refer to them.
    element_names.extend(bare.iter().map(|b| Some(Value::String(b.clone()))));
    chunks.add_names(field, key, element_names);
    let part = if whole {
        let list = parts
            .into_iter()
            .map(|p| match p {
                Part::Value(v) => v,
                _ => Value::Null,
            })
            .collect();
        rest.insert(key.into(), Value::Array(list));
        Part::Value(Value::Object(rest))
    } else {
        rest.remove(key);
        let mut fields: Vec<(String, Part)> =
            rest.into_iter().map(|(k, v)| (k, Part::Value(v))).collect();
        fields.push((key.into(), Part::List(parts)));
        Part::Map(fields)
    };
    chunks.top.push((field.to_owned(), part));
    chunks
        .sources
        .insert(field.to_owned(), (split_key(field), files, full_rest));
    Ok(())
}

/// The list of a named chunk's element names in index order (`order` of its `_chunk.json`,
/// taken out of it; `None` for an empty slot).
fn element_names(rest: &mut Map<String, Value>, full_rest: &str) -> Result<Vec<Option<String>>> {
    use crate::assets::ORDER;
    match rest.remove(ORDER) {
        Some(Value::Array(a)) => a
            .into_iter()
            .enumerate()
            .map(|(k, v)| match v {
                Value::Null => Ok(None),
                Value::String(s)
                    if !s.is_empty() && !s.contains(['/', '\\']) && s != "." && s != ".." =>
                {
                    Ok(Some(s))
                }
                other => Err(Error::new(
                    full_rest,
                    format!("{ORDER}[{k}]"),
                    format!(
                        "expected a folder or file name of this chunk (or null), found {}",
                        crate::one_line(&other.to_string(), 40)
                    ),
                )),
            })
            .collect(),
        _ => Err(Error::new(
            full_rest,
            ORDER,
            "expected the list of the chunk's element names in index order",
        )),
    }
}

/// Objects made of event files alone (`objects/obj_new/Create_0.gml`, no object.json): added
/// with GameMaker's defaults after the chunk is read (see [`add_new_objects`]), their files
/// then taken as new entries of the object. `under` lists the chunk's files, `dir` is the
/// chunk's directory with its `/`.
fn bare_objects(under: &[&str], dir: &str, listed: &HashSet<String>) -> Vec<String> {
    let file = crate::assets::folder_file("objects");
    let has_json: HashSet<&str> = under
        .iter()
        .filter_map(|p| p[dir.len()..].split_once('/'))
        .filter(|(_, f)| Some(*f) == file)
        .map(|(d, _)| d)
        .collect();
    let mut bare: Vec<String> = Vec::new();
    for p in under {
        if let Some((d, f)) = p[dir.len()..].split_once('/')
            && !f.contains('/')
            && f.ends_with(&format!(".{}", crate::gml::GML_EXT))
            && !listed.contains(d)
            && !has_json.contains(d)
            && bare.last().is_none_or(|b| b != d)
        {
            bare.push(d.to_owned());
        }
    }
    bare
}

/// The objects' events from the files named as GameMaker names them (see
/// [`crate::assets::events_from_names`]); a collision event names its other object among the
/// chunk's objects and the objects of event files alone (`bare`, added after them).
fn name_events(
    items: &mut [(Option<String>, String, Part, Option<Value>)],
    bare: &[String],
    rest: &mut Map<String, Value>,
    field: &str,
    code_files: &HashMap<String, usize>,
) -> Result<()> {
    use crate::assets::*;
    let by_name = crate::names::objects(
        items
            .iter()
            .map(|(_, _, _, name)| name.as_ref().and_then(Value::as_str).map(str::to_owned))
            .chain(bare.iter().map(|b| Some(b.clone()))),
    );
    let action = rest.remove(CODE_ACTION);
    let types = rest
        .remove(EVENT_TYPES)
        .and_then(|v| v.as_u64())
        .unwrap_or(0)
        .min(EVENT_TYPES_MAX) as usize;
    for (n, path, part, _) in items.iter_mut() {
        if let (Some(n), Part::Value(v)) = (n, part) {
            events_from_names(
                path,
                v,
                &format!("{field}/{n}"),
                &by_name,
                action.as_ref(),
                code_files,
                types,
            )?;
        }
    }
    Ok(())
}
