//! `gmkit ls`: the assets of one kind, by index and name.

use gmkit_data::DataFile;
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::serde_support::StringScope;
use serde::Serialize;
use serde_json::Value;

/// One listed asset.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Item {
    /// Index in its chunk.
    pub index: usize,
    /// Name (or the text, for strings).
    pub name: String,
    /// A short detail (size, format), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
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
        .map(|(index, e)| Item {
            index,
            name: match e.get("name") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Object(o)) => o
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_owned(),
                _ if e.is_null() => "(none)".to_owned(),
                _ => "?".to_owned(),
            },
            detail: None,
        })
        .collect())
}

/// Lists the assets of `kind` (one of [`KINDS`]).
pub fn list(file: &DataFile, kind: &str) -> Result<Vec<Item>, String> {
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
            .map(|(index, e)| Item {
                index,
                name: text(file, e.name),
                detail: None,
            })
            .collect()),
        "strings" => Ok(file
            .strings
            .iter()
            .flat_map(|s| s.iter())
            .enumerate()
            .map(|(index, s)| Item {
                index,
                name: s.to_string_lossy().into_owned(),
                detail: None,
            })
            .collect()),
        "textures" => Ok(file
            .textures
            .iter()
            .flat_map(|t| t.pages.iter())
            .enumerate()
            .map(|(index, p)| Item {
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

fn text(file: &DataFile, r: gmkit_data::StringRef) -> String {
    file.strings
        .as_ref()
        .and_then(|s| s.get(r))
        .map_or_else(|| format!("#{}", r.0), |s| s.to_string_lossy().into_owned())
}
