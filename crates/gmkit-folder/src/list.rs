//! `gmkit ls`: the assets of one kind, by index and name, with the columns people look for:
//! a sprite's size and frame count, an object's sprite and parent (by name), a room's size and
//! instance count, a sound's type and length, the root entry of a child code entry.
//!
//! [`list`] (or [`list_game`], which also reads the sounds of `audiogroupN.dat` files) gives one
//! [`Item`] per asset; [`columns`] names the extra columns of a kind, in display order, and
//! [`Item::column`] gives each one's value (JSON `null` where there is none: an object without a
//! sprite, a sound whose audio is not embedded). The CLI only prints them.

use gmkit_data::DataFile;
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::serde_support::StringScope;
use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::Value;

mod facts;

/// One listed asset.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Index in its chunk.
    pub index: usize,
    /// Name (or the text, for strings).
    pub name: String,
    /// A short detail (size, format), when there is one.
    pub detail: Option<String>,
    /// The kind's extra columns ([`columns`]), in that order: (column, value).
    pub columns: Vec<(&'static str, Value)>,
}

impl Item {
    fn new(index: usize, name: String) -> Item {
        Item {
            index,
            name,
            detail: None,
            columns: Vec::new(),
        }
    }

    /// The value of column `key` (`None` when the kind has no such column).
    pub fn column(&self, key: &str) -> Option<&Value> {
        self.columns.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

/// JSON: `{"index": .., "name": .., "detail": ..?, <column>: <value>, ...}` (columns in order).
impl Serialize for Item {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("index", &self.index)?;
        m.serialize_entry("name", &self.name)?;
        if let Some(d) = &self.detail {
            m.serialize_entry("detail", d)?;
        }
        for (k, v) in &self.columns {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The extra columns of `kind`, in display order (empty for kinds with none).
///
/// ```
/// assert_eq!(gmkit_folder::list::columns("sprites"), ["width", "height", "frames"]);
/// assert!(gmkit_folder::list::columns("strings").is_empty());
/// ```
pub fn columns(kind: &str) -> &'static [&'static str] {
    match kind {
        "sprites" => &["width", "height", "frames"],
        "objects" => &["sprite", "parent", "events"],
        "rooms" => &["width", "height", "instances"],
        "sounds" => &["type", "length", "file"],
        "code" => &["parent"],
        "backgrounds" => &["width", "height"],
        "fonts" => &["font", "size"],
        _ => &[],
    }
}

/// The kinds [`list`] knows.
pub const KINDS: &[&str] = &[
    "sprites",
    "sounds",
    "rooms",
    "objects",
    "scripts",
    "code",
    "strings",
    "fonts",
    "textures",
    "backgrounds",
    "shaders",
    "paths",
    "sequences",
    "timelines",
    "extensions",
    "variables",
    "functions",
    "audio",
];

fn named(v: Option<Result<Value, serde_json::Error>>, key: &str) -> Result<Vec<Item>, String> {
    let Some(v) = v else { return Ok(Vec::new()) };
    let v = v.map_err(|e| e.to_string())?;
    let list = v
        .get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    Ok(list
        .iter()
        .enumerate()
        .map(|(index, e)| {
            Item::new(
                index,
                match e.get("name") {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Object(o)) => o
                        .get("text")
                        .and_then(Value::as_str)
                        .unwrap_or("?")
                        .to_owned(),
                    _ if e.is_null() => "(none)".to_owned(),
                    _ => "?".to_owned(),
                },
            )
        })
        .collect())
}

/// Lists the assets of `kind` (one of [`KINDS`]), with the kind's [`columns`]; the sounds of
/// audio groups have no type or length here (their audio is in `audiogroupN.dat`: see
/// [`list_game`]).
pub fn list(file: &DataFile, kind: &str) -> Result<Vec<Item>, String> {
    list_with(file, &gmkit_media::audio::AudioGroupFiles::new(), kind)
}

/// Lists the assets of `kind` of a game, the sounds of its audio groups included.
pub fn list_game(game: &crate::Game, kind: &str) -> Result<Vec<Item>, String> {
    let mut groups = gmkit_media::audio::AudioGroupFiles::new();
    for (stem, f) in &game.audio_groups {
        if let Some(n) = crate::audio_group_number(stem) {
            groups.insert(n, f.clone());
        }
    }
    list_with(&game.data, &groups, kind)
}

/// [`list`] with the parsed audio group files.
pub fn list_with(
    file: &DataFile,
    groups: &gmkit_media::audio::AudioGroupFiles,
    kind: &str,
) -> Result<Vec<Item>, String> {
    let mut items = list_names(file, kind)?;
    facts::add(file, groups, kind, &mut items);
    Ok(items)
}

/// The `(index, name)` rows [`list`] gives for `kind`, without the extra columns: read from the
/// typed model (no JSON form of the chunks), so that a front end can show every asset of a
/// very large game at once (`gmkit studio`'s tree). A slot with no asset is `(none)`, a name
/// whose string does not exist `?`, as in [`list`].
pub fn names(file: &DataFile, kind: &str) -> Result<Vec<(usize, String)>, String> {
    let text = |r: gmkit_data::StringRef| {
        file.strings
            .as_ref()
            .and_then(|s| s.get(r))
            .map_or_else(|| "?".to_owned(), |t| t.to_string_lossy().into_owned())
    };
    macro_rules! slots {
        ($f:ident, $list:ident) => {
            file.$f
                .iter()
                .flat_map(|c| c.$list.iter())
                .map(|e| {
                    e.as_ref()
                        .map_or_else(|| "(none)".to_owned(), |e| text(e.name))
                })
                .enumerate()
                .collect()
        };
    }
    macro_rules! all {
        ($f:ident, $list:ident) => {
            file.$f
                .iter()
                .flat_map(|c| c.$list.iter())
                .map(|e| text(e.name))
                .enumerate()
                .collect()
        };
    }
    Ok(match kind {
        "sprites" => slots!(sprites, sprites),
        "sounds" => slots!(sounds, sounds),
        "rooms" => slots!(rooms, rooms),
        "objects" => slots!(objects, objects),
        "scripts" => slots!(scripts, scripts),
        "fonts" => slots!(fonts, fonts),
        "backgrounds" => slots!(backgrounds, backgrounds),
        "shaders" => slots!(shaders, shaders),
        "paths" => slots!(paths, paths),
        "sequences" => slots!(sequences, sequences),
        "timelines" => slots!(timelines, timelines),
        "extensions" => slots!(extensions, extensions),
        "variables" => all!(variables, variables),
        "functions" => all!(functions, functions),
        "code" => all!(code, entries),
        // Page and audio rows are named by their index: their bytes are not read.
        "textures" => (0..file.textures.as_ref().map_or(0, |t| t.pages.len()))
            .map(|i| (i, format!("page {i}")))
            .collect(),
        "audio" => (0..file.audio.as_ref().map_or(0, |a| a.entries.len()))
            .map(|i| (i, format!("audio {i}")))
            .collect(),
        _ => list_names(file, kind)?
            .into_iter()
            .map(|it| (it.index, it.name))
            .collect(),
    })
}

fn list_names(file: &DataFile, kind: &str) -> Result<Vec<Item>, String> {
    let empty = Strings::default();
    let scope = StringScope::new(file.strings.as_ref().unwrap_or(&empty));
    macro_rules! chunk {
        ($f:ident, $key:literal) => {
            scope.enter(|| named(file.$f.as_ref().map(serde_json::to_value), $key))
        };
    }
    match kind {
        "sprites" => chunk!(sprites, "sprites"),
        "sounds" => chunk!(sounds, "sounds"),
        "rooms" => chunk!(rooms, "rooms"),
        "objects" => chunk!(objects, "objects"),
        "scripts" => chunk!(scripts, "scripts"),
        "fonts" => chunk!(fonts, "fonts"),
        "backgrounds" => chunk!(backgrounds, "backgrounds"),
        "shaders" => chunk!(shaders, "shaders"),
        "paths" => chunk!(paths, "paths"),
        "sequences" => chunk!(sequences, "sequences"),
        "timelines" => chunk!(timelines, "timelines"),
        "extensions" => chunk!(extensions, "extensions"),
        "variables" => chunk!(variables, "variables"),
        "functions" => chunk!(functions, "functions"),
        "code" => Ok(file
            .code
            .iter()
            .flat_map(|c| c.entries.iter())
            .enumerate()
            .map(|(index, e)| Item::new(index, text(file, e.name)))
            .collect()),
        "strings" => Ok(file
            .strings
            .iter()
            .flat_map(|s| s.iter())
            .enumerate()
            .map(|(index, s)| Item::new(index, s.to_string_lossy().into_owned()))
            .collect()),
        "textures" => Ok(file
            .textures
            .iter()
            .flat_map(|t| t.pages.iter())
            .enumerate()
            .map(|(index, p)| Item {
                columns: Vec::new(),
                index,
                name: format!("page {index}"),
                detail: p.as_ref().map(|p| {
                    format!(
                        "{}×{} {}",
                        p.width().unwrap_or(0),
                        p.height().unwrap_or(0),
                        gmkit_media::format_name(p.format())
                    )
                }),
            })
            .collect()),
        "audio" => Ok(file
            .audio
            .iter()
            .flat_map(|a| a.entries.iter())
            .enumerate()
            .map(|(index, e)| Item {
                columns: Vec::new(),
                index,
                name: format!("audio {index}"),
                detail: e
                    .as_ref()
                    .map(|b| format!("{} bytes {}", b.len(), crate::layout::audio_ext(b))),
            })
            .collect()),
        other => Err(format!(
            "unknown kind {other:?}; expected one of: {}",
            KINDS.join(" ")
        )),
    }
}

/// The text of string entry `r` (`#N` when it has none).
fn text(file: &DataFile, r: gmkit_data::StringRef) -> String {
    file.strings
        .as_ref()
        .and_then(|s| s.get(r))
        .map_or_else(|| format!("#{}", r.0), |s| s.to_string_lossy().into_owned())
}
