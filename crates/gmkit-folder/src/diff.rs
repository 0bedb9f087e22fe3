//! Differences between two unpacked games, asset by asset, in a modder's words:
//! `sprite spr_x: width 32 → 48`, `string 4512: "Hello" → "Bonjour"`,
//! `code gml_Object_o_player_Step_0: 3 instructions changed`, `texture page 2: 312 pixels
//! changed`, `sprite spr_hero: renamed spr_player → spr_hero`.

use crate::folder::Folder;
pub use crate::incremental::{Work, diff_files, diff_games, diff_games_counted};
use crate::layout::*;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// One difference.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Change {
    /// The asset (`sprite spr_player`, `string 4512`, `code gml_Script_foo`).
    pub asset: String,
    /// What changed (`width 32 → 48`, `added`, `3 instructions changed`, `renamed a → b`).
    pub what: String,
    /// The field whose value changed (`width`, `events.Step[0]`), for a change of one value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The old value as shown (JSON text; strings quoted), for a changed value or a rename.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    /// The new value as shown, for a changed value or a rename.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.asset, self.what)
    }
}

fn kind_of(dir: &str) -> &str {
    match dir {
        "sprites" => "sprite",
        "sounds" => "sound",
        "rooms" => "room",
        "objects" => "object",
        "scripts" => "script",
        "fonts" => "font",
        "backgrounds" => "background",
        "paths" => "path",
        "shaders" => "shader",
        "timelines" => "timeline",
        "sequences" => "sequence",
        "extensions" => "extension",
        "code" => "code",
        "textures" => "texture page",
        "audio" => "audio",
        "audio_groups" => "audio group",
        other => other,
    }
}

fn short(v: &Value) -> String {
    let s = match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    };
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

/// Leaf differences between two JSON values: (path, old, new).
fn leaves(path: &str, a: &Value, b: &Value, out: &mut Vec<(String, String, String)>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                leaves(
                    &p,
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                    out,
                );
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                leaves(&format!("{path}[{i}]"), u, v, out);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            out.push((
                path.to_owned(),
                format!("{} items", x.len()),
                format!("{} items", y.len()),
            ));
        }
        (x, y) if x != y => out.push((path.to_owned(), short(x), short(y))),
        _ => {}
    }
}

/// The asset label of a JSON file: kind and name.
fn label(path: &str, v: Option<&Value>) -> String {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    let dir_last = dir.rsplit('/').next().unwrap_or(dir);
    let name = v.and_then(|v| v.get("name")).and_then(|n| {
        n.as_str()
            .map(str::to_owned)
            .or_else(|| n.get("text").and_then(Value::as_str).map(str::to_owned))
    });
    let stem = file.strip_suffix(".json").unwrap_or(file);
    let top = path.split('/').next().unwrap_or("");
    if crate::assets::folder_file(top).is_some_and(|f| f == file) {
        let name = name.unwrap_or_else(|| dir_last.to_owned());
        return format!("{} {name}", kind_of(top));
    }
    if dir.is_empty() {
        return stem.to_owned();
    }
    // A file inside an asset's own folder (`objects/obj_player/object.json`,
    // `objects/obj_player/Step_0.asm`): the asset, and the file when it is not the asset's
    // record.
    if let Some((parent, asset)) = dir.rsplit_once('/') {
        let parent_last = parent.rsplit('/').next().unwrap_or(parent);
        if let Some(record) = ASSET_FOLDERS
            .iter()
            .find(|(d, _)| *d == parent_last)
            .map(|(_, r)| *r)
        {
            let kind = kind_of(parent_last);
            return if stem == record {
                format!("{kind} {asset}")
            } else {
                format!("{kind} {asset} {stem}")
            };
        }
    }
    if file == CHUNK_REST {
        return format!("{dir} chunk");
    }
    let name = name.unwrap_or_else(|| match leading_index(stem) {
        Some(i) => i.to_string(),
        None => stem.to_owned(),
    });
    format!("{} {name}", kind_of(dir_last))
}

/// Kinds whose assets are folders holding their record and code (the record's file stem).
const ASSET_FOLDERS: &[(&str, &str)] = &[
    ("objects", "object"),
    ("rooms", "room"),
    ("scripts", "script"),
    ("timelines", "timeline"),
    ("sprites", "sprite"),
    ("backgrounds", "background"),
    ("fonts", "font"),
];

/// An image file of an asset (`sprites/spr_player/2.png`, `sprites/spr_player/mask_0.png`,
/// `backgrounds/bg_sky/bg_sky.png`, `fonts/fnt_main/fnt_main.png`).
fn is_frame(p: &str) -> bool {
    image_of(p).is_some()
        || (p.starts_with("sprites/")
            && p.matches('/').count() == 2
            && p.rsplit('/')
                .next()
                .and_then(|f| f.strip_prefix("mask_")?.strip_suffix(".png"))
                .is_some_and(|k| k.bytes().all(|b| b.is_ascii_digit())))
}

/// The kind, asset folder and image number of an image cut from a texture page item.
fn image_of(p: &str) -> Option<(crate::frames::Kind, &str, usize)> {
    let (dir, file) = p.rsplit_once('/')?;
    let (top, _) = dir.split_once('/')?;
    if dir.matches('/').count() != 1 {
        return None;
    }
    let kind = crate::frames::Kind::of_field(top)?;
    let k = match kind {
        crate::frames::Kind::Sprite => {
            let k = file.strip_suffix(".png")?;
            if k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            k.parse().ok()?
        }
        _ => (file == kind.png_name(dir, 0)).then_some(0)?,
    };
    Some((kind, dir, k))
}

/// The instruction lines of an assembly text (labels, `.entry` lines, comments and blank lines
/// left out).
fn asm_lines(b: &[u8]) -> Vec<&str> {
    std::str::from_utf8(b)
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with(';') && !l.starts_with(":[") && !l.starts_with(".entry")
        })
        .collect()
}

/// A string as the assembly text quotes it (`"Hi\n"`).
fn asm_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\x7f' => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Two instruction lines are the same instruction when equal, or when both push a string and
/// the string table changed the one text into the other (a translated entry is a change of
/// the string table, not of the code).
fn same_instruction(x: &str, y: &str, renamed: &HashSet<(String, String)>) -> bool {
    if x == y {
        return true;
    }
    let literal = |l: &str| -> Option<String> {
        let rest = l.strip_prefix("push.s ")?;
        let rest = rest.split(" ;").next().unwrap_or(rest).trim_end();
        let rest = match rest.rsplit_once('#') {
            Some((q, n)) if q.ends_with('"') && n.bytes().all(|b| b.is_ascii_digit()) => q,
            _ => rest,
        };
        Some(rest.to_owned())
    };
    match (literal(x), literal(y)) {
        (Some(a), Some(b)) => renamed.contains(&(a, b)),
        _ => false,
    }
}

/// How many instructions differ between two texts ([`changed_count`]).
fn changed_instructions(a: &[u8], b: &[u8], renamed: &HashSet<(String, String)>) -> usize {
    let (x, y) = (asm_lines(a), asm_lines(b));
    changed_count(&x, &y, |s, t| same_instruction(s, t, renamed))
}

/// How many lines of GML text differ (blank lines and trailing spaces aside).
fn changed_gml_lines(a: &[u8], b: &[u8]) -> usize {
    let lines = |t: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(t)
            .lines()
            .map(|l| l.trim_end().to_owned())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let (x, y) = (lines(a), lines(b));
    let (x, y): (Vec<&str>, Vec<&str>) = (
        x.iter().map(String::as_str).collect(),
        y.iter().map(String::as_str).collect(),
    );
    changed_count(&x, &y, |s, t| s == t)
}

/// How many lines differ: line by line when the texts have as many, else the longer of the two
/// middles left after the common beginning and end.
fn changed_count(x: &[&str], y: &[&str], same: impl Fn(&str, &str) -> bool) -> usize {
    let same = |s: &&str, t: &&str| same(s, t);
    if x.len() == y.len() {
        return x.iter().zip(y.iter()).filter(|(s, t)| !same(s, t)).count();
    }
    let head = x
        .iter()
        .zip(y.iter())
        .take_while(|(s, t)| same(s, t))
        .count();
    let tail = x[head..]
        .iter()
        .rev()
        .zip(y[head..].iter().rev())
        .take_while(|(s, t)| same(s, t))
        .count();
    (x.len() - head - tail).max(y.len() - head - tail)
}

/// The string texts changed between the two folders' string tables, as quoted in assembly
/// text: (old, new).
fn renamed_strings(a: &Folder, b: &Folder) -> HashSet<(String, String)> {
    let mut out = HashSet::new();
    for (p, x) in &a.files {
        if !p.ends_with(STRINGS) {
            continue;
        }
        let (Some(y), Ok(s)) = (b.get(p), crate::strings::parse_entries(p, x)) else {
            continue;
        };
        let Ok(t) = crate::strings::parse_entries(p, y) else {
            continue;
        };
        let t: std::collections::HashMap<u32, _> = t.into_iter().collect();
        for (i, old) in s {
            if let Some(new) = t.get(&i).filter(|n| **n != old) {
                out.insert((
                    asm_quoted(&old.to_string_lossy()),
                    asm_quoted(&new.to_string_lossy()),
                ));
            }
        }
    }
    out
}

/// Asset files renamed between the two folders: `dir/NNNN_old` → `dir/NNNN_new` for each JSON
/// file of `a` missing from `b` whose directory and index match one of `b` missing from `a`
/// (its frames and other files under `dir/NNNN_old/` follow it).
pub(crate) fn renamed_assets(a: &Folder, b: &Folder) -> Vec<(String, String)> {
    let only = |x: &Folder, y: &Folder| -> std::collections::HashMap<(String, usize), String> {
        x.files
            .keys()
            .filter(|p| y.get(p).is_none())
            .filter_map(|p| {
                let stem = p.strip_suffix(".json")?;
                let (dir, file) = stem.rsplit_once('/')?;
                let i = leading_index(file).filter(|_| file.contains('_'))?;
                Some(((dir.to_owned(), i), stem.to_owned()))
            })
            .collect()
    };
    let (gone, new) = (only(a, b), only(b, a));
    let mut out: Vec<(String, String)> = gone
        .into_iter()
        .filter_map(|(key, old)| Some((old, new.get(&key)?.clone())))
        .collect();
    // Assets written by name: the same place in the chunk's order, another folder (or file)
    // name, the old one gone and the new one new.
    let order = |f: &Folder, field: &str| -> Vec<Option<String>> {
        f.get(&format!("{field}/{CHUNK_REST}"))
            .and_then(|b| serde_json::from_slice::<Value>(b).ok())
            .and_then(|v| {
                v.get(crate::assets::ORDER)?.as_array().map(|l| {
                    l.iter()
                        .map(|n| n.as_str().map(str::to_owned))
                        .collect::<Vec<_>>()
                })
            })
            .unwrap_or_default()
    };
    let fields = crate::assets::FOLDERS
        .iter()
        .map(|f| f.0)
        .chain(crate::assets::FLAT.iter().copied());
    for field in fields {
        let (x, y) = (order(a, field), order(b, field));
        for (o, n) in x.iter().zip(&y) {
            let (Some(o), Some(n)) = (o, n) else { continue };
            let (old, new) = (format!("{field}/{o}"), format!("{field}/{n}"));
            if o != n
                && b.get(&record_of(&old)).is_none()
                && a.get(&record_of(&new)).is_none()
                && a.get(&record_of(&old)).is_some()
            {
                out.push((old, new));
            }
        }
    }
    out.sort();
    out
}

/// The JSON file of an asset at `stem`: `FIELD/NAME/KIND.json` for an asset written as a folder
/// (see [`crate::assets`]), else `stem.json`.
fn record_of(stem: &str) -> String {
    match stem
        .split_once('/')
        .filter(|(_, rest)| !rest.contains('/'))
        .and_then(|(field, _)| crate::assets::folder_file(field))
    {
        Some(file) => format!("{stem}/{file}"),
        None => format!("{stem}.json"),
    }
}

/// `a`'s files, with the renamed assets' paths given their names in `b`.
fn renamed_view<'a>(a: &'a Folder, renames: &[(String, String)]) -> BTreeMap<String, &'a [u8]> {
    a.files
        .iter()
        .map(|(p, v)| (renamed_path(p, renames), v.as_slice()))
        .collect()
}

/// The path in `b` of `a`'s file at `p` (the same unless its asset was renamed).
pub(crate) fn renamed_path(p: &str, renames: &[(String, String)]) -> String {
    renames
        .iter()
        .find_map(|(old, new)| {
            let rest = p.strip_prefix(old.as_str())?;
            (rest == ".json" || rest.starts_with('/')).then(|| format!("{new}{rest}"))
        })
        .unwrap_or_else(|| p.to_owned())
}

/// The texture pages that changed frames explain: the pages holding the texture page item of
/// a changed, added or removed image, in either folder (`items` of the asset's `frames.json`
/// and `texture_page` of `texture_page_items.json`).
fn pages_of_frames(
    a: &BTreeMap<String, &[u8]>,
    b: &Folder,
    frames: &[(String, usize)],
) -> HashSet<i64> {
    let mut pages = HashSet::new();
    let json = |bytes: Option<&[u8]>| bytes.and_then(|j| serde_json::from_slice::<Value>(j).ok());
    for side in [0, 1] {
        let get = |p: &str| {
            if side == 0 {
                a.get(p).copied()
            } else {
                b.get(p)
            }
        };
        let Some(items) = json(get(TEXTURE_PAGE_ITEMS)) else {
            continue;
        };
        for (dir, k) in frames {
            let record = format!("{dir}/{}", crate::frames::FRAMES_RECORD);
            let page = json(get(&record))
                .and_then(|s| s[crate::frames::ITEMS].get(*k).and_then(Value::as_u64))
                .and_then(|item| items["items"].get(item as usize)?["texture_page"].as_i64());
            pages.extend(page);
        }
    }
    pages
}

/// The folder file listing the texture page items.
const TEXTURE_PAGE_ITEMS: &str = "texture_page_items.json";

/// Compares two folders.
///
/// A changed value is `field old → new` (`width 32 → 48`, with `field`, `old` and `new` set for
/// JSON). An asset renamed (same kind and index, another name) is one change, `renamed old →
/// new`, with its other differences listed under its new name. Texture pages are never hidden:
/// a page whose pixels changed is listed, and says so when changed sprite frames are on it;
/// the texture page items and a sprite's list of frame items, bookkeeping of the frames, are
/// not listed when frames changed (each changed frame is).
pub fn diff(a: &Folder, b: &Folder) -> Vec<Change> {
    let mut out = Vec::new();
    let renames = renamed_assets(a, b);
    let av = renamed_view(a, &renames);
    for (old, new) in &renames {
        let name = |f: Option<&[u8]>, stem: &str| {
            let v = f.and_then(|j| serde_json::from_slice::<Value>(j).ok());
            let shown = label(&record_of(stem), v.as_ref());
            shown
                .split_once(' ')
                .map_or(shown.clone(), |s| s.1.to_owned())
        };
        let was = name(a.get(&record_of(old)), old);
        let now = name(b.get(&record_of(new)), new);
        let dir = new.rsplit_once('/').map_or("", |s| s.0);
        out.push(Change {
            asset: format!("{} {now}", kind_of(dir.rsplit('/').next().unwrap_or(dir))),
            what: format!("renamed {was} → {now}"),
            old: Some(was.clone()),
            new: Some(now.clone()),
            ..Default::default()
        });
    }
    let renamed_json: HashSet<String> = renames.iter().map(|(_, n)| record_of(n)).collect();
    let paths: BTreeSet<&str> = av
        .keys()
        .map(String::as_str)
        .chain(b.files.keys().map(String::as_str))
        .collect();
    let renamed = renamed_strings(a, b);
    let changed_frames: Vec<(String, usize)> = paths
        .iter()
        .filter(|p| {
            is_frame(p) && !p.contains("/mask_") && av.get(**p).copied() != b.get(p) && {
                match (
                    av.get(**p).map(|x| gmkit_media::decode_png(x)),
                    b.get(p).map(gmkit_media::decode_png),
                ) {
                    (Some(Ok(i)), Some(Ok(j))) => i != j,
                    _ => true,
                }
            }
        })
        .filter_map(|p| image_of(p).map(|(_, dir, k)| (dir.to_owned(), k)))
        .collect();
    let frame_changed = !changed_frames.is_empty();
    let frame_pages = pages_of_frames(&av, b, &changed_frames);
    for p in paths {
        let (x, y) = (av.get(p).copied(), b.get(p));
        // A page's stored bytes change with its pixels, which its PNG view reports.
        let stored_page = p.rsplit_once('/').is_some_and(|(d, _)| {
            d.ends_with(&format!("{TEXTURES}/{}", crate::layout::TEXTURES_STORED))
        });
        if x == y || stored_page || p.ends_with(crate::frames::FRAMES_RECORD) {
            continue;
        }
        // A code entry's `.gml` text follows its instructions, which the `.asm` file reports;
        // a `.gml` edited in a folder whose `.asm` is unchanged (what pack will compile) is
        // reported by its lines.
        if let Some(stem) = p.strip_suffix(&format!(".{}", crate::gml::GML_EXT)) {
            let asm = format!("{stem}.asm");
            let json = format!("{stem}.json");
            if av.get(asm.as_str()).copied() != b.get(&asm) {
                continue;
            }
            let v = b
                .get(&json)
                .or_else(|| av.get(json.as_str()).copied())
                .and_then(|j| serde_json::from_slice::<Value>(j).ok());
            let has_record = av.contains_key(&json) || b.get(&json).is_some();
            let what = match (x, y) {
                (Some(x), Some(y)) => match changed_gml_lines(x, y) {
                    0 => "GML edited (blank lines or spacing)".to_owned(),
                    1 => "GML edited (1 line changed)".to_owned(),
                    n => format!("GML edited ({n} lines changed)"),
                },
                // A new code entry (a `.gml` without a record: pack compiles it in).
                (None, Some(_)) if !has_record => "added (GML)".to_owned(),
                (Some(_), None) if !has_record => "removed (GML)".to_owned(),
                _ => continue,
            };
            let asset = match &v {
                Some(_) => label(&json, v.as_ref()),
                // In an asset's folder the label names the asset and event; under `code/`
                // the entry's name is the file's.
                None if stem.starts_with(&format!("{}/", crate::code::DIR)) => {
                    let name = stem.rsplit('/').next().unwrap_or(stem);
                    let name = match leading_index(name) {
                        Some(_) => name.split_once('_').map_or(name, |s| s.1),
                        None => name,
                    };
                    format!("code {name}")
                }
                None => label(&json, None),
            };
            out.push(Change {
                asset,
                what,
                ..Default::default()
            });
            continue;
        }
        // A page whose change the changed frames explain (one holding a frame that changed,
        // or the page of its own that an added frame gets).
        let page_of_frames = p
            .strip_prefix(&format!("{TEXTURES}/"))
            .and_then(leading_index)
            .is_some_and(|i| frame_pages.contains(&(i as i64)));
        // The items are bookkeeping of the frames (each changed frame is listed); a page is
        // always listed, saying when changed frames are on it.
        if frame_changed && p == TEXTURE_PAGE_ITEMS {
            continue;
        }
        if is_frame(p) {
            let (dir, file) = p.rsplit_once('/').unwrap_or(("", p));
            let stem = dir.rsplit('/').next().unwrap_or(dir);
            // A folder named `NNNN_name` (a name that is not a unique file name) shows the name.
            let name = match stem.split_once('_') {
                Some((i, n)) if leading_index(i).is_some() && i.len() >= 4 => n,
                _ => stem,
            };
            let k = file.trim_end_matches(".png");
            let kind = kind_of(dir.split('/').next().unwrap_or(dir));
            let k = match (k.strip_prefix("mask_"), image_of(p)) {
                (Some(m), _) => format!(" mask {m}"),
                (None, Some((crate::frames::Kind::Sprite, _, _))) => format!(" frame {k}"),
                (None, _) => " image".to_owned(),
            };
            let what = match (
                x.map(gmkit_media::decode_png),
                y.map(gmkit_media::decode_png),
            ) {
                (None, Some(_)) => "added".to_owned(),
                (Some(_), None) => "removed".to_owned(),
                (Some(Ok(i)), Some(Ok(j))) => match i.count_differences(&j) {
                    Some(0) => continue,
                    Some(n) => format!("{n} pixels changed"),
                    None => format!(
                        "size {}×{} → {}×{}",
                        i.width(),
                        i.height(),
                        j.width(),
                        j.height()
                    ),
                },
                _ => "not a readable PNG".to_owned(),
            };
            out.push(Change {
                asset: format!("{kind} {name}{k}"),
                what,
                ..Default::default()
            });
            continue;
        }
        if let Some(stem) = p.strip_suffix(".asm") {
            let mut json = format!("{stem}.json");
            let mut v = b
                .get(&json)
                .or_else(|| av.get(&json).copied())
                .and_then(|j| serde_json::from_slice::<Value>(j).ok());
            if v.is_none() {
                // An entry in an asset's folder: its header is in code/_chunk.json.
                let chunk = format!("{}/{CHUNK_REST}", crate::code::DIR);
                v = b
                    .get(&chunk)
                    .or_else(|| av.get(&chunk).copied())
                    .and_then(|j| serde_json::from_slice::<Value>(j).ok())
                    .and_then(|c| {
                        c["in_assets"]
                            .as_array()?
                            .iter()
                            .find(|a| a["file"].as_str() == Some(stem))
                            .cloned()
                    });
                json = format!("{}/entry.json", crate::code::DIR);
            }
            // An added or removed entry is reported once, by its JSON file.
            let (Some(x), Some(y)) = (x, y) else {
                continue;
            };
            let what = match changed_instructions(x, y, &renamed) {
                0 => continue,
                1 => "1 instruction changed".to_owned(),
                n => format!("{n} instructions changed"),
            };
            out.push(Change {
                asset: label(&json, v.as_ref()),
                what,
                ..Default::default()
            });
            continue;
        }
        if p.ends_with(STRINGS) {
            diff_strings(p, x.unwrap_or(b"{}"), y.unwrap_or(b"{}"), &mut out);
            continue;
        }
        if p.ends_with(".json") {
            let xv = x.and_then(|x| serde_json::from_slice::<Value>(x).ok());
            let yv = y.and_then(|y| serde_json::from_slice::<Value>(y).ok());
            let asset = label(p, yv.as_ref().or(xv.as_ref()));
            match (&xv, &yv) {
                (None, Some(_)) => out.push(Change {
                    asset,
                    what: "added".into(),
                    ..Default::default()
                }),
                (Some(_), None) => out.push(Change {
                    asset,
                    what: "removed".into(),
                    ..Default::default()
                }),
                (Some(u), Some(v)) => {
                    let mut l = Vec::new();
                    leaves("", u, v, &mut l);
                    if renamed_json.contains(p) {
                        // Reported once, as the rename.
                        l.retain(|(f, _, _)| f != "name" && !f.starts_with("name."));
                    }
                    if p.starts_with(&format!("{TEXTURES}/")) {
                        // The hash of the page's PNG follows its pixels.
                        l.retain(|(f, _, _)| f != "data.png_fnv64");
                    }
                    if p.starts_with(&format!("{}/", crate::code::DIR)) {
                        l.retain(|(f, _, _)| {
                            f != "gml" && !f.starts_with("gml.") && !f.contains("].gml")
                        });
                    }
                    if p == MANIFEST {
                        // Counts and records that follow from the files themselves.
                        let record = format!("strings.{}", crate::strings::CODE_TEXTS);
                        let audio = format!("audio.{}", crate::audio::RECORD);
                        l.retain(|(f, _, _)| {
                            f != "audio.entries"
                                && *f != record
                                && *f != audio
                                && !f.starts_with("audio.in_sounds")
                        });
                    }
                    if p.ends_with(&format!("/{CHUNK_REST}")) {
                        // Elements added or removed are reported by their own files.
                        l.retain(|(f, _, _)| {
                            f != crate::assets::ORDER
                                && !f.starts_with(&format!("{}[", crate::assets::ORDER))
                        });
                    }
                    if frame_changed && p.starts_with("sprites/") {
                        l.retain(|(f, _, _)| f != "frames" && !f.starts_with("frames["));
                    }
                    for (f, o, n) in l {
                        out.push(Change {
                            asset: asset.clone(),
                            what: format!("{f} {o} → {n}"),
                            field: Some(f),
                            old: Some(o),
                            new: Some(n),
                        });
                    }
                }
                (None, None) => out.push(Change {
                    asset,
                    what: "not JSON".into(),
                    ..Default::default()
                }),
            }
            continue;
        }
        // Images and audio.
        let (dir, file) = p.rsplit_once('/').unwrap_or(("", p));
        let dir_last = dir.rsplit('/').next().unwrap_or(dir);
        let idx = leading_index(file).map_or(file.to_owned(), |i| i.to_string());
        let asset = format!("{} {idx}", kind_of(dir_last));
        // A page added or removed is listed once, by its record.
        let record = format!("{}.json", p.rsplit_once('.').map_or(p, |s| s.0));
        if dir_last == TEXTURES
            && x.is_some() != y.is_some()
            && av.contains_key(&record) != b.get(&record).is_some()
        {
            continue;
        }
        let what = match (x, y) {
            (None, Some(_)) => "added".to_owned(),
            (Some(_), None) => "removed".to_owned(),
            (Some(x), Some(y)) if dir_last == TEXTURES => {
                match (gmkit_media::decode(x), gmkit_media::decode(y)) {
                    (Ok(i), Ok(j)) => match i.count_differences(&j) {
                        Some(0) => continue,
                        Some(n) if page_of_frames => {
                            format!("{n} pixels changed (changed sprite frames are on it)")
                        }
                        Some(n) => format!("{n} pixels changed"),
                        None => format!(
                            "size {}×{} → {}×{}",
                            i.width(),
                            i.height(),
                            j.width(),
                            j.height()
                        ),
                    },
                    _ => "image bytes changed".to_owned(),
                }
            }
            (Some(x), Some(y)) => format!("changed ({} → {} bytes)", x.len(), y.len()),
            (None, None) => continue,
        };
        out.push(Change {
            asset,
            what,
            ..Default::default()
        });
    }
    out
}

fn diff_strings(path: &str, x: &[u8], y: &[u8], out: &mut Vec<Change>) {
    let (Ok(a), Ok(b)) = (
        crate::strings::parse_entries(path, x),
        crate::strings::parse_entries(path, y),
    ) else {
        out.push(Change {
            asset: "strings".into(),
            what: "not readable".into(),
            ..Default::default()
        });
        return;
    };
    let a: std::collections::BTreeMap<u32, String> = a
        .into_iter()
        .map(|(i, s)| (i, s.to_string_lossy().into_owned()))
        .collect();
    let b: std::collections::BTreeMap<u32, String> = b
        .into_iter()
        .map(|(i, s)| (i, s.to_string_lossy().into_owned()))
        .collect();
    let keys: BTreeSet<&u32> = a.keys().chain(b.keys()).collect();
    for k in keys {
        let what = match (a.get(k), b.get(k)) {
            (Some(s), Some(t)) if s == t => continue,
            (Some(s), Some(t)) => format!("{s:?} → {t:?}"),
            (None, Some(t)) => format!("added {t:?}"),
            (Some(s), None) => format!("removed {s:?}"),
            (None, None) => continue,
        };
        out.push(Change {
            asset: format!("string {k}"),
            what,
            old: a.get(k).map(|s| format!("{s:?}")),
            new: b.get(k).map(|t| format!("{t:?}")),
            ..Default::default()
        });
    }
}
